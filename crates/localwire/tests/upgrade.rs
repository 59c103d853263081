//! Upgrades (issue 30, D400): a data directory written by an earlier release (kept as a
//! `localwire backup` in `tests/fixtures/`, made by `make_upgrade_fixture.py` with that
//! release's binary) is put back with `localwire restore`, and this release starts on it:
//! the migrations run, and the reader's session, saves, follow and reaction are there.

mod support;

use serde_json::{Value, json};
use std::path::PathBuf;
use support::{Server, bin, saved_ids, temp_dir};

fn fixtures() -> Vec<(PathBuf, Value)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut found: Vec<(PathBuf, Value)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| {
            let expected = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
            (p.with_extension("tar"), expected)
        })
        .collect();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

#[test]
fn a_data_directory_from_an_earlier_release_migrates_on_start_and_keeps_its_readers_things() {
    let all = fixtures();
    assert!(!all.is_empty(), "at least one release's fixture is kept");
    for (tar, expected) in all {
        let dir = temp_dir("upgrade");
        let out = bin()
            .arg("restore")
            .arg(&tar)
            .arg("--data-dir")
            .arg(&dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

        // The fixture's guest has been idle since the fixture was made: keep idle guests.
        let server = Server::start(&dir, &["--guest-idle-days", "0"]);
        let release = expected["release"].as_str().unwrap();
        let device = expected["device"].as_str().unwrap();
        let token = expected["token"].as_str().unwrap();
        let mut saved = saved_ids(&server, device, token);
        saved.sort_unstable();
        let mut want: Vec<i64> = expected["saved"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap())
            .collect();
        want.sort_unstable();
        assert_eq!(saved, want, "{release}: the reader's saves, with their session");

        let followed = support::followed_ids(&server, device, token);
        assert_eq!(
            followed,
            vec![expected["followed"].as_i64().unwrap()],
            "{release}: the follow"
        );

        let (story, reaction) = (&expected["reaction"][0], &expected["reaction"][1]);
        let (status, body) = server.call(device, "/ugc/reactions", Some(token), json!({"news_id": story}));
        assert_eq!(status, 200, "{body}");
        assert_eq!(&body["data"]["mine"], reaction, "{release}: the reaction");

        for id in expected["some_stories"].as_array().unwrap() {
            let (status, body) = server.get(&format!("/api/news/detail?news_id={id}"));
            assert_eq!(status, 200, "{release}: story {id} opens: {body}");
            assert!(
                !body["data"]["news"]["title"].as_str().unwrap_or("").is_empty(),
                "{body}"
            );
        }
        let (status, body) = server.get("/healthz");
        assert_eq!(
            (status, &body["checks"]["database"]["status"]),
            (200, &json!("ok")),
            "{body}"
        );
        server.stop();
    }
}
