//! The in-place applicators: `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, annotation-only
//! `if`, dynamic references and scopes, and `dependentSchemas`. Each applies subschemas to
//! the current instance, so each decides which evaluation marks and errors of its branches
//! survive: a failing branch's are dropped, as JSON Schema drops annotations of failed
//! subschemas.

use super::{leaf, Journal, Logged, Message, Mode, Step, Vm};
use crate::error::{ErrorDetails, ValidationError, ValidationErrorKind as Kind};
use crate::ids::{Id, NodeId, ScopeId, Span};
use crate::json::types::TypeSet;
use crate::json::view::{Json, ObjectView, View};
use crate::program::facts::{self, Tag};
use crate::program::{ByKind, Case, Cases, DynamicRef, Node, Program, Settle, Switch};
use serde_json::Value;
use smallvec::SmallVec;
use std::fmt::Write;

impl<const EXPLAIN: bool> Vm<'_, EXPLAIN>
where
    Mode<EXPLAIN>: Logged,
{
    #[inline(never)]
    pub(super) fn any_of<'i, V: View<'i>>(&mut self, id: NodeId, instance: V, span: Span) -> bool {
        let mut any = false;
        let kind = TypeSet::kind(instance);
        for &child in &self.program.edges[span] {
            if !self.program.admits[child.index()].admits(kind) {
                continue;
            }
            let marks = self.marks_len();
            if self.verdict(child, instance) {
                any = true;
                // Annotations of every passing branch count for `unevaluated*`.
                if !self.tracking && !self.annotating() {
                    break;
                }
            } else {
                self.truncate_marks(marks);
            }
        }
        any || (EXPLAIN && self.no_branch_passed(id, &instance.to_value(), false, span, None))
    }

    #[inline(never)]
    pub(super) fn one_of<'i, V: View<'i>>(&mut self, id: NodeId, instance: V, span: Span) -> bool {
        let mut passed: Option<usize> = None;
        let kind = TypeSet::kind(instance);
        for (i, &child) in self.program.edges[span].iter().enumerate() {
            // A branch that cannot accept this type of value fails without a trace.
            if !self.program.admits[child.index()].admits(kind) {
                continue;
            }
            let marks = self.marks_len();
            if self.verdict(child, instance) {
                if let Some(first) = passed {
                    return EXPLAIN && self.two_branches_passed(id, &instance.to_value(), first, i);
                }
                passed = Some(i);
            } else {
                self.truncate_marks(marks);
            }
        }
        passed.is_some()
            || (EXPLAIN && self.no_branch_passed(id, &instance.to_value(), true, span, None))
    }

    /// Records that no branch of an `anyOf` (or, with `one`, a `oneOf`) accepted
    /// `instance`: the branches in `span` (at `candidates`, the positions a switch tried;
    /// every branch that admits the value's type otherwise) are run again to find the one
    /// that explains the failure best ([`closest`]), whose errors become the error's
    /// context. Collecting every error, each branch's errors follow it.
    #[cold]
    pub(super) fn no_branch_passed(
        &mut self,
        id: NodeId,
        instance: &Value,
        one: bool,
        span: Span,
        candidates: Option<&[u32]>,
    ) -> bool {
        if !EXPLAIN {
            return false;
        }
        let (kind, keyword) = if one {
            (Kind::OneOf, "oneOf")
        } else {
            (Kind::AnyOf, "anyOf")
        };
        let program = self.program;
        let branches = &program.edges[span];
        let admits = |child: NodeId| program.admits[child.index()];
        let value_kind = TypeSet::kind(instance);
        let positions: SmallVec<[usize; 8]> = match candidates {
            Some(tried) if !tried.is_empty() => tried.iter().map(|&p| p as usize).collect(),
            _ => (0..branches.len())
                .filter(|&p| admits(branches[p]).admits(value_kind))
                .collect(),
        };
        if positions.is_empty() {
            // Every branch rejects values of this type: the types they take say it all
            // ("expected integer or null, got boolean true" for an optional integer),
            // as a `type` listing them would, operands included.
            let types = (branches.iter()).fold(TypeSet::NONE, |all, &b| all.union(admits(b)));
            self.reject(id, Node::Type(types), instance);
            return false;
        }
        let log = self.log.explained_ref();
        let (listing, explaining) = (
            log.is_some_and(|e| !e.every_branch),
            log.is_some_and(|e| e.explaining),
        );
        let mut positions = positions;
        if let (true, Value::Object(map), Some(steps)) =
            (listing, instance, self.explanation_steps())
        {
            // Listed for a reader, a union told apart by a tag explains itself by it.
            match tagged(program, span, map, &positions, steps) {
                Tagged::Selects(selected) => positions = selected,
                Tagged::Untagged(tag) => return self.untagged(id, &tag, None),
                Tagged::Unknown(tag, value) => return self.untagged(id, &tag, Some(value)),
                Tagged::No => {}
            }
        }
        // Inside another union's explanation, a union is summed up without one of its
        // own: explaining every level again multiplies the work by the nesting depth
        // (and, collecting every branch's errors, copies contexts once per level). Listed
        // for a reader, the closest branch's own unions are explained too, within the
        // explanations' budget.
        let nested = explaining && !listing;
        let explained = match nested {
            true => None,
            false => self.explain_branches(instance, branches, &positions),
        };
        let best = explained.as_deref().and_then(closest);
        self.fail(id, kind, |out| {
            out.value(&instance.to_value());
            out.push_str(" is not valid under any of the schemas in ");
            out.push_str(keyword);
            if let Some((position, _)) = best {
                let _ = write!(out, "; the closest is #{position}");
            }
        });
        let (Some(mut explained), Some((_, at))) = (explained, best) else {
            return false;
        };
        let keep_all =
            self.keep_going() && self.log.explained_ref().is_some_and(|e| e.every_branch);
        let Some(log) = self.log.explained() else {
            return false;
        };
        // Collecting every error, the branches' errors are listed too, so the context
        // holds copies: one level deep, or nested unions would copy their contexts
        // once per enclosing level (exponential in the nesting). Otherwise the errors
        // move, nested explanations and all.
        let context = if keep_all {
            explained[at]
                .1
                .iter()
                .map(ValidationError::without_context)
                .collect()
        } else {
            std::mem::take(&mut explained[at].1)
        };
        if let Some(summary) = log.errors.last_mut() {
            summary.set_context(context);
        }
        if keep_all {
            log.errors
                .extend(explained.into_iter().flat_map(|(_, errors)| errors));
        }
        false
    }

    /// The errors of each branch at `positions`, run again in the explaining mode, every
    /// error collected: `None` when the explanations' own budget (`EXPLANATION_STEPS`,
    /// shared by every explanation of the run) ran out, or the run had stopped.
    /// The verdict is already known, so a stop here ends the explanation, not the run.
    fn explain_branches(
        &mut self,
        instance: &Value,
        branches: &[NodeId],
        positions: &[usize],
    ) -> Option<Vec<(usize, Vec<ValidationError>)>> {
        if self.stopped.is_some() {
            return None;
        }
        // The outermost explanation swaps the run's budget for the explanations' and
        // back; one nested in it (listing for a reader, see `no_branch_passed`) goes on
        // with the budget in use.
        let log = self.log.explained()?;
        let exhaustive = std::mem::replace(&mut log.exhaustive, true);
        let outer = !std::mem::replace(&mut log.explaining, true);
        let steps = match outer {
            true => std::mem::replace(&mut self.steps, log.explanation_steps),
            false => self.steps,
        };
        let tracking = std::mem::replace(&mut self.tracking, false);
        let marks = self.marks_len();
        let mut explained = Vec::with_capacity(positions.len());
        for &position in positions {
            let before = self.error_count();
            self.eval(branches[position], instance);
            let log = self.log.explained()?;
            explained.push((position, log.errors.drain(before..).collect()));
            if self.stopped.is_some() {
                break;
            }
        }
        self.tracking = tracking;
        self.truncate_marks(marks);
        let log = self.log.explained()?;
        log.exhaustive = exhaustive;
        log.explaining = !outer;
        if outer {
            log.explanation_steps = self.steps;
            self.steps = steps;
        }
        if self.stopped.take().is_some() {
            log.stop_error = None;
            return None;
        }
        Some(explained)
    }

    /// Records that branches `first` and `second` of a `oneOf` both accepted `instance`.
    #[cold]
    fn two_branches_passed(
        &mut self,
        id: NodeId,
        instance: &Value,
        first: usize,
        second: usize,
    ) -> bool {
        self.fail(id, Kind::OneOf, |out| {
            out.value(&instance.to_value());
            let _ = write!(
                out,
                " is valid under more than one of the schemas in oneOf (#{first} and #{second})"
            );
        })
    }

    /// Records that `instance`, an object, lacks the property `tag` tells a union's
    /// branches apart by (`found` is `None`), or has one no branch takes (`found`): one
    /// error naming the values the branches take, where a listing of every branch's
    /// errors would say the same thing once per branch.
    #[cold]
    fn untagged(&mut self, id: NodeId, tag: &Tag<'_>, found: Option<&Value>) -> bool {
        // The messages are written from the tag's strings; only the details of a wrong
        // tag hold them as values.
        let tags = tag.values();
        let before = self.located();
        match found {
            // Its details are read from the message, which names the tag.
            None => self.fail_with(id, Kind::Required, None, |out| {
                out.missing_property(tag.property);
                out.push_str(": ");
                leaf::one_of(out, tags.iter().copied(), Message::operand_text);
            }),
            Some(value) => {
                let details = ErrorDetails::Enum {
                    options: tags.iter().copied().map(Value::from).collect(),
                };
                self.fail_with(id, Kind::Enum, Some(details), |out| {
                    leaf::not_one_of(out, tags.iter().copied(), Message::operand_text, value)
                });
                self.locate(before, Step::Key(tag.property));
            }
        }
        false
    }

    /// A discriminated `anyOf` / `oneOf` (see [`crate::program::Switch`]): against an
    /// object, only the branches that may accept it, given its tag (or the lack of one),
    /// are tried; other instances take the general path.
    ///
    /// Both modes try the same candidates with the same budget, so the explaining mode
    /// reaches the fast mode's verdict (see [`super::first_error`]); its error is the
    /// general path's summary, which names no branch.
    #[inline(never)]
    pub(super) fn switch<'i, V: View<'i>>(
        &mut self,
        id: NodeId,
        instance: V,
        table: Id<Switch>,
    ) -> bool {
        let program = self.program;
        let spec = &program.switches[table];
        let candidates = match instance.json() {
            Json::Object(map) => match map.get(&spec.property) {
                Some(tag) => spec.case(tag),
                None => &spec.absent,
            },
            _ => {
                return if spec.one {
                    self.one_of(id, instance, spec.branches)
                } else {
                    self.any_of(id, instance, spec.branches)
                };
            }
        };
        let branches = &program.edges[spec.branches];
        let mut passed: Option<usize> = None;
        for &position in candidates {
            let position = position as usize;
            let marks = self.marks_len();
            if self.branch_verdict(id, branches[position], spec.settles[position], instance) {
                if let (true, Some(first)) = (spec.one, passed) {
                    return EXPLAIN
                        && self.two_branches_passed(id, &instance.to_value(), first, position);
                }
                passed = Some(position);
                if !spec.one && !self.tracking && !self.annotating() {
                    break;
                }
            } else {
                self.truncate_marks(marks);
            }
        }
        passed.is_some()
            || (EXPLAIN
                && self.no_branch_passed(
                    id,
                    &instance.to_value(),
                    spec.one,
                    spec.branches,
                    Some(candidates),
                ))
    }

    /// The verdict of a union's `branch` on `instance`, settled as the compiler decided
    /// (as a loop settles a child, but at this location, hence no step down), in either
    /// mode alike (so with the same budget), its errors discarded; where evaluations are
    /// marked, or annotations kept, evaluated in full.
    #[inline(always)]
    fn branch_verdict<'i, V: View<'i>>(
        &mut self,
        id: NodeId,
        branch: NodeId,
        settle: Settle,
        instance: V,
    ) -> bool {
        let here = Step::Index(0);
        if self.tracking || self.annotating() {
            self.verdict(branch, instance)
        } else if EXPLAIN {
            self.quietly(id, |fast| fast.settle(branch, settle, instance, here))
        } else {
            self.settle(branch, settle, instance, here)
        }
    }

    /// A [`crate::program::ByKind`] union: the branch of the value's kind decides.
    #[inline(never)]
    pub(super) fn by_kind<'i, V: View<'i>>(
        &mut self,
        id: NodeId,
        instance: V,
        table: Id<ByKind>,
    ) -> bool {
        let spec = &self.program.by_kinds[table];
        let kind = TypeSet::kind_index(instance);
        if let Some(branch) = spec.by_kind[kind] {
            let marks = self.marks_len();
            if self.branch_verdict(id, branch, spec.settles[kind], instance) {
                return true;
            }
            self.truncate_marks(marks);
        }
        EXPLAIN && self.no_branch_passed(id, &instance.to_value(), spec.one, spec.branches, None)
    }

    /// [`Vm::by_kind`] as [`Vm::nest`] runs it in the fast mode (no marks, no
    /// annotations, steps left), in the loop that settles the union: the branch of the
    /// value's kind settled as [`Vm::settle`] would, a leaf in place (the `null` of an
    /// optional field) and a record or list by its table, without a call to `by_kind`
    /// and a second dispatch there. Out of line: inlined, it grows every properties loop
    /// (1-3% more instructions on most warm cases, measured).
    #[inline(never)]
    pub(super) fn union_in_place<'i, V: View<'i>>(&mut self, value: V, table: Id<ByKind>) -> bool {
        let spec = &self.program.by_kinds[table];
        let kind = TypeSet::kind_index(value);
        let Some(branch) = spec.by_kind[kind] else {
            return false;
        };
        let (settle, here) = (spec.settles[kind], Step::Index(0));
        match leaf::settled(self.program, settle, branch, value) {
            Some((ok, work)) => self.leaf_paid(branch, ok, work, here),
            None if self.steps == 0 => self.descend(branch, value, here),
            None => self.run_table(branch, settle, value, here),
        }
    }

    #[inline(never)]
    pub(super) fn not<'i, V: View<'i>>(&mut self, id: NodeId, instance: V, child: NodeId) -> bool {
        let marks = self.marks_len();
        let tracking = std::mem::replace(&mut self.tracking, false);
        let inner = self.verdict(child, instance);
        self.tracking = tracking;
        self.truncate_marks(marks);
        !inner
            || self.fail(id, Kind::Not, |out| {
                out.value(&instance.to_value());
                out.push_str(" must not be valid under the schema in not");
            })
    }

    #[inline(never)]
    pub(super) fn condition<'i, V: View<'i>>(
        &mut self,
        instance: V,
        test: NodeId,
        then: NodeId,
        otherwise: NodeId,
    ) -> bool {
        let depth = self.depth;
        let ok = self.chain(instance, test, then, otherwise);
        self.depth = depth;
        ok
    }

    /// [`Vm::condition`] along a chain of `if`s, each the `else` of the one before (an
    /// `else if`): in the fast mode each link runs in this loop rather than through
    /// [`Vm::eval`], a call and a dispatch less per link, with the step and the level an
    /// evaluation takes (the caller restores the depth).
    #[inline(always)]
    fn chain<'i, V: View<'i>>(
        &mut self,
        instance: V,
        test: NodeId,
        then: NodeId,
        otherwise: NodeId,
    ) -> bool {
        let (mut test, mut then, mut otherwise) = (test, then, otherwise);
        let mut looked = None;
        loop {
            let marks = self.marks_len();
            let passed = match instance.json() {
                Json::Object(map) if !EXPLAIN => self.link_test(test, instance, map, &mut looked),
                _ => self.verdict(test, instance),
            };
            if passed {
                return self.eval(then, instance);
            }
            self.truncate_marks(marks);
            let Node::Condition {
                test: next_test,
                then: next_then,
                otherwise: next_otherwise,
            } = self.program.nodes[otherwise.index()]
            else {
                return self.eval(otherwise, instance);
            };
            if EXPLAIN || self.tracking {
                return self.eval(otherwise, instance);
            }
            // What `eval` would do: a step, then a level.
            if self.steps == 0 {
                return self.stop(otherwise);
            }
            self.steps -= 1;
            if self.no_level_below() {
                return self.stop(otherwise);
            }
            self.depth += 1;
            (test, then, otherwise) = (next_test, next_then, next_otherwise);
        }
    }

    /// [`Node::Cases`]: the branch the chain would take, looked up, a step paid for each
    /// link the chain tests to reach it; where evaluations are marked (the tests' marks
    /// count), the chain as written. Both modes look up alike, so they spend alike, and
    /// the errors are the branch's: a chain's tests report none.
    #[inline(never)]
    pub(super) fn cases<'i, V: View<'i>>(
        &mut self,
        id: NodeId,
        instance: V,
        table: Id<Cases>,
    ) -> bool {
        let cases = &self.program.cases[table];
        if self.tracking {
            return self.condition(instance, cases.test, cases.then, cases.otherwise);
        }
        let case = match instance.json() {
            Json::Object(map) => match map.get(&cases.property) {
                Some(value) => cases.case(value),
                None => cases.absent,
            },
            _ => Case {
                node: cases.then,
                links: 1,
            },
        };
        self.spend(id, case.links as usize) && self.eval(case.node, instance)
    }

    #[inline(never)]
    pub(super) fn annotations<'i, V: View<'i>>(&mut self, instance: V, test: NodeId) -> bool {
        if self.tracking || self.annotating() {
            let marks = self.marks_len();
            if !self.verdict(test, instance) {
                self.truncate_marks(marks);
            }
        }
        true
    }

    #[inline(never)]
    pub(super) fn dynamic_ref<'i, V: View<'i>>(
        &mut self,
        instance: V,
        table: Id<DynamicRef>,
    ) -> bool {
        let program = self.program;
        let dynamic = &program.dynamic_refs[table];
        let name = &program.strings[dynamic.anchor];
        let target = self
            .scopes()
            .iter()
            .find_map(|&scope| program.dynamic_anchor(scope, name))
            .unwrap_or(dynamic.target);
        self.eval(target, instance)
    }

    #[inline(never)]
    pub(super) fn scope<'i, V: View<'i>>(
        &mut self,
        instance: V,
        scope: ScopeId,
        body: NodeId,
    ) -> bool {
        // A resource already on the scope changes nothing (the outermost entry wins),
        // so each is kept once: the scope's length then tells scopes apart.
        if self.scopes().contains(&scope) {
            return self.eval(body, instance);
        }
        self.stacks().scopes.push(scope);
        let ok = self.eval(body, instance);
        self.stacks().scopes.pop();
        ok
    }

    #[inline(never)]
    pub(super) fn dependent_schemas<'i, V: View<'i>>(&mut self, instance: V, span: Span) -> bool {
        let Some(map) = instance.as_object() else {
            return true;
        };
        let program = self.program;
        let mut ok = true;
        for &(key, node) in &program.dependent_schemas[span] {
            if map.get(&program.strings[key]).is_some() && !self.eval(node, instance) {
                ok = false;
                if !self.keep_going() {
                    break;
                }
            }
        }
        ok
    }
}

/// What the tag of a union (see [`Tag`]) says of an object it rejected.
enum Tagged<'p, 'i> {
    /// The union has no tag.
    No,
    /// The object lacks the tag.
    Untagged(Tag<'p>),
    /// The object's tag is a value no branch takes.
    Unknown(Tag<'p>, &'i Value),
    /// The positions, among `positions`, of the branches that take the object's tag.
    Selects(SmallVec<[usize; 8]>),
}

/// What the tag of the union of `branches` says of `map`, which no branch at
/// `positions` accepted; finding the tag spends `steps` (see [`facts::tag`]).
fn tagged<'p, 'i>(
    program: &'p Program,
    branches: Span,
    map: &'i serde_json::Map<String, Value>,
    positions: &[usize],
    steps: &mut u64,
) -> Tagged<'p, 'i> {
    let Some(tag) = facts::tag(program, branches, steps) else {
        return Tagged::No;
    };
    let Some(value) = crate::json::object::get(map, tag.property) else {
        return Tagged::Untagged(tag);
    };
    let selected: SmallVec<[usize; 8]> = match value.as_str() {
        Some(text) => (positions.iter().copied())
            .filter(|&position| tag.selects(position, text))
            .collect(),
        None => SmallVec::new(),
    };
    match selected.is_empty() {
        true => Tagged::Unknown(tag, value),
        false => Tagged::Selects(selected),
    }
}

/// The branch that explains an `anyOf` / `oneOf` failure best, among branches and their
/// errors: one whose errors do not include a `const` / `enum` failing on a property of
/// the value (the tag that selects a branch, in discriminated unions), then the one
/// that failed deepest in the instance, then the one with the fewest errors; the first
/// of equals. Returns its position in the `anyOf` and its index in `branches`.
fn closest(branches: &[(usize, Vec<ValidationError>)]) -> Option<(usize, usize)> {
    let depth = |error: &ValidationError| error.instance_location().matches('/').count();
    let rank = |errors: &[ValidationError]| {
        let tag_rejected = errors
            .iter()
            .any(|e| matches!(e.kind(), Kind::Const | Kind::Enum) && depth(e) == 1);
        let deepest = errors.iter().map(depth).max().unwrap_or(0);
        (!tag_rejected, deepest, std::cmp::Reverse(errors.len()))
    };
    let mut best: Option<(usize, usize)> = None;
    for (at, (position, errors)) in branches.iter().enumerate() {
        if best.is_none_or(|(_, b)| rank(errors) > rank(&branches[b].1)) {
            best = Some((*position, at));
        }
    }
    best
}
