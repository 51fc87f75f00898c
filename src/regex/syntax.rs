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
//! A translation that uses what the tokens do not cover (a Unicode property, whose
//! tables only the engine has; a lookaround or backreference, which the automaton does
//! not run; nesting deeper than [`MAX_DEPTH`], where the parser's own limit could
//! differ) records no syntax, and the caller parses the translated pattern as before.

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
    /// A quantifier on the item before it.
    Repeat {
        min: u32,
        max: Option<u32>,
        greedy: bool,
    },
    /// `(`: a group opens (the automaton's groups never capture).
    Open,
    /// `)`.
    Close,
    /// `|`.
    Alternate,
}

/// The recorded items of one translation, or nothing once it used something they do
/// not cover.
#[derive(Debug, Default)]
pub(super) struct Recorder {
    syntax: Option<Syntax>,
    depth: usize,
}

/// A translated pattern as [`Token`]s.
#[derive(Clone, Debug, Default)]
pub(super) struct Syntax {
    tokens: Vec<Token>,
    /// The ranges of every class, one run per [`Token::Class`].
    ranges: Vec<(char, char)>,
}

impl Recorder {
    /// A recorder that records (`true`), or one that never does.
    pub(super) fn new(records: bool) -> Recorder {
        Recorder {
            syntax: records.then(Syntax::default),
            depth: 0,
        }
    }

    fn push(&mut self, token: Token) {
        if let Some(syntax) = &mut self.syntax {
            syntax.tokens.push(token);
        }
    }

    /// Records nothing more: the translation used something the tokens do not cover.
    pub(super) fn give_up(&mut self) {
        self.syntax = None;
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

    pub(super) fn empty(&mut self) {
        self.push(Token::Empty);
    }

    pub(super) fn repeat(&mut self, min: u64, max: Option<u64>, greedy: bool) {
        let min = u32::try_from(min);
        let max = max.map(u32::try_from).transpose();
        match (min, max) {
            (Ok(min), Ok(max)) => self.push(Token::Repeat { min, max, greedy }),
            // Counts the parser refuses: it shall say so.
            _ => self.give_up(),
        }
    }

    pub(super) fn open(&mut self) {
        self.depth += 1;
        match self.depth > MAX_DEPTH {
            true => self.give_up(),
            false => self.push(Token::Open),
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

/// The items of a group (or of the whole pattern) so far.
#[derive(Default)]
struct Frame {
    /// The finished alternatives before the last `|`.
    alternatives: Vec<Hir>,
    /// The items of the current alternative.
    items: Vec<Hir>,
}

impl Frame {
    /// The group's tree: its alternatives, the current one last.
    fn finish(mut self) -> Hir {
        let last = Hir::concat(self.items);
        if self.alternatives.is_empty() {
            return last;
        }
        self.alternatives.push(last);
        Hir::alternation(self.alternatives)
    }
}

impl Syntax {
    /// The syntax tree of the recorded pattern, as the parser would build it from the
    /// translated text; `None` if the tokens are out of order (which the translator,
    /// checking the pattern's grammar as it records, never produces).
    pub(super) fn hir(&self) -> Option<Hir> {
        let mut open: Vec<Frame> = Vec::new();
        let mut frame = Frame::default();
        for &token in &self.tokens {
            match token {
                Token::Literal(cp) => frame.items.push(match char::from_u32(cp) {
                    Some(c) => Hir::literal(c.encode_utf8(&mut [0; 4]).as_bytes()),
                    None => Hir::fail(),
                }),
                Token::Class {
                    negated,
                    start,
                    len,
                } => {
                    let start = start as usize;
                    let ranges = self.ranges.get(start..start + len as usize)?;
                    frame.items.push(class(negated, ranges));
                }
                Token::Look(look) => frame.items.push(Hir::look(look)),
                Token::Empty => frame.items.push(Hir::empty()),
                Token::Repeat { min, max, greedy } => {
                    let sub = frame.items.pop()?;
                    frame.items.push(Hir::repetition(Repetition {
                        min,
                        max,
                        greedy,
                        sub: Box::new(sub),
                    }));
                }
                Token::Open => open.push(std::mem::take(&mut frame)),
                Token::Close => {
                    let group = std::mem::replace(&mut frame, open.pop()?).finish();
                    frame.items.push(group);
                }
                Token::Alternate => {
                    let items = std::mem::take(&mut frame.items);
                    frame.alternatives.push(Hir::concat(items));
                }
            }
        }
        open.is_empty().then(|| frame.finish())
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
        let backtracking = translate("a(b)c", Target::Backtracking).unwrap();
        assert!(backtracking.syntax.is_none());
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
