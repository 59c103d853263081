//! Realtime trends (issue 20, D300–D302): [`phrases`] of headlines, the [`engine`] that
//! finds which trend (a pure function), and the [`kept`] trends per country, language and
//! state that `GET /api/trends` (`api::news_api::trends`) answers from.

pub mod engine;
pub mod kept;
pub mod phrases;
