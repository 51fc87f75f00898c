//! The keywords the compiler understands, as a one-byte enum.
//!
//! A schema object's keys are classified once, in one pass over the map, into a table
//! indexed by [`Keyword`] ([`Keywords`]); lowering then reads that table instead of
//! looking each keyword up by name. This is what keeps compiling a schema linear in its
//! size with a small constant: a string match per key rather than dozens of map lookups
//! per schema object.

use serde_json::{Map, Value};

macro_rules! keywords {
    ($($variant:ident = $name:literal,)*) => {
        /// A JSON Schema keyword known to some supported draft.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(u8)]
        pub(crate) enum Keyword {
            $(
                #[doc = concat!("`", $name, "`")]
                $variant,
            )*
        }

        impl Keyword {
            /// Every keyword, in declaration order.
            pub(crate) const ALL: &'static [Keyword] = &[$(Keyword::$variant),*];

            /// The keyword spelled `name`.
            pub(crate) fn parse(name: &str) -> Option<Keyword> {
                Some(match name {
                    $($name => Keyword::$variant,)*
                    _ => return None,
                })
            }

            /// The keyword's spelling.
            pub(crate) fn name(self) -> &'static str {
                match self {
                    $(Keyword::$variant => $name,)*
                }
            }

            /// The keyword as a JSON Pointer step, `/` and its spelling (which needs no
            /// escape): one write where a location is written.
            pub(crate) fn step(self) -> &'static str {
                match self {
                    $(Keyword::$variant => concat!("/", $name),)*
                }
            }
        }
    };
}

keywords! {
    Schema = "$schema",
    Id = "$id",
    LegacyId = "id",
    Anchor = "$anchor",
    DynamicAnchor = "$dynamicAnchor",
    RecursiveAnchor = "$recursiveAnchor",
    Ref = "$ref",
    DynamicRef = "$dynamicRef",
    RecursiveRef = "$recursiveRef",
    Defs = "$defs",
    Definitions = "definitions",
    Vocabulary = "$vocabulary",
    Type = "type",
    Const = "const",
    Enum = "enum",
    Minimum = "minimum",
    Maximum = "maximum",
    ExclusiveMinimum = "exclusiveMinimum",
    ExclusiveMaximum = "exclusiveMaximum",
    MultipleOf = "multipleOf",
    MinLength = "minLength",
    MaxLength = "maxLength",
    Pattern = "pattern",
    Format = "format",
    MinItems = "minItems",
    MaxItems = "maxItems",
    UniqueItems = "uniqueItems",
    PrefixItems = "prefixItems",
    Items = "items",
    AdditionalItems = "additionalItems",
    Contains = "contains",
    MinContains = "minContains",
    MaxContains = "maxContains",
    MinProperties = "minProperties",
    MaxProperties = "maxProperties",
    Required = "required",
    DependentRequired = "dependentRequired",
    DependentSchemas = "dependentSchemas",
    Dependencies = "dependencies",
    Properties = "properties",
    PatternProperties = "patternProperties",
    AdditionalProperties = "additionalProperties",
    PropertyNames = "propertyNames",
    AllOf = "allOf",
    AnyOf = "anyOf",
    OneOf = "oneOf",
    Not = "not",
    If = "if",
    Then = "then",
    Else = "else",
    UnevaluatedItems = "unevaluatedItems",
    UnevaluatedProperties = "unevaluatedProperties",
}

/// A set of keywords, one bit each.
pub(crate) type KeywordSet = u64;

// Every keyword has a bit of a `KeywordSet`.
const _: () = assert!(Keyword::ALL.len() <= 64);

/// The set of `keywords`.
pub(crate) const fn set_of(keywords: &[Keyword]) -> KeywordSet {
    let mut set = 0;
    let mut at = 0;
    while at < keywords.len() {
        set |= keywords[at].bit();
        at += 1;
    }
    set
}

impl Keyword {
    /// The keyword's bit in a [`KeywordSet`].
    #[inline(always)]
    pub(crate) const fn bit(self) -> KeywordSet {
        1 << self as u32
    }
}

/// A schema object's keyword values, classified in one pass: the set of keywords
/// present, and their values in keyword order (a keyword's value is at the count of
/// present keywords before it). Most schema objects have one to four keywords, so the
/// table is small and takes no allocation.
#[derive(Clone, Debug)]
pub(crate) struct Keywords<'a> {
    /// Which keywords are present.
    present: KeywordSet,
    /// Their values, in keyword order.
    values: smallvec::SmallVec<[&'a Value; 6]>,
}

impl<'a> Keywords<'a> {
    /// Classifies the keys of `map`, keeping the keywords in `known`.
    pub(crate) fn classify(map: &'a Map<String, Value>, known: KeywordSet) -> Self {
        let mut keywords = Keywords {
            present: 0,
            values: smallvec::SmallVec::new(),
        };
        for (name, value) in map {
            let Some(keyword) = Keyword::parse(name) else {
                continue;
            };
            // A map's keys are distinct, so a keyword comes at most once.
            if known & keyword.bit() != 0 {
                let at = keywords.position(keyword);
                keywords.present |= keyword.bit();
                keywords.values.insert(at, value);
            }
        }
        keywords
    }

    /// The set of keywords present and their values in keyword order: what
    /// [`Keywords::from_parts`] takes back.
    pub(crate) fn parts(&self) -> (KeywordSet, &[&'a Value]) {
        (self.present, &self.values)
    }

    /// The table of `present` keywords whose values, in keyword order, are `values`
    /// (as [`Keywords::parts`] gave them).
    pub(crate) fn from_parts(present: KeywordSet, values: &[&'a Value]) -> Self {
        debug_assert_eq!(present.count_ones() as usize, values.len());
        Keywords {
            present,
            values: smallvec::SmallVec::from_slice(values),
        }
    }

    /// Where `keyword`'s value is (or goes) in `values`.
    #[inline(always)]
    fn position(&self, keyword: Keyword) -> usize {
        (self.present & (keyword.bit() - 1)).count_ones() as usize
    }

    /// Whether any keyword of `set` is present.
    #[inline(always)]
    pub(crate) fn any(&self, set: KeywordSet) -> bool {
        self.present & set != 0
    }

    /// The value of `keyword`, if present.
    #[inline]
    pub(crate) fn get(&self, keyword: Keyword) -> Option<&'a Value> {
        if self.present & keyword.bit() == 0 {
            return None;
        }
        self.values.get(self.position(keyword)).copied()
    }

    /// The present keywords and their values, in keyword order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (Keyword, &'a Value)> + '_ {
        let mut bits = self.present;
        self.values.iter().map_while(move |&value| {
            let keyword = *Keyword::ALL.get(bits.trailing_zeros() as usize)?;
            bits &= bits - 1;
            Some((keyword, value))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classified_keywords_are_found_and_listed_in_keyword_order() {
        let map = serde_json::json!({
            "type": "object", "$ref": "#", "x-extension": 1, "properties": {},
            "required": [], "unevaluatedItems": false, "$schema": "s", "allOf": [true]
        });
        let map = map.as_object().unwrap();
        let all = set_of(Keyword::ALL);
        let keywords = Keywords::classify(map, all & !Keyword::AllOf.bit());
        let listed: Vec<_> = keywords
            .iter()
            .map(|(k, v)| (k.name(), v.clone()))
            .collect();
        let mut expected: Vec<_> = (map.iter())
            .filter(|(name, _)| !matches!(name.as_str(), "x-extension" | "allOf"))
            .map(|(name, value)| (Keyword::parse(name).unwrap(), value))
            .collect();
        expected.sort_by_key(|&(k, _)| k as u8);
        let expected: Vec<_> = (expected.into_iter())
            .map(|(k, v)| (k.name(), v.clone()))
            .collect();
        assert_eq!(listed, expected);
        for &keyword in Keyword::ALL {
            let wanted = (keyword != Keyword::AllOf)
                .then(|| map.get(keyword.name()))
                .flatten();
            assert_eq!(keywords.get(keyword), wanted, "{keyword:?}");
        }
    }

    #[test]
    fn names_round_trip() {
        for &keyword in Keyword::ALL {
            assert_eq!(Keyword::parse(keyword.name()), Some(keyword));
        }
        assert_eq!(Keyword::parse("nope"), None);
    }
}
