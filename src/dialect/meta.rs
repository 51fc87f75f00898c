//! Checking a schema against its dialect's metaschema.
//!
//! Each official metaschema is compiled into a [`Program`] once per process (lazily, in a
//! `OnceLock`) and then run in explaining mode over the schema document, so one check
//! reports every problem with its JSON Pointer. A schema in a custom dialect is checked
//! against the standard metaschema of the draft its metaschema builds on.

use super::{metaschemas, Draft};
use crate::error::{SchemaError, SchemaErrorKind, ValidationErrorKind};
use crate::options::ValidationOptions;
use crate::program::Program;
use crate::vm::{self, Limits};
use serde_json::Value;
use std::sync::OnceLock;

/// The most problems one error message lists.
const MAX_LISTED: usize = 10;

/// The compiled metaschema of `draft`.
fn program(draft: Draft) -> &'static Program {
    static PROGRAMS: [OnceLock<Program>; 5] = [const { OnceLock::new() }; 5];
    let slot = match draft {
        Draft::Draft4 => 0,
        Draft::Draft6 => 1,
        Draft::Draft7 => 2,
        Draft::Draft201909 => 3,
        Draft::Draft202012 => 4,
    };
    PROGRAMS[slot].get_or_init(|| {
        let uri = super::uri_without_fragment(draft);
        let document = metaschemas()
            .iter()
            .find(|(name, _)| *name == uri)
            .map(|(_, document)| document)
            .expect("every draft's metaschema is embedded");
        let options = ValidationOptions::default()
            .with_draft(draft)
            .with_format_assertion(false)
            .with_metaschema_check(false);
        crate::compiler::compile(document, &options).expect("embedded metaschemas compile")
    })
}

/// Checks `schema` against the metaschema of `draft`; the error lists every problem.
pub(crate) fn check(schema: &Value, draft: Draft) -> Result<(), SchemaError> {
    let program = program(draft);
    let limits = Limits {
        max_depth: crate::options::STACK_SAFE_DEPTH,
        max_steps: u64::MAX,
    };
    if vm::is_valid(program, schema, limits) {
        return Ok(());
    }
    let problems = vm::all_errors(program, schema, limits);
    let location = problems
        .first()
        .map(|p| p.instance_location().to_string())
        .unwrap_or_default();
    let mut message = format!(
        "schema is not valid under the {} metaschema: ",
        draft.name()
    );
    for (i, problem) in problems.iter().take(MAX_LISTED).enumerate() {
        if i > 0 {
            message.push_str("; ");
        }
        message.push_str(&problem.to_string());
    }
    if problems.len() > MAX_LISTED {
        message.push_str(&format!("; and {} more", problems.len() - MAX_LISTED));
    }
    // A schema too deep to check is too deep to use: say so rather than "invalid".
    let stopped = problems.iter().any(|p| {
        matches!(
            p.kind(),
            ValidationErrorKind::DepthExceeded | ValidationErrorKind::BudgetExhausted
        )
    });
    let kind = if stopped {
        SchemaErrorKind::LimitExceeded
    } else {
        SchemaErrorKind::InvalidKeyword
    };
    Err(SchemaError::new(kind, &location, message))
}
