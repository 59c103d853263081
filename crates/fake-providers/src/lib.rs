//! Loopback stand-ins for Google and Facebook sign-in, for tests. They speak the real
//! protocols over HTTP (OpenID Connect discovery, authorization code with PKCE, RS256 ID
//! tokens and a JWK set; the Facebook OAuth dialog, code exchange, `debug_token` and `/me`
//! with `appsecret_proof`), so the code under test runs unchanged against them.
//!
//! There is no login screen: the authorize endpoints redirect back at once, signing in the
//! user set with [`FakeProviders::set_google_user`] / [`FakeProviders::set_facebook_user`].
//! Faults stay in force until changed. A browser test drives the same knobs through
//! `POST /_control`.
//!
//! Paths (base `http://127.0.0.1:PORT`):
//! - Google issuer `/google`: `/.well-known/openid-configuration`, `/authorize`, `/token`,
//!   `/jwks`.
//! - Facebook dialog `/facebook/dialog/oauth`; Graph `/facebook/graph`: `/oauth/access_token`,
//!   `/debug_token`, `/me`.

pub mod feed_date;
pub mod push;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

use aws_lc_rs::rand::SystemRandom;
use aws_lc_rs::rsa::KeySize;
use aws_lc_rs::signature::{KeyPair, RSA_PKCS1_SHA256, RsaKeyPair};
use axum::extract::{Form, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::RngCore;
use serde::{Deserialize, Serialize};
use serde_json::json;
use sha2::{Digest, Sha256};

pub const GOOGLE_CLIENT_ID: &str = "localwire-test.apps.googleusercontent.com";
pub const GOOGLE_CLIENT_SECRET: &str = "localwire-test-google-secret";
/// The kid of the fake Google's signing key in its JWK set.
pub const GOOGLE_KID: &str = "fake-google-key-1";
/// The audience used by [`GoogleFault::OtherAudience`].
pub const OTHER_GOOGLE_CLIENT_ID: &str = "someone-else.apps.googleusercontent.com";
pub const FACEBOOK_APP_ID: &str = "1234567890";
pub const FACEBOOK_APP_SECRET: &str = "localwire-test-facebook-secret";
/// The app id `debug_token` reports under [`FacebookFault::OtherApp`].
pub const OTHER_FACEBOOK_APP_ID: &str = "9876543210";

/// The Google account that signs in next.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FakeUser {
    pub sub: String,
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub email_verified: bool,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub picture: String,
}

impl Default for FakeUser {
    fn default() -> Self {
        FakeUser {
            sub: "108765432109876543210".to_owned(),
            email: Some("ada@example.com".to_owned()),
            email_verified: true,
            name: "Ada Lovelace".to_owned(),
            picture: "https://lh3.googleusercontent.com/a/fake-ada=s96-c".to_owned(),
        }
    }
}

/// The Facebook account that signs in next.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FakeFacebookUser {
    pub id: String,
    #[serde(default)]
    pub name: String,
    /// Facebook gives no email when the person has none or declined the permission.
    #[serde(default)]
    pub email: Option<String>,
    /// The URL `/me` returns as `picture.data.url`.
    #[serde(default)]
    pub picture: String,
}

impl Default for FakeFacebookUser {
    fn default() -> Self {
        FakeFacebookUser {
            id: "10158123456789012".to_owned(),
            name: "Grace Hopper".to_owned(),
            email: Some("grace@example.com".to_owned()),
            picture:
                "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10158123456789012&height=200&width=200"
                    .to_owned(),
        }
    }
}

/// What goes wrong on the fake Google, until changed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum GoogleFault {
    #[default]
    None,
    /// ID tokens are signed by another key under the published kid (a forged signature).
    WrongKey,
    /// ID tokens expired an hour ago.
    Expired,
    /// ID tokens are unsigned (`alg: none`).
    AlgNone,
    /// ID tokens are for [`OTHER_GOOGLE_CLIENT_ID`].
    OtherAudience,
    /// ID tokens carry a nonce from another sign-in.
    WrongNonce,
    /// ID tokens name another issuer.
    WrongIssuer,
    /// Every endpoint answers 500.
    Down,
    /// The token and JWKS endpoints never answer.
    Hang,
}

/// What goes wrong on the fake Facebook, until changed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum FacebookFault {
    #[default]
    None,
    /// `debug_token` says the token belongs to [`OTHER_FACEBOOK_APP_ID`].
    OtherApp,
    /// `debug_token` says the token is not valid, `/me` refuses it.
    InvalidToken,
    /// Every endpoint answers 500.
    Down,
    /// The code exchange, `debug_token` and `/me` never answer.
    Hang,
}

/// The body of `POST /_control`; every field is optional.
#[derive(Debug, Default, Deserialize, Serialize)]
pub struct Control {
    /// Back to the default users and no faults (applied before the other fields).
    #[serde(default)]
    pub reset: bool,
    #[serde(default)]
    pub google_user: Option<FakeUser>,
    #[serde(default)]
    pub facebook_user: Option<FakeFacebookUser>,
    #[serde(default)]
    pub google_fault: Option<GoogleFault>,
    #[serde(default)]
    pub facebook_fault: Option<FacebookFault>,
}

struct GoogleGrant {
    redirect_uri: String,
    nonce: Option<String>,
    challenge: String,
    user: FakeUser,
}

struct FacebookGrant {
    redirect_uri: String,
    challenge: String,
    user: FakeFacebookUser,
}

#[derive(Default)]
struct Knobs {
    google_user: FakeUser,
    google_fault: GoogleFault,
    facebook_user: FakeFacebookUser,
    facebook_fault: FacebookFault,
    google_codes: HashMap<String, GoogleGrant>,
    facebook_codes: HashMap<String, FacebookGrant>,
    facebook_tokens: HashMap<String, FakeFacebookUser>,
}

struct Shared {
    base: String,
    google_key: RsaKeyPair,
    /// Signs under the real kid for [`GoogleFault::WrongKey`].
    forger_key: RsaKeyPair,
    knobs: Mutex<Knobs>,
    jwks_requests: AtomicUsize,
    me_requests: AtomicUsize,
}

impl Shared {
    fn knobs(&self) -> MutexGuard<'_, Knobs> {
        // A panicking handler must not wedge every later test request.
        self.knobs.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn google_issuer(&self) -> String {
        format!("{}/google", self.base)
    }

    fn mint_google(&self, user: &FakeUser, nonce: Option<&str>, fault: GoogleFault) -> String {
        let now = unix_now();
        let (iat, exp) = if fault == GoogleFault::Expired {
            (now - 7200, now - 3600)
        } else {
            (now, now + 3600)
        };
        let iss = if fault == GoogleFault::WrongIssuer {
            "https://issuer.invalid".to_owned()
        } else {
            self.google_issuer()
        };
        let aud = if fault == GoogleFault::OtherAudience {
            OTHER_GOOGLE_CLIENT_ID
        } else {
            GOOGLE_CLIENT_ID
        };
        let nonce = if fault == GoogleFault::WrongNonce {
            Some("a-nonce-from-another-sign-in")
        } else {
            nonce
        };
        let mut claims = json!({
            "iss": iss,
            "azp": aud,
            "aud": aud,
            "sub": user.sub,
            "email_verified": user.email_verified,
            "name": user.name,
            "picture": user.picture,
            "iat": iat,
            "exp": exp,
        });
        if let Some(email) = &user.email {
            claims["email"] = json!(email);
        }
        if let Some(nonce) = nonce {
            claims["nonce"] = json!(nonce);
        }
        let header = if fault == GoogleFault::AlgNone {
            json!({"alg": "none", "typ": "JWT"})
        } else {
            json!({"alg": "RS256", "kid": GOOGLE_KID, "typ": "JWT"})
        };
        let signing_input = format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(header.to_string()),
            URL_SAFE_NO_PAD.encode(claims.to_string())
        );
        let signature = match fault {
            GoogleFault::AlgNone => Vec::new(),
            GoogleFault::WrongKey => sign(&self.forger_key, &signing_input),
            _ => sign(&self.google_key, &signing_input),
        };
        format!("{signing_input}.{}", URL_SAFE_NO_PAD.encode(signature))
    }

    fn mint_facebook(&self, user: &FakeFacebookUser) -> String {
        let token = format!("EAAfake{}", random_token());
        self.knobs().facebook_tokens.insert(token.clone(), user.clone());
        token
    }
}

/// The running fakes. Dropping it stops the server.
pub struct FakeProviders {
    addr: SocketAddr,
    shared: Arc<Shared>,
    server: tokio::task::JoinHandle<()>,
}

impl FakeProviders {
    /// Starts both fakes on 127.0.0.1 with a free port.
    pub async fn start() -> FakeProviders {
        Self::start_on(0)
            .await
            .expect("the fake providers could not bind a loopback port")
    }

    /// Starts both fakes on 127.0.0.1:`port` (0 = any free port).
    pub async fn start_on(port: u16) -> std::io::Result<FakeProviders> {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
        let addr = listener.local_addr()?;
        let keys =
            || RsaKeyPair::generate(KeySize::Rsa2048).map_err(|_| std::io::Error::other("RSA key generation failed"));
        let shared = Arc::new(Shared {
            base: format!("http://{addr}"),
            google_key: keys()?,
            forger_key: keys()?,
            knobs: Mutex::new(Knobs::default()),
            jwks_requests: AtomicUsize::new(0),
            me_requests: AtomicUsize::new(0),
        });
        let app = router(shared.clone());
        let server = tokio::spawn(async move {
            // Serving ends only when the task is aborted (drop) or the listener fails.
            let _ = axum::serve(listener, app).await;
        });
        Ok(FakeProviders { addr, shared, server })
    }

    /// `http://127.0.0.1:PORT`.
    pub fn base_url(&self) -> String {
        self.shared.base.clone()
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The OpenID Connect issuer (its discovery document is under it).
    pub fn google_issuer(&self) -> String {
        self.shared.google_issuer()
    }

    pub fn facebook_graph_url(&self) -> String {
        format!("{}/facebook/graph", self.shared.base)
    }

    pub fn facebook_dialog_url(&self) -> String {
        format!("{}/facebook/dialog/oauth", self.shared.base)
    }

    /// `POST` a [`Control`] JSON body here to turn the knobs from outside the process.
    pub fn control_url(&self) -> String {
        format!("{}/_control", self.shared.base)
    }

    pub fn set_google_user(&self, user: FakeUser) {
        self.shared.knobs().google_user = user;
    }

    pub fn set_facebook_user(&self, user: FakeFacebookUser) {
        self.shared.knobs().facebook_user = user;
    }

    pub fn google_fault(&self, fault: GoogleFault) {
        self.shared.knobs().google_fault = fault;
    }

    pub fn facebook_fault(&self, fault: FacebookFault) {
        self.shared.knobs().facebook_fault = fault;
    }

    /// An ID token as Google gives a native app (aud = [`GOOGLE_CLIENT_ID`]); the current
    /// Google fault applies to it as to tokens from the code flow.
    pub fn mint_google_id_token(&self, user: &FakeUser, nonce: Option<&str>) -> String {
        let fault = self.shared.knobs().google_fault;
        self.shared.mint_google(user, nonce, fault)
    }

    /// A user access token for [`FACEBOOK_APP_ID`] that `debug_token` and `/me` accept.
    pub fn mint_facebook_access_token(&self, user: &FakeFacebookUser) -> String {
        self.shared.mint_facebook(user)
    }

    /// How many times the JWK set was fetched (to observe caching).
    pub fn jwks_requests(&self) -> usize {
        self.shared.jwks_requests.load(Ordering::Relaxed)
    }

    /// How many `/me` requests reached the fake Graph.
    pub fn me_requests(&self) -> usize {
        self.shared.me_requests.load(Ordering::Relaxed)
    }
}

impl Drop for FakeProviders {
    fn drop(&mut self) {
        self.server.abort();
    }
}

fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/google/.well-known/openid-configuration", get(google_discovery))
        .route("/google/authorize", get(google_authorize))
        .route("/google/token", post(google_token))
        .route("/google/jwks", get(google_jwks))
        .route("/facebook/dialog/oauth", get(facebook_dialog))
        .route("/facebook/graph/oauth/access_token", get(facebook_access_token))
        .route("/facebook/graph/debug_token", get(facebook_debug_token))
        .route("/facebook/graph/me", get(facebook_me))
        .route("/_control", post(control))
        .with_state(shared)
}

type Params = HashMap<String, String>;

async fn control(State(s): State<Arc<Shared>>, Json(c): Json<Control>) -> Response {
    let mut k = s.knobs();
    if c.reset {
        k.google_user = FakeUser::default();
        k.facebook_user = FakeFacebookUser::default();
        k.google_fault = GoogleFault::None;
        k.facebook_fault = FacebookFault::None;
    }
    if let Some(u) = c.google_user {
        k.google_user = u;
    }
    if let Some(u) = c.facebook_user {
        k.facebook_user = u;
    }
    if let Some(f) = c.google_fault {
        k.google_fault = f;
    }
    if let Some(f) = c.facebook_fault {
        k.facebook_fault = f;
    }
    Json(json!({"ok": true})).into_response()
}

// ---------------------------------------------------------------- Google

fn google_down() -> Response {
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        Json(json!({"error": "server_error"})),
    )
        .into_response()
}

fn oauth_error(status: StatusCode, error: &str, description: &str) -> Response {
    (status, Json(json!({"error": error, "error_description": description}))).into_response()
}

async fn google_discovery(State(s): State<Arc<Shared>>) -> Response {
    if s.knobs().google_fault == GoogleFault::Down {
        return google_down();
    }
    let iss = s.google_issuer();
    Json(json!({
        "issuer": iss,
        "authorization_endpoint": format!("{iss}/authorize"),
        "token_endpoint": format!("{iss}/token"),
        "jwks_uri": format!("{iss}/jwks"),
        "response_types_supported": ["code"],
        "subject_types_supported": ["public"],
        "id_token_signing_alg_values_supported": ["RS256"],
        "scopes_supported": ["openid", "email", "profile"],
        "token_endpoint_auth_methods_supported": ["client_secret_post"],
        "claims_supported": ["aud", "email", "email_verified", "exp", "iat", "iss", "name", "picture", "sub", "nonce"],
        "code_challenge_methods_supported": ["S256"],
        "grant_types_supported": ["authorization_code"],
    }))
    .into_response()
}

async fn google_authorize(State(s): State<Arc<Shared>>, Query(q): Query<Params>) -> Response {
    let mut k = s.knobs();
    if k.google_fault == GoogleFault::Down {
        return google_down();
    }
    let param = |name: &str| q.get(name).map(String::as_str).unwrap_or_default();
    if param("client_id") != GOOGLE_CLIENT_ID {
        return bad_request("unknown client_id");
    }
    if param("response_type") != "code" {
        return bad_request("response_type must be code");
    }
    if !param("scope").split(' ').any(|s| s == "openid") {
        return bad_request("scope must include openid");
    }
    if param("code_challenge").is_empty() || param("code_challenge_method") != "S256" {
        return bad_request("PKCE with code_challenge_method S256 is required");
    }
    let Some(mut back) = redirect_target(param("redirect_uri")) else {
        return bad_request("redirect_uri must be an absolute http(s) URL");
    };
    let code = random_token();
    let grant = GoogleGrant {
        redirect_uri: param("redirect_uri").to_owned(),
        nonce: q.get("nonce").cloned(),
        challenge: param("code_challenge").to_owned(),
        user: k.google_user.clone(),
    };
    k.google_codes.insert(code.clone(), grant);
    back.query_pairs_mut().append_pair("code", &code);
    if let Some(state) = q.get("state") {
        back.query_pairs_mut().append_pair("state", state);
    }
    redirect(back)
}

async fn google_token(State(s): State<Arc<Shared>>, Form(f): Form<Params>) -> Response {
    let fault = s.knobs().google_fault;
    match fault {
        GoogleFault::Down => return google_down(),
        GoogleFault::Hang => std::future::pending::<()>().await,
        _ => {}
    }
    let param = |name: &str| f.get(name).map(String::as_str).unwrap_or_default();
    if param("client_id") != GOOGLE_CLIENT_ID || param("client_secret") != GOOGLE_CLIENT_SECRET {
        return oauth_error(
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            "The OAuth client was not found or the secret is wrong.",
        );
    }
    if param("grant_type") != "authorization_code" {
        return oauth_error(
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
            "Only authorization_code is supported.",
        );
    }
    // Single use: the code is gone whatever happens next.
    let Some(grant) = s.knobs().google_codes.remove(param("code")) else {
        return oauth_error(StatusCode::BAD_REQUEST, "invalid_grant", "Bad Request");
    };
    if grant.redirect_uri != param("redirect_uri") {
        return oauth_error(StatusCode::BAD_REQUEST, "invalid_grant", "redirect_uri does not match.");
    }
    if s256(param("code_verifier")) != grant.challenge {
        return oauth_error(StatusCode::BAD_REQUEST, "invalid_grant", "Invalid code verifier.");
    }
    let id_token = s.mint_google(&grant.user, grant.nonce.as_deref(), fault);
    Json(json!({
        "access_token": format!("ya29.fake{}", random_token()),
        "expires_in": 3599,
        "scope": "openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile",
        "token_type": "Bearer",
        "id_token": id_token,
    }))
    .into_response()
}

async fn google_jwks(State(s): State<Arc<Shared>>) -> Response {
    s.jwks_requests.fetch_add(1, Ordering::Relaxed);
    let fault = s.knobs().google_fault;
    match fault {
        GoogleFault::Down => return google_down(),
        GoogleFault::Hang => std::future::pending::<()>().await,
        _ => {}
    }
    let public = s.google_key.public_key();
    Json(json!({
        "keys": [{
            "kty": "RSA",
            "alg": "RS256",
            "use": "sig",
            "kid": GOOGLE_KID,
            "n": URL_SAFE_NO_PAD.encode(public.modulus().big_endian_without_leading_zero()),
            "e": URL_SAFE_NO_PAD.encode(public.exponent().big_endian_without_leading_zero()),
        }]
    }))
    .into_response()
}

// ---------------------------------------------------------------- Facebook

fn graph_error(status: StatusCode, message: &str, kind: &str, code: i64) -> Response {
    (
        status,
        Json(json!({"error": {
            "message": message,
            "type": kind,
            "code": code,
            "fbtrace_id": "AfakeTraceId",
        }})),
    )
        .into_response()
}

fn graph_down() -> Response {
    graph_error(
        StatusCode::INTERNAL_SERVER_ERROR,
        "An unexpected error has occurred. Please retry your request later.",
        "OAuthException",
        2,
    )
}

fn bad_token() -> Response {
    graph_error(
        StatusCode::BAD_REQUEST,
        "Invalid OAuth access token - Cannot parse access token",
        "OAuthException",
        190,
    )
}

async fn facebook_dialog(State(s): State<Arc<Shared>>, Query(q): Query<Params>) -> Response {
    let mut k = s.knobs();
    if k.facebook_fault == FacebookFault::Down {
        return graph_down();
    }
    let param = |name: &str| q.get(name).map(String::as_str).unwrap_or_default();
    if param("client_id") != FACEBOOK_APP_ID {
        return bad_request("Invalid App ID");
    }
    if param("code_challenge").is_empty() || param("code_challenge_method") != "S256" {
        return bad_request("PKCE with code_challenge_method S256 is required");
    }
    let Some(mut back) = redirect_target(param("redirect_uri")) else {
        return bad_request("redirect_uri must be an absolute http(s) URL");
    };
    let code = random_token();
    let grant = FacebookGrant {
        redirect_uri: param("redirect_uri").to_owned(),
        challenge: param("code_challenge").to_owned(),
        user: k.facebook_user.clone(),
    };
    k.facebook_codes.insert(code.clone(), grant);
    back.query_pairs_mut().append_pair("code", &code);
    if let Some(state) = q.get("state") {
        back.query_pairs_mut().append_pair("state", state);
    }
    redirect(back)
}

async fn facebook_hang_or_down(s: &Shared) -> Option<Response> {
    let fault = s.knobs().facebook_fault;
    match fault {
        FacebookFault::Down => Some(graph_down()),
        FacebookFault::Hang => std::future::pending().await,
        _ => None,
    }
}

async fn facebook_access_token(State(s): State<Arc<Shared>>, Query(q): Query<Params>) -> Response {
    if let Some(r) = facebook_hang_or_down(&s).await {
        return r;
    }
    let param = |name: &str| q.get(name).map(String::as_str).unwrap_or_default();
    if param("client_id") != FACEBOOK_APP_ID || param("client_secret") != FACEBOOK_APP_SECRET {
        return graph_error(
            StatusCode::BAD_REQUEST,
            "Error validating client secret.",
            "OAuthException",
            1,
        );
    }
    let Some(grant) = s.knobs().facebook_codes.remove(param("code")) else {
        return graph_error(
            StatusCode::BAD_REQUEST,
            "This authorization code has been used.",
            "OAuthException",
            100,
        );
    };
    if grant.redirect_uri != param("redirect_uri") {
        return graph_error(
            StatusCode::BAD_REQUEST,
            "Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request",
            "OAuthException",
            100,
        );
    }
    if s256(param("code_verifier")) != grant.challenge {
        return graph_error(StatusCode::BAD_REQUEST, "Invalid code verifier.", "OAuthException", 100);
    }
    let token = s.mint_facebook(&grant.user);
    Json(json!({
        "access_token": token,
        "token_type": "bearer",
        "expires_in": 5183944,
    }))
    .into_response()
}

async fn facebook_debug_token(State(s): State<Arc<Shared>>, Query(q): Query<Params>) -> Response {
    if let Some(r) = facebook_hang_or_down(&s).await {
        return r;
    }
    let param = |name: &str| q.get(name).map(String::as_str).unwrap_or_default();
    if param("access_token") != format!("{FACEBOOK_APP_ID}|{FACEBOOK_APP_SECRET}") {
        return graph_error(
            StatusCode::BAD_REQUEST,
            "Invalid OAuth access token signature.",
            "OAuthException",
            190,
        );
    }
    let k = s.knobs();
    let user = k.facebook_tokens.get(param("input_token"));
    let Some(user) = user.filter(|_| k.facebook_fault != FacebookFault::InvalidToken) else {
        return Json(json!({"data": {
            "error": {"code": 190, "message": "Invalid OAuth access token."},
            "is_valid": false,
            "scopes": [],
        }}))
        .into_response();
    };
    let app_id = if k.facebook_fault == FacebookFault::OtherApp {
        OTHER_FACEBOOK_APP_ID
    } else {
        FACEBOOK_APP_ID
    };
    let now = unix_now();
    Json(json!({"data": {
        "app_id": app_id,
        "type": "USER",
        "application": "Localwire test",
        "data_access_expires_at": now + 90 * 86400,
        "expires_at": now + 60 * 86400,
        "is_valid": true,
        "scopes": ["email", "public_profile"],
        "user_id": user.id,
    }}))
    .into_response()
}

async fn facebook_me(State(s): State<Arc<Shared>>, Query(q): Query<Params>) -> Response {
    s.me_requests.fetch_add(1, Ordering::Relaxed);
    if let Some(r) = facebook_hang_or_down(&s).await {
        return r;
    }
    let param = |name: &str| q.get(name).map(String::as_str).unwrap_or_default();
    let k = s.knobs();
    let token = param("access_token");
    let Some(user) = k
        .facebook_tokens
        .get(token)
        .filter(|_| k.facebook_fault != FacebookFault::InvalidToken)
    else {
        return bad_token();
    };
    if param("appsecret_proof") != hmac_sha256_hex(FACEBOOK_APP_SECRET, token) {
        return graph_error(
            StatusCode::BAD_REQUEST,
            "API calls from the server require an appsecret_proof argument",
            "GraphMethodException",
            100,
        );
    }
    let fields: Vec<&str> = param("fields")
        .split(',')
        .map(|f| f.split(['.', '{']).next().unwrap_or_default().trim())
        .collect();
    let mut me = json!({"id": user.id});
    if fields.contains(&"name") {
        me["name"] = json!(user.name);
    }
    if fields.contains(&"email")
        && let Some(email) = &user.email
    {
        me["email"] = json!(email);
    }
    if fields.contains(&"picture") {
        me["picture"] = json!({"data": {
            "height": 200,
            "is_silhouette": false,
            "url": user.picture,
            "width": 200,
        }});
    }
    Json(me).into_response()
}

// ---------------------------------------------------------------- helpers

fn bad_request(message: &str) -> Response {
    (StatusCode::BAD_REQUEST, message.to_owned()).into_response()
}

fn redirect(to: url::Url) -> Response {
    (StatusCode::FOUND, [(header::LOCATION, to.to_string())]).into_response()
}

fn redirect_target(redirect_uri: &str) -> Option<url::Url> {
    url::Url::parse(redirect_uri)
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https"))
}

fn sign(key: &RsaKeyPair, signing_input: &str) -> Vec<u8> {
    let mut signature = vec![0u8; key.public_modulus_len()];
    // Signing with a freshly generated key and a fixed algorithm cannot fail.
    key.sign(
        &RSA_PKCS1_SHA256,
        &SystemRandom::new(),
        signing_input.as_bytes(),
        &mut signature,
    )
    .expect("RS256 signing with the fake's own key");
    signature
}

fn s256(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

fn hmac_sha256_hex(key: &str, message: &str) -> String {
    let key = aws_lc_rs::hmac::Key::new(aws_lc_rs::hmac::HMAC_SHA256, key.as_bytes());
    aws_lc_rs::hmac::sign(&key, message.as_bytes())
        .as_ref()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn random_token() -> String {
    let mut bytes = [0u8; 24];
    rand::rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

fn unix_now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}
