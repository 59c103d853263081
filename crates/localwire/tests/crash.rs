//! Crash safety on SQLite (issue 30): `kill -9` at random moments, during readers' writes
//! and during the start-up ingestion, 20 times over one data directory. After every
//! restart each write that was answered (HTTP 200, code 0) is there, the sessions still
//! work, and at the end every database passes `PRAGMA integrity_check` and the demo's
//! stories are stored once each.
//!
//! What a crash may lose, by design (D165): a guest answered before its row was written,
//! which has nothing in it yet; any later call of that guest waits for the write, so a
//! guest with an answered write is never lost. Calls without an answer may or may not
//! have happened; the check allows either.

mod support;

use serde_json::json;
use std::collections::{BTreeMap, BTreeSet};
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use support::{Server, bin, code_zero, latest_ids, rand_below, temp_dir};

const ROUNDS: usize = 20;
/// Every reader here calls from 127.0.0.1: the per-address call limit (D357) is off.
const SERVE: &[&str] = &["--demo", "--calls-per-second", "0"];
const READERS: usize = 3;
/// The built-in demo corpus stores this many stories (444 items, two repeats in their feed).
const DEMO_STORIES: i64 = 442;

/// What the test knows of one reader's thing: set by an answered call, or unknown after
/// a call that got no answer.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Known<T> {
    Is(T),
    Unsure,
}

#[derive(Default)]
struct Reader {
    device: String,
    token: String,
    saved: BTreeMap<i64, Known<bool>>,
    reaction: BTreeMap<i64, Known<Option<&'static str>>>,
    followed: BTreeMap<i64, Known<bool>>,
    answered: usize,
}

/// One reader's calls until the server stops answering: random saves, reactions and
/// follows over a small pool, each recorded as answered or unsure.
fn write_until_gone(addr: &str, reader: &Mutex<Reader>, stories: &[i64], media: &[i64], stop: &AtomicBool) {
    while !stop.load(Ordering::Relaxed) {
        let (device, token) = {
            let r = reader.lock().unwrap();
            (r.device.clone(), r.token.clone())
        };
        let story = stories[rand_below(stories.len())];
        let (status, body) = match rand_below(3) {
            0 => {
                let save = rand_below(2) == 0;
                let path = if save {
                    "/user/news/collect"
                } else {
                    "/user/news/unCollect"
                };
                reader.lock().unwrap().saved.insert(story, Known::Unsure);
                let (status, body) = support::call(addr, &device, path, Some(&token), json!({"news_id": story}));
                if code_zero(status, &body) {
                    reader.lock().unwrap().saved.insert(story, Known::Is(save));
                }
                (status, body)
            }
            1 => {
                let reaction = [Some("like"), Some("love"), None][rand_below(3)];
                reader.lock().unwrap().reaction.insert(story, Known::Unsure);
                let (status, body) = support::call(
                    addr,
                    &device,
                    "/ugc/react",
                    Some(&token),
                    json!({"news_id": story, "reaction": reaction}),
                );
                if code_zero(status, &body) {
                    reader.lock().unwrap().reaction.insert(story, Known::Is(reaction));
                }
                (status, body)
            }
            _ => {
                let id = media[rand_below(media.len())];
                let follow = rand_below(2) == 0;
                let path = if follow {
                    "/user/media/follow"
                } else {
                    "/user/media/unfollow"
                };
                reader.lock().unwrap().followed.insert(id, Known::Unsure);
                let (status, body) = support::call(addr, &device, path, Some(&token), json!({"media_id": id}));
                if code_zero(status, &body) {
                    reader.lock().unwrap().followed.insert(id, Known::Is(follow));
                }
                (status, body)
            }
        };
        if status == 0 {
            return; // killed
        }
        assert!(
            code_zero(status, &body),
            "a write failed while the server ran: {status} {body}"
        );
        reader.lock().unwrap().answered += 1;
    }
}

/// Every answered write of `reader` is what the restarted server says.
fn check_reader(server: &Server, reader: &Reader, round: usize) {
    let (device, token) = (reader.device.as_str(), Some(reader.token.as_str()));
    let (status, body) = server.call(device, "/user/news/collectList", token, json!({"size": 100}));
    assert!(
        code_zero(status, &body),
        "round {round}: reader {device} with {} answered writes lost its session: {status} {body}",
        reader.answered
    );
    let saved: BTreeSet<i64> = body["data"]["list"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| i["news_id"].as_i64())
        .collect();
    for (story, known) in &reader.saved {
        if let Known::Is(want) = known {
            assert_eq!(
                saved.contains(story),
                *want,
                "round {round}: {device}'s save of {story}"
            );
        }
    }
    for (story, known) in &reader.reaction {
        if let Known::Is(want) = known {
            let (status, body) = server.call(device, "/ugc/reactions", token, json!({"news_id": story}));
            assert!(code_zero(status, &body), "{status} {body}");
            assert_eq!(
                body["data"]["mine"].as_str(),
                *want,
                "round {round}: {device}'s reaction to {story}"
            );
        }
    }
    let followed: BTreeSet<i64> = support::followed_ids(server, device, &reader.token)
        .into_iter()
        .collect();
    for (id, known) in &reader.followed {
        if let Known::Is(want) = known {
            assert_eq!(followed.contains(id), *want, "round {round}: {device}'s follow of {id}");
        }
    }
}

/// Start `serve --demo` and kill it after `after`, whatever it is doing then (migrating,
/// loading the demo, ingesting, or serving).
fn kill_during_start(dir: &std::path::Path, after: Duration) {
    let mut child = bin()
        .args(["serve", "--demo", "--addr", "127.0.0.1:0", "--data-dir"])
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn kill_9_during_writes_and_ingestion_loses_no_answered_write_and_no_story_is_stored_twice() {
    let dir = temp_dir("crash");
    let server = Server::start(&dir, SERVE);
    let stories: Vec<i64> = latest_ids(&server, 40);
    let (_, body) = server.get("/api/news/feed?channel=latest&size=40&lang=en&country=US");
    let media: Vec<i64> = body["data"]["list"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| i["media_id"].as_i64())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    assert!(stories.len() >= 30 && media.len() >= 5, "{stories:?} {media:?}");
    let readers: Vec<Arc<Mutex<Reader>>> = (0..READERS)
        .map(|i| {
            let device = format!("crash-device-{i:02}-000000000000000000");
            let token = server.guest(&device);
            Arc::new(Mutex::new(Reader {
                device,
                token,
                ..Default::default()
            }))
        })
        .collect();
    server.kill();

    let started = Instant::now();
    for round in 0..ROUNDS {
        if round % 4 == 3 {
            // During the start: migrations, the demo load and the ingestion of its feeds.
            kill_during_start(&dir, Duration::from_millis(20 + rand_below(400) as u64));
        }
        let server = Server::start(&dir, SERVE);
        for reader in &readers {
            check_reader(&server, &reader.lock().unwrap(), round);
        }
        let stop = Arc::new(AtomicBool::new(false));
        let writers: Vec<_> = readers
            .iter()
            .map(|reader| {
                let (addr, reader, stories, media, stop) = (
                    server.addr.clone(),
                    reader.clone(),
                    stories.clone(),
                    media.clone(),
                    stop.clone(),
                );
                std::thread::spawn(move || write_until_gone(&addr, &reader, &stories, &media, &stop))
            })
            .collect();
        std::thread::sleep(Duration::from_millis(50 + rand_below(500) as u64));
        server.kill();
        for w in writers {
            w.join().unwrap();
        }
    }
    let answered: usize = readers.iter().map(|r| r.lock().unwrap().answered).sum();
    assert!(
        answered >= ROUNDS * READERS,
        "the readers wrote while the server ran: {answered}"
    );

    // The last start checks everything once more, then a clean stop.
    let server = Server::start(&dir, SERVE);
    for reader in &readers {
        check_reader(&server, &reader.lock().unwrap(), ROUNDS);
    }
    server.stop();
    support::assert_databases_whole(&dir);
    let content = rusqlite::Connection::open(dir.join("localwire-content.sqlite")).unwrap();
    let (stories, distinct): (i64, i64) = content
        .query_row(
            "SELECT count(*), count(DISTINCT media_id || ' ' || identity) FROM news_items",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(
        (stories, distinct),
        (DEMO_STORIES, DEMO_STORIES),
        "each demo story once"
    );
    eprintln!(
        "{ROUNDS} kills, {answered} answered writes checked after each, in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}
