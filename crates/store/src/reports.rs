//! Usage and page-view reports (issue 21, D332): events appended as they come, never
//! changed, deleted when older than the retention, and summed for the operator.
//!
//! What a report call repeats for each of its events (the property record, the user agent,
//! the address and the device, country, language and channel the views group by) is kept
//! once, in a call row; each event row holds its name, time, the per-model subject, detail
//! and label, and only the fields those and the model's defaults do not give back (D365).
//! An event's id is its call's id times [`EVENT_IDS_PER_CALL`] plus its place in the call,
//! so the call is found from the event without a column or an index. No user id is kept:
//! readers are counted by device.

use async_trait::async_trait;

use crate::Result;

/// One event as the export reads it: its call's columns joined back, its fields whole.
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

/// Event ids per call: a call's events are ids `call * 128 ..= call * 128 + 127`. Larger than
/// the most events a call may carry (100, `maxEventsPerRequest`).
pub const EVENT_IDS_PER_CALL: i64 = 128;

/// What one stored row costs beyond its text, as counted against the byte caps (D366): about
/// what PostgreSQL spends on a row's header, line pointer, numbers and its index entry
/// (SQLite spends less).
pub const CALL_ROW_BYTES: i64 = 128;
pub const EVENT_ROW_BYTES: i64 = 80;

/// One report call to append: what its events share, once, and the events.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportCall {
    pub received_at_ms: i64,
    /// Truncated (D331).
    pub ip: String,
    /// At most 500 characters (§9.11).
    pub user_agent: String,
    /// The cleaned property record, JSON.
    pub property: String,
    pub device_id: String,
    pub country: String,
    pub lang: String,
    pub channel: String,
    /// At most [`EVENT_IDS_PER_CALL`].
    pub events: Vec<CallEvent>,
}

/// One event of a call, as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct CallEvent {
    /// When it happened, by the reporter's clock.
    pub time_ms: i64,
    pub event: String,
    pub subject: String,
    pub detail: String,
    pub label: String,
    /// `domain::report::stored_fields` as JSON; '' when nothing is left.
    pub fields: String,
}

impl ReportCall {
    /// The bytes this call is counted as storing: its text plus a fixed cost per row.
    pub fn stored_bytes(&self) -> i64 {
        let text = |s: &str| s.len() as i64;
        let call = CALL_ROW_BYTES
            + [
                &self.ip,
                &self.user_agent,
                &self.property,
                &self.device_id,
                &self.country,
                &self.lang,
                &self.channel,
            ]
            .iter()
            .map(|s| text(s))
            .sum::<i64>();
        let events: i64 = self
            .events
            .iter()
            .map(|e| {
                EVENT_ROW_BYTES + text(&e.event) + text(&e.subject) + text(&e.detail) + text(&e.label) + text(&e.fields)
            })
            .sum();
        call + events
    }
}

/// An event's fields whole, as JSON, from what was stored and its columns (D365).
pub fn full_fields(event: &str, subject: &str, detail: &str, label: &str, fields: &str) -> String {
    domain::report::full_fields_json(event, [subject, detail, label], fields)
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
    /// Append one report call and its events. One call is one commit on SQLite's group
    /// writer, shared with every other call waiting.
    async fn append_report_call(&self, call: ReportCall) -> Result<()>;

    /// Delete every call and event received before `before_ms`; how many events went.
    async fn delete_report_events_before(&self, before_ms: i64) -> Result<u64>;

    /// Events received in `[from_ms, to_ms)` with an id above `after_id`, oldest first, at
    /// most `limit` (the export pages through them).
    async fn report_events(&self, from_ms: i64, to_ms: i64, after_id: i64, limit: i64) -> Result<Vec<ReportEvent>>;

    /// The usage view of events received in `[from_ms, to_ms)`.
    async fn usage(&self, from_ms: i64, to_ms: i64) -> Result<Usage>;

    /// The bytes the stored calls are counted as (the sum of [`ReportCall::stored_bytes`]),
    /// for the total cap (D366).
    async fn report_stored_bytes(&self) -> Result<i64>;
}
