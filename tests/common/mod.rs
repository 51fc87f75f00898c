//! What the test targets that run the benchmark cases share: the cases
//! (`benches/common/cases.rs`) and the validator the benchmarks build for each.

#[allow(dead_code)]
#[path = "../../benches/common/cases.rs"]
pub mod cases;

use mcp_jsonschema::{Draft, Validator};

/// The validator the benchmarks build for `case` (its dialect, `format` asserted up to
/// draft 7).
pub fn compile(case: &cases::Case) -> Validator {
    let draft = match case.dialect {
        cases::Dialect::Draft4 => Draft::Draft4,
        cases::Dialect::Draft6 => Draft::Draft6,
        cases::Dialect::Draft7 => Draft::Draft7,
        cases::Dialect::Draft201909 => Draft::Draft201909,
        cases::Dialect::Draft202012 => Draft::Draft202012,
    };
    Validator::options()
        .with_draft(draft)
        .with_format_assertion(case.dialect.asserts_formats())
        .build(&case.schema)
        .unwrap_or_else(|e| panic!("{}: the schema does not compile: {e}", case.name))
}
