//! A pattern's full DFA, walked one byte at a time: the warm engine of small patterns.
//!
//! The automaton engine (`regex_automata::meta`) answers a short haystack with about two
//! hundred instructions of setup (a cache taken from a pool, an `Input`, a start state
//! chosen from the look-behind, a strategy, a lazy DFA) before its first byte, which is
//! most of the cost of `pattern` on the short strings schemas match. A [`Table`] is the
//! same pattern determinized in full once: the start state is fixed (every search starts
//! at the beginning of the haystack, where there is nothing behind), so a search is a
//! table lookup per byte and two tests on special states.
//!
//! Only small patterns get one: the determinization and the table are bounded
//! ([`DETERMINIZE_LIMIT`], [`TABLE_LIMIT`]), and a pattern beyond either keeps the
//! automaton engine. The table runs the very syntax the automaton engine runs (the same
//! translated pattern, parsed by the same parser), so the two agree on every haystack;
//! `tests::table_agrees_with_the_automaton` holds them to it.

use regex_automata::dfa::{dense, Automaton as _, StartKind};
use regex_automata::util::primitives::StateID;
use regex_automata::util::start;
use regex_automata::Anchored;

/// The most heap the determinization of one pattern may use, in bytes.
const DETERMINIZE_LIMIT: usize = 256 << 10;

/// The largest table kept for one pattern, in bytes: an ASCII pattern of a few dozen
/// states needs a few kilobytes.
const TABLE_LIMIT: usize = 64 << 10;

/// A pattern's DFA and the state every search starts in.
#[derive(Clone, Debug)]
pub(super) struct Table {
    dfa: dense::DFA<Vec<u32>>,
    /// The start state at the beginning of a haystack.
    start: StateID,
}

impl Table {
    /// The table of a translated pattern, as the engine's parser read it (`hir`), or
    /// `None` when the pattern is not anchored at the start or its table would exceed
    /// the limits (or it needs something a DFA cannot do, such as a Unicode word
    /// boundary, which translated patterns never ask for).
    pub(super) fn new(hir: &regex_syntax::hir::Hir) -> Option<Table> {
        let nfa = super::forward::nfa(hir)?;
        // Only patterns anchored at the start (`^...`, the common case) get a table. An
        // unanchored search needs a prefix matching any code point, whose UTF-8 states
        // make determinizing a hundred times costlier (4 ms for `^a5|a6|a7$`, where a
        // table for an anchored pattern of that size takes about 30 µs).
        if !nfa.is_always_start_anchored() {
            return None;
        }
        let config = dense::Config::new()
            .start_kind(StartKind::Anchored)
            .minimize(false)
            .determinize_size_limit(Some(DETERMINIZE_LIMIT))
            .dfa_size_limit(Some(TABLE_LIMIT));
        let dfa = dense::Builder::new()
            .configure(config)
            .build_from_nfa(&nfa)
            .ok()?;
        let at_start = start::Config::new()
            .anchored(Anchored::Yes)
            .look_behind(None);
        let start = dfa.start_state(&at_start).ok()?;
        Some(Table { dfa, start })
    }

    /// Whether the pattern matches anywhere in `haystack`; `None` when the DFA gave up
    /// (a quit state, which this configuration never has: the caller then asks the
    /// automaton engine).
    #[inline]
    pub(super) fn is_match(&self, haystack: &str) -> Option<bool> {
        let dfa = &self.dfa;
        let mut state = self.start;
        for &byte in haystack.as_bytes() {
            state = dfa.next_state(state, byte);
            if dfa.is_special_state(state) {
                // Matches are reported one byte late: a match state here means a match
                // ended before this byte, which is all `is_match` asks.
                if dfa.is_match_state(state) {
                    return Some(true);
                }
                if dfa.is_dead_state(state) {
                    return Some(false);
                }
                if dfa.is_quit_state(state) {
                    return None;
                }
            }
        }
        Some(dfa.is_match_state(dfa.next_eoi_state(state)))
    }
}

#[cfg(test)]
mod tests {
    use super::super::translate::{translate, Target};
    use super::super::{automaton, Automaton};
    use super::Table;

    /// Patterns of the shapes real schemas use, each anchored at the start and small
    /// enough for a table.
    const PATTERNS: &[&str] = &[
        r"^[a-z][a-z0-9_-]*$",
        r"^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$",
        r"^#[0-9a-fA-F]{6}$",
        r"^(https?|wss?)://[^\s/$.?#].[^\s]*$",
        r"^[^!*,;{}[\]~\n]+$",
        r"^.*\w",
        r"^.+$",
        r"^.*\bword\b",
        r"^.*\Bx",
        r"^(?:ab|cd)+e",
        r"^$",
        r"^",
        r"^(?:x|\n)$",
        r"^\s*\S",
        r"^[\u00e9-\u00ff]{2,3}$",
        r"^.*[\u{10000}-\u{10FFFF}]",
        r"^(?:[a-z]{1,3}\.){2}[a-z]+$",
    ];

    /// The table of a translated pattern, parsed as `Lazy` parses it.
    fn table(translated: &str) -> Option<Table> {
        let config = regex_automata::util::syntax::Config::new().utf8(true);
        Table::new(&regex_automata::util::syntax::parse_with(translated, &config).unwrap())
    }

    fn engines(source: &str) -> (Table, Automaton) {
        let translated = translate(source, Target::Automaton).unwrap().pattern;
        let table = table(&translated);
        assert!(table.is_some(), "{source:?} should get a table");
        (table.unwrap(), automaton(&translated).unwrap())
    }

    proptest::proptest! {
        #[test]
        fn table_agrees_with_the_automaton(
            haystack in "[a-fxwA-F0-9_.,;!#:/ \n\r\t\u{a0}\u{e9}\u{ff}\u{2028}\u{10000}-]{0,10}"
        ) {
            for source in PATTERNS {
                let (table, automaton) = engines(source);
                proptest::prop_assert_eq!(
                    table.is_match(&haystack),
                    Some(automaton.is_match(&haystack)),
                    "{} {:?}", source, haystack
                );
            }
        }
    }

    #[test]
    fn unanchored_patterns_keep_the_automaton() {
        for source in [r"^a5|a6", r"\bword", r"x$", ""] {
            let translated = translate(source, Target::Automaton).unwrap().pattern;
            assert!(table(&translated).is_none(), "{source:?}");
        }
    }

    #[test]
    fn large_patterns_keep_the_automaton() {
        // Unicode letters, counted, determinize into far more than the table limit.
        let translated = translate(r"^\p{L}{1,20}$", Target::Automaton)
            .unwrap()
            .pattern;
        assert!(table(&translated).is_none());
    }
}
