//! Issue 19's benchmark: one breaking story fanned out to 100 000 subscriptions on a
//! loopback push service (which checks every VAPID JWT and decrypts every message) in
//! ≤ 60 s on 2 cores, with the CPU per push. Ignored by default; `bench/notify.sh` runs it
//! and prints one line for bench/RESULTS.md. `PUSH_BENCH_SUBSCRIPTIONS` changes the count.

mod support;

use fake_providers::push::FakePushService;
use push::notifier::Notifier;
use push::service::{Push, PushConfig};
use std::sync::Arc;
use std::time::{Duration, Instant};
use store::content::{ClusterChoice, ClusterId};
use store::push::NewSubscription;
use store::{Store, UserId};
use support::seed::{WASHINGTON, item, put};

/// User and system CPU of this process so far, in seconds (Linux `/proc/self/stat`).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore]
async fn notify_fan_out_to_100_000_subscriptions() {
    let n: usize = std::env::var("PUSH_BENCH_SUBSCRIPTIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let store = support::sqlite_store().await.expect("sqlite");
    let mut corpus = support::seed::seed(store.as_ref()).await;
    let push = FakePushService::start().await;
    let setup = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    let per = n.div_ceil(16);
    for chunk in 0..16 {
        let store: Arc<dyn Store> = store.clone();
        let subs: Vec<_> = (chunk * per..((chunk + 1) * per).min(n))
            .map(|_| push.subscribe())
            .collect();
        let start = chunk * per;
        tasks.spawn(async move {
            for (i, s) in subs.into_iter().enumerate() {
                let device = format!("bench-{}", start + i);
                let req = store::contract::request(&device, &format!("h-{device}"), domain::clock::now_ms());
                let user = UserId(store.start_guest_session(&req).await.expect("guest").user.id);
                let sub = NewSubscription {
                    user,
                    endpoint: s.endpoint,
                    p256dh: s.p256dh,
                    auth: s.auth,
                    city_id: WASHINGTON,
                    lang: "en".into(),
                };
                store.put_push_subscription(&sub, 0).await.expect("subscription");
            }
        });
    }
    while tasks.join_next().await.is_some() {}
    // One story, two publishers: breaking for everyone, at a Washington noon (outside the
    // default quiet hours) past the seed's stories.
    let after = corpus.now_ms + 13 * 3_600_000;
    let offset = geo::zone::utc_offset_minutes(after, "America/New_York") as i64;
    let local = (after + offset * 60_000).rem_euclid(86_400_000);
    let now = after + (12 * 3_600_000 - local).rem_euclid(86_400_000);
    let mut first = item("bench-a", "Bench story", now - 5 * 60_000, Some(WASHINGTON));
    first.signature = vec![7, 7, 1];
    let a = put(
        store.as_ref(),
        &mut corpus,
        "capitol",
        vec![first],
        vec![ClusterChoice::New],
    )
    .await[0];
    let mut second = item("bench-b", "Bench story grows", now - 4 * 60_000, Some(WASHINGTON));
    second.signature = vec![7, 7, 2];
    put(
        store.as_ref(),
        &mut corpus,
        "lewiston",
        vec![second],
        vec![ClusterChoice::Join(ClusterId(a.0))],
    )
    .await;
    let setup = setup.elapsed();
    // Quiet hours off for a fair count whatever the hour.
    let config = PushConfig {
        targets: push::endpoint::PushTargets {
            allow_private: true,
            ..Default::default()
        },
        timeout: Duration::from_secs(10),
        ..PushConfig::default()
    };
    let notifier = Notifier::new(store.clone(), Arc::new(Push::new(config)));
    notifier.push.key(store.as_ref()).await.expect("key");
    let cpu = cpu_seconds();
    let started = Instant::now();
    let report = notifier.round(now).await.expect("round");
    let wall = started.elapsed();
    let cpu = cpu_seconds() - cpu;
    let received = push.received().len();
    println!(
        "notify: {n} subscriptions, {} delivered ({received} decrypted by the push service), {:.1} s wall, {:.0} µs CPU per push (both sides, {} cores), setup {:.0} s; {report:?}",
        report.delivered,
        wall.as_secs_f64(),
        cpu * 1e6 / report.delivered.max(1) as f64,
        std::thread::available_parallelism().map(|p| p.get()).unwrap_or(0),
        setup.as_secs_f64(),
    );
    assert_eq!(report.delivered, n, "{report:?} refused: {:?}", push.refused().first());
    assert!(wall <= Duration::from_secs(60), "budget: 60 s, took {wall:?}");
}
