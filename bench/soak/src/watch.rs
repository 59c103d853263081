//! What the server holds while it serves: its resident memory and open descriptors (from
//! /proc), and its database's size on disk.

use std::path::PathBuf;
use std::process::Command;

#[derive(Clone, Debug)]
pub enum Database {
    /// The SQLite data directory.
    Sqlite(PathBuf),
    /// The database's name, and a URL to the server's maintenance database for psql.
    Postgres { name: String, admin_url: String },
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Sample {
    /// Seconds since the load started.
    pub at_s: f64,
    /// Resident memory of its own (RssAnon), without the mapped database (D434).
    pub rss_kb: u64,
    pub fds: u64,
    /// The database files (SQLite) or `pg_database_size` (PostgreSQL).
    pub db_bytes: u64,
    /// SQLite: the write-ahead logs' size now. PostgreSQL: WAL written by the whole server
    /// since the load started (the WAL is the cluster's, not one database's).
    pub wal_bytes: u64,
}

pub fn sample(pid: u32, db: &Database, at_s: f64, wal_start: u64) -> Sample {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let rss_kb = status
        .lines()
        // The server's own memory: since D434 its SQLite readers map the content file, and
        // the pages they touch (the OS's file cache) count in VmRSS as the file grows.
        .find_map(|l| l.strip_prefix("RssAnon:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0);
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, |d| d.count() as u64);
    let (db_bytes, wal_bytes) = match db {
        Database::Sqlite(dir) => sqlite_sizes(dir),
        Database::Postgres { name, admin_url } => (
            psql_number(admin_url, &format!("SELECT pg_database_size('{name}')")),
            wal_position(admin_url).saturating_sub(wal_start),
        ),
    };
    Sample {
        at_s,
        rss_kb,
        fds,
        db_bytes,
        wal_bytes,
    }
}

fn sqlite_sizes(dir: &PathBuf) -> (u64, u64) {
    let (mut db, mut wal) = (0, 0);
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let len = entry.metadata().map_or(0, |m| m.len());
        if name.ends_with(".sqlite") {
            db += len;
        } else if name.ends_with(".sqlite-wal") {
            wal += len;
        }
    }
    (db, wal)
}

/// Bytes of WAL the PostgreSQL server has written since it was made.
pub fn wal_position(admin_url: &str) -> u64 {
    psql_number(admin_url, "SELECT pg_current_wal_lsn() - '0/0'")
}

pub fn psql(admin_url: &str, sql: &str) -> anyhow::Result<String> {
    let out = Command::new("psql")
        .args([
            "-X",
            "-q",
            "-A",
            "-t",
            "-v",
            "ON_ERROR_STOP=1",
            "-d",
            admin_url,
            "-c",
            sql,
        ])
        .output()?;
    if !out.status.success() {
        anyhow::bail!("psql {sql}: {}", String::from_utf8_lossy(&out.stderr));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn psql_number(admin_url: &str, sql: &str) -> u64 {
    psql(admin_url, sql)
        .ok()
        .and_then(|s| s.split('.').next().and_then(|n| n.parse().ok()))
        .unwrap_or(0)
}
