//! What an area's shared body (e.g. [`crate::push`]) asks of an engine. Each area writes
//! its body once in a `macro_rules!` and expands it for both engines: the body is then
//! plain, statically typed sqlx code for each, and everything it asks beyond that is here.

use std::future::Future;

use store::UserId;

pub(crate) trait Engine {
    type Db: sqlx::Database;
    /// Where writes go: SQLite's one writer connection, PostgreSQL's pool.
    fn writer(&self) -> &sqlx::Pool<Self::Db>;
    /// Where reads go: SQLite's reader pool (never waits for a write in WAL mode),
    /// PostgreSQL's pool.
    fn reader(&self) -> &sqlx::Pool<Self::Db>;
    /// A transaction that writes. SQLite takes the write lock at once (`BEGIN IMMEDIATE`),
    /// so a transaction that reads first never fails to upgrade.
    fn begin_write(&self) -> impl Future<Output = sqlx::Result<sqlx::Transaction<'_, Self::Db>>> + Send;
    /// Wait until the user's row is written. SQLite's guest writer hands out user ids
    /// before their rows are committed (D165); on PostgreSQL a user exists once named.
    fn settled(&self, user: UserId) -> impl Future<Output = ()> + Send;
    /// Wait until the session's row is written (SQLite's guest writer, as `settled`).
    fn session_settled(&self, session: i64) -> impl Future<Output = ()> + Send;
    /// Wait until every row handed out so far is written (SQLite's guest writer).
    fn all_settled(&self) -> impl Future<Output = ()> + Send;
}

impl Engine for crate::sqlite::SqliteStore {
    type Db = sqlx::Sqlite;
    fn writer(&self) -> &sqlx::SqlitePool {
        &self.writer
    }
    fn reader(&self) -> &sqlx::SqlitePool {
        &self.reader
    }
    async fn begin_write(&self) -> sqlx::Result<sqlx::Transaction<'_, sqlx::Sqlite>> {
        self.writer.begin_with("BEGIN IMMEDIATE").await
    }
    async fn settled(&self, user: UserId) {
        self.guests.user_settled(user.0).await;
    }
    async fn session_settled(&self, session: i64) {
        self.guests.session_settled(session).await;
    }
    async fn all_settled(&self) {
        self.guests.finish_writes().await;
    }
}

impl Engine for crate::postgres::PgStore {
    type Db = sqlx::Postgres;
    fn writer(&self) -> &sqlx::PgPool {
        &self.pool
    }
    fn reader(&self) -> &sqlx::PgPool {
        &self.pool
    }
    async fn begin_write(&self) -> sqlx::Result<sqlx::Transaction<'_, sqlx::Postgres>> {
        self.pool.begin().await
    }
    async fn settled(&self, _user: UserId) {}
    async fn session_settled(&self, _session: i64) {}
    async fn all_settled(&self) {}
}
