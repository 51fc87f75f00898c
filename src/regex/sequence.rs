//! Patterns that are an anchored sequence of ASCII classes, each repeated a bounded or
//! unbounded number of times (`^[A-Z]{2}[0-9]{1,4}$`, `^[0-9]{4}-[0-9]{2}-[0-9]{2}$`,
//! `^[a-z][a-z0-9_]*$`): matched without an automaton, by a bit-parallel simulation of
//! the pattern's positions.
//!
//! Each repetition is spelled out into slots, one per character it may take: `X{2,4}`
//! is two slots that must take an `X` and two that may, `X+` one that must and one that
//! may take any number. The state is a word with a bit per boundary between slots (bit
//! `i`: the first `i` slots are filled); a byte moves each live boundary over the slot
//! after it when that slot takes the byte, keeps it in place when that slot repeats,
//! and slots that may stay empty are skipped at once. The pattern matches when the
//! boundary after the last slot is live (at the end of the haystack, with a `$`).
//!
//! Every slot takes ASCII bytes only, so a byte of a non-ASCII character ends every
//! boundary: exactly what the code-point semantics say, since no slot matches one.

/// One class of a sequence: its ASCII members and how many times it repeats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Atom {
    /// Bit `b` set when the ASCII character `b` is a member.
    pub(super) set: u128,
    /// The fewest repetitions.
    pub(super) min: u64,
    /// The most repetitions, `None` when unbounded.
    pub(super) max: Option<u64>,
}

/// A compiled sequence (see the module docs).
#[derive(Clone, Debug)]
pub(super) struct Sequence {
    /// Bit `i` of entry `b`: slot `i` takes the ASCII byte `b`.
    slots_taking: Box<[u64; 128]>,
    /// Slots that may take any number of bytes.
    repeating: u64,
    /// Slots that may stay empty.
    skippable: u64,
    /// The boundary after the last slot.
    accept: u64,
    /// The live boundaries before the first byte.
    start: u64,
    /// Whether the pattern ends with `$` (else any prefix of the haystack may match).
    anchored_end: bool,
    /// Whether two slots that may stay empty follow each other, so that skipping may
    /// take more than one step.
    chained: bool,
    /// With `$`, a last atom that repeats without bound: its slot's boundary and its
    /// set. Once that boundary is the only live one (beside the accepting one), what is
    /// left of the haystack must be a run of that set, checked byte by byte without the
    /// simulation (`^[A-Za-z][A-Za-z0-9_:-]*$` after its first byte).
    tail: Option<(u64, u128)>,
}

impl Sequence {
    /// The most slots a sequence may have: one bit per boundary in a `u64`.
    const MAX_SLOTS: u64 = 63;

    /// The sequence of `atoms` (anchored at the start), or `None` when it has more than
    /// [`Self::MAX_SLOTS`] slots.
    pub(super) fn new(atoms: &[Atom], anchored_end: bool) -> Option<Sequence> {
        let mut slots_taking = Box::new([0u64; 128]);
        let (mut repeating, mut skippable, mut slots) = (0u64, 0u64, 0u64);
        for atom in atoms {
            let optional = match atom.max {
                Some(max) => max.checked_sub(atom.min)?,
                None => 1,
            };
            let count = atom.min.checked_add(optional)?;
            if slots.checked_add(count)? > Self::MAX_SLOTS {
                return None;
            }
            for k in 0..count {
                let bit = 1u64 << slots;
                for (byte, taking) in slots_taking.iter_mut().enumerate() {
                    if atom.set >> byte & 1 == 1 {
                        *taking |= bit;
                    }
                }
                if k >= atom.min {
                    skippable |= bit;
                    if atom.max.is_none() {
                        repeating |= bit;
                    }
                }
                slots += 1;
            }
        }
        let tail = match atoms.last() {
            Some(&Atom { set, max: None, .. }) if anchored_end => Some((1 << (slots - 1), set)),
            _ => None,
        };
        Some(Sequence {
            slots_taking,
            repeating,
            skippable,
            accept: 1 << slots,
            start: skip(1, skippable, true),
            anchored_end,
            chained: skippable & skippable << 1 != 0,
            tail,
        })
    }

    /// Whether the sequence matches at the start of `haystack`.
    pub(super) fn is_match(&self, haystack: &str) -> bool {
        let mut live = self.start;
        let bytes = haystack.as_bytes();
        for (at, &byte) in bytes.iter().enumerate() {
            if !self.anchored_end && live & self.accept != 0 {
                return true;
            }
            if let Some((boundary, set)) = self.tail {
                if live & !(boundary | self.accept) == 0 && live & boundary != 0 {
                    let rest = bytes.get(at..).unwrap_or_default();
                    return rest.iter().all(|&b| b < 128 && set >> b & 1 == 1);
                }
            }
            let taking = self.slots_taking.get(usize::from(byte)).copied();
            let moved = live & taking.unwrap_or(0);
            live = skip(
                (moved & !self.repeating) << 1 | (moved & self.repeating),
                self.skippable,
                self.chained,
            );
            if live == 0 {
                return false;
            }
        }
        live & self.accept != 0
    }
}

/// `live` and every boundary reached from it over slots that may stay empty: one step,
/// unless such slots are `chained`.
#[inline(always)]
fn skip(mut live: u64, skippable: u64, chained: bool) -> u64 {
    if !chained {
        return live | (live & skippable) << 1;
    }
    loop {
        let next = live | (live & skippable) << 1;
        if next == live {
            return live;
        }
        live = next;
    }
}

#[cfg(test)]
mod tests {
    use super::super::translate::{translate, Target};
    use super::super::{automaton, general_matcher, Matcher};

    /// Sequences of the shapes real schemas use, with overlapping neighbours, optional
    /// and repeating slots and both endings.
    const SEQUENCES: &[&str] = &[
        r"^[A-Z]{2}[0-9]{1,4}$",
        r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
        r"^[a-z][a-z0-9_]*$",
        r"^[a-c]*[a-c0-9]$",
        r"^a?b*a?$",
        r"^[ab]{0,3}b{2}",
        r"^x-",
        r"^\d+\.\d+$",
        r"^#[0-9a-fA-F]{3}(?:)?",
        r"^[a-c]+?[b-d]*?c$",
        r"^\w{2,}",
        r"^[A-Za-z][A-Za-z0-9_\-:]*$",
        r"^a[ab]*[bc]*$",
        r"^[a-c]?[b-d]?[a-d]*$",
    ];

    fn is_sequence(source: &str) -> bool {
        matches!(general_matcher(source), Ok(Matcher::Sequence(_)))
    }

    proptest::proptest! {
        #[test]
        fn sequences_agree_with_the_automaton(haystack in "[a-dxA-D0-9_.#\\-\u{e9}]{0,9}") {
            for source in SEQUENCES.iter().filter(|s| is_sequence(s)) {
                let translated = translate(source, Target::Automaton).unwrap().pattern;
                let expected = automaton(&translated).unwrap().is_match(&haystack);
                let Ok(Matcher::Sequence(sequence)) = general_matcher(source) else {
                    unreachable!()
                };
                proptest::prop_assert_eq!(
                    sequence.is_match(&haystack), expected, "{} {:?}", source, haystack
                );
            }
        }
    }

    #[test]
    fn sequence_shapes_are_recognised() {
        for source in [
            r"^[A-Z]{2}[0-9]{1,4}$",
            r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
            r"^[a-z][a-z0-9_]*$",
            r"^[a-c]*[a-c0-9]$",
            r"^a?b*a?$",
            r"^\d+\.\d+$",
        ] {
            assert!(is_sequence(source), "{source}");
        }
        // Not sequences: unanchored, groups, alternations, non-ASCII or `.` classes,
        // more slots than a word has bits.
        for source in [
            r"[a-z]+$",
            r"^(ab)+$",
            r"^a|b$",
            r"^[a-z\u00e9]+x$",
            r"^.x$",
            r"^[a-z]{40}[0-9]{40}$",
        ] {
            assert!(!is_sequence(source), "{source}");
        }
    }
}
