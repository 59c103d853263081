//! The `Store` trait on PostgreSQL.

use async_trait::async_trait;
use domain::user::UserServer;
use store::{
    AccountSessionRequest, Engine, GuestSession, GuestSessionRequest, IdentityInfo, LocationUpdate, Result,
    SessionInfo, SessionKey, SessionUser, SignIn, SignInFlow, SignInOutcome, StartupLock, Store, UserExport, UserId,
};

use crate::postgres::PgStore;

#[async_trait]
impl Store for PgStore {
    fn engine(&self) -> Engine {
        Engine::Postgres
    }

    async fn health(&self) -> Result<()> {
        crate::users::postgres::health(self).await
    }

    async fn start_guest_session(&self, req: &GuestSessionRequest) -> Result<GuestSession> {
        crate::users::postgres::start_guest_session(self, req).await
    }

    async fn session_user(&self, key: &SessionKey) -> Result<Option<SessionUser>> {
        crate::users::postgres::session_user(self, key).await
    }

    async fn touch_user(&self, id: UserId, now_ms: i64) -> Result<()> {
        crate::users::postgres::touch_user(self, id, now_ms).await
    }

    async fn end_session(&self, key: &SessionKey) -> Result<bool> {
        crate::users::postgres::end_session(self, key).await
    }

    async fn user(&self, id: UserId) -> Result<Option<UserServer>> {
        crate::users::postgres::user(self, id).await
    }

    async fn update_location(&self, id: UserId, u: &LocationUpdate, now_ms: i64) -> Result<Option<UserServer>> {
        crate::users::postgres::update_location(self, id, u, now_ms).await
    }

    async fn setting(&self, key: &str) -> Result<Option<String>> {
        crate::users::postgres::setting(self, key).await
    }

    async fn startup_lock(&self) -> Result<StartupLock> {
        self.take_startup_lock().await
    }

    async fn put_setting(&self, key: &str, value: &str, now_ms: i64) -> Result<()> {
        crate::users::postgres::put_setting(self, key, value, now_ms).await
    }

    async fn sign_in(&self, req: &SignIn) -> Result<SignInOutcome> {
        crate::accounts::postgres::sign_in(self, req).await
    }

    async fn start_account_session(&self, req: &AccountSessionRequest) -> Result<i64> {
        crate::accounts::postgres::start_account_session(self, req).await
    }

    async fn sessions_of(&self, user: UserId, now_ms: i64) -> Result<Vec<SessionInfo>> {
        crate::accounts::postgres::sessions_of(self, user, now_ms).await
    }

    async fn end_session_of(&self, user: UserId, session_id: i64) -> Result<bool> {
        crate::accounts::postgres::end_session_of(self, user, session_id).await
    }

    async fn end_other_sessions(&self, user: UserId, keep: i64) -> Result<u64> {
        crate::accounts::postgres::end_other_sessions(self, user, keep).await
    }

    async fn identities_of(&self, user: UserId) -> Result<Vec<IdentityInfo>> {
        crate::accounts::postgres::identities_of(self, user).await
    }

    async fn export_user(&self, user: UserId) -> Result<Option<UserExport>> {
        crate::accounts::postgres::export_user(self, user).await
    }

    async fn delete_user(&self, user: UserId) -> Result<bool> {
        crate::accounts::postgres::delete_user(self, user).await
    }

    async fn purge_idle(&self, guests_idle_before_ms: Option<i64>, now_ms: i64) -> Result<store::Purged> {
        crate::purge::postgres::purge_idle(self, guests_idle_before_ms, now_ms).await
    }

    async fn user_id_tables(&self) -> Result<Vec<String>> {
        crate::accounts::postgres::user_id_tables(self).await
    }

    async fn put_sign_in_flow(&self, flow: &SignInFlow) -> Result<()> {
        crate::accounts::postgres::put_sign_in_flow(self, flow).await
    }

    async fn take_sign_in_flow(&self, state_hash: &str, now_ms: i64) -> Result<Option<SignInFlow>> {
        crate::accounts::postgres::take_sign_in_flow(self, state_hash, now_ms).await
    }
}
