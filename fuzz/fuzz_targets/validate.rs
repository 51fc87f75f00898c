//! Generated schemas (real keywords, `$defs` with recursive references, dynamic
//! references, `unevaluated*`) and instances, checked against every invariant of
//! `mcp_jsonschema_fuzz::invariants::check_case`.
//!
//! `RUSTC_BOOTSTRAP=1 cargo fuzz run validate -- -timeout=10`
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_jsonschema_fuzz::{invariants, Case};

fuzz_target!(|case: Case| invariants::check_case(&case.schema, &case.instances, case.budget));
