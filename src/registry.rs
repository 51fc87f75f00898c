//! The registry: every schema document the compiler may read, and which URIs and
//! anchors name which schemas, in which dialect.
//!
//! Each document is walked once, following only keywords that hold subschemas (so an
//! `$id` inside `const` or `enum` data is never mistaken for a resource), to register
//! resources, anchors and dynamic anchors. References resolve against that registry and
//! nothing else: the library never fetches. Registered documents and the embedded
//! metaschemas are walked lazily, the first time a reference misses.
//!
//! Invariants: document 0 is the root schema; a URI or an anchor names one schema
//! (a second claim is a [`SchemaErrorKind::DuplicateIdentifier`]); every resource's
//! document has been walked.

use crate::dialect::{
    metaschemas, Dialect, Draft, Embedded, Keyword, KeywordSet, Keywords, Subschemas, Vocabularies,
    VocabularyError,
};
use crate::error::{SchemaError, SchemaErrorKind};
use crate::ids::NodeId;
use crate::json::pointer;
use crate::options::ValidationOptions;
use crate::stack::StackGuard;
use crate::uri;
use ahash::AHashMap;
use serde_json::Value;
use std::sync::Arc;

/// The documents, resources and anchors one compilation can reach.
pub(crate) struct Registry<'a> {
    options: &'a ValidationOptions,
    docs: Vec<Document<'a>>,
    resources: Vec<Resource>,
    by_uri: AHashMap<String, usize>,
    /// The resource rooted at each (document, pointer).
    resource_roots: AHashMap<(u32, String), usize>,
    anchors: AHashMap<String, Target>,
    /// Where the walks started on the stack.
    stack: StackGuard,
    /// Subschemas walked so far, for the subschema-count limit.
    subschemas: u32,
    /// Whether any resource walked so far declares a dynamic (or recursive) anchor.
    dynamic_anchors: bool,
    /// Every schema object walked, by the address of its value: an index into `objects`.
    /// Built at once, at its final size, when the root document's walk ends (growing it
    /// during the walk rehashed it over and over); later walks add to it.
    by_address: AHashMap<usize, u32>,
    /// What the walks learned of each schema object, for the compiler.
    objects: Vec<Scanned>,
    /// The keyword values of the objects walked, each object's in one run
    /// ([`Scanned::values`]).
    keyword_values: Vec<&'a Value>,
}

/// What the walk learned of one schema object, kept for the compiler so that it
/// classifies each object's keywords once and finds resource roots without rendering
/// pointers.
#[derive(Clone, Copy, Debug)]
struct Scanned {
    /// The address of its value.
    address: usize,
    /// Its keywords (in the dialect it is read in), whose values start at `values` in
    /// the registry's `keyword_values`.
    present: KeywordSet,
    values: u32,
    /// The resource it is the root of, if any.
    root_of: Option<u32>,
    /// The compiler's node for it, once it has one.
    node: Option<NodeId>,
}

/// A schema document the compiler can read.
struct Document<'a> {
    value: Source<'a>,
    /// Borrowed (the embedded metaschemas' and the caller's resources'): a compile
    /// allocates nothing for documents it never reads.
    uri: &'a str,
    scanned: bool,
    /// Why the document could not be scanned (an unknown dialect, say): reported when a
    /// reference reaches it, not when another reference makes the compiler look around.
    broken: Option<SchemaError>,
}

/// Where a document's value is.
enum Source<'a> {
    /// The caller's: the schema, or a registered resource.
    Given(&'a Value),
    /// An official metaschema, parsed when first read.
    Embedded(&'static Embedded),
}

impl<'a> Document<'a> {
    /// Its value (an embedded metaschema is parsed now, if no one read it before).
    fn value(&self) -> &'a Value {
        match self.value {
            Source::Given(value) => value,
            Source::Embedded(embedded) => embedded.value(),
        }
    }
}

/// A schema resource: a document root or a subschema with its own `$id`.
#[derive(Clone, Debug)]
pub(crate) struct Resource {
    pub(crate) uri: Arc<str>,
    pub(crate) doc: u32,
    pub(crate) pointer: String,
    pub(crate) dialect: Dialect,
    /// `$dynamicAnchor`s (and `$recursiveAnchor: true`, named `""`): name and location.
    pub(crate) dynamic_anchors: Vec<(String, String)>,
}

/// A schema location: a document and a JSON Pointer into it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Target {
    pub(crate) doc: u32,
    pub(crate) pointer: String,
}

/// Where the scan is, as the tokens of a JSON Pointer: rendered only when a resource,
/// an anchor or an error needs it, not for every subschema walked.
#[derive(Default)]
struct Path<'a>(Vec<Token<'a>>);

/// One step of a [`Path`].
#[derive(Clone, Copy)]
enum Token<'a> {
    Key(&'a str),
    Index(usize),
}

impl<'a> Path<'a> {
    fn push(&mut self, token: Token<'a>) {
        self.0.push(token);
    }

    fn pop(&mut self) {
        self.0.pop();
    }

    /// The JSON Pointer of the current place.
    fn pointer(&self) -> String {
        let mut out = String::new();
        for token in &self.0 {
            match *token {
                Token::Key(key) => pointer::push(&mut out, key),
                Token::Index(i) => {
                    use std::fmt::Write;
                    let _ = write!(out, "/{i}");
                }
            }
        }
        out
    }
}

/// The longest chain of custom metaschemas followed to find a dialect.
const MAX_METASCHEMA_CHAIN: u32 = 8;

impl<'a> Registry<'a> {
    /// The registry of `schema` (walked now) and of every document `options` registers
    /// and the embedded metaschemas (walked on demand).
    pub(crate) fn new(
        schema: &'a Value,
        options: &'a ValidationOptions,
    ) -> Result<Registry<'a>, SchemaError> {
        let mut registry = Registry {
            options,
            docs: Vec::new(),
            resources: Vec::new(),
            by_uri: crate::maps::map(),
            resource_roots: crate::maps::map(),
            anchors: crate::maps::map(),
            stack: StackGuard::new(),
            subschemas: 0,
            dynamic_anchors: false,
            by_address: crate::maps::map(),
            objects: Vec::with_capacity(24),
            keyword_values: Vec::with_capacity(64),
        };
        registry.add_documents(schema)?;
        let objects = registry.objects.iter().enumerate();
        let mut by_address = crate::maps::map_with_capacity(registry.objects.len());
        by_address.extend(objects.map(|(index, object)| (object.address, index as u32)));
        registry.by_address = by_address;
        Ok(registry)
    }

    fn add_documents(&mut self, schema: &'a Value) -> Result<(), SchemaError> {
        let document = |uri: &'a str, value: Source<'a>| Document {
            value,
            uri,
            scanned: false,
            broken: None,
        };
        let (resources, metaschemas) = (&self.options.resources, metaschemas());
        self.docs
            .reserve_exact(1 + resources.len() + metaschemas.len());
        let base = self
            .options
            .base_uri
            .as_deref()
            .unwrap_or(uri::DEFAULT_BASE);
        if !uri::is_absolute(base) {
            return Err(SchemaError::new(
                SchemaErrorKind::UnresolvableReference,
                "",
                format!("the base URI {base:?} is not absolute"),
            ));
        }
        self.docs.push(document(base, Source::Given(schema)));
        for (name, value) in resources {
            let name = uri::split_fragment(name).0;
            self.docs
                .push(document(name, Source::Given(value.as_ref())));
        }
        for embedded in metaschemas {
            self.docs
                .push(document(embedded.uri, Source::Embedded(embedded)));
        }
        self.scan(0)
    }

    /// Walks every document not walked yet, to find a resource or an anchor no document
    /// named after it holds. A document that cannot be walked is set aside with its
    /// error ([`Document::broken`]): only a reference that reaches it reports it.
    fn scan_all(&mut self) {
        for doc in 0..self.docs.len() {
            if !self.docs[doc].scanned {
                if let Err(error) = self.scan(doc as u32) {
                    self.docs[doc].broken = Some(error);
                }
            }
        }
    }

    /// Makes sure the document registered under `uri` (if any) is walked, which a
    /// reference into it needs: its error if it cannot be.
    fn scan_named(&mut self, uri: &str) -> Result<(), SchemaError> {
        let Some(doc) = self.docs.iter().position(|d| d.uri == uri) else {
            return Ok(());
        };
        if !self.docs[doc].scanned {
            if let Err(error) = self.scan(doc as u32) {
                self.docs[doc].broken = Some(error);
            }
        }
        match &self.docs[doc].broken {
            Some(error) => Err(error.clone()),
            None => Ok(()),
        }
    }

    fn scan(&mut self, doc: u32) -> Result<(), SchemaError> {
        let document = &mut self.docs[doc as usize];
        document.scanned = true;
        let value = document.value();
        let uri: Arc<str> = Arc::from(document.uri);
        // A document that declares no dialect is read in the caller's default one.
        let default = Dialect::standard(self.options.draft.unwrap_or_default());
        let dialect = self.declared_dialect(value, default, doc, "", 0)?;
        let resource = self.add_resource(uri.clone(), doc, String::new(), dialect)?;
        self.scan_schema(doc, value, &mut Path::default(), &uri, dialect, resource, 0)
    }

    fn add_resource(
        &mut self,
        uri: Arc<str>,
        doc: u32,
        pointer: String,
        dialect: Dialect,
    ) -> Result<usize, SchemaError> {
        let index = self.resources.len();
        self.resource_roots.insert((doc, pointer.clone()), index);
        self.resources.push(Resource {
            uri: uri.clone(),
            doc,
            pointer: pointer.clone(),
            dialect,
            dynamic_anchors: Vec::new(),
        });
        self.claim_uri(&uri, index, doc, &pointer)?;
        Ok(index)
    }

    #[allow(clippy::too_many_arguments)]
    fn scan_schema(
        &mut self,
        doc: u32,
        value: &'a Value,
        path: &mut Path<'a>,
        base: &Arc<str>,
        dialect: Dialect,
        resource: usize,
        depth: u32,
    ) -> Result<(), SchemaError> {
        if self.too_deep(depth) {
            return Err(self.depth_error(doc, &path.pointer()));
        }
        self.subschemas += 1;
        if self.subschemas > self.options.max_subschemas {
            return Err(SchemaError::new(
                SchemaErrorKind::LimitExceeded,
                &self.location(doc, &path.pointer()),
                format!(
                    "the schema has more than {} subschemas",
                    self.options.max_subschemas
                ),
            ));
        }
        let Value::Object(map) = value else {
            return Ok(());
        };
        // A new base only where an `$id` sets one: a shared handle's clone and drop per
        // subschema are two atomic operations each walk could do without.
        let mut own_base: Option<Arc<str>> = None;
        let mut dialect = dialect;
        let mut resource = resource;
        let mut keywords = dialect.keywords(map);
        // The document root is its document's resource.
        let mut root_of = path.0.is_empty().then_some(resource);
        let string =
            |keywords: &Keywords<'a>, keyword| keywords.get(keyword).and_then(Value::as_str);
        let ignores_siblings =
            dialect.ref_overrides_siblings() && keywords.get(Keyword::Ref).is_some();
        if let (false, Some(id)) = (ignores_siblings, string(&keywords, dialect.id_keyword())) {
            let at = path.pointer();
            if dialect.draft <= Draft::Draft7 && id.starts_with('#') {
                self.add_anchor(base, &id[1..], doc, &at)?;
            } else {
                let absolute = uri::resolve(base, id);
                let (resource_uri, fragment) = uri::split_fragment(&absolute);
                let base = &*own_base.insert(resource_uri.into());
                if at.is_empty() {
                    // The document root is already a resource under the name it was
                    // registered with; its `$id` is a second name for it.
                    self.claim_uri(base, resource, doc, &at)?;
                    self.resources[resource].uri = base.clone();
                } else {
                    let declared = self.declared_dialect(value, dialect, doc, &at, 0)?;
                    if declared != dialect {
                        dialect = declared;
                        keywords = dialect.keywords(map);
                    }
                    resource = self.add_resource(base.clone(), doc, at.clone(), dialect)?;
                    root_of = Some(resource);
                }
                if !fragment.is_empty() && dialect.draft <= Draft::Draft7 {
                    self.add_anchor(base, fragment, doc, &at)?;
                }
            }
        }
        let base = own_base.as_ref().unwrap_or(base);
        if let Some(name) = string(&keywords, Keyword::Anchor) {
            self.add_anchor(base, name, doc, &path.pointer())?;
        }
        if let Some(name) = string(&keywords, Keyword::DynamicAnchor) {
            let at = path.pointer();
            self.add_anchor(base, name, doc, &at)?;
            self.resources[resource]
                .dynamic_anchors
                .push((name.to_string(), at));
            self.dynamic_anchors = true;
        }
        if keywords.get(Keyword::RecursiveAnchor) == Some(&Value::Bool(true)) {
            let at = path.pointer();
            if self.resources[resource].pointer == at {
                self.resources[resource]
                    .dynamic_anchors
                    .push((String::new(), at));
                self.dynamic_anchors = true;
            }
        }
        for (keyword, child) in keywords.iter() {
            path.push(Token::Key(keyword.name()));
            match (keyword.subschemas(), child) {
                (Subschemas::One | Subschemas::OneOrList, Value::Object(_) | Value::Bool(_)) => {
                    self.scan_schema(doc, child, path, base, dialect, resource, depth + 1)?;
                }
                (Subschemas::List | Subschemas::OneOrList, Value::Array(items)) => {
                    for (i, item) in items.iter().enumerate() {
                        path.push(Token::Index(i));
                        self.scan_schema(doc, item, path, base, dialect, resource, depth + 1)?;
                        path.pop();
                    }
                }
                (Subschemas::Map, Value::Object(entries)) => {
                    for (name, item) in entries {
                        path.push(Token::Key(name));
                        self.scan_schema(doc, item, path, base, dialect, resource, depth + 1)?;
                        path.pop();
                    }
                }
                _ => {}
            }
            path.pop();
        }
        // Within the subschema limit, which is a u32.
        let index = self.objects.len() as u32;
        let address = value as *const Value as usize;
        // The root document's walk (the first) indexes its objects when it ends.
        if doc != 0 {
            self.by_address.insert(address, index);
        }
        let (present, values) = keywords.parts();
        self.objects.push(Scanned {
            address,
            present,
            values: self.keyword_values.len() as u32,
            root_of: root_of.map(|r| r as u32),
            node: None,
        });
        self.keyword_values.extend_from_slice(values);
        Ok(())
    }

    /// Registers anchor `name` of the resource `base` at `at`; another schema claiming
    /// it is an error naming both places.
    fn add_anchor(
        &mut self,
        base: &str,
        name: &str,
        doc: u32,
        at: &str,
    ) -> Result<(), SchemaError> {
        let key = format!("{base}#{name}");
        let second = Target {
            doc,
            pointer: at.to_string(),
        };
        match self.anchors.get(&key) {
            None => {
                self.anchors.insert(key, second);
                Ok(())
            }
            // `$anchor` and `$dynamicAnchor` of one name on one schema.
            Some(first) if self.same_schema(first, &second) => Ok(()),
            Some(first) => {
                let first = self.location(first.doc, &first.pointer);
                Err(self.duplicate(&second, &format!("anchor {name:?} of {base}"), &first))
            }
        }
    }

    /// Registers `uri` as the name of `resource`, which is at `at` of `doc`; another
    /// resource claiming it is an error naming both places.
    fn claim_uri(
        &mut self,
        uri: &str,
        resource: usize,
        doc: u32,
        at: &str,
    ) -> Result<(), SchemaError> {
        let Some(&first) = self.by_uri.get(uri) else {
            self.by_uri.insert(uri.to_string(), resource);
            return Ok(());
        };
        let first = &self.resources[first];
        let first = Target {
            doc: first.doc,
            pointer: first.pointer.clone(),
        };
        let second = Target {
            doc,
            pointer: at.to_string(),
        };
        // One document known under two names (the metaschema being compiled is also an
        // embedded one), or a document root's `$id` naming it again.
        if self.same_schema(&first, &second) {
            return Ok(());
        }
        let first = self.location(first.doc, &first.pointer);
        Err(self.duplicate(&second, &format!("resource {uri:?}"), &first))
    }

    /// Whether two locations hold the very same schema value.
    fn same_schema(&self, a: &Target, b: &Target) -> bool {
        match (self.value_at(a), self.value_at(b)) {
            (Ok(a), Ok(b)) => std::ptr::eq(a, b),
            _ => false,
        }
    }

    /// The error for `what`, defined at `first` and again at `second`.
    #[cold]
    fn duplicate(&self, second: &Target, what: &str, first: &str) -> SchemaError {
        let at = self.location(second.doc, &second.pointer);
        let shown = |l: &str| {
            if l.is_empty() {
                "#".to_string()
            } else {
                l.to_string()
            }
        };
        SchemaError::new(
            SchemaErrorKind::DuplicateIdentifier,
            &at,
            format!(
                "{what} is defined twice: at {} and at {}",
                shown(first),
                shown(&at)
            ),
        )
    }

    /// The dialect a schema object declares with `$schema`, or `inherited`.
    fn declared_dialect(
        &mut self,
        value: &'a Value,
        inherited: Dialect,
        doc: u32,
        at: &str,
        chain: u32,
    ) -> Result<Dialect, SchemaError> {
        let Some(Value::String(declared)) = value.get("$schema") else {
            return Ok(inherited);
        };
        if let Some(draft) = Draft::from_uri(declared) {
            if self.options.unsupported_drafts.contains(&draft) {
                return Err(SchemaError::new(
                    SchemaErrorKind::UnknownDialect,
                    &self.location(doc, &format!("{at}/$schema")),
                    format!("dialect {declared:?} is not supported here"),
                ));
            }
            return Ok(Dialect::standard(draft));
        }
        let unknown = || {
            SchemaError::new(
                SchemaErrorKind::UnknownDialect,
                &self.location(doc, &format!("{at}/$schema")),
                format!(
                    "unknown dialect {declared:?}: not a known draft nor a registered metaschema"
                ),
            )
        };
        if chain >= MAX_METASCHEMA_CHAIN {
            return Err(unknown());
        }
        // A custom metaschema: it must be registered, and its own `$schema` must lead to
        // a known draft; its `$vocabulary` (if any) picks the vocabularies.
        let name = uri::split_fragment(declared).0;
        let Some(meta) = self.docs.iter().position(|d| d.uri == name) else {
            return Err(unknown());
        };
        let meta_value = self.docs[meta].value();
        if std::ptr::eq(meta_value, value) {
            return Err(unknown());
        }
        let mut dialect = self.declared_dialect(meta_value, inherited, doc, at, chain + 1)?;
        if let Some(Value::Object(vocabularies)) = meta_value.get("$vocabulary") {
            let vocabularies =
                Vocabularies::from_declaration(vocabularies).map_err(|error| {
                    let (kind, what) = match error {
                        VocabularyError::Unknown(uri) => (
                            SchemaErrorKind::UnknownVocabulary,
                            format!("requires the vocabulary {uri:?}, which is not implemented here"),
                        ),
                        VocabularyError::NotBoolean(uri) => (
                            SchemaErrorKind::InvalidKeyword,
                            format!("declares the vocabulary {uri:?} neither required (true) nor optional (false)"),
                        ),
                    };
                    SchemaError::new(
                        kind,
                        &self.location(doc, &format!("{at}/$schema")),
                        format!("the metaschema {name:?} {what}"),
                    )
                })?;
            dialect = Dialect::new(dialect.draft, vocabularies);
        }
        Ok(dialect)
    }

    /// Resolves a reference (`$ref` and kin) written in a schema whose base is `base`:
    /// its target, and the schema there when a JSON Pointer led to it.
    pub(crate) fn resolve_reference(
        &mut self,
        base: &str,
        reference: &str,
        location: &dyn Fn() -> String,
    ) -> Result<(Target, Option<&'a Value>), SchemaError> {
        // A fragment alone (`#/$defs/a`, `#a`) stays in the base's resource: the commonest
        // reference, resolved without building the absolute URI (RFC 3986 §5.2.2 keeps
        // the base's scheme, authority, path and query, and takes the fragment).
        let absolute;
        let (resource_uri, fragment) = match reference.strip_prefix('#') {
            Some(fragment) => (uri::split_fragment(base).0, fragment),
            None => {
                absolute = uri::resolve(base, reference);
                uri::split_fragment(&absolute)
            }
        };
        let unresolvable = |why: &str| {
            SchemaError::new(
                SchemaErrorKind::UnresolvableReference,
                &location(),
                format!("cannot resolve reference {reference:?} ({why})"),
            )
        };
        let fragment = pointer::percent_decode(fragment)
            .ok_or_else(|| unresolvable("bad percent-encoding"))?;
        // A document no one registered: a retriever may have it.
        let missing = || unresolvable("no such resource").with_missing_document(resource_uri);
        if fragment.is_empty() || fragment.starts_with('/') {
            let resource = self.find_resource(resource_uri)?.ok_or_else(missing)?;
            let Resource {
                doc, pointer: root, ..
            } = &self.resources[resource];
            let target = Target {
                doc: *doc,
                pointer: format!("{root}{fragment}"),
            };
            return match pointer::resolve(self.docs[target.doc as usize].value(), &target.pointer) {
                Some(value) => Ok((target, Some(value))),
                None => Err(unresolvable("no such location")),
            };
        }
        let key = format!("{resource_uri}#{fragment}");
        if !self.anchors.contains_key(&key) {
            self.scan_named(resource_uri)?;
        }
        if !self.anchors.contains_key(&key) {
            self.scan_all();
        }
        if let Some(target) = self.anchors.get(&key) {
            return Ok((target.clone(), None));
        }
        match self.find_resource(resource_uri)? {
            None => Err(missing()),
            Some(_) => Err(unresolvable("no such anchor")),
        }
    }

    /// The resource named `uri`: the document registered under it, else whatever
    /// document embeds a resource of that name (walking the documents only as far as
    /// needed).
    fn find_resource(&mut self, uri: &str) -> Result<Option<usize>, SchemaError> {
        if !self.by_uri.contains_key(uri) {
            self.scan_named(uri)?;
        }
        if !self.by_uri.contains_key(uri) {
            self.scan_all();
        }
        Ok(self.by_uri.get(uri).copied())
    }

    /// The schema at `target`.
    pub(crate) fn value_at(&self, target: &Target) -> Result<&'a Value, SchemaError> {
        pointer::resolve(self.docs[target.doc as usize].value(), &target.pointer).ok_or_else(|| {
            SchemaError::new(
                SchemaErrorKind::UnresolvableReference,
                &self.location(target.doc, &target.pointer),
                "reference target does not exist",
            )
        })
    }

    /// The resource enclosing `target` most closely (the document's root resource at
    /// least).
    pub(crate) fn innermost_resource(&self, target: &Target) -> usize {
        self.resources
            .iter()
            .enumerate()
            .filter(|(_, r)| r.doc == target.doc && pointer::is_within(&target.pointer, &r.pointer))
            .max_by_key(|(_, r)| r.pointer.len())
            .map(|(i, _)| i)
            .unwrap_or(0)
    }

    /// Whether document `doc` is one resource, rooted at the document: then every
    /// location in it has that resource as its innermost.
    pub(crate) fn is_one_resource(&self, doc: u32) -> bool {
        let mut in_doc = self.resources.iter().filter(|r| r.doc == doc);
        matches!((in_doc.next(), in_doc.next()), (Some(only), None) if only.pointer.is_empty())
    }

    /// The resource rooted exactly at `pointer` of `doc`, if any.
    pub(crate) fn resource_rooted_at(&self, doc: u32, pointer: &str) -> Option<usize> {
        self.resource_roots
            .get(&(doc, pointer.to_string()))
            .copied()
    }

    /// Resource number `index`.
    pub(crate) fn resource(&self, index: usize) -> &Resource {
        &self.resources[index]
    }

    /// Document `doc`.
    pub(crate) fn document(&self, doc: u32) -> &'a Value {
        self.docs[doc as usize].value()
    }

    /// The schema objects of document `doc` that walks met (all of them, once a
    /// reference reached the document), each with its JSON Pointer, in document order.
    pub(crate) fn schema_objects(&self, doc: u32) -> Vec<(String, &'a Value)> {
        let mut found = Vec::new();
        let mut stack = vec![(String::new(), self.docs[doc as usize].value())];
        while let Some((at, value)) = stack.pop() {
            let children: Vec<(String, &'a Value)> = match value {
                Value::Object(map) => {
                    if self.scanned_index(value as *const Value as usize).is_some() {
                        found.push((at.clone(), value));
                    }
                    map.iter()
                        .map(|(k, v)| (pointer::join(&at, k), v))
                        .collect()
                }
                Value::Array(items) => (items.iter().enumerate())
                    .map(|(i, v)| (pointer::join(&at, &i.to_string()), v))
                    .collect(),
                _ => continue,
            };
            stack.extend(children.into_iter().rev());
        }
        found
    }

    /// The URI document `doc` is registered under.
    pub(crate) fn document_uri(&self, doc: u32) -> &str {
        self.docs[doc as usize].uri
    }

    /// Whether any resource walked so far declares a dynamic (or recursive) anchor: if
    /// not, no reference needs to enter a dynamic scope.
    pub(crate) fn has_dynamic_anchors(&self) -> bool {
        self.dynamic_anchors
    }

    /// The schema object whose value is at `address`, if a walk met it: its index for
    /// [`Registry::scanned_node`] and [`Registry::scanned_keywords`].
    #[inline]
    pub(crate) fn scanned_index(&self, address: usize) -> Option<u32> {
        self.by_address.get(&address).copied()
    }

    /// The compiler's node for schema object `index`, once it has one.
    #[inline]
    pub(crate) fn scanned_node(&self, index: u32) -> Option<NodeId> {
        self.objects[index as usize].node
    }

    /// Records `node` as the compiler's node for schema object `index`.
    #[inline]
    pub(crate) fn set_scanned_node(&mut self, index: u32, node: NodeId) {
        self.objects[index as usize].node = Some(node);
    }

    /// The keywords of schema object `index`, and the resource it is the root of.
    pub(crate) fn scanned_keywords(&self, index: u32) -> (Keywords<'a>, Option<usize>) {
        let object = self.objects[index as usize];
        let start = object.values as usize;
        let values = &self.keyword_values[start..start + object.present.count_ones() as usize];
        let keywords = Keywords::from_parts(object.present, values);
        (keywords, object.root_of.map(|r| r as usize))
    }

    /// How many subschemas the walks have met so far.
    pub(crate) fn subschemas(&self) -> u32 {
        self.subschemas
    }

    /// The schema location shown in errors: a pointer, prefixed by the document URI for
    /// documents other than the root.
    pub(crate) fn location(&self, doc: u32, pointer: &str) -> String {
        if doc == 0 {
            pointer.to_string()
        } else {
            format!("{}#{}", self.docs[doc as usize].uri, pointer)
        }
    }

    /// Whether a walk at `depth` is nested too deeply (by count or by stack used).
    pub(crate) fn too_deep(&self, depth: u32) -> bool {
        depth > self.options.max_schema_depth || self.stack.exhausted()
    }

    /// The error of a walk nested too deeply at `pointer` of document `doc`.
    #[cold]
    pub(crate) fn depth_error(&self, doc: u32, pointer: &str) -> SchemaError {
        SchemaError::new(
            SchemaErrorKind::LimitExceeded,
            &self.location(doc, pointer),
            format!(
                "schema nesting exceeds the limit of {}",
                self.options.max_schema_depth
            ),
        )
    }
}
