//! PostgreSQL going away under a running server (issue 30). The machine's shared
//! PostgreSQL is left alone: the server reaches it through a TCP proxy in this test, and
//! "the database restarts" is the proxy cutting every connection and refusing new ones
//! for a while, which is what a server restart looks like from the client side.
//! During the outage calls answer a 503 envelope at once (not a hang, not a 500); after
//! it, the same process serves again within seconds with nothing restarted.

mod support;

use serde_json::json;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use support::{Server, latest_ids, saved_ids, temp_dir};

/// A TCP proxy to `target` that can be switched off: off, it cuts the connections it
/// carries and closes new ones as soon as they arrive.
struct Proxy {
    addr: String,
    up: Arc<AtomicBool>,
    open: Arc<Mutex<Vec<TcpStream>>>,
}

impl Proxy {
    fn start(target: String) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let up = Arc::new(AtomicBool::new(true));
        let open: Arc<Mutex<Vec<TcpStream>>> = Arc::default();
        let (up2, open2) = (up.clone(), open.clone());
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { continue };
                if !up2.load(Ordering::SeqCst) {
                    drop(client);
                    continue;
                }
                let Ok(server) = TcpStream::connect(&target) else {
                    continue;
                };
                for s in [&client, &server] {
                    open2.lock().unwrap().push(s.try_clone().unwrap());
                }
                pipe(client.try_clone().unwrap(), server.try_clone().unwrap());
                pipe(server, client);
            }
        });
        Proxy { addr, up, open }
    }

    fn down(&self) {
        self.up.store(false, Ordering::SeqCst);
        for s in self.open.lock().unwrap().drain(..) {
            let _ = s.shutdown(Shutdown::Both);
        }
    }

    fn up(&self) {
        self.up.store(true, Ordering::SeqCst);
    }
}

fn pipe(mut from: TcpStream, mut to: TcpStream) {
    std::thread::spawn(move || {
        let mut buf = [0u8; 16 * 1024];
        while let Ok(n) = from.read(&mut buf) {
            if n == 0 || to.write_all(&buf[..n]).is_err() {
                break;
            }
        }
        let _ = to.shutdown(Shutdown::Both);
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_restarting_mid_load_answers_503_envelopes_then_recovers_by_itself() {
    let Some(url) = support::fresh_postgres_url().await else {
        eprintln!("skipped: TEST_DATABASE_URL is not set");
        return;
    };
    tokio::task::spawn_blocking(move || {
        // postgres://user@host:port/db → the same through the proxy.
        let (scheme_user, rest) = url.split_once('@').unwrap();
        let (host_port, db) = rest.split_once('/').unwrap();
        let target = if host_port.contains(':') {
            host_port.to_string()
        } else {
            format!("{host_port}:5432")
        };
        let proxy = Proxy::start(target);
        let proxied = format!("{scheme_user}@{}/{db}", proxy.addr);
        let home = temp_dir("outage");
        let server = Server::start(
            &home,
            &["--demo", "--database-url", &proxied, "--calls-per-second", "0"],
        );
        let stories = latest_ids(&server, 10);
        let device = "outage-device-0000000000000000000";
        let token = server.guest(device);
        let save = |id: i64| support::save(&server, device, &token, id);
        assert_eq!(save(stories[0]).0, 200);
        // Load all along: four readers reading and saving.
        let busy = Arc::new(AtomicBool::new(true));
        let load: Vec<_> = (0..4)
            .map(|i| {
                let (addr, busy, stories) = (server.addr.clone(), busy.clone(), stories.clone());
                std::thread::spawn(move || {
                    let device = format!("outage-load-{i}-000000000000000000");
                    let (_, body) = support::call(&addr, &device, "/user/init", None, json!({}));
                    let token = body["data"]["token"].as_str().unwrap().to_string();
                    let mut seen = std::collections::BTreeMap::<u16, usize>::new();
                    let mut n = 0;
                    while busy.load(Ordering::Relaxed) {
                        let id = stories[n % stories.len()];
                        let (status, _) = support::call(
                            &addr,
                            &device,
                            "/user/news/collect",
                            Some(&token),
                            json!({"news_id": id}),
                        );
                        *seen.entry(status).or_default() += 1;
                        let (status, _) =
                            support::request(&addr, "GET", &format!("/api/news/detail?news_id={id}"), &[], "");
                        *seen.entry(status).or_default() += 1;
                        n += 1;
                    }
                    seen
                })
            })
            .collect();
        std::thread::sleep(Duration::from_millis(300));

        proxy.down();
        let asked = Instant::now();
        let (status, head, body) = save(stories[1]);
        let took = asked.elapsed();
        support::assert_database_unavailable(status, &head, &body);
        assert!(took < Duration::from_secs(6), "answered in {took:?}, not hung");
        let (status, body) = server.get("/healthz");
        assert_eq!(status, 503, "{body}");
        // A second of outage, with calls coming in.
        for id in &stories[2..4] {
            assert_eq!(save(*id).0, 503);
        }

        proxy.up();
        let back = Instant::now();
        loop {
            let (status, _, body) = save(stories[4]);
            if status == 200 {
                break;
            }
            assert_eq!(status, 503, "{body}");
            assert!(
                back.elapsed() < Duration::from_secs(10),
                "not back 10 s after the database"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let recovered = back.elapsed();
        assert_eq!(server.get("/healthz").0, 200);
        std::thread::sleep(Duration::from_millis(300));
        busy.store(false, Ordering::Relaxed);
        let mut statuses = std::collections::BTreeMap::<u16, usize>::new();
        for l in load {
            for (status, n) in l.join().unwrap() {
                *statuses.entry(status).or_default() += n;
            }
        }
        assert!(
            statuses.keys().all(|s| [200, 503].contains(s)),
            "under load every answer was a success or a 503 (no 500, no reset): {statuses:?}"
        );
        assert!(statuses.contains_key(&503) && statuses[&200] > 10, "{statuses:?}");
        let saved = saved_ids(&server, device, &token);
        assert!(saved.contains(&stories[0]) && saved.contains(&stories[4]), "{saved:?}");
        eprintln!("503 in {took:?} during the outage; serving again {recovered:?} after it; under load: {statuses:?}");
        server.stop();
    })
    .await
    .unwrap();
}
