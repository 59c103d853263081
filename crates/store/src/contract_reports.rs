//! The reports contract (issue 21): appended events read back in order, the usage view's
//! sums, retention. Run on every engine by `store_contract_tests!`.

use crate::Store;
use crate::reports::{Count, DAY_MS, DayUsage, ReportEvent};

/// 2025-10-09T08:53:20Z.
const NOW: i64 = 1_760_000_000_000;

pub fn event(name: &str, device: &str, at: i64) -> ReportEvent {
    ReportEvent {
        id: 0,
        received_at_ms: at,
        time_ms: at - 5,
        event: name.into(),
        device_id: device.into(),
        country: "US".into(),
        lang: "en".into(),
        channel: String::new(),
        subject: String::new(),
        detail: String::new(),
        label: String::new(),
        ip: "203.0.113.0".into(),
        user_agent: "Mozilla/5.0".into(),
        fields: "{}".into(),
        property: r#"{"os":5}"#.into(),
    }
}

fn page_view(device: &str, at: i64, news: &str, title: &str) -> ReportEvent {
    ReportEvent {
        subject: format!("/article/{news}"),
        detail: news.into(),
        label: title.into(),
        ..event("pageView", device, at)
    }
}

pub async fn report_events_are_appended_and_read_back_oldest_first(store: &dyn Store) {
    let mut a = event("search", "dev-1", NOW);
    a.subject = "flood".into();
    a.fields = r#"{"keyword":"flood"}"#.into();
    a.user_agent = "ü".repeat(500);
    let b = event("install", "dev-2", NOW + 1);
    store.append_report_events(vec![a.clone(), b.clone()]).await.unwrap();
    for i in 0..20 {
        store
            .append_report_events(vec![event("launch", &format!("dev-c{i}"), NOW + 10 + i)])
            .await
            .unwrap();
    }
    let all = store.report_events(NOW, NOW + DAY_MS, 0, 100).await.unwrap();
    assert_eq!(all.len(), 22);
    assert!(all.windows(2).all(|w| w[0].id < w[1].id), "oldest first by id");
    assert_eq!(ReportEvent { id: all[0].id, ..a }, all[0]);
    assert_eq!(ReportEvent { id: all[1].id, ..b }, all[1]);
    let page = store.report_events(NOW, NOW + DAY_MS, all[1].id, 5).await.unwrap();
    assert_eq!(page.len(), 5);
    assert_eq!(page[0].id, all[2].id, "paging continues after the id given");
    assert!(
        store.report_events(NOW + 1, NOW + 2, 0, 100).await.unwrap().len() == 1,
        "[from, to)"
    );
}

pub async fn usage_sums_readers_page_views_functions_stories_searches_and_channels(store: &dyn Store) {
    let day0 = NOW - NOW.rem_euclid(DAY_MS);
    let mut events = vec![
        page_view("d1", day0 + 10, "7", "Flood warning"),
        page_view("d2", day0 + 20, "7", "Flood warning"),
        page_view("d2", day0 + 30, "8", "Game tonight"),
        page_view("d3", day0 + DAY_MS + 5, "7", "Flood warning"),
    ];
    let mut core = event("coreBehavior", "d1", day0 + 40);
    core.subject = "NewsDetail_Show".into();
    events.push(core.clone());
    events.push(ReportEvent {
        received_at_ms: day0 + 41,
        ..core.clone()
    });
    events.push(ReportEvent {
        subject: "WeatherDetail_Show".into(),
        ..core
    });
    let mut search = event("search", "d2", day0 + 50);
    search.subject = "Flood".into();
    events.push(search.clone());
    events.push(ReportEvent {
        subject: "flood".into(),
        device_id: "d1".into(),
        ..search
    });
    let mut french = event("launch", "d4", day0 + 60);
    (french.country, french.lang, french.channel) = ("CA".into(), "fr".into(), "metaweb_int".into());
    events.push(french);
    // Outside the range: not counted.
    events.push(page_view("d9", day0 + 2 * DAY_MS, "9", "Later"));
    store.append_report_events(events).await.unwrap();

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
    store
        .append_report_events(vec![
            event("install", "a", NOW - 10),
            event("install", "b", NOW),
            event("install", "c", NOW + 10),
        ])
        .await
        .unwrap();
    assert_eq!(store.delete_report_events_before(NOW).await.unwrap(), 1);
    assert_eq!(store.delete_report_events_before(NOW).await.unwrap(), 0);
    let left: Vec<String> = store
        .report_events(0, i64::MAX, 0, 10)
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.device_id)
        .collect();
    assert_eq!(left, ["b", "c"]);
}
