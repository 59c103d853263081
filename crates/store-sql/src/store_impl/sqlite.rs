//! The `Store` trait on SQLite.

use async_trait::async_trait;
use domain::user::UserServer;
use store::{
    AccountSessionRequest, Engine, GuestSession, GuestSessionRequest, IdentityInfo, LocationUpdate, Result,
    SessionInfo, SessionKey, SessionUser, SignIn, SignInFlow, SignInOutcome, Store, UserExport, UserId,
};

use crate::sqlite::SqliteStore;

#[async_trait]
impl Store for SqliteStore {
    fn engine(&self) -> Engine {
        Engine::Sqlite
    }

    async fn health(&self) -> Result<()> {
        crate::users::sqlite::health(self).await
    }

    async fn start_guest_session(&self, req: &GuestSessionRequest) -> Result<GuestSession> {
        crate::users::sqlite::start_guest_session(self, req).await
    }

    async fn finish_writes(&self) {
        self.guests.finish_writes().await;
    }

    async fn session_user(&self, key: &SessionKey) -> Result<Option<SessionUser>> {
        if let Some(hit) = self.sessions.get(key.id, &key.verifier_hash) {
            return Ok(Some(hit));
        }
        let generation = self.sessions.generation();
        let found = crate::users::sqlite::session_user(self, key).await?;
        if let Some(session) = &found {
            self.sessions.put(generation, key.id, &key.verifier_hash, session);
        }
        Ok(found)
    }

    async fn touch_user(&self, id: UserId, now_ms: i64) -> Result<()> {
        let _forget = self.sessions.forget_after();
        crate::users::sqlite::touch_user(self, id, now_ms).await
    }

    async fn end_session(&self, key: &SessionKey) -> Result<bool> {
        let _forget = self.sessions.forget_after();
        crate::users::sqlite::end_session(self, key).await
    }

    async fn user(&self, id: UserId) -> Result<Option<UserServer>> {
        crate::users::sqlite::user(self, id).await
    }

    async fn update_location(&self, id: UserId, u: &LocationUpdate, now_ms: i64) -> Result<Option<UserServer>> {
        let _forget = self.sessions.forget_after();
        crate::users::sqlite::update_location(self, id, u, now_ms).await
    }

    async fn setting(&self, key: &str) -> Result<Option<String>> {
        crate::users::sqlite::setting(self, key).await
    }

    async fn put_setting(&self, key: &str, value: &str, now_ms: i64) -> Result<()> {
        crate::users::sqlite::put_setting(self, key, value, now_ms).await
    }

    async fn sign_in(&self, req: &SignIn) -> Result<SignInOutcome> {
        let _forget = self.sessions.forget_after();
        crate::accounts::sqlite::sign_in(self, req).await
    }

    async fn start_account_session(&self, req: &AccountSessionRequest) -> Result<i64> {
        crate::accounts::sqlite::start_account_session(self, req).await
    }

    async fn sessions_of(&self, user: UserId, now_ms: i64) -> Result<Vec<SessionInfo>> {
        crate::accounts::sqlite::sessions_of(self, user, now_ms).await
    }

    async fn end_session_of(&self, user: UserId, session_id: i64) -> Result<bool> {
        let _forget = self.sessions.forget_after();
        crate::accounts::sqlite::end_session_of(self, user, session_id).await
    }

    async fn end_other_sessions(&self, user: UserId, keep: i64) -> Result<u64> {
        let _forget = self.sessions.forget_after();
        crate::accounts::sqlite::end_other_sessions(self, user, keep).await
    }

    async fn identities_of(&self, user: UserId) -> Result<Vec<IdentityInfo>> {
        crate::accounts::sqlite::identities_of(self, user).await
    }

    async fn export_user(&self, user: UserId) -> Result<Option<UserExport>> {
        crate::accounts::sqlite::export_user(self, user).await
    }

    async fn delete_user(&self, user: UserId) -> Result<bool> {
        let _forget = self.sessions.forget_after();
        crate::accounts::sqlite::delete_user(self, user).await
    }

    async fn purge_idle(&self, guests_idle_before_ms: Option<i64>, now_ms: i64) -> Result<store::Purged> {
        // Every answer a purged guest or session gave is forgotten.
        let _forget = self.sessions.forget_after();
        crate::purge::sqlite::purge_idle(self, guests_idle_before_ms, now_ms).await
    }

    async fn user_id_tables(&self) -> Result<Vec<String>> {
        crate::accounts::sqlite::user_id_tables(self).await
    }

    async fn put_sign_in_flow(&self, flow: &SignInFlow) -> Result<()> {
        crate::accounts::sqlite::put_sign_in_flow(self, flow).await
    }

    async fn take_sign_in_flow(&self, state_hash: &str, now_ms: i64) -> Result<Option<SignInFlow>> {
        crate::accounts::sqlite::take_sign_in_flow(self, state_hash, now_ms).await
    }
}
