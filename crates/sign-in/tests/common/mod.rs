//! Shared steps: a browser that follows the fake's authorize redirect, and providers
//! configured against the loopback fakes.
#![allow(dead_code)]

use std::collections::HashMap;
use std::time::Duration;

use fake_providers::{FACEBOOK_APP_ID, FACEBOOK_APP_SECRET, FakeProviders, GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET};
use sign_in::{Facebook, FacebookConfig, Google, GoogleConfig, SignInError};

pub const GOOGLE_REDIRECT: &str = "http://127.0.0.1:9/api/auth/google/callback";
pub const FACEBOOK_REDIRECT: &str = "http://127.0.0.1:9/api/auth/facebook/callback";
/// What the server will pass.
pub const TIMEOUT: Duration = Duration::from_secs(8);

pub fn google(fakes: &FakeProviders, timeout: Duration) -> Google {
    Google::new(
        GoogleConfig {
            client_id: GOOGLE_CLIENT_ID.to_owned(),
            client_secret: GOOGLE_CLIENT_SECRET.to_owned(),
            issuer: fakes.google_issuer(),
        },
        timeout,
    )
}

pub fn facebook(fakes: &FakeProviders, timeout: Duration) -> Facebook {
    Facebook::new(
        FacebookConfig {
            app_id: FACEBOOK_APP_ID.to_owned(),
            app_secret: FACEBOOK_APP_SECRET.to_owned(),
            graph_url: fakes.facebook_graph_url(),
            dialog_url: fakes.facebook_dialog_url(),
        },
        timeout,
    )
}

/// What a browser does with an authorize URL against the fakes: one redirect back to the
/// callback. Returns the callback's query parameters.
pub async fn consent(authorize_url: &str) -> HashMap<String, String> {
    let browser = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let answer = browser.get(authorize_url).send().await.expect("authorize");
    assert_eq!(answer.status(), 302, "the fake redirects back at once");
    let location = answer
        .headers()
        .get("location")
        .expect("a Location")
        .to_str()
        .expect("ASCII");
    url::Url::parse(location)
        .expect("an absolute callback URL")
        .query_pairs()
        .into_owned()
        .collect()
}

pub fn rejected(result: Result<sign_in::Profile, SignInError>) -> String {
    match result {
        Err(SignInError::Rejected(message)) => message,
        other => panic!("expected Rejected, got {other:?}"),
    }
}

pub fn unavailable(result: Result<sign_in::Profile, SignInError>) -> String {
    match result {
        Err(SignInError::Unavailable(message)) => message,
        other => panic!("expected Unavailable, got {other:?}"),
    }
}
