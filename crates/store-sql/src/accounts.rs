//! Accounts (issue 17) on both engines: signing in, identities, sessions, download,
//! deletion and sign-in flows. The decisions are `store::accounts::plan_sign_in`'s; the
//! tables to merge, download and delete are `store::user_data`'s. One body, expanded per
//! engine ([`crate::engine`]); beside each expansion, what differs: how an account's
//! session starts (SQLite: through the guest writer, which hands out session ids), how a
//! table's rows become JSON for the download, and how the tables with a `user_id` are
//! found. On PostgreSQL the sign-in locks the rows it reads (`for_update!`) and is run
//! again when another node's transaction clashed with it.

use domain::user::{AccountType, UserServer};
use sqlx::{AssertSqlSafe, Row};
use store::accounts::{SignInPlan, plan_sign_in};
use store::user_data::{USER_TABLES, UserTable, merge_statements, numbered_placeholders};
use store::{
    AccountSessionRequest, IdentityInfo, ProviderIdentity, Result, SessionInfo, SignIn, SignInFlow, SignInOutcome,
    StoreError, UserExport, UserId,
};

use crate::engine::Engine;
use crate::rows::user_from_row;

/// Tries of a sign-in whose transaction clashed with another (two devices signing in
/// with the same new identity at once: the second finds it known and merges).
const ATTEMPTS: u32 = 3;

/// What PostgreSQL adds to a read whose rows the transaction then changes; SQLite's
/// write transaction (`BEGIN IMMEDIATE`) already holds the only write lock.
macro_rules! for_update {
    (sqlite) => {
        ""
    };
    (postgres) => {
        " FOR UPDATE"
    };
}

macro_rules! accounts {
    ($engine:ident, $Store:ty, $Db:ty) => {
        use crate::$engine::db;
        use crate::users::$engine::user_in_tx;

        type Tx<'t> = sqlx::Transaction<'t, $Db>;

        pub(crate) async fn sign_in(store: &$Store, req: &SignIn) -> Result<SignInOutcome> {
            store.settled(req.from_user).await;
            let mut attempt = 1;
            loop {
                match sign_in_once(store, req).await {
                    Err(e) if attempt < ATTEMPTS && worth_retrying(&e) => attempt += 1,
                    other => return other.map_err(db),
                }
            }
        }

        async fn sign_in_once(store: &$Store, req: &SignIn) -> sqlx::Result<SignInOutcome> {
            let mut tx = store.begin_write().await?;
            // The session's user: a second sign-in of the same guest waits for this one.
            let from = sqlx::query(concat!(
                "SELECT ",
                user_columns!(),
                " FROM users u WHERE u.id = $1",
                for_update!($engine)
            ))
            .bind(req.from_user.0)
            .fetch_optional(&mut *tx)
            .await?
            .map(|row| user_from_row(&row))
            .transpose()?;
            let id = &req.identity;
            let owner: Option<i64> = sqlx::query_scalar(concat!(
                "SELECT user_id FROM identities WHERE provider = $1 AND subject = $2",
                for_update!($engine)
            ))
            .bind(id.provider.code())
            .bind(&id.subject)
            .fetch_optional(&mut *tx)
            .await?;
            let outcome = match plan_sign_in(from.as_ref(), owner.map(UserId), req.link) {
                SignInPlan::Refuse(why) => return Ok(SignInOutcome::Refused(why)),
                SignInPlan::Upgrade => {
                    sqlx::query(
                        "UPDATE users SET account_type = $1, name = $2, email = $3, photo = $4, last_time = $5 \
                         WHERE id = $6",
                    )
                    .bind(id.provider.code())
                    .bind(&id.name)
                    .bind(&id.email)
                    .bind(&id.photo)
                    .bind(req.now_ms)
                    .bind(req.from_user.0)
                    .execute(&mut *tx)
                    .await?;
                    insert_identity(&mut tx, req.from_user, id, req.now_ms).await?;
                    SignInOutcome::Upgraded(signed_in_user(&mut tx, req.from_user).await?)
                }
                SignInPlan::Link => {
                    insert_identity(&mut tx, req.from_user, id, req.now_ms).await?;
                    SignInOutcome::SignedIn(signed_in_user(&mut tx, req.from_user).await?)
                }
                SignInPlan::Owner { owner, merge_guest } => {
                    refresh_identity(&mut tx, owner, id, req.now_ms).await?;
                    if merge_guest {
                        merge_guest_into(&mut tx, USER_TABLES, req.from_user, owner, req.now_ms).await?;
                        SignInOutcome::Merged {
                            user: signed_in_user(&mut tx, owner).await?,
                            guest: req.from_user,
                        }
                    } else {
                        SignInOutcome::SignedIn(signed_in_user(&mut tx, owner).await?)
                    }
                }
            };
            tx.commit().await?;
            Ok(outcome)
        }

        async fn signed_in_user(tx: &mut Tx<'_>, id: UserId) -> sqlx::Result<UserServer> {
            user_in_tx(tx, id.0).await?.ok_or(sqlx::Error::RowNotFound)
        }

        /// A plain insert: on PostgreSQL a clash (the same new identity signing in twice at
        /// once) fails this transaction with 23505 and the retry finds the identity known.
        async fn insert_identity(tx: &mut Tx<'_>, user: UserId, id: &ProviderIdentity, now_ms: i64) -> sqlx::Result<()> {
            sqlx::query(
                "INSERT INTO identities (provider, subject, user_id, email, name, photo, linked_at, last_used_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $7)",
            )
            .bind(id.provider.code())
            .bind(&id.subject)
            .bind(user.0)
            .bind(&id.email)
            .bind(&id.name)
            .bind(&id.photo)
            .bind(now_ms)
            .execute(&mut **tx)
            .await?;
            Ok(())
        }

        /// The provider's latest profile, on the identity and (when it has one) the user.
        async fn refresh_identity(
            tx: &mut Tx<'_>,
            owner: UserId,
            id: &ProviderIdentity,
            now_ms: i64,
        ) -> sqlx::Result<()> {
            sqlx::query(
                "UPDATE identities SET email = $1, name = $2, photo = $3, last_used_at = $4 \
                 WHERE provider = $5 AND subject = $6",
            )
            .bind(&id.email)
            .bind(&id.name)
            .bind(&id.photo)
            .bind(now_ms)
            .bind(id.provider.code())
            .bind(&id.subject)
            .execute(&mut **tx)
            .await?;
            sqlx::query(
                "UPDATE users SET name = COALESCE(NULLIF($1, ''), name), email = COALESCE(NULLIF($2, ''), email), \
                 photo = COALESCE(NULLIF($3, ''), photo), last_time = $4 WHERE id = $5",
            )
            .bind(&id.name)
            .bind(&id.email)
            .bind(&id.photo)
            .bind(now_ms)
            .bind(owner.0)
            .execute(&mut **tx)
            .await?;
            Ok(())
        }

        /// Move a guest into an account: its place and language (the reader's latest
        /// choice), every registered table's rows (the account's own kept on a clash),
        /// then remove it.
        pub(crate) async fn merge_guest_into(
            tx: &mut Tx<'_>,
            tables: &[UserTable],
            guest: UserId,
            account: UserId,
            now_ms: i64,
        ) -> sqlx::Result<()> {
            sqlx::query(
                "UPDATE users SET (lat, lon, country, city, city_show, city_id, app_lang, admin_code, postal_code) = \
                 (SELECT lat, lon, country, city, city_show, city_id, app_lang, admin_code, postal_code \
                 FROM users WHERE id = $2), last_time = $3 WHERE id = $1",
            )
            .bind(account.0)
            .bind(guest.0)
            .bind(now_ms)
            .execute(&mut **tx)
            .await?;
            for table in tables {
                let [drop_clashes, move_rest] = merge_statements(table);
                sqlx::query(AssertSqlSafe(numbered_placeholders(&drop_clashes)))
                    .bind(guest.0)
                    .bind(account.0)
                    .execute(&mut **tx)
                    .await?;
                sqlx::query(AssertSqlSafe(numbered_placeholders(&move_rest)))
                    .bind(account.0)
                    .bind(guest.0)
                    .execute(&mut **tx)
                    .await?;
            }
            delete_user_in(tx, guest).await?;
            Ok(())
        }

        async fn delete_user_in(tx: &mut Tx<'_>, user: UserId) -> sqlx::Result<bool> {
            for table in USER_TABLES {
                let sql = format!("DELETE FROM {} WHERE user_id = $1", table.table);
                sqlx::query(AssertSqlSafe(sql)).bind(user.0).execute(&mut **tx).await?;
            }
            // Identities, devices and sessions go with the user (ON DELETE CASCADE).
            let done = sqlx::query("DELETE FROM users WHERE id = $1")
                .bind(user.0)
                .execute(&mut **tx)
                .await?;
            Ok(done.rows_affected() > 0)
        }

        pub(crate) async fn delete_user(store: &$Store, user: UserId) -> Result<bool> {
            store.settled(user).await;
            let mut tx = store.begin_write().await.map_err(db)?;
            let done = delete_user_in(&mut tx, user).await.map_err(db)?;
            tx.commit().await.map_err(db)?;
            Ok(done)
        }

        pub(crate) async fn sessions_of(store: &$Store, user: UserId, now_ms: i64) -> Result<Vec<SessionInfo>> {
            store.all_settled().await;
            sessions_in(store, user, now_ms).await
        }

        async fn sessions_in(store: &$Store, user: UserId, now_ms: i64) -> Result<Vec<SessionInfo>> {
            let rows = sqlx::query(
                "SELECT id, device_id, label, created_at, expires_at FROM sessions \
                 WHERE user_id = $1 AND expires_at > $2 ORDER BY created_at DESC, id DESC",
            )
            .bind(user.0)
            .bind(now_ms)
            .fetch_all(store.reader())
            .await
            .map_err(db)?;
            rows.iter()
                .map(|r| {
                    Ok(SessionInfo {
                        id: r.try_get("id")?,
                        device_id: r.try_get("device_id")?,
                        label: r.try_get("label")?,
                        created_at_ms: r.try_get("created_at")?,
                        expires_at_ms: r.try_get("expires_at")?,
                    })
                })
                .collect::<sqlx::Result<_>>()
                .map_err(db)
        }

        pub(crate) async fn end_session_of(store: &$Store, user: UserId, session_id: i64) -> Result<bool> {
            store.session_settled(session_id).await;
            let done = sqlx::query("DELETE FROM sessions WHERE id = $1 AND user_id = $2")
                .bind(session_id)
                .bind(user.0)
                .execute(store.writer())
                .await
                .map_err(db)?;
            Ok(done.rows_affected() > 0)
        }

        pub(crate) async fn end_other_sessions(store: &$Store, user: UserId, keep: i64) -> Result<u64> {
            store.all_settled().await;
            let done = sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND id <> $2")
                .bind(user.0)
                .bind(keep)
                .execute(store.writer())
                .await
                .map_err(db)?;
            Ok(done.rows_affected())
        }

        pub(crate) async fn identities_of(store: &$Store, user: UserId) -> Result<Vec<IdentityInfo>> {
            let rows = sqlx::query(
                "SELECT provider, subject, email, name, linked_at, last_used_at FROM identities WHERE user_id = $1 \
                 ORDER BY linked_at, provider DESC",
            )
            .bind(user.0)
            .fetch_all(store.reader())
            .await
            .map_err(db)?;
            rows.iter()
                .map(|r| {
                    let code: i32 = r.try_get("provider").map_err(db)?;
                    Ok(IdentityInfo {
                        provider: AccountType::from_code(code)
                            .ok_or_else(|| StoreError::Database(format!("unknown provider {code} in identities")))?,
                        subject: r.try_get("subject").map_err(db)?,
                        email: r.try_get("email").map_err(db)?,
                        name: r.try_get("name").map_err(db)?,
                        linked_at_ms: r.try_get("linked_at").map_err(db)?,
                        last_used_at_ms: r.try_get("last_used_at").map_err(db)?,
                    })
                })
                .collect()
        }

        pub(crate) async fn export_user(store: &$Store, user: UserId) -> Result<Option<UserExport>> {
            store.all_settled().await;
            let pool = store.reader();
            let row = sqlx::query(concat!("SELECT ", user_columns!(), " FROM users u WHERE u.id = $1"))
                .bind(user.0)
                .fetch_optional(pool)
                .await
                .map_err(db)?;
            let Some(user_row) = row.as_ref().map(user_from_row).transpose().map_err(db)? else {
                return Ok(None);
            };
            let devices: Vec<String> =
                sqlx::query_scalar("SELECT device_id FROM devices WHERE user_id = $1 ORDER BY device_id")
                    .bind(user.0)
                    .fetch_all(pool)
                    .await
                    .map_err(db)?;
            let mut tables = Vec::with_capacity(USER_TABLES.len());
            for table in USER_TABLES {
                let rows = rows_as_json(pool, table.table, user).await.map_err(db)?;
                tables.push((table.table.to_string(), rows));
            }
            Ok(Some(UserExport {
                user: user_row,
                identities: identities_of(store, user).await?,
                // Every session, expired ones too: they are stored about the user.
                sessions: sessions_in(store, user, i64::MIN).await?,
                devices,
                tables,
            }))
        }

        pub(crate) async fn user_id_tables(store: &$Store) -> Result<Vec<String>> {
            sqlx::query_scalar(USER_ID_TABLES)
                .fetch_all(store.reader())
                .await
                .map_err(db)
        }

        pub(crate) async fn put_sign_in_flow(store: &$Store, f: &SignInFlow) -> Result<()> {
            let mut tx = store.begin_write().await.map_err(db)?;
            sqlx::query("DELETE FROM sign_in_flows WHERE expires_at <= $1")
                .bind(f.created_at_ms)
                .execute(&mut *tx)
                .await
                .map_err(db)?;
            sqlx::query(
                "INSERT INTO sign_in_flows (state_hash, provider, browser_hash, session_id, pkce_verifier, nonce, \
                 return_to, popup, link, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            )
            .bind(&f.state_hash)
            .bind(f.provider.code())
            .bind(&f.browser_hash)
            .bind(f.session_id)
            .bind(&f.pkce_verifier)
            .bind(&f.nonce)
            .bind(&f.return_to)
            .bind(f.popup)
            .bind(f.link)
            .bind(f.created_at_ms)
            .bind(f.expires_at_ms)
            .execute(&mut *tx)
            .await
            .map_err(db)?;
            tx.commit().await.map_err(db)
        }

        pub(crate) async fn take_sign_in_flow(
            store: &$Store,
            state_hash: &str,
            now_ms: i64,
        ) -> Result<Option<SignInFlow>> {
            let row = sqlx::query(
                "DELETE FROM sign_in_flows WHERE state_hash = $1 RETURNING state_hash, provider, browser_hash, \
                 session_id, pkce_verifier, nonce, return_to, popup, link, created_at, expires_at",
            )
            .bind(state_hash)
            .fetch_optional(store.writer())
            .await
            .map_err(db)?;
            let Some(r) = row else { return Ok(None) };
            let code: i32 = r.try_get("provider").map_err(db)?;
            let flow = SignInFlow {
                state_hash: r.try_get("state_hash").map_err(db)?,
                provider: AccountType::from_code(code)
                    .ok_or_else(|| StoreError::Database(format!("unknown provider {code} in sign_in_flows")))?,
                browser_hash: r.try_get("browser_hash").map_err(db)?,
                session_id: r.try_get("session_id").map_err(db)?,
                pkce_verifier: r.try_get("pkce_verifier").map_err(db)?,
                nonce: r.try_get("nonce").map_err(db)?,
                return_to: r.try_get("return_to").map_err(db)?,
                popup: r.try_get("popup").map_err(db)?,
                link: r.try_get("link").map_err(db)?,
                created_at_ms: r.try_get("created_at").map_err(db)?,
                expires_at_ms: r.try_get("expires_at").map_err(db)?,
            };
            Ok((flow.expires_at_ms > now_ms).then_some(flow))
        }
    };
}

pub(crate) mod sqlite {
    use super::*;
    use crate::sqlite::SqliteStore;

    accounts!(sqlite, SqliteStore, sqlx::Sqlite);

    /// One writer: a failed sign-in is not another's clash, so it is never run again.
    fn worth_retrying(_: &sqlx::Error) -> bool {
        false
    }

    /// Through the guest writer, which hands out session ids (D165).
    pub(crate) async fn start_account_session(store: &SqliteStore, req: &AccountSessionRequest) -> Result<i64> {
        store.settled(req.user_id).await;
        let session = store
            .guests
            .submit(crate::sqlite::guest_writer::Work::Account(req.clone()))
            .await?;
        Ok(session.session_id)
    }

    /// A table's rows of one user as JSON objects, by its columns' names.
    async fn rows_as_json(pool: &sqlx::SqlitePool, table: &str, user: UserId) -> sqlx::Result<Vec<String>> {
        let columns: Vec<String> = sqlx::query_scalar("SELECT name FROM pragma_table_info($1) ORDER BY cid")
            .bind(table)
            .fetch_all(pool)
            .await?;
        let fields: Vec<String> = columns.iter().map(|c| format!("'{c}', \"{c}\"")).collect();
        let sql = format!(
            "SELECT json_object({}) FROM {table} WHERE user_id = $1",
            fields.join(", ")
        );
        sqlx::query_scalar(AssertSqlSafe(sql))
            .bind(user.0)
            .fetch_all(pool)
            .await
    }

    const USER_ID_TABLES: &str = "SELECT m.name FROM sqlite_master m JOIN pragma_table_info(m.name) c \
         WHERE m.type = 'table' AND c.name = 'user_id' ORDER BY 1";
}

pub(crate) mod postgres {
    use super::*;
    use crate::postgres::PgStore;

    accounts!(postgres, PgStore, sqlx::Postgres);

    use crate::postgres::content::worth_retrying;

    pub(crate) async fn start_account_session(store: &PgStore, req: &AccountSessionRequest) -> Result<i64> {
        let mut tx = store.pool.begin().await.map_err(db)?;
        sqlx::query(
            "INSERT INTO devices (device_id, user_id, channel, created_at, last_seen) VALUES ($1, $2, '', $3, $3) \
             ON CONFLICT (device_id) DO UPDATE SET user_id = excluded.user_id, last_seen = excluded.last_seen",
        )
        .bind(&req.device_id)
        .bind(req.user_id.0)
        .bind(req.now_ms)
        .execute(&mut *tx)
        .await
        .map_err(db)?;
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO sessions (verifier_hash, user_id, device_id, created_at, expires_at, label) \
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
        )
        .bind(&req.verifier_hash)
        .bind(req.user_id.0)
        .bind(&req.device_id)
        .bind(req.now_ms)
        .bind(req.expires_at_ms)
        .bind(&req.label)
        .fetch_one(&mut *tx)
        .await
        .map_err(db)?;
        tx.commit().await.map_err(db)?;
        Ok(id)
    }

    /// A table's rows of one user as JSON objects, by its columns' names.
    async fn rows_as_json(pool: &sqlx::PgPool, table: &str, user: UserId) -> sqlx::Result<Vec<String>> {
        let sql = format!("SELECT row_to_json(t)::text FROM {table} t WHERE user_id = $1");
        sqlx::query_scalar(AssertSqlSafe(sql))
            .bind(user.0)
            .fetch_all(pool)
            .await
    }

    const USER_ID_TABLES: &str = "SELECT table_name::text FROM information_schema.columns \
         WHERE table_schema = current_schema() AND column_name = 'user_id' ORDER BY 1";
}

#[cfg(test)]
mod tests {
    use super::*;
    use store::Store;
    use store::contract::request;

    /// The merge every registered table gets, on a table made for the test: the guest's
    /// rows move to the account, except those the account already has (by key).
    macro_rules! merge_test {
        ($engine:ident, $store:expr) => {
            #[tokio::test]
            async fn merging_moves_a_guests_rows_and_keeps_the_accounts_on_a_clash() {
                let Some(store) = ($store) else { return };
                let guest = store
                    .start_guest_session(&request("d-g", "h1", 1_000))
                    .await
                    .unwrap();
                let account = store
                    .start_guest_session(&request("d-a", "h2", 1_000))
                    .await
                    .unwrap();
                let (guest, account) = (UserId(guest.user.id), UserId(account.user.id));
                store.all_settled().await;
                sqlx::query(
                    "CREATE TABLE saved_probe (user_id BIGINT NOT NULL, news_id BIGINT NOT NULL, \
                     note TEXT NOT NULL, PRIMARY KEY (user_id, news_id))",
                )
                .execute(store.writer())
                .await
                .unwrap();
                for (user, news, note) in [
                    (account, 1_i64, "account's"),
                    (guest, 1, "guest's"),
                    (guest, 2, "guest's"),
                ] {
                    sqlx::query("INSERT INTO saved_probe VALUES ($1, $2, $3)")
                        .bind(user.0)
                        .bind(news)
                        .bind(note)
                        .execute(store.writer())
                        .await
                        .unwrap();
                }
                let probe = UserTable {
                    table: "saved_probe",
                    key: &["news_id"],
                };
                let mut tx = store.begin_write().await.unwrap();
                super::super::$engine::merge_guest_into(&mut tx, &[probe], guest, account, 2_000)
                    .await
                    .unwrap();
                tx.commit().await.unwrap();
                let rows: Vec<(i64, i64, String)> =
                    sqlx::query_as("SELECT user_id, news_id, note FROM saved_probe ORDER BY news_id")
                        .fetch_all(store.writer())
                        .await
                        .unwrap();
                assert_eq!(
                    rows,
                    [
                        (account.0, 1, "account's".to_string()),
                        (account.0, 2, "guest's".to_string())
                    ]
                );
                assert!(store.user(guest).await.unwrap().is_none());
            }
        };
    }

    mod sqlite {
        use super::*;
        merge_test!(sqlite, {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0);
            let dir = std::env::temp_dir().join(format!("lw-merge-{}-{nanos}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            Some(
                crate::sqlite::SqliteStore::open_file(&dir.join("localwire.sqlite"))
                    .await
                    .unwrap(),
            )
        });
    }

    mod postgres {
        use super::*;
        merge_test!(postgres, {
            match crate::postgres::testing::fresh_database().await {
                Some(options) => Some(crate::postgres::PgStore::connect_with(options).await.unwrap()),
                None => None,
            }
        });
    }
}
