//! Lowering of the in-place applicators: `allOf`, `anyOf`, `oneOf`, `not`,
//! `if`/`then`/`else`, the references (`$ref`, `$dynamicRef`, `$recursiveRef`) and the
//! `unevaluated*` wrapper that must see every other keyword of its schema object.

use super::{Combined, Compiler, Schema, Target};
use crate::dialect::Draft;
use crate::dialect::{set_of, Keyword, KeywordSet};
use crate::error::{SchemaError, SchemaErrorKind};
use crate::ids::{Id, NodeId};
use crate::options::ReferencePolicy;
use crate::program::{DynamicRef, Node, Unevaluated};
use crate::uri;
use serde_json::Value;
use smallvec::SmallVec;
use std::sync::Arc;

/// Every keyword [`Compiler::lower_applicators`] reads.
pub(crate) const APPLICATORS: KeywordSet = set_of(&[
    Keyword::AllOf,
    Keyword::AnyOf,
    Keyword::OneOf,
    Keyword::Not,
    Keyword::If,
    Keyword::Then,
    Keyword::Else,
]);

/// Every keyword [`Compiler::lower_refs`] reads.
pub(crate) const REFERENCES: KeywordSet =
    set_of(&[Keyword::Ref, Keyword::DynamicRef, Keyword::RecursiveRef]);

impl<'a> Compiler<'a> {
    /// `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`.
    pub(crate) fn lower_applicators(
        &mut self,
        schema: &Schema<'a, '_>,
        parts: &mut SmallVec<[NodeId; 8]>,
    ) -> Result<(), SchemaError> {
        for (keyword, make) in [
            (Keyword::AllOf, Node::All as fn(_) -> Node),
            (Keyword::AnyOf, Node::Any),
            (Keyword::OneOf, Node::One),
        ] {
            let Some(value) = schema.get(keyword) else {
                continue;
            };
            let branches = match value {
                Value::Array(items) if !items.is_empty() => items,
                _ => {
                    return Err(self.invalid(
                        schema,
                        keyword,
                        "expected a non-empty array of schemas",
                    ))
                }
            };
            let at = self.at(schema, keyword);
            let mut nodes: SmallVec<[NodeId; 8]> = SmallVec::new();
            for (i, branch) in branches.iter().enumerate() {
                let place = self.locations.index(at, i);
                nodes.push(self.subschema(schema, place, branch)?);
            }
            let span = self.edges(&nodes);
            parts.push(self.push_at(schema, keyword, make(span)));
        }
        if let Some(node) = self.one_subschema(schema, Keyword::Not)? {
            parts.push(self.push_at(schema, Keyword::Not, Node::Not(node)));
        }
        if let Some(test) = self.one_subschema(schema, Keyword::If)? {
            let then = self.one_subschema(schema, Keyword::Then)?;
            let otherwise = self.one_subschema(schema, Keyword::Else)?;
            if then.is_some() || otherwise.is_some() {
                // A missing branch passes; it is located at `if`, the keyword that exists.
                let mut branch = |node: Option<NodeId>| match node {
                    Some(node) => node,
                    None => self.push_at(schema, Keyword::If, Node::Valid),
                };
                let then = branch(then);
                let otherwise = branch(otherwise);
                self.conditions += 1;
                parts.push(self.push_at(
                    schema,
                    Keyword::If,
                    Node::Condition {
                        test,
                        then,
                        otherwise,
                    },
                ));
            } else {
                // A lone `if` asserts nothing, but when it passes its annotations count
                // for an `unevaluated*` here or in any schema applied at this location.
                parts.push(self.push_at(schema, Keyword::If, Node::Annotations(test)));
            }
        }
        Ok(())
    }

    /// Whether annotations of this schema object can matter (an `unevaluated*` sibling).
    fn needs_annotations(&self, schema: &Schema<'_, '_>) -> bool {
        schema.get(Keyword::UnevaluatedProperties).is_some()
            || schema.get(Keyword::UnevaluatedItems).is_some()
    }

    /// `$ref`, `$dynamicRef` (2020-12) and `$recursiveRef` (2019-09).
    pub(crate) fn lower_refs(
        &mut self,
        schema: &Schema<'a, '_>,
        parts: &mut SmallVec<[NodeId; 8]>,
    ) -> Result<(), SchemaError> {
        let draft = schema.context.dialect.draft;
        if let Some(value) = schema.get(Keyword::Ref) {
            parts.push(self.plain_reference(schema, value)?);
        }
        if draft >= Draft::Draft202012 {
            if let Some(value) = schema.get(Keyword::DynamicRef) {
                let (target, _) = self.reference(schema, Keyword::DynamicRef, value)?;
                // Only a reference whose static target itself declares the same dynamic
                // anchor (the "bookend") can be redirected at run time.
                let fragment = uri::split_fragment(value.as_str().unwrap_or_default()).1;
                let bookended = !fragment.starts_with('/')
                    && self
                        .registry
                        .value_at(&target)?
                        .get("$dynamicAnchor")
                        .and_then(Value::as_str)
                        == Some(fragment);
                let anchor = if bookended {
                    Some(fragment.to_string())
                } else {
                    None
                };
                parts.push(self.dynamic_ref(schema, Keyword::DynamicRef, target, anchor));
            }
        }
        if draft == Draft::Draft201909 {
            if let Some(value) = schema.get(Keyword::RecursiveRef) {
                let (target, _) = self.reference(schema, Keyword::RecursiveRef, value)?;
                let bookended = self.registry.value_at(&target)?.get("$recursiveAnchor")
                    == Some(&Value::Bool(true));
                let anchor = if bookended { Some(String::new()) } else { None };
                parts.push(self.dynamic_ref(schema, Keyword::RecursiveRef, target, anchor));
            }
        }
        Ok(())
    }

    /// The node of `$ref` `value` in `schema`. Schemas repeat references (the same
    /// `#/definitions/...` at many sites): while no dynamic scope can matter, the target
    /// node of a reference text already resolved against the same base is reused
    /// without resolving it again.
    fn plain_reference(
        &mut self,
        schema: &Schema<'a, '_>,
        value: &'a Value,
    ) -> Result<NodeId, SchemaError> {
        let key = match value {
            Value::String(text) if !self.annotating && !self.registry.has_dynamic_anchors() => {
                let base = Arc::as_ptr(&schema.context.base) as *const u8 as usize;
                Some((base, text.as_str()))
            }
            _ => None,
        };
        if let Some((_, body)) = key.and_then(|key| self.resolved.get(&key)) {
            let node = Node::Ref(*body);
            return Ok(self.push_at(schema, Keyword::Ref, node));
        }
        let (target, value) = self.reference(schema, Keyword::Ref, value)?;
        let id = self.reference_node(schema, Keyword::Ref, target, value);
        if let (Some(key), Node::Ref(body)) = (key, self.program.nodes[id.index()]) {
            // The base is kept alive with the entry, so that its address names it.
            let base = schema.context.base.clone();
            self.resolved.insert(key, (base, body));
        }
        Ok(id)
    }

    /// Where reference `value` (of `keyword` in `schema`) leads, and the schema there
    /// when resolving it already found it.
    fn reference(
        &mut self,
        schema: &Schema<'_, '_>,
        keyword: Keyword,
        value: &Value,
    ) -> Result<(Target, Option<&'a Value>), SchemaError> {
        let Value::String(reference) = value else {
            return Err(self.invalid(schema, keyword, "expected a string"));
        };
        let location = || self.locations.render(schema.place, Some(keyword));
        if self.options.references == ReferencePolicy::SameDocument && !reference.starts_with('#') {
            return Err(SchemaError::new(
                SchemaErrorKind::ForbiddenReference,
                &location(),
                format!("reference {reference:?} leaves the document: only same-document references (\"#...\") are allowed"),
            ));
        }
        let locations = &self.locations;
        let location = || locations.render(schema.place, Some(keyword));
        self.registry
            .resolve_reference(&schema.context.base, reference, &location)
    }

    /// The node of a plain reference from `schema` to `target`, entering the dynamic
    /// scope of the resource it leads into when that matters.
    fn reference_node(
        &mut self,
        schema: &Schema<'_, '_>,
        keyword: Keyword,
        target: Target,
        value: Option<&'a Value>,
    ) -> NodeId {
        let scope = self.entered_scope(schema.doc, schema.place, &target);
        let located = self.annotating.then(|| target.clone());
        let body = self.target_node(target, value);
        let node = match scope {
            Some(scope) => Node::Scope { scope, body },
            None => Node::Ref(body),
        };
        let id = self.push_at(schema, keyword, node);
        if let Some(target) = located {
            self.record_ref_target(id, &target);
        }
        id
    }

    fn dynamic_ref(
        &mut self,
        schema: &Schema<'_, '_>,
        keyword: Keyword,
        target: Target,
        anchor: Option<String>,
    ) -> NodeId {
        let Some(anchor) = anchor else {
            return self.reference_node(schema, keyword, target, None);
        };
        let target = self.target_node(target, None);
        let anchor = self.string(&anchor);
        let id = Id::new(self.program.dynamic_refs.len()).expect("fewer than 2^32 tables");
        self.program
            .dynamic_refs
            .push(DynamicRef { target, anchor });
        self.push_at(schema, keyword, Node::DynamicRef(id))
    }

    /// Wraps `body` in a [`Node::Unevaluated`] when the schema object has
    /// `unevaluatedProperties` or `unevaluatedItems`.
    pub(crate) fn lower_unevaluated(
        &mut self,
        schema: &Schema<'a, '_>,
        body: Combined,
    ) -> Result<Combined, SchemaError> {
        if !self.needs_annotations(schema) {
            return Ok(body);
        }
        let properties = self.one_subschema(schema, Keyword::UnevaluatedProperties)?;
        let items = self.one_subschema(schema, Keyword::UnevaluatedItems)?;
        let body = self.materialize(body, schema.place);
        let id = Id::new(self.program.unevaluated.len()).expect("fewer than 2^32 tables");
        self.program.unevaluated.push(Unevaluated {
            body,
            properties,
            items,
        });
        let keyword = if properties.is_some() {
            Keyword::UnevaluatedProperties
        } else {
            Keyword::UnevaluatedItems
        };
        Ok(Combined::Id(self.push_at(
            schema,
            keyword,
            Node::Unevaluated(id),
        )))
    }
}
