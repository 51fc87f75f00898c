//! Lowering of the array keywords: `prefixItems`/`items`/`additionalItems`, `contains`
//! with its bounds, `minItems`, `maxItems` and `uniqueItems`.

use super::{Compiler, Schema};
use crate::dialect::Draft;
use crate::dialect::{set_of, Keyword, KeywordSet};
use crate::error::SchemaError;
use crate::ids::{Id, NodeId, Span};
use crate::program::{Items, Node, Settle};
use serde_json::Value;
use smallvec::SmallVec;

/// Every keyword [`Compiler::lower_arrays`] reads.
pub(crate) const ARRAYS: KeywordSet = set_of(&[
    Keyword::MinItems,
    Keyword::MaxItems,
    Keyword::UniqueItems,
    Keyword::PrefixItems,
    Keyword::Items,
    Keyword::AdditionalItems,
    Keyword::Contains,
    Keyword::MinContains,
    Keyword::MaxContains,
]);

impl<'a> Compiler<'a> {
    /// Array keywords, cheapest first.
    pub(crate) fn lower_arrays(
        &mut self,
        schema: &Schema<'a, '_>,
        parts: &mut SmallVec<[NodeId; 8]>,
    ) -> Result<(), SchemaError> {
        if let Some(n) = self.count(schema, Keyword::MinItems)? {
            parts.push(self.push_at(schema, Keyword::MinItems, Node::MinItems(n)));
        }
        if let Some(n) = self.count(schema, Keyword::MaxItems)? {
            parts.push(self.push_at(schema, Keyword::MaxItems, Node::MaxItems(n)));
        }
        match schema.get(Keyword::UniqueItems) {
            None | Some(Value::Bool(false)) => {}
            Some(Value::Bool(true)) => {
                parts.push(self.push_at(schema, Keyword::UniqueItems, Node::UniqueItems))
            }
            Some(_) => {
                return Err(self.invalid(schema, Keyword::UniqueItems, "expected a boolean"))
            }
        }
        self.lower_items(schema, parts)?;
        self.lower_contains(schema, parts)
    }

    /// `prefixItems` + `items` (2020-12), or `items` + `additionalItems` (older drafts).
    fn lower_items(
        &mut self,
        schema: &Schema<'a, '_>,
        parts: &mut SmallVec<[NodeId; 8]>,
    ) -> Result<(), SchemaError> {
        let (prefix_keyword, rest_keyword) = if schema.context.dialect.draft >= Draft::Draft202012 {
            (Keyword::PrefixItems, Keyword::Items)
        } else if matches!(schema.get(Keyword::Items), Some(Value::Array(_))) {
            (Keyword::Items, Keyword::AdditionalItems)
        } else {
            (Keyword::PrefixItems, Keyword::Items)
        };
        let mut prefix: SmallVec<[NodeId; 8]> = SmallVec::new();
        if let Some(value) = schema.get(prefix_keyword) {
            let Value::Array(items) = value else {
                return Err(self.invalid(schema, prefix_keyword, "expected an array of schemas"));
            };
            let at = self.at(schema, prefix_keyword);
            for (i, item) in items.iter().enumerate() {
                let place = self.locations.index(at, i);
                prefix.push(self.subschema(schema, place, item)?);
            }
        }
        let rest = match schema.get(rest_keyword) {
            Some(Value::Array(_)) => {
                return Err(self.invalid(schema, rest_keyword, "expected a schema"))
            }
            Some(_) => self.one_subschema(schema, rest_keyword)?,
            None => None,
        };
        if prefix.is_empty() && rest.is_none() {
            return Ok(());
        }
        let prefix = self.edges(&prefix);
        let id = Id::new(self.program.items.len()).expect("fewer than 2^32 tables");
        self.program.items.push(Items {
            prefix,
            rest,
            rest_settle: Settle::Eval,
            prefix_settle: Box::default(),
            keywords: [prefix_keyword.name(), rest_keyword.name()],
            size_checks: Span::default(),
            sizes: (0, u32::MAX, false),
        });
        let keyword = if rest.is_some() {
            rest_keyword
        } else {
            prefix_keyword
        };
        parts.push(self.push_at(schema, keyword, Node::Items(id)));
        Ok(())
    }

    fn lower_contains(
        &mut self,
        schema: &Schema<'a, '_>,
        parts: &mut SmallVec<[NodeId; 8]>,
    ) -> Result<(), SchemaError> {
        let Some(node) = self.one_subschema(schema, Keyword::Contains)? else {
            return Ok(());
        };
        let min = self.count(schema, Keyword::MinContains)?.unwrap_or(1);
        let max = self
            .count(schema, Keyword::MaxContains)?
            .unwrap_or(u32::MAX);
        parts.push(self.push_at(
            schema,
            Keyword::Contains,
            Node::Contains {
                schema: node,
                min,
                max,
            },
        ));
        Ok(())
    }
}
