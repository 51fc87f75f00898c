//! JSON Schema dialects: which draft a schema is written in, which vocabularies it
//! enables, and the official metaschemas embedded in the binary.
//!
//! The compiler settles every dialect difference while lowering, so nothing here is
//! consulted at validation time. A [`Dialect`] is the draft plus the set of vocabularies
//! in force for one schema resource (a custom metaschema can switch some off).

pub(crate) mod keyword;

pub(crate) use keyword::{set_of, Keyword, KeywordSet, Keywords};

use crate::error::{SchemaError, SchemaErrorKind};
use serde_json::{Map, Value};
use std::sync::OnceLock;

/// A published JSON Schema draft.
///
/// Selected from a schema's `$schema`, or by
/// [`ValidationOptions::with_draft`](crate::ValidationOptions::with_draft) when the schema
/// declares none; 2020-12 otherwise.
///
/// ```
/// use mcp_jsonschema::Draft;
/// assert_eq!(Draft::default(), Draft::Draft202012);
/// // http or https, with or without the empty fragment.
/// assert_eq!(Draft::from_uri("https://json-schema.org/draft-07/schema"), Some(Draft::Draft7));
/// assert_eq!(Draft::from_uri("https://example.com/my-metaschema"), None);
/// assert_eq!(Draft::Draft7.uri(), "http://json-schema.org/draft-07/schema#");
/// assert_eq!(Draft::from_uri(Draft::Draft201909.uri()), Some(Draft::Draft201909));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[non_exhaustive]
pub enum Draft {
    /// Draft 4 (`http://json-schema.org/draft-04/schema#`).
    Draft4,
    /// Draft 6 (`http://json-schema.org/draft-06/schema#`).
    Draft6,
    /// Draft 7 (`http://json-schema.org/draft-07/schema#`).
    Draft7,
    /// Draft 2019-09 (`https://json-schema.org/draft/2019-09/schema`).
    Draft201909,
    /// Draft 2020-12 (`https://json-schema.org/draft/2020-12/schema`), the default.
    #[default]
    Draft202012,
}

impl Draft {
    /// How many drafts there are.
    pub(crate) const COUNT: usize = 5;

    /// Every draft, in the order of [`Draft::index`].
    pub(crate) const ALL: [Draft; Draft::COUNT] = [
        Draft::Draft4,
        Draft::Draft6,
        Draft::Draft7,
        Draft::Draft201909,
        Draft::Draft202012,
    ];

    /// The draft's place among the [`COUNT`](Draft::COUNT), for tables of one entry per
    /// draft.
    pub(crate) fn index(self) -> usize {
        match self {
            Draft::Draft4 => 0,
            Draft::Draft6 => 1,
            Draft::Draft7 => 2,
            Draft::Draft201909 => 3,
            Draft::Draft202012 => 4,
        }
    }

    /// The draft `schema` declares with `$schema`: `Ok(None)` when it declares none (no
    /// `$schema`, or a boolean schema), whatever dialect its reader then assumes.
    ///
    /// # Errors
    ///
    /// A [`SchemaErrorKind::UnknownDialect`] error at `/$schema` when `$schema` is not a
    /// string naming an official draft's metaschema: a custom metaschema, registered with
    /// [`ValidationOptions::with_resource`](crate::ValidationOptions::with_resource), is
    /// the compiler's to read.
    ///
    /// ```
    /// use serde_json::json;
    /// use mcp_jsonschema::Draft;
    ///
    /// let schema = json!({"$schema": "http://json-schema.org/draft-07/schema#"});
    /// assert_eq!(Draft::detect(&schema)?, Some(Draft::Draft7));
    /// assert_eq!(Draft::detect(&json!({"type": "string"}))?, None);
    /// assert!(Draft::detect(&json!({"$schema": "https://example.com/mine"})).is_err());
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
    pub fn detect(schema: &Value) -> Result<Option<Draft>, SchemaError> {
        let Some(declared) = schema.get("$schema") else {
            return Ok(None);
        };
        match declared.as_str().map(Draft::from_uri) {
            Some(Some(draft)) => Ok(Some(draft)),
            Some(None) => Err(SchemaError::new(
                SchemaErrorKind::UnknownDialect,
                "/$schema",
                format!("unknown dialect {declared}: not the metaschema of a draft"),
            )),
            None => Err(SchemaError::new(
                SchemaErrorKind::UnknownDialect,
                "/$schema",
                format!("$schema must be a string naming a metaschema, got {declared}"),
            )),
        }
    }

    /// The draft whose metaschema is `uri` (http or https, with or without a trailing `#`).
    /// See the example on [`Draft`].
    pub fn from_uri(uri: &str) -> Option<Draft> {
        let uri = uri.strip_suffix('#').unwrap_or(uri);
        let rest = uri
            .strip_prefix("https://")
            .or_else(|| uri.strip_prefix("http://"))?;
        Some(match rest {
            "json-schema.org/draft/2020-12/schema" => Draft::Draft202012,
            "json-schema.org/draft/2019-09/schema" => Draft::Draft201909,
            "json-schema.org/draft-07/schema" => Draft::Draft7,
            "json-schema.org/draft-06/schema" => Draft::Draft6,
            "json-schema.org/draft-04/schema" => Draft::Draft4,
            _ => return None,
        })
    }

    /// The draft's usual name, for messages.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Draft::Draft4 => "draft-04",
            Draft::Draft6 => "draft-06",
            Draft::Draft7 => "draft-07",
            Draft::Draft201909 => "2019-09",
            Draft::Draft202012 => "2020-12",
        }
    }

    /// The canonical URI of this draft's metaschema. See the example on [`Draft`].
    pub fn uri(self) -> &'static str {
        match self {
            Draft::Draft4 => "http://json-schema.org/draft-04/schema#",
            Draft::Draft6 => "http://json-schema.org/draft-06/schema#",
            Draft::Draft7 => "http://json-schema.org/draft-07/schema#",
            Draft::Draft201909 => "https://json-schema.org/draft/2019-09/schema",
            Draft::Draft202012 => "https://json-schema.org/draft/2020-12/schema",
        }
    }
}

/// A set of vocabularies, one bit each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Vocabularies(u8);

impl Vocabularies {
    pub(crate) const APPLICATOR: Vocabularies = Vocabularies(1);
    pub(crate) const UNEVALUATED: Vocabularies = Vocabularies(1 << 1);
    pub(crate) const VALIDATION: Vocabularies = Vocabularies(1 << 2);
    pub(crate) const FORMAT_ASSERTION: Vocabularies = Vocabularies(1 << 3);
    /// Every vocabulary a standard metaschema enables (format as an annotation).
    pub(crate) const STANDARD: Vocabularies = Vocabularies(0b0111);

    /// Whether every vocabulary of `other` is in the set.
    pub(crate) fn contains(self, other: Vocabularies) -> bool {
        self.0 & other.0 == other.0
    }

    /// The vocabularies a metaschema's `$vocabulary` object declares. Core is implied;
    /// meta-data, content and format-annotation are implemented as annotations, which
    /// assert nothing. A vocabulary this library does not implement is ignored when
    /// optional (`false`) and refused when required (`true`), as 2020-12 Core 8.1.2
    /// demands.
    pub(crate) fn from_declaration(
        declared: &Map<String, Value>,
    ) -> Result<Vocabularies, VocabularyError<'_>> {
        let mut set = Vocabularies(0);
        for (uri, required) in declared {
            let Value::Bool(required) = required else {
                return Err(VocabularyError::NotBoolean(uri));
            };
            match Self::known(uri) {
                Some(known) => set.0 |= known.0,
                None if *required => return Err(VocabularyError::Unknown(uri)),
                None => {}
            }
        }
        Ok(set)
    }

    /// The vocabulary `uri` names, if this library implements it; the empty set for
    /// vocabularies that only annotate.
    fn known(uri: &str) -> Option<Vocabularies> {
        let none = Vocabularies(0);
        if let Some(name) = uri.strip_prefix("https://json-schema.org/draft/2020-12/vocab/") {
            return Some(match name {
                "applicator" => Self::APPLICATOR,
                "unevaluated" => Self::UNEVALUATED,
                "validation" => Self::VALIDATION,
                "format-assertion" => Self::FORMAT_ASSERTION,
                "core" | "meta-data" | "format-annotation" | "content" => none,
                _ => return None,
            });
        }
        let name = uri.strip_prefix("https://json-schema.org/draft/2019-09/vocab/")?;
        Some(match name {
            // 2019-09 kept the unevaluated keywords in its applicator vocabulary.
            "applicator" => Vocabularies(Self::APPLICATOR.0 | Self::UNEVALUATED.0),
            "validation" => Self::VALIDATION,
            "core" | "meta-data" | "format" | "content" => none,
            _ => return None,
        })
    }
}

/// Why a `$vocabulary` declaration cannot be honoured.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum VocabularyError<'v> {
    /// A required vocabulary this library does not implement.
    Unknown(&'v str),
    /// A value other than `true` or `false`.
    NotBoolean(&'v str),
}

/// The draft and vocabularies in force for one schema resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Dialect {
    pub(crate) draft: Draft,
    pub(crate) vocabularies: Vocabularies,
    /// The keywords it reads ([`Dialect::knows`]), derived once from the other two.
    known: KeywordSet,
}

impl Dialect {
    /// The standard dialect of `draft` (its keyword set derived once per process).
    pub(crate) fn standard(draft: Draft) -> Dialect {
        static KNOWN: OnceLock<[KeywordSet; Draft::COUNT]> = OnceLock::new();
        let known =
            KNOWN.get_or_init(|| Draft::ALL.map(|d| Dialect::new(d, Vocabularies::STANDARD).known));
        Dialect {
            draft,
            vocabularies: Vocabularies::STANDARD,
            known: known[draft.index()],
        }
    }

    /// The dialect of `draft` with `vocabularies` in force.
    pub(crate) fn new(draft: Draft, vocabularies: Vocabularies) -> Dialect {
        let mut dialect = Dialect {
            draft,
            vocabularies,
            known: 0,
        };
        dialect.known = (Keyword::ALL.iter())
            .filter(|&&keyword| dialect.knows(keyword))
            .fold(0, |set, keyword| set | keyword.bit());
        dialect
    }

    /// Whether this dialect reads `keyword`: the core keywords of its draft, and the
    /// assertions and applicators of the vocabularies in force.
    pub(crate) fn knows(self, keyword: Keyword) -> bool {
        use Draft::*;
        use Keyword as K;
        let d = self.draft;
        let applicator = self.vocabularies.contains(Vocabularies::APPLICATOR);
        let validation = self.vocabularies.contains(Vocabularies::VALIDATION);
        match keyword {
            K::Schema | K::Ref | K::Definitions | K::Format => true,
            K::Id => d >= Draft6,
            K::LegacyId => d == Draft4,
            K::Anchor | K::Defs | K::Vocabulary => d >= Draft201909,
            K::RecursiveAnchor | K::RecursiveRef => d == Draft201909,
            K::DynamicAnchor | K::DynamicRef => d >= Draft202012,
            K::AllOf
            | K::AnyOf
            | K::OneOf
            | K::Not
            | K::Properties
            | K::PatternProperties
            | K::AdditionalProperties
            | K::Items => applicator,
            K::AdditionalItems => d <= Draft201909 && applicator,
            // Split into dependentRequired/dependentSchemas in 2019-09, but still read
            // there for compatibility, as the suite's optional tests expect.
            K::Dependencies => applicator,
            K::If | K::Then | K::Else => d >= Draft7 && applicator,
            K::Contains | K::PropertyNames => d >= Draft6 && applicator,
            K::DependentSchemas => d >= Draft201909 && applicator,
            K::PrefixItems => d >= Draft202012 && applicator,
            K::UnevaluatedItems | K::UnevaluatedProperties => {
                d >= Draft201909 && self.vocabularies.contains(Vocabularies::UNEVALUATED)
            }
            K::Type
            | K::Enum
            | K::MultipleOf
            | K::Maximum
            | K::Minimum
            | K::MaxLength
            | K::MinLength
            | K::Pattern
            | K::MaxItems
            | K::MinItems
            | K::UniqueItems
            | K::MaxProperties
            | K::MinProperties
            | K::Required
            | K::ExclusiveMaximum
            | K::ExclusiveMinimum => validation,
            K::Const => d >= Draft6 && validation,
            K::MaxContains | K::MinContains | K::DependentRequired => {
                d >= Draft201909 && validation
            }
        }
    }

    /// The keyword naming a resource: `id` in draft 4, `$id` after.
    pub(crate) fn id_keyword(self) -> Keyword {
        if self.draft == Draft::Draft4 {
            Keyword::LegacyId
        } else {
            Keyword::Id
        }
    }

    /// Whether `$ref` makes its sibling keywords be ignored (draft 7 and older).
    pub(crate) fn ref_overrides_siblings(self) -> bool {
        self.draft <= Draft::Draft7
    }

    /// The keywords of `map` this dialect reads, classified in one pass.
    pub(crate) fn keywords(self, map: &Map<String, Value>) -> Keywords<'_> {
        Keywords::classify(map, self.known)
    }
}

/// The keywords whose values are subschemas, by the shape of their value.
pub(crate) enum Subschemas {
    /// The value is one schema.
    One,
    /// The value is an array of schemas.
    List,
    /// The value is an object whose values are schemas (or, for `dependencies`, arrays).
    Map,
    /// `items`: one schema, or (before 2020-12) an array of them.
    OneOrList,
    /// Not a schema-holding keyword.
    None,
}

impl Keyword {
    /// Where this keyword holds subschemas (for resource discovery).
    pub(crate) fn subschemas(self) -> Subschemas {
        use Keyword as K;
        match self {
            K::AdditionalProperties
            | K::PropertyNames
            | K::Not
            | K::If
            | K::Then
            | K::Else
            | K::Contains
            | K::AdditionalItems
            | K::UnevaluatedItems
            | K::UnevaluatedProperties => Subschemas::One,
            K::AllOf | K::AnyOf | K::OneOf | K::PrefixItems => Subschemas::List,
            K::Properties
            | K::PatternProperties
            | K::Defs
            | K::Definitions
            | K::DependentSchemas
            | K::Dependencies => Subschemas::Map,
            K::Items => Subschemas::OneOrList,
            _ => Subschemas::None,
        }
    }
}

/// The key under which `draft`'s metaschema is registered (its URI without `#`).
pub(crate) fn uri_without_fragment(draft: Draft) -> &'static str {
    let uri = draft.uri();
    uri.strip_suffix('#').unwrap_or(uri)
}

/// An official metaschema embedded in the binary: its URI and its text, parsed on first
/// use, so that a process pays only for the metaschemas its schemas name (parsing all
/// nineteen took about 1.1M instructions, most of a first compile's set-up).
#[derive(Debug)]
pub(crate) struct Embedded {
    pub(crate) uri: &'static str,
    text: &'static str,
    parsed: OnceLock<Value>,
}

impl Embedded {
    const fn new(uri: &'static str, text: &'static str) -> Embedded {
        Embedded {
            uri,
            text,
            parsed: OnceLock::new(),
        }
    }

    /// The document, parsed on first use.
    pub(crate) fn value(&'static self) -> &'static Value {
        self.parsed.get_or_init(|| {
            serde_json::from_str(self.text).expect("embedded metaschemas are valid JSON")
        })
    }
}

/// The official metaschemas, each parsed the first time it is read.
pub(crate) fn metaschemas() -> &'static [Embedded] {
    static DOCS: [Embedded; 19] = [
        Embedded::new(
            "https://json-schema.org/draft/2020-12/schema",
            include_str!("metaschemas/draft202012/schema.json"),
        ),
        Embedded::new(
            "https://json-schema.org/draft/2020-12/meta/core",
            include_str!("metaschemas/draft202012/meta-core.json"),
        ),
        Embedded::new(
            "https://json-schema.org/draft/2020-12/meta/applicator",
            include_str!("metaschemas/draft202012/meta-applicator.json"),
        ),
        Embedded::new(
            "https://json-schema.org/draft/2020-12/meta/unevaluated",
            include_str!("metaschemas/draft202012/meta-unevaluated.json"),
        ),
        Embedded::new(
            "https://json-schema.org/draft/2020-12/meta/validation",
            include_str!("metaschemas/draft202012/meta-validation.json"),
        ),
        Embedded::new(
            "https://json-schema.org/draft/2020-12/meta/meta-data",
            include_str!("metaschemas/draft202012/meta-meta-data.json"),
        ),
        Embedded::new(
            "https://json-schema.org/draft/2020-12/meta/format-annotation",
            include_str!("metaschemas/draft202012/meta-format-annotation.json"),
        ),
        Embedded::new(
            "https://json-schema.org/draft/2020-12/meta/format-assertion",
            include_str!("metaschemas/draft202012/meta-format-assertion.json"),
        ),
        Embedded::new(
            "https://json-schema.org/draft/2020-12/meta/content",
            include_str!("metaschemas/draft202012/meta-content.json"),
        ),
        Embedded::new(
            "https://json-schema.org/draft/2019-09/schema",
            include_str!("metaschemas/draft201909/schema.json"),
        ),
        Embedded::new(
            "https://json-schema.org/draft/2019-09/meta/core",
            include_str!("metaschemas/draft201909/meta-core.json"),
        ),
        Embedded::new(
            "https://json-schema.org/draft/2019-09/meta/applicator",
            include_str!("metaschemas/draft201909/meta-applicator.json"),
        ),
        Embedded::new(
            "https://json-schema.org/draft/2019-09/meta/validation",
            include_str!("metaschemas/draft201909/meta-validation.json"),
        ),
        Embedded::new(
            "https://json-schema.org/draft/2019-09/meta/meta-data",
            include_str!("metaschemas/draft201909/meta-meta-data.json"),
        ),
        Embedded::new(
            "https://json-schema.org/draft/2019-09/meta/format",
            include_str!("metaschemas/draft201909/meta-format.json"),
        ),
        Embedded::new(
            "https://json-schema.org/draft/2019-09/meta/content",
            include_str!("metaschemas/draft201909/meta-content.json"),
        ),
        Embedded::new(
            "http://json-schema.org/draft-07/schema",
            include_str!("metaschemas/draft7/schema.json"),
        ),
        Embedded::new(
            "http://json-schema.org/draft-06/schema",
            include_str!("metaschemas/draft6/schema.json"),
        ),
        Embedded::new(
            "http://json-schema.org/draft-04/schema",
            include_str!("metaschemas/draft4/schema.json"),
        ),
    ];
    &DOCS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_draft_is_listed_at_its_index() {
        for (at, draft) in Draft::ALL.into_iter().enumerate() {
            assert_eq!(draft.index(), at, "{draft:?}");
        }
    }

    #[test]
    fn drafts_are_recognised_by_any_spelling_of_their_uri() {
        assert_eq!(
            Draft::from_uri("http://json-schema.org/draft-07/schema#"),
            Some(Draft::Draft7)
        );
        assert_eq!(
            Draft::from_uri("https://json-schema.org/draft-07/schema"),
            Some(Draft::Draft7)
        );
        assert_eq!(
            Draft::from_uri("https://json-schema.org/draft/2020-12/schema#"),
            Some(Draft::Draft202012)
        );
        assert_eq!(Draft::from_uri("https://example.com/schema"), None);
        for draft in [
            Draft::Draft4,
            Draft::Draft6,
            Draft::Draft7,
            Draft::Draft201909,
            Draft::Draft202012,
        ] {
            assert_eq!(Draft::from_uri(draft.uri()), Some(draft));
        }
    }

    #[test]
    fn embedded_metaschemas_parse() {
        assert_eq!(metaschemas().len(), 19);
    }
}
