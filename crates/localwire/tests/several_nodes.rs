//! Several nodes (issue 30, D399): three `localwire serve` processes on one PostgreSQL
//! database behind nginx on loopback, as the README's deployment section describes.
//! A reader's session works on every node; what they do on one holds on the others at
//! once for writes and within the documented 5 s for what public reads apply (D270);
//! one node killed mid-load loses no answered write while the others go on. Each feed is
//! fetched once across the nodes, and each breaking story pushed to a browser once.
//! Skipped without `TEST_DATABASE_URL` or nginx (CI has both).

mod support;

use fake_providers::push::FakePushService;
use serde_json::json;
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use support::{Server, code_zero, latest_ids, saved_ids, temp_dir};

/// How long a node may apply a reader's old blocks and mutes to public reads after
/// another node changed them: the kept view's age (D270, `VIEW_TTL_MS`).
const VIEW_BOUND: Duration = Duration::from_secs(5);

const NGINX: &str = "/usr/sbin/nginx";

struct Nginx {
    child: Child,
    addr: String,
}

impl Nginx {
    fn start(dir: &Path, upstreams: &[&str]) -> Nginx {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let servers: String = upstreams
            .iter()
            .map(|a| format!("server {a} max_fails=1 fail_timeout=30s;"))
            .collect();
        let conf = format!(
            "worker_processes 1; daemon off; error_log {dir}/error.log; pid {dir}/nginx.pid;
             events {{ worker_connections 1024; }}
             http {{ access_log off;
               client_body_temp_path {dir}/body; proxy_temp_path {dir}/proxy; fastcgi_temp_path {dir}/fcgi;
               uwsgi_temp_path {dir}/uwsgi; scgi_temp_path {dir}/scgi;
               upstream localwire {{ {servers} keepalive 16; }}
               server {{ listen 127.0.0.1:{port};
                 location / {{ proxy_pass http://localwire; proxy_http_version 1.1;
                   proxy_set_header Connection \"\"; proxy_set_header Host $host;
                   proxy_next_upstream error timeout; }} }} }}",
            dir = dir.display()
        );
        std::fs::write(dir.join("nginx.conf"), conf).unwrap();
        let child = Command::new(NGINX)
            .arg("-p")
            .arg(dir)
            .arg("-c")
            .arg(dir.join("nginx.conf"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let addr = format!("127.0.0.1:{port}");
        let started = Instant::now();
        while std::net::TcpStream::connect(&addr).is_err() {
            assert!(started.elapsed() < Duration::from_secs(10), "nginx did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
        Nginx { child, addr }
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The publishers of the latest stories as `addr` answers a reader (their view applied).
fn latest_media(addr: &str, token: &str) -> BTreeSet<i64> {
    let (status, body) = support::request(
        addr,
        "GET",
        "/api/news/feed?channel=latest&size=50&lang=en&country=US",
        &[("token", token)],
        "",
    );
    assert_eq!(status, 200, "{body}");
    body["data"]["list"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| i["media_id"].as_i64())
        .collect()
}

/// Polls `check` until it holds; how long that took.
fn within(bound: Duration, what: &str, mut check: impl FnMut() -> bool) -> Duration {
    let started = Instant::now();
    while !check() {
        assert!(started.elapsed() < bound, "{what}: not within {bound:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
    started.elapsed()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_nodes_behind_nginx_act_as_one_service_and_survive_losing_one() {
    let Some(url) = support::fresh_postgres_url().await else {
        eprintln!("skipped: TEST_DATABASE_URL is not set");
        return;
    };
    if !Path::new(NGINX).exists() {
        eprintln!("skipped: nginx is not installed (.ci/run installs it)");
        return;
    }
    tokio::task::spawn_blocking(move || {
        let home = temp_dir("nodes");
        let args = ["--demo", "--database-url", url.as_str(), "--calls-per-second", "0"];
        let nodes: Vec<Server> = (0..3)
            .map(|i| Server::start(&home.join(format!("node{i}")), &args))
            .collect();
        let lb = Nginx::start(&home, &nodes.iter().map(|n| n.addr.as_str()).collect::<Vec<_>>());
        let stories = latest_ids(&nodes[0], 30);

        // A guest made on node 0 is the same reader on 1 and 2; a save on 1 shows on 2 at once.
        let device = "nodes-device-000000000000000000000";
        let token = nodes[0].guest(device);
        let (status, body) = nodes[1].call(
            device,
            "/user/news/collect",
            Some(&token),
            json!({"news_id": stories[0]}),
        );
        assert!(code_zero(status, &body), "{body}");
        for node in &nodes {
            assert_eq!(
                saved_ids(node, device, &token),
                vec![stories[0]],
                "the save, on {}",
                node.addr
            );
        }

        // A block on node 2 hides the publisher from this reader's reads on node 0.
        let blocked = *latest_media(&nodes[0].addr, &token).iter().next().unwrap();
        let (status, body) = nodes[2].call(device, "/user/media/block", Some(&token), json!({"media_id": blocked}));
        assert!(code_zero(status, &body), "{body}");
        let block_took = within(
            VIEW_BOUND + Duration::from_secs(1),
            "a block made on another node",
            || !latest_media(&nodes[0].addr, &token).contains(&blocked),
        );

        // Sign-out on node 1 ends the session everywhere at once.
        let other = "nodes-device-111111111111111111111";
        let other_token = nodes[1].guest(other);
        assert_eq!(saved_ids(&nodes[2], other, &other_token), Vec::<i64>::new());
        let (status, body) = nodes[1].call(other, "/user/logout", Some(&other_token), json!({}));
        assert!(code_zero(status, &body), "{body}");
        for node in &nodes {
            let (status, _) = node.call(other, "/user/news/collectList", Some(&other_token), json!({}));
            assert_eq!(status, 401, "the ended session on {}", node.addr);
        }

        // Load through nginx, then node 1 is killed mid-load.
        let busy = Arc::new(AtomicBool::new(true));
        let answered: Arc<Mutex<Vec<(String, String, i64)>>> = Arc::default();
        let load: Vec<_> = (0..4)
            .map(|w| {
                let (addr, busy, answered, stories) =
                    (lb.addr.clone(), busy.clone(), answered.clone(), stories.clone());
                std::thread::spawn(move || {
                    let device = format!("nodes-load-{w}-0000000000000000000");
                    let (_, body) = support::call(&addr, &device, "/user/init", None, json!({}));
                    let token = body["data"]["token"].as_str().unwrap().to_string();
                    let (mut ok, mut failed, mut n) = (0, 0, 0);
                    while busy.load(Ordering::Relaxed) {
                        let id = stories[(w * 7 + n) % stories.len()];
                        let (status, body) = support::call(
                            &addr,
                            &device,
                            "/user/news/collect",
                            Some(&token),
                            json!({"news_id": id}),
                        );
                        if code_zero(status, &body) {
                            answered.lock().unwrap().push((device.clone(), token.clone(), id));
                            ok += 1;
                        } else {
                            // Only a call in flight on the killed node may fail (nginx
                            // does not resend a POST), answered 502 by nginx.
                            assert_eq!(status, 502, "{body}");
                            failed += 1;
                        }
                        n += 1;
                    }
                    (ok, failed)
                })
            })
            .collect();
        std::thread::sleep(Duration::from_millis(400));
        let mut nodes = nodes;
        nodes.remove(1).kill();
        std::thread::sleep(Duration::from_millis(800));
        busy.store(false, Ordering::Relaxed);
        let (mut ok, mut failed) = (0, 0);
        for l in load {
            let (o, f) = l.join().unwrap();
            ok += o;
            failed += f;
        }
        assert!(ok > 50, "the others went on: {ok} answered, {failed} failed");
        assert!(
            failed <= 4,
            "at most the calls in flight on the killed node failed: {failed}"
        );
        for (device, token, id) in answered.lock().unwrap().iter() {
            let saved = saved_ids(&nodes[0], device, token);
            assert!(saved.contains(id), "{device}'s answered save of {id} is there");
        }
        eprintln!(
            "block seen on another node after {block_took:?}; load: {ok} answered, {failed} failed when a node died"
        );
        for node in nodes {
            node.stop();
        }
    })
    .await
    .unwrap();
}

/// Loopback publishers of one city: `GET /feed/{i}.xml` is publisher i's RSS, and every
/// fetch is counted per feed. All publishers report the same three events of the last
/// hour, so their items cluster into stories that are breaking news (several publishers).
struct Publishers {
    addr: String,
    fetches: Arc<Mutex<BTreeMap<usize, usize>>>,
}

const PUBLISHERS: usize = 6;
const EVENTS: [&str; 3] = [
    "Portland city council approves Willamette river flood barrier plan",
    "Portland teachers and school district reach tentative contract deal",
    "Portland transit board votes to extend MAX light rail night service",
];

impl Publishers {
    fn start() -> Publishers {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let fetches: Arc<Mutex<BTreeMap<usize, usize>>> = Arc::default();
        let (count, base) = (fetches.clone(), format!("http://{addr}"));
        std::thread::spawn(move || {
            for stream in listener.incoming().map_while(Result::ok) {
                let mut reader = BufReader::new(stream);
                let mut line = String::new();
                if reader.read_line(&mut line).is_err() {
                    continue;
                }
                let mut header = String::new();
                while reader.read_line(&mut header).is_ok_and(|n| n > 2) {
                    header.clear();
                }
                let feed = line
                    .split(' ')
                    .nth(1)
                    .and_then(|p| p.strip_prefix("/feed/"))
                    .and_then(|p| p.strip_suffix(".xml"))
                    .and_then(|n| n.parse::<usize>().ok())
                    .filter(|i| *i < PUBLISHERS);
                let answer = match feed {
                    Some(i) => {
                        *count.lock().unwrap().entry(i).or_default() += 1;
                        let body = rss(&base, i);
                        format!(
                            "HTTP/1.1 200 OK\r\nContent-Type: application/rss+xml\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                            body.len()
                        )
                    }
                    None => "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_string(),
                };
                let _ = reader.get_mut().write_all(answer.as_bytes());
            }
        });
        Publishers { addr, fetches }
    }

    fn opml(&self) -> String {
        let outlines: String = (0..PUBLISHERS)
            .map(|i| {
                format!(
                    "<outline type=\"rss\" text=\"Rose City Courier {i}\" xmlUrl=\"http://{}/feed/{i}.xml\" \
                     localwire:country=\"US\" localwire:state=\"OR\" localwire:city=\"Portland\" localwire:lang=\"en\"/>",
                    self.addr
                )
            })
            .collect();
        format!(
            "<?xml version=\"1.0\"?><opml version=\"2.0\" xmlns:localwire=\"https://localwire.invalid/ns/opml\">\
             <head><title>Portland</title></head><body>{outlines}</body></opml>"
        )
    }
}

fn rss(base: &str, publisher: usize) -> String {
    let now_s = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let items: String = EVENTS
        .iter()
        .enumerate()
        .map(|(e, title)| {
            // Ten minutes apart, the newest five minutes old; publishers 20 s apart.
            let at = now_s - 300 - (e as u64) * 600 - publisher as u64 * 20;
            format!(
                "<item><title>{title}</title><link>{base}/story/{publisher}/{e}</link><guid>{base}/story/{publisher}/{e}</guid>\
                 <pubDate>{}</pubDate><description>&lt;p&gt;{title}, residents of Portland, Oregon heard on Tuesday.&lt;/p&gt;</description></item>",
                fake_providers::feed_date::rfc2822(at)
            )
        })
        .collect();
    format!(
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Rose City Courier {publisher}</title>\
         <link>{base}/</link><description>Portland news</description>{items}</channel></rss>"
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_nodes_fetch_each_feed_once_and_push_each_story_to_a_browser_once() {
    let Some(url) = support::fresh_postgres_url().await else {
        eprintln!("skipped: TEST_DATABASE_URL is not set");
        return;
    };
    let push = Arc::new(FakePushService::start().await);
    tokio::task::spawn_blocking(move || {
        let home = temp_dir("nodes-once");
        let publishers = Publishers::start();
        let opml = home.join("publishers.opml");
        std::fs::write(&opml, publishers.opml()).unwrap();
        let out = support::bin()
            .arg("import-opml")
            .arg(&opml)
            .args(["--database-url", url.as_str()])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        // Every node's ingestion and notifier run (a round a second); the feeds are all due.
        let args = [
            "--database-url",
            url.as_str(),
            "--calls-per-second",
            "0",
            "--allow-private-push",
            "--push-interval",
            "1",
        ];
        let env = [("LOCALWIRE_ALLOW_PRIVATE_FEEDS", "1")];
        let nodes: Vec<Server> = (0..3)
            .map(|i| Server::start_with_env(&home.join(format!("node{i}")), &args, &env))
            .collect();
        let (status, body) = nodes[0].get("/api/geo/cities/search?q=Portland&country=US&lang=en");
        assert_eq!(status, 200, "{body}");
        let portland = body["data"]["list"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["admin_code"] == "OR")
            .and_then(|c| c["id"].as_i64())
            .unwrap_or_else(|| panic!("Portland, OR in {body}"));

        // Readers of Portland turn notifications on, each through another node, with no
        // quiet hours (the test runs at any hour).
        let browsers: Vec<_> = (0..6)
            .map(|r| {
                let node = &nodes[r % 3];
                let device = format!("nodes-push-{r}-000000000000000000000");
                let token = node.guest(&device);
                let settings = json!({"enabled": true, "daily_budget": 24, "quiet_start": "00:00", "quiet_end": "00:00"});
                let (status, body) = node.call(&device, "/user/push/settings/update", Some(&token), settings);
                assert!(code_zero(status, &body), "{body}");
                let sub = push.subscribe();
                let subscribe = json!({"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}, "city_id": portland});
                let (status, body) = node.call(&device, "/user/push/subscribe", Some(&token), subscribe);
                assert!(code_zero(status, &body), "{body}");
                sub.id
            })
            .collect();

        // Every browser is told of a story, by whichever node's notifier got there first.
        let took = within(Duration::from_secs(60), "a push to every browser", || {
            browsers.iter().all(|b| !push.received_by(*b).is_empty())
        });
        // Three more seconds: nine more notifier rounds across the nodes.
        std::thread::sleep(Duration::from_secs(3));
        for b in &browsers {
            let tags: Vec<String> = push
                .received_by(*b)
                .iter()
                .map(|p| p.payload["tag"].as_str().unwrap_or("").to_string())
                .collect();
            let once: BTreeSet<&String> = tags.iter().collect();
            assert_eq!(once.len(), tags.len(), "browser {b} was sent a story twice: {tags:?}");
        }
        let fetches = publishers.fetches.lock().unwrap().clone();
        assert_eq!(fetches.len(), PUBLISHERS, "every feed was fetched: {fetches:?}");
        assert!(
            fetches.values().all(|n| *n == 1),
            "each feed once across three nodes (its next fetch is minutes away): {fetches:?}"
        );
        assert!(push.refused().is_empty(), "{:?}", push.refused());
        eprintln!(
            "pushes reached every browser within {took:?}; {} pushes in all; fetches per feed {fetches:?}",
            push.received().len()
        );
        for node in nodes {
            node.stop();
        }
    })
    .await
    .unwrap();
}
