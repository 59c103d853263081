//! Accounts on PostgreSQL (issue 17): signing in, identities, sessions, download,
//! deletion and sign-in flows. The decisions are `store::accounts::plan_sign_in`'s; the
//! tables to merge, download and delete are `store::user_data`'s.

use crate::{db, user_from_row, user_in_tx};
use domain::user::AccountType;
use sqlx::{AssertSqlSafe, PgPool, Postgres, Row, Transaction};
use store::accounts::{SignInPlan, plan_sign_in};
use store::user_data::{USER_TABLES, UserTable, merge_statements, numbered_placeholders};
use store::{
    AccountSessionRequest, IdentityInfo, ProviderIdentity, Result, SessionInfo, SignIn, SignInFlow, SignInOutcome,
    StoreError, UserExport, UserId,
};

/// Tries of a sign-in whose transaction clashed with another (two devices signing in
/// with the same new identity at once: the second finds it known and merges).
const ATTEMPTS: u32 = 3;

pub async fn sign_in(pool: &PgPool, req: &SignIn) -> Result<SignInOutcome> {
    let mut attempt = 1;
    loop {
        match sign_in_once(pool, req).await {
            Err(e) if attempt < ATTEMPTS && crate::content::worth_retrying(&e) => attempt += 1,
            other => return other.map_err(db),
        }
    }
}

async fn sign_in_once(pool: &PgPool, req: &SignIn) -> std::result::Result<SignInOutcome, sqlx::Error> {
    let mut tx = pool.begin().await?;
    // The session's user, locked: a second sign-in of the same guest waits for this one.
    let from = sqlx::query(concat!(
        "SELECT ",
        user_columns!(),
        " FROM users u WHERE u.id = $1 FOR UPDATE"
    ))
    .bind(req.from_user.0)
    .fetch_optional(&mut *tx)
    .await?
    .map(|row| user_from_row(&row))
    .transpose()?;
    let id = &req.identity;
    let owner: Option<i64> =
        sqlx::query_scalar("SELECT user_id FROM identities WHERE provider = $1 AND subject = $2 FOR UPDATE")
            .bind(id.provider.code())
            .bind(&id.subject)
            .fetch_optional(&mut *tx)
            .await?;
    let outcome = match plan_sign_in(from.as_ref(), owner.map(UserId), req.link) {
        SignInPlan::Refuse(why) => return Ok(SignInOutcome::Refused(why)),
        SignInPlan::Upgrade => {
            sqlx::query(
                "UPDATE users SET account_type = $1, name = $2, email = $3, photo = $4, last_time = $5 WHERE id = $6",
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

async fn signed_in_user(
    tx: &mut Transaction<'_, Postgres>,
    id: UserId,
) -> std::result::Result<domain::user::UserServer, sqlx::Error> {
    user_in_tx(tx, id.0).await?.ok_or(sqlx::Error::RowNotFound)
}

async fn insert_identity(
    tx: &mut Transaction<'_, Postgres>,
    user: UserId,
    id: &ProviderIdentity,
    now_ms: i64,
) -> std::result::Result<(), sqlx::Error> {
    // A plain insert: a clash (the same new identity signing in twice at once) fails this
    // transaction with 23505 and the retry finds the identity known.
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
    tx: &mut Transaction<'_, Postgres>,
    owner: UserId,
    id: &ProviderIdentity,
    now_ms: i64,
) -> std::result::Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE identities SET email = $1, name = $2, photo = $3, last_used_at = $4 WHERE provider = $5 AND subject = $6",
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

/// Move a guest into an account: its place and language (the reader's latest choice),
/// every registered table's rows (the account's own kept on a clash), then remove it.
pub async fn merge_guest_into(
    tx: &mut Transaction<'_, Postgres>,
    tables: &[UserTable],
    guest: UserId,
    account: UserId,
    now_ms: i64,
) -> std::result::Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE users a SET lat = g.lat, lon = g.lon, country = g.country, city = g.city, city_show = g.city_show, \
         city_id = g.city_id, app_lang = g.app_lang, admin_code = g.admin_code, postal_code = g.postal_code, \
         last_time = $3 FROM users g WHERE a.id = $1 AND g.id = $2",
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

async fn delete_user_in(tx: &mut Transaction<'_, Postgres>, user: UserId) -> std::result::Result<bool, sqlx::Error> {
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

pub async fn delete_user(pool: &PgPool, user: UserId) -> Result<bool> {
    let mut tx = pool.begin().await.map_err(db)?;
    let done = delete_user_in(&mut tx, user).await.map_err(db)?;
    tx.commit().await.map_err(db)?;
    Ok(done)
}

pub async fn start_account_session(pool: &PgPool, req: &AccountSessionRequest) -> Result<i64> {
    let mut tx = pool.begin().await.map_err(db)?;
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

pub async fn sessions_of(pool: &PgPool, user: UserId, now_ms: i64) -> Result<Vec<SessionInfo>> {
    let rows = sqlx::query(
        "SELECT id, device_id, label, created_at, expires_at FROM sessions WHERE user_id = $1 AND expires_at > $2 \
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

pub async fn end_session_of(pool: &PgPool, user: UserId, session_id: i64) -> Result<bool> {
    let done = sqlx::query("DELETE FROM sessions WHERE id = $1 AND user_id = $2")
        .bind(session_id)
        .bind(user.0)
        .execute(pool)
        .await
        .map_err(db)?;
    Ok(done.rows_affected() > 0)
}

pub async fn end_other_sessions(pool: &PgPool, user: UserId, keep: i64) -> Result<u64> {
    let done = sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND id <> $2")
        .bind(user.0)
        .bind(keep)
        .execute(pool)
        .await
        .map_err(db)?;
    Ok(done.rows_affected())
}

pub async fn identities_of(pool: &PgPool, user: UserId) -> Result<Vec<IdentityInfo>> {
    let rows = sqlx::query(
        "SELECT provider, subject, email, name, linked_at, last_used_at FROM identities WHERE user_id = $1 \
         ORDER BY linked_at, provider DESC",
    )
    .bind(user.0)
    .fetch_all(pool)
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

pub async fn export_user(pool: &PgPool, user: UserId) -> Result<Option<UserExport>> {
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
        let sql = format!("SELECT row_to_json(t)::text FROM {} t WHERE user_id = $1", table.table);
        let rows: Vec<String> = sqlx::query_scalar(AssertSqlSafe(sql))
            .bind(user.0)
            .fetch_all(pool)
            .await
            .map_err(db)?;
        tables.push((table.table.to_string(), rows));
    }
    Ok(Some(UserExport {
        user: user_row,
        identities: identities_of(pool, user).await?,
        // Every session, expired ones too: they are stored about the user.
        sessions: sessions_of(pool, user, i64::MIN).await?,
        devices,
        tables,
    }))
}

pub async fn user_id_tables(pool: &PgPool) -> Result<Vec<String>> {
    sqlx::query_scalar(
        "SELECT table_name::text FROM information_schema.columns \
         WHERE table_schema = current_schema() AND column_name = 'user_id' ORDER BY 1",
    )
    .fetch_all(pool)
    .await
    .map_err(db)
}

pub async fn put_sign_in_flow(pool: &PgPool, f: &SignInFlow) -> Result<()> {
    sqlx::query("DELETE FROM sign_in_flows WHERE expires_at <= $1")
        .bind(f.created_at_ms)
        .execute(pool)
        .await
        .map_err(db)?;
    sqlx::query(
        "INSERT INTO sign_in_flows (state_hash, provider, browser_hash, session_id, pkce_verifier, nonce, return_to, \
         popup, link, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
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
    .execute(pool)
    .await
    .map_err(db)?;
    Ok(())
}

pub async fn take_sign_in_flow(pool: &PgPool, state_hash: &str, now_ms: i64) -> Result<Option<SignInFlow>> {
    let row = sqlx::query(
        "DELETE FROM sign_in_flows WHERE state_hash = $1 RETURNING state_hash, provider, browser_hash, session_id, \
         pkce_verifier, nonce, return_to, popup, link, created_at, expires_at",
    )
    .bind(state_hash)
    .fetch_optional(pool)
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
        let Some(options) = crate::testing::fresh_database().await else {
            return;
        };
        let store = crate::PgStore::connect_with(options).await.unwrap();
        let guest = store.start_guest_session(&request("d-g", "h1", 1_000)).await.unwrap();
        let account = store.start_guest_session(&request("d-a", "h2", 1_000)).await.unwrap();
        let (guest, account) = (UserId(guest.user.id), UserId(account.user.id));
        sqlx::query("CREATE TABLE saved_probe (user_id BIGINT NOT NULL, news_id BIGINT NOT NULL, note TEXT NOT NULL, PRIMARY KEY (user_id, news_id))")
            .execute(&store.pool)
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
                .execute(&store.pool)
                .await
                .unwrap();
        }
        let probe = UserTable {
            table: "saved_probe",
            key: &["news_id"],
        };
        let mut tx = store.pool.begin().await.unwrap();
        merge_guest_into(&mut tx, &[probe], guest, account, 2_000)
            .await
            .unwrap();
        tx.commit().await.unwrap();
        let rows: Vec<(i64, i64, String)> =
            sqlx::query_as("SELECT user_id, news_id, note FROM saved_probe ORDER BY news_id")
                .fetch_all(&store.pool)
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
}
