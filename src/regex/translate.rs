//! Translation of ECMA-262 pattern syntax into the syntax of the `regex` crate, and
//! into the tokens the backtracking engine is compiled from.
//!
//! The translator is a single left-to-right pass over the pattern's code
//! points. It validates the pattern against the ECMA-262 grammar as used by
//! JSON Schema (the `u` flag, plus a few Annex B leniencies listed on
//! [`translate`]) and writes an equivalent pattern in which every construct
//! whose meaning differs between the dialects is spelled out explicitly:
//!
//! * every literal other than an ASCII letter or digit is written as `\x{…}`,
//!   so no character can accidentally gain a meaning in the target syntax;
//! * `\d`, `\w`, `\s`, `.` and their negations become explicit code point
//!   ranges, because the target crates give them Unicode meanings;
//! * `\b` and `\B` are restricted to the ASCII notion of a word character;
//! * character classes are flattened into a single, non-nested class, so the
//!   output never relies on class-set operations that the crates parse
//!   differently.
//!
//! Alongside the text it records the pattern as tokens ([`super::syntax`]): for the
//! automaton, what its syntax tree holds; for the backtracking engine, everything, with
//! Unicode properties expanded to code point ranges.

use std::fmt::Write as _;
use std::ops::Range;

use regex_syntax::hir::Look;

use super::sequence::Atom;
use super::syntax::{Group, Recorder, Syntax};
use super::PatternError;

/// Which engine the translated pattern is meant for.
///
/// The text is the same for both; the recorded tokens differ ([`Translation::syntax`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Target {
    /// The finite-automaton `regex` crate: the text, and the tokens of a tree it holds.
    Automaton,
    /// The backtracking engine ([`super::backtrack`]): every construct as tokens.
    Backtracking,
}

/// The result of translating one pattern.
#[derive(Debug)]
pub(super) struct Translation {
    /// The pattern in the target engine's syntax.
    pub(super) pattern: String,
    /// Whether the pattern uses a construct that only a backtracking engine
    /// can run (a backreference or a lookaround assertion).
    pub(super) needs_backtracking: bool,
    /// Set when the whole pattern has a shape that needs no general engine.
    pub(super) shape: Option<Shape>,
    /// An upper bound on how many copies of an atom the counted repetitions
    /// (`X{n,m}`) ask for, the product of their bounds (saturating): what can
    /// make a short pattern's automaton large.
    pub(super) weight: u64,
    /// Whether the pattern has a Unicode property escape (`\p{…}`), whose name
    /// only the engine can check.
    pub(super) has_property: bool,
    /// The ASCII characters each of a match's first characters must be one of, as
    /// far as the pattern says so (at most [`MAX_PREFIX`]): `^`, then atoms of ASCII
    /// characters that are not optional, and no alternative at the top level
    /// (`^[Ee][Ss]2017(\.[Ii][Nn][Tt][Ll])?$` starts with `E` or `e`, then `S` or
    /// `s`, then `2`...). Each such atom takes exactly one byte.
    pub(super) prefix: Vec<u128>,
    /// The pattern as tokens: for the automaton, those its syntax tree is built from
    /// without parsing it (see [`super::syntax`]), `None` for a pattern with what that
    /// tree does not cover; for the backtracking engine, every construct.
    pub(super) syntax: Option<Syntax>,
}

/// Whole-pattern shapes that a matcher can run without an automaton (or with a
/// smaller one).
#[derive(Debug)]
pub(super) enum Shape {
    /// `^X{min,max}$` and the like (see [`CountedRun`]).
    CountedRun(CountedRun),
    /// `^X` for an atom `X` matching a set of ASCII characters: the first
    /// character is in the set.
    FirstIn(u128),
    /// `X*` (or `X?`, `X{0,n}`) unanchored: matches the empty string at the
    /// start of any haystack.
    Always,
    /// `^` then atoms of known classes, each maybe repeated, then maybe `$` (the
    /// flag): see [`super::sequence`].
    Sequence(Vec<Atom>, bool),
}

/// A pattern of the shape `^X{min,max}$` (or `^X*$`, `^X+$`, `^X?$`),
/// where `X` matches one code point.
///
/// Such a pattern is equivalent to "`^X*$` matches and the haystack has
/// between `min` and `max` code points". The rewritten form matters because
/// the automaton engine compiles `X{n,m}` into `m` copies of `X`: with a
/// Unicode class such as `\p{L}` and a bound like 255 that exceeds any sane
/// size limit, while `^X*$` stays small. When `X` is a set of ASCII
/// characters, no automaton is needed at all.
#[derive(Debug)]
pub(super) struct CountedRun {
    /// The atom `X`, in the target syntax.
    pub(super) atom: String,
    /// The code points `X` matches as a bit set, when they are all ASCII.
    pub(super) ascii: Option<u128>,
    /// The minimum number of repetitions.
    pub(super) min: u64,
    /// The maximum number of repetitions, `None` when unbounded.
    pub(super) max: Option<u64>,
}

/// The most top-level items kept to recognise a [`Shape`]: a [`Shape::Sequence`] of
/// the longest kind (63 slots, see [`super::sequence`]) has about twice as many.
const MAX_PIECES: usize = 130;

/// The atoms of a [`Shape::Sequence`] from the top-level items after its `^`, if they
/// are one: atoms of known classes, each maybe repeated, then maybe `$`.
fn sequence(mut pieces: &[Piece]) -> Option<Shape> {
    let anchored_end = matches!(pieces.last(), Some(Piece::End));
    if anchored_end {
        pieces = &pieces[..pieces.len() - 1];
    }
    let mut atoms = Vec::with_capacity(pieces.len());
    while let [Piece::Char(_, Some(class)), rest @ ..] = pieces {
        let (min, max, rest) = match rest {
            [Piece::Repeat { min, max, .. }, rest @ ..] => (*min, *max, rest),
            rest => (1, Some(1), rest),
        };
        atoms.push(Atom {
            class: class.clone(),
            min,
            max,
        });
        pieces = rest;
    }
    (pieces.is_empty() && !atoms.is_empty()).then_some(Shape::Sequence(atoms, anchored_end))
}

/// The most leading characters a [`Translation::prefix`] keeps.
pub(super) const MAX_PREFIX: usize = 8;

/// The classes of the characters every match starts with, from the top-level items
/// after `^`: ASCII atoms each taken once, up to one that repeats (taken at least
/// once, it is the last position known).
fn prefix(mut pieces: &[Piece]) -> Vec<u128> {
    let mut prefix = Vec::new();
    while let [Piece::Char(_, Some(class)), rest @ ..] = pieces {
        if !class.wide.is_empty() || prefix.len() == MAX_PREFIX {
            break;
        }
        match rest.first() {
            Some(Piece::Repeat { min: 0, .. }) => break,
            Some(Piece::Repeat { .. }) => {
                prefix.push(class.ascii);
                break;
            }
            _ => prefix.push(class.ascii),
        }
        pieces = rest;
    }
    prefix
}

/// Groups may nest at most this deep; deeper patterns are rejected before
/// the engines see them (both engines have nesting limits of their own, but
/// a clear message is friendlier).
const MAX_NESTING: usize = 100;

/// Code point ranges of ECMA `\d`.
const DIGIT: &[(u32, u32)] = &[(0x30, 0x39)];
/// Code point ranges of ECMA `\w`: `[A-Za-z0-9_]`, with no Unicode letters.
const WORD: &[(u32, u32)] = &[(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)];
/// Code point ranges of ECMA `\s`: the WhiteSpace and LineTerminator
/// productions (tab, LF, VT, FF, CR, the `Zs` category, and U+FEFF).
const SPACE: &[(u32, u32)] = &[
    (0x09, 0x0D),
    (0x20, 0x20),
    (0xA0, 0xA0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x2028, 0x2029),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
    (0xFEFF, 0xFEFF),
];
/// Code point ranges of the ECMA LineTerminator production, which `.` excludes.
const LINE_TERMINATORS: &[(u32, u32)] = &[(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)];

/// A class matching every code point.
const ANY: &str = r"[\x{0}-\x{10FFFF}]";
/// A class matching nothing. Used for `[]` and for lone surrogates, which can never
/// occur in a Rust string.
const NOTHING: &str = r"[^\x{0}-\x{10FFFF}]";

/// Translates an ECMA-262 pattern for the given engine.
///
/// The grammar accepted is ECMA-262 with the `u` flag, with these Annex B
/// leniencies, because real-world schemas rely on them and rejecting a whole
/// schema for them would help nobody:
///
/// * `{`, `}` and `]` that do not form a quantifier or close a class are
///   literals (`a{`, `x{1,a}`, `]`);
/// * any character that is not an ASCII letter or digit may be escaped to
///   stand for itself (`\-`, `\@`, `\"`), not only the syntax characters;
/// * a class escape such as `\d` next to `-` in a class is a union, not a
///   range (`[\d-z]` is digits, `-` and `z`);
/// * Unicode property names are resolved by the `regex` crate, which also
///   accepts aliases such as `\p{digit}` and `\p{Greek}` (the official test
///   suite relies on `\p{digit}`).
pub(super) fn translate(source: &str, target: Target) -> Result<Translation, PatternError> {
    let chars: Vec<char> = source.chars().collect();
    let groups = scan_groups(&chars);
    Translator {
        chars,
        pos: 0,
        out: String::with_capacity(source.len() * 2),
        groups,
        open: Vec::new(),
        captures_opened: 0,
        last: Last::Nothing,
        needs_backtracking: false,
        shape: Vec::new(),
        shape_overflow: false,
        weight: 1,
        has_property: false,
        top_level_alternative: false,
        syntax: match target {
            Target::Automaton => Recorder::automaton(),
            Target::Backtracking => Recorder::complete(),
        },
    }
    .run()
}

/// Lists the capture groups of a pattern in order, with their names.
///
/// ECMA allows a backreference to refer to a group that appears later in the
/// pattern (`\k<x>(?<x>a)`), so the group table must be known before the
/// main pass. This scan only needs to find group openings; the main pass
/// reports any syntax errors.
fn scan_groups(chars: &[char]) -> Vec<Option<String>> {
    let mut groups = Vec::new();
    let mut in_class = false;
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '(' if !in_class => match (chars.get(i + 1), chars.get(i + 2), chars.get(i + 3)) {
                (Some('?'), Some('<'), Some(c)) if *c != '=' && *c != '!' => {
                    let name = chars
                        .iter()
                        .skip(i + 3)
                        .take_while(|&&c| c != '>')
                        .collect();
                    groups.push(Some(name));
                }
                (Some('?'), ..) => {}
                _ => groups.push(None),
            },
            _ => {}
        }
        i += 1;
    }
    groups
}

/// What the most recent item was, to decide whether a quantifier may follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Last {
    /// Start of the pattern, of a group, or of an alternative.
    Nothing,
    /// Something a quantifier may apply to.
    Atom,
    /// A quantified atom (`a**` is an error in ECMA).
    Quantified,
    /// An assertion, which ECMA (with the `u` flag) does not allow to repeat.
    Assertion,
}

/// An open group.
#[derive(Clone, Copy, Debug)]
enum Frame {
    /// A plain or capturing group; `Some(n)` for capture group number `n`.
    Group(Option<usize>),
    /// A lookahead or (`behind`) lookbehind assertion.
    Lookaround { behind: bool },
}

/// A top-level item, recorded to recognise the [`CountedRun`] shape.
#[derive(Clone, Debug)]
enum Piece {
    Start,
    End,
    /// An atom matching exactly one code point; the range is its text in
    /// the output, the class what it matches if known.
    Char(Range<usize>, Option<Class>),
    Repeat {
        min: u64,
        max: Option<u64>,
        braced: bool,
    },
    Other,
}

/// A character class under construction: explicit ranges plus `\p{…}` items
/// that only the target engine can expand.
#[derive(Default)]
struct ClassSet {
    ranges: Vec<(u32, u32)>,
    properties: String,
}

impl ClassSet {
    fn push(&mut self, cp: u32) {
        self.ranges.push((cp, cp));
    }
}

/// The state of one translation pass over a pattern.
struct Translator {
    chars: Vec<char>,
    /// Index into `chars` of the next code point to read.
    pos: usize,
    out: String,
    /// Every capture group of the pattern, in order, with its name if any.
    groups: Vec<Option<String>>,
    open: Vec<Frame>,
    /// How many capture groups have been opened so far.
    captures_opened: usize,
    last: Last,
    needs_backtracking: bool,
    /// The first top-level items (at most [`MAX_PIECES`] are kept).
    shape: Vec<Piece>,
    /// Whether more top-level items came than `shape` keeps.
    shape_overflow: bool,
    /// See [`Translation::weight`].
    weight: u64,
    /// See [`Translation::has_property`].
    has_property: bool,
    /// Whether a `|` came outside every group: then `^` anchors one alternative only.
    top_level_alternative: bool,
    /// What is written, as tokens (see [`Translation::syntax`]).
    syntax: Recorder,
}

impl Translator {
    fn run(mut self) -> Result<Translation, PatternError> {
        while let Some(c) = self.bump() {
            match c {
                '|' => {
                    self.top_level_alternative |= self.open.is_empty();
                    self.out.push('|');
                    self.syntax.alternate();
                    self.last = Last::Nothing;
                    self.piece(Piece::Other);
                }
                '(' => self.open_group()?,
                ')' => self.close_group()?,
                '^' | '$' => {
                    self.out.push(c);
                    self.syntax
                        .look(if c == '^' { Look::Start } else { Look::End });
                    self.last = Last::Assertion;
                    self.piece(if c == '^' { Piece::Start } else { Piece::End });
                }
                '.' => self.class_item(true, LINE_TERMINATORS.to_vec(), "")?,
                '*' => self.quantifier(0, None, false)?,
                '+' => self.quantifier(1, None, false)?,
                '?' => self.quantifier(0, Some(1), false)?,
                '{' => match self.braced_quantifier()? {
                    Some((min, max)) => self.quantifier(min, max, true)?,
                    None => self.literal(u32::from('{')),
                },
                '[' => self.class()?,
                '\\' => self.atom_escape()?,
                _ => self.literal(u32::from(c)),
            }
        }
        if !self.open.is_empty() {
            return Err(self.error("unterminated group"));
        }
        let shape = match self.shape.as_slice() {
            [Piece::Start, Piece::Char(span, class), Piece::Repeat { min, max, braced }, Piece::End]
                if *braced || class.as_ref().and_then(Class::ascii_only).is_some() =>
            {
                self.out.get(span.clone()).map(|atom| {
                    Shape::CountedRun(CountedRun {
                        atom: atom.to_owned(),
                        ascii: class.as_ref().and_then(Class::ascii_only),
                        min: *min,
                        max: *max,
                    })
                })
            }
            [Piece::Start, Piece::Char(_, Some(class))] if class.wide.is_empty() => {
                Some(Shape::FirstIn(class.ascii))
            }
            [Piece::Char(..), Piece::Repeat { min: 0, .. }] => Some(Shape::Always),
            [Piece::Start, rest @ ..] if !self.shape_overflow => sequence(rest),
            _ => None,
        };
        let prefix = match self.shape.as_slice() {
            [Piece::Start, rest @ ..] if !self.top_level_alternative => prefix(rest),
            _ => Vec::new(),
        };
        Ok(Translation {
            pattern: self.out,
            needs_backtracking: self.needs_backtracking,
            shape,
            weight: self.weight,
            has_property: self.has_property,
            prefix,
            syntax: self.syntax.finish(),
        })
    }

    // ---- reading -------------------------------------------------------

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.get(self.pos).copied();
        if c.is_some() {
            self.pos += 1;
        }
        c
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.chars.get(self.pos + offset).copied()
    }

    fn eat(&mut self, expected: char) -> bool {
        if self.peek_at(0) == Some(expected) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Reads a run of decimal digits, saturating on overflow (ECMA imposes
    /// no limit, and a saturated bound is rejected later as too large).
    fn decimal(&mut self) -> Option<u64> {
        let mut value: Option<u64> = None;
        while let Some(d) = self.peek_at(0).and_then(|c| c.to_digit(10)) {
            self.pos += 1;
            value = Some(
                value
                    .unwrap_or(0)
                    .saturating_mul(10)
                    .saturating_add(u64::from(d)),
            );
        }
        value
    }

    /// Reads exactly `count` hex digits, or nothing at all.
    fn hex(&mut self, count: usize) -> Option<u32> {
        let mut value = 0;
        for offset in 0..count {
            value = value * 16 + self.peek_at(offset)?.to_digit(16)?;
        }
        self.pos += count;
        Some(value)
    }

    /// Reads a group name up to and including the closing `>`.
    fn group_name(&mut self) -> Result<String, PatternError> {
        let mut name = String::new();
        loop {
            match self.bump() {
                None => return Err(self.error("unterminated group name")),
                Some('>') => break,
                Some(c) => name.push(c),
            }
        }
        let mut chars = name.chars();
        let valid_start = chars
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '$' || c == '_');
        let valid_rest =
            chars.all(|c| c.is_alphanumeric() || matches!(c, '$' | '_' | '\u{200C}' | '\u{200D}'));
        if valid_start && valid_rest {
            Ok(name)
        } else {
            Err(self.error(&format!("invalid group name '{name}'")))
        }
    }

    fn error(&self, what: &str) -> PatternError {
        PatternError::new(format!("{what} at position {}", self.pos))
    }

    // ---- writing -------------------------------------------------------

    /// Records a top-level item for the detection of a [`Shape`].
    fn piece(&mut self, piece: Piece) {
        if self.open.is_empty() {
            match self.shape.len() < MAX_PIECES {
                true => self.shape.push(piece),
                false => self.shape_overflow = true,
            }
        }
    }

    /// Notes that an atom matching exactly one code point was written,
    /// starting at output offset `start`, matching `class` if known.
    fn char_atom(&mut self, start: usize, class: Option<Class>) {
        self.last = Last::Atom;
        self.piece(Piece::Char(start..self.out.len(), class));
    }

    fn literal(&mut self, cp: u32) {
        let start = self.out.len();
        push_code_point(&mut self.out, cp);
        self.syntax.literal(cp);
        self.char_atom(start, Some(Class::of(false, &[(cp, cp)])));
    }

    /// Writes a class of `ranges` (in any order, maybe overlapping) and `\p{…}` items
    /// (`properties`), complemented when `negated`: an atom matching one code point.
    fn class_item(
        &mut self,
        negated: bool,
        ranges: Vec<(u32, u32)>,
        properties: &str,
    ) -> Result<(), PatternError> {
        let start = self.out.len();
        let merged = merge(ranges);
        emit_class(&mut self.out, negated, &merged, properties);
        let class = self.record_class(negated, merged, properties)?;
        self.char_atom(start, class);
        Ok(())
    }

    /// Records a class of `merged` ranges and `\p{…}` items, complemented when `negated`;
    /// what it matches, when known without the engine's Unicode tables.
    fn record_class(
        &mut self,
        negated: bool,
        mut merged: Vec<(u32, u32)>,
        properties: &str,
    ) -> Result<Option<Class>, PatternError> {
        if properties.is_empty() {
            self.syntax.class(negated, scalar_ranges(&merged));
            return Ok(Some(Class::of(negated, &merged)));
        }
        // Only the engine knows a property's code points: the automaton's tree is left
        // to its parser, and the backtracking engine gets them from that parser now.
        match self.syntax.is_complete() {
            true => {
                merged.extend(property_ranges(properties)?);
                self.syntax.class(negated, scalar_ranges(&merge(merged)));
            }
            false => self.syntax.give_up(),
        }
        Ok(None)
    }

    // ---- syntax --------------------------------------------------------

    fn quantifier(&mut self, min: u64, max: Option<u64>, braced: bool) -> Result<(), PatternError> {
        if self.last != Last::Atom {
            return Err(self.error("nothing to repeat"));
        }
        match (braced, min, max) {
            (false, 0, None) => self.out.push('*'),
            (false, 1, None) => self.out.push('+'),
            (false, ..) => self.out.push('?'),
            (true, _, None) => {
                let _ = write!(self.out, "{{{min},}}");
            }
            (true, _, Some(max)) => {
                let _ = write!(self.out, "{{{min},{max}}}");
            }
        }
        if braced {
            let copies = max.unwrap_or(min).max(min).saturating_add(1);
            self.weight = self.weight.saturating_mul(copies);
        }
        let lazy = self.eat('?');
        if lazy {
            self.out.push('?');
        }
        self.syntax.repeat(min, max, !lazy);
        self.last = Last::Quantified;
        self.piece(Piece::Repeat { min, max, braced });
        Ok(())
    }

    /// Parses `{n}`, `{n,}` or `{n,m}` after a `{`. Returns `None` (reading
    /// nothing) when the brace does not start a quantifier, in which case it
    /// is a literal (Annex B).
    fn braced_quantifier(&mut self) -> Result<Option<(u64, Option<u64>)>, PatternError> {
        let start = self.pos;
        let parsed = self.decimal().and_then(|min| {
            let max = if self.eat(',') {
                self.decimal()
            } else {
                Some(min)
            };
            self.eat('}').then_some((min, max))
        });
        match parsed {
            None => {
                self.pos = start;
                Ok(None)
            }
            Some((min, Some(max))) if max < min => {
                Err(self.error("numbers out of order in {} quantifier"))
            }
            Some(bounds) => Ok(Some(bounds)),
        }
    }

    fn open_group(&mut self) -> Result<(), PatternError> {
        if self.open.len() >= MAX_NESTING {
            return Err(self.error("groups nested too deeply"));
        }
        self.piece(Piece::Other);
        self.last = Last::Nothing;
        if !self.eat('?') {
            self.open_capture();
            return Ok(());
        }
        let lookaround = match self.bump() {
            Some(':') => {
                self.out.push_str("(?:");
                self.syntax.open(Group::Plain);
                self.open.push(Frame::Group(None));
                return Ok(());
            }
            Some('=') => ("(?=", false, false),
            Some('!') => ("(?!", false, true),
            Some('<') if self.eat('=') => ("(?<=", true, false),
            Some('<') if self.eat('!') => ("(?<!", true, true),
            Some('<') => {
                let name = self.group_name()?;
                if self.groups.iter().flatten().filter(|n| **n == name).count() > 1 {
                    return Err(self.error(&format!("duplicate group name '{name}'")));
                }
                self.open_capture();
                return Ok(());
            }
            _ => return Err(self.error("invalid group")),
        };
        let (text, behind, negated) = lookaround;
        self.needs_backtracking = true;
        self.syntax.open(Group::Look { behind, negated });
        self.out.push_str(text);
        self.open.push(Frame::Lookaround { behind });
        Ok(())
    }

    /// Opens capture group number `captures_opened + 1`. The automaton
    /// engine never needs captures (patterns with backreferences go to the
    /// backtracking engine), so its text has a cheaper non-capturing group.
    fn open_capture(&mut self) {
        self.captures_opened += 1;
        self.out.push_str("(?:");
        let number = u32::try_from(self.captures_opened).unwrap_or(u32::MAX);
        self.syntax.open(Group::Capture(number));
        self.open.push(Frame::Group(Some(self.captures_opened)));
    }

    fn close_group(&mut self) -> Result<(), PatternError> {
        let frame = self.open.pop().ok_or_else(|| self.error("unmatched ')'"))?;
        self.out.push(')');
        self.syntax.close();
        self.last = match frame {
            Frame::Group(_) => Last::Atom,
            Frame::Lookaround { .. } => Last::Assertion,
        };
        Ok(())
    }

    /// Translates an escape outside a class; the `\` has been read.
    fn atom_escape(&mut self) -> Result<(), PatternError> {
        let c = self
            .bump()
            .ok_or_else(|| self.error("\\ at end of pattern"))?;
        match c {
            'd' | 'D' | 'w' | 'W' | 's' | 'S' => {
                let (ranges, negated) = shorthand(c);
                self.class_item(negated, ranges.to_vec(), "")?;
            }
            'b' | 'B' => {
                self.word_boundary(c == 'B');
                self.last = Last::Assertion;
                self.piece(Piece::Other);
            }
            '1'..='9' => {
                self.pos -= 1;
                let number = self.decimal().unwrap_or(0);
                self.backreference(usize::try_from(number).unwrap_or(usize::MAX))?;
            }
            'k' => {
                if !self.eat('<') {
                    return Err(self.error("invalid named reference"));
                }
                let name = self.group_name()?;
                let number = self
                    .groups
                    .iter()
                    .position(|g| g.as_deref() == Some(name.as_str()))
                    .ok_or_else(|| self.error(&format!("reference to undefined group '{name}'")))?;
                self.backreference(number + 1)?;
            }
            'p' | 'P' => {
                let start = self.out.len();
                let property = self.property(c == 'P')?;
                self.out.push_str(&property);
                let class = self.record_class(false, Vec::new(), &property)?;
                self.char_atom(start, class);
            }
            _ => {
                let cp = self.character_escape(c)?;
                self.literal(cp);
            }
        }
        Ok(())
    }

    fn word_boundary(&mut self, negated: bool) {
        self.syntax.look(match negated {
            false => Look::WordAscii,
            true => Look::WordAsciiNegate,
        });
        self.out.push_str(match negated {
            false => r"(?-u:\b)",
            true => r"(?-u:\B)",
        });
    }

    /// Writes a backreference to capture group `number` (1-based).
    ///
    /// In ECMA a reference to a group that has not captured anything matches
    /// the empty string. Outside a lookbehind, a reference to a group that is
    /// still open or not yet opened (a forward reference) can never see a
    /// capture: it is written as an empty group, needing no backtracking engine
    /// at all. Any other reference needs the backtracking engine, which also
    /// decides the forward ones inside a lookbehind (matched right to left, a
    /// group on the right of its reference captures first).
    fn backreference(&mut self, number: usize) -> Result<(), PatternError> {
        if number == 0 || number > self.groups.len() {
            return Err(self.error("reference to a group that does not exist"));
        }
        let enclosing = self
            .open
            .iter()
            .any(|frame| matches!(frame, Frame::Group(Some(n)) if *n == number));
        let in_lookbehind = self
            .open
            .iter()
            .any(|f| matches!(f, Frame::Lookaround { behind: true }));
        let captured = !(number > self.captures_opened || enclosing) || in_lookbehind;
        match captured {
            true => {
                self.needs_backtracking = true;
                let _ = write!(self.out, r"\{number}");
            }
            false => self.out.push_str("(?:)"),
        }
        self.syntax.backreference(number, captured);
        self.last = Last::Atom;
        self.piece(Piece::Other);
        Ok(())
    }

    /// Reads the `{Name}` or `{Name=Value}` of a property escape and returns
    /// it in target syntax. Only the characters that can occur in Unicode
    /// property names are accepted, so nothing can be smuggled into the
    /// output; whether the name exists is decided by the `regex` crate.
    fn property(&mut self, negated: bool) -> Result<String, PatternError> {
        if !self.eat('{') {
            return Err(self.error("invalid property escape"));
        }
        let mut name = String::new();
        loop {
            match self.bump() {
                Some('}') => break,
                Some(c) if c.is_ascii_alphanumeric() || c == '_' || c == '=' => name.push(c),
                _ => return Err(self.error("invalid property escape")),
            }
        }
        let valid = !name.is_empty()
            && !name.starts_with('=')
            && !name.ends_with('=')
            && name.matches('=').count() <= 1;
        if !valid {
            return Err(self.error("invalid property escape"));
        }
        self.has_property = true;
        Ok(format!(r"\{}{{{name}}}", if negated { 'P' } else { 'p' }))
    }

    /// Decodes an escape that denotes a single code point; the `\` and `c`
    /// have been read. The result may be a lone surrogate.
    fn character_escape(&mut self, c: char) -> Result<u32, PatternError> {
        Ok(match c {
            't' => 0x09,
            'n' => 0x0A,
            'v' => 0x0B,
            'f' => 0x0C,
            'r' => 0x0D,
            '0' if self.peek_at(0).is_some_and(|d| d.is_ascii_digit()) => {
                return Err(self.error("invalid decimal escape"));
            }
            '0' => 0,
            'c' => match self.peek_at(0) {
                Some(letter) if letter.is_ascii_alphabetic() => {
                    self.pos += 1;
                    u32::from(letter) % 32
                }
                _ => return Err(self.error("invalid control escape")),
            },
            'x' => self
                .hex(2)
                .ok_or_else(|| self.error("invalid hexadecimal escape"))?,
            'u' => self.unicode_escape()?,
            _ if c.is_ascii_alphanumeric() => {
                return Err(self.error(&format!("invalid escape '\\{c}'")));
            }
            _ => u32::from(c),
        })
    }

    /// Decodes `\u{X…}` or `\uXXXX` (the `\u` has been read). A `\uXXXX`
    /// lead surrogate followed by a `\uXXXX` trail surrogate is one code
    /// point, as with the `u` flag.
    fn unicode_escape(&mut self) -> Result<u32, PatternError> {
        if self.eat('{') {
            let mut value: u32 = 0;
            let mut digits = 0;
            while let Some(d) = self.peek_at(0).and_then(|c| c.to_digit(16)) {
                self.pos += 1;
                digits += 1;
                value = value.saturating_mul(16).saturating_add(d);
            }
            if digits == 0 || value > 0x10_FFFF || !self.eat('}') {
                return Err(self.error("invalid unicode escape"));
            }
            return Ok(value);
        }
        let lead = self
            .hex(4)
            .ok_or_else(|| self.error("invalid unicode escape"))?;
        if (0xD800..=0xDBFF).contains(&lead)
            && self.peek_at(0) == Some('\\')
            && self.peek_at(1) == Some('u')
        {
            let before = self.pos;
            self.pos += 2;
            match self.hex(4) {
                Some(trail) if (0xDC00..=0xDFFF).contains(&trail) => {
                    return Ok(0x10000 + ((lead - 0xD800) << 10) + (trail - 0xDC00));
                }
                _ => self.pos = before,
            }
        }
        Ok(lead)
    }

    /// Translates a character class; the `[` has been read.
    fn class(&mut self) -> Result<(), PatternError> {
        let negated = self.eat('^');
        let mut set = ClassSet::default();
        loop {
            let c = self
                .bump()
                .ok_or_else(|| self.error("unterminated character class"))?;
            if c == ']' {
                break;
            }
            let first = self.class_atom(c, &mut set)?;
            let is_range =
                self.peek_at(0) == Some('-') && self.peek_at(1).is_some_and(|c| c != ']');
            if !is_range {
                if let Some(cp) = first {
                    set.push(cp);
                }
                continue;
            }
            self.pos += 1;
            let c = self
                .bump()
                .ok_or_else(|| self.error("unterminated character class"))?;
            match (first, self.class_atom(c, &mut set)?) {
                (Some(low), Some(high)) if low > high => {
                    return Err(self.error("range out of order in character class"));
                }
                (Some(low), Some(high)) => set.ranges.push((low, high)),
                // Annex B: a class escape such as `\d` cannot bound a range,
                // so `[\d-z]` is the union of `\d`, `-` and `z`.
                (low, high) => {
                    set.push(u32::from('-'));
                    set.ranges
                        .extend(low.into_iter().chain(high).map(|cp| (cp, cp)));
                }
            }
        }
        self.class_item(negated, set.ranges, &set.properties)
    }

    /// Reads one class atom starting with `c`. A single code point is
    /// returned; a class escape (`\d`, `\p{…}`, …) is added to `set`
    /// directly and yields `None`.
    fn class_atom(&mut self, c: char, set: &mut ClassSet) -> Result<Option<u32>, PatternError> {
        if c != '\\' {
            return Ok(Some(u32::from(c)));
        }
        let escaped = self
            .bump()
            .ok_or_else(|| self.error("\\ at end of pattern"))?;
        match escaped {
            'd' | 'D' | 'w' | 'W' | 's' | 'S' => {
                let (ranges, negated) = shorthand(escaped);
                if negated {
                    set.ranges.extend(complement(ranges));
                } else {
                    set.ranges.extend_from_slice(ranges);
                }
                Ok(None)
            }
            'p' | 'P' => {
                let property = self.property(escaped == 'P')?;
                set.properties.push_str(&property);
                Ok(None)
            }
            'b' => Ok(Some(0x08)),
            '-' => Ok(Some(u32::from('-'))),
            _ => self.character_escape(escaped).map(Some),
        }
    }
}

/// The ranges of a shorthand class escape, and whether it is negated.
fn shorthand(c: char) -> (&'static [(u32, u32)], bool) {
    match c {
        'd' => (DIGIT, false),
        'D' => (DIGIT, true),
        'w' => (WORD, false),
        'W' => (WORD, true),
        's' => (SPACE, false),
        _ => (SPACE, true),
    }
}

/// What an atom matching one code point matches, when that is known here (no
/// `\p{…}` item, which only the engine can expand): a bit per ASCII code point, and the
/// other code points as sorted, disjoint ranges.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Class {
    /// Bit `c` set when the ASCII character `c` is a member.
    pub(super) ascii: u128,
    /// The members from U+0080 up, sorted and disjoint.
    pub(super) wide: Vec<(u32, u32)>,
}

impl Class {
    /// The class of `ranges` (sorted and disjoint, as [`merge`] leaves them),
    /// complemented when `negated`.
    pub(super) fn of(negated: bool, ranges: &[(u32, u32)]) -> Class {
        let mut class = Class::default();
        let mut add = |low: u32, high: u32| {
            if low < 128 {
                // Bits `low..=min(high, 127)`.
                let above = u32::min(high, 127) + 1 - low;
                class.ascii |= (u128::MAX >> (128 - above)) << low;
            }
            if high >= 128 {
                class.wide.push((low.max(128), high));
            }
        };
        match negated {
            false => ranges.iter().for_each(|&(low, high)| add(low, high)),
            true => complement(ranges)
                .into_iter()
                .for_each(|(low, high)| add(low, high)),
        }
        class
    }

    /// The ASCII set, when the class has no other member.
    pub(super) fn ascii_only(&self) -> Option<u128> {
        self.wide.is_empty().then_some(self.ascii)
    }

    /// Whether the non-ASCII code point `cp` is a member.
    pub(super) fn has_wide(&self, cp: u32) -> bool {
        let after = self.wide.partition_point(|&(low, _)| low <= cp);
        after > 0 && cp <= self.wide[after - 1].1
    }
}

/// `ranges` sorted, with overlapping and adjacent ranges merged.
fn merge(mut ranges: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    ranges.sort_unstable();
    let mut merged: Vec<(u32, u32)> = Vec::with_capacity(ranges.len());
    for (low, high) in ranges {
        match merged.last_mut() {
            Some(last) if low <= last.1.saturating_add(1) => last.1 = last.1.max(high),
            _ => merged.push((low, high)),
        }
    }
    merged
}

/// The complement of sorted, disjoint `ranges` within all code points.
fn complement(ranges: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut result = Vec::with_capacity(ranges.len() + 1);
    let mut next = 0;
    for &(low, high) in ranges {
        if low > next {
            result.push((next, low - 1));
        }
        next = high + 1;
    }
    if next <= 0x10_FFFF {
        result.push((next, 0x10_FFFF));
    }
    result
}

/// The code points of `\p{…}` / `\P{…}` items (as the translator writes them), from the
/// automaton engine's parser, which owns the Unicode tables.
fn property_ranges(properties: &str) -> Result<Vec<(u32, u32)>, PatternError> {
    use regex_syntax::hir::{Class as HirClass, HirKind};
    let config = regex_automata::util::syntax::Config::new().utf8(true);
    let hir = regex_automata::util::syntax::parse_with(&format!("[{properties}]"), &config)
        .map_err(|error| super::engine_error(&error.to_string()))?;
    Ok(match hir.kind() {
        HirKind::Class(HirClass::Unicode(class)) => (class.ranges().iter())
            .map(|range| (u32::from(range.start()), u32::from(range.end())))
            .collect(),
        // An empty class is `Hir::fail()`: no code point.
        _ => Vec::new(),
    })
}

/// Writes a single, flat character class of `ranges` (sorted and disjoint, as
/// [`merge`] leaves them).
///
/// Range ends are moved off the surrogate block ([`scalar_ranges`]), since surrogates
/// are not `char`s and the target crates reject them.
fn emit_class(out: &mut String, negated: bool, ranges: &[(u32, u32)], properties: &str) {
    let members = scalar_ranges(ranges).map(|(low, high)| (u32::from(low), u32::from(high)));
    if members.clone().next().is_none() && properties.is_empty() {
        out.push_str(if negated { ANY } else { NOTHING });
        return;
    }
    out.push('[');
    if negated {
        out.push('^');
    }
    for (low, high) in members {
        push_class_member(out, low);
        if low < high {
            out.push('-');
            push_class_member(out, high);
        }
    }
    out.push_str(properties);
    out.push(']');
}

/// `ranges` as ranges of `char`s: ends in the surrogate block moved off it (a range inside
/// it dropped), which loses nothing, since a `&str` holds no surrogate. What the text of
/// a class ([`emit_class`]) and its recorded token ([`Recorder::class`]) both hold.
fn scalar_ranges(ranges: &[(u32, u32)]) -> impl Iterator<Item = (char, char)> + Clone + '_ {
    ranges.iter().filter_map(|&(low, high)| {
        let low = char::from_u32(low).unwrap_or('\u{E000}');
        let high = char::from_u32(high).unwrap_or('\u{D7FF}');
        (low <= high).then_some((low, high))
    })
}

/// Writes one end of a range in a class (not a surrogate): an ASCII letter or digit as
/// itself (`[Ee]` stays short: the engine parses `\x{45}` escapes several times slower,
/// and the case-insensitive spellings of real schemas are long lists of them), anything
/// else as `\x{…}`.
fn push_class_member(out: &mut String, cp: u32) {
    match char::from_u32(cp) {
        Some(c) if c.is_ascii_alphanumeric() => out.push(c),
        _ => {
            let _ = write!(out, r"\x{{{cp:X}}}");
        }
    }
}

/// Writes one literal code point: ASCII letters and digits as themselves,
/// anything else as `\x{…}`, and a lone surrogate as a class that matches
/// nothing.
fn push_code_point(out: &mut String, cp: u32) {
    match char::from_u32(cp) {
        Some(c) if c.is_ascii_alphanumeric() => out.push(c),
        Some(_) => {
            let _ = write!(out, r"\x{{{cp:X}}}");
        }
        None => out.push_str(NOTHING),
    }
}
