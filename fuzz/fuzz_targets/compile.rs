//! Arbitrary bytes, parsed as JSON and compiled as a schema every way the library
//! offers (each dialect, no metaschema check, format assertion, the MCP profile, tool
//! schemas, `check_tools_list`): nothing may panic, hang or overflow the stack.
//!
//! `RUSTC_BOOTSTRAP=1 cargo fuzz run compile -- -timeout=10`
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| mcp_jsonschema_fuzz::invariants::compile_input(data));
