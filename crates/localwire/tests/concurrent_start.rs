//! Several `localwire serve` processes on one PostgreSQL database, started at the same
//! moment (D210). Runs the real executable; skipped when `TEST_DATABASE_URL` is unset.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use store::ContentStore;

/// The built-in demo corpus: publishers (one feed each) and the stories stored from
/// their feeds (444 items, two of them repeats within their feed).
const DEMO_PUBLISHERS: usize = 31;
const DEMO_STORIES: i64 = 442;
/// Loading the demo takes seconds; the machine running the tests may be busy.
const START_TIMEOUT: Duration = Duration::from_secs(180);

/// A started server: its address once it serves, what it printed and logged.
struct Server {
    child: Child,
    /// Lines on stdout before "Localwire is serving …" (`ingest` prints failed feeds there).
    before_serving: Vec<String>,
    addr: Option<String>,
    log: std::thread::JoinHandle<String>,
}

fn start(database_url: &str) -> (Child, mpsc::Receiver<String>, std::thread::JoinHandle<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_localwire"))
        .args([
            "serve",
            "--demo",
            "--addr",
            "127.0.0.1:0",
            "--database-url",
            database_url,
        ])
        .env_remove("LOCALWIRE_ADDR")
        .env_remove("LOCALWIRE_DATA_DIR")
        .env("LOCALWIRE_LOG", "info")
        .env("LOCALWIRE_LOG_FORMAT", "json")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (lines, stdout_lines) = mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                return;
            }
        }
    });
    let mut stderr = child.stderr.take().unwrap();
    let log = std::thread::spawn(move || {
        let mut all = String::new();
        let _ = stderr.read_to_string(&mut all);
        all
    });
    (child, stdout_lines, log)
}

/// Read stdout until the server says where it serves (or stops printing).
fn wait_until_serving(child: Child, lines: mpsc::Receiver<String>, log: std::thread::JoinHandle<String>) -> Server {
    let deadline = Instant::now() + START_TIMEOUT;
    let mut server = Server {
        child,
        before_serving: Vec::new(),
        addr: None,
        log,
    };
    while let Ok(line) = lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        if let Some(url) = line.strip_prefix("Localwire is serving on ") {
            let addr = url.trim().trim_start_matches("http://").trim_end_matches('/');
            server.addr = Some(addr.to_string());
            return server;
        }
        server.before_serving.push(line);
    }
    server
}

fn http_get(addr: &str, path: &str) -> String {
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    write!(s, "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

/// SIGTERM, then what it logged.
fn stop(mut server: Server) -> String {
    let pid = server.child.id().to_string();
    let _ = Command::new("kill").args(["-TERM", &pid]).status();
    let started = Instant::now();
    while server.child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(20) {
            let _ = server.child.kill();
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    server.log.join().unwrap()
}

/// Before D210 one of them could exit at start (`duplicate key value violates unique
/// constraint "media_sources_slug_key"`), or both served and logged failed feeds
/// (`… "news_items_media_id_identity_key"`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_demo_servers_started_together_on_one_empty_postgres_database_both_serve_the_demo_once() {
    let Some(options) = store_sql::postgres::testing::fresh_database().await else {
        eprintln!("skipped: TEST_DATABASE_URL is not set");
        return;
    };
    let base = std::env::var("TEST_DATABASE_URL").unwrap();
    let name = options.get_database().unwrap().to_string();
    let url = match base.split_once('?').map_or(base.as_str(), |(u, _)| u).rsplit_once('/') {
        Some((server, _)) => format!("{server}/{name}"),
        None => panic!("TEST_DATABASE_URL needs a database path"),
    };

    // Both at the same moment, on the empty database.
    let (a, b) = (start(&url), start(&url));
    let servers =
        tokio::task::spawn_blocking(move || [wait_until_serving(a.0, a.1, a.2), wait_until_serving(b.0, b.1, b.2)])
            .await
            .unwrap();

    let mut problems = Vec::new();
    for (i, server) in servers.iter().enumerate() {
        match &server.addr {
            Some(addr) => {
                let health = http_get(addr, "/healthz");
                if !health.starts_with("HTTP/1.1 200") {
                    problems.push(format!("server {i}: /healthz answered {health}"));
                }
            }
            None => problems.push(format!("server {i} did not start serving")),
        }
        if !server.before_serving.is_empty() {
            problems.push(format!("server {i} printed {:?}", server.before_serving));
        }
    }
    let mut servers = servers;
    for (i, server) in servers.iter_mut().enumerate() {
        if let Some(status) = server.child.try_wait().unwrap() {
            problems.push(format!("server {i} exited: {status}"));
        }
    }

    // The database holds the demo once, and no feed failed.
    let store = store_sql::postgres::PgStore::connect_with(options).await.unwrap();
    let publishers = store.export_publishers().await.unwrap();
    let feeds = store.feeds().await.unwrap();
    let stories: i64 = feeds.iter().map(|f| f.item_count).sum();
    if (publishers.len(), feeds.len(), stories) != (DEMO_PUBLISHERS, DEMO_PUBLISHERS, DEMO_STORIES) {
        problems.push(format!(
            "the database holds {} publishers, {} feeds, {stories} stories",
            publishers.len(),
            feeds.len()
        ));
    }
    for f in feeds.iter().filter(|f| !f.last_error.is_empty()) {
        problems.push(format!("feed {} failed: {}", f.url, f.last_error));
    }

    let mut inserted = 0;
    for (i, server) in servers.into_iter().enumerate() {
        let log = tokio::task::spawn_blocking(move || stop(server)).await.unwrap();
        for line in log.lines() {
            if line.contains(r#""level":"ERROR""#) || line.contains("duplicate key") || line.contains("feed failed") {
                problems.push(format!("server {i} logged {line}"));
            }
            let entry: serde_json::Value = serde_json::from_str(line).unwrap_or_default();
            if entry["fields"]["message"] == "demo corpus ingested" {
                inserted += entry["fields"]["new"].as_i64().unwrap_or(0);
            }
        }
    }
    // One loaded the demo; the other found every story there (D210).
    if inserted != DEMO_STORIES {
        problems.push(format!("the servers inserted {inserted} stories between them"));
    }
    assert!(problems.is_empty(), "{problems:#?}");
}
