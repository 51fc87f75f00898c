//! The Model Context Protocol profile: tool `inputSchema` / `outputSchema` rules,
//! resource bounds, and the `structuredContent` text fallback.
//!
//! MCP (spec release 2026-07-28, SEP-2106) lets tool schemas use all of JSON Schema
//! 2020-12 and asks implementations to keep hostile tool definitions from becoming a CPU
//! or stack denial of service. [`profile`] is that configuration: schema depth 64,
//! 10,000 subschemas, a per-validation step budget, same-document references only, and
//! the dialects MCP servers emit (2020-12 by default; 2019-09, draft-07 and draft-06 when
//! declared). [`ToolSchema`] applies the root rules on top:
//!
//! ```
//! use serde_json::json;
//! use mcp_jsonschema::mcp::ToolSchema;
//!
//! let tool = json!({
//!     "name": "find-by-id-or-name",
//!     "inputSchema": {
//!         "type": "object",
//!         "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
//!         "oneOf": [{"required": ["id"]}, {"required": ["name"]}]
//!     },
//!     "outputSchema": {"type": "array", "items": {"type": "string"}}
//! });
//! let input = ToolSchema::input(&tool["inputSchema"])?;
//! let output = ToolSchema::output(&tool["outputSchema"])?;
//! assert!(input.validate(&json!({"id": 7})).is_ok());
//! assert!(input.validate(&json!({"id": 7, "name": "x"})).is_err());
//! assert!(output.validate(&json!(["a", "b"])).is_ok());
//! assert_eq!(input.to_wire()["$schema"], "https://json-schema.org/draft/2020-12/schema");
//! # Ok::<(), mcp_jsonschema::SchemaError>(())
//! ```

mod cache;
mod fallback;
mod guard;
mod tools;

pub use cache::SchemaCache;
pub use fallback::text_fallback;
pub use guard::{
    Action, Actions, BadOutput, BadSchema, Check, Decision, Guard, GuardOptions, Side, Verdict,
};
pub use tools::{check_tools_list, ToolReport};

use crate::dialect::Draft;
use crate::error::{SchemaError, SchemaErrorKind, ValidationError};
use crate::json::equal::equal;
use crate::options::{ReferencePolicy, ValidationOptions};
use crate::Validator;
use serde_json::{Map, Value};

/// Deepest schema nesting MCP allows (the root is depth 0; 64 is accepted, 65 is not).
pub const MAX_SCHEMA_DEPTH: u32 = 64;
/// Most subschemas one tool schema may hold (10,000 is accepted, 10,001 is not).
pub const MAX_SUBSCHEMAS: u32 = 10_000;
/// Evaluation steps one validation may take under the profile. Measured on this
/// project's benchmark data: the most any legitimate instance needs is about 335,000
/// steps (2 MB of GeoJSON; a 3 MB Kubernetes document against the Swagger 2.0 schema
/// needs 330,000, the 34 jsonschema-benchmark schemas at most 7,700), so a million leaves a
/// threefold margin, while the costliest hostile schemas of `tests/hostile.rs`
/// (exponential `anyOf`/`oneOf` recursion, thousands of `pattern`s over a large
/// instance) stop within about 25 ms here, and collecting their errors (a second run)
/// within 50 ms.
pub const STEP_BUDGET: u64 = 1_000_000;
/// Deepest nesting of evaluations (instance nesting plus reference hops) under the profile.
pub const MAX_EVALUATION_DEPTH: u32 = 256;

/// The dialect URI put on the wire when a tool schema declares none.
const DEFAULT_SCHEMA_URI: &str = "https://json-schema.org/draft/2020-12/schema";

/// The keywords that give an output schema's root a shape of its own; without any of
/// them, the root is an object schema.
const SHAPING_KEYWORDS: [&str; 9] = [
    "type", "$ref", "oneOf", "anyOf", "allOf", "not", "if", "const", "enum",
];

/// The options of the MCP profile (see the module docs). Every setting can still be
/// changed with the usual builder methods.
pub fn profile() -> ValidationOptions {
    let mut options = ValidationOptions::default()
        .with_max_schema_depth(MAX_SCHEMA_DEPTH)
        .with_max_subschemas(MAX_SUBSCHEMAS)
        .with_step_budget(STEP_BUDGET)
        .with_max_instance_depth(MAX_EVALUATION_DEPTH)
        .with_reference_policy(ReferencePolicy::SameDocument)
        .with_format_assertion(false);
    options.unsupported_drafts = &[Draft::Draft4];
    options
}

/// Which side of a tool a schema describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// `inputSchema`: the root must be an object schema with `type: "object"`.
    Input,
    /// `outputSchema`: any schema object; the root becomes an object schema only when
    /// nothing else gives it a shape.
    Output,
}

/// A compiled tool schema under the MCP rules.
#[derive(Clone, Debug)]
pub struct ToolSchema {
    validator: Validator,
    wire: Value,
    role: Role,
}

impl ToolSchema {
    /// Compiles a tool's `inputSchema` under the MCP [`profile`].
    pub fn input(schema: &Value) -> Result<ToolSchema, SchemaError> {
        Self::new(Role::Input, schema, &profile())
    }

    /// Compiles a tool's `outputSchema` under the MCP [`profile`].
    pub fn output(schema: &Value) -> Result<ToolSchema, SchemaError> {
        Self::new(Role::Output, schema, &profile())
    }

    /// Compiles a tool schema for `role` with other options (start from [`profile`]).
    pub fn new(
        role: Role,
        schema: &Value,
        options: &ValidationOptions,
    ) -> Result<ToolSchema, SchemaError> {
        let wire = wire_form(role, schema)?;
        let validator = options.build(&wire)?;
        Ok(ToolSchema {
            validator,
            wire,
            role,
        })
    }

    /// `Ok(())` if `instance` (tool arguments, or `structuredContent`) conforms, else its
    /// first error.
    pub fn validate(&self, instance: &Value) -> Result<(), ValidationError> {
        self.validator.validate(instance)
    }

    /// Whether `instance` conforms.
    pub fn is_valid(&self, instance: &Value) -> bool {
        self.validator.is_valid(instance)
    }

    /// Every error of `instance`, one line each when displayed.
    pub fn iter_errors<'a>(
        &'a self,
        instance: &'a Value,
    ) -> impl Iterator<Item = ValidationError> + 'a {
        self.validator.iter_errors(instance)
    }

    /// The errors of `instance` to show a model or a person, each problem once, as
    /// [`Validator::iter_listed_errors`] gives them: what [`invalid_arguments_text`]
    /// takes.
    pub fn iter_listed_errors<'a>(
        &'a self,
        instance: &'a Value,
    ) -> impl Iterator<Item = ValidationError> + 'a {
        self.validator.iter_listed_errors(instance)
    }

    /// The errors to answer a tool call with, for arguments held as a map, the way SDKs
    /// keep them (rmcp's `Option<JsonObject>`): those of
    /// [`iter_listed_errors`](ToolSchema::iter_listed_errors), each problem once. The
    /// map is not copied: it is moved into a `Value` for the check and moved back, so
    /// `arguments` is unchanged when this returns. Missing arguments (`None`) are
    /// validated as `{}`, as MCP says, and stay `None`.
    ///
    /// ```
    /// use serde_json::{json, Map, Value};
    /// use mcp_jsonschema::mcp::ToolSchema;
    /// let tool = ToolSchema::input(&json!({"required": ["city"]}))?;
    /// let mut arguments: Option<Map<String, Value>> = None;
    /// let errors = tool.arguments_errors(&mut arguments);
    /// assert_eq!(errors[0].to_string(), "(root): missing required property \"city\"");
    /// assert!(arguments.is_none());
    /// let mut arguments = json!({"city": "Oslo"}).as_object().cloned();
    /// assert!(tool.arguments_errors(&mut arguments).is_empty());
    /// assert_eq!(arguments, json!({"city": "Oslo"}).as_object().cloned());
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
    pub fn arguments_errors(
        &self,
        arguments: &mut Option<Map<String, Value>>,
    ) -> Vec<ValidationError> {
        let given = arguments.is_some();
        let value = Value::Object(arguments.take().unwrap_or_default());
        let errors = self.iter_listed_errors(&value).collect();
        if let (Value::Object(map), true) = (value, given) {
            *arguments = Some(map);
        }
        errors
    }

    /// The schema as `tools/list` should carry it: the root-type default applied and
    /// `$schema` set to 2020-12 unless the author declared a dialect.
    pub fn to_wire(&self) -> &Value {
        &self.wire
    }

    /// Which side of the tool this schema describes.
    pub fn role(&self) -> Role {
        self.role
    }

    /// The underlying validator.
    pub fn validator(&self) -> &Validator {
        &self.validator
    }

    /// Approximate heap bytes held: the validator's
    /// ([`Validator::memory_usage`]) and the wire form's.
    ///
    /// ```
    /// use serde_json::json;
    /// use mcp_jsonschema::mcp::ToolSchema;
    /// let tool = ToolSchema::input(&json!({"properties": {"city": {"type": "string"}}}))?;
    /// assert!(tool.memory_usage() > tool.validator().memory_usage());
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
    pub fn memory_usage(&self) -> usize {
        self.validator.memory_usage() + crate::memory::value(&self.wire)
    }
}

/// The text a tool error carries back to the model when a call's arguments do not
/// conform: the tool, then each of `errors` (those of
/// [`ToolSchema::iter_listed_errors`], or of [`ToolSchema::arguments_errors`]) as it
/// displays, each with its hint for the slips models make, as the rmcp integration and
/// the [`Guard`] answer such calls. A failed `anyOf` / `oneOf` is its summary, then its
/// closest branch's errors, indented; an object without the tag of a tagged union, one
/// line naming the tags.
///
/// ```
/// use serde_json::json;
/// use mcp_jsonschema::mcp::{invalid_arguments_text, ToolSchema};
/// let tool = ToolSchema::input(&json!({"properties": {"days": {"type": "integer"}}}))?;
/// let errors: Vec<_> = tool.iter_listed_errors(&json!({"days": "3"})).collect();
/// assert_eq!(
///     invalid_arguments_text("forecast", &errors),
///     "invalid arguments for tool \"forecast\":\n\
///      /days: expected integer, got string \"3\"; send the number itself, not a JSON-encoded string"
/// );
///
/// let draw = ToolSchema::input(&json!({
///     "properties": {"shape": {"oneOf": [
///         {"properties": {"kind": {"const": "circle"}, "radius": {"type": "number"}},
///          "required": ["kind", "radius"]},
///         {"properties": {"kind": {"const": "square"}, "side": {"type": "number"}},
///          "required": ["kind", "side"]}
///     ]}},
///     "required": ["shape"]
/// }))?;
/// let errors: Vec<_> = draw.iter_listed_errors(&json!({"shape": {"side": 2}})).collect();
/// assert_eq!(
///     invalid_arguments_text("draw", &errors),
///     "invalid arguments for tool \"draw\":\n\
///      /shape: missing required property \"kind\": expected one of \"circle\", \"square\""
/// );
/// # Ok::<(), mcp_jsonschema::SchemaError>(())
/// ```
pub fn invalid_arguments_text(tool: &str, errors: &[ValidationError]) -> String {
    let mut text = format!("invalid arguments for tool {tool:?}:");
    for error in errors {
        text.push('\n');
        text.push_str(&error.to_string());
    }
    text
}

/// Applies the root rules of `role` to `schema`.
fn wire_form(role: Role, schema: &Value) -> Result<Value, SchemaError> {
    let name = match role {
        Role::Input => "inputSchema",
        Role::Output => "outputSchema",
    };
    let Value::Object(root) = schema else {
        return Err(SchemaError::new(
            SchemaErrorKind::InvalidKeyword,
            "",
            format!(
                "{name} must be a JSON Schema object, got {}",
                crate::json::types::type_name(schema)
            ),
        ));
    };
    if let (Role::Input, Some(other)) = (role, root.get("type")) {
        if other.as_str() != Some("object") {
            return Err(SchemaError::new(
                SchemaErrorKind::InvalidKeyword,
                "/type",
                format!("inputSchema must have type \"object\", got {other}"),
            ));
        }
    }
    let mut wire: Map<String, Value> = root.clone();
    for (key, value) in added_members(role, root) {
        wire.insert(key.into(), Value::from(value));
    }
    Ok(Value::Object(wire))
}

/// The members [`wire_form`] adds to the root object `root` of a schema in `role`: the
/// root type when nothing gives the root a shape, and the default dialect.
fn added_members(
    role: Role,
    root: &Map<String, Value>,
) -> impl Iterator<Item = (&'static str, &'static str)> {
    let adds_type = match role {
        Role::Input => !root.contains_key("type"),
        Role::Output => !SHAPING_KEYWORDS.iter().any(|k| root.contains_key(*k)),
    };
    let adds_schema = !root.contains_key("$schema");
    let members = [("type", "object"), ("$schema", DEFAULT_SCHEMA_URI)];
    members
        .into_iter()
        .zip([adds_type, adds_schema])
        .filter_map(|(member, added)| added.then_some(member))
}

/// Whether `wire` is what [`wire_form`] makes of `schema` in `role`, members compared
/// as JSON data (key order and number spelling do not matter): how the cache confirms a
/// hit without keeping a second copy of each schema.
fn is_wire_form(role: Role, schema: &Value, wire: &Value) -> bool {
    let (Value::Object(root), Value::Object(wire)) = (schema, wire) else {
        return false;
    };
    let mut members = root.len();
    for (key, value) in added_members(role, root) {
        members += 1;
        if wire.get(key).and_then(Value::as_str) != Some(value) {
            return false;
        }
    }
    wire.len() == members
        && (root.iter()).all(|(key, value)| wire.get(key).is_some_and(|w| equal(value, w)))
}
