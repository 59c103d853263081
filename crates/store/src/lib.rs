//! The storage contract. Two real engines implement [`Store`]: SQLite (embedded, the
//! default) and PostgreSQL (several app servers). Both run the [`contract`] suite.

pub mod accounts;
pub mod content;
pub mod contract;
pub mod contract_accounts;
pub mod contract_content;
pub mod contract_push;
pub mod contract_reports;
pub mod contract_support;
pub mod contract_things;
pub mod push;
pub mod reader_view;
pub mod reports;
pub mod retention;
pub mod things;
pub mod user_data;

pub use accounts::{
    AccountSessionRequest, IdentityInfo, ProviderIdentity, SessionInfo, SignIn, SignInFlow, SignInOutcome,
    SignInRefusal, UserExport,
};
pub use content::ContentStore;
pub use push::Notifications;
pub use reports::ReportStore;
pub use things::ReaderThings;

use async_trait::async_trait;
use domain::user::UserServer;

/// A user's id. A newtype so it cannot be mixed with other ids (`domain::ids`).
pub use domain::ids::{CityId, UserId};

/// Which engine a store runs on (for logs, health and metrics).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    Sqlite,
    Postgres,
}

impl Engine {
    pub fn name(self) -> &'static str {
        match self {
            Engine::Sqlite => "sqlite",
            Engine::Postgres => "postgres",
        }
    }
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Database(String),
    /// The database cannot be reached or cannot write right now: the connection is lost,
    /// the server is restarting, the file is locked past the busy timeout, or the disk is
    /// full. The same call may succeed when tried again; the API answers 503 (issue 30).
    #[error("database unavailable: {0}")]
    Unavailable(String),
    #[error("migration failed: {0}")]
    Migration(String),
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// What a new guest starts with: its place and language (§3.1), and its channel.
#[derive(Debug, Clone, PartialEq)]
pub struct NewGuest {
    pub user_type: i32,
    pub app_lang: String,
    pub country: String,
    pub postal_code: String,
    pub admin_code: String,
    pub city: String,
    pub city_show: String,
    pub city_id: CityId,
    pub lat: f64,
    pub lon: f64,
    pub channel: String,
}

/// A guest session request: the device, the guest to create if needed, the session.
#[derive(Debug, Clone)]
pub struct GuestSessionRequest {
    pub device_id: String,
    pub guest: NewGuest,
    /// SHA-256 (hex) of the token's secret part. The secret itself is never stored.
    pub verifier_hash: String,
    pub now_ms: i64,
    pub expires_at_ms: i64,
}

/// The result of starting a guest session.
#[derive(Debug, Clone, PartialEq)]
pub struct GuestSession {
    pub user: UserServer,
    pub is_new_user: bool,
    /// The new session's id: the public half of its token.
    pub session_id: i64,
}

/// What one purge removed (D352).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Purged {
    /// Guests not seen since the cut-off, deleted with everything they had.
    pub guests: u64,
    /// Sessions past their expiry.
    pub sessions: u64,
}

/// How a session is found: its id (sequential, so new sessions append to the table
/// instead of landing on random pages) and the hash of the token's secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionKey {
    pub id: i64,
    pub verifier_hash: String,
}

/// A live session and its user.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionUser {
    pub user: UserServer,
    pub device_id: String,
    pub expires_at_ms: i64,
}

/// The fields a location update sets (SPEC §7.11).
#[derive(Debug, Clone, PartialEq)]
pub struct LocationUpdate {
    pub lat: f64,
    pub lon: f64,
    pub country: String,
    pub city: String,
    pub city_show: String,
    pub city_id: CityId,
    pub app_lang: String,
    pub admin_code: String,
    pub postal_code: String,
}

#[async_trait]
/// Identity and settings; content is in [`ContentStore`] and the reader's own things in
/// [`ReaderThings`], which every store also is.
pub trait Store: ContentStore + ReaderThings + Notifications + ReportStore + Send + Sync + 'static {
    fn engine(&self) -> Engine;

    /// A cheap round trip to the database, for `/healthz`.
    async fn health(&self) -> Result<()>;

    /// Start a session for a device: always a new guest (a device id is a public label,
    /// never a credential: D350), the device pointed at it, and the session stored.
    /// An engine may answer before the write is done (SQLite on a slow disk, D165); every
    /// call by the answer's ids still finds it, or finds nothing if the write failed.
    async fn start_guest_session(&self, req: &GuestSessionRequest) -> Result<GuestSession>;

    /// Wait until every guest session already answered is written (or failed): called
    /// at a clean stop, once no request is in flight.
    async fn finish_writes(&self) {}

    /// The session for a key and its user; `None` when unknown or when the verifier
    /// does not match. Expired sessions
    /// are returned too (the caller decides), so it can say "expired" rather than "unknown".
    async fn session_user(&self, key: &SessionKey) -> Result<Option<SessionUser>>;

    /// Mark the user as seen now (§3.1 last_time).
    async fn touch_user(&self, id: UserId, now_ms: i64) -> Result<()>;

    /// End a session. `true` when one was removed.
    async fn end_session(&self, key: &SessionKey) -> Result<bool>;

    /// A user by id.
    async fn user(&self, id: UserId) -> Result<Option<UserServer>>;

    /// Set the user's location and language; returns the updated user.
    async fn update_location(&self, id: UserId, update: &LocationUpdate, now_ms: i64) -> Result<Option<UserServer>>;

    /// An application setting (key/value).
    async fn setting(&self, key: &str) -> Result<Option<String>>;

    async fn put_setting(&self, key: &str, value: &str, now_ms: i64) -> Result<()>;

    /// Sign in with a provider identity for the user of a session (see [`SignInOutcome`]):
    /// a new identity turns the guest into the account; a known one merges the guest's
    /// things into its account ([`user_data::USER_TABLES`]) and removes the guest. The
    /// account takes the guest's place and language (the reader's latest choice, D250).
    /// One transaction.
    async fn sign_in(&self, req: &SignIn) -> Result<SignInOutcome>;

    /// Start a session for a signed-in user on a device (the device now points at it).
    /// Returns the session's id, the public half of its token.
    async fn start_account_session(&self, req: &AccountSessionRequest) -> Result<i64>;

    /// The user's live sessions, newest first.
    async fn sessions_of(&self, user: UserId, now_ms: i64) -> Result<Vec<SessionInfo>>;

    /// End one of the user's sessions (by id; another user's is left alone).
    async fn end_session_of(&self, user: UserId, session_id: i64) -> Result<bool>;

    /// End every session of the user except `keep`; how many ended.
    async fn end_other_sessions(&self, user: UserId, keep: i64) -> Result<u64>;

    /// The provider identities linked to the user, oldest first.
    async fn identities_of(&self, user: UserId) -> Result<Vec<IdentityInfo>>;

    /// Everything stored about the user; `None` when there is no such user.
    async fn export_user(&self, user: UserId) -> Result<Option<UserExport>>;

    /// Delete the user and everything that belongs to them (every table of
    /// [`user_data::USER_TABLES`] and the identity tables). `true` when there was one.
    async fn delete_user(&self, user: UserId) -> Result<bool>;

    /// Delete every guest (account type 0) last seen before `guests_idle_before_ms` (none
    /// when `None`) with everything they had, and every session expired at `now_ms`. In
    /// small batches, so readers and writers are never held up for long.
    async fn purge_idle(&self, guests_idle_before_ms: Option<i64>, now_ms: i64) -> Result<Purged>;

    /// The tables of this database whose rows belong to a user (a `user_id` column), read
    /// from the schema: the registry test compares them with [`user_data`].
    async fn user_id_tables(&self) -> Result<Vec<String>>;

    /// Keep a sign-in flow until its callback (expired flows are dropped on the way).
    async fn put_sign_in_flow(&self, flow: &SignInFlow) -> Result<()>;

    /// Take (and so remove) the flow of a state: a state is used once. Expired: `None`.
    async fn take_sign_in_flow(&self, state_hash: &str, now_ms: i64) -> Result<Option<SignInFlow>>;

    /// Wait until no other process on this database holds the start-up lock, then hold it
    /// until [`StartupLock::release`] (or drop). Start-up work that several processes may
    /// begin at the same moment (loading the demo) runs under it, one process at a time
    /// (D210). PostgreSQL: a session advisory lock. SQLite has one process per file: a
    /// lock that holds nothing.
    async fn startup_lock(&self) -> Result<StartupLock> {
        Ok(StartupLock::none())
    }
}

/// What an engine holds for a [`StartupLock`].
#[async_trait]
pub trait HeldLock: Send + Sync {
    /// Give the lock back and wait until it is given back.
    async fn release(self: Box<Self>);
}

/// The lock of [`Store::startup_lock`]. Dropping it without [`StartupLock::release`] still
/// gives it back, without waiting (PostgreSQL: by closing its connection).
#[must_use = "the lock is given back when this is dropped"]
pub struct StartupLock(Option<Box<dyn HeldLock>>);

impl StartupLock {
    /// A lock that holds nothing (engines with one process per database).
    pub fn none() -> StartupLock {
        StartupLock(None)
    }

    pub fn held(lock: Box<dyn HeldLock>) -> StartupLock {
        StartupLock(Some(lock))
    }

    pub async fn release(mut self) {
        if let Some(lock) = self.0.take() {
            lock.release().await;
        }
    }
}
