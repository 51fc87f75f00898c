//! The explaining mode's list of errors: what an explaining run keeps beside the shared
//! state ([`Explained`]), how a failure is recorded (its message written in place, its
//! cost charged when every error is collected), how its instance location is written
//! on the way out, and how the list is taken at the end, deduplicated, never empty.

use super::leaf;
use super::show::Message;
use super::{Annotating, Logged, Mode, Step, Vm};
use crate::error::{ErrorDetails, ValidationError, ValidationErrorKind as Kind};
use crate::ids::NodeId;
use crate::program::{applicators, keyword_leaves, Node, Program};
use serde_json::Value;
use std::sync::Arc;

/// Bytes reserved for an error message beside its locations: most fit, so writing one
/// rarely reallocates.
pub(super) const MESSAGE_ROOM: usize = 96;

/// Bytes reserved beside the message for the instance location, written in front of it
/// on the way out of a failure.
pub(super) const LOCATION_ROOM: usize = 48;

/// The most steps the explanations of one run may take (see `Vm::no_branch_passed`):
/// each re-runs branches the verdict already ran, and builds errors (with their
/// operands) for all of them, so their work is capped apart from the run's own budget
/// (which may be unbounded). Past it, errors name no closest branch. A real tool
/// schema's explanation takes hundreds of steps.
pub(super) const EXPLANATION_STEPS: u64 = 1 << 16;

/// The budget steps an error costs a run that collects every error (`iter_errors`, and
/// the explanations of a failed `anyOf` / `oneOf`): an error takes a microsecond or more
/// to build, a step tens of nanoseconds, and without a charge collecting the errors of a
/// 1 MiB array of 500,000 wrong items took 2 s and 270 MB. Under the MCP profile's budget
/// a run records at most 3,906 errors, and the explanations of its unions 256; then the
/// run stops, as when its budget runs out.
pub(super) const ERROR_STEPS: u64 = 256;

/// What an error of leaf `node` copies from the schema into its message and operands (an
/// `enum`'s options, a `const`, a pattern's source), in budget steps of about 16 bytes
/// (measured: an `enum` option costs an error about 100 bytes): so that a run's errors
/// hold at most about 32 MB of copies under the MCP profile.
fn copied(program: &Program, node: Node) -> usize {
    match node {
        Node::Enum(span) => program.values[span].iter().map(weight).sum(),
        Node::StringEnum(table) => (program.string_sets[table].strings())
            .map(|s| 6 + s.len() / 16)
            .sum(),
        Node::Const(value) => weight(&program.values[value]),
        Node::Pattern(regex) => program.regexes[regex].as_str().len() / 8,
        _ => 0,
    }
}

/// The size of a copy of `value` in steps of about 16 bytes: six per value (its slot, an
/// allocation, its rendering in a message), one per 16 bytes of string. A loop, not a
/// recursion: data keywords may nest without bound.
fn weight(value: &Value) -> usize {
    let (mut total, mut pending) = (0, vec![value]);
    while let Some(value) = pending.pop() {
        total += 6;
        match value {
            Value::String(s) => total += s.len() / 16,
            Value::Array(items) => pending.extend(items),
            Value::Object(map) => {
                for (key, value) in map {
                    total += 6 + key.len() / 16;
                    pending.push(value);
                }
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }
    total
}

/// Collected errors: `validate` wants one, which then needs no allocation of its own.
pub(crate) type Errors = smallvec::SmallVec<[ValidationError; 2]>;

/// Drops every error equal in kind, instance location and schema location to an earlier
/// one: the same subschema reached twice at one place (a stop's echoes up a cycle, two
/// conjuncts sharing a `$ref`) says nothing new. The one keyword that fails several ways
/// at one place, `required` (or `dependentRequired`) with each name the object lacks,
/// has its message, which names it, in the key too.
fn dedup(errors: &mut Errors) {
    fn key(e: &ValidationError) -> (Kind, &str, &str, &str) {
        let named = match e.kind() {
            Kind::Required => e.message(),
            _ => "",
        };
        (e.kind(), e.instance_location(), e.schema_location(), named)
    }
    if errors.len() <= 16 {
        let mut kept = 0;
        for i in 0..errors.len() {
            if !errors[..kept].iter().any(|e| key(e) == key(&errors[i])) {
                errors.swap(kept, i);
                kept += 1;
            }
        }
        errors.truncate(kept);
        return;
    }
    let mut seen = crate::maps::set();
    let keep: Vec<bool> = errors.iter().map(|e| seen.insert(key(e))).collect();
    let mut keep = keep.into_iter();
    errors.retain(|_| keep.next().unwrap_or(true));
}

/// What only the explaining mode keeps: the fast mode's [`Vm`] has `()` in its place,
/// so constructing and dropping it is a few stores.
pub(super) struct Explained {
    /// The error describing the stop, kept apart from `errors` so that no branch can
    /// discard it.
    pub(super) stop_error: Option<ValidationError>,
    /// Collected errors. Their instance locations are written on the way out of the
    /// failure, innermost step first (see [`Vm::descend`]): the interpreter keeps no path
    /// while it descends.
    pub(super) errors: Errors,
    /// Whether to keep going after a failure to find every error.
    pub(super) exhaustive: bool,
    /// Whether branches of an `anyOf` / `oneOf` are being run again to explain its
    /// failure (see `Vm::no_branch_passed`).
    pub(super) explaining: bool,
    /// The steps left to such explanations, for the whole run: they re-run work the
    /// verdict already did, so they get a budget of their own.
    pub(super) explanation_steps: u64,
    /// What `Validator::evaluate` collects beside the errors; `None` otherwise.
    pub(super) annotating: Option<Box<Annotating>>,
    /// Whether a failed `anyOf` / `oneOf` lists every branch's errors after its own
    /// (collecting every error); else only its closest branch's, as its context.
    pub(super) every_branch: bool,
    /// Whether the run is inside a child that a fast check just failed (see
    /// [`Vm::nest`]): its own children are explained without checking them first.
    pub(super) in_failed_child: bool,
    /// Whether errors are written masked ([`Limits::masked`](super::Limits::masked)).
    pub(super) masked: bool,
}

impl Default for Explained {
    fn default() -> Self {
        Explained {
            stop_error: None,
            errors: Errors::new(),
            exhaustive: true,
            explaining: false,
            explanation_steps: 0,
            annotating: None,
            every_branch: true,
            in_failed_child: false,
            masked: false,
        }
    }
}

/// Access to the explaining mode's state, which the fast mode does not have.
pub(super) trait Journal: Default {
    fn explained(&mut self) -> Option<&mut Explained>;
    fn explained_ref(&self) -> Option<&Explained>;
}

impl Journal for () {
    #[inline(always)]
    fn explained(&mut self) -> Option<&mut Explained> {
        None
    }
    #[inline(always)]
    fn explained_ref(&self) -> Option<&Explained> {
        None
    }
}

impl Journal for Explained {
    #[inline(always)]
    fn explained(&mut self) -> Option<&mut Explained> {
        Some(self)
    }
    #[inline(always)]
    fn explained_ref(&self) -> Option<&Explained> {
        Some(self)
    }
}

impl<'p, const EXPLAIN: bool> Vm<'p, EXPLAIN>
where
    Mode<EXPLAIN>: Logged,
{
    /// The first of [`Vm::take_errors`], without building the list (deduplication keeps
    /// the first of its errors first).
    pub(super) fn take_first_error(&mut self) -> Option<ValidationError> {
        let explained = self.log.explained()?;
        if let Some(stop) = explained.stop_error.take() {
            return Some(stop);
        }
        if !explained.errors.is_empty() {
            return Some(explained.errors.swap_remove(0));
        }
        self.take_errors().into_iter().next()
    }

    /// The errors of a failed run, a stop first: never empty. Taken by reference: the
    /// interpreter is large, and moving it into a call was a copy of its every byte.
    pub(super) fn take_errors(&mut self) -> Errors {
        let Some(explained) = self.log.explained() else {
            return Errors::new();
        };
        let mut errors = std::mem::take(&mut explained.errors);
        if let Some(stop) = explained.stop_error.take() {
            // Reported first, whatever the branches made of it: a `not` over a stopped
            // branch must not hide why the verdict is "invalid", and failures recorded
            // after the stop are only its echoes.
            errors.insert(0, stop);
        } else if errors.is_empty() {
            // Every failing node reports, so this is a safety net for the verdict's sake.
            self.fail(self.program.root, Kind::FalseSchema, |out| {
                out.push_str("the instance is not valid");
            });
            if let Some(explained) = self.log.explained() {
                errors = std::mem::take(&mut explained.errors);
            }
        }
        dedup(&mut errors);
        errors
    }

    /// How many errors have been collected: none in the fast mode, where knowing it
    /// costs nothing.
    #[inline(always)]
    pub(super) fn error_count(&self) -> usize {
        self.log
            .explained_ref()
            .map_or(0, |explained| explained.errors.len())
    }

    /// Takes `work` from the explanations' budget (`EXPLANATION_STEPS`, the one in use
    /// while an explanation runs) for an optional part of an error, a suggestion say:
    /// `false`, taking nothing, when it cannot cover it. Never stops the run.
    pub(super) fn afford(&mut self, work: usize) -> bool {
        let Some(left) = self.explanation_steps() else {
            return false;
        };
        match left.checked_sub(work as u64) {
            Some(rest) => {
                *left = rest;
                true
            }
            None => false,
        }
    }

    /// The steps left to explanations (`EXPLANATION_STEPS`): while one runs, the run's
    /// own (its budget is swapped for theirs); `None` in the fast mode.
    pub(super) fn explanation_steps(&mut self) -> Option<&mut u64> {
        let log = self.log.explained()?;
        Some(match log.explaining {
            true => &mut self.steps,
            false => &mut log.explanation_steps,
        })
    }

    /// Records why leaf node `id` rejected `instance` (in explaining mode).
    #[cold]
    pub(super) fn reject(&mut self, id: NodeId, node: Node, instance: &Value) -> bool {
        if !EXPLAIN {
            return false;
        }
        let program = self.program;
        // Whether `node` fails `value`, its verdict taken again; `None` when the budget
        // cannot cover that. The work is charged when every error is collected, as the
        // first verdict's was: unpaid, 10,000 patterns ran again over 1 MiB of text.
        // (Otherwise the first failure ends the search, which the verdict paid for.)
        let fails = |vm: &mut Self, node: Node, value: &Value| -> Option<bool> {
            let (ok, work) = leaf::verdict(program, node, value);
            (!vm.keep_going() || vm.spend(id, work)).then_some(!ok)
        };
        let parts = match node {
            Node::Checks(table) => Some(program.check_lists[table].parts),
            Node::ArrayOf(table) => Some(program.array_ofs[table].parts),
            Node::EachItem(_) | Node::Tuple(_) => None,
            Node::AnyLeaf(_) | Node::OneLeaf(_) | Node::ExclusiveLeaf(_) => None,
            Node::Valid | Node::Type(_) | keyword_leaves!() | applicators!() => None,
        };
        if let Some(span) = parts {
            // Each failing part reports at its own keyword; the first is enough unless
            // every error is collected.
            for &part in &program.edges[span] {
                let part_node = program.nodes[part.index()];
                match fails(self, part_node, instance) {
                    None => return false,
                    Some(false) => {}
                    Some(true) => {
                        self.reject(part, part_node, instance);
                        if !self.keep_going() {
                            break;
                        }
                    }
                }
            }
            return false;
        }
        // Fused applicators explain themselves as their general forms do.
        match node {
            Node::AnyLeaf(span) => return self.any_of(id, instance, span),
            Node::OneLeaf(span) | Node::ExclusiveLeaf(span) => {
                return self.one_of(id, instance, span)
            }
            Node::Tuple(table) => return self.items(id, instance, table),
            Node::Checks(_) | Node::ArrayOf(_) | Node::EachItem(_) => {}
            Node::Valid | Node::Type(_) | keyword_leaves!() | applicators!() => {}
        }
        if let Node::EachItem(rest) = node {
            // Each failing item reports at its own index; the first is enough unless
            // every error is collected (an array of 150,000 failing items built 150,000
            // errors for `validate`).
            let rest_node = program.nodes[rest.index()];
            for (i, item) in instance.as_array().into_iter().flatten().enumerate() {
                match fails(self, rest_node, item) {
                    None => return false,
                    Some(false) => {}
                    Some(true) => {
                        let before = self.located();
                        self.reject(rest, rest_node, item);
                        self.locate(before, Step::Index(i));
                        if !self.keep_going() {
                            break;
                        }
                    }
                }
            }
            return false;
        }
        // Collecting every error, what an error copies from the schema is paid for with
        // it (7,800 errors of an `enum` of 100,000 options took gigabytes).
        if self.keep_going() {
            let copied = copied(program, node);
            if copied > 0 && !self.spend(id, copied) {
                return false;
            }
        }
        // Stopping at the first failure, a leaf's first error is enough: one name of
        // `dependentRequired` missing is (all 100,000 of them made as many errors).
        // `explain` stops its lists of names there; the test in `report` holds for the
        // rest (a stop the first error's cost made).
        let first = self.error_count();
        let every = self.keep_going();
        leaf::explain(program, node, instance, every, |kind, details, message| {
            if !self.keep_going() && self.error_count() > first {
                return;
            }
            self.fail_with(id, kind, details, message);
        });
        false
    }

    /// [`Vm::fail`], then attaches `details` to the error; `None` for a `required`
    /// failure means that its message names the missing property, which its details are
    /// read from. Inlined: its callers' errors cost a call less (30 instructions of a
    /// failing `required`'s).
    #[inline(always)]
    pub(super) fn fail_with(
        &mut self,
        id: NodeId,
        kind: Kind,
        details: Option<ErrorDetails>,
        message: impl FnOnce(&mut Message),
    ) {
        self.fail(id, kind, message);
        let Some(error) = (self.log.explained()).and_then(|e| e.errors.last_mut()) else {
            return;
        };
        match details {
            Some(details) => error.set_details(details),
            None if kind == Kind::Required => error.set_missing_property(),
            None => {}
        }
    }

    /// Records a failure of node `id` (in explaining mode) and returns `false`. The message
    /// is written straight into the error's buffer, which then takes the locations.
    #[cold]
    pub(super) fn fail(
        &mut self,
        id: NodeId,
        kind: Kind,
        message: impl FnOnce(&mut Message),
    ) -> bool {
        if EXPLAIN {
            let masked = self.log.explained_ref().is_some_and(|e| e.masked);
            let mut out = Message::with_capacity(MESSAGE_ROOM + LOCATION_ROOM, masked);
            message(&mut out);
            let (text, quotation) = out.into_parts();
            // The instance location comes on the way out (see `descend`), the schema
            // location when read.
            let locations = Arc::clone(&self.program.locations);
            let mut error = ValidationError::located(kind, text, quotation, locations, id);
            if self.annotating() {
                error.set_keyword_location(&self.keyword_location(id));
            }
            if let Some(explained) = self.log.explained() {
                explained.errors.push(error);
            }
            // Collecting every error, each is paid for. (Stopping at the first, the
            // verdict is settled, and the run must not end on a stop of its own making.)
            if self.keep_going() {
                match self.steps.checked_sub(ERROR_STEPS) {
                    Some(left) => self.steps = left,
                    None => return self.record_stop(id, Kind::BudgetExhausted),
                }
            }
        }
        false
    }

    /// What [`Vm::locate`] needs to know of the errors before a step down: how many
    /// there were, and whether the run had stopped.
    #[inline(always)]
    pub(super) fn located(&self) -> (usize, bool) {
        let stopped = (self.log.explained_ref()).is_some_and(|e| e.stop_error.is_some());
        (self.error_count(), stopped)
    }

    /// Puts `step` in front of the instance location of every error recorded since
    /// `before` (from [`Vm::located`]), the stop's included: on the way out of a failure
    /// each step down adds its token, so the locations come out whole at the root and
    /// nothing is spent on a path while validation succeeds.
    #[inline(always)]
    pub(super) fn locate(&mut self, (errors, stopped): (usize, bool), step: Step<'_>) {
        if !EXPLAIN {
            return;
        }
        let Some(explained) = self.log.explained() else {
            return;
        };
        let new = explained.errors.get_mut(errors..).unwrap_or_default();
        let stop = explained.stop_error.as_mut().filter(|_| !stopped);
        if new.is_empty() && stop.is_none() {
            return;
        }
        let index;
        let token = match step {
            Step::Key(key) => key,
            Step::Index(i) => {
                index = crate::json::pointer::IndexToken::new(i);
                index.as_str()
            }
        };
        for error in new.iter_mut().chain(stop) {
            error.prefix_instance_location(token);
        }
    }
}
