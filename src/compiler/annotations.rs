//! Lowering for the annotating program (`Validator::evaluate`): each schema object's
//! annotation keywords become one [`Node::Annotate`] part beside its other keywords.
//!
//! Annotations are the meta-data keywords (`title`, `description`, `default`,
//! `deprecated`, `readOnly`, `writeOnly`, `examples`), `format`, the content keywords
//! (which annotate strings only; `contentSchema` only beside `contentMediaType`), and,
//! from 2019-09 on, keywords no vocabulary defines (`x-...`), which that draft collects as
//! annotations. Keywords a draft reads as something else, and `$`-keywords, are not.

use super::{Compiler, Schema};
use crate::dialect::{Draft, Keyword};
use crate::ids::{Id, NodeId};
use crate::program::{AnnotationSet, Node};
use serde_json::{Map, Value};
use smallvec::SmallVec;

/// The annotation keywords every draft collects.
const META_DATA: &[&str] = &[
    "title",
    "description",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "examples",
];

/// The content keywords: they annotate strings only.
const CONTENT: &[&str] = &["contentEncoding", "contentMediaType", "contentSchema"];

impl Compiler<'_> {
    /// Adds the [`Node::Annotate`] part of `schema` (whose keys are `map`) to `parts`, if
    /// it has annotation keywords.
    pub(crate) fn lower_annotations(
        &mut self,
        schema: &Schema<'_, '_>,
        map: &Map<String, Value>,
        parts: &mut SmallVec<[NodeId; 8]>,
    ) {
        let draft = schema.context.dialect.draft;
        let mut entries = Vec::new();
        for (name, value) in map {
            let strings_only = CONTENT.contains(&name.as_str());
            let annotation = if name == "contentSchema" {
                map.contains_key("contentMediaType")
            } else if META_DATA.contains(&name.as_str()) || strings_only {
                true
            } else if name == Keyword::Format.name() {
                value.is_string()
            } else {
                draft >= Draft::Draft201909 && !name.starts_with('$') && !defined(name)
            };
            if annotation {
                entries.push((name.as_str().into(), value.clone(), strings_only));
            }
        }
        if entries.is_empty() {
            return;
        }
        let location = self.render(schema.place, None).into();
        let table = Id::new(self.program.annotation_sets.len()).expect("fewer than 2^32 tables");
        self.program
            .annotation_sets
            .push(AnnotationSet { location, entries });
        // First: a schema object's own annotations come before its subschemas'.
        let node = self.push(Node::Annotate(table), schema.place, None);
        parts.insert(0, node);
    }
}

/// Whether some draft defines `name` (as anything but an annotation), or a vocabulary
/// this library does not read does (`$comment`, `dependencies`, `definitions`...).
fn defined(name: &str) -> bool {
    Keyword::parse(name).is_some()
}
