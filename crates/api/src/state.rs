//! Shared state of the HTTP layer and its configuration.

use crate::metrics::Metrics;
use crate::nonces::NonceCache;
use crate::shell::Shell;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use store::Store;

/// A configured redirect (SPEC §2: route rules may redirect a path, also to an
/// external address).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct RouteRule {
    /// The exact path, e.g. `/old-page` or `/fr/ancienne-page`.
    pub from: String,
    /// A path on this site or an absolute `https://` address.
    pub to: String,
    /// 301, 302, 307 or 308; default 302.
    #[serde(default = "default_redirect_status")]
    #[schema(required = true)]
    pub status: u16,
}

fn default_redirect_status() -> u16 {
    302
}

/// The HTTP layer's settings (the binary fills them from flags and environment).
#[derive(Debug, Clone)]
pub struct ApiConfig {
    /// The word mixed into request signatures (`LOCALWIRE_SIGN_WORD`).
    pub sign_word: String,
    /// Absolute base address for canonical and alternate links, e.g.
    /// `https://news.example.org`. When unset, the request's Host is used.
    pub public_url: Option<String>,
    pub route_rules: Vec<RouteRule>,
    /// Largest request body accepted, in bytes.
    pub body_limit: usize,
    /// How long a session token lives.
    pub session_ttl_ms: i64,
    /// How far a request timestamp may be from server time.
    pub timestamp_window_ms: i64,
    /// Successful non-GET answers carry their data AES-GCM encrypted in `edata`
    /// (`LOCALWIRE_ENCRYPT_RESPONSES`, SPEC §7.22, D220). Anti-scraping, not a secret.
    pub encrypt_responses: bool,
    /// Google sign-in (`--google-client-id` …); `None` is off.
    pub google: Option<sign_in::GoogleConfig>,
    /// Facebook sign-in (`--facebook-app-id` …); `None` is off.
    pub facebook: Option<sign_in::FacebookConfig>,
    /// Behind a reverse proxy: rate limits count by the address it appends to
    /// `X-Forwarded-For` rather than by the proxy's own.
    pub trust_forwarded_for: bool,
    /// Today in history: the on-this-day feed's address, demo days (`--onthisday-url`,
    /// `--demo`; D290).
    pub history: providers::history::source::HistoryConfig,
    /// The weather upstream and its cache (`--weather-url`; `--demo` makes it up, D282).
    pub weather: providers::weather::WeatherConfig,
    /// Official weather alerts: NWS and ECCC addresses and their cache (`--nws-url`,
    /// `--eccc-url`; `--demo` makes them up, D284–D287).
    pub weather_alerts: providers::weather::alerts::AlertsConfig,
    /// Web Push: the notifier, private push targets, the VAPID subject (issue 19).
    pub push: push::service::PushConfig,
    /// Usage reports: retention and the per-address limit (D333).
    pub report: crate::report::config::ReportConfig,
    /// Guests: how many one address may create, when idle ones are purged (D351, D352).
    pub guests: crate::guests::GuestConfig,
    /// Calls per address, every call (D357).
    pub calls: crate::rate_limit::CallLimitConfig,
    /// Emails of the operators, lower case (`--admin-emails`, D335).
    pub admin_emails: Vec<String>,
    /// How the operator's add-a-feed call may read a feed to learn its title: the feed
    /// fetcher's own policy (SSRF guard; `LOCALWIRE_ALLOW_PRIVATE_FEEDS`, D336).
    pub feed_fetch: ingest::fetch::FetchPolicy,
    /// The operator's ad client (`--ads FILE`, D345); `None`: no slot renders anywhere.
    pub ads: Option<crate::ads::AdClient>,
    /// The image proxy: on, its key, its fetch policy and cache (`--image-proxy`, D380–D384).
    pub image_proxy: crate::image_proxy::ImageProxyConfig,
    /// Threads that render the pages' first screens (`--render-threads`, D424); 0: none,
    /// the app renders every screen itself.
    pub render_threads: usize,
}

impl Default for ApiConfig {
    fn default() -> Self {
        ApiConfig {
            sign_word: DEFAULT_SIGN_WORD.into(),
            public_url: None,
            route_rules: Vec::new(),
            body_limit: 64 * 1024,
            session_ttl_ms: 365 * 24 * 3600 * 1000,
            timestamp_window_ms: 300_000,
            encrypt_responses: false,
            google: None,
            facebook: None,
            trust_forwarded_for: false,
            history: Default::default(),
            weather: Default::default(),
            weather_alerts: Default::default(),
            push: Default::default(),
            report: Default::default(),
            guests: Default::default(),
            calls: Default::default(),
            admin_emails: Vec::new(),
            feed_fetch: ingest::fetch::FetchPolicy::default(),
            ads: None,
            image_proxy: Default::default(),
            render_threads: 1,
        }
    }
}

/// The documented default sign word (README). Anti-tamper, not a secret (D6).
pub const DEFAULT_SIGN_WORD: &str = "localwire";

#[derive(Clone)]
pub struct AppState(pub Arc<Inner>);

pub struct Inner {
    pub store: Arc<dyn Store>,
    pub config: ApiConfig,
    pub nonces: NonceCache,
    pub shell: Shell,
    pub metrics: Arc<Metrics>,
    /// Publisher cities for nearby local feeds, cached for a minute.
    pub publisher_cities: crate::publisher_cities::PublisherCities,
    /// Public read answers kept for a few seconds (D140).
    pub read_cache: crate::read_cache::ReadCache,
    /// The pages' inline calls, kept the same way (D143).
    pub inline_cache: crate::inline_cache::InlineCache,
    /// Whole pages kept the same way (D145).
    pub page_cache: crate::page_cache::PageCache,
    /// Readers' blocks, mutes and follows, as public answers apply them (D270).
    pub reader_views: crate::reader_views::ReaderViews,
    /// Stories known to exist, for the reader's writes (D275).
    pub known_news: crate::known_news::KnownNews,
    /// Realtime trends per country, language and state (D301).
    pub trends: trends::kept::KeptTrends,
    /// The sign-in providers this server is configured for.
    pub providers: crate::sign_in_providers::Providers,
    pub sign_in_limits: crate::sign_in_providers::SignInLimits,
    /// Today in history: the days kept and the answers made from them (D290).
    pub history: providers::history::kept::History,
    /// Forecasts per city, kept and renewed (D281).
    pub weather: providers::weather::Weather,
    /// Official alerts per city, kept and renewed (D286).
    pub weather_alerts: providers::weather::alerts::WeatherAlerts,
    /// Web Push: this server's key and its deliveries (issue 19).
    pub push: Arc<push::service::Push>,
    /// Reports per address (D333).
    pub report_limit: crate::rate_limit::RateLimit,
    /// New guests per address (D351).
    pub guest_limit: crate::rate_limit::RateLimit,
    /// Every call per address (D357); `None` when the operator turned it off.
    pub call_limit: Option<Arc<crate::rate_limit::RateLimit>>,
    /// Report bytes per address per day and in all (D366, D367).
    pub report_budget: crate::report::budget::ReportBudget,
    /// Image addresses signed for, and images fetched through, this server (D380–D384).
    pub image_proxy: crate::image_proxy::ImageProxy,
    /// The background loops this process runs, for `/healthz` (D397).
    pub loops: crate::health::Loops,
    /// The pages' first screens, rendered by the app's own components (D424).
    pub renderer: crate::renderer::FirstScreens,
}

impl AppState {
    pub fn new(store: Arc<dyn Store>, config: ApiConfig) -> AppState {
        let nonces = NonceCache::new(config.timestamp_window_ms);
        AppState(Arc::new(Inner {
            store,
            nonces,
            shell: Shell::load(),
            metrics: Arc::default(),
            publisher_cities: Default::default(),
            read_cache: Default::default(),
            inline_cache: Default::default(),
            page_cache: Default::default(),
            reader_views: Default::default(),
            known_news: Default::default(),
            trends: Default::default(),
            providers: crate::sign_in_providers::Providers::new(config.google.clone(), config.facebook.clone()),
            sign_in_limits: Default::default(),
            history: providers::history::kept::History::new(config.history.clone()),
            weather: providers::weather::Weather::new(config.weather.clone()),
            weather_alerts: providers::weather::alerts::WeatherAlerts::new(config.weather_alerts.clone()),
            push: Arc::new(push::service::Push::new(config.push.clone())),
            report_limit: crate::rate_limit::RateLimit::new(config.report.burst, config.report.every),
            guest_limit: crate::rate_limit::RateLimit::new(config.guests.burst, config.guests.every),
            call_limit: config.calls.limit().map(Arc::new),
            report_budget: crate::report::budget::ReportBudget::new(
                config.report.address_bytes_per_day,
                config.report.max_bytes,
            ),
            image_proxy: crate::image_proxy::ImageProxy::new(config.image_proxy.clone(), config.public_url.as_deref()),
            loops: Default::default(),
            renderer: crate::renderer::FirstScreens::new(config.render_threads),
            config,
        }))
    }
}

impl std::ops::Deref for AppState {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}

pub use domain::clock::now_ms;
