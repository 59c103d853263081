//! Raw feed-parsing speed over local feed files (bench/ingest.sh).
//!
//!     cargo run --release -p ingest --example parse_bench -- [--clean | --cluster] [--marks 10000,50000,100000] PATH...
//!
//! Each PATH is a feed file or a folder of them (*.xml, *.rss, *.atom, *.json; read in name
//! order). Files are read and parsed one at a time and dropped before the next, so memory
//! should stay flat however large the corpus: the peak RSS (VmHWM) is recorded when the
//! item count first reaches each mark. Only the time inside `parse_feed` counts towards
//! items/s; reading the files is reported apart.
//!
//! `--clean` also runs the CPU stages that follow parsing in the pipeline (clean, language,
//! categorise, geotag, with a neutral publisher area), timed apart: a ceiling for the
//! whole pipeline before the store. Geotagging reads the content's text that cleaning
//! made (`clean_item_with_text`), as the pipeline does.
//!
//! `--cluster` (implies `--clean`) also places every item in one clustering window, in
//! file order, as one `ingest --once` round does (nothing is evicted), and reports the
//! window's time and work counters at each mark and at the end.
//!
//! The last line is `RESULT {json}` for bench/record_ingest.py.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use ingest::clean::{CleanContext, clean_item_with_text};
use ingest::parse::parse_feed;
use ingest::place::{PublisherArea, places};

struct Args {
    clean: bool,
    cluster: bool,
    marks: Vec<u64>,
    paths: Vec<PathBuf>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        clean: false,
        cluster: false,
        marks: vec![10_000, 50_000, 100_000],
        paths: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--clean" => args.clean = true,
            "--cluster" => {
                args.clean = true;
                args.cluster = true;
            }
            "--marks" => {
                let list = it.next().ok_or("--marks needs a list, e.g. 10000,50000")?;
                args.marks = list
                    .split(',')
                    .map(|m| m.trim().parse::<u64>().map_err(|e| format!("bad mark {m:?}: {e}")))
                    .collect::<Result<_, _>>()?;
                args.marks.sort_unstable();
            }
            "-h" | "--help" => return Err(String::new()),
            _ => args.paths.push(PathBuf::from(arg)),
        }
    }
    if args.paths.is_empty() {
        return Err("give at least one feed file or folder".into());
    }
    Ok(args)
}

fn feed_files(paths: &[PathBuf]) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(path)?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| {
                    p.extension()
                        .and_then(|e| e.to_str())
                        .is_some_and(|e| matches!(e, "xml" | "rss" | "atom" | "json"))
                })
                .collect();
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// (VmHWM, VmRSS) in KiB, from /proc (Linux only).
fn memory_kib() -> (Option<u64>, Option<u64>) {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
        return (None, None);
    };
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
    };
    (field("VmHWM:"), field("VmRSS:"))
}

fn json_opt(v: Option<u64>) -> String {
    v.map_or_else(|| "null".into(), |v| v.to_string())
}

fn main() {
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("usage: parse_bench [--clean | --cluster] [--marks 10000,50000,100000] PATH...");
            if !message.is_empty() {
                eprintln!("{message}");
            }
            std::process::exit(2);
        }
    };
    let files = match feed_files(&args.paths) {
        Ok(files) => files,
        Err(err) => {
            eprintln!("cannot list feed files: {err}");
            std::process::exit(1);
        }
    };
    let fetched_at_ms = chrono::Utc::now().timestamp_millis();
    let area = PublisherArea {
        city: "",
        admin_code: "",
        country: "US",
    };
    let (mut items, mut bytes, mut failed, mut kept) = (0u64, 0u64, 0u64, 0u64);
    let (mut read_time, mut parse_time) = (Duration::ZERO, Duration::ZERO);
    // clean (incl. language), categorise, geotag
    let mut stage_time = [Duration::ZERO; 3];
    // `--cluster`: each kept item placed in one clustering window, in file order.
    let mut window = ingest::cluster::Window::default();
    let (mut cluster_time, mut next_id, mut file_no) = (Duration::ZERO, 1i64, 0i64);
    // RSS and Atom apart (feedparser 6.0 reads no JSON Feed): items, bytes, parse time.
    let (mut xml_items, mut xml_bytes, mut xml_time) = (0u64, 0u64, Duration::ZERO);
    let mut next_mark = 0;
    let mut marks_json = Vec::new();
    let wall = Instant::now();
    for file in &files {
        let started = Instant::now();
        let body = match std::fs::read(file) {
            Ok(body) => body,
            Err(err) => {
                eprintln!("{}: {err}", file.display());
                failed += 1;
                continue;
            }
        };
        read_time += started.elapsed();
        bytes += body.len() as u64;
        let started = Instant::now();
        let parsed = parse_feed(&body, None);
        let took = started.elapsed();
        parse_time += took;
        let is_json = file.extension().is_some_and(|e| e == "json");
        if !is_json {
            xml_time += took;
            xml_bytes += body.len() as u64;
            xml_items += parsed.as_ref().map_or(0, |f| f.items.len() as u64);
        }
        drop(body);
        let feed = match parsed {
            Ok(feed) => feed,
            Err(err) => {
                eprintln!("{}: {err}", file.display());
                failed += 1;
                continue;
            }
        };
        items += feed.items.len() as u64;
        if args.clean {
            let ctx = CleanContext {
                base_url: None,
                language_hint: feed.language.as_deref(),
                fetched_at_ms,
            };
            for raw in &feed.items {
                let t0 = Instant::now();
                let Some((item, text)) = clean_item_with_text(raw, &ctx) else {
                    continue;
                };
                let t1 = Instant::now();
                let category = ingest::categorize::categorize(&item.tags, &item.title, &item.summary);
                let t2 = Instant::now();
                // The content's text from cleaning, as the pipeline reuses it.
                let cities = places(&item.title, &text, &area);
                let t3 = Instant::now();
                stage_time[0] += t1 - t0;
                stage_time[1] += t2 - t1;
                stage_time[2] += t3 - t2;
                kept += 1;
                if args.cluster {
                    let t4 = Instant::now();
                    let sig = ingest::cluster::signature(&item.title, &item.summary, &item.lang);
                    let ids: Vec<geo::CityId> = cities.iter().map(|c| c.id).collect();
                    let joined = window.assign(&sig, file_no, item.publish_time_ms, &ids);
                    window.insert(ingest::cluster::WindowEntry {
                        news_id: next_id,
                        cluster_id: joined.unwrap_or(next_id),
                        media_id: file_no,
                        publish_time_ms: item.publish_time_ms,
                        signature: sig,
                        cities: &ids,
                    });
                    next_id += 1;
                    cluster_time += t4.elapsed();
                }
                std::hint::black_box((category, cities, item, text));
            }
        }
        drop(feed);
        file_no += 1;
        while next_mark < args.marks.len() && items >= args.marks[next_mark] {
            let (hwm, rss) = memory_kib();
            println!(
                "at {:>7} items: peak RSS {} KiB, current RSS {} KiB",
                items,
                json_opt(hwm),
                json_opt(rss)
            );
            if args.cluster {
                println!(
                    "  clustering so far: {:.3} s, window {} items, {:?}",
                    cluster_time.as_secs_f64(),
                    window.len(),
                    window.stats()
                );
            }
            marks_json.push(format!(
                r#"{{"mark":{},"items":{},"peak_rss_kib":{},"rss_kib":{}}}"#,
                args.marks[next_mark],
                items,
                json_opt(hwm),
                json_opt(rss)
            ));
            next_mark += 1;
        }
    }
    let wall = wall.elapsed();
    let clean_time: Duration = stage_time.iter().sum();
    let (hwm, _) = memory_kib();
    let rate = |n: u64, d: Duration| if d.is_zero() { 0.0 } else { n as f64 / d.as_secs_f64() };
    println!(
        "{} files ({} failed), {} items, {:.1} MB",
        files.len(),
        failed,
        items,
        bytes as f64 / 1e6
    );
    println!(
        "parse: {:.3} s, {:.0} items/s, {:.1} MB/s (reading files: {:.3} s; wall {:.3} s)",
        parse_time.as_secs_f64(),
        rate(items, parse_time),
        rate(bytes, parse_time) / 1e6,
        read_time.as_secs_f64(),
        wall.as_secs_f64()
    );
    if args.clean {
        println!(
            "clean + language + categorise + geotag: {:.3} s, {:.0} items/s ({} kept); with parse {:.0} items/s",
            clean_time.as_secs_f64(),
            rate(kept, clean_time),
            kept,
            rate(items, parse_time + clean_time)
        );
        println!(
            "  per stage: clean {:.0} items/s, categorise {:.0} items/s, geotag {:.0} items/s",
            rate(kept, stage_time[0]),
            rate(kept, stage_time[1]),
            rate(kept, stage_time[2])
        );
    }
    if args.cluster {
        println!(
            "clustering: {:.3} s, {:.0} items/s, window {} items, {:?}",
            cluster_time.as_secs_f64(),
            rate(kept, cluster_time),
            window.len(),
            window.stats()
        );
    }
    println!(
        "RSS and Atom files only: {} items, {:.3} s, {:.0} items/s",
        xml_items,
        xml_time.as_secs_f64(),
        rate(xml_items, xml_time)
    );
    println!("peak RSS {} KiB", json_opt(hwm));
    println!(
        r#"RESULT {{"files":{},"failed":{},"items":{},"bytes":{},"parse_s":{:.6},"xml_items":{},"xml_bytes":{},"xml_parse_s":{:.6},"read_s":{:.6},"wall_s":{:.6},"clean":{},"clean_s":{:.6},"stage_s":[{:.6},{:.6},{:.6}],"kept":{},"peak_rss_kib":{},"marks":[{}]}}"#,
        files.len(),
        failed,
        items,
        bytes,
        parse_time.as_secs_f64(),
        xml_items,
        xml_bytes,
        xml_time.as_secs_f64(),
        read_time.as_secs_f64(),
        wall.as_secs_f64(),
        args.clean,
        clean_time.as_secs_f64(),
        stage_time[0].as_secs_f64(),
        stage_time[1].as_secs_f64(),
        stage_time[2].as_secs_f64(),
        kept,
        json_opt(hwm),
        marks_json.join(",")
    );
    if failed > 0 {
        std::process::exit(1);
    }
}
