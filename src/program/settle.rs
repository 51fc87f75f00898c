//! [`Settle`]: how a loop settles a child schema, decided once at compile time.

use super::RegexId;
use super::{ByKind, CheckList, Items, Node, Program, Properties, StringSet};
use crate::ids::{Id, NodeId, Span};
use crate::json::types::TypeSet;

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
    /// A number (or integer) within the [`FloatBounds`](super::FloatBounds) of the [`CheckList`] of the
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
