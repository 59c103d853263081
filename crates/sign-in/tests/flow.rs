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
