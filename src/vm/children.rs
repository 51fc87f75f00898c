//! The applicators that descend into the instance's children: `prefixItems`/`items`,
//! `contains`, `properties`/`patternProperties`/`additionalProperties`, `propertyNames`
//! and the `unevaluated*` pair. Each marks what it evaluated for `unevaluated*` at the
//! current location and turns tracking off below it (see [`super::marks`]).

use super::leaf;
use super::marks::{self, Mark};
use super::show::counted;
use super::{Journal, Logged, Mode, Step, Vm};
use crate::error::ValidationErrorKind as Kind;
use crate::ids::{Id, NodeId, RegexId, Span};
use crate::names::{same_bytes, Spelling};
use crate::program::{
    applicators, other_leaves, Entry, FastLoop, Items, NameLookup, Node, Program, Properties,
    Settle, Unevaluated,
};
use serde_json::Value;
use std::fmt::Write;

impl<'p, const EXPLAIN: bool> Vm<'p, EXPLAIN>
where
    Mode<EXPLAIN>: Logged,
{
    #[inline(never)]
    pub(super) fn items(&mut self, id: NodeId, instance: &Value, table: Id<Items>) -> bool {
        let Value::Array(items) = instance else {
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
            let rest_items = items.get(prefix.len()..).unwrap_or_default();
            let rest_node = program.nodes[rest.index()];
            if rest_node == Node::Invalid && !rest_items.is_empty() {
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
            if !self.spend(id, rest_items.len()) {
                return false;
            }
            let passed = match spec.rest_settle {
                Settle::Pass => true,
                Settle::Type(set) if !EXPLAIN => rest_items.iter().all(|item| set.matches(item)),
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
                    rest_items.iter().all(|item| {
                        let (ok, work) =
                            leaf::settled(program, settle, rest, item).unwrap_or((false, 0));
                        self.paid(id, ok, work)
                    })
                }
                Settle::Exact(table) if !EXPLAIN && !self.tracking => {
                    self.nested_items(rest, rest_items, |vm, item| {
                        item.is_object().then(|| vm.exact_record(rest, item, table))
                    })
                }
                Settle::Record(table) if !EXPLAIN && !self.tracking => {
                    self.nested_items(rest, rest_items, |vm, item| {
                        item.is_object().then(|| vm.properties(rest, item, table))
                    })
                }
                Settle::List(table) if !EXPLAIN && !self.tracking => {
                    self.nested_items(rest, rest_items, |vm, item| {
                        item.is_array().then(|| vm.items(rest, item, table))
                    })
                }
                Settle::ByKind(table) if !EXPLAIN && !self.tracking => {
                    self.nested_items(rest, rest_items, |vm, item| {
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
    fn nested_items(
        &mut self,
        node: NodeId,
        items: &[Value],
        run: impl Fn(&mut Self, &Value) -> Option<bool>,
    ) -> bool {
        if items.is_empty() {
            return true;
        }
        if self.no_level_below() {
            return self.stop(node);
        }
        for (i, item) in items.iter().enumerate() {
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
    fn size_checks(&mut self, checks: Span, instance: &Value) -> bool {
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
    pub(super) fn contains(
        &mut self,
        id: NodeId,
        instance: &Value,
        schema: NodeId,
        min: u32,
        max: u32,
    ) -> bool {
        let Value::Array(items) = instance else {
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
    pub(super) fn properties(
        &mut self,
        id: NodeId,
        instance: &Value,
        table: Id<Properties>,
    ) -> bool {
        let Value::Object(map) = instance else {
            return true;
        };
        let program = self.program;
        let spec = &program.properties[table];
        if EXPLAIN && spec.leaves && self.checks_first() && !self.in_failed_child() {
            // A table of leaves that passes (beside a `required` or a formula that
            // fails, say) costs the explaining pass what it costs `is_valid`: the
            // loop that records nothing, its steps spent only if it passes.
            if self.passes_quietly(|fast| fast.properties(id, instance, table)) {
                return true;
            }
        }
        if !EXPLAIN && !self.tracking {
            return self.fast_properties(id, map, spec);
        }
        if !self.spend(id, spec.steps(map.len())) {
            return false;
        }
        self.all_properties(id, instance, map, spec)
    }

    /// [`Vm::properties`] in general: either mode, evaluation marks, `patternProperties`.
    /// Out of line, so that the fast loops above keep a small frame.
    #[inline(never)]
    fn all_properties(
        &mut self,
        id: NodeId,
        instance: &Value,
        map: &serde_json::Map<String, Value>,
        spec: &Properties,
    ) -> bool {
        let mut ok = true;
        // A folded `required` is counted in the pass below (too few keys settle it at
        // once), and explained by running the `Required` node itself. Collecting every
        // error, that node runs first, so errors come in the order the schema gives.
        let count_required = !self.keep_going();
        if !count_required {
            if let Some(required) = spec.required_node {
                ok = self.eval(required, instance);
            }
        } else if map.len() < spec.required_count as usize {
            return self.missing_required(spec, instance);
        }
        let mut required_met = 0;
        // One pass over the instance's keys. Costly named schemas (references, nested
        // applicators) wait until every cheap check has passed, cheapest first: a failing
        // cheap check (a `tag` constant, say) then settles a `oneOf` branch before any
        // recursive property is walked.
        let mut deferred = Deferred::new((NodeId::default(), "", &NULL));
        for (key, value) in map {
            let position = spec.find(key);
            if let Some((_, entry)) = position {
                let Entry {
                    node,
                    cost,
                    required,
                    settle,
                    ..
                } = *entry;
                if count_required && required {
                    required_met += 1;
                }
                if cost < Program::COSTLY || !deferred.push(cost, (node, key.as_str(), value)) {
                    self.mark(Mark::Property(key.as_ptr() as usize));
                    let before = self.errors_before_null(value);
                    if !self.settle(node, settle, value, Step::Key(key)) {
                        ok = false;
                        if value.is_null() {
                            self.null_for_optional(before, spec, key);
                        }
                    }
                }
            }
            let mut matched = position.is_some();
            for &(regex, node) in &spec.patterns {
                if !ok && !self.keep_going() {
                    break;
                }
                let Some(hit) = self.key_matches(id, regex, key) else {
                    return false;
                };
                if hit {
                    matched = true;
                    ok &= self.descend(node, value, Step::Key(key));
                }
            }
            if !matched {
                if let Some(additional) = spec.additional {
                    ok &= self.additional(id, additional, spec.additional_settle, key, value);
                }
            } else if position.is_none() {
                self.mark(Mark::Property(key.as_ptr() as usize));
            }
            if !ok && !self.keep_going() {
                return false;
            }
        }
        // Before any costly property: a missing required name is the cheaper verdict.
        if count_required && required_met < spec.required_count {
            return self.missing_required(spec, instance);
        }
        for &(_, (node, key, value)) in deferred.sorted() {
            self.mark(Mark::Property(key.as_ptr() as usize));
            let before = self.errors_before_null(value);
            if !self.descend(node, value, Step::Key(key)) {
                ok = false;
                if value.is_null() {
                    self.null_for_optional(before, spec, key);
                }
                if !self.keep_going() {
                    return false;
                }
            }
        }
        if spec.additional.is_some() {
            self.mark(Mark::AllProperties);
        }
        if ok && self.annotating() {
            self.properties_annotations(id, map, spec);
        }
        ok
    }

    /// Whether the `patternProperties` pattern `regex` matches the name `key`, its work
    /// paid; `None` when that stopped the run (the budget ran out, or the check stopped
    /// before its verdict).
    #[inline(always)]
    fn key_matches(&mut self, id: NodeId, regex: RegexId, key: &str) -> Option<bool> {
        let (hit, work) = leaf::pattern(self.program, regex, key);
        match work == 0 || self.spend(id, work) {
            true => Some(hit),
            false => None,
        }
    }

    /// The annotations of a passing table: the names `properties`, `patternProperties`
    /// and `additionalProperties` each applied to (those that applied to any).
    #[cold]
    fn properties_annotations(
        &mut self,
        id: NodeId,
        map: &serde_json::Map<String, Value>,
        spec: &Properties,
    ) {
        let program = self.program;
        let (mut named, mut patterned, mut additional) = (Vec::new(), Vec::new(), Vec::new());
        for key in map.keys() {
            let by_name = spec.position(key).is_some();
            let by_pattern =
                (spec.patterns.iter()).any(|&(regex, _)| program.regexes[regex].is_match(key));
            if by_name {
                named.push(Value::from(key.as_str()));
            }
            if by_pattern {
                patterned.push(Value::from(key.as_str()));
            }
            if !by_name && !by_pattern && spec.additional.is_some() {
                additional.push(Value::from(key.as_str()));
            }
        }
        for (keyword, names) in [
            ("properties", named),
            ("patternProperties", patterned),
            ("additionalProperties", additional),
        ] {
            if !names.is_empty() {
                self.record_applicator(id, keyword, Value::Array(names));
            }
        }
    }

    /// [`Vm::properties`] in its commonest setting: the fast mode, no evaluation marks
    /// to record. The loop is the table's [`FastLoop`], decided when it was compiled: one
    /// jump per object. `General` (for `patternProperties`) and `Costly` have a loop each,
    /// so that the others set up no [`Deferred`] list and run no regex; the commonest,
    /// one per kind of lookup and, for the two kinds of small tables, per whether the
    /// table is open, so that an open table's loop passes an unnamed key with no code for
    /// `additionalProperties` (measured: yamllint and code-climate -9%, lerna -4%, none
    /// slower). The same checks as the general loop (so the same budget), without its
    /// bookkeeping; only the order differs, which no verdict depends on: the first
    /// failure ends the run, and a pass runs them all.
    #[inline(always)]
    fn fast_properties(
        &mut self,
        id: NodeId,
        map: &serde_json::Map<String, Value>,
        spec: &Properties,
    ) -> bool {
        // The steps of `Properties::steps`: a step per key without patterns.
        let keys = map.len();
        let steps = match spec.fast {
            FastLoop::General => spec.steps(keys),
            _ => keys,
        };
        // Too few keys for the folded `required` fail at once (none in `Additional`).
        if !self.spend(id, steps) || keys < spec.required_count as usize {
            return false;
        }
        match (spec.fast, &spec.lookup) {
            (FastLoop::Additional, _) => self.only_additional(id, map, spec),
            (FastLoop::Costly, _) => {
                let find = |name: &str| spec.find(name);
                self.keyed::<false, true, false>(id, map, spec, find)
            }
            (FastLoop::OpenScan, NameLookup::Scan(probes)) => {
                // One name in an object of two keys or more: the name looked up, as a
                // bare `properties` reached through `eval` is. The walk over the keys
                // ends at a branch that depends on each object's size, missed on most
                // objects (yamllint, one such table: 1.2-1.3x jsonschema's wall time
                // walked, 1.0x looked up, though 3% more instructions).
                if spec.named.len() == 1 && keys >= LOOK_UP_FROM {
                    return self.one_property(map, spec);
                }
                let find = |name: &str| spec.scanned(probes, name);
                self.keyed::<false, false, true>(id, map, spec, find)
            }
            (FastLoop::Scan, NameLookup::Scan(probes)) => {
                let find = |name: &str| spec.scanned(probes, name);
                self.keyed::<false, false, false>(id, map, spec, find)
            }
            (FastLoop::OpenQuick, NameLookup::Quick(index)) => {
                let find = |name: &str| spec.quick(index, name);
                self.keyed::<false, false, true>(id, map, spec, find)
            }
            (FastLoop::Quick, NameLookup::Quick(index)) => {
                let find = |name: &str| spec.quick(index, name);
                self.keyed::<false, false, false>(id, map, spec, find)
            }
            (FastLoop::Indexed, NameLookup::Probed(index)) => {
                let find = |name: &str| spec.probed(index, name);
                self.keyed::<false, false, false>(id, map, spec, find)
            }
            (FastLoop::Indexed, NameLookup::Hashed(names)) => {
                let find = |name: &str| spec.hashed(names, name);
                self.keyed::<false, false, false>(id, map, spec, find)
            }
            // `General`, and a loop that does not fit the lookup (never built so).
            _ => {
                let find = |name: &str| spec.find(name);
                self.keyed::<true, true, false>(id, map, spec, find)
            }
        }
    }

    /// The loop of [`Vm::fast_properties`], finding each key's entry by `find`; `OPEN`
    /// for an [open](Properties::open) table, whose unnamed keys pass.
    #[inline(always)]
    fn keyed<'s, const PATTERNS: bool, const COSTLY: bool, const OPEN: bool>(
        &mut self,
        id: NodeId,
        map: &serde_json::Map<String, Value>,
        spec: &'s Properties,
        find: impl Fn(&str) -> Option<(usize, &'s Entry)>,
    ) -> bool {
        // Unused when `additional_settle` is `Pass` (no `additionalProperties`).
        let additional = spec.additional.unwrap_or(id);
        let mut required_met = 0;
        let mut deferred = Deferred::new((NodeId::default(), &NULL));
        for (key, value) in map {
            let position = find(key);
            let mut matched = position.is_some();
            if PATTERNS {
                for &(regex, node) in &spec.patterns {
                    let Some(hit) = self.key_matches(id, regex, key) else {
                        return false;
                    };
                    if hit {
                        matched = true;
                        if !self.descend(node, value, Step::Key(key)) {
                            return false;
                        }
                    }
                }
            }
            let Some((_, entry)) = position else {
                if !OPEN
                    && !matched
                    && !self.additional(id, additional, spec.additional_settle, key, value)
                {
                    return false;
                }
                continue;
            };
            required_met += u32::from(entry.required);
            // A lone `type`, the commonest entry, is settled here without the settle's
            // dispatch (as `settle` would: no step, never held back). Measured: geomean
            // -1.6%, up to -7%; the same in `named_entry` took -0.3%.
            if let Settle::Type(set) = entry.settle {
                if !set.matches(value) {
                    return false;
                }
                continue;
            }
            if !self.named_entry::<COSTLY>(entry, key, value, &mut deferred) {
                return false;
            }
        }
        if required_met < spec.required_count {
            return false;
        }
        if !COSTLY {
            return true;
        }
        // The fast mode writes no instance locations: the step is not read, and the
        // list keeps no keys.
        (deferred.sorted())
            .iter()
            .all(|&(_, (node, value))| self.descend(node, value, Step::Index(0)))
    }

    /// The fast loops' step for a key `key` (its `value`) that names `entry`: holds a
    /// costly schema back (with `COSTLY`) or settles the value at once; `false` when
    /// that failed.
    #[inline(always)]
    fn named_entry<'v, const COSTLY: bool>(
        &mut self,
        entry: &Entry,
        key: &str,
        value: &'v Value,
        deferred: &mut Deferred<(NodeId, &'v Value)>,
    ) -> bool {
        let Entry {
            node, cost, settle, ..
        } = *entry;
        (COSTLY && cost >= Program::COSTLY && deferred.push(cost, (node, value)))
            || self.settle(node, settle, value, Step::Key(key))
    }

    /// [`Vm::properties`] in the fast mode for an object against a table with an
    /// [exact](Properties::exact) order ([`Settle::Exact`]): a passing object has
    /// exactly the table's names as keys, so it has as many keys, and its keys, which
    /// come in byte order, are the names in that order: one compare per key instead of
    /// a lookup. The same checks and steps as the loop over the keys.
    #[inline(never)]
    pub(super) fn exact_record(
        &mut self,
        id: NodeId,
        instance: &Value,
        table: Id<Properties>,
    ) -> bool {
        let spec = &self.program.properties[table];
        let (Value::Object(map), Some(order)) = (instance, &spec.exact) else {
            return self.properties(id, instance, table);
        };
        if !self.spend(id, spec.steps(map.len())) {
            return false;
        }
        if map.len() != order.len() {
            return false;
        }
        if let Some(typed) = &spec.typed {
            // A record of plain fields: the settle of each is a bit test, decided here.
            return (map.iter().zip(typed.iter())).all(|((key, value), &(spelling, set))| {
                Spelling::of(key) == spelling && set.matches(value)
            });
        }
        for ((key, value), &i) in map.iter().zip(order) {
            let i = i as usize;
            // By the entry's spelling, beside its other fields, when that decides: the
            // name's bytes are a pointer away.
            let Some(entry) = spec.named_at(i, key, || Spelling::of(key)) else {
                return false;
            };
            if !self.settle(entry.node, entry.settle, value, Step::Key(key)) {
                return false;
            }
        }
        true
    }

    /// [`Vm::properties`] for a bare `properties` table (no `type` beside it: the `if`
    /// of a discriminator, say), looking the table's names up in the object when it
    /// has many more keys than the table has names ([`Vm::looked_up_properties`]).
    #[inline(always)]
    pub(super) fn bare_properties(
        &mut self,
        id: NodeId,
        instance: &Value,
        table: Id<Properties>,
    ) -> bool {
        let spec = &self.program.properties[table];
        match instance {
            Value::Object(map) if self.names_looked_up(spec, map.len()) => {
                // The loop over the keys' charge, though fewer lookups run.
                if !self.spend(id, spec.steps(map.len())) {
                    return false;
                }
                match (spec.named.len(), spec.costly) {
                    (1, _) => self.one_property(map, spec),
                    (_, false) => self.looked_up_properties::<false>(map, spec),
                    (_, true) => self.looked_up_properties::<true>(map, spec),
                }
            }
            _ => self.properties(id, instance, table),
        }
    }

    /// Whether [`Vm::bare_properties`] looks the names of `spec` up in an object of
    /// `keys` keys rather than walking its keys (the fast mode, an open table, many more
    /// keys than names); [`Vm::link_test`] reuses a lookup exactly where it does.
    #[inline(always)]
    fn names_looked_up(&self, spec: &Properties, keys: usize) -> bool {
        !EXPLAIN && !self.tracking && spec.open && keys >= LOOK_UP_FROM * spec.named.len()
    }

    /// [`Vm::looked_up_properties`] for a table of one name (the `if` of a
    /// discriminator: `{"properties": {"type": {"const": ...}}}`): one lookup and the
    /// value's check, without the loop's set-up. Nothing is held back: with one entry
    /// there is nothing to run first.
    #[inline(never)]
    fn one_property(&mut self, map: &serde_json::Map<String, Value>, spec: &Properties) -> bool {
        let (Some((name, _)), Some(entry)) = (spec.named.first(), spec.entries.first()) else {
            // Not a table of one name after all: the general lookup, never a guess.
            return self.looked_up_properties::<true>(map, spec);
        };
        let value = crate::json::object::get(map, name);
        self.one_value(spec, entry, name, value)
    }

    /// [`Vm::one_property`] once the name is looked up: its `value`'s check, or for a
    /// missing one whether the table requires none.
    #[inline(always)]
    fn one_value(
        &mut self,
        spec: &Properties,
        entry: &Entry,
        name: &str,
        value: Option<&Value>,
    ) -> bool {
        match value {
            Some(value) => self.settle(entry.node, entry.settle, value, Step::Key(name)),
            None => spec.required_count == 0,
        }
    }

    /// The verdict of the `if` `test` of a link of an `else if` chain on the object
    /// `map` (the `instance`), in the fast mode: a test of one property's value (the
    /// chains of real schemas test one tag link after link, `type` or `specVersion`)
    /// reuses the lookup of the link before when it names the same property (`looked`:
    /// the name and what it found), with the steps, level and check of
    /// [`Vm::bare_properties`]; any other test as [`Vm::verdict`] runs it.
    #[inline(always)]
    pub(super) fn link_test<'v>(
        &mut self,
        test: NodeId,
        instance: &'v Value,
        map: &'v serde_json::Map<String, Value>,
        looked: &mut Option<(&'p str, Option<&'v Value>)>,
    ) -> bool {
        let program = self.program;
        let Node::Properties(table) = program.nodes[test.index()] else {
            return self.verdict(test, instance);
        };
        let spec = &program.properties[table];
        let (Some((name, _)), Some(entry), 1) =
            (spec.named.first(), spec.entries.first(), spec.named.len())
        else {
            return self.verdict(test, instance);
        };
        if !self.names_looked_up(spec, map.len()) || self.steps == 0 {
            return self.verdict(test, instance);
        }
        let value = match *looked {
            Some((last, value)) if same_bytes(last.as_bytes(), name.as_bytes()) => value,
            _ => {
                let value = crate::json::object::get(map, name);
                *looked = Some((name, value));
                value
            }
        };
        self.steps -= 1;
        self.nested(test, |vm| {
            vm.spend(test, spec.steps(map.len())) && vm.one_value(spec, entry, name, value)
        })
    }

    /// [`Vm::fast_properties`] for an [open](Properties::open) table (any property it
    /// does not name passes),
    /// on an object with many more keys than the table has names: each name is looked up
    /// in the object, rather than each key in the table (an `if` that reads one property
    /// of a large object). The same checks as the loop over the keys.
    #[inline(never)]
    fn looked_up_properties<const COSTLY: bool>(
        &mut self,
        map: &serde_json::Map<String, Value>,
        spec: &Properties,
    ) -> bool {
        if map.len() < spec.required_count as usize {
            return false;
        }
        let mut required_met = 0;
        let mut deferred = Deferred::new((NodeId::default(), &NULL));
        for ((name, _), entry) in spec.named.iter().zip(&spec.entries) {
            let Some(value) = crate::json::object::get(map, name) else {
                continue;
            };
            required_met += u32::from(entry.required);
            if !self.named_entry::<COSTLY>(entry, name, value, &mut deferred) {
                return false;
            }
        }
        required_met >= spec.required_count
            && (deferred.sorted())
                .iter()
                .all(|&(_, (node, value))| self.descend(node, value, Step::Index(0)))
    }

    /// [`Vm::fast_properties`] for a table without named properties: every value goes to
    /// `additionalProperties`, settled the one way the compiler decided, in one loop.
    #[inline(always)]
    fn only_additional(
        &mut self,
        id: NodeId,
        map: &serde_json::Map<String, Value>,
        spec: &Properties,
    ) -> bool {
        let Some(node) = spec.additional else {
            return true;
        };
        match spec.additional_settle {
            Settle::Pass => true,
            Settle::Fail => map.is_empty(),
            Settle::Type(set) => set.matches_all_values(map),
            settle @ (Settle::Record(_)
            | Settle::Exact(_)
            | Settle::List(_)
            | Settle::ByKind(_)
            | Settle::Eval) => {
                // Plain loops, here and below: as `Iterator::all`, LLVM kept the B-tree
                // walk out of line inside this large function, a call per key.
                for (key, value) in map {
                    if !self.nest(node, settle, value, Step::Key(key)) {
                        return false;
                    }
                }
                true
            }
            settle @ (Settle::Strings(_)
            | Settle::Text { .. }
            | Settle::Pattern(_)
            | Settle::Range(_)
            | Settle::Checks(_)
            | Settle::ChecksOrNull { .. }
            | Settle::RangeOrNull { .. }
            | Settle::Leaf) => self.leaf_values(id, node, settle, map),
        }
    }

    /// [`Vm::only_additional`] for a leaf `additionalProperties` (`node`, settled as
    /// `settle`): every value's verdict and its work paid, in a small loop of its own.
    #[inline(never)]
    fn leaf_values(
        &mut self,
        id: NodeId,
        node: NodeId,
        settle: Settle,
        map: &serde_json::Map<String, Value>,
    ) -> bool {
        for value in map.values() {
            let (ok, work) = leaf::settled(self.program, settle, node, value).unwrap_or((false, 0));
            if !self.paid(id, ok, work) {
                return false;
            }
        }
        true
    }

    /// The verdict of a folded `required` that some name failed: `false`, with the
    /// `Required` node's own error when explaining.
    #[cold]
    fn missing_required(&mut self, spec: &Properties, instance: &Value) -> bool {
        if let (true, Some(node)) = (EXPLAIN, spec.required_node) {
            return self.eval(node, instance);
        }
        false
    }

    /// Evaluates a property no other keyword covered against `additionalProperties` or
    /// `unevaluatedProperties` (`node`, settled as `settle`); `false` there reads as
    /// "property not allowed".
    #[inline(always)]
    pub(super) fn additional(
        &mut self,
        id: NodeId,
        node: NodeId,
        settle: Settle,
        key: &str,
        value: &Value,
    ) -> bool {
        if settle == Settle::Fail {
            return self.not_allowed(id, key);
        }
        self.settle(node, settle, value, Step::Key(key))
    }

    /// Records that property `key` is not allowed (by `node` `false`).
    #[cold]
    fn not_allowed(&mut self, id: NodeId, key: &str) -> bool {
        if !EXPLAIN {
            return false;
        }
        let before = self.located();
        let program = self.program;
        let table = match program.nodes[id.index()] {
            Node::Properties(table) | Node::Object { table, .. } => Some(table),
            // Every kind named, so that a new one is a build error here; the lists name
            // the two above again.
            #[allow(unreachable_patterns)]
            Node::Valid | Node::Type(_) | other_leaves!() | applicators!() => None,
        };
        let spec = table.map(|table| &program.properties[table]);
        let names = spec.map_or(&[][..], |spec| &spec.named[..]);
        // A suggestion compares the key with every name, in time about the key's length
        // each: the explanations' budget pays, or 50,000 unknown keys beside 10,000
        // properties took minutes.
        let (names, sets, key_chars) = match (spec, short_key_chars(key)) {
            (Some(spec), Some(key_chars)) if self.afford(names.len() * key_chars) => {
                let sets = (spec.name_bytes)
                    .get_or_init(|| names.iter().map(|(name, _)| byte_set(name)).collect());
                (names, &sets[..], key_chars)
            }
            _ => (&[][..], &[][..], 0),
        };
        let ok = self.fail(id, Kind::Unexpected, |out| {
            out.push_str("property ");
            out.key(key);
            out.push_str("is not allowed");
            let name_at = |i: usize| names.get(i).map_or("", |(name, _)| &**name);
            if let Some(name) = suggestion(key, key_chars, sets, name_at) {
                out.push_str("; did you mean ");
                out.name(name);
                out.push('?');
            }
        });
        if let Some(error) = self.log.explained().and_then(|e| e.errors.last_mut()) {
            // Its details are read from the instance location, which `locate` below
            // ends with the key.
            error.set_unexpected_property();
        }
        self.locate(before, Step::Key(key));
        ok
    }

    /// How many errors there are before a `null` property value is evaluated (for
    /// [`Vm::null_for_optional`]); not counted for other values.
    #[inline(always)]
    fn errors_before_null(&self, value: &Value) -> usize {
        if EXPLAIN && value.is_null() {
            self.error_count()
        } else {
            0
        }
    }

    /// Adds a hint to the type errors the `null` of property `key` just caused (those
    /// recorded since `before`, at the property itself) when the property is optional:
    /// sending `null` is a model's common way of leaving a value out.
    #[cold]
    fn null_for_optional(&mut self, before: usize, spec: &Properties, key: &str) {
        let required = spec.find(key).is_some_and(|(_, entry)| entry.required);
        if !EXPLAIN || required || !spec.required_known {
            return;
        }
        let Some(explained) = self.log.explained() else {
            return;
        };
        let location = crate::json::pointer::join("", key);
        for error in explained.errors.get_mut(before..).unwrap_or_default() {
            if error.kind() == Kind::Type && error.instance_location() == location {
                error.push_hint("omit the property instead of sending null");
            }
        }
    }

    #[inline(never)]
    pub(super) fn unevaluated(
        &mut self,
        id: NodeId,
        instance: &Value,
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
        if let (Some(node), Value::Object(map), true) =
            (spec.properties, instance, ok || self.keep_going())
        {
            let settle = Settle::of(program, node);
            for (key, value) in map {
                if !evaluated.property(key.as_ptr() as usize) {
                    if self.annotating() {
                        names.push(Value::from(key.as_str()));
                    }
                    ok &= self.additional(id, node, settle, key, value);
                    if !ok && !self.keep_going() {
                        break;
                    }
                }
            }
        }
        if let (Some(node), Value::Array(items), true) =
            (spec.items, instance, ok || self.keep_going())
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
    pub(super) fn property_names(&mut self, instance: &Value, node: NodeId) -> bool {
        let Value::Object(map) = instance else {
            return true;
        };
        let mut ok = true;
        let program = self.program;
        let leaf = program.nodes[node.index()];
        for key in map.keys() {
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
            let name = Value::String(key.clone());
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

/// How many times as many keys as the table has names an object must have for a
/// properties loop to look the names up in the object rather than each key in the
/// table ([`Vm::looked_up_properties`]).
const LOOK_UP_FROM: usize = 2;

/// How many costly properties a properties loop holds back until the cheap ones have
/// passed; more run at once (so that no loop allocates).
const DEFERRED: usize = 4;

/// The costly properties held back by a properties loop: each with its cost and what
/// running it needs (`T`: the schema and value, and the key where it is read).
struct Deferred<T> {
    len: usize,
    entries: [(u32, T); DEFERRED],
}

impl<T: Copy> Deferred<T> {
    /// An empty list; `fill` only initialises the slots (the fast loop's entries are two
    /// words, so that setting up the list on every object costs a few stores).
    #[inline(always)]
    fn new(fill: T) -> Self {
        Deferred {
            len: 0,
            entries: [(0, fill); DEFERRED],
        }
    }

    /// Holds back a property; `false` when full (the caller then runs it at once).
    #[inline(always)]
    fn push(&mut self, cost: u32, entry: T) -> bool {
        let Some(slot) = self.entries.get_mut(self.len) else {
            return false;
        };
        *slot = (cost, entry);
        self.len += 1;
        true
    }

    /// The held-back properties, cheapest first.
    #[inline(always)]
    fn sorted(&mut self) -> &[(u32, T)] {
        let entries = &mut self.entries[..self.len];
        match entries {
            [] | [_] => {}
            // The common case of a few: no call into the sort.
            [a, b] => {
                if b.0 < a.0 {
                    std::mem::swap(a, b);
                }
            }
            _ => entries.sort_unstable_by_key(|&(cost, _)| cost),
        }
        entries
    }
}

/// A value to fill [`Deferred`] slots with.
static NULL: Value = Value::Null;

/// The bytes of `name` as a set, which [`suggestion`] rules names out by: bit `b % 64`
/// for each byte `b`; 0 (which rules nothing out) when a byte is not ASCII.
fn byte_set(name: &str) -> u64 {
    let mut set = 0;
    for b in name.bytes() {
        if !b.is_ascii() {
            return 0;
        }
        set |= 1 << (b & 63);
    }
    set
}

/// Whether `set` has more than `most` bits set: `count_ones` without the `popcnt`
/// target feature (not in a default build) is a dozen instructions, and `most` is
/// mostly 1 or 2.
#[inline(always)]
fn more_bits(set: u64, most: usize) -> bool {
    if most == 0 {
        return set != 0;
    }
    // Each step clears the lowest bit set; the first is taken out of the loop, which
    // most keys (shorter than 6 characters) need no more of.
    let mut rest = set & set.wrapping_sub(1);
    for _ in 1..most {
        rest &= rest.wrapping_sub(1);
    }
    rest != 0
}

/// The name among some names that `key` most likely misspells: the nearest by edit
/// distance, if at most a third of the key's length (and at least one) apart. The key
/// has `key_chars` characters (at most [`LONGEST`], from [`short_key_chars`]); the names
/// are `name(i)` for each `i` of `sets`, which holds their [`byte_set`]s.
fn suggestion<'n>(
    key: &str,
    key_chars: usize,
    sets: &[u64],
    name: impl Fn(usize) -> &'n str,
) -> Option<&'n str> {
    if sets.is_empty() {
        return None;
    }
    // A character outside ASCII takes two bytes or more.
    let ascii_key = key_chars == key.len();
    let most = (key_chars / 3).max(1);
    let mut best: Option<(usize, &str)> = None;
    // The bytes of the key, as bits (bytes share bits modulo 64, which only weakens the
    // bound below); read only for an ASCII key.
    let key_bytes = byte_set(key);
    // Lower bounds on the distance, which rule out most names before it is computed:
    // against an ASCII key, one edit per ASCII byte of the name that the key lacks,
    // counted once per distinct byte (modulo 64) from the sets, without a look at the
    // name; then the difference in length (a name has no more characters than bytes);
    // then, for the few names left, once per occurrence, in one pass over the name that
    // leaves at the first byte over `most` (and at a byte of another character: the
    // distance then counts those).
    let absent = !key_bytes;
    'names: for (i, &bytes) in sets.iter().enumerate() {
        if ascii_key && more_bits(bytes & absent, most) {
            continue;
        }
        let name = name(i);
        if name.len() + most < key_chars {
            continue;
        }
        let mut ascii_name = ascii_key;
        if ascii_key {
            let mut absent = 0;
            for b in name.bytes() {
                if !b.is_ascii() {
                    ascii_name = false;
                    break;
                }
                if key_bytes & (1 << (b & 63)) == 0 {
                    absent += 1;
                    if absent > most {
                        continue 'names;
                    }
                }
            }
        }
        let distance = if ascii_name {
            if name.len() > key.len() + most {
                continue;
            }
            edit_distance(key.as_bytes(), name.as_bytes(), most)
        } else {
            let a: Vec<char> = key.chars().collect();
            let b: Vec<char> = name.chars().take(LONGEST + most + 1).collect();
            edit_distance(&a, &b, most)
        };
        if let Some(distance) = distance.filter(|&d| d > 0) {
            if best.is_none_or(|(least, _)| distance < least) {
                best = Some((distance, name));
            }
        }
    }
    best.map(|(_, name)| name)
}

/// Keys longer than this (in characters) get no suggestion: the distance is quadratic.
const LONGEST: usize = 64;

/// How many characters `key` has, if at most [`LONGEST`]: counted only for keys short
/// enough to have so few (a character is at most four bytes), and without decoding
/// an ASCII key (counting a short key's characters was a tenth of what a suggestion
/// that found no name cost).
fn short_key_chars(key: &str) -> Option<usize> {
    if key.len() > 4 * LONGEST {
        return None;
    }
    let chars = match key.is_ascii() {
        true => key.len(),
        false => key.chars().count(),
    };
    (chars <= LONGEST).then_some(chars)
}

/// The Levenshtein distance between `a` (at most [`LONGEST`] long) and `b`, if at most
/// `most` (at most a third of [`LONGEST`]), on one row kept on the stack.
fn edit_distance<T: PartialEq>(a: &[T], b: &[T], most: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > most || a.len() > LONGEST {
        return None;
    }
    // Distances stay below `2 * LONGEST`, so a byte holds each.
    let mut row = [0u8; 2 * LONGEST];
    let row = &mut row[..=b.len()];
    for (j, cell) in (0u8..).zip(row.iter_mut()) {
        *cell = j;
    }
    for (i, ca) in (1u8..).zip(a) {
        let mut diagonal = row[0];
        row[0] = i;
        let mut least = i;
        for (j, cb) in b.iter().enumerate() {
            let substitution = diagonal + u8::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(diagonal + 1);
            least = least.min(row[j + 1]);
        }
        // No entry of a later row drops below this row's least.
        if usize::from(least) > most {
            return None;
        }
    }
    let distance = usize::from(row[b.len()]);
    (distance <= most).then_some(distance)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// [`suggestion`] for `key` as `not_allowed` asks for it: none for a key too long.
    fn suggested<'n>(key: &str, sets: &[u64], name: impl Fn(usize) -> &'n str) -> Option<&'n str> {
        suggestion(key, short_key_chars(key)?, sets, name)
    }

    /// The textbook recursion-free Levenshtein distance, on a full table.
    fn levenshtein(a: &[char], b: &[char]) -> usize {
        let mut table = vec![vec![0; b.len() + 1]; a.len() + 1];
        for (i, row) in table.iter_mut().enumerate() {
            row[0] = i;
        }
        for (j, cell) in table[0].iter_mut().enumerate() {
            *cell = j;
        }
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                let substitution = table[i - 1][j - 1] + usize::from(a[i - 1] != b[j - 1]);
                table[i][j] = substitution
                    .min(table[i - 1][j] + 1)
                    .min(table[i][j - 1] + 1);
            }
        }
        table[a.len()][b.len()]
    }

    proptest! {
        #[test]
        fn edit_distance_is_levenshtein_up_to_the_bound(
            a in "[abc]{0,10}",
            b in "[abcé]{0,12}",
            most in 1usize..4,
        ) {
            let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
            let exact = levenshtein(&a, &b);
            prop_assert_eq!(edit_distance(&a, &b, most), (exact <= most).then_some(exact));
        }
    }

    proptest! {
        /// The bounds that rule names out early change no suggestion: it is the first
        /// name at the least distance, if above 0 and at most a third of the key.
        #[test]
        fn suggestions_are_what_levenshtein_says(
            key in "[abcd_]{0,9}|[abé]{0,6}",
            names in prop::collection::vec("[abcd_]{0,11}|[abé]{0,7}", 0..8),
        ) {
            let key_chars: Vec<char> = key.chars().collect();
            let most = (key_chars.len() / 3).max(1);
            let mut expected: Option<(usize, &str)> = None;
            for name in &names {
                let d = levenshtein(&key_chars, &name.chars().collect::<Vec<_>>());
                if d > 0 && d <= most && expected.is_none_or(|(least, _)| d < least) {
                    expected = Some((d, name));
                }
            }
            let sets: Vec<u64> = names.iter().map(|name| byte_set(name)).collect();
            let got = suggested(&key, &sets, |i| &names[i]);
            prop_assert_eq!(got, expected.map(|(_, name)| name));
        }
    }

    proptest! {
        /// The byte sets only rule out names too far to be suggested: with sets that
        /// rule nothing out (all 0), every suggestion is the same.
        #[test]
        fn the_byte_sets_change_no_suggestion(
            key in "[a-f~]{1,9}",
            names in prop::collection::vec("[a-f~]{0,11}", 0..12),
        ) {
            let sets: Vec<u64> = names.iter().map(|name| byte_set(name)).collect();
            let none = vec![0; names.len()];
            prop_assert_eq!(
                suggested(&key, &sets, |i| &names[i]),
                suggested(&key, &none, |i| &names[i])
            );
        }

        #[test]
        fn more_bits_is_a_count_of_ones(set in any::<u64>(), most in 0usize..70) {
            prop_assert_eq!(more_bits(set, most), set.count_ones() as usize > most);
        }
    }

    #[test]
    fn suggestions_are_the_nearest_name_within_a_third_of_the_key() {
        let names = ["city", "country", "units", "days"];
        let sets = names.map(byte_set);
        let suggest = |key: &str| suggested(key, &sets, |i| names[i]);
        assert_eq!(suggest("cty"), Some("city"));
        assert_eq!(suggest("Units"), Some("units"));
        assert_eq!(suggest("countyr"), Some("country"));
        assert_eq!(suggest("city"), None, "an exact name is no misspelling");
        assert_eq!(suggest("verbose"), None);
        assert_eq!(suggest("dayz"), Some("days"));
        assert_eq!(suggest(&"x".repeat(100)), None);
    }
}
