//! E-mail addresses: `email` (RFC 5321 section 4.1.2 `Mailbox`) and
//! `idn-email` (the same with the RFC 6531 section 3.3 extensions).

use super::hostname::{is_hostname, is_idn_hostname};
use super::ip::{is_ipv4, is_ipv6};

/// Longest local part in octets (RFC 5321 section 4.5.3.1.1).
const MAX_LOCAL_PART: usize = 64;

/// `email`: an RFC 5321 `Mailbox` (`local-part@domain`).
///
/// The local part is a dot-string (atoms of `atext` separated by single dots,
/// none leading or trailing) or a quoted string (printable ASCII, with `\`
/// quoting any printable character), at most 64 octets. The domain is a host
/// name as for the `hostname` format, or an address literal: `[` IPv4 `]` or
/// `[IPv6:` IPv6 `]`. General address literals (`[tag:content]`) are
/// rejected, since no such tags are registered. Comments and folding white
/// space (RFC 5322 syntax) are not part of a mailbox and are rejected.
pub(super) fn is_email(s: &str) -> bool {
    mailbox(s, false)
}

/// `idn-email`: an RFC 6531 internationalized `Mailbox`.
///
/// As [`is_email`], except that the local part may also contain any non-ASCII
/// character (in atoms and quoted strings) and the domain is checked as an
/// `idn-hostname`.
pub(super) fn is_idn_email(s: &str) -> bool {
    mailbox(s, true)
}

fn mailbox(s: &str, unicode: bool) -> bool {
    // The domain cannot contain `@`, but a quoted local part can.
    let Some(at) = s.rfind('@') else {
        return false;
    };
    let (local, domain) = (&s[..at], &s[at + 1..]);
    if local.is_empty() || local.len() > MAX_LOCAL_PART || !local_part(local, unicode) {
        return false;
    }
    if let Some(literal) = domain.strip_prefix('[') {
        let Some(literal) = literal.strip_suffix(']') else {
            return false;
        };
        return match literal.get(..5) {
            Some(tag) if tag.eq_ignore_ascii_case("IPv6:") => is_ipv6(&literal[5..]),
            _ => is_ipv4(literal),
        };
    }
    if unicode {
        is_idn_hostname(domain)
    } else {
        is_hostname(domain)
    }
}

/// RFC 5321 `Local-part = Dot-string / Quoted-string`.
fn local_part(local: &str, unicode: bool) -> bool {
    match local.strip_prefix('"') {
        Some(quoted) => quoted_string(quoted, unicode),
        None => local
            .split('.')
            .all(|atom| !atom.is_empty() && atom.chars().all(|c| is_atext(c, unicode))),
    }
}

/// RFC 5322 `atext`, plus any non-ASCII character under RFC 6531.
fn is_atext(c: char, unicode: bool) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c) || (unicode && !c.is_ascii())
}

/// The rest of an RFC 5321 `Quoted-string` after its opening quote: quoted
/// text and quoted pairs up to a closing quote that ends the local part.
fn quoted_string(rest: &str, unicode: bool) -> bool {
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return chars.as_str().is_empty(),
            // quoted-pairSMTP: a backslash and any printable ASCII character.
            '\\' => {
                if !chars.next().is_some_and(|q| matches!(q, ' '..='~')) {
                    return false;
                }
            }
            // qtextSMTP: printable ASCII other than `"` and `\`.
            ' '..='~' => {}
            _ if unicode && !c.is_ascii() => {}
            _ => return false,
        }
    }
    false
}
