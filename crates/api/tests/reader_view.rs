//! ★ A block holds everywhere (issue 18, D270): a reader's blocked publishers and mutes are
//! left out of every public answer they get (each channel's feed, a story's cluster and
//! related stories, news and publisher search, the server-written first screens), their
//! follows are marked, and nobody else's answers change. The reader's own feeds (D271):
//! Following and Your topics. Through the real router, on SQLite and PostgreSQL.

mod support;

use serde_json::{Value, json};
use support::TestApp;
use support::seed::{Corpus, LEWISTON_ME, WASHINGTON};

async fn reader(app: &TestApp, device: &str) -> (Corpus, String) {
    let corpus = support::seed::seed(app.store.as_ref()).await;
    let (_, token) = app.guest(device).await;
    (corpus, token)
}

/// `GET /api{path}` as the web app asks it: with the reader's token, or without one.
async fn get_as(app: &TestApp, path: &str, token: Option<&str>) -> (reqwest::header::HeaderMap, Value) {
    let mut req = app.http.get(app.url(&format!("/api{path}")));
    if let Some(t) = token {
        req = req.header("token", t);
    }
    let res = req.send().await.expect("GET");
    assert_eq!(res.status().as_u16(), 200, "GET {path}");
    let headers = res.headers().clone();
    (headers, res.json().await.expect("json"))
}

async fn data(app: &TestApp, path: &str, token: Option<&str>) -> Value {
    get_as(app, path, token).await.1["data"].clone()
}

fn media_ids(list: &Value) -> Vec<i64> {
    list.as_array()
        .unwrap_or_else(|| panic!("a list: {list}"))
        .iter()
        .map(|n| n["media_id"].as_i64().unwrap())
        .collect()
}

fn titles(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|n| n["title"].as_str().unwrap().to_string())
        .collect()
}

async fn block(app: &TestApp, device: &str, token: &str, media_id: i64) {
    let (status, body) = app
        .call(device, "/user/media/block", Some(token), json!({"media_id": media_id}))
        .await;
    assert_eq!(status, 200, "{body}");
}

async fn mute(app: &TestApp, device: &str, token: &str, kind: &str, value: &str) {
    let (status, body) = app
        .call(
            device,
            "/user/mutes/add",
            Some(token),
            json!({"kind": kind, "value": value}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
}

async fn d270_a_blocked_publisher_is_in_no_channels_feed(app: &TestApp) {
    let (corpus, token) = reader(app, "dev-block").await;
    // Two blocked: the shared fire story shows its newest item (the Montréal paper's), so
    // in Washington's feeds only blocking both shows that a story falls back to an item
    // the reader may see.
    let blocked = [corpus.media["lewiston"].0, corpus.media["devoir"].0];
    let any_blocked = |list: &Value| media_ids(list).iter().any(|m| blocked.contains(m));
    let feeds = [
        "/news/feed?channel=latest&size=50".to_string(),
        "/news/feed?channel=top&size=50".to_string(),
        format!("/news/feed?channel=local&city_id={LEWISTON_ME}&size=50"),
        format!("/news/feed?channel=local&city_id={WASHINGTON}&size=50"),
        "/news/feed?channel=category&category=crime-safety".to_string(),
        "/news/feed?channel=location&location=US-ME&size=50".to_string(),
        format!("/news/feed?channel=location&location={WASHINGTON}"),
        "/news/feed?channel=special&special=metro".to_string(),
        "/news/feed?channel=special&special=picked".to_string(),
    ];
    for path in &feeds {
        let before = data(app, path, Some(&token)).await;
        assert!(any_blocked(&before["list"]), "the seed has a blocked one in {path}");
    }
    for media_id in blocked {
        block(app, "dev-block", &token, media_id).await;
    }
    for path in &feeds {
        let after = data(app, path, Some(&token)).await;
        assert!(!any_blocked(&after["list"]), "{path}: {}", after["list"]);
        // Everyone else still sees them: no token at all.
        let public = data(app, path, None).await;
        assert!(any_blocked(&public["list"]), "{path} without a token");
    }
    let fire = data(app, "/news/feed?channel=category&category=crime-safety", Some(&token)).await;
    assert_eq!(
        titles(&fire["list"]),
        ["Warehouse fire downtown"],
        "the story shows the item the reader may see"
    );
    let (_, other) = app.guest("dev-block-other").await;
    let theirs = data(app, "/news/feed?channel=latest&size=50", Some(&other)).await;
    assert!(any_blocked(&theirs["list"]), "another reader is unaffected");
    // The publisher's own channel is empty for the reader who blocked it.
    let lewiston = blocked[0];
    let own = data(
        app,
        &format!("/news/feed?channel=media&media_id={lewiston}"),
        Some(&token),
    )
    .await;
    assert_eq!(own["list"], json!([]));
    assert_eq!(own["context"]["media"]["media_id"], lewiston, "its page still names it");
    // Unblocking brings it back at once.
    let (status, _) = app
        .call(
            "dev-block",
            "/user/media/unblock",
            Some(&token),
            json!({"media_id": lewiston}),
        )
        .await;
    assert_eq!(status, 200);
    let back = data(app, "/news/feed?channel=latest&size=50", Some(&token)).await;
    assert!(media_ids(&back["list"]).contains(&lewiston));
}

async fn d270_a_page_of_a_blocked_feed_is_still_full_and_pages_without_gaps(app: &TestApp) {
    let (corpus, token) = reader(app, "dev-page").await;
    let capitol = corpus.media["capitol"].0;
    block(app, "dev-page", &token, capitol).await;
    // Latest is mostly the Capitol Ledger's: pages of 3 still have 3, and walking them
    // gives every other story once.
    let public = data(app, "/news/feed?channel=latest&size=50", None).await;
    let expected: Vec<String> = public["list"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["media_id"] != capitol)
        .map(|n| n["title"].as_str().unwrap().to_string())
        .collect();
    let mut seen = Vec::new();
    let mut token_param = String::new();
    for _ in 0..20 {
        let page = data(
            app,
            &format!("/news/feed?channel=latest&size=3&page_token={token_param}"),
            Some(&token),
        )
        .await;
        let list = titles(&page["list"]);
        seen.extend(list.clone());
        token_param = page["next_page_token"].as_str().unwrap().to_string();
        if token_param.is_empty() {
            break;
        }
        assert_eq!(list.len(), 3, "a page that goes on is full");
    }
    assert_eq!(seen, expected);
    // Ranked lists too: top in pages of 2.
    let top_public = data(app, "/news/feed?channel=top&size=50", None).await;
    let top_expected = top_public["list"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["media_id"] != capitol)
        .count();
    let mut top_seen = 0;
    let mut token_param = String::new();
    for _ in 0..30 {
        let page = data(
            app,
            &format!("/news/feed?channel=top&size=2&page_token={token_param}"),
            Some(&token),
        )
        .await;
        assert!(!media_ids(&page["list"]).contains(&capitol));
        top_seen += page["list"].as_array().unwrap().len();
        token_param = page["next_page_token"].as_str().unwrap().to_string();
        if token_param.is_empty() {
            break;
        }
    }
    assert_eq!(top_seen, top_expected);
}

async fn d270_a_storys_cluster_and_related_stories_leave_out_blocked_publishers(app: &TestApp) {
    let (corpus, token) = reader(app, "dev-cluster").await;
    let (capitol, lewiston) = (corpus.media["capitol"].0, corpus.media["lewiston"].0);
    let fire2 = corpus.id("fire-2").0;
    let path = format!("/news/detail?news_id={fire2}");
    let before = data(app, &path, Some(&token)).await;
    assert!(
        media_ids(&before["cluster"]).contains(&capitol),
        "{}",
        before["cluster"]
    );
    assert!(media_ids(&before["related"]).contains(&capitol));
    block(app, "dev-cluster", &token, capitol).await;
    let after = data(app, &path, Some(&token)).await;
    assert!(!media_ids(&after["cluster"]).contains(&capitol), "full coverage");
    assert!(!media_ids(&after["related"]).contains(&capitol), "related stories");
    assert!(
        !after["cluster"].as_array().unwrap().is_empty(),
        "the French item stays"
    );
    // A story the reader opens from a blocked publisher is still shown (they asked).
    block(app, "dev-cluster", &token, lewiston).await;
    let own = data(app, &path, Some(&token)).await;
    assert_eq!(own["news"]["news_id"], fire2);
}

async fn d270_search_leaves_out_blocked_publishers_and_muted_stories(app: &TestApp) {
    let (corpus, token) = reader(app, "dev-search").await;
    let lewiston = corpus.media["lewiston"].0;
    let before = data(app, "/search/news?q=fire", Some(&token)).await;
    assert!(media_ids(&before["list"]).contains(&lewiston));
    block(app, "dev-search", &token, lewiston).await;
    let after = data(app, "/search/news?q=fire", Some(&token)).await;
    assert!(!media_ids(&after["list"]).contains(&lewiston), "{}", after["list"]);
    let publishers = data(app, "/search/media?q=lewiston", Some(&token)).await;
    assert_eq!(
        publishers["list"],
        json!([]),
        "a blocked publisher is not found by name"
    );
    let public = data(app, "/search/media?q=lewiston", None).await;
    assert_eq!(media_ids(&public["list"]), [lewiston]);
    // A mute leaves the other matches: "Council notes …" go, the council vote stays.
    let council = titles(&data(app, "/search/news?q=council", Some(&token)).await["list"]);
    assert!(council.iter().any(|t| t.starts_with("Council notes")), "{council:?}");
    mute(app, "dev-search", &token, "keyword", "notes").await;
    let muted = titles(&data(app, "/search/news?q=council", Some(&token)).await["list"]);
    assert!(!muted.is_empty(), "the vote is not muted");
    assert!(muted.iter().all(|t| !t.contains("notes")), "{muted:?}");
}

async fn d270_mutes_hide_keywords_authors_and_tags_from_feeds(app: &TestApp) {
    let (_, token) = reader(app, "dev-mute").await;
    let latest = "/news/feed?channel=latest&size=50";
    mute(app, "dev-mute", &token, "keyword", "council notes").await;
    let list = titles(&data(app, latest, Some(&token)).await["list"]);
    assert!(
        !list.is_empty() && list.iter().all(|t| !t.starts_with("Council notes")),
        "{list:?}"
    );
    mute(app, "dev-mute", &token, "author", "dana reyes").await;
    let list = titles(&data(app, latest, Some(&token)).await["list"]);
    assert!(!list.contains(&"Warehouse fire downtown".to_string()), "{list:?}");
    // Every seeded story carries the tag "Tag": muting it leaves nothing.
    mute(app, "dev-mute", &token, "tag", "tag").await;
    assert_eq!(data(app, latest, Some(&token)).await["list"], json!([]));
    assert!(!data(app, latest, None).await["list"].as_array().unwrap().is_empty());
}

async fn d270_follows_are_marked_in_items_and_publishers(app: &TestApp) {
    let (corpus, token) = reader(app, "dev-mark").await;
    let capitol = corpus.media["capitol"].0;
    let (status, _) = app
        .call(
            "dev-mark",
            "/user/media/follow",
            Some(&token),
            json!({"media_id": capitol}),
        )
        .await;
    assert_eq!(status, 200);
    let list = data(app, "/news/feed?channel=latest&size=50", Some(&token)).await["list"].clone();
    for item in list.as_array().unwrap() {
        let expected = i64::from(item["media_id"] == capitol);
        assert_eq!(item["media_follow"], expected, "{item}");
    }
    let media = data(app, &format!("/media/detail?media_id={capitol}"), Some(&token)).await;
    assert_eq!(media["follow_status"], 1);
    let public = data(app, &format!("/media/detail?media_id={capitol}"), None).await;
    assert_eq!(public["follow_status"], 0, "nobody else sees this reader's follow");
    let fire1 = corpus.id("fire-1").0;
    let story = data(app, &format!("/news/detail?news_id={fire1}"), Some(&token)).await;
    assert_eq!(
        (&story["media"]["follow_status"], &story["news"]["media_follow"]),
        (&json!(1), &json!(1))
    );
}

async fn d270_a_readers_answers_are_private_and_change_at_once(app: &TestApp) {
    let (corpus, token) = reader(app, "dev-private").await;
    let path = "/news/feed?channel=latest&size=50";
    let (public, _) = get_as(app, path, None).await;
    assert_eq!(public["cache-control"], "public, max-age=30");
    let (mine, _) = get_as(app, path, Some(&token)).await;
    assert_eq!(
        mine["cache-control"], "private, no-cache",
        "revalidated by the browser each time"
    );
    assert!(mine["vary"].to_str().unwrap().contains("token"));
    let before = mine["etag"].clone();
    block(app, "dev-private", &token, corpus.media["capitol"].0).await;
    let (after, _) = get_as(app, path, Some(&token)).await;
    assert_ne!(after["etag"], before, "the next ask after a block is a new answer");
}

async fn d270_the_server_written_first_screen_follows_the_readers_view(app: &TestApp) {
    let (corpus, token) = reader(app, "dev-page-view").await;
    block(app, "dev-page-view", &token, corpus.media["capitol"].0).await;
    let page = |cookie: Option<String>| async move {
        let mut req = app.http.get(app.url("/latest"));
        if let Some(c) = cookie {
            req = req.header("cookie", c);
        }
        req.send().await.unwrap().text().await.unwrap()
    };
    let everyone = page(None).await;
    assert!(
        everyone.contains("Council notes"),
        "the public page lists the Capitol Ledger"
    );
    let mine = page(Some(format!("token={token}"))).await;
    assert!(!mine.contains("Council notes"), "the reader's page does not");
    assert!(mine.contains("Lewiston mill"), "and lists the others");
    let again = page(None).await;
    assert!(
        again.contains("Council notes"),
        "the reader's page is not kept for others"
    );
}

async fn d271_the_following_feed_lists_the_followed_publishers_stories(app: &TestApp) {
    let (corpus, token) = reader(app, "dev-following").await;
    let (status, body) = app
        .call("dev-following", "/user/news/followingFeed", Some(&token), json!({}))
        .await;
    assert_eq!(
        (status, &body["data"]["list"]),
        (200, &json!([])),
        "no follows, no stories"
    );
    let devoir = corpus.media["devoir"].0;
    app.call(
        "dev-following",
        "/user/media/follow",
        Some(&token),
        json!({"media_id": devoir}),
    )
    .await;
    let mut seen = Vec::new();
    let mut page_token = String::new();
    for _ in 0..10 {
        let (status, body) = app
            .call(
                "dev-following",
                "/user/news/followingFeed",
                Some(&token),
                json!({"size": 2, "page_token": page_token}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        let list = &body["data"]["list"];
        assert!(media_ids(list).iter().all(|m| *m == devoir));
        assert!(list.as_array().unwrap().iter().all(|n| n["media_follow"] == 1));
        seen.extend(titles(list));
        page_token = body["data"]["next_page_token"].as_str().unwrap().to_string();
        if page_token.is_empty() {
            break;
        }
    }
    // fire-3 and the three Montréal items.
    assert_eq!(seen.len(), 4, "{seen:?}");
    let (status, body) = app
        .call(
            "dev-following",
            "/user/news/followingFeed",
            Some(&token),
            json!({"size": 0}),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    let (status, _) = app
        .call("dev-following", "/user/news/followingFeed", None, json!({}))
        .await;
    assert_eq!(status, 401);
}

async fn d271_your_topics_lists_stories_of_followed_categories_and_tags(app: &TestApp) {
    let (_, token) = reader(app, "dev-topics").await;
    let (status, body) = app
        .call("dev-topics", "/user/news/topicsFeed", Some(&token), json!({}))
        .await;
    assert_eq!((status, &body["data"]["list"]), (200, &json!([])));
    app.call(
        "dev-topics",
        "/user/topics/follow",
        Some(&token),
        json!({"kind": "category", "value": "politics"}),
    )
    .await;
    let (_, body) = app
        .call("dev-topics", "/user/news/topicsFeed", Some(&token), json!({"size": 50}))
        .await;
    let list = body["data"]["list"].as_array().unwrap();
    assert!(!list.is_empty());
    assert!(list.iter().all(|n| n["category_id"] == "politics"), "{list:?}");
    let (_, body) = app
        .call(
            "dev-topics",
            "/user/topics/follow",
            Some(&token),
            json!({"kind": "tag", "value": "TAG"}),
        )
        .await;
    assert_eq!(body["code"], 0, "{body}");
    let (_, body) = app
        .call("dev-topics", "/user/news/topicsFeed", Some(&token), json!({"size": 50}))
        .await;
    let everything = body["data"]["list"].as_array().unwrap().len();
    assert!(everything > list.len(), "a followed tag (any case) adds its stories");
}

fn reasons(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap_or_else(|| panic!("a list: {list}"))
        .iter()
        .map(|n| n["reason"].as_str().unwrap().to_string())
        .collect()
}

/// D385: the reader's own feeds say why (a publisher or a topic they follow); the public
/// lists say their own rule to every reader, so a reader's follows never reach an answer
/// another reader is given from the read cache.
async fn d385_a_followed_publishers_story_says_so_and_public_reasons_are_everyones(app: &TestApp) {
    let (corpus, token) = reader(app, "dev-why").await;
    let devoir = corpus.media["devoir"].0;
    let (status, body) = app
        .call(
            "dev-why",
            "/user/media/follow",
            Some(&token),
            json!({"media_id": devoir}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    app.call(
        "dev-why",
        "/user/topics/follow",
        Some(&token),
        json!({"kind": "category", "value": "politics"}),
    )
    .await;
    let (_, body) = app
        .call("dev-why", "/user/news/followingFeed", Some(&token), json!({"size": 50}))
        .await;
    let following = &body["data"]["list"];
    assert!(!following.as_array().unwrap().is_empty(), "{body}");
    assert!(
        reasons(following).iter().all(|r| r == "followed_publisher"),
        "{following}"
    );
    let (_, body) = app
        .call("dev-why", "/user/news/topicsFeed", Some(&token), json!({"size": 50}))
        .await;
    let topics = &body["data"]["list"];
    assert!(!topics.as_array().unwrap().is_empty(), "{body}");
    assert!(reasons(topics).iter().all(|r| r == "followed_topic"), "{topics}");

    // The same publisher's story in the public latest list: marked followed for this reader
    // (media_follow), listed as the latest for them as for everyone.
    let path = "/news/feed?channel=latest&size=50";
    let mine = data(app, path, Some(&token)).await["list"].clone();
    let theirs = data(app, path, None).await["list"].clone();
    let followed_in_mine: Vec<&Value> = mine
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["media_id"] == devoir)
        .collect();
    assert!(!followed_in_mine.is_empty());
    assert!(
        followed_in_mine
            .iter()
            .all(|n| n["media_follow"] == 1 && n["reason"] == "latest")
    );
    assert!(
        reasons(&mine)
            .iter()
            .chain(reasons(&theirs).iter())
            .all(|r| r == "latest")
    );
    assert!(
        theirs.as_array().unwrap().iter().all(|n| n["media_follow"] == 0),
        "nothing of the reader's reaches the shared answer"
    );
}

engine_tests!(
    d385_a_followed_publishers_story_says_so_and_public_reasons_are_everyones,
    d270_a_blocked_publisher_is_in_no_channels_feed,
    d270_a_page_of_a_blocked_feed_is_still_full_and_pages_without_gaps,
    d270_a_storys_cluster_and_related_stories_leave_out_blocked_publishers,
    d270_search_leaves_out_blocked_publishers_and_muted_stories,
    d270_mutes_hide_keywords_authors_and_tags_from_feeds,
    d270_follows_are_marked_in_items_and_publishers,
    d270_a_readers_answers_are_private_and_change_at_once,
    d270_the_server_written_first_screen_follows_the_readers_view,
    d271_the_following_feed_lists_the_followed_publishers_stories,
    d271_your_topics_lists_stories_of_followed_categories_and_tags,
);
