//! The HTTP layer: the `/api` JSON API, the pages of the route table, the embedded
//! web app, health and metrics.

pub mod account;
pub mod ads;
pub mod app_config;
pub mod assets;
pub mod auth;
pub mod call_limit;
pub mod demo_media;
pub mod discovery;
pub mod encrypted_answers;
pub mod envelope;
pub mod geo_api;
pub mod guests;
pub mod health;
pub mod history;
pub mod image_proxy;
pub mod image_proxy_api;
pub mod inline_cache;
pub mod known_news;
pub mod metrics;
pub mod news_api;
pub mod news_json;
pub mod nonces;
pub mod openapi;
pub mod operator;
pub mod page_cache;
pub mod pages;
pub mod publisher_cities;
pub mod push_api;
pub mod rate_limit;
pub mod read_cache;
pub mod reader;
pub mod reader_views;
pub mod renderer;
pub mod report;
pub mod report_api;
pub mod same_origin;
pub mod security;
pub mod session;
pub mod shell;
pub mod sign_in_providers;
pub mod signed;
pub mod state;
pub mod stored_html;
pub mod syndication;

pub mod user;
pub mod viewer;
pub mod weather;
pub mod weather_alerts;
pub mod xml;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use envelope::{ApiError, json_response};
use std::sync::LazyLock;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::compression::predicate::{DefaultPredicate, NotForContentType, Predicate};
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub use state::{ApiConfig, AppState, RouteRule};

fn api_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(openapi::ApiDoc::openapi())
        .routes(routes!(user::init))
        .routes(routes!(user::info))
        .routes(routes!(user::logout))
        .routes(routes!(user::location_update_handler))
        .routes(routes!(auth::native::third_login))
        .routes(routes!(account::account))
        .routes(routes!(account::sessions))
        .routes(routes!(account::revoke))
        .routes(routes!(account::export))
        .routes(routes!(account::delete))
        .routes(routes!(reader::saved::collect))
        .routes(routes!(reader::saved::uncollect))
        .routes(routes!(reader::saved::collect_list))
        .routes(routes!(reader::history::read))
        .routes(routes!(reader::history::read_list))
        .routes(routes!(reader::history::read_remove))
        .routes(routes!(reader::history::read_clear))
        .routes(routes!(reader::reactions::react))
        .routes(routes!(reader::reactions::reactions))
        .routes(routes!(reader::reactions::reaction_list))
        .routes(routes!(reader::publishers::follow))
        .routes(routes!(reader::publishers::unfollow))
        .routes(routes!(reader::publishers::follow_list))
        .routes(routes!(reader::publishers::block))
        .routes(routes!(reader::publishers::unblock))
        .routes(routes!(reader::publishers::block_list))
        .routes(routes!(reader::follows_opml::follows_opml_handler))
        .routes(routes!(reader::settings::follow_topic))
        .routes(routes!(reader::settings::unfollow_topic))
        .routes(routes!(reader::settings::topic_list))
        .routes(routes!(reader::settings::set_channels))
        .routes(routes!(reader::settings::channel_list))
        .routes(routes!(reader::settings::add_mute))
        .routes(routes!(reader::settings::remove_mute))
        .routes(routes!(reader::settings::mute_list))
        .routes(routes!(reader::settings::preview_mute))
        .routes(routes!(news_api::personal::following_handler))
        .routes(routes!(news_api::personal::topics_handler))
        .routes(routes!(app_config::config))
        .routes(routes!(app_config::countries))
        .routes(routes!(geo_api::search))
        .routes(routes!(geo_api::nearest))
        .routes(routes!(geo_api::default_cities))
        .routes(routes!(geo_api::detail))
        .routes(routes!(news_api::feeds::feed_handler))
        .routes(routes!(news_api::detail::detail_handler))
        .routes(routes!(news_api::media::media_handler))
        .routes(routes!(news_api::categories::categories_handler))
        .routes(routes!(news_api::search::search_news_handler))
        .routes(routes!(news_api::search::search_media_handler))
        .routes(routes!(history::history_handler))
        .routes(routes!(news_api::trends::trends_handler))
        .routes(routes!(weather::weather_handler))
        .routes(routes!(weather_alerts::alerts_handler))
        .routes(routes!(push_api::key))
        .routes(routes!(push_api::subscribe))
        .routes(routes!(push_api::unsubscribe))
        .routes(routes!(push_api::settings))
        .routes(routes!(push_api::update_settings))
        .routes(routes!(push_api::by_notification))
        .routes(routes!(report_api::report))
        .routes(routes!(operator::usage))
        .routes(routes!(operator::usage_export))
        .routes(routes!(operator::feeds::list))
        .routes(routes!(operator::feeds::add))
        .routes(routes!(operator::feeds::pause))
        .routes(routes!(operator::feeds::remove))
        .routes(routes!(operator::feeds::import_opml))
}

static OPENAPI_JSON: LazyLock<String> = LazyLock::new(|| {
    let (_, mut doc) = api_routes().split_for_parts();
    openapi::describe_encrypted_answers(&mut doc);
    doc.to_pretty_json().unwrap_or_else(|_| "{}".into())
});

/// The OpenAPI document as served at `/api/openapi.json`.
pub fn openapi_json() -> &'static str {
    &OPENAPI_JSON
}

async fn openapi_handler() -> Response {
    let mut res = OPENAPI_JSON.as_str().into_response();
    res.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    res
}

async fn api_not_found() -> ApiError {
    ApiError::NotFound
}

async fn method_not_allowed(req: Request) -> Response {
    let path = req.uri().path();
    if path.starts_with("/api/") {
        let message = format!(
            "Method {} is not allowed on {}.",
            req.method(),
            path.chars().take(200).collect::<String>()
        );
        ApiError::MethodNotAllowed(message).into_response()
    } else {
        (StatusCode::METHOD_NOT_ALLOWED, "Method not allowed.").into_response()
    }
}

async fn healthz(State(state): State<AppState>) -> Response {
    let health = health::check(state.store.as_ref(), &state.loops, state::now_ms()).await;
    let status = if health.status == health::Status::Error {
        tracing::error!("health check: the database does not answer");
        StatusCode::SERVICE_UNAVAILABLE
    } else {
        StatusCode::OK
    };
    let mut res = json_response(status, &health);
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

async fn metrics_handler(State(state): State<AppState>) -> Response {
    let health = health::check(state.store.as_ref(), &state.loops, state::now_ms()).await;
    let mut text = state.metrics.render(&state.shell.build_id, state.store.engine().name());
    text.push_str(&health::render(&health));
    let mut res = text.into_response();
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; version=0.0.4"),
    );
    res
}

fn panic_response(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    tracing::error!("a request handler panicked");
    ApiError::Internal("handler panicked".into()).into_response()
}

/// The whole HTTP application.
pub fn router(state: AppState) -> Router {
    let (api, _) = api_routes().split_for_parts();
    let mut app = Router::new()
        .merge(api)
        .route("/api/openapi.json", get(openapi_handler))
        .route("/api", any(api_not_found))
        .route("/api/{*rest}", any(api_not_found))
        .merge(discovery::routes())
        .merge(syndication::routes())
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics_handler))
        .route("/_app/version.json", get(app_config::version))
        .route("/_app/builds/{file}", get(app_config::build_manifest))
        .route("/demo/media/{*path}", get(demo_media::serve))
        .route("/proxy/{mac}/{address}", get(image_proxy_api::serve))
        .route("/auth/complete.js", get(auth::page::complete_js))
        .route("/auth/{provider}/start", get(auth::web_flow::start))
        .route("/auth/{provider}/callback", get(auth::web_flow::callback))
        .fallback(pages::handle)
        .method_not_allowed_fallback(method_not_allowed);
    // Innermost, so it sees the answer before compression (D220); only there when the
    // operator turned it on, so an ordinary server pays nothing for it.
    if state.config.encrypt_responses {
        app = app.layer(axum::middleware::from_fn_with_state(
            state.clone(),
            encrypted_answers::layer,
        ));
    }
    if state.image_proxy.enabled() {
        app = app.layer(axum::middleware::map_response(security::images_from_self));
    }
    let gate = call_limit::Gate {
        metrics: state.metrics.clone(),
        limit: state.call_limit.clone(),
        trust_forwarded_for: state.config.trust_forwarded_for,
    };
    app = app
        .layer(axum::middleware::from_fn_with_state(gate, call_limit::layer))
        .layer(
            CompressionLayer::new().compress_when(
                // Audio and video are compressed already, and must keep their byte ranges.
                DefaultPredicate::new()
                    .and(NotForContentType::const_new("audio/"))
                    .and(NotForContentType::const_new("video/")),
            ),
        )
        .layer(CatchPanicLayer::custom(panic_response))
        .layer(axum::middleware::map_response_with_state(
            security::public_https(state.config.public_url.as_deref()),
            security::add_common_headers,
        ));
    app.with_state(state)
}
