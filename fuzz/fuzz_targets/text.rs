//! Arbitrary bytes as JSON text, validated in place (`is_valid_json`, `validate_json`)
//! against the schema on the input's first line and a few fixed ones: nothing may panic,
//! the text is refused exactly when `serde_json` refuses it, and otherwise the verdict is
//! the parsed value's (see `invariants::text_input`).
//!
//! `RUSTC_BOOTSTRAP=1 cargo fuzz run text -- -timeout=10`
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| mcp_jsonschema_fuzz::invariants::text_input(data));
