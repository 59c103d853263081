//! Command line and environment: one typed struct per subcommand, every field
//! settable by an environment variable (shown in `--help`). Every switch read from the
//! environment takes 1/0, true/false, yes/no and on/off alike (clap's Boolish parser; the
//! feed fetcher's `LOCALWIRE_ALLOW_PRIVATE_FEEDS` reads the same words, D358).

use anyhow::{Context, Result};
use clap::builder::BoolishValueParser;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "localwire",
    version,
    about = "Localwire: a self-hostable local news reader for the US and Canada."
)]
pub struct Cli {
    #[command(flatten)]
    pub log: LogArgs,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Serve the web app and the API (runs migrations first).
    // Boxed: the serve flags are far larger than any other command's (clippy large_enum_variant).
    Serve(Box<ServeArgs>),
    /// Run the database migrations and exit.
    Migrate(StoreArgs),
    /// Manage the feeds Localwire ingests.
    Feeds(FeedsArgs),
    /// Add the publishers and feeds of an OPML 2.0 file (all or nothing).
    ImportOpml(ImportOpmlArgs),
    /// Write every publisher and feed as OPML 2.0 (location and language kept).
    ExportOpml(ExportOpmlArgs),
    /// Fetch and store feeds now, then exit.
    Ingest(IngestArgs),
    /// Manage special collections (`/special/{slug}`).
    Specials(SpecialsArgs),
    /// Copy the SQLite databases into one file, while a server keeps serving
    /// (PostgreSQL: use pg_dump, see the README).
    Backup(BackupArgs),
    /// Put a backup made by `localwire backup` in place (the server must be stopped; the
    /// files it replaces are moved aside, not deleted).
    Restore(RestoreArgs),
}

#[derive(Args, Debug)]
pub struct FeedsArgs {
    #[command(subcommand)]
    pub command: FeedsCommand,
}

#[derive(Subcommand, Debug)]
pub enum FeedsCommand {
    /// Add a feed (and its publisher, unless one with this name exists).
    Add(FeedAddArgs),
    /// List feeds with their health: last fetch, HTTP status, items, last error, next due.
    List(FeedListArgs),
    /// Remove a feed (by URL or id), its items, and its publisher if it has no other feed.
    Remove(FeedRemoveArgs),
}

#[derive(Args, Debug)]
pub struct FeedAddArgs {
    /// The feed's address: http(s)://…, file://… or a local file path.
    pub url: String,
    /// The publisher's name (default: the feed's own title).
    #[arg(long)]
    pub name: Option<String>,
    /// US or CA.
    #[arg(long, default_value = "US")]
    pub country: String,
    /// State or province code, e.g. ME or QC.
    #[arg(long, default_value = "")]
    pub state: String,
    /// The publisher's city, e.g. Portland.
    #[arg(long, default_value = "")]
    pub city: String,
    /// en, es or fr.
    #[arg(long, default_value = "en")]
    pub lang: String,
    /// One of the 13 category ids (local, politics, business, …).
    #[arg(long, default_value = "local")]
    pub category: String,
    /// The publisher's home page: an http(s) address (anything else is dropped).
    #[arg(long, default_value = "")]
    pub home: String,
    /// The publisher's icon: an http(s) address (anything else is dropped).
    #[arg(long, default_value = "")]
    pub icon: String,
    #[command(flatten)]
    pub store: StoreArgs,
}

#[derive(Args, Debug)]
pub struct FeedListArgs {
    /// One JSON object per feed instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub store: StoreArgs,
}

#[derive(Args, Debug)]
pub struct FeedRemoveArgs {
    /// The feed's URL or id (see `feeds list`).
    pub feed: String,
    #[command(flatten)]
    pub store: StoreArgs,
}

#[derive(Args, Debug)]
pub struct ImportOpmlArgs {
    /// The OPML file.
    pub file: PathBuf,
    #[command(flatten)]
    pub store: StoreArgs,
}

#[derive(Args, Debug)]
pub struct ExportOpmlArgs {
    /// Write to this file instead of standard output.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub store: StoreArgs,
}

#[derive(Args, Debug)]
pub struct IngestArgs {
    /// Fetch every feed once, whether due or not, and exit.
    #[arg(long)]
    pub once: bool,
    #[command(flatten)]
    pub store: StoreArgs,
    #[command(flatten)]
    pub retention: RetentionArgs,
}

#[derive(Args, Debug)]
pub struct RetentionArgs {
    /// Stories published more than this many days ago are deleted (hourly by the server,
    /// after the round by `ingest --once`) and not stored again; stories a reader saved
    /// stay. 0 keeps every story (D414).
    #[arg(long, env = "LOCALWIRE_STORY_RETENTION_DAYS", default_value_t = 0)]
    pub story_retention_days: u32,
}

impl RetentionArgs {
    pub fn retention(&self) -> store::retention::StoryRetention {
        store::retention::StoryRetention::from_days(self.story_retention_days)
    }
}

#[derive(Args, Debug)]
pub struct BackupArgs {
    /// The backup file to write (a tar of the database files; replaced if it exists).
    pub file: PathBuf,
    #[command(flatten)]
    pub store: StoreArgs,
}

#[derive(Args, Debug)]
pub struct RestoreArgs {
    /// A file written by `localwire backup`.
    pub file: PathBuf,
    #[command(flatten)]
    pub store: StoreArgs,
}

#[derive(Args, Debug)]
pub struct SpecialsArgs {
    #[command(subcommand)]
    pub command: SpecialsCommand,
}

#[derive(Subcommand, Debug)]
pub enum SpecialsCommand {
    /// Create or replace a collection: a search query or a hand-picked list of news ids.
    Put(SpecialPutArgs),
    /// List collections.
    List(StoreArgs),
    /// Remove a collection.
    Remove(SpecialRemoveArgs),
}

#[derive(Args, Debug)]
pub struct SpecialPutArgs {
    /// The collection's address: /special/{slug} (letters, digits and dashes).
    pub slug: String,
    #[arg(long)]
    pub title: String,
    #[arg(long, default_value = "")]
    pub description: String,
    /// Search words that select the collection's stories.
    #[arg(long, conflicts_with = "ids")]
    pub query: Option<String>,
    /// Hand-picked news ids, comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub ids: Vec<i64>,
    #[command(flatten)]
    pub store: StoreArgs,
}

#[derive(Args, Debug)]
pub struct SpecialRemoveArgs {
    pub slug: String,
    #[command(flatten)]
    pub store: StoreArgs,
}

#[derive(Args, Debug)]
pub struct LogArgs {
    /// Log filter, e.g. `info` or `api=debug,info`.
    #[arg(long = "log", global = true, env = "LOCALWIRE_LOG", default_value = "info")]
    pub filter: String,
    /// `text` or `json` (one JSON object per line).
    #[arg(
        long = "log-format",
        global = true,
        env = "LOCALWIRE_LOG_FORMAT",
        default_value = "text"
    )]
    pub format: String,
}

#[derive(Args, Debug)]
pub struct StoreArgs {
    /// Where the SQLite database (and later caches) live.
    #[arg(long, env = "LOCALWIRE_DATA_DIR", default_value = "./localwire-data")]
    pub data_dir: PathBuf,
    /// `sqlite:…` or `postgres://…`; overrides the SQLite file in the data directory.
    #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
    pub database_url: Option<String>,
}

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "LOCALWIRE_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: String,
    #[command(flatten)]
    pub store: StoreArgs,
    #[command(flatten)]
    pub retention: RetentionArgs,
    /// Ingest the built-in demo corpus (data/demo) so the app has news offline; today in
    /// history serves its labelled demo days.
    #[arg(long, env = "LOCALWIRE_DEMO", value_parser = BoolishValueParser::new())]
    pub demo: bool,
    /// Word mixed into request signatures. Ships in the web app: an anti-tamper
    /// check, not a secret.
    #[arg(long, env = "LOCALWIRE_SIGN_WORD", default_value = api::state::DEFAULT_SIGN_WORD)]
    pub sign_word: String,
    /// Public base address for canonical links, e.g. https://news.example.org
    #[arg(long, env = "LOCALWIRE_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// Route rules as JSON: [{"from":"/old","to":"https://…","status":301}]
    #[arg(long, env = "LOCALWIRE_ROUTE_RULES")]
    pub route_rules: Option<String>,
    /// Largest accepted request body, in bytes.
    #[arg(long, env = "LOCALWIRE_BODY_LIMIT", default_value_t = 64 * 1024)]
    pub body_limit: usize,
    /// Session lifetime in days.
    #[arg(long, env = "LOCALWIRE_SESSION_DAYS", default_value_t = 365)]
    pub session_days: i64,
    /// Encrypt the data of successful non-GET API answers (AES-GCM, keyed by the sign
    /// word, so the web app can always decrypt): an anti-scraping measure, not a secret.
    #[arg(long, env = "LOCALWIRE_ENCRYPT_RESPONSES", value_parser = BoolishValueParser::new())]
    pub encrypt_responses: bool,
    #[command(flatten)]
    pub sign_in: SignInArgs,
    /// Behind a reverse proxy: count rate limits by the address the proxy appends to
    /// X-Forwarded-For instead of the proxy's own.
    #[arg(long, env = "LOCALWIRE_FORWARDED_FOR", value_parser = BoolishValueParser::new())]
    pub forwarded_for: bool,
    /// Wikipedia's on-this-day feed; `{lang}` becomes en, es or fr, `/all/MM/DD` is
    /// appended. With --demo, demo days are served and it is never called.
    #[arg(long, env = "LOCALWIRE_ONTHISDAY_URL", default_value = providers::history::source::DEFAULT_ONTHISDAY_URL)]
    pub onthisday_url: String,
    /// Open-Meteo's base address (the forecast is asked at {url}/v1/forecast).
    #[arg(long, env = "LOCALWIRE_WEATHER_URL", default_value = providers::weather::open_meteo::DEFAULT_URL)]
    pub weather_url: String,
    /// The US National Weather Service API's base address (alerts are asked at
    /// {url}/alerts/active?point=lat,lon). With --demo, demo alerts are served instead.
    #[arg(long, env = "LOCALWIRE_NWS_URL", default_value = providers::weather::alerts::nws::DEFAULT_URL)]
    pub nws_url: String,
    /// Environment and Climate Change Canada's MSC GeoMet OGC API base address (alerts are
    /// asked at {url}/collections/weather-alerts/items?bbox=…). With --demo, not called.
    #[arg(long, env = "LOCALWIRE_ECCC_URL", default_value = providers::weather::alerts::eccc::DEFAULT_URL)]
    pub eccc_url: String,
    /// Web Push: how push services reach the operator (the VAPID `sub`), a `mailto:` or
    /// `https:` address.
    #[arg(
        long,
        env = "LOCALWIRE_PUSH_SUBJECT",
        default_value = "mailto:operator@localwire.invalid"
    )]
    pub push_subject: String,
    /// Seconds between two notifier rounds; 0 turns the notifier off in this process.
    #[arg(long, env = "LOCALWIRE_PUSH_INTERVAL", default_value_t = 60)]
    pub push_interval: u64,
    /// Push endpoints on private or loopback addresses (and plain http to them) are
    /// accepted: for tests' loopback push services, like LOCALWIRE_ALLOW_PRIVATE_FEEDS.
    #[arg(long, env = "LOCALWIRE_ALLOW_PRIVATE_PUSH", value_parser = BoolishValueParser::new())]
    pub allow_private_push: bool,
    /// Push service hosts accepted besides FCM, Mozilla, Apple and Windows (comma-separated
    /// names; a name also covers its subdomains). Endpoints are https on port 443 (D355).
    #[arg(long, env = "LOCALWIRE_PUSH_HOSTS", default_value = "")]
    pub push_hosts: String,
    /// Usage report events are deleted after this many days.
    #[arg(long, env = "LOCALWIRE_REPORT_RETENTION_DAYS", default_value_t = api::report::config::DEFAULT_RETENTION_DAYS)]
    pub report_retention_days: u32,
    /// Reports one address may send at once, then one per --report-every-ms.
    #[arg(long, env = "LOCALWIRE_REPORT_BURST", default_value_t = 60)]
    pub report_burst: u32,
    #[arg(long, env = "LOCALWIRE_REPORT_EVERY_MS", default_value_t = 500)]
    pub report_every_ms: u64,
    /// New guests one address (an IPv6 /64) may create at once, then one per
    /// --guest-every-ms (D351).
    #[arg(long, env = "LOCALWIRE_GUEST_BURST", default_value_t = 30)]
    pub guest_burst: u32,
    #[arg(long, env = "LOCALWIRE_GUEST_EVERY_MS", default_value_t = 10_000)]
    pub guest_every_ms: u64,
    /// Calls one address (an IPv6 /64) may make at once, then --calls-per-second; every
    /// call but /healthz and /metrics counts (D357).
    #[arg(long, env = "LOCALWIRE_CALLS_BURST", default_value_t = api::rate_limit::CallLimitConfig::default().burst)]
    pub calls_burst: u32,
    /// Calls a second one address may make after its burst; 0 turns the limit off.
    #[arg(long, env = "LOCALWIRE_CALLS_PER_SECOND", default_value_t = api::rate_limit::CallLimitConfig::default().per_second)]
    pub calls_per_second: u32,
    /// Guests not seen for this many days are deleted with their things, hourly; expired
    /// sessions too. 0 keeps idle guests (D352).
    #[arg(long, env = "LOCALWIRE_GUEST_IDLE_DAYS", default_value_t = 180)]
    pub guest_idle_days: u32,
    /// Bytes of reports one address (an IPv6 /64) may store per UTC day, counted as stored
    /// (text plus a fixed cost per row); past it, 429 until midnight UTC. 0: no cap.
    #[arg(long, env = "LOCALWIRE_REPORT_ADDRESS_BYTES_PER_DAY",
        default_value_t = api::report::config::DEFAULT_ADDRESS_BYTES_PER_DAY)]
    pub report_address_bytes_per_day: u64,
    /// Bytes all stored reports may take, counted the same way; past it new reports are
    /// refused (507) until the retention frees room. 0: no cap.
    #[arg(long, env = "LOCALWIRE_REPORT_MAX_BYTES", default_value_t = api::report::config::DEFAULT_MAX_BYTES)]
    pub report_max_bytes: u64,
    /// Operators: signed-in accounts with these emails (comma-separated) see usage.
    #[arg(long, env = "LOCALWIRE_ADMIN_EMAILS", default_value = "")]
    pub admin_emails: String,
    /// Serve every image readers see (news pictures, publisher icons, pictures inside
    /// articles and in today in history) through this server, so publishers and Wikimedia
    /// never see readers' addresses (D380). `--image-proxy false` (or 0, no, off) hands
    /// readers the original addresses instead.
    #[arg(long, env = "LOCALWIRE_IMAGE_PROXY", default_value_t = true, action = clap::ArgAction::Set,
        value_parser = BoolishValueParser::new())]
    pub image_proxy: bool,
    /// Threads that render the pages' first screens with the app's own components (D424),
    /// each with its own JavaScript engine (about 12 MB). 0: pages go without one and the
    /// app renders every screen itself.
    #[arg(long, env = "LOCALWIRE_RENDER_THREADS", default_value_t = 1)]
    pub render_threads: usize,
    /// The operator's ad client: a JSON file of text ads (client_id, adn_id, creatives),
    /// read and checked at start. Without it no ad slot renders (D345).
    #[arg(long = "ads", env = "LOCALWIRE_ADS", value_name = "FILE")]
    pub ads: Option<std::path::PathBuf>,
}

/// Google and Facebook sign-in. A provider without a client id is off.
#[derive(Args, Debug)]
pub struct SignInArgs {
    /// Google OAuth client id (Google Cloud console → Credentials).
    #[arg(long, env = "LOCALWIRE_GOOGLE_CLIENT_ID")]
    pub google_client_id: Option<String>,
    /// Google OAuth client secret.
    #[arg(long, env = "LOCALWIRE_GOOGLE_CLIENT_SECRET", hide_env_values = true)]
    pub google_client_secret: Option<String>,
    /// Google's OpenID Connect issuer; its discovery document names every endpoint.
    #[arg(long, env = "LOCALWIRE_GOOGLE_ISSUER", default_value = sign_in::GoogleConfig::DEFAULT_ISSUER)]
    pub google_issuer: String,
    /// Facebook app id (Meta for Developers → App settings).
    #[arg(long, env = "LOCALWIRE_FACEBOOK_APP_ID")]
    pub facebook_app_id: Option<String>,
    /// Facebook app secret.
    #[arg(long, env = "LOCALWIRE_FACEBOOK_APP_SECRET", hide_env_values = true)]
    pub facebook_app_secret: Option<String>,
    /// Facebook Graph API base address.
    #[arg(long, env = "LOCALWIRE_FACEBOOK_GRAPH_URL", default_value = sign_in::FacebookConfig::DEFAULT_GRAPH_URL)]
    pub facebook_graph_url: String,
    /// Facebook login dialog address.
    #[arg(long, env = "LOCALWIRE_FACEBOOK_DIALOG_URL", default_value = sign_in::FacebookConfig::DEFAULT_DIALOG_URL)]
    pub facebook_dialog_url: String,
}

impl SignInArgs {
    fn some(value: &Option<String>) -> Option<String> {
        value
            .as_deref()
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_string)
    }

    pub fn google(&self) -> Result<Option<sign_in::GoogleConfig>> {
        let Some(client_id) = Self::some(&self.google_client_id) else {
            return Ok(None);
        };
        let client_secret = Self::some(&self.google_client_secret)
            .context("LOCALWIRE_GOOGLE_CLIENT_SECRET is needed with LOCALWIRE_GOOGLE_CLIENT_ID")?;
        Ok(Some(sign_in::GoogleConfig {
            client_id,
            client_secret,
            issuer: self.google_issuer.trim_end_matches('/').to_string(),
        }))
    }

    pub fn facebook(&self) -> Result<Option<sign_in::FacebookConfig>> {
        let Some(app_id) = Self::some(&self.facebook_app_id) else {
            return Ok(None);
        };
        let app_secret = Self::some(&self.facebook_app_secret)
            .context("LOCALWIRE_FACEBOOK_APP_SECRET is needed with LOCALWIRE_FACEBOOK_APP_ID")?;
        Ok(Some(sign_in::FacebookConfig {
            app_id,
            app_secret,
            graph_url: self.facebook_graph_url.trim_end_matches('/').to_string(),
            dialog_url: self.facebook_dialog_url.clone(),
        }))
    }
}

impl ServeArgs {
    pub fn api_config(&self) -> Result<api::ApiConfig> {
        let route_rules: Vec<api::RouteRule> =
            match self.route_rules.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
                Some(json) => serde_json::from_str(json)
                    .context("LOCALWIRE_ROUTE_RULES must be a JSON list of {from, to, status}")?,
                None => Vec::new(),
            };
        for rule in &route_rules {
            anyhow::ensure!(
                rule.from.starts_with('/'),
                "route rule `from` must start with /: {}",
                rule.from
            );
            anyhow::ensure!(
                matches!(rule.status, 301 | 302 | 307 | 308),
                "route rule status must be 301, 302, 307 or 308: {}",
                rule.status
            );
        }
        anyhow::ensure!(self.session_days > 0, "LOCALWIRE_SESSION_DAYS must be positive");
        anyhow::ensure!(
            self.report_retention_days > 0,
            "LOCALWIRE_REPORT_RETENTION_DAYS must be at least 1"
        );
        anyhow::ensure!(self.report_burst > 0, "LOCALWIRE_REPORT_BURST must be at least 1");
        anyhow::ensure!(self.guest_burst > 0, "LOCALWIRE_GUEST_BURST must be at least 1");
        anyhow::ensure!(self.guest_every_ms > 0, "LOCALWIRE_GUEST_EVERY_MS must be at least 1");
        anyhow::ensure!(
            self.onthisday_url.starts_with("http://") || self.onthisday_url.starts_with("https://"),
            "LOCALWIRE_ONTHISDAY_URL must be an http(s) address: {}",
            self.onthisday_url
        );
        for (name, url) in [
            ("LOCALWIRE_NWS_URL", &self.nws_url),
            ("LOCALWIRE_ECCC_URL", &self.eccc_url),
        ] {
            anyhow::ensure!(
                url.starts_with("http://") || url.starts_with("https://"),
                "{name} must be an http(s) address: {url}"
            );
        }
        let subject = self.push_subject.trim();
        anyhow::ensure!(
            subject.starts_with("mailto:") || subject.starts_with("https://"),
            "LOCALWIRE_PUSH_SUBJECT must be a mailto: or https: address: {subject}"
        );
        let public_url = public_url(self.public_url.as_deref())?;
        let google = self.sign_in.google()?;
        let facebook = self.sign_in.facebook()?;
        // The provider sends the browser back to an address the server names; from the
        // Host header that would be anyone's to choose (D362).
        if public_url.is_none() {
            let on: Vec<&str> = [("Google", google.is_some()), ("Facebook", facebook.is_some())]
                .into_iter()
                .filter_map(|(name, on)| on.then_some(name))
                .collect();
            anyhow::ensure!(
                on.is_empty(),
                "{} sign-in needs --public-url (LOCALWIRE_PUBLIC_URL), the address readers use, e.g. \
                 https://news.example.org: the provider's redirect address is built from it, never from the \
                 request's Host header",
                on.join(" and ")
            );
        }
        let ads = self.ad_client()?;
        let alerts_user_agent = providers::weather::alerts::user_agent(public_url.as_deref());
        Ok(api::ApiConfig {
            sign_word: self.sign_word.clone(),
            history: providers::history::source::HistoryConfig {
                base_url: self.onthisday_url.trim_end_matches('/').to_string(),
                demo: self.demo,
                user_agent: providers::history::source::user_agent(public_url.as_deref()),
                ..Default::default()
            },
            public_url,
            route_rules,
            body_limit: self.body_limit,
            session_ttl_ms: self.session_days.saturating_mul(24 * 3600 * 1000),
            encrypt_responses: self.encrypt_responses,
            google,
            facebook,
            trust_forwarded_for: self.forwarded_for,
            weather: providers::weather::WeatherConfig {
                url: self.weather_url.trim_end_matches('/').to_string(),
                demo: self.demo,
                ..Default::default()
            },
            weather_alerts: providers::weather::alerts::AlertsConfig {
                nws_url: self.nws_url.trim_end_matches('/').to_string(),
                eccc_url: self.eccc_url.trim_end_matches('/').to_string(),
                user_agent: alerts_user_agent,
                demo: self.demo,
                ..Default::default()
            },
            push: push::service::PushConfig {
                notifier: self.push_interval > 0,
                interval: std::time::Duration::from_secs(self.push_interval.max(1)),
                targets: push::endpoint::PushTargets {
                    extra_hosts: push::endpoint::parse_push_hosts(&self.push_hosts)
                        .map_err(|e| anyhow::anyhow!("LOCALWIRE_PUSH_HOSTS: {e}"))?,
                    allow_private: self.allow_private_push,
                },
                subject: self.push_subject.trim().to_string(),
                ..Default::default()
            },
            report: api::report::config::ReportConfig {
                retention_days: self.report_retention_days,
                burst: self.report_burst,
                every: std::time::Duration::from_millis(self.report_every_ms),
                address_bytes_per_day: self.report_address_bytes_per_day,
                max_bytes: self.report_max_bytes,
            },
            guests: api::guests::GuestConfig {
                burst: self.guest_burst,
                every: std::time::Duration::from_millis(self.guest_every_ms),
                idle_days: self.guest_idle_days,
            },
            calls: api::rate_limit::CallLimitConfig {
                burst: self.calls_burst,
                per_second: self.calls_per_second,
            },
            admin_emails: self
                .admin_emails
                .split(',')
                .map(|e| e.trim().to_ascii_lowercase())
                .filter(|e| !e.is_empty())
                .collect(),
            feed_fetch: ingest::fetch::FetchPolicy {
                allow_private: ingest::fetch::allow_private_from_env(),
                ..Default::default()
            },
            ads,
            render_threads: self.render_threads,
            image_proxy: api::image_proxy::ImageProxyConfig {
                enabled: self.image_proxy,
                // The feed fetcher's guard and its test-only allowance (D381).
                fetch: api::image_proxy::image_fetch_policy(ingest::fetch::allow_private_from_env()),
                ..Default::default()
            },
            ..api::ApiConfig::default()
        })
    }

    /// `--ads FILE` read and checked (D345): a bad file stops the start, naming the field.
    fn ad_client(&self) -> Result<Option<api::ads::AdClient>> {
        let Some(path) = self.ads.as_ref().filter(|p| !p.as_os_str().is_empty()) else {
            return Ok(None);
        };
        let text =
            std::fs::read_to_string(path).with_context(|| format!("LOCALWIRE_ADS: cannot read {}", path.display()))?;
        let ads = api::ads::parse_ad_client(&text)
            .with_context(|| format!("LOCALWIRE_ADS: {} is not a valid ad client", path.display()))?;
        Ok(Some(ads))
    }
}

/// `--public-url` checked: an absolute http(s) address with a host (D362, D363); `None`
/// when unset or blank. A trailing slash is dropped.
fn public_url(raw: Option<&str>) -> Result<Option<String>> {
    let Some(raw) = raw.map(str::trim).filter(|u| !u.is_empty()) else {
        return Ok(None);
    };
    let parsed = url::Url::parse(raw).ok();
    anyhow::ensure!(
        parsed.is_some_and(|u| matches!(u.scheme(), "http" | "https") && u.host_str().is_some_and(|h| !h.is_empty())),
        "LOCALWIRE_PUBLIC_URL must be an absolute http(s) address such as https://news.example.org: {raw}"
    );
    Ok(Some(raw.trim_end_matches('/').to_string()))
}

pub fn init_logging(log: &LogArgs) {
    let filter = tracing_subscriber::EnvFilter::try_new(&log.filter)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    if log.format.eq_ignore_ascii_case("json") {
        builder.json().init();
    } else {
        builder.init();
    }
}
