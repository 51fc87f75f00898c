//! Shared code of the `mcp-jsonschema` fuzz targets (see `fuzz/README.md`).
//!
//! * [`gen`]: the structure-aware schema and instance generator, driven here by
//!   `arbitrary::Unstructured` (see [`Case`]).
//! * [`invariants`]: what every input must keep; the fuzz targets call it, and so do
//!   `tests/fuzz_regressions.rs` and `tests/properties.rs`, which include the file
//!   directly (it needs nothing but `mcp_jsonschema` and `serde_json`).

pub mod gen;
pub mod invariants;

use arbitrary::{Arbitrary, Unstructured};
use serde_json::{json, Value};
use std::fmt;

impl gen::Source for Unstructured<'_> {
    fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        self.int_in_range(0..=n - 1).unwrap_or(0)
    }
}

/// One input of the `validate` target: a schema, instances, and the step budget of the
/// budget-monotonicity check.
///
/// An input that starts with `{` is read as a JSON case,
/// `{"schema": ..., "instances": [...], "budget": n}` (the form of the seed corpus made
/// from the official suite and of `fuzz/regressions/validate/`); any other input drives
/// the structure-aware generator ([`gen`]). The `Debug` form is the JSON case, so
/// `cargo fuzz fmt validate <artifact>` turns any crash into a regression file.
pub struct Case {
    /// The schema document.
    pub schema: Value,
    /// Instances to validate against it.
    pub instances: Vec<Value>,
    /// The small step budget (at most [`invariants::REFERENCE_BUDGET`]).
    pub budget: u64,
}

impl<'a> Arbitrary<'a> for Case {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        if u.peek_bytes(1) == Some(b"{") {
            let text = u.bytes(u.len())?;
            return Case::from_json(text).ok_or(arbitrary::Error::IncorrectFormat);
        }
        let budget = u.int_in_range(0..=2_000u64)?;
        let count = u.int_in_range(1..=4usize)?;
        let (schema, instances) = gen::case(u, gen::Config::FUZZ, count);
        Ok(Case {
            schema,
            instances,
            budget,
        })
    }
}

impl Case {
    /// Parses the JSON case form (see [`invariants::parse_case`]).
    pub fn from_json(text: &[u8]) -> Option<Case> {
        let (schema, instances, budget) = invariants::parse_case(text)?;
        Some(Case {
            schema,
            instances,
            budget,
        })
    }

    /// The regression-file form: `{"schema": ..., "instances": [...], "budget": n}`.
    pub fn to_json(&self) -> Value {
        json!({"schema": self.schema, "instances": self.instances, "budget": self.budget})
    }
}

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = serde_json::to_string_pretty(&self.to_json()).map_err(|_| fmt::Error)?;
        f.write_str(&text)
    }
}
