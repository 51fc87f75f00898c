//! The in-place applicators: `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, annotation-only
//! `if`, dynamic references and scopes, and `dependentSchemas`. Each applies subschemas to
//! the current instance, so each decides which evaluation marks and errors of its branches
//! survive: a failing branch's are dropped, as JSON Schema drops annotations of failed
//! subschemas.

use super::show::show_into;
use super::{Logged, Mode, Vm};
use crate::error::ValidationErrorKind as Kind;
use crate::ids::{NodeId, ScopeId, Span, TableId};
use crate::json::types::TypeSet;
use serde_json::Value;
use std::fmt::Write;

impl<const EXPLAIN: bool> Vm<'_, EXPLAIN>
where
    Mode<EXPLAIN>: Logged,
{
    #[inline(never)]
    pub(super) fn any_of(&mut self, id: NodeId, instance: &Value, span: Span) -> bool {
        let mut any = false;
        let kind = TypeSet::kind(instance);
        for &child in &self.program.edges[span] {
            if !self.program.admits[child.index()].admits(kind) {
                continue;
            }
            let marks = self.marks.len();
            if self.verdict(child, instance) {
                any = true;
                // Annotations of every passing branch count for `unevaluated*`.
                if !self.tracking {
                    break;
                }
            } else {
                self.marks.truncate(marks);
            }
        }
        any || self.no_branch_passed(id, instance, false)
    }

    #[inline(never)]
    pub(super) fn one_of(&mut self, id: NodeId, instance: &Value, span: Span) -> bool {
        let mut passed: Option<usize> = None;
        let kind = TypeSet::kind(instance);
        for (i, &child) in self.program.edges[span].iter().enumerate() {
            // A branch that cannot accept this type of value fails without a trace.
            if !self.program.admits[child.index()].admits(kind) {
                continue;
            }
            let marks = self.marks.len();
            if self.verdict(child, instance) {
                if let Some(first) = passed {
                    return self.two_branches_passed(id, instance, first, i);
                }
                passed = Some(i);
            } else {
                self.marks.truncate(marks);
            }
        }
        passed.is_some() || self.no_branch_passed(id, instance, true)
    }

    /// Records that no branch of an `anyOf` (or, with `one`, a `oneOf`) accepted
    /// `instance`; the branches' own errors are not listed.
    #[cold]
    fn no_branch_passed(&mut self, id: NodeId, instance: &Value, one: bool) -> bool {
        let (kind, keyword) = if one {
            (Kind::OneOf, "oneOf")
        } else {
            (Kind::AnyOf, "anyOf")
        };
        self.fail(id, kind, |out| {
            show_into(out, instance);
            out.push_str(" is not valid under any of the schemas in ");
            out.push_str(keyword);
        })
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
            show_into(out, instance);
            let _ = write!(
                out,
                " is valid under more than one of the schemas in oneOf (#{first} and #{second})"
            );
        })
    }

    /// A discriminated `anyOf` / `oneOf` (see [`crate::program::Switch`]): against an
    /// object, only the branches that may accept it, given its tag (or the lack of one),
    /// are tried; other instances take the general path.
    ///
    /// Both modes try the same candidates with the same budget, so the explaining mode
    /// reaches the fast mode's verdict (see [`super::first_error`]); its error is the
    /// general path's summary, which names no branch.
    #[inline(never)]
    pub(super) fn switch(&mut self, id: NodeId, instance: &Value, table: TableId) -> bool {
        let program = self.program;
        let spec = &program.switches[table];
        let candidates = match instance {
            Value::Object(map) => match map.get(&*spec.property) {
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
            let marks = self.marks.len();
            if self.verdict(branches[position], instance) {
                if let (true, Some(first)) = (spec.one, passed) {
                    return self.two_branches_passed(id, instance, first, position);
                }
                passed = Some(position);
                if !spec.one && !self.tracking {
                    break;
                }
            } else {
                self.marks.truncate(marks);
            }
        }
        passed.is_some() || self.no_branch_passed(id, instance, spec.one)
    }

    #[inline(never)]
    pub(super) fn not(&mut self, id: NodeId, instance: &Value, child: NodeId) -> bool {
        let marks = self.marks.len();
        let tracking = std::mem::replace(&mut self.tracking, false);
        let inner = self.verdict(child, instance);
        self.tracking = tracking;
        self.marks.truncate(marks);
        !inner
            || self.fail(id, Kind::Not, |out| {
                show_into(out, instance);
                out.push_str(" must not be valid under the schema in not");
            })
    }

    #[inline(never)]
    pub(super) fn condition(
        &mut self,
        instance: &Value,
        test: NodeId,
        then: NodeId,
        otherwise: NodeId,
    ) -> bool {
        let marks = self.marks.len();
        let passed = self.verdict(test, instance);
        if passed {
            self.eval(then, instance)
        } else {
            self.marks.truncate(marks);
            self.eval(otherwise, instance)
        }
    }

    #[inline(never)]
    pub(super) fn annotations(&mut self, instance: &Value, test: NodeId) -> bool {
        if self.tracking {
            let marks = self.marks.len();
            if !self.verdict(test, instance) {
                self.marks.truncate(marks);
            }
        }
        true
    }

    #[inline(never)]
    pub(super) fn dynamic_ref(&mut self, instance: &Value, table: TableId) -> bool {
        let program = self.program;
        let dynamic = &program.dynamic_refs[table];
        let name = &program.strings[dynamic.anchor];
        let target = self
            .scopes
            .iter()
            .find_map(|&scope| program.dynamic_anchor(scope, name))
            .unwrap_or(dynamic.target);
        self.eval(target, instance)
    }

    #[inline(never)]
    pub(super) fn scope(&mut self, instance: &Value, scope: ScopeId, body: NodeId) -> bool {
        // A resource already on the scope changes nothing (the outermost entry wins),
        // so each is kept once: the scope's length then tells scopes apart.
        if self.scopes.contains(&scope) {
            return self.eval(body, instance);
        }
        self.scopes.push(scope);
        let ok = self.eval(body, instance);
        self.scopes.pop();
        ok
    }

    #[inline(never)]
    pub(super) fn dependent_schemas(&mut self, instance: &Value, span: Span) -> bool {
        let Value::Object(map) = instance else {
            return true;
        };
        let program = self.program;
        let mut ok = true;
        for &(key, node) in &program.dependent_schemas[span] {
            if map.contains_key(&*program.strings[key]) && !self.eval(node, instance) {
                ok = false;
                if !self.keep_going() {
                    break;
                }
            }
        }
        ok
    }
}
