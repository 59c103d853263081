//! Which push endpoints this server will POST to (D314, D355).
//!
//! An endpoint is a URL a browser, or anyone holding a token, hands us, and the notifier
//! later connects to it: left open, it is a request forgery (SSRF) into the operator's
//! network. So an endpoint is https on port 443 at a known push service (the four the
//! browsers use, plus the operator's `--push-hosts`). Sending then resolves the name
//! through the feed fetcher's guarded resolver (`service`), so a known name that answers
//! with a private address is refused too.

use url::{Host, Url};

/// The push services browsers subscribe with. A host matches an entry when it is the
/// entry or ends with `.` and the entry.
pub const KNOWN_PUSH_SERVICES: &[(&str, &str)] = &[
    // Chrome, Chromium-based browsers on Android and the desktop, Opera.
    ("FCM", "fcm.googleapis.com"),
    // Firefox: updates.push.services.mozilla.com.
    ("Mozilla", "push.services.mozilla.com"),
    // Safari on macOS and iOS: web.push.apple.com.
    ("Apple", "push.apple.com"),
    // Edge on Windows: wns2-*.notify.windows.com.
    ("Windows", "notify.windows.com"),
];

/// Where the notifier may send: the known services, the operator's additions, and in tests
/// private targets.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PushTargets {
    /// More push service hosts (`--push-hosts`), lower case, matched like the known ones.
    pub extra_hosts: Vec<String>,
    /// Endpoints on private, loopback or link-local addresses, on any port and in plain
    /// http, are accepted (tests' loopback push service; `LOCALWIRE_ALLOW_PRIVATE_PUSH`).
    pub allow_private: bool,
}

/// Why an endpoint was refused: the API says it in words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EndpointProblem {
    #[error("The endpoint is not a URL.")]
    NotUrl,
    #[error("The endpoint must be an https address.")]
    NotHttps,
    #[error("The endpoint must use port 443, as push services do.")]
    NotPort443,
    #[error("The endpoint's host is a private or local address, which this server does not send to.")]
    Private,
    #[error(
        "The endpoint is not at a push service this server knows (FCM, Mozilla, Apple, Windows); the operator can allow more with --push-hosts."
    )]
    UnknownService,
    #[error("The endpoint is longer than {0} characters.")]
    TooLong(usize),
}

/// Reads `--push-hosts`: comma-separated host names, each a plain DNS name.
pub fn parse_push_hosts(list: &str) -> Result<Vec<String>, String> {
    list.split(',')
        .map(str::trim)
        .filter(|h| !h.is_empty())
        .map(|h| {
            let host = h.trim_end_matches('.').to_ascii_lowercase();
            let plain = host.split('.').all(|label| {
                !label.is_empty()
                    && label.len() <= 63
                    && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
                    && !label.starts_with('-')
                    && !label.ends_with('-')
            });
            if plain && host.contains('.') && host.parse::<std::net::IpAddr>().is_err() {
                Ok(host)
            } else {
                Err(format!(
                    "`{h}` is not a host name (write names such as push.example.org, comma-separated)"
                ))
            }
        })
        .collect()
}

fn host_matches(host: &str, entry: &str) -> bool {
    host == entry
        || host
            .strip_suffix(entry)
            .is_some_and(|head| head.ends_with('.') && head.len() > 1)
}

impl PushTargets {
    fn known(&self, host: &str) -> bool {
        let host = host.trim_end_matches('.').to_ascii_lowercase();
        KNOWN_PUSH_SERVICES
            .iter()
            .map(|(_, entry)| *entry)
            .chain(self.extra_hosts.iter().map(String::as_str))
            .any(|entry| host_matches(&host, entry))
    }

    /// The endpoint checked: a URL without credentials, https on port 443 at a known push
    /// service; or, when the operator allows it (tests), any private target.
    pub fn check(&self, endpoint: &str) -> Result<Url, EndpointProblem> {
        if endpoint.len() > store::push::MAX_ENDPOINT_CHARS {
            return Err(EndpointProblem::TooLong(store::push::MAX_ENDPOINT_CHARS));
        }
        let url = Url::parse(endpoint.trim()).map_err(|_| EndpointProblem::NotUrl)?;
        let Some(host) = url.host() else {
            return Err(EndpointProblem::NotUrl);
        };
        if !url.username().is_empty() || url.password().is_some() {
            return Err(EndpointProblem::NotUrl);
        }
        let private = ingest::fetch::guard::check_url_target(&url, false).is_err();
        if private && self.allow_private && matches!(url.scheme(), "http" | "https") {
            return Ok(url);
        }
        if url.scheme() != "https" {
            return Err(EndpointProblem::NotHttps);
        }
        if private {
            return Err(EndpointProblem::Private);
        }
        // `port_or_known_default` is 443 both for no port and for an explicit `:443`.
        if url.port_or_known_default() != Some(443) {
            return Err(EndpointProblem::NotPort443);
        }
        match host {
            Host::Domain(name) if self.known(name) => Ok(url),
            _ => Err(EndpointProblem::UnknownService),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strict() -> PushTargets {
        PushTargets::default()
    }

    #[test]
    fn d355_the_four_known_push_services_are_accepted() {
        for endpoint in [
            "https://fcm.googleapis.com/fcm/send/abc:APA91b",
            "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
            "https://web.push.apple.com/QGuQyavXuts",
            "https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB",
            "https://FCM.googleapis.com:443/fcm/send/abc",
            "https://fcm.googleapis.com./fcm/send/abc",
        ] {
            assert!(strict().check(endpoint).is_ok(), "{endpoint}");
        }
    }

    #[test]
    fn d355_other_hosts_and_look_alikes_are_unknown_services() {
        for endpoint in [
            "https://push.example/x",
            "https://evilfcm.googleapis.com/x",
            "https://fcm.googleapis.com.evil.example/x",
            "https://notify.windows.com.evil.example/x",
            "https://xpush.apple.com/x",
            "https://93.184.216.34/x",
            "https://[2606:4700::1111]/x",
        ] {
            assert_eq!(
                strict().check(endpoint),
                Err(EndpointProblem::UnknownService),
                "{endpoint}"
            );
        }
    }

    #[test]
    fn d355_only_port_443() {
        for endpoint in [
            "https://fcm.googleapis.com:8443/fcm/send/abc",
            "https://fcm.googleapis.com:22/x",
            "https://updates.push.services.mozilla.com:80/x",
        ] {
            assert_eq!(strict().check(endpoint), Err(EndpointProblem::NotPort443), "{endpoint}");
        }
    }

    #[test]
    fn d355_https_only_and_no_private_targets() {
        assert_eq!(
            strict().check("http://fcm.googleapis.com/fcm/send/abc"),
            Err(EndpointProblem::NotHttps)
        );
        assert_eq!(
            strict().check("ftp://fcm.googleapis.com/x"),
            Err(EndpointProblem::NotHttps)
        );
        for endpoint in [
            "https://127.0.0.1/x",
            "https://10.1.2.3/x",
            "https://[::1]/x",
            "https://169.254.169.254/latest",
            "https://localhost/x",
            "https://push.localhost/x",
            "https://metadata.google.internal/x",
        ] {
            assert_eq!(strict().check(endpoint), Err(EndpointProblem::Private), "{endpoint}");
        }
        assert_eq!(strict().check("http://127.0.0.1:9/x"), Err(EndpointProblem::NotHttps));
    }

    #[test]
    fn d314_not_a_url_credentials_and_length() {
        assert_eq!(strict().check("not a url"), Err(EndpointProblem::NotUrl));
        assert_eq!(
            strict().check("https://user:pw@fcm.googleapis.com/x"),
            Err(EndpointProblem::NotUrl)
        );
        let long = format!("https://fcm.googleapis.com/{}", "a".repeat(1100));
        assert_eq!(strict().check(&long), Err(EndpointProblem::TooLong(1024)));
    }

    #[test]
    fn d355_the_operator_adds_push_hosts() {
        let targets = PushTargets {
            extra_hosts: parse_push_hosts(" push.example.org, Relay.Example.NET. ").unwrap(),
            allow_private: false,
        };
        assert_eq!(targets.extra_hosts, ["push.example.org", "relay.example.net"]);
        assert!(targets.check("https://push.example.org/x").is_ok());
        assert!(targets.check("https://eu.relay.example.net/x").is_ok());
        assert_eq!(
            targets.check("https://example.org/x"),
            Err(EndpointProblem::UnknownService)
        );
        assert_eq!(
            targets.check("https://push.example.org:8443/x"),
            Err(EndpointProblem::NotPort443)
        );
        for bad in ["127.0.0.1", "push example.org", "*.example.org", "localhost", "a..b"] {
            assert!(parse_push_hosts(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_push_hosts("").unwrap(), Vec::<String>::new());
    }

    #[test]
    fn d314_private_targets_only_when_the_operator_allows_them() {
        let tests = PushTargets {
            extra_hosts: vec![],
            allow_private: true,
        };
        assert!(
            tests.check("http://127.0.0.1:9/x").is_ok(),
            "tests' loopback push service"
        );
        assert!(tests.check("https://127.0.0.1:9/x").is_ok());
        assert_eq!(
            tests.check("http://push.example/x"),
            Err(EndpointProblem::NotHttps),
            "plain http only to a private target"
        );
        assert_eq!(
            tests.check("https://push.example/x"),
            Err(EndpointProblem::UnknownService),
            "a public target is held to the same rule"
        );
        assert_eq!(tests.check("ftp://127.0.0.1/x"), Err(EndpointProblem::NotHttps));
    }
}
