//! Every subschema of a schema document with its JSON Pointer, for the lint rules.
//!
//! The walk knows the subschema-holding keywords of 2020-12 (and `definitions`,
//! `dependencies` and array `items` of the older drafts), uses an explicit stack (any
//! nesting is safe) and does not follow `$ref`: each subschema is visited once, where it
//! is written.

use serde_json::Value;

/// What a keyword's value holds.
enum Holds {
    One,
    List,
    Map,
    Nothing,
}

/// What `keyword` holds in 2020-12 or an older draft (`items` is a list in drafts up to
/// 2019-09, one subschema since).
fn holds(keyword: &str, value: &Value) -> Holds {
    match (keyword, value) {
        ("allOf" | "anyOf" | "oneOf" | "prefixItems" | "items", Value::Array(_)) => Holds::List,
        (
            "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas"
            | "dependencies",
            Value::Object(_),
        ) => Holds::Map,
        (
            "additionalProperties"
            | "items"
            | "additionalItems"
            | "contains"
            | "propertyNames"
            | "not"
            | "if"
            | "then"
            | "else"
            | "unevaluatedItems"
            | "unevaluatedProperties"
            | "contentSchema",
            _,
        ) => Holds::One,
        _ => Holds::Nothing,
    }
}

/// A subschema and where it is.
#[derive(Debug)]
pub(crate) struct Visit<'s> {
    /// Its JSON Pointer from the document's root.
    pub(crate) pointer: String,
    /// The schema object (boolean schemas are skipped: no rule reads them).
    pub(crate) schema: &'s serde_json::Map<String, Value>,
}

/// Every schema object in `root`, the root first, in document order.
pub(crate) fn subschemas(root: &Value) -> Vec<Visit<'_>> {
    let mut found = Vec::new();
    let mut stack = vec![(String::new(), root)];
    while let Some((pointer, value)) = stack.pop() {
        let Value::Object(schema) = value else {
            continue;
        };
        let mut children = Vec::new();
        for (keyword, child) in schema {
            let at = format!("{pointer}/{}", escape(keyword));
            match (holds(keyword, child), child) {
                (Holds::List, Value::Array(items)) => {
                    for (i, item) in items.iter().enumerate() {
                        children.push((format!("{at}/{i}"), item));
                    }
                }
                (Holds::Map, Value::Object(map)) => {
                    for (name, item) in map {
                        children.push((format!("{at}/{}", escape(name)), item));
                    }
                }
                (Holds::One, _) => children.push((at, child)),
                _ => {}
            }
        }
        found.push(Visit { pointer, schema });
        // Reversed, so that the stack pops them in document order.
        stack.extend(children.into_iter().rev());
    }
    found
}

/// `token` escaped for a JSON Pointer.
pub(crate) fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::subschemas;
    use serde_json::json;

    #[test]
    fn every_subschema_once_in_document_order() {
        let schema = json!({
            "properties": {"a/b": {"items": {"type": "string"}}, "c": true},
            "anyOf": [{"$ref": "#"}, {"not": {}}],
            "$defs": {"d": {"prefixItems": [{}]}},
            "enum": [{"type": "object"}]
        });
        let pointers: Vec<String> = subschemas(&schema).into_iter().map(|v| v.pointer).collect();
        assert_eq!(
            pointers,
            [
                "",
                "/$defs/d",
                "/$defs/d/prefixItems/0",
                "/anyOf/0",
                "/anyOf/1",
                "/anyOf/1/not",
                "/properties/a~1b",
                "/properties/a~1b/items",
            ]
        );
    }

    #[test]
    fn deep_nesting_is_walked_without_recursion() {
        let mut schema = json!({});
        for _ in 0..1_000 {
            schema = json!({ "not": schema });
        }
        assert_eq!(subschemas(&schema).len(), 1_001);
    }
}
