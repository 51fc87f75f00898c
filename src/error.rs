//! The two error types: [`SchemaError`] (the schema cannot be compiled) and
//! [`ValidationError`] (an instance does not conform).
//!
//! Both are built only by `#[cold]` constructors inside the crate, and cost one
//! allocation: a [`SchemaError`] is one `Box` of private data (so `Result<(), SchemaError>`
//! is one word wide); a [`ValidationError`] keeps its message and both locations in one
//! `String`, unboxed, as a failing `validate` returns it at once. Both carry JSON
//! Pointers: a schema error names where in the schema the problem is, a validation error
//! names where in the instance it failed and which schema keyword failed it.

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
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let location = if self.0.location.is_empty() {
            "(root)"
        } else {
            &self.0.location
        };
        write!(f, "{} at {}", self.0.message, location)
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
/// The three texts share one buffer (message, then instance location, then schema
/// location): creating an error is one allocation.
pub struct ValidationError {
    kind: ValidationErrorKind,
    text: String,
    message_end: usize,
    instance_end: usize,
}

impl ValidationError {
    /// An error whose `text` holds its message; the locations are appended to it.
    #[cold]
    pub(crate) fn new(
        kind: ValidationErrorKind,
        mut text: String,
        instance_location: &str,
        schema_location: &str,
    ) -> Self {
        let message_end = text.len();
        text.push_str(instance_location);
        let instance_end = text.len();
        text.push_str(schema_location);
        ValidationError {
            kind,
            text,
            message_end,
            instance_end,
        }
    }

    /// Puts `/token` (escaped for a JSON Pointer) in front of the instance location:
    /// the interpreter writes locations innermost step first, on its way out of a
    /// failure.
    pub(crate) fn prefix_instance_location(&mut self, token: &str) {
        let at = self.message_end;
        let before = self.text.len();
        if token.bytes().any(|b| b == b'~' || b == b'/') {
            let mut escaped = String::new();
            crate::json::pointer::push(&mut escaped, token);
            self.text.insert_str(at, &escaped);
        } else {
            self.text.insert_str(at, token);
            self.text.insert(at, '/');
        }
        self.instance_end += self.text.len() - before;
    }

    /// Which check failed.
    pub fn kind(&self) -> ValidationErrorKind {
        self.kind
    }

    /// JSON Pointer to the failing part of the instance (`""` is the whole instance).
    pub fn instance_location(&self) -> &str {
        &self.text[self.message_end..self.instance_end]
    }

    /// JSON Pointer to the schema keyword that failed, prefixed by the URI of the
    /// document when that keyword lives in a registered resource.
    pub fn schema_location(&self) -> &str {
        &self.text[self.instance_end..]
    }

    /// The problem in words, without the location.
    pub fn message(&self) -> &str {
        &self.text[..self.message_end]
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = match self.instance_location() {
            "" => "(root)",
            at => at,
        };
        write!(f, "{at}: {}", self.message())
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
