//! Operator commands through the real binary: feeds, OPML import/export (all or
//! nothing), one-off ingestion of local feed files, special collections.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin(data: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_localwire"));
    c.env_remove("DATABASE_URL")
        .env_remove("LOCALWIRE_ADDR")
        .env("LOCALWIRE_DATA_DIR", data)
        .env("LOCALWIRE_LOG", "warn");
    c
}

fn temp_dir(name: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let d = std::env::temp_dir().join(format!("lw-op-{name}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(data: &Path, args: &[&str]) -> Output {
    bin(data).args(args).output().unwrap()
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "stdout: {}\nstderr: {}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn failed(out: &Output) -> String {
    assert!(
        !out.status.success(),
        "expected a failure: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const FEED: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Old Port Observer</title><link>https://oldport.example/</link>
<item><title>Ferry adds a winter run to Peaks Island</title><link>https://oldport.example/a</link>
<guid>op-1</guid><pubDate>Fri, 20 Nov 2026 10:00:00 GMT</pubDate><description>Portland's ferry line adds a crossing.</description></item>
<item><title>Council backs Congress Street bike lanes</title><link>https://oldport.example/b</link>
<guid>op-2</guid><pubDate>Fri, 20 Nov 2026 09:00:00 GMT</pubDate><description>Councilors voted 7-2.</description></item>
</channel></rss>"#;

fn write_feeds(dir: &Path) {
    std::fs::create_dir_all(dir.join("feeds")).unwrap();
    std::fs::write(dir.join("feeds/oldport.xml"), FEED).unwrap();
    std::fs::write(
        dir.join("feeds/montreal.xml"),
        FEED.replace("Old Port Observer", "Le Veilleur"),
    )
    .unwrap();
}

const GOOD_OPML: &str = r#"<?xml version="1.0"?>
<opml version="2.0" xmlns:localwire="https://localwire.invalid/ns/opml"><head><title>Test</title></head><body>
<outline text="Maine">
  <outline text="Old Port Observer" xmlUrl="feeds/oldport.xml" htmlUrl="https://oldport.example/"
    localwire:country="US" localwire:state="ME" localwire:city="Portland" localwire:lang="en" localwire:category="local"/>
</outline>
<outline text="Le Veilleur" xmlUrl="feeds/montreal.xml" localwire:country="CA" localwire:state="QC" localwire:city="Montréal" localwire:lang="fr"/>
<outline text="A folder with no feed"/>
<outline text="Old Port again" xmlUrl="feeds/oldport.xml"/>
</body></opml>"#;

#[test]
fn import_opml_then_ingest_once_then_list_and_export() {
    let dir = temp_dir("opml");
    write_feeds(&dir);
    let data = dir.join("data");
    std::fs::write(dir.join("list.opml"), GOOD_OPML).unwrap();
    let import = run(&data, &["import-opml", dir.join("list.opml").to_str().unwrap()]);
    let out = ok(&import);
    assert!(out.contains("Imported 2 publishers and 2 feeds."), "{out}");
    // Issue 33: off a terminal, progress is plain lines on stderr.
    let progress = String::from_utf8_lossy(&import.stderr);
    assert!(progress.contains("import: 2/2 publishers (100%)"), "{progress}");
    assert!(
        out.contains("Skipped 2:"),
        "the folder and the duplicate are reported: {out}"
    );
    assert!(
        out.contains("duplicate") || out.contains("Duplicate") || out.contains("same feed"),
        "{out}"
    );

    let again = ok(&run(&data, &["import-opml", dir.join("list.opml").to_str().unwrap()]));
    assert!(again.contains("Imported 0 publishers and 0 feeds."), "{again}");
    assert!(again.contains("already registered"), "{again}");

    let round = run(&data, &["ingest", "--once"]);
    let ingest = ok(&round);
    assert!(ingest.contains("Fetched 2 feeds (0 failed): 4 new"), "{ingest}");
    let progress = String::from_utf8_lossy(&round.stderr);
    assert!(
        progress.contains("ingest: 1/2 feeds (50%)") && progress.contains("ingest: 2/2 feeds (100%)"),
        "{progress}"
    );

    let list = ok(&run(&data, &["feeds", "list"]));
    assert!(list.contains("Old Port Observer") && list.contains("200"), "{list}");
    let json = ok(&run(&data, &["feeds", "list", "--json"]));
    let first: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!(first["last_status"], 200);
    assert_eq!(first["items"], 2);
    assert!(first["next_due"].as_i64().unwrap() > first["last_fetch"].as_i64().unwrap());

    let opml = ok(&run(&data, &["export-opml"]));
    assert!(
        opml.contains("localwire:city=\"Portland\"") && opml.contains("localwire:state=\"ME\""),
        "{opml}"
    );
    assert!(
        opml.contains("localwire:lang=\"fr\"") && opml.contains("Montréal"),
        "{opml}"
    );
    // The export imports cleanly into a fresh data directory.
    std::fs::write(dir.join("export.opml"), &opml).unwrap();
    let fresh = dir.join("fresh");
    let re = ok(&run(
        &fresh,
        &["import-opml", dir.join("export.opml").to_str().unwrap()],
    ));
    assert!(re.contains("Imported 2 publishers and 2 feeds."), "{re}");
}

#[test]
fn an_import_with_a_bad_outline_imports_nothing_and_says_why() {
    let dir = temp_dir("bad-opml");
    write_feeds(&dir);
    let data = dir.join("data");
    let bad = GOOD_OPML.replace(r#"localwire:city="Montréal""#, r#"localwire:city="Nowhereville""#);
    std::fs::write(dir.join("bad.opml"), bad).unwrap();
    let err = failed(&run(&data, &["import-opml", dir.join("bad.opml").to_str().unwrap()]));
    assert!(err.contains("nothing was imported"), "{err}");
    assert!(
        err.contains("Le Veilleur") && err.contains("\"Nowhereville\", QC not found in CA"),
        "{err}"
    );
    let list = ok(&run(&data, &["feeds", "list"]));
    assert!(list.contains("No feeds yet"), "all or nothing: {list}");

    std::fs::write(dir.join("broken.opml"), "<opml><body><outline").unwrap();
    let err = failed(&run(&data, &["import-opml", dir.join("broken.opml").to_str().unwrap()]));
    assert!(err.contains("is not a usable OPML file"), "{err}");
    let err = failed(&run(
        &data,
        &["import-opml", dir.join("missing.opml").to_str().unwrap()],
    ));
    assert!(err.contains("cannot read"), "{err}");
}

#[test]
fn feeds_add_checks_the_url_and_remove_takes_url_or_id() {
    let dir = temp_dir("add");
    write_feeds(&dir);
    let data = dir.join("data");
    let err = failed(&run(&data, &["feeds", "add", "ftp://example.com/feed"]));
    assert!(err.contains("\"ftp\" scheme is not supported"), "{err}");
    let err = failed(&run(&data, &["feeds", "add", "not a url"]));
    assert!(err.contains("not an http(s) or file URL"), "{err}");
    let err = failed(&run(
        &data,
        &[
            "feeds",
            "add",
            "https://example.com/f",
            "--name",
            "X",
            "--country",
            "MX",
        ],
    ));
    assert!(err.contains("unsupported country"), "{err}");

    let path = dir.join("feeds/oldport.xml");
    // Without --name, the feed's own title names the publisher.
    let out = ok(&run(
        &data,
        &[
            "feeds",
            "add",
            path.to_str().unwrap(),
            "--state",
            "ME",
            "--city",
            "Portland",
        ],
    ));
    assert!(out.contains("Old Port Observer (Portland, US)"), "{out}");
    let err = failed(&run(
        &data,
        &["feeds", "add", path.to_str().unwrap(), "--name", "Again"],
    ));
    assert!(err.contains("already registered"), "{err}");
    ok(&run(&data, &["feeds", "remove", "1"]));
    let err = failed(&run(&data, &["feeds", "remove", "1"]));
    assert!(err.contains("no feed \"1\""), "{err}");
}

#[test]
fn d364_feeds_add_drops_a_home_or_icon_that_is_not_http() {
    let dir = temp_dir("add-urls");
    write_feeds(&dir);
    let data = dir.join("data");
    let path = dir.join("feeds/oldport.xml");
    ok(&run(
        &data,
        &[
            "feeds",
            "add",
            path.to_str().unwrap(),
            "--home",
            "javascript:alert(document.cookie)",
            "--icon",
            "data:image/svg+xml,<svg onload=alert(1)>",
        ],
    ));
    let opml = ok(&run(&data, &["export-opml"]));
    assert!(opml.contains("Old Port Observer"), "{opml}");
    assert!(
        !opml.contains("javascript") && !opml.contains("data:") && !opml.contains("htmlUrl"),
        "{opml}"
    );
}

#[test]
fn special_collections_are_managed_from_the_cli() {
    let data = temp_dir("specials");
    let err = failed(&run(
        &data,
        &["specials", "put", "bad slug!", "--title", "T", "--query", "x"],
    ));
    assert!(err.contains("invalid slug"), "{err}");
    let err = failed(&run(&data, &["specials", "put", "empty", "--title", "T"]));
    assert!(err.contains("--query WORDS or --ids"), "{err}");
    ok(&run(
        &data,
        &[
            "specials",
            "put",
            "winter",
            "--title",
            "Winter storms",
            "--query",
            "snow storm",
        ],
    ));
    ok(&run(
        &data,
        &["specials", "put", "picks", "--title", "Editor's picks", "--ids", "3,1"],
    ));
    let list = ok(&run(&data, &["specials", "list"]));
    assert!(
        list.contains("/special/winter  Winter storms  (query \"snow storm\")"),
        "{list}"
    );
    assert!(
        list.contains("/special/picks  Editor's picks  (2 picked stories)"),
        "{list}"
    );
    ok(&run(&data, &["specials", "remove", "winter"]));
    assert!(failed(&run(&data, &["specials", "remove", "winter"])).contains("no special collection"));
}

#[test]
fn ingest_without_once_says_what_to_do() {
    let data = temp_dir("ingest");
    let err = failed(&run(&data, &["ingest"]));
    assert!(err.contains("needs --once"), "{err}");
}

/// An RFC 3339 date `days` before now (midnight UTC), for feeds dated relative to today.
fn days_ago(days: i64) -> String {
    let today = domain::clock::now_ms() / 86_400_000;
    let (y, m, d) = domain::clock::civil_from_days(today - days);
    format!("{y:04}-{m:02}-{d:02}T00:00:00Z")
}

#[test]
fn d414_a_story_retention_deletes_older_stories_and_does_not_store_them_again() {
    let dir = temp_dir("retention");
    std::fs::create_dir_all(dir.join("feeds")).unwrap();
    let feed = format!(
        r#"<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Harbour Log</title>
<entry><id>h-new</id><title>Ferry schedule changes this week</title><link href="https://harbour.example/new"/><updated>{}</updated><summary>New times.</summary></entry>
<entry><id>h-old</id><title>Pier repairs begin</title><link href="https://harbour.example/old"/><updated>{}</updated><summary>Work starts.</summary></entry>
</feed>"#,
        days_ago(1),
        days_ago(40)
    );
    std::fs::write(dir.join("feeds/harbour.xml"), feed).unwrap();
    let data = dir.join("data");
    let url = dir.join("feeds/harbour.xml");
    ok(&run(
        &data,
        &["feeds", "add", url.to_str().unwrap(), "--name", "Harbour Log"],
    ));

    let keep_all = ok(&run(&data, &["ingest", "--once"]));
    assert!(keep_all.contains("2 new"), "no retention keeps both: {keep_all}");
    assert!(!keep_all.contains("Deleted"), "{keep_all}");

    let month = ok(&run(&data, &["ingest", "--once", "--story-retention-days", "30"]));
    assert!(month.contains("0 new, 0 updated, 2 unchanged"), "{month}");
    assert!(
        month.contains("Deleted 1 stories published more than 30 days ago."),
        "{month}"
    );

    let again = ok(&run(&data, &["ingest", "--once", "--story-retention-days", "30"]));
    assert!(
        again.contains("0 new, 0 updated, 2 unchanged") && again.contains("Deleted 0 stories"),
        "the old story is not stored again: {again}"
    );
}
