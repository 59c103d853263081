//! The answers made from the kept days, per language, date and city, with their ETag.

use crate::envelope::{ApiError, names_etag, ok_body, weak_etag};
use crate::history::answer::build;
use crate::history::source::{HistoryConfig, HistorySource};
use axum::body::Bytes;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use chrono::NaiveDate;
use domain::locale::Locale;
use geo::City;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// Browsers may keep an answer this long; the day changes at the reader's midnight.
const MAX_AGE_SECS: u32 = 300;
/// Made answers kept at most (per language, date and city).
const MAX_KEPT_ANSWERS: usize = 4096;

/// The history source and the answers made from it.
pub struct History {
    pub source: Arc<HistorySource>,
    answers: Mutex<HashMap<(Locale, NaiveDate, i64), Arc<Kept>>>,
}

pub struct Kept {
    body: Bytes,
    etag: String,
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
        images: &crate::image_proxy::ImageProxy,
    ) -> Result<Arc<Kept>, ApiError> {
        let key = (lang, date, city.id.0);
        if let Some(kept) = self.answers.lock().unwrap_or_else(PoisonError::into_inner).get(&key) {
            return Ok(kept.clone());
        }
        let day = self.source.day(lang, date).await.map_err(|why| {
            ApiError::Unavailable(format!("Today in history is unavailable: {why}. Try again later."))
        })?;
        let mut answer = build(&day, lang, date, city);
        answer.proxy_images(images);
        let body = ok_body(answer)?;
        let kept = Arc::new(Kept {
            etag: weak_etag(&body),
            body: Bytes::from(body),
        });
        let mut answers = self.answers.lock().unwrap_or_else(PoisonError::into_inner);
        answers.retain(|(_, d, _), _| (date - *d).num_days().abs() <= 2);
        if answers.len() >= MAX_KEPT_ANSWERS {
            answers.clear();
        }
        answers.insert(key, kept.clone());
        Ok(kept)
    }
}

impl Kept {
    /// 200 with the body, or 304 when `If-None-Match` names it.
    pub fn respond(&self, if_none_match: Option<&HeaderValue>) -> Response {
        let mut res = if names_etag(if_none_match, &self.etag) {
            StatusCode::NOT_MODIFIED.into_response()
        } else {
            let mut res = (StatusCode::OK, self.body.clone()).into_response();
            res.headers_mut()
                .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
            res
        };
        let h = res.headers_mut();
        if let Ok(v) = HeaderValue::from_str(&self.etag) {
            h.insert(header::ETAG, v);
        }
        if let Ok(v) = HeaderValue::from_str(&format!("public, max-age={MAX_AGE_SECS}")) {
            h.insert(header::CACHE_CONTROL, v);
        }
        res
    }
}
