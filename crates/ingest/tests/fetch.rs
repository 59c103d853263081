//! The fetcher against a loopback feed server: conditional GET, compression, limits,
//! timeouts, redirects, Retry-After and the SSRF guard.

mod support;

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::extract::Path as UrlPath;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use ingest::fetch::guard::{check_redirect, check_url_target, filter_resolved};
use ingest::fetch::{BlockReason, FetchError, FetchOutcome, FetchPolicy, Fetcher, Validators, read_file_feed};
use support::{RSS, StaticLookup, TempDir, loopback_policy, read_request_head, serve, serve_raw};
use tokio::io::AsyncWriteExt;
use url::Url;

fn url(addr: SocketAddr, path: &str) -> Url {
    Url::parse(&format!("http://{addr}{path}")).unwrap()
}

fn rss_response() -> Response {
    ([(header::CONTENT_TYPE, "application/rss+xml; charset=utf-8")], RSS).into_response()
}

async fn fetch_with(policy: FetchPolicy, target: &Url) -> Result<FetchOutcome, FetchError> {
    Fetcher::new(policy)
        .unwrap()
        .fetch(target, &Validators::default())
        .await
}

fn fetched_body(outcome: FetchOutcome) -> (Vec<u8>, Url, Validators, Option<String>, u16) {
    match outcome {
        FetchOutcome::Fetched {
            body,
            final_url,
            validators,
            content_type,
            status,
        } => (body, final_url, validators, content_type, status),
        other => panic!("expected a fetched body, got {other:?}"),
    }
}

#[tokio::test]
async fn feed_is_fetched_with_body_and_content_type() {
    let addr = serve(Router::new().route("/feed.xml", get(|| async { rss_response() }))).await;
    let target = url(addr, "/feed.xml");

    let (body, final_url, validators, content_type, status) =
        fetched_body(fetch_with(loopback_policy(), &target).await.unwrap());

    assert_eq!(body, RSS.as_bytes());
    assert_eq!(final_url, target);
    assert_eq!(validators, Validators::default());
    assert_eq!(content_type.as_deref(), Some("application/rss+xml; charset=utf-8"));
    assert_eq!(status, 200);
}

#[tokio::test]
async fn requests_carry_an_honest_user_agent_and_a_feed_accept_header() {
    let seen: Arc<Mutex<Option<HeaderMap>>> = Arc::default();
    let record = Arc::clone(&seen);
    let app = Router::new().route(
        "/feed.xml",
        get(move |headers: HeaderMap| async move {
            *record.lock().unwrap() = Some(headers);
            rss_response()
        }),
    );
    let addr = serve(app).await;

    fetch_with(loopback_policy(), &url(addr, "/feed.xml")).await.unwrap();

    let headers = seen.lock().unwrap().clone().expect("the server saw a request");
    assert_eq!(
        headers[header::USER_AGENT],
        "Localwire/0.1 (+https://localwire.invalid/bot; feed reader)"
    );
    let accept = headers[header::ACCEPT].to_str().unwrap();
    assert!(
        accept.starts_with("application/rss+xml, application/atom+xml, application/feed+json"),
        "{accept}"
    );
    assert!(accept.contains("*/*;q=0.5"), "{accept}");
    assert!(
        !headers.contains_key(header::IF_NONE_MATCH),
        "no validators, no conditional header"
    );
}

/// Answers 304 only when the request carries the ETag it handed out.
#[tokio::test]
async fn etag_round_trip_gives_not_modified() {
    let not_modified = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&not_modified);
    let app = Router::new().route(
        "/feed.xml",
        get(move |headers: HeaderMap| async move {
            if headers.get(header::IF_NONE_MATCH).is_some_and(|v| v == "\"v1\"") {
                counter.fetch_add(1, Ordering::SeqCst);
                return StatusCode::NOT_MODIFIED.into_response();
            }
            (
                [(header::ETAG, "\"v1\""), (header::CONTENT_TYPE, "application/rss+xml")],
                RSS,
            )
                .into_response()
        }),
    );
    let addr = serve(app).await;
    let fetcher = Fetcher::new(loopback_policy()).unwrap();
    let target = url(addr, "/feed.xml");

    let (_, _, validators, _, _) = fetched_body(fetcher.fetch(&target, &Validators::default()).await.unwrap());
    assert_eq!(validators.etag.as_deref(), Some("\"v1\""));

    let second = fetcher.fetch(&target, &validators).await.unwrap();
    // The 304 carried no validators, so the ones sent stay valid.
    assert_eq!(
        second,
        FetchOutcome::NotModified {
            validators: validators.clone()
        }
    );
    assert_eq!(not_modified.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn last_modified_round_trip_gives_not_modified() {
    const STAMP: &str = "Wed, 21 Oct 2015 07:28:00 GMT";
    let app = Router::new().route(
        "/feed.xml",
        get(|headers: HeaderMap| async move {
            if headers.get(header::IF_MODIFIED_SINCE).is_some_and(|v| v == STAMP) {
                return StatusCode::NOT_MODIFIED.into_response();
            }
            ([(header::LAST_MODIFIED, STAMP)], RSS).into_response()
        }),
    );
    let addr = serve(app).await;
    let fetcher = Fetcher::new(loopback_policy()).unwrap();
    let target = url(addr, "/feed.xml");

    let (_, _, validators, _, _) = fetched_body(fetcher.fetch(&target, &Validators::default()).await.unwrap());
    assert_eq!(
        validators,
        Validators {
            etag: None,
            last_modified: Some(STAMP.to_owned())
        }
    );

    assert!(matches!(
        fetcher.fetch(&target, &validators).await.unwrap(),
        FetchOutcome::NotModified { .. }
    ));
}

#[tokio::test]
async fn not_modified_with_new_validators_returns_the_new_ones() {
    let app = Router::new().route(
        "/feed.xml",
        get(|| async { (StatusCode::NOT_MODIFIED, [(header::ETAG, "\"v2\"")]).into_response() }),
    );
    let addr = serve(app).await;
    let old = Validators {
        etag: Some("\"v1\"".into()),
        last_modified: Some("Wed, 21 Oct 2015 07:28:00 GMT".into()),
    };

    let outcome = Fetcher::new(loopback_policy())
        .unwrap()
        .fetch(&url(addr, "/feed.xml"), &old)
        .await
        .unwrap();

    let expected = Validators {
        etag: Some("\"v2\"".into()),
        last_modified: old.last_modified.clone(),
    };
    assert_eq!(outcome, FetchOutcome::NotModified { validators: expected });
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(data).unwrap();
    encoder.finish().unwrap()
}

fn brotli(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut writer = brotli::CompressorWriter::new(&mut out, 4096, 5, 22);
        writer.write_all(data).unwrap();
    }
    out
}

/// Serves `encoded` with `Content-Encoding: encoding`, but only to a client that said it
/// accepts that encoding (otherwise 406, so the test fails if decoding was not offered).
fn encoded_feed(encoding: &'static str, encoded: Vec<u8>) -> Router {
    Router::new().route(
        "/feed.xml",
        get(move |headers: HeaderMap| {
            let encoded = encoded.clone();
            async move {
                let offered = headers
                    .get(header::ACCEPT_ENCODING)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("");
                if !offered.contains(encoding) {
                    return StatusCode::NOT_ACCEPTABLE.into_response();
                }
                (
                    [
                        (header::CONTENT_ENCODING, encoding),
                        (header::CONTENT_TYPE, "application/rss+xml"),
                    ],
                    encoded,
                )
                    .into_response()
            }
        }),
    )
}

#[tokio::test]
async fn gzip_body_is_decoded() {
    let addr = serve(encoded_feed("gzip", gzip(RSS.as_bytes()))).await;
    let (body, ..) = fetched_body(fetch_with(loopback_policy(), &url(addr, "/feed.xml")).await.unwrap());
    assert_eq!(body, RSS.as_bytes());
}

#[tokio::test]
async fn brotli_body_is_decoded() {
    let addr = serve(encoded_feed("br", brotli(RSS.as_bytes()))).await;
    let (body, ..) = fetched_body(fetch_with(loopback_policy(), &url(addr, "/feed.xml")).await.unwrap());
    assert_eq!(body, RSS.as_bytes());
}

#[tokio::test]
async fn gzip_bomb_is_cut_off_at_the_decoded_limit() {
    // 20 MB of zeros compress to about 20 KB: only the decoded size shows the problem.
    let bomb = gzip(&vec![0u8; 20 * 1024 * 1024]);
    assert!(bomb.len() < 100 * 1024);
    let addr = serve(encoded_feed("gzip", bomb)).await;
    let policy = FetchPolicy {
        max_body_bytes: 1024 * 1024,
        ..loopback_policy()
    };

    let err = fetch_with(policy, &url(addr, "/feed.xml")).await.unwrap_err();

    assert!(
        matches!(err, FetchError::BodyTooLarge { limit: 1_048_576, .. }),
        "{err}"
    );
}

/// The server streams up to 50 MB without a Content-Length and counts what it managed to
/// send before the client hung up.
#[tokio::test]
async fn huge_streamed_body_is_cut_off_at_the_limit() {
    const TOTAL: usize = 50 * 1024 * 1024;
    let sent = Arc::new(AtomicUsize::new(0));
    let (done_tx, done_rx) = tokio::sync::oneshot::channel::<()>();
    let done_tx = Arc::new(Mutex::new(Some(done_tx)));
    let counter = Arc::clone(&sent);
    let addr = serve_raw(move |mut socket| {
        let counter = Arc::clone(&counter);
        let done_tx = Arc::clone(&done_tx);
        async move {
            read_request_head(&mut socket).await;
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/rss+xml\r\nConnection: close\r\n\r\n";
            if socket.write_all(head.as_bytes()).await.is_ok() {
                let chunk = vec![b'x'; 64 * 1024];
                while counter.load(Ordering::SeqCst) < TOTAL {
                    if socket.write_all(&chunk).await.is_err() {
                        break;
                    }
                    counter.fetch_add(chunk.len(), Ordering::SeqCst);
                }
            }
            if let Some(tx) = done_tx.lock().unwrap().take() {
                let _ = tx.send(());
            }
        }
    })
    .await;
    let policy = FetchPolicy {
        max_body_bytes: 1024 * 1024,
        ..loopback_policy()
    };
    let started = Instant::now();

    let err = fetch_with(policy, &url(addr, "/huge.xml")).await.unwrap_err();

    assert!(
        matches!(err, FetchError::BodyTooLarge { limit: 1_048_576, .. }),
        "{err}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "took {:?}",
        started.elapsed()
    );
    // Once the client hangs up the server's writes fail; it must not have sent it all.
    tokio::time::timeout(Duration::from_secs(5), done_rx)
        .await
        .unwrap()
        .unwrap();
    let sent = sent.load(Ordering::SeqCst);
    assert!(
        sent < TOTAL,
        "the server sent all {sent} bytes: the client read the whole body"
    );
}

#[tokio::test]
async fn declared_content_length_over_the_limit_is_refused_before_reading() {
    // Declares 20 MB, then sends nothing: only the header can end this fetch early.
    let addr = serve_raw(|mut socket| async move {
        read_request_head(&mut socket).await;
        let head = "HTTP/1.1 200 OK\r\nContent-Length: 20971520\r\n\r\n";
        let _ = socket.write_all(head.as_bytes()).await;
        tokio::time::sleep(Duration::from_secs(30)).await;
    })
    .await;
    let policy = FetchPolicy {
        max_body_bytes: 1024 * 1024,
        ..loopback_policy()
    };
    let started = Instant::now();

    let err = fetch_with(policy, &url(addr, "/huge.xml")).await.unwrap_err();

    assert!(matches!(err, FetchError::BodyTooLarge { .. }), "{err}");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "took {:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn silent_server_times_out_within_the_total_timeout() {
    let addr = serve_raw(|socket| async move {
        // Accept, then never answer; keep the socket open well past the timeout.
        tokio::time::sleep(Duration::from_secs(30)).await;
        drop(socket);
    })
    .await;
    let policy = FetchPolicy {
        total_timeout: Duration::from_millis(500),
        ..loopback_policy()
    };
    let started = Instant::now();

    let err = fetch_with(policy, &url(addr, "/feed.xml")).await.unwrap_err();

    let elapsed = started.elapsed();
    assert!(
        matches!(err, FetchError::Timeout { after, .. } if after == Duration::from_millis(500)),
        "{err}"
    );
    assert!(
        elapsed >= Duration::from_millis(450) && elapsed < Duration::from_millis(1500),
        "took {elapsed:?}"
    );
    assert!(err.to_string().contains(&addr.to_string()), "{err}");
}

#[tokio::test]
async fn refused_connection_is_a_connect_error_naming_the_url() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);

    let err = fetch_with(loopback_policy(), &url(addr, "/feed.xml"))
        .await
        .unwrap_err();

    assert!(matches!(err, FetchError::Connect { .. }), "{err}");
    assert!(err.to_string().contains(&format!("http://{addr}/feed.xml")), "{err}");
}

#[tokio::test]
async fn redirect_loop_ends_with_too_many_redirects() {
    let app = Router::new()
        .route("/a", get(|| async { (StatusCode::FOUND, [(header::LOCATION, "/b")]) }))
        .route("/b", get(|| async { (StatusCode::FOUND, [(header::LOCATION, "/a")]) }));
    let addr = serve(app).await;

    let err = fetch_with(loopback_policy(), &url(addr, "/a")).await.unwrap_err();

    assert!(matches!(err, FetchError::TooManyRedirects { limit: 5, .. }), "{err}");
    assert!(err.to_string().contains(&format!("http://{addr}/a")), "{err}");
}

/// `/hop/N` redirects to `/hop/N-1`; `/hop/0` is the feed.
fn redirect_chain() -> Router {
    Router::new().route(
        "/hop/{n}",
        get(|UrlPath(n): UrlPath<u32>| async move {
            if n == 0 {
                rss_response()
            } else {
                (
                    StatusCode::MOVED_PERMANENTLY,
                    [(header::LOCATION, format!("/hop/{}", n - 1))],
                )
                    .into_response()
            }
        }),
    )
}

#[tokio::test]
async fn redirect_chain_up_to_the_limit_is_followed() {
    let addr = serve(redirect_chain()).await;

    let (body, final_url, ..) = fetched_body(fetch_with(loopback_policy(), &url(addr, "/hop/5")).await.unwrap());

    assert_eq!(body, RSS.as_bytes());
    assert_eq!(final_url, url(addr, "/hop/0"));
}

#[tokio::test]
async fn redirect_chain_over_the_limit_is_refused() {
    let addr = serve(redirect_chain()).await;

    let err = fetch_with(loopback_policy(), &url(addr, "/hop/6")).await.unwrap_err();

    assert!(matches!(err, FetchError::TooManyRedirects { limit: 5, .. }), "{err}");
}

#[tokio::test]
async fn zero_redirect_limit_follows_none() {
    let addr = serve(redirect_chain()).await;
    let policy = FetchPolicy {
        max_redirects: 0,
        ..loopback_policy()
    };

    let err = fetch_with(policy, &url(addr, "/hop/1")).await.unwrap_err();

    assert!(matches!(err, FetchError::TooManyRedirects { limit: 0, .. }), "{err}");
}

#[tokio::test]
async fn too_many_requests_carries_retry_after_seconds() {
    let app = Router::new().route(
        "/feed.xml",
        get(|| async {
            (
                StatusCode::TOO_MANY_REQUESTS,
                [(header::RETRY_AFTER, "120")],
                "slow down",
            )
        }),
    );
    let addr = serve(app).await;

    let err = fetch_with(loopback_policy(), &url(addr, "/feed.xml"))
        .await
        .unwrap_err();

    match &err {
        FetchError::HttpStatus {
            status, retry_after, ..
        } => {
            assert_eq!(*status, 429);
            assert_eq!(*retry_after, Some(Duration::from_secs(120)));
        }
        other => panic!("expected HttpStatus, got {other}"),
    }
    assert!(
        err.to_string().contains("429") && err.to_string().contains("retry after 120 s"),
        "{err}"
    );
}

#[tokio::test]
async fn service_unavailable_carries_retry_after_http_date() {
    let app = Router::new().route(
        "/feed.xml",
        get(|| async {
            let when = chrono::Utc::now() + chrono::Duration::seconds(3600);
            let date = when.format("%a, %d %b %Y %H:%M:%S GMT").to_string();
            (
                StatusCode::SERVICE_UNAVAILABLE,
                [(header::RETRY_AFTER, date)],
                "maintenance",
            )
        }),
    );
    let addr = serve(app).await;

    let err = fetch_with(loopback_policy(), &url(addr, "/feed.xml"))
        .await
        .unwrap_err();

    let FetchError::HttpStatus {
        status: 503,
        retry_after: Some(after),
        ..
    } = err
    else {
        panic!("expected HttpStatus 503 with Retry-After, got {err}");
    };
    assert!(
        after > Duration::from_secs(3590) && after <= Duration::from_secs(3600),
        "{after:?}"
    );
}

#[tokio::test]
async fn server_error_is_an_http_status_without_retry_after() {
    let app = Router::new().route(
        "/feed.xml",
        get(|| async {
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                [(header::RETRY_AFTER, "60")],
                Body::empty(),
            )
        }),
    );
    let addr = serve(app).await;

    let err = fetch_with(loopback_policy(), &url(addr, "/feed.xml"))
        .await
        .unwrap_err();

    assert!(
        matches!(
            err,
            FetchError::HttpStatus {
                status: 500,
                retry_after: None,
                ..
            }
        ),
        "{err}"
    );
}

fn guarded_policy() -> FetchPolicy {
    FetchPolicy {
        allow_private: false,
        ..loopback_policy()
    }
}

/// A server that counts requests, so SSRF tests can show nothing reached it.
async fn counting_server() -> (SocketAddr, Arc<AtomicUsize>) {
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&hits);
    let app = Router::new().fallback(move || async move {
        counter.fetch_add(1, Ordering::SeqCst);
        rss_response()
    });
    (serve(app).await, hits)
}

#[tokio::test]
async fn ssrf_guard_refuses_loopback_ip_literal() {
    let (addr, hits) = counting_server().await;

    let err = fetch_with(guarded_policy(), &url(addr, "/feed.xml")).await.unwrap_err();

    let FetchError::BlockedAddress {
        ref host,
        addr: blocked,
        reason,
        ..
    } = err
    else {
        panic!("expected BlockedAddress, got {err}");
    };
    assert_eq!(host, "127.0.0.1");
    assert_eq!(blocked, Some(IpAddr::V4(Ipv4Addr::LOCALHOST)));
    assert_eq!(reason, BlockReason::Loopback);
    assert_eq!(hits.load(Ordering::SeqCst), 0);
    let message = err.to_string();
    assert!(
        message.contains("127.0.0.1") && message.contains("LOCALWIRE_ALLOW_PRIVATE_FEEDS"),
        "{message}"
    );
}

#[tokio::test]
async fn ssrf_guard_refuses_ipv4_mapped_ipv6_literal() {
    let target = Url::parse("http://[::ffff:127.0.0.1]:9/feed.xml").unwrap();

    let err = fetch_with(guarded_policy(), &target).await.unwrap_err();

    assert!(
        matches!(
            err,
            FetchError::BlockedAddress {
                reason: BlockReason::Loopback,
                ..
            }
        ),
        "{err}"
    );
}

#[tokio::test]
async fn ssrf_guard_refuses_localhost_name() {
    let (addr, hits) = counting_server().await;
    let target = Url::parse(&format!("http://localhost:{}/feed.xml", addr.port())).unwrap();

    let err = fetch_with(guarded_policy(), &target).await.unwrap_err();

    assert!(
        matches!(
            err,
            FetchError::BlockedAddress {
                reason: BlockReason::LocalhostName,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("localhost"), "{err}");
    assert_eq!(hits.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn ssrf_guard_refuses_loopback_after_resolution() {
    let (addr, hits) = counting_server().await;
    let lookup = StaticLookup::one("news.example.com", addr.ip());
    let fetcher = Fetcher::with_lookup(guarded_policy(), lookup).unwrap();
    let target = Url::parse(&format!("http://news.example.com:{}/feed.xml", addr.port())).unwrap();

    let err = fetcher.fetch(&target, &Validators::default()).await.unwrap_err();

    let FetchError::BlockedAddress {
        ref url,
        ref host,
        addr: blocked,
        reason,
    } = err
    else {
        panic!("expected BlockedAddress, got {err}");
    };
    assert_eq!(host, "news.example.com");
    assert_eq!(blocked, Some(addr.ip()));
    assert_eq!(reason, BlockReason::Loopback);
    assert_eq!(url, target.as_str(), "the resolver's refusal names the URL");
    assert_eq!(hits.load(Ordering::SeqCst), 0);
}

/// The control for the test above: the same fake resolution reaches the server when
/// private addresses are allowed, so the refusal really comes from the guard.
#[tokio::test]
async fn resolved_loopback_name_is_reached_when_private_feeds_are_allowed() {
    let (addr, hits) = counting_server().await;
    let lookup = StaticLookup::one("news.example.com", addr.ip());
    let fetcher = Fetcher::with_lookup(loopback_policy(), lookup).unwrap();
    let target = Url::parse(&format!("http://news.example.com:{}/feed.xml", addr.port())).unwrap();

    let (body, ..) = fetched_body(fetcher.fetch(&target, &Validators::default()).await.unwrap());

    assert_eq!(body, RSS.as_bytes());
    assert_eq!(hits.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn failed_lookup_is_a_dns_error_naming_the_host() {
    let lookup = StaticLookup::one("news.example.com", IpAddr::V4(Ipv4Addr::LOCALHOST));
    let fetcher = Fetcher::with_lookup(loopback_policy(), lookup).unwrap();
    let target = Url::parse("http://unknown.example.com/feed.xml").unwrap();

    let err = fetcher.fetch(&target, &Validators::default()).await.unwrap_err();

    let FetchError::Dns { ref host, ref url, .. } = err else {
        panic!("expected Dns, got {err}")
    };
    assert_eq!(host, "unknown.example.com");
    assert_eq!(url, target.as_str());
}

#[test]
fn resolver_filter_drops_private_addresses_and_keeps_public_ones() {
    let addrs: Vec<IpAddr> = ["10.0.0.5", "93.184.215.14", "::1", "2606:4700::6810:85e5"]
        .iter()
        .map(|a| a.parse().unwrap())
        .collect();

    let kept = filter_resolved("news.example.com", addrs, false).unwrap();

    let expected: Vec<IpAddr> = vec![
        "93.184.215.14".parse().unwrap(),
        "2606:4700::6810:85e5".parse().unwrap(),
    ];
    assert_eq!(kept, expected);
}

#[test]
fn resolver_filter_refuses_a_name_with_only_private_addresses() {
    let addrs: Vec<IpAddr> = vec!["169.254.169.254".parse().unwrap(), "10.1.2.3".parse().unwrap()];

    let err = filter_resolved("sneaky.example.com", addrs, false).unwrap_err();

    assert!(
        matches!(&err, FetchError::BlockedAddress { host, addr: Some(addr), reason: BlockReason::CloudMetadata, .. }
            if host == "sneaky.example.com" && addr.to_string() == "169.254.169.254"),
        "{err}"
    );
}

#[test]
fn resolver_filter_keeps_everything_when_private_feeds_are_allowed() {
    let addrs: Vec<IpAddr> = vec!["127.0.0.1".parse().unwrap(), "10.1.2.3".parse().unwrap()];
    assert_eq!(filter_resolved("intranet.example", addrs.clone(), true).unwrap(), addrs);
}

#[test]
fn resolver_filter_reports_an_empty_answer_as_dns() {
    assert!(matches!(
        filter_resolved("empty.example", Vec::new(), false),
        Err(FetchError::Dns { .. })
    ));
}

fn origin() -> Vec<Url> {
    vec![Url::parse("https://news.example.com/feed.xml").unwrap()]
}

/// The redirect policy's decision, tested directly: a redirect from a public server to a
/// private one cannot be staged on a loopback-only test machine.
#[test]
fn redirect_to_private_or_metadata_target_is_refused() {
    for target in [
        "http://127.0.0.1/",
        "http://[::1]:8080/feed",
        "http://[::ffff:10.0.0.1]/",
        "http://169.254.169.254/latest/meta-data/",
        "http://2130706433/",
        "http://0x7f.1/",
        "http://localhost/",
        "http://admin.localhost/",
        "http://metadata.google.internal/computeMetadata/v1/",
        "https://192.168.1.1/",
    ] {
        let next = Url::parse(target).unwrap();
        let result = check_redirect(&next, &origin(), 5, false);
        assert!(
            matches!(result, Err(FetchError::BlockedAddress { .. })),
            "{target}: {result:?}"
        );
        assert!(
            check_redirect(&next, &origin(), 5, true).is_ok(),
            "{target} is allowed when private feeds are"
        );
    }
}

#[test]
fn redirect_to_public_target_is_followed() {
    for target in [
        "http://example.com/feed",
        "https://93.184.215.14/rss",
        "https://[2606:4700::1111]/",
    ] {
        assert!(
            check_redirect(&Url::parse(target).unwrap(), &origin(), 5, false).is_ok(),
            "{target}"
        );
    }
}

#[test]
fn redirect_to_another_scheme_is_refused() {
    for target in ["file:///etc/passwd", "ftp://example.com/feed", "gopher://example.com/"] {
        let result = check_redirect(&Url::parse(target).unwrap(), &origin(), 5, true);
        assert!(
            matches!(result, Err(FetchError::UnsupportedScheme { .. })),
            "{target}: {result:?}"
        );
    }
}

#[test]
fn redirect_past_the_limit_is_refused_naming_the_original_url() {
    let next = Url::parse("https://news.example.com/next").unwrap();
    let mut previous = origin();
    previous.extend((1..=4).map(|n| Url::parse(&format!("https://news.example.com/{n}")).unwrap()));
    assert!(
        check_redirect(&next, &previous, 5, false).is_ok(),
        "the 5th redirect is within a limit of 5"
    );

    previous.push(Url::parse("https://news.example.com/5").unwrap());
    let err = check_redirect(&next, &previous, 5, false).unwrap_err();
    assert!(
        matches!(err, FetchError::TooManyRedirects { limit: 5, ref url } if url == "https://news.example.com/feed.xml")
    );
}

#[test]
fn feed_url_check_refuses_private_literals_before_any_request() {
    let result = check_url_target(&Url::parse("http://10.0.0.1/feed").unwrap(), false);
    assert!(
        matches!(
            result,
            Err(FetchError::BlockedAddress {
                reason: BlockReason::Private,
                ..
            })
        ),
        "{result:?}"
    );
}

#[tokio::test]
async fn file_url_is_refused_by_fetch() {
    let target = Url::parse("file:///etc/hostname").unwrap();

    let err = fetch_with(loopback_policy(), &target).await.unwrap_err();

    assert!(
        matches!(err, FetchError::UnsupportedScheme { ref scheme, .. } if scheme == "file"),
        "{err}"
    );
    assert!(err.to_string().contains("file:///etc/hostname"), "{err}");
}

/// A file in a temp dir that is removed when the returned guard drops.
fn temp_file(name: &str, contents: &[u8]) -> (TempDir, std::path::PathBuf) {
    let dir = TempDir::new("localwire-fetch-test");
    let path = dir.path().join(name);
    std::fs::write(&path, contents).unwrap();
    (dir, path)
}

#[tokio::test]
async fn read_file_feed_reads_a_file() {
    let (_dir, path) = temp_file("feed.xml", RSS.as_bytes());
    assert_eq!(read_file_feed(&path, 1024 * 1024).await.unwrap(), RSS.as_bytes());
}

#[tokio::test]
async fn read_file_feed_refuses_a_file_over_the_limit() {
    let (_dir, path) = temp_file("big.xml", &vec![b'x'; 4096]);

    let err = read_file_feed(&path, 4095).await.unwrap_err();

    assert!(matches!(err, FetchError::BodyTooLarge { limit: 4095, .. }), "{err}");
    assert!(err.to_string().contains("big.xml"), "{err}");
    assert_eq!(
        read_file_feed(&path, 4096).await.unwrap().len(),
        4096,
        "exactly the limit is fine"
    );
}

#[tokio::test]
async fn read_file_feed_names_a_missing_file() {
    let path = std::env::temp_dir().join("localwire-no-such-feed.xml");

    let err = read_file_feed(&path, 1024).await.unwrap_err();

    assert!(matches!(err, FetchError::Io { .. }), "{err}");
    assert!(err.to_string().contains("localwire-no-such-feed.xml"), "{err}");
}
