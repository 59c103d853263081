//! The answers made from the kept days, per language, date and city, with their ETag.

use crate::Unavailable;
use crate::history::answer::build;
use crate::history::source::{HistoryConfig, HistorySource};
use crate::kept_answer::KeptAnswer;
use chrono::NaiveDate;
use domain::locale::Locale;
use geo::{City, CityId};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// Made answers kept at most (per language, date and city).
const MAX_KEPT_ANSWERS: usize = 4096;

/// The history source and the answers made from it.
pub struct History {
    pub source: Arc<HistorySource>,
    answers: Mutex<HashMap<(Locale, NaiveDate, CityId), Arc<KeptAnswer>>>,
}

impl History {
    pub fn new(config: HistoryConfig) -> History {
        History {
            source: Arc::new(HistorySource::new(config)),
            answers: Mutex::default(),
        }
    }
}

impl History {
    /// The answer for a reader of `city` on `date`: kept, or made from the day, its
    /// pictures through the image proxy when it is on (D382).
    pub async fn answer(
        &self,
        lang: Locale,
        date: NaiveDate,
        city: &'static City,
        images: &(dyn Fn(&mut String) + Sync),
    ) -> Result<Arc<KeptAnswer>, Unavailable> {
        let key = (lang, date, city.id);
        if let Some(kept) = self.answers.lock().unwrap_or_else(PoisonError::into_inner).get(&key) {
            return Ok(kept.clone());
        }
        let day = self
            .source
            .day(lang, date)
            .await
            .map_err(|why| Unavailable(format!("Today in history is unavailable: {why}. Try again later.")))?;
        let mut answer = build(&day, lang, date, city);
        answer.proxy_images(images);
        let kept = Arc::new(KeptAnswer::of(answer)?);
        let mut answers = self.answers.lock().unwrap_or_else(PoisonError::into_inner);
        answers.retain(|(_, d, _), _| (date - *d).num_days().abs() <= 2);
        if answers.len() >= MAX_KEPT_ANSWERS {
            answers.clear();
        }
        answers.insert(key, kept.clone());
        Ok(kept)
    }
}
