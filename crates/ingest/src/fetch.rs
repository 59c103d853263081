//! Fetching feed bytes safely: conditional GET, gzip/brotli, timeouts, a body-size limit
//! enforced while streaming, a redirect limit, an honest User-Agent and an SSRF guard
//! that works after DNS resolution (see [`guard`]).
//!
//! One [`Fetcher`] is built at start-up and shared; it holds one connection pool.
//! `file://` feeds never go through it: the CLI and the demo read them with
//! [`read_file_feed`].

pub mod guard;
mod retry_after;

use std::error::Error as StdError;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use reqwest::header::{self, HeaderMap, HeaderValue};
use reqwest::{StatusCode, redirect};
use tokio::io::AsyncReadExt;
use url::Url;

pub use guard::{BlockReason, HostLookup, LookupFuture, SystemLookup};

/// What a feed fetch may do. Built from configuration; `Default` is the production policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchPolicy {
    /// Let feeds reach private, loopback and link-local addresses (tests, intranets).
    pub allow_private: bool,
    /// Time allowed to open the TCP connection (per address tried).
    pub connect_timeout: Duration,
    /// Time allowed for the whole fetch: DNS, connect, redirects and the body.
    pub total_timeout: Duration,
    /// Largest body accepted, counted after gzip/brotli decoding (so a compression bomb
    /// is stopped too).
    pub max_body_bytes: usize,
    /// Redirects followed before giving up; 0 follows none.
    pub max_redirects: usize,
    /// Sent on every request, so publishers can see who we are and how to reach us.
    pub user_agent: String,
}

/// The User-Agent of [`FetchPolicy::default`].
pub const DEFAULT_USER_AGENT: &str = "Localwire/0.1 (+https://localwire.invalid/bot; feed reader)";

/// Feed formats first; generic XML and JSON below them; anything as a last resort,
/// because many servers label feeds text/html or application/octet-stream.
pub const ACCEPT: &str = "application/rss+xml, application/atom+xml, application/feed+json, \
                          application/json;q=0.9, application/xml;q=0.8, text/xml;q=0.8, */*;q=0.5";

/// The environment variable that sets [`FetchPolicy::allow_private`].
pub const ALLOW_PRIVATE_ENV: &str = "LOCALWIRE_ALLOW_PRIVATE_FEEDS";

impl Default for FetchPolicy {
    fn default() -> Self {
        Self {
            allow_private: false,
            connect_timeout: Duration::from_secs(5),
            total_timeout: Duration::from_secs(20),
            max_body_bytes: 5 * 1024 * 1024,
            max_redirects: 5,
            user_agent: DEFAULT_USER_AGENT.to_owned(),
        }
    }
}

/// `true` when `LOCALWIRE_ALLOW_PRIVATE_FEEDS` is 1, true, yes or on (any case), the
/// words every switch of the command line takes from the environment (D358).
pub fn allow_private_from_env() -> bool {
    allow_private_from_value(std::env::var(ALLOW_PRIVATE_ENV).ok().as_deref())
}

fn allow_private_from_value(value: Option<&str>) -> bool {
    // Anything else, "0" and typos included, keeps the guard on: failing closed.
    value.is_some_and(|v| {
        matches!(
            v.trim().to_ascii_lowercase().as_str(),
            "1" | "true" | "yes" | "on" | "y" | "t"
        )
    })
}

/// Cache validators from a previous fetch, sent back as If-None-Match / If-Modified-Since.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Validators {
    pub etag: Option<String>,
    pub last_modified: Option<String>,
}

/// What a successful fetch produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FetchOutcome {
    /// A 2xx answer with its (decoded) body.
    Fetched {
        body: Vec<u8>,
        /// The URL after redirects: relative links in the feed resolve against it.
        final_url: Url,
        /// The validators to send next time (empty if the server sent none).
        validators: Validators,
        content_type: Option<String>,
        status: u16,
    },
    /// 304: the feed has not changed since the validators were issued.
    NotModified { validators: Validators },
}

/// Why a fetch failed. Each message names the URL (or host, or file) and says what an
/// operator can do about it where there is something to do.
#[derive(Debug, Clone, thiserror::Error)]
pub enum FetchError {
    #[error("invalid feed URL {url:?}: {reason}")]
    InvalidUrl { url: String, reason: String },

    #[error(
        "cannot fetch {url}: the `{scheme}` scheme is not supported (feeds are fetched over http or https; \
         file:// feeds can only be read by the CLI and the demo)"
    )]
    UnsupportedScheme { url: String, scheme: String },

    #[error(
        "refused to fetch {url}: host {host}{} is {reason} (SSRF guard; set LOCALWIRE_ALLOW_PRIVATE_FEEDS=1 to allow \
         private and loopback feeds)",
        resolved_to(.addr)
    )]
    BlockedAddress {
        url: String,
        host: String,
        addr: Option<IpAddr>,
        reason: BlockReason,
    },

    #[error("DNS lookup of {host} failed while fetching {url}: {message}")]
    Dns { url: String, host: String, message: String },

    #[error("could not connect to {url}: {message}")]
    Connect { url: String, message: String },

    #[error("fetching {url} timed out after {} ms", .after.as_millis())]
    Timeout { url: String, after: Duration },

    #[error("fetching {url} gave up after {limit} redirects (a redirect loop, or a chain too long to follow)")]
    TooManyRedirects { url: String, limit: usize },

    #[error("the body of {url} is larger than the limit of {limit} bytes; it was not read further")]
    BodyTooLarge { url: String, limit: usize },

    #[error("{url} answered with {}, not what was asked for", .content_type.as_deref().unwrap_or("no content type"))]
    UnwantedType { url: String, content_type: Option<String> },

    #[error("{url} answered HTTP {status}{}", retry_text(.retry_after))]
    HttpStatus {
        url: String,
        status: u16,
        retry_after: Option<Duration>,
    },

    #[error("could not read feed file {}: {source}", .path.display())]
    Io { path: PathBuf, source: Arc<std::io::Error> },

    #[error("could not set up the HTTP client: {message}")]
    Setup { message: String },

    #[error("fetching {url} failed: {message}")]
    Other { url: String, message: String },
}

fn resolved_to(addr: &Option<IpAddr>) -> String {
    addr.map(|addr| format!(" (resolved to {addr})")).unwrap_or_default()
}

fn retry_text(retry_after: &Option<Duration>) -> String {
    retry_after
        .map(|after| format!(" (retry after {} s)", after.as_secs()))
        .unwrap_or_default()
}

impl FetchError {
    /// The guard's resolver and redirect policy build errors before the URL is known to
    /// them; the fetcher fills it in here.
    fn with_url(mut self, request_url: &str) -> Self {
        match &mut self {
            Self::BlockedAddress { url, .. } | Self::Dns { url, .. } if url.is_empty() => {
                request_url.clone_into(url);
            }
            _ => {}
        }
        self
    }
}

/// Fetches feeds. Cheap to clone: clones share one connection pool.
#[derive(Debug, Clone)]
pub struct Fetcher {
    client: reqwest::Client,
    policy: Arc<FetchPolicy>,
}

impl Fetcher {
    /// Builds a fetcher that resolves names with the system resolver.
    pub fn new(policy: FetchPolicy) -> Result<Self, FetchError> {
        Self::with_lookup(policy, Arc::new(SystemLookup))
    }

    /// Builds a fetcher that resolves names with `lookup`; the SSRF guard still filters
    /// every address it returns.
    pub fn with_lookup(policy: FetchPolicy, lookup: Arc<dyn HostLookup>) -> Result<Self, FetchError> {
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT, HeaderValue::from_static(ACCEPT));
        let resolver = guard::GuardedResolver {
            lookup,
            allow_private: policy.allow_private,
        };
        let client = reqwest::Client::builder()
            .user_agent(policy.user_agent.as_str())
            .default_headers(headers)
            .connect_timeout(policy.connect_timeout)
            .timeout(policy.total_timeout)
            .redirect(redirect_policy(policy.max_redirects, policy.allow_private))
            .dns_resolver(resolver)
            // A proxy would resolve names itself, out of the guard's sight.
            .no_proxy()
            .build()
            .map_err(|err| FetchError::Setup {
                message: error_chain(&err),
            })?;
        Ok(Self {
            client,
            policy: Arc::new(policy),
        })
    }

    /// The policy this fetcher enforces.
    pub fn policy(&self) -> &FetchPolicy {
        &self.policy
    }

    /// Fetches `url` (http or https only), sending `validators` as a conditional GET.
    pub async fn fetch(&self, url: &Url, validators: &Validators) -> Result<FetchOutcome, FetchError> {
        self.fetch_as(url, validators, ACCEPT, |_| true).await
    }

    /// [`Fetcher::fetch`] for something other than a feed (the image proxy, D381): `accept`
    /// is sent as Accept, and a 2xx answer whose Content-Type `wanted` refuses ends with
    /// [`FetchError::UnwantedType`] before its body is read. Same guard, redirects, limits.
    pub async fn fetch_as(
        &self,
        url: &Url,
        validators: &Validators,
        accept: &'static str,
        wanted: fn(Option<&str>) -> bool,
    ) -> Result<FetchOutcome, FetchError> {
        guard::check_url_target(url, self.policy.allow_private)?;
        // reqwest's own timeout covers the same span; this one also bounds anything
        // around it, so no fetch can outlive the policy.
        let total = self.policy.total_timeout;
        match tokio::time::timeout(total, self.fetch_checked(url, validators, accept, wanted)).await {
            Ok(result) => result,
            Err(_elapsed) => Err(FetchError::Timeout {
                url: url.to_string(),
                after: total,
            }),
        }
    }

    async fn fetch_checked(
        &self,
        url: &Url,
        validators: &Validators,
        accept: &'static str,
        wanted: fn(Option<&str>) -> bool,
    ) -> Result<FetchOutcome, FetchError> {
        let mut request = self.client.get(url.clone());
        if accept != ACCEPT {
            request = request.header(header::ACCEPT, HeaderValue::from_static(accept));
        }
        // A stored validator that is not a valid header value (corrupt row) is dropped:
        // the fetch then is simply unconditional.
        if let Some(value) = validators.etag.as_deref().and_then(|v| HeaderValue::from_str(v).ok()) {
            request = request.header(header::IF_NONE_MATCH, value);
        }
        if let Some(value) = validators
            .last_modified
            .as_deref()
            .and_then(|v| HeaderValue::from_str(v).ok())
        {
            request = request.header(header::IF_MODIFIED_SINCE, value);
        }
        let mut response = request.send().await.map_err(|err| self.map_error(err, url))?;

        let status = response.status();
        let final_url = response.url().clone();
        let new_validators = validators_of(response.headers());
        if status == StatusCode::NOT_MODIFIED {
            // A 304 should repeat the validators; where it does not, the old ones stay valid.
            let validators = Validators {
                etag: new_validators.etag.or_else(|| validators.etag.clone()),
                last_modified: new_validators
                    .last_modified
                    .or_else(|| validators.last_modified.clone()),
            };
            return Ok(FetchOutcome::NotModified { validators });
        }
        if !status.is_success() {
            let retry_after = match status {
                StatusCode::TOO_MANY_REQUESTS | StatusCode::SERVICE_UNAVAILABLE => response
                    .headers()
                    .get(header::RETRY_AFTER)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| retry_after::parse_retry_after(v, SystemTime::now())),
                _ => None,
            };
            return Err(FetchError::HttpStatus {
                url: final_url.to_string(),
                status: status.as_u16(),
                retry_after,
            });
        }

        let limit = self.policy.max_body_bytes;
        let too_large = || FetchError::BodyTooLarge {
            url: final_url.to_string(),
            limit,
        };
        // Content-Length is the compressed size when the body is encoded (reqwest hides it
        // then), so it only short-cuts the obvious case; the loop below is the real limit.
        let declared = response.content_length();
        if declared.is_some_and(|len| len > u64::try_from(limit).unwrap_or(u64::MAX)) {
            return Err(too_large());
        }
        let content_type = response
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        if !wanted(content_type.as_deref()) {
            return Err(FetchError::UnwantedType {
                url: final_url.to_string(),
                content_type,
            });
        }
        let initial = declared
            .and_then(|len| usize::try_from(len).ok())
            .unwrap_or(0)
            .min(limit)
            .min(1 << 20);
        let mut body = Vec::with_capacity(initial);
        while let Some(chunk) = response.chunk().await.map_err(|err| self.map_error(err, &final_url))? {
            if body.len() + chunk.len() > limit {
                // Dropping the response closes the connection: nothing more is read.
                return Err(too_large());
            }
            body.extend_from_slice(&chunk);
        }
        Ok(FetchOutcome::Fetched {
            body,
            final_url,
            validators: new_validators,
            content_type,
            status: status.as_u16(),
        })
    }

    fn map_error(&self, err: reqwest::Error, fallback: &Url) -> FetchError {
        let url = err.url().map_or_else(|| fallback.to_string(), Url::to_string);
        // The guard's refusals travel through reqwest as the source of its error.
        if let Some(own) = find_source::<FetchError>(&err) {
            return own.clone().with_url(&url);
        }
        if err.is_timeout() {
            let after = if err.is_connect() {
                self.policy.connect_timeout
            } else {
                self.policy.total_timeout
            };
            return FetchError::Timeout { url, after };
        }
        if err.is_connect() {
            return FetchError::Connect {
                url,
                message: error_chain(&err),
            };
        }
        if err.is_decode() {
            return FetchError::Other {
                url,
                message: format!("the body could not be decoded: {}", error_chain(&err)),
            };
        }
        if err.is_body() {
            return FetchError::Other {
                url,
                message: format!("reading the body failed: {}", error_chain(&err)),
            };
        }
        FetchError::Other {
            url,
            message: error_chain(&err),
        }
    }
}

fn validators_of(headers: &HeaderMap) -> Validators {
    let text = |name| {
        headers
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
            .map(str::to_owned)
    };
    Validators {
        etag: text(header::ETAG),
        last_modified: text(header::LAST_MODIFIED),
    }
}

/// Follows at most `max` redirects, each to a target the guard allows (see
/// [`guard::check_redirect`]).
fn redirect_policy(max: usize, allow_private: bool) -> redirect::Policy {
    redirect::Policy::custom(move |attempt| {
        match guard::check_redirect(attempt.url(), attempt.previous(), max, allow_private) {
            Ok(()) => attempt.follow(),
            Err(refusal) => attempt.error(refusal),
        }
    })
}

fn find_source<'a, T: StdError + 'static>(err: &'a (dyn StdError + 'static)) -> Option<&'a T> {
    let mut current = Some(err);
    while let Some(err) = current {
        if let Some(found) = err.downcast_ref::<T>() {
            return Some(found);
        }
        current = err.source();
    }
    None
}

/// reqwest's top-level message only says "error sending request"; the cause ("Connection
/// refused", "invalid gzip header") is further down the chain.
fn error_chain(err: &(dyn StdError + 'static)) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut current = err.source();
    while let Some(err) = current {
        let text = err.to_string();
        if !parts.iter().any(|part| part.contains(&text)) {
            parts.push(text);
        }
        current = err.source();
    }
    if parts.is_empty() {
        err.to_string()
    } else {
        parts.join(": ")
    }
}

/// Reads a `file://` feed (the CLI and the demo only; [`Fetcher::fetch`] refuses them),
/// refusing files larger than `max_body_bytes`.
pub async fn read_file_feed(path: &Path, max_body_bytes: usize) -> Result<Vec<u8>, FetchError> {
    let io_error = |err: std::io::Error| FetchError::Io {
        path: path.to_path_buf(),
        source: Arc::new(err),
    };
    let too_large = || FetchError::BodyTooLarge {
        url: path.display().to_string(),
        limit: max_body_bytes,
    };
    let file = tokio::fs::File::open(path).await.map_err(io_error)?;
    let metadata = file.metadata().await.map_err(io_error)?;
    if !metadata.is_file() {
        return Err(io_error(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        )));
    }
    let limit = u64::try_from(max_body_bytes).unwrap_or(u64::MAX);
    if metadata.len() > limit {
        return Err(too_large());
    }
    // The file may grow between the size check and the read, so the read is bounded too.
    let initial = usize::try_from(metadata.len()).unwrap_or(0);
    let mut body = Vec::with_capacity(initial);
    file.take(limit.saturating_add(1))
        .read_to_end(&mut body)
        .await
        .map_err(io_error)?;
    if body.len() > max_body_bytes {
        return Err(too_large());
    }
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn d358_allow_private_needs_an_explicit_yes_in_any_of_the_words_switches_take() {
        for yes in ["1", "true", " TRUE ", "yes", "Yes", "on", "y", "t"] {
            assert!(allow_private_from_value(Some(yes)), "{yes}");
        }
        for value in [
            None,
            Some(""),
            Some("0"),
            Some("false"),
            Some("no"),
            Some("off"),
            Some("yes please"),
            Some("2"),
        ] {
            assert!(!allow_private_from_value(value), "{value:?}");
        }
    }

    #[test]
    fn default_policy_matches_the_documented_limits() {
        let policy = FetchPolicy::default();
        assert!(!policy.allow_private);
        assert_eq!(policy.connect_timeout, Duration::from_secs(5));
        assert_eq!(policy.total_timeout, Duration::from_secs(20));
        assert_eq!(policy.max_body_bytes, 5 * 1024 * 1024);
        assert_eq!(policy.max_redirects, 5);
        assert!(policy.user_agent.starts_with("Localwire/"));
    }

    #[test]
    fn guard_errors_get_the_request_url_filled_in() {
        let err = FetchError::Dns {
            url: String::new(),
            host: "h".into(),
            message: "m".into(),
        };
        assert!(err.with_url("http://h/feed").to_string().contains("http://h/feed"));
    }
}
