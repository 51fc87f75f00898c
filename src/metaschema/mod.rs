//! Checking a schema against the metaschema its `$schema` names, before it is compiled.
//!
//! A metaschema is a schema like any other: it is compiled into a [`Program`] and run in
//! explaining mode over the schema document, so one check reports every problem with its
//! JSON Pointer. The official metaschemas are compiled once per process (lazily, in a
//! `OnceLock`). A registered custom metaschema is compiled for each build that names it,
//! with the same registered resources, after being checked against its own metaschema
//! in turn (a chain of at most [`MAX_CHAIN`] custom metaschemas).
//!
//! Against an official metaschema, a schema is first walked by [`shapes`], which checks
//! each keyword's shape the way the metaschema does at a fraction of the cost; only a
//! schema that walk cannot vouch for is run through the metaschema program (so the
//! programs of the official metaschemas are built only when one is needed).
//!
//! This module sits above the compiler, which it uses; a `$schema` that names nothing
//! known is left for the compiler to report as an unknown dialect.

use crate::dialect::{self, Draft};
use crate::error::{SchemaError, SchemaErrorKind, ValidationError};
use crate::options::ValidationOptions;
use crate::program::Program;
use crate::uri;
use crate::vm::{self, Limits};
use serde_json::Value;
use std::sync::{Arc, OnceLock};

mod shapes;

/// The most problems one error message lists.
const MAX_LISTED: usize = 10;

/// The longest chain of custom metaschemas checked, each against the next.
const MAX_CHAIN: u32 = 8;

/// Checks `schema` against the metaschema its `$schema` names (or the default draft's);
/// the error lists every problem found.
pub(crate) fn check(schema: &Value, options: &ValidationOptions) -> Result<(), SchemaError> {
    check_chain(schema, options, 0)
}

/// What a schema's `$schema` names.
enum Declared<'o> {
    /// An official draft (or none, so the default one).
    Draft(Draft),
    /// A registered custom metaschema: its URI and document.
    Custom(&'o str, &'o Value),
    /// Nothing known: the compiler reports it.
    Unknown,
}

fn declared<'o>(schema: &Value, options: &'o ValidationOptions) -> Declared<'o> {
    let default = options.draft.unwrap_or_default();
    let Some(Value::String(name)) = schema.get("$schema") else {
        return Declared::Draft(default);
    };
    if let Some(draft) = Draft::from_uri(name) {
        return Declared::Draft(draft);
    }
    let name = uri::split_fragment(name).0;
    options
        .resources
        .iter()
        .find(|(registered, _)| uri::split_fragment(registered).0 == name)
        .map_or(Declared::Unknown, |(registered, document)| {
            Declared::Custom(registered, document)
        })
}

fn check_chain(schema: &Value, options: &ValidationOptions, chain: u32) -> Result<(), SchemaError> {
    match declared(schema, options) {
        Declared::Draft(draft) => check_official(schema, draft),
        Declared::Custom(name, meta) => {
            // A metaschema naming itself, or a chain too long: the compiler refuses the
            // dialect, which it cannot settle either.
            if chain >= MAX_CHAIN || std::ptr::eq(meta, schema) {
                return Ok(());
            }
            let inside = |error: SchemaError| within_metaschema(name, error);
            check_chain(meta, options, chain + 1).map_err(inside)?;
            let meta_options = ValidationOptions {
                format_assertion: Some(false),
                metaschema_check: false,
                ..options.clone()
            };
            let program = crate::compiler::compile(meta, &meta_options).map_err(inside)?;
            report(schema, &program, &format!("the metaschema {name}"))
        }
        Declared::Unknown => Ok(()),
    }
}

/// `error`, found in the custom metaschema registered as `name`, as an error of the
/// schema that uses it.
#[cold]
fn within_metaschema(name: &str, error: SchemaError) -> SchemaError {
    // Locations in a registered document already name it.
    let location = if error.location().contains('#') {
        error.location().to_string()
    } else {
        format!("{}#{}", uri::split_fragment(name).0, error.location())
    };
    SchemaError::new(
        error.kind(),
        &location,
        format!("in the metaschema {name}: {}", error.message()),
    )
}

/// The compiled official metaschema of `draft`, built on first use.
pub(crate) fn official(draft: Draft) -> &'static Arc<Program> {
    static PROGRAMS: [OnceLock<Arc<Program>>; Draft::COUNT] =
        [const { OnceLock::new() }; Draft::COUNT];
    PROGRAMS[draft.index()].get_or_init(|| {
        let uri = dialect::uri_without_fragment(draft);
        let document = dialect::metaschemas()
            .iter()
            .find(|embedded| embedded.uri == uri)
            .map(dialect::Embedded::value)
            .expect("every draft's metaschema is embedded");
        let options = ValidationOptions::default()
            .with_draft(draft)
            .with_format_assertion(false)
            .with_metaschema_check(false);
        let program = crate::compiler::compile(document, &options);
        Arc::new(program.expect("embedded metaschemas compile"))
    })
}

/// Checks `schema` against the official metaschema of `draft`: the walk of [`shapes`]
/// when it can vouch for the schema, else the metaschema program, which explains.
fn check_official(schema: &Value, draft: Draft) -> Result<(), SchemaError> {
    if shapes::conforms(schema, draft) {
        return Ok(());
    }
    let name = format!("the {} metaschema", draft.name());
    report(schema, official(draft), &name)
}

/// The limits a schema is checked against its metaschema within: no step budget (a
/// metaschema's work grows with the schema, which compiling bounds anyway), and as deep
/// as the stack safely allows.
pub(crate) const LIMITS: Limits = Limits {
    max_depth: crate::options::STACK_SAFE_DEPTH,
    max_steps: u64::MAX,
    masked: false,
};

/// Runs `metaschema` (`name` in messages: "the 2020-12 metaschema") over `schema`: `Ok`
/// when it passes, else an error listing the first [`MAX_LISTED`] problems.
fn report(schema: &Value, metaschema: &Program, name: &str) -> Result<(), SchemaError> {
    let limits = LIMITS;
    if vm::is_valid(metaschema, schema, limits) {
        return Ok(());
    }
    let listed = vm::listed_errors(metaschema, schema, limits);
    // One line each: a failed union's closest branch is listed after it.
    let problems: Vec<&ValidationError> = (listed.iter())
        .flat_map(|error| error.lines().map(|(_, line)| line))
        .collect();
    let location = problems
        .first()
        .map(|p| p.instance_location().to_string())
        .unwrap_or_default();
    let mut message = format!("schema is not valid under {name}: ");
    for (i, problem) in problems.iter().take(MAX_LISTED).enumerate() {
        if i > 0 {
            message.push_str("; ");
        }
        let at = match problem.instance_location() {
            "" => "(root)",
            at => at,
        };
        message.push_str(&format!("{at}: {}", problem.message()));
    }
    if problems.len() > MAX_LISTED {
        message.push_str(&format!("; and {} more", problems.len() - MAX_LISTED));
    }
    // A schema too deep to check is too deep to use: say so rather than "invalid".
    let stopped = problems.iter().any(|p| p.kind().is_limit());
    let kind = if stopped {
        SchemaErrorKind::LimitExceeded
    } else {
        SchemaErrorKind::InvalidKeyword
    };
    Err(SchemaError::new(kind, &location, message))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn what_the_walk_refuses_the_program_explains() {
        let invalid = json!({"properties": {"a": {"minLength": "2"}}});
        let error = check_official(&invalid, Draft::Draft202012).unwrap_err();
        assert_eq!(error.kind(), SchemaErrorKind::InvalidKeyword);
        assert_eq!(error.location(), "/properties/a/minLength");
        assert!(
            error.message().contains("the 2020-12 metaschema"),
            "{error}"
        );
        // Valid for draft 7, not for draft 4 (an exclusive bound is a boolean there).
        let bounded = json!({"exclusiveMinimum": 3});
        assert!(check_official(&bounded, Draft::Draft7).is_ok());
        assert!(check_official(&bounded, Draft::Draft4).is_err());
    }
}
