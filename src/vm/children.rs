//! The applicators that descend into the instance's children but for `properties`
//! (see [`super::properties`]): `prefixItems`/`items`, `contains`, `propertyNames` and
//! the `unevaluated*` pair. Each marks what it evaluated for `unevaluated*` at the
//! current location and turns tracking off below it (see [`super::marks`]).

use super::leaf;
use super::marks::{self, Mark};
use super::show::counted;
use super::{Logged, Mode, Step, Vm};
use crate::error::ValidationErrorKind as Kind;
use crate::ids::{Id, NodeId, Span};
use crate::json::view::{ArrayView, Json, ObjectView, View};
use crate::program::{Items, Node, Settle, Unevaluated};
use serde_json::Value;
use std::fmt::Write;

impl<'p, const EXPLAIN: bool> Vm<'p, EXPLAIN>
where
    Mode<EXPLAIN>: Logged,
{
    #[inline(never)]
    pub(super) fn items<'i, V: View<'i>>(
        &mut self,
        id: NodeId,
        instance: V,
        table: Id<Items>,
    ) -> bool {
        let Some(items) = instance.as_array() else {
            return true;
        };
        let program = self.program;
        let spec = &program.items[table];
        let prefix = &program.edges[spec.prefix];
        let mut ok = true;
        // The folded size checks run as the nodes they were, unless the length alone
        // settles them.
        if !spec.plainly_sized(items.len()) && !self.size_checks(spec.size_checks, instance) {
            ok = false;
            if !self.keep_going() {
                return false;
            }
        }
        let settles = spec.prefix_settle.iter();
        for (i, ((item, &node), &settle)) in items.iter().zip(prefix).zip(settles).enumerate() {
            if !self.settle(node, settle, item, Step::Index(i)) {
                ok = false;
                if !self.keep_going() {
                    return false;
                }
            }
        }
        if let Some(rest) = spec.rest {
            let rest_len = items.len().saturating_sub(prefix.len());
            let rest_items = || items.iter().skip(prefix.len());
            let rest_node = program.nodes[rest.index()];
            if rest_node == Node::Invalid && rest_len > 0 {
                return self.fail(id, Kind::Unexpected, |out| {
                    let (most, got) = (prefix.len(), items.len());
                    let _ = write!(
                        out,
                        "expected at most {}, got {got}",
                        counted(most as u64, "item", "items")
                    );
                });
            }
            // One budget charge for the run; each item is settled as the compiler
            // decided, the decision taken once for the whole array.
            if !self.spend(id, rest_len) {
                return false;
            }
            let passed = match spec.rest_settle {
                Settle::Pass => true,
                Settle::Type(set) if !EXPLAIN => rest_items().all(|item| set.matches(item)),
                settle @ (Settle::Fail
                | Settle::Strings(_)
                | Settle::Text { .. }
                | Settle::Pattern(_)
                | Settle::Range(_)
                | Settle::Checks(_)
                | Settle::ChecksOrNull { .. }
                | Settle::RangeOrNull { .. }
                | Settle::Leaf)
                    if !EXPLAIN =>
                {
                    rest_items().all(|item| {
                        let (ok, work) =
                            leaf::settled(program, settle, rest, item).unwrap_or((false, 0));
                        self.paid(id, ok, work)
                    })
                }
                Settle::Exact(table) if !EXPLAIN && !self.tracking => {
                    self.nested_items(rest, rest_items(), |vm, item| {
                        let exact = V::Object::KEYS_IN_BYTE_ORDER;
                        item.as_object().map(|_| match exact {
                            true => vm.exact_record(rest, item, table),
                            // A view in another order runs the table as any record.
                            false => vm.properties(rest, item, table),
                        })
                    })
                }
                Settle::Record(table) if !EXPLAIN && !self.tracking => {
                    self.nested_items(rest, rest_items(), |vm, item| {
                        matches!(item.json(), Json::Object(_))
                            .then(|| vm.properties(rest, item, table))
                    })
                }
                Settle::List(table) if !EXPLAIN && !self.tracking => {
                    self.nested_items(rest, rest_items(), |vm, item| {
                        matches!(item.json(), Json::Array(_)).then(|| vm.items(rest, item, table))
                    })
                }
                Settle::ByKind(table) if !EXPLAIN && !self.tracking => {
                    self.nested_items(rest, rest_items(), |vm, item| {
                        Some(vm.by_kind(rest, item, table))
                    })
                }
                settle => {
                    let mut all = true;
                    for (i, item) in items.iter().enumerate().skip(prefix.len()) {
                        if !self.settle(rest, settle, item, Step::Index(i)) {
                            all = false;
                            if !self.keep_going() {
                                break;
                            }
                        }
                    }
                    all
                }
            };
            if !passed {
                return false;
            }
            self.mark(Mark::AllItems);
        } else {
            self.mark(Mark::ItemsBelow(prefix.len().min(items.len())));
        }
        if ok && self.annotating() {
            self.items_annotations(
                id,
                items.len(),
                prefix.len(),
                spec.rest.is_some(),
                spec.keywords,
            );
        }
        ok
    }

    /// The fast mode's loop over the items of an array whose item schema (`node`)
    /// settles as a table run straight away ([`Settle::Record`], [`Settle::Exact`],
    /// [`Settle::List`], [`Settle::ByKind`]): what [`Vm::settle`] does for each item,
    /// with the level's bounds checked once for all (the items are siblings, one level
    /// down) and the kind of table decided once, by the caller's `run` (`None` for an
    /// item the table does not take as it is). Such an item, or one the budget cannot
    /// pay for, is evaluated as any child is.
    #[inline(never)]
    fn nested_items<'i, V: View<'i>>(
        &mut self,
        node: NodeId,
        items: impl ExactSizeIterator<Item = V>,
        run: impl Fn(&mut Self, V) -> Option<bool>,
    ) -> bool {
        if items.len() == 0 {
            return true;
        }
        if self.no_level_below() {
            return self.stop(node);
        }
        for (i, item) in items.enumerate() {
            let ran = match self.steps {
                0 => None,
                _ => {
                    self.steps -= 1;
                    self.depth += 1;
                    let ran = run(self, item);
                    self.depth -= 1;
                    // Not taken: the step is the evaluation's, below.
                    if ran.is_none() {
                        self.steps += 1;
                    }
                    ran
                }
            };
            let ok = match ran {
                Some(ok) => ok,
                None => self.descend(node, item, Step::Index(i)),
            };
            if !ok {
                return false;
            }
        }
        true
    }

    /// The size checks folded into an `items` table ([`crate::program::Items::sizes`]),
    /// run as the conjunction they were a part of; out of line, off the common path.
    #[inline(never)]
    fn size_checks<'i, V: View<'i>>(&mut self, checks: Span, instance: V) -> bool {
        self.all(checks, instance)
    }

    /// The annotations of a passing `prefixItems` (the largest index it applied to, or
    /// `true` for all) and `items` (`true` when it applied to any item).
    #[cold]
    fn items_annotations(
        &mut self,
        id: NodeId,
        len: usize,
        prefix: usize,
        rest: bool,
        [prefix_keyword, rest_keyword]: [&'static str; 2],
    ) {
        if prefix > 0 && len > 0 {
            let value = match len <= prefix {
                true => Value::Bool(true),
                false => Value::from(prefix - 1),
            };
            self.record_applicator(id, prefix_keyword, value);
        }
        if rest && len > prefix {
            self.record_applicator(id, rest_keyword, Value::Bool(true));
        }
    }

    #[inline(never)]
    pub(super) fn contains<'i, V: View<'i>>(
        &mut self,
        id: NodeId,
        instance: V,
        schema: NodeId,
        min: u32,
        max: u32,
    ) -> bool {
        let Some(items) = instance.as_array() else {
            return true;
        };
        let mut count: u64 = 0;
        let mut matched: Vec<Value> = Vec::new();
        for (i, item) in items.iter().enumerate() {
            // Failing items' errors are discarded (only the count is reported), so the
            // explaining mode asks for verdicts alone.
            let passed = if self.annotating() {
                // The items that pass keep their annotations.
                self.discarding_errors(|vm| vm.descend(schema, item, Step::Index(i)))
            } else if EXPLAIN {
                self.quietly(id, |fast| fast.descend(schema, item, Step::Index(i)))
            } else {
                self.descend(schema, item, Step::Index(i))
            };
            if passed {
                count += 1;
                if self.annotating() {
                    matched.push(Value::from(i));
                }
                self.mark(Mark::Item(i));
                let settled = count >= u64::from(min) && max == u32::MAX;
                if (settled || count > u64::from(max)) && !self.tracking && !self.annotating() {
                    break;
                }
            }
        }
        if count < u64::from(min) {
            return self.fail(id, Kind::Contains, |out| {
                let _ = match min {
                    1 => write!(out, "no item matches the contains schema"),
                    _ => write!(
                        out,
                        "expected at least {} matching the contains schema, found {count}",
                        counted(u64::from(min), "item", "items")
                    ),
                };
            });
        }
        if count > u64::from(max) {
            return self.fail(id, Kind::Contains, |out| {
                let _ = write!(
                    out,
                    "expected at most {} matching the contains schema, found {count}",
                    counted(u64::from(max), "item", "items")
                );
            });
        }
        if !matched.is_empty() {
            self.record_applicator(id, "contains", Value::Array(matched));
        }
        true
    }

    #[inline(never)]
    pub(super) fn unevaluated<'i, V: View<'i>>(
        &mut self,
        id: NodeId,
        instance: V,
        table: Id<Unevaluated>,
    ) -> bool {
        let program = self.program;
        let spec = &program.unevaluated[table];
        let outer = std::mem::replace(&mut self.tracking, true);
        let start = self.marks_len();
        let mut ok = self.eval(spec.body, instance);
        let evaluated = marks::Evaluated::of(self.marks_since(start));
        // What `unevaluated*` applied to, for their annotations.
        let mut names: Vec<Value> = Vec::new();
        let mut any_item = false;
        if let (Some(node), Json::Object(map), true) =
            (spec.properties, instance.json(), ok || self.keep_going())
        {
            let settle = Settle::of(program, node);
            for (key, value) in map.iter() {
                if !evaluated.property(key.as_ptr() as usize) {
                    if self.annotating() {
                        names.push(Value::from(key));
                    }
                    ok &= self.additional(id, node, settle, key, value);
                    if !ok && !self.keep_going() {
                        break;
                    }
                }
            }
        }
        if let (Some(node), Json::Array(items), true) =
            (spec.items, instance.json(), ok || self.keep_going())
        {
            for (i, item) in items.iter().enumerate() {
                if evaluated.item(i) {
                    continue;
                }
                any_item = true;
                if !self.descend(node, item, Step::Index(i)) {
                    ok = false;
                    if !self.keep_going() {
                        break;
                    }
                }
            }
        }
        if ok && self.annotating() {
            if !names.is_empty() {
                self.record_applicator(id, "unevaluatedProperties", Value::Array(names));
            }
            if any_item {
                self.record_applicator(id, "unevaluatedItems", Value::Bool(true));
            }
        }
        self.tracking = outer;
        if !outer {
            self.truncate_marks(start);
        } else if ok {
            if spec.properties.is_some() {
                self.mark(Mark::AllProperties);
            }
            if spec.items.is_some() {
                self.mark(Mark::AllItems);
            }
        }
        ok
    }

    #[inline(never)]
    pub(super) fn property_names<'i, V: View<'i>>(&mut self, instance: V, node: NodeId) -> bool {
        let Some(map) = instance.as_object() else {
            return true;
        };
        let mut ok = true;
        let program = self.program;
        let leaf = program.nodes[node.index()];
        for (key, _) in map.iter() {
            // Most name schemas (`pattern`, `maxLength`, `enum`) read the name as text:
            // no string value is built for them. The steps are a child evaluation's.
            if let Some((passed, work)) = leaf::on_name(program, leaf, key) {
                if self.paid(node, passed, work + 1) {
                    continue;
                }
                if !EXPLAIN {
                    return false;
                }
            }
            let name = Value::String(key.to_owned());
            // A name is not a place in the instance: what it was annotated with goes.
            let annotations = self.annotation_count();
            let passed = self.descend(node, &name, Step::Key(key));
            self.drop_annotations_since(annotations);
            if !passed {
                ok = false;
                if !self.keep_going() {
                    break;
                }
            }
        }
        ok
    }
}
