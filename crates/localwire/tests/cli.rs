//! The binary's contract: subcommands, --help, configuration, migrations, graceful
//! shutdown. Runs the real `localwire` executable.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_localwire"));
    c.env_remove("DATABASE_URL")
        .env_remove("LOCALWIRE_ADDR")
        .env_remove("LOCALWIRE_DATA_DIR");
    c
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("lw-cli-{name}-{}-{}", std::process::id(), rand_u64()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn rand_u64() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
}

#[test]
fn help_on_every_subcommand() {
    for (args, needles) in [
        (
            vec!["--help"],
            vec![
                "serve",
                "migrate",
                "feeds",
                "import-opml",
                "export-opml",
                "ingest",
                "specials",
                "backup",
                "restore",
            ],
        ),
        (vec!["feeds", "--help"], vec!["add", "list", "remove"]),
        (
            vec!["feeds", "add", "--help"],
            vec!["--name", "--country", "--state", "--city", "--lang", "--category"],
        ),
        (vec!["ingest", "--help"], vec!["--once", "DATABASE_URL"]),
        (
            vec!["serve", "--help"],
            vec![
                "--addr",
                "--data-dir",
                "--demo",
                "LOCALWIRE_ADDR",
                "LOCALWIRE_DATA_DIR",
                "DATABASE_URL",
                "LOCALWIRE_SIGN_WORD",
            ],
        ),
        (vec!["migrate", "--help"], vec!["--data-dir", "DATABASE_URL"]),
        (vec!["backup", "--help"], vec!["<FILE>", "--data-dir", "pg_dump"]),
        (vec!["restore", "--help"], vec!["<FILE>", "--data-dir"]),
    ] {
        let out = bin().args(&args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        for n in needles {
            assert!(text.contains(n), "{args:?} help mentions {n}");
        }
    }
}

#[test]
fn migrate_creates_the_sqlite_file_in_the_data_dir() {
    let dir = temp_dir("migrate");
    let out = bin().args(["migrate", "--data-dir"]).arg(&dir).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("Migrations are up to date (sqlite)"));
    assert!(dir.join("localwire.sqlite").exists());
    // Running again is a no-op.
    assert!(
        bin()
            .args(["migrate", "--data-dir"])
            .arg(&dir)
            .status()
            .unwrap()
            .success()
    );
}

#[test]
fn database_url_selects_sqlite_or_postgres_and_rejects_others() {
    let dir = temp_dir("dburl");
    let url = format!("sqlite://{}/other.sqlite", dir.display());
    let out = bin().arg("migrate").env("DATABASE_URL", &url).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(dir.join("other.sqlite").exists(), "DATABASE_URL overrides the data dir");

    let out = bin()
        .arg("migrate")
        .env("DATABASE_URL", "mysql://localhost/x")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("DATABASE_URL must start with sqlite: or postgres://"));
}

#[tokio::test]
async fn migrate_on_postgres() {
    let Some(options) = store_sql::postgres::testing::fresh_database().await else {
        eprintln!("skipped: TEST_DATABASE_URL is not set");
        return;
    };
    let base = std::env::var("TEST_DATABASE_URL").unwrap();
    let name = options.get_database().unwrap().to_string();
    let url = match base.rsplit_once('/') {
        Some((server, _)) => format!("{server}/{name}"),
        None => panic!("TEST_DATABASE_URL needs a database path"),
    };
    let out = bin().arg("migrate").env("DATABASE_URL", &url).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("(postgres)"));
}

#[test]
fn invalid_route_rules_stop_the_start_with_a_clear_message() {
    let dir = temp_dir("rules");
    let out = bin()
        .args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
        .arg(&dir)
        .env("LOCALWIRE_ROUTE_RULES", "[{\"from\":\"old\",\"to\":\"/x\"}]")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("route rule `from` must start with /"));
}

#[test]
fn serve_answers_and_stops_gracefully_on_sigterm() {
    let dir = temp_dir("serve");
    let mut child = bin()
        .args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
        .arg(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line.trim().rsplit(' ').next().unwrap().to_string();
    assert!(url.starts_with("http://127.0.0.1:"), "{line}");
    let addr = url.trim_start_matches("http://").trim_end_matches('/').to_string();

    let reply = http_get(&addr, "/healthz");
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    // D397: what is degraded, per part; both background loops run in `serve`.
    let started = Instant::now();
    let health = loop {
        let reply = http_get(&addr, "/healthz");
        let body: serde_json::Value = serde_json::from_str(reply.split("\r\n\r\n").nth(1).unwrap_or("")).unwrap();
        if body["checks"]["ingestion"]["status"] != "starting" || started.elapsed() > Duration::from_secs(20) {
            break body;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(health["status"], "ok", "{health}");
    assert_eq!(health["database"], "sqlite", "{health}");
    assert_eq!(health["checks"]["database"]["status"], "ok", "{health}");
    assert_eq!(health["checks"]["ingestion"]["status"], "ok", "{health}");
    assert_eq!(health["checks"]["ingestion"]["lag_seconds"], 0, "{health}");
    assert!(
        ["starting", "ok"].contains(&health["checks"]["notifier"]["status"].as_str().unwrap()),
        "{health}"
    );
    let metrics = http_get(&addr, "/metrics");
    for line in [
        "localwire_database_up 1",
        "localwire_ingestion_lag_seconds 0",
        "localwire_feeds 0",
    ] {
        assert!(metrics.contains(line), "{line} in {metrics}");
    }

    let pid = child.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "exits cleanly on SIGTERM");
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "stops within 10 s");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn http_get(addr: &str, path: &str) -> String {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    write!(s, "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

/// Starts `serve` with `extra` flags; answers its address and the child to stop.
fn serve_with(name: &str, extra: &[&str]) -> (std::process::Child, String) {
    let dir = temp_dir(name);
    let mut child = bin()
        .args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
        .arg(&dir)
        .args(extra)
        .env_remove("LOCALWIRE_ADS")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line.trim().rsplit(' ').next().unwrap().to_string();
    assert!(url.starts_with("http://127.0.0.1:"), "{line}");
    (
        child,
        url.trim_start_matches("http://").trim_end_matches('/').to_string(),
    )
}

fn app_config_ads(addr: &str) -> serde_json::Value {
    let reply = http_get(addr, "/api/app/config");
    let body = reply.split("\r\n\r\n").nth(1).unwrap_or_default();
    let v: serde_json::Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {reply}"));
    v["data"]["ads"].clone()
}

const AD_CLIENT: &str = r#"{"client_id": "ca-local-1", "creatives": [
  {"id": "c1", "placement": "feed", "rule_id": "r1", "sponsor": "Main St Bakery",
   "title": "Fresh bread", "url": "https://bakery.example/", "revenue": 0.12, "floor_price": 0.05}]}"#;

#[test]
fn d345_app_config_has_no_ads_by_default_and_the_operators_client_with_ads() {
    let (mut child, addr) = serve_with("ads-off", &[]);
    let ads = app_config_ads(&addr);
    child.kill().unwrap();
    let _ = child.wait();
    assert!(ads.is_null(), "no ad client configured: ads is null, got {ads}");

    let file = temp_dir("ads-file").join("ads.json");
    std::fs::write(&file, AD_CLIENT).unwrap();
    let (mut child, addr) = serve_with("ads-on", &["--ads", file.to_str().unwrap()]);
    let ads = app_config_ads(&addr);
    child.kill().unwrap();
    let _ = child.wait();
    assert_eq!(ads["client_id"], "ca-local-1");
    assert_eq!(ads["adn_id"], 37, "SPEC §9 default adn_id 37");
    assert_eq!(ads["creatives"][0]["placement"], "feed");
    assert_eq!(ads["creatives"][0]["revenue"], 0.12);
    assert_eq!(ads["creatives"][0]["langs"], serde_json::json!(["en", "es", "fr"]));
}

#[test]
fn d345_a_bad_ad_client_file_stops_the_start_naming_the_field() {
    let file = temp_dir("ads-bad").join("ads.json");
    std::fs::write(&file, AD_CLIENT.replace("https://bakery", "http://bakery")).unwrap();
    let out = bin()
        .args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
        .arg(temp_dir("ads-bad-data"))
        .env("LOCALWIRE_ADS", &file)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("LOCALWIRE_ADS"), "{err}");
    assert!(
        err.contains("creatives[0].url must be an absolute https:// address"),
        "{err}"
    );
}

#[test]
fn d362_sign_in_without_a_public_url_stops_the_start_naming_the_flag() {
    let out = bin()
        .args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
        .arg(temp_dir("no-public-url"))
        .args(["--google-client-id", "id", "--google-client-secret", "secret"])
        .env_remove("LOCALWIRE_PUBLIC_URL")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("Google sign-in needs --public-url (LOCALWIRE_PUBLIC_URL)"),
        "{err}"
    );
}

#[test]
fn d362_a_public_url_that_is_not_an_http_address_stops_the_start() {
    for bad in ["news.example.org", "javascript:alert(1)", "https://"] {
        let out = bin()
            .args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
            .arg(temp_dir("bad-public-url"))
            .env("LOCALWIRE_PUBLIC_URL", bad)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("LOCALWIRE_PUBLIC_URL must be an absolute http(s) address"),
            "{bad}: {err}"
        );
    }
}

#[test]
fn d355_a_push_host_that_is_not_a_host_name_stops_the_start() {
    for bad in ["10.0.0.7", "push example.org", "localhost"] {
        let out = bin()
            .args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
            .arg(temp_dir("bad-push-hosts"))
            .args(["--push-hosts", bad])
            .output()
            .unwrap();
        assert!(!out.status.success(), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("LOCALWIRE_PUSH_HOSTS") && err.contains("is not a host name"),
            "{bad}: {err}"
        );
    }
}

/// D358: every switch takes 1/0, true/false, yes/no, on/off from the environment; anything
/// else stops the start naming the variable. (A bad --push-hosts stops it right after the
/// switches are read, so an accepted switch shows as that error.)
#[test]
fn d358_switches_take_1_true_yes_on_and_their_opposites_from_the_environment() {
    let start = |name: &str, value: &str| {
        let out = bin()
            .args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
            .arg(temp_dir("switch-words"))
            .args(["--push-hosts", "10.0.0.7"])
            .env(name, value)
            .output()
            .unwrap();
        assert!(!out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    for name in [
        "LOCALWIRE_DEMO",
        "LOCALWIRE_ENCRYPT_RESPONSES",
        "LOCALWIRE_FORWARDED_FOR",
        "LOCALWIRE_ALLOW_PRIVATE_PUSH",
        "LOCALWIRE_IMAGE_PROXY",
    ] {
        for value in ["1", "0", "true", "false", "yes", "no", "on", "off", "TRUE"] {
            let err = start(name, value);
            assert!(err.contains("LOCALWIRE_PUSH_HOSTS"), "{name}={value} is read: {err}");
        }
        let err = start(name, "maybe");
        assert!(err.contains("invalid value 'maybe'"), "{name}=maybe: {err}");
    }
}

/// D380, D384: the image proxy is on unless the operator turns it off; on, pages let images
/// load from this server only; off, from any https host as before.
#[test]
fn d380_the_image_proxy_is_on_by_default_and_the_switch_turns_it_off() {
    let csp = |reply: &str| {
        reply
            .lines()
            .find(|l| l.to_ascii_lowercase().starts_with("content-security-policy:"))
            .unwrap_or_default()
            .to_string()
    };
    let (mut child, addr) = serve_with("proxy-on", &[]);
    let on = csp(&http_get(&addr, "/"));
    let forged = http_get(&addr, "/proxy/AAAA/aHR0cHM6Ly9pbWcuZXhhbXBsZS9hLmpwZw");
    child.kill().unwrap();
    let _ = child.wait();
    assert!(on.contains("img-src 'self' data:;"), "{on}");
    assert!(forged.starts_with("HTTP/1.1 403"), "{forged}");

    let (mut child, addr) = serve_with("proxy-off", &["--image-proxy", "false"]);
    let off = csp(&http_get(&addr, "/"));
    let route = http_get(&addr, "/proxy/AAAA/aHR0cHM6Ly9pbWcuZXhhbXBsZS9hLmpwZw");
    child.kill().unwrap();
    let _ = child.wait();
    assert!(off.contains("img-src 'self' data: https:;"), "{off}");
    assert!(route.starts_with("HTTP/1.1 404"), "{route}");
}
