//! Bundling: one schema document that needs no other, made from a schema and the
//! documents its references reach.
//!
//! The references are resolved as compiling resolves them (the [`Registry`], so the
//! registered resources, a retriever's documents are not asked for here: register them
//! first), following the references of each document reached in turn. Each document
//! other than the schema itself is embedded whole under the root's `$defs`
//! (`definitions` before 2019-09).
//!
//! - [`bundle`]: each embedded document keeps its identity (`$id` set to the URI it was
//!   known by) and each reference to another document is rewritten to name it by that
//!   URI, so the result resolves the same way in any implementation that reads `$id`.
//! - [`bundle_same_document`] (the MCP profile's `bundle`): every reference becomes a
//!   JSON Pointer into the result (`#/$defs/address.json/properties/city`), and the
//!   identifiers that would change what such a pointer means (`$id` below the root,
//!   `$anchor`, `$schema` below the root) go. What cannot be rewritten so faithfully is
//!   an error naming it: a dynamic reference (`$dynamicRef`, `$recursiveRef`) in a
//!   schema that spans resources, or a document in another dialect than the root's.

use crate::dialect::{Dialect, Draft, Keyword};
use crate::error::{SchemaError, SchemaErrorKind};
use crate::json::pointer;
use crate::options::ValidationOptions;
use crate::registry::{Registry, Target};
use serde_json::{Map, Value};

/// One reference met in a document reached.
struct Reference {
    /// The document and pointer of the schema object holding it.
    at: Target,
    keyword: Keyword,
    /// Its target, and the resource whose URI names it.
    target: Target,
    resource: usize,
    /// The anchor it names, when it names one rather than a pointer.
    anchor: Option<String>,
}

impl Reference {
    /// Whether it is a dynamic reference (`$dynamicRef`, `$recursiveRef`), whose target
    /// depends on the dynamic scope.
    fn is_dynamic(&self) -> bool {
        matches!(self.keyword, Keyword::DynamicRef | Keyword::RecursiveRef)
    }
}

/// Embeds every document `schema` refers to (directly or through the documents it
/// reaches) in a copy of it, so that the result needs no other document: each under the
/// root's `$defs` with its `$id`, each reference to another document rewritten to name
/// it by that `$id`.
///
/// ```
/// use serde_json::json;
/// let options = mcp_jsonschema::Validator::options()
///     .with_base_uri("file:///s/order.json")
///     .with_resource("file:///s/address.json", json!({"required": ["city"]}));
/// let bundled = mcp_jsonschema::bundle(&json!({"properties": {"to": {"$ref": "address.json"}}}), &options)?;
/// assert_eq!(bundled, json!({
///     "properties": {"to": {"$ref": "file:///s/address.json"}},
///     "$defs": {"address.json": {"$id": "file:///s/address.json", "required": ["city"]}}
/// }));
/// // It compiles on its own, and means what the schema meant.
/// let validator = mcp_jsonschema::Validator::new(&bundled)?;
/// assert!(!validator.is_valid(&json!({"to": {}})));
/// # Ok::<(), mcp_jsonschema::SchemaError>(())
/// ```
///
/// # Errors
///
/// What compiling would report of a reference that cannot be resolved
/// ([`SchemaErrorKind::UnresolvableReference`]) or of a document in an unknown dialect
/// ([`SchemaErrorKind::UnknownDialect`]); and an [`SchemaErrorKind::InvalidKeyword`] for a
/// document to embed whose `$id` would not be read beside the `$ref` at its root (drafts
/// 4 to 7 ignore the siblings of `$ref`).
pub fn bundle(schema: &Value, options: &ValidationOptions) -> Result<Value, SchemaError> {
    Bundler::new(schema, options)?.write(false)
}

/// Like [`bundle`], but every reference becomes a same-document JSON Pointer, as the MCP
/// profile requires: see [`mcp::bundle`](crate::mcp::bundle).
pub(crate) fn bundle_same_document(
    schema: &Value,
    options: &ValidationOptions,
) -> Result<Value, SchemaError> {
    Bundler::new(schema, options)?.write(true)
}

/// The documents a schema reaches and the references between them.
struct Bundler<'a> {
    registry: Registry<'a>,
    schema: &'a Value,
    /// The documents reached, the schema's (0) first.
    docs: Vec<u32>,
    references: Vec<Reference>,
}

impl<'a> Bundler<'a> {
    fn new(schema: &'a Value, options: &'a ValidationOptions) -> Result<Bundler<'a>, SchemaError> {
        let mut bundler = Bundler {
            registry: Registry::new(schema, options)?,
            schema,
            docs: vec![0],
            references: Vec::new(),
        };
        let mut next = 0;
        while let Some(&doc) = bundler.docs.get(next) {
            next += 1;
            bundler.follow(doc)?;
        }
        Ok(bundler)
    }

    /// Resolves every reference of document `doc`, noting the documents they reach.
    fn follow(&mut self, doc: u32) -> Result<(), SchemaError> {
        for (at, object) in self.registry.schema_objects(doc) {
            let Some(index) = self.registry.scanned_index(object as *const Value as usize) else {
                continue;
            };
            let (keywords, _) = self.registry.scanned_keywords(index);
            for keyword in [Keyword::Ref, Keyword::DynamicRef, Keyword::RecursiveRef] {
                let Some(Value::String(reference)) = keywords.get(keyword) else {
                    continue;
                };
                let base = self.resource_at(doc, &at).uri.clone();
                let location = self
                    .registry
                    .location(doc, &pointer::join(&at, keyword.name()));
                let (target, _) = self
                    .registry
                    .resolve_reference(&base, reference, &|| location.clone())?;
                if !self.docs.contains(&target.doc) {
                    self.docs.push(target.doc);
                }
                let fragment = crate::uri::split_fragment(reference).1;
                let anchor = (!fragment.is_empty() && !fragment.starts_with('/'))
                    .then(|| fragment.to_string());
                // An anchor belongs to the resource its schema is in, as a pointer does.
                let resource = self.registry.innermost_resource(&target);
                self.references.push(Reference {
                    at: Target {
                        doc,
                        pointer: at.clone(),
                    },
                    keyword,
                    target,
                    resource,
                    anchor,
                });
            }
        }
        Ok(())
    }

    /// The resource the schema object at `at` in document `doc` belongs to.
    fn resource_at(&self, doc: u32, at: &str) -> &crate::registry::Resource {
        let holder = Target {
            doc,
            pointer: at.to_string(),
        };
        self.registry
            .resource(self.registry.innermost_resource(&holder))
    }

    /// Whether a reference met is a dynamic one (`$dynamicRef`, `$recursiveRef`).
    fn has_dynamic_references(&self) -> bool {
        self.references.iter().any(Reference::is_dynamic)
    }

    /// The dialect document `doc` is read in (its root resource's).
    fn dialect(&self, doc: u32) -> Dialect {
        let root = self.registry.resource_rooted_at(doc, "").unwrap_or(0);
        self.registry.resource(root).dialect
    }

    /// The bundle: the schema with every other document embedded, references rewritten
    /// to name them by `$id`, or with `same_document` to point into the result.
    fn write(&self, same_document: bool) -> Result<Value, SchemaError> {
        let Value::Object(root) = self.schema else {
            return Ok(self.schema.clone());
        };
        let dialect = self.dialect(0);
        let defs = match dialect.draft >= Draft::Draft201909 {
            true => "$defs",
            false => "definitions",
        };
        // Each embedded document's name under `defs`: its file name, made unique.
        let mut taken: Vec<String> = match root.get(defs) {
            Some(Value::Object(existing)) => existing.keys().cloned().collect(),
            _ => Vec::new(),
        };
        let mut names = vec![String::new()];
        for &doc in &self.docs[1..] {
            let name = unique(stem(self.registry.document_uri(doc)), &taken);
            taken.push(name.clone());
            names.push(name);
        }
        // Where each document's root lands in the result.
        let placed = |doc: u32| -> String {
            let index = self.docs.iter().position(|&d| d == doc).unwrap_or(0);
            match index {
                0 => String::new(),
                _ => pointer::join(&pointer::join("", defs), &names[index]),
            }
        };
        if same_document {
            self.check_same_document(dialect)?;
        }
        let mut documents: Vec<Value> = (self.docs.iter())
            .map(|&doc| self.registry.document(doc).clone())
            .collect();
        for reference in &self.references {
            let text = if same_document {
                if reference.is_dynamic() {
                    continue;
                }
                format!(
                    "#{}",
                    fragment(&format!(
                        "{}{}",
                        placed(reference.target.doc),
                        reference.target.pointer
                    ))
                )
            } else {
                if reference.target.doc == reference.at.doc {
                    continue;
                }
                let resource = self.registry.resource(reference.resource);
                let within = match &reference.anchor {
                    Some(anchor) => anchor.clone(),
                    None => fragment(&reference.target.pointer[resource.pointer.len()..]),
                };
                match within.is_empty() {
                    true => resource.uri.to_string(),
                    false => format!("{}#{within}", resource.uri),
                }
            };
            let index = self.docs.iter().position(|&d| d == reference.at.doc);
            let object = index
                .and_then(|i| documents[i].pointer_mut(&reference.at.pointer))
                .and_then(Value::as_object_mut);
            if let Some(object) = object {
                object.insert(reference.keyword.name().into(), Value::String(text));
            }
        }
        if same_document {
            for (i, &doc) in self.docs.iter().enumerate() {
                self.strip_identifiers(doc, &mut documents[i]);
            }
        } else {
            for (i, &doc) in self.docs.iter().enumerate().skip(1) {
                self.identify(doc, &mut documents[i])?;
            }
        }
        let mut documents = documents.into_iter();
        let mut result = documents.next().unwrap_or(Value::Null);
        let embedded: Vec<(String, Value)> = names.into_iter().skip(1).zip(documents).collect();
        if !embedded.is_empty() {
            if let Value::Object(result) = &mut result {
                let entry = result
                    .entry(defs)
                    .or_insert_with(|| Value::Object(Map::new()));
                if let Value::Object(entries) = entry {
                    entries.extend(embedded);
                }
            }
        }
        Ok(result)
    }

    /// Gives the embedded document `doc` its `$id` (the URI its root was known by) and,
    /// when it is read in another dialect than the root, its `$schema`.
    fn identify(&self, doc: u32, document: &mut Value) -> Result<(), SchemaError> {
        let dialect = self.dialect(doc);
        let root = self.registry.resource_rooted_at(doc, "").unwrap_or(0);
        let uri = self.registry.resource(root).uri.to_string();
        let Value::Object(map) = document else {
            // A boolean document: what it says needs no name, but references to it do.
            *document = match document {
                Value::Bool(false) => {
                    serde_json::json!({dialect.id_keyword().name(): uri, "not": {}})
                }
                _ => serde_json::json!({dialect.id_keyword().name(): uri}),
            };
            return Ok(());
        };
        if dialect.ref_overrides_siblings() && map.contains_key("$ref") {
            return Err(SchemaError::new(
                SchemaErrorKind::InvalidKeyword,
                &self.registry.location(doc, ""),
                format!(
                    "cannot embed {uri}: its root has \"$ref\", beside which {} ignores \"{}\"",
                    dialect.draft.name(),
                    dialect.id_keyword().name()
                ),
            ));
        }
        map.insert(dialect.id_keyword().name().into(), Value::String(uri));
        if dialect.draft != self.dialect(0).draft && !map.contains_key("$schema") {
            map.insert("$schema".into(), Value::String(dialect.draft.uri().into()));
        }
        Ok(())
    }

    /// Refuses what a same-document bundle would not mean as the schema meant it.
    fn check_same_document(&self, dialect: Dialect) -> Result<(), SchemaError> {
        let spans_resources = self.docs.len() > 1
            || (self.registry.schema_objects(0).iter())
                .any(|(at, _)| !at.is_empty() && self.registry.resource_rooted_at(0, at).is_some());
        for reference in &self.references {
            if reference.is_dynamic() && spans_resources {
                let at = pointer::join(&reference.at.pointer, reference.keyword.name());
                return Err(SchemaError::new(
                    SchemaErrorKind::ForbiddenReference,
                    &self.registry.location(reference.at.doc, &at),
                    format!(
                        "cannot rewrite {} as a same-document pointer: its target depends on the \
                         dynamic scope, across resources",
                        reference.keyword.name()
                    ),
                ));
            }
        }
        for &doc in &self.docs[1..] {
            let other = self.dialect(doc);
            if other.draft != dialect.draft {
                return Err(SchemaError::new(
                    SchemaErrorKind::UnknownDialect,
                    &self.registry.location(doc, ""),
                    format!(
                        "cannot embed {} in a same-document bundle: it is {}, the schema {}",
                        self.registry.document_uri(doc),
                        other.draft.name(),
                        dialect.draft.name()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Removes from `document` (document `doc`) the identifiers that would change what a
    /// same-document pointer means, or clash once every document is one: `$id` (but the
    /// root's), `$schema` below the root, the anchors. With a dynamic reference, which
    /// [`check_same_document`](Self::check_same_document) let through only in a schema
    /// of one resource, there is nothing to remove and its anchors are read: they stay.
    fn strip_identifiers(&self, doc: u32, document: &mut Value) {
        if self.has_dynamic_references() {
            return;
        }
        for (at, _) in self.registry.schema_objects(doc) {
            let id = self.resource_at(doc, &at).dialect.id_keyword().name();
            let Some(Value::Object(object)) = document.pointer_mut(&at) else {
                continue;
            };
            if !(doc == 0 && at.is_empty()) {
                object.remove(id);
                object.remove("$schema");
            }
            for anchor in ["$anchor", "$dynamicAnchor", "$recursiveAnchor"] {
                object.remove(anchor);
            }
        }
    }
}

/// A name for the document at `uri`: its last path segment.
fn stem(uri: &str) -> String {
    let path = crate::uri::split_fragment(uri).0;
    let path = path.split('?').next().unwrap_or(path);
    let last = path.trim_end_matches('/').rsplit('/').next().unwrap_or("");
    match last.is_empty() {
        true => "resource".to_string(),
        false => last.to_string(),
    }
}

/// `name`, or `name-2`, `name-3`... whichever `taken` does not hold.
fn unique(name: String, taken: &[String]) -> String {
    if !taken.contains(&name) {
        return name;
    }
    (2..)
        .map(|n| format!("{name}-{n}"))
        .find(|candidate| !taken.contains(candidate))
        .unwrap_or(name)
}

/// `pointer` as a URI fragment: each byte a fragment may not hold percent-encoded.
fn fragment(pointer: &str) -> String {
    let mut out = String::with_capacity(pointer.len());
    for byte in pointer.bytes() {
        match byte {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'.'
            | b'_'
            | b'~'
            | b'/'
            | b'!'
            | b'$'
            | b'&'
            | b'\''
            | b'('
            | b')'
            | b'*'
            | b'+'
            | b','
            | b';'
            | b'='
            | b':'
            | b'@' => out.push(byte as char),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}
