//! The instruction set: [`Node`], one per compiled subschema or fused group of them, and
//! the patterns that sort its kinds into leaves and applicators.

use super::RegexId;
use super::{
    AnnotationSet, ArrayOf, ByKind, Cases, CheckList, DynamicRef, Format, Items, Properties,
    PropertyLogic, StringSet, Switch, Unevaluated,
};
use crate::ids::{Id, NodeId, NumId, ScopeId, Span, ValueId};
use crate::json::types::TypeSet;

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
