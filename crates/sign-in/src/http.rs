//! The one way this crate talks to a provider: a client with a total and a connect timeout,
//! and a mapping from transport trouble to `Unavailable`. Request URLs of Facebook carry
//! tokens and secrets, so errors are logged without their URL and never echo a body.

use std::time::Duration;

use reqwest::StatusCode;
use serde::de::DeserializeOwned;

use crate::{Provider, SignInError};

/// How long a TCP/TLS connection may take, within the total timeout.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

pub(crate) fn client(timeout: Duration) -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(timeout)
        .connect_timeout(CONNECT_TIMEOUT.min(timeout))
        .user_agent(concat!("Localwire/", env!("CARGO_PKG_VERSION"), " sign-in"))
        // A provider endpoint never redirects; following one could carry a secret-bearing
        // query string to another host.
        .redirect(reqwest::redirect::Policy::none())
        .build()
        // Start-up only: fails only when the TLS backend cannot initialise, in which case
        // no outgoing request could work either.
        .expect("the HTTP client for sign-in providers could not be built")
}

/// Bounds a whole operation (several requests) by the same timeout as each request, so a
/// provider that answers slowly at every step still fails within the promised time.
pub(crate) async fn within<T>(
    provider: Provider,
    timeout: Duration,
    work: impl Future<Output = Result<T, SignInError>>,
) -> Result<T, SignInError> {
    match tokio::time::timeout(timeout, work).await {
        Ok(result) => result,
        Err(_) => {
            tracing::warn!(provider = provider.name(), "sign-in provider too slow overall");
            Err(SignInError::Unavailable(format!(
                "{provider} did not answer in time; try again in a minute."
            )))
        }
    }
}

/// A provider's answer that was not a server error.
pub(crate) struct Answer {
    pub status: StatusCode,
    pub body: Vec<u8>,
}

/// Sends a request and reads the whole body. Transport failures, 5xx, 429 and redirects
/// are `Unavailable`; everything else is for the caller to judge.
pub(crate) async fn send(
    provider: Provider,
    what: &'static str,
    request: reqwest::RequestBuilder,
) -> Result<Answer, SignInError> {
    let response = request.send().await.map_err(|e| transport(provider, what, e))?;
    let status = response.status();
    let body = response
        .bytes()
        .await
        .map_err(|e| transport(provider, what, e))?
        .to_vec();
    if status.is_server_error() || status == StatusCode::TOO_MANY_REQUESTS || status.is_redirection() {
        tracing::warn!(
            provider = provider.name(),
            what,
            status = status.as_u16(),
            "sign-in provider answered with an error status"
        );
        return Err(SignInError::Unavailable(format!(
            "{provider} is having trouble right now (HTTP {}); try again in a minute.",
            status.as_u16()
        )));
    }
    Ok(Answer { status, body })
}

pub(crate) fn transport(provider: Provider, what: &'static str, e: reqwest::Error) -> SignInError {
    let e = e.without_url();
    tracing::warn!(provider = provider.name(), what, error = %e, "sign-in provider request failed");
    if e.is_timeout() {
        SignInError::Unavailable(format!("{provider} did not answer in time; try again in a minute."))
    } else {
        SignInError::Unavailable(format!("{provider} could not be reached; try again in a minute."))
    }
}

/// Parses a JSON answer; an unreadable one means the provider is not itself.
pub(crate) fn json<T: DeserializeOwned>(provider: Provider, what: &'static str, body: &[u8]) -> Result<T, SignInError> {
    serde_json::from_slice(body).map_err(|e| {
        // Only the position: the message of a serde error can quote the body, tokens included.
        tracing::warn!(
            provider = provider.name(),
            what,
            line = e.line(),
            column = e.column(),
            category = ?e.classify(),
            "sign-in provider sent unreadable JSON"
        );
        unreadable(provider)
    })
}

pub(crate) fn unreadable(provider: Provider) -> SignInError {
    SignInError::Unavailable(format!(
        "{provider} sent an answer we could not read; try again in a minute."
    ))
}

/// Keeps a provider's error code fit to show: short, plain characters only.
pub(crate) fn plain_code(code: &str) -> String {
    code.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .take(40)
        .collect()
}
