//! [`ValidationOptions`]: the by-value builder that configures compilation.

use crate::dialect::Draft;
use crate::error::SchemaError;
use crate::Validator;
use serde_json::Value;

/// Nesting beyond which compilation or validation stops with an error instead of risking
/// the thread's stack. No document `serde_json` can parse by default comes near it.
pub(crate) const STACK_SAFE_DEPTH: u32 = 1_000;

/// How to build a [`Validator`].
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
pub struct ValidationOptions {
    pub(crate) draft: Option<Draft>,
    pub(crate) resources: Vec<(String, Value)>,
    pub(crate) format_assertion: Option<bool>,
    pub(crate) metaschema_check: bool,
    pub(crate) max_schema_depth: u32,
    pub(crate) max_instance_depth: u32,
}

impl Default for ValidationOptions {
    fn default() -> Self {
        ValidationOptions {
            draft: None,
            resources: Vec::new(),
            format_assertion: None,
            metaschema_check: true,
            max_schema_depth: STACK_SAFE_DEPTH,
            max_instance_depth: STACK_SAFE_DEPTH,
        }
    }
}

impl ValidationOptions {
    /// The dialect for a schema that declares no `$schema` (2020-12 when not set).
    pub fn with_draft(mut self, draft: Draft) -> Self {
        self.draft = Some(draft);
        self
    }

    /// Registers `document` under `uri`, so `$ref`s to it (and to the resources it embeds)
    /// resolve. Nothing is ever fetched: an unregistered remote reference is a
    /// [`SchemaError`].
    pub fn with_resource(mut self, uri: impl Into<String>, document: Value) -> Self {
        self.resources.push((uri.into(), document));
        self
    }

    /// Whether `format` is an assertion (`true`) or only an annotation (`false`). By
    /// default it is an annotation in 2019-09 and 2020-12 and an assertion in drafts 4, 6
    /// and 7, as those drafts' suites expect. Unknown formats are ignored either way.
    pub fn with_format_assertion(mut self, assert: bool) -> Self {
        self.format_assertion = Some(assert);
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

    /// Compiles `schema` with these options.
    pub fn build(&self, schema: &Value) -> Result<Validator, SchemaError> {
        Validator::with_options(schema, self)
    }
}
