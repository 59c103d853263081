//! Report events are kept for the configured retention (default 90 days, D333), then
//! deleted by a task that runs hourly.

use std::sync::Arc;
use std::time::Duration;
use store::Store;
use store::reports::DAY_MS;

/// How often expired events are deleted.
pub const EVERY: Duration = Duration::from_secs(3600);

/// Delete events received more than `days` days before `now_ms`; how many went.
pub async fn delete_expired(store: &dyn Store, now_ms: i64, days: u32) -> store::Result<u64> {
    store
        .delete_report_events_before(now_ms - i64::from(days) * DAY_MS)
        .await
}

/// Run [`delete_expired`] now and then every [`EVERY`], for ever.
pub async fn delete_expired_forever(store: Arc<dyn Store>, days: u32) {
    let mut tick = tokio::time::interval(EVERY);
    loop {
        tick.tick().await;
        match delete_expired(store.as_ref(), domain::clock::now_ms(), days).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(deleted = n, days, "expired report events deleted"),
            Err(e) => tracing::warn!(error = %e, "deleting expired report events failed"),
        }
    }
}
