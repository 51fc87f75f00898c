//! ECMA-262 regular expressions for the `pattern` and `patternProperties`
//! keywords.
//!
//! JSON Schema says patterns are ECMA-262 regular expressions with Unicode
//! (`u` flag) semantics, but the Rust engines speak a different dialect: in
//! the `regex` crate `\d`, `\w`, `\s` and `\b` are Unicode-aware, escapes and
//! class syntax differ, and backreferences and lookarounds do not exist. This
//! module owns that gap. [`Pattern::new`] validates an ECMA pattern and
//! translates it (see the `translate` submodule) into an explicit
//! equivalent, then picks the cheapest matcher that is exact for it: plain
//! string operations for literal patterns, the linear-time engine of the `regex`
//! crate (`regex_automata`, configured directly) for everything it can express,
//! a conjunction of such automata for leading lookaheads, and a backtracking
//! engine of our own (the `backtrack` submodule) only for the other backreferences
//! and lookarounds. The automata run under size limits; the backtracking engine
//! counts its steps, which the validation's step budget pays ([`Pattern::check`]),
//! and stops at a limit of its own, so a hostile schema can neither exhaust memory
//! when compiled nor make matching run away.

mod backtrack;
mod forward;
mod lookahead;
mod sequence;
mod syntax;
mod table;
mod translate;

use crate::names::same_bytes;
use std::fmt;
use std::sync::atomic::Ordering;

use backtrack::{Backtracker, Outcome};
use forward::Forward;
use sequence::{PrefixedRun, Sequence};
use table::Table;
use translate::{translate, Shape, Target, Translation};

/// The linear-time engine (see [`automaton`]).
type Automaton = ::regex_automata::meta::Regex;

/// Upper bound on the compiled size of one automaton (in bytes, as counted by
/// the `regex` crate). ASCII patterns need kilobytes, but each copy of a
/// Unicode class costs tens of kilobytes, so a realistic pattern such as
/// `^(?:[\p{L}\p{N}]{1,64}\.)*\p{L}{2,63}$` needs about 5 MiB. The limit
/// stops patterns such as `(\p{L}{100}){100}` from taking seconds and
/// hundreds of megabytes to compile: reaching it costs about 50 ms.
const AUTOMATON_SIZE_LIMIT: usize = 8 << 20;

/// Upper bound on the lazy DFA cache of one automaton, in bytes. When the
/// cache fills, the `regex` crate falls back to slower but still linear-time
/// engines, so this bounds memory without affecting results.
const DFA_CACHE_LIMIT: usize = 2 << 20;

/// The most steps the backtracking engine may take in one check (an instruction or an
/// alternative taken back each; a few nanoseconds). Beyond it the check is stopped
/// ([`Pattern::check`]): a catastrophic pattern such as `(a*)*\1b` costs bounded time
/// per call, and the validation's step budget pays for what it took.
const BACKTRACK_STEPS: u32 = 1_000_000;

/// The most steps one [`Pattern::check`] may take on the backtracking engine:
/// [`BACKTRACK_STEPS`], or less where the whole validation may take fewer (its step
/// budget), since a check that took more would end the validation anyway.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct StepLimit(u32);

impl StepLimit {
    /// The limit for validations of at most `budget` steps.
    pub(crate) fn within(budget: u64) -> StepLimit {
        StepLimit(u32::try_from(budget).map_or(BACKTRACK_STEPS, |b| b.min(BACKTRACK_STEPS)))
    }
}

impl Default for StepLimit {
    fn default() -> StepLimit {
        StepLimit(BACKTRACK_STEPS)
    }
}

/// The work [`Pattern::check`] reports for a check that was stopped before a verdict:
/// more than any budget can pay, yet far enough from `usize::MAX` that adding the
/// small counts of a loop to it cannot overflow.
pub(crate) const STOPPED: usize = usize::MAX / 2;

/// A compiled ECMA-262 pattern.
///
/// Safe to share between threads. Cloning is cheap for the automaton engine
/// (reference counted) but copies the program of the backtracking engine.
#[derive(Debug, Clone)]
pub(crate) struct Pattern {
    source: Box<str>,
    /// The bytes a match can start with, when the pattern is anchored at the start
    /// by a literal (`^x-`) or by an ASCII class before an automaton
    /// (`^[Ee][Ss]2017(...)?$`): a haystack that starts otherwise is answered
    /// inline, without a call (most property names against a `patternProperties` of
    /// `^x-`, most branches of an `anyOf` of such patterns).
    first: Option<FirstBytes>,
    matcher: Matcher,
}

/// A set of bytes, one bit each, in 64-bit words: a bit test per byte, where a
/// shift of a 128-bit set takes a dozen instructions.
#[derive(Debug, Clone, Copy)]
struct ByteSet<const WORDS: usize>([u64; WORDS]);

/// A set of ASCII characters (bit `c` for character `c`).
type AsciiSet = ByteSet<2>;

/// The bytes a match can start with ([`Pattern::first`]).
type FirstBytes = ByteSet<4>;

impl<const WORDS: usize> ByteSet<WORDS> {
    /// The set of the ASCII characters in `set` (bit `c` for character `c`).
    fn ascii(set: u128) -> Self {
        let mut words = [0; WORDS];
        words[0] = set as u64;
        words[1] = (set >> 64) as u64;
        ByteSet(words)
    }

    fn byte(byte: u8) -> Self {
        let mut words = [0; WORDS];
        if let Some(word) = words.get_mut(usize::from(byte >> 6)) {
            *word = 1 << (byte & 63);
        }
        ByteSet(words)
    }

    /// Whether `byte` is in the set.
    #[inline(always)]
    fn contains(&self, byte: u8) -> bool {
        (self.0.get(usize::from(byte >> 6))).is_some_and(|word| word >> (byte & 63) & 1 == 1)
    }

    /// Whether `haystack` starts with a byte of the set (an empty one does not).
    #[inline(always)]
    fn admit(&self, haystack: &str) -> bool {
        (haystack.as_bytes().first()).is_some_and(|&byte| self.contains(byte))
    }
}

/// The engine chosen for one pattern, from cheapest to most expensive.
#[derive(Debug, Clone)]
enum Matcher {
    /// The empty pattern (or a bare `^` or `$`, or `X*` unanchored), which
    /// matches everything.
    Always,
    /// An unanchored literal: `abc`.
    Contains(Box<str>),
    /// A literal anchored at the start: `^abc`.
    StartsWith(Box<str>),
    /// A literal anchored at the end: `abc$`.
    EndsWith(Box<str>),
    /// A literal anchored at both ends: `^abc$`.
    Equals(Box<str>),
    /// `^X` for an atom `X` matching a set of ASCII characters (`^[@$_#]`).
    FirstIn(AsciiSet),
    /// `^X{min,max}$` (or `^X+$`, ...) for an atom `X` matching a set of ASCII
    /// characters (`^[A-Za-z0-9_-]+$`, the commonest shape of a pattern in
    /// tool schemas): a length check and one bit test per byte, no automaton.
    AsciiRun {
        set: AsciiSet,
        min: u64,
        max: Option<u64>,
    },
    /// `^`, a few ASCII classes once each, one ASCII class repeated, `$`
    /// (`^[a-z][a-z0-9_-]{1,63}$`): a [`Sequence`] whose repetition spells out more
    /// slots than it holds, checked as a length and a bit test per byte.
    PrefixedRun(Box<PrefixedRun>),
    /// `^` and a sequence of classes, each maybe repeated, maybe `$`
    /// (`^[A-Z]{2}[0-9]{1,4}$`, `^[^\s]+$`): a bit-parallel walk, no automaton.
    Sequence(Box<Sequence>),
    /// `^X{min,max}$` for an atom `X` matching one code point, run as
    /// `^X*$` (given here) plus a count of code points. Keeps patterns like
    /// `^[\p{L}\p{N}]{1,255}$` small; see `translate::CountedRun`.
    CountedRun {
        run: Automaton,
        min: u64,
        max: Option<u64>,
    },
    /// The general case: a finite automaton, linear in the haystack.
    Automaton(Automaton),
    /// The general case, built on first use (see [`Lazy`]).
    Lazy(Box<Lazy>),
    /// `^(?=A)(?=B)C`: every part matches (see the `lookahead` submodule).
    AllOf(Box<[Matcher]>),
    /// Patterns with backreferences or lookarounds, run by the backtracking engine
    /// under its step limit.
    Backtracking(Box<Backtracker>),
}

impl Pattern {
    /// Compiles an ECMA-262 pattern.
    ///
    /// Fails for a pattern that is not valid ECMA-262 (such as `[`, `(?<` or
    /// `a{2,1}`), for a Unicode property the engine does not know, for a
    /// pattern whose compiled form exceeds the size limit, and for a pattern with
    /// lookarounds or backreferences whose nested counted repetitions ask for more
    /// than [`backtrack::MAX_REPEATS`] iterations.
    pub(crate) fn new(source: &str) -> Result<Pattern, PatternError> {
        let (matcher, first_in) = match literal_matcher(source).or_else(|| conjunction(source)) {
            Some(matcher) => (matcher, None),
            None => general_pattern(source)?,
        };
        let first = match &matcher {
            Matcher::StartsWith(literal) | Matcher::Equals(literal) => {
                literal.as_bytes().first().copied().map(FirstBytes::byte)
            }
            // The other shapes test the first byte as cheaply themselves; the
            // backtracking engine is left to itself.
            Matcher::Automaton(_) | Matcher::Lazy(_) => first_in.map(FirstBytes::ascii),
            _ => None,
        };
        Ok(Pattern {
            source: source.into(),
            first,
            matcher,
        })
    }

    /// Whether the pattern matches anywhere in `haystack`, like ECMA's
    /// `RegExp.prototype.test` (patterns are not implicitly anchored).
    ///
    /// Never panics. When the backtracking engine stops at its step limit, the
    /// answer is `false`: a validator must not accept an instance it could not
    /// check. Where the work is paid for, [`Pattern::check`] says so instead.
    #[inline]
    pub(crate) fn is_match(&self, haystack: &str) -> bool {
        self.check(haystack, StepLimit::default()).0
    }

    /// Whether the pattern matches anywhere in `haystack`, and the steps the
    /// backtracking engine took (none for the others, whose work is linear in the
    /// haystack: the caller charges its length); [`STOPPED`] (and `false`) when that
    /// engine stopped at `limit`, which no budget can pay, so the validation stops too.
    #[inline]
    pub(crate) fn check(&self, haystack: &str, limit: StepLimit) -> (bool, usize) {
        // The commonest `patternProperties` (`^[@$_#]`, `^x-`'s first byte), tried on
        // every key of an object: a bit test where the check is inlined, no call.
        if let Matcher::FirstIn(set) = &self.matcher {
            return (set.admit(haystack), 0);
        }
        if let Some(first) = &self.first {
            if !first.admit(haystack) {
                return (false, 0);
            }
        }
        match &self.matcher {
            Matcher::Backtracking(engine) => match engine.run(haystack, limit.0) {
                (Outcome::Match, steps) => (true, steps as usize),
                (Outcome::NoMatch, steps) => (false, steps as usize),
                (Outcome::Stopped, _) => (false, STOPPED),
            },
            matcher => (matcher.is_match(haystack), 0),
        }
    }

    /// Whether checks run on the backtracking engine, whose steps
    /// [`Pattern::check`] reports (up to a million a check).
    pub(crate) fn backtracks(&self) -> bool {
        matches!(self.matcher, Matcher::Backtracking(_))
    }

    /// Whether a check may read the whole text, however long: `false` where it reads at
    /// most a number of bytes the pattern fixes. So for a literal anchored at the start
    /// or the end, a first byte, an ASCII run with a greatest length (its length tested
    /// first), and a pattern built late whose matches start at the start and have a
    /// greatest length (`^[Ee][Ss]2017(\.[Ii][Nn][Tt][Ll])?$`): each of its engines
    /// searches from the start only and stops at the first byte no match can take.
    pub(crate) fn reads_whole_text(&self) -> bool {
        match &self.matcher {
            Matcher::Always
            | Matcher::StartsWith(_)
            | Matcher::EndsWith(_)
            | Matcher::Equals(_)
            | Matcher::FirstIn(_)
            | Matcher::AsciiRun { max: Some(_), .. } => false,
            Matcher::Lazy(lazy) => !lazy.reads_a_bounded_start(),
            Matcher::Contains(_)
            | Matcher::AsciiRun { max: None, .. }
            | Matcher::PrefixedRun(_)
            | Matcher::Sequence(_)
            | Matcher::CountedRun { .. }
            | Matcher::Automaton(_)
            | Matcher::AllOf(_)
            | Matcher::Backtracking(_) => true,
        }
    }

    /// The pattern as written in the schema.
    pub(crate) fn as_str(&self) -> &str {
        &self.source
    }
}

impl Matcher {
    fn is_match(&self, haystack: &str) -> bool {
        match self {
            Self::Always => true,
            Self::Contains(literal) => haystack.contains(&**literal),
            // Short literals (`^x-`) are compared in words, without a call to `memcmp`.
            Self::StartsWith(literal) => haystack
                .as_bytes()
                .get(..literal.len())
                .is_some_and(|start| same_bytes(start, literal.as_bytes())),
            Self::EndsWith(literal) => haystack
                .len()
                .checked_sub(literal.len())
                .is_some_and(|at| same_bytes(&haystack.as_bytes()[at..], literal.as_bytes())),
            Self::Equals(literal) => same_bytes(haystack.as_bytes(), literal.as_bytes()),
            Self::FirstIn(set) => set.admit(haystack),
            Self::AsciiRun { set, min, max } => {
                let len = u64::try_from(haystack.len()).unwrap_or(u64::MAX);
                // A byte of a non-ASCII character is 0x80 or above: outside the set.
                len >= *min
                    && max.is_none_or(|max| len <= max)
                    && haystack.bytes().all(|b| set.contains(b))
            }
            Self::CountedRun { run, min, max } => {
                // Every code point takes at least one byte: a cheap early
                // rejection before scanning.
                let bytes = u64::try_from(haystack.len()).unwrap_or(u64::MAX);
                if bytes < *min {
                    return false;
                }
                let count = u64::try_from(haystack.chars().count()).unwrap_or(u64::MAX);
                let within_max = match max {
                    Some(max) => count <= *max,
                    None => true,
                };
                count >= *min && within_max && run.is_match(haystack)
            }
            Self::Sequence(sequence) => sequence.is_match(haystack),
            Self::PrefixedRun(run) => run.is_match(haystack),
            Self::Automaton(regex) => regex.is_match(haystack),
            Self::Lazy(lazy) => lazy.is_match(haystack),
            Self::AllOf(parts) => parts.iter().all(|part| part.is_match(haystack)),
            Self::Backtracking(engine) => engine.run(haystack, BACKTRACK_STEPS).0 == Outcome::Match,
        }
    }
}

/// Whether `source` is a valid ECMA-262 pattern (its Unicode properties included),
/// decided by the translator alone: linear in its length, no engine built.
pub(crate) fn is_valid(source: &str) -> bool {
    // The backtracking engine's recording expands properties, so unknown names fail.
    literal_matcher(source).is_some() || translate(source, Target::Backtracking).is_ok()
}

/// The conjunction of a pattern's leading lookaheads and rest, when it has that shape
/// and every part runs without backtracking (see the `lookahead` submodule).
fn conjunction(source: &str) -> Option<Matcher> {
    let parts = lookahead::split(source)?
        .iter()
        .map(|part| match literal_matcher(part) {
            Some(matcher) => Some(matcher),
            None => general_matcher(part)
                .ok()
                .filter(|matcher| !matches!(matcher, Matcher::Backtracking(_))),
        })
        .collect::<Option<Vec<Matcher>>>()?;
    Some(Matcher::AllOf(parts.into_boxed_slice()))
}

/// Recognises a pattern that is a literal, optionally anchored with a
/// leading `^` and/or a trailing `$`, and returns a string-operation matcher
/// for it. Such patterns are common in schemas and these checks are several
/// times faster than entering a regex engine.
///
/// Escaped ASCII punctuation (`\.`, `\/`) counts as literal; any other
/// escape or metacharacter makes the pattern go to the general path, as do
/// `{`, `}` and `]` even though they can be literals.
fn literal_matcher(source: &str) -> Option<Matcher> {
    let (anchored_start, rest) = match source.strip_prefix('^') {
        Some(rest) => (true, rest),
        None => (false, source),
    };
    let mut literal = String::with_capacity(rest.len());
    let mut anchored_end = false;
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(escaped) if escaped.is_ascii_punctuation() => literal.push(escaped),
                _ => return None,
            },
            '$' if chars.as_str().is_empty() => anchored_end = true,
            '^' | '$' | '.' | '|' | '?' | '*' | '+' | '(' | ')' | '[' | ']' | '{' | '}' => {
                return None
            }
            _ => literal.push(c),
        }
    }
    let literal = literal.into_boxed_str();
    Some(match (anchored_start, anchored_end) {
        (true, true) => Matcher::Equals(literal),
        _ if literal.is_empty() => Matcher::Always,
        (true, false) => Matcher::StartsWith(literal),
        (false, true) => Matcher::EndsWith(literal),
        (false, false) => Matcher::Contains(literal),
    })
}

/// Translates and compiles a pattern that is not a plain literal.
fn general_matcher(source: &str) -> Result<Matcher, PatternError> {
    general_pattern(source).map(|(matcher, _)| matcher)
}

/// [`general_matcher`], with the ASCII characters a match must start with when the
/// pattern says so (the first of [`Translation::prefix`]).
fn general_pattern(source: &str) -> Result<(Matcher, Option<u128>), PatternError> {
    let translation = translate(source, Target::Automaton)?;
    let first_in = translation.prefix.first().copied();
    shaped_matcher(source, translation).map(|matcher| (matcher, first_in))
}

/// The matcher of a pattern from its translation for the automaton.
fn shaped_matcher(source: &str, mut translation: Translation) -> Result<Matcher, PatternError> {
    if translation.needs_backtracking {
        // Translate again: the backtracking engine needs every construct recorded.
        let translation = translate(source, Target::Backtracking)?;
        let syntax = (translation.syntax.as_ref())
            .ok_or_else(|| PatternError::new("pattern could not be recorded"))?;
        return Backtracker::new(syntax).map(|engine| Matcher::Backtracking(Box::new(engine)));
    }
    match translation.shape.take() {
        Some(Shape::CountedRun(run)) => {
            if let Some(set) = run.ascii {
                return Ok(Matcher::AsciiRun {
                    set: AsciiSet::ascii(set),
                    min: run.min,
                    max: run.max,
                });
            }
            return Ok(Matcher::CountedRun {
                run: automaton(&format!("^{}*$", run.atom))?,
                min: run.min,
                max: run.max,
            });
        }
        Some(Shape::FirstIn(set)) => return Ok(Matcher::FirstIn(AsciiSet::ascii(set))),
        Some(Shape::Always) => return Ok(Matcher::Always),
        Some(Shape::Sequence(atoms, anchored_end)) => {
            if let Some(sequence) = Sequence::new(&atoms, anchored_end) {
                return Ok(Matcher::Sequence(Box::new(sequence)));
            }
            if let Some(run) = PrefixedRun::new(&atoms, anchored_end) {
                return Ok(Matcher::PrefixedRun(Box::new(run)));
            }
        }
        None => {}
    }
    if Lazy::may_wait(&translation) {
        return Lazy::new(translation).map(|lazy| Matcher::Lazy(Box::new(lazy)));
    }
    automaton(&translation.pattern).map(Matcher::Automaton)
}

/// An automaton built the first time a value needs it, and a [`Table`] once the
/// pattern has proved hot. Building an automaton (its NFA, the engine's strategy) is
/// most of what a pattern costs to compile (86% of compiling a schema of 180 date-like
/// patterns), and many patterns of a schema never meet a value.
///
/// A table answers a short haystack in a fraction of the automaton's time, but
/// determinizing costs about as much as a few thousand searches (1.2 million
/// instructions for a typical pattern of jsconfig's, which spells its keywords
/// case-insensitively): a pattern gets one after [`Lazy::TABLE_AFTER`] searches, when
/// it is sure to repay it.
///
/// Only patterns whose build cannot fail wait, so that a bad pattern is still an error
/// when the schema compiles: their syntax is checked now (by the engine's own parser),
/// they name no Unicode property (whose names only the engine knows), and their counted
/// repetitions and length keep the automaton far below the size limit, which the late
/// build therefore does without.
pub(crate) struct Lazy {
    /// The translated pattern.
    pattern: Box<str>,
    /// The pattern as the engine's parser read it when the schema compiled (to check
    /// its syntax): the automaton and the table are built from it, so that the first
    /// search does not parse the pattern again (a third of the late build's cost).
    hir: ::regex_syntax::hir::Hir,
    /// The ASCII characters each of a match's first bytes must be one of
    /// ([`Translation::prefix`]), as pairs of 64-bit words: a haystack that does not
    /// start so is refused without a search (an `anyOf` of `^[Ee][Ss]2017...`,
    /// `^[Ee][Ss]2018...` patterns).
    prefix: Box<[AsciiSet]>,
    /// The engine of the first searches (`None` inside if it cannot be built).
    forward: std::sync::OnceLock<Option<Forward>>,
    /// The automaton engine, for the searches [`Forward`] cannot answer. `None` inside
    /// if the build failed, which the checks of [`Lazy::new`] rule out: then nothing
    /// matches, as when the backtracking engine gives up.
    automaton: std::sync::OnceLock<Option<Automaton>>,
    /// `None` inside when the pattern is too large for a table (or not anchored).
    table: std::sync::OnceLock<Option<Table>>,
    /// Searches so far, until the table is built. Counted with a plain load and store:
    /// two threads may count one search, which only delays the table.
    searches: std::sync::atomic::AtomicU32,
}

impl Clone for Lazy {
    fn clone(&self) -> Self {
        Lazy {
            pattern: self.pattern.clone(),
            hir: self.hir.clone(),
            prefix: self.prefix.clone(),
            forward: self.forward.clone(),
            automaton: self.automaton.clone(),
            table: self.table.clone(),
            searches: self.searches.load(Ordering::Relaxed).into(),
        }
    }
}

impl Lazy {
    /// The longest translated pattern that may wait.
    const MAX_LEN: usize = 4096;
    /// The most copies its counted repetitions may ask for ([`Translation::weight`]).
    const MAX_WEIGHT: u64 = 4096;
    /// Searches by the automaton before a table is built, per byte of the translated
    /// pattern (a proxy for the cost of determinizing it).
    const TABLE_AFTER: u32 = 32;

    /// Whether every match starts at the start of the text and is at most some number
    /// of bytes long (see [`Pattern::reads_whole_text`]).
    fn reads_a_bounded_start(&self) -> bool {
        let properties = self.hir.properties();
        properties
            .look_set_prefix()
            .contains(::regex_syntax::hir::Look::Start)
            && properties.maximum_len().is_some()
    }

    /// Whether the automaton of `translation` may be built late.
    fn may_wait(translation: &Translation) -> bool {
        !translation.has_property
            && translation.weight <= Self::MAX_WEIGHT
            && translation.pattern.len() <= Self::MAX_LEN
    }

    /// A lazy automaton for a translated pattern, whose syntax is checked now: its tree
    /// is built from the tokens the translator recorded, or else parsed from its text.
    fn new(translation: Translation) -> Result<Lazy, PatternError> {
        let Translation {
            pattern,
            prefix,
            syntax,
            ..
        } = translation;
        let parse = || {
            let config = ::regex_automata::util::syntax::Config::new().utf8(true);
            ::regex_automata::util::syntax::parse_with(&pattern, &config)
                .map_err(|error| engine_error(&error.to_string()))
        };
        let hir = match syntax.as_ref().and_then(syntax::Syntax::hir) {
            // Builds with debug assertions (tests, fuzzing) hold every built tree to the
            // parsed one.
            Some(hir) => {
                debug_assert_eq!(Ok(&hir), parse().as_ref(), "{pattern:?}");
                hir
            }
            None => parse()?,
        };
        Ok(Lazy {
            pattern: pattern.into(),
            hir,
            prefix: prefix.iter().map(|&set| AsciiSet::ascii(set)).collect(),
            forward: std::sync::OnceLock::new(),
            automaton: std::sync::OnceLock::new(),
            table: std::sync::OnceLock::new(),
            searches: 0.into(),
        })
    }

    fn is_match(&self, haystack: &str) -> bool {
        let bytes = haystack.as_bytes();
        let starts_so = bytes.len() >= self.prefix.len()
            && (self.prefix.iter().zip(bytes)).all(|(set, &b)| set.contains(b));
        if !starts_so {
            return false;
        }
        let table = match self.table.get() {
            Some(table) => table.as_ref(),
            None => {
                let searches = self.searches.load(Ordering::Relaxed);
                self.searches.store(searches + 1, Ordering::Relaxed);
                match searches >= Self::TABLE_AFTER * self.pattern.len() as u32 {
                    true => (self.table).get_or_init(|| Table::new(&self.hir)).as_ref(),
                    false => None,
                }
            }
        };
        // A table never gives up as configured; should it, the automaton answers.
        if let Some(found) = table.and_then(|table| table.is_match(haystack)) {
            return found;
        }
        let forward = self.forward.get_or_init(|| Forward::new(&self.hir));
        if let Some(found) = forward.as_ref().and_then(|f| f.is_match(haystack)) {
            return found;
        }
        let automaton = self.automaton.get_or_init(|| {
            let config = automaton_config().nfa_size_limit(None);
            Automaton::builder()
                .configure(config)
                .build_from_hir(&self.hir)
                .ok()
        });
        automaton.as_ref().is_some_and(|a| a.is_match(haystack))
    }
}

impl std::fmt::Debug for Lazy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lazy")
            .field("pattern", &self.pattern)
            .finish()
    }
}

/// Compiles a translated pattern into the automaton engine (the `regex` crate's own
/// engine, `regex_automata::meta`), under the limits.
///
/// Configured by hand for one reason: with the crate's default features, the engine
/// would also build a full DFA for every small pattern, which dominated schema
/// compilation (45% of it for a schema of 200 patterns) and buys little on the short
/// strings schemas match; the lazy DFA serves instead.
fn automaton(pattern: &str) -> Result<Automaton, PatternError> {
    let config = automaton_config().nfa_size_limit(Some(AUTOMATON_SIZE_LIMIT));
    Automaton::builder()
        .configure(config)
        .syntax(::regex_automata::util::syntax::Config::new().utf8(true))
        .build(pattern)
        .map_err(|error| match error.size_limit() {
            Some(limit) => too_large(limit),
            // The translator only emits valid syntax, so what remains is a
            // Unicode property the crate does not know.
            None => engine_error(&match error.syntax_error() {
                Some(syntax) => syntax.to_string(),
                None => error.to_string(),
            }),
        })
}

/// The automaton engine's configuration (see [`automaton`]), but for the size limit.
fn automaton_config() -> ::regex_automata::meta::Config {
    Automaton::config()
        .match_kind(::regex_automata::MatchKind::LeftmostFirst)
        .utf8_empty(true)
        .hybrid_cache_capacity(DFA_CACHE_LIMIT)
        .dfa(false)
}

/// The automaton engine's complaint about a translated pattern, as a [`PatternError`]:
/// its message quotes the translated pattern, which would only confuse, so only its
/// final line, which says what is wrong, is kept.
fn engine_error(message: &str) -> PatternError {
    let reason = message.lines().last().unwrap_or_default();
    PatternError::new(lowercase_first(reason.trim_start_matches("error: ")))
}

fn too_large(limit: usize) -> PatternError {
    PatternError::new(format!(
        "pattern is too large: its compiled form exceeds the limit of {limit} bytes"
    ))
}

fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_lowercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Why a pattern could not be compiled. The message is lowercase and says
/// what is wrong, with a position (in code points) where one is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PatternError {
    message: String,
}

impl PatternError {
    fn new(message: impl Into<String>) -> PatternError {
        PatternError {
            message: message.into(),
        }
    }
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PatternError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(source: &str) -> Pattern {
        match Pattern::new(source) {
            Ok(pattern) => pattern,
            Err(error) => panic!("{source:?} should compile: {error}"),
        }
    }

    fn matches(source: &str, haystack: &str) -> bool {
        pattern(source).is_match(haystack)
    }

    /// Compiles `source` for the backtracking engine, whatever it holds.
    fn backtracker(source: &str) -> Backtracker {
        let translation = translate(source, Target::Backtracking).unwrap();
        Backtracker::new(translation.syntax.as_ref().unwrap()).unwrap()
    }

    /// Compiles through the general path only, bypassing literal fast paths.
    fn general(source: &str) -> Pattern {
        match general_matcher(source) {
            Ok(matcher) => Pattern {
                source: source.into(),
                first: None,
                matcher,
            },
            Err(error) => panic!("{source:?} should compile: {error}"),
        }
    }

    #[test]
    fn pattern_is_send_sync_clone_debug() {
        fn check<T: Send + Sync + Clone + fmt::Debug>() {}
        check::<Pattern>();
        check::<PatternError>();
    }

    #[test]
    fn search_is_unanchored() {
        assert!(matches("a+", "xxaayy"));
        assert!(matches("^a*$", "aaa"));
        assert!(!matches("^a*$", "abc"));
        assert!(matches("[0-9]{2,}", "a31b"));
        assert!(!matches("[0-9]{2,}", "answer 1"));
    }

    #[test]
    fn dollar_does_not_match_before_trailing_newline() {
        assert!(matches("^abc$", "abc"));
        assert!(!matches("^abc$", "abc\n"));
        assert!(!matches("^a.c$", "abc\n"));
    }

    #[test]
    fn digit_class_is_ascii_only() {
        assert!(matches(r"^\d$", "0"));
        assert!(!matches(r"^\d$", "\u{07C0}")); // NKO DIGIT ZERO
        assert!(!matches(r"^\d+$", "\u{09EA}\u{09E8}")); // Bengali digits
        assert!(matches(r"^\D$", "\u{07C0}"));
        assert!(!matches(r"^\D$", "5"));
        assert!(matches(r"^[\d]+$", "123"));
        assert!(!matches(r"^[\d]+$", "\u{0661}"));
        assert!(matches(r"^[^\d]$", "\u{0661}"));
        assert!(matches(r"^\p{digit}+$", "\u{09EA}\u{09E8}"));
    }

    #[test]
    fn word_class_and_boundary_are_ascii_only() {
        assert!(matches(r"^\w$", "a"));
        assert!(matches(r"^\w+$", "Az09_"));
        assert!(!matches(r"^\w$", "\u{E9}"));
        assert!(matches(r"^\W$", "\u{E9}"));
        assert!(!matches(r"\wcole", "l'\u{E9}cole"));
        assert!(matches(r"\bcole", "l'\u{E9}cole"));
        assert!(!matches(r"\Bcole", "l'\u{E9}cole"));
        assert!(matches(r"\Bcole", "ecole"));
        assert!(matches(r"a\b", "a-"));
        assert!(!matches(r"a\b", "ab"));
    }

    #[test]
    fn space_class_is_ecma_whitespace() {
        for space in [
            " ", "\t", "\n", "\u{0B}", "\u{0C}", "\r", "\u{A0}", "\u{1680}", "\u{2003}",
            "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}", "\u{FEFF}",
        ] {
            assert!(matches(r"^\s$", space), "{space:?} is whitespace");
            assert!(!matches(r"^\S$", space), "{space:?} is whitespace");
            assert!(!matches(r"^[^\s]$", space), "{space:?} is whitespace");
        }
        for other in ["a", "\u{01}", "\u{2013}", "\u{180E}", "\u{200B}"] {
            assert!(!matches(r"^\s$", other), "{other:?} is not whitespace");
            assert!(matches(r"^\S$", other), "{other:?} is not whitespace");
        }
        assert!(matches(r"^[\s\d]+$", "1 2\u{FEFF}3"));
    }

    #[test]
    fn dot_excludes_only_line_terminators() {
        assert!(matches("^.$", "\u{1F409}"));
        assert!(matches("^.$", "\u{85}"));
        for terminator in ["\n", "\r", "\u{2028}", "\u{2029}"] {
            assert!(!matches("^.$", terminator));
        }
    }

    #[test]
    fn character_escapes() {
        assert!(matches(r"^\t$", "\t"));
        assert!(!matches(r"^\t$", "\\t"));
        assert!(matches(r"^\cC$", "\u{03}"));
        assert!(matches(r"^\cc$", "\u{03}"));
        assert!(matches(r"^\x41\u0042\u{43}$", "ABC"));
        assert!(matches(r"^\0$", "\0"));
        assert!(matches(r"^\/\.\*\{\}\-$", "/.*{}-"));
        assert!(matches(r"^[\b]$", "\u{08}"));
        assert!(matches(r"^[\-\]]+$", "-]"));
    }

    #[test]
    fn surrogate_pair_escapes_form_one_code_point() {
        assert!(matches(r"^\uD83D\uDC32$", "\u{1F432}"));
        assert!(matches(r"^\uD83D\uDC32*$", "\u{1F432}\u{1F432}"));
        assert!(matches(r"^[\uD83D\uDC00-\uD83D\uDCFF]$", "\u{1F432}"));
        assert!(!matches(r"^[\uD83D\uDC00-\uD83D\uDCFF]$", "\u{1F600}"));
        assert!(matches(r"^\u{1F432}$", "\u{1F432}"));
        assert!(matches("^🐲*$", "🐲🐲"));
        assert!(!matches("^🐲*$", "🐉"));
        // A lone surrogate can never occur in a Rust string.
        assert!(!matches(r"\uD83D", "\u{1F432}"));
        assert!(matches(r"a|\uD83D", "a"));
    }

    #[test]
    fn classes() {
        assert!(matches("^[]$|x", "x"));
        assert!(!matches("[]", "anything"));
        assert!(matches("^[^]$", "\n"));
        assert!(matches(r"^[\d-z]+$", "1-z"));
        assert!(!matches(r"^[\d-z]+$", "y"));
        assert!(matches(r"^[a-]+$", "a-"));
        assert!(matches(r"^[^\W]+$", "abc"));
        assert!(!matches(r"^[^\W]+$", "a c"));
        assert!(matches(r"^[\p{Lu}\d]+$", "\u{C9}1"));
        assert!(!matches(r"^[^\p{Lu}]$", "\u{C9}"));
    }

    #[test]
    fn unicode_properties() {
        assert!(matches(r"\p{Letter}cole", "l'\u{E9}cole"));
        assert!(!matches(r"\p{Letter}cole", "L'\u{C9}COLE"));
        assert!(matches(r"^\p{L}+$", "\u{E9}t\u{E9}"));
        assert!(matches(r"^\P{L}+$", "123"));
        assert!(matches(r"^\p{Script=Greek}+$", "\u{3B1}\u{3B2}"));
        assert!(matches(r"^\p{sc=Grek}$", "\u{3B1}"));
        assert!(matches(r"^\p{General_Category=Lu}$", "A"));
        assert!(!matches(r"^\p{Lowercase_Letter}$", "A"));
    }

    #[test]
    fn groups_alternation_and_quantifiers() {
        assert!(matches("^(?:ab)+$", "abab"));
        assert!(matches("^(?<word>ab|cd){2}$", "abcd"));
        assert!(matches("^a{2,3}?$", "aaa"));
        assert!(!matches("^a{2,3}$", "aaaa"));
        assert!(matches("^a{2,}$", "aaaaa"));
        // Annex B: braces that are not quantifiers are literals.
        assert!(matches("^a{$", "a{"));
        assert!(matches("^x{1,a}$", "x{1,a}"));
        assert!(matches("^a}]$", "a}]"));
    }

    #[test]
    fn backreferences_use_the_backtracking_engine() {
        let p = pattern(r"^(\w+) \1$");
        assert!(matches!(p.matcher, Matcher::Backtracking(_)));
        assert!(p.is_match("hello hello"));
        assert!(!p.is_match("hello world"));
        assert!(matches(r"^(?<q>['x])a\k<q>$", "'a'"));
        assert!(!matches(r"^(?<q>['x])a\k<q>$", "'ax"));
        // A group that did not participate matches the empty string.
        assert!(matches(r"^(a)?\1b$", "b"));
        // Forward and self references always match the empty string.
        assert!(matches(r"^\1(a)$", "a"));
        assert!(matches(r"^(a\1)$", "a"));
        assert!(matches(r"^\k<n>(?<n>a)$", "a"));
        // Each iteration of a quantifier starts with the captures inside it cleared
        // (ECMA-262's RepeatMatcher): the second iteration took `b`, so `\1` is empty.
        assert!(matches(r"^(?:(a)|b)*\1$", "ab"));
        assert!(matches(r"^(?:(a)|b){2}\1$", "ab"));
        assert!(!matches(r"^(?:(a)|b)*\1$", "ba"));
        assert!(matches(r"^(?:(a)|b)*\1$", "baa"));
        // An optional iteration that matches nothing fails, so `(a*)` keeps "a".
        assert!(matches(r"^(a*)*b\1$", "aba"));
        // Word boundaries keep their ASCII meaning in the backtracking engine.
        assert!(matches(r"\b(a)\1\b", "x aa y"));
        assert!(!matches(r"\b(a)\1\b", "baab aaa"));
        assert!(matches(r"\b(a)\1\b", "\u{E9}aa\u{E9}"));
    }

    #[test]
    fn lookarounds_use_the_backtracking_engine() {
        assert!(matches(r"^(?=.*\d)(?=.*[a-z]).{4,}$", "ab12"));
        assert!(!matches(r"^(?=.*\d)(?=.*[a-z]).{4,}$", "abcd"));
        assert!(matches(r"^(?!foo)\w+$", "bar"));
        assert!(!matches(r"^(?!foo)\w+$", "foobar"));
        assert!(matches(r"(?<=\$)\d+", "$42"));
        assert!(!matches(r"(?<!\$)\b\d+", "$42"));
        // Lookbehinds of any length, matched right to left as ECMA-262 does.
        assert!(matches(r"(?<=a+)b", "aab"));
        assert!(!matches(r"(?<=a+)b", "cb"));
        assert!(matches(r"^.*(?<=^[a-c]{2,3}d)$", "abd"));
        assert!(!matches(r"^.*(?<=^[a-c]{2,3}d)$", "abcad"));
        assert!(matches(r"(?<=(\d+)-)\1", "12-12"));
        // The lookbehind is atomic: its greedy `\d+` took "12", never only "2".
        assert!(!matches(r"(?<=(\d+)-)\1", "12-2"));
        // Right to left, a group on the right captures before a reference on its left.
        assert!(matches(r"(?<=\1(a))b", "aab"));
        assert!(!matches(r"(?<=\1(a))b", "cab"));
        assert!(matches(r"(?<=é\u{1F600})x", "é\u{1F600}x"));
    }

    #[test]
    fn catastrophic_backtracking_fails_closed() {
        // The true answer is "matches" (the `x`), but the first alternative
        // backtracks exponentially before the engine gets there.
        let p = pattern(r"(a|a)*(?=b)\1|x");
        let haystack = format!("{}x", "a".repeat(40));
        match &p.matcher {
            Matcher::Backtracking(engine) => assert_eq!(
                engine.run(&haystack, BACKTRACK_STEPS),
                (Outcome::Stopped, BACKTRACK_STEPS)
            ),
            other => panic!("expected the backtracking engine, got {other:?}"),
        }
        assert_eq!(p.check(&haystack, StepLimit::default()), (false, STOPPED));
        assert!(!p.is_match(&haystack));
        assert!(p.is_match("x"));
    }

    #[test]
    fn a_check_stops_within_the_validation_budget() {
        // Six steps or so per character: 100 characters need a few hundred.
        let p = pattern("^(?:(?=a)a)*$");
        let haystack = "a".repeat(100);
        let (found, steps) = p.check(&haystack, StepLimit::default());
        assert!(found && (300..1_000).contains(&steps), "{steps}");
        assert_eq!(
            p.check(&haystack, StepLimit::within(steps as u64)),
            (true, steps)
        );
        assert_eq!(p.check(&haystack, StepLimit::within(100)), (false, STOPPED));
        assert_eq!(StepLimit::within(u64::MAX), StepLimit::default());
    }

    #[test]
    fn invalid_patterns_are_rejected() {
        for source in [
            "[",
            "(",
            ")",
            "(?<",
            "(?<>a)",
            "(?<1a>a)",
            "a{2,1}",
            "*",
            "a**",
            "+a",
            "^*",
            "a|?",
            "(?=a)*",
            r"\",
            r"\a",
            r"\e",
            r"\z",
            r"\A",
            r"\1",
            r"(a)\2",
            r"\k<x>",
            r"\k",
            r"\x4",
            r"\u12",
            r"\u{110000}",
            r"\u{}",
            r"\c1",
            r"\01",
            r"\p",
            r"\p{}",
            r"\p{L",
            r"\p{NotAProperty}",
            r"[z-a]",
            r"[\B]",
            "^(abc]",
            "(?<a>x)(?<a>y)",
            "(?i:a)",
        ] {
            match Pattern::new(source) {
                Ok(_) => panic!("{source:?} should be rejected"),
                Err(error) => {
                    let message = error.to_string();
                    assert!(!message.is_empty());
                    assert!(
                        !message.starts_with(char::is_uppercase),
                        "{source:?}: {message}"
                    );
                }
            }
        }
        assert!(Pattern::new("([abc])+\\s+$").is_ok());
    }

    #[test]
    fn oversized_patterns_are_rejected_not_compiled() {
        let error = Pattern::new(r"(?:\p{L}{100}){100}")
            .map(|_| ())
            .unwrap_err();
        assert!(error.to_string().contains("too large"), "{error}");
        assert!(Pattern::new(r"a{99999999999999999999999}").is_err());
    }

    #[test]
    fn realistic_unicode_patterns_fit_the_size_limit() {
        let host = pattern(r"^(?:[\p{L}\p{N}]{1,64}\.)*\p{L}{2,63}$");
        assert!(matches!(host.matcher, Matcher::Automaton(_)));
        assert!(host.is_match("b\u{FC}cher.example"));
        assert!(!host.is_match("b\u{FC}cher..example"));
        assert!(matches(
            r"^[\p{L}\p{N}][\p{L}\p{N} ]{0,127}$",
            "Gr\u{FC}\u{DF} Gott"
        ));
    }

    #[test]
    fn counted_runs_stay_small_and_exact() {
        let p = pattern(r"^[\p{L}\p{N}_-]{1,255}$");
        assert!(matches!(p.matcher, Matcher::CountedRun { .. }));
        assert!(p.is_match("\u{E9}t\u{E9}_42"));
        assert!(p.is_match(&"\u{E9}".repeat(255)));
        assert!(!p.is_match(&"\u{E9}".repeat(256)));
        assert!(!p.is_match(""));
        assert!(!p.is_match("a b"));
        for (source, haystack) in [
            ("^[a-z]{2,4}$", "abc"),
            ("^[a-z]{2,4}$", "a"),
            ("^[a-z]{2,4}$", "abcde"),
            ("^[a-z]{2,4}?$", "abcd"),
            (r"^\d{3}$", "123"),
            (r"^\d{3}$", "12\u{661}"),
            (r"^.{2,}$", "a\nb"),
            (r"^.{2,}$", "\u{1F432}\u{1F432}"),
            (r"^\uD83D{0}$", ""),
        ] {
            let generic =
                automaton(&translate(source, Target::Automaton).unwrap().pattern).unwrap();
            assert_eq!(
                pattern(source).is_match(haystack),
                generic.is_match(haystack),
                "{source:?} on {haystack:?}"
            );
        }
    }

    #[test]
    fn every_ascii_character_means_itself_in_and_out_of_classes() {
        // The translation writes some of these as themselves, some escaped, some as
        // `\x{…}`: each must still match exactly itself, as a literal, a class member
        // and the end of a range, in the automaton engine.
        let escaped = |c: char, in_class: bool| match c {
            '^' | '$' | '\\' | '.' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '|'
            | '/' => format!("\\{c}"),
            '-' if in_class => format!("\\{c}"),
            _ => c.to_string(),
        };
        let run = |source: String, accepts: &dyn Fn(char) -> bool| {
            let translated = translate(&source, Target::Automaton).unwrap().pattern;
            let engine = automaton(&translated).unwrap();
            for x in (0u8..0x80).map(char::from) {
                let haystack = x.to_string();
                assert_eq!(
                    engine.is_match(&haystack),
                    accepts(x),
                    "{source:?} (as {translated:?}) on {haystack:?}"
                );
            }
        };
        let printable = || (0x20u8..0x7F).map(char::from);
        for c in printable().chain(['\t']) {
            run(format!("^{}$", escaped(c, false)), &|x| x == c);
            run(format!("^[{}]$", escaped(c, true)), &|x| x == c);
            run(format!("^[^{}]$", escaped(c, true)), &|x| x != c);
            for d in printable().filter(|&d| d >= c).step_by(7) {
                let source = format!("^[{}-{}]$", escaped(c, true), escaped(d, true));
                run(source, &|x| (c..=d).contains(&x));
            }
        }
    }

    #[test]
    fn literal_fast_paths_agree_with_the_general_engine() {
        let cases = [
            ("", Matcher::Always),
            ("^", Matcher::Always),
            ("$", Matcher::Always),
            ("abc", Matcher::Contains("abc".into())),
            ("^abc", Matcher::StartsWith("abc".into())),
            ("abc$", Matcher::EndsWith("abc".into())),
            ("^abc$", Matcher::Equals("abc".into())),
            ("^$", Matcher::Equals("".into())),
            (r"^a\.b\/c\$$", Matcher::Equals("a.b/c$".into())),
            (
                "^\u{E9}t\u{E9}",
                Matcher::StartsWith("\u{E9}t\u{E9}".into()),
            ),
        ];
        let haystacks = [
            "",
            "abc",
            "xabc",
            "abcx",
            "xabcx",
            "ab",
            "abc\n",
            "a.b/c$",
            "a-b/c$",
            "\u{E9}t\u{E9}!",
        ];
        for (source, expected) in cases {
            let fast = pattern(source);
            assert_eq!(
                format!("{:?}", fast.matcher),
                format!("{expected:?}"),
                "{source:?}"
            );
            let slow = general(source);
            for haystack in haystacks {
                assert_eq!(
                    fast.is_match(haystack),
                    slow.is_match(haystack),
                    "{source:?} on {haystack:?}"
                );
            }
        }
        for not_literal in [r"a\d", "a.b", "^a|b$", "a{2}", "^a$$", r"\n", "a]"] {
            assert!(literal_matcher(not_literal).is_none(), "{not_literal:?}");
        }
    }

    #[test]
    fn as_str_returns_the_source() {
        assert_eq!(pattern(r"^\d+$").as_str(), r"^\d+$");
        assert_eq!(pattern("abc").as_str(), "abc");
    }

    #[test]
    fn never_panics_on_odd_input() {
        let pieces = [
            "(",
            ")",
            "[",
            "]",
            "{",
            "}",
            "\\",
            "^",
            "$",
            "|",
            "?",
            "*",
            "+",
            ".",
            "-",
            "1",
            "a",
            "<",
            ">",
            "=",
            "!",
            ":",
            "u",
            "x",
            "k",
            "p",
            "c",
            ",",
            "\u{E9}",
            "\u{1F432}",
        ];
        // Every pattern of up to three pieces: compile, and match if valid.
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let source = format!("{a}{b}{c}");
                    if let Ok(p) = Pattern::new(&source) {
                        let _ = p.is_match("a1-(x)\u{E9}\n");
                    }
                }
            }
        }
    }

    /// Patterns for an automaton whose first character is one of a few ASCII
    /// characters: a haystack that starts otherwise is refused before the automaton.
    const FIRST_BYTE_LED: [&str; 8] = [
        r"^[Aa][Bb](c|1)?$",
        r"^a{2}b(c|1)",
        r"^[ab]c1(-|b)",
        r"^a+(b|c)",
        r"^[ab]{1,3}(-[ab1]+)*$",
        r"^\d(a|b)",
        r"^[a-c](?:b|-)",
        r"^a(é|b)+$",
    ];

    /// Patterns for an automaton that must not be filtered by their first byte: an
    /// optional first atom, a top-level alternative, a group or a class with
    /// non-ASCII members first.
    const NOT_FIRST_BYTE_LED: [&str; 8] = [
        r"^a?(b|c)",
        r"^a*b(c|1)",
        r"^a{0,2}(b|c)",
        r"^a(b|c)|b",
        r"^(a|b)c",
        r"^[^a](b|c)",
        r"^.(b|c)",
        r"^[aé](b|c)",
    ];

    #[test]
    fn first_byte_filters_only_where_the_pattern_says() {
        for source in FIRST_BYTE_LED {
            let p = pattern(source);
            assert!(
                matches!(p.matcher, Matcher::Automaton(_) | Matcher::Lazy(_)),
                "{source}"
            );
            assert!(
                p.first.is_some(),
                "{source} should have a first-byte filter"
            );
        }
        for source in NOT_FIRST_BYTE_LED {
            assert!(
                pattern(source).first.is_none(),
                "{source} must not be filtered"
            );
        }
        assert!(matches("^a(é|b)+$", "aé") && !matches("^a(é|b)+$", "é"));
        // The leading characters known, up to the first that repeats.
        for (source, known) in [
            (r"^[Ee][Ss]2017(\.[Ii][Nn][Tt][Ll])?$", 6),
            (r"^a{2}b(c|1)", 1),
            (r"^a+(b|c)", 1),
            (r"^[ab]c1(-|b)", 3),
            (r"^a?(b|c)", 0),
            (r"^abcdefghijk(l|m)", translate::MAX_PREFIX),
        ] {
            let Matcher::Lazy(lazy) = pattern(source).matcher else {
                panic!("{source} should wait for its first use");
            };
            assert_eq!(lazy.prefix.len(), known, "{source}");
        }
        assert!(matches(r"^a{2}b(c|1)", "aab1") && !matches(r"^a{2}b(c|1)", "abb1"));
        assert!(matches(r"^a(b|c)|b", "xb") && !matches(r"^a(b|c)|b", "x"));
    }

    #[test]
    fn only_patterns_that_read_a_bounded_start_read_part_of_a_text() {
        // With the longest match each allows, in bytes.
        let bounded = [
            (
                r"^[Ee][Ss]2017(\.([Ii][Nn][Tt][Ll]|[Oo][Bb][Jj][Ee][Cc][Tt]))?$",
                13,
            ),
            (r"^([Nn]ode|[Cc]lassic)$", 7),
            (r"^(CRLF|LF|crlf|lf)$", 4),
            (r"^a{2,5}(b|c)", 6),
            ("^x-", 2),
            ("abc$", 3),
            ("^abc$", 3),
            ("^[@$_#]", 1),
            ("^[a-z]{1,8}$", 8),
            ("", 0),
        ];
        let whole = [
            r"^[Ee][Ss]5|[Ee][Ss]6|[Ee][Ss]7$",
            "^a+(b|c)",
            "^(a|b)*c$",
            "abc",
            "a(b|c)",
            "^[a-z]+$",
            r"^\d{3}-.*",
            "(?=a)a",
            "(a)\\1",
        ];
        for (source, _) in bounded {
            assert!(!pattern(source).reads_whole_text(), "{source}");
        }
        for source in whole {
            assert!(pattern(source).reads_whole_text(), "{source}");
        }
        // What the bound rests on: a bounded pattern anchored at the start decides on a
        // long text as on its first bytes (as many as a match may take, and one more).
        for (source, longest) in bounded.into_iter().filter(|(s, _)| s.starts_with('^')) {
            let p = pattern(source);
            for text in [
                "es2017.intl",
                "ES2017",
                "node",
                "lf",
                "aaab",
                "x-y",
                "abc",
                "@",
                "abcdefgh",
            ] {
                let long = format!("{text}{}", "z".repeat(100_000));
                let short = &long[..longest + 1];
                assert_eq!(p.is_match(&long), p.is_match(short), "{source} on {text}");
            }
        }
    }

    /// Patterns that open with lookaheads, checked against the backtracking engine
    /// running them whole.
    const LOOKAHEAD_LED: [&str; 8] = [
        r"^(?=[^!*,;{}[\]~\n]+$)(?=(.*\w)).+$",
        r"^(?=[^a,]*$).*$",
        r"^(?=[^\]b]+$)(?=.*\d).*$",
        r"^(?=!+[^!*,;{}[\]~\n]+$)(?=(.*\w)).+$",
        r"^(?=.*[a-c])(?=.*\d)[a-z0-9]{3,}$",
        r"^(?=a|b)[ab]c",
        r"^(?=(x|y)+)\w*",
        r"^(?=.{2,4}$)",
    ];

    #[test]
    fn lookahead_led_patterns_run_as_conjunctions() {
        for source in LOOKAHEAD_LED {
            assert!(
                matches!(pattern(source).matcher, Matcher::AllOf(_)),
                "{source}"
            );
        }
        // A backreference keeps the whole pattern on the backtracking engine.
        assert!(matches!(
            pattern(r"^(?=(a))\1").matcher,
            Matcher::Backtracking(_)
        ));
    }

    /// Shapes matched without an automaton: runs of one ASCII set (the first
    /// five become [`Matcher::AsciiRun`]), a first character in a set, and
    /// patterns that match the empty string anywhere.
    const NO_AUTOMATON: [&str; 13] = [
        r"^[A-Za-z0-9-]+$",
        r"^[a-c_]{2,4}$",
        r"^\d*$",
        r"^x?$",
        r"^[\w.]{0,3}$",
        r"^[^\x80-\u{10FFFF}]+$",
        r"^[\d-z]{1,}$",
        r"^[]*$",
        r"^[@$_#]",
        r".*",
        r"[\s\S]*",
        r"a{0,3}",
        r"^\d",
    ];

    #[test]
    fn simple_shapes_need_no_automaton() {
        for source in &NO_AUTOMATON[..5] {
            let matcher = &pattern(source).matcher;
            assert!(matches!(matcher, Matcher::AsciiRun { .. }), "{source}");
        }
        // A negated class takes in non-ASCII characters; `\s` and `\p{..}` are Unicode.
        for source in [r"^[^a]+$", r"^\s+$", r"^\p{L}*$", r"^.+$"] {
            let matcher = &pattern(source).matcher;
            assert!(!matches!(matcher, Matcher::AsciiRun { .. }), "{source}");
        }
        assert!(matches(r"^[A-Za-z0-9-]+$", "my-repo-2"));
        assert!(!matches(r"^[A-Za-z0-9-]+$", "my repo"));
        assert!(!matches(r"^[A-Za-z0-9-]+$", ""));
        assert!(!matches(r"^[a-c_]{2,4}$", "abcab"));
        assert!(!matches(r"^x?$", "\u{e9}"));
        assert!(matches!(pattern(r"^[@$_#]").matcher, Matcher::FirstIn(_)));
        assert!(matches!(pattern(r"[\s\S]*").matcher, Matcher::Always));
        // The repetition must be the pattern's only atom.
        assert!(!matches(r"x(abc)*", "abc"));
        assert!(!matches(r"^[ab]c", "a"));
    }

    #[test]
    fn hot_lazy_patterns_switch_to_a_table() {
        let Matcher::Lazy(lazy) = general(r"^[a-z]+(-[a-z0-9]+)*$").matcher else {
            panic!("the pattern should wait for its first use");
        };
        let searches = Lazy::TABLE_AFTER as usize * lazy.pattern.len();
        for i in 0..searches {
            assert!(lazy.is_match("kebab-case-2"));
            assert!(!lazy.is_match(if i % 2 == 0 { "Kebab" } else { "kebab-" }));
        }
        // The forward lazy DFA answered every search: the automaton engine was never built.
        assert!(matches!(lazy.forward.get(), Some(Some(_))));
        assert!(lazy.automaton.get().is_none());
        assert!(matches!(lazy.table.get(), Some(Some(_))));
        // The table answers now, as the automaton did.
        assert!(lazy.is_match("a-b-c") && !lazy.is_match("a--b") && !lazy.is_match("é"));
        assert!(!lazy.clone().is_match(""));
    }

    proptest::proptest! {
        #[test]
        fn simple_shapes_agree_with_the_automaton(haystack in r"[a-dxyzA-Z0-9_. \x{e9}\x{10000}-]{0,6}") {
            for source in NO_AUTOMATON {
                let translated = translate(source, Target::Automaton).unwrap().pattern;
                let expected = automaton(&translated).unwrap().is_match(&haystack);
                proptest::prop_assert_eq!(pattern(source).is_match(&haystack), expected, "{} {:?}", source, haystack);
            }
        }

        #[test]
        fn first_byte_filters_agree_with_the_automaton(haystack in "[abcAB1é-]{0,5}") {
            for source in FIRST_BYTE_LED.iter().chain(&NOT_FIRST_BYTE_LED) {
                proptest::prop_assert_eq!(pattern(source).is_match(&haystack), general(source).is_match(&haystack), "{} {:?}", source, haystack);
            }
        }

        #[test]
        fn conjunctions_agree_with_backtracking(haystack in "[a-dxy0-9!,;\\[\\] \n\r\u{2028}é]{0,8}") {
            for source in LOOKAHEAD_LED {
                let expected = backtracker(source).run(&haystack, BACKTRACK_STEPS).0 == Outcome::Match;
                proptest::prop_assert_eq!(pattern(source).is_match(&haystack), expected, "{} {:?}", source, haystack);
            }
        }
    }
}
