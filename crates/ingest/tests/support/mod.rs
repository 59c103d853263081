//! A loopback feed server for the fetcher's tests: axum where a well-behaved HTTP server
//! is enough, raw TCP where the test needs a server that misbehaves.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use ingest::fetch::{FetchPolicy, HostLookup, LookupFuture};
use tokio::net::{TcpListener, TcpStream};

pub const RSS: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Loopback Gazette</title><link>http://example.test/</link>
<item><title>Council approves new bike lanes</title><guid>lg-1</guid></item>
</channel></rss>"#;

/// A policy for tests against 127.0.0.1: private addresses allowed, short timeouts.
pub fn loopback_policy() -> FetchPolicy {
    FetchPolicy {
        allow_private: true,
        connect_timeout: Duration::from_secs(2),
        total_timeout: Duration::from_secs(5),
        ..FetchPolicy::default()
    }
}

/// Serves `router` on 127.0.0.1 at a free port until the test's runtime ends.
pub async fn serve(router: Router) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    addr
}

/// Accepts connections on 127.0.0.1 and hands each raw socket to `handle`.
pub async fn serve_raw<F, Fut>(handle: F) -> SocketAddr
where
    F: Fn(TcpStream) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            tokio::spawn(handle(socket));
        }
    });
    addr
}

/// Reads a request head (up to the blank line) so a raw server answers after it.
pub async fn read_request_head(socket: &mut TcpStream) -> String {
    use tokio::io::AsyncReadExt;
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = socket.read(&mut buf).await.unwrap_or(0);
        if n == 0 {
            break;
        }
        head.extend_from_slice(&buf[..n]);
    }
    String::from_utf8_lossy(&head).into_owned()
}

/// A resolver with a fixed answer per name, standing in for DNS that points a
/// public-looking name wherever an attacker likes.
pub struct StaticLookup(pub HashMap<String, Vec<IpAddr>>);

impl StaticLookup {
    pub fn one(name: &str, addr: IpAddr) -> Arc<Self> {
        Arc::new(Self(HashMap::from([(name.to_owned(), vec![addr])])))
    }
}

impl HostLookup for StaticLookup {
    fn lookup(&self, host: &str) -> LookupFuture {
        let answer = self
            .0
            .get(host)
            .cloned()
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, format!("no such host {host} (test resolver)")));
        Box::pin(async move { answer })
    }
}

/// A fresh directory under the system temp dir, removed with what is in it when dropped,
/// so test runs leave nothing behind.
pub struct TempDir(std::path::PathBuf);

impl TempDir {
    pub fn new(prefix: &str) -> TempDir {
        // Tests run in parallel threads and the clock can repeat: a counter keeps two
        // tests from sharing (and failing to open) one database.
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = std::env::temp_dir().join(format!("{prefix}-{}-{nanos}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("create a temp dir");
        TempDir(dir)
    }

    pub fn path(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
