//! Lowering of the keywords that look at one value: `type`, `const`, `enum`, the numeric
//! bounds, string length, `pattern` and `format`.

use super::{Compiler, Schema};
use crate::dialect::{set_of, Keyword, KeywordSet};
use crate::dialect::{Draft, Vocabularies};
use crate::error::{SchemaError, SchemaErrorKind};
use crate::formats::Checker;
use crate::ids::{Id, NodeId, NumId, Span, ValueId};
use crate::json::equal::ValueIndex;
use crate::json::number;
use crate::json::types::TypeSet;
use crate::program::RegexId;
use crate::program::{Format, Node, Place, StringSet};
use crate::regex::Pattern;
use serde_json::{Number, Value};
use smallvec::SmallVec;

/// An `enum` of at least this many strings (and nothing else) becomes a
/// [`Node::StringEnum`]: even one string is found faster so, as a text, than by JSON
/// equality, and a string set beside `"type": "string"` is settled in place.
const STRING_ENUM_FROM: usize = 1;

/// A numeric keyword and the node it lowers to.
type Bound = (Keyword, fn(NumId) -> Node);

/// Every keyword [`Compiler::lower_scalars`] reads.
pub(crate) const SCALARS: KeywordSet = set_of(&[
    Keyword::Type,
    Keyword::Const,
    Keyword::Enum,
    Keyword::Minimum,
    Keyword::Maximum,
    Keyword::ExclusiveMinimum,
    Keyword::ExclusiveMaximum,
    Keyword::MultipleOf,
    Keyword::MinLength,
    Keyword::MaxLength,
    Keyword::Pattern,
    Keyword::Format,
]);

impl<'a> Compiler<'a> {
    /// `type`, `const`, `enum`, numbers, strings and `format`, cheapest first.
    pub(crate) fn lower_scalars(
        &mut self,
        schema: &Schema<'a, '_>,
        parts: &mut SmallVec<[NodeId; 8]>,
    ) -> Result<(), SchemaError> {
        if let Some(value) = schema.get(Keyword::Type) {
            let types = self.types(schema, value)?;
            parts.push(self.push_at(schema, Keyword::Type, Node::Type(types)));
        }
        if let Some(value) = schema.get(Keyword::Const) {
            let id = ValueId::new(self.program.values.len()).expect("fewer than 2^32 values");
            self.program.values.push(value.clone());
            parts.push(self.push_at(schema, Keyword::Const, Node::Const(id)));
        }
        if let Some(value) = schema.get(Keyword::Enum) {
            let Value::Array(options) = value else {
                return Err(self.invalid(schema, Keyword::Enum, "expected an array"));
            };
            let strings: Option<Vec<&str>> = options.iter().map(Value::as_str).collect();
            let node = match strings {
                // Strings are found by length, first byte and one compare; JSON equality
                // against each option costs more. The set keeps the strings (and their
                // order, for messages): they are not copied to `values` too.
                Some(strings) if strings.len() >= STRING_ENUM_FROM => {
                    let id =
                        Id::new(self.program.string_sets.len()).expect("fewer than 2^32 tables");
                    self.program.string_sets.push(StringSet::new(&strings));
                    Node::StringEnum(id)
                }
                _ => {
                    let start = self.program.values.len() as u32;
                    self.program.values.extend(options.iter().cloned());
                    if options.len() >= ValueIndex::WORTH_FROM {
                        let index = ValueIndex::new(options);
                        self.program.enum_indexes.push((start, index));
                    }
                    Node::Enum(Span {
                        start,
                        len: options.len() as u32,
                    })
                }
            };
            parts.push(self.push_at(schema, Keyword::Enum, node));
        }
        self.lower_numbers(schema, parts)?;
        if let Some(n) = self.count(schema, Keyword::MinLength)? {
            parts.push(self.push_at(schema, Keyword::MinLength, Node::MinLength(n)));
        }
        if let Some(n) = self.count(schema, Keyword::MaxLength)? {
            parts.push(self.push_at(schema, Keyword::MaxLength, Node::MaxLength(n)));
        }
        if let Some(value) = schema.get(Keyword::Pattern) {
            let Value::String(source) = value else {
                return Err(self.invalid(schema, Keyword::Pattern, "expected a string"));
            };
            let regex = self.regex(source, schema.place, Some(Keyword::Pattern))?;
            parts.push(self.push_at(schema, Keyword::Pattern, Node::Pattern(regex)));
        }
        self.lower_format(schema, parts)
    }

    fn types(&self, schema: &Schema<'_, '_>, value: &Value) -> Result<TypeSet, SchemaError> {
        let one = |name: &Value| {
            name.as_str().and_then(TypeSet::from_name).ok_or_else(|| {
                self.invalid(
                    schema,
                    Keyword::Type,
                    &format!("{name} is not a JSON Schema type"),
                )
            })
        };
        match value {
            Value::Array(names) => names
                .iter()
                .try_fold(TypeSet::default(), |set, name| Ok(set.union(one(name)?))),
            name => one(name),
        }
    }

    fn lower_numbers(
        &mut self,
        schema: &Schema<'a, '_>,
        parts: &mut SmallVec<[NodeId; 8]>,
    ) -> Result<(), SchemaError> {
        // Draft 4 spells exclusive bounds as booleans that modify `minimum`/`maximum`.
        let draft4 = schema.context.dialect.draft == Draft::Draft4;
        let flag = |keyword| draft4 && schema.get(keyword) == Some(&Value::Bool(true));
        let minimum: fn(NumId) -> Node = if flag(Keyword::ExclusiveMinimum) {
            Node::ExclusiveMinimum
        } else {
            Node::Minimum
        };
        let maximum: fn(NumId) -> Node = if flag(Keyword::ExclusiveMaximum) {
            Node::ExclusiveMaximum
        } else {
            Node::Maximum
        };
        let mut plan: SmallVec<[Bound; 5]> = SmallVec::new();
        plan.push((Keyword::Minimum, minimum));
        plan.push((Keyword::Maximum, maximum));
        if !draft4 {
            plan.push((Keyword::ExclusiveMinimum, Node::ExclusiveMinimum));
            plan.push((Keyword::ExclusiveMaximum, Node::ExclusiveMaximum));
        } else {
            for keyword in [Keyword::ExclusiveMinimum, Keyword::ExclusiveMaximum] {
                if schema.get(keyword).is_some_and(|v| !v.is_boolean()) {
                    return Err(self.invalid(schema, keyword, "expected a boolean"));
                }
            }
        }
        plan.push((Keyword::MultipleOf, Node::MultipleOf));
        for (keyword, make) in plan {
            let Some(value) = schema.get(keyword) else {
                continue;
            };
            let Value::Number(n) = value else {
                return Err(self.invalid(schema, keyword, "expected a number"));
            };
            if keyword == Keyword::MultipleOf && !number::is_positive(n) {
                return Err(self.invalid(schema, keyword, "expected a number greater than 0"));
            }
            let id = self.number(n.clone());
            parts.push(self.push_at(schema, keyword, make(id)));
        }
        Ok(())
    }

    fn number(&mut self, n: Number) -> NumId {
        let id = NumId::new(self.program.numbers.len()).expect("fewer than 2^32 numbers");
        self.program.numbers.push(n);
        id
    }

    /// Compiles an ECMA-262 pattern found at `place` (at its `keyword`, for `pattern`).
    pub(crate) fn regex(
        &mut self,
        source: &str,
        place: Place,
        keyword: Option<Keyword>,
    ) -> Result<RegexId, SchemaError> {
        if let Some(&id) = self.patterns.get(source) {
            return Ok(id);
        }
        let pattern = Pattern::new(source).map_err(|e| {
            SchemaError::new(
                SchemaErrorKind::InvalidPattern,
                &self.render(place, keyword),
                format!("invalid regular expression {source:?}: {e}"),
            )
        })?;
        let id = RegexId::new(self.program.regexes.len()).expect("fewer than 2^32 regexes");
        self.program.regexes.push(pattern);
        self.patterns.insert(source.into(), id);
        Ok(id)
    }

    /// `format`, when formats are asserted: a custom checker of that name
    /// ([`ValidationOptions::with_format`](crate::ValidationOptions::with_format)), else a
    /// built-in one; an unknown name is ignored unless the options refuse it.
    fn lower_format(
        &mut self,
        schema: &Schema<'a, '_>,
        parts: &mut SmallVec<[NodeId; 8]>,
    ) -> Result<(), SchemaError> {
        let by_default = schema.context.dialect.draft <= Draft::Draft7;
        let asserts = self.options.format_assertion.unwrap_or(by_default)
            || schema
                .context
                .dialect
                .vocabularies
                .contains(Vocabularies::FORMAT_ASSERTION);
        let Some(Value::String(name)) = schema.get(Keyword::Format) else {
            return Ok(());
        };
        if !asserts {
            return Ok(());
        }
        let custom = self.options.formats.iter().rev().find(|(n, _)| n == name);
        let Some(check) = custom
            .map(|(_, check)| check.clone())
            .or_else(|| crate::formats::lookup(name).map(Checker::Builtin))
        else {
            if self.options.unknown_formats_refused {
                return Err(SchemaError::new(
                    SchemaErrorKind::UnknownFormat,
                    &self.render(schema.place, Some(Keyword::Format)),
                    format!("unknown format {name:?}"),
                ));
            }
            return Ok(());
        };
        let name = self.string(name);
        let id = Id::new(self.program.formats.len()).expect("fewer than 2^32 formats");
        self.program.formats.push(Format { name, check });
        parts.push(self.push_at(schema, Keyword::Format, Node::Format(id)));
        Ok(())
    }
}
