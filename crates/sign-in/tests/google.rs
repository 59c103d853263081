//! Google sign-in against the loopback OpenID Connect fake: the code flow, every ID-token
//! check, a replayed code, and Google down or hanging.

mod common;

use std::time::{Duration, Instant};

use common::{GOOGLE_REDIRECT, TIMEOUT, consent, google, rejected, unavailable};
use fake_providers::{FakeProviders, FakeUser, GOOGLE_CLIENT_ID, GoogleFault};
use sign_in::{FlowSecrets, Google, GoogleConfig, Profile, Provider, SignInError};

/// Runs the browser part of the flow and returns the code the callback receives.
async fn code_for(google: &Google, secrets: &FlowSecrets) -> String {
    let url = google
        .authorize_url(GOOGLE_REDIRECT, secrets)
        .await
        .expect("authorize URL");
    let back = consent(&url).await;
    assert_eq!(back["state"], secrets.state, "state comes back unchanged");
    back["code"].clone()
}

/// The whole flow with the fake's current user and fault.
async fn sign_in(fakes: &FakeProviders) -> Result<Profile, SignInError> {
    let google = google(fakes, TIMEOUT);
    let secrets = FlowSecrets::new();
    let code = code_for(&google, &secrets).await;
    google
        .finish(&code, &secrets.verifier, GOOGLE_REDIRECT, &secrets.nonce)
        .await
}

/// A flow where the fault is set after the consent, as when Google breaks mid-sign-in.
async fn sign_in_with_fault(fault: GoogleFault) -> Result<Profile, SignInError> {
    let fakes = FakeProviders::start().await;
    fakes.google_fault(fault);
    sign_in(&fakes).await
}

#[tokio::test]
async fn good_code_flow_gives_the_verified_profile() {
    let fakes = FakeProviders::start().await;
    let profile = sign_in(&fakes).await.expect("signed in");
    let user = FakeUser::default();
    assert_eq!(
        profile,
        Profile {
            provider: Provider::Google,
            subject: user.sub,
            email: user.email,
            name: user.name,
            photo: user.picture,
        }
    );
}

#[tokio::test]
async fn authorize_url_asks_for_a_code_with_scopes_state_nonce_and_s256_pkce() {
    let fakes = FakeProviders::start().await;
    let google = google(&fakes, TIMEOUT);
    let secrets = FlowSecrets::new();
    let url = google
        .authorize_url(GOOGLE_REDIRECT, &secrets)
        .await
        .expect("authorize URL");
    assert!(url.starts_with(&format!("{}/authorize?", fakes.google_issuer())));
    let q: std::collections::HashMap<String, String> =
        url::Url::parse(&url).expect("URL").query_pairs().into_owned().collect();
    assert_eq!(q["response_type"], "code");
    assert_eq!(q["client_id"], GOOGLE_CLIENT_ID);
    assert_eq!(q["redirect_uri"], GOOGLE_REDIRECT);
    assert_eq!(q["scope"], "openid profile email");
    assert_eq!(q["state"], secrets.state);
    assert_eq!(q["nonce"], secrets.nonce);
    assert_eq!(q["code_challenge"], secrets.challenge);
    assert_eq!(q["code_challenge_method"], "S256");
    assert!(!q.contains_key("client_secret"));
}

#[tokio::test]
async fn unverified_email_is_not_kept() {
    let fakes = FakeProviders::start().await;
    fakes.set_google_user(FakeUser {
        email_verified: false,
        ..FakeUser::default()
    });
    let profile = sign_in(&fakes).await.expect("signed in");
    assert_eq!(profile.email, None);
    assert_eq!(profile.subject, FakeUser::default().sub);
}

#[tokio::test]
async fn forged_signature_is_rejected() {
    let message = rejected(sign_in_with_fault(GoogleFault::WrongKey).await);
    assert!(message.contains("Google") && message.contains("signature"), "{message}");
}

#[tokio::test]
async fn expired_id_token_is_rejected() {
    let message = rejected(sign_in_with_fault(GoogleFault::Expired).await);
    assert!(message.contains("Google") && message.contains("expired"), "{message}");
}

#[tokio::test]
async fn unsigned_alg_none_id_token_is_rejected() {
    let message = rejected(sign_in_with_fault(GoogleFault::AlgNone).await);
    assert!(message.contains("Google") && message.contains("RS256"), "{message}");
}

#[tokio::test]
async fn id_token_for_another_client_id_is_rejected() {
    let message = rejected(sign_in_with_fault(GoogleFault::OtherAudience).await);
    assert!(
        message.contains("Google") && message.contains("another app"),
        "{message}"
    );
}

#[tokio::test]
async fn id_token_with_another_nonce_is_rejected() {
    let message = rejected(sign_in_with_fault(GoogleFault::WrongNonce).await);
    assert!(message.contains("Google") && message.contains("nonce"), "{message}");
}

#[tokio::test]
async fn id_token_from_another_issuer_is_rejected() {
    let message = rejected(sign_in_with_fault(GoogleFault::WrongIssuer).await);
    assert!(message.contains("Google") && message.contains("issued by"), "{message}");
}

#[tokio::test]
async fn replayed_code_is_rejected() {
    let fakes = FakeProviders::start().await;
    let google = google(&fakes, TIMEOUT);
    let secrets = FlowSecrets::new();
    let code = code_for(&google, &secrets).await;
    google
        .finish(&code, &secrets.verifier, GOOGLE_REDIRECT, &secrets.nonce)
        .await
        .expect("first use signs in");
    let message = rejected(
        google
            .finish(&code, &secrets.verifier, GOOGLE_REDIRECT, &secrets.nonce)
            .await,
    );
    assert!(message.contains("Google") && message.contains("code"), "{message}");
}

#[tokio::test]
async fn code_with_another_pkce_verifier_is_rejected() {
    let fakes = FakeProviders::start().await;
    let google = google(&fakes, TIMEOUT);
    let secrets = FlowSecrets::new();
    let code = code_for(&google, &secrets).await;
    let stolen = FlowSecrets::new();
    rejected(
        google
            .finish(&code, &stolen.verifier, GOOGLE_REDIRECT, &secrets.nonce)
            .await,
    );
}

#[tokio::test]
async fn wrong_client_secret_is_rejected_with_a_message_for_the_operator() {
    let fakes = FakeProviders::start().await;
    let mut cfg = google(&fakes, TIMEOUT).config().clone();
    cfg.client_secret = "not-the-secret".to_owned();
    let google = Google::new(cfg, TIMEOUT);
    let secrets = FlowSecrets::new();
    let code = code_for(&google, &secrets).await;
    let message = rejected(
        google
            .finish(&code, &secrets.verifier, GOOGLE_REDIRECT, &secrets.nonce)
            .await,
    );
    assert!(message.contains("client id or secret"), "{message}");
}

#[tokio::test]
async fn google_down_is_unavailable() {
    let fakes = FakeProviders::start().await;
    fakes.google_fault(GoogleFault::Down);
    let google = google(&fakes, TIMEOUT);
    let err = google
        .authorize_url(GOOGLE_REDIRECT, &FlowSecrets::new())
        .await
        .expect_err("no discovery document");
    assert!(
        matches!(&err, SignInError::Unavailable(m) if m.contains("Google")),
        "{err:?}"
    );

    // Down between the consent and the code exchange.
    fakes.google_fault(GoogleFault::None);
    let secrets = FlowSecrets::new();
    let code = code_for(&google, &secrets).await;
    fakes.google_fault(GoogleFault::Down);
    let message = unavailable(
        google
            .finish(&code, &secrets.verifier, GOOGLE_REDIRECT, &secrets.nonce)
            .await,
    );
    assert!(message.contains("try again"), "{message}");
}

#[tokio::test]
async fn google_hanging_is_unavailable_within_the_timeout() {
    let fakes = FakeProviders::start().await;
    let google = google(&fakes, Duration::from_secs(1));
    let secrets = FlowSecrets::new();
    let code = code_for(&google, &secrets).await;
    fakes.google_fault(GoogleFault::Hang);
    let started = Instant::now();
    let message = unavailable(
        google
            .finish(&code, &secrets.verifier, GOOGLE_REDIRECT, &secrets.nonce)
            .await,
    );
    let took = started.elapsed();
    assert!(message.contains("Google did not answer in time"), "{message}");
    assert!(took < Duration::from_millis(2500), "took {took:?}");
}

#[tokio::test]
async fn native_id_token_verifies_without_a_nonce() {
    let fakes = FakeProviders::start().await;
    let user = FakeUser {
        sub: "42".to_owned(),
        email: Some("native@example.com".to_owned()),
        email_verified: true,
        name: "Native App".to_owned(),
        picture: String::new(),
    };
    let token = fakes.mint_google_id_token(&user, None);
    let profile = google(&fakes, TIMEOUT)
        .verify_id_token(&token, None)
        .await
        .expect("verified");
    assert_eq!(profile.subject, "42");
    assert_eq!(profile.email.as_deref(), Some("native@example.com"));
    assert_eq!(profile.photo, "");
}

#[tokio::test]
async fn native_id_token_for_another_client_id_is_rejected() {
    let fakes = FakeProviders::start().await;
    fakes.google_fault(GoogleFault::OtherAudience);
    let token = fakes.mint_google_id_token(&FakeUser::default(), None);
    let message = rejected(google(&fakes, TIMEOUT).verify_id_token(&token, None).await);
    assert!(message.contains("another app"), "{message}");

    // The same token is fine for the client it was made for.
    let mut cfg = google(&fakes, TIMEOUT).config().clone();
    cfg.client_id = fake_providers::OTHER_GOOGLE_CLIENT_ID.to_owned();
    Google::new(cfg, TIMEOUT)
        .verify_id_token(&token, None)
        .await
        .expect("the other client accepts it");
}

#[tokio::test]
async fn native_id_token_nonce_is_checked_when_one_is_expected() {
    let fakes = FakeProviders::start().await;
    let google = google(&fakes, TIMEOUT);
    let token = fakes.mint_google_id_token(&FakeUser::default(), Some("n-1"));
    google.verify_id_token(&token, Some("n-1")).await.expect("same nonce");
    rejected(google.verify_id_token(&token, Some("n-2")).await);
    let without = fakes.mint_google_id_token(&FakeUser::default(), None);
    rejected(google.verify_id_token(&without, Some("n-1")).await);
}

#[tokio::test]
async fn tampered_claims_break_the_signature() {
    use base64::Engine;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let fakes = FakeProviders::start().await;
    let token = fakes.mint_google_id_token(&FakeUser::default(), None);
    let parts: Vec<&str> = token.split('.').collect();
    let mut claims: serde_json::Value =
        serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[1]).expect("b64")).expect("json");
    claims["sub"] = serde_json::json!("someone-else");
    let forged = format!(
        "{}.{}.{}",
        parts[0],
        URL_SAFE_NO_PAD.encode(claims.to_string()),
        parts[2]
    );
    let message = rejected(google(&fakes, TIMEOUT).verify_id_token(&forged, None).await);
    assert!(message.contains("signature"), "{message}");
}

#[tokio::test]
async fn hs256_and_keyless_tokens_are_rejected() {
    use base64::Engine;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let fakes = FakeProviders::start().await;
    let google = google(&fakes, TIMEOUT);
    let token = fakes.mint_google_id_token(&FakeUser::default(), None);
    let rest = token.split_once('.').expect("parts").1;
    for header in [
        r#"{"alg":"HS256","kid":"fake-google-key-1"}"#,
        r#"{"alg":"RS256"}"#,
        r#"{"alg":"RS256","kid":"unknown-kid"}"#,
    ] {
        let forged = format!("{}.{rest}", URL_SAFE_NO_PAD.encode(header));
        rejected(google.verify_id_token(&forged, None).await);
    }
    rejected(google.verify_id_token("not a token", None).await);
}

#[tokio::test]
async fn signing_keys_are_cached_between_sign_ins() {
    let fakes = FakeProviders::start().await;
    let google = google(&fakes, TIMEOUT);
    for _ in 0..3 {
        let token = fakes.mint_google_id_token(&FakeUser::default(), None);
        google.verify_id_token(&token, None).await.expect("verified");
    }
    assert_eq!(fakes.jwks_requests(), 1);
    // An unknown kid refetches at most once a minute: the cache was filled just now.
    let _ = google
        .verify_id_token(
            &format!(
                "{}.x.x",
                base64::Engine::encode(
                    &base64::engine::general_purpose::URL_SAFE_NO_PAD,
                    r#"{"alg":"RS256","kid":"rotated"}"#
                )
            ),
            None,
        )
        .await;
    assert_eq!(fakes.jwks_requests(), 1);
}

#[tokio::test]
async fn fake_authorize_refuses_an_unknown_client_and_a_missing_pkce() {
    let fakes = FakeProviders::start().await;
    let secrets = FlowSecrets::new();
    let good = google(&fakes, TIMEOUT)
        .authorize_url(GOOGLE_REDIRECT, &secrets)
        .await
        .expect("URL");
    let browser = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let other_client = good.replace(
        &url::form_urlencoded::byte_serialize(GOOGLE_CLIENT_ID.as_bytes()).collect::<String>(),
        "intruder",
    );
    let no_pkce = good.replace("code_challenge_method=S256", "");
    for url in [other_client, no_pkce] {
        let status = browser.get(&url).send().await.expect("answer").status();
        assert_eq!(status, 400, "{url}");
    }
}

#[tokio::test]
async fn default_google_config_points_at_accounts_google_com() {
    let cfg = GoogleConfig::new("id", "secret");
    assert_eq!(cfg.issuer, "https://accounts.google.com");
    assert!(!format!("{cfg:?}").contains("secret\""), "the secret is redacted");
}
