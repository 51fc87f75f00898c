//! IDNA2008 label validation (RFC 5890-5893) for `hostname` and
//! `idn-hostname`.
//!
//! A label is checked as one of the three label kinds RFC 5890 section 2.3.2.1
//! admits in an internationalized domain name:
//!
//! * an LDH label (`[A-Za-z0-9-]`, no leading or trailing hyphen); for IDNs it
//!   must also not be a reserved LDH label (`--` in positions 3 and 4) unless
//!   it is an A-label;
//! * an A-label (`xn--` in any case followed by Punycode), which must decode
//!   to a valid U-label and re-encode to itself;
//! * a U-label (contains non-ASCII), which must satisfy RFC 5891 section 4.2:
//!   every code point PVALID, or CONTEXTJ/CONTEXTO with its RFC 5892 appendix A
//!   rule satisfied; no leading combining mark; no leading or trailing hyphen;
//!   no `--` in positions 3 and 4; and an A-label form of at most 63 octets.
//!
//! The per-label Bidi rule (RFC 5893 section 2) is evaluated here and applied
//! by the caller to every label once any label is right-to-left.
//!
//! Normalization Form C (RFC 5891 section 5.3) is checked partially: marks
//! must be in canonical order and no mark (or vowel sign) may canonically
//! compose with the character it follows, which catches decomposed input such
//! as `u` + U+0308. Not detected: a precomposed character followed by a mark
//! that canonical reordering would move inside it (that needs full
//! decomposition tables). Code points assigned after Unicode 14.0 are treated
//! as unassigned and rejected.

use super::idna_table::{CHARS, COMPOSITIONS};
use super::punycode::{self, MAX_BODY};

/// Longest label, in octets of its ASCII (A-label) form.
pub(super) const MAX_LABEL: usize = 63;

/// Outcome of checking one valid label.
pub(super) struct Label {
    /// Length of the label's ASCII form (an A-label for a U-label).
    pub(super) ascii_len: usize,
    /// The label contains right-to-left characters (Bidi class R, AL or AN),
    /// which makes the whole name a "Bidi domain name" (RFC 5893 section 1.4).
    pub(super) rtl: bool,
    /// The label satisfies the six conditions of the Bidi rule.
    pub(super) bidi_ok: bool,
}

/// Checks one label (already split off its name, non-empty or not).
///
/// With `unicode` false only ASCII labels are accepted (the `hostname`
/// format); with it true U-labels are too and reserved LDH labels are not
/// (the `idn-hostname` format). Returns `None` for an invalid label.
pub(super) fn check_label(label: &str, unicode: bool) -> Option<Label> {
    let bytes = label.as_bytes();
    if label.is_ascii() {
        if bytes.len() > 4 && bytes[..4].eq_ignore_ascii_case(b"xn--") {
            return a_label(&bytes[4..]);
        }
        if !is_ldh_label(bytes) || (unicode && bytes.get(2..4) == Some(b"--")) {
            return None;
        }
        return Some(Label {
            ascii_len: bytes.len(),
            rtl: false,
            // Digits are Bidi class EN and may not start a label of a Bidi
            // domain name; letters are L; a hyphen cannot be first or last.
            bidi_ok: bytes[0].is_ascii_alphabetic(),
        });
    }
    if !unicode {
        return None;
    }
    let mut buf = [0u32; MAX_BODY];
    let mut len = 0;
    for c in label.chars() {
        // Each code point takes at least one octet of the A-label body.
        *buf.get_mut(len)? = u32::from(c);
        len += 1;
    }
    let chars = &buf[..len];
    let mut encoded = [0u8; MAX_BODY];
    let body = punycode::encode(chars, &mut encoded)?;
    let mut label = u_label(chars)?;
    label.ascii_len = 4 + body;
    Some(label)
}

/// `[A-Za-z0-9-]{1,63}` not starting or ending with a hyphen (RFC 1123
/// section 2.1, RFC 5890 section 2.3.1).
fn is_ldh_label(b: &[u8]) -> bool {
    !b.is_empty()
        && b.len() <= MAX_LABEL
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
        && b[0] != b'-'
        && b[b.len() - 1] != b'-'
}

/// Checks an A-label given its body (what follows `xn--`): RFC 5891 section
/// 5.3-5.5. The body must decode to a U-label containing non-ASCII, that
/// U-label must be valid, and encoding it must give the body back (ignoring
/// case), which rules out non-canonical encodings.
fn a_label(body: &[u8]) -> Option<Label> {
    if body.len() > MAX_BODY {
        return None;
    }
    let mut buf = [0u32; MAX_BODY];
    let len = punycode::decode(body, &mut buf)?;
    let chars = &buf[..len];
    if chars.iter().all(|&c| c < 0x80) {
        return None;
    }
    let mut encoded = [0u8; MAX_BODY];
    let encoded_len = punycode::encode(chars, &mut encoded)?;
    if !encoded[..encoded_len].eq_ignore_ascii_case(body) {
        return None;
    }
    let mut label = u_label(chars)?;
    label.ascii_len = 4 + body.len();
    Some(label)
}

// Bit layout of the property word in `CHARS`; see `idna_table.rs`.
const KIND_MASK: u32 = 0b11;
const KIND_PVALID: u32 = 1;
const MARK: u32 = 1 << 2;
const JT_SHIFT: u32 = 4;
const JT_D: u32 = 1;
const JT_L: u32 = 2;
const JT_R: u32 = 3;
const JT_T: u32 = 4;
const SCRIPT_SHIFT: u32 = 7;
const SCRIPT_GREEK: u32 = 1;
const SCRIPT_HEBREW: u32 = 2;
const SCRIPT_HIRAGANA: u32 = 3;
const SCRIPT_KATAKANA: u32 = 4;
const SCRIPT_HAN: u32 = 5;
const BIDI_SHIFT: u32 = 10;
const CCC_SHIFT: u32 = 16;
/// Canonical_Combining_Class of a virama.
const CCC_VIRAMA: u32 = 9;

/// Bidi_Class values as numbered in the table.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bidi {
    L,
    R,
    Al,
    An,
    En,
    Es,
    Cs,
    Et,
    On,
    Bn,
    Nsm,
    Other,
}

/// Properties of a code point permitted in a U-label.
#[derive(Clone, Copy)]
struct Props(u32);

impl Props {
    /// Looks `c` up; `None` if it is DISALLOWED or UNASSIGNED.
    fn of(c: u32) -> Option<Self> {
        let i = CHARS
            .binary_search_by(|&(first, last, _)| {
                if last < c {
                    std::cmp::Ordering::Less
                } else if first > c {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            })
            .ok()?;
        Some(Self(CHARS[i].2))
    }

    fn is_pvalid(self) -> bool {
        self.0 & KIND_MASK == KIND_PVALID
    }

    fn is_mark(self) -> bool {
        self.0 & MARK != 0
    }

    fn is_virama(self) -> bool {
        self.ccc() == CCC_VIRAMA
    }

    /// Canonical_Combining_Class (0 for starters).
    fn ccc(self) -> u32 {
        (self.0 >> CCC_SHIFT) & 0xFF
    }

    fn joining_type(self) -> u32 {
        (self.0 >> JT_SHIFT) & 0b111
    }

    fn script(self) -> u32 {
        (self.0 >> SCRIPT_SHIFT) & 0b111
    }

    fn bidi(self) -> Bidi {
        match (self.0 >> BIDI_SHIFT) & 0b1111 {
            0 => Bidi::L,
            1 => Bidi::R,
            2 => Bidi::Al,
            3 => Bidi::An,
            4 => Bidi::En,
            5 => Bidi::Es,
            6 => Bidi::Cs,
            7 => Bidi::Et,
            8 => Bidi::On,
            9 => Bidi::Bn,
            10 => Bidi::Nsm,
            _ => Bidi::Other,
        }
    }
}

/// A U-label code point with its properties.
type Cp = (u32, Props);

/// Checks a U-label given as code points (RFC 5891 section 4.2.3 and 4.2.4,
/// RFC 5892 appendix A). `ascii_len` of the result is left 0 for the caller.
fn u_label(chars: &[u32]) -> Option<Label> {
    let mut buf = [(0, Props(0)); MAX_BODY];
    let cps = buf.get_mut(..chars.len())?;
    for (slot, &c) in cps.iter_mut().zip(chars) {
        // DISALLOWED and UNASSIGNED code points are absent from the table.
        *slot = (c, Props::of(c)?);
    }
    let cps = &*cps;
    let (&(first, first_props), &(last, _)) = (cps.first()?, cps.last()?);
    let hyphen = u32::from(b'-');
    if first == hyphen
        || last == hyphen
        || (chars.get(2) == Some(&hyphen) && chars.get(3) == Some(&hyphen))
        || first_props.is_mark()
        || !is_nfc(cps)
    {
        return None;
    }
    for (i, (_, props)) in cps.iter().enumerate() {
        if !props.is_pvalid() && !contextual_rule(cps, i) {
            return None;
        }
    }
    let (rtl, bidi_ok) = bidi_rule(cps);
    Some(Label {
        ascii_len: 0,
        rtl,
        bidi_ok,
    })
}

/// Partial Normalization Form C check (see the module documentation): marks
/// in canonical order, and no unblocked canonical composition with the last
/// starter.
fn is_nfc(cps: &[Cp]) -> bool {
    let mut starter: Option<(usize, u32)> = None;
    // Highest combining class since the last starter (they are ordered, so
    // it is also the previous character's).
    let mut last_ccc = 0;
    for (i, &(c, props)) in cps.iter().enumerate() {
        let ccc = props.ccc();
        if ccc != 0 && last_ccc > ccc {
            return false;
        }
        if let Some((at, s)) = starter {
            // Blocked by any character in between of class 0 or >= ccc.
            let unblocked = at + 1 == i || (ccc != 0 && last_ccc < ccc);
            if unblocked && COMPOSITIONS.binary_search(&(s, c)).is_ok() {
                return false;
            }
        }
        if ccc == 0 {
            starter = Some((i, c));
        }
        last_ccc = ccc;
    }
    true
}

/// Evaluates the RFC 5892 appendix A rule for the CONTEXTJ or CONTEXTO code
/// point at `cps[i]`.
fn contextual_rule(cps: &[Cp], i: usize) -> bool {
    let before = i.checked_sub(1).and_then(|j| cps.get(j)).copied();
    let after = cps.get(i + 1).copied();
    let after_virama = before.is_some_and(|(_, p)| p.is_virama());
    let has = |range: std::ops::RangeInclusive<u32>| cps.iter().any(|(c, _)| range.contains(c));
    match cps[i].0 {
        // A.1 ZERO WIDTH NON-JOINER: after a virama, or between joining
        // characters: (L|D) T* ZWNJ T* (R|D).
        0x200C => {
            after_virama || (joins(cps[..i].iter().rev(), JT_L) && joins(cps[i + 1..].iter(), JT_R))
        }
        // A.2 ZERO WIDTH JOINER: after a virama.
        0x200D => after_virama,
        // A.3 MIDDLE DOT: between two 'l's (as in Catalan "l·l").
        0x00B7 => before.is_some_and(|(c, _)| c == 0x6C) && after.is_some_and(|(c, _)| c == 0x6C),
        // A.4 GREEK LOWER NUMERAL SIGN (KERAIA): followed by Greek.
        0x0375 => after.is_some_and(|(_, p)| p.script() == SCRIPT_GREEK),
        // A.5, A.6 HEBREW PUNCTUATION GERESH and GERSHAYIM: preceded by Hebrew.
        0x05F3 | 0x05F4 => before.is_some_and(|(_, p)| p.script() == SCRIPT_HEBREW),
        // A.7 KATAKANA MIDDLE DOT: the label has Hiragana, Katakana or Han.
        0x30FB => cps
            .iter()
            .any(|(_, p)| matches!(p.script(), SCRIPT_HIRAGANA | SCRIPT_KATAKANA | SCRIPT_HAN)),
        // A.8 ARABIC-INDIC DIGITS: not mixed with Extended Arabic-Indic digits.
        0x0660..=0x0669 => !has(0x06F0..=0x06F9),
        // A.9 EXTENDED ARABIC-INDIC DIGITS: not mixed with Arabic-Indic digits.
        0x06F0..=0x06F9 => !has(0x0660..=0x0669),
        _ => false,
    }
}

/// Skips Joining_Type T code points from `side` (walking away from a ZWNJ)
/// and reports whether the next one is Dual_Joining or `joining_type`.
fn joins<'a>(side: impl Iterator<Item = &'a Cp>, joining_type: u32) -> bool {
    for (_, props) in side {
        match props.joining_type() {
            JT_T => {}
            jt => return jt == JT_D || jt == joining_type,
        }
    }
    false
}

/// The RFC 5893 section 2 Bidi rule for one label: returns whether the label
/// is right-to-left (has R, AL or AN) and whether it satisfies the rule.
fn bidi_rule(cps: &[Cp]) -> (bool, bool) {
    let mut rtl = false;
    let mut has_en = false;
    let mut has_an = false;
    let mut allowed_rtl = true;
    let mut allowed_ltr = true;
    // Bidi class of the last character that is not NSM.
    let mut end = None;
    for (_, props) in cps {
        let bidi = props.bidi();
        match bidi {
            Bidi::R | Bidi::Al => rtl = true,
            Bidi::An => {
                rtl = true;
                has_an = true;
            }
            Bidi::En => has_en = true,
            _ => {}
        }
        // Condition 2: classes allowed in a right-to-left label.
        allowed_rtl &= !matches!(bidi, Bidi::L | Bidi::Other);
        // Condition 5: classes allowed in a left-to-right label.
        allowed_ltr &= !matches!(bidi, Bidi::R | Bidi::Al | Bidi::An | Bidi::Other);
        if bidi != Bidi::Nsm {
            end = Some(bidi);
        }
    }
    // Condition 1 decides the label's direction from its first character.
    let ok = match cps.first().map(|(_, p)| p.bidi()) {
        // Conditions 2, 3 and 4.
        Some(Bidi::R | Bidi::Al) => {
            allowed_rtl
                && matches!(end, Some(Bidi::R | Bidi::Al | Bidi::En | Bidi::An))
                && !(has_en && has_an)
        }
        // Conditions 5 and 6.
        Some(Bidi::L) => allowed_ltr && matches!(end, Some(Bidi::L | Bidi::En)),
        _ => false,
    };
    (rtl, ok)
}
