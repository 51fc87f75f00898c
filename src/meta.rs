//! Checking schemas against the official metaschemas, with every problem listed.
//!
//! Compiling a schema checks it against its metaschema too, but reports one error (the
//! problems it lists in its message); these functions give each problem as a
//! [`ValidationError`] with its pointer into the schema, as a schema editor, a linter or
//! a CI check wants them. The metaschemas are the five drafts' official ones, embedded,
//! compiled once per process and shared: nothing is fetched.
//!
//! ```
//! use serde_json::json;
//! use mcp_jsonschema::{meta, Draft};
//!
//! let schema = json!({"type": "strin", "minLength": -1});
//! assert!(!meta::is_valid(&schema));
//! let problems: Vec<String> = meta::iter_errors(&schema)?
//!     .map(|error| error.instance_location().to_string())
//!     .collect();
//! assert!(problems.contains(&"/type".to_string()));
//! assert!(problems.contains(&"/minLength".to_string()));
//!
//! // A schema without `$schema` is read as 2020-12; another draft's metaschema is at hand.
//! let draft4 = json!({"exclusiveMinimum": true, "minimum": 0});
//! assert!(!meta::is_valid(&draft4));
//! assert!(meta::metaschema(Draft::Draft4).is_valid(&draft4));
//! # Ok::<(), mcp_jsonschema::SchemaError>(())
//! ```

use crate::dialect::Draft;
use crate::error::{SchemaError, ValidationError};
use crate::validator::Validator;
use serde_json::Value;
use std::sync::{Arc, OnceLock};

/// The official metaschema of `draft` as a validator, compiled on first use and shared
/// by the whole process. It checks as deep as the stack safely allows and without a step
/// budget, as compiling a schema does.
///
/// ```
/// use serde_json::json;
/// use mcp_jsonschema::{meta, Draft};
/// let draft7 = meta::metaschema(Draft::Draft7);
/// assert!(std::ptr::eq(draft7, meta::metaschema(Draft::Draft7)));
/// assert!(draft7.is_valid(&json!({"type": "string"})));
/// let error = draft7.validate(&json!({"minLength": -1})).unwrap_err();
/// assert_eq!(error.instance_location(), "/minLength");
/// ```
pub fn metaschema(draft: Draft) -> &'static Validator {
    static VALIDATORS: [OnceLock<Validator>; Draft::COUNT] =
        [const { OnceLock::new() }; Draft::COUNT];
    VALIDATORS[draft.index()].get_or_init(|| {
        let program = Arc::clone(crate::metaschema::official(draft));
        Validator::from_program(program, crate::metaschema::LIMITS)
    })
}

/// Whether `schema` is valid under the metaschema of the draft it declares
/// ([`Draft::detect`]; 2020-12 when it declares none). A `$schema` that names no
/// official draft is not valid here: a custom metaschema is the compiler's to check,
/// registered with [`ValidationOptions::with_resource`](crate::ValidationOptions::with_resource).
///
/// ```
/// use serde_json::json;
/// assert!(mcp_jsonschema::meta::is_valid(&json!({"type": "string"})));
/// assert!(!mcp_jsonschema::meta::is_valid(&json!({"type": 12})));
/// assert!(!mcp_jsonschema::meta::is_valid(&json!({"$schema": "urn:mine"})));
/// ```
pub fn is_valid(schema: &Value) -> bool {
    match Draft::detect(schema) {
        Ok(draft) => metaschema(draft.unwrap_or_default()).is_valid(schema),
        Err(_) => false,
    }
}

/// Every error of `schema` under the metaschema of the draft it declares
/// ([`Draft::detect`]; 2020-12 when it declares none), in schema order; none when it is
/// valid. Each error's [`instance_location`](ValidationError::instance_location) is the
/// pointer into `schema`.
///
/// # Errors
///
/// A [`SchemaErrorKind::UnknownDialect`](crate::SchemaErrorKind::UnknownDialect) error
/// when `$schema` is not a string naming an official draft's metaschema.
///
/// ```
/// use serde_json::json;
/// let schema = json!({"$schema": "http://json-schema.org/draft-07/schema#", "required": "a"});
/// let errors: Vec<_> = mcp_jsonschema::meta::iter_errors(&schema)?.collect();
/// assert_eq!(errors.len(), 1);
/// assert_eq!(errors[0].instance_location(), "/required");
///
/// let unknown = mcp_jsonschema::meta::iter_errors(&json!({"$schema": "urn:mine"})).err();
/// assert_eq!(unknown.map(|e| e.location().to_string()).as_deref(), Some("/$schema"));
/// # Ok::<(), mcp_jsonschema::SchemaError>(())
/// ```
pub fn iter_errors(
    schema: &Value,
) -> Result<impl Iterator<Item = ValidationError> + '_, SchemaError> {
    let draft = Draft::detect(schema)?.unwrap_or_default();
    Ok(metaschema(draft).iter_errors(schema))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_error_is_listed_not_only_the_first() {
        let schema = json!({
            "type": "object",
            "properties": {"a": {"type": "strng"}, "b": {"minItems": -1}},
            "required": [1]
        });
        let at: Vec<String> = iter_errors(&schema)
            .unwrap()
            .map(|e| e.instance_location().to_string())
            .collect();
        for expected in [
            "/properties/a/type",
            "/properties/b/minItems",
            "/required/0",
        ] {
            assert!(at.iter().any(|a| a == expected), "{expected} in {at:?}");
        }
    }

    #[test]
    fn each_draft_reads_with_its_own_metaschema() {
        // Boolean exclusiveMinimum is draft 4's, numeric the later drafts'.
        let old = json!({"$schema": "http://json-schema.org/draft-04/schema#", "minimum": 1, "exclusiveMinimum": true});
        let new =
            json!({"$schema": "http://json-schema.org/draft-06/schema#", "exclusiveMinimum": true});
        assert!(is_valid(&old));
        assert!(!is_valid(&new));
        assert!(is_valid(&json!(true)));
        assert!(metaschema(Draft::Draft7).is_valid(&json!({"minimum": 1})));
    }
}
