//! `localwire`: one binary that serves the web app and the API, with an embedded
//! SQLite database by default.

mod config;

/// glibc malloc showed up high in profiles of concurrent requests; mimalloc is
/// faster for many small, short-lived allocations across threads.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use anyhow::{Context, Result};
use clap::Parser;
use config::{Cli, Command, StoreArgs};
use std::sync::Arc;
use store::Store;

fn main() -> Result<()> {
    let cli = Cli::parse();
    config::init_logging(&cli.log);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(run(cli))
}

async fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Serve(args) => serve(args).await,
        Command::Migrate(args) => {
            let store = open_store(&args).await?;
            tracing::info!(engine = store.engine().name(), "migrations are up to date");
            println!("Migrations are up to date ({}).", store.engine().name());
            Ok(())
        }
    }
}

async fn open_store(args: &StoreArgs) -> Result<Arc<dyn Store>> {
    match args.database_url.as_deref().map(str::trim).filter(|u| !u.is_empty()) {
        Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
            let store = store_postgres::PgStore::connect(url)
                .await
                .context("connecting to PostgreSQL (DATABASE_URL)")?;
            Ok(Arc::new(store))
        }
        Some(url) if url.starts_with("sqlite:") => {
            let store = store_sqlite::SqliteStore::open_url(url)
                .await
                .context("opening SQLite (DATABASE_URL)")?;
            Ok(Arc::new(store))
        }
        Some(_) => anyhow::bail!("DATABASE_URL must start with sqlite: or postgres://"),
        None => {
            std::fs::create_dir_all(&args.data_dir)
                .with_context(|| format!("creating the data directory {}", args.data_dir.display()))?;
            let file = args.data_dir.join("localwire.sqlite");
            let store = store_sqlite::SqliteStore::open_file(&file)
                .await
                .with_context(|| format!("opening {}", file.display()))?;
            Ok(Arc::new(store))
        }
    }
}

async fn serve(args: config::ServeArgs) -> Result<()> {
    let store = open_store(&args.store).await?;
    let api_config = args.api_config()?;
    if args.demo {
        tracing::warn!(
            "--demo: the demo corpus is ingested once feed ingestion is built (issue 3); serving without it"
        );
    }
    let state = api::AppState::new(store.clone(), api_config);
    if !state.shell.built {
        tracing::warn!("this binary was built without the web app (web/dist); pages show a notice");
    }
    let listener = tokio::net::TcpListener::bind(&args.addr)
        .await
        .with_context(|| format!("listening on {}", args.addr))?;
    let local = listener.local_addr()?;
    tracing::info!(addr = %local, engine = store.engine().name(), build = %state.shell.build_id, "Localwire is serving");
    println!("Localwire is serving on http://{local}/");
    axum::serve(listener, api::router(state))
        .with_graceful_shutdown(shutdown_signal())
        .await?;
    tracing::info!("stopped");
    Ok(())
}

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
