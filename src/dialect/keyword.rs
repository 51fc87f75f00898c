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

/// A schema object's keyword values, classified in one pass.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Keywords<'a> {
    values: [Option<&'a Value>; Keyword::ALL.len()],
    /// Bit `k` is set when keyword `k` is present: [`Keywords::iter`] visits those only.
    present: u64,
}

// Every keyword has a bit of `Keywords::present`.
const _: () = assert!(Keyword::ALL.len() <= 64);

impl<'a> Keywords<'a> {
    /// Classifies the keys of `map`, keeping those `keep` accepts.
    pub(crate) fn classify(map: &'a Map<String, Value>, keep: impl Fn(Keyword) -> bool) -> Self {
        let mut values = [None; Keyword::ALL.len()];
        let mut present = 0;
        for (name, value) in map {
            if let Some(keyword) = Keyword::parse(name) {
                if keep(keyword) {
                    values[keyword as usize] = Some(value);
                    present |= 1 << keyword as u32;
                }
            }
        }
        Keywords { values, present }
    }

    /// The value of `keyword`, if present.
    #[inline]
    pub(crate) fn get(&self, keyword: Keyword) -> Option<&'a Value> {
        self.values[keyword as usize]
    }

    /// The present keywords and their values.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (Keyword, &'a Value)> + '_ {
        let mut bits = self.present;
        std::iter::from_fn(move || {
            let k = bits.trailing_zeros() as usize;
            let keyword = *Keyword::ALL.get(k)?;
            bits &= bits - 1;
            self.get(keyword).map(|value| (keyword, value))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for &keyword in Keyword::ALL {
            assert_eq!(Keyword::parse(keyword.name()), Some(keyword));
        }
        assert_eq!(Keyword::parse("nope"), None);
    }
}
