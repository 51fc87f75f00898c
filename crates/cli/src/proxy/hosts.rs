//! Which `Host` and `Origin` headers the HTTP proxy answers, checked on every request
//! before anything else: the proxy is a Streamable HTTP server to its clients, and the
//! MCP specification requires such a server to validate `Origin` against DNS rebinding
//! (a web page whose name is made to resolve to 127.0.0.1 would otherwise drive every
//! tool of a local server through the guard; the server's own check never sees the
//! client's headers, since the proxy forwards with its own `Host`).
//!
//! The loopback names (`localhost`, `127.0.0.1`, `[::1]`) are always accepted: as a
//! `Host` with the listener's port, as an `Origin` with any port (a page served on this
//! machine, such as an inspector). `--allow-host` and `--allow-origin` add to them; a
//! listener on an address other than a loopback one needs at least one `--allow-host`,
//! since then the names clients use are the user's to say. A request without `Origin`
//! (any client that is not a browser) is judged by its `Host` alone.

use crate::Failure;
use std::fmt;
use std::net::SocketAddr;

/// The names that reach this machine's loopback interface, as a `Host` or an `Origin`
/// writes them.
const LOOPBACK_NAMES: [&str; 3] = ["localhost", "127.0.0.1", "[::1]"];

/// The headers one request is admitted by.
#[derive(Debug)]
pub(super) struct Admission {
    /// The port the proxy listens on: the one a loopback `Host` must name.
    port: u16,
    /// `Host` values allowed besides the loopback names.
    hosts: Allowed<HostPattern>,
    /// `Origin` values allowed besides the loopback ones (lowercase, default port left
    /// out, as browsers send them).
    origins: Allowed<String>,
}

/// A list given on the command line, or `*` for anything.
#[derive(Debug)]
enum Allowed<T> {
    Any,
    These(Vec<T>),
}

/// An `--allow-host` value: a name, and the one port it is allowed with (any without).
#[derive(Debug, PartialEq, Eq)]
struct HostPattern {
    name: String,
    port: Option<u16>,
}

/// Why a request was refused: what the client is answered (403) and what standard
/// error says.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Refusal {
    header: &'static str,
    value: Option<String>,
    flag: &'static str,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.value {
            None => write!(f, "the request has no {} header", self.header),
            Some(value) => write!(
                f,
                "{} {value:?} is not allowed (the loopback names are; {} adds others)",
                self.header, self.flag
            ),
        }
    }
}

impl Admission {
    /// The admission of a proxy listening at `address`, widened by the `--allow-host` and
    /// `--allow-origin` values: a usage error for a value that is not a host or an
    /// origin, or for a listener beyond loopback with no `--allow-host`.
    pub(super) fn new(
        listen: &str,
        address: SocketAddr,
        hosts: &[String],
        origins: &[String],
    ) -> Result<Admission, Failure> {
        if hosts.is_empty() && !address.ip().is_loopback() {
            return Err(Failure(format!(
                "--listen {listen}: not a loopback address, so a browser page could reach \
                 the proxy under any name: say which names clients use with --allow-host \
                 (--allow-host '*' accepts any Host)"
            )));
        }
        let hosts = allowed(hosts, |host| {
            parse_host(host).ok_or_else(|| {
                format!("--allow-host {host}: not a host name, with or without a port")
            })
        })?;
        let origins = allowed(origins, |origin| {
            parse_origin(origin)
                .map(|origin| origin.to_string())
                .ok_or_else(|| {
                    format!(
                        "--allow-origin {origin}: not an origin (scheme://host or \
                         scheme://host:port, as a browser sends it; or null)"
                    )
                })
        })?;
        Ok(Admission {
            port: address.port(),
            hosts,
            origins,
        })
    }

    /// Whether a request with these `Host` and `Origin` headers is answered.
    pub(super) fn admit(&self, host: Option<&str>, origin: Option<&str>) -> Result<(), Refusal> {
        let refuse = |header, value: Option<&str>, flag| Refusal {
            header,
            value: value.map(str::to_string),
            flag,
        };
        let Some(host) = host else {
            return Err(refuse("Host", None, "--allow-host"));
        };
        if !self.admits_host(host) {
            return Err(refuse("Host", Some(host), "--allow-host"));
        }
        match origin {
            Some(origin) if !self.admits_origin(origin) => {
                Err(refuse("Origin", Some(origin), "--allow-origin"))
            }
            _ => Ok(()),
        }
    }

    fn admits_host(&self, host: &str) -> bool {
        let Some(HostPattern { name, port }) = parse_host(host) else {
            return false;
        };
        // Without a port, a Host names the scheme's default, 80 for plain HTTP.
        let port = port.unwrap_or(80);
        if LOOPBACK_NAMES.contains(&name.as_str()) && port == self.port {
            return true;
        }
        match &self.hosts {
            Allowed::Any => true,
            Allowed::These(patterns) => patterns
                .iter()
                .any(|p| p.name == name && p.port.is_none_or(|allowed| allowed == port)),
        }
    }

    fn admits_origin(&self, origin: &str) -> bool {
        let Some(parsed) = parse_origin(origin) else {
            return false;
        };
        let loopback = matches!(&parsed, Origin::Tuple { scheme, host, .. }
            if matches!(scheme.as_str(), "http" | "https")
                && LOOPBACK_NAMES.contains(&host.as_str()));
        loopback
            || match &self.origins {
                Allowed::Any => true,
                Allowed::These(origins) => origins.contains(&parsed.to_string()),
            }
    }
}

/// The values of a repeated flag, each read by `parse`, or `*` alone.
fn allowed<T>(
    values: &[String],
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<Allowed<T>, Failure> {
    if values.iter().any(|value| value == "*") {
        return Ok(Allowed::Any);
    }
    let parsed = values.iter().map(|value| parse(value));
    Ok(Allowed::These(
        parsed.collect::<Result<_, _>>().map_err(Failure)?,
    ))
}

/// A `Host` value read as a lowercase name (an IPv6 address in its brackets) and a
/// port, or `None` when it is neither.
fn parse_host(host: &str) -> Option<HostPattern> {
    let host = host.trim().to_ascii_lowercase();
    let (name, port) = match host.rfind(':') {
        // A colon inside brackets belongs to an IPv6 address.
        Some(colon) if !host[colon..].contains(']') => {
            (&host[..colon], Some(host[colon + 1..].parse().ok()?))
        }
        _ => (host.as_str(), None),
    };
    let bracketed = name.starts_with('[') && name.ends_with(']') && name.len() > 2;
    let plain = !name.is_empty()
        && (name.bytes()).all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_'));
    let valid = match bracketed {
        true => name[1..name.len() - 1]
            .parse::<std::net::Ipv6Addr>()
            .is_ok(),
        false => plain,
    };
    valid.then(|| HostPattern {
        name: name.to_string(),
        port,
    })
}

/// An `Origin` header's value (RFC 6454): a scheme, host and port, or the opaque `null`.
#[derive(Debug, PartialEq, Eq)]
enum Origin {
    Null,
    Tuple {
        scheme: String,
        host: String,
        port: Option<u16>,
    },
}

impl fmt::Display for Origin {
    /// As a browser serialises it: lowercase, without the scheme's default port.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Null => f.write_str("null"),
            Origin::Tuple { scheme, host, port } => {
                let default = match scheme.as_str() {
                    "http" | "ws" => Some(80),
                    "https" | "wss" => Some(443),
                    _ => None,
                };
                match port.filter(|port| Some(*port) != default) {
                    Some(port) => write!(f, "{scheme}://{host}:{port}"),
                    None => write!(f, "{scheme}://{host}"),
                }
            }
        }
    }
}

fn parse_origin(origin: &str) -> Option<Origin> {
    let origin = origin.trim();
    if origin == "null" {
        return Some(Origin::Null);
    }
    let (scheme, authority) = origin.split_once("://")?;
    let scheme_ok = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && (scheme.chars()).all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    // A trailing slash is forgiven on the command line; a path is not an origin.
    let authority = authority.strip_suffix('/').unwrap_or(authority);
    if !scheme_ok || authority.contains(['/', '@', '?', '#']) {
        return None;
    }
    let HostPattern { name, port } = parse_host(authority)?;
    Some(Origin::Tuple {
        scheme: scheme.to_ascii_lowercase(),
        host: name,
        port,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn admit_at(listen: &str, hosts: &[&str], origins: &[&str]) -> Result<Admission, Failure> {
        let owned = |values: &[&str]| values.iter().map(|v| v.to_string()).collect::<Vec<_>>();
        Admission::new(
            listen,
            listen.parse().unwrap(),
            &owned(hosts),
            &owned(origins),
        )
    }

    #[test]
    fn a_loopback_listener_answers_loopback_names_on_its_port_only() {
        let admission = admit_at("127.0.0.1:8001", &[], &[]).unwrap();
        for host in [
            "localhost:8001",
            "127.0.0.1:8001",
            "[::1]:8001",
            "LocalHost:8001",
        ] {
            assert_eq!(admission.admit(Some(host), None), Ok(()), "{host}");
        }
        for host in [
            "evil.example.com",
            "evil.example.com:8001",
            "localhost:8002",
            "localhost",
            "127.0.0.2:8001",
            "localhost.evil.example.com:8001",
            "",
            "[::1",
            "localhost:80:8001",
        ] {
            assert!(admission.admit(Some(host), None).is_err(), "{host}");
        }
        let refusal = admission.admit(None, None).unwrap_err();
        assert_eq!(refusal.to_string(), "the request has no Host header");
    }

    #[test]
    fn an_origin_must_be_a_loopback_page_or_allowed() {
        let admission = admit_at("[::1]:9000", &[], &[]).unwrap();
        let host = Some("localhost:9000");
        for origin in [
            "http://localhost:6274",
            "http://127.0.0.1",
            "https://[::1]:443",
            "HTTP://LOCALHOST:9000",
        ] {
            assert_eq!(admission.admit(host, Some(origin)), Ok(()), "{origin}");
        }
        let refusal = (admission.admit(host, Some("http://evil.example.com"))).unwrap_err();
        assert_eq!(
            refusal.to_string(),
            "Origin \"http://evil.example.com\" is not allowed (the loopback names are; \
             --allow-origin adds others)"
        );
        for origin in [
            "null",
            "file://localhost",
            "http://localhost.evil.example",
            "x",
        ] {
            assert!(admission.admit(host, Some(origin)).is_err(), "{origin}");
        }
    }

    #[test]
    fn allow_lists_widen_what_is_answered() {
        let admission = admit_at(
            "127.0.0.1:8001",
            &["mcp.example.com", "gw.example.com:443"],
            &["https://app.example.com:443/", "null"],
        )
        .unwrap();
        assert!(admission.admit(Some("mcp.example.com:8001"), None).is_ok());
        assert!(admission.admit(Some("MCP.example.com"), None).is_ok());
        assert!(admission.admit(Some("gw.example.com:443"), None).is_ok());
        assert!(admission.admit(Some("gw.example.com:8001"), None).is_err());
        let host = Some("localhost:8001");
        assert!(admission
            .admit(host, Some("https://app.example.com"))
            .is_ok());
        assert!(admission.admit(host, Some("null")).is_ok());
        assert!(admission
            .admit(host, Some("http://app.example.com"))
            .is_err());
        let any = admit_at("127.0.0.1:8001", &["*"], &["*"]).unwrap();
        assert!(any
            .admit(Some("anything:1"), Some("https://anywhere"))
            .is_ok());
    }

    #[test]
    fn a_listener_beyond_loopback_needs_its_names_said() {
        let refused = admit_at("0.0.0.0:8001", &[], &[]).unwrap_err();
        assert!(refused.0.contains("--allow-host"), "{}", refused.0);
        let admission = admit_at("0.0.0.0:8001", &["mcp.internal"], &[]).unwrap();
        assert!(admission.admit(Some("mcp.internal:8001"), None).is_ok());
        assert!(admission.admit(Some("localhost:8001"), None).is_ok());
        assert!(admission.admit(Some("10.0.0.1:8001"), None).is_err());
    }

    #[test]
    fn bad_allow_list_values_are_usage_errors() {
        for (hosts, origins) in [
            (&["http://mcp.example.com"][..], &[][..]),
            (&["a b"][..], &[][..]),
            (&["h:99999"][..], &[][..]),
            (&[][..], &["app.example.com"][..]),
            (&[][..], &["https://app.example.com/path"][..]),
            (&[][..], &["https://user@app.example.com"][..]),
        ] {
            assert!(
                admit_at("127.0.0.1:1", hosts, origins).is_err(),
                "{hosts:?} {origins:?}"
            );
        }
    }
}
