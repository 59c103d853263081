//! The operator's calls (issue 21, D335): usage over a date range and its NDJSON export;
//! the feeds (`feeds`, D336).
//! Operators are signed-in accounts whose email is in `--admin-emails`
//! (`LOCALWIRE_ADMIN_EMAILS`); a guest, or an account not in the list, gets 403 in the
//! envelope. Signed POSTs, like the account page's calls.

pub mod feeds;

use crate::account::{is_operator, require_account};
use crate::envelope::{ApiError, ok};
use crate::signed::Signed;
use crate::state::AppState;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use store::UserId;
use store::reports::{Count, DAY_MS, DayUsage, Usage};
use utoipa::ToSchema;

/// Longest range the usage view and the export take, in days.
pub const MAX_RANGE_DAYS: i64 = 366;
/// Events per page of the export's reads.
const EXPORT_PAGE: i64 = 5_000;

/// A range of UTC days, both ends included: `YYYY-MM-DD`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct RangeRequest {
    pub from: String,
    pub to: String,
}

/// Days since 1970-01-01 of a `YYYY-MM-DD` date (proleptic Gregorian).
pub fn parse_day(s: &str) -> Option<i64> {
    let mut parts = s.trim().splitn(3, '-');
    let y: i64 = parts.next()?.parse().ok()?;
    let m: i64 = parts.next()?.parse().ok()?;
    let d: i64 = parts.next()?.parse().ok()?;
    if !(1970..=9999).contains(&y) || !(1..=12).contains(&m) {
        return None;
    }
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days_in = [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    if d < 1 || d > days_in[(m - 1) as usize] {
        return None;
    }
    // Howard Hinnant's days_from_civil.
    let y2 = if m <= 2 { y - 1 } else { y };
    let era = y2.div_euclid(400);
    let yoe = y2 - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

/// `YYYY-MM-DD` of a day number.
pub fn format_day(day: i64) -> String {
    let (y, m, d) = domain::clock::civil_from_days(day);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The range as `[from_ms, to_ms)`, or a message saying what to fix.
pub fn range_ms(r: &RangeRequest) -> Result<(i64, i64), ApiError> {
    let from = parse_day(&r.from)
        .ok_or_else(|| ApiError::BadRequest("Field `from`: a date as YYYY-MM-DD, e.g. 2026-11-01.".into()))?;
    let to = parse_day(&r.to)
        .ok_or_else(|| ApiError::BadRequest("Field `to`: a date as YYYY-MM-DD, e.g. 2026-11-30.".into()))?;
    if to < from {
        return Err(ApiError::BadRequest("Field `to`: must not be before `from`.".into()));
    }
    if to - from + 1 > MAX_RANGE_DAYS {
        return Err(ApiError::BadRequest(format!(
            "The range is longer than {MAX_RANGE_DAYS} days; choose a shorter one."
        )));
    }
    Ok((from * DAY_MS, (to + 1) * DAY_MS))
}

/// 403 unless the token is a signed-in account that `--admin-emails` names (D361).
pub async fn require_operator(state: &AppState, token: Option<&str>) -> Result<(), ApiError> {
    let (_, session) = require_account(state, token).await?;
    let identities = state.store.identities_of(UserId(session.user.id)).await?;
    if !is_operator(&state.config.admin_emails, &identities) {
        return Err(ApiError::Forbidden);
    }
    Ok(())
}

#[derive(Serialize, ToSchema)]
pub struct UsageDay {
    /// YYYY-MM-DD (UTC).
    pub date: String,
    /// Distinct devices that reported.
    pub readers: i64,
    pub page_views: i64,
    pub events: i64,
}

#[derive(Serialize, ToSchema)]
pub struct UsageCount {
    pub key: String,
    pub label: String,
    pub count: i64,
}

#[derive(Serialize, ToSchema)]
pub struct UsageAnswer {
    pub from: String,
    pub to: String,
    pub days: Vec<UsageDay>,
    pub core_functions: Vec<UsageCount>,
    pub top_stories: Vec<UsageCount>,
    pub search_terms: Vec<UsageCount>,
    pub channels: Vec<UsageCount>,
    pub countries: Vec<UsageCount>,
    pub languages: Vec<UsageCount>,
}

fn counts(list: Vec<Count>) -> Vec<UsageCount> {
    list.into_iter()
        .map(|c| UsageCount {
            key: c.key,
            label: c.label,
            count: c.count,
        })
        .collect()
}

fn answer(from: i64, to: i64, usage: Usage) -> UsageAnswer {
    // Every day of the range, with zeros where nothing was reported (charts need them).
    let mut days = Vec::new();
    let mut given = usage.days.into_iter().peekable();
    for day in from / DAY_MS..to / DAY_MS {
        let d = match given.peek() {
            Some(g) if g.day == day => given.next(),
            _ => None,
        }
        .unwrap_or(DayUsage {
            day,
            readers: 0,
            page_views: 0,
            events: 0,
        });
        days.push(UsageDay {
            date: format_day(day),
            readers: d.readers,
            page_views: d.page_views,
            events: d.events,
        });
    }
    UsageAnswer {
        from: format_day(from / DAY_MS),
        to: format_day(to / DAY_MS - 1),
        days,
        core_functions: counts(usage.core_functions),
        top_stories: counts(usage.top_stories),
        search_terms: counts(usage.search_terms),
        channels: counts(usage.channels),
        countries: counts(usage.countries),
        languages: counts(usage.languages),
    }
}

/// Usage over a range of UTC days: daily readers, page views, core functions, top stories,
/// search terms, channels, countries and languages. Operators only.
#[utoipa::path(post, path = "/api/admin/usage", tag = "admin", request_body = RangeRequest,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with the usage of the range", body = UsageAnswer),
        (status = 400, description = "A date is not YYYY-MM-DD, the range is reversed or longer than 366 days"),
        (status = 401, description = "Missing, unknown or expired token"),
        (status = 403, description = "Not an operator (--admin-emails)")))]
pub async fn usage(State(state): State<AppState>, call: Signed<RangeRequest>) -> Result<Response, ApiError> {
    require_operator(&state, call.token.as_deref()).await?;
    let (from, to) = range_ms(&call.body)?;
    let usage = state.store.usage(from, to).await?;
    Ok(ok(answer(from, to, usage)))
}

/// Every event of a range as NDJSON (one JSON object a line), oldest first. Operators only.
#[utoipa::path(post, path = "/api/admin/usage/export", tag = "admin", request_body = RangeRequest,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "NDJSON: one event a line (id, received_at, time, event, fields, property, device_id, country, lang, channel, ip, user_agent)", content_type = "application/x-ndjson"),
        (status = 400, description = "A date is not YYYY-MM-DD, the range is reversed or too long"),
        (status = 403, description = "Not an operator (--admin-emails)")))]
pub async fn usage_export(State(state): State<AppState>, call: Signed<RangeRequest>) -> Result<Response, ApiError> {
    require_operator(&state, call.token.as_deref()).await?;
    let (from, to) = range_ms(&call.body)?;
    let store = state.store.clone();
    // Fused: the compression layer may poll once more after the end.
    let stream = futures_util::StreamExt::fuse(futures_util::stream::unfold(Some(0_i64), move |after| {
        let store = store.clone();
        async move {
            let after = after?;
            match store.report_events(from, to, after, EXPORT_PAGE).await {
                Ok(page) if page.is_empty() => None,
                Ok(page) => {
                    let next = page.last().map(|e| e.id);
                    let mut text = String::new();
                    for e in page {
                        let line = serde_json::json!({
                            "id": e.id, "received_at": e.received_at_ms, "time": e.time_ms, "event": e.event,
                            "fields": serde_json::from_str::<Value>(&e.fields).unwrap_or(Value::Null),
                            "property": serde_json::from_str::<Value>(&e.property).unwrap_or(Value::Null),
                            "device_id": e.device_id, "country": e.country, "lang": e.lang,
                            "channel": e.channel, "ip": e.ip, "user_agent": e.user_agent,
                        });
                        text.push_str(&line.to_string());
                        text.push('\n');
                    }
                    Some((Ok::<_, std::io::Error>(text), next))
                }
                Err(e) => {
                    tracing::error!(error = %e, "usage export: reading events failed");
                    Some((Err(std::io::Error::other(e.to_string())), None))
                }
            }
        }
    }));
    let mut res = (StatusCode::OK, Body::from_stream(stream)).into_response();
    let h = res.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/x-ndjson"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    let name = format!(
        "attachment; filename=\"localwire-usage-{}-{}.ndjson\"",
        format_day(from / DAY_MS),
        format_day(to / DAY_MS - 1)
    );
    if let Ok(v) = HeaderValue::from_str(&name) {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn d335_dates_round_trip_and_bad_ranges_say_what_to_fix() {
        assert_eq!(parse_day("1970-01-01"), Some(0));
        assert_eq!(parse_day("2026-11-25"), Some(20_782));
        for day in [0, 59, 60, 11_016, 20_782, 30_000] {
            assert_eq!(parse_day(&format_day(day)), Some(day));
        }
        assert_eq!(parse_day("2026-02-29"), None);
        assert_eq!(parse_day("2024-02-29"), Some(19_782));
        assert_eq!(parse_day("nope"), None);
        let r = |from: &str, to: &str| {
            range_ms(&RangeRequest {
                from: from.into(),
                to: to.into(),
            })
        };
        assert_eq!(
            r("2026-11-01", "2026-11-01").unwrap(),
            (20_758 * DAY_MS, 20_759 * DAY_MS)
        );
        assert!(
            r("2026-11-02", "2026-11-01")
                .unwrap_err()
                .to_string()
                .contains("before")
        );
        assert!(r("2024-01-01", "2026-01-01").unwrap_err().to_string().contains("366"));
        assert!(
            r("11/01/2026", "2026-11-01")
                .unwrap_err()
                .to_string()
                .contains("YYYY-MM-DD")
        );
    }
}
