//! The reader's own things through the real router, on SQLite and PostgreSQL (issue 18;
//! SPEC §4.6, §4.7, §7.5, §7.7–7.10): saved stories, history, reactions, follows, blocks.

mod support;

use api::reader::reactions::{GUEST_COUNTS_AFTER_MS, recount_once};
use serde_json::{Value, json};
use support::TestApp;

async fn reader(app: &TestApp, device: &str) -> (support::seed::Corpus, String) {
    let corpus = support::seed::seed(app.store.as_ref()).await;
    let (_, token) = app.guest(device).await;
    (corpus, token)
}

fn ids(list: &Value) -> Vec<i64> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|n| n["news_id"].as_i64().unwrap())
        .collect()
}

async fn spec_4_6_collect_is_idempotent_and_listed_newest_first_in_the_alternative_shape(app: &TestApp) {
    let (corpus, token) = reader(app, "dev-save").await;
    let (a, b) = (corpus.id("dc-3").0, corpus.id("dc-5").0);
    for id in [a, b, b] {
        let (status, body) = app
            .call("dev-save", "/user/news/collect", Some(&token), json!({"news_id": id}))
            .await;
        assert_eq!((status, &body["data"]["saved"]), (200, &json!(true)), "{body}");
    }
    let (status, body) = app
        .call("dev-save", "/user/news/collectList", Some(&token), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(ids(&body["data"]["list"]), [b, a], "newest saved first, each once");
    let first = &body["data"]["list"][0];
    for field in [
        "id",
        "news_id",
        "news_title",
        "news_content",
        "news_img_url",
        "create_time",
        "media",
    ] {
        assert!(first.get(field).is_some(), "§3 alternative shape has {field}: {first}");
    }
    assert_eq!(first["media"]["name"], "The Capitol Ledger");
    assert_eq!(body["data"]["next_page_no"], "");
    // Paging: one at a time, no gaps or repeats.
    let (_, page1) = app
        .call("dev-save", "/user/news/collectList", Some(&token), json!({"size": 1}))
        .await;
    let next = page1["data"]["next_page_no"].as_str().unwrap().to_string();
    assert!(!next.is_empty());
    let (_, page2) = app
        .call(
            "dev-save",
            "/user/news/collectList",
            Some(&token),
            json!({"size": 1, "page_no": next}),
        )
        .await;
    assert_eq!(
        [ids(&page1["data"]["list"]), ids(&page2["data"]["list"])].concat(),
        [b, a]
    );
    // Unsave twice is fine.
    for _ in 0..2 {
        let (status, _) = app
            .call("dev-save", "/user/news/unCollect", Some(&token), json!({"news_id": b}))
            .await;
        assert_eq!(status, 200);
    }
    let (_, body) = app
        .call("dev-save", "/user/news/collectList", Some(&token), json!({}))
        .await;
    assert_eq!(ids(&body["data"]["list"]), [a]);
}

async fn unknown_ids_bad_tokens_and_other_readers_are_refused(app: &TestApp) {
    let (corpus, token) = reader(app, "dev-bad").await;
    let (status, body) = app
        .call(
            "dev-bad",
            "/user/news/collect",
            Some(&token),
            json!({"news_id": 987654321}),
        )
        .await;
    assert_eq!((status, body["message"].as_str()), (404, Some("Not Found")));
    let (status, _) = app
        .call(
            "dev-bad",
            "/user/media/block",
            Some(&token),
            json!({"media_id": 987654}),
        )
        .await;
    assert_eq!(status, 404);
    let (status, _) = app
        .call(
            "dev-bad",
            "/user/news/collect",
            None,
            json!({"news_id": corpus.id("dc-1").0}),
        )
        .await;
    assert_eq!(status, 401, "a token is needed");
    let (status, body) = app
        .call(
            "dev-bad",
            "/user/news/collectList",
            Some(&token),
            json!({"page_no": "nope"}),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = app
        .call(
            "dev-bad",
            "/ugc/react",
            Some(&token),
            json!({"news_id": corpus.id("dc-1").0, "reaction": "meh"}),
        )
        .await;
    assert_eq!(status, 400);
    assert!(body["message"].as_str().unwrap().contains("like, love"), "{body}");
    // Another reader sees nothing of this one's.
    app.call(
        "dev-bad",
        "/user/news/collect",
        Some(&token),
        json!({"news_id": corpus.id("dc-1").0}),
    )
    .await;
    let (_, other) = app.guest("dev-other").await;
    let (_, body) = app
        .call("dev-other", "/user/news/collectList", Some(&other), json!({}))
        .await;
    assert_eq!(body["data"]["list"], json!([]));
}

async fn history_keeps_a_story_once_a_day_removes_one_and_clears(app: &TestApp) {
    let (corpus, token) = reader(app, "dev-read").await;
    let (a, b) = (corpus.id("dc-1").0, corpus.id("dc-2").0);
    for (id, want) in [(a, true), (b, true), (a, false)] {
        let (status, body) = app
            .call("dev-read", "/user/news/read", Some(&token), json!({"news_id": id}))
            .await;
        assert_eq!((status, &body["data"]["recorded"]), (200, &json!(want)));
    }
    let (_, body) = app
        .call("dev-read", "/user/news/readList", Some(&token), json!({}))
        .await;
    assert_eq!(ids(&body["data"]["list"]), [b, a]);
    let (_, body) = app
        .call("dev-read", "/user/news/readRemove", Some(&token), json!({"news_id": b}))
        .await;
    assert_eq!(body["data"]["removed"], 1);
    let (_, body) = app
        .call("dev-read", "/user/news/readList", Some(&token), json!({}))
        .await;
    assert_eq!(ids(&body["data"]["list"]), [a]);
    let (_, body) = app
        .call("dev-read", "/user/news/readClear", Some(&token), json!({}))
        .await;
    assert_eq!(body["data"]["removed"], 1);
    let (_, body) = app
        .call("dev-read", "/user/news/readList", Some(&token), json!({}))
        .await;
    assert_eq!(body["data"]["list"], json!([]));
}

async fn spec_7_7_one_reaction_per_reader_counted_per_story_and_listed(app: &TestApp) {
    let (corpus, t1) = reader(app, "dev-r1").await;
    let (_, t2) = app.guest("dev-r2").await;
    let story = corpus.id("dc-4").0;
    app.call(
        "dev-r1",
        "/ugc/react",
        Some(&t1),
        json!({"news_id": story, "reaction": "like"}),
    )
    .await;
    let (_, body) = app
        .call(
            "dev-r1",
            "/ugc/react",
            Some(&t1),
            json!({"news_id": story, "reaction": "love"}),
        )
        .await;
    assert_eq!(body["data"]["mine"], "love", "changing replaces");
    let (_, body) = app
        .call(
            "dev-r2",
            "/ugc/react",
            Some(&t2),
            json!({"news_id": story, "reaction": "love"}),
        )
        .await;
    // Both are guests made a moment ago: each sees its own reaction counted, not the
    // other's (D353: a guest counts for others after its first day).
    assert_eq!(body["data"]["counts"], json!({"love": 1}));
    assert_eq!(body["data"]["total"], 1);
    let (_, body) = app.call("dev-r1", "/ugc/reactionList", Some(&t1), json!({})).await;
    assert_eq!(ids(&body["data"]["list"]), [story]);
    assert_eq!(body["data"]["list"][0]["reaction"], "love");
    assert_eq!(body["data"]["next_max_id"], "");
    let (_, body) = app
        .call(
            "dev-r1",
            "/ugc/react",
            Some(&t1),
            json!({"news_id": story, "reaction": null}),
        )
        .await;
    assert_eq!(
        (&body["data"]["mine"], &body["data"]["total"]),
        (&Value::Null, &json!(0))
    );
    let (_, body) = app
        .call("dev-r2", "/ugc/reactions", Some(&t2), json!({"news_id": story}))
        .await;
    assert_eq!(body["data"]["mine"], "love");
}

/// D394: a story's `like_count` (feeds, the article, syndication) is its public reaction
/// count: set by each reaction call, and counted again hourly for guests who come of age.
async fn d394_like_count_follows_the_stories_public_reactions(app: &TestApp) {
    let (corpus, token) = reader(app, "dev-likes").await;
    let story = corpus.id("dc-5");
    let like_count = |app: &TestApp| {
        let store = app.store.clone();
        async move { store.news(story).await.unwrap().unwrap().like_count }
    };
    assert_eq!(like_count(app).await, 0);
    let (status, _) = app
        .call(
            "dev-likes",
            "/ugc/react",
            Some(&token),
            json!({"news_id": story.0, "reaction": "love"}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        like_count(app).await,
        0,
        "a guest made a moment ago does not count for others (D353)"
    );

    // A day later the hourly recount finds the guest's reaction and counts it.
    let later = domain::clock::now_ms() + GUEST_COUNTS_AFTER_MS + 3_600_000;
    assert!(recount_once(app.store.as_ref(), later).await.unwrap() >= 1);
    assert_eq!(like_count(app).await, 1);
    let body: Value = app
        .get(&format!("/api/news/detail?news_id={}", story.0))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(body["data"]["news"]["like_count"], 1, "{body}");

    // Taking it back is counted by the call itself, at once.
    app.call(
        "dev-likes",
        "/ugc/react",
        Some(&token),
        json!({"news_id": story.0, "reaction": null}),
    )
    .await;
    assert_eq!(like_count(app).await, 0);
    // Nothing recent is left for the recount to change back.
    recount_once(app.store.as_ref(), later).await.unwrap();
    assert_eq!(like_count(app).await, 0);
}

async fn spec_7_10_follows_and_blocks_are_idempotent_and_listed(app: &TestApp) {
    let (corpus, token) = reader(app, "dev-pub").await;
    let (capitol, casco) = (corpus.media["capitol"].0, corpus.media["casco"].0);
    for _ in 0..2 {
        let (status, body) = app
            .call(
                "dev-pub",
                "/user/media/follow",
                Some(&token),
                json!({"media_id": capitol}),
            )
            .await;
        assert_eq!((status, &body["data"]["follow_status"]), (200, &json!(1)));
    }
    let (_, body) = app
        .call("dev-pub", "/user/media/followList", Some(&token), json!({}))
        .await;
    let list = body["data"]["list"].as_array().unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(
        (&list[0]["media_id"], &list[0]["follow_status"]),
        (&json!(capitol), &json!(1))
    );
    app.call(
        "dev-pub",
        "/user/media/unfollow",
        Some(&token),
        json!({"media_id": capitol}),
    )
    .await;
    let (_, body) = app
        .call("dev-pub", "/user/media/followList", Some(&token), json!({}))
        .await;
    assert_eq!(body["data"]["list"], json!([]));

    for id in [capitol, casco, casco] {
        let (status, _) = app
            .call("dev-pub", "/user/media/block", Some(&token), json!({"media_id": id}))
            .await;
        assert_eq!(status, 200);
    }
    let (_, body) = app
        .call("dev-pub", "/user/media/blockList", Some(&token), json!({"size": 1}))
        .await;
    let first = &body["data"]["list"][0];
    assert_eq!(first["media_id"], casco, "newest blocked first");
    for field in ["media_id", "media_name", "icon_url", "home_url", "update_time"] {
        assert!(first.get(field).is_some(), "§3 Blocked media has {field}");
    }
    let next = body["data"]["token"].as_str().unwrap().to_string();
    let (_, body) = app
        .call(
            "dev-pub",
            "/user/media/blockList",
            Some(&token),
            json!({"size": 1, "page_no": next}),
        )
        .await;
    assert_eq!(body["data"]["list"][0]["media_id"], capitol);
    assert_eq!(body["data"]["token"], "");
    app.call(
        "dev-pub",
        "/user/media/unblock",
        Some(&token),
        json!({"media_id": casco}),
    )
    .await;
    let (_, body) = app
        .call("dev-pub", "/user/media/blockList", Some(&token), json!({}))
        .await;
    assert_eq!(body["data"]["list"].as_array().unwrap().len(), 1);
}

async fn topics_channels_and_mutes_are_validated_stored_and_listed(app: &TestApp) {
    let (_, token) = reader(app, "dev-set").await;
    let (status, body) = app
        .call(
            "dev-set",
            "/user/topics/follow",
            Some(&token),
            json!({"kind": "category", "value": "sports"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    app.call(
        "dev-set",
        "/user/topics/follow",
        Some(&token),
        json!({"kind": "tag", "value": " Snow days "}),
    )
    .await;
    let (_, body) = app.call("dev-set", "/user/topics/list", Some(&token), json!({})).await;
    let values: Vec<_> = body["data"]["list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["value"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(values.len(), 2);
    assert!(values.contains(&"Snow days".to_string()), "trimmed: {values:?}");
    for (payload, field) in [
        (json!({"kind": "category", "value": "knitting"}), "value"),
        (json!({"kind": "mood", "value": "x"}), "kind"),
    ] {
        let (status, body) = app.call("dev-set", "/user/topics/follow", Some(&token), payload).await;
        assert_eq!(status, 400);
        assert!(
            body["message"].as_str().unwrap().contains(&format!("`{field}`")),
            "{body}"
        );
    }

    let (status, body) = app
        .call(
            "dev-set",
            "/user/channels/set",
            Some(&token),
            json!({"channels": ["sports", "local", "top"]}),
        )
        .await;
    assert_eq!(
        (status, &body["data"]["channels"]),
        (200, &json!(["sports", "local", "top"]))
    );
    let (status, _) = app
        .call(
            "dev-set",
            "/user/channels/set",
            Some(&token),
            json!({"channels": ["sports", "casino"]}),
        )
        .await;
    assert_eq!(status, 400, "unknown channel");
    let (status, _) = app
        .call(
            "dev-set",
            "/user/channels/set",
            Some(&token),
            json!({"channels": ["sports", "sports"]}),
        )
        .await;
    assert_eq!(status, 400, "repeated channel");
    let (_, body) = app
        .call("dev-set", "/user/channels/list", Some(&token), json!({}))
        .await;
    assert_eq!(
        body["data"]["channels"],
        json!(["sports", "local", "top"]),
        "unchanged by refused calls"
    );

    let (status, body) = app
        .call(
            "dev-set",
            "/user/mutes/add",
            Some(&token),
            json!({"kind": "keyword", "value": "council"}),
        )
        .await;
    assert_eq!((status, body["data"]["list"].as_array().unwrap().len()), (200, 1));
    let (status, _) = app
        .call(
            "dev-set",
            "/user/mutes/add",
            Some(&token),
            json!({"kind": "keyword", "value": "x".repeat(101)}),
        )
        .await;
    assert_eq!(status, 400, "too long");
    let (_, body) = app
        .call(
            "dev-set",
            "/user/mutes/remove",
            Some(&token),
            json!({"kind": "keyword", "value": "council"}),
        )
        .await;
    assert_eq!(body["data"]["list"], json!([]));
}

async fn a_mute_preview_counts_todays_stories_it_would_hide(app: &TestApp) {
    let (_, token) = reader(app, "dev-preview").await;
    let (status, body) = app
        .call(
            "dev-preview",
            "/user/mutes/preview",
            Some(&token),
            json!({"kind": "keyword", "value": "zebra crossing"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["hidden_today"], 0);
    let looked = body["data"]["looked_at"].as_u64().unwrap();
    assert!(looked > 0, "the seed has stories from today");
    let (_, body) = app
        .call(
            "dev-preview",
            "/user/mutes/preview",
            Some(&token),
            json!({"kind": "keyword", "value": "council NOTES"}),
        )
        .await;
    let hidden = body["data"]["hidden_today"].as_u64().unwrap();
    assert!(hidden > 0 && hidden <= looked, "{body}");
}

engine_tests!(
    topics_channels_and_mutes_are_validated_stored_and_listed,
    a_mute_preview_counts_todays_stories_it_would_hide,
    spec_4_6_collect_is_idempotent_and_listed_newest_first_in_the_alternative_shape,
    unknown_ids_bad_tokens_and_other_readers_are_refused,
    history_keeps_a_story_once_a_day_removes_one_and_clears,
    spec_7_7_one_reaction_per_reader_counted_per_story_and_listed,
    d394_like_count_follows_the_stories_public_reactions,
    spec_7_10_follows_and_blocks_are_idempotent_and_listed,
);
