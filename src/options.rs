//! [`ValidationOptions`]: the by-value builder that configures compilation.

use crate::dialect::Draft;
use crate::formats::Checker;
use serde_json::Value;
use std::sync::Arc;

/// Nesting beyond which compilation or validation stops with an error instead of risking
/// the thread's stack. No document `serde_json` can parse by default comes near it.
pub(crate) const STACK_SAFE_DEPTH: u32 = 1_000;

/// How to build a [`Validator`](crate::Validator).
///
/// Every method takes the options by value and returns them, so they chain and can be
/// folded in a loop:
///
/// ```
/// use serde_json::json;
/// let mut options = mcp_jsonschema::Validator::options();
/// for (uri, doc) in [("http://localhost:1234/int.json", json!({"type": "integer"}))] {
///     options = options.with_resource(uri, doc);
/// }
/// let v = options.build(&json!({"$ref": "http://localhost:1234/int.json"})).unwrap();
/// assert!(v.is_valid(&json!(3)));
/// assert!(!v.is_valid(&json!("3")));
/// ```
#[derive(Clone, Debug)]
#[must_use = "the `with_*` methods return the changed options: build a validator from them"]
pub struct ValidationOptions {
    pub(crate) draft: Option<Draft>,
    /// Registered documents by URI; shared, so options clone cheaply.
    pub(crate) resources: Vec<(String, Arc<Value>)>,
    pub(crate) format_assertion: Option<bool>,
    /// Registered `format` checkers, by name; a later one of a name wins.
    pub(crate) formats: Vec<(String, Checker)>,
    pub(crate) unknown_formats_refused: bool,
    pub(crate) metaschema_check: bool,
    pub(crate) max_schema_depth: u32,
    pub(crate) max_subschemas: u32,
    pub(crate) max_instance_depth: u32,
    pub(crate) step_budget: u64,
    pub(crate) references: ReferencePolicy,
    pub(crate) unsupported_drafts: &'static [Draft],
    pub(crate) annotations: bool,
    pub(crate) masked_errors: bool,
    /// The root schema's URI, when not the default `json-schema:///`.
    pub(crate) base_uri: Option<Arc<str>>,
    pub(crate) retriever: Option<Retriever>,
}

/// A caller's function from a URI to the schema document there: see
/// [`ValidationOptions::with_retriever`].
#[derive(Clone)]
pub(crate) struct Retriever(pub(crate) Arc<RetrieveFn>);

/// What a retriever is.
pub(crate) type RetrieveFn = dyn Fn(&str) -> Result<Value, String> + Send + Sync;

impl std::fmt::Debug for Retriever {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Retriever")
    }
}

/// Which references a schema may make.
///
/// ```
/// use serde_json::json;
/// use mcp_jsonschema::{ReferencePolicy, SchemaErrorKind, Validator};
/// let options = Validator::options()
///     .with_resource("https://example.com/int.json", json!({"type": "integer"}));
/// let remote = json!({"$ref": "https://example.com/int.json"});
/// assert!(options.build(&remote).is_ok());
///
/// let same_document = options.with_reference_policy(ReferencePolicy::SameDocument);
/// let err = same_document.build(&remote).unwrap_err();
/// assert_eq!(err.kind(), SchemaErrorKind::ForbiddenReference);
/// assert_eq!(err.location(), "/$ref");
/// assert!(same_document.build(&json!({"$defs": {"i": {"type": "integer"}}, "$ref": "#/$defs/i"})).is_ok());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ReferencePolicy {
    /// References may name the document, the resources it embeds (`$id`), resources
    /// registered with [`ValidationOptions::with_resource`] and the official metaschemas.
    /// Nothing is ever fetched.
    #[default]
    Registered,
    /// Only same-document references: `$ref` / `$dynamicRef` must start with `#` (a JSON
    /// Pointer or an anchor). Anything else is a
    /// [`SchemaErrorKind::ForbiddenReference`](crate::SchemaErrorKind::ForbiddenReference)
    /// at construction. The MCP profile's policy.
    SameDocument,
}

impl Default for ValidationOptions {
    fn default() -> Self {
        ValidationOptions {
            draft: None,
            resources: Vec::new(),
            format_assertion: None,
            formats: Vec::new(),
            unknown_formats_refused: false,
            metaschema_check: true,
            max_schema_depth: STACK_SAFE_DEPTH,
            max_subschemas: u32::MAX,
            max_instance_depth: STACK_SAFE_DEPTH,
            step_budget: u64::MAX,
            references: ReferencePolicy::Registered,
            unsupported_drafts: &[],
            annotations: false,
            masked_errors: false,
            base_uri: None,
            retriever: None,
        }
    }
}

impl ValidationOptions {
    /// The dialect for a schema that declares no `$schema` (2020-12 when not set).
    ///
    /// ```
    /// use serde_json::json;
    /// use mcp_jsonschema::{Draft, Validator};
    /// // A boolean `exclusiveMinimum` is draft 4's.
    /// let schema = json!({"minimum": 0, "exclusiveMinimum": true});
    /// assert!(Validator::new(&schema).is_err());
    /// let validator = Validator::options().with_draft(Draft::Draft4).build(&schema)?;
    /// assert!(!validator.is_valid(&json!(0)));
    /// assert!(validator.is_valid(&json!(1)));
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
    pub fn with_draft(mut self, draft: Draft) -> Self {
        self.draft = Some(draft);
        self
    }

    /// Registers `document` under `uri`, so `$ref`s to it (and to the resources it embeds)
    /// resolve. Nothing is ever fetched: an unregistered remote reference is a
    /// [`SchemaError`](crate::SchemaError). See the example on [`ValidationOptions`].
    pub fn with_resource(mut self, uri: impl Into<String>, document: Value) -> Self {
        self.resources.push((uri.into(), Arc::new(document)));
        self
    }

    /// The root schema's URI, against which its relative references and `$id`s resolve
    /// (`json-schema:///` when not set): the file or URL it was read from, so that
    /// `{"$ref": "address.json"}` names the document beside it. It must be absolute
    /// (compiling with a relative one is a [`SchemaError`](crate::SchemaError)); a
    /// `$id` at the root still wins, as the specification says.
    ///
    /// ```
    /// use serde_json::json;
    /// let options = mcp_jsonschema::Validator::options()
    ///     .with_base_uri("file:///schemas/order.json")
    ///     .with_resource("file:///schemas/address.json", json!({"required": ["city"]}));
    /// let validator = options.build(&json!({"properties": {"to": {"$ref": "address.json"}}}))?;
    /// assert!(!validator.is_valid(&json!({"to": {}})));
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
    pub fn with_base_uri(mut self, uri: impl Into<String>) -> Self {
        self.base_uri = Some(Arc::from(uri.into()));
        self
    }

    /// Asks `retrieve` for the document at a URI that the schema's references name and
    /// no registered resource holds: called while compiling, once per such URI (without
    /// its fragment), and only for references the schema makes (those of documents it
    /// retrieves included). The library itself performs no I/O: what `retrieve` reads,
    /// and from where, is the caller's choice; returning `Err` with a reason makes the
    /// reference unresolvable, with that reason in the error. At most 256 documents are
    /// retrieved for one schema.
    ///
    /// ```
    /// use serde_json::{json, Value};
    /// let retrieve = |uri: &str| -> Result<Value, String> {
    ///     match uri {
    ///         "https://example.com/unit.json" => Ok(json!({"enum": ["metric", "imperial"]})),
    ///         other => Err(format!("{other} is not one of ours")),
    ///     }
    /// };
    /// let options = mcp_jsonschema::Validator::options().with_retriever(retrieve);
    /// let schema = json!({"properties": {"units": {"$ref": "https://example.com/unit.json"}}});
    /// let validator = options.build(&schema)?;
    /// assert!(!validator.is_valid(&json!({"units": "kelvin"})));
    ///
    /// let error = options.build(&json!({"$ref": "https://example.org/x.json"})).unwrap_err();
    /// assert!(error.message().contains("is not one of ours"));
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
    pub fn with_retriever(
        mut self,
        retrieve: impl Fn(&str) -> Result<Value, String> + Send + Sync + 'static,
    ) -> Self {
        self.retriever = Some(Retriever(Arc::new(retrieve)));
        self
    }

    /// Whether `format` is an assertion (`true`) or only an annotation (`false`). By
    /// default it is an annotation in 2019-09 and 2020-12 and an assertion in drafts 4, 6
    /// and 7, as those drafts' suites expect. Unknown formats are ignored either way
    /// (unless [refused](Self::with_unknown_formats_refused)).
    ///
    /// ```
    /// use serde_json::json;
    /// use mcp_jsonschema::{ValidationErrorKind, Validator};
    /// let schema = json!({"format": "email"});
    /// assert!(Validator::new(&schema)?.is_valid(&json!("not an address")));
    ///
    /// let validator = Validator::options().with_format_assertion(true).build(&schema)?;
    /// assert!(validator.is_valid(&json!("ada@example.com")));
    /// let error = validator.validate(&json!("not an address")).unwrap_err();
    /// assert_eq!(error.kind(), ValidationErrorKind::Format);
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
    pub fn with_format_assertion(mut self, assert: bool) -> Self {
        self.format_assertion = Some(assert);
        self
    }

    /// Checks strings under `"format": name` with `check` wherever formats are asserted
    /// ([`with_format_assertion`](Self::with_format_assertion)), in place of the built-in
    /// checker of that name if there is one. Values other than strings pass, as for
    /// every format. `check` may be any closure that can be shared between threads,
    /// holding state of its own (a set of allowed names, a callback into another
    /// language's runtime); it runs on the validating thread, once per string checked.
    ///
    /// ```
    /// use serde_json::json;
    /// fn is_ticket(s: &str) -> bool {
    ///     s.strip_prefix("TICKET-").is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    /// }
    /// let v = mcp_jsonschema::Validator::options()
    ///     .with_format("ticket", is_ticket)
    ///     .with_format_assertion(true)
    ///     .build(&json!({"format": "ticket"}))?;
    /// assert!(v.is_valid(&json!("TICKET-42")));
    /// assert!(!v.is_valid(&json!("42")));
    /// assert!(v.is_valid(&json!(42)));
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
    ///
    /// A closure that captures its data:
    ///
    /// ```
    /// use serde_json::json;
    /// let known = ["oslo", "lima"];
    /// let v = mcp_jsonschema::Validator::options()
    ///     .with_format("city", move |s| known.contains(&s))
    ///     .with_format_assertion(true)
    ///     .build(&json!({"format": "city"}))?;
    /// assert!(v.is_valid(&json!("lima")));
    /// assert!(!v.is_valid(&json!("paris")));
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
    pub fn with_format(
        mut self,
        name: impl Into<String>,
        check: impl Fn(&str) -> bool + Send + Sync + 'static,
    ) -> Self {
        let check: crate::formats::CustomCheck = Arc::new(check);
        self.formats.push((name.into(), Checker::Custom(check)));
        self
    }

    /// Whether an asserted `format` that names neither a built-in nor a registered
    /// checker is a [`SchemaError`](crate::SchemaError) of kind
    /// [`UnknownFormat`](crate::SchemaErrorKind::UnknownFormat) (`true`), or ignored, as the
    /// specification allows (`false`, the default).
    ///
    /// ```
    /// use serde_json::json;
    /// let options = mcp_jsonschema::Validator::options().with_format_assertion(true);
    /// let schema = json!({"properties": {"when": {"format": "moon-phase"}}});
    /// assert!(options.build(&schema).is_ok());
    /// let err = options.with_unknown_formats_refused(true).build(&schema).unwrap_err();
    /// assert_eq!(err.location(), "/properties/when/format");
    /// ```
    pub fn with_unknown_formats_refused(mut self, refuse: bool) -> Self {
        self.unknown_formats_refused = refuse;
        self
    }

    /// Whether to check the schema against its dialect's metaschema before compiling it
    /// (on by default). Turn it off only for schemas you already trust: the compiler still
    /// rejects what it cannot compile, but not every metaschema violation.
    ///
    /// ```
    /// use serde_json::json;
    /// let schema = json!({"properties": {"count": {"minimum": "x"}}});
    /// let err = mcp_jsonschema::Validator::new(&schema).unwrap_err();
    /// assert_eq!(err.location(), "/properties/count/minimum");
    /// ```
    pub fn with_metaschema_check(mut self, check: bool) -> Self {
        self.metaschema_check = check;
        self
    }

    /// The deepest schema nesting accepted: the root is depth 0 and each subschema is one
    /// deeper than the schema holding it, whether under a single-schema keyword (`items`,
    /// `not`), an array (`allOf`) or a map (`properties`, `$defs`). Deeper schemas are a
    /// [`SchemaErrorKind::LimitExceeded`](crate::SchemaErrorKind::LimitExceeded) error.
    /// Whatever the setting, compilation stops before it could overflow the stack.
    ///
    /// ```
    /// use serde_json::json;
    /// use mcp_jsonschema::SchemaErrorKind;
    /// let options = mcp_jsonschema::Validator::options().with_max_schema_depth(2);
    /// assert!(options.build(&json!({"items": {"items": true}})).is_ok());
    /// let err = options.build(&json!({"items": {"items": {"items": true}}})).unwrap_err();
    /// assert_eq!(err.kind(), SchemaErrorKind::LimitExceeded);
    /// assert_eq!(err.location(), "/items/items/items");
    /// ```
    pub fn with_max_schema_depth(mut self, depth: u32) -> Self {
        self.max_schema_depth = depth;
        self
    }

    /// The most subschemas (schema objects and booleans, the root included) one document
    /// may hold; unbounded by default. More are a
    /// [`SchemaErrorKind::LimitExceeded`](crate::SchemaErrorKind::LimitExceeded) error.
    ///
    /// ```
    /// use serde_json::json;
    /// use mcp_jsonschema::SchemaErrorKind;
    /// let options = mcp_jsonschema::Validator::options().with_max_subschemas(3);
    /// assert!(options.build(&json!({"properties": {"a": true, "b": true}})).is_ok());
    /// let err = options.build(&json!({"properties": {"a": true, "b": true, "c": true}})).unwrap_err();
    /// assert_eq!(err.kind(), SchemaErrorKind::LimitExceeded);
    /// ```
    pub fn with_max_subschemas(mut self, count: u32) -> Self {
        self.max_subschemas = count;
        self
    }

    /// The deepest nesting of evaluations one validation may reach (instance nesting plus
    /// reference hops). Past it, validation fails with
    /// [`ValidationErrorKind::DepthExceeded`](crate::ValidationErrorKind::DepthExceeded),
    /// and `is_valid` answers `false`. 1,000 by default, and never deeper than the
    /// thread's stack safely allows.
    ///
    /// ```
    /// use serde_json::{json, Value};
    /// use mcp_jsonschema::ValidationErrorKind;
    /// let validator = mcp_jsonschema::Validator::options()
    ///     .with_max_instance_depth(8)
    ///     .build(&json!({"items": {"$ref": "#"}}))?;
    /// let nested = |depth: usize| (0..depth).fold(json!([]), |inner, _| Value::Array(vec![inner]));
    /// assert!(validator.is_valid(&nested(3)));
    /// let error = validator.validate(&nested(20)).unwrap_err();
    /// assert_eq!(error.kind(), ValidationErrorKind::DepthExceeded);
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
    pub fn with_max_instance_depth(mut self, depth: u32) -> Self {
        self.max_instance_depth = depth;
        self
    }

    /// The work one validation may do, in steps (one per schema node evaluated, plus one
    /// per item, option or pattern examined by `uniqueItems`, `enum`, `required` and
    /// `patternProperties`). Running out is a
    /// [`ValidationErrorKind::BudgetExhausted`](crate::ValidationErrorKind::BudgetExhausted)
    /// error and `is_valid` answers `false`: exhaustion never passes. Unbounded by default.
    ///
    /// ```
    /// use serde_json::json;
    /// let v = mcp_jsonschema::Validator::options()
    ///     .with_step_budget(10)
    ///     .build(&json!({"items": {"type": "integer"}}))
    ///     .unwrap();
    /// assert!(v.is_valid(&json!([1, 2, 3])));
    /// assert!(!v.is_valid(&json!(vec![1; 100])));
    /// ```
    pub fn with_step_budget(mut self, steps: u64) -> Self {
        self.step_budget = steps;
        self
    }

    /// Whether [`Validator::evaluate`](crate::Validator::evaluate) collects annotations
    /// (`title`, `description`, `default`, ..., and unknown keywords from 2019-09 on)
    /// and reports evaluation paths through `$ref`s. It takes a second program, built
    /// beside the one `is_valid` and `validate` run (which it leaves as fast as
    /// before): building costs about twice as much. Off by default; without it,
    /// `evaluate` still gives the verdict, the errors and the output formats.
    ///
    /// ```
    /// use serde_json::json;
    /// let schema = json!({"properties": {"city": {"type": "string", "title": "City"}}});
    /// let v = mcp_jsonschema::Validator::options().with_annotations(true).build(&schema)?;
    /// let evaluation = v.evaluate(&json!({"city": "Oslo"}));
    /// assert_eq!(evaluation.annotations()[0].value(), &json!("City"));
    /// assert_eq!(evaluation.annotations()[0].instance_location(), "/city");
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
    pub fn with_annotations(mut self, collect: bool) -> Self {
        self.annotations = collect;
        self
    }

    /// Whether every error of the validator is written without instance data, as
    /// [`ValidationError::masked`](crate::ValidationError::masked) renders one: its
    /// message, display, context, the errors of `validate` and `iter_errors`, the error
    /// texts of [`Evaluation`](crate::Evaluation)'s output formats, and its
    /// [`details`](crate::ValidationError::details) (the one detail that names instance
    /// data, an [`Unexpected`](crate::ErrorDetails::Unexpected) property, holds an empty
    /// name: the instance location still ends with it). For servers that log the errors
    /// of tool results, which carry file contents, tokens and personal data. Off by
    /// default; `is_valid` runs the same either way. Without it, any one error can still
    /// be rendered masked, with [`ValidationError::masked`](crate::ValidationError::masked).
    ///
    /// Annotations ([`Evaluation::annotations`](crate::Evaluation::annotations)) are
    /// not errors, and are kept as they are: those of `additionalProperties`,
    /// `patternProperties` and `unevaluatedProperties` list the instance's property names.
    ///
    /// ```
    /// use serde_json::json;
    /// let schema = json!({"properties": {"token": {"type": "integer"}}, "additionalProperties": false});
    /// let v = mcp_jsonschema::Validator::options().with_masked_errors(true).build(&schema)?;
    /// let error = v.validate(&json!({"token": "s3cr3t"})).unwrap_err();
    /// assert_eq!(error.to_string(), "/token: expected integer, got string");
    /// let error = v.validate(&json!({"s3cr3t": 1})).unwrap_err();
    /// assert_eq!(error.message(), "property is not allowed");
    /// assert_eq!(error.instance_location(), "/s3cr3t");
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
    pub fn with_masked_errors(mut self, masked: bool) -> Self {
        self.masked_errors = masked;
        self
    }

    /// Which references may be followed. See the example on [`ReferencePolicy`].
    pub fn with_reference_policy(mut self, policy: ReferencePolicy) -> Self {
        self.references = policy;
        self
    }
}
