//! The purge of idle guests and expired sessions (issue 29, D352) on both engines, in small
//! batches. On SQLite they go through the one writer connection, so first visits and the
//! reader's writes wait at most one batch. On PostgreSQL rows are locked as they are chosen
//! (`skip_locked!`): a guest signing in on another node meanwhile is left to that sign-in,
//! and two nodes purging never wait on each other.

use sqlx::AssertSqlSafe;
use store::user_data::USER_TABLES;
use store::{Purged, Result};

use crate::engine::Engine;

/// Guests (or sessions) removed per transaction.
const BATCH: i64 = 500;

macro_rules! purge {
    ($engine:ident, $Store:ty) => {
        pub(crate) async fn purge_idle(
            store: &$Store,
            guests_idle_before_ms: Option<i64>,
            now_ms: i64,
        ) -> Result<Purged> {
            use crate::$engine::db;
            let mut purged = Purged::default();
            if let Some(before) = guests_idle_before_ms {
                // Walked by id, so one purge reads the users table once however many go.
                let mut after = 0_i64;
                loop {
                    let mut tx = store.begin_write().await.map_err(db)?;
                    let ids: Vec<i64> = sqlx::query_scalar(concat!(
                        "SELECT id FROM users WHERE id > $1 AND account_type = 0 AND last_time < $2 \
                         ORDER BY id LIMIT $3",
                        skip_locked!($engine)
                    ))
                    .bind(after)
                    .bind(before)
                    .bind(BATCH)
                    .fetch_all(&mut *tx)
                    .await
                    .map_err(db)?;
                    let Some(&last) = ids.last() else { break };
                    let list = crate::$engine::id_list(ids.iter().copied());
                    for table in USER_TABLES {
                        let sql = format!(
                            "DELETE FROM {} WHERE user_id {}",
                            table.table,
                            among!($engine, "$1")
                        );
                        sqlx::query(AssertSqlSafe(sql))
                            .bind(&list)
                            .execute(&mut *tx)
                            .await
                            .map_err(db)?;
                    }
                    // Identities, devices and sessions go with the user (ON DELETE CASCADE).
                    let done = sqlx::query(concat!("DELETE FROM users WHERE id ", among!($engine, "$1")))
                        .bind(&list)
                        .execute(&mut *tx)
                        .await
                        .map_err(db)?;
                    tx.commit().await.map_err(db)?;
                    purged.guests += done.rows_affected();
                    after = last;
                    if (ids.len() as i64) < BATCH {
                        break;
                    }
                }
            }
            loop {
                let done = sqlx::query(concat!(
                    "DELETE FROM sessions WHERE id IN (SELECT id FROM sessions WHERE expires_at <= $1 LIMIT $2",
                    skip_locked!($engine),
                    ")"
                ))
                .bind(now_ms)
                .bind(BATCH)
                .execute(store.writer())
                .await
                .map_err(db)?;
                purged.sessions += done.rows_affected();
                if (done.rows_affected() as i64) < BATCH {
                    break;
                }
            }
            Ok(purged)
        }
    };
}

pub(crate) mod sqlite {
    use super::*;
    purge!(sqlite, crate::sqlite::SqliteStore);
}

pub(crate) mod postgres {
    use super::*;
    purge!(postgres, crate::postgres::PgStore);
}
