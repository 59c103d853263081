//! What every provider does the same way when it asks a service outside: who is calling
//! (the User-Agent NWS and Wikipedia ask for), one HTTP client each, and one GET that
//! gives the body of a 2xx answer or says why not.

use std::time::Duration;

/// How long one upstream call may take in the background (readers wait far less).
pub const UPSTREAM_TIMEOUT: Duration = Duration::from_secs(8);

/// Why an upstream's answer could not be used. The log line that reports it names the
/// provider.
#[derive(Debug, thiserror::Error)]
pub enum UpstreamError {
    #[error("upstream: {0}")]
    Http(String),
    #[error("upstream answered {0}")]
    Status(u16),
    #[error("upstream answer does not read: {0}")]
    Format(String),
}

/// `Localwire/0.1.0 (+https://news.example.org; {purpose})`: the product, and this server's
/// public address as the contact when configured (D290), as NWS and Wikipedia ask.
pub fn user_agent(public_url: Option<&str>, purpose: &str) -> String {
    let contact = public_url
        .map(str::trim)
        .filter(|u| !u.is_empty())
        .unwrap_or("https://localwire.invalid/bot");
    format!("Localwire/{} (+{contact}; {purpose})", env!("CARGO_PKG_VERSION"))
}

/// A provider's client: its User-Agent and a connect timeout (the whole call's timeout is
/// set per request).
pub fn client(user_agent: &str, connect_timeout: Duration) -> reqwest::Client {
    reqwest::Client::builder()
        .connect_timeout(connect_timeout)
        .user_agent(user_agent)
        .build()
        .unwrap_or_default()
}

/// GETs `url` (with `accept`, if any) within `timeout` and returns the body of a 2xx answer.
pub async fn get(
    client: &reqwest::Client,
    url: &str,
    accept: Option<&str>,
    timeout: Duration,
) -> Result<Vec<u8>, UpstreamError> {
    let mut request = client.get(url).timeout(timeout);
    if let Some(accept) = accept {
        request = request.header(reqwest::header::ACCEPT, accept);
    }
    let res = request.send().await.map_err(|e| UpstreamError::Http(e.to_string()))?;
    if !res.status().is_success() {
        return Err(UpstreamError::Status(res.status().as_u16()));
    }
    let body = res.bytes().await.map_err(|e| UpstreamError::Http(e.to_string()))?;
    Ok(body.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn d290_the_user_agent_names_the_product_the_contact_and_the_purpose() {
        let ua = user_agent(
            Some(" https://news.example.org "),
            "weather alerts for a self-hosted news reader",
        );
        assert_eq!(
            ua,
            format!(
                "Localwire/{} (+https://news.example.org; weather alerts for a self-hosted news reader)",
                env!("CARGO_PKG_VERSION")
            )
        );
        assert!(user_agent(Some(""), "x").contains("(+https://localwire.invalid/bot; x)"));
        assert!(user_agent(None, "x").contains("(+https://localwire.invalid/bot; x)"));
    }
}
