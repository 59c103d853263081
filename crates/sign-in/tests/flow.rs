//! The per-attempt secrets (RFC 7636 PKCE S256, state, nonce).

use sign_in::{FlowSecrets, pkce_challenge};

#[test]
fn pkce_challenge_is_the_rfc7636_s256_of_the_verifier() {
    // RFC 7636 appendix B: the verifier is the base64url of the octets listed there.
    assert_eq!(
        pkce_challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
        "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
    );
}

#[test]
fn flow_secrets_challenge_is_the_s256_of_its_own_verifier() {
    let s = FlowSecrets::new();
    assert_eq!(s.challenge, pkce_challenge(&s.verifier));
    assert_eq!(s.verifier.len(), 43, "RFC 7636 allows 43 to 128 characters");
}

#[test]
fn flow_secrets_are_fresh_each_time() {
    let (a, b) = (FlowSecrets::new(), FlowSecrets::new());
    assert_ne!(a.state, b.state);
    assert_ne!(a.nonce, b.nonce);
    assert_ne!(a.verifier, b.verifier);
    assert_ne!(a.state, a.nonce);
}

/// The server awaits these inside axum handlers, which must be `Send`.
#[test]
fn providers_and_their_futures_are_send_and_sync() {
    use sign_in::{Facebook, FacebookConfig, Google, GoogleConfig};
    use std::time::Duration;
    fn send<T: Send>(_: &T) {}
    fn shared<T: Send + Sync>() {}
    shared::<Google>();
    shared::<Facebook>();
    let google = Google::new(GoogleConfig::new("id", "s"), Duration::from_secs(1));
    let facebook = Facebook::new(FacebookConfig::new("1", "s"), Duration::from_secs(1));
    let secrets = FlowSecrets::new();
    send(&google.authorize_url("r", &secrets));
    send(&google.finish("c", "v", "r", "n"));
    send(&google.verify_id_token("t", None));
    send(&facebook.finish("c", "v", "r"));
    send(&facebook.verify_access_token("t"));
}
