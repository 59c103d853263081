//! Guests against abuse (issue 29, D351, D352): how many guests one address may create,
//! and the hourly purge of guests idle past a set time and of expired sessions. Kept apart
//! from the handlers so `state.rs` can name the settings without importing them.

use std::sync::Arc;
use std::time::Duration;
use store::Store;

/// One day in milliseconds.
const DAY_MS: i64 = 86_400_000;

/// How often idle guests and expired sessions are purged.
pub const PURGE_EVERY: Duration = Duration::from_secs(3600);

#[derive(Debug, Clone)]
pub struct GuestConfig {
    /// New guests one address (an IPv6 /64) may create at once (`--guest-burst`).
    pub burst: u32,
    /// Then one new guest per this interval per address (`--guest-every-ms`).
    pub every: Duration,
    /// Guests not seen for this many days are deleted with their things
    /// (`--guest-idle-days`; 0 keeps them for ever).
    pub idle_days: u32,
}

impl Default for GuestConfig {
    fn default() -> Self {
        GuestConfig {
            burst: 30,
            every: Duration::from_secs(10),
            idle_days: 180,
        }
    }
}

/// The purge's cut-off: guests last seen before it go; `None` keeps every guest.
pub fn idle_cutoff(now_ms: i64, idle_days: u32) -> Option<i64> {
    (idle_days > 0).then(|| now_ms.saturating_sub(i64::from(idle_days).saturating_mul(DAY_MS)))
}

/// One purge: idle guests (when a cut-off is set) and every expired session.
pub async fn purge_once(store: &dyn Store, now_ms: i64, idle_days: u32) -> store::Result<store::Purged> {
    store.purge_idle(idle_cutoff(now_ms, idle_days), now_ms).await
}

/// Run [`purge_once`] now and then every [`PURGE_EVERY`], for ever.
pub async fn purge_forever(store: Arc<dyn Store>, idle_days: u32) {
    let mut tick = tokio::time::interval(PURGE_EVERY);
    loop {
        tick.tick().await;
        match purge_once(store.as_ref(), domain::clock::now_ms(), idle_days).await {
            Ok(p) if p.guests == 0 && p.sessions == 0 => {}
            Ok(p) => tracing::info!(
                guests = p.guests,
                sessions = p.sessions,
                idle_days,
                "idle guests and expired sessions purged"
            ),
            Err(e) => tracing::warn!(error = %e, "purging idle guests and expired sessions failed"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn d352_the_cut_off_is_idle_days_before_now_and_zero_keeps_guests() {
        assert_eq!(idle_cutoff(10 * DAY_MS, 3), Some(7 * DAY_MS));
        assert_eq!(idle_cutoff(10 * DAY_MS, 0), None);
    }
}
