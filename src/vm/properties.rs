//! The `properties` / `patternProperties` / `additionalProperties` loops: the general
//! one (marks, errors, every key), the fast mode's loops chosen per table at compile
//! time (a table of fields, an exact record, one looked up name by name, one that names
//! no property), `additionalProperties`' own verdict and message (with a suggestion of
//! the nearest name), and a `dependentSchemas` / `if` link's test of a property.

use super::leaf;
use super::marks::Mark;
use super::suggest::{byte_set, short_key_chars, suggestion};
use super::{Journal, Logged, Mode, Step, Vm};
use crate::error::ValidationErrorKind as Kind;
use crate::ids::{Id, NodeId};
use crate::json::view::{Json, ObjectView, View};
use crate::names::{same_bytes, Spelling};
use crate::program::RegexId;
use crate::program::{
    applicators, other_leaves, Entry, FastLoop, NameLookup, Node, Program, Properties, Settle,
};
use serde_json::Value;

impl<'p, const EXPLAIN: bool> Vm<'p, EXPLAIN>
where
    Mode<EXPLAIN>: Logged,
{
    #[inline(never)]
    pub(super) fn properties<'i, V: View<'i>>(
        &mut self,
        id: NodeId,
        instance: V,
        table: Id<Properties>,
    ) -> bool {
        let Some(map) = instance.as_object() else {
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
            return self.fast_properties(id, instance, map, spec);
        }
        if !self.spend(id, spec.steps(map.len())) {
            return false;
        }
        self.all_properties(id, instance, map, spec)
    }

    /// [`Vm::properties`] in general: either mode, evaluation marks, `patternProperties`.
    /// Out of line, so that the fast loops above keep a small frame.
    #[inline(never)]
    fn all_properties<'i, V: View<'i>>(
        &mut self,
        id: NodeId,
        instance: V,
        map: V::Object,
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
        let mut deferred = Deferred::new((NodeId::default(), "", instance));
        for (key, value) in map.iter() {
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
                if cost < Program::COSTLY || !deferred.push(cost, (node, key, value)) {
                    self.mark(Mark::Property(key.as_ptr() as usize));
                    let before = self.errors_before_null(value);
                    if !self.settle(node, settle, value, Step::Key(key)) {
                        ok = false;
                        if matches!(value.json(), Json::Null) {
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
                if matches!(value.json(), Json::Null) {
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
            self.properties_annotations::<V>(id, map, spec);
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
    fn properties_annotations<'i, V: View<'i>>(
        &mut self,
        id: NodeId,
        map: V::Object,
        spec: &Properties,
    ) {
        let program = self.program;
        let (mut named, mut patterned, mut additional) = (Vec::new(), Vec::new(), Vec::new());
        for (key, _) in map.iter() {
            let by_name = spec.position(key).is_some();
            let by_pattern =
                (spec.patterns.iter()).any(|&(regex, _)| program.regexes[regex].is_match(key));
            if by_name {
                named.push(Value::from(key));
            }
            if by_pattern {
                patterned.push(Value::from(key));
            }
            if !by_name && !by_pattern && spec.additional.is_some() {
                additional.push(Value::from(key));
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
    fn fast_properties<'i, V: View<'i>>(
        &mut self,
        id: NodeId,
        instance: V,
        map: V::Object,
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
            (FastLoop::Additional, _) => self.only_additional::<V>(id, map, spec),
            (FastLoop::Costly, _) => {
                let find = |name: &str| spec.find(name);
                self.keyed::<_, false, true, false>(id, instance, map, spec, find)
            }
            (FastLoop::OpenScan, NameLookup::Scan(probes)) => {
                // One name in an object of two keys or more: the name looked up, as a
                // bare `properties` reached through `eval` is. The walk over the keys
                // ends at a branch that depends on each object's size, missed on most
                // objects (yamllint, one such table: 1.2-1.3x jsonschema's wall time
                // walked, 1.0x looked up, though 3% more instructions).
                if spec.named.len() == 1 && keys >= LOOK_UP_FROM {
                    return self.one_property(instance, map, spec);
                }
                let find = |name: &str| spec.scanned(probes, name);
                self.keyed::<_, false, false, true>(id, instance, map, spec, find)
            }
            (FastLoop::Scan, NameLookup::Scan(probes)) => {
                let find = |name: &str| spec.scanned(probes, name);
                self.keyed::<_, false, false, false>(id, instance, map, spec, find)
            }
            (FastLoop::OpenQuick, NameLookup::Quick(index)) => {
                let find = |name: &str| spec.quick(index, name);
                self.keyed::<_, false, false, true>(id, instance, map, spec, find)
            }
            (FastLoop::Quick, NameLookup::Quick(index)) => {
                let find = |name: &str| spec.quick(index, name);
                self.keyed::<_, false, false, false>(id, instance, map, spec, find)
            }
            (FastLoop::Indexed, NameLookup::Probed(index)) => {
                let find = |name: &str| spec.probed(index, name);
                self.keyed::<_, false, false, false>(id, instance, map, spec, find)
            }
            (FastLoop::Indexed, NameLookup::Hashed(names)) => {
                let find = |name: &str| spec.hashed(names, name);
                self.keyed::<_, false, false, false>(id, instance, map, spec, find)
            }
            // `General`, and a loop that does not fit the lookup (never built so).
            _ => {
                let find = |name: &str| spec.find(name);
                self.keyed::<_, true, true, false>(id, instance, map, spec, find)
            }
        }
    }

    /// The loop of [`Vm::fast_properties`], finding each key's entry by `find`; `OPEN`
    /// for an [open](Properties::open) table, whose unnamed keys pass.
    #[inline(always)]
    fn keyed<'s, 'i, V: View<'i>, const PATTERNS: bool, const COSTLY: bool, const OPEN: bool>(
        &mut self,
        id: NodeId,
        instance: V,
        map: V::Object,
        spec: &'s Properties,
        find: impl Fn(&str) -> Option<(usize, &'s Entry)>,
    ) -> bool {
        // Unused when `additional_settle` is `Pass` (no `additionalProperties`).
        let additional = spec.additional.unwrap_or(id);
        let mut required_met = 0;
        let mut deferred = Deferred::new((NodeId::default(), instance));
        for (key, value) in map.iter() {
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
            if !self.named_entry::<_, COSTLY>(entry, key, value, &mut deferred) {
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
    fn named_entry<'i, V: View<'i>, const COSTLY: bool>(
        &mut self,
        entry: &Entry,
        key: &str,
        value: V,
        deferred: &mut Deferred<(NodeId, V)>,
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
    pub(super) fn exact_record<'i, V: View<'i>>(
        &mut self,
        id: NodeId,
        instance: V,
        table: Id<Properties>,
    ) -> bool {
        let spec = &self.program.properties[table];
        let (Json::Object(map), Some(order)) = (instance.json(), &spec.exact) else {
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
    pub(super) fn bare_properties<'i, V: View<'i>>(
        &mut self,
        id: NodeId,
        instance: V,
        table: Id<Properties>,
    ) -> bool {
        let spec = &self.program.properties[table];
        match instance.json() {
            // Each name looked up in the object: only where a lookup is cheaper than a
            // walk of the keys.
            Json::Object(map) if V::Object::INDEXED && self.names_looked_up(spec, map.len()) => {
                // The loop over the keys' charge, though fewer lookups run.
                if !self.spend(id, spec.steps(map.len())) {
                    return false;
                }
                match (spec.named.len(), spec.costly) {
                    (1, _) => self.one_property(instance, map, spec),
                    (_, false) => self.looked_up_properties::<_, false>(instance, map, spec),
                    (_, true) => self.looked_up_properties::<_, true>(instance, map, spec),
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
    fn one_property<'i, V: View<'i>>(
        &mut self,
        instance: V,
        map: V::Object,
        spec: &Properties,
    ) -> bool {
        let (Some((name, _)), Some(entry)) = (spec.named.first(), spec.entries.first()) else {
            // Not a table of one name after all: the general lookup, never a guess.
            return self.looked_up_properties::<_, true>(instance, map, spec);
        };
        let value = map.get(name);
        self.one_value(spec, entry, name, value)
    }

    /// [`Vm::one_property`] once the name is looked up: its `value`'s check, or for a
    /// missing one whether the table requires none.
    #[inline(always)]
    fn one_value<'i, V: View<'i>>(
        &mut self,
        spec: &Properties,
        entry: &Entry,
        name: &str,
        value: Option<V>,
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
    pub(super) fn link_test<'i, V: View<'i>>(
        &mut self,
        test: NodeId,
        instance: V,
        map: V::Object,
        looked: &mut Option<(&'p str, Option<V>)>,
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
                let value = map.get(name);
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
    fn looked_up_properties<'i, V: View<'i>, const COSTLY: bool>(
        &mut self,
        instance: V,
        map: V::Object,
        spec: &Properties,
    ) -> bool {
        if map.len() < spec.required_count as usize {
            return false;
        }
        let mut required_met = 0;
        let mut deferred = Deferred::new((NodeId::default(), instance));
        for ((name, _), entry) in spec.named.iter().zip(&spec.entries) {
            let Some(value) = map.get(name) else {
                continue;
            };
            required_met += u32::from(entry.required);
            if !self.named_entry::<_, COSTLY>(entry, name, value, &mut deferred) {
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
    fn only_additional<'i, V: View<'i>>(
        &mut self,
        id: NodeId,
        map: V::Object,
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
                for (key, value) in map.iter() {
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
            | Settle::Leaf) => self.leaf_values::<V>(id, node, settle, map),
        }
    }

    /// [`Vm::only_additional`] for a leaf `additionalProperties` (`node`, settled as
    /// `settle`): every value's verdict and its work paid, in a small loop of its own.
    #[inline(never)]
    fn leaf_values<'i, V: View<'i>>(
        &mut self,
        id: NodeId,
        node: NodeId,
        settle: Settle,
        map: V::Object,
    ) -> bool {
        for (_, value) in map.iter() {
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
    fn missing_required<'i, V: View<'i>>(&mut self, spec: &Properties, instance: V) -> bool {
        if let (true, Some(node)) = (EXPLAIN, spec.required_node) {
            return self.eval(node, instance);
        }
        false
    }

    /// Evaluates a property no other keyword covered against `additionalProperties` or
    /// `unevaluatedProperties` (`node`, settled as `settle`); `false` there reads as
    /// "property not allowed".
    #[inline(always)]
    pub(super) fn additional<'i, V: View<'i>>(
        &mut self,
        id: NodeId,
        node: NodeId,
        settle: Settle,
        key: &str,
        value: V,
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
    fn errors_before_null<'i, V: View<'i>>(&self, value: V) -> usize {
        if EXPLAIN && matches!(value.json(), Json::Null) {
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
    /// An empty list; `fill` (any entry: the instance, say) only initialises the slots (the fast loop's entries are two
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
