//! What every provider does the same way when it asks a service outside: who is calling
//! (the User-Agent NWS and Wikipedia ask for), one HTTP client each, and one GET that
//! gives the body of a 2xx answer or says why not.

use std::time::Duration;

/// How long one upstream call may take in the background (readers wait far less).
pub const UPSTREAM_TIMEOUT: Duration = Duration::from_secs(8);

/// The largest answer read from an upstream: a day of Wikipedia's feed or a wide area's
/// alerts is well under it; a broken or hostile upstream cannot make the server hold more.
pub const MAX_BODY_BYTES: usize = 8 * 1024 * 1024;

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
    #[error("upstream answer is larger than {MAX_BODY_BYTES} bytes")]
    TooLarge,
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

/// GETs `url` (with `accept`, if any) within `timeout` and returns the body of a 2xx answer,
/// at most [`MAX_BODY_BYTES`] (read as it arrives, so a larger one is refused, not held).
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
    read_capped(res, MAX_BODY_BYTES).await
}

async fn read_capped(mut res: reqwest::Response, cap: usize) -> Result<Vec<u8>, UpstreamError> {
    if res.content_length().is_some_and(|n| n > cap as u64) {
        return Err(UpstreamError::TooLarge);
    }
    let mut body = Vec::new();
    while let Some(chunk) = res.chunk().await.map_err(|e| UpstreamError::Http(e.to_string()))? {
        if body.len() + chunk.len() > cap {
            return Err(UpstreamError::TooLarge);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// A loopback upstream that answers every request with `body`, chunked (no length).
    async fn upstream(body: Vec<u8>) -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                let body = body.clone();
                tokio::spawn(async move {
                    let mut request = [0u8; 2048];
                    let _ = socket.read(&mut request).await;
                    let _ = socket
                        .write_all(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
                        .await;
                    for part in body.chunks(64 * 1024) {
                        let head = format!("{:x}\r\n", part.len());
                        if socket.write_all(head.as_bytes()).await.is_err()
                            || socket.write_all(part).await.is_err()
                            || socket.write_all(b"\r\n").await.is_err()
                        {
                            return;
                        }
                    }
                    let _ = socket.write_all(b"0\r\n\r\n").await;
                });
            }
        });
        format!("http://{addr}/")
    }

    #[tokio::test]
    async fn an_answer_over_the_cap_is_refused_without_a_length_to_warn_of_it() {
        let client = client("test", Duration::from_secs(2));
        let small = upstream(vec![b'a'; 1000]).await;
        assert_eq!(
            get(&client, &small, None, Duration::from_secs(5)).await.unwrap().len(),
            1000
        );
        let huge = upstream(vec![b'a'; MAX_BODY_BYTES + 1]).await;
        assert!(matches!(
            get(&client, &huge, None, Duration::from_secs(5)).await,
            Err(UpstreamError::TooLarge)
        ));
    }

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
