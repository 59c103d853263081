//! The store contract on PostgreSQL. Runs when `TEST_DATABASE_URL` is set (CI always
//! sets it); every test gets its own new database.

use store_postgres::{PgStore, testing};

async fn fresh() -> Option<PgStore> {
    let options = testing::fresh_database().await?;
    Some(
        PgStore::connect_with(options)
            .await
            .expect("connect to the test database"),
    )
}

store::store_contract_tests!(fresh());
