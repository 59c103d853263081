//! `localwire backup` and `localwire restore` on SQLite (issue 30, D395), on the real
//! executable: a backup made while a server serves and takes writes restores to a data
//! directory where every reader's things and every story are there.

mod support;

use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use support::{Server, bin, latest_ids, saved_ids, temp_dir};

fn run(args: &[&str], dir: &std::path::Path) -> (bool, String, String) {
    let out = bin().args(args).arg("--data-dir").arg(dir).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn d395_a_backup_made_while_serving_restores_every_readers_things_and_every_story() {
    let home = temp_dir("backup");
    let (a, b) = (home.join("a"), home.join("b"));
    let file = home.join("localwire.tar");
    let file_arg = file.to_str().unwrap();
    let server = Server::start(&a, &["--demo"]);
    let stories = latest_ids(&server, 30);
    assert!(stories.len() >= 20, "the demo has stories: {stories:?}");

    // Readers with things saved before the backup.
    let mut readers = Vec::new();
    for r in 0..5 {
        let device = format!("backup-device-{r:02}-0000000000000000");
        let token = server.guest(&device);
        for id in &stories[r * 3..r * 3 + 3] {
            let (status, body) = server.call(&device, "/user/news/collect", Some(&token), json!({"news_id": id}));
            assert_eq!(status, 200, "{body}");
        }
        readers.push((device, token));
    }
    // And one who keeps saving and unsaving while the backup runs.
    let busy = Arc::new(AtomicBool::new(true));
    let writer = {
        let (addr, busy, stories) = (server.addr.clone(), busy.clone(), stories.clone());
        std::thread::spawn(move || {
            let device = "backup-device-busy-000000000000000";
            let (_, body) = support::call(&addr, device, "/user/init", None, json!({}));
            let token = body["data"]["token"].as_str().unwrap().to_string();
            let mut calls = 0;
            while busy.load(Ordering::Relaxed) || calls < 20 {
                let path = if calls % 2 == 0 {
                    "/user/news/collect"
                } else {
                    "/user/news/unCollect"
                };
                let id = stories[20 + calls % 10];
                let (status, body) = support::call(&addr, device, path, Some(&token), json!({"news_id": id}));
                assert_eq!(status, 200, "{body}");
                calls += 1;
            }
            calls
        })
    };
    let (ok, out, err) = run(&["backup", file_arg], &a);
    busy.store(false, Ordering::Relaxed);
    assert!(ok, "backup failed: {err}");
    assert!(
        out.contains("Backed up 3 databases (localwire.sqlite, localwire-content.sqlite, localwire-reports.sqlite)"),
        "{out}"
    );
    assert!(writer.join().unwrap() >= 20, "writes went on during the backup");
    // Issue 33: off a terminal, progress is plain lines on stderr, in megabytes.
    assert!(err.contains("backup: ") && err.contains(" MB (100%)"), "{err}");

    // Restoring into the directory a server owns is refused, and changes nothing there.
    let (ok, _, err) = run(&["restore", file_arg], &a);
    assert!(!ok);
    assert!(err.contains("another Localwire process is serving from"), "{err}");
    assert!(!a.join("before-restore").exists());
    server.stop();

    let (ok, out, err) = run(&["restore", file_arg], &b);
    assert!(ok, "restore failed: {err}");
    assert!(err.contains("restore: ") && err.contains(" MB (100%)"), "{err}");
    assert!(out.contains("Restored 3 databases"), "{out}");
    assert!(
        !out.contains("replaced"),
        "an empty directory has nothing to move aside: {out}"
    );
    let restored = Server::start(&b, &[]);
    assert_eq!(latest_ids(&restored, 30), stories, "every story is there");
    for (r, (device, token)) in readers.iter().enumerate() {
        let mut saved = saved_ids(&restored, device, token);
        saved.sort_unstable();
        let mut expected = stories[r * 3..r * 3 + 3].to_vec();
        expected.sort_unstable();
        assert_eq!(saved, expected, "reader {r}'s saves, with their session");
    }
    restored.stop();

    // Restoring over a data directory moves what was there aside.
    let (ok, out, err) = run(&["restore", file_arg], &a);
    assert!(ok, "restore failed: {err}");
    let aside = out
        .lines()
        .find_map(|l| l.strip_prefix("The databases it replaced are in "))
        .unwrap_or_else(|| panic!("names where the old files went: {out}"))
        .trim_end_matches('.');
    let kept: Vec<String> = std::fs::read_dir(aside)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(kept.contains(&"localwire.sqlite".to_string()), "{kept:?}");
    assert!(kept.contains(&"localwire-content.sqlite".to_string()), "{kept:?}");

    // A second restore at once keeps its old files apart from the first one's.
    let (ok, out, err) = run(&["restore", file_arg], &a);
    assert!(ok, "restore failed: {err}");
    let second = out
        .lines()
        .find_map(|l| l.strip_prefix("The databases it replaced are in "))
        .unwrap()
        .trim_end_matches('.')
        .to_string();
    assert_ne!(second, aside, "a new place for the second restore's old files");
    assert!(std::path::Path::new(aside).join("localwire.sqlite").exists());
}

#[test]
fn d395_a_damaged_or_foreign_backup_is_refused_and_the_data_directory_is_untouched() {
    let home = temp_dir("restore-bad");
    let dir = home.join("data");
    let (ok, _, err) = run(&["migrate"], &dir);
    assert!(ok, "{err}");
    let before = std::fs::read(dir.join("localwire.sqlite")).unwrap();

    let not_tar = home.join("notes.txt");
    std::fs::write(&not_tar, "not a backup").unwrap();
    let (ok, _, err) = run(&["restore", not_tar.to_str().unwrap()], &dir);
    assert!(!ok);
    assert!(err.contains("is not a Localwire backup"), "{err}");

    // A tar whose database is garbage.
    let (ok, _, err) = run(&["backup", home.join("good.tar").to_str().unwrap()], &dir);
    assert!(ok, "{err}");
    let mut bytes = std::fs::read(home.join("good.tar")).unwrap();
    for b in bytes.iter_mut().skip(512 + 200).take(4096) {
        *b = 0x5a;
    }
    let damaged = home.join("damaged.tar");
    std::fs::write(&damaged, &bytes).unwrap();
    let (ok, _, err) = run(&["restore", damaged.to_str().unwrap()], &dir);
    assert!(!ok);
    assert!(
        err.contains("in the backup is damaged") || err.contains("in the backup is not an SQLite database"),
        "{err}"
    );

    // A backup cut short, or made by hand: no manifest listing what it holds.
    let by_hand = home.join("by-hand.tar");
    let status = std::process::Command::new("tar")
        .arg("cf")
        .arg(&by_hand)
        .arg("-C")
        .arg(&dir)
        .arg("localwire.sqlite")
        .status()
        .unwrap();
    assert!(status.success());
    let (ok, _, err) = run(&["restore", by_hand.to_str().unwrap()], &dir);
    assert!(!ok);
    assert!(
        err.contains("is incomplete: its manifest does not list the files it holds"),
        "{err}"
    );

    // A path that climbs out of the data directory is never written.
    let evil = home.join("evil.tar");
    let mut tar = Vec::new();
    let mut header = [0u8; 512];
    header[..11].copy_from_slice(b"../escape.x");
    header[100..107].copy_from_slice(b"0000644");
    header[124..135].copy_from_slice(b"00000000004");
    header[156] = b'0';
    header[257..262].copy_from_slice(b"ustar");
    header[148..156].copy_from_slice(b"        ");
    let sum: u32 = header.iter().map(|b| u32::from(*b)).sum();
    header[148..155].copy_from_slice(format!("{sum:06o}\0").as_bytes());
    tar.extend_from_slice(&header);
    tar.extend_from_slice(&[b'x'; 4]);
    tar.resize(512 * 4, 0);
    std::fs::write(&evil, &tar).unwrap();
    let (ok, _, err) = run(&["restore", evil.to_str().unwrap()], &dir);
    assert!(!ok);
    assert!(
        err.contains("is not a Localwire backup: it holds \"../escape.x\""),
        "{err}"
    );
    assert!(!dir.join("../escape.x").exists() && !home.join("escape.x").exists());

    assert_eq!(
        std::fs::read(dir.join("localwire.sqlite")).unwrap(),
        before,
        "nothing changed"
    );
    assert!(!std::fs::read_dir(&dir).unwrap().any(|e| {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        name.starts_with("before-restore") || name.starts_with(".restore")
    }));
}

#[test]
fn d395_a_second_server_on_one_data_directory_is_refused_and_postgres_is_sent_to_pg_dump() {
    let dir = temp_dir("one-owner");
    let first = Server::start(&dir, &[]);
    let out = bin()
        .args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("another Localwire process is serving from"), "{err}");
    first.stop();

    let out = bin()
        .args(["backup", "x.tar", "--database-url", "postgres://127.0.0.1:1/none"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("pg_dump and pg_restore"));
}

/// PostgreSQL is backed up with its own tools (README, Backups): what the README says
/// works, where a PostgreSQL server and its client tools are at hand.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn d395_postgres_round_trips_through_pg_dump_and_pg_restore_as_the_readme_says() {
    let Some(source) = support::fresh_postgres_url().await else {
        eprintln!("skipped: TEST_DATABASE_URL is not set");
        return;
    };
    if std::process::Command::new("pg_dump").arg("--version").output().is_err() {
        eprintln!("skipped: pg_dump is not installed");
        return;
    }
    let target = support::fresh_postgres_url().await.unwrap();
    let home = temp_dir("pg-backup");
    tokio::task::spawn_blocking(move || {
        let server = Server::start(&home.join("unused"), &["--demo", "--database-url", &source]);
        let stories = latest_ids(&server, 10);
        let device = "pg-backup-device-000000000000000";
        let token = server.guest(device);
        for id in &stories[..3] {
            let (status, body) = server.call(device, "/user/news/collect", Some(&token), json!({"news_id": id}));
            assert_eq!(status, 200, "{body}");
        }
        // While serving, as an operator would.
        let dump = home.join("localwire.dump");
        let out = std::process::Command::new("pg_dump")
            .args(["--format=custom", "--file"])
            .arg(&dump)
            .arg(&source)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        server.stop();
        let out = std::process::Command::new("pg_restore")
            .args(["--no-owner", "--exit-on-error", "--dbname", &target])
            .arg(&dump)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

        let restored = Server::start(&home.join("unused"), &["--database-url", &target]);
        assert_eq!(latest_ids(&restored, 10), stories);
        let mut saved = saved_ids(&restored, device, &token);
        saved.sort_unstable();
        let mut expected = stories[..3].to_vec();
        expected.sort_unstable();
        assert_eq!(saved, expected, "the reader's saves, with their session");
        restored.stop();
    })
    .await
    .unwrap();
}
