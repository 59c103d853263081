//! The cities publishers are in, for nearby local feeds. Its own module so the app
//! state can own the cache without depending on the feeds that use it (D225).

use std::sync::{Arc, Mutex};
use store::{CityId, Store};

/// How long the set of publisher cities is reused before it is read again.
const PUBLISHER_CITIES_TTL_MS: i64 = 60_000;

/// The cities publishers are in, read from the store at most once a minute: a nearby
/// feed includes every publisher city in range even when it is not among the nearest.
#[derive(Default)]
pub struct PublisherCities(Mutex<Option<(i64, Arc<Vec<CityId>>)>>);

impl PublisherCities {
    pub async fn get(&self, store: &dyn Store, now: i64) -> Arc<Vec<CityId>> {
        if let Ok(guard) = self.0.lock()
            && let Some((at, ids)) = guard.as_ref()
            && now - at < PUBLISHER_CITIES_TTL_MS
        {
            return ids.clone();
        }
        let ids = match store.export_publishers().await {
            Ok(list) => {
                let mut ids: Vec<CityId> = list.iter().map(|(m, _)| m.city_id).filter(|id| id.0 > 0).collect();
                ids.sort_unstable();
                ids.dedup();
                Arc::new(ids)
            }
            Err(e) => {
                tracing::warn!(error = %e, "reading publisher cities for a nearby feed");
                Arc::new(Vec::new())
            }
        };
        if let Ok(mut guard) = self.0.lock() {
            *guard = Some((now, ids.clone()));
        }
        ids
    }
}
