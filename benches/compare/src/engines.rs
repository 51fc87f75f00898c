//! The three validators behind one small interface: compile a [`Case`]'s schema, ask
//! whether an instance is valid, produce the first error.
//!
//! Every engine gets the same configuration: the case's dialect as the default draft
//! (the schemas declare `$schema` anyway), and `format` asserted exactly when
//! [`Dialect::asserts_formats`] says so.

use crate::cases::{Case, Dialect};
use serde_json::Value;

/// The base URI under which `boon` is given each schema (it needs one; the others do not).
const BOON_URL: &str = "https://mcp-jsonschema.invalid/bench/schema.json";

/// One of the compared validators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// `mcp-jsonschema`, this repository.
    Ours,
    /// The `jsonschema` crate.
    JsonSchema,
    /// The `boon` crate.
    Boon,
}

/// Every engine, in table order.
pub const ENGINES: [Engine; 3] = [Engine::Ours, Engine::JsonSchema, Engine::Boon];

/// A schema compiled by one engine.
pub enum Compiled {
    /// Ours.
    Ours(mcp_jsonschema::Validator),
    /// `jsonschema`'s.
    JsonSchema(jsonschema::Validator),
    /// `boon`'s: the compiled set and the root schema's index in it.
    Boon(boon::Schemas, boon::SchemaIndex),
}

/// What [`Engine::compile`] consumes, made ahead of time so that the timed part is only the
/// compilation: `boon` takes ownership of the schema document, so it gets its own clone.
pub struct Input<'a> {
    case: &'a Case,
    owned: Option<Value>,
}

impl Engine {
    /// The column header.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Ours => "ours",
            Engine::JsonSchema => "jsonschema",
            Engine::Boon => "boon",
        }
    }

    /// The input for one [`Engine::compile`] of `case`.
    pub fn prepare(self, case: &Case) -> Input<'_> {
        let owned = (self == Engine::Boon).then(|| case.schema.clone());
        Input { case, owned }
    }

    /// Compiles the case's schema with this engine's equivalent of the shared options.
    pub fn compile(self, input: Input<'_>) -> Result<Compiled, String> {
        let case = input.case;
        let formats = case.dialect.asserts_formats();
        match self {
            Engine::Ours => {
                let draft = match case.dialect {
                    Dialect::Draft4 => mcp_jsonschema::Draft::Draft4,
                    Dialect::Draft6 => mcp_jsonschema::Draft::Draft6,
                    Dialect::Draft7 => mcp_jsonschema::Draft::Draft7,
                    Dialect::Draft201909 => mcp_jsonschema::Draft::Draft201909,
                    Dialect::Draft202012 => mcp_jsonschema::Draft::Draft202012,
                };
                mcp_jsonschema::Validator::options()
                    .with_draft(draft)
                    .with_format_assertion(formats)
                    .build(&case.schema)
                    .map(Compiled::Ours)
                    .map_err(|e| e.to_string())
            }
            Engine::JsonSchema => {
                let draft = match case.dialect {
                    Dialect::Draft4 => jsonschema::Draft::Draft4,
                    Dialect::Draft6 => jsonschema::Draft::Draft6,
                    Dialect::Draft7 => jsonschema::Draft::Draft7,
                    Dialect::Draft201909 => jsonschema::Draft::Draft201909,
                    Dialect::Draft202012 => jsonschema::Draft::Draft202012,
                };
                jsonschema::options()
                    .with_draft(draft)
                    .should_validate_formats(formats)
                    .build(&case.schema)
                    .map(Compiled::JsonSchema)
                    .map_err(|e| e.to_string())
            }
            Engine::Boon => {
                let draft = match case.dialect {
                    Dialect::Draft4 => boon::Draft::V4,
                    Dialect::Draft6 => boon::Draft::V6,
                    Dialect::Draft7 => boon::Draft::V7,
                    Dialect::Draft201909 => boon::Draft::V2019_09,
                    Dialect::Draft202012 => boon::Draft::V2020_12,
                };
                let mut compiler = boon::Compiler::new();
                compiler.set_default_draft(draft);
                if formats {
                    // Already boon's default up to draft 7; stated for symmetry.
                    compiler.enable_format_assertions();
                }
                let schema = input.owned.unwrap_or_else(|| case.schema.clone());
                compiler
                    .add_resource(BOON_URL, schema)
                    .map_err(|e| e.to_string())?;
                let mut schemas = boon::Schemas::new();
                let index = compiler
                    .compile(BOON_URL, &mut schemas)
                    .map_err(|e| format!("{e:#}"))?;
                Ok(Compiled::Boon(schemas, index))
            }
        }
    }
}

impl Compiled {
    /// Whether `instance` is valid. `boon` has no boolean entry point: its `validate`
    /// builds an error tree on failure, so it pays more than the others on invalid input.
    ///
    /// Each engine's call is a function of its own, so that none pays for another's code:
    /// inlined into this dispatch, one engine's validation gave the dispatch its stack
    /// frame and saved registers, which every engine's call then paid (31 instructions
    /// a call for ours, measured).
    pub fn is_valid(&self, instance: &Value) -> bool {
        match self {
            Compiled::Ours(v) => ours_is_valid(v, instance),
            Compiled::JsonSchema(v) => jsonschema_is_valid(v, instance),
            Compiled::Boon(schemas, index) => boon_is_valid(schemas, *index, instance),
        }
    }

    /// The first error's message for `instance`, `None` when it is valid: what an MCP server
    /// sends back when a tool call's arguments do not conform.
    pub fn first_error(&self, instance: &Value) -> Option<String> {
        match self {
            Compiled::Ours(v) => v.validate(instance).err().map(|e| e.to_string()),
            Compiled::JsonSchema(v) => v.validate(instance).err().map(|e| e.to_string()),
            Compiled::Boon(schemas, index) => schemas
                .validate(instance, *index)
                .err()
                .map(|e| e.to_string()),
        }
    }

    /// The heap size the engine itself reports for the compiled schema, if it has a way to.
    pub fn reported_memory(&self) -> Option<usize> {
        match self {
            Compiled::Ours(v) => Some(v.memory_usage()),
            Compiled::JsonSchema(_) | Compiled::Boon(..) => None,
        }
    }

    /// Checks that our other entry points agree with `is_valid` on `instance`; a
    /// description of the mismatch otherwise. Other engines are not checked.
    pub fn self_check(&self, instance: &Value) -> Option<String> {
        let Compiled::Ours(v) = self else {
            return None;
        };
        let is_valid = v.is_valid(instance);
        let validate = v.validate(instance).is_ok();
        let no_errors = v.iter_errors(instance).next().is_none();
        (is_valid != validate || is_valid != no_errors).then(|| {
            format!("is_valid={is_valid}, validate is Ok={validate}, iter_errors empty={no_errors}")
        })
    }
}

#[inline(never)]
fn ours_is_valid(validator: &mcp_jsonschema::Validator, instance: &Value) -> bool {
    validator.is_valid(instance)
}

#[inline(never)]
fn jsonschema_is_valid(validator: &jsonschema::Validator, instance: &Value) -> bool {
    validator.is_valid(instance)
}

#[inline(never)]
fn boon_is_valid(schemas: &boon::Schemas, index: boon::SchemaIndex, instance: &Value) -> bool {
    schemas.validate(instance, index).is_ok()
}
