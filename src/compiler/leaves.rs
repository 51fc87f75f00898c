//! Fusing leaves: schema objects and `items` that only check values become leaves.
//!
//! An `All` whose parts are all leaves becomes [`Node::Checks`], and `items` (without a
//! prefix) over a leaf schema becomes [`Node::EachItem`]; both are leaves themselves, so
//! the interpreter settles `{"type": "array", "minItems": 2, "items": {"type": "number"}}`
//! in one tight loop, and an array of such arrays too. A `Checks` that only says "an
//! array of values of given types" (one for all items, or one per leading item), maybe
//! distinct, becomes [`Node::ArrayOf`], one loop without calls. Because a fused leaf is
//! checked by plain recursion, without the interpreter's stack guard, fusion stops at
//! [`MAX_LEAF_NESTING`] levels; deeper structure keeps its ordinary nodes. And because
//! its loops run without the budget, which charges their work once the leaf is done,
//! fusion also stops where a loop over items would do more than [`MAX_FUSED_WORK`] per
//! item.

use super::Compiler;
use crate::ids::{Id, NodeId, Span};
use crate::json::types::TypeSet;
use crate::program::{ArrayOf, CheckList, FloatBounds, Node, Program};
use ahash::AHashMap;
use smallvec::SmallVec;

/// How many fused leaves may nest inside one another.
const MAX_LEAF_NESTING: u8 = 4;

/// The most work a fused leaf that loops over an array's items may do per item (its
/// parts' [`Fusion::plain`] work, summed). Without a limit, `"items": {"enum": [100,000
/// numbers]}` made one leaf compare every item of a 1 MiB array with every option before
/// the budget heard of it (minutes); unfused, the loop over the items charges the budget
/// item by item. The looping leaves of the compiled benchmark schemas do at most 23 per
/// item, and keep their fusion; a leaf within the limit may overrun the budget by at most
/// 25 units of work per value of the instance, once, since the run then stops.
const MAX_FUSED_WORK: u32 = 24;

/// The most parts that scan a string (`pattern`, `format`) one fused leaf may hold, a
/// pattern that needs the backtracking engine counting as all of them. A scan costs a
/// step per 8 bytes of text, a backtracking one up to a million more, and the budget
/// hears of a leaf's work when the leaf is done: `"allOf"` of 10,000 patterns fused into
/// one leaf scanned a 1 MiB string 10,000 times before the budget could stop it (seconds).
/// Unfused, the budget is paid part by part. A leaf that loops over items holds fewer
/// (no backtracking pattern): its scans repeat for every item. A pattern whose checks
/// read at most a few bytes of any text (`Pattern::reads_whole_text`) is no scan.
const MAX_FUSED_SCANS: u32 = 4;

impl Compiler<'_> {
    /// Rewrites fusable `All` and `Items` nodes, innermost first, until nothing changes;
    /// returns the [`Node::OneLeaf`]s it made.
    pub(crate) fn fuse_leaves(&mut self) -> Vec<usize> {
        let program = &mut self.program;
        // Nesting level of each node as a leaf: 0 for plain leaves, None for non-leaves.
        let mut level: Vec<Option<Fusion>> = program
            .nodes
            .iter()
            .map(|&n| n.is_leaf().then(|| Fusion::plain(program, n)))
            .collect();
        // Copies of one `All` (an inlined `$ref` target) share its span, and one list.
        let mut lists: AHashMap<Span, Id<CheckList>> = crate::maps::map();
        // Only these kinds fuse, and what they fuse into never fuses again: each round
        // looks at those still unfused. Children mostly come after their parents: the
        // last node first fuses most nestings in one round.
        let mut pending: Vec<usize> = (0..program.nodes.len())
            .rev()
            .filter(|&i| {
                matches!(
                    program.nodes[i],
                    Node::All(_) | Node::Items(_) | Node::Any(_) | Node::One(_)
                )
            })
            .collect();
        let mut one_leaves = Vec::new();
        for _ in 0..=MAX_LEAF_NESTING {
            let before = pending.len();
            pending.retain(|&i| {
                let Some((fused, fusion)) = fused(program, &level, program.nodes[i]) else {
                    return true;
                };
                if let Fused::Node(Node::OneLeaf(_)) = fused {
                    one_leaves.push(i);
                }
                program.nodes[i] = match fused {
                    Fused::Node(node) => node,
                    Fused::Checks(span) => {
                        let table = match lists.get(&span) {
                            Some(&table) => table,
                            None => {
                                let table = check_list(program, span);
                                lists.insert(span, table);
                                table
                            }
                        };
                        Node::Checks(table)
                    }
                };
                level[i] = Some(fusion);
                false
            });
            if pending.len() == before {
                break;
            }
        }
        for i in 0..program.nodes.len() {
            if let Node::Checks(table) = program.nodes[i] {
                if let Some(array_of) = array_of(program, &program.check_lists[table]) {
                    let id = Id::new(program.array_ofs.len()).expect("fewer than 2^32 tables");
                    program.array_ofs.push(array_of);
                    program.nodes[i] = Node::ArrayOf(id);
                }
            }
        }
        one_leaves
    }
}

/// What a node fuses into: a node, or a [`Node::Checks`] of the parts in a span (whose
/// [`CheckList`] the caller builds).
enum Fused {
    Node(Node),
    Checks(Span),
}

/// The [`CheckList`] of the leaf parts in `span`: the `type`s intersected, the other parts
/// grouped by the one kind of value (among those the types admit) they can fail.
fn check_list(program: &mut Program, span: Span) -> Id<CheckList> {
    let node = |program: &Program, at: usize| program.nodes[program.edges[span][at].index()];
    let types = (0..span.len as usize).fold(TypeSet::ANY, |types, at| match node(program, at) {
        Node::Type(set) => types.intersection(set),
        _ => types,
    });
    // A part checking one kind of value joins that kind's group (run on the value as text
    // or number); any other part that can fail an admitted value runs for all. Each group
    // is appended to `edges` in turn, without a list of its own.
    let group = |node: Node| -> Option<usize> {
        let fails = fails(node);
        let kept = !matches!(node, Node::Type(_)) && fails.intersection(types) != TypeSet::NONE;
        kept.then(|| CheckList::kind(fails))
    };
    let groups: SmallVec<[(usize, NodeId); 8]> = (0..span.len as usize)
        .filter_map(|at| Some((group(node(program, at))?, program.edges[span][at])))
        .collect();
    program.edges.reserve(groups.len());
    let by_kind = [0, 1, 2, 3, 4].map(|kind| {
        let start = program.edges.len() as u32;
        let members = groups.iter().filter(|&&(k, _)| k == kind);
        program.edges.extend(members.map(|&(_, part)| part));
        Span {
            start,
            len: program.edges.len() as u32 - start,
        }
    });
    let bounds = FloatBounds::of(program, &program.edges[by_kind[CheckList::NUMBER]]);
    let id = Id::new(program.check_lists.len()).expect("fewer than 2^32 tables");
    program.check_lists.push(CheckList {
        parts: span,
        types,
        by_kind,
        bounds,
        settle: crate::program::Settle::Eval,
    });
    id
}

/// The kinds of value leaf `node` can fail: a check of one JSON type passes the others.
pub(super) fn fails(node: Node) -> TypeSet {
    match node {
        Node::Valid => TypeSet::NONE,
        Node::MinLength(_) | Node::MaxLength(_) | Node::Pattern(_) | Node::Format(_) => {
            TypeSet::STRING
        }
        Node::Minimum(_)
        | Node::Maximum(_)
        | Node::ExclusiveMinimum(_)
        | Node::ExclusiveMaximum(_)
        | Node::MultipleOf(_) => TypeSet::NUMBER,
        Node::MinItems(_)
        | Node::MaxItems(_)
        | Node::UniqueItems
        | Node::EachItem(_)
        | Node::Tuple(_) => TypeSet::ARRAY,
        Node::MinProperties(_)
        | Node::MaxProperties(_)
        | Node::Required(_)
        | Node::DependentRequired(_) => TypeSet::OBJECT,
        _ => TypeSet::ANY,
    }
}

/// The [`ArrayOf`] a check `list` amounts to: `type`s, item types given by `items` (of a
/// lone `type`, or array-form of lone `type`s, maybe with a rest of one), and optionally
/// `minItems` / `maxItems` / `uniqueItems`; `None` for any other part, or no item types.
fn array_of(program: &Program, list: &CheckList) -> Option<ArrayOf> {
    let type_of = |id: NodeId| match program.nodes[id.index()] {
        Node::Type(set) => Some(set),
        _ => None,
    };
    let mut shape: Option<(Box<[TypeSet]>, Option<TypeSet>)> = None;
    let (mut min, mut max, mut unique) = (0, u32::MAX, false);
    for &part in &program.edges[list.parts] {
        match program.nodes[part.index()] {
            Node::Type(_) => {}
            Node::EachItem(rest) if shape.is_none() => {
                shape = Some((Box::default(), Some(type_of(rest)?)));
            }
            Node::Tuple(table) if shape.is_none() => {
                let spec = &program.items[table.index()];
                let prefix = program.edges[spec.prefix].iter().map(|&id| type_of(id));
                let rest = match spec.rest {
                    Some(rest) => Some(type_of(rest)?),
                    None => None,
                };
                shape = Some((prefix.collect::<Option<_>>()?, rest));
            }
            Node::MinItems(n) => min = min.max(n),
            Node::MaxItems(n) => max = max.min(n),
            Node::UniqueItems => unique = true,
            _ => return None,
        }
    }
    let (prefix, rest) = shape?;
    // An array that fails the types is left to the plain list (the fused node does not
    // test arrays for them).
    if !list.types.admits(TypeSet::ARRAY) {
        return None;
    }
    Some(ArrayOf {
        types: list.types,
        prefix,
        items: rest.unwrap_or(TypeSet::ANY),
        each_item: rest.is_some(),
        min,
        max,
        unique,
        parts: list.parts,
    })
}

/// What fusing knows of a leaf: how many fused leaves nest in it, the work it does per
/// value it reads (see [`Fusion::plain`]), and whether it loops over an array's items.
#[derive(Clone, Copy)]
struct Fusion {
    depth: u8,
    work: u32,
    /// Parts that scan strings, weighed as [`MAX_FUSED_SCANS`] says.
    scans: u32,
    loops: bool,
}

impl Fusion {
    /// Nothing read (no rest after a prefix; the start of a sum).
    const NONE: Fusion = Fusion {
        depth: 0,
        work: 0,
        scans: 0,
        loops: false,
    };

    /// A plain leaf's: the work of its own loop over the schema, if any (an `enum`'s
    /// options, the names of `dependentRequired`; `required` stops at the first missing
    /// name, so it looks up no more names than the object has), and its scans.
    fn plain(program: &Program, node: Node) -> Fusion {
        let work = match node {
            Node::Enum(span) | Node::DependentRequired(span) => span.len.max(1),
            _ => 1,
        };
        let scans = match node {
            Node::Pattern(regex) if program.regexes[regex].backtracks() => MAX_FUSED_SCANS,
            // A pattern that reads a few bytes of any text (an anchored alternation of
            // names) costs what any leaf does.
            Node::Pattern(regex) if !program.regexes[regex].reads_whole_text() => 0,
            Node::Pattern(_) | Node::Format(_) => 1,
            _ => 0,
        };
        Fusion {
            depth: 0,
            work,
            scans,
            loops: false,
        }
    }

    /// The parts' together: every part may run (an `anyOf` whose branches all fail).
    fn all(mut parts: impl Iterator<Item = Option<Fusion>>) -> Option<Fusion> {
        parts.try_fold(Fusion::NONE, |all, part| {
            Some(all.combine(part?, u32::saturating_add))
        })
    }

    /// Either part, whichever weighs more: what reads one item of a tuple, where the
    /// item's position decides the leaf.
    fn either(self, other: Fusion) -> Fusion {
        self.combine(other, u32::max)
    }

    /// Both parts' figures, their work and scans combined by `weigh`.
    fn combine(self, other: Fusion, weigh: fn(u32, u32) -> u32) -> Fusion {
        Fusion {
            depth: self.depth.max(other.depth),
            work: weigh(self.work, other.work),
            scans: weigh(self.scans, other.scans),
            loops: self.loops || other.loops,
        }
    }

    /// A loop over the items, each item read by the leaves of `each`.
    fn items(each: Fusion) -> Fusion {
        Fusion {
            depth: each.depth,
            work: each.work.saturating_add(1),
            scans: each.scans,
            loops: true,
        }
    }
}

/// The leaf `node` fuses into, with what fusing knows of it, if every part is a leaf, the
/// result stays within [`MAX_LEAF_NESTING`] and [`MAX_FUSED_SCANS`], and a result with a
/// loop over items within [`MAX_FUSED_WORK`] per item.
fn fused(program: &Program, level: &[Option<Fusion>], node: Node) -> Option<(Fused, Fusion)> {
    let leaf = |id: &NodeId| level[id.index()];
    let (fused, fusion) = match node {
        Node::All(span) => (
            Fused::Checks(span),
            Fusion::all(program.edges[span].iter().map(leaf))?,
        ),
        Node::Items(table) => {
            let items = &program.items[table.index()];
            let rest = match items.rest {
                Some(rest) => leaf(&rest)?,
                None => Fusion::NONE,
            };
            if items.prefix.len == 0 {
                (
                    Fused::Node(Node::EachItem(items.rest?)),
                    Fusion::items(rest),
                )
            } else {
                // An item is read by its position's leaf or the rest's.
                let each = (program.edges[items.prefix].iter().map(leaf))
                    .try_fold(rest, |most, each| Some(most.either(each?)))?;
                (Fused::Node(Node::Tuple(table)), Fusion::items(each))
            }
        }
        Node::Any(span) | Node::One(span) => {
            let one = matches!(node, Node::One(_));
            if let Some(set) = type_union(program, span, one) {
                // `anyOf` of lone types (and `oneOf` of disjoint ones) is one type.
                return Some((
                    Fused::Node(Node::Type(set)),
                    Fusion::plain(program, Node::Type(set)),
                ));
            }
            let fused = if one {
                Node::OneLeaf(span)
            } else {
                Node::AnyLeaf(span)
            };
            (
                Fused::Node(fused),
                Fusion::all(program.edges[span].iter().map(leaf))?,
            )
        }
        _ => return None,
    };
    let fusion = Fusion {
        depth: fusion.depth + 1,
        ..fusion
    };
    let within = fusion.depth <= MAX_LEAF_NESTING
        && fusion.scans <= MAX_FUSED_SCANS
        && (!fusion.loops || (fusion.work <= MAX_FUSED_WORK && fusion.scans < MAX_FUSED_SCANS));
    within.then_some((fused, fusion))
}

/// The one type set the branches of an `anyOf` (`one`: a `oneOf`) in `span` amount to,
/// when each is a lone `type` (for `oneOf`, of pairwise disjoint sets: exactly one can
/// match, since a number is an integer only when the integer bit is in its set).
fn type_union(program: &Program, span: Span, one: bool) -> Option<TypeSet> {
    let mut union = TypeSet::NONE;
    for &branch in &program.edges[span] {
        let Node::Type(set) = program.nodes[branch.index()] else {
            return None;
        };
        if one && union.intersection(set) != TypeSet::NONE {
            return None;
        }
        union = union.union(set);
    }
    Some(union)
}

#[cfg(test)]
mod tests {
    use crate::program::Node;
    use serde_json::{json, Value};

    /// Whether a node of `schema`'s program is of the `kind`.
    fn has(schema: &Value, kind: fn(&Node) -> bool) -> bool {
        let options = crate::ValidationOptions::default();
        let program = crate::compiler::compile(schema, &options).unwrap();
        program.nodes.iter().any(kind)
    }

    #[test]
    fn a_loop_over_items_fuses_only_leaves_cheap_per_item() {
        let each_item = |node: &Node| matches!(node, Node::EachItem(_));
        let options = |n: i64| Value::from((0..n).collect::<Vec<_>>());
        // An `enum` of 23 numbers does 23 per item, and the loop one more: within 24.
        assert!(has(&json!({"items": {"enum": options(23)}}), each_item));
        assert!(!has(&json!({"items": {"enum": options(24)}}), each_item));
        let branches: Vec<Value> = (0..30)
            .map(|i| json!({"required": [format!("k{i}")]}))
            .collect();
        assert!(!has(&json!({"items": {"anyOf": branches}}), each_item));
        // Without a loop over items, a leaf does its work once per value: it fuses.
        let any_leaf = |node: &Node| matches!(node, Node::AnyLeaf(_));
        assert!(has(&json!({"anyOf": branches}), any_leaf));
        assert!(has(&json!({"items": {"anyOf": branches}}), any_leaf));
    }

    #[test]
    fn only_patterns_that_read_whole_texts_count_as_scans() {
        let any_leaf = |node: &Node| matches!(node, Node::AnyLeaf(_));
        let branches = |patterns: &mut dyn Iterator<Item = String>| -> Value {
            let mut branches = vec![json!({"enum": ["ES5", "ES6"]})];
            branches.extend(patterns.map(|pattern| json!({"pattern": pattern})));
            json!({"anyOf": branches})
        };
        // tsconfig's `lib`: names in any case, each anchored, each of a greatest length.
        let names = (0..12).map(|i| format!(r"^[Ee][Ss]20{i:02}(\.[Ii][Nn][Tt][Ll])?$"));
        assert!(has(&branches(&mut names.into_iter()), any_leaf));
        // Each of these may read a whole text: more than four stay apart.
        let scans = (0..5).map(|i| format!("^[a-z]+{i}$"));
        assert!(!has(&branches(&mut scans.into_iter()), any_leaf));
        let scans = (0..4).map(|i| format!("^[a-z]+{i}$"));
        assert!(has(&branches(&mut scans.into_iter()), any_leaf));
    }
}
