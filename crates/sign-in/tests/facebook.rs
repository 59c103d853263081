//! Facebook sign-in against the loopback Graph fake: the dialog and code exchange,
//! debug_token for our app, /me with appsecret_proof, no email, down and hanging.

mod common;

use std::time::{Duration, Instant};

use common::{FACEBOOK_REDIRECT, TIMEOUT, consent, facebook, rejected, unavailable};
use fake_providers::{FACEBOOK_APP_ID, FacebookFault, FakeFacebookUser, FakeProviders};
use sign_in::{Facebook, FlowSecrets, Profile, Provider, SignInError};

async fn code_for(facebook: &Facebook, secrets: &FlowSecrets) -> String {
    let back = consent(&facebook.authorize_url(FACEBOOK_REDIRECT, secrets)).await;
    assert_eq!(back["state"], secrets.state, "state comes back unchanged");
    back["code"].clone()
}

async fn sign_in(fakes: &FakeProviders) -> Result<Profile, SignInError> {
    let facebook = facebook(fakes, TIMEOUT);
    let secrets = FlowSecrets::new();
    let code = code_for(&facebook, &secrets).await;
    facebook.finish(&code, &secrets.verifier, FACEBOOK_REDIRECT).await
}

#[tokio::test]
async fn good_facebook_flow_gives_the_profile_with_the_picture_url() {
    let fakes = FakeProviders::start().await;
    let profile = sign_in(&fakes).await.expect("signed in");
    let user = FakeFacebookUser::default();
    assert_eq!(
        profile,
        Profile {
            provider: Provider::Facebook,
            subject: user.id,
            email: user.email,
            name: user.name,
            photo: user.picture,
        }
    );
}

#[tokio::test]
async fn facebook_without_email_gives_email_none() {
    let fakes = FakeProviders::start().await;
    fakes.set_facebook_user(FakeFacebookUser {
        email: None,
        ..FakeFacebookUser::default()
    });
    let profile = sign_in(&fakes).await.expect("signed in");
    assert_eq!(profile.email, None);
    assert_eq!(profile.name, FakeFacebookUser::default().name);
}

#[tokio::test]
async fn debug_token_for_another_app_is_rejected() {
    let fakes = FakeProviders::start().await;
    fakes.facebook_fault(FacebookFault::OtherApp);
    let message = rejected(sign_in(&fakes).await);
    assert!(
        message.contains("Facebook") && message.contains("another app"),
        "{message}"
    );
    assert_eq!(fakes.me_requests(), 0, "no profile is read for another app's token");
}

#[tokio::test]
async fn invalid_access_token_is_rejected() {
    let fakes = FakeProviders::start().await;
    fakes.facebook_fault(FacebookFault::InvalidToken);
    let message = rejected(sign_in(&fakes).await);
    assert!(
        message.contains("Facebook") && message.contains("not valid"),
        "{message}"
    );
    let message = rejected(facebook(&fakes, TIMEOUT).verify_access_token("EAAnot-a-token").await);
    assert!(message.contains("Facebook"), "{message}");
}

#[tokio::test]
async fn appsecret_proof_is_sent_and_the_fake_refuses_me_without_it() {
    let fakes = FakeProviders::start().await;
    let token = fakes.mint_facebook_access_token(&FakeFacebookUser::default());

    let plain = reqwest::get(format!(
        "{}/me?fields=id,name&access_token={token}",
        fakes.facebook_graph_url()
    ))
    .await
    .expect("answer");
    assert_eq!(plain.status(), 400);
    let body: serde_json::Value = plain.json().await.expect("Graph error JSON");
    assert_eq!(body["error"]["code"], 100);

    let profile = facebook(&fakes, TIMEOUT)
        .verify_access_token(&token)
        .await
        .expect("our request carries the proof");
    assert_eq!(profile.subject, FakeFacebookUser::default().id);
    assert_eq!(fakes.me_requests(), 2);
}

#[tokio::test]
async fn native_access_token_verifies() {
    let fakes = FakeProviders::start().await;
    let user = FakeFacebookUser {
        id: "777".to_owned(),
        name: "Native".to_owned(),
        email: None,
        picture: "https://example.org/p.jpg".to_owned(),
    };
    let token = fakes.mint_facebook_access_token(&user);
    let profile = facebook(&fakes, TIMEOUT)
        .verify_access_token(&token)
        .await
        .expect("verified");
    assert_eq!(profile.subject, "777");
    assert_eq!(profile.photo, "https://example.org/p.jpg");
    assert_eq!(profile.email, None);
}

#[tokio::test]
async fn replayed_facebook_code_is_rejected() {
    let fakes = FakeProviders::start().await;
    let facebook = facebook(&fakes, TIMEOUT);
    let secrets = FlowSecrets::new();
    let code = code_for(&facebook, &secrets).await;
    facebook
        .finish(&code, &secrets.verifier, FACEBOOK_REDIRECT)
        .await
        .expect("first use signs in");
    let message = rejected(facebook.finish(&code, &secrets.verifier, FACEBOOK_REDIRECT).await);
    assert!(message.contains("Facebook") && message.contains("code"), "{message}");
}

#[tokio::test]
async fn facebook_code_with_another_pkce_verifier_is_rejected() {
    let fakes = FakeProviders::start().await;
    let facebook = facebook(&fakes, TIMEOUT);
    let secrets = FlowSecrets::new();
    let code = code_for(&facebook, &secrets).await;
    rejected(
        facebook
            .finish(&code, &FlowSecrets::new().verifier, FACEBOOK_REDIRECT)
            .await,
    );
}

#[tokio::test]
async fn wrong_app_secret_is_rejected() {
    let fakes = FakeProviders::start().await;
    let mut cfg = facebook(&fakes, TIMEOUT).config().clone();
    cfg.app_secret = "not-the-secret".to_owned();
    let token = fakes.mint_facebook_access_token(&FakeFacebookUser::default());
    rejected(Facebook::new(cfg, TIMEOUT).verify_access_token(&token).await);
}

#[tokio::test]
async fn facebook_down_is_unavailable() {
    let fakes = FakeProviders::start().await;
    let facebook = facebook(&fakes, TIMEOUT);
    let secrets = FlowSecrets::new();
    let code = code_for(&facebook, &secrets).await;
    fakes.facebook_fault(FacebookFault::Down);
    let message = unavailable(facebook.finish(&code, &secrets.verifier, FACEBOOK_REDIRECT).await);
    assert!(
        message.contains("Facebook") && message.contains("try again"),
        "{message}"
    );
}

#[tokio::test]
async fn facebook_hanging_is_unavailable_within_the_timeout() {
    let fakes = FakeProviders::start().await;
    let facebook = facebook(&fakes, Duration::from_secs(1));
    let secrets = FlowSecrets::new();
    let code = code_for(&facebook, &secrets).await;
    fakes.facebook_fault(FacebookFault::Hang);
    let started = Instant::now();
    let message = unavailable(facebook.finish(&code, &secrets.verifier, FACEBOOK_REDIRECT).await);
    let took = started.elapsed();
    assert!(message.contains("Facebook did not answer in time"), "{message}");
    assert!(took < Duration::from_millis(2500), "took {took:?}");
}

#[tokio::test]
async fn fake_dialog_refuses_another_app_id() {
    let fakes = FakeProviders::start().await;
    let url = facebook(&fakes, TIMEOUT)
        .authorize_url(FACEBOOK_REDIRECT, &FlowSecrets::new())
        .replace(FACEBOOK_APP_ID, "1111");
    let browser = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    assert_eq!(browser.get(url).send().await.expect("answer").status(), 400);
}
