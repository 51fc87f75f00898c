//! Leaf checks: nodes that look at the current value alone.
//!
//! A leaf applies no subschema, records no evaluation mark and cannot recurse, so the
//! interpreter runs it without the bookkeeping of a full evaluation (depth, stack guard,
//! path). The verdict ([`verdict`]) and the explanation ([`explain`]) are separate:
//! the fast path never builds a message, and the explaining path asks for one only after
//! the verdict said no, so both paths agree by construction.

use super::marks::Mark;
use super::show::{counted, Message};
use crate::error::{ErrorDetails, ValidationErrorKind as Kind};
use crate::ids::{Id, NodeId, NumId, Span};
use crate::json::types::TypeSet;
use crate::json::view::{ArrayView, Json, NumberView, ObjectView, View};
use crate::json::{equal, types};
use crate::names::same_bytes;
use crate::program::RegexId;
use crate::program::{
    applicators, fused_leaves, keyword_leaves, ArrayOf, CheckList, Items, Node, Program, Settle,
};
use serde_json::Value;
use std::cmp::Ordering;
use std::fmt::Write;

/// Bytes of string a `pattern` or `format` check may scan per budget step. A step of
/// the interpreter costs about 10 ns; the automaton engine scans a byte in 0.5 to 1.5 ns
/// (more on short haystacks, where each call's set-up counts), so 8 bytes keep the MCP
/// profile's budget of 1,000,000 steps within about 12 ms of scanning. Every keyword of a
/// 1 MiB string then costs 131,072 steps: seven of them fit.
const BYTES_PER_STEP: usize = 8;

/// The verdict of the pattern `regex` on `text`, and its cost: a step per
/// [`BYTES_PER_STEP`] bytes scanned, plus the backtracking engine's own steps (all of
/// the budget, [`crate::regex::STOPPED`], when it stopped before a verdict).
#[inline]
pub(super) fn pattern(program: &Program, regex: RegexId, text: &str) -> (bool, usize) {
    let (found, steps) = program.regexes[regex].check(text, program.backtrack_limit);
    (found, steps + text.len() / BYTES_PER_STEP)
}

/// The verdict of a leaf `node` on `value`, and the budget steps it cost beyond the
/// first. A node that is not a leaf never gets here ([`Node::is_leaf`]); should one, it
/// fails: no default passes.
#[inline(always)]
pub(crate) fn verdict<'i, V: View<'i>>(program: &Program, node: Node, value: V) -> (bool, usize) {
    match node {
        Node::Checks(table) => checks(program, table, value),
        Node::EachItem(rest) => each_item(program, rest, value),
        Node::ArrayOf(table) => array_of(&program.array_ofs[table], value),
        node => plain(program, node, value),
    }
}

/// The verdict of `value` on the child `node` settled as `settle`, and its extra steps,
/// at the call site; `None` for the kinds that need the interpreter (`Record`, `List`,
/// `ByKind`, `Eval`).
#[inline(always)]
pub(crate) fn settled<'i, V: View<'i>>(
    program: &Program,
    settle: Settle,
    node: NodeId,
    value: V,
) -> Option<(bool, usize)> {
    Some(match settle {
        Settle::Pass => (true, 0),
        Settle::Fail => (false, 0),
        Settle::Type(set) => (set.matches(value), 0),
        Settle::Strings(table) => {
            let found = string_of(value).is_some_and(|s| program.string_sets[table].contains(s));
            (found, 0)
        }
        Settle::Range(table) => range(program, table, value),
        Settle::ChecksOrNull { branch, table } => or_null(program, branch, table, false, value),
        Settle::RangeOrNull { branch, table } => or_null(program, branch, table, true, value),
        // The work of the `pattern` part of the list this settles.
        Settle::Pattern(regex) => match value.as_str() {
            Some(text) => pattern(program, regex, text),
            None => (false, 0),
        },
        Settle::Text { min, max } => {
            let fits = string_of(value).is_some_and(|s| min_length(s, min) && max_length(s, max));
            (fits, 0)
        }
        Settle::Checks(table) => checks(program, table, value),
        Settle::Leaf => verdict(program, program.nodes[node.index()], value),
        Settle::Record(_)
        | Settle::Exact(_)
        | Settle::List(_)
        | Settle::ByKind(_)
        | Settle::Eval => return None,
    })
}

/// A [`Settle::ChecksOrNull`] union (its `Checks` branch `branch`, of list `table`), or
/// with `by_bounds` a [`Settle::RangeOrNull`] one. Out of line: [`settled`] is inlined
/// into every loop that settles values, and a larger arm there cost the loops that never
/// meet one 1-2.5% (measured).
#[inline(never)]
fn or_null<'i, V: View<'i>>(
    program: &Program,
    branch: NodeId,
    table: Id<CheckList>,
    by_bounds: bool,
    value: V,
) -> (bool, usize) {
    match value.json() {
        Json::Null => (true, 1),
        _ if !program.admits[branch.index()].admits(TypeSet::kind(value)) => (false, 0),
        _ => {
            let (ok, work) = match by_bounds {
                true => range(program, table, value),
                false => checks(program, table, value),
            };
            (ok, work + 1)
        }
    }
}

/// A [`Settle::Range`] list: a number by its bounds alone, anything else by the list.
#[inline(always)]
fn range<'i, V: View<'i>>(program: &Program, table: Id<CheckList>, value: V) -> (bool, usize) {
    let list = &program.check_lists[table];
    let parts = list.by_kind[CheckList::NUMBER].len as usize;
    match (value.json(), &list.bounds) {
        (Json::Number(n), Some(bounds)) if list.types.matches(value) => {
            match n.exact_f64() {
                // The verdict and the steps of the list's own run.
                Some(x) => (bounds.admits(x), parts),
                None => checks(program, table, value),
            }
        }
        _ => checks(program, table, value),
    }
}

/// A [`Node::Checks`]: the `type`, then the parts that can fail values of several
/// kinds, then those of the value's own kind ([`CheckList`]), stopping at the first that
/// fails; a step per part run. The compiler bounds how deeply `Checks` and the other
/// fused leaves nest, so this recursion is shallow.
pub(super) fn checks<'i, V: View<'i>>(
    program: &Program,
    table: Id<CheckList>,
    value: V,
) -> (bool, usize) {
    let list = &program.check_lists[table];
    if !list.types.matches(value) {
        return (false, 1);
    }
    // Each group runs out of line, and only when it has parts: inlined, the setup of
    // every group's loop was paid by every list, however few of its groups ran.
    let several = list.by_kind[CheckList::SEVERAL];
    let (ok, work) = match several.len {
        0 => (true, 0),
        _ => parts(program, several, value),
    };
    if !ok {
        return (false, work);
    }
    let (kind, span) = match value.json() {
        Json::String(_) => (CheckList::STRING, list.by_kind[CheckList::STRING]),
        Json::Number(_) => (CheckList::NUMBER, list.by_kind[CheckList::NUMBER]),
        Json::Array(_) => (CheckList::ARRAY, list.by_kind[CheckList::ARRAY]),
        Json::Object(_) => (CheckList::OBJECT, list.by_kind[CheckList::OBJECT]),
        Json::Null | Json::Bool(_) => return (true, work),
    };
    if span.len == 0 {
        return (true, work);
    }
    let (ok, more) = match (kind, value.json()) {
        (CheckList::STRING, Json::String(text)) => string_parts(program, span, text),
        (CheckList::NUMBER, Json::Number(n)) => match (&list.bounds, n.exact_f64()) {
            // The same verdict as the parts' exact comparisons, and the same steps as
            // their run to the end.
            (Some(bounds), Some(x)) => (bounds.admits(x), span.len as usize),
            _ => number_parts(program, span, n),
        },
        _ => parts(program, span, value),
    };
    (ok, work + more)
}

/// The leaf parts in `span`, in order, until one fails.
#[inline(always)]
fn parts<'i, V: View<'i>>(program: &Program, span: Span, value: V) -> (bool, usize) {
    // One part (a `type: array` beside `items`, say), the commonest group: its
    // verdict without the setup of the loop.
    if let [part] = program.edges[span] {
        let (ok, cost) = one_part(program, program.nodes[part.index()], value);
        return (ok, cost + 1);
    }
    several_parts(program, span, value)
}

/// [`fused_or_plain`] out of line, a small body that hands over to the part's own
/// check.
#[inline(never)]
fn one_part<'i, V: View<'i>>(program: &Program, node: Node, value: V) -> (bool, usize) {
    fused_or_plain(program, node, value)
}

/// [`parts`] for groups of two or more.
#[inline(never)]
fn several_parts<'i, V: View<'i>>(program: &Program, span: Span, value: V) -> (bool, usize) {
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

/// String parts (`minLength`, `maxLength`, `pattern`, `format`) on the text itself.
#[inline(never)]
fn string_parts(program: &Program, span: Span, text: &str) -> (bool, usize) {
    let mut work = 0;
    for &part in &program.edges[span] {
        let (ok, cost) = match program.nodes[part.index()] {
            Node::MinLength(min) => (min_length(text, min), 0),
            Node::MaxLength(max) => (max_length(text, max), 0),
            Node::Pattern(regex) => pattern(program, regex, text),
            Node::Format(table) => (
                program.formats[table].check.accepts(text),
                text.len() / BYTES_PER_STEP,
            ),
            // The compiler files only the four above here; anything else fails closed.
            _ => (false, 0),
        };
        work += cost + 1;
        if !ok {
            return (false, work);
        }
    }
    (true, work)
}

/// Number parts (the bounds and `multipleOf`) on the number itself.
#[inline(never)]
fn number_parts<N: NumberView>(program: &Program, span: Span, n: N) -> (bool, usize) {
    let mut work = 0;
    for &part in &program.edges[span] {
        let ok = match program.nodes[part.index()] {
            Node::Minimum(bound) => compare(program, n, bound) != Ordering::Less,
            Node::Maximum(bound) => compare(program, n, bound) != Ordering::Greater,
            Node::ExclusiveMinimum(bound) => compare(program, n, bound) == Ordering::Greater,
            Node::ExclusiveMaximum(bound) => compare(program, n, bound) == Ordering::Less,
            Node::MultipleOf(d) => n.is_multiple_of(&program.numbers[d]),
            // The compiler files only the five above here; anything else fails closed.
            _ => false,
        };
        work += 1;
        if !ok {
            return (false, work);
        }
    }
    (true, work)
}

/// `minLength`: at least `min` code points. A code point takes 1 to 4 bytes: the byte
/// length often settles it.
#[inline(always)]
fn min_length(text: &str, min: u32) -> bool {
    let min = min as usize;
    text.len() >= min && (text.len() >= 4 * min || text.chars().count() >= min)
}

/// `maxLength`: at most `max` code points.
#[inline(always)]
fn max_length(text: &str, max: u32) -> bool {
    text.len() <= max as usize || text.chars().count() <= max as usize
}

/// The verdict of a leaf part: `type` and item counts inline, fused parts by recursion, other plain
/// leaves through a call. Keeping the rarer checks out of line matters: inlined whole,
/// their setup was hoisted out of the loops of [`checks`] and [`each_item`] and paid on
/// every call, however few parts ran.
#[inline(always)]
fn fused_or_plain<'i, V: View<'i>>(program: &Program, node: Node, value: V) -> (bool, usize) {
    match node {
        Node::Type(set) => (set.matches(value), 0),
        Node::Checks(table) => checks(program, table, value),
        Node::EachItem(rest) => each_item(program, rest, value),
        Node::ArrayOf(table) => array_of(&program.array_ofs[table], value),
        // Tuple sizes (`[lon, lat]`), cheap enough to inline.
        Node::MinItems(_) | Node::MaxItems(_) => plain(program, node, value),
        _ => plain_out_of_line(program, node, value),
    }
}

/// [`plain`], not inlined (see [`fused_or_plain`]).
#[inline(never)]
fn plain_out_of_line<'i, V: View<'i>>(program: &Program, node: Node, value: V) -> (bool, usize) {
    plain(program, node, value)
}

/// A [`Node::ArrayOf`]: the value's type, then an array's size and every item's type,
/// in one loop; steps as for the `Checks` it replaces. Out of line, so that the loops
/// that may meet one (over an object's properties, say) keep their code as it was; the
/// loop over arrays of them inlines [`array_of_items`] instead.
#[inline(never)]
fn array_of<'i, V: View<'i>>(spec: &ArrayOf, value: V) -> (bool, usize) {
    let (ok, work) = match spec.prefix.is_empty() {
        true => array_of_items(spec, value),
        false => array_of_prefixed(spec, value),
    };
    // `uniqueItems` last, as its own part: a step per item. Never in the loop over rings of
    // coordinates below, which it cost a fifth (GeoJSON, measured).
    if !(ok && spec.unique) {
        return (ok, work);
    }
    match value.as_array() {
        Some(items) => (equal::all_unique(items), work + items.len()),
        None => (ok, work),
    }
}

/// [`array_of`] for an [`ArrayOf`] without a prefix (checked by the caller): every item
/// of one type.
#[inline(always)]
fn array_of_items<'i, V: View<'i>>(spec: &ArrayOf, value: V) -> (bool, usize) {
    let Some(items) = value.as_array() else {
        // Every other part checks arrays alone.
        let ok = spec.types.matches(value);
        return (ok, usize::from(!ok));
    };
    // The compiler fuses only types that admit arrays.
    let n = items.len();
    let ok = n >= spec.min as usize && n <= spec.max as usize && all_of(spec.items, items.iter());
    (ok, n + spec.parts.len as usize)
}

/// [`array_of`] for an [`ArrayOf`] with a prefix.
#[inline]
fn array_of_prefixed<'i, V: View<'i>>(spec: &ArrayOf, value: V) -> (bool, usize) {
    let Some(items) = value.as_array() else {
        let ok = spec.types.matches(value);
        return (ok, usize::from(!ok));
    };
    let n = items.len();
    let ok = n >= spec.min as usize
        && n <= spec.max as usize
        && (items.iter().zip(&spec.prefix)).all(|(item, set)| set.matches(item))
        && all_of(spec.items, items.iter().skip(spec.prefix.len()));
    (ok, n + spec.parts.len as usize)
}

/// Whether every one of `items` is of a type in `set`. A loop of its own, always
/// inlined: as `Iterator::all`, the compiler may leave it out of line, a call per array
/// of coordinates.
#[inline(always)]
fn all_of<'i, V: View<'i>>(set: TypeSet, items: impl Iterator<Item = V>) -> bool {
    for item in items {
        if !set.matches(item) {
            return false;
        }
    }
    true
}

/// A [`Node::EachItem`]: every item passes the leaf `rest`; one step per item.
fn each_item<'i, V: View<'i>>(program: &Program, rest: NodeId, value: V) -> (bool, usize) {
    let Some(items) = value.as_array() else {
        return (true, 0);
    };
    let node = program.nodes[rest.index()];
    if let Node::Type(set) = node {
        // The most common shape (`items: {"type": ...}`), with the dispatch hoisted.
        return (items.iter().all(|item| set.matches(item)), items.len());
    }
    let mut work = items.len();
    if let Node::Checks(table) = node {
        if let Some(found) = each_item_settled(program, table, rest, items) {
            return found;
        }
    }
    if let Node::ArrayOf(table) = node {
        // Rings of coordinates: the shape of the items decided once.
        let spec = &program.array_ofs[table];
        if spec.prefix.is_empty() && !spec.unique {
            // The spec's fields read once, into registers: read per item, they were
            // spilled and reloaded around the loop over each item's items (GeoJSON's
            // rings of coordinates: 24 instructions a position, then 31 when the loop
            // went through `array_of_items`; 19 so).
            let (min, max, set) = (spec.min as usize, spec.max as usize, spec.items);
            let (types, parts) = (spec.types, spec.parts.len as usize);
            for item in items.iter() {
                let Some(inner) = item.as_array() else {
                    let ok = types.matches(item);
                    work += usize::from(!ok);
                    if !ok {
                        return (false, work);
                    }
                    continue;
                };
                let n = inner.len();
                work += n + parts;
                if n < min || n > max || !all_of(set, inner.iter()) {
                    return (false, work);
                }
            }
            return (true, work);
        }
    }
    for item in items.iter() {
        let (ok, cost) = fused_or_plain(program, node, item);
        work += cost;
        if !ok {
            return (false, work);
        }
    }
    (true, work)
}

/// [`each_item`] of a check list that settles as one string check (an `enum` of strings,
/// a `pattern`, lengths: [`CheckList::settle`]), decided once for the array: each item's
/// verdict as a property's value of that list gets it, without the list's run. `None`
/// for other lists.
#[inline(never)]
fn each_item_settled<'i, A: ArrayView<'i>>(
    program: &Program,
    table: Id<CheckList>,
    rest: NodeId,
    items: A,
) -> Option<(bool, usize)> {
    let settle = match program.check_lists[table].settle {
        settle @ (Settle::Strings(_) | Settle::Pattern(_) | Settle::Text { .. }) => settle,
        _ => return None,
    };
    let mut work = items.len();
    for item in items.iter() {
        let (ok, cost) = settled(program, settle, rest, item)?;
        work += cost;
        if !ok {
            return Some((false, work));
        }
    }
    Some((true, work))
}

/// The verdict of leaf `node` on the string `name` (a property name under
/// `propertyNames`) and its extra steps, read from the text itself; `None` when the node
/// needs the name as a JSON value (a `Checks` part that compares whole values, say).
pub(super) fn on_name(program: &Program, node: Node, name: &str) -> Option<(bool, usize)> {
    let ok = match node {
        Node::Valid => true,
        Node::Invalid => false,
        Node::Type(set) => set.admits(TypeSet::STRING),
        Node::Const(expected) => program.values[expected].as_str() == Some(name),
        Node::Enum(span) => {
            let options = &program.values[span];
            let found = options.iter().any(|o| o.as_str() == Some(name));
            return Some((found, options.len()));
        }
        Node::StringEnum(table) => {
            let set = &program.string_sets[table];
            let work = set.len().checked_ilog2().unwrap_or(0) as usize;
            return Some((set.contains(name), work));
        }
        Node::MinLength(min) => min_length(name, min),
        Node::MaxLength(max) => max_length(name, max),
        Node::Pattern(regex) => return Some(pattern(program, regex, name)),
        Node::Format(table) => {
            let work = name.len() / BYTES_PER_STEP;
            return Some((program.formats[table].check.accepts(name), work));
        }
        Node::Checks(table) => {
            let mut work = 0;
            for &part in program.check_parts(table) {
                let (ok, cost) = on_name(program, program.nodes[part.index()], name)?;
                work += cost + 1;
                if !ok {
                    return Some((false, work));
                }
            }
            return Some((true, work));
        }
        // Checks of numbers, arrays and objects pass a string.
        Node::Minimum(_)
        | Node::Maximum(_)
        | Node::ExclusiveMinimum(_)
        | Node::ExclusiveMaximum(_)
        | Node::MultipleOf(_)
        | Node::MinItems(_)
        | Node::MaxItems(_)
        | Node::UniqueItems
        | Node::EachItem(_)
        | Node::Tuple(_)
        | Node::MinProperties(_)
        | Node::MaxProperties(_)
        | Node::Required(_)
        | Node::DependentRequired(_) => true,
        // Anything else is evaluated on a string value.
        _ => return None,
    };
    Some((ok, 0))
}

/// An [`Node::AnyLeaf`] or [`Node::ExclusiveLeaf`] (or, with `one`, a [`Node::OneLeaf`]):
/// the branches that may accept the value's type, in order, until the verdict is
/// settled; a step per branch tried.
fn branches<'i, V: View<'i>>(program: &Program, span: Span, value: V, one: bool) -> (bool, usize) {
    let kind = TypeSet::kind(value);
    let (mut passed, mut work) = (0, 0);
    for &branch in &program.edges[span] {
        if !program.admits[branch.index()].admits(kind) {
            continue;
        }
        let (ok, cost) = fused_or_plain(program, program.nodes[branch.index()], value);
        work += cost + 1;
        if ok {
            passed += 1;
            if !one || passed > 1 {
                break;
            }
        }
    }
    (passed == 1 || (!one && passed > 0), work)
}

/// A [`Node::Tuple`]: each item against its position's leaf, or the rest's; one step
/// per item.
fn tuple<'i, V: View<'i>>(program: &Program, table: Id<Items>, value: V) -> (bool, usize) {
    let Some(items) = value.as_array() else {
        return (true, 0);
    };
    let spec = &program.items[table];
    // Sizes are folded only into new tables of `Array` nodes (`compiler::records`, after
    // leaves are fused): a tuple's table has none.
    debug_assert_eq!(spec.size_checks.len, 0, "a tuple's table with folded sizes");
    let prefix = &program.edges[spec.prefix];
    let mut work = items.len();
    for (i, item) in items.iter().enumerate() {
        let Some(&node) = prefix.get(i).or(spec.rest.as_ref()) else {
            break;
        };
        let (ok, cost) = fused_or_plain(program, program.nodes[node.index()], item);
        work += cost;
        if !ok {
            return (false, work);
        }
    }
    (true, work)
}

/// What a passing fused leaf evaluated of an array, as one evaluation mark for an
/// enclosing `unevaluatedItems`: every item for `items`-like parts, the first few for a
/// [`Node::Tuple`] without a rest, and whatever the passing branches of a leaf
/// `anyOf` / `oneOf` evaluated.
pub(super) fn items_evaluated<'i, V: View<'i>>(
    program: &Program,
    node: Node,
    value: V,
) -> Option<Mark> {
    let items = value.as_array()?;
    let wider = |a: Option<Mark>, b: Option<Mark>| match (a, b) {
        (Some(Mark::AllItems), _) | (_, Some(Mark::AllItems)) => Some(Mark::AllItems),
        (Some(Mark::ItemsBelow(x)), Some(Mark::ItemsBelow(y))) => Some(Mark::ItemsBelow(x.max(y))),
        (a, b) => a.or(b),
    };
    let parts = |span: Span, passing_only: bool| {
        (program.edges[span].iter())
            .map(|&part| program.nodes[part.index()])
            .filter(|&part| !passing_only || verdict(program, part, value).0)
            .fold(None, |mark, part| {
                wider(mark, items_evaluated(program, part, value))
            })
    };
    match node {
        Node::EachItem(_) => Some(Mark::AllItems),
        Node::ArrayOf(table) => {
            let spec = &program.array_ofs[table];
            Some(match spec.each_item {
                true => Mark::AllItems,
                false => Mark::ItemsBelow(spec.prefix.len().min(items.len())),
            })
        }
        Node::Tuple(table) => {
            let spec = &program.items[table];
            Some(match spec.rest {
                Some(_) => Mark::AllItems,
                None => Mark::ItemsBelow((spec.prefix.len as usize).min(items.len())),
            })
        }
        Node::Checks(table) => parts(program.check_lists[table].parts, false),
        Node::AnyLeaf(span) | Node::OneLeaf(span) | Node::ExclusiveLeaf(span) => parts(span, true),
        // Leaves that evaluate no item (sizes and `uniqueItems` look at the array, not
        // through subschemas at its items).
        Node::Valid | Node::Type(_) | keyword_leaves!() => None,
        // Not leaves: the interpreter marks what they evaluate as it runs them.
        applicators!() => None,
    }
}

/// The verdict of a plain leaf (any leaf but `Checks`, `EachItem` and `ArrayOf`). A
/// check of one JSON type passes values of the other types.
#[inline(always)]
fn plain<'i, V: View<'i>>(program: &Program, node: Node, value: V) -> (bool, usize) {
    let ok = match node {
        Node::Valid => true,
        Node::Invalid => false,
        Node::Type(set) => set.matches(value),
        // A string (a tag's `const`) compared in line, without `equal`'s call and its
        // own call to `memcmp`.
        Node::Const(expected) => match (value.json(), &program.values[expected]) {
            (Json::String(text), Value::String(listed)) => {
                same_bytes(text.as_bytes(), listed.as_bytes())
            }
            (_, listed) => equal::equal(value, listed),
        },
        Node::Enum(span) => return program.enum_contains(span, value),
        Node::StringEnum(table) => {
            let set = &program.string_sets[table];
            let found = string_of(value).is_some_and(|s| set.contains(s));
            return (found, set.len().checked_ilog2().unwrap_or(0) as usize);
        }
        Node::Minimum(n) => number(value, |v| compare(program, v, n) != Ordering::Less),
        Node::Maximum(n) => number(value, |v| compare(program, v, n) != Ordering::Greater),
        Node::ExclusiveMinimum(n) => number(value, |v| compare(program, v, n) == Ordering::Greater),
        Node::ExclusiveMaximum(n) => number(value, |v| compare(program, v, n) == Ordering::Less),
        Node::MultipleOf(n) => number(value, |v| v.is_multiple_of(&program.numbers[n])),
        Node::MinLength(min) => string(value, |s| min_length(s, min)),
        Node::MaxLength(max) => string(value, |s| max_length(s, max)),
        Node::Pattern(regex) => {
            let Some(s) = value.as_str() else {
                return (true, 0);
            };
            return pattern(program, regex, s);
        }
        Node::Format(table) => {
            let Some(s) = value.as_str() else {
                return (true, 0);
            };
            return (
                program.formats[table].check.accepts(s),
                s.len() / BYTES_PER_STEP,
            );
        }
        Node::MinItems(min) => array(value, |items| items.len() >= min as usize),
        Node::MaxItems(max) => array(value, |items| items.len() <= max as usize),
        Node::UniqueItems => {
            let Some(items) = value.as_array() else {
                return (true, 0);
            };
            return (equal::all_unique(items), items.len());
        }
        Node::MinProperties(min) => object(value, |map| map.len() >= min as usize),
        Node::MaxProperties(max) => object(value, |map| map.len() <= max as usize),
        Node::Required(names) => {
            let Some(map) = value.as_object() else {
                return (true, 0);
            };
            return (
                missing(program, names, map).next().is_none(),
                names.len as usize,
            );
        }
        Node::DependentRequired(span) => {
            let Some(map) = value.as_object() else {
                return (true, 0);
            };
            let entries = &program.dependent_required[span];
            let ok = entries.iter().all(|&(key, names)| {
                map.get(&program.strings[key]).is_none()
                    || missing(program, names, map).next().is_none()
            });
            return (
                ok,
                entries.iter().map(|(_, names)| names.len as usize).sum(),
            );
        }
        Node::Checks(table) => return checks(program, table, value),
        Node::EachItem(rest) => return each_item(program, rest, value),
        Node::ArrayOf(table) => return array_of(&program.array_ofs[table], value),
        Node::AnyLeaf(span) | Node::ExclusiveLeaf(span) => {
            return branches(program, span, value, false)
        }
        Node::OneLeaf(span) => return branches(program, span, value, true),
        Node::Tuple(table) => return tuple(program, table, value),
        // Not leaves: never asked here, and never a pass if they were.
        applicators!() => false,
    };
    (ok, 0)
}

// The four below apply a keyword of one JSON type: a value of another type passes, as the
// specification says of every type-specific keyword (2020-12 Validation, section 6).
// They ask for the one type they check rather than matching on `Value`, so no arm passes
// by default.

/// `check` of a number; other values pass.
#[inline(always)]
fn number<'i, V: View<'i>>(value: V, check: impl FnOnce(V::Number) -> bool) -> bool {
    value.as_number().is_none_or(check)
}

/// `check` of a string; other values pass.
#[inline(always)]
fn string<'i, V: View<'i>>(value: V, check: impl FnOnce(&str) -> bool) -> bool {
    string_of(value).is_none_or(check)
}

/// The string `value` is, if it is one.
#[inline(always)]
fn string_of<'i, V: View<'i>>(value: V) -> Option<&'i str> {
    value.as_str()
}

/// `check` of an array; other values pass.
#[inline(always)]
fn array<'i, V: View<'i>>(value: V, check: impl FnOnce(V::Array) -> bool) -> bool {
    value.as_array().is_none_or(check)
}

/// `check` of an object; other values pass.
#[inline(always)]
fn object<'i, V: View<'i>>(value: V, check: impl FnOnce(V::Object) -> bool) -> bool {
    value.as_object().is_none_or(check)
}

fn compare<N: NumberView>(program: &Program, value: N, bound: NumId) -> Ordering {
    value.compare(&program.numbers[bound])
}

/// The names in `names` that `map` lacks.
pub(super) fn missing<'p, 'i: 'p, O: ObjectView<'i> + 'p>(
    program: &'p Program,
    names: Span,
    map: O,
) -> impl Iterator<Item = &'p str> + 'p {
    program.strings[names]
        .iter()
        .map(|name| &**name)
        .filter(move |name| map.get(name).is_none())
}

/// Strings longer than this are not parsed to see whether they encode the expected type.
const ENCODED_UP_TO: usize = 1 << 16;

/// The message of a `value` whose type is not in `set`: the types expected, the one
/// given, and, for a string that is the JSON text of a value of an expected type (a
/// model's common slip: `"[1, 2]"` for an array), how to fix it.
pub(super) fn type_mismatch(out: &mut Message, set: TypeSet, value: &Value) {
    out.push_str("expected ");
    for (i, name) in set.names().enumerate() {
        if i > 0 {
            out.push_str(" or ");
        }
        out.push_str(name);
    }
    type_given(out, set, value);
}

/// The rest of a [`type_mismatch`] message once the expected types are written: the
/// type given, and a hint when the value is the JSON text of a value of `set`.
fn type_given(out: &mut Message, set: TypeSet, value: &Value) {
    let _ = write!(out, ", got {}", types::type_name(value));
    // `null` names its type and its value in one word: "got null", once.
    if !value.is_null() {
        out.typed_value(value);
    }
    let Value::String(text) = value else {
        return;
    };
    if text.len() > ENCODED_UP_TO || set.admits(TypeSet::STRING) {
        return;
    }
    if let Ok(decoded) = serde_json::from_str::<Value>(text) {
        if set.matches(&decoded) {
            out.push_str(match decoded {
                Value::Null => "; send null itself, not the string \"null\"",
                Value::Bool(_) => "; send the boolean itself, not a JSON-encoded string",
                Value::Number(_) => "; send the number itself, not a JSON-encoded string",
                Value::Array(_) => "; send the array itself, not a JSON-encoded string",
                Value::Object(_) => "; send the object itself, not a JSON-encoded string",
                // A string is in `set` only if strings are, which returned above.
                Value::String(_) => "",
            });
        }
    }
}

/// Why a leaf `node` rejected `value`: `report` is called once per problem (once in all
/// unless `every`), with its kind, its operands and a writer of its message (which goes
/// straight into the error's own buffer, quoting `value` through [`Message`], which can
/// mask it).
#[cold]
pub(super) fn explain(
    program: &Program,
    node: Node,
    value: &Value,
    every: bool,
    mut report: impl FnMut(Kind, Option<ErrorDetails>, &dyn Fn(&mut Message)),
) {
    // The lists of names stop at the first missing one unless every one is asked for
    // (each is a walk of the object's keys).
    let reported = if every { usize::MAX } else { 1 };
    let mut range = |n: NumId, keyword, words: &str| {
        let limit = program.numbers[n].clone();
        report(
            Kind::Range,
            Some(ErrorDetails::Range { keyword, limit }),
            &|out| {
                out.value(value);
                let _ = write!(out, " is {words} {}", program.numbers[n]);
            },
        );
    };
    let length = |keyword, limit: u32| {
        let actual = value.as_str().map_or(0, |s| s.chars().count());
        Some(ErrorDetails::Length {
            keyword,
            limit: u64::from(limit),
            actual: actual as u64,
        })
    };
    let size = |keyword, limit: u32| {
        Some(ErrorDetails::Size {
            keyword,
            limit: u64::from(limit),
            actual: len(value) as u64,
        })
    };
    let required = |missing: &str, because: &str| {
        Some(ErrorDetails::Required {
            missing: missing.to_string(),
            because: Some(because.to_string()),
        })
    };
    match node {
        Node::Minimum(n) => range(n, "minimum", "less than the minimum of"),
        Node::Maximum(n) => range(n, "maximum", "greater than the maximum of"),
        Node::ExclusiveMinimum(n) => {
            let words = "not greater than the exclusive minimum of";
            range(n, "exclusiveMinimum", words);
        }
        Node::ExclusiveMaximum(n) => {
            let words = "not less than the exclusive maximum of";
            range(n, "exclusiveMaximum", words);
        }
        Node::Invalid => report(Kind::FalseSchema, None, &|out| {
            out.value(value);
            out.push_str(" is not allowed here");
        }),
        Node::Type(set) => {
            let details = ErrorDetails::Type {
                expected: set.names().collect(),
                actual: types::type_name(value),
            };
            report(Kind::Type, Some(details), &|out| {
                type_mismatch(out, set, value);
            });
        }
        Node::Const(expected) => {
            let details = ErrorDetails::Const {
                expected: program.values[expected].clone(),
            };
            report(Kind::Const, Some(details), &|out| {
                out.push_str("expected ");
                out.operand(&program.values[expected]);
                out.push_str(", got ");
                out.value(value);
            });
        }
        Node::Enum(span) => {
            let options = program.values[span].to_vec();
            report(Kind::Enum, Some(ErrorDetails::Enum { options }), &|out| {
                not_one_of(out, &program.values[span], Message::operand, value);
            });
        }
        Node::StringEnum(table) => {
            let set = &program.string_sets[table];
            let options = (set.listed())
                .map(|option| Value::String(option.to_owned()))
                .collect();
            // The message from the set: the options are made once, for the details.
            report(Kind::Enum, Some(ErrorDetails::Enum { options }), &|out| {
                not_one_of(out, set.listed(), Message::operand_text, value);
            });
        }
        Node::MultipleOf(n) => {
            let divisor = program.numbers[n].clone();
            report(
                Kind::MultipleOf,
                Some(ErrorDetails::MultipleOf { divisor }),
                &|out| {
                    out.value(value);
                    let _ = write!(out, " is not a multiple of {}", program.numbers[n]);
                },
            );
        }
        Node::MinLength(min) => report(Kind::Length, length("minLength", min), &|out| {
            out.value(value);
            let _ = write!(
                out,
                " is shorter than {}",
                counted(u64::from(min), "character", "characters")
            );
        }),
        Node::MaxLength(max) => report(Kind::Length, length("maxLength", max), &|out| {
            out.value(value);
            let _ = write!(
                out,
                " is longer than {}",
                counted(u64::from(max), "character", "characters")
            );
        }),
        Node::Pattern(regex) => {
            let pattern = program.regexes[regex].as_str();
            let details = ErrorDetails::Pattern {
                pattern: pattern.to_string(),
            };
            report(Kind::Pattern, Some(details), &|out| {
                out.value(value);
                let _ = write!(out, " does not match the pattern {pattern:?}");
            });
        }
        Node::Format(table) => {
            let name = &*program.strings[program.formats[table].name];
            let details = ErrorDetails::Format {
                format: name.to_string(),
            };
            report(Kind::Format, Some(details), &|out| {
                out.value(value);
                let _ = write!(out, " is not a valid {name:?}");
            });
        }
        Node::MinItems(min) => report(Kind::Size, size("minItems", min), &|out| {
            let _ = write!(
                out,
                "expected at least {}, got {}",
                counted(u64::from(min), "item", "items"),
                len(value)
            );
        }),
        Node::MaxItems(max) => report(Kind::Size, size("maxItems", max), &|out| {
            let _ = write!(
                out,
                "expected at most {}, got {}",
                counted(u64::from(max), "item", "items"),
                len(value)
            );
        }),
        Node::UniqueItems => report(Kind::UniqueItems, None, &|out| {
            out.push_str("array items are not unique");
        }),
        Node::MinProperties(min) => report(Kind::Size, size("minProperties", min), &|out| {
            let many = counted(u64::from(min), "property", "properties");
            let _ = write!(out, "expected at least {many}, got {}", len(value));
        }),
        Node::MaxProperties(max) => report(Kind::Size, size("maxProperties", max), &|out| {
            let _ = write!(
                out,
                "expected at most {}, got {}",
                counted(u64::from(max), "property", "properties"),
                len(value)
            );
        }),
        Node::Required(names) => {
            if let Value::Object(map) = value {
                // No details: the error reads them from its message (see `Vm::reject`).
                for name in missing(program, names, map).take(reported) {
                    report(Kind::Required, None, &|out| out.missing_property(name));
                }
            }
        }
        Node::DependentRequired(span) => {
            let Value::Object(map) = value else { return };
            let lacking = (program.dependent_required[span].iter())
                .map(|&(key, names)| (&*program.strings[key], names))
                .filter(|&(key, _)| crate::json::object::has(map, key))
                .flat_map(|(key, names)| missing(program, names, map).map(move |name| (key, name)));
            for (key, name) in lacking.take(reported) {
                report(Kind::Required, required(name, key), &|out| {
                    let _ = write!(
                        out,
                        "missing property {name:?}, required when {key:?} is present"
                    );
                });
            }
        }
        // Never fails.
        Node::Valid => {}
        // Fused leaves: the interpreter explains each part, item or branch at its own
        // keyword and location (`Vm::reject`), never the whole here.
        fused_leaves!() => {}
        // Not leaves: they report their own failures.
        applicators!() => {}
    }
}

/// "expected one of A, B, got C".
pub(super) fn not_one_of<T>(
    out: &mut Message,
    options: impl IntoIterator<Item = T>,
    write: impl Fn(&mut Message, T),
    value: &Value,
) {
    one_of(out, options, write);
    out.push_str(", got ");
    out.value(value);
}

/// "expected one of A, B", each option written by `write`.
pub(super) fn one_of<T>(
    out: &mut Message,
    options: impl IntoIterator<Item = T>,
    write: impl Fn(&mut Message, T),
) {
    out.push_str("expected one of ");
    for (i, option) in options.into_iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write(out, option);
    }
}

fn len(value: &Value) -> usize {
    match value {
        Value::Array(items) => items.len(),
        Value::Object(map) => map.len(),
        _ => 0,
    }
}
