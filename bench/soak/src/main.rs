//! The soak bench (issue 30): `localwire serve` under a mixed reader workload at
//! saturation for ten minutes, with ingestion and the notifier running, on SQLite or on
//! PostgreSQL. Prints a Markdown section for bench/RESULTS.md (`bench/soak.sh` puts it
//! there) and writes the per-minute numbers of every kind as CSV.
//!
//!   soak --engine sqlite --bin target/release/localwire --out bench/out/soak-sqlite
//!
//! The server is started here, on a fresh database: 1,000 loopback publishers are imported
//! and ingested once (the corpus the readers start with), then their next fetches are spread
//! over five minutes so ingestion runs the whole time, as on a live server.

mod feeds;
mod load;
mod report;
mod stats;
mod watch;

use anyhow::{Context, bail};
use clap::Parser;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

#[derive(Parser, Debug, Clone)]
#[command(about = "Soak `localwire serve` with a mixed reader workload (issue 30)")]
pub struct Args {
    /// The `localwire` executable.
    #[arg(long)]
    bin: PathBuf,
    /// sqlite or postgres.
    #[arg(long, default_value = "sqlite")]
    engine: String,
    /// PostgreSQL server to make the soak's database on (its maintenance database's URL).
    #[arg(
        long,
        env = "TEST_DATABASE_URL",
        default_value = "postgres://postgres@127.0.0.1:5432/postgres"
    )]
    postgres_url: String,
    #[arg(long, default_value_t = 10.0)]
    minutes: f64,
    /// Minutes at the start that are warm-up (the flatness checks start after them).
    #[arg(long, default_value_t = 2.0)]
    warmup_minutes: f64,
    /// Calls in flight at once (each worker calls again as soon as it is answered).
    #[arg(long, default_value_t = 64)]
    workers: usize,
    #[arg(long, default_value_t = 1000)]
    publishers: usize,
    /// Seconds per latency window.
    #[arg(long, default_value_t = 60)]
    window_secs: u64,
    /// Seconds between two samples of memory, descriptors and database size.
    #[arg(long, default_value_t = 10)]
    sample_secs: u64,
    /// Output path without extension: .md (the section), .csv (per minute, per kind).
    #[arg(long)]
    out: PathBuf,
}

pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(run(args))
}

/// The server under test, stopped (SIGTERM) when dropped.
struct Served {
    child: Child,
    url: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = Command::new("kill").arg(self.child.id().to_string()).status();
        let _ = self.child.wait();
    }
}

async fn run(args: Args) -> anyhow::Result<()> {
    let work = std::env::temp_dir().join(format!("localwire-soak-{}", std::process::id()));
    std::fs::create_dir_all(&work)?;
    let publishers = Arc::new(feeds::Publishers::new(args.publishers, now_ms()));
    let feeds_url = feeds::serve(publishers.clone()).await?;
    let opml = work.join("publishers.opml");
    std::fs::write(&opml, publishers.opml(&feeds_url))?;

    let (database, store_args, store_env) = match args.engine.as_str() {
        "sqlite" => {
            let dir = work.join("data");
            (
                watch::Database::Sqlite(dir.clone()),
                vec!["--data-dir".to_string(), dir.display().to_string()],
                None,
            )
        }
        "postgres" => {
            let name = format!("localwire_soak_{}", std::process::id());
            watch::psql(&args.postgres_url, &format!("CREATE DATABASE {name}"))?;
            let url = database_url(&args.postgres_url, &name)?;
            (
                watch::Database::Postgres {
                    name,
                    admin_url: args.postgres_url.clone(),
                },
                vec![],
                Some(url),
            )
        }
        other => bail!("--engine is sqlite or postgres, not {other}"),
    };
    let tool = |cmd: &[&str]| -> anyhow::Result<()> {
        let mut c = Command::new(&args.bin);
        c.args(cmd)
            .args(&store_args)
            .env("LOCALWIRE_ALLOW_PRIVATE_FEEDS", "1")
            .env("LOCALWIRE_LOG", "warn");
        if let Some(url) = &store_env {
            c.env("DATABASE_URL", url);
        }
        let out = c.output().with_context(|| format!("running {}", args.bin.display()))?;
        if !out.status.success() {
            bail!("localwire {cmd:?}: {}", String::from_utf8_lossy(&out.stderr));
        }
        Ok(())
    };
    eprintln!("soak: importing {} publishers and ingesting them once", args.publishers);
    let ingest_started = Instant::now();
    tool(&["import-opml", &opml.display().to_string()])?;
    tool(&["ingest", "--once"])?;
    eprintln!(
        "soak: first ingestion took {:.1} s",
        ingest_started.elapsed().as_secs_f64()
    );
    spread_next_fetches(&database)?;

    let served = start(&args, &work, &store_args, store_env.as_deref())?;
    let pid = served.child.id();
    eprintln!("soak: serving on {}", served.url);
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(args.workers * 2)
        .timeout(Duration::from_secs(30))
        .build()?;
    let city_ids = cities(&client, &served.url).await?;
    let shared = Arc::new(load::Shared {
        client,
        base: served.url.clone(),
        sign_word: std::env::var("LOCALWIRE_SIGN_WORD").unwrap_or_else(|_| "localwire".into()),
        city_ids,
        stories: Default::default(),
        publishers: Default::default(),
        push: fake_providers::push::FakePushService::start().await,
        stats: Default::default(),
        stop: Default::default(),
        next_reader: Default::default(),
    });
    seed_ids(&shared).await?;

    let metrics_before = metrics(&shared.client, &served.url).await;
    let wal_start = match &database {
        watch::Database::Postgres { admin_url, .. } => watch::wal_position(admin_url),
        watch::Database::Sqlite(_) => 0,
    };
    let fetches_before = publishers.fetches.load(Ordering::Relaxed);
    let started = Instant::now();
    let mut samples = vec![watch::sample(pid, &database, 0.0, wal_start)];
    let workers: Vec<_> = (0..args.workers)
        .map(|i| tokio::spawn(load::worker(shared.clone(), 0x50a4 + i as u64)))
        .collect();
    let total = Duration::from_secs_f64(args.minutes * 60.0);
    let mut windows = Vec::new();
    let mut next_window = Duration::from_secs(args.window_secs);
    while started.elapsed() < total {
        tokio::time::sleep(Duration::from_secs(args.sample_secs)).await;
        let at = started.elapsed();
        samples.push(watch::sample(pid, &database, at.as_secs_f64(), wal_start));
        if at >= next_window || at >= total {
            windows.push(shared.stats.take());
            next_window += Duration::from_secs(args.window_secs);
            let last = samples.last().copied().unwrap_or_default();
            eprintln!(
                "soak: {:>4.0} s, {} calls in the window, RSS {:.1} MB, {} fds",
                at.as_secs_f64(),
                windows
                    .last()
                    .map_or(0, |w| w.iter().map(stats::KindWindow::calls).sum::<u64>()),
                last.rss_kb as f64 / 1024.0,
                last.fds
            );
        }
    }
    shared.stop.store(true, Ordering::Relaxed);
    for w in workers {
        let _ = tokio::time::timeout(Duration::from_secs(35), w).await;
    }
    let tail = shared.stats.take();
    if tail.iter().any(|w| w.calls() > 0)
        && let Some(last) = windows.last_mut()
    {
        for (into, from) in last.iter_mut().zip(&tail) {
            into.absorb(from);
        }
    }
    let metrics_after = metrics(&shared.client, &served.url).await;
    let fetches = publishers.fetches.load(Ordering::Relaxed) - fetches_before;
    let pushes = shared.push.received();
    let stories = story_count(&database, store_env.as_deref());
    drop(served);
    let log = std::fs::read_to_string(work.join("serve.log")).unwrap_or_default();

    // What the numbers depend on besides the binary: the PostgreSQL server's settings.
    let database_settings = match &database {
        watch::Database::Postgres { admin_url, .. } => watch::psql(
            admin_url,
            "SELECT 'PostgreSQL ' || current_setting('server_version') || ', autovacuum ' || current_setting('autovacuum') \
             || ', shared_buffers ' || current_setting('shared_buffers') || ', max_connections ' || current_setting('max_connections')",
        )
        .ok(),
        watch::Database::Sqlite(_) => None,
    };
    let run = report::Run {
        args: &args,
        database_settings,
        windows,
        samples,
        failures: shared.stats.failures.lock().map(|f| f.clone()).unwrap_or_default(),
        feed_fetches: fetches,
        pushes,
        push_requests: shared.push.requests(),
        stories,
        metrics_before,
        metrics_after,
        server_log: log,
    };
    report::write(&run, &args.out)?;
    if let watch::Database::Postgres { name, admin_url } = &database {
        let _ = watch::psql(admin_url, &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
    }
    let _ = std::fs::remove_dir_all(&work);
    Ok(())
}

fn database_url(admin_url: &str, name: &str) -> anyhow::Result<String> {
    let without_query = admin_url.split_once('?').map_or(admin_url, |(u, _)| u);
    match without_query.rsplit_once('/') {
        Some((server, _)) => Ok(format!("{server}/{name}")),
        None => bail!("the PostgreSQL URL needs a database path: {admin_url}"),
    }
}

/// Each feed's next fetch at a random moment of the next five minutes (the shortest polling
/// interval), so fetches run all along rather than all at once.
fn spread_next_fetches(db: &watch::Database) -> anyhow::Result<()> {
    let now = now_ms();
    match db {
        watch::Database::Sqlite(dir) => {
            let conn = rusqlite::Connection::open(dir.join("localwire-content.sqlite"))?;
            conn.execute(
                &format!("UPDATE feeds SET next_due = {now} + abs(random() % 300000)"),
                [],
            )?;
        }
        watch::Database::Postgres { name, admin_url } => {
            let url = database_url(admin_url, name)?;
            watch::psql(
                &url,
                &format!("UPDATE feeds SET next_due = {now} + floor(random() * 300000)::bigint"),
            )?;
        }
    }
    Ok(())
}

fn story_count(db: &watch::Database, pg_url: Option<&str>) -> u64 {
    let sql = "SELECT count(*) FROM news_items";
    match (db, pg_url) {
        (watch::Database::Postgres { .. }, Some(url)) => {
            watch::psql(url, sql).ok().and_then(|s| s.parse().ok()).unwrap_or(0)
        }
        (watch::Database::Sqlite(dir), _) => rusqlite::Connection::open(dir.join("localwire-content.sqlite"))
            .and_then(|c| c.query_row(sql, [], |r| r.get::<_, i64>(0)))
            .map_or(0, |n| n as u64),
        _ => 0,
    }
}

fn start(args: &Args, work: &Path, store_args: &[String], database_url: Option<&str>) -> anyhow::Result<Served> {
    let log = std::fs::File::create(work.join("serve.log"))?;
    let mut c = Command::new(&args.bin);
    c.args([
        "serve",
        "--addr",
        "127.0.0.1:0",
        "--forwarded-for",
        "--allow-private-push",
        "--push-interval",
        "15",
    ])
    .args(store_args)
    .env("LOCALWIRE_ALLOW_PRIVATE_FEEDS", "1")
    .env("LOCALWIRE_LOG", "warn")
    .stdout(Stdio::piped())
    .stderr(log);
    if let Some(url) = database_url {
        c.env("DATABASE_URL", url);
    }
    let mut child = c.spawn()?;
    let stdout = child.stdout.take().context("serve's stdout")?;
    let mut lines = BufReader::new(stdout).lines();
    let url = loop {
        match lines.next() {
            Some(Ok(line)) => {
                if let Some(url) = line.strip_prefix("Localwire is serving on ") {
                    break url.trim_end_matches('/').to_string();
                }
            }
            _ => bail!("serve stopped before serving; see its log"),
        }
    };
    // Keep reading stdout so the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    Ok(Served { child, url })
}

/// The GeoNames ids of the soak's cities, from the server's own city search.
async fn cities(client: &reqwest::Client, base: &str) -> anyhow::Result<Vec<i64>> {
    let mut ids = Vec::new();
    for (city, state, country, _) in feeds::CITIES {
        let url = format!("{base}/api/geo/cities/search?q={city}&country={country}&lang=en");
        let body: serde_json::Value = client.get(&url).send().await?.json().await?;
        let list = body["data"]["list"].as_array().cloned().unwrap_or_default();
        let found = list
            .iter()
            .find(|c| c["admin_code"].as_str() == Some(state))
            .or(list.first())
            .and_then(|c| c["id"].as_i64().or_else(|| c["city_id"].as_i64()));
        match found {
            Some(id) => ids.push(id),
            None => bail!("no city id for {city} in {body}"),
        }
    }
    Ok(ids)
}

/// Story and publisher ids to start from: the first latest page.
async fn seed_ids(shared: &load::Shared) -> anyhow::Result<()> {
    let body: serde_json::Value = shared
        .client
        .get(format!("{}/api/news/feed?channel=latest&size=50", shared.base))
        .send()
        .await?
        .json()
        .await?;
    let list = body["data"]["list"].as_array().cloned().unwrap_or_default();
    if list.is_empty() {
        bail!("the server lists no stories after the first ingestion: {body}");
    }
    shared
        .stories
        .write()
        .map_err(|_| anyhow::anyhow!("lock"))?
        .extend(list.iter().filter_map(|i| i["news_id"].as_i64()));
    shared
        .publishers
        .write()
        .map_err(|_| anyhow::anyhow!("lock"))?
        .extend(list.iter().filter_map(|i| i["media_id"].as_i64()));
    Ok(())
}

async fn metrics(client: &reqwest::Client, base: &str) -> String {
    match client.get(format!("{base}/metrics")).send().await {
        Ok(r) => r.text().await.unwrap_or_default(),
        Err(e) => format!("# /metrics failed: {e}"),
    }
}
