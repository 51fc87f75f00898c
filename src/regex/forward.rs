//! A pattern's forward lazy DFA alone: the first engine a late-built pattern gets.
//!
//! `is_match` needs neither where a match starts nor its groups, yet the automaton engine
//! (`regex_automata::meta`) builds, for every pattern, an NFA with capture states, a
//! reverse NFA, a prefilter, a one-pass DFA and a backtracker, and per thread the caches
//! of all of them: most of a late build's cost (2.6 of the 3.5 million instructions the
//! first pass over jsconfig's instances spends building its patterns). A [`Forward`] is
//! the one part `is_match` runs: an NFA without captures and a lazy DFA over it, searched
//! forward until the earliest match.
//!
//! It answers only when it is sure ([`Forward::is_match`] returns `None` otherwise), and
//! the caller then asks the automaton engine, built on that first need: when the lazy
//! DFA stops at a quit byte, or a match ends inside a character, where the automaton
//! engine would look further for a match on a character boundary. Its cache is bounded
//! ([`super::DFA_CACHE_LIMIT`]) and is cleared when full, never given up on: every search
//! stays linear in the haystack.

use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::nfa::thompson::{self, WhichCaptures, NFA};
use regex_automata::util::pool::Pool;
use regex_automata::util::start;
use regex_automata::{Anchored, Input};
use regex_syntax::hir::Look;
use std::panic::{RefUnwindSafe, UnwindSafe};
use std::sync::Mutex;

/// Makes a thread's cache for the pool.
type MakeCache = Box<dyn Fn() -> Cache + Send + Sync + UnwindSafe + RefUnwindSafe>;

/// A lazy DFA and its per-thread caches.
pub(super) struct Forward {
    dfa: DFA,
    caches: Pool<Cache, MakeCache>,
}

impl Forward {
    /// The lazy DFA of a translated pattern anchored at the start (`^...`, the common
    /// case), as the engine's parser read it (`hir`), or `None` when the pattern is not
    /// anchored or a lazy DFA cannot be built (an NFA beyond the DFA's minimum cache, or
    /// a Unicode word boundary, which translated patterns never ask for).
    pub(super) fn new(hir: &regex_syntax::hir::Hir) -> Option<Forward> {
        // Unanchored patterns keep the automaton engine: its prefilters and reverse
        // searches (a pattern ending in `$` is searched from the end) beat a forward
        // walk over every byte.
        if !hir.properties().look_set_prefix().contains(Look::Start) {
            return None;
        }
        let nfa = nfa(hir)?;
        let config = DFA::config().cache_capacity(super::DFA_CACHE_LIMIT);
        let dfa = DFA::builder().configure(config).build_from_nfa(nfa).ok()?;
        let maker = dfa.clone();
        Some(Forward {
            dfa,
            caches: Pool::new(Box::new(move || maker.create_cache())),
        })
    }

    /// Texts up to this many bytes are searched by [`Forward::walk`], longer ones by the
    /// engine's own search, whose set-up costs more but whose loop costs less per byte
    /// (unrolled, without bounds checks). Walked up to 16 bytes, or whatever the length,
    /// krakend's patterns cost 0.4% and 1.3% more (measured): 8 keeps the keywords
    /// (`commonjs`, `es2017`) and leaves URLs and paths to the engine.
    const SHORT: usize = 8;

    /// Whether the pattern matches anywhere in `haystack`, or `None` when the lazy DFA
    /// cannot say for sure (see the module's documentation).
    pub(super) fn is_match(&self, haystack: &str) -> Option<bool> {
        if haystack.len() > Self::SHORT {
            return self.search(haystack);
        }
        self.walk(&mut self.caches.get(), haystack)
    }

    /// [`Forward::is_match`] of a longer text, by the engine's search.
    #[inline(never)]
    fn search(&self, haystack: &str) -> Option<bool> {
        let input = Input::new(haystack).anchored(Anchored::Yes).earliest(true);
        match self.dfa.try_search_fwd(&mut self.caches.get(), &input) {
            Ok(None) => Some(false),
            Ok(Some(end)) if haystack.is_char_boundary(end.offset()) => Some(true),
            Ok(Some(_)) | Err(_) => None,
        }
    }

    /// [`Forward::is_match`] of a short text: the DFA walked a byte at a time, as
    /// `try_search_fwd` walks it for an anchored, earliest search without a prefilter,
    /// but without its set-up (an `Input`, the start state chosen from the look-behind,
    /// four specialised loops), which was half the cost of a search of the short texts
    /// schemas match (97 of jsconfig's ~160 instructions a search). The cache's progress
    /// counters, which feed only heuristics this configuration leaves off, are not kept.
    #[inline(always)]
    fn walk(&self, cache: &mut Cache, haystack: &str) -> Option<bool> {
        let dfa = &self.dfa;
        // At the start of the text there is nothing behind.
        let at_start = start::Config::new().anchored(Anchored::Yes);
        let mut state = dfa.start_state(cache, &at_start).ok()?;
        for (at, &byte) in haystack.as_bytes().iter().enumerate() {
            state = dfa.next_state(cache, state, byte).ok()?;
            if state.is_tagged() {
                // Matches are reported one byte late: a match state here means a match
                // ended before this byte, which is all `is_match` asks (where that is
                // inside a character, the automaton engine looks further).
                if state.is_match() {
                    return haystack.is_char_boundary(at).then_some(true);
                }
                if state.is_dead() {
                    return Some(false);
                }
                if state.is_quit() {
                    return None;
                }
                // A start state (tagged only with a prefilter, which this DFA has not);
                // `next_state` never returns an unknown one.
            }
        }
        let end = dfa.next_eoi_state(cache, state).ok()?;
        Some(end.is_match())
    }
}

impl Clone for Forward {
    fn clone(&self) -> Self {
        let maker = self.dfa.clone();
        Forward {
            dfa: self.dfa.clone(),
            caches: Pool::new(Box::new(move || maker.create_cache())),
        }
    }
}

impl std::fmt::Debug for Forward {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Forward").finish_non_exhaustive()
    }
}

/// The forward NFA of a translated pattern, without capture states (no engine here
/// reports groups), or `None` if it cannot be built.
///
/// One NFA compiler serves the whole process. A compiler's first pattern with a
/// non-ASCII class allocates its UTF-8 state tables (ten thousand entries, about
/// 420 KB) and dropping them walks them all: some 120,000 instructions and a hundred
/// fresh pages per pattern when each build made a compiler of its own (a late-built
/// pattern paid it in the middle of a validation). Kept, the tables are reset by a
/// version bump. A build that finds the compiler busy (another thread building)
/// makes one of its own rather than wait.
pub(super) fn nfa(hir: &regex_syntax::hir::Hir) -> Option<NFA> {
    static SHARED: Mutex<Option<thompson::Compiler>> = Mutex::new(None);
    let fresh = || {
        let config = thompson::Config::new()
            .which_captures(WhichCaptures::None)
            .nfa_size_limit(None);
        let mut compiler = thompson::Compiler::new();
        compiler.configure(config);
        compiler
    };
    match SHARED.try_lock() {
        Ok(mut shared) => shared.get_or_insert_with(fresh).build_from_hir(hir).ok(),
        // Busy, or poisoned by a panic in a build (the compiler may be half-way): a
        // compiler for this build alone.
        Err(_) => fresh().build_from_hir(hir).ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::automaton;
    use super::super::translate::{translate, Target};
    use super::Forward;

    /// Anchored patterns, with look-around assertions, non-ASCII classes and patterns
    /// that match the empty string.
    const PATTERNS: &[&str] = &[
        r"^[a-z][a-z0-9_-]*$",
        r"^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$",
        r"^(https?|wss?)://[^\s/$.?#].[^\s]*$",
        r"^.*\bword\b",
        r"^.*\Bx",
        r"^x$",
        r"^$",
        r"^",
        r"^a|^b",
        r"^.*[\u00e9-\u00ff]{2,3}",
        r"^.*[\u{10000}-\u{10FFFF}]",
        r"^(?:[a-z]{1,3}\.){2}[a-z]+",
        r"^\s*\S$",
        r"^(?:a|b)*?c",
        r"^(?:\u00e9|\u00ff)+$",
    ];

    fn forward(translated: &str) -> Forward {
        let config = regex_automata::util::syntax::Config::new().utf8(true);
        let hir = regex_automata::util::syntax::parse_with(translated, &config).unwrap();
        Forward::new(&hir).expect("an anchored pattern gets a lazy DFA")
    }

    proptest::proptest! {
        #[test]
        fn forward_agrees_with_the_automaton(
            haystack in "[a-fxwA-F0-9_.,;!#:/ \n\r\t\u{a0}\u{e9}\u{ff}\u{2028}\u{10000}-]{0,10}"
        ) {
            for source in PATTERNS {
                let translated = translate(source, Target::Automaton).unwrap().pattern;
                let expected = automaton(&translated).unwrap().is_match(&haystack);
                let found = forward(&translated).is_match(&haystack);
                // It may decline to answer, never answer wrong.
                proptest::prop_assert!(
                    found.is_none_or(|found| found == expected),
                    "{} {:?}: {:?}, automaton {}", source, haystack, found, expected
                );
            }
        }
    }

    #[test]
    fn forward_answers_the_common_searches() {
        let forward = forward(
            &translate(r"^[a-z]+(-[a-z0-9]+)*$", Target::Automaton)
                .unwrap()
                .pattern,
        );
        assert_eq!(forward.is_match("kebab-case-2"), Some(true));
        assert_eq!(forward.is_match("Kebab"), Some(false));
        assert_eq!(forward.clone().is_match("é"), Some(false));
    }

    #[test]
    fn unanchored_patterns_keep_the_automaton() {
        for source in [r"x$", r"\bword", r"^a|b", ""] {
            let translated = translate(source, Target::Automaton).unwrap().pattern;
            let config = regex_automata::util::syntax::Config::new().utf8(true);
            let hir = regex_automata::util::syntax::parse_with(&translated, &config).unwrap();
            assert!(Forward::new(&hir).is_none(), "{source:?}");
        }
    }
}
