//! The `POST /api/report` body (crates/api/src/report/mod.rs): bytes → JSON →
//! `domain::report::clean_report`, as the handler runs them before storing, then the
//! limits a stored report must keep whatever was sent: at most `maxEventsPerRequest`
//! events, each a known model holding exactly its model's fields, strings trimmed and
//! capped, numbers numbers, fixed values among their allowed ones, and a property record
//! without the fields that would name a person (D332).
#![no_main]

use domain::report::{FieldType, RULES, cap_user_agent, clean_report, is_bot_user_agent, truncate_ip};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use std::net::{IpAddr, Ipv6Addr};

fn same(a: &Value, b: &Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() > api::report_api::MAX_BODY_BYTES {
        return; // the handler answers 413 before reading it
    }
    // The headers the handler reads beside the body, from the same bytes.
    let ua = String::from_utf8_lossy(data);
    let _ = is_bot_user_agent(&ua);
    assert!(cap_user_agent(&ua).chars().count() <= RULES.user_agent_max);
    if let Some(octets) = data.get(..16).and_then(|b| <[u8; 16]>::try_from(b).ok()) {
        let kept = truncate_ip(IpAddr::V6(Ipv6Addr::from(octets)));
        assert!(kept.parse::<IpAddr>().is_ok(), "{kept}");
    }

    let Ok(body) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let Ok(report) = clean_report(&body) else { return };
    let rules = &*RULES;
    let sent = body["data"].as_array().map_or(0, Vec::len);
    assert!(!report.events.is_empty());
    assert!(sent <= rules.max_events_per_request);
    assert_eq!(report.events.len() + report.rejected.len(), sent);
    assert!(report.rejected.windows(2).all(|w| w[0].index < w[1].index));
    assert!(
        report
            .rejected
            .iter()
            .all(|r| r.index < sent && r.message.chars().count() <= 2000)
    );
    assert!(report.timestamp > 0);
    for event in &report.events {
        let model = rules.events.get(&event.name).expect("a known model");
        assert!(event.time_ms > 0);
        assert_eq!(event.fields.len(), model.len(), "fields outside the model kept");
        for (field, rule) in model {
            let value = &event.fields[field];
            if rule.default.as_ref() == Some(value) {
                continue;
            }
            match rule.kind {
                FieldType::Number => assert!(value.is_number(), "{}.{field} = {value}", event.name),
                FieldType::String => {
                    let s = value.as_str().expect("a string field holds a string");
                    let max = if rule.stack {
                        rules.max_stack_chars
                    } else {
                        rules.max_string_chars
                    };
                    assert!(s.chars().count() <= max, "{}.{field} over {max} characters", event.name);
                    assert_eq!(s, s.trim());
                }
            }
            assert!(rule.one_of.is_empty() || rule.one_of.iter().any(|a| same(a, value)));
        }
    }
    for (field, value) in &report.property {
        assert!(!matches!(field.as_str(), "ip" | "user_id" | "guid"), "{field} kept");
        assert!(rules.property.contains_key(field), "{field} is not a property field");
        if let Some(s) = value.as_str() {
            assert!(s.chars().count() <= 200);
        }
    }
    if let Some(Value::String(t)) = report.property.get("network_type") {
        assert!(rules.network_types.contains(t), "network_type {t}");
    }
});
