//! The operand tables of the applicator and fused nodes: one struct per kind of node
//! that needs more than a few ids (a union's switch, a chain of cases, a list of
//! checks, an `items` table...). [`Properties`](super::Properties) has a module of its own.

use super::{Node, Program, Settle};
use crate::formats::Checker;
use crate::ids::{NodeId, Span, StrId};
use crate::json::equal::equal;
use crate::json::types::TypeSet;
use crate::json::view::{Json, View};
use crate::names::NameSet;
use serde_json::Value;

/// The operands of [`Node::Switch`]: an `anyOf`/`oneOf` whose branches each say, of one
/// `property`, which strings its value may be (`const` / `enum`), which it may not be
/// (`not` of those), or whether it must be present (`required`). An object instance then
/// needs only the branches that can accept its `property`: every other branch would fail
/// on that property.
#[derive(Clone, Debug)]
pub(crate) struct Switch {
    /// `oneOf` (exactly one branch passes) rather than `anyOf`.
    pub(crate) one: bool,
    /// All branches, as in the `Any` / `One` node this replaces.
    pub(crate) branches: Span,
    /// The property whose value selects branches.
    pub(crate) property: Box<str>,
    /// The values some branch lists for the property.
    pub(crate) values: NameSet,
    /// Per value (by its position in `values`), the positions (in `branches`, ascending)
    /// of the branches that may accept it. Here and in `open` / `absent`, branches that
    /// reject every object (by [`Program::admits`]) are left out.
    pub(crate) cases: Vec<Vec<u32>>,
    /// Positions of the branches that may accept any other value (a string no case
    /// lists, or not a string at all).
    pub(crate) open: Vec<u32>,
    /// Positions of the branches that may accept an object without the property.
    pub(crate) absent: Vec<u32>,
    /// How each branch (by position) is settled in place (set by the compiler's last
    /// pass).
    pub(crate) settles: Box<[Settle]>,
}

impl Switch {
    /// How many branches an object leaves to try, on average over the listed values
    /// and the property's absence (a fixed-point fraction, for comparing switches).
    pub(crate) fn candidates_per_case(&self) -> u64 {
        let tried = self.cases.iter().map(Vec::len).sum::<usize>() + self.absent.len();
        ((tried as u64) << 16) / (self.cases.len() as u64 + 1)
    }

    /// The positions of the branches that may accept `value` for the property.
    pub(crate) fn case<'i, V: View<'i>>(&self, value: V) -> &[u32] {
        let Some(value) = value.as_str() else {
            return &self.open;
        };
        match self.values.position(value) {
            Some(i) => &self.cases[i],
            None => &self.open,
        }
    }
}

/// An `else if` chain whose links each test one property's value against values the
/// schema lists (`"if": {"properties": {"type": {"const": "library"}}}`, then the next
/// link in `else`): real schemas pick a variant's rules so, link after link on the same
/// tag (ui5's `type`, then its `specVersion` under each type). Evaluated as written,
/// each link is a lookup of the tag and a check of its value; instead the tag is looked
/// up once and its value in these tables, which name the branch the chain would take,
/// and that branch is evaluated.
///
/// What the tables rest on: a link's test accepts only values its schema lists (a
/// `const`, an `enum`...; see `compiler::cases`), so a value no link lists fails every
/// test and takes the chain's last `else`; each listed value takes the `then` of the
/// first link whose test the compiler saw it pass. A value that is not an object passes
/// every test; an object without the tag, every test that does not require it. A chain's
/// tests report no error of their own, so the lookup explains a failure as the chain
/// does; only where evaluations are marked (`unevaluated*`: a passing test's marks
/// count) is the chain evaluated as written, from its first link.
#[derive(Clone, Debug)]
pub(crate) struct Cases {
    /// The first link's `if`.
    pub(crate) test: NodeId,
    /// The first link's `then`.
    pub(crate) then: NodeId,
    /// The first link's `else`: the rest of the chain.
    pub(crate) otherwise: NodeId,
    /// The property every link tests.
    pub(crate) property: Box<str>,
    /// The string values some link's test passes.
    pub(crate) strings: NameSet,
    /// Per string (by its position in `strings`), the branch the chain takes.
    pub(crate) string_cases: Box<[Case]>,
    /// The other values some link's test passes, with the branch each takes.
    pub(crate) other_cases: Vec<(Value, Case)>,
    /// The branch of a value no test passes: the last link's `else`.
    pub(crate) unlisted: Case,
    /// The branch of an object without the property, or of a value that is no object.
    pub(crate) absent: Case,
}

/// A branch of [`Cases`]: the node to evaluate, and how many links the chain as
/// written tests to reach it (a step each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Case {
    /// The `then` of the link that passed, or the last `else`.
    pub(crate) node: NodeId,
    /// The links tested.
    pub(crate) links: u32,
}

impl Cases {
    /// The branch the chain takes for `value` of the property.
    #[inline]
    pub(crate) fn case<'i, V: View<'i>>(&self, value: V) -> Case {
        let found = match value.json() {
            Json::String(text) => (self.strings.position(text)).map(|i| self.string_cases[i]),
            _ => (self.other_cases.iter())
                .find(|(listed, _)| equal(value, listed))
                .map(|&(_, case)| case),
        };
        found.unwrap_or(self.unlisted)
    }
}

/// The operands of [`Node::ByKind`]: an `anyOf` / `oneOf` in which no two branches may
/// accept values of the same kind ([`Program::admits`]). A value can then pass only
/// the branch of its kind, if any: that one branch decides the verdict of both `anyOf`
/// and `oneOf`.
#[derive(Clone, Debug)]
pub(crate) struct ByKind {
    /// `oneOf` (exactly one branch passes) rather than `anyOf`.
    pub(crate) one: bool,
    /// All branches, as in the `Any` / `One` node this replaces.
    pub(crate) branches: Span,
    /// Per kind of value ([`TypeSet::kind_index`]), the one branch that may accept it.
    pub(crate) by_kind: [Option<NodeId>; TypeSet::KINDS],
    /// How each of those branches is settled in place (set by the compiler's last
    /// pass; `Eval` where there is no branch).
    pub(crate) settles: [Settle; TypeSet::KINDS],
}

/// The operands of [`Node::PropertyLogic`]: checks of an object that read only which of
/// [`PropertyLogic::names`] it has and leaf checks of some of their values, as one
/// formula of [`Clause`]s. The fast mode finds the names in one pass over the object's
/// keys (or one lookup per name in a large object) and evaluates the formula on the
/// presence bits; every other run (explaining, tracking evaluations for
/// `unevaluated*`) and every value that is not an object evaluates `parts` as an `All`.
#[derive(Clone, Debug)]
pub(crate) struct PropertyLogic {
    /// The nodes this replaces, in order: the formula's meaning.
    pub(crate) parts: Span,
    /// The names the formula reads, at most [`PropertyLogic::MAX_NAMES`]: name `i` (a
    /// position in the set) is bit `i` of the presence bits.
    pub(crate) names: NameSet,
    /// Per name, where the pass keeps its value ([`PropertyLogic::NO_SLOT`] for names
    /// whose value no clause reads).
    pub(crate) slots: Box<[u8]>,
    /// The clauses, children before their parents.
    pub(crate) clauses: Box<[Clause]>,
    /// The formula: the clause that holds when every part passes.
    pub(crate) root: u32,
    /// Per part, in order, the clause that holds when that part passes: an explaining run
    /// of a failing formula walks only the parts whose clauses fail (and of an `if` part,
    /// only the branch its test's clause picks).
    pub(crate) part_clauses: Box<[u32]>,
    /// Children of `All` / `Any` / `One` clauses (indices into `clauses`).
    pub(crate) edges: Box<[u32]>,
}

impl PropertyLogic {
    /// The most names one formula reads (one bit each).
    pub(crate) const MAX_NAMES: usize = 64;
    /// The most values one formula reads.
    pub(crate) const MAX_VALUES: usize = 8;
    /// [`PropertyLogic::slots`] of a name whose value is not read.
    pub(crate) const NO_SLOT: u8 = u8::MAX;
}

/// One clause of a [`PropertyLogic`] formula, over the presence bits of its names and
/// the values it keeps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Clause {
    /// Always holds.
    True,
    /// Never holds.
    False,
    /// Every name of the mask is present (`required`).
    Has(u64),
    /// No name of the mask is present (`properties` of `false`).
    Lacks(u64),
    /// When a name of `when` is present, so is every name of `then` (`dependentRequired`).
    Implies {
        /// The dependent name.
        when: u64,
        /// The names it requires.
        then: u64,
    },
    /// The object has `min..=max` properties (`minProperties`, `maxProperties`).
    Count {
        /// The least count.
        min: u32,
        /// The greatest count.
        max: u32,
    },
    /// When the name of `bit` is present, its value (kept in `slot`) passes the leaf
    /// `node` (a property's schema under `properties`), settled as `settle`.
    Value {
        /// The name's bit.
        bit: u8,
        /// Where its value is kept.
        slot: u8,
        /// The leaf.
        node: NodeId,
        /// How the leaf is settled ([`Settle::of`] it).
        settle: Settle,
    },
    /// The clause does not hold (`not`).
    Not(u32),
    /// Every clause of the span (of `edges`) holds.
    All(u32, u32),
    /// At least one does (`anyOf`).
    Any(u32, u32),
    /// Exactly one does (`oneOf`).
    One(u32, u32),
    /// `then` when `test` holds, else `otherwise` (`if` / `then` / `else`).
    If {
        /// The `if` clause.
        test: u32,
        /// The `then` clause.
        then: u32,
        /// The `else` clause.
        otherwise: u32,
    },
}

/// The operands of [`Node::Annotate`]: the annotation keywords of one schema object.
#[derive(Clone, Debug)]
pub(crate) struct AnnotationSet {
    /// Where the schema object is (as [`Program::locations`] writes locations).
    pub(crate) location: Box<str>,
    /// Each keyword with its value, in schema order, and whether it annotates strings
    /// only (the content keywords).
    pub(crate) entries: Vec<(Box<str>, Value, bool)>,
}

/// The operands of [`Node::StringEnum`]: a set of strings, found by probe word and one
/// byte compare ([`NameSet`]).
#[derive(Clone, Debug)]
pub(crate) struct StringSet {
    /// The distinct strings.
    pub(super) set: NameSet,
    /// The `enum` as written, for messages: the position in `set` of each option.
    pub(super) listing: Box<[u32]>,
}

impl StringSet {
    /// The set of `options`, in the order the schema lists them.
    pub(crate) fn new(options: &[&str]) -> StringSet {
        let set = NameSet::new(options.iter().copied());
        let listing = (options.iter())
            .filter_map(|option| set.position(option))
            .map(|position| position as u32)
            .collect();
        StringSet { set, listing }
    }

    /// The options as the schema lists them (repeats included).
    pub(crate) fn listed(&self) -> impl Iterator<Item = &str> {
        self.listing
            .iter()
            .map(|&position| self.set.name(position as usize))
    }

    /// Whether `text` is in the set.
    #[inline]
    pub(crate) fn contains(&self, text: &str) -> bool {
        self.set.position(text).is_some()
    }

    /// The strings of the set (in no particular order).
    pub(crate) fn strings(&self) -> impl ExactSizeIterator<Item = &str> {
        self.set.names()
    }

    /// How many strings the set holds.
    pub(crate) fn len(&self) -> usize {
        self.set.len()
    }
}

/// The operands of [`Node::Checks`]: leaf parts grouped by the kind of value each can
/// fail, so that a value meets its `type` once and then only the checks of its own kind
/// (a string never looks at `minimum`).
#[derive(Clone, Debug)]
pub(crate) struct CheckList {
    /// Every part, in schema order: what errors, evaluation marks and the compiler's own
    /// analyses read.
    pub(crate) parts: Span,
    /// The `type` parts, intersected (every type when there is none).
    pub(crate) types: TypeSet,
    /// The other parts (spans of `edges`), by [`CheckList::kind`] of the values they can
    /// fail among those `types` admits: several kinds, strings, numbers, arrays, objects.
    pub(crate) by_kind: [Span; 5],
    /// The number parts as one interval of doubles, when they are all bounds that
    /// doubles hold exactly (`minimum: 0`, `exclusiveMaximum: 10`): a number a double
    /// holds exactly is then judged by two compares, without the exact path.
    pub(crate) bounds: Option<FloatBounds>,
    /// How the list settles ([`Settle::of_checks`], set by the compiler's last pass): an
    /// array whose items are checked by it decides their verdicts from it once.
    pub(crate) settle: Settle,
}

/// Number bounds as doubles (see [`CheckList::bounds`]); no bound is an infinite one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct FloatBounds {
    /// The greatest lower bound.
    pub(crate) low: f64,
    /// Whether a number equal to `low` fails (`exclusiveMinimum`).
    pub(crate) low_open: bool,
    /// The least upper bound.
    pub(crate) high: f64,
    /// Whether a number equal to `high` fails (`exclusiveMaximum`).
    pub(crate) high_open: bool,
}

impl FloatBounds {
    /// Whether `x` is within the bounds.
    #[inline(always)]
    pub(crate) fn admits(&self, x: f64) -> bool {
        let above = if self.low_open {
            x > self.low
        } else {
            x >= self.low
        };
        let below = if self.high_open {
            x < self.high
        } else {
            x <= self.high
        };
        above && below
    }

    /// The bounds of the number parts `parts` (of `program`), if every part is a bound
    /// that a double holds exactly.
    pub(crate) fn of(program: &Program, parts: &[NodeId]) -> Option<FloatBounds> {
        let mut bounds = FloatBounds {
            low: f64::NEG_INFINITY,
            low_open: false,
            high: f64::INFINITY,
            high_open: false,
        };
        for &part in parts {
            let (bound, low, open) = match program.nodes[part.index()] {
                Node::Minimum(n) => (n, true, false),
                Node::ExclusiveMinimum(n) => (n, true, true),
                Node::Maximum(n) => (n, false, false),
                Node::ExclusiveMaximum(n) => (n, false, true),
                _ => return None,
            };
            let value = crate::json::number::exact_f64(&program.numbers[bound])?;
            if low && (value > bounds.low || (value == bounds.low && open)) {
                (bounds.low, bounds.low_open) = (value, open);
            } else if !low && (value < bounds.high || (value == bounds.high && open)) {
                (bounds.high, bounds.high_open) = (value, open);
            }
        }
        (!parts.is_empty()).then_some(bounds)
    }
}

impl CheckList {
    /// Parts that can fail values of several kinds (`const`, `enum`, nested leaves).
    pub(crate) const SEVERAL: usize = 0;
    /// Parts that can fail only strings.
    pub(crate) const STRING: usize = 1;
    /// Parts that can fail only numbers.
    pub(crate) const NUMBER: usize = 2;
    /// Parts that can fail only arrays.
    pub(crate) const ARRAY: usize = 3;
    /// Parts that can fail only objects.
    pub(crate) const OBJECT: usize = 4;

    /// The group of parts that `kinds` (the value kinds a part can fail) belongs to.
    pub(crate) fn kind(kinds: TypeSet) -> usize {
        match kinds {
            TypeSet::STRING => Self::STRING,
            TypeSet::NUMBER | TypeSet::INTEGER => Self::NUMBER,
            TypeSet::ARRAY => Self::ARRAY,
            TypeSet::OBJECT => Self::OBJECT,
            _ => Self::SEVERAL,
        }
    }
}

/// The operands of [`Node::ArrayOf`]: values of `types`, and when arrays, of `min..=max`
/// items, the first ones each of its `prefix` type and the others of `items`, checked in
/// one loop (coordinate pairs, lists of strings, `[name, options]` pairs), then, with
/// `uniqueItems`, distinct (lists of file names, tags).
#[derive(Clone, Debug)]
pub(crate) struct ArrayOf {
    /// The types of the value (its `type`s intersected), arrays always among them.
    pub(crate) types: TypeSet,
    /// The type of each leading item (array-form `items`, `prefixItems`).
    pub(crate) prefix: Box<[TypeSet]>,
    /// The types every item after the prefix must have; [`TypeSet::ANY`] when they are
    /// not checked (a prefix without a rest).
    pub(crate) items: TypeSet,
    /// Whether `items` checks every item after the prefix (an `items` keyword does, so
    /// it evaluates them all for `unevaluatedItems`), not only passes them.
    pub(crate) each_item: bool,
    /// `minItems` (0 when absent).
    pub(crate) min: u32,
    /// `maxItems` (`u32::MAX` when absent).
    pub(crate) max: u32,
    /// `uniqueItems: true`: the items, once their types pass, are distinct.
    pub(crate) unique: bool,
    /// The `Checks` parts this replaces, which explain a failure at their own keywords.
    pub(crate) parts: Span,
}

/// The operands of [`Node::Items`].
#[derive(Clone, Debug)]
pub(crate) struct Items {
    /// One node per leading position (`prefixItems`, or array-form `items`).
    pub(crate) prefix: Span,
    /// The node every later item must pass (`items`, or `additionalItems`).
    pub(crate) rest: Option<NodeId>,
    /// How `rest` is settled (set by the compiler's last pass).
    pub(crate) rest_settle: Settle,
    /// How each `prefix` node is settled (set by the compiler's last pass).
    pub(crate) prefix_settle: Box<[Settle]>,
    /// The keywords of `prefix` and `rest` (`prefixItems` and `items`, or `items` and
    /// `additionalItems`), for their annotations.
    pub(crate) keywords: [&'static str; 2],
    /// The size checks of the table's schema object folded into it (`minItems`,
    /// `maxItems`, `uniqueItems`, see `compiler::records`): run, as the nodes they
    /// were, only when an array is not plainly within [`Items::sizes`].
    pub(crate) size_checks: Span,
    /// What the `size_checks` say of an array's length, `(min, max)`, and whether they
    /// ask for unique items: an array of a length within and no uniqueness to check
    /// passes them all without running them. `(0, u32::MAX)` and `false` when none.
    pub(crate) sizes: (u32, u32, bool),
}

impl Items {
    /// Whether an array of `len` items passes the folded size checks without running
    /// them (they run otherwise, which settles the verdict and explains a failure).
    #[inline(always)]
    pub(crate) fn plainly_sized(&self, len: usize) -> bool {
        let (min, max, unique) = self.sizes;
        len >= min as usize && len <= max as usize && !unique
    }
}

/// The operands of [`Node::Unevaluated`].
#[derive(Clone, Debug)]
pub(crate) struct Unevaluated {
    /// The schema object's other keywords, run first with evaluation tracking on.
    pub(crate) body: NodeId,
    /// `unevaluatedProperties`.
    pub(crate) properties: Option<NodeId>,
    /// `unevaluatedItems`.
    pub(crate) items: Option<NodeId>,
}

/// The operands of [`Node::DynamicRef`].
#[derive(Clone, Debug)]
pub(crate) struct DynamicRef {
    /// Where the reference resolves statically, used when no resource on the scope
    /// defines the anchor.
    pub(crate) target: NodeId,
    /// The anchor's name (empty for `$recursiveAnchor`).
    pub(crate) anchor: StrId,
}

/// A `format` assertion.
#[derive(Clone, Debug)]
pub(crate) struct Format {
    /// The format's name.
    pub(crate) name: StrId,
    /// Its checker.
    pub(crate) check: Checker,
}
