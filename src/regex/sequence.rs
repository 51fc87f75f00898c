//! Patterns that are an anchored sequence of character classes, each repeated a
//! bounded or unbounded number of times (`^[A-Z]{2}[0-9]{1,4}$`,
//! `^[0-9]{4}-[0-9]{2}-[0-9]{2}$`, `^[a-z][a-z0-9_]*$`, `^[^\s]+$`, `^.+$`): matched
//! without an automaton, by a bit-parallel simulation of the pattern's positions.
//!
//! Each repetition is spelled out into slots, one per character it may take: `X{2,4}`
//! is two slots that must take an `X` and two that may, `X+` one that must and one that
//! may take any number. The state is a word with a bit per boundary between slots (bit
//! `i`: the first `i` slots are filled); a character moves each live boundary over the
//! slot after it when that slot takes the character, keeps it in place when that slot
//! repeats, and slots that may stay empty are skipped at once. The pattern matches when
//! the boundary after the last slot is live (at the end of the haystack, with a `$`).
//!
//! An ASCII byte finds the slots that take it in a table; a non-ASCII character (rarer)
//! in a sorted partition of the code points above U+007F by the slots that take them.

use super::translate::Class;
use super::AsciiSet;
use crate::names::{half, word};

/// One class of a sequence and how many times it repeats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Atom {
    /// What the atom matches.
    pub(super) class: Class,
    /// The fewest repetitions.
    pub(super) min: u64,
    /// The most repetitions, `None` when unbounded.
    pub(super) max: Option<u64>,
}

/// A compiled sequence (see the module docs).
#[derive(Clone, Debug)]
pub(super) struct Sequence {
    /// Bit `i` of entry `b`: slot `i` takes the ASCII character `b`.
    slots_taking: Box<[u64; 128]>,
    /// The code points above U+007F that some slot takes, as sorted, disjoint ranges
    /// with the slots that take each (`first`, `last`, slots).
    wide: Box<[(u32, u32, u64)]>,
    /// Slots that may take any number of characters.
    repeating: u64,
    /// Slots that may stay empty.
    skippable: u64,
    /// The boundary after the last slot.
    accept: u64,
    /// The live boundaries before the first character.
    start: u64,
    /// Whether the pattern ends with `$` (else any prefix of the haystack may match).
    anchored_end: bool,
    /// Whether two slots that may stay empty follow each other, so that skipping may
    /// take more than one step.
    chained: bool,
    /// With `$`, the boundary of a last atom that repeats without bound (else 0), and
    /// that atom's class. Once that boundary is the only live one (beside the accepting
    /// one), what is left of the haystack must be a run of that class, checked without
    /// the simulation (`^[A-Za-z][A-Za-z0-9_:-]*$` after its first byte).
    tail: u64,
    tail_class: Class,
    /// When the tail's class takes every ASCII character but up to three (`.`: all but
    /// `\n` and `\r`; `[^/]`), those: its ASCII run is then checked a word at a time.
    tail_excluded: Option<ExcludedBytes>,
    /// Whether every slot must take exactly one character and the pattern ends with
    /// `$` (`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`): slot `i` then takes character `i`.
    fixed: bool,
    /// For a [`Sequence::fixed`] sequence of 4 to 16 slots each taking one range of ASCII
    /// bytes (the date above), those ranges, to test a haystack of that many bytes a
    /// word at a time.
    ranges: Option<FixedRanges>,
}

impl Sequence {
    /// The most slots a sequence may have: one bit per boundary in a `u64`.
    const MAX_SLOTS: u64 = 63;

    /// The sequence of `atoms` (anchored at the start), or `None` when it has more than
    /// [`Self::MAX_SLOTS`] slots.
    pub(super) fn new(atoms: &[Atom], anchored_end: bool) -> Option<Sequence> {
        let mut slots_taking = Box::new([0u64; 128]);
        let (mut repeating, mut skippable, mut slots) = (0u64, 0u64, 0u64);
        // Each atom's wide ranges with the slots it spans.
        let mut wide_slots: Vec<(&[(u32, u32)], u64)> = Vec::new();
        for atom in atoms {
            let optional = match atom.max {
                Some(max) => max.checked_sub(atom.min)?,
                None => 1,
            };
            let count = atom.min.checked_add(optional)?;
            if slots.checked_add(count)? > Self::MAX_SLOTS {
                return None;
            }
            let mut spanned = 0;
            for k in 0..count {
                let bit = 1u64 << slots;
                spanned |= bit;
                for (byte, taking) in slots_taking.iter_mut().enumerate() {
                    if atom.class.ascii >> byte & 1 == 1 {
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
            wide_slots.push((&atom.class.wide, spanned));
        }
        let (tail, tail_class) = match atoms.last() {
            Some(atom) if anchored_end && atom.max.is_none() => {
                (1 << (slots - 1), atom.class.clone())
            }
            _ => (0, Class::default()),
        };
        let tail_excluded = (tail != 0)
            .then(|| ExcludedBytes::of(|b| slots_taking[usize::from(b)] & tail != 0))
            .flatten();
        let fixed = anchored_end && skippable == 0 && repeating == 0;
        let ranges = fixed
            .then(|| FixedRanges::new(&slots_taking, slots as usize))
            .flatten();
        Some(Sequence {
            slots_taking,
            wide: partition(&wide_slots),
            repeating,
            skippable,
            accept: 1 << slots,
            start: skip(1, skippable, true),
            anchored_end,
            chained: skippable & skippable << 1 != 0,
            tail,
            tail_class,
            tail_excluded,
            fixed,
            ranges,
        })
    }

    /// Whether the sequence matches at the start of `haystack`.
    ///
    /// This, [`Sequence::simulate`] and [`Sequence::run_of_tail`] are always inlined
    /// into `Matcher::is_match`, their one caller: left to itself, the compiler's choice
    /// flips with unrelated changes there, and an out-of-line search costs a short
    /// haystack's search 10-30% more (deno, cspell).
    #[inline(always)]
    pub(super) fn is_match(&self, haystack: &str) -> bool {
        // One call of `simulate`, so that it is inlined here.
        if let Some(found) = self.fixed.then(|| self.fixed_match(haystack)).flatten() {
            return found;
        }
        self.simulate(haystack)
    }

    /// [`Sequence::is_match`] by the simulation of the module docs.
    #[inline(always)]
    fn simulate(&self, haystack: &str) -> bool {
        let mut live = self.start;
        let bytes = haystack.as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            if !self.anchored_end && live & self.accept != 0 {
                return true;
            }
            if live & !(self.tail | self.accept) == 0 && live & self.tail != 0 {
                return self.run_of_tail(haystack.get(at..).unwrap_or_default());
            }
            let byte = bytes[at];
            let taking = if byte < 128 {
                at += 1;
                self.slots_taking[usize::from(byte)]
            } else {
                self.wide_taking(haystack, &mut at)
            };
            let moved = live & taking;
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

    /// [`Sequence::is_match`] for a sequence of [`Sequence::fixed`] length: an ASCII
    /// haystack of exactly that length, each byte taken by its own slot, with no
    /// simulation; `None` for a haystack with other characters, which is simulated.
    fn fixed_match(&self, haystack: &str) -> Option<bool> {
        let bytes = haystack.as_bytes();
        let slots = self.accept.trailing_zeros() as usize;
        // Every character takes one byte or more.
        if bytes.len() < slots {
            return Some(false);
        }
        if let Some(ranges) = self.ranges.as_ref().filter(|_| bytes.len() == slots) {
            return Some(ranges.admit(bytes));
        }
        let mut slot = 1u64;
        for &byte in bytes {
            if byte >= 128 || slot == self.accept {
                return None;
            }
            if self.slots_taking[usize::from(byte)] & slot == 0 {
                return Some(false);
            }
            slot <<= 1;
        }
        // The loop ran out of bytes exactly at the last slot (a longer haystack was
        // simulated, a shorter one refused above).
        debug_assert_eq!(slot, self.accept);
        Some(true)
    }

    /// Whether every character of `text` is taken by the last slot, the repeating one
    /// of [`Sequence::tail`] (whose bit is the slot's own, a boundary being numbered as
    /// the slot after it): ASCII by the table, the rest by its class.
    #[inline(always)]
    fn run_of_tail(&self, text: &str) -> bool {
        let text = match &self.tail_excluded {
            Some(excluded) => match excluded.ascii_run(text.as_bytes()) {
                Run::Excluded => return false,
                // Up to the first word with a non-ASCII byte: a character boundary.
                Run::Until(at) => text.get(at..).unwrap_or(text),
            },
            None => text,
        };
        let ascii = |b: u8| self.slots_taking[usize::from(b & 127)] & self.tail != 0 && b < 128;
        if text.bytes().all(ascii) {
            return true;
        }
        text.chars().all(|c| match u8::try_from(c) {
            Ok(b) if b < 128 => ascii(b),
            _ => self.tail_class.has_wide(u32::from(c)),
        })
    }

    /// The slots that take the non-ASCII character at `at` of `haystack` (always on a
    /// character boundary), which `at` then moves past. Out of line: the rare case.
    #[inline(never)]
    fn wide_taking(&self, haystack: &str, at: &mut usize) -> u64 {
        let Some(c) = haystack.get(*at..).and_then(|rest| rest.chars().next()) else {
            *at = haystack.len();
            return 0;
        };
        *at += c.len_utf8();
        let cp = u32::from(c);
        let after = self.wide.partition_point(|&(first, ..)| first <= cp);
        match after.checked_sub(1).map(|i| self.wide[i]) {
            Some((_, last, slots)) if cp <= last => slots,
            _ => 0,
        }
    }
}

/// Up to three ASCII bytes that a class does not take, when it takes every other ASCII
/// character: a run of the class's ASCII characters is then tested eight bytes at a
/// time, each word for a byte of 0x80 or above (where the run leaves ASCII) and for each
/// excluded byte.
#[derive(Clone, Copy, Debug)]
struct ExcludedBytes([u8; 3]);

/// How far [`ExcludedBytes::ascii_run`] got.
enum Run {
    /// An excluded byte is in the text.
    Excluded,
    /// The text up to this offset (a multiple of 8) is ASCII, none of it excluded.
    Until(usize),
}

impl ExcludedBytes {
    /// The ASCII bytes `takes` refuses, if it refuses at most three. Unused places
    /// repeat 0x80, which no word tested holds (a word with a byte of 0x80 or above is
    /// never tested for them).
    fn of(takes: impl Fn(u8) -> bool) -> Option<ExcludedBytes> {
        let mut excluded = [0x80; 3];
        for (count, b) in (0..128).filter(|&b| !takes(b)).enumerate() {
            *excluded.get_mut(count)? = b;
        }
        Some(ExcludedBytes(excluded))
    }

    /// Walks `bytes` a word at a time while the words are ASCII and hold no excluded
    /// byte.
    #[inline(always)]
    fn ascii_run(&self, bytes: &[u8]) -> Run {
        const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
        const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
        // Nonzero exactly when some byte of `x` is zero.
        let zero_byte = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
        let [a, b, c] = self.0.map(|byte| ONES * u64::from(byte));
        let mut at = 0;
        while at + 8 <= bytes.len() {
            let w = word(bytes, at);
            if w & HIGH != 0 {
                break;
            }
            if zero_byte(w ^ a) | zero_byte(w ^ b) | zero_byte(w ^ c) != 0 {
                return Run::Excluded;
            }
            at += 8;
        }
        Run::Until(at)
    }
}

/// The bytes each slot of a fixed sequence of 4 to 16 slots takes, one range per slot,
/// laid out as the two words (or half words, under 8 slots) that cover a haystack of
/// exactly that many bytes: bytes 0.. and the last ones, overlapping in the middle.
///
/// A haystack of as many bytes as there are slots matches exactly when each of its
/// bytes is ASCII and within its slot's range: a non-ASCII character takes two bytes or
/// more, which would leave fewer characters than slots. Each word is tested at once:
/// with every byte below 128, `(b | 0x80) - lo` keeps a byte's top bit exactly when
/// `b >= lo`, and `(hi | 0x80) - b` exactly when `b <= hi`, neither borrowing from the
/// next byte (each difference stays within 1..=255).
#[derive(Clone, Copy, Debug)]
struct FixedRanges {
    /// The lowest byte of each position of the two words.
    low: [u64; 2],
    /// The highest byte of each position of the two words.
    high: [u64; 2],
}

impl FixedRanges {
    /// The top bit of every byte.
    const TOPS: u64 = 0x8080_8080_8080_8080;

    /// The ranges of the `slots` slots `slots_taking` describes, if each takes one range
    /// of ASCII bytes and they are 4 to 16.
    fn new(slots_taking: &[u64; 128], slots: usize) -> Option<FixedRanges> {
        if !(4..=16).contains(&slots) {
            return None;
        }
        let mut low = [0u8; 16];
        let mut high = [0u8; 16];
        for slot in 0..slots {
            let takes = |byte: &usize| slots_taking[*byte] >> slot & 1 == 1;
            let first = (0..128).find(takes)?;
            let last = (0..128).rev().find(takes)?;
            if !(first..=last).all(|byte| takes(&byte)) {
                return None;
            }
            (low[slot], high[slot]) = (first as u8, last as u8);
        }
        // Loaded as `admit` loads the haystack; a half word's other bytes are zero, which
        // the range 0..=0 takes.
        let load = |bytes: &[u8; 16]| FixedRanges::load(&bytes[..slots]);
        let ((low_first, low_last), (high_first, high_last)) = (load(&low), load(&high));
        Some(FixedRanges {
            low: [low_first, low_last],
            high: [high_first, high_last],
        })
    }

    /// The two words of `bytes` (4 to 16 of them) that `low` and `high` lay out.
    #[inline(always)]
    fn load(bytes: &[u8]) -> (u64, u64) {
        let n = bytes.len();
        if n >= 8 {
            (word(bytes, 0), word(bytes, n - 8))
        } else {
            (half(bytes, 0), half(bytes, n - 4))
        }
    }

    /// Whether `bytes` (as many as the sequence has slots) is taken slot by slot.
    #[inline(always)]
    fn admit(&self, bytes: &[u8]) -> bool {
        let (first, last) = FixedRanges::load(bytes);
        let within = |b: u64, i: usize| {
            b & Self::TOPS == 0
                && ((b | Self::TOPS).wrapping_sub(self.low[i])
                    & (self.high[i] | Self::TOPS).wrapping_sub(b)
                    & Self::TOPS)
                    == Self::TOPS
        };
        within(first, 0) && within(last, 1)
    }
}

/// `^`, a prefix of ASCII classes taken once each, then one ASCII class repeated between
/// `min` and `max` times, and `$` (`^[a-z][a-z0-9_-]{1,63}$`, `^[A-Z][A-Za-z0-9]{0,127}$`):
/// identifiers with a length limit, whose repetition spells out more slots than a
/// [`Sequence`] holds. Every class being ASCII, a character is a byte and a non-ASCII
/// byte matches nothing: a length check and one bit test per byte.
#[derive(Clone, Debug)]
pub(super) struct PrefixedRun {
    /// The class of each leading character.
    prefix: Box<[AsciiSet]>,
    /// The class of every character after them.
    run: AsciiSet,
    /// The fewest characters after the prefix.
    min: u64,
    /// The most, `None` when unbounded.
    max: Option<u64>,
}

impl PrefixedRun {
    /// The longest prefix spelled out.
    const MAX_PREFIX: usize = 16;

    /// The run of `atoms`, or `None` when they are not of its shape: anchored at both
    /// ends, ASCII classes only, every atom but the last taken a fixed number of times.
    pub(super) fn new(atoms: &[Atom], anchored_end: bool) -> Option<PrefixedRun> {
        let (last, leading) = atoms.split_last()?;
        if !anchored_end || !last.class.wide.is_empty() {
            return None;
        }
        let mut prefix = Vec::new();
        for atom in leading {
            let times = usize::try_from(atom.min).ok()?;
            if atom.max != Some(atom.min)
                || !atom.class.wide.is_empty()
                || prefix.len() + times > Self::MAX_PREFIX
            {
                return None;
            }
            prefix.extend(std::iter::repeat_n(
                AsciiSet::ascii(atom.class.ascii),
                times,
            ));
        }
        Some(PrefixedRun {
            prefix: prefix.into_boxed_slice(),
            run: AsciiSet::ascii(last.class.ascii),
            min: last.min,
            max: last.max,
        })
    }

    /// Whether the whole of `haystack` matches.
    pub(super) fn is_match(&self, haystack: &str) -> bool {
        let bytes = haystack.as_bytes();
        let Some(rest) = bytes.len().checked_sub(self.prefix.len()) else {
            return false;
        };
        let rest_len = rest as u64;
        rest_len >= self.min
            && self.max.is_none_or(|max| rest_len <= max)
            && (self.prefix.iter().zip(bytes)).all(|(set, &byte)| set.contains(byte))
            && bytes[self.prefix.len()..]
                .iter()
                .all(|&byte| self.run.contains(byte))
    }
}

/// The code points above U+007F split into ranges that the same slots take, from each
/// atom's wide ranges and the slots it spans: the ranges some slot takes, sorted.
fn partition(wide_slots: &[(&[(u32, u32)], u64)]) -> Box<[(u32, u32, u64)]> {
    let mut cuts: Vec<u32> = (wide_slots.iter())
        .flat_map(|(ranges, _)| ranges.iter())
        .flat_map(|&(first, last)| [first, last.saturating_add(1)])
        .collect();
    cuts.sort_unstable();
    cuts.dedup();
    let taking = |cp: u32| {
        (wide_slots.iter())
            .filter(|(ranges, _)| {
                ranges
                    .iter()
                    .any(|&(first, last)| first <= cp && cp <= last)
            })
            .fold(0, |slots, &(_, spanned)| slots | spanned)
    };
    let mut parts: Vec<(u32, u32, u64)> = Vec::new();
    for pair in cuts.windows(2) {
        let (first, last) = (pair[0], pair[1] - 1);
        let slots = taking(first);
        if slots == 0 {
            continue;
        }
        match parts.last_mut() {
            Some(part) if part.1 + 1 == first && part.2 == slots => part.1 = last,
            _ => parts.push((first, last, slots)),
        }
    }
    parts.into_boxed_slice()
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
        r"^[ \r\n\t\S]+$",
        r"^[^\s]+$",
        r"^.*\w",
        r"^.+$",
        r"^[^a\u00e9]?[\u00e0-\u00ff]{2}.",
        r"^\S*$",
        r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
        r"^[0-9]{2}-[a-d]$",
        r"^[\u00e0-\u00ff]{2}x$",
        r"^.[ab]$",
    ];

    fn is_sequence(source: &str) -> bool {
        matches!(general_matcher(source), Ok(Matcher::Sequence(_)))
    }

    /// Whether the sequence of `source` answers for `haystack` what the automaton does.
    fn agrees_with_the_automaton(
        source: &str,
        haystack: &str,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        let translated = translate(source, Target::Automaton).unwrap().pattern;
        let expected = automaton(&translated).unwrap().is_match(haystack);
        let Ok(Matcher::Sequence(sequence)) = general_matcher(source) else {
            unreachable!()
        };
        proptest::prop_assert_eq!(
            sequence.is_match(haystack),
            expected,
            "{} {:?}",
            source,
            haystack
        );
        Ok(())
    }

    /// Sequences ending in a run of a class that takes all ASCII but a few bytes, whose
    /// run is tested a word at a time ([`super::ExcludedBytes`]), and one that is not.
    const WORD_RUNS: &[&str] = &[
        r"^.+$",
        r"^.*$",
        r"^x.*$",
        r"^[^/]+$",
        r"^a[^\n/]*$",
        r"^[^\s]+$",
    ];

    #[test]
    fn runs_of_all_but_a_few_ascii_bytes_are_tested_by_words() {
        for (source, by_words) in WORD_RUNS.iter().zip([true, true, true, true, true, false]) {
            let Ok(Matcher::Sequence(sequence)) = general_matcher(source) else {
                panic!("{source} is a sequence");
            };
            assert_eq!(sequence.tail_excluded.is_some(), by_words, "{source}");
        }
    }

    proptest::proptest! {
        #[test]
        fn sequences_agree_with_the_automaton(haystack in "[a-dxA-D0-9_.#\\-\u{e9}]{0,11}") {
            for source in SEQUENCES.iter().filter(|s| is_sequence(s)) {
                agrees_with_the_automaton(source, &haystack)?;
            }
        }

        #[test]
        fn word_runs_agree_with_the_automaton(
            haystack in "([a-cx/ ]{0,12}[\n\r\u{e9}\u{2028}\u{2029}]?){0,4}"
        ) {
            for source in WORD_RUNS {
                agrees_with_the_automaton(source, &haystack)?;
            }
        }
    }

    /// Identifier shapes with a length limit too long for a [`super::Sequence`].
    const PREFIXED_RUNS: &[&str] = &[
        r"^[a-z][a-z0-9-_]{1,63}$",
        r"^[A-Z]{2}[0-9]{0,70}$",
        r"^x[a-c]{3,64}$",
        r"^[ab][0-9]{62,64}$",
        r"^-_[A-Da-d]{64,}$",
    ];

    fn prefixed_run(source: &str) -> Option<super::PrefixedRun> {
        match general_matcher(source) {
            Ok(Matcher::PrefixedRun(run)) => Some(*run),
            _ => None,
        }
    }

    proptest::proptest! {
        #[test]
        fn prefixed_runs_agree_with_the_automaton(
            haystack in "[a-dxA-D0-9_\\-\u{e9}]{0,72}",
            prefix in "[a-dxA-D0-9_\\-]{0,3}",
        ) {
            let haystack = prefix + &haystack;
            for source in PREFIXED_RUNS {
                let run = prefixed_run(source).unwrap();
                let translated = translate(source, Target::Automaton).unwrap().pattern;
                let expected = automaton(&translated).unwrap().is_match(&haystack);
                proptest::prop_assert_eq!(run.is_match(&haystack), expected, "{} {:?}", source, haystack);
            }
        }
    }

    #[test]
    fn prefixed_runs_are_only_their_shape_and_check_their_bounds() {
        // Not prefixed runs: a non-ASCII class, no `$`, a leading atom that varies, a
        // prefix longer than spelled out.
        for source in [
            r"^[a-z][a-z\u00e9]{1,63}$",
            r"^[a-z][a-z0-9]{1,63}",
            r"^[a-z]?[a-z0-9]{1,63}$",
            r"^[a-z]{40}[0-9]{40}$",
        ] {
            assert!(prefixed_run(source).is_none(), "{source}");
        }
        let run = prefixed_run(r"^[a-z][a-z0-9-_]{1,63}$").unwrap();
        let name = |len: usize| format!("a{}", "b".repeat(len));
        assert!(!run.is_match(&name(0)) && run.is_match(&name(1)));
        assert!(run.is_match(&name(63)) && !run.is_match(&name(64)));
        assert!(!run.is_match("1abc") && !run.is_match("ab\u{e9}") && !run.is_match(""));
    }

    #[test]
    fn fixed_length_sequences_agree_with_the_automaton_near_their_length() {
        let cases: &[(&str, &[&str])] = &[
            (
                r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
                &[
                    "2025-06-18",
                    "2025-06-1",
                    "2025-06-181",
                    "2025-06-1\u{e9}",
                    "2025-0a-18",
                    "",
                ],
            ),
            (
                r"^[\u00e0-\u00ff]{2}x$",
                &["\u{e0}\u{e9}x", "\u{e9}x", "aax", "\u{e0}\u{e9}xx"],
            ),
            (r"^.[ab]$", &["xa", "\u{e9}b", "\u{e9}", "xab", "x"]),
            // As many bytes as slots, by a non-ASCII character whose bytes a word's range
            // test, unguarded, would take (`\u{e9}` is C3 A9, each at least 0x80 above
            // the range): ranges of a fixed sequence take ASCII bytes only.
            (
                r"^[ -(]{3}[ -)]$",
                &[
                    "\u{e9}  ",
                    "  \u{e9}",
                    "    ",
                    "(((( ",
                    "((((",
                    "\u{e9}\u{e9}",
                ],
            ),
        ];
        for &(source, haystacks) in cases {
            let Ok(Matcher::Sequence(sequence)) = general_matcher(source) else {
                panic!("{source} is a sequence");
            };
            assert!(sequence.fixed, "{source}");
            let translated = translate(source, Target::Automaton).unwrap().pattern;
            let automaton = automaton(&translated).unwrap();
            for haystack in haystacks {
                let expected = automaton.is_match(haystack);
                assert_eq!(
                    sequence.is_match(haystack),
                    expected,
                    "{source} {haystack:?}"
                );
            }
        }
    }

    proptest::proptest! {
        /// Fixed sequences of one range per slot ([`super::FixedRanges`]), against
        /// haystacks that mostly have their length: a match with some bytes replaced,
        /// some of them by non-ASCII characters, range ends or their neighbours.
        #[test]
        fn fixed_ranges_agree_with_the_automaton(
            slots in proptest::collection::vec((0x20u8..0x7f, 0u8..12), 1..=17),
            edits in proptest::collection::vec((0usize..17, 0usize..6), 0..3),
            trim in 0usize..4,
        ) {
            let escape = |b: u8| format!("\\x{b:02x}");
            let ranges: Vec<(u8, u8)> = (slots.iter())
                .map(|&(low, span)| (low, low.saturating_add(span).min(0x7e)))
                .collect();
            let classes = ranges.iter().map(|&(low, high)| {
                format!("[{}-{}]", escape(low), escape(high))
            });
            let source: String = std::iter::once("^".to_owned())
                .chain(classes)
                .chain(std::iter::once("$".to_owned()))
                .collect();
            let Ok(Matcher::Sequence(sequence)) = general_matcher(&source) else {
                panic!("{source} is a sequence");
            };
            proptest::prop_assert_eq!(sequence.ranges.is_some(), (4..=16).contains(&ranges.len()));
            let mut chars: Vec<char> = ranges.iter().map(|&(low, _)| char::from(low)).collect();
            for &(at, how) in &edits {
                let Some(slot) = chars.get_mut(at) else { continue };
                let (low, high) = ranges[at];
                *slot = match how {
                    0 => char::from(high),
                    1 => char::from(low.wrapping_sub(1)),
                    2 => char::from(high.wrapping_add(1)),
                    3 => '\u{e9}',
                    4 => char::from(0),
                    _ => char::from(high.wrapping_add(0x80) & 0x7f),
                };
            }
            let haystack: String =
                chars.iter().skip(trim % 2).take(chars.len() - trim / 2).collect();
            for haystack in [haystack.clone(), chars.iter().collect()] {
                let translated = translate(&source, Target::Automaton).unwrap().pattern;
                let expected = automaton(&translated).unwrap().is_match(&haystack);
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
            r"^[^\s]+$",
            r"^.x$",
            r"^[a-z\u00e9]+x$",
        ] {
            assert!(is_sequence(source), "{source}");
        }
        // Not sequences: unanchored, groups, alternations, Unicode properties, more
        // slots than a word has bits.
        for source in [
            r"[a-z]+$",
            r"^(ab)+$",
            r"^a|b$",
            r"^\p{L}x$",
            r"^[a-z]{40}[0-9]{40}$",
        ] {
            assert!(!is_sequence(source), "{source}");
        }
    }
}
