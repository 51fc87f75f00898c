//! URIs and IRIs: `uri`, `uri-reference` (RFC 3986) and `iri`,
//! `iri-reference` (RFC 3987), checked against the generic syntax without
//! allocating. Scheme-specific rules are not checked.

use super::ip::is_ipv6;

/// `uri`: an RFC 3986 section 3 `URI` (absolute, with a scheme; a fragment is
/// allowed).
///
/// Checks the scheme (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`), the
/// authority (userinfo, host as bracketed IPv6/IPvFuture literal or
/// registered name, decimal port), the path, query and fragment character
/// sets and `%XX` percent-encodings. Anything else, such as spaces,
/// backslashes or non-ASCII characters, is rejected.
pub(super) fn is_uri(s: &str) -> bool {
    reference(
        s,
        Mode {
            iri: false,
            absolute: true,
        },
    )
}

/// `uri-reference`: an RFC 3986 section 4.1 `URI-reference`, i.e. a [`is_uri`]
/// URI or a relative reference (network-path `//host/...`, absolute-path
/// `/a`, relative-path `a/b` whose first segment has no `:`, or empty, each
/// with optional query and fragment).
pub(super) fn is_uri_reference(s: &str) -> bool {
    reference(
        s,
        Mode {
            iri: false,
            absolute: false,
        },
    )
}

/// `iri`: an RFC 3987 section 2.2 `IRI`: as [`is_uri`], but non-ASCII
/// characters from `ucschar` are allowed wherever unreserved characters are,
/// and private-use characters (`iprivate`) in the query.
pub(super) fn is_iri(s: &str) -> bool {
    reference(
        s,
        Mode {
            iri: true,
            absolute: true,
        },
    )
}

/// `iri-reference`: an RFC 3987 section 2.2 `IRI-reference`: an [`is_iri`]
/// IRI or a relative reference with the IRI character set.
pub(super) fn is_iri_reference(s: &str) -> bool {
    reference(
        s,
        Mode {
            iri: true,
            absolute: false,
        },
    )
}

/// Which of the four grammars to apply.
#[derive(Clone, Copy)]
struct Mode {
    /// RFC 3987 character set (`ucschar`, `iprivate`).
    iri: bool,
    /// A scheme is required (`URI`/`IRI` rather than a reference).
    absolute: bool,
}

/// RFC 3986 `sub-delims`.
const SUB_DELIMS: &[u8] = b"!$&'()*+,;=";

fn reference(s: &str, mode: Mode) -> bool {
    let (rest, fragment) = match s.split_once('#') {
        Some((rest, fragment)) => (rest, Some(fragment)),
        None => (s, None),
    };
    if fragment.is_some_and(|f| !chars_ok(f, mode.iri, false, b":@/?")) {
        return false;
    }
    let (rest, query) = match rest.split_once('?') {
        Some((rest, query)) => (rest, Some(query)),
        None => (rest, None),
    };
    if query.is_some_and(|q| !chars_ok(q, mode.iri, true, b":@/?")) {
        return false;
    }
    let (hier, relative) = match rest.find([':', '/']) {
        Some(colon) if rest.as_bytes()[colon] == b':' && is_scheme(&rest[..colon]) => {
            (&rest[colon + 1..], false)
        }
        _ if mode.absolute => return false,
        _ => (rest, true),
    };
    if let Some(after) = hier.strip_prefix("//") {
        let (authority_part, path) = after.split_at(after.find('/').unwrap_or(after.len()));
        return authority(authority_part, mode.iri) && chars_ok(path, mode.iri, false, b":@/");
    }
    // path-absolute, path-rootless or path-empty; in a relative reference the
    // first segment must not contain a colon (path-noscheme), or it would
    // read as a scheme.
    if relative
        && hier
            .split('/')
            .next()
            .is_some_and(|first| first.contains(':'))
    {
        return false;
    }
    chars_ok(hier, mode.iri, false, b":@/")
}

/// RFC 3986 section 3.1 `scheme`.
fn is_scheme(s: &str) -> bool {
    let b = s.as_bytes();
    b.first().is_some_and(u8::is_ascii_alphabetic)
        && b.iter()
            .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'))
}

/// RFC 3986 section 3.2 `authority = [ userinfo "@" ] host [ ":" port ]`.
fn authority(s: &str, iri: bool) -> bool {
    let (userinfo, host_port) = match s.split_once('@') {
        Some((userinfo, host_port)) => (Some(userinfo), host_port),
        None => (None, s),
    };
    if userinfo.is_some_and(|u| !chars_ok(u, iri, false, b":")) {
        return false;
    }
    let (host_ok, port) = if let Some(literal) = host_port.strip_prefix('[') {
        let Some((literal, after)) = literal.split_once(']') else {
            return false;
        };
        let port = match after.strip_prefix(':') {
            Some(port) => port,
            None if after.is_empty() => "",
            None => return false,
        };
        (is_ipv6(literal) || is_ipv_future(literal), port)
    } else {
        let (host, port) = host_port.split_once(':').unwrap_or((host_port, ""));
        // reg-name (which also covers IPv4address syntactically).
        (chars_ok(host, iri, false, b""), port)
    };
    host_ok && port.bytes().all(|c| c.is_ascii_digit())
}

/// RFC 3986 `IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`.
fn is_ipv_future(s: &str) -> bool {
    let Some(rest) = s.strip_prefix(['v', 'V']) else {
        return false;
    };
    let Some((version, tail)) = rest.split_once('.') else {
        return false;
    };
    !version.is_empty()
        && version.bytes().all(|c| c.is_ascii_hexdigit())
        && !tail.is_empty()
        && !tail.contains('%')
        && chars_ok(tail, false, false, b":")
}

/// Checks that every character of `s` is unreserved, a sub-delim, one of
/// `extra`, or part of a `%XX` escape. With `iri`, `ucschar` counts as
/// unreserved and, with `private` too, `iprivate` is allowed (RFC 3987
/// `iquery`).
fn chars_ok(s: &str, iri: bool, private: bool, extra: &[u8]) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'%' {
            if !(b.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
            {
                return false;
            }
            i += 3;
        } else if c.is_ascii() {
            if !(c.is_ascii_alphanumeric()
                || matches!(c, b'-' | b'.' | b'_' | b'~')
                || SUB_DELIMS.contains(&c)
                || extra.contains(&c))
            {
                return false;
            }
            i += 1;
        } else {
            // `s[i..]` starts at a character boundary: every step above
            // advances over ASCII bytes only, and this one over a whole char.
            let Some(ch) = s.get(i..).and_then(|rest| rest.chars().next()) else {
                return false;
            };
            if !(iri && (is_ucschar(ch) || (private && is_iprivate(ch)))) {
                return false;
            }
            i += ch.len_utf8();
        }
    }
    true
}

/// RFC 3987 `ucschar`.
pub(super) fn is_ucschar(c: char) -> bool {
    let c = u32::from(c);
    match c {
        0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF => true,
        0x1_0000..=0xE_FFFF => c & 0xFFFF <= 0xFFFD && !(0xE_0000..0xE_1000).contains(&c),
        _ => false,
    }
}

/// RFC 3987 `iprivate`.
pub(super) fn is_iprivate(c: char) -> bool {
    let c = u32::from(c);
    matches!(c, 0xE000..=0xF8FF) || ((0xF_0000..=0x10_FFFF).contains(&c) && c & 0xFFFF <= 0xFFFD)
}
