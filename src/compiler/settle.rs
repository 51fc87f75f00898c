//! The last finalize pass: how each loop settles its children.
//!
//! Property tables, `additionalProperties` and `items` apply a child schema to many
//! values. Deciding per value whether that child is a lone `type`, another leaf or a
//! full subschema would cost a dispatch per key or item; this pass decides it once per
//! slot, on the program's final shape, and stores the answer ([`Settle`]) beside the slot.

use super::Compiler;
use crate::program::{Program, Settle};

impl Compiler<'_> {
    /// Fills every `settle` field of the property and items tables (and the cost of each
    /// property, from the same final shape), and the root's.
    pub(crate) fn settle_slots(&mut self) {
        let program = &mut self.program;
        let mut properties = std::mem::take(&mut program.properties);
        let mut items = std::mem::take(&mut program.items);
        let settle = |id: crate::ids::NodeId| Settle::of(program, id);
        for table in &mut properties {
            for (entry, &(_, node)) in table.entries.iter_mut().zip(&table.named) {
                entry.settle = settle(node);
                // Estimated again on the final shape: a reference estimated costly
                // when the table was built may since have become a copy of its target
                // (a string enum, say), which need not wait for the cheap entries.
                entry.cost = program.cost(node);
            }
            table.additional_settle = table.additional.map_or(Settle::Pass, settle);
            table.costly = (table.entries.iter()).any(|entry| entry.cost >= Program::COSTLY);
            table.open = table.patterns.is_empty() && table.additional_settle == Settle::Pass;
        }
        for items in &mut items {
            items.rest_settle = items.rest.map_or(Settle::Pass, settle);
            let prefix = program.edges[items.prefix].iter();
            items.prefix_settle = prefix.map(|&node| settle(node)).collect();
        }
        program.properties = properties;
        program.items = items;
        program.root_settle = match Settle::of(program, program.root) {
            settle @ (Settle::Record(_) | Settle::List(_)) => settle,
            _ => Settle::Eval,
        };
    }
}
