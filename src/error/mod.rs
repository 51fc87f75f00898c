//! The two error types: [`SchemaError`] (the schema cannot be compiled) and
//! [`ValidationError`] (an instance does not conform).
//!
//! Both are built only by `#[cold]` constructors inside the crate, and cost one
//! allocation: a [`SchemaError`] is one `Box` of private data (so `Result<(), SchemaError>`
//! is one word wide); a [`ValidationError`] keeps its message and both locations in one
//! `String`, unboxed, as a failing `validate` returns it at once. Both carry JSON
//! Pointers: a schema error names where in the schema the problem is, a validation error
//! names where in the instance it failed and which schema keyword failed it.
//!
//! A validation error's message may quote the instance (`"x" is not a valid "email"`);
//! the error keeps where ([`Quotation`], three bytes beside its offsets), so that
//! [`ValidationError::masked`] renders it without instance data, on request only.

mod masking;

pub use masking::MaskedError;
pub(crate) use masking::{Quotation, Quote, StandIn};

use crate::ids::NodeId;
use crate::json::text::SyntaxError;
use serde_json::{Number, Value};
use std::borrow::Cow;
use std::fmt;
use std::panic::{RefUnwindSafe, UnwindSafe};
use std::sync::Arc;

/// What kind of problem made a schema unusable. See the example on [`SchemaError`].
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
    /// For a reference to a document no one registered: its URI, which a retriever may
    /// supply ([`SchemaError::missing_document`]).
    missing: Option<Box<str>>,
}

/// A schema that cannot be compiled, with the JSON Pointer of the offending place.
///
/// ```
/// let err = mcp_jsonschema::Validator::new(&serde_json::json!({"minimum": "x"})).unwrap_err();
/// assert_eq!(err.location(), "/minimum");
/// assert_eq!(err.kind(), mcp_jsonschema::SchemaErrorKind::InvalidKeyword);
/// assert_eq!(
///     err.message(),
///     r#"schema is not valid under the 2020-12 metaschema: /minimum: expected number, got string "x""#
/// );
/// assert_eq!(err.to_string(), format!("/minimum: {}", err.message()));
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
            missing: None,
        }))
    }

    /// This error, saying that it is about the document at `uri`, which no one
    /// registered.
    pub(crate) fn with_missing_document(mut self, uri: &str) -> Self {
        self.0.missing = Some(uri.into());
        self
    }

    /// The URI of the document whose absence this error reports, if it does.
    pub(crate) fn missing_document(&self) -> Option<&str> {
        self.0.missing.as_deref()
    }

    /// What kind of problem this is. See the example on [`SchemaError`].
    pub fn kind(&self) -> SchemaErrorKind {
        self.0.kind
    }

    /// Where in the schema the problem is: a JSON Pointer, prefixed by the document's URI
    /// when the problem lies in a registered resource rather than the root document.
    /// See the example on [`SchemaError`].
    pub fn location(&self) -> &str {
        &self.0.location
    }

    /// The problem, without its location. See the example on [`SchemaError`].
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

/// Which check an instance failed. See the example on [`ValidationError`].
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
/// use mcp_jsonschema::{ErrorDetails, ValidationErrorKind};
/// let v = mcp_jsonschema::Validator::new(&json!({"properties": {"n": {"minimum": 3}}})).unwrap();
/// let err = v.validate(&json!({"n": 1})).unwrap_err();
/// assert_eq!(err.kind(), ValidationErrorKind::Range);
/// assert_eq!(err.instance_location(), "/n");
/// assert_eq!(err.schema_location(), "/properties/n/minimum");
/// assert_eq!(err.message(), "1 is less than the minimum of 3");
/// assert_eq!(err.to_string(), "/n: 1 is less than the minimum of 3");
/// assert_eq!(
///     err.details().as_deref(),
///     Some(&ErrorDetails::Range { keyword: "minimum", limit: 3.into() })
/// );
/// assert!(err.context().is_empty());
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
/// The two texts share one buffer (instance location, then message), and the schema
/// location is the failing node's, read from the validator's program when asked for
/// (rendered the first time, then kept): creating an error is one allocation. An error
/// shares the program's schema locations (not the rest of the program), so it may
/// outlive its validator.
///
/// Messages quote the value that failed. Where that value may be secret (tool results
/// carry file contents, tokens and personal data, and servers log their errors),
/// [`masked`](ValidationError::masked) renders an error without it, or a validator built
/// [`with_masked_errors`](crate::ValidationOptions::with_masked_errors) writes every
/// error that way.
#[derive(Clone)]
pub struct ValidationError {
    failed: Failed,
    /// Where the message quotes the instance, in the room beside the offsets.
    quotation: Quotation,
    /// Where the instance location ends (`(root)` stands for the empty one), followed
    /// by `": "` and the message.
    instance_end: u32,
    /// Where the message ends: a keyword location along the evaluation path (see
    /// [`crate::Evaluation`]) may follow it.
    message_end: u32,
    /// The node that failed, whose schema location `locations` holds.
    node: NodeId,
    /// `location: message`, the line [`Display`](fmt::Display) writes: displaying a
    /// one-line error is one write of a ready slice (in pieces, `to_string` grew its
    /// buffer twice, a tenth of a failing `validate` on a small MCP instance).
    text: String,
    /// The operands and the closest branch's errors, boxed apart so that an error
    /// stays eight words.
    extra: Option<Box<Extra>>,
    /// The schema locations of the program that made the error. Written when read
    /// rather than when the error is made: a tenth of a failing `validate` on a small
    /// MCP instance went to writing a location that `Display` does not show.
    locations: Arc<dyn SchemaLocations>,
}

/// Where errors read their schema locations: the locations of the program that made
/// them (the interpreter's, a layer above).
pub(crate) trait SchemaLocations: Send + Sync + RefUnwindSafe + UnwindSafe {
    /// The schema location of node `node`: a JSON Pointer, after the URI of its document
    /// and `#` for documents other than the root schema's.
    fn schema_location(&self, node: NodeId) -> &str;
}

/// What [`ValidationError::kind`] reads, as an error keeps it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Failed {
    /// Any kind of failure.
    Kind(ValidationErrorKind),
    /// A property `additionalProperties` / `unevaluatedProperties` does not allow
    /// ([`ValidationErrorKind::Unexpected`]): its [`ErrorDetails::Unexpected`] are read
    /// from the instance location, whose last token names the property, rather than
    /// kept (a failing `validate` on a small MCP instance spent a fifth of its
    /// instructions allocating and freeing them).
    UnexpectedProperty,
    /// A property `required` names that the object lacks
    /// ([`ValidationErrorKind::Required`], not one of `dependentRequired`): its
    /// [`ErrorDetails::Required`] are read from the message, which quotes the name after
    /// [`MISSING_PROPERTY`], rather than kept (their box and the name's copy were two of
    /// the four allocations of such an error).
    MissingProperty,
}

/// The start of the message of a [`Failed::MissingProperty`] error, before the quoted
/// name.
pub(crate) const MISSING_PROPERTY: &str = "missing required property ";

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
///     error.details().as_deref(),
///     Some(&ErrorDetails::Length { keyword: "maxLength", limit: 3, actual: 5 })
/// );
/// ```
///
/// Masked ([`MaskedError::details`], or any error of a validator built
/// [`with_masked_errors`](crate::ValidationOptions::with_masked_errors)), details hold no
/// instance data: every field is the schema's own (bounds, values, patterns, format and
/// property names), a type name, or a length or count, but for the name of an
/// [`Unexpected`](ErrorDetails::Unexpected) property, which is then empty (the error's
/// instance location ends with it).
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
        /// The property's name; empty when masked (see [`ErrorDetails`]): an instance
        /// key, it is then only in the error's instance location, as its last token.
        property: String,
    },
}

impl ErrorDetails {
    /// These details without instance data, or `None` when they hold none. Every other
    /// field is the schema's own (its bounds, values, patterns, format names, property
    /// names), a type name, or a length or count.
    fn masked(&self) -> Option<ErrorDetails> {
        match self {
            ErrorDetails::Unexpected { property } if !property.is_empty() => {
                Some(ErrorDetails::Unexpected {
                    property: String::new(),
                })
            }
            ErrorDetails::Type { .. }
            | ErrorDetails::Const { .. }
            | ErrorDetails::Enum { .. }
            | ErrorDetails::Range { .. }
            | ErrorDetails::MultipleOf { .. }
            | ErrorDetails::Length { .. }
            | ErrorDetails::Pattern { .. }
            | ErrorDetails::Format { .. }
            | ErrorDetails::Size { .. }
            | ErrorDetails::Required { .. }
            | ErrorDetails::Unexpected { .. } => None,
        }
    }
}

impl ValidationError {
    /// An error of node `node` (whose schema location `locations` holds) whose `text`
    /// holds [`ROOT_LINE`] and its message (quoting the instance where `quotation` says),
    /// for now at the instance's root.
    #[cold]
    pub(crate) fn located(
        kind: ValidationErrorKind,
        text: String,
        quotation: Quotation,
        locations: Arc<dyn SchemaLocations>,
        node: NodeId,
    ) -> Self {
        debug_assert!(text.starts_with(ROOT_LINE), "{text:?}");
        ValidationError {
            failed: Failed::Kind(kind),
            quotation,
            instance_end: offset(ROOT.len()),
            message_end: offset(text.len()),
            node,
            text,
            extra: None,
            locations,
        }
    }

    /// Whether the instance location is the root's (the text starts with [`ROOT`]: a
    /// JSON Pointer is empty or starts with `/`).
    fn at_root(&self) -> bool {
        self.text.starts_with('(')
    }

    /// Records where along the evaluation path (through `$ref`s) the failing keyword
    /// was reached.
    pub(crate) fn set_keyword_location(&mut self, location: &str) {
        self.text.truncate(self.message_end as usize);
        self.text.push_str(location);
    }

    /// The keyword's location along the evaluation path, when one was recorded; else
    /// its schema location.
    pub(crate) fn keyword_location(&self) -> &str {
        match &self.text[self.message_end as usize..] {
            "" => self.schema_location(),
            location => location,
        }
    }

    /// Puts `/token` (escaped for a JSON Pointer) in front of the instance location (and
    /// of its context's): the interpreter writes locations innermost step first, on its
    /// way out of a failure.
    pub(crate) fn prefix_instance_location(&mut self, token: &str) {
        let before = self.text.len();
        // The `/` first, in place of the root's stand-in where it is (one move of the
        // text less), then the token after it.
        match self.at_root() {
            true => self.text.replace_range(..ROOT.len(), "/"),
            false => self.text.insert(0, '/'),
        }
        self.text
            .insert_str(1, &crate::json::pointer::escape(token));
        // The text grows by the step, less the root's stand-in where it went.
        let shift = |end: u32| offset((end as usize + self.text.len()).saturating_sub(before));
        self.instance_end = shift(self.instance_end);
        self.message_end = shift(self.message_end);
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
        self.quotation = self.quotation.appended(added);
        self.message_end = self.message_end.saturating_add(offset(added));
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
            failed: self.failed,
            quotation: self.quotation,
            instance_end: self.instance_end,
            message_end: self.message_end,
            node: self.node,
            text: self.text.clone(),
            extra: self.extra.as_ref().and_then(|extra| {
                let details = extra.details.clone()?;
                Some(Box::new(Extra {
                    details: Some(details),
                    context: Vec::new(),
                }))
            }),
            locations: Arc::clone(&self.locations),
        }
    }

    /// Attaches the operands of the failed keyword (masked, when the message was).
    pub(crate) fn set_details(&mut self, details: ErrorDetails) {
        let details = match self.quotation.is_masked() {
            true => details.masked().unwrap_or(details),
            false => details,
        };
        self.extra.get_or_insert_with(Box::default).details = Some(details);
    }

    /// Marks an [`Unexpected`](ValidationErrorKind::Unexpected) error as one of a
    /// property, the last token of its instance location once located: its
    /// [`details`](ValidationError::details) name it.
    pub(crate) fn set_unexpected_property(&mut self) {
        self.failed = Failed::UnexpectedProperty;
    }

    /// Marks a [`Required`](ValidationErrorKind::Required) error whose message starts
    /// with [`MISSING_PROPERTY`] and the quoted name: its
    /// [`details`](ValidationError::details) name it.
    pub(crate) fn set_missing_property(&mut self) {
        self.failed = Failed::MissingProperty;
    }

    /// Which check failed. See the example on [`ValidationError`].
    pub fn kind(&self) -> ValidationErrorKind {
        match self.failed {
            Failed::Kind(kind) => kind,
            Failed::UnexpectedProperty => ValidationErrorKind::Unexpected,
            Failed::MissingProperty => ValidationErrorKind::Required,
        }
    }

    /// JSON Pointer to the failing part of the instance (`""` is the whole instance).
    /// See the example on [`ValidationError`].
    pub fn instance_location(&self) -> &str {
        match self.at_root() {
            true => "",
            false => &self.text[..self.instance_end as usize],
        }
    }

    /// JSON Pointer to the schema keyword that failed, prefixed by the URI of the
    /// document when that keyword lives in a registered resource. See the example on
    /// [`ValidationError`].
    pub fn schema_location(&self) -> &str {
        self.locations.schema_location(self.node)
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
        match self.kind() {
            K::FalseSchema | K::DepthExceeded | K::BudgetExhausted | K::InfiniteRecursion => None,
            _ => {
                let location = self.schema_location();
                let pointer = location.rsplit_once('#').map_or(location, |(_, p)| p);
                let (_, last) = pointer.rsplit_once('/')?;
                (!last.contains('~')).then_some(last)
            }
        }
    }

    /// The problem in words, without the location (nor the context). See the example on
    /// [`ValidationError`].
    pub fn message(&self) -> &str {
        &self.text[self.instance_end as usize + LINE_SEPARATOR.len()..self.message_end as usize]
    }

    /// The operands of the failed keyword (see [`ErrorDetails`]): borrowed from the
    /// error, or made when asked for from what it keeps (the name of an
    /// [`Unexpected`](ErrorDetails::Unexpected) property is the last token of the
    /// instance location, that of a missing one is quoted in the message). See the
    /// example on [`ValidationError`].
    pub fn details(&self) -> Option<Cow<'_, ErrorDetails>> {
        if self.failed == Failed::MissingProperty {
            // The schema's name, never masked: the JSON string after the words.
            let quoted = self.message().strip_prefix(MISSING_PROPERTY).unwrap_or("");
            let missing = (serde_json::Deserializer::from_str(quoted).into_iter::<String>())
                .next()
                .and_then(Result::ok)
                .unwrap_or_default();
            return Some(Cow::Owned(ErrorDetails::Required {
                missing,
                because: None,
            }));
        }
        if self.failed == Failed::UnexpectedProperty {
            // Masked, the name goes (see `ErrorDetails`).
            let property = match self.quotation.is_masked() {
                true => String::new(),
                false => {
                    // The last token alone, unescaped.
                    let location = self.instance_location();
                    let last = location.rfind('/').map_or("", |at| &location[at..]);
                    (crate::json::pointer::tokens(last))
                        .and_then(|mut tokens| tokens.next())
                        .map_or_else(String::new, Cow::into_owned)
                }
            };
            return Some(Cow::Owned(ErrorDetails::Unexpected { property }));
        }
        self.extra.as_deref()?.details.as_ref().map(Cow::Borrowed)
    }

    /// For an `anyOf` / `oneOf` that no branch accepted: the errors of the branch that
    /// explains the failure best (the one a `const` / `enum` tag selected, else the one
    /// that failed deepest in the instance, then with the fewest errors). Empty for
    /// other errors, and when every branch failed on the value's type (the message then
    /// lists the types the branches accept). See the examples on [`ValidationError`].
    pub fn context(&self) -> &[ValidationError] {
        self.extra.as_deref().map_or(&[], |extra| &extra.context)
    }

    /// This error without instance data: its [`Display`](fmt::Display) is the error's,
    /// context lines included, with each quotation of the instance replaced by the
    /// value's type, or left out where the words around already name it; its
    /// [`details`](MaskedError::details) leave out the name of an unexpected property.
    /// What remains: types, lengths and counts, the locations (JSON Pointers: the only
    /// place an instance's property names appear), and the schema's own operands
    /// (bounds, `const` / `enum` values, patterns, format names, property names, as in a
    /// hint "did you mean ...?").
    ///
    /// The rendering is made when asked for, from what the error keeps (where its message
    /// quotes the instance, in three bytes it had room for): any error can be masked,
    /// and an error costs no more for it. Those of a validator built
    /// [`with_masked_errors`](crate::ValidationOptions::with_masked_errors) are masked
    /// already, and render alike.
    ///
    /// ```
    /// use serde_json::json;
    /// let v = mcp_jsonschema::Validator::new(&json!({
    ///     "properties": {"token": {"type": "integer"}, "units": {"enum": ["metric", "imperial"]}}
    /// }))?;
    /// let error = v.validate(&json!({"token": "s3cr3t"})).unwrap_err();
    /// assert_eq!(error.to_string(), r#"/token: expected integer, got string "s3cr3t""#);
    /// assert_eq!(error.masked().to_string(), "/token: expected integer, got string");
    ///
    /// let error = v.validate(&json!({"units": "s3cr3t"})).unwrap_err();
    /// assert_eq!(error.masked().message(), r#"expected one of "metric", "imperial", got string"#);
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
    pub fn masked(&self) -> MaskedError<'_> {
        MaskedError { error: self }
    }

    /// This error, then each error of its [`context`](ValidationError::context) followed
    /// by its own, depth first, each with its depth (0 for this one): the lines its
    /// [`Display`](fmt::Display) writes, one `location: message` each, indented two
    /// spaces per level. For output that puts each problem on a line of its own.
    ///
    /// ```
    /// use serde_json::json;
    /// let v = mcp_jsonschema::Validator::new(&json!({"anyOf": [
    ///     {"required": ["id"]}, {"properties": {"name": {"type": "string"}}, "required": ["name"]}
    /// ]}))?;
    /// let error = v.validate(&json!({"name": 7})).unwrap_err();
    /// let lines: Vec<String> = error
    ///     .lines()
    ///     .map(|(depth, e)| format!("{depth} {}: {}", e.instance_location(), e.message()))
    ///     .collect();
    /// assert_eq!(lines, [
    ///     "0 : {\"name\":7} is not valid under any of the schemas in anyOf; the closest is #1",
    ///     "1 /name: expected string, got integer 7",
    /// ]);
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
    pub fn lines(&self) -> impl Iterator<Item = (usize, &ValidationError)> {
        let mut pending = vec![(0, self)];
        std::iter::from_fn(move || {
            let (depth, error) = pending.pop()?;
            let context = error.context().iter().rev();
            pending.extend(context.map(|e| (depth + 1, e)));
            Some((depth, error))
        })
    }

    /// Writes [`ValidationError::lines`], each `location: message` on a line of its own;
    /// with `masked`, each message masked.
    fn write_lines(&self, f: &mut fmt::Formatter<'_>, masked: bool) -> fmt::Result {
        // Most errors are one line: written without the walk's stack, which is a
        // heap allocation (a fifth of displaying a short error).
        if self.context().is_empty() {
            return self.write_line(f, masked);
        }
        for (depth, error) in self.lines() {
            if depth > 0 {
                write!(f, "\n{:1$}", "", 2 * depth)?;
            }
            error.write_line(f, masked)?;
        }
        Ok(())
    }

    /// Writes this error's own line, `location: message`, without its context.
    fn write_line(&self, f: &mut fmt::Formatter<'_>, masked: bool) -> fmt::Result {
        match masked {
            true => {
                f.write_str(&self.text[..self.instance_end as usize + LINE_SEPARATOR.len()])?;
                self.quotation.write_masked(self.message(), f)
            }
            false => f.write_str(&self.text[..self.message_end as usize]),
        }
    }
}

/// What a line says for the instance's root, whose location is empty.
const ROOT: &str = "(root)";

/// Between a line's location and its message.
const LINE_SEPARATOR: &str = ": ";

/// [`ROOT`] and [`LINE_SEPARATOR`]: the start of an error's text.
pub(crate) const ROOT_LINE: &str = "(root): ";

/// A text offset, as stored: error texts are far shorter than 4 GiB, and saturating
/// keeps an absurd one from wrapping.
fn offset(len: usize) -> u32 {
    u32::try_from(len).unwrap_or(u32::MAX)
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_lines(f, false)
    }
}

impl fmt::Debug for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ValidationError({:?}: {self} [schema {}])",
            self.kind(),
            self.schema_location()
        )
    }
}

impl std::error::Error for ValidationError {}

/// Why [`Validator::validate_json`](crate::Validator::validate_json) refused a text:
/// it is not JSON, or the value it holds does not conform.
///
/// ```
/// use serde_json::json;
/// use mcp_jsonschema::JsonError;
/// let validator = mcp_jsonschema::Validator::new(&json!({"maxLength": 3}))?;
/// assert!(validator.validate_json(br#""abc""#).is_ok());
/// match validator.validate_json(br#""abcd""#) {
///     Err(JsonError::Invalid(error)) => assert_eq!(error.to_string(), "(root): \"abcd\" is longer than 3 characters"),
///     other => panic!("{other:?}"),
/// }
/// assert!(matches!(validator.validate_json(b"\"abc"), Err(JsonError::Syntax(_))));
/// # Ok::<(), mcp_jsonschema::SchemaError>(())
/// ```
#[derive(Debug)]
pub enum JsonError {
    /// The text is not one JSON document.
    Syntax(SyntaxError),
    /// The document does not conform: its first error, as
    /// [`Validator::validate`](crate::Validator::validate) gives it.
    Invalid(ValidationError),
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsonError::Syntax(error) => write!(f, "not JSON: {error}"),
            JsonError::Invalid(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for JsonError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            JsonError::Syntax(error) => Some(error),
            JsonError::Invalid(error) => Some(error),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::masking::WITHHELD_MESSAGE;
    use super::*;

    #[test]
    fn the_root_line_is_the_root_and_the_separator() {
        assert_eq!(ROOT_LINE, format!("{ROOT}{LINE_SEPARATOR}"));
    }

    #[test]
    fn errors_are_small() {
        assert_eq!(
            std::mem::size_of::<Result<(), SchemaError>>(),
            std::mem::size_of::<usize>()
        );
        // The buffer, its offsets and the shared locations, unboxed: a second allocation
        // per error would be a tenth of a failing `validate` on a small MCP instance.
        assert!(
            std::mem::size_of::<Result<(), ValidationError>>() <= 8 * std::mem::size_of::<usize>()
        );
    }

    /// Schema locations that put every node at `/enum`.
    struct AtEnum;

    impl SchemaLocations for AtEnum {
        fn schema_location(&self, _: NodeId) -> &str {
            "/enum"
        }
    }

    /// An error of kind `kind` whose text is the root's line and `message`, at `/enum`.
    fn error(kind: ValidationErrorKind, message: &str, quotation: Quotation) -> ValidationError {
        let text = format!("{ROOT_LINE}{message}");
        let node = NodeId::new(0).expect("0 is an id");
        ValidationError::located(kind, text, quotation, Arc::new(AtEnum), node)
    }

    /// An error whose message `head + quoted + tail` quotes `quoted`, masked as `stand_in`.
    fn quoting(head: &str, quoted: &str, tail: &str, stand_in: StandIn) -> ValidationError {
        let message = format!("{head}{quoted}{tail}");
        let quote = Quote {
            start: head.len(),
            end: head.len() + quoted.len(),
            stand_in,
        };
        let quotation = Quotation::of(quote, message.len());
        error(ValidationErrorKind::Enum, &message, quotation)
    }

    fn masked(error: &ValidationError) -> String {
        error.masked().message().into_owned()
    }

    #[test]
    fn each_anchor_places_its_quotation_and_withholds_what_it_cannot_place() {
        let (short, long) = ("x".repeat(500), "y".repeat(600));
        let string = StandIn::Type(4);
        // At the head, at the tail past a long head, and between long ends.
        let cases = [
            ("", "\"secret\"", " is bad", string, "string is bad"),
            (
                &long[..],
                "\"secret\"",
                "",
                string,
                &format!("{long}string")[..],
            ),
            (
                "property ",
                &format!("\"{long}\" ")[..],
                "is not allowed",
                StandIn::Nothing,
                "property is not allowed",
            ),
            (
                &short[..],
                &long[..],
                &short[..],
                string,
                &format!("{short}string{short}")[..],
            ),
        ];
        for (head, quoted, tail, stand_in, expected) in cases {
            let error = quoting(head, quoted, tail, stand_in);
            assert_eq!(masked(&error), expected, "{head:.9}|{quoted:.9}|{tail:.9}");
            assert_eq!(error.instance_location(), "");
            assert_eq!(error.schema_location(), "/enum");
        }
        // Long on every side: nothing of it is shown.
        let error = quoting(&long, &long, &long, string);
        assert_eq!(masked(&error), WITHHELD_MESSAGE);
    }

    #[test]
    fn a_hint_after_a_quotation_moves_its_end_anchors() {
        let long = "z".repeat(600);
        let secret = "\"secret\"";
        // Placed from the start, from the end, between.
        for (head, quoted, tail) in [
            ("", secret, " is bad"),
            (&long[..], secret, ""),
            ("p ", &long[..], " q"),
        ] {
            let mut error = quoting(head, quoted, tail, StandIn::Type(4));
            error.push_hint("do better");
            assert_eq!(masked(&error), format!("{head}string{tail}; do better"));
        }
        // A hint that pushes an end anchor past its bits withholds the message.
        let mut error = quoting(&long, "\"secret\"", &"t".repeat(500), StandIn::Type(4));
        error.push_hint(&"h".repeat(20));
        assert_eq!(masked(&error), WITHHELD_MESSAGE);
    }

    #[test]
    fn masked_messages_mask_their_details() {
        let details = ErrorDetails::Unexpected {
            property: "secret".into(),
        };
        let mut unmasked = quoting(
            "property ",
            "\"secret\" ",
            "is not allowed",
            StandIn::Nothing,
        );
        unmasked.set_details(details.clone());
        assert_eq!(unmasked.details().as_deref(), Some(&details));
        let hidden = ErrorDetails::Unexpected {
            property: String::new(),
        };
        assert_eq!(unmasked.masked().details().as_deref(), Some(&hidden));
        let mut masked = error(
            ValidationErrorKind::Unexpected,
            "property is not allowed",
            Quotation::masked(),
        );
        masked.set_details(details);
        assert_eq!(masked.details().as_deref(), Some(&hidden));
        assert_eq!(masked.masked().message(), masked.message());
    }
}
