//! Usage and page-view reports (issue 21, D332): events appended as they come, never
//! changed, deleted when older than the retention, and summed for the operator.
//!
//! An event row keeps what the operator's views group by as plain columns (event name,
//! device, country, language, channel, and per model a subject, detail and label) and
//! the cleaned fields and property record as JSON text for the export. No user id is
//! kept: readers are counted by device.

use async_trait::async_trait;

use crate::Result;

/// One event as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportEvent {
    /// Given by the store on append; 0 before.
    pub id: i64,
    pub received_at_ms: i64,
    /// When it happened, by the reporter's clock.
    pub time_ms: i64,
    pub event: String,
    pub device_id: String,
    pub country: String,
    pub lang: String,
    pub channel: String,
    /// coreBehavior: behavior_id; search: keyword; pageView: page_path.
    pub subject: String,
    /// coreBehavior: sub_behavior_id; pageView: news_id.
    pub detail: String,
    /// pageView: page_title.
    pub label: String,
    /// Truncated (D331).
    pub ip: String,
    /// At most 500 characters (§9.11).
    pub user_agent: String,
    /// The event's cleaned fields, JSON.
    pub fields: String,
    /// The cleaned property record, JSON.
    pub property: String,
}

/// A count of something over a range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Count {
    pub key: String,
    /// A readable name beside the key where there is one (a story's title).
    pub label: String,
    pub count: i64,
}

/// One UTC day of a range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DayUsage {
    /// Days since 1970-01-01 (UTC).
    pub day: i64,
    /// Distinct devices that reported anything.
    pub readers: i64,
    pub page_views: i64,
    pub events: i64,
}

/// What the operator's usage view shows for a range of received times.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Usage {
    pub days: Vec<DayUsage>,
    /// coreBehavior events by behavior_id.
    pub core_functions: Vec<Count>,
    /// pageView events by news_id, with the page title.
    pub top_stories: Vec<Count>,
    /// search events by keyword (lower case).
    pub search_terms: Vec<Count>,
    /// Distinct devices by acquisition channel ('' = none).
    pub channels: Vec<Count>,
    /// Distinct devices by country.
    pub countries: Vec<Count>,
    /// Distinct devices by language.
    pub languages: Vec<Count>,
}

/// Longest list of a usage view.
pub const TOP: i64 = 20;

/// Milliseconds in a day.
pub const DAY_MS: i64 = 86_400_000;

#[async_trait]
pub trait ReportStore {
    /// Append events (their ids are ignored). One call is one commit on SQLite's group
    /// writer, shared with every other call waiting.
    async fn append_report_events(&self, events: Vec<ReportEvent>) -> Result<()>;

    /// Delete every event received before `before_ms`; how many went.
    async fn delete_report_events_before(&self, before_ms: i64) -> Result<u64>;

    /// Events received in `[from_ms, to_ms)` with an id above `after_id`, oldest first, at
    /// most `limit` (the export pages through them).
    async fn report_events(&self, from_ms: i64, to_ms: i64, after_id: i64, limit: i64) -> Result<Vec<ReportEvent>>;

    /// The usage view of events received in `[from_ms, to_ms)`.
    async fn usage(&self, from_ms: i64, to_ms: i64) -> Result<Usage>;
}
