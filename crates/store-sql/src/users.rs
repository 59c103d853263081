//! A user's rows, sessions and the app settings on both engines: one body, expanded per
//! engine ([`crate::engine`]); beside each expansion, how a guest starts.

use domain::user::UserServer;

use crate::rows::user_from_row;

/// A user's rows and the app settings on either engine. SQLite's `Store` keeps its
/// session cache around these (`sqlite/mod.rs`); the SQL is here once.
macro_rules! users {
    ($engine:ident, $Store:ty, $Db:ty) => {
        use crate::engine::Engine;
        use crate::$engine::db;
        use sqlx::Row;
        use store::{LocationUpdate, Result, SessionKey, SessionUser, UserId};

        pub(crate) async fn health(store: &$Store) -> Result<()> {
            sqlx::query("SELECT 1")
                .execute(store.reader())
                .await
                .map_err(db)?;
            Ok(())
        }

        pub(crate) async fn user(store: &$Store, id: UserId) -> Result<Option<UserServer>> {
            store.settled(id).await;
            let row = sqlx::query(concat!(
                "SELECT ",
                user_columns!(),
                " FROM users u WHERE u.id = $1"
            ))
            .bind(id.0)
            .fetch_optional(store.reader())
            .await
            .map_err(db)?;
            row.as_ref().map(user_from_row).transpose().map_err(db)
        }

        /// The session's user, read from the database (SQLite keeps a cache in front).
        pub(crate) async fn session_user(store: &$Store, key: &SessionKey) -> Result<Option<SessionUser>> {
            store.session_settled(key.id).await;
            let row = sqlx::query(concat!(
                "SELECT ",
                user_columns!(),
                ", s.device_id, s.expires_at FROM sessions s JOIN users u ON u.id = s.user_id \
                 WHERE s.id = $1 AND s.verifier_hash = $2"
            ))
            .bind(key.id)
            .bind(&key.verifier_hash)
            .fetch_optional(store.reader())
            .await
            .map_err(db)?;
            row.map(|row| {
                Ok(SessionUser {
                    user: user_from_row(&row)?,
                    device_id: row.try_get("device_id")?,
                    expires_at_ms: row.try_get("expires_at")?,
                })
            })
            .transpose()
            .map_err(db)
        }

        pub(crate) async fn end_session(store: &$Store, key: &SessionKey) -> Result<bool> {
            store.session_settled(key.id).await;
            let done = sqlx::query("DELETE FROM sessions WHERE id = $1 AND verifier_hash = $2")
                .bind(key.id)
                .bind(&key.verifier_hash)
                .execute(store.writer())
                .await
                .map_err(db)?;
            Ok(done.rows_affected() > 0)
        }

        pub(crate) async fn touch_user(store: &$Store, id: UserId, now_ms: i64) -> Result<()> {
            store.settled(id).await;
            sqlx::query("UPDATE users SET last_time = $1 WHERE id = $2")
                .bind(now_ms)
                .bind(id.0)
                .execute(store.writer())
                .await
                .map_err(db)?;
            Ok(())
        }

        pub(crate) async fn update_location(
            store: &$Store,
            id: UserId,
            u: &LocationUpdate,
            now_ms: i64,
        ) -> Result<Option<UserServer>> {
            store.settled(id).await;
            let mut tx = store.writer().begin().await.map_err(db)?;
            let done = sqlx::query(
                "UPDATE users SET lat = $1, lon = $2, country = $3, city = $4, city_show = $5, city_id = $6, \
                 app_lang = $7, admin_code = $8, postal_code = $9, last_time = $10 WHERE id = $11",
            )
            .bind(u.lat)
            .bind(u.lon)
            .bind(&u.country)
            .bind(&u.city)
            .bind(&u.city_show)
            .bind(u.city_id.0)
            .bind(&u.app_lang)
            .bind(&u.admin_code)
            .bind(&u.postal_code)
            .bind(now_ms)
            .bind(id.0)
            .execute(&mut *tx)
            .await
            .map_err(db)?;
            if done.rows_affected() == 0 {
                return Ok(None);
            }
            let user = user_in_tx(&mut tx, id.0).await.map_err(db)?;
            tx.commit().await.map_err(db)?;
            Ok(user)
        }

        pub(crate) async fn setting(store: &$Store, key: &str) -> Result<Option<String>> {
            sqlx::query_scalar("SELECT value FROM app_settings WHERE key = $1")
                .bind(key)
                .fetch_optional(store.reader())
                .await
                .map_err(db)
        }

        pub(crate) async fn put_setting(store: &$Store, key: &str, value: &str, now_ms: i64) -> Result<()> {
            sqlx::query(
                "INSERT INTO app_settings (key, value, updated_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
            )
            .bind(key)
            .bind(value)
            .bind(now_ms)
            .execute(store.writer())
            .await
            .map_err(db)?;
            Ok(())
        }

        /// The user `id`, read inside a transaction.
        pub(crate) async fn user_in_tx(
            tx: &mut sqlx::Transaction<'_, $Db>,
            id: i64,
        ) -> sqlx::Result<Option<UserServer>> {
            let row = sqlx::query(concat!(
                "SELECT ",
                user_columns!(),
                " FROM users u WHERE u.id = $1"
            ))
            .bind(id)
            .fetch_optional(&mut **tx)
            .await?;
            row.as_ref().map(user_from_row).transpose()
        }
    };
}

pub(crate) mod sqlite {
    use super::*;
    use store::{GuestSession, GuestSessionRequest};

    users!(sqlite, crate::sqlite::SqliteStore, sqlx::Sqlite);

    /// Through the guest writer, which hands out the ids and answers before its group
    /// commits (D165).
    pub(crate) async fn start_guest_session(
        store: &crate::sqlite::SqliteStore,
        req: &GuestSessionRequest,
    ) -> Result<GuestSession> {
        store
            .guests
            .submit(crate::sqlite::guest_writer::Work::Guest(req.clone()))
            .await
    }
}

pub(crate) mod postgres {
    use super::*;
    use store::{GuestSession, GuestSessionRequest, StoreError};

    users!(postgres, crate::postgres::PgStore, sqlx::Postgres);

    pub(crate) async fn start_guest_session(
        store: &crate::postgres::PgStore,
        req: &GuestSessionRequest,
    ) -> Result<GuestSession> {
        let mut tx = store.pool.begin().await.map_err(db)?;
        // Always a new guest: a device id is a label anyone may copy, never a way back to
        // the guest it named (D350). The device points at its newest guest.
        let g = &req.guest;
        let user_id: i64 = sqlx::query_scalar(
            "INSERT INTO users (account_type, user_type, join_time, last_time, app_lang, country, postal_code, \
             admin_code, city, city_show, city_id, lat, lon) VALUES (0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id",
        )
        .bind(g.user_type)
        .bind(req.now_ms)
        .bind(req.now_ms)
        .bind(&g.app_lang)
        .bind(&g.country)
        .bind(&g.postal_code)
        .bind(&g.admin_code)
        .bind(&g.city)
        .bind(&g.city_show)
        .bind(g.city_id.0)
        .bind(g.lat)
        .bind(g.lon)
        .fetch_one(&mut *tx)
        .await
        .map_err(db)?;
        sqlx::query(
            "INSERT INTO devices (device_id, user_id, channel, created_at, last_seen) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (device_id) DO UPDATE SET user_id = excluded.user_id, last_seen = excluded.last_seen",
        )
        .bind(&req.device_id)
        .bind(user_id)
        .bind(&g.channel)
        .bind(req.now_ms)
        .bind(req.now_ms)
        .execute(&mut *tx)
        .await
        .map_err(db)?;
        let session_id: i64 = sqlx::query_scalar(
            "INSERT INTO sessions (verifier_hash, user_id, device_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5) \
             RETURNING id",
        )
        .bind(&req.verifier_hash)
        .bind(user_id)
        .bind(&req.device_id)
        .bind(req.now_ms)
        .bind(req.expires_at_ms)
        .fetch_one(&mut *tx)
        .await
        .map_err(db)?;
        let user = user_in_tx(&mut tx, user_id).await.map_err(db)?;
        tx.commit().await.map_err(db)?;
        let mut user = user.ok_or_else(|| StoreError::Database("user vanished inside its own transaction".into()))?;
        user.is_new_user = 1;
        Ok(GuestSession {
            user,
            is_new_user: true,
            session_id,
        })
    }
}
