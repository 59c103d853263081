//! The real `localwire` executable, started and called over HTTP as a reader's app would
//! call it (signed per SPEC §7), for tests of what only a whole process shows: backups,
//! crashes, restarts.
#![allow(dead_code)] // each test file uses its own part

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

/// Loading the demo corpus takes seconds; the machine running the tests may be busy.
pub const START_TIMEOUT: Duration = Duration::from_secs(180);

pub fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_localwire"));
    c.env_remove("DATABASE_URL")
        .env_remove("LOCALWIRE_DATA_DIR")
        .env_remove("LOCALWIRE_ADDR")
        .env_remove("LOCALWIRE_SIGN_WORD");
    c
}

pub fn temp_dir(name: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let dir = std::env::temp_dir().join(format!("localwire-{name}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A running `localwire serve`.
pub struct Server {
    pub child: Child,
    pub addr: String,
    log: Option<std::thread::JoinHandle<String>>,
    /// Every line it printed on stdout.
    pub printed: Arc<Mutex<Vec<String>>>,
}

impl Server {
    /// `serve --addr 127.0.0.1:0 --data-dir DIR` plus `extra`, once it says it serves.
    pub fn start(dir: &Path, extra: &[&str]) -> Server {
        Server::start_with_env(dir, extra, &[])
    }

    /// [`Server::start`] with these environment variables set.
    pub fn start_with_env(dir: &Path, extra: &[&str], env: &[(&str, &str)]) -> Server {
        let mut child = bin()
            .args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
            .arg(dir)
            .args(extra)
            .envs(env.iter().copied())
            .env("LOCALWIRE_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (tx, rx) = mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        let printed: Arc<Mutex<Vec<String>>> = Arc::default();
        let keep = printed.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                keep.lock().unwrap().push(line.clone());
                let _ = tx.send(line);
            }
        });
        let mut stderr = child.stderr.take().unwrap();
        let log = std::thread::spawn(move || {
            let mut all = String::new();
            let _ = stderr.read_to_string(&mut all);
            all
        });
        let started = Instant::now();
        loop {
            let left = START_TIMEOUT.saturating_sub(started.elapsed());
            match rx.recv_timeout(left) {
                Ok(line) => {
                    if let Some(url) = line.strip_prefix("Localwire is serving on ") {
                        let addr = url.trim_start_matches("http://").trim_end_matches('/').to_string();
                        return Server {
                            child,
                            addr,
                            log: Some(log),
                            printed,
                        };
                    }
                }
                Err(_) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    panic!("the server did not start: {}", log.join().unwrap_or_default());
                }
            }
        }
    }

    /// SIGTERM, then wait for the exit; what it logged.
    pub fn stop(self) -> String {
        self.stop_printing().0
    }

    /// [`Server::stop`], and every line it printed on stdout.
    pub fn stop_printing(mut self) -> (String, Vec<String>) {
        let pid = self.child.id().to_string();
        let _ = Command::new("kill").args(["-TERM", &pid]).status();
        let status = self.child.wait().unwrap();
        let log = self.log.take().unwrap().join().unwrap_or_default();
        assert!(status.success(), "the server stopped with {status}: {log}");
        // stdout closes with the process; its reader has the last lines soon after.
        std::thread::sleep(Duration::from_millis(50));
        let printed = self.printed.lock().unwrap().clone();
        (log, printed)
    }

    /// SIGKILL: the process ends at once, as in a crash or power cut of the process.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    pub fn get(&self, path: &str) -> (u16, Value) {
        request(&self.addr, "GET", path, &[], "")
    }

    /// A signed API call; `path` is after `/api`.
    pub fn call(&self, device: &str, path: &str, token: Option<&str>, body: Value) -> (u16, Value) {
        call(&self.addr, device, path, token, body)
    }

    /// A new guest's token.
    pub fn guest(&self, device: &str) -> String {
        let (status, body) = self.call(device, "/user/init", None, json!({}));
        assert_eq!(status, 200, "{body}");
        body["data"]["token"].as_str().unwrap().to_string()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn base_for(device: &str) -> String {
    json!({"device_id": device, "os": 3, "app_lang": "en", "package_name": "localwire.web", "country": "US",
           "app_version": "30010200", "time_zone": "GMT-05:00"})
    .to_string()
}

fn nonce() -> String {
    const CHARS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    (0..10).map(|_| CHARS[rand_below(CHARS.len())] as char).collect()
}

pub fn rand_below(n: usize) -> usize {
    use std::hash::{BuildHasher, RandomState};
    (RandomState::new().hash_one(Instant::now()) % n as u64) as usize
}

/// A signed POST as the web app sends it (SPEC §7, the default sign word).
pub fn call(addr: &str, device: &str, path: &str, token: Option<&str>, body: Value) -> (u16, Value) {
    let (status, _, body) = call_with_head(addr, device, path, token, body);
    (status, body)
}

/// [`call`], with the answer's status line and headers too.
pub fn call_with_head(addr: &str, device: &str, path: &str, token: Option<&str>, body: Value) -> (u16, String, Value) {
    let base = base_for(device);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis()
        .to_string();
    let sign = domain::signing::request_sign(&base, path, "localwire", device);
    let nonce = nonce();
    let mut headers = vec![
        ("content-type", "application/json"),
        ("base", base.as_str()),
        ("timestamp", now.as_str()),
        ("nonce", nonce.as_str()),
        ("sign", sign.as_str()),
    ];
    if let Some(t) = token {
        headers.push(("token", t));
    }
    request_with_head(addr, "POST", &format!("/api{path}"), &headers, &body.to_string())
}

/// One HTTP/1.1 request on its own connection: (status, JSON body or Null). Status 0: the
/// connection failed or closed without an answer.
pub fn request(addr: &str, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> (u16, Value) {
    let (status, _, body) = request_with_head(addr, method, path, headers, body);
    (status, body)
}

/// [`request`], with the answer's status line and headers too.
pub fn request_with_head(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String, Value) {
    let Ok(mut s) = std::net::TcpStream::connect(addr) else {
        return (0, String::new(), Value::Null);
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(30)));
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: localwire.test\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    if s.write_all(head.as_bytes())
        .and_then(|()| s.write_all(body.as_bytes()))
        .is_err()
    {
        return (0, String::new(), Value::Null);
    }
    let mut out = Vec::new();
    if s.read_to_end(&mut out).is_err() && out.is_empty() {
        return (0, String::new(), Value::Null);
    }
    let text = String::from_utf8_lossy(&out);
    let status = text.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let chunked = head.to_ascii_lowercase().contains("transfer-encoding: chunked");
    let body = if chunked { dechunk(rest) } else { rest.to_string() };
    (
        status,
        head.to_string(),
        serde_json::from_str(&body).unwrap_or(Value::Null),
    )
}

fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 || after.len() < n {
            break;
        }
        out.push_str(&after[..n]);
        rest = after[n..].trim_start_matches("\r\n");
    }
    out
}

/// The ids of the newest stories (`channel=latest`).
pub fn latest_ids(server: &Server, size: usize) -> Vec<i64> {
    let (status, body) = server.get(&format!("/api/news/feed?channel=latest&size={size}&lang=en&country=US"));
    assert_eq!(status, 200, "{body}");
    news_ids(&body)
}

fn news_ids(body: &Value) -> Vec<i64> {
    body["data"]["list"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|item| item["news_id"].as_i64())
        .collect()
}

/// The news ids a reader has saved, newest first.
pub fn saved_ids(server: &Server, device: &str, token: &str) -> Vec<i64> {
    let (status, body) = server.call(device, "/user/news/collectList", Some(token), json!({"size": 100}));
    assert_eq!(status, 200, "{body}");
    news_ids(&body)
}

/// A new empty PostgreSQL database's URL, or None when `TEST_DATABASE_URL` is unset.
pub async fn fresh_postgres_url() -> Option<String> {
    let options = store_sql::postgres::testing::fresh_database().await?;
    let base = std::env::var("TEST_DATABASE_URL").unwrap();
    let name = options.get_database().unwrap().to_string();
    match base.split_once('?').map_or(base.as_str(), |(u, _)| u).rsplit_once('/') {
        Some((server, _)) => Some(format!("{server}/{name}")),
        None => panic!("TEST_DATABASE_URL needs a database path"),
    }
}

/// A save, answered with its status line and headers.
pub fn save(server: &Server, device: &str, token: &str, news_id: i64) -> (u16, String, Value) {
    call_with_head(
        &server.addr,
        device,
        "/user/news/collect",
        Some(token),
        json!({"news_id": news_id}),
    )
}

/// The answer of a call that met an unreachable or full database (D396): the 503 envelope
/// a person can act on, and when to try again.
pub fn assert_database_unavailable(status: u16, head: &str, body: &Value) {
    assert_eq!((status, &body["code"]), (503, &json!(503)), "{head} {body}");
    assert_eq!(
        body["message"],
        "The service cannot reach its database right now; try again in a few seconds."
    );
    assert!(head.to_ascii_lowercase().contains("retry-after: 5"), "{head}");
}

/// Every SQLite file of a stopped server's data directory passes `PRAGMA integrity_check`.
pub fn assert_databases_whole(dir: &Path) {
    for name in [
        "localwire.sqlite",
        "localwire-content.sqlite",
        "localwire-reports.sqlite",
    ] {
        let conn = rusqlite::Connection::open(dir.join(name)).unwrap();
        let verdict: String = conn.query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
        assert_eq!(verdict, "ok", "{name}");
    }
}

/// The publishers a reader follows.
pub fn followed_ids(server: &Server, device: &str, token: &str) -> Vec<i64> {
    let (status, body) = server.call(device, "/user/media/followList", Some(token), json!({}));
    assert_eq!(status, 200, "{body}");
    body["data"]["list"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| i["media_id"].as_i64())
        .collect()
}

/// Answered with success: HTTP 200 and the envelope's code 0.
pub fn code_zero(status: u16, body: &Value) -> bool {
    status == 200 && body["code"] == 0
}
