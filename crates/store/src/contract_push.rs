//! The notifications contract (issue 19): subscriptions unique by endpoint, settings with
//! their defaults, claims that hand a story to a reader once, the sent log's pages, and
//! that all of it follows a guest into the account. Run on every engine by
//! `store_contract_tests!`.

use crate::contract_support::request;
use crate::push::{MAX_SUBSCRIPTIONS, NewSubscription, NotificationSettings, PushCounts, Subscribed};
use crate::things::Page;
use crate::{ProviderIdentity, SignIn, Store, UserId};
use domain::ids::{CityId, MediaId, NewsId};
use domain::user::AccountType;

const NOW: i64 = 1_760_000_000_000;

async fn guest(store: &dyn Store, device: &str) -> UserId {
    let s = store
        .start_guest_session(&request(device, &format!("h-{device}"), NOW))
        .await
        .unwrap();
    UserId(s.user.id)
}

pub fn subscription(user: UserId, endpoint: &str, city_id: i64) -> NewSubscription {
    NewSubscription {
        user,
        endpoint: endpoint.into(),
        p256dh: "BPub".into(),
        auth: "c2VjcmV0".into(),
        city_id: CityId(city_id),
        lang: "en".into(),
    }
}

/// One row in each of the push tables for `user` (the things contract's merge and
/// delete tests use it so every registered table has rows).
pub async fn add_push_things(store: &dyn Store, user: UserId) {
    let endpoint = format!("https://push.example/{}", user.0);
    assert_eq!(
        store
            .put_push_subscription(&subscription(user, &endpoint, 4140963), NOW)
            .await
            .unwrap(),
        Subscribed::Stored
    );
    store
        .put_notification_settings(user, &NotificationSettings::default(), NOW)
        .await
        .unwrap();
    assert_eq!(
        store
            .claim_pushes(NewsId(1), &[(user, NewsId(1))], NOW, false)
            .await
            .unwrap(),
        [user]
    );
}

pub async fn d356_an_endpoint_is_one_subscription_and_another_readers_is_not_moved(store: &dyn Store) {
    let a = guest(store, "dev-push-a").await;
    let b = guest(store, "dev-push-b").await;
    let s = subscription(a, "https://push.example/one", 1);
    assert_eq!(store.put_push_subscription(&s, NOW).await.unwrap(), Subscribed::Stored);
    let again = NewSubscription {
        lang: "es".into(),
        ..s.clone()
    };
    assert_eq!(
        store.put_push_subscription(&again, NOW + 1).await.unwrap(),
        Subscribed::Stored
    );
    let mine = store.push_subscriptions_of(a).await.unwrap();
    assert_eq!(mine.len(), 1, "the same endpoint twice is one subscription");
    assert_eq!(
        (mine[0].created_at_ms, mine[0].city_id, mine[0].lang.as_str()),
        (NOW, CityId(1), "es"),
        "the reader's own endpoint takes the new language"
    );
    // Another reader sends a's endpoint (an attacker who learnt it, or a second account
    // on the same browser): refused, and a keeps it unchanged.
    let taken = NewSubscription {
        user: b,
        p256dh: "BOther".into(),
        lang: "fr".into(),
        city_id: CityId(2),
        ..s.clone()
    };
    assert_eq!(
        store.put_push_subscription(&taken, NOW + 2).await.unwrap(),
        Subscribed::Taken
    );
    assert!(store.push_subscriptions_of(b).await.unwrap().is_empty());
    let still = store.push_subscriptions_of(a).await.unwrap();
    assert_eq!(
        (still[0].p256dh.as_str(), still[0].lang.as_str(), still[0].city_id),
        (s.p256dh.as_str(), "es", CityId(1))
    );
    assert!(
        !store.remove_push_subscription(b, &s.endpoint).await.unwrap(),
        "b cannot remove a's endpoint either"
    );
    assert!(store.remove_push_subscription(a, &s.endpoint).await.unwrap());
    assert!(
        !store.remove_push_subscription(a, &s.endpoint).await.unwrap(),
        "removing again is fine"
    );
    // Once a let it go, the endpoint is free for b.
    assert_eq!(
        store.put_push_subscription(&taken, NOW + 3).await.unwrap(),
        Subscribed::Stored
    );
}

pub async fn d310_a_reader_has_at_most_max_subscriptions(store: &dyn Store) {
    let a = guest(store, "dev-push-many").await;
    for i in 0..MAX_SUBSCRIPTIONS {
        let s = subscription(a, &format!("https://push.example/many/{i}"), 1);
        assert_eq!(store.put_push_subscription(&s, NOW).await.unwrap(), Subscribed::Stored);
    }
    let one_more = subscription(a, "https://push.example/many/x", 1);
    assert_eq!(
        store.put_push_subscription(&one_more, NOW).await.unwrap(),
        Subscribed::TooMany
    );
    let again = subscription(a, "https://push.example/many/0", 1);
    assert_eq!(
        store.put_push_subscription(&again, NOW).await.unwrap(),
        Subscribed::Stored,
        "a known endpoint is renewed at the limit"
    );
}

pub async fn d310_gone_endpoints_are_removed_and_failures_counted(store: &dyn Store) {
    let a = guest(store, "dev-push-gone").await;
    let s = subscription(a, "https://push.example/gone", 1);
    store.put_push_subscription(&s, NOW).await.unwrap();
    assert_eq!(store.record_push_delivery(&s.endpoint, false).await.unwrap(), 1);
    assert_eq!(store.record_push_delivery(&s.endpoint, false).await.unwrap(), 2);
    assert_eq!(store.push_subscriptions_of(a).await.unwrap()[0].failures, 2);
    assert_eq!(store.record_push_delivery(&s.endpoint, true).await.unwrap(), 0);
    assert!(store.remove_push_endpoint(&s.endpoint).await.unwrap());
    assert!(!store.remove_push_endpoint(&s.endpoint).await.unwrap());
    assert!(store.push_subscriptions_of(a).await.unwrap().is_empty());
    assert_eq!(
        store.record_push_delivery(&s.endpoint, false).await.unwrap(),
        0,
        "gone: nothing to count"
    );
}

pub async fn d310_settings_start_at_the_defaults_and_are_replaced_whole(store: &dyn Store) {
    let a = guest(store, "dev-push-settings").await;
    let defaults = store.notification_settings(a).await.unwrap();
    assert_eq!(defaults, NotificationSettings::default());
    assert_eq!(
        (
            defaults.daily_budget,
            defaults.quiet_start,
            defaults.quiet_end,
            defaults.digest_hour
        ),
        (3, 22 * 60, 7 * 60, None),
        "issue 19: 3 a day, quiet 22:00-07:00"
    );
    let mine = NotificationSettings {
        enabled: false,
        daily_budget: 5,
        quiet_start: 23 * 60 + 30,
        quiet_end: 6 * 60,
        digest_hour: Some(8),
        media_off: vec![MediaId(4), MediaId(9)],
        topics_off: vec!["Sports".into(), "Élections, 2026".into()],
    }
    .checked()
    .unwrap();
    store.put_notification_settings(a, &mine, NOW).await.unwrap();
    assert_eq!(store.notification_settings(a).await.unwrap(), mine);
    let none_off = NotificationSettings {
        media_off: vec![],
        topics_off: vec![],
        digest_hour: None,
        ..mine.clone()
    };
    store.put_notification_settings(a, &none_off, NOW + 1).await.unwrap();
    assert_eq!(store.notification_settings(a).await.unwrap(), none_off);
}

pub async fn d310_push_targets_are_a_citys_subscriptions_with_their_readers_settings(store: &dyn Store) {
    let a = guest(store, "dev-push-t-a").await;
    let b = guest(store, "dev-push-t-b").await;
    let c = guest(store, "dev-push-t-c").await;
    for (who, end, city) in [(a, "a1", 7), (b, "b1", 7), (a, "a2", 7), (c, "c1", 8)] {
        store
            .put_push_subscription(&subscription(who, &format!("https://push.example/t/{end}"), city), NOW)
            .await
            .unwrap();
    }
    let quiet = NotificationSettings {
        daily_budget: 1,
        ..NotificationSettings::default()
    };
    store.put_notification_settings(b, &quiet, NOW).await.unwrap();
    let first = store.push_targets(CityId(7), 0, 2).await.unwrap();
    assert_eq!(first.len(), 2);
    let rest = store
        .push_targets(CityId(7), first[1].subscription.id, 10)
        .await
        .unwrap();
    let all: Vec<_> = first.iter().chain(rest.iter()).collect();
    let ends: Vec<&str> = all.iter().map(|t| t.subscription.endpoint.as_str()).collect();
    assert_eq!(
        ends,
        [
            "https://push.example/t/a1",
            "https://push.example/t/b1",
            "https://push.example/t/a2"
        ]
    );
    assert_eq!(
        all[0].settings,
        NotificationSettings::default(),
        "never set: the defaults"
    );
    assert_eq!(all[1].settings.daily_budget, 1);
    let mut cities = store.push_cities().await.unwrap();
    cities.retain(|c| [CityId(7), CityId(8)].contains(c));
    assert_eq!(cities, [CityId(7), CityId(8)]);
}

pub async fn d312_a_story_is_claimed_once_per_reader_and_counted_since_a_time(store: &dyn Store) {
    let a = guest(store, "dev-push-claim-a").await;
    let b = guest(store, "dev-push-claim-b").await;
    let mut got = store
        .claim_pushes(NewsId(10), &[(a, NewsId(10)), (b, NewsId(10))], NOW, false)
        .await
        .unwrap();
    got.sort();
    assert_eq!(got, [a, b]);
    assert!(
        store
            .claim_pushes(NewsId(10), &[(a, NewsId(10)), (b, NewsId(10))], NOW + 1, false)
            .await
            .unwrap()
            .is_empty(),
        "at most one push per story per reader"
    );
    assert_eq!(
        store
            .claim_pushes(NewsId(11), &[(a, NewsId(11))], NOW + 5, false)
            .await
            .unwrap(),
        [a]
    );
    assert_eq!(
        store
            .claim_pushes(NewsId(12), &[(a, NewsId(12))], NOW + 9, true)
            .await
            .unwrap(),
        [a]
    );
    assert_eq!(
        store
            .claim_pushes(NewsId(13), &[(UserId(i64::MAX - 1), NewsId(13))], NOW, false)
            .await
            .unwrap(),
        [],
        "a reader who is gone is skipped"
    );
    let counts = store.push_counts(&[a, b], NOW + 1).await.unwrap();
    assert_eq!(counts[&a], PushCounts { singles: 1, digests: 1 });
    assert!(!counts.contains_key(&b), "nothing sent to b since then");
    assert!(store.push_counts(&[], NOW).await.unwrap().is_empty());
    store.release_push(a, NewsId(11)).await.unwrap();
    assert_eq!(
        store
            .claim_pushes(NewsId(11), &[(a, NewsId(11))], NOW + 20, false)
            .await
            .unwrap(),
        [a],
        "a released claim can be made again"
    );
}

pub async fn d312_what_was_sent_pages_newest_first_with_the_item_pushed_without_gaps_or_repeats(store: &dyn Store) {
    let a = guest(store, "dev-push-sent").await;
    for n in 1..=7 {
        store
            .claim_pushes(NewsId(n), &[(a, NewsId(n + 100))], NOW + n / 2, n == 7)
            .await
            .unwrap();
    }
    let mut got = Vec::new();
    let mut page = Page::first(3);
    loop {
        let p = store.sent_pushes(a, page).await.unwrap();
        assert!(p.items.len() <= 3);
        got.extend(
            p.items
                .iter()
                .map(|s| (s.sent_at_ms, s.story_id.0, s.news_id.0, s.digest)),
        );
        match p.next {
            Some(next) => page.before = Some(next),
            None => break,
        }
    }
    let mut want: Vec<(i64, i64, i64, bool)> = (1..=7).map(|n| (NOW + n / 2, n, n + 100, n == 7)).collect();
    want.sort_by(|x, y| y.cmp(x));
    assert_eq!(got, want);
}

pub async fn d310_a_guests_subscription_and_settings_follow_them_into_the_account(store: &dyn Store) {
    let account = guest(store, "dev-push-acc").await;
    let signed = |from: UserId| SignIn {
        from_user: from,
        identity: ProviderIdentity {
            provider: AccountType::Google,
            subject: "g-push-merge".into(),
            email: "g-push-merge@example.org".into(),
            name: "Push".into(),
            photo: String::new(),
        },
        link: false,
        now_ms: NOW + 1,
    };
    store.sign_in(&signed(account)).await.unwrap();
    store
        .claim_pushes(NewsId(1), &[(account, NewsId(1))], NOW, false)
        .await
        .unwrap();

    let g = guest(store, "dev-push-guest").await;
    store
        .put_push_subscription(&subscription(g, "https://push.example/guest", 5), NOW)
        .await
        .unwrap();
    let mine = NotificationSettings {
        daily_budget: 7,
        ..NotificationSettings::default()
    };
    store.put_notification_settings(g, &mine, NOW).await.unwrap();
    store
        .claim_pushes(NewsId(1), &[(g, NewsId(1))], NOW + 3, false)
        .await
        .unwrap();
    store
        .claim_pushes(NewsId(2), &[(g, NewsId(2))], NOW + 4, false)
        .await
        .unwrap();
    store.sign_in(&signed(g)).await.unwrap();

    let subs = store.push_subscriptions_of(account).await.unwrap();
    assert_eq!(subs.len(), 1);
    assert_eq!(subs[0].endpoint, "https://push.example/guest");
    assert_eq!(
        store.notification_settings(account).await.unwrap().daily_budget,
        7,
        "an account without settings takes the guest's"
    );
    let sent = store.sent_pushes(account, Page::first(10)).await.unwrap().items;
    let ids: Vec<(i64, i64)> = sent.iter().map(|s| (s.news_id.0, s.sent_at_ms)).collect();
    assert_eq!(ids, [(2, NOW + 4), (1, NOW)], "one row per story; the account's wins");
}
