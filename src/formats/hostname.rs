//! Host names: `hostname` (RFC 1123 section 2.1, with RFC 5891 Punycode
//! A-labels) and `idn-hostname` (RFC 5890 section 2.3.2.3 internationalized
//! host names). Label rules live in [`super::idna`].

use super::idna::{self, MAX_LABEL};

/// Longest host name, in octets of its ASCII form without a trailing dot
/// (255 octets on the wire, RFC 1034 section 3.1).
const MAX_NAME: usize = 253;

/// `hostname`: an RFC 1123 section 2.1 host name.
///
/// Dot-separated labels of 1-63 ASCII letters, digits and hyphens, not
/// starting or ending with a hyphen, at most 253 octets in total; a single
/// label (`localhost`) is accepted, an empty name, empty label or trailing
/// dot is not. Labels starting with `xn--` (any case) must be valid A-labels
/// (RFC 5891 section 4.4): well-formed Punycode decoding to a valid U-label,
/// as for `idn-hostname`.
pub(super) fn is_hostname(s: &str) -> bool {
    domain(s, false)
}

/// `idn-hostname`: an RFC 5890 section 2.3.2.3 internationalized host name.
///
/// Labels are separated by `.` or its ideographic variants U+3002, U+FF0E and
/// U+FF61 (RFC 3490 section 3.1) and must each be an A-label, a U-label or a
/// non-reserved LDH label; see [`super::idna`] for the IDNA2008 rules checked
/// (code point classes, contextual rules, hyphen and combining mark
/// restrictions, Punycode validity). When any label is right-to-left, every
/// label must satisfy the Bidi rule (RFC 5893). Length limits apply to the
/// ASCII form: 63 octets per label, 253 for the name.
pub(super) fn is_idn_hostname(s: &str) -> bool {
    domain(s, true)
}

/// Checks a whole host name; `unicode` selects `idn-hostname` rules.
fn domain(s: &str, unicode: bool) -> bool {
    if s.is_empty() {
        return false;
    }
    let mut ascii_len = 0;
    let mut any_rtl = false;
    let mut all_bidi_ok = true;
    let is_separator =
        |c: char| c == '.' || (unicode && matches!(c, '\u{3002}' | '\u{FF0E}' | '\u{FF61}'));
    for (i, label) in s.split(is_separator).enumerate() {
        let Some(label) = idna::check_label(label, unicode) else {
            return false;
        };
        debug_assert!(label.ascii_len <= MAX_LABEL);
        ascii_len += label.ascii_len + usize::from(i > 0);
        if ascii_len > MAX_NAME {
            return false;
        }
        any_rtl |= label.rtl;
        all_bidi_ok &= label.bidi_ok;
    }
    !any_rtl || all_bidi_ok
}
