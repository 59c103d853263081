//! `localwire`: one binary that serves the web app and the API, with an embedded
//! SQLite database by default.

mod config;
mod graceful;
mod operator;
mod progress;

/// glibc malloc showed up high in profiles of concurrent requests; mimalloc is
/// faster for many small, short-lived allocations across threads.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use anyhow::{Context, Result};
use clap::Parser;
use config::{Cli, Command, FeedsCommand, SpecialsCommand, StoreArgs};
use std::io::Write;
use std::sync::Arc;
use store::Store;
use store::retention::StoryRetention;

fn main() -> Result<()> {
    let cli = Cli::parse();
    allocator::set_purge_delay(matches!(cli.command, Command::Serve(_)));
    config::init_logging(&cli.log);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(run(cli))
}

async fn run(cli: Cli) -> Result<()> {
    // The other commands may write beside a server, never during a restore (D395).
    let _shared = match tool_store(&cli.command).map(sqlite_path).transpose()?.flatten() {
        Some(path) => Some(store_sql::sqlite::backup::DataDirOwner::share(&path)?),
        None => None,
    };
    match cli.command {
        Command::Serve(args) => serve(*args).await,
        Command::Migrate(args) => {
            let store = open_store(&args).await?;
            tracing::info!(engine = store.engine().name(), "migrations are up to date");
            println!("Migrations are up to date ({}).", store.engine().name());
            Ok(())
        }
        Command::Feeds(feeds) => match feeds.command {
            FeedsCommand::Add(args) => operator::feeds_add(&open_store(&args.store).await?, &args).await,
            FeedsCommand::List(args) => operator::feeds_list(&open_store(&args.store).await?, &args).await,
            FeedsCommand::Remove(args) => operator::feeds_remove(&open_store(&args.store).await?, &args).await,
        },
        Command::ImportOpml(args) => operator::import_opml(&open_store(&args.store).await?, &args).await,
        Command::ExportOpml(args) => operator::export_opml(&open_store(&args.store).await?, &args).await,
        Command::Ingest(args) => {
            anyhow::ensure!(
                args.once,
                "`localwire ingest` needs --once (`localwire serve` ingests continuously)"
            );
            let progress = progress::Progress::new("ingest", progress::Unit::Feeds, 0);
            let store = open_store(&args.store).await?;
            let retention = args.retention.retention();
            let total = operator::ingest_once(store.clone(), retention, Some(&progress)).await?;
            println!(
                "Fetched {} feeds ({} failed): {} new, {} updated, {} unchanged stories.",
                total.feeds, total.failed, total.inserted, total.updated, total.unchanged
            );
            if retention != StoryRetention::KeepAll {
                let deleted = ingest::retention::prune(store.as_ref(), retention, ingest::pipeline::now_ms()).await?;
                println!(
                    "Deleted {deleted} stories published more than {} days ago.",
                    args.retention.story_retention_days
                );
            }
            Ok(())
        }
        Command::Specials(specials) => match specials.command {
            SpecialsCommand::Put(args) => operator::specials_put(&open_store(&args.store).await?, &args).await,
            SpecialsCommand::List(args) => operator::specials_list(&open_store(&args).await?).await,
            SpecialsCommand::Remove(args) => operator::specials_remove(&open_store(&args.store).await?, &args).await,
        },
        Command::Backup(args) => operator::backup(&sqlite_file(&args.store, "backup")?, &args.file),
        Command::Restore(args) => operator::restore(&sqlite_file(&args.store, "restore")?, &args.file),
    }
}

/// The store of a command other than `serve`, `backup` and `restore`.
fn tool_store(command: &Command) -> Option<&StoreArgs> {
    Some(match command {
        Command::Serve(_) | Command::Backup(_) | Command::Restore(_) => return None,
        Command::Migrate(args) => args,
        Command::Feeds(feeds) => match &feeds.command {
            FeedsCommand::Add(args) => &args.store,
            FeedsCommand::List(args) => &args.store,
            FeedsCommand::Remove(args) => &args.store,
        },
        Command::ImportOpml(args) => &args.store,
        Command::ExportOpml(args) => &args.store,
        Command::Ingest(args) => &args.store,
        Command::Specials(specials) => match &specials.command {
            SpecialsCommand::Put(args) => &args.store,
            SpecialsCommand::List(args) => args,
            SpecialsCommand::Remove(args) => &args.store,
        },
    })
}

/// The SQLite identity database `args` name, or a message for PostgreSQL (whose own tools
/// back it up) and in-memory databases.
fn sqlite_file(args: &StoreArgs, command: &str) -> Result<std::path::PathBuf> {
    let postgres =
        "PostgreSQL is backed up with its own tools: pg_dump and pg_restore (see the README's Backups section)";
    match sqlite_path(args)? {
        Some(path) => Ok(path),
        None if args.database_url.as_deref().is_some_and(|u| u.starts_with("postgres")) => {
            anyhow::bail!("`localwire {command}` works on SQLite data directories. {postgres}.")
        }
        None => anyhow::bail!("`localwire {command}` needs an SQLite database in a file, not in memory."),
    }
}

/// Where the SQLite identity database of `args` lives (None: PostgreSQL or in memory).
fn sqlite_path(args: &StoreArgs) -> Result<Option<std::path::PathBuf>> {
    match args.database_url.as_deref().map(str::trim).filter(|u| !u.is_empty()) {
        Some(url) if url.starts_with("sqlite:") => {
            Ok(store_sql::sqlite::backup::file_of_url(url).context("reading DATABASE_URL")?)
        }
        Some(_) => Ok(None),
        None => Ok(Some(args.data_dir.join("localwire.sqlite"))),
    }
}

async fn open_store(args: &StoreArgs) -> Result<Arc<dyn Store>> {
    match args.database_url.as_deref().map(str::trim).filter(|u| !u.is_empty()) {
        Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
            let store = store_sql::postgres::PgStore::connect(url)
                .await
                .context("connecting to PostgreSQL (DATABASE_URL)")?;
            Ok(Arc::new(store))
        }
        Some(url) if url.starts_with("sqlite:") => {
            let store = store_sql::sqlite::SqliteStore::open_url(url)
                .await
                .context("opening SQLite (DATABASE_URL)")?;
            Ok(Arc::new(store))
        }
        Some(_) => anyhow::bail!("DATABASE_URL must start with sqlite: or postgres://"),
        None => {
            std::fs::create_dir_all(&args.data_dir)
                .with_context(|| format!("creating the data directory {}", args.data_dir.display()))?;
            let file = args.data_dir.join("localwire.sqlite");
            let store = store_sql::sqlite::SqliteStore::open_file(&file)
                .await
                .with_context(|| format!("opening {}", file.display()))?;
            Ok(Arc::new(store))
        }
    }
}

async fn serve(args: config::ServeArgs) -> Result<()> {
    // One server per SQLite data directory (D165, D395): held until the process ends.
    let _owner = match sqlite_path(&args.store)? {
        Some(path) => Some(store_sql::sqlite::backup::DataDirOwner::take(&path)?),
        None => None,
    };
    let store = open_store(&args.store).await?;
    let mut api_config = args.api_config()?;
    if api_config.image_proxy.enabled {
        // One key in the database, so every server behind a load balancer signs alike (D380).
        api_config.image_proxy.key = api::image_proxy::stored_key(&*store)
            .await
            .context("reading the image proxy key")?;
    }
    if args.demo {
        // Before listening, so the first page already has news. Servers started together
        // on one database load it one after the other (D210): the later ones find it
        // loaded, every story unchanged.
        let lock = store.startup_lock().await?;
        let added = operator::import_demo(&store).await?;
        let total = operator::ingest_once(store.clone(), args.retention.retention(), None).await?;
        lock.release().await;
        tracing::info!(
            publishers = added.media_added,
            feeds = total.feeds,
            new = total.inserted,
            updated = total.updated,
            "demo corpus ingested"
        );
    }
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let kept = args.retention.retention();
    let pipeline = ingest::pipeline::Pipeline::keeping(store.clone(), operator::fetcher()?, kept);
    let ingestion_beat = pipeline.heartbeat();
    let ingestion = tokio::spawn(pipeline.run_forever(async move {
        let mut stopped = stopped;
        let _ = stopped.wait_for(|s| *s).await;
    }));
    let retention = tokio::spawn(api::report::retention::delete_expired_forever(
        store.clone(),
        api_config.report.retention_days,
    ));
    let story_retention = tokio::spawn(ingest::retention::prune_forever(store.clone(), kept));
    let purge = tokio::spawn(api::guests::purge_forever(store.clone(), api_config.guests.idle_days));
    let recount = tokio::spawn(api::reader::reactions::recount_forever(store.clone()));
    let state = api::AppState::new(store.clone(), api_config);
    let _ = state.loops.ingestion.set(ingestion_beat);
    api::news_api::trends::warm_up(&state);
    // The first-screen renderer (D424) is ready before the first request: its script is
    // evaluated and each locale rendered once (a fraction of a second).
    state.renderer.start().await;
    // Web Push (issue 19): the notifier shares the state's sender and key.
    let notifier = state.config.push.notifier.then(|| {
        let notifier = push::notifier::Notifier::new(store.clone(), state.push.clone());
        let _ = state
            .loops
            .notifier
            .set((notifier.heartbeat.clone(), state.push.config.interval));
        let mut stopped = stop.subscribe();
        tokio::spawn(notifier.run_forever(async move {
            let _ = stopped.wait_for(|s| *s).await;
        }))
    });
    if !state.shell.built {
        tracing::warn!("this binary was built without the web app (web/dist); pages show a notice");
    }
    let listener = tokio::net::TcpListener::bind(&args.addr)
        .await
        .with_context(|| format!("listening on {}", args.addr))?;
    let local = listener.local_addr()?;
    tracing::info!(addr = %local, engine = store.engine().name(), build = %state.shell.build_id, "Localwire is serving");
    println!("Localwire is serving on http://{local}/");
    // The peer's address reaches handlers (rate limits count by it).
    let metrics = state.metrics.clone();
    let app = api::router(state).into_make_service_with_connect_info::<std::net::SocketAddr>();
    graceful::serve(listener, app, shutdown_signal()).await?;
    let (started, answered) = metrics.started_and_answered();
    tracing::info!(started, answered, "stopped serving");
    // Not println!: a supervisor may have closed stdout by now, and a failed print must
    // not turn a clean stop into a panic.
    let _ = writeln!(
        std::io::stdout(),
        "Stopped serving: {answered} of {started} requests answered."
    );
    let _ = stop.send(true);
    // A round in progress stops at its next feed boundary or is abandoned: leases expire
    // and the next start fetches again (crash-safe, tests/crash.rs).
    if tokio::time::timeout(LOOPS_STOP_WITHIN, ingestion).await.is_err() {
        tracing::warn!("an ingestion round was still running; abandoned");
    }
    if let Some(notifier) = notifier
        && tokio::time::timeout(LOOPS_STOP_WITHIN, notifier).await.is_err()
    {
        tracing::warn!("a push round was still running; abandoned");
    }
    retention.abort();
    story_retention.abort();
    purge.abort();
    recount.abort();
    // Guests answered before their write (D165) are written before the process ends.
    store.finish_writes().await;
    tracing::info!("stopped");
    Ok(())
}

/// How long the background loops get to finish their round once serving has stopped.
const LOOPS_STOP_WITHIN: std::time::Duration = std::time::Duration::from_secs(1);

async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::error!(error = %e, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(e) => {
                tracing::error!(error = %e, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down: finishing requests in flight");
}

mod allocator {
    use std::ffi::{c_int, c_long};

    unsafe extern "C" {
        fn mi_option_set(option: c_int, value: c_long);
    }
    /// `mi_option_purge_delay` in mimalloc.h's `mi_option_e` (v2 and v3).
    pub(crate) const PURGE_DELAY: c_int = 15;

    /// How long `serve` lets freed pages wait before they go back to the OS (D445).
    pub(crate) const SERVE_PURGE_DELAY_MS: c_long = 100;

    /// D155: mimalloc gives freed pages back to the OS only after a delay (1 s in v3),
    /// and only when the thread that freed them allocates again. Threads that go idle (the blocking
    /// pool after a feed is cleaned) kept theirs: `ingest --once` over 100k items grew
    /// from 79 to 164 MB resident with a heap of 35–67 MB. Purging at once bounds it, so
    /// the commands (a bulk ingest, an import, a backup) purge at once.
    /// D445: purging at once cost a server a quarter of an uncached read's CPU (each
    /// request's pages faulted in, zeroed and unmapped again, with the TLB shootdowns that
    /// go with it), so `serve` waits [`SERVE_PURGE_DELAY_MS`]: a request's freed pages are
    /// reused by the next one, and what a burst freed goes back a tenth of a second later.
    /// `MIMALLOC_PURGE_DELAY` in the environment still decides when set.
    pub(crate) fn set_purge_delay(serving: bool) {
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
            let delay = if serving { SERVE_PURGE_DELAY_MS } else { 0 };
            // SAFETY: sets one integer option; mimalloc reads options atomically.
            unsafe { mi_option_set(PURGE_DELAY, delay) };
        }
    }
}

#[cfg(test)]
mod allocator_tests {
    use std::ffi::{c_int, c_long};

    unsafe extern "C" {
        fn mi_option_get(option: c_int) -> c_long;
    }
    /// `mi_option_arena_eager_commit` in mimalloc.h's `mi_option_e` (the fifth option).
    const ARENA_EAGER_COMMIT: c_int = 4;

    /// D146: `.cargo/config.toml` builds mimalloc to commit arena memory on demand.
    #[test]
    fn mimalloc_commits_arena_memory_on_demand() {
        if std::env::var_os("MIMALLOC_ARENA_EAGER_COMMIT").is_some() {
            return; // Overridden on purpose for this run.
        }
        // SAFETY: reads one option; mimalloc initialises its options on first use.
        assert_eq!(unsafe { mi_option_get(ARENA_EAGER_COMMIT) }, 0);
    }

    /// D155: a command's freed memory goes back to the OS at once; D445: a server's after
    /// a tenth of a second.
    #[test]
    fn mimalloc_purges_a_commands_freed_memory_at_once_and_a_servers_soon() {
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some() {
            return; // Overridden on purpose for this run.
        }
        // SAFETY: reads one option. Its default, 1000 ms in mimalloc v3 (the crate's
        // build), shows the index names it.
        assert_eq!(unsafe { mi_option_get(super::allocator::PURGE_DELAY) }, 1000);
        super::allocator::set_purge_delay(true);
        // SAFETY: as above.
        assert_eq!(
            unsafe { mi_option_get(super::allocator::PURGE_DELAY) },
            super::allocator::SERVE_PURGE_DELAY_MS
        );
        super::allocator::set_purge_delay(false);
        // SAFETY: as above.
        assert_eq!(unsafe { mi_option_get(super::allocator::PURGE_DELAY) }, 0);
    }
}
