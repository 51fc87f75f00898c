//! Leaf checks: nodes that look at the current value alone.
//!
//! A leaf applies no subschema, records no evaluation mark and cannot recurse, so the
//! interpreter runs it without the bookkeeping of a full evaluation (depth, stack guard,
//! path). The verdict ([`verdict`]) and the explanation ([`explain`]) are separate:
//! the fast path never builds a message, and the explaining path asks for one only after
//! the verdict said no, so both paths agree by construction.

use super::show::{quote_into, show_into};
use crate::error::ValidationErrorKind as Kind;
use crate::ids::{NodeId, NumId, Span};
use crate::json::{equal, number, types};
use crate::program::{ArrayOf, Node, Program};
use serde_json::Value;
use std::cmp::Ordering;
use std::fmt::Write;

/// Bytes of string a `pattern` or `format` check may scan per budget step.
const BYTES_PER_STEP: usize = 256;

/// The verdict of a leaf `node` on `value`, and the budget steps it cost beyond the
/// first. A node that is not a leaf never gets here ([`Node::is_leaf`]); should one, it
/// fails: no default passes.
#[inline(always)]
pub(super) fn verdict(program: &Program, node: Node, value: &Value) -> (bool, usize) {
    match node {
        Node::Checks(span) => checks(program, span, value),
        Node::EachItem(rest) => each_item(program, rest, value),
        Node::ArrayOf(table) => array_of(&program.array_ofs[table], value),
        node => plain(program, node, value),
    }
}

/// A [`Node::Checks`]: its parts in order, stopping at the first that fails. The
/// compiler bounds how deeply `Checks` and `EachItem` nest, so this recursion is shallow.
pub(super) fn checks(program: &Program, span: Span, value: &Value) -> (bool, usize) {
    let mut work = 0;
    for &part in &program.edges[span] {
        let (ok, cost) = fused_or_plain(program, program.nodes[part.index()], value);
        work += cost + 1;
        if !ok {
            return (false, work);
        }
    }
    (true, work)
}

/// The verdict of a leaf part: `type` and item counts inline, fused parts by recursion, other plain
/// leaves through a call. Keeping the rarer checks out of line matters: inlined whole,
/// their setup was hoisted out of the loops of [`checks`] and [`each_item`] and paid on
/// every call, however few parts ran.
#[inline(always)]
fn fused_or_plain(program: &Program, node: Node, value: &Value) -> (bool, usize) {
    match node {
        Node::Type(set) => (set.matches(value), 0),
        Node::Checks(span) => checks(program, span, value),
        Node::EachItem(rest) => each_item(program, rest, value),
        Node::ArrayOf(table) => array_of(&program.array_ofs[table], value),
        // Tuple sizes (`[lon, lat]`), cheap enough to inline.
        Node::MinItems(_) | Node::MaxItems(_) => plain(program, node, value),
        _ => plain_out_of_line(program, node, value),
    }
}

/// [`plain`], not inlined (see [`fused_or_plain`]).
#[inline(never)]
fn plain_out_of_line(program: &Program, node: Node, value: &Value) -> (bool, usize) {
    plain(program, node, value)
}

/// A [`Node::ArrayOf`]: the size, then every item's type, in one loop; steps as for
/// the `Checks` it replaces.
#[inline]
fn array_of(spec: &ArrayOf, value: &Value) -> (bool, usize) {
    let Value::Array(items) = value else {
        return (false, 0);
    };
    let n = items.len();
    let ok = n >= spec.min as usize
        && n <= spec.max as usize
        && items.iter().all(|item| spec.items.matches(item));
    (ok, n + spec.parts.len as usize)
}

/// A [`Node::EachItem`]: every item passes the leaf `rest`; one step per item.
fn each_item(program: &Program, rest: NodeId, value: &Value) -> (bool, usize) {
    let Value::Array(items) = value else {
        return (true, 0);
    };
    let node = program.nodes[rest.index()];
    if let Node::Type(set) = node {
        // The most common shape (`items: {"type": ...}`), with the dispatch hoisted.
        return (items.iter().all(|item| set.matches(item)), items.len());
    }
    let mut work = items.len();
    for item in items {
        let (ok, cost) = fused_or_plain(program, node, item);
        work += cost;
        if !ok {
            return (false, work);
        }
    }
    (true, work)
}

/// The verdict of a plain leaf (any leaf but `Checks`, `EachItem` and `ArrayOf`). A
/// check of one JSON type passes values of the other types.
#[inline(always)]
fn plain(program: &Program, node: Node, value: &Value) -> (bool, usize) {
    let ok = match node {
        Node::Valid => true,
        Node::Invalid => false,
        Node::Type(set) => set.matches(value),
        Node::Const(expected) => equal::equal(value, &program.values[expected]),
        Node::Enum(span) => {
            let options = &program.values[span];
            return (
                options.iter().any(|o| equal::equal(value, o)),
                options.len(),
            );
        }
        Node::StringEnum(table) => {
            let set = &program.string_sets[table];
            let found = value.as_str().is_some_and(|s| set.contains(s));
            return (found, set.len().checked_ilog2().unwrap_or(0) as usize);
        }
        Node::Minimum(n) => number(value, |v| compare(program, v, n) != Ordering::Less),
        Node::Maximum(n) => number(value, |v| compare(program, v, n) != Ordering::Greater),
        Node::ExclusiveMinimum(n) => number(value, |v| compare(program, v, n) == Ordering::Greater),
        Node::ExclusiveMaximum(n) => number(value, |v| compare(program, v, n) == Ordering::Less),
        Node::MultipleOf(n) => number(value, |v| number::is_multiple_of(v, &program.numbers[n])),
        Node::MinLength(min) => string(value, |s| {
            // A code point takes 1 to 4 bytes: the byte length often settles it.
            let min = min as usize;
            s.len() >= min && (s.len() >= 4 * min || s.chars().count() >= min)
        }),
        Node::MaxLength(max) => string(value, |s| {
            s.len() <= max as usize || s.chars().count() <= max as usize
        }),
        Node::Pattern(regex) => {
            let Value::String(s) = value else {
                return (true, 0);
            };
            return (program.regexes[regex].is_match(s), s.len() / BYTES_PER_STEP);
        }
        Node::Format(table) => {
            let Value::String(s) = value else {
                return (true, 0);
            };
            return ((program.formats[table].check)(s), s.len() / BYTES_PER_STEP);
        }
        Node::MinItems(min) => array(value, |items| items.len() >= min as usize),
        Node::MaxItems(max) => array(value, |items| items.len() <= max as usize),
        Node::UniqueItems => {
            let Value::Array(items) = value else {
                return (true, 0);
            };
            return (equal::all_unique(items), items.len());
        }
        Node::MinProperties(min) => object(value, |map| map.len() >= min as usize),
        Node::MaxProperties(max) => object(value, |map| map.len() <= max as usize),
        Node::Required(names) => {
            let Value::Object(map) = value else {
                return (true, 0);
            };
            return (
                missing(program, names, map).next().is_none(),
                names.len as usize,
            );
        }
        Node::DependentRequired(span) => {
            let Value::Object(map) = value else {
                return (true, 0);
            };
            let entries = &program.dependent_required[span];
            let ok = entries.iter().all(|&(key, names)| {
                !map.contains_key(&*program.strings[key])
                    || missing(program, names, map).next().is_none()
            });
            return (
                ok,
                entries.iter().map(|(_, names)| names.len as usize).sum(),
            );
        }
        Node::Checks(span) => return checks(program, span, value),
        Node::EachItem(rest) => return each_item(program, rest, value),
        Node::ArrayOf(table) => return array_of(&program.array_ofs[table], value),
        // Not leaves: never asked here, and never a pass if they were.
        Node::All(_)
        | Node::Any(_)
        | Node::One(_)
        | Node::Switch(_)
        | Node::Not(_)
        | Node::Condition { .. }
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
        | Node::Unevaluated(_) => false,
    };
    (ok, 0)
}

/// `check` of a number; other values pass.
#[inline(always)]
fn number(value: &Value, check: impl FnOnce(&serde_json::Number) -> bool) -> bool {
    match value {
        Value::Number(n) => check(n),
        _ => true,
    }
}

/// `check` of a string; other values pass.
#[inline(always)]
fn string(value: &Value, check: impl FnOnce(&str) -> bool) -> bool {
    match value {
        Value::String(s) => check(s),
        _ => true,
    }
}

/// `check` of an array; other values pass.
#[inline(always)]
fn array(value: &Value, check: impl FnOnce(&[Value]) -> bool) -> bool {
    match value {
        Value::Array(items) => check(items),
        _ => true,
    }
}

/// `check` of an object; other values pass.
#[inline(always)]
fn object(value: &Value, check: impl FnOnce(&serde_json::Map<String, Value>) -> bool) -> bool {
    match value {
        Value::Object(map) => check(map),
        _ => true,
    }
}

fn compare(program: &Program, value: &serde_json::Number, bound: NumId) -> Ordering {
    number::compare(value, &program.numbers[bound])
}

/// The names in `names` that `map` lacks.
fn missing<'p>(
    program: &'p Program,
    names: Span,
    map: &'p serde_json::Map<String, Value>,
) -> impl Iterator<Item = &'p str> + 'p {
    program.strings[names]
        .iter()
        .map(|name| &**name)
        .filter(|name| !map.contains_key(*name))
}

/// Why a leaf `node` rejected `value`: `report` is called once per problem, with its kind
/// and a writer of its message (which goes straight into the error's own buffer).
#[cold]
pub(super) fn explain(
    program: &Program,
    node: Node,
    value: &Value,
    mut report: impl FnMut(Kind, &dyn Fn(&mut String)),
) {
    let bound = match node {
        Node::Minimum(n) => Some((n, "less than the minimum of")),
        Node::Maximum(n) => Some((n, "greater than the maximum of")),
        Node::ExclusiveMinimum(n) => Some((n, "not greater than the exclusive minimum of")),
        Node::ExclusiveMaximum(n) => Some((n, "not less than the exclusive maximum of")),
        _ => None,
    };
    if let Some((n, words)) = bound {
        return report(Kind::Range, &|out| {
            let _ = write!(out, "{value} is {words} {}", program.numbers[n]);
        });
    }
    match node {
        Node::Invalid => report(Kind::FalseSchema, &|out| {
            show_into(out, value);
            out.push_str(" is not allowed here");
        }),
        Node::Type(set) => report(Kind::Type, &|out| {
            out.push_str("expected ");
            for (i, name) in set.names().enumerate() {
                if i > 0 {
                    out.push_str(" or ");
                }
                out.push_str(name);
            }
            let _ = write!(out, ", got {} ", types::type_name(value));
            show_into(out, value);
        }),
        Node::Const(expected) => report(Kind::Const, &|out| {
            out.push_str("expected ");
            show_into(out, &program.values[expected]);
            out.push_str(", got ");
            show_into(out, value);
        }),
        Node::Enum(span) => report(Kind::Enum, &|out| {
            not_one_of(out, &program.values[span], value);
        }),
        Node::StringEnum(table) => report(Kind::Enum, &|out| {
            let listed = program.string_sets[table].listed;
            not_one_of(out, &program.values[listed], value);
        }),
        Node::MultipleOf(n) => report(Kind::MultipleOf, &|out| {
            let _ = write!(out, "{value} is not a multiple of {}", program.numbers[n]);
        }),
        Node::MinLength(min) => report(Kind::Length, &|out| {
            show_into(out, value);
            let _ = write!(out, " is shorter than {min} characters");
        }),
        Node::MaxLength(max) => report(Kind::Length, &|out| {
            show_into(out, value);
            let _ = write!(out, " is longer than {max} characters");
        }),
        Node::Pattern(regex) => report(Kind::Pattern, &|out| {
            show_into(out, value);
            let pattern = program.regexes[regex].as_str();
            let _ = write!(out, " does not match the pattern {pattern:?}");
        }),
        Node::Format(table) => report(Kind::Format, &|out| {
            let name = &*program.strings[program.formats[table].name];
            show_into(out, value);
            let _ = write!(out, " is not a valid {name:?}");
        }),
        Node::MinItems(min) => report(Kind::Size, &|out| {
            let _ = write!(out, "expected at least {min} items, got {}", len(value));
        }),
        Node::MaxItems(max) => report(Kind::Size, &|out| {
            let _ = write!(out, "expected at most {max} items, got {}", len(value));
        }),
        Node::UniqueItems => report(Kind::UniqueItems, &|out| {
            out.push_str("array items are not unique");
        }),
        Node::MinProperties(min) => report(Kind::Size, &|out| {
            let _ = write!(
                out,
                "expected at least {min} properties, got {}",
                len(value)
            );
        }),
        Node::MaxProperties(max) => report(Kind::Size, &|out| {
            let _ = write!(out, "expected at most {max} properties, got {}", len(value));
        }),
        Node::Required(names) => {
            if let Value::Object(map) = value {
                for name in missing(program, names, map) {
                    report(Kind::Required, &|out| {
                        out.push_str("missing required property ");
                        quote_into(out, name);
                    });
                }
            }
        }
        Node::DependentRequired(span) => {
            let Value::Object(map) = value else { return };
            for &(key, names) in &program.dependent_required[span] {
                let key = &*program.strings[key];
                if !map.contains_key(key) {
                    continue;
                }
                for name in missing(program, names, map) {
                    report(Kind::Required, &|out| {
                        let _ = write!(
                            out,
                            "missing property {name:?}, required when {key:?} is present"
                        );
                    });
                }
            }
        }
        _ => {}
    }
}

/// "expected one of A, B, got C".
fn not_one_of(out: &mut String, options: &[Value], value: &Value) {
    out.push_str("expected one of ");
    for (i, option) in options.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        show_into(out, option);
    }
    out.push_str(", got ");
    show_into(out, value);
}

fn len(value: &Value) -> usize {
    match value {
        Value::Array(items) => items.len(),
        Value::Object(map) => map.len(),
        _ => 0,
    }
}
