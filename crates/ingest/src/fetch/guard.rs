//! The SSRF guard: which hosts and addresses a feed fetch may reach.
//!
//! A feed URL comes from an operator or an OPML file, and a redirect target from whatever
//! server answered, so neither is trusted to point at the public internet. The guard runs
//! in three places, because each one alone leaves a hole:
//! - before a request, on the URL itself ([`check_url_target`]): IP literals never reach a
//!   resolver, so only this check sees them;
//! - on every redirect target ([`check_url_target`] again, from the redirect policy);
//! - after DNS resolution ([`GuardedResolver`]), so a public-looking name that resolves to
//!   127.0.0.1 or 10.x is refused, and the connection goes only to the addresses that were
//!   checked (no second lookup an attacker could answer differently).
//!
//! The classification itself is the pure function [`classify_ip`].

use std::fmt;
use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use url::{Host, Url};

use super::FetchError;

/// Why an address or host name is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BlockReason {
    /// 127.0.0.0/8, ::1.
    Loopback,
    /// 10/8, 172.16/12, 192.168/16, fc00::/7, fec0::/10, 64:ff9b:1::/48.
    Private,
    /// 169.254/16, fe80::/10.
    LinkLocal,
    /// 169.254.169.254 and fd00:ec2::254: the cloud instance metadata services.
    CloudMetadata,
    /// 0.0.0.0/8, ::.
    Unspecified,
    /// 100.64/10 (carrier-grade NAT).
    SharedAddressSpace,
    /// 255.255.255.255.
    Broadcast,
    /// 224/4, ff00::/8.
    Multicast,
    /// 192.0.2/24, 198.51.100/24, 203.0.113/24, 2001:db8::/32, 3fff::/20.
    Documentation,
    /// Other special-purpose ranges no feed lives in (240/4, 192.0.0/24, 198.18/15,
    /// Teredo, discard-only, deprecated IPv4-compatible IPv6).
    Reserved,
    /// "localhost" and "*.localhost", which resolvers answer locally.
    LocalhostName,
    /// "metadata.google.internal".
    MetadataName,
}

impl fmt::Display for BlockReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Loopback => "a loopback address",
            Self::Private => "a private-network address",
            Self::LinkLocal => "a link-local address",
            Self::CloudMetadata => "a cloud metadata address",
            Self::Unspecified => "an unspecified address",
            Self::SharedAddressSpace => "a carrier-grade NAT (100.64.0.0/10) address",
            Self::Broadcast => "a broadcast address",
            Self::Multicast => "a multicast address",
            Self::Documentation => "a documentation-only address",
            Self::Reserved => "a reserved special-purpose address",
            Self::LocalhostName => "a name for this machine",
            Self::MetadataName => "a cloud metadata host name",
        })
    }
}

/// Classifies an address: `Some(reason)` if a feed fetch must not reach it (unless the
/// operator allows private feeds), `None` for an ordinary public address.
pub fn classify_ip(ip: IpAddr) -> Option<BlockReason> {
    match ip {
        IpAddr::V4(v4) => classify_ipv4(v4),
        IpAddr::V6(v6) => classify_ipv6(v6),
    }
}

fn classify_ipv4(ip: Ipv4Addr) -> Option<BlockReason> {
    use BlockReason::*;
    let reason = match ip.octets() {
        // Checked before link-local so the operator sees the more alarming name.
        [169, 254, 169, 254] => CloudMetadata,
        [0, ..] => Unspecified,
        [127, ..] => Loopback,
        [10, ..] => Private,
        [172, b, ..] if (16..=31).contains(&b) => Private,
        [192, 168, ..] => Private,
        [169, 254, ..] => LinkLocal,
        [100, b, ..] if (64..=127).contains(&b) => SharedAddressSpace,
        [192, 0, 0, _] => Reserved,
        [192, 0, 2, _] | [198, 51, 100, _] | [203, 0, 113, _] => Documentation,
        [198, 18 | 19, ..] => Reserved,
        [255, 255, 255, 255] => Broadcast,
        [224..=239, ..] => Multicast,
        [240..=255, ..] => Reserved,
        _ => return None,
    };
    Some(reason)
}

fn classify_ipv6(ip: Ipv6Addr) -> Option<BlockReason> {
    use BlockReason::*;
    if ip.is_unspecified() {
        return Some(Unspecified);
    }
    if ip.is_loopback() {
        return Some(Loopback);
    }
    // ::ffff:a.b.c.d reaches the IPv4 host a.b.c.d, so it is judged as that host.
    if let Some(v4) = ip.to_ipv4_mapped() {
        return classify_ipv4(v4);
    }
    let s = ip.segments();
    let embedded_v4 = Ipv4Addr::from(((u32::from(s[6])) << 16) | u32::from(s[7]));
    match s {
        // Deprecated IPv4-compatible addresses (::a.b.c.d): nothing public uses them.
        [0, 0, 0, 0, 0, 0, _, _] => Some(classify_ipv4(embedded_v4).unwrap_or(Reserved)),
        // NAT64 (64:ff9b::/96) translates to the embedded IPv4 host.
        [0x64, 0xff9b, 0, 0, 0, 0, _, _] => classify_ipv4(embedded_v4),
        [0x64, 0xff9b, 1, ..] => Some(Private),
        [0xfd00, 0x0ec2, 0, 0, 0, 0, 0, 0x0254] => Some(CloudMetadata),
        [a, ..] if a & 0xfe00 == 0xfc00 => Some(Private),
        [a, ..] if a & 0xffc0 == 0xfe80 => Some(LinkLocal),
        [a, ..] if a & 0xffc0 == 0xfec0 => Some(Private),
        [a, ..] if a & 0xff00 == 0xff00 => Some(Multicast),
        [0x2001, 0x0db8, ..] => Some(Documentation),
        [0x3fff, b, ..] if b & 0xf000 == 0 => Some(Documentation),
        // 6to4 (2002::/16) carries the IPv4 host in the next 32 bits.
        [0x2002, hi, lo, ..] => classify_ipv4(Ipv4Addr::from((u32::from(hi) << 16) | u32::from(lo))),
        // Teredo tunnels an obfuscated IPv4 client address; no feed server lives there.
        [0x2001, 0, ..] => Some(Reserved),
        [0x0100, 0, 0, 0, ..] => Some(Reserved),
        _ => None,
    }
}

/// Classifies a host name before any lookup: names that always mean this machine or a
/// metadata service. `host` may carry a trailing dot and any case.
pub fn classify_host_name(host: &str) -> Option<BlockReason> {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    if host == "localhost" || host.ends_with(".localhost") {
        return Some(BlockReason::LocalhostName);
    }
    if host == "metadata.google.internal" {
        return Some(BlockReason::MetadataName);
    }
    // Resolvers accept IP literals as names; judge them as addresses.
    let literal = host.trim_start_matches('[').trim_end_matches(']');
    literal.parse::<IpAddr>().ok().and_then(classify_ip)
}

/// Checks a URL the fetcher is about to request (the feed URL or a redirect target):
/// only http and https, and no refused host name or IP literal unless `allow_private`.
pub fn check_url_target(url: &Url, allow_private: bool) -> Result<(), FetchError> {
    match url.scheme() {
        "http" | "https" => {}
        other => {
            return Err(FetchError::UnsupportedScheme {
                url: url.to_string(),
                scheme: other.to_owned(),
            });
        }
    }
    let host = url.host().ok_or_else(|| FetchError::InvalidUrl {
        url: url.to_string(),
        reason: "it has no host".to_owned(),
    })?;
    if allow_private {
        return Ok(());
    }
    let (addr, reason) = match host {
        Host::Domain(name) => (None, classify_host_name(name)),
        Host::Ipv4(v4) => (Some(IpAddr::V4(v4)), classify_ipv4(v4)),
        Host::Ipv6(v6) => (Some(IpAddr::V6(v6)), classify_ipv6(v6)),
    };
    match reason {
        None => Ok(()),
        Some(reason) => Err(FetchError::BlockedAddress {
            url: url.to_string(),
            host: url.host_str().unwrap_or_default().to_owned(),
            addr,
            reason,
        }),
    }
}

/// Decides whether the fetcher may follow a redirect to `next`, given the URLs requested
/// so far (`previous`: the original URL, then every redirect already followed). This is
/// the whole of the redirect policy; literal IPs in a `Location` never reach the
/// resolver, so this is where they are checked.
pub fn check_redirect(
    next: &Url,
    previous: &[Url],
    max_redirects: usize,
    allow_private: bool,
) -> Result<(), FetchError> {
    if previous.len() > max_redirects {
        let url = previous.first().map(Url::to_string).unwrap_or_else(|| next.to_string());
        return Err(FetchError::TooManyRedirects {
            url,
            limit: max_redirects,
        });
    }
    check_url_target(next, allow_private)
}

/// Keeps the resolved addresses of `host` that may be reached. Fails when none is left:
/// with [`FetchError::BlockedAddress`] (naming the first refused address) if the name
/// resolved only to refused addresses, with [`FetchError::Dns`] if it resolved to nothing.
///
/// The `url` field of a returned error is empty: the resolver does not know the URL, and
/// the fetcher fills it in.
pub fn filter_resolved(host: &str, addrs: Vec<IpAddr>, allow_private: bool) -> Result<Vec<IpAddr>, FetchError> {
    if addrs.is_empty() {
        return Err(FetchError::Dns {
            url: String::new(),
            host: host.to_owned(),
            message: "the name resolved to no addresses".to_owned(),
        });
    }
    if allow_private {
        return Ok(addrs);
    }
    let mut first_refused = None;
    let mut kept = Vec::with_capacity(addrs.len());
    for addr in addrs {
        match classify_ip(addr) {
            None => kept.push(addr),
            Some(reason) => {
                first_refused.get_or_insert((addr, reason));
            }
        }
    }
    match (kept.is_empty(), first_refused) {
        (true, Some((addr, reason))) => Err(FetchError::BlockedAddress {
            url: String::new(),
            host: host.to_owned(),
            addr: Some(addr),
            reason,
        }),
        _ => Ok(kept),
    }
}

/// The future a [`HostLookup`] returns.
pub type LookupFuture = Pin<Box<dyn Future<Output = io::Result<Vec<IpAddr>>> + Send>>;

/// Turns a host name into addresses. The fetcher uses the system resolver; tests (and a
/// deployment with its own resolver) can supply another, and the guard still filters
/// whatever it answers.
pub trait HostLookup: Send + Sync + 'static {
    /// Resolves `host` (a name, never an IP literal from a URL) to its addresses.
    fn lookup(&self, host: &str) -> LookupFuture;
}

/// The operating system's resolver (getaddrinfo, on tokio's blocking pool).
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemLookup;

impl HostLookup for SystemLookup {
    fn lookup(&self, host: &str) -> LookupFuture {
        let host = host.to_owned();
        Box::pin(async move {
            // Port 0 only satisfies the API; the connector sets the URL's port.
            let addrs = tokio::net::lookup_host((host.as_str(), 0)).await?;
            Ok(addrs.map(|socket| socket.ip()).collect())
        })
    }
}

/// A reqwest resolver that refuses what the guard blocks, for any other client that must
/// reach only public addresses (the Web Push sender, D355). The client must also turn
/// proxies off (`no_proxy`): a proxy resolves names itself, out of the guard's sight.
pub fn guarded_resolver(lookup: Arc<dyn HostLookup>, allow_private: bool) -> Arc<dyn Resolve> {
    Arc::new(GuardedResolver { lookup, allow_private })
}

/// Whether a request failed because the guard refused where it led (a name that resolved
/// only to refused addresses, or a refused host name), anywhere in the error's chain.
pub fn refused_by_guard(err: &(dyn std::error::Error + 'static)) -> bool {
    let mut current = Some(err);
    while let Some(err) = current {
        if matches!(
            err.downcast_ref::<FetchError>(),
            Some(FetchError::BlockedAddress { .. })
        ) {
            return true;
        }
        current = err.source();
    }
    false
}

/// A reqwest resolver that refuses names and addresses the guard blocks.
pub(crate) struct GuardedResolver {
    pub(crate) lookup: Arc<dyn HostLookup>,
    pub(crate) allow_private: bool,
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let host = name.as_str().to_owned();
        let lookup = Arc::clone(&self.lookup);
        let allow_private = self.allow_private;
        Box::pin(async move {
            if !allow_private && let Some(reason) = classify_host_name(&host) {
                return Err(FetchError::BlockedAddress {
                    url: String::new(),
                    host,
                    addr: None,
                    reason,
                }
                .into());
            }
            let addrs = lookup.lookup(&host).await.map_err(|err| FetchError::Dns {
                url: String::new(),
                host: host.clone(),
                message: err.to_string(),
            })?;
            let kept = filter_resolved(&host, addrs, allow_private)?;
            let addrs: Addrs = Box::new(kept.into_iter().map(|ip| SocketAddr::new(ip, 0)));
            Ok(addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v4(s: &str) -> Option<BlockReason> {
        classify_ip(s.parse().unwrap())
    }

    #[test]
    fn loopback_v4_range_is_blocked() {
        assert_eq!(v4("127.0.0.1"), Some(BlockReason::Loopback));
        assert_eq!(v4("127.255.255.254"), Some(BlockReason::Loopback));
    }

    #[test]
    fn loopback_v6_is_blocked() {
        assert_eq!(v4("::1"), Some(BlockReason::Loopback));
    }

    #[test]
    fn private_v4_ranges_are_blocked_at_their_edges() {
        for ip in [
            "10.0.0.1",
            "10.255.255.255",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.0.1",
            "192.168.255.255",
        ] {
            assert_eq!(v4(ip), Some(BlockReason::Private), "{ip}");
        }
        // Just outside 172.16.0.0/12 and 192.168.0.0/16.
        for ip in [
            "172.15.255.255",
            "172.32.0.1",
            "192.167.255.255",
            "192.169.0.1",
            "11.0.0.1",
        ] {
            assert_eq!(v4(ip), None, "{ip}");
        }
    }

    #[test]
    fn unique_local_v6_is_blocked() {
        assert_eq!(v4("fc00::1"), Some(BlockReason::Private));
        assert_eq!(v4("fdff:ffff::1"), Some(BlockReason::Private));
        assert_eq!(v4("fec0::1"), Some(BlockReason::Private));
    }

    #[test]
    fn link_local_ranges_are_blocked() {
        assert_eq!(v4("169.254.0.1"), Some(BlockReason::LinkLocal));
        assert_eq!(v4("169.254.255.255"), Some(BlockReason::LinkLocal));
        assert_eq!(v4("fe80::1"), Some(BlockReason::LinkLocal));
        assert_eq!(v4("febf:ffff::1"), Some(BlockReason::LinkLocal));
    }

    #[test]
    fn cloud_metadata_addresses_are_blocked() {
        assert_eq!(v4("169.254.169.254"), Some(BlockReason::CloudMetadata));
        assert_eq!(v4("fd00:ec2::254"), Some(BlockReason::CloudMetadata));
        assert_eq!(v4("::ffff:169.254.169.254"), Some(BlockReason::CloudMetadata));
    }

    #[test]
    fn unspecified_addresses_are_blocked() {
        assert_eq!(v4("0.0.0.0"), Some(BlockReason::Unspecified));
        assert_eq!(v4("0.1.2.3"), Some(BlockReason::Unspecified));
        assert_eq!(v4("::"), Some(BlockReason::Unspecified));
    }

    #[test]
    fn carrier_grade_nat_range_is_blocked() {
        assert_eq!(v4("100.64.0.1"), Some(BlockReason::SharedAddressSpace));
        assert_eq!(v4("100.127.255.255"), Some(BlockReason::SharedAddressSpace));
        assert_eq!(v4("100.63.255.255"), None);
        assert_eq!(v4("100.128.0.1"), None);
    }

    #[test]
    fn broadcast_and_multicast_are_blocked() {
        assert_eq!(v4("255.255.255.255"), Some(BlockReason::Broadcast));
        assert_eq!(v4("224.0.0.1"), Some(BlockReason::Multicast));
        assert_eq!(v4("239.255.255.250"), Some(BlockReason::Multicast));
        assert_eq!(v4("ff02::1"), Some(BlockReason::Multicast));
    }

    #[test]
    fn documentation_ranges_are_blocked() {
        for ip in ["192.0.2.1", "198.51.100.7", "203.0.113.200", "2001:db8::1", "3fff::1"] {
            assert_eq!(v4(ip), Some(BlockReason::Documentation), "{ip}");
        }
    }

    #[test]
    fn reserved_ranges_are_blocked() {
        for ip in [
            "240.0.0.1",
            "192.0.0.8",
            "198.18.0.1",
            "198.19.255.255",
            "2001::1",
            "100::1",
        ] {
            assert_eq!(v4(ip), Some(BlockReason::Reserved), "{ip}");
        }
    }

    #[test]
    fn ipv4_mapped_ipv6_is_judged_as_its_ipv4_host() {
        assert_eq!(v4("::ffff:127.0.0.1"), Some(BlockReason::Loopback));
        assert_eq!(v4("::ffff:10.1.2.3"), Some(BlockReason::Private));
        assert_eq!(v4("::ffff:192.168.1.1"), Some(BlockReason::Private));
        assert_eq!(v4("::ffff:8.8.8.8"), None);
    }

    #[test]
    fn ipv6_forms_embedding_ipv4_are_judged_as_their_ipv4_host() {
        assert_eq!(v4("::127.0.0.1"), Some(BlockReason::Loopback));
        assert_eq!(v4("::8.8.8.8"), Some(BlockReason::Reserved));
        assert_eq!(v4("64:ff9b::10.0.0.1"), Some(BlockReason::Private));
        assert_eq!(v4("64:ff9b::8.8.8.8"), None);
        assert_eq!(v4("64:ff9b:1::1"), Some(BlockReason::Private));
        assert_eq!(v4("2002:7f00:1::1"), Some(BlockReason::Loopback));
        assert_eq!(v4("2002:0808:0808::1"), None);
    }

    #[test]
    fn public_addresses_are_allowed() {
        for ip in [
            "8.8.8.8",
            "1.1.1.1",
            "93.184.215.14",
            "2606:4700:4700::1111",
            "2a00:1450:4001::200e",
        ] {
            assert_eq!(v4(ip), None, "{ip}");
        }
    }

    #[test]
    fn localhost_names_are_blocked_in_any_case_and_with_a_trailing_dot() {
        for name in [
            "localhost",
            "LOCALHOST",
            "localhost.",
            "feeds.localhost",
            "a.b.localhost.",
        ] {
            assert_eq!(classify_host_name(name), Some(BlockReason::LocalhostName), "{name}");
        }
        assert_eq!(
            classify_host_name("metadata.google.internal"),
            Some(BlockReason::MetadataName)
        );
        assert_eq!(
            classify_host_name("Metadata.Google.Internal."),
            Some(BlockReason::MetadataName)
        );
        for name in ["example.com", "localhost.example.com", "notlocalhost"] {
            assert_eq!(classify_host_name(name), None, "{name}");
        }
    }

    #[test]
    fn ip_literals_given_as_names_are_classified() {
        assert_eq!(classify_host_name("127.0.0.1"), Some(BlockReason::Loopback));
        assert_eq!(classify_host_name("[::1]"), Some(BlockReason::Loopback));
        assert_eq!(classify_host_name("8.8.8.8"), None);
    }
}
