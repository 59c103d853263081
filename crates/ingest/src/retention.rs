//! The server's story retention task (D414): what `store::retention` deletes, hourly.

use std::sync::Arc;
use std::time::Duration;
use store::Store;
use store::retention::{StoryRetention, prune_stories};

/// How often stories past the retention are deleted.
pub const EVERY: Duration = Duration::from_secs(3600);

/// Delete the stories past `retention` at `now_ms`; how many went (none with KeepAll).
pub async fn prune(store: &dyn Store, retention: StoryRetention, now_ms: i64) -> store::Result<u64> {
    match retention.cut_ms(now_ms) {
        Some(cut) => prune_stories(store, cut).await,
        None => Ok(0),
    }
}

/// Run [`prune`] now and then every [`EVERY`], for ever; returns at once with KeepAll.
pub async fn prune_forever(store: Arc<dyn Store>, retention: StoryRetention) {
    if retention == StoryRetention::KeepAll {
        return;
    }
    let mut tick = tokio::time::interval(EVERY);
    loop {
        tick.tick().await;
        match prune(store.as_ref(), retention, domain::clock::now_ms()).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(deleted = n, ?retention, "stories past the retention deleted"),
            Err(e) => tracing::warn!(error = %e, "deleting stories past the retention failed"),
        }
    }
}
