//! IP addresses: `ipv4` (RFC 2673 section 3.2 dotted-quad) and `ipv6`
//! (RFC 4291 section 2.2 text forms).

/// `ipv4`: an RFC 2673 section 3.2 dotted-quad.
///
/// Exactly four ASCII decimal octets of value 0-255 separated by `.`. Leading
/// zeros are rejected (`087.10.0.1`), since some parsers read them as octal,
/// as are the integer, hexadecimal and shortened forms `inet_aton` accepts and
/// any suffix such as a `/24` prefix length.
pub(super) fn is_ipv4(s: &str) -> bool {
    let mut parts = 0;
    for part in s.split('.') {
        parts += 1;
        if parts > 4 || !is_octet(part.as_bytes()) {
            return false;
        }
    }
    parts == 4
}

/// One decimal octet: `0`-`255` without leading zeros.
fn is_octet(b: &[u8]) -> bool {
    match b {
        [b'0'..=b'9'] => true,
        [b'1'..=b'9', b'0'..=b'9'] => true,
        [a @ b'1'..=b'2', b @ b'0'..=b'9', c @ b'0'..=b'9'] => {
            u32::from(a - b'0') * 100 + u32::from(b - b'0') * 10 + u32::from(c - b'0') <= 255
        }
        _ => false,
    }
}

/// `ipv6`: an RFC 4291 section 2.2 text representation.
///
/// Eight groups of 1-4 hexadecimal digits separated by `:`; a single `::` may
/// stand for one or more zero groups; the last 32 bits may be written as a
/// dotted-quad IPv4 address (checked as in [`is_ipv4`]). Zone identifiers
/// (`%eth0`, RFC 6874), prefix lengths (`/64`) and surrounding whitespace are
/// not part of an address and are rejected.
pub(super) fn is_ipv6(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    let mut groups = 0;
    let mut compressed = false;
    if b.starts_with(b"::") {
        compressed = true;
        i = 2;
        if i == b.len() {
            return true;
        }
    }
    loop {
        let hex = b[i..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
        if b.get(i + hex) == Some(&b'.') {
            // An embedded IPv4 address ends the address and fills two groups.
            if !s.get(i..).is_some_and(is_ipv4) {
                return false;
            }
            groups += 2;
            break;
        }
        if hex == 0 || hex > 4 {
            return false;
        }
        groups += 1;
        i += hex;
        if groups > 8 {
            return false;
        }
        if i == b.len() {
            break;
        }
        if b[i] != b':' {
            return false;
        }
        i += 1;
        if b.get(i) == Some(&b':') {
            if compressed {
                return false;
            }
            compressed = true;
            i += 1;
            if i == b.len() {
                break;
            }
        } else if i == b.len() {
            // A single trailing colon.
            return false;
        }
    }
    if compressed {
        groups <= 7
    } else {
        groups == 8
    }
}
