//! The interpreter: runs a [`Program`] against a `serde_json::Value`.
//!
//! One function, [`Vm::eval`], matches on every [`Node`]. It is generic over
//! `EXPLAIN`: the fast mode (`false`) allocates nothing for ordinary schemas and stops at
//! the first failure; the explaining mode (`true`) keeps going to collect every
//! [`ValidationError`] with its instance location. Both modes share every check, so they
//! cannot disagree on a verdict.
//!
//! Termination and stack safety: every evaluation spends one step of a budget and one
//! level of a depth bound. Running out of either stops the run with an error of its own
//! kind, and the verdict is then "invalid" whatever the nodes said (fail closed), since a
//! `not` over a stopped branch must not turn into a pass.

mod leaf;
mod marks;

use crate::error::{ValidationError, ValidationErrorKind as Kind};
use crate::ids::{NodeId, ScopeId};
use crate::json::pointer;
use crate::program::{Node, Program};
use crate::stack::StackGuard;
use marks::Mark;
use serde_json::Value;
use std::fmt::Write;

/// Bounds on one validation run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// Deepest nesting of node evaluations.
    pub(crate) max_depth: u32,
    /// Node evaluations allowed.
    pub(crate) max_steps: u64,
}

/// Whether `instance` conforms to `program`.
pub(crate) fn is_valid(program: &Program, instance: &Value, limits: Limits) -> bool {
    let mut vm = Vm::<false>::new(program, limits);
    let ok = vm.eval(program.root, instance);
    ok && vm.stopped.is_none()
}

/// The errors of an instance that [`is_valid`] rejected: never empty, so the two paths
/// can never disagree on the verdict.
pub(crate) fn errors(program: &Program, instance: &Value, limits: Limits) -> Vec<ValidationError> {
    let mut vm = Vm::<true>::new(program, limits);
    vm.eval(program.root, instance);
    let mut errors = std::mem::take(&mut vm.errors);
    if let Some(stop) = vm.stop_error.take() {
        // Reported whatever the branches made of it: a `not` over a stopped branch must
        // not hide why the verdict is "invalid".
        errors.push(stop);
    } else if errors.is_empty() {
        // Every failing node reports, so this is a safety net for the verdict's sake.
        vm.fail(program.root, instance, Kind::FalseSchema, |_| {
            "the instance is not valid".into()
        });
        errors = vm.errors;
    }
    errors
}

/// One instance location step, for building error paths.
#[derive(Clone, Copy)]
enum Step<'i> {
    Key(&'i str),
    Index(usize),
}

/// The state of one validation run; the program itself is never mutated.
struct Vm<'p, const EXPLAIN: bool> {
    program: &'p Program,
    /// Evaluation marks for `unevaluated*` (see [`marks`]).
    marks: Vec<Mark>,
    /// Whether the current instance location's evaluations must be marked.
    tracking: bool,
    /// Resources with dynamic anchors entered so far, outermost first.
    scopes: Vec<ScopeId>,
    depth: u32,
    max_depth: u32,
    stack: StackGuard,
    steps: u64,
    /// Why the run stopped early, if it did.
    stopped: Option<Kind>,
    /// The error describing the stop (explaining mode only), kept apart from `errors` so
    /// that no branch can discard it.
    stop_error: Option<ValidationError>,
    /// Collected errors (explaining mode only).
    errors: Vec<ValidationError>,
    /// The JSON Pointer of the current instance location (explaining mode only).
    path: String,
}

impl<'p, const EXPLAIN: bool> Vm<'p, EXPLAIN> {
    fn new(program: &'p Program, limits: Limits) -> Self {
        Vm {
            program,
            marks: Vec::new(),
            tracking: false,
            scopes: Vec::new(),
            depth: 0,
            max_depth: limits.max_depth,
            stack: StackGuard::new(),
            steps: limits.max_steps,
            stopped: None,
            stop_error: None,
            errors: Vec::new(),
            path: String::new(),
        }
    }

    /// Evaluates node `id` against `instance`, within the budget. Leaf nodes are settled
    /// here directly; only nodes that apply subschemas pay for the depth bookkeeping.
    #[inline]
    fn eval(&mut self, id: NodeId, instance: &Value) -> bool {
        if self.steps == 0 {
            return self.stop(id, instance);
        }
        self.steps -= 1;
        let node = self.program.nodes[id.index()];
        if let Some((ok, work)) = leaf::verdict(self.program, node, instance) {
            if work > 0 && !self.spend(id, instance, work) {
                return false;
            }
            return ok || self.reject(id, node, instance);
        }
        if self.depth >= self.max_depth || self.stack.exhausted() {
            return self.stop(id, instance);
        }
        self.depth += 1;
        let ok = self.step(id, node, instance);
        self.depth -= 1;
        ok
    }

    /// Records why leaf node `id` rejected `instance` (in explaining mode).
    #[cold]
    fn reject(&mut self, id: NodeId, node: Node, instance: &Value) -> bool {
        if !EXPLAIN {
            return false;
        }
        let program = self.program;
        if let Node::Checks(span) = node {
            // Each failing part reports at its own keyword.
            for &part in &program.edges[span] {
                let part_node = program.nodes[part.index()];
                if leaf::verdict(program, part_node, instance).is_some_and(|(ok, _)| !ok) {
                    self.reject(part, part_node, instance);
                }
            }
            return false;
        }
        for (kind, message) in leaf::explain(program, node, instance) {
            self.fail(id, instance, kind, |_| message);
        }
        false
    }

    /// Charges `work` extra steps for a loop that examines many things in one node.
    /// Returns `false` (and stops the run) when the budget cannot cover it.
    #[inline]
    fn spend(&mut self, id: NodeId, instance: &Value, work: usize) -> bool {
        match self.steps.checked_sub(work as u64) {
            Some(left) => {
                self.steps = left;
                true
            }
            None => {
                self.steps = 0;
                self.stop(id, instance)
            }
        }
    }

    #[cold]
    fn stop(&mut self, id: NodeId, instance: &Value) -> bool {
        if self.stopped.is_none() {
            let (kind, message) = if self.steps == 0 {
                (
                    Kind::BudgetExhausted,
                    "validation step budget exhausted before a verdict",
                )
            } else {
                (
                    Kind::DepthExceeded,
                    "validation nesting exceeds the depth limit",
                )
            };
            self.stopped = Some(kind);
            if EXPLAIN {
                let before = self.errors.len();
                self.fail(id, instance, kind, |_| message.to_string());
                self.stop_error = self.errors.pop();
                debug_assert_eq!(self.errors.len(), before);
            }
        }
        // Every later evaluation stops at once.
        self.steps = 0;
        false
    }

    /// Records a failure of node `id` (in explaining mode) and returns `false`.
    #[cold]
    fn fail(
        &mut self,
        id: NodeId,
        instance: &Value,
        kind: Kind,
        message: impl FnOnce(&Value) -> String,
    ) -> bool {
        if EXPLAIN {
            let location = self.program.locations.get(id);
            self.errors.push(ValidationError::new(
                kind,
                self.path.clone(),
                location,
                message(instance),
            ));
        }
        false
    }

    /// Evaluates `id` against a child of the current instance: tracking is per location.
    fn descend(&mut self, id: NodeId, child: &Value, step: Step<'_>) -> bool {
        let tracking = std::mem::replace(&mut self.tracking, false);
        let len = self.path.len();
        if EXPLAIN {
            match step {
                Step::Key(key) => pointer::push(&mut self.path, key),
                Step::Index(i) => {
                    let _ = write!(self.path, "/{i}");
                }
            }
        }
        let ok = self.eval(id, child);
        if EXPLAIN {
            self.path.truncate(len);
        }
        self.tracking = tracking;
        ok
    }

    #[inline]
    fn mark(&mut self, mark: Mark) {
        if self.tracking {
            self.marks.push(mark);
        }
    }

    /// Runs one node that applies subschemas. Kept out of line so that `eval`, which
    /// settles every leaf, stays small: most evaluations never get here.
    fn step(&mut self, id: NodeId, node: Node, instance: &Value) -> bool {
        let program = self.program;
        match node {
            Node::All(span) => {
                let mut ok = true;
                for &child in &program.edges[span] {
                    if !self.eval(child, instance) {
                        ok = false;
                        if !EXPLAIN {
                            break;
                        }
                    }
                }
                ok
            }
            Node::Any(span) => {
                let errors = self.errors.len();
                let mut any = false;
                for &child in &program.edges[span] {
                    let marks = self.marks.len();
                    if self.eval(child, instance) {
                        any = true;
                        // Annotations of every passing branch count for `unevaluated*`.
                        if !self.tracking {
                            break;
                        }
                    } else {
                        self.marks.truncate(marks);
                    }
                }
                self.errors.truncate(errors);
                any || self.fail(id, instance, Kind::AnyOf, |i| {
                    format!("{} is not valid under any of the schemas in anyOf", show(i))
                })
            }
            Node::One(span) => {
                let errors = self.errors.len();
                let mut passed: Option<usize> = None;
                for (i, &child) in program.edges[span].iter().enumerate() {
                    let marks = self.marks.len();
                    if self.eval(child, instance) {
                        if let Some(first) = passed {
                            self.errors.truncate(errors);
                            return self.fail(id, instance, Kind::OneOf, |v| {
                                format!("{} is valid under more than one of the schemas in oneOf (#{first} and #{i})", show(v))
                            });
                        }
                        passed = Some(i);
                    } else {
                        self.marks.truncate(marks);
                    }
                }
                self.errors.truncate(errors);
                passed.is_some()
                    || self.fail(id, instance, Kind::OneOf, |i| {
                        format!("{} is not valid under any of the schemas in oneOf", show(i))
                    })
            }
            Node::Not(child) => {
                let (errors, marks) = (self.errors.len(), self.marks.len());
                let tracking = std::mem::replace(&mut self.tracking, false);
                let inner = self.eval(child, instance);
                self.tracking = tracking;
                self.errors.truncate(errors);
                self.marks.truncate(marks);
                !inner
                    || self.fail(id, instance, Kind::Not, |i| {
                        format!("{} must not be valid under the schema in not", show(i))
                    })
            }
            Node::Condition {
                test,
                then,
                otherwise,
            } => {
                let (errors, marks) = (self.errors.len(), self.marks.len());
                let passed = self.eval(test, instance);
                self.errors.truncate(errors);
                if passed {
                    self.eval(then, instance)
                } else {
                    self.marks.truncate(marks);
                    self.eval(otherwise, instance)
                }
            }
            Node::Annotations(test) => {
                if self.tracking {
                    let (errors, marks) = (self.errors.len(), self.marks.len());
                    if !self.eval(test, instance) {
                        self.marks.truncate(marks);
                    }
                    self.errors.truncate(errors);
                }
                true
            }
            Node::Ref(target) => self.eval(target, instance),
            Node::DynamicRef(table) => {
                let dynamic = &program.dynamic_refs[table];
                let name = &program.strings[dynamic.anchor];
                let target = self
                    .scopes
                    .iter()
                    .find_map(|&scope| program.dynamic_anchor(scope, name))
                    .unwrap_or(dynamic.target);
                self.eval(target, instance)
            }
            Node::Scope { scope, body } => {
                self.scopes.push(scope);
                let ok = self.eval(body, instance);
                self.scopes.pop();
                ok
            }
            Node::Items(table) => self.items(id, instance, table),
            Node::Contains { schema, min, max } => self.contains(id, instance, schema, min, max),
            Node::DependentSchemas(span) => {
                let Value::Object(map) = instance else {
                    return true;
                };
                let mut ok = true;
                for &(key, node) in &program.dependent_schemas[span] {
                    if map.contains_key(&*program.strings[key]) && !self.eval(node, instance) {
                        ok = false;
                        if !EXPLAIN {
                            break;
                        }
                    }
                }
                ok
            }
            Node::Properties(table) => self.properties(id, instance, table),
            Node::PropertyNames(node) => {
                let Value::Object(map) = instance else {
                    return true;
                };
                let mut ok = true;
                for key in map.keys() {
                    let name = Value::String(key.clone());
                    if !self.descend(node, &name, Step::Key(key)) {
                        ok = false;
                        if !EXPLAIN {
                            break;
                        }
                    }
                }
                ok
            }
            Node::Unevaluated(table) => self.unevaluated(id, instance, table),
            // Leaves never get here: `eval` settles them.
            _ => true,
        }
    }

    fn items(&mut self, id: NodeId, instance: &Value, table: crate::ids::TableId) -> bool {
        let Value::Array(items) = instance else {
            return true;
        };
        let program = self.program;
        let spec = &program.items[table];
        let prefix = &program.edges[spec.prefix];
        let mut ok = true;
        for (i, (item, &node)) in items.iter().zip(prefix).enumerate() {
            if !self.descend(node, item, Step::Index(i)) {
                ok = false;
                if !EXPLAIN {
                    return false;
                }
            }
        }
        if let Some(rest) = spec.rest {
            let rest_items = items.get(prefix.len()..).unwrap_or_default();
            let rest_node = program.nodes[rest.index()];
            if rest_node == Node::Invalid && !rest_items.is_empty() {
                return self.fail(id, instance, Kind::Unexpected, |_| {
                    format!(
                        "expected at most {} items, got {}",
                        prefix.len(),
                        items.len()
                    )
                });
            }
            if !EXPLAIN && rest_node.is_leaf() {
                // The common `items: {"type": ...}`: no recursion, no path, one budget
                // charge for the whole run.
                if !self.spend(id, instance, rest_items.len()) {
                    return false;
                }
                for item in rest_items {
                    match leaf::verdict(program, rest_node, item) {
                        Some((true, 0)) => {}
                        Some((true, work)) if self.spend(id, instance, work) => {}
                        _ => return false,
                    }
                }
                self.mark(Mark::AllItems);
                return ok;
            }
            for (i, item) in items.iter().enumerate().skip(prefix.len()) {
                if !self.descend(rest, item, Step::Index(i)) {
                    ok = false;
                    if !EXPLAIN {
                        return false;
                    }
                }
            }
            self.mark(Mark::AllItems);
        } else {
            self.mark(Mark::ItemsBelow(prefix.len().min(items.len())));
        }
        ok
    }

    fn contains(
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
        let errors = self.errors.len();
        let mut count: u64 = 0;
        for (i, item) in items.iter().enumerate() {
            if self.descend(schema, item, Step::Index(i)) {
                count += 1;
                self.mark(Mark::Item(i));
                let settled = count >= u64::from(min) && max == u32::MAX;
                if (settled || count > u64::from(max)) && !self.tracking {
                    break;
                }
            }
        }
        self.errors.truncate(errors);
        if count < u64::from(min) {
            return self.fail(id, instance, Kind::Contains, |_| match min {
                1 => "no item matches the contains schema".to_string(),
                _ => format!(
                    "expected at least {min} items matching the contains schema, found {count}"
                ),
            });
        }
        count <= u64::from(max)
            || self.fail(id, instance, Kind::Contains, |_| {
                format!("expected at most {max} items matching the contains schema, found {count}")
            })
    }

    fn properties(&mut self, id: NodeId, instance: &Value, table: crate::ids::TableId) -> bool {
        let Value::Object(map) = instance else {
            return true;
        };
        let program = self.program;
        let spec = &program.properties[table];
        let mut ok = true;
        // Named properties: a small instance against a large `properties` looks its keys
        // up; otherwise the schema's properties go cheapest first, so a failing cheap check
        // (a `tag` constant, say) settles a `oneOf` branch before a recursive property runs.
        let small = map.len() * 4 < spec.named.len();
        let by_key = map
            .iter()
            .filter(|_| small)
            .filter_map(|(k, v)| Some((k, v, spec.named(k)?)));
        let by_cost = spec.by_cost.iter().filter(|_| !small).filter_map(|&i| {
            let (name, node) = &spec.named[i as usize];
            map.get_key_value(&**name).map(|(k, v)| (k, v, *node))
        });
        for (key, value, node) in by_key.chain(by_cost) {
            self.mark(Mark::Property(key.as_ptr() as usize));
            if !self.descend(node, value, Step::Key(key)) {
                ok = false;
                if !EXPLAIN {
                    return false;
                }
            }
        }
        if spec.patterns.is_empty() && spec.additional.is_none() {
            return ok;
        }
        for (key, value) in map {
            if !self.spend(id, instance, spec.patterns.len()) {
                return false;
            }
            let named = spec.named(key).is_some();
            let mut matched = named;
            for &(regex, node) in &spec.patterns {
                if (ok || EXPLAIN) && program.regexes[regex].is_match(key) {
                    matched = true;
                    ok &= self.descend(node, value, Step::Key(key));
                }
            }
            if !matched {
                if let Some(additional) = spec.additional {
                    ok &= self.additional(id, additional, key, value);
                }
            } else if !named {
                self.mark(Mark::Property(key.as_ptr() as usize));
            }
            if !ok && !EXPLAIN {
                return false;
            }
        }
        if spec.additional.is_some() {
            self.mark(Mark::AllProperties);
        }
        ok
    }

    /// Evaluates a property no other keyword covered against `additionalProperties` or
    /// `unevaluatedProperties`; `false` there reads as "property not allowed".
    fn additional(&mut self, id: NodeId, node: NodeId, key: &str, value: &Value) -> bool {
        if self.program.nodes[node.index()] == Node::Invalid {
            let len = self.path.len();
            if EXPLAIN {
                pointer::push(&mut self.path, key);
            }
            let ok = self.fail(id, value, Kind::Unexpected, |_| {
                format!("property {key:?} is not allowed")
            });
            self.path.truncate(len);
            return ok;
        }
        self.descend(node, value, Step::Key(key))
    }

    fn unevaluated(&mut self, id: NodeId, instance: &Value, table: crate::ids::TableId) -> bool {
        let program = self.program;
        let spec = &program.unevaluated[table];
        let outer = std::mem::replace(&mut self.tracking, true);
        let start = self.marks.len();
        let mut ok = self.eval(spec.body, instance);
        if let (Some(node), Value::Object(map), true) = (spec.properties, instance, ok || EXPLAIN) {
            for (key, value) in map {
                if !marks::property_evaluated(&self.marks[start..], key.as_ptr() as usize) {
                    ok &= self.additional(id, node, key, value);
                    if !ok && !EXPLAIN {
                        break;
                    }
                }
            }
        }
        if let (Some(node), Value::Array(items), true) = (spec.items, instance, ok || EXPLAIN) {
            for (i, item) in items.iter().enumerate() {
                if !marks::item_evaluated(&self.marks[start..], i)
                    && !self.descend(node, item, Step::Index(i))
                {
                    ok = false;
                    if !EXPLAIN {
                        break;
                    }
                }
            }
        }
        self.tracking = outer;
        if !outer {
            self.marks.truncate(start);
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
}

/// A short rendering of a value for messages: compact JSON, nested containers past the
/// second level elided, cut after about 60 characters. It never recurses deeply, so it is
/// safe on instances of any depth.
fn show(value: &Value) -> String {
    const LIMIT: usize = 60;
    fn render(value: &Value, out: &mut String, levels: u8) {
        if out.len() > LIMIT {
            return;
        }
        match value {
            Value::Array(items) if levels == 0 && !items.is_empty() => out.push_str("[...]"),
            Value::Object(map) if levels == 0 && !map.is_empty() => out.push_str("{...}"),
            Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    render(item, out, levels - 1);
                }
                out.push(']');
            }
            Value::Object(map) => {
                out.push('{');
                for (i, (key, item)) in map.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    let _ = write!(out, "{}:", Value::String(key.clone()));
                    render(item, out, levels - 1);
                }
                out.push('}');
            }
            scalar => {
                let _ = write!(out, "{scalar}");
            }
        }
    }
    let mut text = String::new();
    render(value, &mut text, 2);
    if text.len() > LIMIT {
        let cut = (0..=LIMIT - 3)
            .rev()
            .find(|&i| text.is_char_boundary(i))
            .unwrap_or(0);
        text.truncate(cut);
        text.push_str("...");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_are_shown_short_and_shallow() {
        assert_eq!(show(&json!({"a": [1, [2, [3]]]})), r#"{"a":[1,[...]]}"#);
        assert_eq!(show(&json!("x".repeat(100))).len(), 60);
        assert_eq!(show(&json!([])), "[]");
    }
}
