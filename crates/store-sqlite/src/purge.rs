//! The purge of idle guests and expired sessions (issue 29, D352), in small batches
//! through the one writer connection, so first visits and the reader's writes wait at most
//! one batch.

use crate::{SqliteStore, db};
use sqlx::AssertSqlSafe;
use store::user_data::USER_TABLES;
use store::{Purged, Result};

/// Guests (or sessions) removed per transaction.
const BATCH: i64 = 500;

pub async fn purge_idle(store: &SqliteStore, guests_idle_before_ms: Option<i64>, now_ms: i64) -> Result<Purged> {
    let mut purged = Purged::default();
    if let Some(before) = guests_idle_before_ms {
        // Walked by id, so one purge reads the users table once however many go.
        let mut after = 0_i64;
        loop {
            let mut tx = store.writer.begin_with("BEGIN IMMEDIATE").await.map_err(db)?;
            let ids: Vec<i64> = sqlx::query_scalar(
                "SELECT id FROM users WHERE id > ?1 AND account_type = 0 AND last_time < ?2 ORDER BY id LIMIT ?3",
            )
            .bind(after)
            .bind(before)
            .bind(BATCH)
            .fetch_all(&mut *tx)
            .await
            .map_err(db)?;
            let Some(&last) = ids.last() else { break };
            let list = serde_json::to_string(&ids).map_err(|e| store::StoreError::Database(e.to_string()))?;
            for table in USER_TABLES {
                let sql = format!(
                    "DELETE FROM {} WHERE user_id IN (SELECT value FROM json_each(?1))",
                    table.table
                );
                sqlx::query(AssertSqlSafe(sql))
                    .bind(&list)
                    .execute(&mut *tx)
                    .await
                    .map_err(db)?;
            }
            // Identities, devices and sessions go with the user (ON DELETE CASCADE).
            let done = sqlx::query("DELETE FROM users WHERE id IN (SELECT value FROM json_each(?1))")
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
        let done =
            sqlx::query("DELETE FROM sessions WHERE id IN (SELECT id FROM sessions WHERE expires_at <= ?1 LIMIT ?2)")
                .bind(now_ms)
                .bind(BATCH)
                .execute(&store.writer)
                .await
                .map_err(db)?;
        purged.sessions += done.rows_affected();
        if (done.rows_affected() as i64) < BATCH {
            break;
        }
    }
    Ok(purged)
}
