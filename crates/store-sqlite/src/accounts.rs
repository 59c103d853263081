//! Accounts on SQLite (issue 17): signing in, identities, sessions, download, deletion
//! and sign-in flows. The decisions are `store::accounts::plan_sign_in`'s; the tables to
//! merge, download and delete are `store::user_data`'s. Writes go through the one writer
//! connection; new sessions through the guest writer, which hands out session ids.

use crate::{SqliteStore, db, user_from_row, user_in_tx};
use domain::user::{AccountType, UserServer};
use sqlx::{AssertSqlSafe, Row, Sqlite, SqlitePool, Transaction};
use store::accounts::{SignInPlan, plan_sign_in};
use store::user_data::{USER_TABLES, UserTable, merge_statements};
use store::{
    AccountSessionRequest, IdentityInfo, ProviderIdentity, Result, SessionInfo, SignIn, SignInFlow, SignInOutcome,
    StoreError, UserExport, UserId,
};

type Tx = Transaction<'static, Sqlite>;

pub async fn sign_in(store: &SqliteStore, req: &SignIn) -> Result<SignInOutcome> {
    store.guests.user_settled(req.from_user.0).await;
    // IMMEDIATE: it reads before it writes, and the guest writer writes this file too.
    let mut tx = store.writer.begin_with("BEGIN IMMEDIATE").await.map_err(db)?;
    let from = user_in_tx(&mut tx, req.from_user.0).await.map_err(db)?;
    let id = &req.identity;
    let owner: Option<i64> = sqlx::query_scalar("SELECT user_id FROM identities WHERE provider = ? AND subject = ?")
        .bind(id.provider.code())
        .bind(&id.subject)
        .fetch_optional(&mut *tx)
        .await
        .map_err(db)?;
    let outcome = match plan_sign_in(from.as_ref(), owner.map(UserId), req.link) {
        SignInPlan::Refuse(why) => return Ok(SignInOutcome::Refused(why)),
        SignInPlan::Upgrade => {
            sqlx::query(
                "UPDATE users SET account_type = ?, name = ?, email = ?, photo = ?, last_time = ? WHERE id = ?",
            )
            .bind(id.provider.code())
            .bind(&id.name)
            .bind(&id.email)
            .bind(&id.photo)
            .bind(req.now_ms)
            .bind(req.from_user.0)
            .execute(&mut *tx)
            .await
            .map_err(db)?;
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
    tx.commit().await.map_err(db)?;
    Ok(outcome)
}

async fn signed_in_user(tx: &mut Tx, id: UserId) -> Result<UserServer> {
    user_in_tx(tx, id.0)
        .await
        .map_err(db)?
        .ok_or_else(|| StoreError::Database(format!("user {id} vanished inside its own transaction")))
}

async fn insert_identity(tx: &mut Tx, user: UserId, id: &ProviderIdentity, now_ms: i64) -> Result<()> {
    sqlx::query(
        "INSERT INTO identities (provider, subject, user_id, email, name, photo, linked_at, last_used_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)",
    )
    .bind(id.provider.code())
    .bind(&id.subject)
    .bind(user.0)
    .bind(&id.email)
    .bind(&id.name)
    .bind(&id.photo)
    .bind(now_ms)
    .execute(&mut **tx)
    .await
    .map_err(db)?;
    Ok(())
}

/// The provider's latest profile, on the identity and (when it has one) the user.
async fn refresh_identity(tx: &mut Tx, owner: UserId, id: &ProviderIdentity, now_ms: i64) -> Result<()> {
    sqlx::query(
        "UPDATE identities SET email = ?, name = ?, photo = ?, last_used_at = ? WHERE provider = ? AND subject = ?",
    )
    .bind(&id.email)
    .bind(&id.name)
    .bind(&id.photo)
    .bind(now_ms)
    .bind(id.provider.code())
    .bind(&id.subject)
    .execute(&mut **tx)
    .await
    .map_err(db)?;
    sqlx::query(
        "UPDATE users SET name = COALESCE(NULLIF(?1, ''), name), email = COALESCE(NULLIF(?2, ''), email), \
         photo = COALESCE(NULLIF(?3, ''), photo), last_time = ?4 WHERE id = ?5",
    )
    .bind(&id.name)
    .bind(&id.email)
    .bind(&id.photo)
    .bind(now_ms)
    .bind(owner.0)
    .execute(&mut **tx)
    .await
    .map_err(db)?;
    Ok(())
}

/// Move a guest into an account: its place and language (the reader's latest choice),
/// every registered table's rows (the account's own kept on a clash), then remove it.
pub async fn merge_guest_into(
    tx: &mut Tx,
    tables: &[UserTable],
    guest: UserId,
    account: UserId,
    now_ms: i64,
) -> Result<()> {
    sqlx::query(
        "UPDATE users SET (lat, lon, country, city, city_show, city_id, app_lang, admin_code, postal_code) = \
         (SELECT lat, lon, country, city, city_show, city_id, app_lang, admin_code, postal_code FROM users WHERE id = ?2), \
         last_time = ?3 WHERE id = ?1",
    )
    .bind(account.0)
    .bind(guest.0)
    .bind(now_ms)
    .execute(&mut **tx)
    .await
    .map_err(db)?;
    for table in tables {
        let [drop_clashes, move_rest] = merge_statements(table);
        sqlx::query(AssertSqlSafe(drop_clashes))
            .bind(guest.0)
            .bind(account.0)
            .execute(&mut **tx)
            .await
            .map_err(db)?;
        sqlx::query(AssertSqlSafe(move_rest))
            .bind(account.0)
            .bind(guest.0)
            .execute(&mut **tx)
            .await
            .map_err(db)?;
    }
    delete_user_in(tx, guest).await?;
    Ok(())
}

async fn delete_user_in(tx: &mut Tx, user: UserId) -> Result<bool> {
    for table in USER_TABLES {
        let sql = format!("DELETE FROM {} WHERE user_id = ?", table.table);
        sqlx::query(AssertSqlSafe(sql))
            .bind(user.0)
            .execute(&mut **tx)
            .await
            .map_err(db)?;
    }
    // Identities, devices and sessions go with the user (ON DELETE CASCADE).
    let done = sqlx::query("DELETE FROM users WHERE id = ?")
        .bind(user.0)
        .execute(&mut **tx)
        .await
        .map_err(db)?;
    Ok(done.rows_affected() > 0)
}

pub async fn delete_user(store: &SqliteStore, user: UserId) -> Result<bool> {
    store.guests.user_settled(user.0).await;
    let mut tx = store.writer.begin().await.map_err(db)?;
    let done = delete_user_in(&mut tx, user).await?;
    tx.commit().await.map_err(db)?;
    Ok(done)
}

pub async fn start_account_session(store: &SqliteStore, req: &AccountSessionRequest) -> Result<i64> {
    store.guests.user_settled(req.user_id.0).await;
    let session = store
        .guests
        .submit(crate::guest_writer::Work::Account(req.clone()))
        .await?;
    Ok(session.session_id)
}

pub async fn sessions_of(store: &SqliteStore, user: UserId, now_ms: i64) -> Result<Vec<SessionInfo>> {
    store.guests.finish_writes().await;
    sessions_in(&store.reader, user, now_ms).await
}

async fn sessions_in(pool: &SqlitePool, user: UserId, now_ms: i64) -> Result<Vec<SessionInfo>> {
    let rows = sqlx::query(
        "SELECT id, device_id, label, created_at, expires_at FROM sessions WHERE user_id = ? AND expires_at > ? \
         ORDER BY created_at DESC, id DESC",
    )
    .bind(user.0)
    .bind(now_ms)
    .fetch_all(pool)
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
        .collect::<std::result::Result<_, sqlx::Error>>()
        .map_err(db)
}

pub async fn end_session_of(store: &SqliteStore, user: UserId, session_id: i64) -> Result<bool> {
    store.guests.session_settled(session_id).await;
    let done = sqlx::query("DELETE FROM sessions WHERE id = ? AND user_id = ?")
        .bind(session_id)
        .bind(user.0)
        .execute(&store.writer)
        .await
        .map_err(db)?;
    Ok(done.rows_affected() > 0)
}

pub async fn end_other_sessions(store: &SqliteStore, user: UserId, keep: i64) -> Result<u64> {
    store.guests.finish_writes().await;
    let done = sqlx::query("DELETE FROM sessions WHERE user_id = ? AND id <> ?")
        .bind(user.0)
        .bind(keep)
        .execute(&store.writer)
        .await
        .map_err(db)?;
    Ok(done.rows_affected())
}

pub async fn identities_of(store: &SqliteStore, user: UserId) -> Result<Vec<IdentityInfo>> {
    let rows = sqlx::query(
        "SELECT provider, subject, email, name, linked_at, last_used_at FROM identities WHERE user_id = ? \
         ORDER BY linked_at, provider DESC",
    )
    .bind(user.0)
    .fetch_all(&store.reader)
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

pub async fn export_user(store: &SqliteStore, user: UserId) -> Result<Option<UserExport>> {
    store.guests.finish_writes().await;
    let pool = &store.reader;
    let row = sqlx::query(concat!("SELECT ", user_columns!(), " FROM users u WHERE u.id = ?"))
        .bind(user.0)
        .fetch_optional(pool)
        .await
        .map_err(db)?;
    let Some(user_row) = row.as_ref().map(user_from_row).transpose().map_err(db)? else {
        return Ok(None);
    };
    let devices: Vec<String> = sqlx::query_scalar("SELECT device_id FROM devices WHERE user_id = ? ORDER BY device_id")
        .bind(user.0)
        .fetch_all(pool)
        .await
        .map_err(db)?;
    let mut tables = Vec::with_capacity(USER_TABLES.len());
    for table in USER_TABLES {
        let columns: Vec<String> = sqlx::query_scalar("SELECT name FROM pragma_table_info(?) ORDER BY cid")
            .bind(table.table)
            .fetch_all(pool)
            .await
            .map_err(db)?;
        let fields: Vec<String> = columns.iter().map(|c| format!("'{c}', \"{c}\"")).collect();
        let sql = format!(
            "SELECT json_object({}) FROM {} WHERE user_id = ?",
            fields.join(", "),
            table.table
        );
        let rows: Vec<String> = sqlx::query_scalar(AssertSqlSafe(sql))
            .bind(user.0)
            .fetch_all(pool)
            .await
            .map_err(db)?;
        tables.push((table.table.to_string(), rows));
    }
    Ok(Some(UserExport {
        user: user_row,
        identities: identities_of(store, user).await?,
        // Every session, expired ones too: they are stored about the user.
        sessions: sessions_in(pool, user, i64::MIN).await?,
        devices,
        tables,
    }))
}

pub async fn user_id_tables(store: &SqliteStore) -> Result<Vec<String>> {
    sqlx::query_scalar(
        "SELECT m.name FROM sqlite_master m JOIN pragma_table_info(m.name) c \
         WHERE m.type = 'table' AND c.name = 'user_id' ORDER BY 1",
    )
    .fetch_all(&store.reader)
    .await
    .map_err(db)
}

pub async fn put_sign_in_flow(store: &SqliteStore, f: &SignInFlow) -> Result<()> {
    let mut tx = store.writer.begin().await.map_err(db)?;
    sqlx::query("DELETE FROM sign_in_flows WHERE expires_at <= ?")
        .bind(f.created_at_ms)
        .execute(&mut *tx)
        .await
        .map_err(db)?;
    sqlx::query(
        "INSERT INTO sign_in_flows (state_hash, provider, browser_hash, session_id, pkce_verifier, nonce, return_to, \
         popup, link, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
    tx.commit().await.map_err(db)?;
    Ok(())
}

pub async fn take_sign_in_flow(store: &SqliteStore, state_hash: &str, now_ms: i64) -> Result<Option<SignInFlow>> {
    let row = sqlx::query(
        "DELETE FROM sign_in_flows WHERE state_hash = ? RETURNING state_hash, provider, browser_hash, session_id, \
         pkce_verifier, nonce, return_to, popup, link, created_at, expires_at",
    )
    .bind(state_hash)
    .fetch_optional(&store.writer)
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

#[cfg(test)]
mod tests {
    use super::*;
    use store::Store;
    use store::contract::request;

    /// The merge every registered table gets, on a table made for the test: the guest's
    /// rows move to the account, except those the account already has (by key).
    #[tokio::test]
    async fn merging_moves_a_guests_rows_and_keeps_the_accounts_on_a_clash() {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let dir = std::env::temp_dir().join(format!("lw-merge-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let store = SqliteStore::open_file(&dir.join("localwire.sqlite")).await.unwrap();
        let guest = store.start_guest_session(&request("d-g", "h1", 1_000)).await.unwrap();
        let account = store.start_guest_session(&request("d-a", "h2", 1_000)).await.unwrap();
        let (guest, account) = (UserId(guest.user.id), UserId(account.user.id));
        store.guests.finish_writes().await;
        sqlx::query("CREATE TABLE saved_probe (user_id INTEGER NOT NULL, news_id INTEGER NOT NULL, note TEXT NOT NULL, PRIMARY KEY (user_id, news_id))")
            .execute(&store.writer)
            .await
            .unwrap();
        for (user, news, note) in [(account, 1, "account's"), (guest, 1, "guest's"), (guest, 2, "guest's")] {
            sqlx::query("INSERT INTO saved_probe VALUES (?, ?, ?)")
                .bind(user.0)
                .bind(news)
                .bind(note)
                .execute(&store.writer)
                .await
                .unwrap();
        }
        let probe = UserTable {
            table: "saved_probe",
            key: &["news_id"],
        };
        let mut tx = store.writer.begin().await.unwrap();
        merge_guest_into(&mut tx, &[probe], guest, account, 2_000)
            .await
            .unwrap();
        tx.commit().await.unwrap();
        let rows: Vec<(i64, i64, String)> =
            sqlx::query_as("SELECT user_id, news_id, note FROM saved_probe ORDER BY news_id")
                .fetch_all(&store.reader)
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
        std::fs::remove_dir_all(&dir).ok();
    }
}
