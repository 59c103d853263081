//! Compact JWS (RFC 7515) as Google signs ID tokens: RS256 with a key named by `kid` in a
//! JWK set. Nothing else is accepted, so `none` and HMAC confusions cannot get through.

use aws_lc_rs::signature::{RSA_PKCS1_2048_8192_SHA256, RsaPublicKeyComponents};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::Deserialize;
use std::collections::HashMap;

#[derive(Debug, Deserialize)]
pub(crate) struct Header {
    pub alg: String,
    #[serde(default)]
    pub kid: Option<String>,
}

/// A compact JWS split into its parts; the signature is not checked yet.
pub(crate) struct Compact<'a> {
    pub header: Header,
    pub signing_input: &'a str,
    pub payload: Vec<u8>,
    pub signature: Vec<u8>,
}

pub(crate) fn split(token: &str) -> Option<Compact<'_>> {
    let token = token.trim();
    let mut parts = token.split('.');
    let (h, p, s) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let header: Header = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(h).ok()?).ok()?;
    let payload = URL_SAFE_NO_PAD.decode(p).ok()?;
    let signature = URL_SAFE_NO_PAD.decode(s).ok()?;
    Some(Compact {
        header,
        signing_input: &token[..h.len() + 1 + p.len()],
        payload,
        signature,
    })
}

pub(crate) type RsaKey = RsaPublicKeyComponents<Vec<u8>>;

pub(crate) fn verify_rs256(key: &RsaKey, signing_input: &str, signature: &[u8]) -> bool {
    key.verify(&RSA_PKCS1_2048_8192_SHA256, signing_input.as_bytes(), signature)
        .is_ok()
}

#[derive(Deserialize)]
pub(crate) struct JwkSet {
    #[serde(default)]
    keys: Vec<Jwk>,
}

#[derive(Deserialize)]
struct Jwk {
    kty: String,
    #[serde(default)]
    kid: Option<String>,
    #[serde(default)]
    alg: Option<String>,
    #[serde(default, rename = "use")]
    use_: Option<String>,
    #[serde(default)]
    n: Option<String>,
    #[serde(default)]
    e: Option<String>,
}

impl JwkSet {
    /// The RSA signing keys by kid; keys of other kinds or unreadable ones are skipped.
    pub(crate) fn rsa_keys(self) -> HashMap<String, RsaKey> {
        self.keys
            .into_iter()
            .filter_map(|k| {
                if k.kty != "RSA"
                    || k.alg.as_deref().is_some_and(|a| a != "RS256")
                    || k.use_.as_deref().is_some_and(|u| u != "sig")
                {
                    return None;
                }
                let n = unsigned(&URL_SAFE_NO_PAD.decode(k.n?).ok()?);
                let e = unsigned(&URL_SAFE_NO_PAD.decode(k.e?).ok()?);
                if n.is_empty() || e.is_empty() {
                    return None;
                }
                Some((k.kid?, RsaPublicKeyComponents { n, e }))
            })
            .collect()
    }
}

fn unsigned(bytes: &[u8]) -> Vec<u8> {
    let start = bytes.iter().position(|b| *b != 0).unwrap_or(bytes.len());
    bytes[start..].to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_refuses_anything_but_three_parts() {
        assert!(split("a.b").is_none());
        assert!(split("a.b.c.d").is_none());
        assert!(split("").is_none());
    }

    #[test]
    fn split_keeps_the_signing_input() {
        let h = URL_SAFE_NO_PAD.encode(br#"{"alg":"RS256","kid":"k"}"#);
        let p = URL_SAFE_NO_PAD.encode(br#"{"sub":"1"}"#);
        let token = format!("{h}.{p}.AAAA");
        let c = split(&token).expect("three parts");
        assert_eq!(c.signing_input, format!("{h}.{p}"));
        assert_eq!(c.header.kid.as_deref(), Some("k"));
        assert_eq!(c.signature, vec![0, 0, 0]);
    }
}
