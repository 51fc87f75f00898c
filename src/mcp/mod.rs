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
//!
//! Around it: [`check_tools_list`] checks every schema of a `tools/list` result,
//! [`SchemaCache`] keeps compiled tool schemas for servers and gateways that see the
//! same tools again, [`Guard`] validates the tool calls and results of a whole session
//! between a client and a server, and [`text_fallback`] writes the text block that goes
//! beside `structuredContent`.

mod cache;
mod fallback;
mod guard;
mod tools;

pub use cache::SchemaCache;
pub use fallback::text_fallback;
pub use guard::{
    Action, Actions, BadOutput, BadSchema, Check, Decision, Guard, GuardOptions, Side, Unlisted,
    Verdict,
};
pub use tools::{check_tools_list, ToolReport};

use crate::dialect::Draft;
use crate::error::{SchemaError, SchemaErrorKind, ValidationError};
use crate::json::equal::equal;
use crate::options::{ReferencePolicy, ValidationOptions};
use crate::Validator;
use serde_json::{Map, Value};

/// Deepest schema nesting MCP allows (the root is depth 0; 64 is accepted, 65 is not).
/// See the example on [`profile`].
pub const MAX_SCHEMA_DEPTH: u32 = 64;
/// Most subschemas one tool schema may hold (10,000 is accepted, 10,001 is not).
/// See the example on [`profile`].
pub const MAX_SUBSCHEMAS: u32 = 10_000;
/// Evaluation steps one validation may take under the profile. Measured on this
/// project's benchmark data: the most any legitimate instance needs is about 335,000
/// steps (2 MB of GeoJSON; a 3 MB Kubernetes document against the Swagger 2.0 schema
/// needs 330,000, the 34 jsonschema-benchmark schemas at most 7,700), so a million leaves a
/// threefold margin, while the costliest hostile schemas of `tests/hostile.rs`
/// (exponential `anyOf`/`oneOf` recursion, thousands of `pattern`s over a large
/// instance) stop within about 25 ms here, and collecting their errors (a second run)
/// within 50 ms. See the example on [`profile`].
pub const STEP_BUDGET: u64 = 1_000_000;
/// Deepest nesting of evaluations (instance nesting plus reference hops) under the profile.
/// See the example on [`profile`].
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
///
/// ```
/// use serde_json::{json, Map, Value};
/// use mcp_jsonschema::{mcp, SchemaErrorKind, ValidationErrorKind};
/// let options = mcp::profile();
///
/// // Same-document references only, and no draft 4.
/// let err = options.build(&json!({"$ref": "https://example.com/s.json"})).unwrap_err();
/// assert_eq!(err.kind(), SchemaErrorKind::ForbiddenReference);
/// let err = options.build(&json!({"$schema": "http://json-schema.org/draft-04/schema#"})).unwrap_err();
/// assert_eq!(err.kind(), SchemaErrorKind::UnknownDialect);
///
/// // Subschemas nested at most `MAX_SCHEMA_DEPTH` below the root, and at most
/// // `MAX_SUBSCHEMAS` of them, the root included.
/// let deep = |depth| (0..depth).fold(json!(true), |inner, _| json!({"properties": {"a": inner}}));
/// assert!(options.build(&deep(mcp::MAX_SCHEMA_DEPTH)).is_ok());
/// let err = options.build(&deep(mcp::MAX_SCHEMA_DEPTH + 1)).unwrap_err();
/// assert_eq!(err.kind(), SchemaErrorKind::LimitExceeded);
/// let wide = |count: u32| {
///     let properties: Map<String, Value> = (1..count).map(|i| (i.to_string(), json!(true))).collect();
///     json!({"properties": properties})
/// };
/// assert!(options.build(&wide(mcp::MAX_SUBSCHEMAS)).is_ok());
/// let err = options.build(&wide(mcp::MAX_SUBSCHEMAS + 1)).unwrap_err();
/// assert_eq!(err.kind(), SchemaErrorKind::LimitExceeded);
///
/// // Validation stops `MAX_EVALUATION_DEPTH` evaluations deep, or after `STEP_BUDGET`
/// // steps: a stop is never a pass.
/// let recursive = options.build(&json!({"items": {"$ref": "#"}}))?;
/// let nested = |depth| (0..depth).fold(json!([]), |inner, _| Value::Array(vec![inner]));
/// assert!(recursive.is_valid(&nested(10)));
/// let error = recursive.validate(&nested(2 * mcp::MAX_EVALUATION_DEPTH)).unwrap_err();
/// assert_eq!(error.kind(), ValidationErrorKind::DepthExceeded);
///
/// let schema = json!({"items": {"type": "integer"}});
/// let instance = json!(vec![1; 1000]);
/// assert!(options.build(&schema)?.is_valid(&instance));
/// let tight = mcp::profile().with_step_budget(mcp::STEP_BUDGET / 100_000).build(&schema)?;
/// let error = tight.validate(&instance).unwrap_err();
/// assert_eq!(error.kind(), ValidationErrorKind::BudgetExhausted);
/// # Ok::<(), mcp_jsonschema::SchemaError>(())
/// ```
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

/// A tool schema that spans documents made into one the MCP profile accepts: every
/// document its references reach (registered in `options`, as for compiling) embedded
/// under its `$defs`, and every reference rewritten to a same-document JSON Pointer
/// (`#/$defs/address.json/properties/city`), the identifiers that would change what
/// such a pointer means removed. The result compiles under [`profile`] (with the draft
/// `options` set, if any), which is checked.
///
/// ```
/// use serde_json::json;
/// let options = mcp_jsonschema::Validator::options()
///     .with_base_uri("file:///tools/order.json")
///     .with_resource("file:///tools/address.json", json!({
///         "$id": "https://example.com/address.json",
///         "type": "object",
///         "properties": {"city": {"$anchor": "city", "type": "string"}}
///     }));
/// let schema = json!({"type": "object", "properties": {
///     "to": {"$ref": "address.json"},
///     "city": {"$ref": "https://example.com/address.json#city"}
/// }});
/// let bundled = mcp_jsonschema::mcp::bundle(&schema, &options)?;
/// assert_eq!(bundled["properties"]["to"]["$ref"], "#/$defs/address.json");
/// assert_eq!(bundled["properties"]["city"]["$ref"], "#/$defs/address.json/properties/city");
/// assert!(mcp_jsonschema::mcp::ToolSchema::input(&bundled).is_ok());
/// # Ok::<(), mcp_jsonschema::SchemaError>(())
/// ```
///
/// # Errors
///
/// What [`bundle`](crate::bundle()) reports; a
/// [`SchemaErrorKind::ForbiddenReference`] for a dynamic reference (`$dynamicRef`,
/// `$recursiveRef`) in a schema that spans resources, whose target a pointer cannot fix;
/// an [`SchemaErrorKind::UnknownDialect`] for a document in another dialect than the
/// schema's; and whatever keeps the result from compiling under the profile (its bounds,
/// [`SchemaErrorKind::LimitExceeded`]; draft 4, [`SchemaErrorKind::UnknownDialect`]).
pub fn bundle(schema: &Value, options: &ValidationOptions) -> Result<Value, SchemaError> {
    let bundled = crate::bundle::bundle_same_document(schema, options)?;
    let mut profile = profile();
    if let Some(draft) = options.draft {
        profile = profile.with_draft(draft);
    }
    profile.build(&bundled)?;
    Ok(bundled)
}

/// Which side of a tool a schema describes. See the example on [`ToolSchema`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// `inputSchema`: the root must be an object schema with `type: "object"`.
    Input,
    /// `outputSchema`: any schema object; the root becomes an object schema only when
    /// nothing else gives it a shape.
    Output,
}

/// A compiled tool schema under the MCP rules.
///
/// ```
/// use serde_json::json;
/// use mcp_jsonschema::mcp::{Role, ToolSchema};
/// let schema = json!({"properties": {"days": {"type": "integer", "minimum": 1}}, "required": ["days"]});
/// let tool = ToolSchema::input(&schema)?;
/// assert_eq!(tool.role(), Role::Input);
/// assert_eq!(tool.to_wire(), &json!({
///     "$schema": "https://json-schema.org/draft/2020-12/schema",
///     "type": "object",
///     "properties": {"days": {"type": "integer", "minimum": 1}},
///     "required": ["days"]
/// }));
/// assert!(tool.is_valid(&json!({"days": 3})));
/// let errors: Vec<String> = tool.iter_errors(&json!({"days": "3"})).map(|e| e.to_string()).collect();
/// assert_eq!(errors, [
///     "/days: expected integer, got string \"3\"; send the number itself, not a JSON-encoded string"
/// ]);
/// // The validator runs the wire form, root type included.
/// assert!(!tool.validator().is_valid(&json!([])));
/// # Ok::<(), mcp_jsonschema::SchemaError>(())
/// ```
#[derive(Clone, Debug)]
pub struct ToolSchema {
    validator: Validator,
    wire: Value,
    role: Role,
}

impl ToolSchema {
    /// Compiles a tool's `inputSchema` under the MCP [`profile`]. Its root must be an
    /// object schema: `type: "object"` is added when the root has no `type`.
    ///
    /// ```
    /// use serde_json::json;
    /// use mcp_jsonschema::{mcp::ToolSchema, SchemaErrorKind};
    /// let tool = ToolSchema::input(&json!({"properties": {"city": {"type": "string"}}}))?;
    /// assert_eq!(tool.to_wire()["type"], "object");
    /// assert!(!tool.is_valid(&json!("Oslo")));
    ///
    /// let err = ToolSchema::input(&json!({"type": "string"})).unwrap_err();
    /// assert_eq!(err.kind(), SchemaErrorKind::InvalidKeyword);
    /// assert_eq!(err.location(), "/type");
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`InvalidKeyword`](SchemaErrorKind::InvalidKeyword) at the root when `schema` is
    /// not a JSON object (`true` included), and at `/type` when the root's `type` is not
    /// `"object"`; then whatever keeps the schema from compiling under the profile
    /// ([`ValidationOptions::build`]): a reference out of the document
    /// ([`ForbiddenReference`](SchemaErrorKind::ForbiddenReference)), draft 4 or an
    /// unknown dialect ([`UnknownDialect`](SchemaErrorKind::UnknownDialect)), more than
    /// [`MAX_SCHEMA_DEPTH`] levels or [`MAX_SUBSCHEMAS`] subschemas
    /// ([`LimitExceeded`](SchemaErrorKind::LimitExceeded)), and the errors of
    /// [`Validator::new`].
    pub fn input(schema: &Value) -> Result<ToolSchema, SchemaError> {
        Self::new(Role::Input, schema, &profile())
    }

    /// Compiles a tool's `outputSchema` under the MCP [`profile`]. Its root may be any
    /// schema object; it becomes an object schema (`type: "object"` added) only when
    /// none of `type`, `$ref`, `oneOf`, `anyOf`, `allOf`, `not`, `if`, `const` and `enum`
    /// gives it a shape.
    ///
    /// ```
    /// use serde_json::json;
    /// use mcp_jsonschema::{mcp::ToolSchema, SchemaErrorKind};
    /// let list = ToolSchema::output(&json!({"type": "array", "items": {"type": "string"}}))?;
    /// assert!(list.is_valid(&json!(["a", "b"])));
    /// let either = ToolSchema::output(&json!({"anyOf": [{"type": "string"}, {"type": "integer"}]}))?;
    /// assert!(either.is_valid(&json!(7)));
    /// let record = ToolSchema::output(&json!({"properties": {"n": {"type": "integer"}}}))?;
    /// assert_eq!(record.to_wire()["type"], "object");
    /// assert!(!record.is_valid(&json!(7)));
    ///
    /// let err = ToolSchema::output(&json!(true)).unwrap_err();
    /// assert_eq!(err.kind(), SchemaErrorKind::InvalidKeyword);
    /// assert_eq!(err.location(), "");
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`InvalidKeyword`](SchemaErrorKind::InvalidKeyword) at the root when `schema` is
    /// not a JSON object (`true` included); then those of [`ToolSchema::input`] that
    /// come from compiling under the profile.
    pub fn output(schema: &Value) -> Result<ToolSchema, SchemaError> {
        Self::new(Role::Output, schema, &profile())
    }

    /// Compiles a tool schema for `role` with other options (start from [`profile`]).
    ///
    /// ```
    /// use serde_json::json;
    /// use mcp_jsonschema::mcp::{self, Role, ToolSchema};
    /// let options = mcp::profile().with_format_assertion(true);
    /// let schema = json!({"properties": {"email": {"type": "string", "format": "email"}}});
    /// let tool = ToolSchema::new(Role::Input, &schema, &options)?;
    /// assert!(tool.is_valid(&json!({"email": "ada@example.com"})));
    /// assert!(!tool.is_valid(&json!({"email": "ada"})));
    /// // Under the profile, `format` is an annotation.
    /// assert!(ToolSchema::input(&schema)?.is_valid(&json!({"email": "ada"})));
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Those of [`ToolSchema::input`] or [`ToolSchema::output`], by `role`, with the
    /// errors of compiling under `options` ([`ValidationOptions::build`]) in place of
    /// the profile's.
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
    ///
    /// ```
    /// use serde_json::json;
    /// use mcp_jsonschema::mcp::ToolSchema;
    /// let tool = ToolSchema::input(&json!({"properties": {"units": {"enum": ["metric", "imperial"]}}}))?;
    /// assert!(tool.validate(&json!({"units": "metric"})).is_ok());
    /// let error = tool.validate(&json!({"units": "kelvin"})).unwrap_err();
    /// assert_eq!(error.to_string(), r#"/units: expected one of "metric", "imperial", got "kelvin""#);
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// When `instance` does not conform: its first error, as
    /// [`Validator::validate`] returns it (a stop at the profile's
    /// [`STEP_BUDGET`] or [`MAX_EVALUATION_DEPTH`] included).
    pub fn validate(&self, instance: &Value) -> Result<(), ValidationError> {
        self.validator.validate(instance)
    }

    /// Whether `instance` conforms. See the example on [`ToolSchema`].
    pub fn is_valid(&self, instance: &Value) -> bool {
        self.validator.is_valid(instance)
    }

    /// Every error of `instance`, one line each when displayed. See the example on
    /// [`ToolSchema`].
    pub fn iter_errors<'a>(
        &'a self,
        instance: &'a Value,
    ) -> impl Iterator<Item = ValidationError> + 'a {
        self.validator.iter_errors(instance)
    }

    /// The errors of `instance` to show a model or a person, each problem once, as
    /// [`Validator::iter_listed_errors`] gives them: what [`invalid_arguments_text`]
    /// takes.
    ///
    /// ```
    /// use serde_json::json;
    /// use mcp_jsonschema::mcp::{invalid_arguments_text, ToolSchema};
    /// let tool = ToolSchema::input(&json!({"properties": {"shape": {"oneOf": [
    ///     {"properties": {"kind": {"const": "circle"}, "r": {"type": "number"}}, "required": ["kind", "r"]},
    ///     {"properties": {"kind": {"const": "square"}, "side": {"type": "number"}}, "required": ["kind", "side"]}
    /// ]}}}))?;
    /// let errors: Vec<_> = tool.iter_listed_errors(&json!({"shape": {"r": 1}})).collect();
    /// assert_eq!(
    ///     invalid_arguments_text("draw", &errors),
    ///     "invalid arguments for tool \"draw\":\n\
    ///      /shape: missing required property \"kind\": expected one of \"circle\", \"square\""
    /// );
    /// // Every branch's errors, for programs.
    /// assert!(tool.iter_errors(&json!({"shape": {"r": 1}})).count() > 1);
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
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
    /// `$schema` set to 2020-12 unless the author declared a dialect. See the example on
    /// [`ToolSchema`].
    pub fn to_wire(&self) -> &Value {
        &self.wire
    }

    /// Which side of the tool this schema describes. See the example on [`ToolSchema`].
    pub fn role(&self) -> Role {
        self.role
    }

    /// The underlying validator, compiled from the [wire form](ToolSchema::to_wire). See
    /// the example on [`ToolSchema`].
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
