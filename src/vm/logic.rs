//! [`Node::PropertyLogic`]: a formula over which names an object has and leaf checks of
//! their values, settled in one pass over the object (see `compiler::logic`).
//!
//! [`Node::PropertyLogic`]: crate::program::Node::PropertyLogic

use super::leaf;
use super::{Logged, Mode, Vm};
use crate::ids::{Id, NodeId};
use crate::json::view::{ObjectView, View};
use crate::program::{Clause, Node, PropertyLogic};

/// Objects of up to this many keys are walked key by key; larger ones too, unless they
/// have more than this many keys per name the formula reads, which are then looked up
/// one by one.
const WALK_UP_TO: usize = 11;
/// See [`WALK_UP_TO`].
const KEYS_PER_NAME: usize = 6;

/// What one pass found of a formula's names in an object.
struct Found<V> {
    /// Bit `i`: the object has name `i`.
    present: u64,
    /// The values the formula reads, by slot (only those of present names are set).
    values: [V; PropertyLogic::MAX_VALUES],
    /// How many properties the object has.
    count: usize,
}

impl<const EXPLAIN: bool> Vm<'_, EXPLAIN>
where
    Mode<EXPLAIN>: Logged,
{
    /// The verdict of the parts of `table`: on an object in the fast mode, the formula's;
    /// otherwise the parts', as the `All` they were. One level deeper, as every
    /// applicator.
    #[inline(never)]
    pub(super) fn property_logic<'i, V: View<'i>>(
        &mut self,
        id: NodeId,
        instance: V,
        table: Id<PropertyLogic>,
    ) -> bool {
        self.nested(id, |vm| vm.formula(id, instance, table))
    }

    #[inline(always)]
    fn formula<'i, V: View<'i>>(
        &mut self,
        id: NodeId,
        instance: V,
        table: Id<PropertyLogic>,
    ) -> bool {
        let logic = &self.program.property_logic[table];
        let Some(map) = instance.as_object() else {
            return self.all(logic.parts, instance);
        };
        if self.tracking {
            return self.all(logic.parts, instance);
        }
        // A step per key, as for a loop over them, whichever way the names are found.
        if !self.spend(id, map.len()) {
            return false;
        }
        let found = find(logic, instance, map);
        if EXPLAIN {
            return self.explain_parts(logic, instance, &found);
        }
        self.clause(logic, logic.root, &found)
    }

    /// The explaining pass's formula: each part's clause, and the parts whose clauses
    /// fail explained in order, as an `All` would ([`Vm::explain_part`]: as written, but
    /// an `if` by the branch its test's clause picks). The parts that pass
    /// are not walked: they add no error, and where all pass, walking them would cost
    /// steps the fast pass never spent (a budget between the two made `validate` run out
    /// where `is_valid` passed).
    fn explain_parts<'i, V: View<'i>>(
        &mut self,
        logic: &PropertyLogic,
        instance: V,
        found: &Found<V>,
    ) -> bool {
        let parts = &self.program.edges[logic.parts];
        let mut ok = true;
        for (&part, &clause) in parts.iter().zip(&logic.part_clauses) {
            // An `if`'s clause is decided here as `clause` decides it, keeping its
            // test's verdict for the explanation (deciding the test again was a
            // twenty-fifth of explaining a failed `if` part); any other clause by
            // `clause` itself.
            let test = if let Clause::If {
                test,
                then,
                otherwise,
            } = logic.clauses[clause as usize]
            {
                match self.if_clause(logic, test, then, otherwise, found) {
                    (_, true) => continue,
                    (verdict, false) => Some(verdict),
                }
            } else if self.clause(logic, clause, found) {
                continue;
            } else {
                None
            };
            if !self.explain_part(logic, part, clause, test, instance, found) {
                ok = false;
                if !self.keep_going() {
                    break;
                }
            }
        }
        ok
    }

    /// Evaluates `part`, whose clause (`clause`) failed, as written, to say why; but an
    /// `if` whose clause is the `if` of its parts' clauses takes its test's verdict from
    /// the test's clause (`test`, where the caller decided it already), and explains only
    /// the branch that verdict picks (its errors are an `if`'s: a test reports none). The
    /// step and the level of the `if`'s evaluation are paid as `eval` pays them; the
    /// test's, a run over the object, are not (the formula paid a step per key already).
    fn explain_part<'i, V: View<'i>>(
        &mut self,
        logic: &PropertyLogic,
        part: NodeId,
        clause: u32,
        test_verdict: Option<bool>,
        instance: V,
        found: &Found<V>,
    ) -> bool {
        let (
            Node::Condition {
                then, otherwise, ..
            },
            Clause::If {
                test,
                then: then_clause,
                otherwise: otherwise_clause,
            },
        ) = (
            self.program.nodes[part.index()],
            logic.clauses[clause as usize],
        )
        else {
            return self.eval_part(part, instance);
        };
        if self.steps == 0 {
            return self.stop(part);
        }
        self.steps -= 1;
        let verdict = match test_verdict {
            Some(verdict) => verdict,
            None => self.clause(logic, test, found),
        };
        let (branch, branch_clause) = match verdict {
            true => (then, then_clause),
            false => (otherwise, otherwise_clause),
        };
        self.nested(part, |vm| {
            vm.explain_part(logic, branch, branch_clause, None, instance, found)
        })
    }

    /// Whether clause `at` of `logic` holds of what `found` says of the object.
    fn clause<'i, V: View<'i>>(
        &mut self,
        logic: &PropertyLogic,
        at: u32,
        found: &Found<V>,
    ) -> bool {
        let Found {
            present,
            values,
            count,
        } = found;
        match logic.clauses[at as usize] {
            Clause::True => true,
            Clause::False => false,
            Clause::Has(mask) => present & mask == mask,
            Clause::Lacks(mask) => present & mask == 0,
            Clause::Implies { when, then } => present & when == 0 || present & then == then,
            Clause::Count { min, max } => (min as usize..=max as usize).contains(count),
            Clause::Value {
                bit,
                slot,
                node,
                settle,
            } => {
                if present >> bit & 1 == 0 {
                    return true;
                }
                let value = values[usize::from(slot)];
                // A leaf always settles at the call site.
                let (ok, work) =
                    leaf::settled(self.program, settle, node, value).unwrap_or((false, 0));
                self.paid(node, ok, work)
            }
            Clause::Not(inner) => !self.clause(logic, inner, found),
            Clause::All(start, end) => {
                (start..end).all(|edge| self.clause(logic, logic.edges[edge as usize], found))
            }
            Clause::Any(start, end) => {
                (start..end).any(|edge| self.clause(logic, logic.edges[edge as usize], found))
            }
            Clause::One(start, end) => {
                let mut passed = 0;
                for edge in start..end {
                    if self.clause(logic, logic.edges[edge as usize], found) {
                        passed += 1;
                        if passed > 1 {
                            return false;
                        }
                    }
                }
                passed == 1
            }
            Clause::If {
                test,
                then,
                otherwise,
            } => self.if_clause(logic, test, then, otherwise, found).1,
        }
    }

    /// An `if` clause: its test's verdict, and whether the branch that verdict picks
    /// (`then` or `otherwise`) holds, which is the clause's.
    #[inline(always)]
    fn if_clause<'i, V: View<'i>>(
        &mut self,
        logic: &PropertyLogic,
        test: u32,
        then: u32,
        otherwise: u32,
        found: &Found<V>,
    ) -> (bool, bool) {
        let verdict = self.clause(logic, test, found);
        let branch = if verdict { then } else { otherwise };
        (verdict, self.clause(logic, branch, found))
    }
}

/// Which of the names of `logic` `map` has, and the values the formula reads.
#[inline(always)]
fn find<'i, V: View<'i>>(logic: &PropertyLogic, fill: V, map: V::Object) -> Found<V> {
    let mut found = Found {
        present: 0,
        // Slots of absent names are never read: any value fills them.
        values: [fill; PropertyLogic::MAX_VALUES],
        count: map.len(),
    };
    let mut keep = |at: usize, value: V| {
        found.present |= 1 << at;
        if let Some(&slot) = logic
            .slots
            .get(at)
            .filter(|&&s| s != PropertyLogic::NO_SLOT)
        {
            found.values[usize::from(slot)] = value;
        }
    };
    if map.len() <= WALK_UP_TO || map.len() <= KEYS_PER_NAME * logic.names.len() {
        logic.names.each_position(map.iter(), keep);
    } else {
        for (at, name) in logic.names.names().enumerate() {
            if let Some(value) = map.get(name) {
                keep(at, value);
            }
        }
    }
    found
}
