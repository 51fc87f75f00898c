//! The interpreter: runs a [`Program`] against a `serde_json::Value`.
//!
//! One function, [`Vm::eval`], matches on every [`Node`] (exhaustively: a new kind must
//! be handled to compile). Loops over an instance's keys and items settle each child the
//! way the compiler decided ([`Settle`]): a `type` or another leaf at the call site, the
//! rest through `eval`. The interpreter is generic over `EXPLAIN`: the fast mode (`false`)
//! carries no error state at all ([`Mode`]), allocates nothing for ordinary schemas and
//! stops at the first failure; the explaining mode (`true`) keeps going to collect every
//! [`ValidationError`] with its instance location.
//!
//! Both modes take a leaf's verdict from the same code ([`leaf::verdict`],
//! [`leaf::settled`]) and ask what a passing leaf evaluated ([`leaf::items_evaluated`])
//! only where `unevaluatedItems` needs it; the explaining mode asks for a leaf's message
//! ([`leaf::explain`]) only once that verdict said no. Those two match on every node
//! kind, as `eval` does. Where no evaluation marks are kept, the fast mode also has
//! loops of its own, the general path's checks in a cheaper shape:
//!
//! - [`Vm::nest`]: a child settled as a record, an exact record, a list or a union by
//!   kind runs its table at once, without `eval`'s dispatch;
//! - `Vm::properties`: `fast_properties` (no marks, no errors to write),
//!   `only_additional` (a table that names no property) and `exact_record` (keys
//!   compared in order with an exact table's names); a bare `properties` on an object
//!   with many more keys than it names, `looked_up_properties` (each name looked up in
//!   the object instead of each key in the table);
//! - `Vm::items`: the items past the prefix settled in one loop, with no descent each;
//! - `Vm::property_logic`: a formula over which names an object has, decided in one pass
//!   over the object instead of by running its parts (see `compiler::logic`);
//! - `Vm::verdict`: a branch that is a lone `type`, without a call.
//!
//! What keeps them in agreement with the explaining mode: each settles the same children
//! through the same leaf verdicts or `eval`, and charges the budget the same steps as
//! the general path (so a run stops at the same place in either mode); the explaining
//! mode runs the branches whose errors it discards (`anyOf` / `oneOf` / `not` / the `if`
//! test / `contains` items / a union by kind) in the fast mode itself
//! (`Vm::quietly`); and the public entry points hold to the fast verdict: `validate`
//! checks a stop at a limit against it, `iter_errors` and `evaluate` take it first, and
//! an explaining run that found no error for an instance the fast mode rejected still
//! reports one ([`Vm::take_errors`]). Tests hold the loops to the general path: the
//! official suite runs `is_valid`, `validate` and `iter_errors` on every case
//! (`tests/suite.rs`), `tests/properties.rs` checks that they agree on generated schemas
//! (the fuzzer's invariants), and fused forms are compared with the plain ones they
//! replace (`tests/fused.rs`, and `compiler::logic`'s formulas with their parts' `All`).
//!
//! Termination and stack safety: every evaluation spends one step of a budget and every
//! node that applies subschemas one level of a depth bound; a loop spends a step per key
//! or item, which covers the children it settles in place. Running out of either stops
//! the run with an error of its own kind, and the verdict is then "invalid" whatever the
//! nodes said (fail closed), since a `not` over a stopped branch must not turn into a
//! pass. So does coming back to a [`Node::Guard`]ed node at the same instance location (a
//! reference cycle that consumes no input). Every run ends: recursion goes through
//! `eval` (a step and a level each), and loops are bounded by the instance.

mod annotate;
mod children;
mod errors;

pub(crate) use annotate::absolute_location;
mod in_place;
mod leaf;

/// For the compiler's tests: how a slot settles a value, against the node's own verdict.
#[cfg(test)]
pub(crate) use leaf::settled;
/// For the compiler's proofs that no value passes two branches of a `oneOf`.
pub(crate) use leaf::verdict;
mod logic;
mod marks;
mod properties;
mod show;
mod suggest;

pub(crate) use errors::Errors;
use errors::{Explained, Journal, EXPLANATION_STEPS};

use crate::error::{ValidationError, ValidationErrorKind as Kind};
use crate::evaluation::Annotation;
use crate::ids::{NodeId, ScopeId, Span};
use crate::json::view::{Json, ObjectView, View};
use crate::program::{other_leaves, Node, Program, Settle};
use crate::regex::STOPPED;
use crate::stack::StackGuard;
use marks::Mark;
use serde_json::Value;
use show::Message;

/// Bounds on one validation run, and how it writes its errors.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// Deepest nesting of node evaluations.
    pub(crate) max_depth: u32,
    /// Node evaluations allowed.
    pub(crate) max_steps: u64,
    /// Whether errors are written masked, without instance data
    /// (`ValidationOptions::with_masked_errors`): no bound, but set per validator as
    /// they are, and read only by the explaining mode.
    pub(crate) masked: bool,
}

/// For the compiler's tests: whether `instance` conforms to `program`, with no step
/// budget (the depth bound of the MCP profile).
#[cfg(test)]
pub(crate) fn is_valid_unbounded<'i, V: View<'i>>(program: &Program, instance: V) -> bool {
    let limits = Limits {
        max_depth: 64,
        max_steps: u64::MAX,
        masked: false,
    };
    is_valid(program, instance, limits)
}

/// Whether `instance` conforms to `program`.
pub(crate) fn is_valid<'i, V: View<'i>>(program: &Program, instance: V, limits: Limits) -> bool {
    let mut vm = Vm::<false>::new(program, limits);
    // A record or list at the root runs its table at once, as a nested one does: the
    // step and the level of an evaluation, without its dispatch.
    let ok = vm.nest(program.root, program.root_settle, instance, Step::Index(0));
    ok && vm.stopped.is_none()
}

/// The first error of `instance`, or `None` when it conforms: one explaining pass that
/// stops at the first failure deciding the verdict, as the fast mode does.
///
/// Its verdict is [`is_valid`]'s: the explaining mode evaluates the same nodes in the
/// same order with the same budget, and runs the branches whose errors it discards
/// (`anyOf` / `oneOf` / `not` / the `if` test / `contains` items) in the fast mode
/// itself. Only the stack guard can tell them apart (explaining frames are larger), so a
/// stop is returned as an error and left for the caller to confirm.
pub(crate) fn first_error(
    program: &Program,
    instance: &Value,
    limits: Limits,
) -> Option<ValidationError> {
    let mut vm = Vm::<true>::new(program, limits);
    vm.log.exhaustive = false;
    let ok = vm.eval(program.root, instance);
    if ok && vm.stopped.is_none() {
        return None;
    }
    vm.take_first_error()
}

/// Every error of an instance that [`is_valid`] rejected: never empty, so the two paths
/// can never disagree on the verdict. (Collecting every error takes more steps than the
/// fast verdict, so the budget could end this pass where the fast one passed.)
pub(crate) fn all_errors(program: &Program, instance: &Value, limits: Limits) -> Errors {
    let mut vm = Vm::<true>::new(program, limits);
    vm.eval(program.root, instance);
    vm.take_errors()
}

/// An annotating run of the annotating `program` (see `Validator::evaluate`): the
/// verdict, every error with its evaluation path, and the annotations of the
/// subschemas that passed, each with the instance location and evaluation path.
pub(crate) fn annotate(
    program: &Program,
    instance: &Value,
    limits: Limits,
) -> (bool, Errors, Vec<Annotation>) {
    let mut vm = Vm::<true>::new(program, limits);
    vm.log.annotating = Some(Box::default());
    vm.annotating = true;
    let ok = vm.eval(program.root, instance);
    let valid = ok && vm.stopped.is_none();
    let annotations = (vm.log.annotating.take()).map_or(Vec::new(), |state| state.annotations);
    let errors = if valid {
        Errors::new()
    } else {
        vm.take_errors()
    };
    (valid, errors, annotations)
}

/// The errors of an instance that [`is_valid`] rejected that a reader needs, each once:
/// those [`all_errors`] finds, but a failed `anyOf` / `oneOf` carries only its closest
/// branch's errors, as its context (the branch's own failed unions explained alike, within
/// the explanations' budget), and none of its branches' follow it; and a failed union told
/// apart by a tag (see `program::facts::tag`) is one error when an object lacks the tag
/// or has one no branch takes. Never empty, as [`all_errors`].
pub(crate) fn listed_errors(program: &Program, instance: &Value, limits: Limits) -> Errors {
    let mut vm = Vm::<true>::new(program, limits);
    vm.log.every_branch = false;
    vm.eval(program.root, instance);
    vm.take_errors()
}

/// The message of a stop at a check that could not reach its verdict within its own
/// limit (a pattern the backtracking engine stopped): never a pass, and never read as
/// "does not match".
const STOPPED_CHECK: &str = "validation stopped: a pattern check reached the backtracking \
     engine's step limit before a verdict";

/// A [`Node::Guard`] being evaluated: its body, the instance's address and how many
/// resources the dynamic scope held.
type Guarded = (NodeId, usize, usize);

/// What a run pushes and pops as it goes, in a box of its own: most runs never push
/// anything (marks need an `unevaluated*`, scopes a dynamic reference, guards a
/// reference cycle), and then starting and ending a run is one store and one test.
#[derive(Default)]
struct Stacks {
    /// Evaluation marks for `unevaluated*` (see [`marks`]).
    marks: Vec<Mark>,
    /// Resources with dynamic anchors entered so far, outermost first, each once.
    scopes: Vec<ScopeId>,
    /// The [`Node::Guard`]s being evaluated: body, instance address, scope count.
    guards: Vec<Guarded>,
}

/// One instance location step, for building error paths.
#[derive(Clone, Copy)]
enum Step<'i> {
    Key(&'i str),
    Index(usize),
}

/// The state of an annotating run (see [`mod@annotate`]).
#[derive(Default)]
struct Annotating {
    /// Annotations of the subschemas that passed so far: a failing node drops those
    /// recorded while it ran.
    annotations: Vec<Annotation>,
    /// The current instance location, one escaped `/token` per step.
    path: Vec<String>,
    /// The references being followed, innermost last: the evaluation path of each
    /// `$ref` keyword (with `/$ref`) and the location of the schema object it refers
    /// to, so that a node's evaluation path is the first with its location's tail.
    frames: Vec<(String, Box<str>)>,
}

/// The interpreter's mode, as a type: `Mode<false>` is the fast mode, `Mode<true>` the
/// explaining one.
struct Mode<const EXPLAIN: bool>;

/// What a mode keeps beside the shared state.
trait Logged {
    type Log: Journal;
}

impl Logged for Mode<false> {
    type Log = ();
}

impl Logged for Mode<true> {
    type Log = Explained;
}

/// The state of one validation run; the program itself is never mutated.
struct Vm<'p, const EXPLAIN: bool>
where
    Mode<EXPLAIN>: Logged,
{
    program: &'p Program,
    /// What the run has pushed so far; `None` until it first pushes anything.
    stacks: Option<Box<Stacks>>,
    /// Whether the current instance location's evaluations must be marked.
    tracking: bool,
    depth: u32,
    max_depth: u32,
    stack: StackGuard,
    steps: u64,
    /// Why the run stopped early, if it did.
    stopped: Option<Kind>,
    /// What the first stop said, for a stop a fast-mode run inside an explaining one
    /// hands up ([`Vm::quietly`]).
    stop_message: &'static str,
    /// Whether this run collects annotations (`annotate`): the explaining mode's
    /// `Annotating` state is there. A flag beside the hot fields, so that checking it
    /// costs the other explaining runs one load.
    annotating: bool,
    /// The explaining mode's state ([`Explained`]); nothing in the fast mode.
    log: <Mode<EXPLAIN> as Logged>::Log,
}

impl<'p, const EXPLAIN: bool> Vm<'p, EXPLAIN>
where
    Mode<EXPLAIN>: Logged,
{
    fn new(program: &'p Program, limits: Limits) -> Self {
        let mut vm = Vm {
            program,
            stacks: None,
            tracking: false,
            depth: 0,
            max_depth: limits.max_depth,
            stack: StackGuard::new(),
            steps: limits.max_steps,
            stopped: None,
            stop_message: "",
            annotating: false,
            log: Default::default(),
        };
        if let Some(explained) = vm.log.explained() {
            explained.explanation_steps = limits.max_steps.min(EXPLANATION_STEPS);
            explained.masked = limits.masked;
        }
        vm
    }

    /// Whether to keep evaluating after a failure: only to collect every error, and not
    /// once the run has stopped (nothing it evaluates then records an error, yet checks
    /// settled in place would still do their work: the loops over the 100,000 items of
    /// an array went on after the budget ran out, each item costing a look at every
    /// branch of its `oneOf`, and a stopped pattern was run again per key).
    #[inline(always)]
    fn keep_going(&self) -> bool {
        EXPLAIN
            && self.stopped.is_none()
            && self
                .log
                .explained_ref()
                .is_some_and(|explained| explained.exhaustive)
    }

    /// Evaluates node `id` against `instance`, within the budget: one step, then one
    /// dispatch on the node. Leaves are settled in place; nodes that apply subschemas pay
    /// for the depth bookkeeping ([`Vm::nested`]).
    #[inline]
    fn eval<'i, V: View<'i>>(&mut self, id: NodeId, instance: V) -> bool {
        if EXPLAIN && self.annotating() {
            return self.eval_annotating(id, instance);
        }
        self.eval_node(id, instance)
    }

    /// [`Vm::eval`] without the annotating mode's bookkeeping.
    #[inline]
    fn eval_node<'i, V: View<'i>>(&mut self, id: NodeId, instance: V) -> bool {
        if self.steps == 0 {
            return self.stop(id);
        }
        self.steps -= 1;
        let node = self.program.nodes[id.index()];
        match node {
            Node::Valid => true,
            Node::Type(set) => set.matches(instance) || self.reject(id, node, &instance.to_value()),
            // Inlined whatever the size of this function (another arm moved it out of
            // line once: +1.4% on ui5).
            Node::All(span) => self.nested(
                id,
                #[inline(always)]
                |vm| vm.all(span, instance),
            ),
            Node::Properties(table) => {
                self.nested(id, |vm| vm.bare_properties(id, instance, table))
            }
            Node::Items(table) => self.nested(id, |vm| vm.items(id, instance, table)),
            Node::Object { table, gate } => match instance.json() {
                Json::Object(_) => self.nested(id, |vm| vm.properties(id, instance, table)),
                _ => self.eval(gate, instance),
            },
            Node::Array { table, gate } => match instance.json() {
                Json::Array(_) => self.nested(id, |vm| vm.items(id, instance, table)),
                _ => self.eval(gate, instance),
            },
            Node::Any(span) => self.nested(id, |vm| vm.any_of(id, instance, span)),
            Node::One(span) => self.nested(id, |vm| vm.one_of(id, instance, span)),
            Node::Switch(table) => self.nested(id, |vm| vm.switch(id, instance, table)),
            Node::ByKind(table) => self.nested(id, |vm| vm.by_kind(id, instance, table)),
            Node::Ref(target) => self.nested(id, |vm| vm.eval(target, instance)),
            Node::Guard(body) => self.nested(id, |vm| vm.guard(id, body, instance)),
            Node::Not(child) => self.nested(id, |vm| vm.not(id, instance, child)),
            Node::Condition {
                test,
                then,
                otherwise,
            } => self.nested(id, |vm| vm.condition(instance, test, then, otherwise)),
            Node::Cases(table) => self.nested(id, |vm| vm.cases(id, instance, table)),
            Node::Annotations(test) => self.nested(id, |vm| vm.annotations(instance, test)),
            Node::DynamicRef(table) => self.nested(id, |vm| vm.dynamic_ref(instance, table)),
            Node::Scope { scope, body } => self.nested(id, |vm| vm.scope(instance, scope, body)),
            Node::DependentSchemas(span) => {
                self.nested(id, |vm| vm.dependent_schemas(instance, span))
            }
            Node::Contains { schema, min, max } => {
                self.nested(id, |vm| vm.contains(id, instance, schema, min, max))
            }
            Node::PropertyNames(child) => self.nested(id, |vm| vm.property_names(instance, child)),
            Node::Unevaluated(table) => self.nested(id, |vm| vm.unevaluated(id, instance, table)),
            Node::Annotate(table) => self.record_annotations(id, table, instance),
            Node::PropertyLogic(table) => self.property_logic(id, instance, table),
            other_leaves!() => self.leaf(id, node, instance),
        }
    }

    /// Runs `run`, a node that applies subschemas, one level deeper. The stack is
    /// measured every 8 levels (entering levels 8, 16, ...): 8 frames are far inside the
    /// margin the budget leaves, and the check is not free. Not at the root, whose guard
    /// was just taken: its check could not fail.
    #[inline(always)]
    fn nested(&mut self, id: NodeId, run: impl FnOnce(&mut Self) -> bool) -> bool {
        if self.no_level_below() {
            return self.stop(id);
        }
        self.depth += 1;
        let ok = run(self);
        self.depth -= 1;
        ok
    }

    /// Whether no level below the current one may be entered: the depth bound is
    /// reached, or the stack is too short (measured at every 8th level, see
    /// [`Vm::nested`]).
    #[inline(always)]
    fn no_level_below(&self) -> bool {
        self.depth >= self.max_depth || (self.depth % 8 == 7 && self.stack.exhausted())
    }

    /// A leaf other than `true` and `type`: its verdict, the extra steps its loop took,
    /// its evaluation marks, and its errors when it fails.
    #[inline]
    fn leaf<'i, V: View<'i>>(&mut self, id: NodeId, node: Node, instance: V) -> bool {
        if let (true, Node::Required(names), Json::Object(map)) = (EXPLAIN, node, instance.json()) {
            if !self.keep_going() {
                return self.first_missing(id, names, map);
            }
        }
        let (ok, work) = leaf::verdict(self.program, node, instance);
        if work > 0 && !self.spend(id, work) {
            return false;
        }
        if ok && self.tracking {
            self.leaf_marks(node, instance);
        }
        ok || self.reject(id, node, &instance.to_value())
    }

    /// A `required` leaf of the explaining pass looking for the first error: the names
    /// are looked for once, the first missing one reported. (Its verdict, then its
    /// explanation, looked for them twice, and a scan of an absent name walks every key.)
    /// The same steps as the verdict's.
    fn first_missing<'i, O: ObjectView<'i>>(&mut self, id: NodeId, names: Span, map: O) -> bool {
        if !self.spend(id, names.len as usize) {
            return false;
        }
        let Some(name) = leaf::missing(self.program, names, map).next() else {
            return true;
        };
        self.fail_with(id, Kind::Required, None, |out| out.missing_property(name));
        false
    }

    /// Whether `value`, at `step` below the current instance, passes the child `node`,
    /// settled as the compiler decided (`settle`, see [`Settle`]): a `type` or another
    /// leaf without an evaluation of its own, anything else through [`Vm::descend`].
    /// A failure in the explaining mode also goes through `descend`, for its errors.
    #[inline(always)]
    fn settle<'i, V: View<'i>>(
        &mut self,
        node: NodeId,
        settle: Settle,
        value: V,
        step: Step<'_>,
    ) -> bool {
        let ok = match leaf::settled(self.program, settle, node, value) {
            Some((ok, work)) => self.leaf_paid(node, ok, work, step),
            None => return self.nest(node, settle, value, step),
        };
        ok || (EXPLAIN && self.steps != 0 && self.descend(node, value, step))
    }

    /// The verdict of a leaf `node` settled in place (`ok`, after `work` steps), those
    /// steps paid: a pass that took none costs nothing more, a failure is paid only when
    /// its work stopped it (so that the stop is reported).
    #[inline(always)]
    fn leaf_paid(&mut self, node: NodeId, ok: bool, work: usize, step: Step<'_>) -> bool {
        match ok {
            true => work == 0 || self.spend_below(node, work, step),
            false => work >= STOPPED && self.spend_below(node, work, step),
        }
    }

    /// [`Vm::spend`] for a child settled in place: a stop is located at `step` below the
    /// current instance, where it happened, as if the child had been descended into.
    #[inline(always)]
    fn spend_below(&mut self, id: NodeId, work: usize, step: Step<'_>) -> bool {
        if !EXPLAIN {
            return self.spend(id, work);
        }
        let before = self.located();
        let ok = self.spend(id, work);
        if !ok {
            self.locate(before, step);
        }
        ok
    }

    /// [`Vm::settle`] for a child that is not a leaf: a nested record, list or union by
    /// kind of the fast mode runs its table at once (the step, depth and stack bounds of
    /// [`Vm::eval`], without its dispatch); anything else goes through [`Vm::descend`].
    #[inline(always)]
    fn nest<'i, V: View<'i>>(
        &mut self,
        node: NodeId,
        settle: Settle,
        value: V,
        step: Step<'_>,
    ) -> bool {
        if EXPLAIN && !self.tracking {
            return self.check_then_explain(node, settle, value, step);
        }
        if EXPLAIN || self.tracking || self.steps == 0 {
            return self.descend(node, value, step);
        }
        match (settle, value) {
            (Settle::ByKind(table), _) => {
                self.steps -= 1;
                self.nested(node, |vm| vm.union_in_place(value, table))
            }
            _ => self.run_table(node, settle, value, step),
        }
    }

    /// [`Vm::nest`] for a nested record or list (in the fast mode, with steps left):
    /// its table run at once; anything else through [`Vm::descend`].
    #[inline(always)]
    fn run_table<'i, V: View<'i>>(
        &mut self,
        node: NodeId,
        settle: Settle,
        value: V,
        step: Step<'_>,
    ) -> bool {
        // The exact loop reads the keys in byte order: a view in another order runs the
        // table as any record.
        let settle = match settle {
            Settle::Exact(table) if !V::Object::KEYS_IN_BYTE_ORDER => Settle::Record(table),
            settle => settle,
        };
        match (settle, value.json()) {
            (Settle::Record(table), Json::Object(_)) => {
                self.steps -= 1;
                self.nested(node, |vm| vm.properties(node, value, table))
            }
            (Settle::Exact(table), Json::Object(_)) => {
                self.steps -= 1;
                self.nested(node, |vm| vm.exact_record(node, value, table))
            }
            (Settle::List(table), Json::Array(_)) => {
                self.steps -= 1;
                self.nested(node, |vm| vm.items(node, value, table))
            }
            _ => self.descend(node, value, step),
        }
    }

    /// [`Vm::nest`] in the explaining pass, looking for the first error: the child is
    /// checked in the fast mode first, and explained only when that fails, so that the
    /// children before the failing one (the items of an array before the bad one) cost
    /// what they cost `is_valid`. Inside the failing child its own children are explained
    /// at once: checking each first would check the failing path again at every level.
    /// So a failing child is checked once more than before, at most, and the verdict and
    /// the errors are those of the explaining pass alone. Collecting every error, tracking
    /// evaluated locations or annotating, every child is explained.
    #[inline(never)]
    fn check_then_explain<'i, V: View<'i>>(
        &mut self,
        node: NodeId,
        settle: Settle,
        value: V,
        step: Step<'_>,
    ) -> bool {
        if !self.checks_first() || self.in_failed_child() {
            return self.descend(node, value, step);
        }
        if self.passes_quietly(|fast| fast.nest(node, settle, value, step)) {
            return true;
        }
        self.set_in_failed_child(true);
        let ok = self.descend(node, value, step);
        self.set_in_failed_child(false);
        ok
    }

    /// Whether the explaining pass checks a part in the fast mode before it explains
    /// it (see [`Vm::check_then_explain`]): only looking for the first error, without
    /// tracking evaluated locations or annotating.
    #[inline(always)]
    fn checks_first(&self) -> bool {
        !self.tracking
            && (self.log.explained_ref())
                .is_some_and(|explained| !explained.exhaustive && explained.annotating.is_none())
    }

    /// Whether a child being explained failed its fast check (see
    /// [`Vm::check_then_explain`]).
    #[inline(always)]
    fn in_failed_child(&self) -> bool {
        (self.log.explained_ref()).is_some_and(|explained| explained.in_failed_child)
    }

    /// Sets [`Explained::in_failed_child`].
    fn set_in_failed_child(&mut self, inside: bool) {
        if let Some(explained) = self.log.explained() {
            explained.in_failed_child = inside;
        }
    }

    /// The parts of an `All`, in order.
    #[inline(always)]
    fn all<'i, V: View<'i>>(&mut self, span: Span, instance: V) -> bool {
        let mut ok = true;
        for &child in &self.program.edges[span] {
            if !self.eval_part(child, instance) {
                ok = false;
                if !self.keep_going() {
                    break;
                }
            }
        }
        ok
    }

    /// [`Vm::eval`] for a part of an `All`, the same to the budget. The commonest such
    /// parts, `type`, `properties` beside `"type": "object"` and `items` beside `"type":
    /// "array"`, run without a level of their own: their children still go through
    /// `eval`, which keeps the depth and stack bounds.
    #[inline(always)]
    fn eval_part<'i, V: View<'i>>(&mut self, id: NodeId, instance: V) -> bool {
        if self.steps == 0 {
            return self.stop(id);
        }
        match self.program.nodes[id.index()] {
            Node::Type(set) if set.matches(instance) => {
                self.steps -= 1;
                true
            }
            Node::Properties(table) => {
                self.steps -= 1;
                self.properties(id, instance, table)
            }
            Node::Items(table) => {
                self.steps -= 1;
                self.items(id, instance, table)
            }
            Node::Object { table, .. } if matches!(instance.json(), Json::Object(_)) => {
                self.steps -= 1;
                self.properties(id, instance, table)
            }
            Node::Array { table, .. } if matches!(instance.json(), Json::Array(_)) => {
                self.steps -= 1;
                self.items(id, instance, table)
            }
            _ => self.eval(id, instance),
        }
    }

    /// Marks what a passing fused leaf evaluated, for an enclosing `unevaluatedItems`
    /// (see [`leaf::items_evaluated`]).
    #[cold]
    fn leaf_marks<'i, V: View<'i>>(&mut self, node: Node, instance: V) {
        if let Some(mark) = leaf::items_evaluated(self.program, node, instance) {
            self.mark(mark);
        }
    }

    /// The verdict of a check settled in place, `ok`, with its `work` paid: a failed
    /// check costs nothing more, but one stopped before its verdict ([`STOPPED`])
    /// stops the run, so that no `not` above can read its `false` as a pass.
    #[inline(always)]
    fn paid(&mut self, id: NodeId, ok: bool, work: usize) -> bool {
        match ok {
            true => work == 0 || self.spend(id, work),
            false => work >= STOPPED && self.spend(id, work),
        }
    }

    /// Charges `work` extra steps for a loop that examines many things in one node.
    /// Returns `false` (and stops the run) when the budget cannot cover it, or when the
    /// work is that of a check stopped before its verdict ([`STOPPED`]).
    #[inline(always)]
    fn spend(&mut self, id: NodeId, work: usize) -> bool {
        if work < STOPPED {
            if let Some(left) = self.steps.checked_sub(work as u64) {
                self.steps = left;
                return true;
            }
        }
        self.overspent(id, work)
    }

    /// [`Vm::spend`] past the budget, or for a stopped check: the run stops.
    #[cold]
    #[inline(never)]
    fn overspent(&mut self, id: NodeId, work: usize) -> bool {
        if work >= STOPPED {
            return self.record_stop_as(id, Kind::BudgetExhausted, STOPPED_CHECK);
        }
        self.steps = 0;
        self.stop(id)
    }

    /// Evaluates the body of a [`Node::Guard`], unless it is already being evaluated at
    /// this instance location with the same dynamic scope: then the run went round an
    /// in-place cycle and would do so forever, and it stops, invalid.
    ///
    /// The instance's address names its location: a value on the evaluation path stays
    /// alive and in place until the path leaves it. The dynamic scope only grows along a
    /// path, so the same count of resources is the same scope, and the same node at the
    /// same location under the same scope evaluates exactly as before.
    #[inline(never)]
    fn guard<'i, V: View<'i>>(&mut self, id: NodeId, body: NodeId, instance: V) -> bool {
        let entry = (body, instance.address(), self.scopes().len());
        let stacks = self.stacks();
        if stacks.guards.contains(&entry) {
            return self.record_stop(id, Kind::InfiniteRecursion);
        }
        stacks.guards.push(entry);
        let ok = self.eval(body, instance);
        self.stacks().guards.pop();
        ok
    }

    #[cold]
    fn stop(&mut self, id: NodeId) -> bool {
        let kind = if self.steps == 0 {
            Kind::BudgetExhausted
        } else {
            Kind::DepthExceeded
        };
        self.record_stop(id, kind)
    }

    /// Stops the run for `kind` (once: the first stop is the one reported).
    #[cold]
    fn record_stop(&mut self, id: NodeId, kind: Kind) -> bool {
        let message = match kind {
            Kind::BudgetExhausted => "validation step budget exhausted before a verdict",
            Kind::InfiniteRecursion => {
                "the schema applies itself to this value without end (a reference cycle)"
            }
            _ => "validation nesting exceeds the depth limit",
        };
        self.record_stop_as(id, kind, message)
    }

    /// [`Vm::record_stop`], saying why in `message`.
    #[cold]
    fn record_stop_as(&mut self, id: NodeId, kind: Kind, message: &'static str) -> bool {
        if self.stopped.is_none() {
            self.stopped = Some(kind);
            self.stop_message = message;
            if EXPLAIN {
                self.fail(id, kind, |out| out.push_str(message));
                if let Some(explained) = self.log.explained() {
                    explained.stop_error = explained.errors.pop();
                }
            }
        }
        // Every later evaluation stops at once.
        self.steps = 0;
        false
    }

    /// The verdict of node `id` on `instance` where its errors would be discarded anyway
    /// (branches of `anyOf` / `oneOf`, `not`, the `if` test): in explaining mode it runs as
    /// the fast mode does, since building messages nobody reads is most of an explaining
    /// pass's cost. Marks, the dynamic scope, the budget and a stop carry over.
    #[inline]
    fn verdict<'i, V: View<'i>>(&mut self, id: NodeId, instance: V) -> bool {
        if !EXPLAIN {
            // A lone `type` (the commonest branch) without a call, and a bare `properties`
            // (the commonest `if`: one property's value) without the dispatch, as `eval`
            // would run them.
            match (self.program.nodes[id.index()], self.steps) {
                (Node::Type(set), 1..) => {
                    self.steps -= 1;
                    return set.matches(instance);
                }
                (Node::Properties(table), 1..) => {
                    self.steps -= 1;
                    return self.nested(id, |vm| vm.bare_properties(id, instance, table));
                }
                _ => return self.eval(id, instance),
            }
        }
        if self.annotating() {
            return self.discarding_errors(|vm| vm.eval(id, instance));
        }
        self.quietly(id, |fast| fast.eval(id, instance))
    }

    /// Runs `run` in the explaining mode and drops the errors it recorded (a stop
    /// excepted): the annotating mode's way to take a verdict whose errors nobody reads,
    /// since it needs the annotations of the branches that pass.
    fn discarding_errors(&mut self, run: impl FnOnce(&mut Self) -> bool) -> bool {
        let before = self.error_count();
        let ok = run(self);
        if let Some(explained) = self.log.explained() {
            explained.errors.truncate(before);
        }
        ok
    }

    /// Runs `run` on a fast-mode interpreter sharing this one's state (see [`Vm::verdict`]);
    /// a stop inside is recorded here, at `id`.
    fn quietly(&mut self, id: NodeId, run: impl FnOnce(&mut Vm<'p, false>) -> bool) -> bool {
        let mut fast = self.fast();
        let ok = run(&mut fast);
        self.stacks = fast.stacks.take();
        self.steps = fast.steps;
        match (self.stopped, fast.stopped) {
            (None, Some(kind)) => self.record_stop_as(id, kind, fast.stop_message),
            _ => ok,
        }
    }

    /// Whether `run` passes on a fast-mode interpreter sharing this one's state, its
    /// steps spent only when it does: a failure or a stop there leaves this run as it
    /// was, for the explaining pass to find the errors as it would have.
    fn passes_quietly(&mut self, run: impl FnOnce(&mut Vm<'p, false>) -> bool) -> bool {
        let mut fast = self.fast();
        let ok = run(&mut fast) && fast.stopped.is_none();
        self.stacks = fast.stacks.take();
        if ok {
            self.steps = fast.steps;
        }
        ok
    }

    /// A fast-mode interpreter at this one's depth, budget and stop, holding its stacks
    /// until they are handed back.
    fn fast(&mut self) -> Vm<'p, false> {
        Vm::<false> {
            program: self.program,
            stacks: self.stacks.take(),
            tracking: self.tracking,
            depth: self.depth,
            max_depth: self.max_depth,
            stack: self.stack,
            steps: self.steps,
            stopped: self.stopped,
            stop_message: self.stop_message,
            annotating: false,
            log: (),
        }
    }

    /// Evaluates `id` against a child of the current instance: tracking is per location.
    #[inline]
    fn descend<'i, V: View<'i>>(&mut self, id: NodeId, child: V, step: Step<'_>) -> bool {
        if !EXPLAIN && !self.tracking {
            // Nothing to switch off, no location to write: the plain evaluation.
            return self.eval(id, child);
        }
        if self.annotating() {
            return self.descend_annotating(id, child, step);
        }
        let tracking = std::mem::replace(&mut self.tracking, false);
        let before = self.located();
        let ok = self.eval(id, child);
        self.locate(before, step);
        self.tracking = tracking;
        ok
    }

    /// [`Vm::descend`] in the annotating mode: the step is also the annotations'
    /// instance location while the child runs.
    #[inline(never)]
    fn descend_annotating<'i, V: View<'i>>(
        &mut self,
        id: NodeId,
        child: V,
        step: Step<'_>,
    ) -> bool {
        let tracking = std::mem::replace(&mut self.tracking, false);
        let before = self.located();
        self.enter(step);
        let ok = self.eval(id, child);
        self.leave();
        self.locate(before, step);
        self.tracking = tracking;
        ok
    }

    #[inline]
    fn mark(&mut self, mark: Mark) {
        if self.tracking {
            self.stacks().marks.push(mark);
        }
    }

    /// The run's stacks, made on first use.
    fn stacks(&mut self) -> &mut Stacks {
        self.stacks.get_or_insert_with(Box::default)
    }

    /// How many evaluation marks the run holds.
    #[inline(always)]
    fn marks_len(&self) -> usize {
        self.stacks.as_ref().map_or(0, |stacks| stacks.marks.len())
    }

    /// The evaluation marks from the `start`-th on.
    fn marks_since(&self, start: usize) -> &[Mark] {
        let marks = self.stacks.as_ref().map_or(&[][..], |stacks| &stacks.marks);
        marks.get(start..).unwrap_or_default()
    }

    /// Drops the evaluation marks from the `len`-th on.
    #[inline(always)]
    fn truncate_marks(&mut self, len: usize) {
        if let Some(stacks) = &mut self.stacks {
            stacks.marks.truncate(len);
        }
    }

    /// The resources with dynamic anchors entered so far, outermost first.
    fn scopes(&self) -> &[ScopeId] {
        self.stacks.as_ref().map_or(&[], |stacks| &stacks.scopes)
    }
}
