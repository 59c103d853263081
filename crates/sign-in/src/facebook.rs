//! Facebook sign-in: the OAuth dialog with PKCE, the code exchange, then `debug_token`
//! (the token is valid and was issued to our app) and Graph `/me` signed with
//! `appsecret_proof`. Facebook may give no email.

use std::time::Duration;

use aws_lc_rs::hmac;
use serde::Deserialize;

use crate::http::{self, Answer};
use crate::{FlowSecrets, Profile, Provider, Result, SignInError};

const P: Provider = Provider::Facebook;

/// Facebook app settings.
#[derive(Clone, PartialEq, Eq)]
pub struct FacebookConfig {
    pub app_id: String,
    pub app_secret: String,
    /// Graph API base, version included.
    pub graph_url: String,
    /// The OAuth dialog.
    pub dialog_url: String,
}

impl FacebookConfig {
    pub const DEFAULT_GRAPH_URL: &'static str = "https://graph.facebook.com/v19.0";
    pub const DEFAULT_DIALOG_URL: &'static str = "https://www.facebook.com/v19.0/dialog/oauth";

    /// A configuration for Facebook itself (the default URLs).
    pub fn new(app_id: impl Into<String>, app_secret: impl Into<String>) -> FacebookConfig {
        FacebookConfig {
            app_id: app_id.into(),
            app_secret: app_secret.into(),
            graph_url: Self::DEFAULT_GRAPH_URL.to_owned(),
            dialog_url: Self::DEFAULT_DIALOG_URL.to_owned(),
        }
    }
}

impl std::fmt::Debug for FacebookConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FacebookConfig")
            .field("app_id", &self.app_id)
            .field("app_secret", &"<redacted>")
            .field("graph_url", &self.graph_url)
            .field("dialog_url", &self.dialog_url)
            .finish()
    }
}

/// Facebook sign-in. Holds no state besides its HTTP client.
pub struct Facebook {
    cfg: FacebookConfig,
    http: reqwest::Client,
    timeout: Duration,
}

impl std::fmt::Debug for Facebook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Facebook").field("cfg", &self.cfg).finish()
    }
}

impl Facebook {
    /// `timeout` bounds each request to Facebook from start to last byte.
    pub fn new(cfg: FacebookConfig, timeout: Duration) -> Facebook {
        Facebook {
            cfg,
            http: http::client(timeout),
            timeout,
        }
    }

    pub fn config(&self) -> &FacebookConfig {
        &self.cfg
    }

    /// Where to send the browser: the dialog with scope public_profile,email, state and the
    /// PKCE S256 challenge.
    pub fn authorize_url(&self, redirect_uri: &str, secrets: &FlowSecrets) -> String {
        let query = url::form_urlencoded::Serializer::new(String::new())
            .append_pair("client_id", &self.cfg.app_id)
            .append_pair("redirect_uri", redirect_uri)
            .append_pair("state", &secrets.state)
            .append_pair("scope", "public_profile,email")
            .append_pair("response_type", "code")
            .append_pair("code_challenge", &secrets.challenge)
            .append_pair("code_challenge_method", "S256")
            .finish();
        let joiner = if self.cfg.dialog_url.contains('?') { '&' } else { '?' };
        format!("{}{joiner}{query}", self.cfg.dialog_url)
    }

    /// Exchanges the callback's code (with the PKCE verifier) for an access token and
    /// verifies it.
    /// All three Graph requests together are bounded by the timeout given to `new`.
    pub async fn finish(&self, code: &str, verifier: &str, redirect_uri: &str) -> Result<Profile> {
        let work = self.finish_inner(code, verifier, redirect_uri);
        http::within(P, self.timeout, work).await
    }

    async fn finish_inner(&self, code: &str, verifier: &str, redirect_uri: &str) -> Result<Profile> {
        let url = self.graph(
            "oauth/access_token",
            &[
                ("client_id", &self.cfg.app_id),
                ("redirect_uri", redirect_uri),
                ("client_secret", &self.cfg.app_secret),
                ("code", code),
                ("code_verifier", verifier),
            ],
        );
        let Answer { status, body } = http::send(P, "access_token", self.http.get(url)).await?;
        if !status.is_success() {
            return Err(graph_refusal(
                &body,
                "Facebook did not accept the sign-in code (it was already used, has expired or belongs to another sign-in); sign in again.",
            ));
        }
        #[derive(Deserialize)]
        struct TokenAnswer {
            #[serde(default)]
            access_token: Option<String>,
        }
        let answer: TokenAnswer = http::json(P, "access_token", &body)?;
        let token = answer
            .access_token
            .filter(|t| !t.is_empty())
            .ok_or_else(|| http::unreadable(P))?;
        self.verify_access_token_inner(&token).await
    }

    /// Verifies a user access token (from the code exchange or a native app): `debug_token`
    /// says it is valid and was issued to our app, then `/me` (with `appsecret_proof`) gives
    /// the profile of that same user.
    pub async fn verify_access_token(&self, access_token: &str) -> Result<Profile> {
        let work = self.verify_access_token_inner(access_token);
        http::within(P, self.timeout, work).await
    }

    async fn verify_access_token_inner(&self, access_token: &str) -> Result<Profile> {
        let app_token = format!("{}|{}", self.cfg.app_id, self.cfg.app_secret);
        let url = self.graph(
            "debug_token",
            &[("input_token", access_token), ("access_token", &app_token)],
        );
        let Answer { status, body } = http::send(P, "debug_token", self.http.get(url)).await?;
        if !status.is_success() {
            return Err(graph_refusal(
                &body,
                "Facebook did not accept this sign-in; sign in again.",
            ));
        }
        #[derive(Deserialize)]
        struct Debug {
            data: DebugData,
        }
        #[derive(Deserialize)]
        struct DebugData {
            #[serde(default)]
            is_valid: bool,
            #[serde(default)]
            app_id: Option<IdValue>,
            #[serde(default)]
            user_id: Option<IdValue>,
        }
        let debug: Debug = http::json(P, "debug_token", &body)?;
        if !debug.data.is_valid {
            return Err(SignInError::Rejected(
                "Facebook says this sign-in is not valid (it may have expired or been revoked); sign in again."
                    .to_owned(),
            ));
        }
        if debug.data.app_id.map(IdValue::into_string).as_deref() != Some(self.cfg.app_id.as_str()) {
            return Err(SignInError::Rejected(
                "This Facebook sign-in was made for another app; sign in again through this site.".to_owned(),
            ));
        }
        let user_id = debug
            .data
            .user_id
            .map(IdValue::into_string)
            .filter(|id| !id.is_empty())
            .ok_or_else(|| SignInError::Rejected("Facebook did not say who signed in; sign in again.".to_owned()))?;

        let proof = appsecret_proof(&self.cfg.app_secret, access_token);
        let url = self.graph(
            "me",
            &[
                ("fields", "id,name,email,picture.type(large)"),
                ("access_token", access_token),
                ("appsecret_proof", &proof),
            ],
        );
        let Answer { status, body } = http::send(P, "me", self.http.get(url)).await?;
        if !status.is_success() {
            return Err(graph_refusal(
                &body,
                "Facebook did not give this sign-in's profile; sign in again.",
            ));
        }
        #[derive(Deserialize)]
        struct Me {
            id: IdValue,
            #[serde(default)]
            name: Option<String>,
            #[serde(default)]
            email: Option<String>,
            #[serde(default)]
            picture: Option<Picture>,
        }
        #[derive(Deserialize)]
        struct Picture {
            #[serde(default)]
            data: Option<PictureData>,
        }
        #[derive(Deserialize)]
        struct PictureData {
            #[serde(default)]
            url: Option<String>,
        }
        let me: Me = http::json(P, "me", &body)?;
        let id = me.id.into_string();
        if id != user_id {
            return Err(SignInError::Rejected(
                "Facebook gave the profile of someone other than the person who signed in; sign in again.".to_owned(),
            ));
        }
        Ok(Profile {
            provider: P,
            subject: id,
            email: me.email.filter(|e| !e.is_empty()),
            name: me.name.unwrap_or_default(),
            photo: me.picture.and_then(|p| p.data).and_then(|d| d.url).unwrap_or_default(),
        })
    }

    fn graph(&self, path: &str, params: &[(&str, &str)]) -> String {
        let query = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(params)
            .finish();
        format!("{}/{path}?{query}", self.cfg.graph_url.trim_end_matches('/'))
    }
}

/// Graph's `appsecret_proof`: hex(HMAC-SHA256(key = app secret, message = access token)).
pub(crate) fn appsecret_proof(app_secret: &str, access_token: &str) -> String {
    let key = hmac::Key::new(hmac::HMAC_SHA256, app_secret.as_bytes());
    let tag = hmac::sign(&key, access_token.as_bytes());
    tag.as_ref().iter().map(|b| format!("{b:02x}")).collect()
}

/// Graph ids are strings, but a number is read too.
#[derive(Deserialize)]
#[serde(untagged)]
enum IdValue {
    Text(String),
    Number(u64),
}

impl IdValue {
    fn into_string(self) -> String {
        match self {
            IdValue::Text(s) => s,
            IdValue::Number(n) => n.to_string(),
        }
    }
}

/// A Graph error answer (`{"error":{"message","type","code"}}`): throttling codes mean
/// try later, anything else is a refusal.
fn graph_refusal(body: &[u8], refusal: &str) -> SignInError {
    #[derive(Deserialize)]
    struct GraphError {
        error: GraphErrorBody,
    }
    #[derive(Deserialize)]
    struct GraphErrorBody {
        #[serde(default)]
        code: Option<i64>,
    }
    let code = serde_json::from_slice::<GraphError>(body)
        .ok()
        .and_then(|e| e.error.code);
    tracing::warn!(provider = "facebook", code, "Facebook Graph refused a sign-in request");
    match code {
        // Graph's throttling and temporary errors: 1 unknown, 2 service, 4/17/32/613 limits.
        Some(1 | 2 | 4 | 17 | 32 | 341 | 613) => {
            SignInError::Unavailable("Facebook is busy right now; try again in a minute.".to_owned())
        }
        _ => SignInError::Rejected(refusal.to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appsecret_proof_is_hex_hmac_sha256() {
        // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?".
        assert_eq!(
            appsecret_proof("Jefe", "what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn authorize_url_carries_scope_state_and_pkce() {
        let fb = Facebook::new(FacebookConfig::new("42", "s"), Duration::from_secs(1));
        let secrets = FlowSecrets::new();
        let url = fb.authorize_url("https://example.org/cb?x=1", &secrets);
        let parsed = url::Url::parse(&url).expect("a URL");
        let q: std::collections::HashMap<_, _> = parsed.query_pairs().into_owned().collect();
        assert_eq!(q["client_id"], "42");
        assert_eq!(q["redirect_uri"], "https://example.org/cb?x=1");
        assert_eq!(q["scope"], "public_profile,email");
        assert_eq!(q["state"], secrets.state);
        assert_eq!(q["code_challenge"], secrets.challenge);
        assert_eq!(q["code_challenge_method"], "S256");
        assert!(!url.contains("secret="), "the app secret never goes to the browser");
    }
}
