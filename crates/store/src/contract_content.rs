//! The content half of the contract: publishers, feeds, items, places, clusters, search.

use crate::Store;
use crate::content::{
    After, CityId, ClusterChoice, ClusterId, FeedHealth, FeedId, FetchRecord, ListFilter, Listing, MediaId, NewFeed,
    NewMedia, NewsId, NewsRecord, PlaceKey, PublisherFeeds, SearchQuery, Special, Upserted, WHOLE_WORD_ENOUGH,
};

const T0: i64 = 1_763_640_000_000;
const HOUR: i64 = 3_600_000;

pub fn publisher(slug: &str, name: &str, country: &str, admin: &str, city: &str, feeds: &[&str]) -> PublisherFeeds {
    PublisherFeeds {
        media: NewMedia {
            slug: slug.into(),
            name: name.into(),
            icon_url: format!("https://{slug}.example/icon.png"),
            home_url: format!("https://{slug}.example/"),
            about: "A test publisher".into(),
            contact: "news@example.com".into(),
            category_id: "local".into(),
            category_top_id: "local".into(),
            country: country.into(),
            admin_code: admin.into(),
            city: city.into(),
            city_id: CityId(1),
            lang: "en".into(),
        },
        feeds: feeds
            .iter()
            .map(|u| NewFeed {
                url: (*u).into(),
                lang: "en".into(),
            })
            .collect(),
    }
}

pub fn record(identity: &str, title: &str, hours_after: i64, places: &[PlaceKey]) -> NewsRecord {
    NewsRecord {
        identity: identity.into(),
        canonical_url: format!("https://example.com/{identity}"),
        title: title.into(),
        summary: format!("{title}. More words about it."),
        body_text: format!("{title}. More words about it."),
        content: format!("<p>{title}</p>"),
        content_type: "html".into(),
        content_total_length: 40,
        news_type: 1,
        publish_time_ms: T0 + hours_after * HOUR,
        link_url: format!("https://example.com/{identity}"),
        category_id: "local".into(),
        tags: vec!["Tag".into()],
        lang: "en".into(),
        city_ids: places
            .iter()
            .filter_map(|p| match p {
                PlaceKey::City(id) => Some(*id),
                _ => None,
            })
            .collect(),
        places: places.to_vec(),
        signature: vec![1, 2, 3],
        content_hash: format!("h-{identity}-{title}"),
        ..NewsRecord::default()
    }
}

/// One publisher with one feed; returns (media_id, feed_id).
async fn one_feed(store: &dyn Store, slug: &str, country: &str) -> (MediaId, FeedId) {
    let url = format!("https://{slug}.example/feed.xml");
    store
        .import_publishers(&[publisher(slug, slug, country, "DC", "Washington", &[&url])], T0)
        .await
        .unwrap();
    let feed = store.feeds().await.unwrap().into_iter().find(|f| f.url == url).unwrap();
    (feed.media_id, feed.feed_id)
}

/// A successful fetch at `at_ms` (ETag "v1"), next due half an hour after T0.
fn fetched(at_ms: i64, status: i32, items: i64) -> FetchRecord {
    FetchRecord {
        fetched_at_ms: at_ms,
        status: Some(status),
        etag: Some("\"v1\"".into()),
        last_modified: None,
        items,
        error: String::new(),
        next_due_ms: T0 + 1_800_000,
        consecutive_errors: 0,
        interval_secs: 1800,
    }
}

fn city(id: i64) -> PlaceKey {
    PlaceKey::City(CityId(id))
}

/// The cluster a new story starts: it takes its first item's id.
fn own_cluster(first_item: NewsId) -> ClusterId {
    ClusterId(first_item.0)
}

fn ids(rows: &[crate::content::NewsRow]) -> Vec<NewsId> {
    rows.iter().map(|r| r.news_id).collect()
}

pub async fn import_adds_publishers_and_feeds_and_skips_known_urls(store: &dyn Store) {
    let a = publisher(
        "ledger",
        "The Ledger",
        "US",
        "DC",
        "Washington",
        &["https://a.example/1", "https://a.example/2"],
    );
    let report = store.import_publishers(std::slice::from_ref(&a), T0).await.unwrap();
    assert_eq!((report.media_added, report.feeds_added), (1, 2));
    assert!(report.skipped.is_empty());
    let again = store.import_publishers(&[a], T0).await.unwrap();
    assert_eq!((again.media_added, again.feeds_added), (0, 0));
    assert_eq!(again.skipped.len(), 2);
    assert_eq!(again.skipped[0].1, "the feed is already registered");
    let feeds = store.feeds().await.unwrap();
    assert_eq!(feeds.len(), 2);
    assert_eq!(feeds[0].media_name, "The Ledger");
    assert_eq!(feeds[0].next_due_ms, T0, "a new feed is due at once");
    let exported = store.export_publishers().await.unwrap();
    assert_eq!(exported.len(), 1);
    assert_eq!(exported[0].0.name, "The Ledger");
    assert_eq!(exported[0].0.country, "US");
    assert_eq!(exported[0].1.len(), 2);
}

pub async fn same_identity_is_stored_once_and_updated_in_place(store: &dyn Store) {
    let (media, feed) = one_feed(store, "dedup", "US").await;
    let first = store
        .upsert_items(
            feed,
            media,
            &[record("g1", "Council votes", 0, &[city(5)])],
            &[ClusterChoice::New],
            T0,
        )
        .await
        .unwrap();
    let Upserted::Inserted(id) = first[0] else {
        panic!("expected an insert, got {first:?}")
    };
    let same = store
        .upsert_items(
            feed,
            media,
            &[record("g1", "Council votes", 0, &[city(5)])],
            &[ClusterChoice::New],
            T0,
        )
        .await
        .unwrap();
    assert_eq!(same, vec![Upserted::Unchanged(id)]);
    let changed = store
        .upsert_items(
            feed,
            media,
            &[record("g1", "Council votes again", 1, &[city(6)])],
            &[ClusterChoice::New],
            T0,
        )
        .await
        .unwrap();
    assert_eq!(changed, vec![Upserted::Updated(id)]);
    let row = store.news(id).await.unwrap().unwrap();
    assert_eq!(row.title, "Council votes again");
    assert_eq!(row.content, "<p>Council votes again</p>");
    assert_eq!(row.city_ids, vec![CityId(6)]);
    // Places follow the update: the old city no longer lists it.
    let old = store
        .list_news(&Listing::Places(vec![city(5)]), &ListFilter::default(), None, 10)
        .await
        .unwrap();
    assert!(old.is_empty());
    let new = store
        .list_news(&Listing::Places(vec![city(6)]), &ListFilter::default(), None, 10)
        .await
        .unwrap();
    assert_eq!(ids(&new), vec![id]);
}

pub async fn same_canonical_url_from_one_publisher_is_one_item(store: &dyn Store) {
    let (media, feed) = one_feed(store, "canon", "US").await;
    let a = record("guid:1", "Bridge reopens", 0, &[]);
    let mut b = record("guid:2", "Bridge reopens (updated)", 0, &[]);
    b.canonical_url = a.canonical_url.clone();
    let out = store
        .upsert_items(feed, media, &[a], &[ClusterChoice::New], T0)
        .await
        .unwrap();
    let again = store
        .upsert_items(feed, media, &[b], &[ClusterChoice::New], T0)
        .await
        .unwrap();
    assert_eq!(again, vec![Upserted::Updated(out[0].news_id())]);
}

pub async fn news_item_keeps_every_field(store: &dyn Store) {
    let (media, feed) = one_feed(store, "fields", "CA").await;
    let mut r = record("f1", "Pont Jacques-Cartier « fermé »", 2, &[city(6077243)]);
    r.org_img_url = "https://img.example/o.jpg".into();
    r.img_url = "https://img.example/i.jpg".into();
    r.thumbnail_url = "https://img.example/t.jpg".into();
    r.video_url = "https://v.example/v.mp4".into();
    r.voice_url = "https://v.example/a.mp3".into();
    r.news_type = 3;
    r.author = "Jeanne Tremblay".into();
    r.description = "Desc".into();
    r.lang = "fr".into();
    r.tags = vec!["Transport".into(), "Montréal".into()];
    r.category_id = "local".into();
    let id = store
        .upsert_items(feed, media, &[r.clone()], &[ClusterChoice::New], T0)
        .await
        .unwrap()[0]
        .news_id();
    let row = store.news(id).await.unwrap().unwrap();
    assert_eq!(row.title, r.title);
    assert_eq!(
        (
            row.org_img_url.as_str(),
            row.img_url.as_str(),
            row.thumbnail_url.as_str()
        ),
        (
            "https://img.example/o.jpg",
            "https://img.example/i.jpg",
            "https://img.example/t.jpg"
        )
    );
    assert_eq!(
        (row.video_url.as_str(), row.voice_url.as_str()),
        (r.video_url.as_str(), r.voice_url.as_str())
    );
    assert_eq!(row.news_type, 3);
    assert_eq!(row.publish_time_ms, T0 + 2 * HOUR);
    assert_eq!(row.author, "Jeanne Tremblay");
    assert_eq!(row.tags, r.tags);
    assert_eq!(row.lang, "fr");
    assert_eq!(row.city_ids, vec![CityId(6077243)]);
    assert_eq!(row.media_name, "fields");
    assert_eq!(row.media_icon, "https://fields.example/icon.png");
    assert_eq!(row.cluster_id, own_cluster(id), "a new story is its own cluster");
    assert_eq!((row.cluster.size, row.cluster.media_count), (1, 1));
    assert_eq!(row.read_count + row.like_count + row.share_count + row.comment_count, 0);
    assert!(store.news(NewsId(id.0 + 1000)).await.unwrap().is_none());
}

pub async fn place_lists_page_newest_first_without_gaps_or_repeats(store: &dyn Store) {
    let (media, feed) = one_feed(store, "paging", "US").await;
    let state = PlaceKey::State {
        country: "US".into(),
        admin_code: "ME".into(),
    };
    let items: Vec<NewsRecord> = (0..25)
        .map(|i| {
            record(
                &format!("p{i}"),
                &format!("Story {i}"),
                i % 7,
                &[city(4975802), state.clone()],
            )
        })
        .collect();
    let choices = vec![ClusterChoice::New; items.len()];
    store.upsert_items(feed, media, &items, &choices, T0).await.unwrap();
    let mut seen = Vec::new();
    let mut after = None;
    loop {
        let page = store
            .list_news(&Listing::Places(vec![city(4975802)]), &ListFilter::default(), after, 10)
            .await
            .unwrap();
        for w in page.windows(2) {
            assert!((w[0].publish_time_ms, w[0].news_id) > (w[1].publish_time_ms, w[1].news_id));
        }
        seen.extend(ids(&page));
        match page.last() {
            Some(last) if page.len() == 10 => {
                after = Some(After {
                    publish_time_ms: last.publish_time_ms,
                    news_id: last.news_id,
                })
            }
            _ => break,
        }
    }
    let mut unique = seen.clone();
    unique.sort();
    unique.dedup();
    assert_eq!((seen.len(), unique.len()), (25, 25));
    let by_state = store
        .list_news(&Listing::Places(vec![state]), &ListFilter::default(), None, 50)
        .await
        .unwrap();
    assert_eq!(by_state.len(), 25);
    let other = store
        .list_news(&Listing::Places(vec![city(1)]), &ListFilter::default(), None, 50)
        .await
        .unwrap();
    assert!(other.is_empty());
}

/// A list over a city and its state (the local feed) holds each story of either place in
/// one newest-first order, pages without gaps or repeats, and applies the filters inside
/// each place (D405: PostgreSQL reads it place by place).
pub async fn a_list_over_several_places_merges_them_newest_first(store: &dyn Store) {
    let (media, feed) = one_feed(store, "merged", "US").await;
    let state = PlaceKey::State {
        country: "US".into(),
        admin_code: "OR".into(),
    };
    let mut items = Vec::new();
    for i in 0..24_i64 {
        let places = match i % 3 {
            0 => vec![city(5746545)],
            1 => vec![state.clone()],
            _ => vec![city(1)],
        };
        let mut item = record(&format!("m{i}"), &format!("Merged {i}"), i, &places);
        if i % 4 == 0 {
            item.lang = "es".into();
        }
        items.push(item);
    }
    let choices = vec![ClusterChoice::New; items.len()];
    store.upsert_items(feed, media, &items, &choices, T0).await.unwrap();
    let listing = Listing::Places(vec![city(5746545), state]);
    let english = ListFilter {
        lang: Some("en".into()),
        ..ListFilter::default()
    };
    let mut seen = Vec::new();
    let mut after = None;
    loop {
        let page = store.list_news(&listing, &english, after, 5).await.unwrap();
        seen.extend(page.iter().map(|r| (r.publish_time_ms, r.news_id)));
        match page.last() {
            Some(last) if page.len() == 5 => {
                after = Some(After {
                    publish_time_ms: last.publish_time_ms,
                    news_id: last.news_id,
                })
            }
            _ => break,
        }
    }
    // The city's and the state's English stories: i % 3 in {0, 1}, i % 4 != 0.
    let expected = (0..24_i64).filter(|i| i % 3 != 2 && i % 4 != 0).count();
    assert_eq!(seen.len(), expected, "{seen:?}");
    for w in seen.windows(2) {
        assert!(w[0] > w[1], "newest first, no repeats: {seen:?}");
    }
    let first = store
        .list_news(&listing, &ListFilter::default(), None, 3)
        .await
        .unwrap();
    let hours: Vec<i64> = first.iter().map(|r| (r.publish_time_ms - T0) / HOUR).collect();
    assert_eq!(hours, vec![22, 21, 19], "the newest three of both places");
}

pub async fn lists_filter_by_language_country_category_and_publisher(store: &dyn Store) {
    let (us, us_feed) = one_feed(store, "us-pub", "US").await;
    let (ca, ca_feed) = one_feed(store, "ca-pub", "CA").await;
    let mut en = record("l1", "Sports final", 1, &[]);
    en.category_id = "sports".into();
    let mut es = record("l2", "Final deportiva", 2, &[]);
    es.lang = "es".into();
    es.category_id = "sports".into();
    let mut fr = record("l3", "Finale sportive", 3, &[]);
    fr.lang = "fr".into();
    store
        .upsert_items(us_feed, us, &[en, es], &[ClusterChoice::New; 2], T0)
        .await
        .unwrap();
    store
        .upsert_items(ca_feed, ca, &[fr], &[ClusterChoice::New], T0)
        .await
        .unwrap();
    let all = store
        .list_news(&Listing::Latest, &ListFilter::default(), None, 10)
        .await
        .unwrap();
    assert_eq!(
        all.iter().map(|r| r.title.as_str()).collect::<Vec<_>>(),
        ["Finale sportive", "Final deportiva", "Sports final"]
    );
    let spanish = ListFilter {
        lang: Some("es".into()),
        country: None,
    };
    assert_eq!(
        store
            .list_news(&Listing::Latest, &spanish, None, 10)
            .await
            .unwrap()
            .len(),
        1
    );
    let canada = ListFilter {
        lang: None,
        country: Some("CA".into()),
    };
    let ca_rows = store.list_news(&Listing::Latest, &canada, None, 10).await.unwrap();
    assert_eq!(ca_rows.len(), 1);
    assert_eq!(ca_rows[0].lang, "fr");
    let sports = store
        .list_news(&Listing::Category("sports".into()), &ListFilter::default(), None, 10)
        .await
        .unwrap();
    assert_eq!(sports.len(), 2);
    let by_media = store
        .list_news(&Listing::Media(ca), &ListFilter::default(), None, 10)
        .await
        .unwrap();
    assert_eq!(by_media.len(), 1);
    let by_publishers = store
        .list_news(&Listing::Publishers(vec![us, ca]), &ListFilter::default(), None, 10)
        .await
        .unwrap();
    assert_eq!(by_publishers.len(), 3, "every item of either publisher, newest first");
    let only_us = store
        .list_news(&Listing::Publishers(vec![us]), &ListFilter::default(), None, 10)
        .await
        .unwrap();
    assert!(only_us.len() == 2 && only_us.iter().all(|r| r.media_id == us));
    let none = store
        .list_news(&Listing::Publishers(vec![]), &ListFilter::default(), None, 10)
        .await
        .unwrap();
    assert!(none.is_empty(), "no publishers, no items");
    let picked = store
        .list_news(
            &Listing::Ids(vec![all[2].news_id, all[0].news_id]),
            &ListFilter::default(),
            None,
            10,
        )
        .await
        .unwrap();
    assert_eq!(ids(&picked), vec![all[0].news_id, all[2].news_id]);
    for row in &all {
        assert!(row.content.is_empty(), "lists leave the content out");
    }
}

pub async fn clusters_count_items_and_publishers_and_rank_top(store: &dyn Store) {
    let (a, fa) = one_feed(store, "pub-a", "US").await;
    let (b, fb) = one_feed(store, "pub-b", "US").await;
    let (c, fc) = one_feed(store, "pub-c", "US").await;
    let lone = store
        .upsert_items(
            fa,
            a,
            &[record("lone", "Quiet story", 5, &[])],
            &[ClusterChoice::New],
            T0,
        )
        .await
        .unwrap()[0]
        .news_id();
    let first = store
        .upsert_items(
            fa,
            a,
            &[record("s1", "Fire downtown", 0, &[])],
            &[ClusterChoice::New],
            T0,
        )
        .await
        .unwrap()[0]
        .news_id();
    // A batch whose second item joins the first of the same batch.
    let both = store
        .upsert_items(
            fb,
            b,
            &[
                record("s2", "Downtown fire", 1, &[]),
                record("s3", "Fire: update", 2, &[]),
            ],
            &[ClusterChoice::Join(own_cluster(first)), ClusterChoice::SameAs(0)],
            T0,
        )
        .await
        .unwrap();
    store
        .upsert_items(
            fc,
            c,
            &[record("s4", "Incendie au centre-ville", 3, &[])],
            &[ClusterChoice::Join(own_cluster(first))],
            T0,
        )
        .await
        .unwrap();
    let items = store.cluster_items(own_cluster(first), 10).await.unwrap();
    assert_eq!(items.len(), 4);
    assert_eq!(items[0].title, "Incendie au centre-ville", "newest first");
    assert!(items.iter().all(|r| r.cluster_id == own_cluster(first)));
    assert_eq!((items[0].cluster.size, items[0].cluster.media_count), (4, 3));
    assert_eq!(items[0].cluster.newest_ms, T0 + 3 * HOUR);
    let row = store.news(both[1].news_id()).await.unwrap().unwrap();
    assert_eq!(row.cluster_id, own_cluster(first));
    // D437: a story's page in one read: the item with its content, its publisher, its story.
    let story = store.story(both[1].news_id(), 10).await.unwrap().unwrap();
    assert_eq!(story.news, row, "the item as `news` reads it, content and all");
    assert_eq!(story.media.map(|m| m.media_id), Some(b));
    assert_eq!(
        ids(&story.cluster),
        ids(&items),
        "the story's items as `cluster_items` lists them"
    );
    let alone = store.story(lone, 10).await.unwrap().unwrap();
    assert_eq!(alone.news.news_id, lone);
    assert!(alone.cluster.is_empty(), "an item alone has no story to list");
    let short = store.story(first, 2).await.unwrap().unwrap();
    assert_eq!(ids(&short.cluster), ids(&items[..2]), "at most the limit, newest first");
    assert!(store.story(NewsId(i64::MAX), 10).await.unwrap().is_none());
    let top = store.top_news(&ListFilter::default(), T0 - HOUR, 0, 10).await.unwrap();
    assert_eq!(top.len(), 2, "one lead per cluster");
    assert_eq!(
        top[0].title, "Incendie au centre-ville",
        "the lead is the newest item of the biggest story"
    );
    assert_eq!(top[1].news_id, lone);
    // The window starts at the start of its six-hour bucket (D410): T0 here.
    let recent = store
        .top_news(&ListFilter::default(), T0 + 4 * HOUR, 0, 10)
        .await
        .unwrap();
    assert_eq!(ids(&recent), ids(&top), "the window's first bucket is whole");
    let later = store
        .top_news(&ListFilter::default(), T0 + 6 * HOUR, 0, 10)
        .await
        .unwrap();
    assert!(later.is_empty(), "stories with nothing new since are left out");
    let candidates = store.cluster_candidates(T0, T0 + 2 * HOUR).await.unwrap();
    assert_eq!(candidates.len(), 3);
    assert!(candidates.iter().all(|c| c.signature == vec![1, 2, 3]));
    // What was written since a time: all of it at T0, nothing after.
    let since = store.cluster_candidates_since(T0, T0 + 2 * HOUR, T0).await.unwrap();
    assert_eq!(since, candidates);
    let later = store.cluster_candidates_since(T0, T0 + 2 * HOUR, T0 + 1).await.unwrap();
    assert!(later.is_empty(), "nothing was written after T0");
}

/// D410: top ranks the window's stories together whichever six-hour part of the window
/// they fall in, leaves out an older story however big, filters on the lead story and
/// pages with an offset that reaches past one part's first page.
pub async fn top_ranks_the_whole_window_filters_by_lead_and_pages(store: &dyn Store) {
    let (us, us_feed) = one_feed(store, "top-us", "US").await;
    let (ca, ca_feed) = one_feed(store, "top-ca", "CA").await;
    let (us2, us2_feed) = one_feed(store, "top-us-2", "US").await;
    let new_story = |feed, media, identity: &'static str, hours: i64, lang: &'static str| async move {
        let mut item = record(identity, identity, hours, &[]);
        item.lang = lang.into();
        store
            .upsert_items(feed, media, &[item], &[ClusterChoice::New], T0)
            .await
            .unwrap()[0]
            .news_id()
    };
    // Before the window: the biggest story of all (two publishers), left out.
    let old = new_story(us_feed, us, "old", -30, "en").await;
    let mut joined = record("old-2", "old-2", -29, &[]);
    joined.lang = "en".into();
    store
        .upsert_items(us2_feed, us2, &[joined], &[ClusterChoice::Join(own_cluster(old))], T0)
        .await
        .unwrap();
    // In the window: five single stories in its first six hours, one French in Canada in
    // the next part, and a story two publishers tell in the last part.
    let mut early = Vec::new();
    for (i, identity) in ["e0", "e1", "e2", "e3", "e4"].into_iter().enumerate() {
        early.push(new_story(us_feed, us, identity, i as i64, "en").await);
    }
    let french = new_story(ca_feed, ca, "fr", 8, "fr").await;
    let big = new_story(us_feed, us, "big", 20, "en").await;
    let mut other = record("big-2", "big-2", 19, &[]);
    other.lang = "en".into();
    store
        .upsert_items(us2_feed, us2, &[other], &[ClusterChoice::Join(own_cluster(big))], T0)
        .await
        .unwrap();

    let all = store.top_news(&ListFilter::default(), T0, 0, 20).await.unwrap();
    let newest_first: Vec<NewsId> = early.iter().rev().copied().collect();
    let mut expected = vec![big, french];
    expected.extend(&newest_first);
    assert_eq!(
        ids(&all),
        expected,
        "rank over the whole window, the older story left out"
    );
    // Pages: an offset past the first part's first page of two.
    let page = store.top_news(&ListFilter::default(), T0, 3, 2).await.unwrap();
    assert_eq!(ids(&page), expected[3..5].to_vec());
    let last = store.top_news(&ListFilter::default(), T0, 6, 2).await.unwrap();
    assert_eq!(ids(&last), expected[6..].to_vec());
    // Filters read the lead story.
    let fr = ListFilter {
        lang: Some("fr".into()),
        country: None,
    };
    assert_eq!(ids(&store.top_news(&fr, T0, 0, 20).await.unwrap()), vec![french]);
    let canada = ListFilter {
        lang: None,
        country: Some("CA".into()),
    };
    assert_eq!(ids(&store.top_news(&canada, T0, 0, 20).await.unwrap()), vec![french]);
    // The window starts at its first bucket's start: from T0 + 5h it holds the first part
    // (T0 to T0 + 6h) whole; from T0 + 6h that part is out.
    assert_eq!(
        store
            .top_news(&ListFilter::default(), T0 + 5 * HOUR, 0, 20)
            .await
            .unwrap()
            .len(),
        7
    );
    assert_eq!(
        ids(&store
            .top_news(&ListFilter::default(), T0 + 6 * HOUR, 0, 20)
            .await
            .unwrap()),
        vec![big, french]
    );
    // A window after the newest story is empty.
    assert!(
        store
            .top_news(&ListFilter::default(), T0 + 30 * HOUR, 0, 20)
            .await
            .unwrap()
            .is_empty()
    );
}

/// D411: the last word is read as a prefix only while, as a whole word, it matches fewer
/// than WHOLE_WORD_ENOUGH stories.
pub async fn d411_a_common_whole_word_is_not_read_as_a_prefix(store: &dyn Store) {
    let (media, feed) = one_feed(store, "councils", "US").await;
    let mut batch = vec![record("longer", "Councillor retires", 0, &[])];
    batch.extend(
        (1..WHOLE_WORD_ENOUGH).map(|i| record(&format!("c{i}"), &format!("Council meets, session {i}"), 1, &[])),
    );
    let choices = vec![ClusterChoice::New; batch.len()];
    store.upsert_items(feed, media, &batch, &choices, T0).await.unwrap();
    let q = |terms: &[&str]| SearchQuery {
        terms: terms.iter().map(|t| t.to_string()).collect(),
        ..SearchQuery::default()
    };
    let has_longer = |rows: &[crate::content::NewsRow]| rows.iter().any(|r| r.title == "Councillor retires");
    let rare = store.search_news(&q(&["council"]), 0, 100).await.unwrap();
    assert_eq!(rare.len() as i64, WHOLE_WORD_ENOUGH, "one short of enough: a prefix");
    assert!(has_longer(&rare));
    store
        .upsert_items(
            feed,
            media,
            &[record("c-last", "Council meets again", 2, &[])],
            &[ClusterChoice::New],
            T0,
        )
        .await
        .unwrap();
    let common = store.search_news(&q(&["council"]), 0, 100).await.unwrap();
    assert_eq!(common.len() as i64, WHOLE_WORD_ENOUGH, "enough: the whole word only");
    assert!(!has_longer(&common));
    // Only the last word may be a prefix, and "sess" is no whole word.
    let typed = store.search_news(&q(&["council", "sess"]), 0, 100).await.unwrap();
    assert_eq!(typed.len() as i64, WHOLE_WORD_ENOUGH - 1);
}

/// Full text follows the batch: an item twice in one feed is found by its last text only,
/// and a batch larger than one full-text statement (SQLite writes 64 rows at a time) is
/// found whole.
pub async fn search_finds_every_item_of_a_batch_and_the_last_text_of_a_repeat(store: &dyn Store) {
    let (media, feed) = one_feed(store, "batch", "US").await;
    let mut batch: Vec<NewsRecord> = (0..150)
        .map(|i| {
            let places = if i == 7 { vec![city(71)] } else { vec![] };
            record(&format!("b{i}"), &format!("Ferry schedule number {i}"), i, &places)
        })
        .collect();
    batch.push(record("b7", "Lighthouse reopens", 200, &[city(72)]));
    let choices = vec![ClusterChoice::New; batch.len()];
    let out = store.upsert_items(feed, media, &batch, &choices, T0).await.unwrap();
    assert_eq!(out.len(), 151);
    assert!(
        matches!(out[150], Upserted::Updated(_)),
        "the repeat updates: {:?}",
        out[150]
    );
    let q = |word: &str| SearchQuery {
        terms: vec![word.to_string()],
        ..SearchQuery::default()
    };
    assert_eq!(store.search_news(&q("ferry"), 0, 200).await.unwrap().len(), 149);
    let lighthouse = store.search_news(&q("lighthouse"), 0, 10).await.unwrap();
    assert_eq!(lighthouse.len(), 1);
    assert_eq!(lighthouse[0].title, "Lighthouse reopens");
    // The repeat's places replace the first record's, in the same batch.
    let listed = |c: i64| {
        let listing = Listing::Places(vec![city(c)]);
        async move {
            store
                .list_news(&listing, &ListFilter::default(), None, 10)
                .await
                .unwrap()
        }
    };
    assert!(listed(71).await.is_empty(), "the first record's place is gone");
    assert_eq!(ids(&listed(72).await), vec![lighthouse[0].news_id]);
}

/// D158: ingestion's grouped writes. Once the group is committed, every item is stored,
/// an item written twice in the group keeps its last version (and only its last text is
/// found), a story begun in the group gathers the items that join it, and the fetch
/// record is kept.
/// D428: one batch of new items, some joining a story another record of the batch
/// started (`SameAs` of a new item) and one repeating an earlier record: the new items get
/// ascending ids in the records' order, each story holds what joined it, and the repeat
/// updates the item its first record stored.
pub async fn d428_a_batch_of_new_items_keeps_order_stories_and_repeats(store: &dyn Store) {
    let (media, feed) = one_feed(store, "batch", "US").await;
    let records = [
        record("b1", "Bridge closes", 0, &[city(4_140_963)]),
        record("b2", "Bridge: detours", 1, &[]),
        record("b3", "Library opens", 2, &[]),
        record("b1", "Bridge closes for a week", 3, &[city(5_128_581)]),
        record("b4", "Library hours", 4, &[]),
        record("b5", "Market returns", 5, &[]),
    ];
    let choices = [
        ClusterChoice::New,
        ClusterChoice::SameAs(0),
        ClusterChoice::New,
        ClusterChoice::SameAs(0),
        ClusterChoice::SameAs(2),
        ClusterChoice::New,
    ];
    let out = store.upsert_items(feed, media, &records, &choices, T0).await.unwrap();
    let id = |i: usize| out[i].news_id();
    assert!(matches!(out[0], Upserted::Inserted(_)));
    assert_eq!(
        out[3],
        Upserted::Updated(id(0)),
        "the repeat updates the first record's item"
    );
    let new_ids = [id(0), id(1), id(2), id(4), id(5)];
    assert!(
        new_ids.windows(2).all(|w| w[0].0 < w[1].0),
        "ids ascend in the records' order: {new_ids:?}"
    );
    let bridge = store.cluster_items(own_cluster(id(0)), 10).await.unwrap();
    assert_eq!(
        titles_of(&bridge),
        ["Bridge closes for a week", "Bridge: detours"],
        "newest first"
    );
    assert_eq!(bridge[0].cluster.size, 2);
    let library = store.cluster_items(own_cluster(id(2)), 10).await.unwrap();
    assert_eq!(titles_of(&library), ["Library hours", "Library opens"]);
    let market = store.news(id(5)).await.unwrap().unwrap();
    assert_eq!(market.cluster_id, own_cluster(id(5)), "a new story of its own");
    // The repeat's places replaced the first record's.
    let placed = async |id: i64| {
        let listing = Listing::Places(vec![city(id)]);
        store
            .list_news(&listing, &ListFilter::default(), None, 10)
            .await
            .unwrap()
    };
    assert_eq!(ids(&placed(5_128_581).await), [id(0)]);
    assert!(placed(4_140_963).await.is_empty());
}

pub async fn grouped_writes_are_stored_once_committed(store: &dyn Store) {
    let (media, feed) = one_feed(store, "grouped", "US").await;
    let g0 = store.content_generation();
    let first = store
        .upsert_items_grouped(
            feed,
            media,
            vec![
                record("r1", "Ferry returns", 0, &[]),
                record("r2", "Harbour fees rise", 1, &[]),
            ],
            vec![ClusterChoice::New; 2],
            T0,
        )
        .await
        .unwrap();
    let story = first[0].news_id();
    let again = store
        .upsert_items_grouped(
            feed,
            media,
            vec![
                record("r1", "Lighthouse reopens", 0, &[]),
                record("r3", "Ferry crossings resume", 2, &[]),
            ],
            vec![ClusterChoice::New, ClusterChoice::Join(own_cluster(story))],
            T0,
        )
        .await
        .unwrap();
    assert_eq!(again[0], Upserted::Updated(story), "the same identity in one group");
    let record = fetched(T0, 200, 3);
    store.record_fetch_grouped(feed, &record).await.unwrap();
    store.commit_grouped().await.unwrap();
    assert!(store.content_generation() > g0, "readers' caches hear of the commit");

    let latest = store
        .list_news(&Listing::Latest, &ListFilter::default(), None, 10)
        .await
        .unwrap();
    assert_eq!(latest.len(), 3);
    let q = |word: &str| SearchQuery {
        terms: vec![word.to_string()],
        ..SearchQuery::default()
    };
    let found = |rows: Vec<crate::content::NewsRow>| rows.into_iter().map(|r| r.title).collect::<Vec<_>>();
    assert_eq!(
        found(store.search_news(&q("lighthouse"), 0, 10).await.unwrap()),
        ["Lighthouse reopens"]
    );
    assert_eq!(
        found(store.search_news(&q("ferry"), 0, 10).await.unwrap()),
        ["Ferry crossings resume"],
        "the first text of r1 is gone from the index"
    );
    let items = store.cluster_items(own_cluster(story), 10).await.unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!((items[0].cluster.size, items[0].cluster.newest_ms), (2, T0 + 2 * HOUR));
    let status = store
        .feeds()
        .await
        .unwrap()
        .into_iter()
        .find(|f| f.feed_id == feed)
        .unwrap();
    assert_eq!((status.last_status, status.last_items), (Some(200), 3));
}

pub async fn search_is_accent_and_case_insensitive_with_prefix_and_stemming(store: &dyn Store) {
    let (media, feed) = one_feed(store, "search", "CA").await;
    let mut fr = record("q1", "Montréal: le métro prolongé", 1, &[city(6077243)]);
    fr.lang = "fr".into();
    let mut en = record("q2", "Council votes on the housing budget", 2, &[city(4140963)]);
    en.category_id = "politics".into();
    let mut old = record("q3", "Budget hearings begin", -100, &[]);
    old.body_text = "The council held hearings about the budget".into();
    store
        .upsert_items(feed, media, &[fr, en, old], &[ClusterChoice::New; 3], T0)
        .await
        .unwrap();
    let q = |terms: &[&str]| SearchQuery {
        terms: terms.iter().map(|t| t.to_string()).collect(),
        ..SearchQuery::default()
    };
    let titles = |rows: Vec<crate::content::NewsRow>| rows.into_iter().map(|r| r.title).collect::<Vec<_>>();
    assert_eq!(
        titles(store.search_news(&q(&["montreal"]), 0, 10).await.unwrap()),
        ["Montréal: le métro prolongé"]
    );
    assert_eq!(titles(store.search_news(&q(&["metro"]), 0, 10).await.unwrap()).len(), 1);
    assert_eq!(
        store.search_news(&q(&["hous"]), 0, 10).await.unwrap().len(),
        1,
        "last term is a prefix"
    );
    assert_eq!(
        store.search_news(&q(&["vote"]), 0, 10).await.unwrap().len(),
        1,
        "stemmed: vote finds votes"
    );
    assert_eq!(store.search_news(&q(&["budget"]), 0, 10).await.unwrap().len(), 2);
    assert_eq!(
        store
            .search_news(&q(&["council", "budget"]), 0, 10)
            .await
            .unwrap()
            .len(),
        2,
        "body text counts"
    );
    assert!(store.search_news(&q(&["zzzz"]), 0, 10).await.unwrap().is_empty());
    assert!(store.search_news(&q(&[]), 0, 10).await.unwrap().is_empty());
    let mut politics = q(&["budget"]);
    politics.category = Some("politics".into());
    assert_eq!(store.search_news(&politics, 0, 10).await.unwrap().len(), 1);
    let mut recent = q(&["budget"]);
    recent.since_ms = Some(T0);
    assert_eq!(
        titles(store.search_news(&recent, 0, 10).await.unwrap()),
        ["Council votes on the housing budget"]
    );
    let mut placed = q(&["budget"]);
    placed.place = Some(city(4140963));
    assert_eq!(store.search_news(&placed, 0, 10).await.unwrap().len(), 1);
    // Quotes, operators and column filters of FTS5 and tsquery in terms are only text: as
    // syntax each would find the "budget" stories.
    assert!(
        store
            .search_news(&q(&["\"zq\" OR budget* & !c"]), 0, 10)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        store
            .search_news(&q(&["{title} : budget"]), 0, 10)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        store
            .search_news(&q(&["budget:B | zq"]), 0, 10)
            .await
            .unwrap()
            .is_empty()
    );
}

/// D412 (and D141's cap): stories whose title holds every word come first, however old,
/// then the others; each tier newest first; paging ends after SEARCH_RANKED_MAX results.
pub async fn search_ranks_title_matches_first_newest_first_up_to_the_cap(store: &dyn Store) {
    use crate::content::SEARCH_RANKED_MAX;
    let (media, feed) = one_feed(store, "ranked", "US").await;
    // The best match of all is stored first, so it is the oldest.
    let mut best = record("r-best", "Harbor lighthouse reopens", 0, &[]);
    best.body_text = "The harbor lighthouse reopens".into();
    // Placed in a reader's city, but older than the newest SEARCH_RANKED_MAX other matches.
    let mut half = record("r-half", "Harbor fees rise", 0, &[city(5_128_581)]);
    half.body_text = "Fees at the harbor rise; the lighthouse is closed".into();
    let mut records = vec![best, half];
    for i in 0..SEARCH_RANKED_MAX {
        let mut r = record(&format!("r{i}"), &format!("Story number {i}"), 1, &[]);
        r.body_text = format!("Story number {i} mentions the harbor lighthouse once among many other words.");
        records.push(r);
    }
    let clusters = vec![ClusterChoice::New; records.len()];
    store.upsert_items(feed, media, &records, &clusters, T0).await.unwrap();
    let q = SearchQuery {
        terms: vec!["harbor".into(), "lighthouse".into()],
        ..SearchQuery::default()
    };
    let first = store.search_news(&q, 0, 3).await.unwrap();
    assert_eq!(
        titles_of(&first),
        [
            "Harbor lighthouse reopens",
            &format!("Story number {}", SEARCH_RANKED_MAX - 1),
            &format!("Story number {}", SEARCH_RANKED_MAX - 2)
        ],
        "the title that holds both words first, then the newest others (a title with one word is no title match)"
    );
    let last = store.search_news(&q, SEARCH_RANKED_MAX - 5, 10).await.unwrap();
    assert_eq!(last.len(), 5, "paging ends at the cap");
    assert!(store.search_news(&q, SEARCH_RANKED_MAX, 10).await.unwrap().is_empty());
    // A page that spans both tiers, and a filter that reads the stories.
    let spanning = store.search_news(&q, 0, 2).await.unwrap();
    assert_eq!(spanning.len(), 2);
    let mut in_canada = q.clone();
    in_canada.filter.country = Some("CA".into());
    assert!(store.search_news(&in_canada, 0, 10).await.unwrap().is_empty());
    // D426's bound: the reader's place lifts a story only from its tier's newest matches.
    let near = SearchQuery {
        near: Some(city(5_128_581)),
        ..q.clone()
    };
    assert_eq!(
        titles_of(&store.search_news(&near, 0, 2).await.unwrap()),
        [
            "Harbor lighthouse reopens",
            &format!("Story number {}", SEARCH_RANKED_MAX - 1)
        ],
        "a story of the reader's place past its tier's newest SEARCH_RANKED_MAX is not lifted"
    );
}

/// D426: with the reader's place, the stories placed there come first (title matches,
/// then the others), then every other match as in D412, none twice, across pages; the
/// reader's place filters nothing, and a place filter makes it moot.
pub async fn d426_search_ranks_the_readers_place_first(store: &dyn Store) {
    let (media, feed) = one_feed(store, "near", "US").await;
    let home = city(5_128_581);
    let away = city(4_140_963);
    // Stored oldest first: each record is newer than the one before.
    let mut records = Vec::new();
    for (identity, title, body, place) in [
        ("n-home-title", "Ferry schedule changes", "", &home),
        ("n-away-title-old", "Ferry fares rise", "", &away),
        ("n-home-body", "Harbor news", "The ferry stops at night.", &home),
        ("n-away-body", "Waterfront news", "A ferry was late.", &away),
        ("n-away-title", "Ferry crew honored", "", &away),
        ("n-island-body", "Island news", "No ferry today.", &away),
    ] {
        let mut r = record(identity, title, 0, std::slice::from_ref(place));
        if !body.is_empty() {
            r.summary = body.into();
            r.body_text = body.into();
        }
        records.push(r);
    }
    let clusters = vec![ClusterChoice::New; records.len()];
    store.upsert_items(feed, media, &records, &clusters, T0).await.unwrap();
    let q = SearchQuery {
        terms: vec!["ferry".into()],
        near: Some(home.clone()),
        ..SearchQuery::default()
    };
    let all = store.search_news(&q, 0, 10).await.unwrap();
    assert_eq!(
        titles_of(&all),
        [
            "Ferry schedule changes",
            "Harbor news",
            "Ferry crew honored",
            "Ferry fares rise",
            "Island news",
            "Waterfront news"
        ],
        "the reader's place first (title, then body), then the rest as D412 orders it, each once"
    );
    let mut paged = Vec::new();
    for offset in (0..6).step_by(2) {
        paged.extend(store.search_news(&q, offset, 2).await.unwrap());
    }
    assert_eq!(
        titles_of(&paged),
        titles_of(&all),
        "pages of two split the tiers without a gap or a repeat"
    );
    let one_past_near = store.search_news(&q, 1, 2).await.unwrap();
    assert_eq!(titles_of(&one_past_near), ["Harbor news", "Ferry crew honored"]);
    let anywhere = SearchQuery {
        near: None,
        ..q.clone()
    };
    assert_eq!(
        titles_of(&store.search_news(&anywhere, 0, 10).await.unwrap()),
        [
            "Ferry crew honored",
            "Ferry fares rise",
            "Ferry schedule changes",
            "Island news",
            "Waterfront news",
            "Harbor news"
        ],
        "without a reader's place, D412's order"
    );
    let filtered = SearchQuery {
        place: Some(away.clone()),
        ..q.clone()
    };
    assert_eq!(
        titles_of(&store.search_news(&filtered, 0, 10).await.unwrap()),
        [
            "Ferry crew honored",
            "Ferry fares rise",
            "Island news",
            "Waterfront news"
        ],
        "a place filter keeps its own place's stories, and the reader's place orders nothing"
    );
    let mut in_canada = q.clone();
    in_canada.filter.country = Some("CA".into());
    assert!(
        store.search_news(&in_canada, 0, 10).await.unwrap().is_empty(),
        "filters still apply to the reader's place"
    );
}

/// D430: a search with a place, a language, a country, a category or a time, over more
/// matches than a read of either list holds (SQLite walks the words' and the filters'
/// lists in batches), gives what filtering every match would: title matches first, each
/// tier newest first, pages without gaps; the reader's place first among each tier's
/// newest [`SEARCH_RANKED_MAX`](crate::content::SEARCH_RANKED_MAX) matches.
pub async fn d430_filtered_search_over_many_matches_is_exact(store: &dyn Store) {
    let (media, feed) = one_feed(store, "many", "US").await;
    let (small, big) = (city(5_128_581), city(4_140_963));
    const N: usize = 2_200;
    // Stored oldest first, so a record's id grows with its index.
    let mut records = Vec::with_capacity(N);
    for i in 0..N {
        let mut places = Vec::new();
        if i % 97 == 5 {
            places.push(small.clone());
        }
        if i.is_multiple_of(3) {
            places.push(big.clone());
        }
        let title = if i % 2 == 0 {
            format!("Ferry report {i}")
        } else {
            format!("Harbor report {i}")
        };
        let mut r = record(&format!("many-{i}"), &title, i as i64, &places);
        r.summary = if i.is_multiple_of(61) {
            format!("{title}. The ferry ran late past the lighthouse.")
        } else {
            format!("{title}. The ferry ran late.")
        };
        r.body_text = r.summary.clone();
        if i % 50 == 7 {
            r.lang = "fr".into();
        }
        if i.is_multiple_of(7) {
            r.category_id = "sports".into();
        }
        records.push(r);
    }
    for chunk in records.chunks(200) {
        let clusters = vec![ClusterChoice::New; chunk.len()];
        store.upsert_items(feed, media, chunk, &clusters, T0).await.unwrap();
    }
    let in_title = |i: usize| i.is_multiple_of(2);
    let has = |i: usize, place: &PlaceKey| records[i].places.contains(place);
    // Title matches newest first, then the others newest first.
    let ranked = |keep: &dyn Fn(usize) -> bool| -> Vec<String> {
        let newest = (0..N).rev().filter(|&i| keep(i));
        let (title, rest): (Vec<usize>, Vec<usize>) = newest.partition(|&i| in_title(i));
        title
            .into_iter()
            .chain(rest)
            .map(|i| records[i].title.clone())
            .collect()
    };
    let page = |q: &SearchQuery, offset: i64, limit: i64| {
        let q = q.clone();
        async move {
            let rows = store.search_news(&q, offset, limit).await.unwrap();
            rows.into_iter().map(|r| r.title).collect::<Vec<_>>()
        }
    };
    let window = |all: Vec<String>, offset: usize, limit: usize| -> Vec<String> {
        all.into_iter().skip(offset).take(limit).collect()
    };
    let ferry = SearchQuery {
        terms: vec!["ferry".into()],
        ..SearchQuery::default()
    };

    let in_small = SearchQuery {
        place: Some(small.clone()),
        ..ferry.clone()
    };
    let expected = ranked(&|i| has(i, &small));
    assert_eq!(expected.len(), 23);
    assert_eq!(
        page(&in_small, 0, 50).await,
        expected,
        "a small place among many matches"
    );

    let in_big = SearchQuery {
        place: Some(big.clone()),
        ..ferry.clone()
    };
    let expected = ranked(&|i| has(i, &big));
    for offset in [0, 30, 350, 360, 700] {
        assert_eq!(
            page(&in_big, offset, 30).await,
            window(expected.clone(), offset as usize, 30),
            "a big place's page at {offset}, across the tiers"
        );
    }

    let mut french = ferry.clone();
    french.filter.lang = Some("fr".into());
    assert_eq!(page(&french, 0, 100).await, ranked(&|i| i % 50 == 7), "a language");

    let mut everything = in_big.clone();
    everything.filter.lang = Some("en".into());
    everything.filter.country = Some("US".into());
    everything.category = Some("sports".into());
    everything.since_ms = Some(records[600].publish_time_ms);
    let expected = ranked(&|i| has(i, &big) && i % 50 != 7 && i.is_multiple_of(7) && i >= 600);
    assert_eq!(page(&everything, 0, 200).await, expected, "every filter at once");
    let mut in_canada = in_small.clone();
    in_canada.filter.country = Some("CA".into());
    assert!(page(&in_canada, 0, 50).await.is_empty(), "no story of the country");

    // A filter every story passes: as many matches as the words alone (D431 on PostgreSQL:
    // walked, not listed).
    let mut at_home = ferry.clone();
    at_home.filter.country = Some("US".into());
    for offset in [0, 970] {
        assert_eq!(
            page(&at_home, offset, 30).await,
            window(ranked(&|_| true), offset as usize, 30),
            "a filter every story passes, page at {offset}"
        );
    }

    // The reader's place first, among each tier's newest 1,000 matches only: for a word in
    // every story (ferry) and one in half of them, always in the title (harbor).
    // And for a word in fewer stories than a tier's 1,000 (lighthouse, D431 on PostgreSQL:
    // listed, not walked), with the big place.
    let harbor = |i: usize| !i.is_multiple_of(2);
    let every = |_: usize| true;
    let lighthouse = |i: usize| i.is_multiple_of(61);
    let nowhere = |_: usize| false;
    // Each word: the stories it matches, those of them with it in the title, the place.
    type Which<'a> = &'a dyn Fn(usize) -> bool;
    let words: [(&str, Which, Which, &PlaceKey); 3] = [
        ("ferry", &every, &in_title, &small),
        ("harbor", &harbor, &harbor, &small),
        ("lighthouse", &lighthouse, &nowhere, &big),
    ];
    for (word, matches, titled, place) in words {
        let near = SearchQuery {
            terms: vec![word.into()],
            near: Some(place.clone()),
            ..SearchQuery::default()
        };
        let newest_of_tier = |title: bool| -> Vec<usize> {
            (0..N)
                .rev()
                .filter(|&i| matches(i) && titled(i) == title)
                .take(1_000)
                .collect()
        };
        let mut expected: Vec<usize> = Vec::new();
        for title in [true, false] {
            expected.extend(newest_of_tier(title).into_iter().filter(|&i| has(i, place)));
        }
        let first: std::collections::HashSet<usize> = expected.iter().copied().collect();
        assert!(!first.is_empty(), "{word}: some matches are in the place");
        for title in [true, false] {
            expected.extend(
                (0..N)
                    .rev()
                    .filter(|&i| matches(i) && titled(i) == title && !first.contains(&i)),
            );
        }
        let expected: Vec<String> = expected.into_iter().map(|i| records[i].title.clone()).collect();
        let placed_titles =
            |of: &dyn Fn(usize) -> bool| (0..N).filter(|&i| of(i) && titled(i) && has(i, place)).count();
        if word != "lighthouse" {
            assert!(
                placed_titles(&|i| matches(i)) > placed_titles(&|i| first.contains(&i)),
                "{word}: some of the place's title matches are older than the tier's newest 1,000"
            );
        }
        for offset in [0, 15, 40] {
            assert_eq!(
                page(&near, offset, 20).await,
                window(expected.clone(), offset as usize, 20),
                "{word}: the reader's place first, page at {offset}"
            );
        }
    }
}

fn titles_of(rows: &[crate::content::NewsRow]) -> Vec<&str> {
    rows.iter().map(|r| r.title.as_str()).collect()
}

pub async fn content_generation_counts_writes_readers_see(store: &dyn Store) {
    let g0 = store.content_generation();
    let (media, feed) = one_feed(store, "generation", "US").await;
    let g1 = store.content_generation();
    assert!(g1 > g0, "importing a publisher is a change readers see");
    store
        .upsert_items(feed, media, &[record("g1", "One", 0, &[])], &[ClusterChoice::New], T0)
        .await
        .unwrap();
    let g2 = store.content_generation();
    assert!(g2 > g1, "storing items is");
    let claimed = store.claim_due_feeds(T0 + 60_000, T0 + 120_000, 10).await.unwrap();
    assert!(!claimed.is_empty());
    let record = FetchRecord {
        etag: None,
        ..fetched(T0 + 61_000, 304, 0)
    };
    store.record_fetch(feed, &record).await.unwrap();
    assert_eq!(store.content_generation(), g2, "fetch bookkeeping is not");
    store
        .list_news(&Listing::Latest, &ListFilter::default(), None, 5)
        .await
        .unwrap();
    assert_eq!(store.content_generation(), g2, "reads are not");
    store.remove_feed(&feed.to_string()).await.unwrap();
    assert!(store.content_generation() > g2, "removing a feed is");
}

pub async fn publisher_search_and_detail(store: &dyn Store) {
    store
        .import_publishers(
            &[
                publisher(
                    "journal-de-quebec",
                    "Le Journal de Québec",
                    "CA",
                    "QC",
                    "Québec",
                    &["https://jq.example/f"],
                ),
                publisher(
                    "quincy-herald",
                    "Quincy Herald",
                    "US",
                    "MA",
                    "Quincy",
                    &["https://qh.example/f"],
                ),
            ],
            T0,
        )
        .await
        .unwrap();
    let found = store.search_media("quebec", 0, 10).await.unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].name, "Le Journal de Québec");
    assert_eq!((found[0].country.as_str(), found[0].admin_code.as_str()), ("CA", "QC"));
    let detail = store.media(found[0].media_id).await.unwrap().unwrap();
    assert_eq!(detail.about, "A test publisher");
    assert_eq!(detail.item_count, 0);
    assert!(store.media(MediaId(9_999_999)).await.unwrap().is_none());
    assert_eq!(store.search_media("q", 0, 10).await.unwrap().len(), 2);
    assert_eq!(store.search_media("q", 1, 10).await.unwrap().len(), 1);
}

pub async fn due_feeds_are_leased_once_and_released_by_a_fetch(store: &dyn Store) {
    store
        .import_publishers(
            &[publisher(
                "lease",
                "Lease",
                "US",
                "DC",
                "Washington",
                &["https://l.example/1", "https://l.example/2"],
            )],
            T0,
        )
        .await
        .unwrap();
    let first = store.claim_due_feeds(T0, T0 + 60_000, 10).await.unwrap();
    assert_eq!(first.len(), 2);
    assert_eq!(first[0].media.name, "Lease");
    assert!(
        store.claim_due_feeds(T0 + 1, T0 + 60_000, 10).await.unwrap().is_empty(),
        "leased feeds are not handed out twice"
    );
    let record = fetched(T0 + 5, 200, 3);
    store.record_fetch(first[0].feed_id, &record).await.unwrap();
    // An expired lease is claimable again; a fetched feed waits for its next due time.
    let later = store.claim_due_feeds(T0 + 120_000, T0 + 180_000, 10).await.unwrap();
    assert_eq!(
        later.iter().map(|f| f.feed_id).collect::<Vec<_>>(),
        vec![first[1].feed_id]
    );
    // At its next due time it comes back (with the other, whose lease ran out unrecorded).
    let due = store.claim_due_feeds(T0 + 1_800_000, T0 + 1_900_000, 10).await.unwrap();
    assert_eq!(due.len(), 2);
    assert_eq!(
        due[0].etag.as_deref(),
        Some("\"v1\""),
        "the validator is kept for a conditional GET"
    );
    let status = store
        .feeds()
        .await
        .unwrap()
        .into_iter()
        .find(|f| f.feed_id == first[0].feed_id)
        .unwrap();
    assert_eq!(
        (status.last_status, status.last_items, status.last_fetch_ms),
        (Some(200), 3, Some(T0 + 5))
    );
}

pub async fn d397_feed_health_counts_feeds_the_oldest_due_and_the_failing(store: &dyn Store) {
    assert_eq!(store.feed_health().await.unwrap(), FeedHealth::default(), "no feeds");
    store
        .import_publishers(
            &[publisher(
                "health",
                "Health",
                "US",
                "DC",
                "Washington",
                &["https://h.example/1", "https://h.example/2", "https://h.example/3"],
            )],
            T0,
        )
        .await
        .unwrap();
    let health = store.feed_health().await.unwrap();
    assert_eq!((health.feeds, health.failing), (3, 0));
    let oldest = health.oldest_due_ms.expect("new feeds are due");
    assert!(oldest <= T0, "new feeds are due at once: {oldest}");

    let claimed = store.claim_due_feeds(T0, T0 + 60_000, 10).await.unwrap();
    let mut failed = fetched(T0 + 5, 500, 0);
    failed.error = "HTTP 500".into();
    failed.consecutive_errors = 1;
    store.record_fetch(claimed[0].feed_id, &failed).await.unwrap();
    store
        .record_fetch(claimed[1].feed_id, &fetched(T0 + 5, 200, 3))
        .await
        .unwrap();
    store
        .record_fetch(claimed[2].feed_id, &fetched(T0 + 5, 200, 3))
        .await
        .unwrap();
    let health = store.feed_health().await.unwrap();
    assert_eq!((health.feeds, health.failing), (3, 1));
    assert!(
        health.oldest_due_ms.unwrap() > T0,
        "every feed is fetched and due later"
    );

    // A paused feed neither lags nor fails.
    store.set_feed_paused(claimed[0].feed_id, true, T0 + 10).await.unwrap();
    assert_eq!(store.feed_health().await.unwrap().failing, 0);
}

pub async fn d336_a_paused_feed_is_never_claimed_and_due_at_once_when_resumed(store: &dyn Store) {
    store
        .import_publishers(
            &[publisher(
                "pause",
                "Pause",
                "US",
                "DC",
                "Washington",
                &["https://p.example/1", "https://p.example/2"],
            )],
            T0,
        )
        .await
        .unwrap();
    let feeds = store.feeds().await.unwrap();
    assert!(feeds.iter().all(|f| !f.paused), "a new feed runs");
    let (paused, running) = (feeds[0].feed_id, feeds[1].feed_id);
    assert!(store.set_feed_paused(paused, true, T0).await.unwrap());
    assert!(
        !store.set_feed_paused(FeedId(987_654), true, T0).await.unwrap(),
        "an unknown feed says so"
    );
    let claimed = store.claim_due_feeds(T0, T0 + 60_000, 10).await.unwrap();
    assert_eq!(claimed.iter().map(|f| f.feed_id).collect::<Vec<_>>(), vec![running]);
    store.record_fetch(running, &fetched(T0 + 5, 200, 1)).await.unwrap();
    let listed = store.feeds().await.unwrap();
    assert!(listed.iter().find(|f| f.feed_id == paused).unwrap().paused);
    assert!(!listed.iter().find(|f| f.feed_id == running).unwrap().paused);
    // Both paused: nothing is claimed however late it is.
    assert!(store.set_feed_paused(running, true, T0 + 20).await.unwrap());
    assert!(
        store
            .claim_due_feeds(T0 + 10_000_000, T0 + 10_060_000, 10)
            .await
            .unwrap()
            .is_empty(),
        "paused feeds stay paused"
    );
    // Resumed: due now, although its schedule said T0 + 30 min.
    assert!(store.set_feed_paused(running, false, T0 + 30).await.unwrap());
    let back = store.claim_due_feeds(T0 + 30, T0 + 60_000, 10).await.unwrap();
    assert_eq!(back.iter().map(|f| f.feed_id).collect::<Vec<_>>(), vec![running]);
}

pub async fn removing_a_feed_removes_its_items_and_an_orphan_publisher(store: &dyn Store) {
    let (media, feed) = one_feed(store, "gone", "US").await;
    let (other, other_feed) = one_feed(store, "stays", "US").await;
    let id = store
        .upsert_items(
            feed,
            media,
            &[record("r1", "Goes away", 0, &[city(7)])],
            &[ClusterChoice::New],
            T0,
        )
        .await
        .unwrap()[0]
        .news_id();
    store
        .upsert_items(
            other_feed,
            other,
            &[record("r2", "Stays", 0, &[])],
            &[ClusterChoice::Join(own_cluster(id))],
            T0,
        )
        .await
        .unwrap();
    assert!(store.remove_feed("https://gone.example/feed.xml").await.unwrap());
    assert!(!store.remove_feed("https://gone.example/feed.xml").await.unwrap());
    assert!(store.news(id).await.unwrap().is_none());
    assert!(store.media(media).await.unwrap().is_none());
    assert!(
        store
            .search_news(
                &SearchQuery {
                    terms: vec!["goes".into()],
                    ..SearchQuery::default()
                },
                0,
                10
            )
            .await
            .unwrap()
            .is_empty()
    );
    let left = store.cluster_items(own_cluster(id), 10).await.unwrap();
    assert_eq!(left.len(), 1);
    assert_eq!(
        (left[0].cluster.size, left[0].cluster.media_count),
        (1, 1),
        "the cluster is recounted"
    );
    assert!(
        store.remove_feed(&other_feed.to_string()).await.unwrap(),
        "a feed can be removed by id"
    );
}

pub async fn known_hashes_report_stored_versions(store: &dyn Store) {
    let (media, feed) = one_feed(store, "hashes", "US").await;
    store
        .upsert_items(feed, media, &[record("k1", "One", 0, &[])], &[ClusterChoice::New], T0)
        .await
        .unwrap();
    let known = store.known_hashes(media, &["k1".into(), "k2".into()]).await.unwrap();
    assert_eq!(known, vec![("k1".to_string(), "h-k1-One".to_string())]);
}

pub async fn specials_round_trip(store: &dyn Store) {
    let s = Special {
        slug: "election-2026".into(),
        title: "Election 2026".into(),
        description: "Races near you".into(),
        query: "election".into(),
        news_ids: vec![NewsId(3), NewsId(1)],
    };
    store.put_special(&s, T0).await.unwrap();
    assert_eq!(store.special("election-2026").await.unwrap(), Some(s.clone()));
    let mut changed = s.clone();
    changed.title = "Election night".into();
    store.put_special(&changed, T0).await.unwrap();
    assert_eq!(store.specials().await.unwrap(), vec![changed]);
    assert!(store.remove_special("election-2026").await.unwrap());
    assert!(store.special("election-2026").await.unwrap().is_none());
}

/// D414: retention deletes the stories published before the cut, a step at a time, with
/// their places and full-text rows, recounts their clusters, and keeps saved stories.
pub async fn d414_retention_deletes_stories_before_the_cut_but_not_saved_ones(store: &dyn Store) {
    use crate::retention::{PRUNE_STEP, prune_stories};
    let (media, feed) = one_feed(store, "old-news", "US").await;
    // Old stories at hours 0..=PRUNE_STEP (one more than a step), a cluster that spans
    // the cut, and a new story after it.
    let old: Vec<NewsRecord> = (0..=PRUNE_STEP)
        .map(|i| record(&format!("old{i}"), &format!("Harbour archive {i}"), 0, &[city(7)]))
        .collect();
    let choices = vec![ClusterChoice::New; old.len()];
    let old_ids: Vec<NewsId> = store
        .upsert_items(feed, media, &old, &choices, T0)
        .await
        .unwrap()
        .iter()
        .map(|u| u.news_id())
        .collect();
    let spanning = old_ids[1];
    let newer = store
        .upsert_items(
            feed,
            media,
            &[record("new", "Harbour today", 48, &[city(7)])],
            &[ClusterChoice::Join(own_cluster(spanning))],
            T0,
        )
        .await
        .unwrap()[0]
        .news_id();
    let reader = store
        .start_guest_session(&crate::contract_support::request("keeper", "h-keeper", T0))
        .await
        .unwrap()
        .user
        .id;
    let kept = old_ids[PRUNE_STEP as usize];
    assert!(store.save_news(crate::UserId(reader), kept, T0).await.unwrap());
    let g = store.content_generation();

    let deleted = prune_stories(store, T0 + 24 * HOUR).await.unwrap();

    assert_eq!(deleted, PRUNE_STEP as u64, "every old story but the saved one");
    assert!(store.content_generation() > g, "readers' caches see the deletion");
    assert!(store.news(old_ids[0]).await.unwrap().is_none());
    assert!(store.news(kept).await.unwrap().is_some(), "a saved story stays");
    assert!(
        store.news(newer).await.unwrap().is_some(),
        "a story after the cut stays"
    );
    let place = store
        .list_news(&Listing::Places(vec![city(7)]), &ListFilter::default(), None, 10)
        .await
        .unwrap();
    assert_eq!(
        place.iter().map(|r| r.news_id).collect::<Vec<_>>(),
        vec![newer, kept],
        "the place's list holds only what is left"
    );
    let found = store
        .search_news(
            &SearchQuery {
                terms: vec!["harbour".into()],
                ..SearchQuery::default()
            },
            0,
            10,
        )
        .await
        .unwrap();
    assert_eq!(found.iter().map(|r| r.news_id).collect::<Vec<_>>(), vec![newer, kept]);
    let left = store.cluster_items(own_cluster(spanning), 10).await.unwrap();
    assert_eq!(left.iter().map(|r| r.news_id).collect::<Vec<_>>(), vec![newer]);
    assert_eq!(
        (left[0].cluster.size, left[0].cluster.media_count),
        (1, 1),
        "the cluster is recounted"
    );
    assert!(
        store
            .published_before(T0 + 24 * HOUR, None, 10)
            .await
            .unwrap()
            .iter()
            .all(|k| k.news_id == kept),
        "nothing else is left before the cut"
    );
    assert_eq!(
        prune_stories(store, T0 + 24 * HOUR).await.unwrap(),
        0,
        "a second run finds nothing"
    );
}

/// Upgrade tests of the search filters (D430 on SQLite, D431 on PostgreSQL), part 1:
/// three stories stored before the upgrade (a Denver story, a French one in Colorado, one
/// placed nowhere) by a US publisher.
pub async fn store_stories_before_the_filters_upgrade(store: &dyn Store) {
    let url = "https://before.example/feed.xml";
    store
        .import_publishers(&[publisher("before", "Before", "US", "CO", "Denver", &[url])], 0)
        .await
        .unwrap();
    let feed = store.feeds().await.unwrap().into_iter().find(|f| f.url == url).unwrap();
    let state = colorado();
    let mut french = record("b-2", "Ferry de nuit", 2, std::slice::from_ref(&state));
    french.lang = "fr".into();
    let records = [
        record("b-1", "Ferry to Denver", 1, &[denver(), state]),
        french,
        record("b-3", "Ferry elsewhere", 3, &[]),
    ];
    let clusters = vec![ClusterChoice::New; records.len()];
    store
        .upsert_items(feed.feed_id, feed.media_id, &records, &clusters, 0)
        .await
        .unwrap();
}

/// Part 2, after the upgrade: each filter finds the stories stored before it.
pub async fn the_filters_find_the_stories_stored_before_the_upgrade(store: &dyn Store) {
    let titles = |q: SearchQuery| async move {
        let rows = store.search_news(&q, 0, 10).await.unwrap();
        rows.into_iter().map(|r| r.title).collect::<Vec<_>>()
    };
    let ferry = SearchQuery {
        terms: vec!["ferry".into()],
        ..SearchQuery::default()
    };
    let in_denver = SearchQuery {
        place: Some(denver()),
        ..ferry.clone()
    };
    assert_eq!(titles(in_denver).await, ["Ferry to Denver"]);
    let in_colorado = SearchQuery {
        place: Some(colorado()),
        ..ferry.clone()
    };
    assert_eq!(titles(in_colorado).await, ["Ferry de nuit", "Ferry to Denver"]);
    let mut in_french = ferry.clone();
    in_french.filter.lang = Some("fr".into());
    assert_eq!(titles(in_french).await, ["Ferry de nuit"]);
    let mut in_us = ferry.clone();
    in_us.filter.country = Some("US".into());
    assert_eq!(titles(in_us).await.len(), 3);
    let mut in_canada = ferry;
    in_canada.filter.country = Some("CA".into());
    assert!(titles(in_canada).await.is_empty(), "no story of the country");
}

fn denver() -> PlaceKey {
    PlaceKey::City(CityId(5_419_384))
}

fn colorado() -> PlaceKey {
    PlaceKey::State {
        country: "US".into(),
        admin_code: "CO".into(),
    }
}
