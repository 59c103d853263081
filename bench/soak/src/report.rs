//! The soak's record: a Markdown section for bench/RESULTS.md and a CSV of every window.

use crate::Args;
use crate::stats::{KINDS, Kind, KindWindow};
use crate::watch::Sample;
use fake_providers::push::ReceivedPush;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

pub struct Run<'a> {
    pub args: &'a Args,
    /// PostgreSQL's version and the settings that move the numbers (`None` on SQLite).
    pub database_settings: Option<String>,
    /// One entry per window, one KindWindow per kind (in KINDS order).
    pub windows: Vec<Vec<KindWindow>>,
    pub samples: Vec<Sample>,
    pub failures: Vec<String>,
    pub feed_fetches: u64,
    pub pushes: Vec<ReceivedPush>,
    /// Push messages the push service was sent (taken or refused).
    pub push_requests: usize,
    pub stories: u64,
    pub metrics_before: String,
    pub metrics_after: String,
    pub server_log: String,
}

fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1_048_576.0
}

/// The sample nearest `at_s` seconds.
fn at(samples: &[Sample], at_s: f64) -> Sample {
    samples
        .iter()
        .min_by(|a, b| (a.at_s - at_s).abs().total_cmp(&(b.at_s - at_s).abs()))
        .copied()
        .unwrap_or_default()
}

fn merged(windows: &[Vec<KindWindow>], kind: usize) -> KindWindow {
    let mut all = KindWindow::default();
    for w in windows {
        all.absorb(&w[kind]);
    }
    all
}

/// Browsers sent one story more than once (the tag names the story or the day's digest).
fn duplicate_pushes(pushes: &[ReceivedPush]) -> usize {
    let mut seen: HashMap<(u64, String), usize> = HashMap::new();
    for p in pushes {
        *seen
            .entry((p.subscription, p.payload["tag"].as_str().unwrap_or("").to_string()))
            .or_default() += 1;
    }
    seen.values().map(|n| n - 1).sum()
}

fn metric(text: &str, name: &str) -> Option<f64> {
    text.lines()
        .find(|l| l.starts_with(name) && l[name.len()..].starts_with([' ', '{']))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
}

pub fn write(run: &Run, out: &Path) -> anyhow::Result<()> {
    let args = run.args;
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let engine = if args.engine == "postgres" {
        "PostgreSQL"
    } else {
        "SQLite"
    };
    let window_s = args.window_secs as f64;
    let warm = args.warmup_minutes * 60.0;
    let end = run.samples.last().map_or(0.0, |s| s.at_s);
    let all: Vec<KindWindow> = (0..KINDS.len()).map(|k| merged(&run.windows, k)).collect();
    let calls: u64 = all.iter().map(KindWindow::calls).sum();
    let failed: u64 = all.iter().map(|w| w.failed).sum();
    let limited: u64 = all.iter().map(|w| w.limited).sum();
    let after_warm = at(&run.samples, warm);
    let last = run.samples.last().copied().unwrap_or_default();
    let first = run.samples.first().copied().unwrap_or_default();
    let max_rss = run.samples.iter().map(|s| s.rss_kb).max().unwrap_or(0);
    let max_fds = run.samples.iter().map(|s| s.fds).max().unwrap_or(0);
    let growth = if after_warm.rss_kb > 0 {
        (last.rss_kb as f64 - after_warm.rss_kb as f64) / after_warm.rss_kb as f64 * 100.0
    } else {
        0.0
    };
    let peak_growth = if after_warm.rss_kb > 0 {
        (max_rss as f64 - after_warm.rss_kb as f64) / after_warm.rss_kb as f64 * 100.0
    } else {
        0.0
    };
    let log_lines: Vec<&str> = run.server_log.lines().filter(|l| !l.trim().is_empty()).collect();
    let panics = log_lines.iter().filter(|l| l.contains("panicked")).count();
    let errors_logged = log_lines
        .iter()
        .filter(|l| l.contains("ERROR") || l.contains("\"level\":\"error\""))
        .count();

    let mut md = String::new();
    let _ = writeln!(md, "## Soak (issue 30): {engine}\n");
    let _ = writeln!(
        md,
        "Run {} UTC by `bench/soak.sh {}` on {cores} cores (the load generator, the publishers, the push service and the\n\
         server share them). {} calls in flight at all times, each answered call followed at once by the next (saturation);\n\
         every reader from its own IPv6 /64 (`--forwarded-for`), guests made and replaced all along; {} loopback publishers\n\
         ingested by `serve` (one pass before, then next fetches spread over the first five minutes, so fetching never\n\
         stops); the notifier every 15 s against a loopback Web Push service. {:.0} minutes, windows of {:.0} s; the first\n\
         {:.0} minutes are warm-up. Per-window numbers of every kind: `{}`.\n",
        utc_now(),
        args.engine,
        args.workers,
        args.publishers,
        args.minutes,
        window_s,
        args.warmup_minutes,
        out.with_extension("csv").display()
    );
    if let Some(settings) = &run.database_settings {
        let _ = writeln!(md, "- Database server: {settings}.");
    }
    let _ = writeln!(
        md,
        "- Calls: {calls} ({:.0}/s); **errors: {failed}**; 429s: {limited}.",
        calls as f64 / end.max(1.0)
    );
    let _ = writeln!(
        md,
        "- Server memory (RssAnon, its own): {:.1} MB at the start, {:.1} MB after warm-up, {:.1} MB at the end, {:.1} MB at most:\n  \
         **{growth:+.1}%** from the end of warm-up to the end (peak {peak_growth:+.1}%; target < 10%).",
        first.rss_kb as f64 / 1024.0,
        after_warm.rss_kb as f64 / 1024.0,
        last.rss_kb as f64 / 1024.0,
        max_rss as f64 / 1024.0
    );
    let _ = writeln!(
        md,
        "- Open descriptors: {} at the start, {} after warm-up, {} at the end, {max_fds} at most.",
        first.fds, after_warm.fds, last.fds
    );
    let wal_what = if args.engine == "postgres" {
        "WAL written by the PostgreSQL server since the start (the whole cluster's)"
    } else {
        "write-ahead logs"
    };
    let _ = writeln!(
        md,
        "- Database: {:.1} MB at the start, {:.1} MB at the end; {wal_what}: {:.1} MB at the start, {:.1} MB after warm-up, {:.1} MB at the end.",
        mb(first.db_bytes),
        mb(last.db_bytes),
        mb(first.wal_bytes),
        mb(after_warm.wal_bytes),
        mb(last.wal_bytes)
    );
    let lag = metric(&run.metrics_after, "localwire_ingestion_lag_seconds");
    let _ = writeln!(
        md,
        "- Ingestion: {} feed fetches during the run; {} stories at the end{}.",
        run.feed_fetches,
        run.stories,
        lag.map_or(String::new(), |l| format!("; ingestion lag at the end {l:.0} s"))
    );
    let _ = writeln!(
        md,
        "- Notifier: {} pushes taken and decrypted by the push service ({} sent to it); **the same story twice to one browser: {}**.",
        run.pushes.len(),
        run.push_requests,
        duplicate_pushes(&run.pushes)
    );
    let _ = writeln!(
        md,
        "- Server log (warn and above): {} lines, {errors_logged} errors, **{panics} panics**.",
        log_lines.len()
    );
    if !run.failures.is_empty() {
        let _ = writeln!(md, "- First failures, word for word:");
        for f in run.failures.iter().take(10) {
            let _ = writeln!(md, "  - `{}`", f.replace('`', "'").replace('\n', " "));
        }
    }

    let _ = writeln!(
        md,
        "\nPer kind over the whole run (latency from the load generator, ms):\n"
    );
    let _ = writeln!(
        md,
        "| kind | calls | 429 | errors | p50 | p99 | p99, first window | p99, last window | worst window p99 |"
    );
    let _ = writeln!(md, "|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (k, kind) in KINDS.iter().enumerate() {
        let mut whole = all[k].clone();
        if whole.calls() == 0 {
            continue;
        }
        let mut firstw = run.windows.first().map(|w| w[k].clone()).unwrap_or_default();
        let mut lastw = run.windows.last().map(|w| w[k].clone()).unwrap_or_default();
        let worst = run
            .windows
            .iter()
            .map(|w| w[k].clone().quantile_ms(0.99))
            .fold(0.0, f64::max);
        let (p50, p99) = (whole.quantile_ms(0.5), whole.quantile_ms(0.99));
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {p50:.2} | {p99:.2} | {:.2} | {:.2} | {:.2} |",
            kind.name(),
            whole.calls(),
            whole.limited,
            whole.failed,
            firstw.quantile_ms(0.99),
            lastw.quantile_ms(0.99),
            worst
        );
    }

    let _ = writeln!(
        md,
        "\nOver time (each row one window; p99 in ms; memory, descriptors and sizes at the window's end):\n"
    );
    let focus = [
        Kind::Init,
        Kind::Latest,
        Kind::Detail,
        Kind::Search,
        Kind::Save,
        Kind::Report,
    ];
    let _ = write!(md, "| window end | calls/s | all p50 | all p99 |");
    for k in focus {
        let _ = write!(md, " {} p99 |", k.name());
    }
    let _ = writeln!(md, " RSS MB | fds | DB MB | WAL MB |");
    let _ = writeln!(
        md,
        "|---:|---:|---:|---:|{}---:|---:|---:|---:|",
        "---:|".repeat(focus.len())
    );
    let mut csv = String::from("window_end_s,kind,calls,ok,limited,failed,p50_ms,p99_ms\n");
    for (i, w) in run.windows.iter().enumerate() {
        let end_s = ((i + 1) as f64 * window_s).min(end);
        let mut together = KindWindow::default();
        for kw in w {
            together.absorb(kw);
        }
        let s = at(&run.samples, end_s);
        let _ = write!(
            md,
            "| {:.0} s | {:.0} | {:.2} | {:.2} |",
            end_s,
            together.calls() as f64 / window_s,
            together.quantile_ms(0.5),
            together.quantile_ms(0.99)
        );
        for k in focus {
            let idx = KINDS.iter().position(|x| *x == k).unwrap_or(0);
            let _ = write!(md, " {:.2} |", w[idx].clone().quantile_ms(0.99));
        }
        let _ = writeln!(
            md,
            " {:.1} | {} | {:.1} | {:.1} |",
            s.rss_kb as f64 / 1024.0,
            s.fds,
            mb(s.db_bytes),
            mb(s.wal_bytes)
        );
        for (k, kind) in KINDS.iter().enumerate() {
            let mut kw = w[k].clone();
            let (p50, p99) = (kw.quantile_ms(0.5), kw.quantile_ms(0.99));
            let _ = writeln!(
                csv,
                "{end_s:.0},{},{},{},{},{},{p50:.3},{p99:.3}",
                kind.name(),
                kw.calls(),
                kw.ok,
                kw.limited,
                kw.failed
            );
        }
    }
    let mut samples_csv = String::from("at_s,rss_kb,fds,db_bytes,wal_bytes\n");
    for s in &run.samples {
        let _ = writeln!(
            samples_csv,
            "{:.1},{},{},{},{}",
            s.at_s, s.rss_kb, s.fds, s.db_bytes, s.wal_bytes
        );
    }
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(out.with_extension("md"), &md)?;
    std::fs::write(out.with_extension("csv"), csv)?;
    std::fs::write(out.with_extension("samples.csv"), samples_csv)?;
    std::fs::write(
        out.with_extension("metrics"),
        format!("{}\n# ---- after ----\n{}", run.metrics_before, run.metrics_after),
    )?;
    std::fs::write(out.with_extension("log"), &run.server_log)?;
    print!("{md}");
    Ok(())
}

fn utc_now() -> String {
    std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}
