//! The compiler: lowers a schema document into a [`Program`].
//!
//! The pipeline has three steps:
//! 1. **Discover** ([`Registry`]): walk each document once, following only keywords
//!    that hold subschemas, and register every resource (`$id`), anchor (`$anchor`,
//!    `$dynamicAnchor`, draft-07 `#name` ids) and the dialect each resource is written in.
//!    Registered documents (and the embedded metaschemas) are walked only when a
//!    reference cannot be resolved without them.
//! 2. **Lower** (this file and the keyword-family modules): each subschema location gets
//!    one node, memoised by the address of its value; keywords become nodes, cheapest
//!    checks first. A `$ref` reserves its target's node id and queues it, so cycles are
//!    ordinary edges and recursion depth is bounded by schema nesting, not by references.
//! 3. **Finalize**, passes over the whole arena: dynamic references whose anchor the
//!    root resource defines become plain references; in-place cycles are refused when
//!    every instance goes round them and guarded otherwise ([`cycles`]); references
//!    become copies of their targets ([`inline`]); dynamic-scope bookkeeping goes when nothing reads it; nested
//!    conjunctions flatten and their property tables merge ([`conjunction`]); schema
//!    objects and `items` that only check values fuse into single leaves ([`leaves`]);
//!    a `type` and the `properties` or `items` table beside it become one gated node
//!    ([`records`]);
//!    each node gets the types it can accept ([`admits`]); `anyOf` / `oneOf` told apart
//!    by a property become switches ([`switch`]); `else if` chains on one property's
//!    listed values become lookups ([`cases`]); every loop's child gets the way it is
//!    settled ([`settle`]).
//!
//! Every dialect difference is settled here; the interpreter never sees a draft.

mod admits;
mod annotations;
mod applicator;
mod array;
mod cases;
mod conjunction;
mod cycles;
mod exclusive;
mod inline;
mod leaves;
mod logic;
mod object;
mod planned;
mod records;
mod scalar;
mod settle;
mod switch;

use crate::dialect::{Dialect, Keyword, KeywordSet, Keywords};
use crate::error::{SchemaError, SchemaErrorKind};
use crate::ids::{NodeId, ScopeId, Span, StrId};
use crate::options::ValidationOptions;
use crate::program::RegexId;
use crate::program::{Locations, Node, Place, Program};
use crate::regex::StepLimit;
use crate::registry::Registry;
use ahash::AHashMap;
use serde_json::Value;
use smallvec::SmallVec;
use std::sync::Arc;

pub(crate) use crate::registry::Target;

/// The lowering context of one schema object: where it is and how to read it.
#[derive(Clone, Debug)]
pub(crate) struct Context {
    /// The base URI relative references resolve against.
    pub(crate) base: Arc<str>,
    /// The dialect of the enclosing resource.
    pub(crate) dialect: Dialect,
}

/// One schema object being lowered.
pub(crate) struct Schema<'a, 'c> {
    pub(crate) doc: u32,
    /// Where it is: what locates its nodes.
    pub(crate) place: Place,
    pub(crate) keywords: &'c Keywords<'a>,
    pub(crate) context: &'c Context,
    pub(crate) depth: u32,
}

impl<'a> Schema<'a, '_> {
    /// The value of `keyword`, if present and read by this dialect.
    #[inline]
    pub(crate) fn get(&self, keyword: Keyword) -> Option<&'a Value> {
        self.keywords.get(keyword)
    }
}

/// Lowering state; see the module docs.
pub(crate) struct Compiler<'a> {
    pub(crate) options: &'a ValidationOptions,
    pub(crate) registry: Registry<'a>,
    /// The node of each subschema lowered or reserved so far that the registry's walks
    /// did not meet (a boolean schema, a reference into a value no walk reached), by
    /// the address of its value; the others keep theirs in the registry
    /// ([`Registry::scanned_node`](crate::registry::Registry::scanned_node)). One
    /// location, one value, one node, however it is reached (tree walk or reference),
    /// without a pointer string to hash.
    compiled: AHashMap<usize, NodeId>,
    /// Reserved nodes still to lower, with their targets and (when they exist) values.
    pending: Vec<(NodeId, Target, Option<Found<'a>>)>,
    pub(crate) program: Program,
    /// The program's locations, moved into it (to be shared with its errors) once
    /// compiled.
    pub(crate) locations: Locations,
    strings: AHashMap<Box<str>, StrId>,
    /// Patterns compiled so far, by source: schemas repeat the same date or identifier
    /// pattern, and building an automaton costs more than the rest of a keyword.
    patterns: AHashMap<Box<str>, RegexId>,
    /// The target node of each `$ref` text resolved so far, by the address of the base
    /// it was resolved against (kept alive here) and the text ([`Compiler::plain_reference`]).
    resolved: AHashMap<(usize, &'a str), (Arc<str>, NodeId)>,
    /// The dynamic-scope entry of each resource that has one, by resource index.
    scopes: AHashMap<usize, ScopeId>,
    /// Whether this is the annotating program (`Validator::evaluate`): annotation
    /// keywords are lowered, references recorded with their targets' locations, and
    /// finalize keeps the shape of the schema (no inlining, merging or fusing).
    annotating: bool,
    /// The annotating program's `$ref` nodes and the locations of their targets.
    ref_targets: AHashMap<NodeId, Box<str>>,
    /// The root place of each document lowered from, by document index.
    roots: Vec<Option<Place>>,
    /// How many `if`s with a `then` or an `else` were lowered: the `else if` chains
    /// ([`cases`]) are looked for only where there are two.
    conditions: u32,
}

/// For tests of a rewrite: `program` with each node that `undo` maps to another replaced
/// by it (a rewritten node by what it was), the meaning the rewrite must keep.
#[cfg(test)]
pub(crate) fn undone(program: &Program, undo: impl Fn(Node) -> Option<Node>) -> Program {
    let mut plain = program.clone();
    for node in &mut plain.nodes {
        if let Some(was) = undo(*node) {
            *node = was;
        }
    }
    plain
}

/// For tests: `schema` compiled with the default options.
#[cfg(test)]
pub(crate) fn compiled(schema: &Value) -> Program {
    compile(schema, &ValidationOptions::default()).expect("a test's schema compiles")
}

/// Compiles `schema` (and the resources registered in `options`) into a program.
pub(crate) fn compile(schema: &Value, options: &ValidationOptions) -> Result<Program, SchemaError> {
    compile_as(schema, options, false)
}

/// Compiles `schema` into the annotating program of `Validator::evaluate`: the same
/// verdicts, annotation keywords kept, the shape of the schema kept.
pub(crate) fn compile_annotating(
    schema: &Value,
    options: &ValidationOptions,
) -> Result<Program, SchemaError> {
    compile_as(schema, options, true)
}

fn compile_as(
    schema: &Value,
    options: &ValidationOptions,
    annotating: bool,
) -> Result<Program, SchemaError> {
    let registry = Registry::new(schema, options)?;
    let mut compiler = Compiler {
        options,
        // Only what no walk met: the scanned objects keep their nodes in the registry.
        compiled: crate::maps::map(),
        registry,
        pending: Vec::new(),
        program: Program {
            backtrack_limit: StepLimit::within(options.step_budget),
            ..Program::default()
        },
        locations: Locations::default(),
        strings: crate::maps::map(),
        patterns: crate::maps::map(),
        resolved: crate::maps::map(),
        scopes: crate::maps::map(),
        annotating,
        ref_targets: crate::maps::map(),
        roots: Vec::new(),
        conditions: 0,
    };
    compiler.reserve_for_scanned();
    let root = compiler.target_node(
        Target {
            doc: 0,
            pointer: String::new(),
        },
        Some(schema),
    );
    while let Some((id, target, value)) = compiler.pending.pop() {
        compiler.lower_target(id, &target, value)?;
    }
    compiler.program.root = root;
    if annotating {
        let base = compiler.registry.resource(0).uri.clone();
        compiler.program.base =
            (!base.starts_with(crate::uri::DEFAULT_BASE)).then(|| Box::from(&*base));
    }
    compiler.finalize()?;
    compiler.program.locations = Arc::new(compiler.locations);
    Ok(compiler.program)
}

impl<'a> Compiler<'a> {
    /// The node for the schema at `target` (whose value is `value`, when the caller
    /// already has it), reserving it (and queueing its lowering) on first use. This is
    /// how references stay cheap: a cycle just finds the reserved id.
    pub(crate) fn target_node(&mut self, target: Target, value: Option<&'a Value>) -> NodeId {
        // A target that does not exist gets a node of its own, whose lowering reports it.
        let value = match value.map_or_else(|| self.registry.value_at(&target), Ok) {
            Ok(value) => match self.seen(value) {
                Ok(id) => return id,
                Err(unseen) => Some((value, unseen)),
            },
            Err(_) => None,
        };
        let place = self.place_of(&target);
        let id = self.reserve(place);
        if let Some((_, unseen)) = value {
            self.remember(unseen, id);
        }
        self.pending.push((id, target, value));
        id
    }

    /// The node of subschema `value` if it has one, else what [`Compiler::remember`]
    /// needs to give it one.
    #[inline]
    fn seen(&self, value: &Value) -> Result<NodeId, Unseen> {
        let key = address(value);
        match self.registry.scanned_index(key) {
            Some(index) => self
                .registry
                .scanned_node(index)
                .ok_or(Unseen::Scanned(index)),
            None => self.compiled.get(&key).copied().ok_or(Unseen::Other(key)),
        }
    }

    /// Records `id` as the node of the subschema `seen` found without one.
    #[inline]
    fn remember(&mut self, unseen: Unseen, id: NodeId) {
        match unseen {
            Unseen::Scanned(index) => self.registry.set_scanned_node(index, id),
            Unseen::Other(key) => {
                self.compiled.insert(key, id);
            }
        }
    }

    fn lower_target(
        &mut self,
        id: NodeId,
        target: &Target,
        value: Option<Found<'a>>,
    ) -> Result<(), SchemaError> {
        let (value, unseen) = match value {
            Some(value) => value,
            None => {
                let value = self.registry.value_at(target)?;
                (value, Unseen::Other(address(value)))
            }
        };
        let context = self.resource_context(self.registry.innermost_resource(target));
        let place = self.locations.place(id);
        self.lower(id, target.doc, place, (value, unseen), &context, 0)
    }

    /// The place of `target`: its document's root, then the tokens of its pointer.
    pub(crate) fn place_of(&mut self, target: &Target) -> Place {
        let root = self.root_place(target.doc);
        self.locations.pointer(root, &target.pointer)
    }

    /// The root place of document `doc`.
    fn root_place(&mut self, doc: u32) -> Place {
        let index = doc as usize;
        if self.roots.len() <= index {
            self.roots.resize(index + 1, None);
        }
        if let Some(place) = self.roots[index] {
            return place;
        }
        let uri = (doc != 0).then(|| self.registry.document_uri(doc));
        let place = self.locations.root(uri);
        self.roots[index] = Some(place);
        place
    }

    /// The place of `keyword` in `schema`.
    pub(crate) fn at(&mut self, schema: &Schema<'_, '_>, keyword: Keyword) -> Place {
        self.locations.keyword(schema.place, keyword)
    }

    /// The location of `place` (or of `keyword` in it) as errors show it.
    pub(crate) fn render(&self, place: Place, keyword: Option<Keyword>) -> String {
        self.locations.render(place, keyword)
    }

    /// The lowering context at the root of `resource`.
    fn resource_context(&self, resource: usize) -> Context {
        let root = self.registry.resource(resource);
        Context {
            base: root.uri.clone(),
            dialect: root.dialect,
        }
    }

    /// Lowers the subschema `value` found at `pointer` below the schema being lowered.
    pub(crate) fn subschema(
        &mut self,
        parent: &Schema<'a, '_>,
        place: Place,
        value: &'a Value,
    ) -> Result<NodeId, SchemaError> {
        let unseen = match self.seen(value) {
            Ok(id) => return Ok(id),
            Err(unseen) => unseen,
        };
        let id = self.reserve(place);
        self.remember(unseen, id);
        self.lower(
            id,
            parent.doc,
            place,
            (value, unseen),
            parent.context,
            parent.depth + 1,
        )?;
        Ok(id)
    }

    /// Adds a placeholder node for the schema at `place`; `lower` fills it in.
    fn reserve(&mut self, place: Place) -> NodeId {
        self.push(Node::Valid, place, None)
    }

    /// Appends a node located at `place` (at `keyword` in it, for a keyword's node).
    pub(crate) fn push(&mut self, node: Node, place: Place, keyword: Option<Keyword>) -> NodeId {
        let id = NodeId::new(self.program.nodes.len()).expect("fewer than 2^32 nodes");
        self.program.nodes.push(node);
        self.locations.push(place, keyword);
        id
    }

    /// Appends a keyword node located at `keyword` in `schema`.
    pub(crate) fn push_at(
        &mut self,
        schema: &Schema<'_, '_>,
        keyword: Keyword,
        node: Node,
    ) -> NodeId {
        self.push(node, schema.place, Some(keyword))
    }

    /// Sizes the arena for the subschemas the scan counted: measured on the benchmark
    /// schemas, 2.1 to 2.9 nodes each (with their locations), 1.1 to 1.5 places and up
    /// to 1.6 edges. Growing by doubling copied each table several times over; what
    /// is left over is given back at the end.
    fn reserve_for_scanned(&mut self) {
        let subschemas = self.registry.subschemas() as usize;
        self.program.nodes.reserve(3 * subschemas + 8);
        self.locations
            .reserve(3 * subschemas + 8, 2 * subschemas + 8);
        self.program.edges.reserve(2 * subschemas);
    }

    /// Stores `edges` and returns their span.
    pub(crate) fn edges(&mut self, edges: &[NodeId]) -> Span {
        let start = self.program.edges.len() as u32;
        self.program.edges.extend_from_slice(edges);
        Span {
            start,
            len: edges.len() as u32,
        }
    }

    /// Interns a string.
    pub(crate) fn string(&mut self, text: &str) -> StrId {
        if let Some(&id) = self.strings.get(text) {
            return id;
        }
        let id = StrId::new(self.program.strings.len()).expect("fewer than 2^32 strings");
        self.program.strings.push(text.into());
        self.strings.insert(text.into(), id);
        id
    }

    /// Fails when a walk at `depth` is nested too deeply (by count or by stack used).
    pub(crate) fn check_depth(
        &self,
        depth: u32,
        doc: u32,
        place: Place,
    ) -> Result<(), SchemaError> {
        if self.too_deep(depth) {
            let pointer = self.locations.pointer_of(place);
            return Err(self.depth_error(doc, &pointer));
        }
        Ok(())
    }

    /// Whether a walk at `depth` is nested too deeply (by count or by stack used).
    pub(crate) fn too_deep(&self, depth: u32) -> bool {
        self.registry.too_deep(depth)
    }

    /// The error of a walk nested too deeply at `pointer` of document `doc`.
    #[cold]
    pub(crate) fn depth_error(&self, doc: u32, pointer: &str) -> SchemaError {
        self.registry.depth_error(doc, pointer)
    }

    /// Fills node `id` with the lowering of the schema `value` at `pointer`.
    fn lower(
        &mut self,
        id: NodeId,
        doc: u32,
        place: Place,
        (value, unseen): Found<'a>,
        context: &Context,
        depth: u32,
    ) -> Result<(), SchemaError> {
        self.check_depth(depth, doc, place)?;
        let map = match value {
            Value::Bool(true) => return Ok(()),
            Value::Bool(false) => {
                self.program.nodes[id.index()] = Node::Invalid;
                return Ok(());
            }
            Value::Object(map) => map,
            _ => {
                return Err(SchemaError::new(
                    SchemaErrorKind::InvalidKeyword,
                    &self.render(place, None),
                    "expected a schema (an object or a boolean)",
                ))
            }
        };
        // A walked object comes with its keywords and whether it roots a resource.
        let scanned = match unseen {
            Unseen::Scanned(index) => Some(self.registry.scanned_keywords(index)),
            Unseen::Other(_) => None,
        };
        let root = match scanned {
            Some((_, root_of)) => root_of,
            // Only a document root or a schema with an id can be a resource root: skip
            // the lookup (and its key allocation) for every other subschema.
            None if map.contains_key("$id") || map.contains_key("id") || self.is_root(place) => {
                let pointer = self.locations.pointer_of(place);
                self.registry.resource_rooted_at(doc, &pointer)
            }
            None => None,
        };
        let own_context;
        let context = match root {
            Some(resource) => {
                own_context = self.resource_context(resource);
                &own_context
            }
            None => context,
        };
        let keywords = &match scanned {
            Some((keywords, _)) => keywords,
            None => context.dialect.keywords(map),
        };
        let schema = Schema {
            doc,
            place,
            keywords,
            context,
            depth,
        };
        let mut parts: SmallVec<[NodeId; 8]> = SmallVec::new();
        if context.dialect.ref_overrides_siblings() && keywords.get(Keyword::Ref).is_some() {
            self.lower_refs(&schema, &mut parts)?;
        } else {
            self.lower_group(&schema, &mut parts, scalar::SCALARS, Self::lower_scalars)?;
            self.lower_group(&schema, &mut parts, array::ARRAYS, Self::lower_arrays)?;
            self.lower_group(&schema, &mut parts, object::OBJECTS, Self::lower_objects)?;
            let applicators = applicator::APPLICATORS;
            self.lower_group(&schema, &mut parts, applicators, Self::lower_applicators)?;
            let references = applicator::REFERENCES;
            self.lower_group(&schema, &mut parts, references, Self::lower_refs)?;
        }
        if self.annotating {
            self.lower_annotations(&schema, map, &mut parts);
        }
        let body = self.combine(&parts);
        let body = self.lower_unevaluated(&schema, body)?;
        let body = match root {
            Some(resource) => self.scope(resource, body, place),
            None => body,
        };
        self.replace(id, body);
        Ok(())
    }

    /// Lowers one group of keywords with `lower`, which reads only those in `reads`: not
    /// at all when none of them is present (most schema objects have a few keywords of
    /// one or two groups). Debug builds run it anyway and check that it then added
    /// nothing, which keeps each group's set honest under every test.
    #[inline(always)]
    fn lower_group(
        &mut self,
        schema: &Schema<'a, '_>,
        parts: &mut SmallVec<[NodeId; 8]>,
        reads: KeywordSet,
        lower: impl FnOnce(
            &mut Self,
            &Schema<'a, '_>,
            &mut SmallVec<[NodeId; 8]>,
        ) -> Result<(), SchemaError>,
    ) -> Result<(), SchemaError> {
        let present = schema.keywords.any(reads);
        if !present && !cfg!(debug_assertions) {
            return Ok(());
        }
        let before = (parts.len(), self.program.nodes.len());
        lower(self, schema, parts)?;
        debug_assert!(
            present || before == (parts.len(), self.program.nodes.len()),
            "a group read a keyword its set does not list"
        );
        Ok(())
    }

    /// One node that requires all of `parts`, reusing a lone part as is.
    pub(crate) fn combine(&mut self, parts: &[NodeId]) -> Combined {
        match parts {
            [] => Combined::Node(Node::Valid),
            [only] => Combined::Id(*only),
            _ => Combined::Node(Node::All(self.edges(parts))),
        }
    }

    /// Makes node `id` do what `body` does.
    fn replace(&mut self, id: NodeId, body: Combined) {
        match body {
            Combined::Node(node) => self.program.nodes[id.index()] = node,
            Combined::Id(other) => {
                // Copying the node (rather than jumping to it) saves a hop per visit; its
                // location comes along so errors still name the keyword.
                self.program.nodes[id.index()] = self.program.nodes[other.index()];
                self.locations.copy(id, other);
                if let Some(target) = self.ref_targets.get(&other).cloned() {
                    self.ref_targets.insert(id, target);
                }
            }
        }
    }

    /// A standalone node id for `body`, pushing it at `place` if it is not one yet.
    pub(crate) fn materialize(&mut self, body: Combined, place: Place) -> NodeId {
        match body {
            Combined::Id(id) => id,
            Combined::Node(node) => self.push(node, place, None),
        }
    }

    /// Whether `place` is a document's root.
    fn is_root(&self, place: Place) -> bool {
        self.roots.contains(&Some(place))
    }

    /// Wraps a resource root (at `place`) that defines dynamic anchors so it joins the
    /// dynamic scope.
    fn scope(&mut self, resource: usize, body: Combined, place: Place) -> Combined {
        let root = self.registry.resource(resource);
        if root.dynamic_anchors.is_empty() {
            return body;
        }
        let body = self.materialize(body, place);
        let scope = self.resource_scope(resource);
        Combined::Node(Node::Scope { scope, body })
    }

    /// The scope a reference from `doc`/`pointer` to `target` must enter: the resource
    /// around `target`, when it declares dynamic anchors, is not the one the reference
    /// is written in, and is entered other than at its root (whose node enters it
    /// already). The dynamic scope holds every resource evaluation enters, however it
    /// gets there (2020-12 Core 7.1).
    pub(crate) fn entered_scope(
        &mut self,
        doc: u32,
        place: Place,
        target: &Target,
    ) -> Option<ScopeId> {
        if !self.registry.has_dynamic_anchors() {
            return None;
        }
        // A reference within a document that is one resource enters none (the
        // commonest case, answered without writing the reference's pointer: ~1,300
        // instructions a `$ref` in a 2020-12 schema with a `$dynamicAnchor`).
        if target.doc == doc && self.registry.is_one_resource(doc) {
            return None;
        }
        let pointer = self.locations.pointer_of(place);
        let entered = self.registry.innermost_resource(target);
        let root = self.registry.resource(entered);
        if root.dynamic_anchors.is_empty() || root.pointer == target.pointer {
            return None;
        }
        let from = Target { doc, pointer };
        if self.registry.innermost_resource(&from) == entered {
            return None;
        }
        Some(self.resource_scope(entered))
    }

    /// The dynamic-scope entry of `resource`: its dynamic anchors and their nodes, built
    /// once.
    fn resource_scope(&mut self, resource: usize) -> ScopeId {
        if let Some(&scope) = self.scopes.get(&resource) {
            return scope;
        }
        let root = self.registry.resource(resource);
        let anchors = root.dynamic_anchors.clone();
        let doc = root.doc;
        let start = self.program.anchors.len() as u32;
        for (name, pointer) in anchors {
            let name = self.string(&name);
            let node = self.target_node(Target { doc, pointer }, None);
            self.program.anchors.push((name, node));
        }
        let span = Span {
            start,
            len: self.program.anchors.len() as u32 - start,
        };
        let scope = ScopeId::new(self.program.scopes.len()).expect("fewer than 2^32 scopes");
        self.program.scopes.push(span);
        self.scopes.insert(resource, scope);
        scope
    }

    /// Derives what lowering could not know yet (see the module doc): in-place cycles
    /// are refused or guarded, references (and dynamic references the root resource
    /// settles) become copies of their targets,
    /// `Scope` nodes are dropped when no dynamic reference would ever read the scope,
    /// conjunctions flatten and merge their property tables, leaves fuse, then the type
    /// analysis and the discriminator run on the final shape.
    fn finalize(&mut self) -> Result<(), SchemaError> {
        self.resolve_outermost_dynamic_refs();
        self.settle_cycles()?;
        if self.annotating {
            // Every node keeps its schema object: the annotating program only needs
            // what the interpreter reads.
            let mut targets: Vec<_> = self.ref_targets.drain().collect();
            targets.sort_unstable_by_key(|&(node, _)| node);
            self.program.ref_targets = targets;
            self.derive_admits();
            self.settle_slots();
            return Ok(());
        }
        self.inline_refs();
        let dynamic = |node: &Node| matches!(node, Node::DynamicRef(_));
        if !self.program.nodes.iter().any(dynamic) {
            // A scope's body may be a scope too (a reference entering a resource, to a
            // `$ref` into another one): follow the chain, which is no longer than the
            // program (an in-place cycle was refused or guarded above).
            let len = self.program.nodes.len();
            for i in 0..len {
                let mut hops = 0;
                while let Node::Scope { body, .. } = self.program.nodes[i] {
                    self.program.nodes[i] = self.program.nodes[body.index()];
                    hops += 1;
                    if hops > len {
                        break;
                    }
                }
            }
        }
        self.flatten_conjunctions();
        let one_leaves = self.fuse_leaves();
        self.fuse_records();
        // The discriminator reads which branches accept objects.
        self.derive_admits();
        self.discriminate();
        self.settle_exclusive_branches(&one_leaves);
        self.fuse_property_logic();
        self.look_up_chains();
        self.settle_slots();
        // Give back what `reserve_for_scanned` over-estimated.
        self.program.nodes.shrink_to_fit();
        self.program.edges.shrink_to_fit();
        self.locations.shrink_to_fit();
        Ok(())
    }
}

impl Compiler<'_> {
    /// Records that `$ref` node `id` refers to the schema at `target` (the annotating
    /// program only: evaluation paths go through references).
    pub(crate) fn record_ref_target(&mut self, id: NodeId, target: &Target) {
        let location = self.registry.location(target.doc, &target.pointer).into();
        self.ref_targets.insert(id, location);
    }
}

/// A subschema's value, and how [`Compiler::seen`] found it.
type Found<'a> = (&'a Value, Unseen);

/// A subschema without a node yet, as [`Compiler::seen`] found it.
#[derive(Clone, Copy, Debug)]
enum Unseen {
    /// An object the registry's walks met: its index there.
    Scanned(u32),
    /// Any other value: its address.
    Other(usize),
}

/// The address of a schema value: what identifies a subschema while compiling.
fn address(value: &Value) -> usize {
    value as *const Value as usize
}

/// The result of combining a schema object's keyword nodes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Combined {
    /// A node still to be placed.
    Node(Node),
    /// An existing node.
    Id(NodeId),
}

impl Compiler<'_> {
    /// An `InvalidKeyword` error at `keyword` of `schema`.
    #[cold]
    pub(crate) fn invalid(
        &self,
        schema: &Schema<'_, '_>,
        keyword: Keyword,
        message: &str,
    ) -> SchemaError {
        SchemaError::new(
            SchemaErrorKind::InvalidKeyword,
            &self.render(schema.place, Some(keyword)),
            message,
        )
    }

    /// The value of `keyword` as a non-negative integer (`2.0` counts), saturating at
    /// `u32::MAX`.
    pub(crate) fn count(
        &self,
        schema: &Schema<'_, '_>,
        keyword: Keyword,
    ) -> Result<Option<u32>, SchemaError> {
        let Some(value) = schema.get(keyword) else {
            return Ok(None);
        };
        let n = match value {
            Value::Number(n) => crate::json::number::non_negative_integer(n),
            _ => None,
        }
        .ok_or_else(|| self.invalid(schema, keyword, "expected a non-negative integer"))?;
        Ok(Some(u32::try_from(n).unwrap_or(u32::MAX)))
    }
}

impl<'a> Compiler<'a> {
    /// The value of `keyword` as a schema (object or boolean), lowered.
    pub(crate) fn one_subschema(
        &mut self,
        schema: &Schema<'a, '_>,
        keyword: Keyword,
    ) -> Result<Option<NodeId>, SchemaError> {
        match schema.get(keyword) {
            None => Ok(None),
            Some(value) => {
                let place = self.at(schema, keyword);
                self.subschema(schema, place, value).map(Some)
            }
        }
    }
}
