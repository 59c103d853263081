//! `POST /api/report` (SPEC §7.15, issue 21): the app's usage and page-view reports; the
//! budget, settings and retention it uses are `crate::report`.
//!
//! A beacon sent as a page unloads cannot set the signing headers, so this call is not
//! signed (D333). It is protected the way a public write must be: a token bucket per
//! address (`rate_limit`), a body cap (`MAX_BODY_BYTES`), at most 100 events a call,
//! every event cleaned against its model (§5.7), bot user agents, Do-Not-Track and Global
//! Privacy Control dropped (answered `accepted: 0`), nothing kept that names a person
//! (the address truncated, D331; no user id, D332). It accepts any content type, since a
//! beacon's Blob may say `text/plain`.
//!
//! What a call repeats for its events is stored once (D365), and what it stores is counted
//! against a daily budget per address and a cap on the whole store (`budget`, D366, D367).

use crate::envelope::{ApiError, ok};
use crate::rate_limit::client_ip;
use crate::report::budget::Refusal;
use crate::state::{AppState, now_ms};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, header};
use axum::response::Response;
use domain::report::{
    CleanEvent, cap_user_agent, clean_report, event_columns, is_bot_user_agent, stored_fields, truncate_ip,
};
use serde::Serialize;
use serde_json::{Map, Value};
use std::time::Instant;
use store::reports::{CallEvent, ReportCall};
use utoipa::ToSchema;

/// Largest report body: 100 events with long stack traces fit.
pub const MAX_BODY_BYTES: usize = 256 * 1024;

/// What `POST /api/report` answers.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReportAnswer {
    /// Events stored.
    pub accepted: usize,
    /// Events refused, by their place in `data`, with the reason (e.g. 'No event model: x').
    pub rejected: Vec<RejectedEvent>,
    /// Why nothing was stored although the report was well formed: `bot`, `do-not-track`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dropped: Option<&'static str>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RejectedEvent {
    pub index: usize,
    pub message: String,
}

/// SPEC §3.16 report request (documentation of the body; the handler reads it as JSON).
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct ReportRequest {
    /// 20310.
    app_id: i64,
    /// When the report was sent, in ms.
    timestamp: i64,
    /// 16 characters.
    nonce_str: String,
    /// 4.
    source: i64,
    /// Events: `{event: <model name>, time?: ms, ...the model's fields}` (web/src/shared/report.json).
    data: Vec<Map<String, Value>>,
    /// §3.15 property record, `os` 5.
    property: Map<String, Value>,
}

fn header_str<'a>(headers: &'a HeaderMap, name: &str) -> &'a str {
    headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("")
}

fn text(fields: &Map<String, Value>, key: &str) -> String {
    fields.get(key).and_then(Value::as_str).unwrap_or("").to_string()
}

/// An event as stored: the columns the operator's views group by and the fields those and
/// the model's defaults do not give back (D365).
fn stored_event(e: CleanEvent) -> CallEvent {
    let [subject, detail, label] = event_columns(&e.name, &e.fields);
    let fields = stored_fields(&e.name, &e.fields);
    CallEvent {
        time_ms: e.time_ms,
        fields: if fields.is_empty() {
            String::new()
        } else {
            Value::Object(fields).to_string()
        },
        event: e.name,
        subject,
        detail,
        label,
    }
}

/// Report usage (SPEC §3.16): unsigned, so a beacon can send it (D333).
#[utoipa::path(post, path = "/api/report", tag = "report", request_body = ReportRequest,
    responses((status = 200, description = "Envelope with what was stored and what was refused", body = ReportAnswer),
        (status = 400, description = "Not a report: the message says which field ('No report event list' when no event is valid)"),
        (status = 413, description = "Body larger than 256 KB"),
        (status = 429, description = "Too many reports from this address, or its bytes for the UTC day are used (Retry-After)"),
        (status = 507, description = "The report store is at its cap (--report-max-bytes); nothing is stored")))]
pub async fn report(State(state): State<AppState>, req: Request) -> Result<Response, ApiError> {
    let ip = client_ip(&req, state.config.trust_forwarded_for);
    if let Some(ip) = ip {
        state
            .report_limit
            .check(ip, Instant::now())
            .map_err(|secs| ApiError::TooManyRequests { retry_after_secs: secs })?;
    }
    let headers = req.headers().clone();
    let body = axum::body::to_bytes(req.into_body(), MAX_BODY_BYTES)
        .await
        .map_err(|_| ApiError::PayloadTooLarge(MAX_BODY_BYTES))?;
    let value: Value =
        serde_json::from_slice(&body).map_err(|e| ApiError::BadRequest(format!("The report is not JSON: {e}.")))?;
    let clean = clean_report(&value).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let rejected: Vec<RejectedEvent> = clean
        .rejected
        .into_iter()
        .map(|r| RejectedEvent {
            index: r.index,
            message: r.message,
        })
        .collect();
    let ua = header_str(&headers, header::USER_AGENT.as_str());
    let dropped = if is_bot_user_agent(ua) {
        Some("bot")
    } else if header_str(&headers, "dnt").trim() == "1" || header_str(&headers, "sec-gpc").trim() == "1" {
        Some("do-not-track")
    } else {
        None
    };
    if dropped.is_some() {
        return Ok(ok(ReportAnswer {
            accepted: 0,
            rejected,
            dropped,
        }));
    }
    let now = now_ms();
    let call = ReportCall {
        received_at_ms: now,
        ip: ip.map(truncate_ip).unwrap_or_default(),
        user_agent: cap_user_agent(ua),
        device_id: text(&clean.property, "device_id"),
        country: text(&clean.property, "country").to_ascii_uppercase(),
        lang: text(&clean.property, "app_lang"),
        channel: text(&clean.property, "channel"),
        property: Value::Object(clean.property).to_string(),
        events: clean.events.into_iter().map(stored_event).collect(),
    };
    let accepted = call.events.len();
    take_budget(&state, ip, &call, now).await?;
    state.store.append_report_call(call).await?;
    Ok(ok(ReportAnswer {
        accepted,
        rejected,
        dropped: None,
    }))
}

/// Count the call against its address's day and the store's cap (D366, D367), measuring
/// the store first when the last measure is old.
async fn take_budget(
    state: &AppState,
    ip: Option<std::net::IpAddr>,
    call: &ReportCall,
    now: i64,
) -> Result<(), ApiError> {
    let budget = &state.report_budget;
    if budget.should_measure(now) {
        let measured = state.store.report_stored_bytes().await;
        if let Err(e) = &measured {
            tracing::warn!(error = %e, "measuring the report store failed");
        }
        budget.measured(measured.ok(), now);
    }
    budget
        .take(ip, call.stored_bytes().max(0) as u64, now)
        .map_err(|refusal| match refusal {
            Refusal::AddressDay { retry_after_secs } => ApiError::ReportDayUsed {
                bytes_per_day: budget.per_address_per_day(),
                retry_after_secs,
            },
            Refusal::Full => ApiError::ReportStoreFull(budget.max_total()),
        })
}
