//! The result of [`Validator::evaluate`](crate::Validator::evaluate): the verdict, every
//! error, the annotations of the subschemas that passed, and the four output formats of
//! JSON Schema 2020-12 (Core, section 12) built from them.
//!
//! Every output unit names where it comes from twice: `keywordLocation`, the path that
//! evaluation took through the schema (a `$ref` shows as `/$ref`), and, when the schema
//! has an absolute base URI (a root `$id`) or the path crossed a reference,
//! `absoluteKeywordLocation`, the keyword's canonical URI. Evaluation paths are those of
//! a validator built
//! [`with_annotations`](crate::ValidationOptions::with_annotations): without it, an
//! error's `keywordLocation` is where its keyword is written
//! ([`ValidationError::schema_location`]), and it has no `absoluteKeywordLocation`.

use crate::error::ValidationError;
use crate::json::pointer;
use serde_json::{json, Map, Value};

/// One annotation: a keyword's value that a passing schema object attached to a place in
/// the instance: `title`, `description`, `default`, `deprecated`, `readOnly`,
/// `writeOnly`, `examples`, `format`, the content keywords, keywords no vocabulary
/// defines, and the applicators' own (`properties`, `patternProperties`,
/// `additionalProperties` and `unevaluatedProperties`: the names they applied to;
/// `prefixItems`: the largest index it applied to, or `true` for all; `items`,
/// `additionalItems` and `unevaluatedItems`: `true`; `contains`: the matching indices),
/// each when it applied to anything.
///
/// ```
/// use serde_json::json;
/// let schema = json!({
///     "$id": "https://example.com/order.json",
///     "properties": {"total": {"$ref": "#/$defs/money"}},
///     "$defs": {"money": {"title": "Money", "minimum": 0}}
/// });
/// let validator = mcp_jsonschema::Validator::options().with_annotations(true).build(&schema)?;
/// let evaluation = validator.evaluate(&json!({"total": 12}));
/// let title = &evaluation.annotations()[0];
/// assert_eq!(title.keyword(), "title");
/// assert_eq!(title.value(), &json!("Money"));
/// assert_eq!(title.instance_location(), "/total");
/// assert_eq!(title.keyword_location(), "/properties/total/$ref/title");
/// assert_eq!(title.schema_location(), "/$defs/money");
/// assert_eq!(
///     title.absolute_keyword_location(),
///     Some("https://example.com/order.json#/$defs/money/title")
/// );
/// # Ok::<(), mcp_jsonschema::SchemaError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Annotation {
    pub(crate) instance_location: String,
    pub(crate) keyword_location: String,
    pub(crate) absolute_keyword_location: Option<String>,
    pub(crate) schema_location: String,
    pub(crate) keyword: Box<str>,
    pub(crate) value: Value,
}

impl Annotation {
    /// JSON Pointer to the annotated place in the instance. See the example on
    /// [`Annotation`].
    pub fn instance_location(&self) -> &str {
        &self.instance_location
    }

    /// JSON Pointer to the keyword along the path evaluation took (through `$ref`s).
    /// See the example on [`Annotation`].
    pub fn keyword_location(&self) -> &str {
        &self.keyword_location
    }

    /// The keyword's absolute URI, when the schema has an absolute base or the path
    /// crossed a reference. See the example on [`Annotation`].
    pub fn absolute_keyword_location(&self) -> Option<&str> {
        self.absolute_keyword_location.as_deref()
    }

    /// JSON Pointer to the schema object holding the keyword where it is written (after
    /// references are followed), prefixed by the document's URI for registered ones:
    /// what the official annotation suite keys annotations by. See the example on
    /// [`Annotation`].
    pub fn schema_location(&self) -> &str {
        &self.schema_location
    }

    /// The keyword (`title`, `x-vendor`, ...). See the example on [`Annotation`].
    pub fn keyword(&self) -> &str {
        &self.keyword
    }

    /// The keyword's value. See the example on [`Annotation`].
    pub fn value(&self) -> &Value {
        &self.value
    }
}

/// Where an error sits along the path evaluation took, beside its canonical location.
#[derive(Clone, Debug)]
pub(crate) struct Located {
    pub(crate) error: ValidationError,
    pub(crate) keyword_location: String,
    pub(crate) absolute_keyword_location: Option<String>,
}

/// One evaluation of an instance by [`Validator::evaluate`](crate::Validator::evaluate):
/// the verdict, every error, the annotations of the subschemas that passed, and the four
/// output formats of JSON Schema 2020-12 (Core, section 12) built from them.
///
/// ```
/// use serde_json::json;
/// let schema = json!({"title": "Weather", "properties": {"days": {"type": "integer", "description": "How many"}}});
/// let validator = mcp_jsonschema::Validator::options().with_annotations(true).build(&schema)?;
/// let evaluation = validator.evaluate(&json!({"days": 3}));
/// assert!(evaluation.valid());
/// let found: Vec<(&str, &str)> =
///     evaluation.annotations().iter().map(|a| (a.instance_location(), a.keyword())).collect();
/// assert_eq!(found, [("", "title"), ("/days", "description"), ("", "properties")]);
/// assert_eq!(evaluation.flag(), json!({"valid": true}));
/// # Ok::<(), mcp_jsonschema::SchemaError>(())
/// ```
///
/// An instance that fails has errors and no annotations; the `basic` format lists its
/// error units flat, `detailed` nests them by the schema object they come from (a group
/// of one replaced by its unit), `verbose` keeps every group:
///
/// ```
/// use serde_json::{json, Value};
/// let schema = json!({"properties": {"n": {"maximum": 9, "multipleOf": 2}, "m": {"type": "string"}}});
/// let evaluation = mcp_jsonschema::Validator::new(&schema)?.evaluate(&json!({"n": 11, "m": 1}));
/// assert!(!evaluation.valid());
/// assert!(evaluation.annotations().is_empty());
/// assert_eq!(evaluation.errors().count(), 3);
/// assert_eq!(evaluation.flag(), json!({"valid": false}));
/// assert_eq!(evaluation.basic()["errors"][0], json!({
///     "valid": false,
///     "keywordLocation": "/properties/m/type",
///     "instanceLocation": "/m",
///     "error": "expected string, got integer 1"
/// }));
///
/// // Each unit's keywordLocation, with the units it holds.
/// fn outline(unit: &Value) -> Value {
///     let at = unit["keywordLocation"].clone();
///     match unit.get("errors").and_then(Value::as_array) {
///         Some(units) => json!([at, units.iter().map(outline).collect::<Vec<_>>()]),
///         None => at,
///     }
/// }
/// let (m, n) = ("/properties/m/type", ["/properties/n/maximum", "/properties/n/multipleOf"]);
/// assert_eq!(outline(&evaluation.basic()), json!(["", [m, n[0], n[1]]]));
/// assert_eq!(outline(&evaluation.detailed()), json!(["", [m, ["/properties/n", n]]]));
/// assert_eq!(
///     outline(&evaluation.verbose()),
///     json!(["", [["/properties/m", [m]], ["/properties/n", n]]])
/// );
/// # Ok::<(), mcp_jsonschema::SchemaError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Evaluation {
    valid: bool,
    errors: Vec<Located>,
    annotations: Vec<Annotation>,
}

impl Evaluation {
    pub(crate) fn new(valid: bool, errors: Vec<Located>, annotations: Vec<Annotation>) -> Self {
        // A failed evaluation keeps no annotation (2020-12 Core, section 7.7.1.2).
        let annotations = if valid { annotations } else { Vec::new() };
        Evaluation {
            valid,
            errors,
            annotations,
        }
    }

    /// Whether the instance conforms. See the examples on [`Evaluation`].
    pub fn valid(&self) -> bool {
        self.valid
    }

    /// Every error (none when the instance conforms). See the examples on
    /// [`Evaluation`].
    pub fn errors(&self) -> impl Iterator<Item = &ValidationError> {
        self.errors.iter().map(|located| &located.error)
    }

    /// The annotations of the subschemas that passed, in evaluation order: none when
    /// the instance does not conform, and those of failed subschemas never. See the
    /// examples on [`Evaluation`].
    pub fn annotations(&self) -> &[Annotation] {
        &self.annotations
    }

    /// The `flag` output format: `{"valid": ...}`. See the examples on [`Evaluation`].
    pub fn flag(&self) -> Value {
        json!({ "valid": self.valid })
    }

    /// The `basic` output format: a root unit holding the flat list of error units
    /// (when the instance does not conform) or of annotation units (when it does). See
    /// the examples on [`Evaluation`].
    pub fn basic(&self) -> Value {
        let units = self.units();
        root(self.valid, units)
    }

    /// The `detailed` output format: the units nested by the schema objects they come
    /// from, a schema object with a single unit replaced by that unit. See the examples
    /// on [`Evaluation`].
    pub fn detailed(&self) -> Value {
        nest(self.valid, self.units(), true)
    }

    /// The `verbose` output format: the units nested by the schema objects they come
    /// from, every level kept. See the examples on [`Evaluation`].
    pub fn verbose(&self) -> Value {
        nest(self.valid, self.units(), false)
    }

    /// The units of the outcome: errors when the instance fails, annotations when it
    /// passes (2020-12 Core, section 12.3).
    fn units(&self) -> Vec<Unit> {
        if self.valid {
            (self.annotations.iter())
                .map(|a| Unit {
                    keyword_location: a.keyword_location.clone(),
                    absolute: a.absolute_keyword_location.clone(),
                    instance_location: a.instance_location.clone(),
                    outcome: Outcome::Annotation(a.value.clone()),
                })
                .collect()
        } else {
            (self.errors.iter())
                .map(|e| Unit {
                    keyword_location: e.keyword_location.clone(),
                    absolute: e.absolute_keyword_location.clone(),
                    instance_location: e.error.instance_location().to_string(),
                    outcome: Outcome::Error(e.error.message().to_string()),
                })
                .collect()
        }
    }
}

/// One output unit before it is written as JSON.
struct Unit {
    keyword_location: String,
    absolute: Option<String>,
    instance_location: String,
    outcome: Outcome,
}

enum Outcome {
    Error(String),
    Annotation(Value),
}

impl Unit {
    fn to_json(&self) -> Value {
        let mut unit = Map::new();
        unit.insert(
            "valid".into(),
            Value::Bool(matches!(self.outcome, Outcome::Annotation(_))),
        );
        unit.insert(
            "keywordLocation".into(),
            self.keyword_location.clone().into(),
        );
        if let Some(absolute) = &self.absolute {
            unit.insert("absoluteKeywordLocation".into(), absolute.clone().into());
        }
        unit.insert(
            "instanceLocation".into(),
            self.instance_location.clone().into(),
        );
        match &self.outcome {
            Outcome::Error(message) => unit.insert("error".into(), message.clone().into()),
            Outcome::Annotation(value) => unit.insert("annotation".into(), value.clone()),
        };
        Value::Object(unit)
    }

    /// The schema object the unit's keyword belongs to: its location without the last
    /// token.
    fn parent(&self) -> &str {
        parent(&self.keyword_location)
    }
}

/// A pointer without its last token (`""` stays `""`).
fn parent(location: &str) -> &str {
    location.rfind('/').map_or("", |at| &location[..at])
}

/// A unit that holds `children` (`errors` or `annotations` after `valid`), omitted when
/// there are none.
fn group(
    valid: bool,
    keyword_location: &str,
    instance_location: &str,
    children: Vec<Value>,
) -> Value {
    let mut unit = Map::new();
    unit.insert("valid".into(), Value::Bool(valid));
    unit.insert("keywordLocation".into(), keyword_location.into());
    unit.insert("instanceLocation".into(), instance_location.into());
    if !children.is_empty() {
        let key = if valid { "annotations" } else { "errors" };
        unit.insert(key.into(), Value::Array(children));
    }
    Value::Object(unit)
}

/// The `basic` root: every unit, flat.
fn root(valid: bool, units: Vec<Unit>) -> Value {
    group(valid, "", "", units.iter().map(Unit::to_json).collect())
}

/// The units nested by schema object and instance location: each unit goes under the
/// group of its schema object (at its instance location), each group under the nearest
/// group whose schema object and instance location enclose its own, and the root group
/// holds the rest; siblings keep the order of their first units. `condensed` replaces a
/// group of one child by that child.
fn nest(valid: bool, units: Vec<Unit>, condensed: bool) -> Value {
    type Key = (String, String);
    let key_of =
        |unit: &Unit| -> Key { (unit.parent().to_string(), unit.instance_location.clone()) };
    // Groups (schema object, instance location) with the position of their first unit.
    let mut groups: Vec<(Key, usize)> = Vec::new();
    for (at, unit) in units.iter().enumerate() {
        let key = key_of(unit);
        if !key.0.is_empty() && !groups.iter().any(|(k, _)| *k == key) {
            groups.push((key, at));
        }
    }
    let encloses = |outer: &Key, inner: &Key| {
        outer != inner
            && pointer::is_within(&inner.0, &outer.0)
            && pointer::is_within(&inner.1, &outer.1)
    };
    // The innermost group around `key`; `None` for the root.
    let owner = |key: &Key| -> Option<usize> {
        let around = (0..groups.len()).filter(|&g| encloses(&groups[g].0, key));
        around.max_by_key(|&g| (groups[g].0 .0.len(), groups[g].0 .1.len()))
    };
    // Children of each group and of the root, with the position that orders them.
    let mut children: Vec<Vec<(usize, Value)>> = vec![Vec::new(); groups.len()];
    let mut top: Vec<(usize, Value)> = Vec::new();
    for (at, unit) in units.iter().enumerate() {
        let key = key_of(unit);
        match groups.iter().position(|(k, _)| *k == key) {
            Some(g) => children[g].push((at, unit.to_json())),
            None => top.push((at, unit.to_json())),
        }
    }
    // Innermost groups first (longest schema object), so each is complete when its
    // owner takes it.
    let mut order: Vec<usize> = (0..groups.len()).collect();
    order.sort_by_key(|&g| std::cmp::Reverse((groups[g].0 .0.len(), groups[g].0 .1.len())));
    for g in order {
        let mut items = std::mem::take(&mut children[g]);
        items.sort_by_key(|&(at, _)| at);
        let first = groups[g].1;
        let ((object, instance), _) = &groups[g];
        let value = match (condensed, items.len()) {
            (true, 1) => items.pop().map_or(Value::Null, |(_, only)| only),
            _ => group(
                valid,
                object,
                instance,
                items.into_iter().map(|(_, v)| v).collect(),
            ),
        };
        match owner(&groups[g].0) {
            Some(outer) => children[outer].push((first, value)),
            None => top.push((first, value)),
        }
    }
    top.sort_by_key(|&(at, _)| at);
    group(valid, "", "", top.into_iter().map(|(_, v)| v).collect())
}
