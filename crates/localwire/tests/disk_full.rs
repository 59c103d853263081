//! A full disk under SQLite (issue 30): the data directory on a small tmpfs, filled up
//! while the server serves. Writes then answer a 503 envelope that says to try again
//! (never a 500 or a dropped connection), reads go on, nothing is corrupted, and once
//! space returns the same process takes writes again. Needs root to mount the tmpfs;
//! says it skipped otherwise.

mod support;

use serde_json::json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use support::{Server, latest_ids, saved_ids, temp_dir};

struct Mount(PathBuf);

impl Mount {
    fn tmpfs(dir: &Path, size: &str) -> Option<Mount> {
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .status()
            .is_ok_and(|s| s.success());
        ok.then(|| Mount(dir.to_path_buf()))
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

/// Fill the file system of `dir` until a write fails.
fn fill(dir: &Path) -> PathBuf {
    use std::io::Write;
    let path = dir.join("filler");
    let mut f = std::fs::File::create(&path).unwrap();
    let block = vec![0u8; 64 * 1024];
    while f.write_all(&block).is_ok() {}
    let small = [0u8; 512];
    while f.write_all(&small).is_ok() {}
    let _ = f.flush();
    path
}

#[test]
fn a_full_disk_answers_503_envelopes_corrupts_nothing_and_writes_resume_when_space_returns() {
    let home = temp_dir("disk-full");
    let Some(mount) = Mount::tmpfs(&home, "32m") else {
        eprintln!("skipped: mounting a tmpfs needs root");
        return;
    };
    let dir = home.join("data");
    let server = Server::start(&dir, &["--demo", "--calls-per-second", "0"]);
    let stories = latest_ids(&server, 50);
    let device = "disk-full-device-0000000000000000";
    let token = server.guest(device);
    let save = |id: i64| support::save(&server, device, &token, id);
    assert_eq!(save(stories[0]).0, 200);

    let filler = fill(&home);
    // Writes until one meets the full disk (the WAL may have room left from before).
    let mut answered = vec![stories[0]];
    let mut statuses = BTreeMap::<u16, usize>::new();
    let mut refused = None;
    for (n, id) in stories.iter().cycle().skip(1).take(3000).enumerate() {
        let (status, head, body) = if n % 2 == 0 {
            save(*id)
        } else {
            support::call_with_head(
                &server.addr,
                &format!("disk-full-guest-{n:06}-000000000"),
                "/user/init",
                None,
                json!({}),
            )
        };
        *statuses.entry(status).or_default() += 1;
        match status {
            200 if n % 2 == 0 => answered.push(*id),
            200 => {}
            503 => {
                refused = Some((head, body));
                break;
            }
            _ => panic!("with the disk full, a call answered {status}: {head} {body}"),
        }
    }
    let (head, body) = refused.unwrap_or_else(|| panic!("no write met the full disk: {statuses:?}"));
    support::assert_database_unavailable(503, &head, &body);
    // Reads go on.
    assert_eq!(latest_ids(&server, 10), stories[..10].to_vec());

    std::fs::remove_file(filler).unwrap();
    let back = Instant::now();
    loop {
        let (status, _, body) = save(stories[1]);
        if status == 200 {
            answered.push(stories[1]);
            break;
        }
        assert_eq!(status, 503, "{body}");
        assert!(back.elapsed() < Duration::from_secs(10), "writes did not resume");
        std::thread::sleep(Duration::from_millis(100));
    }
    let saved = saved_ids(&server, device, &token);
    for id in &answered {
        assert!(saved.contains(id), "answered save of {id} is there");
    }
    server.stop();
    support::assert_databases_whole(&dir);
    eprintln!(
        "before the 503: {statuses:?}; writes resumed {:?} after space returned",
        back.elapsed()
    );
    drop(mount);
}
