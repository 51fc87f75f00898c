//! A fast JSON Schema validator with hard resource bounds, built for the Model Context
//! Protocol.
//!
//! A schema is compiled once into a flat program of small nodes (every `$ref` resolved
//! to a node id, every regex compiled), and a tight interpreter runs that program
//! against `serde_json::Value`s:
//!
//! ```
//! use serde_json::json;
//! use mcp_jsonschema::Validator;
//!
//! let schema = json!({
//!     "$defs": {"unit": {"enum": ["metric", "imperial"]}},
//!     "type": "object",
//!     "properties": {
//!         "city": {"type": "string", "minLength": 1},
//!         "units": {"$ref": "#/$defs/unit"}
//!     },
//!     "required": ["city"],
//!     "additionalProperties": false
//! });
//! let validator = Validator::new(&schema)?;
//! assert!(validator.is_valid(&json!({"city": "Lima"})));
//!
//! let error = validator.validate(&json!({"city": "Lima", "units": "kelvin"})).unwrap_err();
//! assert_eq!(error.instance_location(), "/units");
//! assert_eq!(error.schema_location(), "/$defs/unit/enum");
//! # Ok::<(), mcp_jsonschema::SchemaError>(())
//! ```
//!
//! Dialects: 2020-12 by default; 2019-09, draft 7, 6 and 4 by `$schema` or
//! [`ValidationOptions::with_draft`]. References resolve only to the document itself,
//! the resources it embeds, resources registered with
//! [`ValidationOptions::with_resource`] and the official metaschemas: the library never
//! performs network or file I/O.
//!
//! Module map, top down: `validator` (and the `mcp` profile) builds on `metaschema`,
//! which checks a schema by compiling and running its metaschema; `compiler` lowers
//! schemas into the `program` arena, reading them through the `registry` of documents,
//! resources and anchors; `vm` runs programs; `json` holds JSON data-model rules
//! (equality, exact numbers, pointers); `dialect` the drafts, vocabularies and embedded
//! metaschemas; `regex` ECMA-262 patterns; `formats` the `format` checkers; `uri`
//! reference resolution.

#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

mod bundle;
mod compiler;
mod dialect;
mod error;
mod evaluation;
mod formats;
mod ids;
mod json;
mod maps;
pub mod mcp;
mod memory;
pub mod meta;
mod metaschema;
mod names;
mod options;
mod program;
mod regex;
mod registry;
mod stack;
mod uri;
mod validator;
mod vm;

pub use bundle::bundle;
pub use dialect::Draft;
pub use error::{
    ErrorDetails, JsonError, MaskedError, SchemaError, SchemaErrorKind, ValidationError,
    ValidationErrorKind,
};
pub use evaluation::{Annotation, Evaluation};
pub use json::text::SyntaxError;
pub use options::{ReferencePolicy, ValidationOptions};
pub use validator::Validator;
