//! Arbitrary text as an ECMA-262 `pattern` (and `patternProperties` key): compiling and
//! matching never panic or hang, the two keywords agree, and the text escaped as a
//! literal matches exactly itself.
//!
//! `RUSTC_BOOTSTRAP=1 cargo fuzz run regex -- -timeout=5`
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| mcp_jsonschema_fuzz::invariants::regex_input(data));
