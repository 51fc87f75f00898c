//! The backtracking engine: patterns with lookarounds or backreferences, which no
//! automaton runs, run one instruction at a time under a work limit.
//!
//! A pattern is compiled from the translator's complete recording (a [`Syntax`] of
//! tokens, classes already expanded to code point ranges) into a small program: an arena
//! of [`Inst`]s, with side tables for classes and counted loops. The
//! interpreter runs it with an explicit stack of alternatives and an undo log of slot
//! writes, never recursion, so neither the pattern nor the haystack can overflow the
//! call stack.
//!
//! It follows ECMA-262's own matcher (22.2.2, with the `u` flag), where the `regex`
//! dialect and ECMA differ:
//! - a counted loop is a counter, not copies of its body, and an iteration beyond the
//!   minimum that consumes nothing fails (RepeatMatcher), which also ends loops of empty
//!   iterations; when the pattern has backreferences, each iteration first clears the
//!   captures inside it;
//! - a lookaround is atomic: once its body matched, its alternatives are dropped (its
//!   captures kept); a negative one keeps none;
//! - a lookbehind's body runs backwards from the current position, of any length, its
//!   backreferences and captures too;
//! - a backreference to a group that captured nothing matches the empty string.
//!
//! Cost: every instruction run and every alternative taken back is one step, and a
//! backreference's comparison one more per [`BYTES_PER_STEP`] bytes; a run stops at its
//! limit ([`Outcome::Stopped`]), which the caller charges to the validation's step budget
//! and never reads as a match. Memory: the stack of alternatives holds at most
//! [`MAX_FRAMES`] entries, and the undo log one entry per step at most; the buffers are
//! kept per thread, trimmed after a run that grew them past [`RETAINED`] entries.
//! Patterns whose nested counted repetitions multiply past [`MAX_REPEATS`] are refused
//! when compiled: every match attempt would walk them.

use super::syntax::{Builder, Group, Syntax, Token};
use super::translate::Class;
use super::PatternError;
use regex_syntax::hir::Look;
use std::cell::RefCell;

/// The most frames the stack of alternatives may hold in one run (12 bytes each).
const MAX_FRAMES: usize = 1 << 18;

/// The most entries of each scratch buffer a thread keeps between runs.
const RETAINED: usize = 1 << 12;

/// The most iterations nested counted repetitions may ask for, their counts multiplied
/// along each nesting (`((?=a)b{100}){1000}` asks for 100,000).
pub(super) const MAX_REPEATS: u64 = 100_000;

/// Bytes a backreference compares per step.
const BYTES_PER_STEP: usize = 16;

/// A slot that holds nothing (a capture not taken).
const UNSET: u32 = u32::MAX;

/// The flag of a [`Frame::pc`] that marks a lookaround's barrier, the rest being the
/// lookaround's index.
const BARRIER: u32 = 1 << 31;

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Outcome {
    /// The pattern matches somewhere in the haystack.
    Match,
    /// It matches nowhere.
    NoMatch,
    /// The run reached its step limit or its memory bound before a verdict.
    Stopped,
}

/// A compiled pattern for the backtracking engine.
#[derive(Clone, Debug)]
pub(super) struct Backtracker {
    code: Box<[Inst]>,
    classes: Box<[Class]>,
    loops: Box<[LoopSpec]>,
    /// Two per capture group, then two per counted loop.
    slots: u32,
    /// Whether every match starts at the beginning of the haystack (the pattern opens
    /// with `^` outside any alternation): then no other start is tried.
    anchored: bool,
}

/// One instruction. Targets are indices into the program.
#[derive(Clone, Copy, Debug)]
enum Inst {
    /// The code point, forwards.
    Char(char),
    /// The code point, backwards (inside a lookbehind).
    CharBack(char),
    /// A code point of class `n`, forwards.
    Class(u32),
    /// A code point of class `n`, backwards.
    ClassBack(u32),
    /// `^`, `$` or an ASCII word boundary (or its negation).
    Look(Look),
    /// What capture group `n` (from 1) captured, forwards.
    Backref(u32),
    /// What capture group `n` captured, ending here.
    BackrefBack(u32),
    /// Slot `n` := the position.
    Save(u32),
    /// Go to the first target; on failure, to the second.
    Split(u32, u32),
    /// Go to the target.
    Jump(u32),
    /// Counted loop `n` starts: its counter := 0.
    Enter(u32),
    /// Counted loop `n`'s head: iterate, leave, or both in the loop's order.
    Loop(u32),
    /// Counted loop `n` starts an iteration (the next instruction begins its body).
    Iterate(u32),
    /// Counted loop `n` ends an iteration.
    Next(u32),
    /// A lookaround starts (its body follows); `exit` is the instruction after its
    /// [`Inst::LookEnd`].
    LookStart { negated: bool, exit: u32 },
    /// A lookaround's body matched.
    LookEnd { negated: bool },
    /// The whole pattern matched.
    Match,
    /// Nothing matches here (a lone surrogate, which no `&str` holds).
    Fail,
}

/// A counted loop (`X{min,max}`, `X*` and the like where they need one).
#[derive(Clone, Copy, Debug)]
struct LoopSpec {
    min: u32,
    /// `u32::MAX` for no upper bound.
    max: u32,
    greedy: bool,
    /// Its slots: the iterations so far, and where the current iteration began.
    counter: u32,
    start: u32,
    /// The capture slots an iteration clears (empty unless the pattern has
    /// backreferences).
    captures: (u32, u32),
    /// Its [`Inst::Loop`], where each iteration returns.
    head: u32,
    /// The instruction after the loop.
    exit: u32,
}

/// An alternative to come back to: resume at `pc` at position `ix`, the slots as they
/// were when the undo log was `undo` long. A lookaround's barrier has [`BARRIER`] in
/// `pc`, beside the position of its [`Inst::LookStart`].
#[derive(Clone, Copy, Debug)]
struct Frame {
    pc: u32,
    ix: u32,
    undo: u32,
}

/// The buffers of a run, kept per thread.
#[derive(Default)]
struct Scratch {
    frames: Vec<Frame>,
    /// (slot, the value it had) per write since the oldest frame.
    undo: Vec<(u32, u32)>,
    slots: Vec<u32>,
    /// Frame indices of the lookarounds whose bodies are running, innermost last.
    barriers: Vec<u32>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = const {
        RefCell::new(Scratch {
            frames: Vec::new(),
            undo: Vec::new(),
            slots: Vec::new(),
            barriers: Vec::new(),
        })
    };
}

/// The tree of a recorded pattern, to analyse and compile.
#[derive(Debug)]
enum Node {
    Empty,
    Char(char),
    Fail,
    Class(u32),
    Look(Look),
    Backref(u32),
    Group(Group, Box<Node>),
    Repeat {
        min: u32,
        max: Option<u32>,
        greedy: bool,
        body: Box<Node>,
    },
    Concat(Vec<Node>),
    Alternation(Vec<Node>),
}

/// Builds the tree of a recording, collecting its classes.
#[derive(Default)]
struct Trees {
    classes: Vec<Class>,
}

impl Builder for Trees {
    type Tree = Node;

    fn leaf(&mut self, syntax: &Syntax, token: Token) -> Option<Node> {
        Some(match token {
            Token::Literal(cp) => match char::from_u32(cp) {
                Some(c) => Node::Char(c),
                None => Node::Fail,
            },
            Token::Class {
                negated,
                start,
                len,
            } => {
                let ranges: Vec<(u32, u32)> = (syntax.ranges(start, len)?.iter())
                    .map(|&(low, high)| (u32::from(low), u32::from(high)))
                    .collect();
                let index = u32::try_from(self.classes.len()).ok()?;
                self.classes.push(Class::of(negated, &ranges));
                Node::Class(index)
            }
            Token::Look(look) => Node::Look(look),
            Token::Empty => Node::Empty,
            Token::Backref(n) => Node::Backref(n),
            Token::Repeat { .. } | Token::Open(_) | Token::Close | Token::Alternate => return None,
        })
    }

    fn repeat(&mut self, sub: Node, min: u32, max: Option<u32>, greedy: bool) -> Node {
        Node::Repeat {
            min,
            max,
            greedy,
            body: Box::new(sub),
        }
    }

    fn group(&mut self, group: Group, body: Node) -> Option<Node> {
        Some(Node::Group(group, Box::new(body)))
    }

    fn concat(&mut self, items: Vec<Node>) -> Node {
        Node::Concat(items)
    }

    fn alternation(&mut self, alternatives: Vec<Node>) -> Node {
        Node::Alternation(alternatives)
    }
}

impl Node {
    /// Whether the node can match without consuming a code point.
    fn may_be_empty(&self) -> bool {
        match self {
            Node::Char(_) | Node::Class(_) | Node::Fail => false,
            Node::Empty | Node::Look(_) | Node::Backref(_) => true,
            Node::Group(Group::Look { .. }, _) => true,
            Node::Group(_, body) => body.may_be_empty(),
            Node::Repeat { min, body, .. } => *min == 0 || body.may_be_empty(),
            Node::Concat(items) => items.iter().all(Node::may_be_empty),
            Node::Alternation(items) => items.iter().any(Node::may_be_empty),
        }
    }

    /// The most iterations its nested counted repetitions ask for: their counts
    /// multiplied along each nesting, the largest over the tree (saturating).
    fn repeats(&self) -> u64 {
        match self {
            Node::Group(_, body) => body.repeats(),
            Node::Repeat { min, max, body, .. } => {
                let count = u64::from(max.unwrap_or(*min).max(*min)).max(1);
                count.saturating_mul(body.repeats())
            }
            Node::Concat(items) | Node::Alternation(items) => {
                items.iter().map(Node::repeats).max().unwrap_or(1)
            }
            _ => 1,
        }
    }

    /// The capture groups inside, as a range of group numbers (from 1): they are
    /// numbered in the order they open, so those of one node are consecutive.
    fn captures(&self) -> Option<(u32, u32)> {
        let join = |a: Option<(u32, u32)>, b: Option<(u32, u32)>| match (a, b) {
            (Some((low, high)), Some((l, h))) => Some((low.min(l), high.max(h))),
            (a, b) => a.or(b),
        };
        match self {
            Node::Group(Group::Capture(n), body) => join(Some((*n, *n)), body.captures()),
            Node::Group(_, body) | Node::Repeat { body, .. } => body.captures(),
            Node::Concat(items) | Node::Alternation(items) => {
                items.iter().map(Node::captures).fold(None, join)
            }
            _ => None,
        }
    }

    /// Whether the node has a backreference.
    fn has_backreference(&self) -> bool {
        match self {
            Node::Backref(_) => true,
            Node::Group(_, body) | Node::Repeat { body, .. } => body.has_backreference(),
            Node::Concat(items) | Node::Alternation(items) => {
                items.iter().any(Node::has_backreference)
            }
            _ => false,
        }
    }

    /// The most capture groups numbered inside (the pattern's count, at the root).
    fn highest_capture(&self) -> u32 {
        self.captures().map_or(0, |(_, high)| high)
    }

    /// Whether every match of the node starts at the beginning of the haystack.
    fn anchored(&self) -> bool {
        match self {
            Node::Look(Look::Start) => true,
            Node::Concat(items) => items.first().is_some_and(Node::anchored),
            Node::Group(Group::Plain | Group::Capture(_), body) => body.anchored(),
            Node::Alternation(items) => items.iter().all(Node::anchored),
            _ => false,
        }
    }
}

/// The program being written.
struct Compiler {
    code: Vec<Inst>,
    loops: Vec<LoopSpec>,
    /// The next free slot.
    slots: u32,
    /// Whether iterations clear their captures (only a backreference could tell).
    clears: bool,
}

impl Compiler {
    fn at(&self) -> u32 {
        // The program is at most a few instructions per token of a pattern that a
        // `String` holds: it fits.
        u32::try_from(self.code.len()).unwrap_or(u32::MAX)
    }

    fn emit(&mut self, inst: Inst) -> u32 {
        let at = self.at();
        self.code.push(inst);
        at
    }

    /// Replaces the placeholder at `at` (written before its targets were known).
    fn set(&mut self, at: u32, inst: Inst) {
        if let Some(slot) = self.code.get_mut(at as usize) {
            *slot = inst;
        }
    }

    /// A split at `at` that goes to `go` first, or to `exit` first when not `greedy`.
    fn set_split(&mut self, at: u32, go: u32, exit: u32, greedy: bool) {
        self.set(
            at,
            match greedy {
                true => Inst::Split(go, exit),
                false => Inst::Split(exit, go),
            },
        );
    }

    fn slot_pair(&mut self) -> u32 {
        let first = self.slots;
        self.slots = self.slots.saturating_add(2);
        first
    }

    /// Writes `node`, matched forwards or (in a lookbehind) `backward`.
    fn node(&mut self, node: &Node, backward: bool) {
        match node {
            Node::Empty => {}
            Node::Fail => {
                self.emit(Inst::Fail);
            }
            &Node::Char(c) => {
                self.emit(if backward {
                    Inst::CharBack(c)
                } else {
                    Inst::Char(c)
                });
            }
            &Node::Class(n) => {
                self.emit(if backward {
                    Inst::ClassBack(n)
                } else {
                    Inst::Class(n)
                });
            }
            &Node::Look(look) => {
                self.emit(Inst::Look(look));
            }
            &Node::Backref(n) => {
                self.emit(if backward {
                    Inst::BackrefBack(n)
                } else {
                    Inst::Backref(n)
                });
            }
            Node::Concat(items) => match backward {
                false => items.iter().for_each(|item| self.node(item, false)),
                true => items.iter().rev().for_each(|item| self.node(item, true)),
            },
            Node::Alternation(items) => self.alternation(items, backward),
            Node::Group(Group::Plain, body) => self.node(body, backward),
            &Node::Group(Group::Capture(n), ref body) => {
                // Slots 2(n-1) and 2(n-1)+1: where the capture starts and ends, whichever
                // is reached first.
                let start = 2 * (n - 1);
                let (first, last) = match backward {
                    false => (start, start + 1),
                    true => (start + 1, start),
                };
                self.emit(Inst::Save(first));
                self.node(body, backward);
                self.emit(Inst::Save(last));
            }
            &Node::Group(Group::Look { behind, negated }, ref body) => {
                let start = self.emit(Inst::Fail);
                self.node(body, behind);
                self.emit(Inst::LookEnd { negated });
                let exit = self.at();
                self.set(start, Inst::LookStart { negated, exit });
            }
            &Node::Repeat {
                min,
                max,
                greedy,
                ref body,
            } => self.repeat(min, max, greedy, body, backward),
        }
    }

    /// `a|b|c`: try `a`, else `b`, else `c`, each in its own split.
    fn alternation(&mut self, items: &[Node], backward: bool) {
        let Some((last, rest)) = items.split_last() else {
            return;
        };
        let mut to_end = Vec::with_capacity(rest.len());
        for item in rest {
            let split = self.emit(Inst::Fail);
            self.node(item, backward);
            to_end.push(self.emit(Inst::Fail));
            let next = self.at();
            self.set(split, Inst::Split(split + 1, next));
        }
        self.node(last, backward);
        let end = self.at();
        for jump in to_end {
            self.set(jump, Inst::Jump(end));
        }
    }

    fn repeat(&mut self, min: u32, max: Option<u32>, greedy: bool, body: &Node, backward: bool) {
        if max == Some(0) {
            return;
        }
        if (min, max) == (1, Some(1)) {
            return self.node(body, backward);
        }
        let clears = self.clears && body.captures().is_some();
        // Without captures to clear, `X?`, and `X*` / `X+` whose `X` always consumes,
        // need no counter (an `X` that may match nothing needs one, for the check that
        // ends a loop of empty iterations).
        let unbounded_nonempty = max.is_none() && !body.may_be_empty();
        match (min, max) {
            // `X?`: a split around `X`.
            (0, Some(1)) if !clears => {
                let split = self.emit(Inst::Fail);
                self.node(body, backward);
                let exit = self.at();
                return self.set_split(split, split + 1, exit, greedy);
            }
            // `X*`: a split, `X`, a jump back.
            (0, None) if !clears && unbounded_nonempty => {
                let split = self.emit(Inst::Fail);
                self.node(body, backward);
                self.emit(Inst::Jump(split));
                let exit = self.at();
                return self.set_split(split, split + 1, exit, greedy);
            }
            // `X+`: `X`, then a split back.
            (1, None) if !clears && unbounded_nonempty => {
                let top = self.at();
                self.node(body, backward);
                let split = self.emit(Inst::Fail);
                return self.set_split(split, top, split + 1, greedy);
            }
            _ => {}
        }
        let index = u32::try_from(self.loops.len()).unwrap_or(u32::MAX);
        let counter = self.slot_pair();
        let captures = match body.captures() {
            Some((low, high)) if clears => (2 * (low - 1), 2 * high),
            _ => (0, 0),
        };
        self.loops.push(LoopSpec {
            min,
            max: max.unwrap_or(u32::MAX),
            greedy,
            counter,
            start: counter + 1,
            captures,
            head: self.at() + 1,
            exit: 0,
        });
        self.emit(Inst::Enter(index));
        self.emit(Inst::Loop(index));
        self.emit(Inst::Iterate(index));
        self.node(body, backward);
        self.emit(Inst::Next(index));
        let exit = self.at();
        if let Some(spec) = self.loops.get_mut(index as usize) {
            spec.exit = exit;
        }
    }
}

impl Backtracker {
    /// Compiles a complete recording ([`super::syntax::Recorder::complete`]).
    pub(super) fn new(syntax: &Syntax) -> Result<Backtracker, PatternError> {
        let mut trees = Trees::default();
        let tree = (syntax.build(&mut trees))
            .ok_or_else(|| PatternError::new("pattern could not be read back"))?;
        let classes = trees.classes;
        let repeats = tree.repeats();
        if repeats > MAX_REPEATS {
            return Err(PatternError::new(format!(
                "pattern is too costly: its nested counted repetitions ask for {} \
                 iterations, more than the limit of {MAX_REPEATS} for a pattern with \
                 lookarounds or backreferences",
                match repeats {
                    u64::MAX => "too many".to_string(),
                    n => n.to_string(),
                }
            )));
        }
        let mut compiler = Compiler {
            code: Vec::new(),
            loops: Vec::new(),
            slots: tree.highest_capture().saturating_mul(2),
            clears: tree.has_backreference(),
        };
        compiler.node(&tree, false);
        compiler.emit(Inst::Match);
        if compiler.slots >= BARRIER || compiler.code.len() >= BARRIER as usize {
            return Err(PatternError::new("pattern is too large"));
        }
        Ok(Backtracker {
            code: compiler.code.into_boxed_slice(),
            classes: classes.into_boxed_slice(),
            loops: compiler.loops.into_boxed_slice(),
            slots: compiler.slots,
            anchored: tree.anchored(),
        })
    }

    /// Whether the pattern matches anywhere in `haystack`, within `limit` steps, and the
    /// steps taken.
    pub(super) fn run(&self, haystack: &str, limit: u32) -> (Outcome, u32) {
        // Positions are kept in 32 bits.
        if u32::try_from(haystack.len()).map_or(true, |len| len == UNSET) {
            return (Outcome::Stopped, limit);
        }
        let mut steps = limit;
        let outcome = SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
            Ok(mut scratch) => {
                let outcome = self.search(haystack, &mut scratch, &mut steps);
                scratch.trim();
                outcome
            }
            // A run inside a run (a `format` checker matching a pattern, say): buffers
            // of its own.
            Err(_) => self.search(haystack, &mut Scratch::default(), &mut steps),
        });
        (outcome, limit - steps)
    }

    /// Tries each start in turn (only the first when anchored).
    fn search(&self, haystack: &str, scratch: &mut Scratch, steps: &mut u32) -> Outcome {
        let last = if self.anchored { 0 } else { haystack.len() };
        for start in 0..=last {
            if !haystack.is_char_boundary(start) {
                continue;
            }
            match self.attempt(haystack.as_bytes(), start as u32, scratch, steps) {
                Outcome::NoMatch => {}
                outcome => return outcome,
            }
        }
        Outcome::NoMatch
    }

    /// Runs the program from `start`.
    fn attempt(&self, hay: &[u8], start: u32, s: &mut Scratch, steps: &mut u32) -> Outcome {
        s.frames.clear();
        s.undo.clear();
        s.barriers.clear();
        s.slots.clear();
        s.slots.resize(self.slots as usize, UNSET);
        let mut pc: u32 = 0;
        let mut ix: u32 = start;
        loop {
            if *steps == 0 {
                return Outcome::Stopped;
            }
            *steps -= 1;
            let Some(&inst) = self.code.get(pc as usize) else {
                return Outcome::Stopped;
            };
            let advanced = match inst {
                Inst::Match => return Outcome::Match,
                Inst::Fail => None,
                Inst::Char(c) => next(hay, ix).filter(|&(d, _)| d == c).map(|(_, to)| to),
                Inst::CharBack(c) => back(hay, ix).filter(|&(d, _)| d == c).map(|(_, to)| to),
                Inst::Class(n) => next(hay, ix)
                    .filter(|&(c, _)| self.member(n, c))
                    .map(|(_, to)| to),
                Inst::ClassBack(n) => back(hay, ix)
                    .filter(|&(c, _)| self.member(n, c))
                    .map(|(_, to)| to),
                Inst::Look(look) => at_look(hay, ix, look).then_some(ix),
                Inst::Backref(n) | Inst::BackrefBack(n) => {
                    let backward = matches!(inst, Inst::BackrefBack(_));
                    match self.backreference(hay, ix, n, backward, &s.slots) {
                        Some((to, len)) => {
                            let work = (len / BYTES_PER_STEP) as u32;
                            if *steps < work {
                                return Outcome::Stopped;
                            }
                            *steps -= work;
                            Some(to)
                        }
                        None => None,
                    }
                }
                Inst::Save(slot) => {
                    s.write(slot, ix);
                    Some(ix)
                }
                Inst::Split(first, second) => {
                    if !s.push(second, ix) {
                        return Outcome::Stopped;
                    }
                    pc = first;
                    continue;
                }
                Inst::Jump(to) => {
                    pc = to;
                    continue;
                }
                Inst::Enter(n) => {
                    s.write(self.loops[n as usize].counter, 0);
                    Some(ix)
                }
                Inst::Loop(n) => {
                    let spec = self.loops[n as usize];
                    let count = s.slots[spec.counter as usize];
                    let iterate = pc + 1;
                    pc = if count >= spec.max {
                        spec.exit
                    } else if count < spec.min {
                        iterate
                    } else {
                        let (go, other) = match spec.greedy {
                            true => (iterate, spec.exit),
                            false => (spec.exit, iterate),
                        };
                        if !s.push(other, ix) {
                            return Outcome::Stopped;
                        }
                        go
                    };
                    continue;
                }
                Inst::Iterate(n) => {
                    let spec = self.loops[n as usize];
                    s.write(spec.start, ix);
                    let (from, to) = spec.captures;
                    let clears = to - from;
                    if *steps < clears {
                        return Outcome::Stopped;
                    }
                    *steps -= clears;
                    for slot in from..to {
                        s.write(slot, UNSET);
                    }
                    Some(ix)
                }
                Inst::Next(n) => {
                    let spec = self.loops[n as usize];
                    let count = s.slots[spec.counter as usize];
                    if count >= spec.min && s.slots[spec.start as usize] == ix {
                        // An optional iteration that consumed nothing fails.
                        None
                    } else {
                        s.write(spec.counter, count.saturating_add(1));
                        pc = spec.head;
                        continue;
                    }
                }
                Inst::LookStart { .. } => {
                    if !s.push(BARRIER | pc, ix) {
                        return Outcome::Stopped;
                    }
                    s.barriers.push(s.frames.len() as u32 - 1);
                    Some(ix)
                }
                Inst::LookEnd { negated } => {
                    // The body matched: drop its alternatives, back to where it began.
                    let Some(barrier) = s.barriers.pop() else {
                        return Outcome::Stopped;
                    };
                    let Some(&frame) = s.frames.get(barrier as usize) else {
                        return Outcome::Stopped;
                    };
                    s.frames.truncate(barrier as usize);
                    match negated {
                        true => None,
                        false => Some(frame.ix),
                    }
                }
            };
            match advanced {
                Some(to) => {
                    ix = to;
                    pc += 1;
                }
                // Back to the latest alternative.
                None => loop {
                    let Some(frame) = s.frames.pop() else {
                        return Outcome::NoMatch;
                    };
                    if *steps == 0 {
                        return Outcome::Stopped;
                    }
                    *steps -= 1;
                    s.undo_to(frame.undo);
                    if frame.pc & BARRIER == 0 {
                        pc = frame.pc;
                        ix = frame.ix;
                        break;
                    }
                    // A lookaround's body failed: a negative one holds, a positive one
                    // fails in turn.
                    s.barriers.pop();
                    if let Some(&Inst::LookStart {
                        negated: true,
                        exit,
                    }) = self.code.get((frame.pc & !BARRIER) as usize)
                    {
                        pc = exit;
                        ix = frame.ix;
                        break;
                    }
                },
            }
        }
    }

    fn member(&self, class: u32, c: char) -> bool {
        let class = &self.classes[class as usize];
        let cp = u32::from(c);
        match cp < 128 {
            true => class.ascii >> cp & 1 == 1,
            false => class.has_wide(cp),
        }
    }

    /// Where a backreference to group `n` that matches at `ix` ends, and its length.
    fn backreference(
        &self,
        hay: &[u8],
        ix: u32,
        n: u32,
        backward: bool,
        slots: &[u32],
    ) -> Option<(u32, usize)> {
        let slot = 2 * (n.checked_sub(1)? as usize);
        let (start, end) = (*slots.get(slot)?, *slots.get(slot + 1)?);
        if start == UNSET || end == UNSET || start > end {
            // A group that captured nothing matches the empty string.
            return Some((ix, 0));
        }
        let captured = hay.get(start as usize..end as usize)?;
        let len = captured.len();
        let at = ix as usize;
        let (from, to) = match backward {
            false => (at, at.checked_add(len)?),
            true => (at.checked_sub(len)?, at),
        };
        (hay.get(from..to)? == captured).then_some((if backward { from } else { to } as u32, len))
    }
}

impl Scratch {
    /// Slot `slot` := `value`, logged to be undone if an older alternative is taken.
    #[inline]
    fn write(&mut self, slot: u32, value: u32) {
        let Some(old) = self.slots.get_mut(slot as usize) else {
            return;
        };
        if !self.frames.is_empty() {
            self.undo.push((slot, *old));
        }
        *old = value;
    }

    /// Records an alternative; `false` when the stack is full.
    #[inline]
    fn push(&mut self, pc: u32, ix: u32) -> bool {
        if self.frames.len() >= MAX_FRAMES {
            return false;
        }
        let undo = self.undo.len() as u32;
        self.frames.push(Frame { pc, ix, undo });
        true
    }

    /// Restores the slots as they were when the undo log was `len` long.
    fn undo_to(&mut self, len: u32) {
        while self.undo.len() > len as usize {
            if let Some((slot, old)) = self.undo.pop() {
                if let Some(value) = self.slots.get_mut(slot as usize) {
                    *value = old;
                }
            }
        }
    }

    /// Gives back what a hostile run made the buffers grow to.
    fn trim(&mut self) {
        if self.frames.capacity() > RETAINED {
            self.frames = Vec::new();
        }
        if self.undo.capacity() > RETAINED {
            self.undo = Vec::new();
        }
        if self.barriers.capacity() > RETAINED {
            self.barriers = Vec::new();
        }
    }
}

/// The code point at `ix` (a character boundary of a `&str`'s bytes) and the position
/// after it.
#[inline]
fn next(hay: &[u8], ix: u32) -> Option<(char, u32)> {
    let at = ix as usize;
    let &first = hay.get(at)?;
    if first < 0x80 {
        return Some((char::from(first), ix + 1));
    }
    let len = match first {
        0xF0.. => 4,
        0xE0.. => 3,
        _ => 2,
    };
    Some((decode(hay.get(at..at + len)?)?, ix + len as u32))
}

/// The code point before `ix` (a character boundary) and the position where it starts.
#[inline]
fn back(hay: &[u8], ix: u32) -> Option<(char, u32)> {
    let at = ix as usize;
    let &last = hay.get(at.checked_sub(1)?)?;
    if last < 0x80 {
        return Some((char::from(last), ix - 1));
    }
    // A character is at most four bytes: its lead byte is the last one that does not
    // continue another.
    let start = (at.saturating_sub(4)..at)
        .rev()
        .find(|&i| hay.get(i).is_some_and(|&b| b & 0xC0 != 0x80))?;
    Some((decode(hay.get(start..at)?)?, start as u32))
}

/// The code point a well-formed UTF-8 sequence of two to four bytes encodes.
#[inline]
fn decode(bytes: &[u8]) -> Option<char> {
    let (&lead, rest) = bytes.split_first()?;
    let lead_bits = match rest.len() {
        1 => lead & 0x1F,
        2 => lead & 0x0F,
        _ => lead & 0x07,
    };
    let cp = (rest.iter()).fold(u32::from(lead_bits), |cp, &b| cp << 6 | u32::from(b & 0x3F));
    char::from_u32(cp)
}

/// Whether the assertion `look` holds at `ix`.
fn at_look(hay: &[u8], ix: u32, look: Look) -> bool {
    let at = ix as usize;
    let word = |i: Option<usize>| {
        i.and_then(|i| hay.get(i))
            .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_')
    };
    let boundary = || word(at.checked_sub(1)) != word(Some(at));
    match look {
        Look::Start => at == 0,
        Look::End => at == hay.len(),
        Look::WordAscii => boundary(),
        Look::WordAsciiNegate => !boundary(),
        // The translator records no other assertion.
        _ => false,
    }
}
