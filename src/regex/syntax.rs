//! The translated pattern as the automaton engine's syntax tree, built without parsing.
//!
//! The translator writes a pattern in the `regex` crate's syntax, and a late-built
//! pattern ([`super::Lazy`]) needs that pattern's syntax tree (`Hir`). Parsing the
//! translation again cost more than translating it: `regex_syntax` builds an abstract
//! syntax tree first, a box per bracketed class, which the case-insensitive spellings of
//! real schemas (`^[Ee][Ss]2015(\.[Cc][Oo][Ll]...)?$`) are long lists of; two thirds of
//! the compile of such a schema went there. So the translator also records what it
//! writes as a flat list of [`Token`]s (a push per item), and [`Syntax::hir`] builds the
//! tree from them with the constructors the parser itself ends with (`Hir::concat`,
//! `Hir::alternation`, `Hir::class`, ...), which simplify alike: the result equals the
//! parsed tree (`tests::built_trees_equal_parsed_ones` holds them to it).
//!
//! A translation for the automaton that uses what its tree does not cover (a Unicode
//! property, whose tables only the engine has; a lookaround or backreference, which the
//! automaton does not run; nesting deeper than [`MAX_DEPTH`], where the parser's own
//! limit could differ) records no syntax, and the caller parses the translated pattern as
//! before. A translation for the backtracking engine records everything, lookarounds,
//! capture groups and backreferences included (its classes come with their properties
//! already expanded): the tokens are that engine's only input ([`super::backtrack`]).

use regex_syntax::hir::{Class, ClassUnicode, ClassUnicodeRange, Hir, Look, Repetition};

/// The deepest group nesting recorded. The parser refuses trees nested beyond its
/// limit (250 levels, counting groups, repetitions and alternations), which a
/// translation of up to 100 nested groups could exceed; up to this depth it never
/// does, so a recorded tree is one the parser would have accepted.
const MAX_DEPTH: usize = 40;

/// One item of a translated pattern, in the order written.
#[derive(Clone, Copy, Debug)]
pub(super) enum Token {
    /// A code point (a lone surrogate matches nothing).
    Literal(u32),
    /// A class: `len` ranges from `start` in [`Syntax::ranges`] (sorted, disjoint, off
    /// the surrogates), complemented when `negated`.
    Class { negated: bool, start: u32, len: u32 },
    /// `^`, `$` or an ASCII word boundary.
    Look(Look),
    /// The empty group written for a backreference that can never see a capture.
    Empty,
    /// A backreference to capture group `n` (from 1); recorded for the backtracking
    /// engine only.
    Backref(u32),
    /// A quantifier on the item before it.
    Repeat {
        min: u32,
        max: Option<u32>,
        greedy: bool,
    },
    /// `(`: a group opens (the automaton's groups never capture).
    Open(Group),
    /// `)`.
    Close,
    /// `|`.
    Alternate,
}

/// What a [`Token::Open`] opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Group {
    /// `(?:` (and, for the automaton, every group).
    Plain,
    /// Capture group `n` (from 1), for the backtracking engine.
    Capture(u32),
    /// A lookahead (`(?=`, `(?!`) or lookbehind (`(?<=`, `(?<!`).
    Look { behind: bool, negated: bool },
}

/// The recorded items of one translation, or nothing once it used something they do
/// not cover.
#[derive(Debug, Default)]
pub(super) struct Recorder {
    syntax: Option<Syntax>,
    depth: usize,
    /// Whether every construct is recorded (for the backtracking engine), or only what
    /// the automaton's tree holds.
    complete: bool,
}

/// A translated pattern as [`Token`]s.
#[derive(Clone, Debug, Default)]
pub(super) struct Syntax {
    tokens: Vec<Token>,
    /// The ranges of every class, one run per [`Token::Class`].
    ranges: Vec<(char, char)>,
}

impl Recorder {
    /// A recorder of what the automaton's tree holds.
    pub(super) fn automaton() -> Recorder {
        Recorder {
            syntax: Some(Syntax::default()),
            depth: 0,
            complete: false,
        }
    }

    /// A recorder of every construct, for the backtracking engine.
    pub(super) fn complete() -> Recorder {
        Recorder {
            complete: true,
            ..Recorder::automaton()
        }
    }

    /// Whether every construct is recorded (see [`Recorder::complete`]).
    pub(super) fn is_complete(&self) -> bool {
        self.complete
    }

    fn push(&mut self, token: Token) {
        if let Some(syntax) = &mut self.syntax {
            syntax.tokens.push(token);
        }
    }

    /// Records nothing more: the translation used something the automaton's tree does
    /// not cover (a complete recorder goes on: it covers everything).
    pub(super) fn give_up(&mut self) {
        if !self.complete {
            self.syntax = None;
        }
    }

    pub(super) fn literal(&mut self, cp: u32) {
        self.push(Token::Literal(cp));
    }

    /// A class of `ranges` (sorted and disjoint).
    pub(super) fn class(&mut self, negated: bool, ranges: impl Iterator<Item = (char, char)>) {
        let Some(syntax) = &mut self.syntax else {
            return;
        };
        let start = syntax.ranges.len();
        syntax.ranges.extend(ranges);
        let (Ok(start), Ok(len)) = (
            u32::try_from(start),
            u32::try_from(syntax.ranges.len() - start),
        ) else {
            return self.give_up();
        };
        syntax.tokens.push(Token::Class {
            negated,
            start,
            len,
        });
    }

    pub(super) fn look(&mut self, look: Look) {
        self.push(Token::Look(look));
    }

    /// A backreference to group `number` (from 1), which `captured` says may have
    /// captured something by then (else, in the automaton's reading, it matches the
    /// empty string; the backtracking engine decides at run time, as ECMA-262 does).
    pub(super) fn backreference(&mut self, number: usize, captured: bool) {
        match (self.complete, captured) {
            (true, _) => self.push(Token::Backref(u32::try_from(number).unwrap_or(u32::MAX))),
            (false, false) => self.push(Token::Empty),
            (false, true) => self.give_up(),
        }
    }

    pub(super) fn repeat(&mut self, min: u64, max: Option<u64>, greedy: bool) {
        let (min, max) = match (u32::try_from(min), max.map(u32::try_from).transpose()) {
            (Ok(min), Ok(max)) => (min, max),
            // Counts the parser refuses: it shall say so. The backtracking engine
            // refuses any count this large as too costly, saturated or not.
            _ if self.complete => (saturate(min), max.map(saturate)),
            _ => return self.give_up(),
        };
        self.push(Token::Repeat { min, max, greedy })
    }

    /// A group of kind `group` opens.
    pub(super) fn open(&mut self, group: Group) {
        self.depth += 1;
        match (group, self.complete) {
            (_, true) => self.push(Token::Open(group)),
            (Group::Look { .. }, false) => self.give_up(),
            // The automaton's groups never capture.
            (_, false) if self.depth > MAX_DEPTH => self.give_up(),
            (_, false) => self.push(Token::Open(Group::Plain)),
        }
    }

    pub(super) fn close(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        self.push(Token::Close);
    }

    pub(super) fn alternate(&mut self) {
        self.push(Token::Alternate);
    }

    /// The recorded syntax, unless given up.
    pub(super) fn finish(self) -> Option<Syntax> {
        self.syntax
    }
}

/// `count` as a `u32`, or its largest value.
fn saturate(count: u64) -> u32 {
    u32::try_from(count).unwrap_or(u32::MAX)
}

/// How a tree is built from recorded tokens ([`Syntax::build`]): the automaton's
/// syntax tree ([`Syntax::hir`]) and the backtracking engine's ([`super::backtrack`]).
pub(super) trait Builder {
    /// The tree built.
    type Tree;
    /// The tree of a token that stands alone (a literal, a class, an assertion, a
    /// backreference, the empty group); `None` for one this tree cannot hold.
    fn leaf(&mut self, syntax: &Syntax, token: Token) -> Option<Self::Tree>;
    /// `sub` repeated.
    fn repeat(&mut self, sub: Self::Tree, min: u32, max: Option<u32>, greedy: bool) -> Self::Tree;
    /// A group of kind `group` around `body`; `None` for a kind this tree cannot hold.
    fn group(&mut self, group: Group, body: Self::Tree) -> Option<Self::Tree>;
    /// Items one after another.
    fn concat(&mut self, items: Vec<Self::Tree>) -> Self::Tree;
    /// Alternatives, the first preferred.
    fn alternation(&mut self, alternatives: Vec<Self::Tree>) -> Self::Tree;
}

/// The items of a group (or of the whole pattern) so far.
struct Frame<T> {
    /// The finished alternatives before the last `|`.
    alternatives: Vec<T>,
    /// The items of the current alternative.
    items: Vec<T>,
}

impl<T> Frame<T> {
    fn new() -> Frame<T> {
        Frame {
            alternatives: Vec::new(),
            items: Vec::new(),
        }
    }

    /// The group's tree: its alternatives, the current one last.
    fn finish<B: Builder<Tree = T>>(mut self, builder: &mut B) -> T {
        let last = builder.concat(self.items);
        if self.alternatives.is_empty() {
            return last;
        }
        self.alternatives.push(last);
        builder.alternation(self.alternatives)
    }
}

impl Syntax {
    /// The ranges of the class token starting at `start`, `len` of them.
    pub(super) fn ranges(&self, start: u32, len: u32) -> Option<&[(char, char)]> {
        let start = start as usize;
        self.ranges.get(start..start.checked_add(len as usize)?)
    }

    /// The tree of the recorded pattern, as `builder` builds it; `None` if it cannot
    /// hold a token, or if the tokens are out of order (which the translator, checking
    /// the pattern's grammar as it records, never produces).
    pub(super) fn build<B: Builder>(&self, builder: &mut B) -> Option<B::Tree> {
        let mut open: Vec<(Group, Frame<B::Tree>)> = Vec::new();
        let mut frame = Frame::new();
        for &token in &self.tokens {
            match token {
                Token::Repeat { min, max, greedy } => {
                    let sub = frame.items.pop()?;
                    frame.items.push(builder.repeat(sub, min, max, greedy));
                }
                Token::Open(group) => {
                    open.push((group, std::mem::replace(&mut frame, Frame::new())))
                }
                Token::Close => {
                    let (group, outer) = open.pop()?;
                    let body = std::mem::replace(&mut frame, outer).finish(builder);
                    frame.items.push(builder.group(group, body)?);
                }
                Token::Alternate => {
                    let items = std::mem::take(&mut frame.items);
                    frame.alternatives.push(builder.concat(items));
                }
                leaf => frame.items.push(builder.leaf(self, leaf)?),
            }
        }
        open.is_empty().then(|| frame.finish(builder))
    }

    /// The syntax tree of the recorded pattern, as the parser would build it from the
    /// translated text; `None` when the tokens hold what the automaton does not run.
    pub(super) fn hir(&self) -> Option<Hir> {
        self.build(&mut HirBuilder)
    }
}

/// Builds the automaton's syntax tree with the constructors the parser itself ends
/// with, which simplify alike.
struct HirBuilder;

impl Builder for HirBuilder {
    type Tree = Hir;

    fn leaf(&mut self, syntax: &Syntax, token: Token) -> Option<Hir> {
        Some(match token {
            Token::Literal(cp) => match char::from_u32(cp) {
                Some(c) => Hir::literal(c.encode_utf8(&mut [0; 4]).as_bytes()),
                None => Hir::fail(),
            },
            Token::Class {
                negated,
                start,
                len,
            } => class(negated, syntax.ranges(start, len)?),
            Token::Look(look) => Hir::look(look),
            Token::Empty => Hir::empty(),
            // Only a complete recording has these, and the automaton runs none.
            Token::Backref(_)
            | Token::Repeat { .. }
            | Token::Open(_)
            | Token::Close
            | Token::Alternate => return None,
        })
    }

    fn repeat(&mut self, sub: Hir, min: u32, max: Option<u32>, greedy: bool) -> Hir {
        Hir::repetition(Repetition {
            min,
            max,
            greedy,
            sub: Box::new(sub),
        })
    }

    fn group(&mut self, group: Group, body: Hir) -> Option<Hir> {
        (!matches!(group, Group::Look { .. })).then_some(body)
    }

    fn concat(&mut self, items: Vec<Hir>) -> Hir {
        Hir::concat(items)
    }

    fn alternation(&mut self, alternatives: Vec<Hir>) -> Hir {
        Hir::alternation(alternatives)
    }
}

/// The tree of a class of `ranges`, complemented when `negated`: the translator writes
/// an empty one as a class of every code point, or of none.
fn class(negated: bool, ranges: &[(char, char)]) -> Hir {
    let mut class = match ranges {
        [] => ClassUnicode::new([ClassUnicodeRange::new('\0', char::MAX)]),
        _ => ClassUnicode::new(
            ranges
                .iter()
                .map(|&(low, high)| ClassUnicodeRange::new(low, high)),
        ),
    };
    if negated != ranges.is_empty() {
        class.negate();
    }
    Hir::class(Class::Unicode(class))
}

#[cfg(test)]
mod tests {
    use super::super::translate::{translate, Target};

    /// The tree built from the tokens of `source`'s translation, and the one the parser
    /// reads from its text; `None` when the translation recorded no syntax.
    fn both(source: &str) -> Option<(regex_syntax::hir::Hir, regex_syntax::hir::Hir)> {
        let translation = translate(source, Target::Automaton).ok()?;
        let built = translation.syntax.as_ref()?.hir();
        let config = regex_automata::util::syntax::Config::new().utf8(true);
        let parsed = regex_automata::util::syntax::parse_with(&translation.pattern, &config)
            .unwrap_or_else(|e| panic!("{source:?} -> {:?}: {e}", translation.pattern));
        Some((built.expect("recorded tokens build"), parsed))
    }

    #[test]
    fn built_trees_equal_parsed_ones() {
        for source in [
            "",
            "a",
            "^abc$",
            "^[Ee][Ss]2015(\\.([Cc][Oo][Ll]|[Cc][Oo][Rr][Ee]))?$",
            "^(([Nn]ode)|([Nn]ode16)|([Cc]lassic))$",
            "^[Ee][Ss]5|[Ee][Ss]6|[Ee][Ss]7$",
            "a|b|c",
            "a||b|",
            "(|a)",
            "()",
            "(?:)*",
            "^[a-z][a-z0-9-_]{1,63}$",
            "x{2}y{3,}z{4,5}?w*?v+?u??",
            "(ab){0}c{1}",
            "^.+$",
            ".*\\..*",
            "[^]",
            "[]",
            "[^a-z\\d]",
            "[\\D\\W]",
            "\\s\\S\\w\\W\\d\\D",
            "\\bfoo\\B",
            "\\u{1F600}\\uD83D\\uDE00\\uD800",
            "[\\uD800-\\uDFFF]",
            "[\\uD7FF-\\uE000]",
            "[é-ü]+\\u00e9",
            "\\1(a)",
            "(a\\1)",
            "a{,5}",
            "]}{",
            "\\-\\$\\^\\.\\*",
            "(a|b)*c(d|e)+?",
            "^(?:@[0-9a-z-_.]+\\/)?[a-z][0-9a-z-_.]*$",
            "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)))?$",
        ] {
            let (built, parsed) = both(source).unwrap_or_else(|| panic!("{source:?} records"));
            assert_eq!(built, parsed, "{source:?}");
        }
    }

    #[test]
    fn what_the_tokens_do_not_cover_records_nothing() {
        for source in [
            "\\p{L}",
            "[\\p{L}a]",
            "(?=a)b",
            "(a)\\1",
            "a{4294967296}",
            &format!("{}a{}", "(".repeat(41), ")".repeat(41)),
        ] {
            let translation = translate(source, Target::Automaton).unwrap();
            assert!(translation.syntax.is_none(), "{source:?}");
        }
        let deep = format!("{}a{}", "(".repeat(40), ")".repeat(40));
        let (built, parsed) = both(&deep).unwrap();
        assert_eq!(built, parsed);
        // For the backtracking engine, everything is recorded.
        for source in ["a(b)c", "(a)(?<=a)\\1(?!b)", "[\\p{L}x]\\P{N}"] {
            let backtracking = translate(source, Target::Backtracking).unwrap();
            assert!(backtracking.syntax.is_some(), "{source:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn random_patterns_build_the_parsed_tree(
            source in r"([a-cA-C0-9é.^$|*+?,\-]|\(|\)|\(\?:|\[\^?|\]|\{[0-3](,[0-5]?)?\}|\\[dDwWsSbB.\-u]|\\u00[4-6][0-9a-f]|\\x6[1-3]|\\[12]){0,16}"
        ) {
            if let Some((built, parsed)) = both(&source) {
                proptest::prop_assert_eq!(built, parsed, "{:?}", source);
            }
        }
    }
}
