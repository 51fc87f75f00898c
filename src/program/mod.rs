//! The compiled form of a schema: a flat arena of [`Node`]s plus side tables.
//!
//! The compiler ([`crate::compiler`]) lowers every subschema into nodes of one `Vec`,
//! children referenced by [`NodeId`] or by a [`Span`] into [`Program::edges`]; large or
//! variable-size payloads (values, numbers, strings, regexes, property tables) live in
//! side tables and are named by id. A `$ref` is an edge like any other, so recursive
//! schemas are id cycles. The interpreter ([`crate::vm`]) matches on `Node` and never
//! asks which dialect or which keyword spellings produced it.
//!
//! Invariants every table relies on: each id stored anywhere in the program is below the
//! length of the table it names, and [`Program::locations`] has one entry per node.

pub(crate) mod facts;
mod locations;

pub(crate) use locations::{Locations, Place};

use crate::formats::Checker;
use crate::ids::{Id, NodeId, NumId, RegexId, ScopeId, Span, StrId, ValueId};
use crate::json::equal::{equal, ValueIndex};
use crate::json::types::TypeSet;
use crate::names::{probe, same_bytes, NameSet, ProbedIndex, QuickIndex, Spelling};
use crate::regex::{Pattern, StepLimit};
use serde_json::{Number, Value};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// One instruction of the validation program.
///
/// Each variant documents its operands, what it checks, and the keywords it comes from.
/// A check on one JSON type passes every instance of another type, as in JSON Schema.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Node {
    /// Always passes: `true`, `{}`, or a schema of annotations only.
    Valid,
    /// Always fails: `false`.
    Invalid,
    /// Every node in the span (of `edges`) passes: a schema object's keywords, `allOf`.
    All(Span),
    /// Every part of a [`CheckList`] passes, and each of them is a leaf: a schema object
    /// whose keywords only check the value itself. The compiler turns such an `All` into
    /// `Checks` so the interpreter settles it as one leaf.
    Checks(Id<CheckList>),
    /// A `Checks` that only gives an array's item types and size (`{"type": "array",
    /// "items": {"type": T}}`, `[name, options]` pairs of lone types, maybe with
    /// `minItems` / `maxItems` / `uniqueItems`): see [`ArrayOf`].
    ArrayOf(Id<ArrayOf>),
    /// `items` (no prefix) whose schema is a leaf: every item passes that leaf. A leaf
    /// itself, so `{"type": "array", "items": {"type": "number"}}` is settled in one go.
    EachItem(NodeId),
    /// At least one node in the span passes: `anyOf`.
    Any(Span),
    /// An [`Node::Any`] whose branches are all leaves: a leaf itself, settled in one loop.
    AnyLeaf(Span),
    /// A [`Node::One`] whose branches are all leaves: a leaf itself.
    OneLeaf(Span),
    /// A [`Node::OneLeaf`] whose branches no value passes two of (proved by the
    /// compiler, see `compiler::exclusive`): the first branch that passes settles it,
    /// as an [`Node::AnyLeaf`]'s does; it explains itself as the `oneOf` it is.
    ExclusiveLeaf(Span),
    /// Exactly one node in the span passes: `oneOf`.
    One(Span),
    /// `anyOf` / `oneOf` whose branches are told apart by one property's string value
    /// (a `const` or `enum` under `properties`): see [`Switch`].
    Switch(Id<Switch>),
    /// `anyOf` / `oneOf` whose branches accept values of distinct kinds (a string or an
    /// object, a number or null): see [`ByKind`].
    ByKind(Id<ByKind>),
    /// The node fails: `not`.
    Not(NodeId),
    /// `if`/`then`/`else`: `then` when `test` passes, `otherwise` when it fails
    /// (a missing branch is a `Valid` node).
    Condition {
        /// The `if` schema.
        test: NodeId,
        /// The `then` schema.
        then: NodeId,
        /// The `else` schema.
        otherwise: NodeId,
    },
    /// A [`Node::Condition`] heading an `else if` chain whose links each test one
    /// property's value against values the schema lists: see [`Cases`].
    Cases(Id<Cases>),
    /// Runs the node only for its annotations (`if` without `then`/`else`): always
    /// passes, and is skipped unless evaluation is being tracked for `unevaluated*`.
    Annotations(NodeId),
    /// Evaluates another node in place: `$ref`, and `$dynamicRef` / `$recursiveRef` whose
    /// target cannot be overridden dynamically.
    Ref(NodeId),
    /// Evaluates the node in place, but stops the run with an `InfiniteRecursion` error
    /// when that node is already being evaluated at the same instance location: the nodes
    /// of an in-place cycle that only some instances go round (see
    /// `compiler::cycles`).
    Guard(NodeId),
    /// `$dynamicRef` / `$recursiveRef` with a dynamic anchor at its static target: the
    /// outermost resource on the dynamic scope that defines the anchor wins.
    DynamicRef(Id<DynamicRef>),
    /// Pushes a resource that defines dynamic anchors onto the dynamic scope while `body`
    /// runs: a schema resource root with `$dynamicAnchor` or `$recursiveAnchor`.
    Scope {
        /// The resource's anchors.
        scope: ScopeId,
        /// The resource root's own node.
        body: NodeId,
    },
    /// `type`.
    Type(TypeSet),
    /// `const`: JSON equality with the value.
    Const(ValueId),
    /// `enum`: JSON equality with one of the values in the span (of `values`).
    Enum(Span),
    /// `enum` whose options are all strings: the value must be in the [`StringSet`].
    StringEnum(Id<StringSet>),
    /// `minimum` (and draft 4 `minimum` without `exclusiveMinimum: true`).
    Minimum(NumId),
    /// `maximum`.
    Maximum(NumId),
    /// `exclusiveMinimum` (and draft 4 `minimum` with `exclusiveMinimum: true`).
    ExclusiveMinimum(NumId),
    /// `exclusiveMaximum`.
    ExclusiveMaximum(NumId),
    /// `multipleOf`, exact on decimals.
    MultipleOf(NumId),
    /// `minLength`, in Unicode code points.
    MinLength(u32),
    /// `maxLength`, in Unicode code points.
    MaxLength(u32),
    /// `pattern`: an unanchored ECMA-262 search.
    Pattern(RegexId),
    /// `format`, when format assertion is on and the format is known.
    Format(Id<Format>),
    /// `minItems`.
    MinItems(u32),
    /// `maxItems`.
    MaxItems(u32),
    /// `uniqueItems: true`.
    UniqueItems,
    /// `prefixItems` + `items` (or array-form `items` + `additionalItems`): see [`Items`].
    Items(Id<Items>),
    /// An [`Node::Items`] table with a prefix, whose schemas are all leaves: a leaf
    /// itself, each item settled in one loop (`[lon, lat]` pairs, `[name, options]`).
    Tuple(Id<Items>),
    /// `contains` with `minContains` / `maxContains` (`max == u32::MAX`: no maximum).
    Contains {
        /// The `contains` schema.
        schema: NodeId,
        /// `minContains`, 1 by default.
        min: u32,
        /// `maxContains`.
        max: u32,
    },
    /// `minProperties`.
    MinProperties(u32),
    /// `maxProperties`.
    MaxProperties(u32),
    /// `required`: the names in the span (of `strings`).
    Required(Span),
    /// `dependentRequired` / array-valued `dependencies`: entries of `dependent_required`.
    DependentRequired(Span),
    /// `properties` + `patternProperties` + `additionalProperties`: see [`Properties`].
    Properties(Id<Properties>),
    /// [`Node::Properties`] beside a `type` that admits objects (`{"type": "object",
    /// "properties": ...}`), as one node: an object runs the table, any other value the
    /// `gate` (the `type` node, which also explains a failure).
    Object {
        /// The [`Properties`] table.
        table: Id<Properties>,
        /// The `type` node.
        gate: NodeId,
    },
    /// [`Node::Items`] beside a `type` that admits arrays, as one node: an array runs the
    /// table, any other value the `gate` (the `type` node).
    Array {
        /// The [`Items`] table.
        table: Id<Items>,
        /// The `type` node.
        gate: NodeId,
    },
    /// `propertyNames`: every property name, as a string instance, passes the node.
    PropertyNames(NodeId),
    /// `dependentSchemas` / schema-valued `dependencies`: entries of `dependent_schemas`.
    DependentSchemas(Span),
    /// `unevaluatedProperties` / `unevaluatedItems` around the rest of their schema object.
    Unevaluated(Id<Unevaluated>),
    /// The annotation keywords of one schema object ([`AnnotationSet`]), recorded for
    /// the current instance location when the object passes. Always passes; only the
    /// annotating program (built for `Validator::evaluate`) has such nodes.
    Annotate(Id<AnnotationSet>),
    /// A conjunction of checks on an object that depend only on which of some names it
    /// has and on leaf checks of those properties' values (`required`, `if` on a tag's
    /// value, `anyOf` of `required`s, `dependentRequired`...): see [`PropertyLogic`]. The
    /// same verdict as the `All` of its parts, which it replaces.
    PropertyLogic(Id<PropertyLogic>),
}

/// The leaf kinds of [`Node`] that check one keyword each, but `Valid` and `Type`, as a
/// pattern.
macro_rules! keyword_leaves {
    () => {
        Node::Invalid
            | Node::Const(_)
            | Node::Enum(_)
            | Node::StringEnum(_)
            | Node::Minimum(_)
            | Node::Maximum(_)
            | Node::ExclusiveMinimum(_)
            | Node::ExclusiveMaximum(_)
            | Node::MultipleOf(_)
            | Node::MinLength(_)
            | Node::MaxLength(_)
            | Node::Pattern(_)
            | Node::Format(_)
            | Node::MinItems(_)
            | Node::MaxItems(_)
            | Node::UniqueItems
            | Node::MinProperties(_)
            | Node::MaxProperties(_)
            | Node::Required(_)
            | Node::DependentRequired(_)
    };
}

/// The leaf kinds of [`Node`] that the compiler fuses from several keywords or
/// subschemas, as a pattern.
macro_rules! fused_leaves {
    () => {
        Node::Checks(_)
            | Node::ArrayOf(_)
            | Node::EachItem(_)
            | Node::AnyLeaf(_)
            | Node::OneLeaf(_)
            | Node::ExclusiveLeaf(_)
            | Node::Tuple(_)
    };
}

/// The leaf kinds of [`Node`] but `Valid` and `Type` (which the interpreter settles
/// first), as a pattern: one list for every match that must name each kind.
macro_rules! other_leaves {
    () => {
        $crate::program::keyword_leaves!() | $crate::program::fused_leaves!()
    };
}

/// The kinds of [`Node`] that apply subschemas, as a pattern (see [`Node::is_leaf`]).
macro_rules! applicators {
    () => {
        Node::All(_)
            | Node::Any(_)
            | Node::One(_)
            | Node::Switch(_)
            | Node::ByKind(_)
            | Node::Not(_)
            | Node::Condition { .. }
            | Node::Cases(_)
            | Node::Annotations(_)
            | Node::Ref(_)
            | Node::Guard(_)
            | Node::DynamicRef(_)
            | Node::Scope { .. }
            | Node::Items(_)
            | Node::Contains { .. }
            | Node::Properties(_)
            | Node::Object { .. }
            | Node::Array { .. }
            | Node::PropertyNames(_)
            | Node::DependentSchemas(_)
            | Node::Unevaluated(_)
            | Node::Annotate(_)
            | Node::PropertyLogic(_)
    };
}

pub(crate) use {applicators, fused_leaves, keyword_leaves, other_leaves};

impl Node {
    /// Whether the node checks the current value alone: it applies no subschema, records
    /// no evaluation mark and cannot recurse. Exhaustive, so that a new kind must be
    /// classified here (in [`other_leaves`] or [`applicators`]).
    #[inline(always)]
    pub(crate) fn is_leaf(self) -> bool {
        match self {
            Node::Valid | Node::Type(_) | other_leaves!() => true,
            applicators!() => false,
        }
    }
}

/// How a loop settles a child schema (a property's, `additionalProperties`, `items`),
/// decided once at compile time so that no loop re-decides it per key or item. Every
/// kind but `Record`, `List` and `Eval` is a leaf, settled at the call site without an
/// evaluation frame; `Record` and `List` skip the dispatch of an evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum Settle {
    /// `true` or `{}`: every value passes, nothing to do.
    Pass,
    /// `false`: every value fails.
    Fail,
    /// A lone `type`: one bit test.
    Type(TypeSet),
    /// One of the strings of a [`StringSet`] (an `enum` of strings, with or without
    /// `"type": "string"`).
    Strings(Id<StringSet>),
    /// A string of `min..=max` code points (`"type": "string"` with `minLength` and/or
    /// `maxLength`).
    Text {
        /// `minLength` (0 when absent).
        min: u32,
        /// `maxLength` (`u32::MAX` when absent).
        max: u32,
    },
    /// A string that the pattern matches (`"type": "string"` with `pattern`).
    Pattern(RegexId),
    /// A number (or integer) within the [`FloatBounds`] of the [`CheckList`] of the
    /// table (`"type": "integer"` with `minimum` and/or `maximum`, say).
    Range(Id<CheckList>),
    /// A [`Node::Checks`] list, run directly.
    Checks(Id<CheckList>),
    /// An `anyOf` / `oneOf` of `{"type": "null"}` and a [`Node::Checks`] node (`branch`,
    /// of list `table`) that admits no `null`: an optional field with constraints
    /// (pydantic's `Optional[str]` with a length). `null` passes at one step; a value the
    /// branch admits is settled as the list at one step more; any other fails at none:
    /// the verdict and steps of the leaf's loop over its two branches.
    ChecksOrNull {
        /// The `Checks` branch.
        branch: NodeId,
        /// Its list.
        table: Id<CheckList>,
    },
    /// [`Settle::ChecksOrNull`] for a list that settles as [`Settle::Range`]
    /// (`Optional[int]` with bounds). A variant of its own rather than a flag: a `bool`
    /// field lends its spare values to the discriminant, and every match on a `Settle`
    /// then decodes it (1-2.5% more instructions on most warm cases, measured).
    RangeOrNull {
        /// The `Checks` branch.
        branch: NodeId,
        /// Its list.
        table: Id<CheckList>,
    },
    /// Another leaf: its verdict without an evaluation frame of its own.
    Leaf,
    /// A [`Node::Object`] or [`Node::Properties`] (a nested record): an object runs the
    /// [`Properties`] table straight away, with the step and the level an evaluation
    /// takes; any other value is evaluated.
    Record(Id<Properties>),
    /// A `Record` whose table has an [exact](Properties::exact) order: an object runs
    /// the exact loop straight away.
    Exact(Id<Properties>),
    /// A [`Node::Array`] or [`Node::Items`] (a nested list): an array runs the [`Items`]
    /// table straight away, as for `Record`.
    List(Id<Items>),
    /// A [`Node::ByKind`] union: its [`ByKind`] table picks the branch straight away,
    /// with the step and the level an evaluation takes, and settles it in place.
    ByKind(Id<ByKind>),
    /// Anything else: a full evaluation.
    #[default]
    Eval,
}

impl Settle {
    /// Whether the value is settled in place, without evaluating another table or
    /// node: a leaf check (or none).
    pub(crate) fn in_place(self) -> bool {
        match self {
            Settle::Pass
            | Settle::Fail
            | Settle::Type(_)
            | Settle::Strings(_)
            | Settle::Text { .. }
            | Settle::Pattern(_)
            | Settle::Range(_)
            | Settle::Checks(_)
            | Settle::ChecksOrNull { .. }
            | Settle::RangeOrNull { .. }
            | Settle::Leaf => true,
            Settle::Record(_)
            | Settle::Exact(_)
            | Settle::List(_)
            | Settle::ByKind(_)
            | Settle::Eval => false,
        }
    }

    /// How to settle the node `id` of `program`.
    pub(crate) fn of(program: &Program, id: NodeId) -> Settle {
        match program.nodes[id.index()] {
            Node::Valid => Settle::Pass,
            Node::Invalid => Settle::Fail,
            Node::Type(set) => Settle::Type(set),
            // `not` of a `type` is a `type` when the set holds `number` and `integer`
            // both or neither (the complement of `integer` alone is no set: `1.5` is in
            // it and `1` is not).
            Node::Not(child) => match program.nodes[child.index()] {
                Node::Type(set) if set.whole_numbers() => Settle::Type(set.complement()),
                _ => Settle::Eval,
            },
            Node::StringEnum(table) => Settle::Strings(table),
            Node::Checks(table) => Self::of_checks(program, table),
            Node::Object { table, .. } | Node::Properties(table) => Settle::Record(table),
            Node::Array { table, .. } | Node::Items(table) => Settle::List(table),
            Node::ByKind(table) => Settle::ByKind(table),
            Node::AnyLeaf(span) | Node::OneLeaf(span) | Node::ExclusiveLeaf(span) => {
                Self::or_null(program, span).unwrap_or(Settle::Leaf)
            }
            node if node.is_leaf() => Settle::Leaf,
            _ => Settle::Eval,
        }
    }

    /// [`Settle::ChecksOrNull`] or [`Settle::RangeOrNull`] for the branches at `span` of a
    /// leaf union, if they are `{"type": "null"}` and a `Checks` node that admits no
    /// `null` (in either order). Reads [`Program::admits`], derived before the slots are
    /// settled.
    fn or_null(program: &Program, span: Span) -> Option<Settle> {
        let &[a, b] = &program.edges[span] else {
            return None;
        };
        let admits = |id: NodeId| program.admits.get(id.index()).copied();
        let null = |id: NodeId| {
            program.nodes[id.index()] == Node::Type(TypeSet::NULL)
                && admits(id) == Some(TypeSet::NULL)
        };
        let branch = match (null(a), null(b)) {
            (true, false) => b,
            (false, true) => a,
            _ => return None,
        };
        let Node::Checks(table) = program.nodes[branch.index()] else {
            return None;
        };
        if admits(branch)?.admits(TypeSet::NULL) {
            return None;
        }
        Some(match Self::of_checks(program, table) {
            Settle::Range(_) => Settle::RangeOrNull { branch, table },
            _ => Settle::ChecksOrNull { branch, table },
        })
    }

    /// How to settle the [`CheckList`] of `table`: the two commonest lists of string
    /// checks get kinds of their own.
    pub(crate) fn of_checks(program: &Program, table: Id<CheckList>) -> Settle {
        let list = &program.check_lists[table];
        let only_numbers = (list.by_kind.iter().enumerate())
            .all(|(kind, span)| kind == CheckList::NUMBER || span.len == 0);
        if matches!(list.types, TypeSet::NUMBER | TypeSet::INTEGER)
            && only_numbers
            && list.bounds.is_some()
        {
            return Settle::Range(table);
        }
        if list.types != TypeSet::STRING {
            return Settle::Checks(table);
        }
        let several = &program.edges[list.by_kind[CheckList::SEVERAL]];
        let text = &program.edges[list.by_kind[CheckList::STRING]];
        let others = (CheckList::NUMBER..=CheckList::OBJECT).all(|k| list.by_kind[k].len == 0);
        match (several, text.is_empty(), others) {
            ([only], true, true) => match program.nodes[only.index()] {
                Node::StringEnum(set) => Settle::Strings(set),
                _ => Settle::Checks(table),
            },
            ([], false, true) if text.len() == 1 => match program.nodes[text[0].index()] {
                Node::Pattern(regex) => Settle::Pattern(regex),
                Node::MinLength(min) => Settle::Text { min, max: u32::MAX },
                Node::MaxLength(max) => Settle::Text { min: 0, max },
                _ => Settle::Checks(table),
            },
            ([], false, true) => {
                let (mut min, mut max) = (0, u32::MAX);
                for &part in text {
                    match program.nodes[part.index()] {
                        Node::MinLength(n) => min = min.max(n),
                        Node::MaxLength(n) => max = max.min(n),
                        _ => return Settle::Checks(table),
                    }
                }
                Settle::Text { min, max }
            }
            _ => Settle::Checks(table),
        }
    }
}

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
    pub(crate) fn case(&self, value: &Value) -> &[u32] {
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
    pub(crate) fn case(&self, value: &Value) -> Case {
        let found = match value {
            Value::String(text) => (self.strings.position(text)).map(|i| self.string_cases[i]),
            other => (self.other_cases.iter())
                .find(|(listed, _)| equal(listed, other))
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
    set: NameSet,
    /// The `enum` as written, for messages: the position in `set` of each option.
    listing: Box<[u32]>,
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

/// The operands of [`Node::Properties`].
#[derive(Clone, Debug, Default)]
pub(crate) struct Properties {
    /// `properties`, in schema order. A name is shared, not copied, by the tables made
    /// from this one (the union of an `allOf`'s tables, the hash index of a long one).
    pub(crate) named: Vec<(Arc<str>, NodeId)>,
    /// The bytes of each of `named`'s names as a set, side by side, made by the
    /// interpreter's "did you mean" search the first time it looks for a name near a key
    /// the table does not allow (most names are ruled out by it, without a look at
    /// their bytes); what a word holds is that search's business.
    pub(crate) name_bytes: OnceLock<Box<[u64]>>,
    /// How [`Properties::position`] finds a name in `named`.
    pub(crate) lookup: NameLookup,
    /// What the interpreter reads of each `named` property once it found the name, side
    /// by side (one bounds check, one cache line).
    pub(crate) entries: Vec<Entry>,
    /// How many `entries` a folded `required` lists: an object passes `required` when
    /// its keys meet that many of them.
    pub(crate) required_count: u32,
    /// The folded `Required` node itself, evaluated only to explain a missing property.
    pub(crate) required_node: Option<NodeId>,
    /// Whether the schema object of the table has no `required` but the folded one, so
    /// a name `entries` do not flag as required is optional there (for hints only).
    pub(crate) required_known: bool,
    /// `patternProperties`.
    pub(crate) patterns: Vec<(RegexId, NodeId)>,
    /// `additionalProperties`: for properties matched by neither of the above.
    pub(crate) additional: Option<NodeId>,
    /// How `additional` is settled (set by the compiler's last pass).
    pub(crate) additional_settle: Settle,
    /// Whether the fast loop holds costly entries back: the table is the body of a
    /// union's branch and some entry costs [`Program::COSTLY`] or more (set by the
    /// compiler's last pass). Elsewhere the fast loop runs its entries in key order.
    pub(crate) costly: bool,
    /// Whether every property the table does not name passes (no `patternProperties`,
    /// `additionalProperties` absent or always passing; set by the compiler's last
    /// pass): then only the named ones need looking at.
    pub(crate) open: bool,
    /// The loop the fast mode runs over an object's keys, decided from the fields
    /// above by [`FastLoop::of`] when the compiler's last pass has set them: one jump
    /// per object instead of a test of each field.
    pub(crate) fast: FastLoop,
    /// For a closed table that requires every name it lists (`additionalProperties:
    /// false`, every property required, no `patternProperties`: the strict shape of tool
    /// schemas), the positions in `named` of its names in the order an object's keys
    /// come in (byte order): a passing object has exactly these keys, so its `i`-th key
    /// must be the `i`-th of them, found without a lookup (set by the compiler's last
    /// pass, which then settles the table's slots as [`Settle::Exact`]; `None` for any
    /// other table, and for every table when keys keep their insertion order, see
    /// [`keys_in_byte_order`](crate::memory::keys_in_byte_order)).
    pub(crate) exact: Option<Box<[u32]>>,
    /// For an [`exact`](Properties::exact) table whose names are all decided by their
    /// [`Spelling`] and whose entries all settle as a lone `type` (a record of plain
    /// fields, the commonest shape of tool results): each name's spelling and type set,
    /// in the same order, so that a key costs a compare and a bit test, without the
    /// entry's fetch and the settle's dispatch (set by the compiler's last pass).
    pub(crate) typed: Option<Box<[(Spelling, TypeSet)]>>,
    /// Whether every value the table checks settles in place ([`Settle::in_place`]: no
    /// `patternProperties`, each named and the additional schema a leaf): its fast loop
    /// costs a lookup and a leaf check per key, so the explaining pass may run it first
    /// and explain only a table that fails (set by the compiler's last pass).
    pub(crate) leaves: bool,
}

/// Which of the fast mode's loops checks an object against a [`Properties`] table
/// (see [`Properties::fast`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum FastLoop {
    /// The loop that checks any table: a lookup, then a regex per key and pattern,
    /// costly entries held back. For `patternProperties`, and for a table whose fields
    /// are not final yet.
    #[default]
    General,
    /// No named properties and no patterns: only `additionalProperties` applies.
    Additional,
    /// Costly entries are held back until the cheap ones have passed
    /// ([`Properties::costly`]).
    Costly,
    /// A [`NameLookup::Scan`] table that is [open](Properties::open).
    OpenScan,
    /// A [`NameLookup::Scan`] table that is not open.
    Scan,
    /// A [`NameLookup::Quick`] table that is [open](Properties::open).
    OpenQuick,
    /// A [`NameLookup::Quick`] table that is not open.
    Quick,
    /// A [`NameLookup::Probed`] or [`NameLookup::Hashed`] table.
    Indexed,
}

impl FastLoop {
    /// The loop for `table`, its `patterns`, `costly`, `open` and `lookup` final.
    pub(crate) fn of(table: &Properties) -> FastLoop {
        match (
            &table.lookup,
            table.named.is_empty(),
            table.patterns.is_empty(),
        ) {
            (_, _, false) => FastLoop::General,
            (_, true, true) => FastLoop::Additional,
            _ if table.costly => FastLoop::Costly,
            (NameLookup::Scan(_), ..) if table.open => FastLoop::OpenScan,
            (NameLookup::Scan(_), ..) => FastLoop::Scan,
            (NameLookup::Quick(_), ..) if table.open => FastLoop::OpenQuick,
            (NameLookup::Quick(_), ..) => FastLoop::Quick,
            (NameLookup::Probed(_) | NameLookup::Hashed(_), ..) => FastLoop::Indexed,
        }
    }
}

/// A named property of a [`Properties`] table, as the interpreter uses it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    /// The property's schema.
    pub(crate) node: NodeId,
    /// Its estimated cost ([`Program::cost`]): costly ones are evaluated after the cheap
    /// ones, so that a cheap failing check settles the verdict before a recursive
    /// property runs.
    pub(crate) cost: u32,
    /// Whether a folded `required` lists it.
    pub(crate) required: bool,
    /// How `node` is settled (set by the compiler's last pass).
    pub(crate) settle: Settle,
    /// The property's name as its [`Spelling`], which a key is compared with.
    pub(crate) spelling: Spelling,
}

impl Properties {
    /// Tables longer than this get a hash index; shorter ones are scanned, which for
    /// the short names of real schemas is cheaper: one word compare ([`probe`]) rejects
    /// almost every wrong entry. (Measured: 16 beat 8 on the tables of 9 to 16 names in
    /// the benchmark schemas.)
    pub(crate) const SCAN_UP_TO: usize = 4;

    /// The steps checking an object of `keys` keys against the table takes, however
    /// the loop runs: a lookup per key, and a regex per key and pattern.
    #[inline(always)]
    pub(crate) fn steps(&self, keys: usize) -> usize {
        (1 + self.patterns.len()) * keys
    }

    /// Derives the lookup structures and costs of `named` (which must list each name
    /// once), once it is complete.
    pub(crate) fn index_named(&mut self, program: &Program) {
        self.lookup = if self.named.len() <= Self::SCAN_UP_TO {
            let mut probes = [NameLookup::NO_PROBE; Self::SCAN_UP_TO];
            for (slot, (name, _)) in probes.iter_mut().zip(&self.named) {
                *slot = probe(name);
            }
            NameLookup::Scan(probes)
        } else {
            let names: Vec<&str> = self.named.iter().map(|(name, _)| &**name).collect();
            if let Some(index) = QuickIndex::build(&names) {
                NameLookup::Quick(index)
            } else if let Some(index) = ProbedIndex::build(&names) {
                NameLookup::Probed(index)
            } else {
                let positions = self.named.iter().enumerate();
                NameLookup::Hashed(
                    positions
                        .map(|(i, (name, _))| (name.clone(), i as u32))
                        .collect(),
                )
            }
        };
        self.entries = (self.named.iter())
            .map(|(name, node)| Entry {
                node: *node,
                cost: program.cost(*node),
                required: false,
                settle: Settle::Eval,
                spelling: Spelling::of(name),
            })
            .collect();
    }

    /// Folds a `required` of `names` (its node `node`) into the table, if every name is
    /// a named property; says whether it did.
    pub(crate) fn fold_required(&mut self, names: &[Box<str>], node: NodeId) -> bool {
        let Some(positions) = names
            .iter()
            .map(|name| self.position(name))
            .collect::<Option<Vec<_>>>()
        else {
            return false;
        };
        for i in positions {
            self.entries[i].required = true;
        }
        // Repeated names are flagged once, so the count matches the keys to meet.
        self.required_count = self.entries.iter().filter(|e| e.required).count() as u32;
        self.required_node = Some(node);
        true
    }

    /// The position in `named` of the property called `name`.
    #[inline(always)]
    pub(crate) fn position(&self, name: &str) -> Option<usize> {
        self.find(name).map(|(i, _)| i)
    }

    /// The position in `named` of the property called `name`, and its entry.
    #[inline(always)]
    pub(crate) fn find(&self, name: &str) -> Option<(usize, &Entry)> {
        match &self.lookup {
            NameLookup::Scan(probes) => self.scanned(probes, name),
            NameLookup::Quick(index) => self.quick(index, name),
            NameLookup::Probed(index) => self.probed(index, name),
            NameLookup::Hashed(map) => self.hashed(map, name),
        }
    }

    /// [`Properties::position`] by the [`NameLookup::Scan`] of `probes`: a fixed number of
    /// compares against words in the table itself, no loop, no length, no pointer to keep
    /// in a register.
    #[inline(always)]
    pub(crate) fn scanned(
        &self,
        probes: &[u64; Self::SCAN_UP_TO],
        name: &str,
    ) -> Option<(usize, &Entry)> {
        let probe = probe(name);
        for (i, &p) in probes.iter().enumerate() {
            // Names may share a probe word: each that does is compared.
            if p == probe {
                if let Some(entry) = self.named_at(i, name, || Spelling::of(name)) {
                    return Some((i, entry));
                }
            }
        }
        None
    }

    /// The entry at position `i` if `name` is its name: compared by its [`Spelling`]
    /// (`spelling`, the caller's if it has it) when that decides, without reading the
    /// name a pointer away; else byte by byte. The entry is fetched once, for the
    /// compare and the caller.
    #[inline(always)]
    pub(crate) fn named_at(
        &self,
        i: usize,
        name: &str,
        spelling: impl FnOnce() -> Spelling,
    ) -> Option<&Entry> {
        let entry = self.entries.get(i)?;
        let same = match Spelling::decides(name.len()) {
            true => entry.spelling == spelling(),
            false => same_bytes(self.named.get(i)?.0.as_bytes(), name.as_bytes()),
        };
        same.then_some(entry)
    }

    /// [`Properties::find`] by the [`NameLookup::Quick`] `index`.
    #[inline(always)]
    pub(crate) fn quick(&self, index: &QuickIndex, name: &str) -> Option<(usize, &Entry)> {
        let spelling = Spelling::of(name);
        let i = index.candidate(spelling);
        Some((i, self.named_at(i, name, || spelling)?))
    }

    /// [`Properties::find`] by the [`NameLookup::Probed`] `index`.
    #[inline(always)]
    pub(crate) fn probed(&self, index: &ProbedIndex, name: &str) -> Option<(usize, &Entry)> {
        let spelling = Spelling::of(name);
        let mut slot = index.start(spelling);
        loop {
            let (i, next) = index.at(slot)?;
            if let Some(entry) = self.named_at(i, name, || spelling) {
                return Some((i, entry));
            }
            slot = next;
        }
    }

    /// [`Properties::find`] by the [`NameLookup::Hashed`] `map`.
    #[inline(always)]
    pub(crate) fn hashed(
        &self,
        map: &ahash::AHashMap<Arc<str>, u32>,
        name: &str,
    ) -> Option<(usize, &Entry)> {
        let i = hashed_position(map, name)?;
        Some((i, self.entries.get(i)?))
    }
}

/// How a [`Properties`] table finds a name.
#[derive(Clone, Debug)]
pub(crate) enum NameLookup {
    /// A scan of the probe words of a short table (up to [`Properties::SCAN_UP_TO`]
    /// names; [`NameLookup::NO_PROBE`] fills the rest).
    Scan([u64; Properties::SCAN_UP_TO]),
    /// A slot per name by length and end bytes: most tables of real schemas.
    Quick(QuickIndex),
    /// Open addressing by a hash of the name's length and end words.
    Probed(ProbedIndex),
    /// A general hash map, for names too alike for a [`ProbedIndex`].
    Hashed(ahash::AHashMap<Arc<str>, u32>),
}

impl Default for NameLookup {
    fn default() -> Self {
        NameLookup::Scan([NameLookup::NO_PROBE; Properties::SCAN_UP_TO])
    }
}

impl NameLookup {
    /// A probe word no name has (its length would be 2^56 bytes).
    const NO_PROBE: u64 = u64::MAX;

    /// Heap bytes held (a hash map's entries, control bytes and its share of names).
    fn memory_usage(&self) -> usize {
        use crate::memory::{block, shared_text};
        match self {
            NameLookup::Scan(_) => 0,
            NameLookup::Quick(index) => index.memory_usage(),
            NameLookup::Probed(index) => index.memory_usage(),
            NameLookup::Hashed(map) => {
                // One block: a power-of-two number of buckets (7 in 8 usable from 8 on),
                // each an entry and a control byte, and a group of control bytes more.
                let capacity = map.capacity();
                let buckets = match capacity {
                    0 => 0,
                    1..8 => capacity + 1,
                    _ => capacity / 7 * 8,
                };
                let entry = std::mem::size_of::<(Arc<str>, u32)>() + 1;
                let table = if buckets == 0 {
                    0
                } else {
                    block(buckets * entry + 16)
                };
                table + map.keys().map(shared_text).sum::<usize>()
            }
        }
    }
}

/// [`Properties::position`] through a general hash map.
#[inline(never)]
pub(crate) fn hashed_position(map: &ahash::AHashMap<Arc<str>, u32>, name: &str) -> Option<usize> {
    map.get(name).map(|&i| i as usize)
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

/// A compiled schema: immutable, `Send + Sync`, shared by every validation.
#[derive(Clone, Default)]
pub(crate) struct Program {
    /// The arena. Every `NodeId` in the program indexes it.
    pub(crate) nodes: Vec<Node>,
    /// The schema location of each node (one per node), for errors only: shared with
    /// them, which read their locations from it when asked.
    pub(crate) locations: Arc<Locations>,
    /// Child lists of `All` / `Any` / `One` and `Items::prefix`.
    pub(crate) edges: Vec<NodeId>,
    /// `const` and `enum` values.
    pub(crate) values: Vec<Value>,
    /// The [`ValueIndex`] of each [`Node::Enum`] of many options, by the start of its
    /// span (ascending: spans are allocated in order): see [`Program::enum_contains`].
    pub(crate) enum_indexes: Vec<(u32, ValueIndex)>,
    /// Numeric bounds and divisors.
    pub(crate) numbers: Vec<Number>,
    /// Names: `required`, dependency keys, anchors, format names.
    pub(crate) strings: Vec<Box<str>>,
    /// Compiled `pattern` / `patternProperties` regexes.
    pub(crate) regexes: Vec<Pattern>,
    /// The most steps one check of a pattern may take on the backtracking engine: within
    /// the validation's step budget, which a check that needed more would end anyway.
    pub(crate) backtrack_limit: StepLimit,
    /// [`Node::Properties`] operands.
    pub(crate) properties: Vec<Properties>,
    /// [`Node::Items`] operands.
    pub(crate) items: Vec<Items>,
    /// [`Node::Unevaluated`] operands.
    pub(crate) unevaluated: Vec<Unevaluated>,
    /// [`Node::DynamicRef`] operands.
    pub(crate) dynamic_refs: Vec<DynamicRef>,
    /// [`Node::Switch`] operands.
    pub(crate) switches: Vec<Switch>,
    /// [`Node::ByKind`] operands.
    pub(crate) by_kinds: Vec<ByKind>,
    /// [`Node::Cases`] operands.
    pub(crate) cases: Vec<Cases>,
    /// [`Node::StringEnum`] operands.
    pub(crate) string_sets: Vec<StringSet>,
    /// [`Node::ArrayOf`] operands.
    pub(crate) array_ofs: Vec<ArrayOf>,
    /// [`Node::Checks`] operands.
    pub(crate) check_lists: Vec<CheckList>,
    /// [`Node::Format`] operands.
    pub(crate) formats: Vec<Format>,
    /// [`Node::PropertyLogic`] operands.
    pub(crate) property_logic: Vec<PropertyLogic>,
    /// `dependentRequired`: a property name and the span (of `strings`) it requires.
    pub(crate) dependent_required: Vec<(StrId, Span)>,
    /// `dependentSchemas`: a property name and the node applied when it is present.
    pub(crate) dependent_schemas: Vec<(StrId, NodeId)>,
    /// Per node, the types of value it may accept (an over-approximation; see
    /// `compiler::admits`): `anyOf` / `oneOf` skip branches that cannot accept the instance.
    pub(crate) admits: Vec<TypeSet>,
    /// Per dynamic-scope resource, the span (of `anchors`) of its dynamic anchors.
    pub(crate) scopes: Vec<Span>,
    /// Dynamic anchors: name and the node it names.
    pub(crate) anchors: Vec<(StrId, NodeId)>,
    /// The [`Node::Annotate`] tables (the annotating program only).
    pub(crate) annotation_sets: Vec<AnnotationSet>,
    /// Each `$ref` node of the annotating program, ascending, with the location of the
    /// schema object it refers to: evaluation paths go through references.
    pub(crate) ref_targets: Vec<(NodeId, Box<str>)>,
    /// The root resource's absolute URI, when it has one of its own (a root `$id`).
    pub(crate) base: Option<Box<str>>,
    /// The node validation starts from.
    pub(crate) root: NodeId,
    /// How the fast mode settles the root: a record or a list runs its table at once,
    /// as a nested one does ([`Settle::Record`], [`Settle::List`]); anything else is
    /// evaluated ([`Settle::Eval`]).
    pub(crate) root_settle: Settle,
}

impl Program {
    /// The [`Program::cost`] from which a property's schema is worth deferring.
    pub(crate) const COSTLY: u32 = 50;

    /// A static estimate of the work evaluating node `id` takes, for ordering checks
    /// cheapest first. References count as expensive: they may recurse.
    pub(crate) fn cost(&self, id: NodeId) -> u32 {
        const LEAF: u32 = 1;
        const APPLICATOR: u32 = Program::COSTLY;
        const REFERENCE: u32 = 1_000;
        let shallow = |id: NodeId| match self.nodes[id.index()] {
            node if node.is_leaf() => LEAF,
            Node::Ref(_) | Node::Guard(_) | Node::DynamicRef(_) | Node::Scope { .. } => REFERENCE,
            _ => APPLICATOR,
        };
        match self.nodes[id.index()] {
            Node::All(span) => self.edges[span].iter().map(|&child| shallow(child)).sum(),
            _ => shallow(id),
        }
    }

    /// Calls `visit` on every node that node `id` refers to (its subschemas, the parts
    /// it fuses, the nodes kept to explain it).
    pub(crate) fn for_each_child(&self, id: NodeId, mut visit: impl FnMut(NodeId)) {
        let mut span = |span: Span| self.edges[span].iter().for_each(|&child| visit(child));
        match self.nodes[id.index()] {
            Node::All(edges)
            | Node::Any(edges)
            | Node::AnyLeaf(edges)
            | Node::One(edges)
            | Node::OneLeaf(edges)
            | Node::ExclusiveLeaf(edges) => span(edges),
            Node::Checks(table) => span(self.check_lists[table].parts),
            Node::ArrayOf(table) => span(self.array_ofs[table].parts),
            Node::Switch(table) => span(self.switches[table].branches),
            Node::ByKind(table) => span(self.by_kinds[table].branches),
            Node::PropertyLogic(table) => span(self.property_logic[table].parts),
            Node::EachItem(child)
            | Node::Not(child)
            | Node::Annotations(child)
            | Node::Ref(child)
            | Node::Guard(child)
            | Node::PropertyNames(child)
            | Node::Scope { body: child, .. }
            | Node::Contains { schema: child, .. } => visit(child),
            Node::Condition {
                test,
                then,
                otherwise,
            } => {
                visit(test);
                visit(then);
                visit(otherwise);
            }
            Node::Cases(table) => {
                let cases = &self.cases[table];
                visit(cases.test);
                visit(cases.then);
                visit(cases.otherwise);
            }
            Node::DynamicRef(table) => {
                let dynamic = &self.dynamic_refs[table];
                visit(dynamic.target);
                let name = &self.strings[dynamic.anchor];
                for &(anchor, target) in &self.anchors {
                    if self.strings[anchor] == *name {
                        visit(target);
                    }
                }
            }
            Node::Items(table) | Node::Tuple(table) | Node::Array { table, .. } => {
                let items = &self.items[table];
                self.edges[items.prefix]
                    .iter()
                    .for_each(|&child| visit(child));
                self.edges[items.size_checks]
                    .iter()
                    .for_each(|&child| visit(child));
                if let Some(rest) = items.rest {
                    visit(rest);
                }
                if let Node::Array { gate, .. } = self.nodes[id.index()] {
                    visit(gate);
                }
            }
            Node::Properties(table) | Node::Object { table, .. } => {
                let spec = &self.properties[table];
                spec.named.iter().for_each(|&(_, child)| visit(child));
                spec.patterns.iter().for_each(|&(_, child)| visit(child));
                spec.additional.into_iter().for_each(&mut visit);
                spec.required_node.into_iter().for_each(&mut visit);
                if let Node::Object { gate, .. } = self.nodes[id.index()] {
                    visit(gate);
                }
            }
            Node::DependentSchemas(entries) => self.dependent_schemas[entries]
                .iter()
                .for_each(|&(_, child)| visit(child)),
            Node::Unevaluated(table) => {
                let unevaluated = &self.unevaluated[table];
                visit(unevaluated.body);
                unevaluated.properties.into_iter().for_each(&mut visit);
                unevaluated.items.into_iter().for_each(&mut visit);
            }
            // The other leaves refer to nothing. (The leaves with parts, listed among
            // them, were matched above.)
            #[allow(unreachable_patterns)]
            Node::Valid | Node::Type(_) | Node::Annotate(_) | other_leaves!() => {}
        }
    }

    /// Per node, whether the root reaches it.
    pub(crate) fn reachable(&self) -> Vec<bool> {
        let mut reached = vec![false; self.nodes.len()];
        let mut stack = vec![self.root];
        reached[self.root.index()] = true;
        while let Some(id) = stack.pop() {
            self.for_each_child(id, |child| {
                if !reached[child.index()] {
                    reached[child.index()] = true;
                    stack.push(child);
                }
            });
        }
        reached
    }

    /// The parts of the [`Node::Checks`] of `table`, in schema order.
    pub(crate) fn check_parts(&self, table: Id<CheckList>) -> &[NodeId] {
        &self.edges[self.check_lists[table].parts]
    }

    /// The node a dynamic anchor called `name` names in resource `scope`, if any.
    pub(crate) fn dynamic_anchor(&self, scope: ScopeId, name: &str) -> Option<NodeId> {
        self.anchors[self.scopes[scope]]
            .iter()
            .find(|(anchor, _)| &*self.strings[*anchor] == name)
            .map(|&(_, node)| node)
    }

    /// Whether `value` equals an option of the [`Node::Enum`] of `span`, and the work:
    /// one per option compared, or, for an enum indexed by hash, what the index did.
    #[inline]
    pub(crate) fn enum_contains(&self, span: Span, value: &Value) -> (bool, usize) {
        let options = &self.values[span];
        if options.len() >= ValueIndex::WORTH_FROM {
            let at = self
                .enum_indexes
                .binary_search_by_key(&span.start, |&(start, _)| start);
            if let Ok(at) = at {
                return self.enum_indexes[at].1.contains(options, value);
            }
        }
        let found = match value {
            // A string in line, as a `const` is (see `vm::leaf`).
            Value::String(text) => options.iter().any(|option| {
                matches!(option, Value::String(listed) if same_bytes(text.as_bytes(), listed.as_bytes()))
            }),
            value => options.iter().any(|option| equal(value, option)),
        };
        (found, options.len())
    }

    /// Approximate heap bytes held by the program, counted as allocator blocks (see
    /// `crate::memory`; compiled regexes are estimated: their automata are not observable).
    pub(crate) fn memory_usage(&self) -> usize {
        use crate::memory::{block, number, shared_text, slice, text, value, vec, vec_with};
        vec(&self.nodes)
            + self.locations.memory_usage()
            + vec(&self.edges)
            + vec_with(&self.values, value)
            + vec_with(&self.enum_indexes, |(_, index)| index.memory_usage())
            + vec_with(&self.numbers, number)
            + vec_with(&self.strings, |s| text(s))
            // A regex's compiled automata are not observable: estimate them as a multiple
            // of the pattern's length, beside the handle itself.
            + vec_with(&self.regexes, |r| block(16 * r.as_str().len()))
            + vec_with(&self.properties, |p| {
                vec_with(&p.named, |(name, _)| shared_text(name))
                    + p.name_bytes.get().map_or(0, |sets| slice(sets))
                    + p.lookup.memory_usage()
                    + vec(&p.entries)
                    + vec(&p.patterns)
                    + p.exact.as_deref().map_or(0, slice)
                    + p.typed.as_deref().map_or(0, slice)
            })
            + vec_with(&self.items, |i| slice(&i.prefix_settle))
            + vec(&self.unevaluated)
            + vec(&self.dynamic_refs)
            + vec_with(&self.switches, |switch| {
                text(&switch.property)
                    + switch.values.memory_usage()
                    + vec_with(&switch.cases, vec)
                    + vec(&switch.open)
                    + vec(&switch.absent)
                    + slice(&switch.settles)
            })
            + vec(&self.by_kinds)
            + vec_with(&self.cases, |cases| {
                text(&cases.property)
                    + cases.strings.memory_usage()
                    + slice(&cases.string_cases)
                    + vec_with(&cases.other_cases, |(listed, _)| value(listed))
            })
            + vec_with(&self.string_sets, |set| set.set.memory_usage() + slice(&set.listing))
            + vec_with(&self.array_ofs, |array| slice(&array.prefix))
            + vec(&self.check_lists)
            + vec(&self.formats)
            + vec_with(&self.property_logic, |logic| {
                logic.names.memory_usage()
                    + slice(&logic.slots)
                    + slice(&logic.clauses)
                    + slice(&logic.edges)
                    + slice(&logic.part_clauses)
            })
            + vec(&self.dependent_required)
            + vec(&self.dependent_schemas)
            + vec(&self.admits)
            + vec(&self.scopes)
            + vec(&self.anchors)
            + vec_with(&self.annotation_sets, |set| {
                text(&set.location)
                    + vec_with(&set.entries, |(keyword, annotation, _)| {
                        text(keyword) + value(annotation)
                    })
            })
            + vec_with(&self.ref_targets, |(_, target)| text(target))
            + self.base.as_deref().map_or(0, text)
    }
}

impl fmt::Debug for Program {
    /// One node per line: id, node, schema location; the root is marked with `>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, node) in self.nodes.iter().enumerate() {
            let location = NodeId::new(i).map_or(String::new(), |id| self.locations.get(id));
            let mark = if i == self.root.index() { '>' } else { ' ' };
            writeln!(f, "{mark}{i:>5} {node:?}  @{location}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Numbers around the edges of what doubles hold exactly: small values, integers
    /// near 2^53 and 2^64, and any finite double.
    fn number() -> impl proptest::strategy::Strategy<Value = Number> {
        use proptest::prelude::*;
        let edge = (0u64..4, -3i64..=3, any::<bool>()).prop_map(|(at, offset, negative)| {
            let base = [0, 1 << 53, 1 << 63, u64::MAX][at as usize];
            let magnitude = base.saturating_add_signed(offset);
            match negative {
                true => {
                    Number::from(-(magnitude.min(1 << 63) as i128).max(i64::MIN as i128) as i64)
                }
                false => Number::from(magnitude),
            }
        });
        let double = any::<f64>().prop_filter_map("finite", Number::from_f64);
        let near = (-4i64..4).prop_map(|n| Number::from_f64(n as f64 / 2.0).unwrap());
        prop_oneof![edge, double, near]
    }

    proptest::proptest! {
        /// The fused interval says what the exact comparison of each bound says, for
        /// every number a double holds exactly.
        #[test]
        fn float_bounds_agree_with_the_exact_comparisons(
            bounds in proptest::collection::vec((0usize..4, number()), 1..4),
            other in number(),
            equal_to in proptest::option::of(0usize..4),
        ) {
            // Often a number equal to a bound, where open and closed bounds differ.
            let value = equal_to.and_then(|i| bounds.get(i)).map_or(other, |(_, b)| b.clone());
            use crate::json::number::{compare, exact_f64};
            use std::cmp::Ordering::{Greater, Less};
            let mut program = Program::default();
            let mut parts = Vec::new();
            for (i, (kind, bound)) in bounds.iter().enumerate() {
                program.numbers.push(bound.clone());
                let n = NumId::new(i).unwrap();
                program.nodes.push([Node::Minimum(n), Node::ExclusiveMinimum(n),
                    Node::Maximum(n), Node::ExclusiveMaximum(n)][*kind]);
                parts.push(NodeId::new(i).unwrap());
            }
            let Some(fused) = FloatBounds::of(&program, &parts) else {
                // Only bounds a double does not hold are left to the exact path.
                proptest::prop_assert!(bounds.iter().any(|(_, b)| exact_f64(b).is_none()));
                return Ok(());
            };
            let Some(x) = exact_f64(&value) else {
                return Ok(());
            };
            let exact = bounds.iter().all(|(kind, bound)| {
                let order = compare(&value, bound);
                match kind {
                    0 => order != Less,
                    1 => order == Greater,
                    2 => order != Greater,
                    _ => order == Less,
                }
            });
            proptest::prop_assert_eq!(fused.admits(x), exact, "{:?} {}", bounds, value);
        }
    }

    #[test]
    fn string_sets_find_their_strings_and_list_them_as_written() {
        let set = StringSet::new(&["b", "a", "", "b", "ab"]);
        assert_eq!(set.len(), 4);
        assert_eq!(set.listed().collect::<Vec<_>>(), ["b", "a", "", "b", "ab"]);
        for text in ["a", "b", "", "ab"] {
            assert!(set.contains(text), "{text:?}");
        }
        for text in ["c", "ba", "A", "b "] {
            assert!(!set.contains(text), "{text:?}");
        }
    }

    #[test]
    fn nodes_stay_small() {
        assert!(
            std::mem::size_of::<Node>() <= 16,
            "{}",
            std::mem::size_of::<Node>()
        );
    }

    /// Names that share lengths, first bytes ("abcd" and "ab\u{e9}" share a probe
    /// word), prefixes and words.
    const NAMES: [&str; 11] = [
        "a",
        "ab",
        "abc",
        "abcd",
        "ab\u{e9}",
        "b",
        "abcdefgh",
        "abcdefghi",
        // Longer than a spelling decides: alike in their ends and words.
        "abcdefghijklmnopq",
        "abcdefghXjklmnopq",
        "abcdefghijklmnop",
    ];

    #[test]
    fn tables_find_exactly_their_names() {
        let program = Program {
            nodes: vec![Node::Valid],
            ..Program::default()
        };
        // Every lookup: scans of up to four names, and the indexes of longer tables.
        for names in (1..=NAMES.len()).flat_map(|n| NAMES.windows(n)) {
            let mut table = Properties {
                named: (names.iter())
                    .map(|&n| (n.into(), NodeId::new(0).unwrap()))
                    .collect(),
                ..Properties::default()
            };
            table.index_named(&program);
            for (i, name) in names.iter().enumerate() {
                assert_eq!(table.position(name), Some(i), "{names:?}");
            }
            let others = [
                "",
                "c",
                "ac",
                "abce",
                "abcdefgj",
                "abcdefghij",
                "ab\u{e8}",
                "abcdefghijklmXopq",
                "abcdefgXijklmnop",
            ];
            let unlisted = NAMES.iter().filter(|n| !names.contains(n));
            for other in others.iter().chain(unlisted) {
                assert_eq!(table.position(other), None, "{other} in {names:?}");
            }
        }
    }
}
