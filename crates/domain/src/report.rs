//! SPEC §3.15–3.17, §5.7, §9: the report request, its property record and the event
//! models, and the rules a report must meet before it is stored. The models and limits
//! are data in `web/src/shared/report.json`, read by the app too (D235, D330); the
//! validation cases both sides run are in `web/src/shared/fixtures/report-validation.json`.

use serde::Deserialize;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::net::IpAddr;
use std::sync::LazyLock;

/// The shared rules file, as written.
pub const RULES_JSON: &str = include_str!("../../../web/src/shared/report.json");

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Rules {
    pub app_id: i64,
    pub source: i64,
    pub os: i64,
    pub nonce_length: usize,
    pub user_agent_max: usize,
    pub adn_id: i64,
    pub queue: QueueLimits,
    pub is_base: IsBase,
    pub core_functions: BTreeMap<String, String>,
    pub max_events_per_request: usize,
    pub max_string_chars: usize,
    pub max_stack_chars: usize,
    pub network_types: Vec<String>,
    pub bot_user_agent: Vec<String>,
    pub property: BTreeMap<String, FieldType>,
    pub events: BTreeMap<String, BTreeMap<String, FieldRule>>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QueueLimits {
    pub debounce_ms: u64,
    pub limit: usize,
    pub batch: usize,
    pub fail_limit: u32,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IsBase {
    pub core_function: i64,
    pub core_behavior: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FieldType {
    String,
    Number,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FieldRule {
    #[serde(rename = "type")]
    pub kind: FieldType,
    #[serde(default)]
    pub one_of: Vec<Value>,
    #[serde(default)]
    pub default: Option<Value>,
    /// A stack trace: a longer cap than other strings.
    #[serde(default)]
    pub stack: bool,
}

/// The rules, parsed once. The file is part of the build and a test reads it, so a broken
/// file fails the tests long before it could fail a start.
pub static RULES: LazyLock<Rules> = LazyLock::new(|| match serde_json::from_str(RULES_JSON) {
    Ok(rules) => rules,
    Err(e) => panic!("web/src/shared/report.json is not valid report rules: {e}"),
});

/// Why a report was refused as a whole (§5.7 and the request's fixed fields).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReportError {
    #[error("A report is a JSON object with app_id, timestamp, nonce_str, source, data and property.")]
    NotAnObject,
    #[error("app_id must be {0}.")]
    AppId(i64),
    #[error("source must be {0}.")]
    Source(i64),
    #[error("nonce_str must be {0} characters.")]
    Nonce(usize),
    #[error("timestamp must be a time in milliseconds.")]
    Timestamp,
    #[error("property must be an object with os {0}.")]
    Property(i64),
    #[error("data must be a list of at most {0} events.")]
    TooManyEvents(usize),
    /// §5.7: no valid event left.
    #[error("No report event list")]
    NoEventList,
}

/// One event that passed: its model name, when it happened, and its cleaned fields.
#[derive(Debug, Clone, PartialEq)]
pub struct CleanEvent {
    pub name: String,
    pub time_ms: i64,
    pub fields: Map<String, Value>,
}

/// One event that did not, by its place in `data`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejected {
    pub index: usize,
    pub message: String,
}

/// A report ready to store.
#[derive(Debug, Clone, PartialEq)]
pub struct CleanReport {
    pub timestamp: i64,
    pub property: Map<String, Value>,
    pub events: Vec<CleanEvent>,
    pub rejected: Vec<Rejected>,
}

fn cap(s: &str, max: usize) -> String {
    let trimmed = s.trim();
    match trimmed.char_indices().nth(max) {
        Some((at, _)) => trimmed[..at].to_string(),
        None => trimmed.to_string(),
    }
}

/// §5.4: a number that fails to parse becomes 0.
fn number(v: &Value) -> Value {
    match v {
        Value::Number(_) => v.clone(),
        Value::String(s) => {
            let s = s.trim();
            if let Ok(i) = s.parse::<i64>() {
                Value::from(i)
            } else if let Some(f) = s.parse::<f64>().ok().filter(|f| f.is_finite()) {
                Value::from(f)
            } else {
                Value::from(0)
            }
        }
        Value::Bool(b) => Value::from(i64::from(*b)),
        _ => Value::from(0),
    }
}

fn string(v: &Value, max: usize) -> Value {
    match v {
        Value::String(s) => Value::String(cap(s, max)),
        Value::Number(n) => Value::String(n.to_string()),
        Value::Bool(b) => Value::String(b.to_string()),
        _ => Value::String(String::new()),
    }
}

fn clean_value(kind: FieldType, v: &Value, max: usize) -> Value {
    match kind {
        FieldType::Number => number(v),
        FieldType::String => string(v, max),
    }
}

fn same(a: &Value, b: &Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// §5.7 for one event: the name trimmed and among the models ('No event model'), every
/// field of its model cleaned (strings trimmed and capped, numbers parsed), fixed values
/// checked; fields outside the model are dropped. `default_time` when it has no `time`.
pub fn clean_event(event: &Value, default_time: i64) -> Result<CleanEvent, String> {
    let rules = &*RULES;
    let Some(obj) = event.as_object() else {
        return Err("No event model: an event is an object with an event name.".into());
    };
    let name = obj.get("event").and_then(Value::as_str).map(str::trim).unwrap_or("");
    let Some(model) = rules.events.get(name) else {
        return Err(format!("No event model: {}", cap(name, 64)));
    };
    let mut fields = Map::new();
    for (field, rule) in model {
        let max = if rule.stack {
            rules.max_stack_chars
        } else {
            rules.max_string_chars
        };
        let value = match obj.get(field).filter(|v| !v.is_null()) {
            Some(v) => clean_value(rule.kind, v, max),
            None => match &rule.default {
                Some(d) => d.clone(),
                None => clean_value(rule.kind, &Value::Null, max),
            },
        };
        if !rule.one_of.is_empty() && !rule.one_of.iter().any(|allowed| same(allowed, &value)) {
            let allowed: Vec<String> = rule.one_of.iter().map(Value::to_string).collect();
            return Err(format!("{name}.{field} must be one of {}.", allowed.join(", ")));
        }
        fields.insert(field.clone(), value);
    }
    let time_ms = obj
        .get("time")
        .and_then(|t| number(t).as_i64())
        .filter(|t| *t > 0)
        .unwrap_or(default_time);
    Ok(CleanEvent {
        name: name.to_string(),
        time_ms,
        fields,
    })
}

/// The property record (§3.15) with its known fields cleaned; others dropped. The
/// address the client claims (`ip`) is never kept (the server's own truncated one is),
/// nor are `user_id` and `guid`: readers are counted by device (D332).
pub fn clean_property(property: &Map<String, Value>) -> Map<String, Value> {
    let rules = &*RULES;
    let mut out = Map::new();
    for (field, kind) in &rules.property {
        if matches!(field.as_str(), "ip" | "user_id" | "guid") {
            continue;
        }
        if let Some(v) = property.get(field).filter(|v| !v.is_null()) {
            out.insert(field.clone(), clean_value(*kind, v, 200));
        }
    }
    if let Some(Value::String(t)) = out.get("network_type")
        && !rules.network_types.iter().any(|n| n == t)
    {
        out.insert("network_type".into(), Value::String("other".into()));
    }
    out
}

/// §3.16 and §5.7 for a whole request.
pub fn clean_report(body: &Value) -> Result<CleanReport, ReportError> {
    let rules = &*RULES;
    let obj = body.as_object().ok_or(ReportError::NotAnObject)?;
    let field_number = |k: &str| obj.get(k).map(number).and_then(|v| v.as_i64());
    if field_number("app_id") != Some(rules.app_id) {
        return Err(ReportError::AppId(rules.app_id));
    }
    if field_number("source") != Some(rules.source) {
        return Err(ReportError::Source(rules.source));
    }
    let nonce = obj
        .get("nonce_str")
        .and_then(Value::as_str)
        .map(str::trim)
        .unwrap_or("");
    if nonce.chars().count() != rules.nonce_length {
        return Err(ReportError::Nonce(rules.nonce_length));
    }
    let timestamp = field_number("timestamp")
        .filter(|t| *t > 0)
        .ok_or(ReportError::Timestamp)?;
    let property = obj
        .get("property")
        .and_then(Value::as_object)
        .filter(|p| p.get("os").map(number).and_then(|v| v.as_i64()) == Some(rules.os))
        .ok_or(ReportError::Property(rules.os))?;
    let data = match obj.get("data") {
        Some(Value::Array(list)) => list,
        _ => return Err(ReportError::NoEventList),
    };
    if data.len() > rules.max_events_per_request {
        return Err(ReportError::TooManyEvents(rules.max_events_per_request));
    }
    let mut events = Vec::with_capacity(data.len());
    let mut rejected = Vec::new();
    for (index, event) in data.iter().enumerate() {
        match clean_event(event, timestamp) {
            Ok(e) => events.push(e),
            Err(message) => rejected.push(Rejected { index, message }),
        }
    }
    if events.is_empty() {
        return Err(ReportError::NoEventList);
    }
    Ok(CleanReport {
        timestamp,
        property: clean_property(property),
        events,
        rejected,
    })
}

/// §1.8: events are not taken from bot user agents (an empty one counts as a bot).
pub fn is_bot_user_agent(ua: &str) -> bool {
    let ua = ua.trim();
    if ua.is_empty() {
        return true;
    }
    let lower = ua.to_ascii_lowercase();
    RULES.bot_user_agent.iter().any(|word| lower.contains(word.as_str()))
}

/// §9.11: the user agent kept is at most 500 characters.
pub fn cap_user_agent(ua: &str) -> String {
    cap(ua, RULES.user_agent_max)
}

/// The address kept with an event: IPv4 to its /24, IPv6 to its /48 (D331).
pub fn truncate_ip(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, c, _] = v4.octets();
            format!("{a}.{b}.{c}.0")
        }
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => truncate_ip(IpAddr::V4(v4)),
            None => {
                let s = v6.segments();
                std::net::Ipv6Addr::new(s[0], s[1], s[2], 0, 0, 0, 0, 0).to_string()
            }
        },
    }
}

/// Which of an event's fields the operator's views group by, as (subject, detail, label)
/// (D332): coreBehavior and clientBehavior: behavior_id / sub_behavior_id; search: keyword;
/// pageView: page_path / news_id / page_title; ad events: placement_id / rule_id / scene.
fn column_keys(name: &str) -> [Option<&'static str>; 3] {
    match name {
        "coreBehavior" | "clientBehavior" => [Some("behavior_id"), Some("sub_behavior_id"), None],
        "search" => [Some("keyword"), None, None],
        "pageView" => [Some("page_path"), Some("news_id"), Some("page_title")],
        "should_show" | "ping_back" | "ad_click" => [Some("placement_id"), Some("rule_id"), Some("scene")],
        _ => [None; 3],
    }
}

/// The subject, detail and label columns of a cleaned event (see `column_keys`).
pub fn event_columns(name: &str, fields: &Map<String, Value>) -> [String; 3] {
    column_keys(name).map(|key| {
        key.and_then(|k| fields.get(k))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    })
}

/// What a field is when the reporter did not send it: the model's default, else the
/// empty string or 0 (as `clean_event` fills it in).
fn field_default(rules: &Rules, rule: &FieldRule) -> Value {
    match &rule.default {
        Some(d) => d.clone(),
        None => clean_value(rule.kind, &Value::Null, rules.max_string_chars),
    }
}

/// A cleaned event's fields as they are stored (issue 29, D365): without the fields the
/// subject/detail/label columns already hold and without those equal to what
/// `clean_event` fills in for a missing field. `{"event":"ad_click"}` is 20 bytes sent;
/// its nine filled-in fields would be 130 stored. `full_fields` gives the event back.
pub fn stored_fields(name: &str, fields: &Map<String, Value>) -> Map<String, Value> {
    let rules = &*RULES;
    let columns = column_keys(name);
    let model = rules.events.get(name);
    fields
        .iter()
        .filter(|(k, v)| !(columns.contains(&Some(k.as_str())) && v.is_string()))
        .filter(|(k, v)| {
            model
                .and_then(|m| m.get(k.as_str()))
                .is_none_or(|rule| field_default(rules, rule) != **v)
        })
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// The cleaned fields back from what `stored_fields` kept and the event's columns. Rows
/// stored whole (before D365) come back as they are: every field is present.
pub fn full_fields(name: &str, columns: [&str; 3], stored: &Map<String, Value>) -> Map<String, Value> {
    let rules = &*RULES;
    let mut out = stored.clone();
    let Some(model) = rules.events.get(name) else {
        return out;
    };
    let keys = column_keys(name);
    for (field, rule) in model {
        if out.contains_key(field) {
            continue;
        }
        let value = match keys.iter().position(|k| *k == Some(field.as_str())) {
            Some(at) => Value::String(columns[at].to_string()),
            None => field_default(rules, rule),
        };
        out.insert(field.clone(), value);
    }
    out
}

/// `full_fields` from stored JSON text ('' or an object), as JSON text.
pub fn full_fields_json(name: &str, columns: [&str; 3], stored: &str) -> String {
    let stored = match serde_json::from_str::<Value>(stored) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    };
    Value::Object(full_fields(name, columns, &stored)).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn request(data: Value) -> Value {
        json!({"app_id": 20310, "timestamp": 1_760_000_000_000_i64, "nonce_str": "abcdefghijklmnop",
               "source": 4, "data": data, "property": {"os": 5, "device_id": "d1"}})
    }

    #[test]
    fn s9_report_constants() {
        let r = &*RULES;
        assert_eq!((r.app_id, r.source, r.os, r.nonce_length), (20310, 4, 5, 16));
        assert_eq!((r.user_agent_max, r.adn_id), (500, 37));
        assert_eq!(
            (r.queue.debounce_ms, r.queue.limit, r.queue.batch, r.queue.fail_limit),
            (1000, 5000, 20, 3)
        );
        assert_eq!((r.is_base.core_function, r.is_base.core_behavior), (1, 0));
        assert_eq!(r.app_id, i64::from(crate::constants::APP_ID));
        assert_eq!(r.nonce_length, crate::constants::REPORT_NONCE_LEN);
    }

    #[test]
    fn s3_17_every_event_model_is_known() {
        let names: Vec<&str> = RULES.events.keys().map(String::as_str).collect();
        for model in [
            "install",
            "launch",
            "usingTime",
            "clientBehavior",
            "clientException",
            "coreBehavior",
            "permissionStatus",
            "search",
            "deeplink",
            "adSource",
            "registerChannel",
            "register",
            "device",
            "should_show",
            "ping_back",
            "ad_click",
        ] {
            assert!(names.contains(&model), "{model} is a §3.17 event model");
        }
        let click = &RULES.events["ad_click"];
        for f in [
            "placement_id",
            "rule_id",
            "revenue",
            "floor_price",
            "click_time",
            "show_time",
            "load_time",
            "scene",
        ] {
            assert!(click.contains_key(f), "ad_click has {f}");
        }
        assert!(RULES.events["coreBehavior"].contains_key("is_base"));
    }

    #[test]
    fn s3_15_property_record_fields() {
        for f in [
            "os",
            "device_id",
            "guid",
            "user_id",
            "ip",
            "device_model",
            "brand",
            "carrier",
            "network_type",
            "sys_lang",
            "app_lang",
            "sys_version",
            "app_version",
            "screen_width",
            "screen_height",
            "memory",
            "storage",
            "available_storage",
            "channel",
        ] {
            assert!(RULES.property.contains_key(f), "{f} is a §3.15 property field");
        }
    }

    #[test]
    fn s5_7_no_event_model() {
        let e = clean_event(&json!({"event": "nope"}), 1).unwrap_err();
        assert_eq!(e, "No event model: nope");
        let report = clean_report(&request(
            json!([{"event": "nope"}, {"event": " search ", "keyword": " x "}]),
        ))
        .unwrap();
        assert_eq!(
            report.rejected,
            vec![Rejected {
                index: 0,
                message: "No event model: nope".into()
            }]
        );
        assert_eq!(report.events[0].name, "search");
        assert_eq!(report.events[0].fields["keyword"], json!("x"));
    }

    #[test]
    fn s5_7_no_report_event_list() {
        assert_eq!(clean_report(&request(json!([]))), Err(ReportError::NoEventList));
        assert_eq!(
            clean_report(&request(json!([{"event": "x"}]))),
            Err(ReportError::NoEventList)
        );
        assert_eq!(ReportError::NoEventList.to_string(), "No report event list");
    }

    #[test]
    fn s3_16_report_request_fixed_fields() {
        let mut r = request(json!([{"event": "install"}]));
        assert!(clean_report(&r).is_ok());
        r["app_id"] = json!(1);
        assert_eq!(clean_report(&r), Err(ReportError::AppId(20310)));
        let mut r = request(json!([{"event": "install"}]));
        r["source"] = json!(3);
        assert_eq!(clean_report(&r), Err(ReportError::Source(4)));
        let mut r = request(json!([{"event": "install"}]));
        r["nonce_str"] = json!("short");
        assert_eq!(clean_report(&r), Err(ReportError::Nonce(16)));
        let mut r = request(json!([{"event": "install"}]));
        r["property"]["os"] = json!(3);
        assert_eq!(clean_report(&r), Err(ReportError::Property(5)));
    }

    #[test]
    fn s5_7_strings_trimmed_numbers_parsed_fixed_values_checked() {
        let e = clean_event(
            &json!({"event": "coreBehavior", "behavior_id": "  NewsDetail_Show ", "is_base": "1"}),
            5,
        )
        .unwrap();
        assert_eq!(e.fields["behavior_id"], json!("NewsDetail_Show"));
        assert_eq!(e.fields["is_base"], json!(1));
        assert_eq!(e.time_ms, 5);
        let e = clean_event(&json!({"event": "usingTime", "duration": "abc", "extra": 1}), 5).unwrap();
        assert_eq!(
            e.fields["duration"],
            json!(0),
            "a number that fails to parse becomes 0 (§5.4)"
        );
        assert!(!e.fields.contains_key("extra"));
        assert!(clean_event(&json!({"event": "adSource", "type": "spam"}), 5).is_err());
        let e = clean_event(&json!({"event": "ad_click"}), 5).unwrap();
        assert_eq!(e.fields["adn_id"], json!(37), "default adn_id 37 (§9.11)");
    }

    #[test]
    fn s1_8_bot_user_agents() {
        assert!(is_bot_user_agent(
            "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
        ));
        assert!(is_bot_user_agent("curl/8.5.0"));
        assert!(is_bot_user_agent(""));
        assert!(!is_bot_user_agent(
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36"
        ));
    }

    #[test]
    fn s9_11_user_agent_capped_at_500() {
        assert_eq!(cap_user_agent(&"é".repeat(800)).chars().count(), 500);
    }

    #[test]
    fn d331_addresses_are_kept_truncated() {
        assert_eq!(truncate_ip("203.0.113.77".parse().unwrap()), "203.0.113.0");
        assert_eq!(truncate_ip("2001:db8:abcd:12::1".parse().unwrap()), "2001:db8:abcd::");
        assert_eq!(truncate_ip("::ffff:198.51.100.9".parse().unwrap()), "198.51.100.0");
    }

    #[test]
    fn d330_shared_validation_cases() {
        #[derive(Deserialize)]
        struct Case {
            name: String,
            event: Value,
            ok: Option<Value>,
            error: Option<String>,
        }
        let file: Value =
            serde_json::from_str(include_str!("../../../web/src/shared/fixtures/report-validation.json")).unwrap();
        let cases: Vec<Case> = serde_json::from_value(file["cases"].clone()).unwrap();
        assert!(cases.len() >= 8);
        for case in cases {
            match (clean_event(&case.event, 7), case.ok, case.error) {
                (Ok(e), Some(ok), None) => {
                    assert_eq!(json!({"event": e.name, "fields": e.fields}), ok, "{}", case.name)
                }
                (Err(m), None, Some(err)) => assert_eq!(m, err, "{}", case.name),
                (got, _, _) => panic!("{}: got {got:?}", case.name),
            }
        }
    }
    #[test]
    fn d365_stored_fields_give_the_cleaned_event_back() {
        let long = "t".repeat(1200);
        let cases = [
            json!({"event": "ad_click"}),
            json!({"event": "ad_click", "placement_id": "p", "rule_id": "r", "revenue": 0.0, "scene": "feed", "adn_id": 9}),
            json!({"event": "pageView", "page_path": "/article/7", "page_title": long, "news_id": "7"}),
            json!({"event": "pageView", "location_origin": "https://example.org"}),
            json!({"event": "coreBehavior", "behavior_id": "NewsDetail_Show", "sub_behavior_id": "7", "is_base": 1}),
            json!({"event": "coreBehavior", "behavior_id": 12}),
            json!({"event": "search", "keyword": " Flood "}),
            json!({"event": "launch"}),
            json!({"event": "install"}),
            json!({"event": "device", "browser": "Chrome", "type": 1}),
            json!({"event": "clientException", "message": "boom", "stack_trace": "at x"}),
            json!({"event": "usingTime", "duration": "61000"}),
        ];
        for case in cases {
            let clean = clean_event(&case, 1).unwrap();
            let stored = stored_fields(&clean.name, &clean.fields);
            let [s, d, l] = event_columns(&clean.name, &clean.fields);
            assert_eq!(full_fields(&clean.name, [&s, &d, &l], &stored), clean.fields, "{case}");
            assert_eq!(
                full_fields(&clean.name, [&s, &d, &l], &clean.fields),
                clean.fields,
                "a row stored whole reads back the same"
            );
        }
        let bare = clean_event(&json!({"event": "ad_click"}), 1).unwrap();
        assert!(
            stored_fields("ad_click", &bare.fields).is_empty(),
            "filled-in fields are not stored"
        );
        let page = clean_event(&json!({"event": "pageView", "page_title": "x".repeat(900)}), 1).unwrap();
        assert!(
            stored_fields("pageView", &page.fields).is_empty(),
            "the title is kept once, in its column"
        );
    }
}
