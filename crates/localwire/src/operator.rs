//! Operator commands: feeds, OPML, one-off ingestion, special collections, and the demo
//! corpus. Each prints what it did, and fails with a message that says what to fix.

use crate::config::{
    ExportOpmlArgs, FeedAddArgs, FeedListArgs, FeedRemoveArgs, ImportOpmlArgs, SpecialPutArgs, SpecialRemoveArgs,
};
use crate::progress::{Progress, Unit};
use anyhow::{Context, Result, bail};
use ingest::adding;
use ingest::demo;
use ingest::fetch::{FetchPolicy, Fetcher, allow_private_from_env};
use ingest::opml::{OpmlPublisher, parse_opml_with_base, write_opml_titled};
use ingest::pipeline::{FeedReport, Pipeline, RoundReport, RoundWatcher, now_ms};
use ingest::publishers::{self, PublisherInput};
use std::sync::Arc;
use store::Store;
use store::content::{ImportReport, NewsId, PublisherFeeds, Special};
use store::retention::StoryRetention;
use url::Url;

pub fn fetcher() -> Result<Fetcher> {
    let policy = FetchPolicy {
        allow_private: allow_private_from_env(),
        ..FetchPolicy::default()
    };
    Fetcher::new(policy).context("starting the feed fetcher")
}

/// A feed address from the command line: http(s) and file URLs as given, a local path
/// as an absolute file:// URL.
pub fn feed_url(raw: &str) -> Result<Url> {
    let raw = raw.trim();
    if let Ok(url) = Url::parse(raw) {
        return match url.scheme() {
            "http" | "https" | "file" if url.scheme() == "file" || url.host_str().is_some() => Ok(url),
            "http" | "https" => bail!("invalid feed URL {raw:?}: it has no host"),
            other => bail!("invalid feed URL {raw:?}: the {other:?} scheme is not supported (use http, https or file)"),
        };
    }
    let path = std::path::Path::new(raw);
    if path.exists() {
        let absolute = std::fs::canonicalize(path).with_context(|| format!("reading {raw}"))?;
        return Url::from_file_path(&absolute).map_err(|()| anyhow::anyhow!("cannot turn {raw:?} into a file URL"));
    }
    bail!("invalid feed URL {raw:?}: not an http(s) or file URL, and no such file")
}

pub async fn feeds_add(store: &Arc<dyn Store>, args: &FeedAddArgs) -> Result<()> {
    let url = feed_url(&args.url)?;
    let name = match args.name.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
        Some(n) => n.to_string(),
        None => adding::feed_title(&fetcher()?, &url)
            .await
            .map_err(|e| anyhow::anyhow!("{e}\n(could not learn the publisher's name; give it with --name)"))?,
    };
    let input = PublisherInput {
        feed_url: url.to_string(),
        name,
        home_url: args.home.clone(),
        icon_url: args.icon.clone(),
        location: publishers::Location {
            country: args.country.clone(),
            state: args.state.clone(),
            city: args.city.clone(),
        },
        lang: args.lang.clone(),
        category: args.category.clone(),
        ..PublisherInput::default()
    };
    let publisher = publishers::to_store(&input).map_err(anyhow::Error::msg)?;
    let report = store
        .import_publishers(std::slice::from_ref(&publisher), now_ms())
        .await?;
    if let Some((url, why)) = report.skipped.first() {
        bail!("not added: {url}: {why}");
    }
    println!(
        "Added {} for {} ({}{}); it is fetched on the next ingestion round.",
        url,
        publisher.media.name,
        if publisher.media.city.is_empty() {
            String::new()
        } else {
            format!("{}, ", publisher.media.city)
        },
        publisher.media.country
    );
    Ok(())
}

pub async fn feeds_list(store: &Arc<dyn Store>, args: &FeedListArgs) -> Result<()> {
    let feeds = store.feeds().await?;
    if args.json {
        for f in &feeds {
            let line = serde_json::json!({
                "feed_id": f.feed_id, "media_id": f.media_id, "publisher": f.media_name, "url": f.url,
                "lang": f.lang, "last_fetch": f.last_fetch_ms, "last_status": f.last_status,
                "last_items": f.last_items, "items": f.item_count, "last_error": f.last_error,
                "next_due": f.next_due_ms, "consecutive_errors": f.consecutive_errors, "paused": f.paused,
            });
            println!("{line}");
        }
        return Ok(());
    }
    if feeds.is_empty() {
        println!("No feeds yet. Add one with `localwire feeds add URL` or `localwire import-opml FILE`.");
        return Ok(());
    }
    let now = now_ms();
    println!(
        "{:>4}  {:<28} {:<10} {:>6} {:>6}  {:<12} url / last error",
        "id", "publisher", "last fetch", "status", "items", "next due"
    );
    for f in feeds {
        let status = f.last_status.map_or("-".to_string(), |s| s.to_string());
        println!(
            "{:>4}  {:<28} {:<10} {:>6} {:>6}  {:<12} {}",
            f.feed_id,
            truncate(&f.media_name, 28),
            f.last_fetch_ms.map_or("never".to_string(), |t| ago(now - t)),
            status,
            f.item_count,
            if f.paused {
                "paused".to_string()
            } else if f.next_due_ms <= now {
                "now".to_string()
            } else {
                format!("in {}", ago(f.next_due_ms - now))
            },
            f.url
        );
        if !f.last_error.is_empty() {
            println!("      error ({} in a row): {}", f.consecutive_errors, f.last_error);
        }
    }
    Ok(())
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n - 1).collect::<String>())
    }
}

fn ago(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m", s / 60),
        3600..86_400 => format!("{}h", s / 3600),
        _ => format!("{}d", s / 86_400),
    }
}

pub async fn feeds_remove(store: &Arc<dyn Store>, args: &FeedRemoveArgs) -> Result<()> {
    if !store.remove_feed(args.feed.trim()).await? {
        bail!("no feed {:?}: give a URL or id from `localwire feeds list`", args.feed);
    }
    println!("Removed {} and its stories.", args.feed.trim());
    Ok(())
}

/// Check every outline of an OPML list: any invalid one fails the whole file.
pub fn publishers_from_opml(list: &[OpmlPublisher]) -> Result<Vec<PublisherFeeds>> {
    adding::publishers_from_opml(list).map_err(anyhow::Error::msg)
}

pub async fn import_opml(store: &Arc<dyn Store>, args: &ImportOpmlArgs) -> Result<()> {
    let bytes = std::fs::read(&args.file).with_context(|| format!("cannot read {}", args.file.display()))?;
    let absolute = std::fs::canonicalize(&args.file).with_context(|| format!("cannot read {}", args.file.display()))?;
    let base = Url::from_file_path(&absolute).ok();
    let parsed = parse_opml_with_base(&bytes, base.as_ref())
        .with_context(|| format!("{} is not a usable OPML file", args.file.display()))?;
    let list = publishers_from_opml(&parsed.publishers)?;
    let report = import_in_steps(
        store,
        &list,
        &Progress::new("import", Unit::Publishers, list.len() as u64),
    )
    .await?;
    print_import(&report, parsed.skipped.iter().map(|s| s.to_string()).collect());
    Ok(())
}

/// Publishers per transaction of `import-opml`: a long list shows its progress, and one
/// stopped half way keeps what it committed (running it again skips the feeds it has).
const IMPORT_STEP: usize = 200;

async fn import_in_steps(store: &Arc<dyn Store>, list: &[PublisherFeeds], progress: &Progress) -> Result<ImportReport> {
    let mut total = ImportReport::default();
    for (done, step) in list.chunks(IMPORT_STEP).enumerate() {
        let report = store.import_publishers(step, now_ms()).await.with_context(|| {
            format!(
                "imported {} of {} publishers before this error; run the same command again to add the rest",
                done * IMPORT_STEP,
                list.len()
            )
        })?;
        total.media_added += report.media_added;
        total.feeds_added += report.feeds_added;
        total.skipped.extend(report.skipped);
        progress.add(step.len() as u64);
    }
    progress.finish();
    Ok(total)
}

fn print_import(report: &ImportReport, opml_skipped: Vec<String>) {
    println!(
        "Imported {} publishers and {} feeds.",
        report.media_added, report.feeds_added
    );
    let skipped: Vec<String> = opml_skipped
        .into_iter()
        .chain(report.skipped.iter().map(|(url, why)| format!("{url}: {why}")))
        .collect();
    if !skipped.is_empty() {
        println!("Skipped {}:", skipped.len());
        for s in skipped {
            println!("  {s}");
        }
    }
}

pub async fn export_opml(store: &Arc<dyn Store>, args: &ExportOpmlArgs) -> Result<()> {
    let mut list = Vec::new();
    for (m, feeds) in store.export_publishers().await? {
        for f in feeds {
            list.push(OpmlPublisher {
                feed_url: f.url,
                name: m.name.clone(),
                html_url: Some(m.home_url.clone()).filter(|u| !u.is_empty()),
                country: Some(m.country.clone()).filter(|s| !s.is_empty()),
                state: Some(m.admin_code.clone()).filter(|s| !s.is_empty()),
                city: Some(m.city.clone()).filter(|s| !s.is_empty()),
                lang: Some(f.lang),
                category: Some(m.category_id.clone()).filter(|s| !s.is_empty()),
                icon_url: Some(m.icon_url.clone()).filter(|s| !s.is_empty()),
                about: Some(m.about.clone()).filter(|s| !s.is_empty()),
                contact: Some(m.contact.clone()).filter(|s| !s.is_empty()),
                ..OpmlPublisher::default()
            });
        }
    }
    let opml = write_opml_titled(&list, "Localwire publishers");
    match &args.output {
        Some(path) => {
            std::fs::write(path, opml).with_context(|| format!("cannot write {}", path.display()))?;
            println!("Wrote {} feeds to {}.", list.len(), path.display());
        }
        None => print!("{opml}"),
    }
    Ok(())
}

/// One round over every feed, storing what `retention` keeps; `progress` shows it (the
/// `ingest --once` command).
pub async fn ingest_once(
    store: Arc<dyn Store>,
    retention: StoryRetention,
    progress: Option<&Progress>,
) -> Result<RoundReport> {
    let pipeline = Pipeline::keeping(store.clone(), fetcher()?, retention);
    let reports = match progress {
        Some(p) => {
            let reports = pipeline.run_round_watched(true, &FeedProgress(p)).await;
            p.finish();
            reports?
        }
        None => pipeline.run_round(true).await?,
    };
    let mut total = RoundReport::default();
    for r in &reports {
        total.add(r);
        if let Some(e) = &r.error {
            println!("  failed: {}: {e}", r.url);
        }
    }
    if total.inserted + total.updated > 0 {
        // A bulk load leaves the search index in one piece (D438; ten seconds at a million).
        tracing::info!("merging the search index");
        store.merge_search_index().await?;
    }
    Ok(total)
}

/// A round's feeds on a progress bar.
struct FeedProgress<'a>(&'a Progress);

impl RoundWatcher for FeedProgress<'_> {
    fn claimed(&self, feeds: usize) {
        self.0.grow(feeds as u64);
    }
    fn done(&self, _report: &FeedReport) {
        self.0.add(1);
    }
}

/// Register the built-in demo publishers (their feeds are read from the binary).
pub async fn import_demo(store: &Arc<dyn Store>) -> Result<ImportReport> {
    let list = demo::publishers().map_err(anyhow::Error::msg)?;
    Ok(store.import_publishers(&list, now_ms()).await?)
}

pub async fn specials_put(store: &Arc<dyn Store>, args: &SpecialPutArgs) -> Result<()> {
    let slug = args.slug.trim();
    if slug.is_empty() || !slug.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        bail!("invalid slug {slug:?}: use letters, digits and dashes (it becomes /special/{{slug}})");
    }
    let query = args.query.clone().unwrap_or_default();
    if query.trim().is_empty() && args.ids.is_empty() {
        bail!("give the collection's stories with --query WORDS or --ids 1,2,3");
    }
    if args.title.trim().is_empty() {
        bail!("give the collection a --title");
    }
    let special = Special {
        slug: slug.to_string(),
        title: args.title.trim().to_string(),
        description: args.description.trim().to_string(),
        query: query.trim().to_string(),
        news_ids: args.ids.iter().copied().map(NewsId).collect(),
    };
    store.put_special(&special, now_ms()).await?;
    println!("Saved /special/{slug}.");
    Ok(())
}

pub async fn specials_list(store: &Arc<dyn Store>) -> Result<()> {
    let list = store.specials().await?;
    if list.is_empty() {
        println!("No special collections. Create one with `localwire specials put SLUG --title … --query …`.");
    }
    for s in list {
        let what = if s.query.is_empty() {
            format!("{} picked stories", s.news_ids.len())
        } else {
            format!("query {:?}", s.query)
        };
        println!("/special/{}  {}  ({what})", s.slug, s.title);
    }
    Ok(())
}

pub async fn specials_remove(store: &Arc<dyn Store>, args: &SpecialRemoveArgs) -> Result<()> {
    if !store.remove_special(args.slug.trim()).await? {
        bail!("no special collection {:?} (see `localwire specials list`)", args.slug);
    }
    println!("Removed /special/{}.", args.slug.trim());
    Ok(())
}

/// `localwire backup FILE` (D395).
pub fn backup(identity: &std::path::Path, out: &std::path::Path) -> Result<()> {
    let progress = Progress::new("backup", Unit::Bytes, 0);
    let summary = store_sql::sqlite::backup::backup(identity, out, &|done, total| {
        progress.set_total(total);
        progress.set(done);
    })?;
    progress.finish();
    let bytes: u64 = summary.files.iter().map(|(_, b)| b).sum();
    println!(
        "Backed up {} databases ({}) to {} ({bytes} bytes).",
        summary.files.len(),
        names(&summary.files),
        out.display()
    );
    Ok(())
}

/// `localwire restore FILE` (D395).
pub fn restore(identity: &std::path::Path, input: &std::path::Path) -> Result<()> {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default();
    let progress = Progress::new("restore", Unit::Bytes, 0);
    let summary = store_sql::sqlite::backup::restore(identity, input, now, &|done, total| {
        progress.set_total(total);
        progress.set(done);
    })?;
    progress.finish();
    println!(
        "Restored {} databases ({}) from {}.",
        summary.files.len(),
        names(&summary.files),
        input.display()
    );
    if let Some(aside) = summary.moved_aside {
        println!("The databases it replaced are in {}.", aside.display());
    }
    Ok(())
}

fn names(files: &[(String, u64)]) -> String {
    files.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", ")
}
