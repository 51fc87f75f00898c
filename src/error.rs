//! The two error types: [`SchemaError`] (the schema cannot be compiled) and
//! [`ValidationError`] (an instance does not conform).
//!
//! Both are built only by `#[cold]` constructors inside the crate, and cost one
//! allocation: a [`SchemaError`] is one `Box` of private data (so `Result<(), SchemaError>`
//! is one word wide); a [`ValidationError`] keeps its message and both locations in one
//! `String`, unboxed, as a failing `validate` returns it at once. Both carry JSON
//! Pointers: a schema error names where in the schema the problem is, a validation error
//! names where in the instance it failed and which schema keyword failed it.

use serde_json::{Number, Value};
use std::fmt;

/// What kind of problem made a schema unusable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SchemaErrorKind {
    /// A keyword's value has the wrong shape (`"minimum": "x"`, `"type": "invalid_type"`).
    InvalidKeyword,
    /// A `pattern` or `patternProperties` key is not a valid ECMA-262 regular expression.
    InvalidPattern,
    /// A `$ref` (or `$dynamicRef`, ...) names nothing registered or embedded.
    UnresolvableReference,
    /// A reference the active policy forbids (the MCP profile allows only `#...`).
    ForbiddenReference,
    /// `$schema` names a dialect this library does not know.
    UnknownDialect,
    /// An asserted `format` names no built-in or registered checker, and the options
    /// refuse unknown formats
    /// ([`ValidationOptions::with_unknown_formats_refused`](crate::ValidationOptions::with_unknown_formats_refused)).
    UnknownFormat,
    /// The schema's metaschema requires (`$vocabulary`, `true`) a vocabulary this
    /// library does not implement.
    UnknownVocabulary,
    /// The schema exceeds a configured bound (depth, subschema count, program size).
    LimitExceeded,
    /// Two schemas claim one identifier: two `$id`s resolving to the same URI, or two
    /// `$anchor` / `$dynamicAnchor` of one name in one resource.
    DuplicateIdentifier,
    /// The schema applies itself to the same instance without end, for every instance:
    /// a cycle of `$ref`s, `allOf`s, `not`s, ... that never descends into the instance
    /// (2020-12 Core, section 9.4.1).
    InfiniteRecursion,
}

#[derive(Clone)]
struct SchemaErrorInner {
    kind: SchemaErrorKind,
    location: String,
    message: String,
}

/// A schema that cannot be compiled, with the JSON Pointer of the offending place.
///
/// ```
/// let err = mcp_jsonschema::Validator::new(&serde_json::json!({"minimum": "x"})).unwrap_err();
/// assert_eq!(err.location(), "/minimum");
/// assert_eq!(err.kind(), mcp_jsonschema::SchemaErrorKind::InvalidKeyword);
/// ```
#[derive(Clone)]
pub struct SchemaError(Box<SchemaErrorInner>);

impl SchemaError {
    #[cold]
    pub(crate) fn new(kind: SchemaErrorKind, location: &str, message: impl Into<String>) -> Self {
        SchemaError(Box::new(SchemaErrorInner {
            kind,
            location: location.to_string(),
            message: message.into(),
        }))
    }

    /// What kind of problem this is.
    pub fn kind(&self) -> SchemaErrorKind {
        self.0.kind
    }

    /// Where in the schema the problem is: a JSON Pointer, prefixed by the document's URI
    /// when the problem lies in a registered resource rather than the root document.
    pub fn location(&self) -> &str {
        &self.0.location
    }

    /// The problem, without its location.
    pub fn message(&self) -> &str {
        &self.0.message
    }
}

impl fmt::Display for SchemaError {
    /// `location: message`, as [`ValidationError`] displays (`(root)` for the root).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let location = if self.0.location.is_empty() {
            "(root)"
        } else {
            &self.0.location
        };
        write!(f, "{location}: {}", self.0.message)
    }
}

impl fmt::Debug for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SchemaError({:?}: {self})", self.0.kind)
    }
}

impl std::error::Error for SchemaError {}

/// Which check an instance failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ValidationErrorKind {
    /// The `false` schema, or `additionalProperties` / `unevaluated*` set to `false`.
    FalseSchema,
    /// `type`.
    Type,
    /// `const`.
    Const,
    /// `enum`.
    Enum,
    /// `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`.
    Range,
    /// `multipleOf`.
    MultipleOf,
    /// `minLength`, `maxLength`.
    Length,
    /// `pattern`.
    Pattern,
    /// `format`, when format assertion is on.
    Format,
    /// `minItems`, `maxItems`, `minProperties`, `maxProperties`.
    Size,
    /// `uniqueItems`.
    UniqueItems,
    /// `contains`, `minContains`, `maxContains`.
    Contains,
    /// `required`, `dependentRequired`, `dependencies`.
    Required,
    /// `anyOf`.
    AnyOf,
    /// `oneOf`.
    OneOf,
    /// `not`.
    Not,
    /// `additionalProperties`, `unevaluatedProperties`, `unevaluatedItems` (for a named element).
    Unexpected,
    /// The instance is nested deeper than the validator may follow.
    DepthExceeded,
    /// The per-validation step budget ran out before a verdict: never a pass.
    BudgetExhausted,
    /// Evaluation came back to a subschema it was already evaluating at the same
    /// instance location (a reference cycle through `anyOf`, `then`, `dependentSchemas`,
    /// ... that this instance goes round without descending): the schema is infinitely
    /// recursive here, which is never a pass.
    InfiniteRecursion,
}

impl ValidationErrorKind {
    /// Whether validation stopped at one of the validator's limits (instance depth or
    /// step budget) rather than at a keyword the instance failed.
    ///
    /// ```
    /// use mcp_jsonschema::ValidationErrorKind;
    /// assert!(ValidationErrorKind::BudgetExhausted.is_limit());
    /// assert!(!ValidationErrorKind::Type.is_limit());
    /// ```
    pub fn is_limit(self) -> bool {
        matches!(self, Self::DepthExceeded | Self::BudgetExhausted)
    }
}

/// An instance that does not conform, with where and why.
///
/// ```
/// use serde_json::json;
/// let v = mcp_jsonschema::Validator::new(&json!({"properties": {"n": {"minimum": 3}}})).unwrap();
/// let err = v.validate(&json!({"n": 1})).unwrap_err();
/// assert_eq!(err.instance_location(), "/n");
/// assert_eq!(err.schema_location(), "/properties/n/minimum");
/// assert_eq!(err.to_string(), "/n: 1 is less than the minimum of 3");
/// ```
///
/// An `anyOf` / `oneOf` that no branch accepts names the branch that explains the failure
/// best, and carries that branch's errors as its [`context`](ValidationError::context),
/// shown one per line below its own:
///
/// ```
/// use serde_json::json;
/// let v = mcp_jsonschema::Validator::new(&json!({"oneOf": [
///     {"properties": {"kind": {"const": "circle"}, "radius": {"type": "number"}}, "required": ["kind", "radius"]},
///     {"properties": {"kind": {"const": "square"}, "side": {"type": "number"}}, "required": ["kind", "side"]}
/// ]})).unwrap();
/// let err = v.validate(&json!({"kind": "square", "side": "2"})).unwrap_err();
/// assert_eq!(err.context().len(), 1);
/// assert_eq!(err.context()[0].instance_location(), "/side");
/// assert_eq!(err.to_string(), "(root): {\"kind\":\"square\",\"side\":\"2\"} is not valid under any of \
///     the schemas in oneOf; the closest is #1\n  /side: expected number, got string \"2\"; send the \
///     number itself, not a JSON-encoded string");
/// ```
///
/// The three texts share one buffer (message, then instance location, then schema
/// location): creating an error is one allocation.
#[derive(Clone)]
pub struct ValidationError {
    kind: ValidationErrorKind,
    message_end: u32,
    instance_end: u32,
    /// Where the schema location ends: a keyword location along the evaluation path
    /// (see [`crate::Evaluation`]) may follow it.
    schema_end: u32,
    text: String,
    /// The operands and the closest branch's errors, boxed apart so that an error
    /// stays six words.
    extra: Option<Box<Extra>>,
}

/// What some errors carry beyond their texts.
#[derive(Clone, Default)]
struct Extra {
    /// [`ValidationError::details`].
    details: Option<ErrorDetails>,
    /// [`ValidationError::context`].
    context: Vec<ValidationError>,
}

/// What the failing keyword asked for, and what it found where that is not the value
/// itself: the operands of an error, for programs that act on it (a form that marks a
/// field, a client that retries with the allowed values). `None` from
/// [`ValidationError::details`] for the applicators (`anyOf`, `not`, ...) and limit stops.
///
/// ```
/// use mcp_jsonschema::ErrorDetails;
/// use serde_json::json;
/// let v = mcp_jsonschema::Validator::new(&json!({"properties": {"name": {"maxLength": 3}}})).unwrap();
/// let error = v.validate(&json!({"name": "Tokyo"})).unwrap_err();
/// assert_eq!(
///     error.details(),
///     Some(&ErrorDetails::Length { keyword: "maxLength", limit: 3, actual: 5 })
/// );
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ErrorDetails {
    /// `type`: the types the schema takes, and the value's.
    Type {
        /// The types accepted, as `type` names them.
        expected: Vec<&'static str>,
        /// The value's type (`integer` for a number without a fraction).
        actual: &'static str,
    },
    /// `const`: the value required.
    Const {
        /// The `const` value.
        expected: Value,
    },
    /// `enum`: the values allowed.
    Enum {
        /// The `enum` values, as written.
        options: Vec<Value>,
    },
    /// `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`.
    Range {
        /// Which of the four.
        keyword: &'static str,
        /// Its bound.
        limit: Number,
    },
    /// `multipleOf`.
    MultipleOf {
        /// The divisor.
        divisor: Number,
    },
    /// `minLength`, `maxLength` (lengths in Unicode code points).
    Length {
        /// Which of the two.
        keyword: &'static str,
        /// Its bound.
        limit: u64,
        /// The string's length.
        actual: u64,
    },
    /// `pattern`.
    Pattern {
        /// The regular expression, as written.
        pattern: String,
    },
    /// `format`, when asserted.
    Format {
        /// The format's name.
        format: String,
    },
    /// `minItems`, `maxItems`, `minProperties`, `maxProperties`.
    Size {
        /// Which of the four.
        keyword: &'static str,
        /// Its bound.
        limit: u64,
        /// How many items or properties the value has.
        actual: u64,
    },
    /// `required`, `dependentRequired` (and array-valued `dependencies`).
    Required {
        /// The missing property.
        missing: String,
        /// For `dependentRequired`: the property whose presence requires it.
        because: Option<String>,
    },
    /// A property `additionalProperties` / `unevaluatedProperties` (set to `false`) does
    /// not allow.
    Unexpected {
        /// The property's name.
        property: String,
    },
}

impl ValidationError {
    /// An error whose `text` holds its message, at the schema location `location`
    /// appends (to the text, after an empty instance location).
    #[cold]
    pub(crate) fn located(
        kind: ValidationErrorKind,
        mut text: String,
        location: impl FnOnce(&mut String),
    ) -> Self {
        let message_end = offset(text.len());
        location(&mut text);
        let schema_end = offset(text.len());
        ValidationError {
            kind,
            message_end,
            instance_end: message_end,
            schema_end,
            text,
            extra: None,
        }
    }

    /// Records where along the evaluation path (through `$ref`s) the failing keyword
    /// was reached.
    pub(crate) fn set_keyword_location(&mut self, location: &str) {
        self.text.truncate(self.schema_end as usize);
        self.text.push_str(location);
    }

    /// The keyword's location along the evaluation path, when one was recorded; else
    /// its schema location.
    pub(crate) fn keyword_location(&self) -> &str {
        match &self.text[self.schema_end as usize..] {
            "" => self.schema_location(),
            location => location,
        }
    }

    /// Puts `/token` (escaped for a JSON Pointer) in front of the instance location (and
    /// of its context's): the interpreter writes locations innermost step first, on its
    /// way out of a failure.
    pub(crate) fn prefix_instance_location(&mut self, token: &str) {
        let at = self.message_end as usize;
        let before = self.text.len();
        if token.bytes().any(|b| b == b'~' || b == b'/') {
            let mut escaped = String::new();
            crate::json::pointer::push(&mut escaped, token);
            self.text.insert_str(at, &escaped);
        } else {
            self.text.insert_str(at, token);
            self.text.insert(at, '/');
        }
        let added = offset(self.text.len() - before);
        self.instance_end = self.instance_end.saturating_add(added);
        self.schema_end = self.schema_end.saturating_add(added);
        for error in self
            .extra
            .iter_mut()
            .flat_map(|extra| extra.context.iter_mut())
        {
            error.prefix_instance_location(token);
        }
    }

    /// Adds `hint` (how to fix the problem) to the message.
    pub(crate) fn push_hint(&mut self, hint: &str) {
        let at = self.message_end as usize;
        let added = hint.len() + 2;
        self.text.insert_str(at, hint);
        self.text.insert_str(at, "; ");
        self.message_end = self.message_end.saturating_add(offset(added));
        self.instance_end = self.instance_end.saturating_add(offset(added));
        self.schema_end = self.schema_end.saturating_add(offset(added));
    }

    /// Attaches the errors of the branch that explains this error best.
    pub(crate) fn set_context(&mut self, context: Vec<ValidationError>) {
        if !context.is_empty() {
            self.extra.get_or_insert_with(Box::default).context = context;
        }
    }

    /// A copy of this error without its context (its details kept).
    pub(crate) fn without_context(&self) -> ValidationError {
        ValidationError {
            kind: self.kind,
            message_end: self.message_end,
            instance_end: self.instance_end,
            schema_end: self.schema_end,
            text: self.text.clone(),
            extra: self.extra.as_ref().and_then(|extra| {
                let details = extra.details.clone()?;
                Some(Box::new(Extra {
                    details: Some(details),
                    context: Vec::new(),
                }))
            }),
        }
    }

    /// Attaches the operands of the failed keyword.
    pub(crate) fn set_details(&mut self, details: ErrorDetails) {
        self.extra.get_or_insert_with(Box::default).details = Some(details);
    }

    /// Which check failed.
    pub fn kind(&self) -> ValidationErrorKind {
        self.kind
    }

    /// JSON Pointer to the failing part of the instance (`""` is the whole instance).
    pub fn instance_location(&self) -> &str {
        &self.text[self.message_end as usize..self.instance_end as usize]
    }

    /// JSON Pointer to the schema keyword that failed, prefixed by the URI of the
    /// document when that keyword lives in a registered resource.
    pub fn schema_location(&self) -> &str {
        &self.text[self.instance_end as usize..self.schema_end as usize]
    }

    /// The keyword that failed (`minimum`, `required`, `anyOf`, ...): the last token of
    /// the schema location. `None` for a `false` schema and for a stop at a limit, which
    /// no keyword made.
    ///
    /// ```
    /// use serde_json::json;
    /// let v = mcp_jsonschema::Validator::new(&json!({"properties": {"n": {"minimum": 3}}})).unwrap();
    /// assert_eq!(v.validate(&json!({"n": 1})).unwrap_err().keyword(), Some("minimum"));
    /// ```
    pub fn keyword(&self) -> Option<&str> {
        use ValidationErrorKind as K;
        match self.kind {
            K::FalseSchema | K::DepthExceeded | K::BudgetExhausted | K::InfiniteRecursion => None,
            _ => {
                let location = self.schema_location();
                let pointer = location.rsplit_once('#').map_or(location, |(_, p)| p);
                let (_, last) = pointer.rsplit_once('/')?;
                (!last.contains('~')).then_some(last)
            }
        }
    }

    /// The problem in words, without the location (nor the context).
    pub fn message(&self) -> &str {
        &self.text[..self.message_end as usize]
    }

    /// The operands of the failed keyword (see [`ErrorDetails`]).
    pub fn details(&self) -> Option<&ErrorDetails> {
        self.extra.as_deref()?.details.as_ref()
    }

    /// For an `anyOf` / `oneOf` that no branch accepted: the errors of the branch that
    /// explains the failure best (the one a `const` / `enum` tag selected, else the one
    /// that failed deepest in the instance, then with the fewest errors). Empty for
    /// other errors, and when every branch failed on the value's type (the message then
    /// lists the types the branches accept).
    pub fn context(&self) -> &[ValidationError] {
        self.extra.as_deref().map_or(&[], |extra| &extra.context)
    }

    /// Writes `location: message`, then each context error on a line of its own,
    /// indented by `indent` more spaces per level.
    fn write_lines(&self, f: &mut fmt::Formatter<'_>, indent: usize) -> fmt::Result {
        let at = match self.instance_location() {
            "" => "(root)",
            at => at,
        };
        write!(f, "{at}: {}", self.message())?;
        for error in self.context() {
            write!(f, "\n{:1$}", "", indent + 2)?;
            error.write_lines(f, indent + 2)?;
        }
        Ok(())
    }
}

/// A text offset, as stored: error texts are far shorter than 4 GiB, and saturating
/// keeps an absurd one from wrapping.
fn offset(len: usize) -> u32 {
    u32::try_from(len).unwrap_or(u32::MAX)
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_lines(f, 0)
    }
}

impl fmt::Debug for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ValidationError({:?}: {self} [schema {}])",
            self.kind,
            self.schema_location()
        )
    }
}

impl std::error::Error for ValidationError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_small() {
        assert_eq!(
            std::mem::size_of::<Result<(), SchemaError>>(),
            std::mem::size_of::<usize>()
        );
        // The buffer and two offsets, unboxed: a second allocation per error would be a
        // tenth of a failing `validate` on a small MCP instance.
        assert!(
            std::mem::size_of::<Result<(), ValidationError>>() <= 6 * std::mem::size_of::<usize>()
        );
    }
}
