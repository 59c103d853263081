//! `localwire backup FILE` and `localwire restore FILE` for the SQLite engine (issue 30,
//! D395). A backup is one tar file holding a consistent copy of each database file of the
//! data directory (identity, content, reports), made with `VACUUM INTO` while a server
//! keeps serving. A restore checks every copy before it touches the data directory, moves
//! what was there aside (nothing is deleted), and refuses while a server owns the
//! directory ([`DataDirOwner`]).
//!
//! Plain blocking code: the CLI runs it on its own, never inside a request.

use crate::sqlite::content_file;
use crate::sqlite::report_writer::reports_file;
use rusqlite::{Connection, OpenFlags};
use std::fs::{self, File, TryLockError};
use std::io;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The file an `sqlite:` URL names; None for an in-memory database.
pub fn file_of_url(url: &str) -> std::result::Result<Option<PathBuf>, crate::sqlite::StoreError> {
    let options = sqlx::sqlite::SqliteConnectOptions::from_str(url).map_err(crate::sqlite::db)?;
    let path = options.get_filename();
    let in_memory = url.contains(":memory:") || url.contains("mode=memory") || path.as_os_str().is_empty();
    Ok((!in_memory).then(|| path.to_path_buf()))
}

/// The lock file beside the identity database that a serving process holds.
pub fn lock_file(identity: &Path) -> PathBuf {
    with_suffix(identity, ".lock")
}

/// The lock file the other commands that write (ingest, feeds, specials, OPML) share, so
/// a restore waits for none of them to be running.
fn tools_lock_file(identity: &Path) -> PathBuf {
    with_suffix(identity, ".tools.lock")
}

/// The last entry of every backup: the files before it, with their sizes, so a backup cut
/// short between two files is told from a whole one.
const MANIFEST: &str = "localwire-backup.json";

/// While held, this process owns the data directory: a second `serve` on it, or a restore
/// into it, is refused. One server per SQLite data directory is what the guest writer
/// assumes (it hands out ids in memory, D165). The operating system drops the lock when
/// the process ends, a crash included, so a stale lock file never blocks anything.
#[derive(Debug)]
pub struct DataDirOwner {
    _files: Vec<File>,
}

#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error(
        "another Localwire process is serving from {0} or writing to it; stop it before restoring (or start this one on another data directory)"
    )]
    InUse(PathBuf),
    #[error("{0} does not exist; give the data directory (--data-dir) of a Localwire installation")]
    NoDatabase(PathBuf),
    #[error("{what}: {source}")]
    Io { what: String, source: io::Error },
    #[error("{what}: {source}")]
    Sqlite { what: String, source: rusqlite::Error },
    #[error("{0}")]
    Invalid(String),
}

type Result<T> = std::result::Result<T, BackupError>;

fn io_err(what: impl Into<String>) -> impl FnOnce(io::Error) -> BackupError {
    let what = what.into();
    move |source| BackupError::Io { what, source }
}

fn sql_err(what: impl Into<String>) -> impl FnOnce(rusqlite::Error) -> BackupError {
    let what = what.into();
    move |source| BackupError::Sqlite { what, source }
}

fn open_lock(path: &Path) -> Result<File> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(io_err(format!("creating {}", dir.display())))?;
    }
    File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .map_err(io_err(format!("opening {}", path.display())))
}

fn locked(file: File, result: std::result::Result<(), TryLockError>, identity: &Path) -> Result<File> {
    match result {
        Ok(()) => Ok(file),
        Err(TryLockError::WouldBlock) => Err(BackupError::InUse(identity.to_path_buf())),
        Err(TryLockError::Error(e)) => Err(io_err(format!("locking beside {}", identity.display()))(e)),
    }
}

impl DataDirOwner {
    /// Take the data directory of `identity` for this server, or say who has it.
    pub fn take(identity: &Path) -> Result<DataDirOwner> {
        let file = open_lock(&lock_file(identity))?;
        let result = file.try_lock();
        Ok(DataDirOwner {
            _files: vec![locked(file, result, identity)?],
        })
    }

    /// For a command that writes beside a server (ingest, feeds, specials, OPML): many may
    /// hold this at once, and a restore waits for none to be running.
    pub fn share(identity: &Path) -> Result<DataDirOwner> {
        let file = open_lock(&tools_lock_file(identity))?;
        let result = file.try_lock_shared();
        Ok(DataDirOwner {
            _files: vec![locked(file, result, identity)?],
        })
    }

    /// Everything: no server and no other command on the directory (restore).
    fn take_all(identity: &Path) -> Result<DataDirOwner> {
        let mut owner = DataDirOwner::take(identity)?;
        let tools = open_lock(&tools_lock_file(identity))?;
        let result = tools.try_lock();
        owner._files.push(locked(tools, result, identity)?);
        Ok(owner)
    }
}

/// The database files of a data directory, in the order a backup copies them: people
/// first, then the content they point at, so a copy never holds a saved story whose story
/// is missing (content only grows between the two copies, and retention drops stories
/// days old, not seconds). A data directory from before the content split has no content
/// file; every directory since issue 29 has a reports file.
fn database_files(identity: &Path) -> Vec<(&'static str, PathBuf)> {
    [
        ("localwire.sqlite", identity.to_path_buf()),
        ("localwire-content.sqlite", content_file(identity)),
        ("localwire-reports.sqlite", reports_file(identity)),
    ]
    .into_iter()
    .filter(|(_, path)| path.exists())
    .collect()
}

/// What a backup or restore did, for the CLI to print.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Each database: its name in the backup and its bytes.
    pub files: Vec<(String, u64)>,
    /// Where a restore moved the files it replaced.
    pub moved_aside: Option<PathBuf>,
}

/// Copy the databases of `identity`'s data directory into the tar file `out`. Runs beside
/// a serving process: `VACUUM INTO` reads one snapshot of each file and writes a compact
/// copy, without blocking the server's writers (WAL mode). The tar is written under a
/// temporary name and renamed at the end, so `out` is always a whole backup or absent.
///
/// `watch(done, total)` hears how far it is, in bytes of the databases copied (a copy
/// is compact, so it ends at `total` only when told so at the end); from this thread and
/// from one that looks at the copy's size while SQLite writes it.
pub fn backup(identity: &Path, out: &Path, watch: &(dyn Fn(u64, u64) + Sync)) -> Result<Summary> {
    if !identity.exists() {
        return Err(BackupError::NoDatabase(identity.to_path_buf()));
    }
    let files = database_files(identity);
    let total: u64 = files
        .iter()
        .filter_map(|(_, p)| fs::metadata(p).ok())
        .map(|m| m.len())
        .sum();
    let mut done = 0;
    watch(0, total);
    let partial = with_suffix(out, ".partial");
    let scratch = with_suffix(out, ".parts");
    let _ = fs::remove_dir_all(&scratch);
    fs::create_dir_all(&scratch).map_err(io_err(format!("creating {}", scratch.display())))?;
    let result = (|| {
        let mut summary = Summary::default();
        let mut tar =
            tar::Builder::new(File::create(&partial).map_err(io_err(format!("creating {}", partial.display())))?);
        for (name, path) in files {
            let copy = scratch.join(name);
            let conn = Connection::open_with_flags(&path, OpenFlags::SQLITE_OPEN_READ_ONLY)
                .map_err(sql_err(format!("opening {}", path.display())))?;
            conn.busy_timeout(std::time::Duration::from_secs(30))
                .map_err(sql_err("setting the busy timeout"))?;
            let copied = watching_size(
                &copy,
                |bytes| watch(done + bytes, total),
                || conn.execute("VACUUM INTO ?1", [copy.to_string_lossy()]),
            );
            copied.map_err(sql_err(format!("copying {}", path.display())))?;
            drop(conn);
            done += fs::metadata(&path).map(|m| m.len()).unwrap_or_default();
            watch(done.min(total), total);
            let bytes = fs::metadata(&copy)
                .map_err(io_err(format!("reading {}", copy.display())))?
                .len();
            tar.append_path_with_name(&copy, name).map_err(io_err(format!(
                "writing {} into {}",
                name,
                partial.display()
            )))?;
            fs::remove_file(&copy).map_err(io_err(format!("removing {}", copy.display())))?;
            summary.files.push((name.to_string(), bytes));
        }
        let manifest = serde_json::to_vec(&serde_json::json!({ "format": 1, "files": summary.files }))
            .map_err(|e| BackupError::Invalid(e.to_string()))?;
        let mut header = tar::Header::new_gnu();
        header.set_size(manifest.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        tar.append_data(&mut header, MANIFEST, manifest.as_slice())
            .map_err(io_err(format!("writing the manifest into {}", partial.display())))?;
        let file = tar
            .into_inner()
            .map_err(io_err(format!("finishing {}", partial.display())))?;
        file.sync_all()
            .map_err(io_err(format!("syncing {}", partial.display())))?;
        fs::rename(&partial, out).map_err(io_err(format!("renaming {} to {}", partial.display(), out.display())))?;
        Ok(summary)
    })();
    let _ = fs::remove_dir_all(&scratch);
    if result.is_err() {
        let _ = fs::remove_file(&partial);
    }
    result
}

/// Run `work` while another thread tells `seen` the size of `file` every 200 ms.
fn watching_size<T>(file: &Path, seen: impl Fn(u64) + Sync, work: impl FnOnce() -> T) -> T {
    let finished = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        let poller = scope.spawn(|| {
            while !finished.load(std::sync::atomic::Ordering::Relaxed) {
                if let Ok(meta) = fs::metadata(file) {
                    seen(meta.len());
                }
                std::thread::park_timeout(std::time::Duration::from_millis(200));
            }
        });
        let result = work();
        finished.store(true, std::sync::atomic::Ordering::Relaxed);
        // Woken, so the copy is not kept waiting for the poller's next look.
        poller.thread().unpark();
        result
    })
}

/// Put the databases of the backup `input` in place of `identity`'s. Checks the whole
/// backup first (known names only, each an SQLite file whose `integrity_check` is ok, the
/// identity database present), then moves the current files, with their WAL and shared
/// memory files, into `before-restore-<unix seconds>/` beside them, then moves the copies in.
///
/// `watch(done, total)` hears how far it is: bytes of the backup read, then each
/// database's bytes again as its check passes (`total` is twice the backup's size).
pub fn restore(identity: &Path, input: &Path, now_unix: u64, watch: &dyn Fn(u64, u64)) -> Result<Summary> {
    let _owner = DataDirOwner::take_all(identity)?;
    let dir = identity
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let incoming = dir.join(format!(".restore-{now_unix}"));
    let _ = fs::remove_dir_all(&incoming);
    fs::create_dir_all(&incoming).map_err(io_err(format!("creating {}", incoming.display())))?;
    let result = unpack_and_check(input, &incoming, watch).and_then(|files| {
        let targets: Vec<(String, PathBuf)> = files
            .iter()
            .map(|(name, _)| (name.clone(), target_of(identity, name)))
            .collect();
        let aside = free_name(dir, &format!("before-restore-{now_unix}"));
        let moved = move_aside(identity, &aside)?;
        for (name, target) in &targets {
            fs::rename(incoming.join(name), target).map_err(io_err(format!(
                "moving the restored {name} to {} (the databases it replaced are in {})",
                target.display(),
                aside.display()
            )))?;
        }
        Ok(Summary {
            files,
            moved_aside: moved.then_some(aside),
        })
    });
    let _ = fs::remove_dir_all(&incoming);
    result
}

/// `dir/base`, or `dir/base-2`, `-3`… when taken: a second restore never mixes its old
/// files into the first one's.
fn free_name(dir: &Path, base: &str) -> PathBuf {
    let mut path = dir.join(base);
    let mut n = 2;
    while path.exists() {
        path = dir.join(format!("{base}-{n}"));
        n += 1;
    }
    path
}

fn target_of(identity: &Path, name: &str) -> PathBuf {
    match name {
        "localwire-content.sqlite" => content_file(identity),
        "localwire-reports.sqlite" => reports_file(identity),
        _ => identity.to_path_buf(),
    }
}

const KNOWN: [&str; 3] = [
    "localwire.sqlite",
    "localwire-content.sqlite",
    "localwire-reports.sqlite",
];

fn unpack_and_check(input: &Path, into: &Path, watch: &dyn Fn(u64, u64)) -> Result<Vec<(String, u64)>> {
    let file = File::open(input).map_err(io_err(format!("opening the backup {}", input.display())))?;
    let size = file.metadata().map(|m| m.len()).unwrap_or_default();
    let (read, checked) = (std::cell::Cell::new(0), std::cell::Cell::new(0));
    let tell = || watch(read.get().min(size) + checked.get(), size * 2);
    let seen = |n| {
        read.set(n);
        tell();
    };
    let mut archive = tar::Archive::new(Counted {
        inner: file,
        read: 0,
        seen: &seen,
    });
    let mut files = Vec::new();
    let not_a_backup =
        |e: io::Error| BackupError::Invalid(format!("{} is not a Localwire backup ({e})", input.display()));
    let mut manifest: Option<Vec<(String, u64)>> = None;
    for entry in archive.entries().map_err(not_a_backup)? {
        let mut entry = entry.map_err(not_a_backup)?;
        let name = entry
            .path()
            .map_err(io_err("reading a name in the backup"))?
            .to_string_lossy()
            .into_owned();
        if manifest.is_some() || files.iter().any(|(n, _)| *n == name) {
            return Err(BackupError::Invalid(format!(
                "{} is not a Localwire backup: {name:?} appears twice or after its manifest",
                input.display()
            )));
        }
        if name == MANIFEST {
            let mut text = String::new();
            io::Read::read_to_string(&mut io::Read::take(&mut entry, 1 << 20), &mut text).map_err(not_a_backup)?;
            let listed = serde_json::from_str::<serde_json::Value>(&text)
                .ok()
                .and_then(|v| serde_json::from_value(v["files"].clone()).ok());
            manifest = Some(
                listed
                    .ok_or_else(|| BackupError::Invalid(format!("{}: its manifest is unreadable", input.display())))?,
            );
            continue;
        }
        // Only the three names a backup writes: an entry naming any other path (`../x`,
        // an absolute path) is never written anywhere.
        let Some(known) = KNOWN.iter().find(|k| **k == name) else {
            return Err(BackupError::Invalid(format!(
                "{} is not a Localwire backup: it holds {name:?} (a backup holds only {})",
                input.display(),
                KNOWN.join(", ")
            )));
        };
        let path = into.join(known);
        let mut out = File::create(&path).map_err(io_err(format!("creating {}", path.display())))?;
        let declared = entry.header().size().map_err(not_a_backup)?;
        let bytes =
            io::copy(&mut entry, &mut out).map_err(io_err(format!("unpacking {name} from {}", input.display())))?;
        if bytes == 0 || bytes != declared {
            return Err(BackupError::Invalid(format!(
                "{name} in the backup is cut short ({bytes} of {declared} bytes)"
            )));
        }
        out.sync_all().map_err(io_err(format!("syncing {}", path.display())))?;
        check_database(&path, &name)?;
        checked.set(checked.get() + bytes);
        tell();
        files.push((name, bytes));
    }
    if !files.iter().any(|(name, _)| name == KNOWN[0]) {
        return Err(BackupError::Invalid(format!(
            "{} is not a Localwire backup: it has no {}",
            input.display(),
            KNOWN[0]
        )));
    }
    if manifest.as_ref() != Some(&files) {
        return Err(BackupError::Invalid(format!(
            "{} is incomplete: its manifest does not list the files it holds (cut short, or not made by `localwire backup`)",
            input.display()
        )));
    }
    Ok(files)
}

fn check_database(path: &Path, name: &str) -> Result<()> {
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(sql_err(format!("opening {name} from the backup")))?;
    let verdict: String = conn
        .query_row("PRAGMA integrity_check", [], |row| row.get(0))
        .map_err(|e| BackupError::Invalid(format!("{name} in the backup is not an SQLite database ({e})")))?;
    if verdict != "ok" {
        return Err(BackupError::Invalid(format!(
            "{name} in the backup is damaged (integrity check: {verdict})"
        )));
    }
    Ok(())
}

/// Move every current database file (and its -wal and -shm) into `aside`. False when the
/// data directory held none.
fn move_aside(identity: &Path, aside: &Path) -> Result<bool> {
    let mut moved = false;
    for name in KNOWN {
        let base = target_of(identity, name);
        for path in [base.clone(), with_suffix(&base, "-wal"), with_suffix(&base, "-shm")] {
            if !path.exists() {
                continue;
            }
            fs::create_dir_all(aside).map_err(io_err(format!("creating {}", aside.display())))?;
            let to = aside.join(path.file_name().unwrap_or_default());
            fs::rename(&path, &to).map_err(io_err(format!("moving {} to {}", path.display(), to.display())))?;
            moved = true;
        }
    }
    Ok(moved)
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(suffix);
    PathBuf::from(name)
}

/// A reader that tells `seen` how many bytes it has read so far.
struct Counted<'a, R> {
    inner: R,
    read: u64,
    seen: &'a dyn Fn(u64),
}

impl<R: io::Read> io::Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        (self.seen)(self.read);
        Ok(n)
    }
}
