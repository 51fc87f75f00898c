//! Lowering of the object keywords: `properties`/`patternProperties`/
//! `additionalProperties` (one node), `propertyNames`, `required`, the dependency
//! keywords, `minProperties` and `maxProperties`.

use super::{Compiler, Schema};
use crate::dialect::{set_of, Keyword, KeywordSet};
use crate::error::SchemaError;
use crate::ids::{Id, NodeId, Span};
use crate::program::{Node, Properties};
use serde_json::Value;
use smallvec::SmallVec;

/// Every keyword [`Compiler::lower_objects`] reads.
pub(crate) const OBJECTS: KeywordSet = set_of(&[
    Keyword::MinProperties,
    Keyword::MaxProperties,
    Keyword::Required,
    Keyword::DependentRequired,
    Keyword::DependentSchemas,
    Keyword::Dependencies,
    Keyword::Properties,
    Keyword::PatternProperties,
    Keyword::AdditionalProperties,
    Keyword::PropertyNames,
]);

impl<'a> Compiler<'a> {
    /// Object keywords, cheapest first.
    pub(crate) fn lower_objects(
        &mut self,
        schema: &Schema<'a, '_>,
        parts: &mut SmallVec<[NodeId; 8]>,
    ) -> Result<(), SchemaError> {
        if let Some(n) = self.count(schema, Keyword::MinProperties)? {
            parts.push(self.push_at(schema, Keyword::MinProperties, Node::MinProperties(n)));
        }
        if let Some(n) = self.count(schema, Keyword::MaxProperties)? {
            parts.push(self.push_at(schema, Keyword::MaxProperties, Node::MaxProperties(n)));
        }
        let required = match schema.get(Keyword::Required) {
            Some(value) => {
                let names = self.names(schema, Keyword::Required, value)?;
                Some(self.push_at(schema, Keyword::Required, Node::Required(names)))
            }
            None => None,
        };
        // `required` keeps its place before the dependency keywords unless it is folded.
        let at = parts.len();
        self.lower_dependencies(schema, parts)?;
        if let Some(required) = self.lower_properties(schema, parts, required)? {
            parts.insert(at, required);
        }
        if let Some(node) = self.one_subschema(schema, Keyword::PropertyNames)? {
            parts.push(self.push_at(schema, Keyword::PropertyNames, Node::PropertyNames(node)));
        }
        Ok(())
    }

    /// An array of strings, stored contiguously in the string table.
    fn names(
        &mut self,
        schema: &Schema<'_, '_>,
        keyword: Keyword,
        value: &Value,
    ) -> Result<Span, SchemaError> {
        let names = value
            .as_array()
            .filter(|items| items.iter().all(Value::is_string))
            .ok_or_else(|| self.invalid(schema, keyword, "expected an array of strings"))?;
        let start = self.program.strings.len() as u32;
        self.program
            .strings
            .extend(names.iter().filter_map(Value::as_str).map(Box::from));
        Ok(Span {
            start,
            len: names.len() as u32,
        })
    }

    /// `dependentRequired`, `dependentSchemas`, and draft ≤7 `dependencies` (either form).
    fn lower_dependencies(
        &mut self,
        schema: &Schema<'a, '_>,
        parts: &mut SmallVec<[NodeId; 8]>,
    ) -> Result<(), SchemaError> {
        for keyword in [
            Keyword::Dependencies,
            Keyword::DependentRequired,
            Keyword::DependentSchemas,
        ] {
            let Some(value) = schema.get(keyword) else {
                continue;
            };
            let Value::Object(entries) = value else {
                return Err(self.invalid(schema, keyword, "expected an object"));
            };
            // Collected locally first: lowering a dependent schema may push entries of its
            // own to the same tables, which must not land inside this keyword's span.
            let mut required = Vec::new();
            let mut schemas = Vec::new();
            let keyword_place = self.at(schema, keyword);
            for (name, dependency) in entries {
                let requires_names = match keyword {
                    Keyword::DependentRequired => true,
                    Keyword::DependentSchemas => false,
                    _ => dependency.is_array(),
                };
                let key = self.string(name);
                if requires_names {
                    required.push((key, self.names(schema, keyword, dependency)?));
                } else {
                    let place = self.locations.member(keyword_place, name);
                    schemas.push((key, self.subschema(schema, place, dependency)?));
                }
            }
            if !required.is_empty() {
                let start = self.program.dependent_required.len() as u32;
                let span = Span {
                    start,
                    len: required.len() as u32,
                };
                self.program.dependent_required.extend(required);
                parts.push(self.push_at(schema, keyword, Node::DependentRequired(span)));
            }
            if !schemas.is_empty() {
                let start = self.program.dependent_schemas.len() as u32;
                let span = Span {
                    start,
                    len: schemas.len() as u32,
                };
                self.program.dependent_schemas.extend(schemas);
                parts.push(self.push_at(schema, keyword, Node::DependentSchemas(span)));
            }
        }
        Ok(())
    }

    /// `properties`, `patternProperties` and `additionalProperties` as one node, since
    /// `additionalProperties` depends on what the other two matched.
    ///
    /// The `required` node is folded into the table when every name it lists is a named
    /// property: the one pass over the instance's keys then counts the required ones it
    /// meets, instead of looking each name up in the instance. Returns `required` when it
    /// was not folded, for the caller to keep as a node of its own.
    fn lower_properties(
        &mut self,
        schema: &Schema<'a, '_>,
        parts: &mut SmallVec<[NodeId; 8]>,
        required: Option<NodeId>,
    ) -> Result<Option<NodeId>, SchemaError> {
        let mut table = Properties::default();
        if let Some(value) = schema.get(Keyword::Properties) {
            let Value::Object(entries) = value else {
                return Err(self.invalid(
                    schema,
                    Keyword::Properties,
                    "expected an object of schemas",
                ));
            };
            let at = self.at(schema, Keyword::Properties);
            table.named.reserve_exact(entries.len());
            for (name, subschema) in entries {
                let place = self.locations.member(at, name);
                let node = self.subschema(schema, place, subschema)?;
                table.named.push((name.as_str().into(), node));
            }
            table.index_named(&self.program);
        }
        if let Some(value) = schema.get(Keyword::PatternProperties) {
            let Value::Object(entries) = value else {
                return Err(self.invalid(
                    schema,
                    Keyword::PatternProperties,
                    "expected an object of schemas",
                ));
            };
            let at = self.at(schema, Keyword::PatternProperties);
            for (source, subschema) in entries {
                let place = self.locations.member(at, source);
                let regex = self.regex(source, place, None)?;
                let node = self.subschema(schema, place, subschema)?;
                table.patterns.push((regex, node));
            }
        }
        table.additional = self.one_subschema(schema, Keyword::AdditionalProperties)?;
        let keyword = if table.additional.is_some() {
            Keyword::AdditionalProperties
        } else if !table.patterns.is_empty() {
            Keyword::PatternProperties
        } else if !table.named.is_empty() {
            Keyword::Properties
        } else {
            return Ok(required);
        };
        let required = match required {
            Some(node) if self.fold_required(&mut table, node) => None,
            other => other,
        };
        table.required_known = required.is_none();
        let id = Id::new(self.program.properties.len()).expect("fewer than 2^32 tables");
        self.program.properties.push(table);
        parts.push(self.push_at(schema, keyword, Node::Properties(id)));
        Ok(required)
    }

    /// Folds the `Required` node `required` into `table` if every name it lists is one of
    /// the table's named properties; says whether it did.
    fn fold_required(&self, table: &mut Properties, required: NodeId) -> bool {
        let Node::Required(names) = self.program.nodes[required.index()] else {
            return false;
        };
        table.fold_required(&self.program.strings[names], required)
    }
}
