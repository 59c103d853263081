//! The reports contract (issue 21): appended events read back in order, the usage view's
//! sums, retention. Run on every engine by `store_contract_tests!`.

use crate::Store;
use crate::reports::{CallEvent, Count, DAY_MS, DayUsage, EVENT_IDS_PER_CALL, ReportCall, ReportEvent};

/// 2025-10-09T08:53:20Z.
const NOW: i64 = 1_760_000_000_000;

/// An event of `name` with nothing else: no columns, no fields.
pub fn bare(name: &str) -> CallEvent {
    CallEvent {
        time_ms: NOW - 5,
        event: name.into(),
        subject: String::new(),
        detail: String::new(),
        label: String::new(),
        fields: String::new(),
    }
}

/// A call from `device` received at `at` carrying `events`.
pub fn call(device: &str, at: i64, events: Vec<CallEvent>) -> ReportCall {
    ReportCall {
        received_at_ms: at,
        ip: "203.0.113.0".into(),
        user_agent: "Mozilla/5.0".into(),
        property: r#"{"os":5}"#.into(),
        device_id: device.into(),
        country: "US".into(),
        lang: "en".into(),
        channel: String::new(),
        events,
    }
}

fn page_view(news: &str, title: &str) -> CallEvent {
    CallEvent {
        subject: format!("/article/{news}"),
        detail: news.into(),
        label: title.into(),
        ..bare("pageView")
    }
}

fn core(function: &str) -> CallEvent {
    CallEvent {
        subject: function.into(),
        ..bare("coreBehavior")
    }
}

fn search(keyword: &str) -> CallEvent {
    CallEvent {
        subject: keyword.into(),
        ..bare("search")
    }
}

pub async fn report_events_are_appended_and_read_back_oldest_first(store: &dyn Store) {
    let mut first = call(
        "dev-1",
        NOW,
        vec![
            search("flood"),
            CallEvent {
                fields: r#"{"duration":61000}"#.into(),
                ..bare("usingTime")
            },
        ],
    );
    first.user_agent = "ü".repeat(500);
    first.property = r#"{"os":5,"screen_width":1280}"#.into();
    store.append_report_call(first.clone()).await.unwrap();
    for i in 0..20 {
        store
            .append_report_call(call(&format!("dev-c{i}"), NOW + 10 + i, vec![bare("launch")]))
            .await
            .unwrap();
    }
    let all = store.report_events(NOW, NOW + DAY_MS, 0, 100).await.unwrap();
    assert_eq!(all.len(), 22);
    assert!(all.windows(2).all(|w| w[0].id < w[1].id), "oldest first by id");
    assert_eq!(all[1].id, all[0].id + 1, "a call's events are consecutive ids");
    assert_eq!(
        all[0].id % EVENT_IDS_PER_CALL,
        0,
        "a call's first event is its id × 128"
    );
    let joined = |e: &CallEvent, fields: &str| ReportEvent {
        id: 0,
        received_at_ms: NOW,
        time_ms: e.time_ms,
        event: e.event.clone(),
        device_id: "dev-1".into(),
        country: "US".into(),
        lang: "en".into(),
        channel: String::new(),
        subject: e.subject.clone(),
        detail: e.detail.clone(),
        label: e.label.clone(),
        ip: "203.0.113.0".into(),
        user_agent: "ü".repeat(500),
        fields: fields.into(),
        property: r#"{"os":5,"screen_width":1280}"#.into(),
    };
    assert_eq!(
        ReportEvent {
            id: all[0].id,
            ..joined(&first.events[0], r#"{"keyword":"flood"}"#)
        },
        all[0],
        "the call's columns joined back; the keyword back from its column"
    );
    assert_eq!(
        ReportEvent {
            id: all[1].id,
            ..joined(&first.events[1], r#"{"duration":61000}"#)
        },
        all[1]
    );
    assert_eq!(all[2].fields, r#"{"mode":"auto"}"#, "a default filled back in");
    let page = store.report_events(NOW, NOW + DAY_MS, all[1].id, 5).await.unwrap();
    assert_eq!(page.len(), 5);
    assert_eq!(page[0].id, all[2].id, "paging continues after the id given");
    assert!(
        store.report_events(NOW + 10, NOW + 11, 0, 100).await.unwrap().len() == 1,
        "[from, to)"
    );
    let too_many = call("dev-x", NOW, vec![bare("launch"); EVENT_IDS_PER_CALL as usize + 1]);
    assert!(
        store.append_report_call(too_many).await.is_err(),
        "ids per call are bounded"
    );
}

pub async fn usage_sums_readers_page_views_functions_stories_searches_and_channels(store: &dyn Store) {
    let day0 = NOW - NOW.rem_euclid(DAY_MS);
    let mut french = call("d4", day0 + 60, vec![bare("launch")]);
    (french.country, french.lang, french.channel) = ("CA".into(), "fr".into(), "metaweb_int".into());
    let calls = vec![
        call("d1", day0 + 10, vec![page_view("7", "Flood warning")]),
        call(
            "d2",
            day0 + 20,
            vec![page_view("7", "Flood warning"), page_view("8", "Game tonight")],
        ),
        call("d3", day0 + DAY_MS + 5, vec![page_view("7", "Flood warning")]),
        call(
            "d1",
            day0 + 40,
            vec![
                core("NewsDetail_Show"),
                core("NewsDetail_Show"),
                core("WeatherDetail_Show"),
            ],
        ),
        call("d2", day0 + 50, vec![search("Flood")]),
        call("d1", day0 + 50, vec![search("flood")]),
        french,
        // Outside the range: not counted.
        call("d9", day0 + 2 * DAY_MS, vec![page_view("9", "Later")]),
    ];
    for c in calls {
        store.append_report_call(c).await.unwrap();
    }

    let usage = store.usage(day0, day0 + 2 * DAY_MS).await.unwrap();
    let d = day0 / DAY_MS;
    assert_eq!(
        usage.days,
        vec![
            DayUsage {
                day: d,
                readers: 3,
                page_views: 3,
                events: 9
            },
            DayUsage {
                day: d + 1,
                readers: 1,
                page_views: 1,
                events: 1
            },
        ]
    );
    let c = |key: &str, label: &str, count| Count {
        key: key.into(),
        label: label.into(),
        count,
    };
    assert_eq!(
        usage.core_functions,
        vec![c("NewsDetail_Show", "", 2), c("WeatherDetail_Show", "", 1)]
    );
    assert_eq!(
        usage.top_stories,
        vec![c("7", "Flood warning", 3), c("8", "Game tonight", 1)]
    );
    assert_eq!(usage.search_terms, vec![c("flood", "", 2)]);
    assert_eq!(usage.channels, vec![c("", "", 3), c("metaweb_int", "", 1)]);
    assert_eq!(usage.countries, vec![c("US", "", 3), c("CA", "", 1)]);
    assert_eq!(usage.languages, vec![c("en", "", 3), c("fr", "", 1)]);
    assert_eq!(
        store.usage(day0 + 5 * DAY_MS, day0 + 6 * DAY_MS).await.unwrap(),
        Default::default()
    );
}

pub async fn retention_deletes_only_events_received_before_the_cut(store: &dyn Store) {
    for (device, at) in [("a", NOW - 10), ("b", NOW), ("c", NOW + 10)] {
        store
            .append_report_call(call(device, at, vec![bare("install"), bare("launch")]))
            .await
            .unwrap();
    }
    let before = store.report_stored_bytes().await.unwrap();
    assert_eq!(
        store.delete_report_events_before(NOW).await.unwrap(),
        2,
        "the old call's two events"
    );
    assert_eq!(store.delete_report_events_before(NOW).await.unwrap(), 0);
    let left: Vec<String> = store
        .report_events(0, i64::MAX, 0, 10)
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.device_id)
        .collect();
    assert_eq!(left, ["b", "b", "c", "c"]);
    let one = call("a", NOW - 10, vec![bare("install"), bare("launch")]).stored_bytes();
    assert_eq!(
        store.report_stored_bytes().await.unwrap(),
        before - one,
        "the deleted call's bytes no longer count"
    );
}

pub async fn d366_stored_bytes_are_the_sum_of_the_calls_counted_bytes(store: &dyn Store) {
    assert_eq!(store.report_stored_bytes().await.unwrap(), 0);
    let a = call("a", NOW, vec![page_view("7", &"t".repeat(300)), bare("launch")]);
    let b = call("b", NOW, vec![bare("install")]);
    store.append_report_call(a.clone()).await.unwrap();
    store.append_report_call(b.clone()).await.unwrap();
    assert_eq!(
        store.report_stored_bytes().await.unwrap(),
        a.stored_bytes() + b.stored_bytes()
    );
    assert!(a.stored_bytes() > 300 + 2 * crate::reports::EVENT_ROW_BYTES);
}
