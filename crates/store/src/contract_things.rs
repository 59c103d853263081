//! The reader's things contract (issue 18): saved stories, reactions, history, follows,
//! blocks, topics, home channels and mutes; limits; and that they follow a guest into
//! the account, leave with a deleted account and are in the download. Run on every
//! engine by `store_contract_tests!`.

use std::collections::HashSet;

use crate::contract_support::request;
use crate::things::{
    BlockedMedia, Cursor, MAX_BLOCKS, MAX_CHANNELS, MAX_FOLLOWS, MAX_MUTES, MAX_TEXT_CHARS, MAX_TOPICS, MuteKind,
    Outcome, Page, Paged, Reaction, ReactionCounting, Refusal, TopicKind, utc_day,
};
use crate::{ProviderIdentity, SignIn, SignInOutcome, Store, UserId};
use domain::ids::{MediaId, NewsId};
use domain::user::AccountType;

/// 2025-10-09T08:53:20Z: a day starts 8 h 53 min before it.
const NOW: i64 = 1_760_000_000_000;
const DAY: i64 = 86_400_000;

async fn guest(store: &dyn Store, device: &str) -> UserId {
    let s = store
        .start_guest_session(&request(device, &format!("h-{device}"), NOW))
        .await
        .unwrap();
    UserId(s.user.id)
}

async fn sign_in(store: &dyn Store, from: UserId, subject: &str) -> SignInOutcome {
    store
        .sign_in(&SignIn {
            from_user: from,
            identity: ProviderIdentity {
                provider: AccountType::Google,
                subject: subject.into(),
                email: format!("{subject}@example.org"),
                name: subject.into(),
                photo: String::new(),
            },
            link: false,
            now_ms: NOW + DAY,
        })
        .await
        .unwrap()
}

/// A write that must have stored something.
#[track_caller]
fn changed(outcome: Outcome) {
    assert_eq!(outcome, Outcome::Changed);
}

/// Every page of a list, following its cursors.
async fn all_pages<T, F, Fut>(limit: u32, mut read: F) -> Vec<T>
where
    F: FnMut(Page) -> Fut,
    Fut: std::future::Future<Output = Paged<T>>,
{
    let mut out = Vec::new();
    let mut page = Page::first(limit);
    for _ in 0..1000 {
        let got = read(page).await;
        assert!(got.items.len() <= limit as usize);
        out.extend(got.items);
        match got.next {
            Some(next) => page.before = Some(next),
            None => return out,
        }
    }
    panic!("paging never ended");
}

pub async fn saving_twice_is_one_save_and_unsaving_is_idempotent(store: &dyn Store) {
    let u = guest(store, "dev-save").await;
    assert!(store.save_news(u, NewsId(1), NOW).await.unwrap());
    assert!(
        !store.save_news(u, NewsId(1), NOW + 5).await.unwrap(),
        "saving again is a no-op"
    );
    let saved = store.saved_news(u, Page::first(10)).await.unwrap();
    assert_eq!(saved.items.len(), 1);
    assert_eq!(saved.items[0].saved_at_ms, NOW, "the first save's time is kept");
    assert_eq!(saved.next, None);
    let asked = [NewsId(1), NewsId(2)];
    assert_eq!(store.is_saved(u, &asked).await.unwrap(), HashSet::from([NewsId(1)]));
    assert!(store.is_saved(u, &[]).await.unwrap().is_empty());
    assert!(store.unsave_news(u, NewsId(1)).await.unwrap());
    assert!(
        !store.unsave_news(u, NewsId(1)).await.unwrap(),
        "unsaving again is fine"
    );
    assert!(
        !store.unsave_news(u, NewsId(99)).await.unwrap(),
        "so is unsaving what was never saved"
    );
    assert!(store.saved_news(u, Page::first(10)).await.unwrap().items.is_empty());
}

pub async fn saved_stories_page_newest_first_without_gaps_or_repeats(store: &dyn Store) {
    let u = guest(store, "dev-save-pages").await;
    // 23 saves, three to a millisecond: ties are ordered by news id, newest (highest) first.
    for n in 1..=23 {
        store.save_news(u, NewsId(n), NOW + n / 3).await.unwrap();
    }
    let mut want: Vec<(i64, i64)> = (1..=23).map(|n| (NOW + n / 3, n)).collect();
    want.sort_by(|a, b| b.cmp(a));
    let first = store.saved_news(u, Page::first(5)).await.unwrap();
    // A save after the first page was read is newer: it does not shift the pages after.
    store.save_news(u, NewsId(500), NOW + 1_000).await.unwrap();
    let mut got: Vec<(i64, i64)> = first.items.iter().map(|s| (s.saved_at_ms, s.news_id.0)).collect();
    let start = first.next;
    assert!(start.is_some());
    let rest = all_pages(5, |p| async move {
        let p = Page {
            before: p.before.or(start),
            ..p
        };
        store.saved_news(u, p).await.unwrap()
    })
    .await;
    got.extend(rest.iter().map(|s| (s.saved_at_ms, s.news_id.0)));
    assert_eq!(got, want, "every save once, newest first");
    let top = store.saved_news(u, Page::first(1)).await.unwrap();
    assert_eq!(top.items[0].news_id, NewsId(500));
    let token = top.next.unwrap().token();
    let after = store
        .saved_news(
            u,
            Page {
                limit: 2,
                before: Cursor::parse_token(&token),
            },
        )
        .await
        .unwrap();
    let ids: Vec<i64> = after.items.iter().map(|s| s.news_id.0).collect();
    assert_eq!(ids, [want[0].1, want[1].1], "a page goes on from its token");
}

pub async fn one_reaction_per_story_changing_it_replaces_it_and_counts_are_per_reaction(store: &dyn Store) {
    let a = guest(store, "dev-react-a").await;
    let b = guest(store, "dev-react-b").await;
    let c = guest(store, "dev-react-c").await;
    assert!(
        store
            .set_reaction(a, NewsId(1), Some(Reaction::Like), NOW)
            .await
            .unwrap()
    );
    assert!(
        !store
            .set_reaction(a, NewsId(1), Some(Reaction::Like), NOW + 1)
            .await
            .unwrap(),
        "the same reaction again changes nothing"
    );
    assert!(
        store
            .set_reaction(a, NewsId(1), Some(Reaction::Love), NOW + 2)
            .await
            .unwrap(),
        "another reaction replaces it"
    );
    store
        .set_reaction(b, NewsId(1), Some(Reaction::Love), NOW)
        .await
        .unwrap();
    store
        .set_reaction(c, NewsId(1), Some(Reaction::Sad), NOW)
        .await
        .unwrap();
    store
        .set_reaction(c, NewsId(2), Some(Reaction::Funny), NOW)
        .await
        .unwrap();
    let counts = store
        .reaction_counts(&[NewsId(1), NewsId(2), NewsId(3)], &ReactionCounting::EVERYONE)
        .await
        .unwrap();
    let one = counts[&NewsId(1)];
    assert_eq!(
        (one.get(Reaction::Love), one.get(Reaction::Sad), one.get(Reaction::Like)),
        (2, 1, 0)
    );
    assert_eq!(one.total(), 3, "one reaction per reader");
    assert_eq!(counts[&NewsId(2)].get(Reaction::Funny), 1);
    assert!(!counts.contains_key(&NewsId(3)), "no reactions, no entry");

    let mine = store.reactions_of(a, Page::first(10)).await.unwrap();
    assert_eq!(mine.items.len(), 1);
    assert_eq!(
        (
            mine.items[0].news_id,
            mine.items[0].reaction,
            mine.items[0].reacted_at_ms
        ),
        (NewsId(1), Reaction::Love, NOW + 2)
    );
    let of_c = store.my_reactions(c, &[NewsId(1), NewsId(2), NewsId(9)]).await.unwrap();
    assert_eq!(of_c.len(), 2);
    assert_eq!(of_c[&NewsId(2)], Reaction::Funny);

    assert!(
        store.set_reaction(a, NewsId(1), None, NOW + 3).await.unwrap(),
        "None removes it"
    );
    assert!(!store.set_reaction(a, NewsId(1), None, NOW + 4).await.unwrap());
    assert_eq!(
        store
            .reaction_counts(&[NewsId(1)], &ReactionCounting::EVERYONE)
            .await
            .unwrap()[&NewsId(1)]
            .total(),
        2
    );

    // The reader's reactions page newest first (SPEC §7.7 next_max_id).
    for n in 10..17 {
        store
            .set_reaction(a, NewsId(n), Some(Reaction::ALL[n as usize % 6]), NOW + n)
            .await
            .unwrap();
    }
    let listed = all_pages(3, |p| async move { store.reactions_of(a, p).await.unwrap() }).await;
    let ids: Vec<i64> = listed.iter().map(|r| r.news_id.0).collect();
    assert_eq!(ids, [16, 15, 14, 13, 12, 11, 10]);
    assert!(
        listed
            .iter()
            .all(|r| r.reaction == Reaction::ALL[r.news_id.0 as usize % 6])
    );
}

pub async fn history_keeps_a_story_once_per_day_and_removes_one_or_all(store: &dyn Store) {
    let u = guest(store, "dev-history").await;
    let day0 = utc_day(NOW) * DAY;
    assert!(store.record_read(u, NewsId(1), day0 + 10).await.unwrap());
    assert!(
        !store.record_read(u, NewsId(1), day0 + DAY - 1).await.unwrap(),
        "the same UTC day again is the same row"
    );
    assert!(store.record_read(u, NewsId(2), day0 + 20).await.unwrap());
    assert!(
        store.record_read(u, NewsId(1), day0 + DAY).await.unwrap(),
        "the next day is a new row"
    );
    let listed = all_pages(2, |p| async move { store.read_history(u, p).await.unwrap() }).await;
    let rows: Vec<(i64, i64, i64)> = listed.iter().map(|e| (e.news_id.0, e.day, e.read_at_ms)).collect();
    let d = utc_day(NOW);
    assert_eq!(
        rows,
        [(1, d + 1, day0 + DAY), (2, d, day0 + 20), (1, d, day0 + 10)],
        "newest first, the first time each day"
    );
    assert!(store.remove_read(u, NewsId(1)).await.unwrap(), "every day of it");
    assert!(!store.remove_read(u, NewsId(1)).await.unwrap());
    let left = store.read_history(u, Page::first(10)).await.unwrap();
    assert_eq!(left.items.iter().map(|e| e.news_id).collect::<Vec<_>>(), [NewsId(2)]);
    store.record_read(u, NewsId(3), day0 + 30).await.unwrap();
    assert_eq!(store.clear_history(u).await.unwrap(), 2);
    assert!(store.read_history(u, Page::first(10)).await.unwrap().items.is_empty());
    assert_eq!(store.clear_history(u).await.unwrap(), 0);
}

pub async fn follows_and_blocks_are_idempotent_and_listed_with_their_times(store: &dyn Store) {
    let u = guest(store, "dev-follow").await;
    assert_eq!(store.follow_media(u, MediaId(7), NOW).await.unwrap(), Outcome::Changed);
    assert_eq!(
        store.follow_media(u, MediaId(7), NOW + 9).await.unwrap(),
        Outcome::Unchanged
    );
    changed(store.follow_media(u, MediaId(8), NOW + 1).await.unwrap());
    let followed: Vec<(i64, i64)> = store
        .followed_media(u)
        .await
        .unwrap()
        .iter()
        .map(|f| (f.media_id.0, f.followed_at_ms))
        .collect();
    assert_eq!(followed, [(8, NOW + 1), (7, NOW)], "newest first, first time kept");
    let asked = [MediaId(7), MediaId(9)];
    assert_eq!(store.follows(u, &asked).await.unwrap(), HashSet::from([MediaId(7)]));
    assert!(store.unfollow_media(u, MediaId(7)).await.unwrap());
    assert!(!store.unfollow_media(u, MediaId(7)).await.unwrap());
    assert!(store.follows(u, &asked).await.unwrap().is_empty());

    for m in 1..=5 {
        assert_eq!(
            store.block_media(u, MediaId(m), NOW + m).await.unwrap(),
            Outcome::Changed
        );
    }
    assert_eq!(
        store.block_media(u, MediaId(3), NOW + 100).await.unwrap(),
        Outcome::Unchanged
    );
    let blocked = all_pages(2, |p| async move { store.blocked_media(u, p).await.unwrap() }).await;
    let want: Vec<BlockedMedia> = (1..=5)
        .rev()
        .map(|m| BlockedMedia {
            media_id: MediaId(m),
            blocked_at_ms: NOW + m,
        })
        .collect();
    assert_eq!(blocked, want, "newest block first, with its time (§3 update_time)");
    assert!(store.unblock_media(u, MediaId(3)).await.unwrap());
    assert!(!store.unblock_media(u, MediaId(3)).await.unwrap());
    assert_eq!(
        store.blocked_media_ids(u).await.unwrap(),
        HashSet::from([MediaId(1), MediaId(2), MediaId(4), MediaId(5)])
    );
    let other = guest(store, "dev-follow-other").await;
    assert!(
        store.blocked_media_ids(other).await.unwrap().is_empty(),
        "one reader's blocks are theirs alone"
    );
    assert!(store.followed_media(other).await.unwrap().is_empty());
}

pub async fn topics_and_mutes_are_idempotent_trimmed_and_listed(store: &dyn Store) {
    let u = guest(store, "dev-topics").await;
    assert!(
        store
            .follow_topic(u, TopicKind::Tag, " Hockey ", NOW)
            .await
            .unwrap()
            .changed()
    );
    assert_eq!(
        store.follow_topic(u, TopicKind::Tag, "Hockey", NOW + 1).await.unwrap(),
        Outcome::Unchanged
    );
    changed(
        store
            .follow_topic(u, TopicKind::Category, "Hockey", NOW + 2)
            .await
            .unwrap(),
    );
    let topics: Vec<(TopicKind, String)> = store
        .followed_topics(u)
        .await
        .unwrap()
        .into_iter()
        .map(|t| (t.kind, t.value))
        .collect();
    assert_eq!(
        topics,
        [
            (TopicKind::Category, "Hockey".to_string()),
            (TopicKind::Tag, "Hockey".to_string())
        ],
        "a tag and a category of the same name are two topics"
    );
    assert!(store.unfollow_topic(u, TopicKind::Tag, "Hockey ").await.unwrap());
    assert!(!store.unfollow_topic(u, TopicKind::Tag, "Hockey").await.unwrap());

    assert!(
        store
            .add_mute(u, MuteKind::Keyword, "election", NOW)
            .await
            .unwrap()
            .changed()
    );
    assert_eq!(
        store.add_mute(u, MuteKind::Keyword, "election", NOW).await.unwrap(),
        Outcome::Unchanged
    );
    changed(store.add_mute(u, MuteKind::Author, "Jane Roe", NOW + 1).await.unwrap());
    changed(store.add_mute(u, MuteKind::Tag, "Crime 🚓", NOW + 2).await.unwrap());
    let mutes: Vec<(MuteKind, String, i64)> = store
        .mutes(u)
        .await
        .unwrap()
        .into_iter()
        .map(|m| (m.kind, m.value, m.muted_at_ms))
        .collect();
    assert_eq!(
        mutes,
        [
            (MuteKind::Tag, "Crime 🚓".to_string(), NOW + 2),
            (MuteKind::Author, "Jane Roe".to_string(), NOW + 1),
            (MuteKind::Keyword, "election".to_string(), NOW),
        ]
    );
    assert!(store.remove_mute(u, MuteKind::Author, "Jane Roe").await.unwrap());
    assert!(!store.remove_mute(u, MuteKind::Author, "Jane Roe").await.unwrap());
    assert_eq!(store.mutes(u).await.unwrap().len(), 2);
}

pub async fn limits_refuse_past_the_maximum(store: &dyn Store) {
    let u = guest(store, "dev-limits").await;
    for m in 0..MAX_BLOCKS as i64 {
        assert_eq!(store.block_media(u, MediaId(m), NOW).await.unwrap(), Outcome::Changed);
    }
    let past = Outcome::Refused(Refusal::TooMany { limit: MAX_BLOCKS });
    assert_eq!(store.block_media(u, MediaId(-1), NOW).await.unwrap(), past);
    assert_eq!(
        store.block_media(u, MediaId(0), NOW).await.unwrap(),
        Outcome::Unchanged,
        "at the limit, one already blocked is still fine"
    );
    assert_eq!(store.blocked_media_ids(u).await.unwrap().len(), MAX_BLOCKS);
    store.unblock_media(u, MediaId(0)).await.unwrap();
    assert!(
        store.block_media(u, MediaId(-1), NOW).await.unwrap().changed(),
        "room again after an unblock"
    );

    for m in 0..MAX_FOLLOWS as i64 {
        changed(store.follow_media(u, MediaId(m), NOW).await.unwrap());
    }
    assert_eq!(
        store.follow_media(u, MediaId(-1), NOW).await.unwrap(),
        Outcome::Refused(Refusal::TooMany { limit: MAX_FOLLOWS })
    );
    for i in 0..MAX_TOPICS {
        let kind = if i % 2 == 0 {
            TopicKind::Tag
        } else {
            TopicKind::Category
        };
        assert!(
            store
                .follow_topic(u, kind, &format!("t{i}"), NOW)
                .await
                .unwrap()
                .changed()
        );
    }
    assert_eq!(
        store.follow_topic(u, TopicKind::Tag, "one more", NOW).await.unwrap(),
        Outcome::Refused(Refusal::TooMany { limit: MAX_TOPICS })
    );
    for i in 0..MAX_MUTES {
        changed(
            store
                .add_mute(u, MuteKind::Keyword, &format!("k{i}"), NOW)
                .await
                .unwrap(),
        );
    }
    assert_eq!(
        store.add_mute(u, MuteKind::Author, "one more", NOW).await.unwrap(),
        Outcome::Refused(Refusal::TooMany { limit: MAX_MUTES })
    );
    assert_eq!(store.mutes(u).await.unwrap().len(), MAX_MUTES);

    let fresh = guest(store, "dev-limits-text").await;
    let long = "x".repeat(MAX_TEXT_CHARS + 1);
    assert_eq!(
        store.add_mute(fresh, MuteKind::Keyword, &long, NOW).await.unwrap(),
        Outcome::Refused(Refusal::TooLong {
            max_chars: MAX_TEXT_CHARS
        })
    );
    assert_eq!(
        store.follow_topic(fresh, TopicKind::Tag, "  ", NOW).await.unwrap(),
        Outcome::Refused(Refusal::Empty)
    );
    let too_many: Vec<String> = (0..=MAX_CHANNELS).map(|i| format!("c{i}")).collect();
    assert_eq!(
        store.set_home_channels(fresh, &too_many).await.unwrap(),
        Outcome::Refused(Refusal::TooMany { limit: MAX_CHANNELS })
    );
    assert!(store.mutes(fresh).await.unwrap().is_empty());
    assert!(store.followed_topics(fresh).await.unwrap().is_empty());
    assert!(store.home_channels(fresh).await.unwrap().is_empty());
}

pub async fn home_channel_order_is_replaced_and_read_back(store: &dyn Store) {
    let u = guest(store, "dev-channels").await;
    assert!(
        store.home_channels(u).await.unwrap().is_empty(),
        "never set: the defaults"
    );
    let order = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(
        store
            .set_home_channels(u, &order(&["local", "top", "sports"]))
            .await
            .unwrap()
            .changed()
    );
    assert_eq!(store.home_channels(u).await.unwrap(), ["local", "top", "sports"]);
    assert_eq!(
        store
            .set_home_channels(u, &order(&["local", "top", "sports"]))
            .await
            .unwrap(),
        Outcome::Unchanged
    );
    changed(
        store
            .set_home_channels(u, &order(&["sports", "local", "latest"]))
            .await
            .unwrap(),
    );
    assert_eq!(
        store.home_channels(u).await.unwrap(),
        ["sports", "local", "latest"],
        "replaced, not merged"
    );
    assert_eq!(
        store.set_home_channels(u, &order(&["top", "top"])).await.unwrap(),
        Outcome::Refused(Refusal::Duplicate)
    );
    assert_eq!(store.home_channels(u).await.unwrap(), ["sports", "local", "latest"]);
    changed(store.set_home_channels(u, &[]).await.unwrap());
    assert!(store.home_channels(u).await.unwrap().is_empty());
}

pub async fn a_guests_things_merge_into_the_account_on_sign_in_without_duplicates(store: &dyn Store) {
    let first = guest(store, "dev-things-1").await;
    sign_in(store, first, "g-things").await;
    let account = first;
    store.save_news(account, NewsId(2), NOW).await.unwrap();
    changed(store.follow_media(account, MediaId(20), NOW).await.unwrap());
    changed(store.block_media(account, MediaId(30), NOW).await.unwrap());
    changed(store.add_mute(account, MuteKind::Keyword, "rain", NOW).await.unwrap());
    changed(
        store
            .follow_topic(account, TopicKind::Tag, "Hockey", NOW)
            .await
            .unwrap(),
    );
    store
        .set_reaction(account, NewsId(2), Some(Reaction::Like), NOW)
        .await
        .unwrap();
    store.record_read(account, NewsId(2), NOW).await.unwrap();
    let accounts_channels = vec!["local".to_string(), "top".to_string()];
    changed(store.set_home_channels(account, &accounts_channels).await.unwrap());

    let second = guest(store, "dev-things-2").await;
    let later = NOW + 5;
    for n in [1, 2] {
        store.save_news(second, NewsId(n), later).await.unwrap();
        store.record_read(second, NewsId(n), later).await.unwrap();
    }
    changed(store.follow_media(second, MediaId(20), later).await.unwrap());
    changed(store.follow_media(second, MediaId(21), later).await.unwrap());
    changed(store.block_media(second, MediaId(30), later).await.unwrap());
    changed(store.block_media(second, MediaId(31), later).await.unwrap());
    changed(store.add_mute(second, MuteKind::Keyword, "rain", later).await.unwrap());
    changed(
        store
            .add_mute(second, MuteKind::Author, "Jane Roe", later)
            .await
            .unwrap(),
    );
    changed(
        store
            .follow_topic(second, TopicKind::Tag, "Hockey", later)
            .await
            .unwrap(),
    );
    changed(
        store
            .follow_topic(second, TopicKind::Category, "Politics", later)
            .await
            .unwrap(),
    );
    store
        .set_reaction(second, NewsId(2), Some(Reaction::Angry), later)
        .await
        .unwrap();
    store
        .set_reaction(second, NewsId(1), Some(Reaction::Funny), later)
        .await
        .unwrap();
    changed(store.set_home_channels(second, &["sports".to_string()]).await.unwrap());

    let outcome = sign_in(store, second, "g-things").await;
    assert!(
        matches!(outcome, SignInOutcome::Merged { guest, .. } if guest == second),
        "{outcome:?}"
    );

    let saved = store.saved_news(account, Page::first(10)).await.unwrap().items;
    let mut ids: Vec<(i64, i64)> = saved.iter().map(|s| (s.news_id.0, s.saved_at_ms)).collect();
    ids.sort();
    assert_eq!(
        ids,
        [(1, later), (2, NOW)],
        "1 and 2 once each; the account's own save of 2 kept"
    );
    let mut followed: Vec<(i64, i64)> = store
        .followed_media(account)
        .await
        .unwrap()
        .iter()
        .map(|f| (f.media_id.0, f.followed_at_ms))
        .collect();
    followed.sort();
    assert_eq!(followed, [(20, NOW), (21, later)]);
    assert_eq!(
        store.blocked_media_ids(account).await.unwrap(),
        HashSet::from([MediaId(30), MediaId(31)])
    );
    let blocked = store.blocked_media(account, Page::first(10)).await.unwrap().items;
    assert_eq!(blocked.len(), 2);
    let mut mutes: Vec<(MuteKind, String)> = store
        .mutes(account)
        .await
        .unwrap()
        .into_iter()
        .map(|m| (m.kind, m.value))
        .collect();
    mutes.sort();
    assert_eq!(
        mutes,
        [
            (MuteKind::Keyword, "rain".to_string()),
            (MuteKind::Author, "Jane Roe".to_string())
        ]
    );
    let mut topics: Vec<(TopicKind, String)> = store
        .followed_topics(account)
        .await
        .unwrap()
        .into_iter()
        .map(|t| (t.kind, t.value))
        .collect();
    topics.sort();
    assert_eq!(
        topics,
        [
            (TopicKind::Tag, "Hockey".to_string()),
            (TopicKind::Category, "Politics".to_string())
        ]
    );
    let reactions = store.my_reactions(account, &[NewsId(1), NewsId(2)]).await.unwrap();
    assert_eq!(
        reactions[&NewsId(2)],
        Reaction::Like,
        "the account's own reaction wins a clash"
    );
    assert_eq!(reactions[&NewsId(1)], Reaction::Funny);
    let counts = store
        .reaction_counts(&[NewsId(2)], &ReactionCounting::EVERYONE)
        .await
        .unwrap();
    assert_eq!(counts[&NewsId(2)].total(), 1, "one reaction per reader, still");
    let history = store.read_history(account, Page::first(10)).await.unwrap().items;
    let mut read: Vec<i64> = history.iter().map(|e| e.news_id.0).collect();
    read.sort();
    assert_eq!(read, [1, 2], "the same story on the same day once");
    assert_eq!(
        store.home_channels(account).await.unwrap(),
        accounts_channels,
        "the account's channel order is kept whole"
    );
    crate::contract_push::add_push_things(store, account).await;
    let export = store.export_user(account).await.unwrap().unwrap();
    for table in crate::user_data::USER_TABLES {
        let rows = &export.tables.iter().find(|(n, _)| n == table.table).unwrap().1;
        assert!(!rows.is_empty(), "{} has the account's rows", table.table);
    }

    // A guest with channels and an account without: the guest's order moves over.
    let g3 = guest(store, "dev-things-3").await;
    sign_in(store, g3, "g-things-3").await;
    let g4 = guest(store, "dev-things-4").await;
    changed(
        store
            .set_home_channels(g4, &["latest".to_string(), "local".to_string()])
            .await
            .unwrap(),
    );
    sign_in(store, g4, "g-things-3").await;
    assert_eq!(store.home_channels(g3).await.unwrap(), ["latest", "local"]);
}

pub async fn deleting_an_account_removes_its_things_and_download_lists_them(store: &dyn Store) {
    let u = guest(store, "dev-things-del").await;
    sign_in(store, u, "g-things-del").await;
    let keep = guest(store, "dev-things-keep").await;
    for who in [u, keep] {
        store.save_news(who, NewsId(1), NOW).await.unwrap();
        store
            .set_reaction(who, NewsId(1), Some(Reaction::Insightful), NOW)
            .await
            .unwrap();
        store.record_read(who, NewsId(1), NOW).await.unwrap();
        changed(store.follow_media(who, MediaId(2), NOW).await.unwrap());
        changed(store.block_media(who, MediaId(3), NOW).await.unwrap());
        changed(store.follow_topic(who, TopicKind::Tag, "Hockey", NOW).await.unwrap());
        changed(store.set_home_channels(who, &["local".to_string()]).await.unwrap());
        changed(store.add_mute(who, MuteKind::Keyword, "rain", NOW).await.unwrap());
        crate::contract_push::add_push_things(store, who).await;
    }
    let export = store.export_user(u).await.unwrap().expect("export");
    for (table, rows) in &export.tables {
        assert_eq!(rows.len(), 1, "{table}: one row each");
        assert!(rows[0].contains("user_id"), "{table}: {}", rows[0]);
    }
    let row = |t: &str| export.tables.iter().find(|(n, _)| n == t).unwrap().1[0].clone();
    assert!(row("reactions").contains("insightful"));
    assert!(row("mutes").contains("rain"));
    assert!(row("home_channels").contains("local"));
    assert!(row("blocked_media").contains("blocked_at"));

    assert!(store.delete_user(u).await.unwrap());
    assert!(store.is_saved(u, &[NewsId(1)]).await.unwrap().is_empty());
    assert!(store.reactions_of(u, Page::first(10)).await.unwrap().items.is_empty());
    assert!(store.read_history(u, Page::first(10)).await.unwrap().items.is_empty());
    assert!(store.followed_media(u).await.unwrap().is_empty());
    assert!(store.blocked_media_ids(u).await.unwrap().is_empty());
    assert!(store.followed_topics(u).await.unwrap().is_empty());
    assert!(store.home_channels(u).await.unwrap().is_empty());
    assert!(store.mutes(u).await.unwrap().is_empty());
    assert!(store.push_subscriptions_of(u).await.unwrap().is_empty());
    assert!(store.sent_pushes(u, Page::first(10)).await.unwrap().items.is_empty());
    assert_eq!(
        store
            .reaction_counts(&[NewsId(1)], &ReactionCounting::EVERYONE)
            .await
            .unwrap()[&NewsId(1)]
            .total(),
        1,
        "only the other reader's reaction is left"
    );
    assert_eq!(store.mutes(keep).await.unwrap().len(), 1, "others are untouched");
    assert_eq!(store.blocked_media_ids(keep).await.unwrap().len(), 1);
}

/// D353: a story's public counts hold signed-in readers, guests old enough, and the reader
/// asking; a hundred guests made a minute ago move nothing anyone else sees.
pub async fn d353_throwaway_guests_reactions_do_not_count_for_others(store: &dyn Store) {
    let story = NewsId(42);
    let mut throwaway = Vec::new();
    for i in 0..5 {
        let g = guest(store, &format!("dev-throwaway-{i}")).await;
        store.set_reaction(g, story, Some(Reaction::Like), NOW).await.unwrap();
        throwaway.push(g);
    }
    let old = UserId(
        store
            .start_guest_session(&request("dev-old-guest", "h-old-guest", NOW - 3 * DAY))
            .await
            .unwrap()
            .user
            .id,
    );
    store.set_reaction(old, story, Some(Reaction::Sad), NOW).await.unwrap();
    let account = guest(store, "dev-account-react").await;
    assert!(matches!(
        sign_in(store, account, "react-1").await,
        SignInOutcome::Upgraded(_)
    ));
    store
        .set_reaction(account, story, Some(Reaction::Love), NOW)
        .await
        .unwrap();

    let public = ReactionCounting {
        guests_joined_before_ms: NOW - DAY,
        viewer: None,
    };
    let counts = store.reaction_counts(&[story], &public).await.unwrap()[&story];
    assert_eq!(
        (
            counts.get(Reaction::Like),
            counts.get(Reaction::Sad),
            counts.get(Reaction::Love)
        ),
        (0, 1, 1),
        "the day-old guest and the account count; the new guests do not"
    );
    let as_one_of_them = ReactionCounting {
        viewer: Some(throwaway[0]),
        ..public
    };
    let seen = store.reaction_counts(&[story], &as_one_of_them).await.unwrap()[&story];
    assert_eq!(
        (seen.get(Reaction::Like), seen.total()),
        (1, 3),
        "a reader sees their own reaction counted"
    );
    let everyone = store
        .reaction_counts(&[story], &ReactionCounting::EVERYONE)
        .await
        .unwrap()[&story];
    assert_eq!(everyone.total(), 7, "every reaction is kept");
}
