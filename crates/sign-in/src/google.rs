//! Google sign-in through OpenID Connect: discovery, authorization-code flow with PKCE and
//! nonce, and ID-token verification (RS256 signature from the JWK set, then iss, aud, exp,
//! iat, nonce). The same verification serves native apps that bring their own ID token.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::Deserialize;

use crate::http::{self, Answer};
use crate::jws::{self, JwkSet, RsaKey};
use crate::{FlowSecrets, Profile, Provider, Result, SignInError};

const P: Provider = Provider::Google;

/// How long a discovery document is trusted before it is fetched again.
const DISCOVERY_TTL: Duration = Duration::from_secs(3600);
/// How long the JWK set is trusted before it is fetched again.
const KEYS_TTL: Duration = Duration::from_secs(3600);
/// An unknown kid makes us refetch the JWK set, but not more often than this: a stream of
/// forged kids must not turn us into a load generator against Google.
const KEYS_REFETCH_MIN: Duration = Duration::from_secs(60);
/// Clock skew tolerated on exp and iat.
const LEEWAY_SECS: f64 = 60.0;
/// The issuer spelling Google also uses in ID tokens (OpenID Connect Core §3.1.3.7 note).
const GOOGLE_ISSUER: &str = "https://accounts.google.com";
const GOOGLE_BARE_ISSUER: &str = "accounts.google.com";

/// Google OAuth client settings.
#[derive(Clone, PartialEq, Eq)]
pub struct GoogleConfig {
    pub client_id: String,
    pub client_secret: String,
    /// The OpenID Connect issuer; its discovery document names every endpoint.
    pub issuer: String,
}

impl GoogleConfig {
    pub const DEFAULT_ISSUER: &'static str = GOOGLE_ISSUER;

    /// A configuration for Google itself (the default issuer).
    pub fn new(client_id: impl Into<String>, client_secret: impl Into<String>) -> GoogleConfig {
        GoogleConfig {
            client_id: client_id.into(),
            client_secret: client_secret.into(),
            issuer: Self::DEFAULT_ISSUER.to_owned(),
        }
    }
}

impl std::fmt::Debug for GoogleConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GoogleConfig")
            .field("client_id", &self.client_id)
            .field("client_secret", &"<redacted>")
            .field("issuer", &self.issuer)
            .finish()
    }
}

#[derive(Debug, Deserialize)]
struct Discovery {
    issuer: String,
    authorization_endpoint: String,
    token_endpoint: String,
    jwks_uri: String,
}

#[derive(Default)]
struct KeyCache {
    keys: Arc<HashMap<String, RsaKey>>,
    fetched: Option<Instant>,
}

/// Google sign-in. Cheap to share behind an `Arc`; caches discovery and keys.
pub struct Google {
    cfg: GoogleConfig,
    http: reqwest::Client,
    timeout: Duration,
    discovery: Mutex<Option<(Instant, Arc<Discovery>)>>,
    keys: Mutex<KeyCache>,
}

impl std::fmt::Debug for Google {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Google").field("cfg", &self.cfg).finish()
    }
}

impl Google {
    /// `timeout` bounds each request to Google from start to last byte.
    pub fn new(cfg: GoogleConfig, timeout: Duration) -> Google {
        Google {
            cfg,
            http: http::client(timeout),
            timeout,
            discovery: Mutex::new(None),
            keys: Mutex::new(KeyCache::default()),
        }
    }

    pub fn config(&self) -> &GoogleConfig {
        &self.cfg
    }

    /// Where to send the browser: Google's authorization endpoint with response_type=code,
    /// scope "openid profile email", state, nonce and the PKCE S256 challenge.
    pub async fn authorize_url(&self, redirect_uri: &str, secrets: &FlowSecrets) -> Result<String> {
        http::within(P, self.timeout, self.authorize_url_inner(redirect_uri, secrets)).await
    }

    async fn authorize_url_inner(&self, redirect_uri: &str, secrets: &FlowSecrets) -> Result<String> {
        let d = self.discovery().await?;
        let mut url = url::Url::parse(&d.authorization_endpoint).map_err(|_| misconfigured())?;
        url.query_pairs_mut()
            .append_pair("response_type", "code")
            .append_pair("client_id", &self.cfg.client_id)
            .append_pair("redirect_uri", redirect_uri)
            .append_pair("scope", "openid profile email")
            .append_pair("state", &secrets.state)
            .append_pair("nonce", &secrets.nonce)
            .append_pair("code_challenge", &secrets.challenge)
            .append_pair("code_challenge_method", "S256");
        Ok(url.into())
    }

    /// Exchanges the callback's code (with the PKCE verifier) and verifies the ID token it
    /// brings, nonce included.
    /// The whole exchange, key fetch included, is bounded by the timeout given to `new`.
    pub async fn finish(
        &self,
        code: &str,
        verifier: &str,
        redirect_uri: &str,
        expected_nonce: &str,
    ) -> Result<Profile> {
        let work = self.finish_inner(code, verifier, redirect_uri, expected_nonce);
        http::within(P, self.timeout, work).await
    }

    async fn finish_inner(
        &self,
        code: &str,
        verifier: &str,
        redirect_uri: &str,
        expected_nonce: &str,
    ) -> Result<Profile> {
        let d = self.discovery().await?;
        let form = url::form_urlencoded::Serializer::new(String::new())
            .append_pair("grant_type", "authorization_code")
            .append_pair("code", code)
            .append_pair("redirect_uri", redirect_uri)
            .append_pair("client_id", &self.cfg.client_id)
            .append_pair("client_secret", &self.cfg.client_secret)
            .append_pair("code_verifier", verifier)
            .finish();
        let request = self
            .http
            .post(&d.token_endpoint)
            .header("content-type", "application/x-www-form-urlencoded")
            .header("accept", "application/json")
            .body(form);
        let Answer { status, body } = http::send(P, "token", request).await?;
        if !status.is_success() {
            return Err(token_refusal(&body));
        }
        #[derive(Deserialize)]
        struct TokenAnswer {
            #[serde(default)]
            id_token: Option<String>,
        }
        let answer: TokenAnswer = http::json(P, "token", &body)?;
        let id_token = answer.id_token.ok_or_else(|| {
            SignInError::Unavailable("Google's answer had no ID token in it; try again in a minute.".to_owned())
        })?;
        self.verify_id_token_inner(&id_token, Some(expected_nonce)).await
    }

    /// Verifies an ID token: RS256 signature by one of the issuer's published keys, then
    /// iss, aud (our client id), exp and iat (60 s leeway), nonce when one is expected, sub.
    /// The email is kept only when Google says it is verified.
    pub async fn verify_id_token(&self, id_token: &str, expected_nonce: Option<&str>) -> Result<Profile> {
        let work = self.verify_id_token_inner(id_token, expected_nonce);
        http::within(P, self.timeout, work).await
    }

    async fn verify_id_token_inner(&self, id_token: &str, expected_nonce: Option<&str>) -> Result<Profile> {
        let jws = jws::split(id_token).ok_or_else(|| rejected("is malformed"))?;
        if jws.header.alg != "RS256" {
            return Err(rejected("is not signed the way Google signs (RS256)"));
        }
        let kid = jws
            .header
            .kid
            .as_deref()
            .filter(|k| !k.is_empty())
            .ok_or_else(|| rejected("does not name the key it was signed with"))?;
        let d = self.discovery().await?;
        let key = self.key(&d.jwks_uri, kid).await?;
        if !jws::verify_rs256(&key, jws.signing_input, &jws.signature) {
            return Err(rejected("has a signature that does not match Google's keys"));
        }
        let claims: Claims = serde_json::from_slice(&jws.payload).map_err(|_| rejected("is malformed"))?;
        self.check_claims(&d, &claims, expected_nonce, now_secs())?;
        let subject = claims
            .sub
            .filter(|s| !s.is_empty())
            .ok_or_else(|| rejected("does not say who signed in"))?;
        let email_verified = matches!(claims.email_verified, Some(serde_json::Value::Bool(true)))
            || matches!(&claims.email_verified, Some(serde_json::Value::String(s)) if s == "true");
        Ok(Profile {
            provider: P,
            subject,
            email: claims.email.filter(|e| email_verified && !e.is_empty()),
            name: claims.name.or(claims.given_name).unwrap_or_default(),
            photo: claims.picture.unwrap_or_default(),
        })
    }

    fn check_claims(&self, d: &Discovery, claims: &Claims, expected_nonce: Option<&str>, now: f64) -> Result<()> {
        let iss = claims.iss.as_deref().unwrap_or_default();
        let iss_ok = iss == d.issuer || (d.issuer == GOOGLE_ISSUER && iss == GOOGLE_BARE_ISSUER);
        if !iss_ok {
            return Err(rejected("was issued by someone other than Google"));
        }
        let aud_ok = match &claims.aud {
            Some(Audience::One(a)) => *a == self.cfg.client_id,
            Some(Audience::Many(all)) => all.contains(&self.cfg.client_id),
            None => false,
        };
        if !aud_ok {
            return Err(SignInError::Rejected(
                "This Google sign-in was made for another app (a different client id); sign in again through this site."
                    .to_owned(),
            ));
        }
        match claims.exp {
            Some(exp) if exp + LEEWAY_SECS > now => {}
            _ => return Err(rejected("has expired")),
        }
        if let Some(iat) = claims.iat
            && iat > now + LEEWAY_SECS
        {
            return Err(SignInError::Rejected(
                "Google's sign-in token is dated in the future; check this server's clock, then sign in again."
                    .to_owned(),
            ));
        }
        if let Some(expected) = expected_nonce
            && claims.nonce.as_deref() != Some(expected)
        {
            return Err(rejected(
                "belongs to another sign-in attempt (its nonce does not match)",
            ));
        }
        Ok(())
    }

    async fn discovery(&self) -> Result<Arc<Discovery>> {
        if let Ok(cache) = self.discovery.lock()
            && let Some((at, d)) = cache.as_ref()
            && at.elapsed() < DISCOVERY_TTL
        {
            return Ok(d.clone());
        }
        let url = format!(
            "{}/.well-known/openid-configuration",
            self.cfg.issuer.trim_end_matches('/')
        );
        let Answer { status, body } = http::send(P, "discovery", self.http.get(url)).await?;
        if !status.is_success() {
            return Err(SignInError::Unavailable(format!(
                "Google's sign-in configuration could not be read (HTTP {}); try again in a minute.",
                status.as_u16()
            )));
        }
        let d: Discovery = http::json(P, "discovery", &body)?;
        if d.issuer.trim_end_matches('/') != self.cfg.issuer.trim_end_matches('/') {
            tracing::error!(
                configured = %self.cfg.issuer,
                discovered = %d.issuer,
                "Google discovery document names another issuer"
            );
            return Err(misconfigured());
        }
        let d = Arc::new(d);
        if let Ok(mut cache) = self.discovery.lock() {
            *cache = Some((Instant::now(), d.clone()));
        }
        Ok(d)
    }

    /// The key for `kid`: from the cache while it is fresh, else from the JWK set, fetched
    /// again when stale or (at most once a minute) when the kid is unknown.
    async fn key(&self, jwks_uri: &str, kid: &str) -> Result<RsaKey> {
        let (found, fetched) = match self.keys.lock() {
            Ok(c) => (c.keys.get(kid).cloned(), c.fetched),
            Err(_) => (None, None),
        };
        let fresh = fetched.is_some_and(|t| t.elapsed() < KEYS_TTL);
        if let Some(key) = &found
            && fresh
        {
            return Ok(key.clone());
        }
        let may_refetch = fetched.is_none_or(|t| t.elapsed() >= KEYS_REFETCH_MIN);
        if !fresh || may_refetch {
            match self.fetch_keys(jwks_uri).await {
                Ok(keys) => {
                    let key = keys.get(kid).cloned();
                    if let Ok(mut c) = self.keys.lock() {
                        *c = KeyCache {
                            keys,
                            fetched: Some(Instant::now()),
                        };
                    }
                    return key.ok_or_else(unknown_key);
                }
                // A stale key still beats no sign-in while Google's key endpoint is down.
                Err(e) => return found.ok_or(e),
            }
        }
        Err(unknown_key())
    }

    async fn fetch_keys(&self, jwks_uri: &str) -> Result<Arc<HashMap<String, RsaKey>>> {
        let Answer { status, body } = http::send(P, "jwks", self.http.get(jwks_uri)).await?;
        if !status.is_success() {
            return Err(SignInError::Unavailable(format!(
                "Google's signing keys could not be read (HTTP {}); try again in a minute.",
                status.as_u16()
            )));
        }
        let set: JwkSet = http::json(P, "jwks", &body)?;
        Ok(Arc::new(set.rsa_keys()))
    }
}

#[derive(Debug, Deserialize)]
struct Claims {
    #[serde(default)]
    iss: Option<String>,
    #[serde(default)]
    aud: Option<Audience>,
    #[serde(default)]
    exp: Option<f64>,
    #[serde(default)]
    iat: Option<f64>,
    #[serde(default)]
    nonce: Option<String>,
    #[serde(default)]
    sub: Option<String>,
    #[serde(default)]
    email: Option<String>,
    // Google sends a boolean; some older tokens carried the string "true".
    #[serde(default)]
    email_verified: Option<serde_json::Value>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    given_name: Option<String>,
    #[serde(default)]
    picture: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Audience {
    One(String),
    Many(Vec<String>),
}

fn rejected(what: &str) -> SignInError {
    SignInError::Rejected(format!("Google's sign-in token {what}; sign in again."))
}

fn unknown_key() -> SignInError {
    rejected("was signed with a key Google does not publish")
}

fn misconfigured() -> SignInError {
    SignInError::Unavailable(
        "Google sign-in is misconfigured on this server (the issuer's discovery document does not match); the site's operator needs to check the Google issuer setting."
            .to_owned(),
    )
}

/// Maps a 4xx from the token endpoint (RFC 6749 §5.2 error JSON) to a sentence.
fn token_refusal(body: &[u8]) -> SignInError {
    #[derive(Deserialize)]
    struct OAuthError {
        #[serde(default)]
        error: String,
    }
    let code = serde_json::from_slice::<OAuthError>(body)
        .map(|e| http::plain_code(&e.error))
        .unwrap_or_default();
    let message = match code.as_str() {
        "invalid_grant" => "Google did not accept the sign-in code (it was already used, has expired or belongs to another sign-in); sign in again.".to_owned(),
        "invalid_client" | "unauthorized_client" => "Google did not accept this server's client id or secret; the site's operator needs to check the Google sign-in settings.".to_owned(),
        "" => "Google refused the sign-in; sign in again.".to_owned(),
        other => format!("Google refused the sign-in ({other}); sign in again."),
    };
    SignInError::Rejected(message)
}

fn now_secs() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}
