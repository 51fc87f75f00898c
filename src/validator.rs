//! [`Validator`]: a compiled schema and the public ways to run it.

use crate::compiler;
use crate::error::{
    JsonError, Quotation, SchemaError, SchemaErrorKind, ValidationError, ValidationErrorKind,
    ROOT_LINE,
};
use crate::evaluation::{Evaluation, Located};
use crate::json::text::{SyntaxError, Tape};
use crate::json::view::View;
use crate::options::ValidationOptions;
use crate::program::Program;
use crate::vm::{self, Limits};
use serde_json::Value;
use std::borrow::Cow;
use std::sync::Arc;

/// A compiled schema, ready to validate any number of instances from any thread.
///
/// ```
/// use serde_json::json;
/// let schema = json!({
///     "type": "object",
///     "properties": {"city": {"type": "string"}, "units": {"enum": ["metric", "imperial"]}},
///     "required": ["city"]
/// });
/// let validator = mcp_jsonschema::Validator::new(&schema)?;
/// assert!(validator.is_valid(&json!({"city": "Oslo", "units": "metric"})));
///
/// let errors: Vec<String> = validator
///     .iter_errors(&json!({"units": "kelvin"}))
///     .map(|e| e.to_string())
///     .collect();
/// assert_eq!(errors, [
///     r#"(root): missing required property "city""#,
///     r#"/units: expected one of "metric", "imperial", got "kelvin""#,
/// ]);
/// # Ok::<(), mcp_jsonschema::SchemaError>(())
/// ```
#[derive(Clone)]
pub struct Validator {
    program: Arc<Program>,
    /// The program `evaluate` runs, when annotations were asked for.
    annotating: Option<Arc<Program>>,
    limits: Limits,
}

impl Validator {
    /// Compiles `schema` with the default options (2020-12 unless `$schema` says
    /// otherwise, `format` as an annotation, no registered resources).
    ///
    /// ```
    /// use serde_json::json;
    /// use mcp_jsonschema::{SchemaErrorKind, Validator};
    ///
    /// let validator = Validator::new(&json!({"type": "integer", "minimum": 1}))?;
    /// assert!(validator.is_valid(&json!(3)));
    ///
    /// let error = Validator::new(&json!({"items": {"$ref": "#/$defs/missing"}})).unwrap_err();
    /// assert_eq!(error.kind(), SchemaErrorKind::UnresolvableReference);
    /// assert_eq!(error.location(), "/items/$ref");
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A [`SchemaError`] naming the first problem found, by its
    /// [`kind`](SchemaError::kind):
    ///
    /// - [`InvalidKeyword`](SchemaErrorKind::InvalidKeyword): the schema is not valid
    ///   under its dialect's metaschema (the error's message lists the problems), or a
    ///   subschema is neither an object nor a boolean;
    /// - [`UnknownDialect`](SchemaErrorKind::UnknownDialect): `$schema` names neither a
    ///   draft nor a registered metaschema;
    /// - [`UnknownVocabulary`](SchemaErrorKind::UnknownVocabulary): the metaschema
    ///   requires a vocabulary this library does not implement;
    /// - [`InvalidPattern`](SchemaErrorKind::InvalidPattern): a `pattern` or a
    ///   `patternProperties` key is not an ECMA-262 regular expression, or compiles
    ///   larger than the regex engine's size limit;
    /// - [`UnresolvableReference`](SchemaErrorKind::UnresolvableReference): a reference
    ///   names nothing in the schema nor among the official metaschemas;
    /// - [`DuplicateIdentifier`](SchemaErrorKind::DuplicateIdentifier): two `$id`s, or
    ///   two anchors of one resource, name the same place;
    /// - [`InfiniteRecursion`](SchemaErrorKind::InfiniteRecursion): a cycle of
    ///   references applies the schema to the same instance without end;
    /// - [`LimitExceeded`](SchemaErrorKind::LimitExceeded): the schema is nested deeper
    ///   than 1,000 levels, or than the thread's stack safely allows.
    ///
    /// Other options add their own: see [`ValidationOptions::build`].
    pub fn new(schema: &Value) -> Result<Validator, SchemaError> {
        Self::with_options(schema, &ValidationOptions::default())
    }

    /// Options for building a validator: registered resources, default dialect, ...
    /// See the example on [`ValidationOptions`].
    pub fn options() -> ValidationOptions {
        ValidationOptions::default()
    }

    /// A validator running `program` within `limits`, without annotations.
    pub(crate) fn from_program(program: Arc<Program>, limits: Limits) -> Validator {
        Validator {
            program,
            annotating: None,
            limits,
        }
    }

    pub(crate) fn with_options(
        schema: &Value,
        options: &ValidationOptions,
    ) -> Result<Validator, SchemaError> {
        if options.metaschema_check {
            crate::metaschema::check(schema, options)?;
        }
        let (program, options) = compile_retrieving(schema, options)?;
        let annotating = match options.annotations {
            true => Some(Arc::new(compiler::compile_annotating(schema, &options)?)),
            false => None,
        };
        Ok(Validator {
            program: Arc::new(program),
            annotating,
            limits: Limits {
                max_depth: options.max_instance_depth,
                max_steps: options.step_budget,
                masked: options.masked_errors,
            },
        })
    }

    /// Whether `instance` conforms. Stops at the first failure and allocates nothing for
    /// schemas without `unevaluated*`, dynamic references or `propertyNames`.
    ///
    /// A validation that stops at one of the validator's limits (instance depth, step
    /// budget) or in an infinite recursion answers `false`: a stop is never a pass.
    ///
    /// ```
    /// use serde_json::json;
    /// let validator = mcp_jsonschema::Validator::new(&json!({"maxLength": 3}))?;
    /// assert!(validator.is_valid(&json!("abc")));
    /// assert!(!validator.is_valid(&json!("abcd")));
    /// // `maxLength` applies to strings only.
    /// assert!(validator.is_valid(&json!(12345)));
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
    pub fn is_valid(&self, instance: &Value) -> bool {
        vm::is_valid(&self.program, instance, self.limits)
    }

    /// Whether the JSON text `json` conforms: [`Validator::is_valid`] of the value it
    /// holds, read where it lies, without building a `serde_json::Value` (a flat tape of
    /// the document, a few allocations whatever its size). The text is read as
    /// `serde_json::from_slice` reads it: the same grammar, a repeated name keeps its
    /// last value, at most 127 levels of nesting. Numbers are judged by their text,
    /// exactly, also where the default build's `Value` would hold the nearest double
    /// (more than 15 significant digits, integers beyond 64 bits).
    ///
    /// ```
    /// use serde_json::json;
    /// let validator = mcp_jsonschema::Validator::new(&json!({
    ///     "properties": {"n": {"type": "integer"}}
    /// }))?;
    /// assert_eq!(validator.is_valid_json(br#"{"n": 1}"#), Ok(true));
    /// assert_eq!(validator.is_valid_json(br#"{"n": 1.5}"#), Ok(false));
    /// assert!(validator.is_valid_json(br#"{"n": }"#).is_err());
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A [`SyntaxError`] when `json` is not one JSON document (with its line and column).
    pub fn is_valid_json(&self, json: &[u8]) -> Result<bool, SyntaxError> {
        let tape = Tape::parse(json)?;
        Ok(vm::is_valid(&self.program, tape.root(), self.limits))
    }

    /// `Ok(())` if the JSON text `json` conforms, else why not: it is not JSON, or the
    /// first error of the value it holds, as [`Validator::validate`] gives it. Read as
    /// [`Validator::is_valid_json`] reads it; only a text that fails is then built into
    /// a `serde_json::Value`, for its error's message. See the example on [`JsonError`].
    ///
    /// # Errors
    ///
    /// [`JsonError::Syntax`] when `json` is not one JSON document,
    /// [`JsonError::Invalid`] when the value it holds does not conform.
    pub fn validate_json(&self, json: &[u8]) -> Result<(), JsonError> {
        let tape = Tape::parse(json).map_err(JsonError::Syntax)?;
        let root = tape.root();
        if vm::is_valid(&self.program, root, self.limits) {
            return Ok(());
        }
        let value = root.to_value();
        match self.validate(&value) {
            Err(error) => Err(JsonError::Invalid(error)),
            // The two reads of one text disagree: never a pass when unsure.
            Ok(()) => Err(JsonError::Invalid(ValidationError::located(
                ValidationErrorKind::FalseSchema,
                format!("{ROOT_LINE}the instance is not valid"),
                Quotation::default(),
                Arc::clone(&self.program.locations) as _,
                self.program.root,
            ))),
        }
    }

    /// `Ok(())` if `instance` conforms, else its first error. One pass, which stops at
    /// the first failure as [`Validator::is_valid`] does.
    ///
    /// ```
    /// use serde_json::json;
    /// use mcp_jsonschema::ValidationErrorKind;
    /// let validator = mcp_jsonschema::Validator::new(&json!({
    ///     "properties": {"tags": {"type": "array", "items": {"type": "string"}}}
    /// }))?;
    /// assert!(validator.validate(&json!({"tags": ["a", "b"]})).is_ok());
    ///
    /// let error = validator.validate(&json!({"tags": ["a", 2, 3]})).unwrap_err();
    /// assert_eq!(error.kind(), ValidationErrorKind::Type);
    /// assert_eq!(error.instance_location(), "/tags/1");
    /// assert_eq!(error.to_string(), "/tags/1: expected string, got integer 2");
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// When `instance` does not conform (exactly when [`Validator::is_valid`] answers
    /// `false`): the [`ValidationError`] of the first failure found, in the order the
    /// schema is evaluated. That is a keyword the instance fails, or a stop, which is
    /// never a pass: [`BudgetExhausted`](ValidationErrorKind::BudgetExhausted) or
    /// [`DepthExceeded`](ValidationErrorKind::DepthExceeded) at one of the validator's
    /// limits, [`InfiniteRecursion`](ValidationErrorKind::InfiniteRecursion) where the
    /// schema applies itself to this instance without end.
    pub fn validate(&self, instance: &Value) -> Result<(), ValidationError> {
        match vm::first_error(&self.program, instance, self.limits) {
            None => Ok(()),
            // The explaining pass spends the budget as the fast one does, so running out
            // of it settles the verdict (running the fast pass again to confirm doubled
            // the time of an exhausted run).
            Some(error) if error.kind() == ValidationErrorKind::BudgetExhausted => {
                debug_assert!(!self.is_valid(instance), "the fast pass passed: {error}");
                Err(error)
            }
            // A depth limit may be the stack guard's, which the explaining pass (larger
            // frames) can reach where the fast one does not: the fast verdict settles it,
            // so that every entry point agrees.
            Some(error) if error.kind().is_limit() && self.is_valid(instance) => Ok(()),
            Some(error) => Err(error),
        }
    }

    /// One evaluation of `instance`: the verdict, every error, the annotations of the
    /// subschemas that passed (for a validator built
    /// [`with_annotations`](ValidationOptions::with_annotations)), and the output formats
    /// of 2020-12 (`flag`, `basic`, `detailed`, `verbose`). See [`Evaluation`].
    ///
    /// The verdict is always [`Validator::is_valid`]'s: collecting annotations runs
    /// every branch of an `anyOf`, so it may stop (at the step budget, or in a reference
    /// cycle only a skipped branch goes round) where the fast pass did not; then the fast
    /// verdict stands, with the annotations collected until then.
    ///
    /// An error's `keywordLocation` in the output formats is the path evaluation took
    /// (through `$ref`), where [`ValidationError::schema_location`] is where the keyword
    /// is written:
    ///
    /// ```
    /// use serde_json::json;
    /// let validator = mcp_jsonschema::Validator::options().with_annotations(true).build(&json!({
    ///     "properties": {"n": {"$ref": "#/$defs/small"}},
    ///     "$defs": {"small": {"maximum": 9}}
    /// }))?;
    /// let evaluation = validator.evaluate(&json!({"n": 10}));
    /// assert!(!evaluation.valid());
    /// let error = evaluation.errors().next().unwrap();
    /// assert_eq!(error.schema_location(), "/$defs/small/maximum");
    /// assert_eq!(evaluation.basic()["errors"][0]["keywordLocation"], "/properties/n/$ref/maximum");
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
    pub fn evaluate(&self, instance: &Value) -> Evaluation {
        let program = self.annotating.as_deref().unwrap_or(&self.program);
        let (valid, errors, annotations) = vm::annotate(program, instance, self.limits);
        let fast = self.is_valid(instance);
        // The two programs agree but where the longer annotating run stopped: at a limit,
        // or in a reference cycle that only a branch the fast pass skipped goes round
        // (`anyOf: [true, {"$ref": "#"}]`).
        let stopped = |e: &ValidationError| {
            e.kind().is_limit() || e.kind() == crate::ValidationErrorKind::InfiniteRecursion
        };
        debug_assert!(
            fast == valid || (fast && errors.first().is_some_and(stopped)),
            "evaluate: the annotating program says {valid}, is_valid says {fast}: {errors:?}"
        );
        let errors = match (fast, valid) {
            (true, _) => Vec::new(),
            (false, false) => errors.into_vec(),
            // A program that passes what the fast one rejects is a bug: the fast
            // verdict stands, with the fast program's errors.
            (false, true) => vm::all_errors(&self.program, instance, self.limits).into_vec(),
        };
        let located = (errors.into_iter())
            .map(|error| {
                let keyword_location = error.keyword_location().to_string();
                let absolute = vm::absolute_location(
                    program.base.as_deref(),
                    error.schema_location(),
                    &keyword_location,
                );
                Located {
                    error,
                    keyword_location,
                    absolute_keyword_location: absolute,
                }
            })
            .collect();
        Evaluation::new(fast, located, annotations)
    }

    /// Every error of `instance`, in the order the schema is evaluated (which is not
    /// always the order its keywords are written in); empty when it conforms.
    ///
    /// ```
    /// use serde_json::json;
    /// let validator = mcp_jsonschema::Validator::new(&json!({
    ///     "type": "array",
    ///     "items": {"type": "integer"},
    ///     "maxItems": 2
    /// }))?;
    /// assert_eq!(validator.iter_errors(&json!([1, 2])).count(), 0);
    ///
    /// let errors: Vec<String> = validator
    ///     .iter_errors(&json!([1, "2", 3.5]))
    ///     .map(|error| error.to_string())
    ///     .collect();
    /// assert_eq!(errors, [
    ///     "(root): expected at most 2 items, got 3",
    ///     "/1: expected integer, got string \"2\"; send the number itself, not a JSON-encoded string",
    ///     "/2: expected integer, got number 3.5",
    /// ]);
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
    pub fn iter_errors<'a>(
        &'a self,
        instance: &'a Value,
    ) -> impl Iterator<Item = ValidationError> + 'a {
        self.errors_of(instance, vm::all_errors)
    }

    /// The errors `collect` finds in `instance`, once the fast verdict said it does not
    /// conform: collecting errors takes more steps than a verdict, so the budget alone
    /// could otherwise make the two disagree.
    fn errors_of(
        &self,
        instance: &Value,
        collect: fn(&Program, &Value, Limits) -> vm::Errors,
    ) -> impl Iterator<Item = ValidationError> {
        let errors = match self.is_valid(instance) {
            true => vm::Errors::new(),
            false => collect(&self.program, instance, self.limits),
        };
        errors.into_iter()
    }

    /// The errors of `instance` to show a model or a person, each problem once; empty
    /// when it conforms. Where [`iter_errors`](Validator::iter_errors) follows a failed
    /// `anyOf` / `oneOf` with every branch's errors, here it carries only those of its
    /// closest branch, as its [`context`](ValidationError::context) (a branch a `const` /
    /// `enum` tag rules out is never the closest, and the branch's own failed unions are
    /// explained alike), so displaying each error writes every line once. A union whose
    /// branches are told apart by a tag (a property each branch requires and pins to
    /// strings: serde's, pydantic's and zod's tagged unions) is one error when an object
    /// lacks the tag or has one no branch takes, naming the tags.
    ///
    /// ```
    /// use serde_json::json;
    /// let shape = mcp_jsonschema::Validator::new(&json!({"oneOf": [
    ///     {"properties": {"kind": {"const": "circle"}, "radius": {"type": "number"}},
    ///      "required": ["kind", "radius"]},
    ///     {"properties": {"kind": {"const": "square"}, "side": {"type": "number"}},
    ///      "required": ["kind", "side"]}
    /// ]}))?;
    /// let listed = |instance| -> Vec<String> {
    ///     shape.iter_listed_errors(&instance).map(|e| e.to_string()).collect()
    /// };
    /// assert_eq!(listed(json!({"kind": "circle"})), [
    ///     "(root): {\"kind\":\"circle\"} is not valid under any of the schemas in oneOf; \
    ///      the closest is #0\n  (root): missing required property \"radius\"",
    /// ]);
    /// assert_eq!(listed(json!({"radius": 1})), [
    ///     r#"(root): missing required property "kind": expected one of "circle", "square""#,
    /// ]);
    /// assert_eq!(listed(json!({"kind": "oval"})), [
    ///     r#"/kind: expected one of "circle", "square", got "oval""#,
    /// ]);
    /// // `iter_errors` gives the summary, then every branch's errors.
    /// assert_eq!(shape.iter_errors(&json!({"kind": "circle"})).count(), 4);
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
    pub fn iter_listed_errors<'a>(
        &'a self,
        instance: &'a Value,
    ) -> impl Iterator<Item = ValidationError> + 'a {
        self.errors_of(instance, vm::listed_errors)
    }

    /// Approximate heap bytes held by the compiled schema, the annotating program of
    /// [`with_annotations`](ValidationOptions::with_annotations) included; clones share
    /// them. Each heap block counts as the allocator spends memory on it (its size and a
    /// header, rounded up), so for most schemas this is what the process grew by to hold
    /// it (`tests/load.rs` holds a cache of tool schemas to within 10% of that). Compiled
    /// patterns are estimated from their length: a schema of many patterns, whose
    /// automata are built on first use, holds more. Reading an error's
    /// [`schema_location`](ValidationError::schema_location) renders it once and keeps it
    /// here (a slot for each of 32 neighbouring nodes, and the text), which this counts.
    ///
    /// ```
    /// use serde_json::json;
    /// let small = mcp_jsonschema::Validator::new(&json!({"type": "string"}))?;
    /// let large = mcp_jsonschema::Validator::new(&json!({
    ///     "properties": {"a": {"type": "string"}, "b": {"enum": [1, 2, 3]}},
    ///     "required": ["a"]
    /// }))?;
    /// assert!(small.memory_usage() > 0);
    /// assert!(large.memory_usage() > small.memory_usage());
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
    pub fn memory_usage(&self) -> usize {
        let program = |program: &Program| crate::memory::arc::<Program>() + program.memory_usage();
        program(&self.program) + self.annotating.as_deref().map_or(0, program)
    }
}

/// The most documents a retriever supplies for one schema.
const MAX_RETRIEVED: usize = 256;

/// Compiles `schema`; when a reference names a document no one registered and the
/// options have a retriever, registers what it supplies and compiles again. Returns the
/// program and the options it was compiled with (the retrieved documents included).
fn compile_retrieving<'o>(
    schema: &Value,
    options: &'o ValidationOptions,
) -> Result<(Program, Cow<'o, ValidationOptions>), SchemaError> {
    let mut options = Cow::Borrowed(options);
    let mut retrieved = 0;
    loop {
        let error = match compiler::compile(schema, &options) {
            Ok(program) => return Ok((program, options)),
            Err(error) => error,
        };
        let (Some(retriever), Some(uri)) = (&options.retriever, error.missing_document()) else {
            return Err(error);
        };
        let failed = |why: &str| {
            let message = format!("{} ({uri}: {why})", error.message());
            SchemaError::new(error.kind(), error.location(), message)
        };
        if options
            .resources
            .iter()
            .any(|(registered, _)| registered == uri)
        {
            return Err(failed(
                "retrieved, yet it does not hold what is referred to",
            ));
        }
        if retrieved == MAX_RETRIEVED {
            return Err(SchemaError::new(
                SchemaErrorKind::LimitExceeded,
                error.location(),
                format!("the schema refers to more than {MAX_RETRIEVED} documents to retrieve"),
            ));
        }
        let document = (retriever.0)(uri).map_err(|why| failed(&why))?;
        let uri = uri.to_string();
        options = Cow::Owned(options.into_owned().with_resource(uri, document));
        retrieved += 1;
    }
}

// The builder's last step lives here, above it: options know nothing of validators.
impl ValidationOptions {
    /// Compiles `schema` with these options. See the example on [`ValidationOptions`].
    ///
    /// # Errors
    ///
    /// Those of [`Validator::new`], and those of the options set:
    ///
    /// - [`ForbiddenReference`](SchemaErrorKind::ForbiddenReference): a reference that
    ///   [`ReferencePolicy::SameDocument`](crate::ReferencePolicy::SameDocument) forbids;
    /// - [`UnknownFormat`](SchemaErrorKind::UnknownFormat): an asserted `format` that
    ///   names no checker, when
    ///   [`with_unknown_formats_refused`](ValidationOptions::with_unknown_formats_refused)
    ///   is set;
    /// - [`LimitExceeded`](SchemaErrorKind::LimitExceeded): beyond
    ///   [`with_max_schema_depth`](ValidationOptions::with_max_schema_depth) or
    ///   [`with_max_subschemas`](ValidationOptions::with_max_subschemas), or references
    ///   to more than 256 documents to retrieve;
    /// - [`UnknownDialect`](SchemaErrorKind::UnknownDialect): a draft the options do not
    ///   take (draft 4 under the MCP [`profile`](crate::mcp::profile));
    /// - [`UnresolvableReference`](SchemaErrorKind::UnresolvableReference): a
    ///   [base URI](ValidationOptions::with_base_uri) that is not absolute; a document
    ///   the [retriever](ValidationOptions::with_retriever) did not supply (its reason in
    ///   the message), or supplied without what the reference names.
    pub fn build(&self, schema: &Value) -> Result<Validator, SchemaError> {
        Validator::with_options(schema, self)
    }
}

impl std::fmt::Debug for Validator {
    /// The compiled program, one node per line.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Validator {{\n{:?}}}", self.program)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instance_locations_are_whole_and_escaped() {
        use serde_json::json;
        let schema = json!({"properties": {"a/b": {
            "type": "array",
            "items": {"properties": {"~k": {"type": "integer", "not": {"const": 7}}, "n": {"items": {"type": "integer"}}},
                      "additionalProperties": false}
        }}});
        let v = Validator::new(&schema).unwrap();
        let locations = |instance: Value| -> Vec<String> {
            let first = v.validate(&instance).unwrap_err();
            let all: Vec<String> = v
                .iter_errors(&instance)
                .map(|e| e.instance_location().to_string())
                .collect();
            assert_eq!(first.instance_location(), all[0], "{instance}");
            all
        };
        assert_eq!(
            locations(json!({"a/b": [{"~k": 1}, {"~k": "x", "extra": 0}]})),
            ["/a~1b/1/extra", "/a~1b/1/~0k"]
        );
        // A fused leaf (`items` of a `type`) reports each failing item at its index.
        assert_eq!(
            locations(json!({"a/b": [{"n": [1, "x", 2, null]}]})),
            ["/a~1b/0/n/1", "/a~1b/0/n/3"]
        );
        // A stop is located where it happened: somewhere in the instance, and as deep
        // as the budget let the run go (a lone `type` costs no step of its own, so `~k`
        // has a `not` beside it).
        let instance = json!({"a/b": [{"~k": 1, "n": [1, 2, 3]}]});
        let mut seen = std::collections::BTreeSet::new();
        for budget in 0..24 {
            let tight = Validator::options()
                .with_step_budget(budget)
                .build(&schema)
                .unwrap();
            if let Err(error) = tight.validate(&instance) {
                assert!(error.kind().is_limit(), "{error}");
                let at = error.instance_location();
                assert!(instance.pointer(at).is_some(), "{budget}: {error}");
                seen.insert(at.to_string());
            }
        }
        assert!(
            seen.contains("/a~1b/0/~0k") && seen.contains("/a~1b/0/n"),
            "{seen:?}"
        );
    }

    #[test]
    fn a_stop_inside_a_child_settled_in_place_is_located_at_the_child() {
        use serde_json::json;
        // `items` of a `type` is settled in place, its items charged in one go.
        let schema = json!({"properties": {"n": {"items": {"type": "integer"}}}});
        let instance = json!({"n": [1, 2, 3, 4, 5, 6, 7, 8]});
        let stops: Vec<String> = (0..6)
            .filter_map(|budget| {
                let tight = Validator::options()
                    .with_step_budget(budget)
                    .build(&schema)
                    .unwrap();
                let error = tight.validate(&instance).err()?;
                assert!(error.kind().is_limit(), "{error}");
                Some(error.instance_location().to_string())
            })
            .collect();
        assert!(stops.iter().any(|at| at == "/n"), "{stops:?}");
    }

    #[test]
    fn type_errors_show_the_value_once_for_null() {
        use serde_json::json;
        let v = Validator::new(&json!({"type": "object"})).unwrap();
        let message = |instance: Value| v.validate(&instance).unwrap_err().message().to_owned();
        assert_eq!(message(json!(null)), "expected object, got null");
        assert_eq!(message(json!(true)), "expected object, got boolean true");
        assert_eq!(message(json!([1])), "expected object, got array [1]");
    }

    #[test]
    fn discarded_branches_leave_no_errors_of_their_own_but_failed_unions_list_theirs() {
        use serde_json::json;
        let v = Validator::new(&json!({
            "properties": {"a": {"anyOf": [{"type": "string"}, {"minimum": 5}]},
                           "b": {"not": {"type": "integer"}},
                           "c": {"if": {"type": "string"}, "then": {"minLength": 2}}},
            "contains": {"type": "string"}
        }))
        .unwrap();
        let kinds: Vec<_> = v
            .iter_errors(&json!({"a": 1, "b": 2, "c": "x"}))
            .map(|e| (e.kind(), e.instance_location().to_string()))
            .collect();
        use crate::ValidationErrorKind as K;
        assert_eq!(
            kinds,
            [
                // The `anyOf`, then its branch that admits numbers; no `if` or
                // `contains` item error.
                (K::AnyOf, "/a".into()),
                (K::Range, "/a".into()),
                (K::Not, "/b".into()),
                (K::Length, "/c".into())
            ]
        );
    }

    #[test]
    fn validator_is_send_and_sync() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<Validator>();
    }
}
