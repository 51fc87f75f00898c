//! Schema locations: where each node of a program comes from, as a tree of places.
//!
//! A place is a schema object (or a value inside one) named by its parent place and one
//! JSON Pointer token: a keyword, an array index or a property name. A node is located at
//! a place and, for the node of one keyword, that keyword. Compiling then copies no
//! location text (a pointer per subschema, a location per node, most of them sharing
//! their prefixes); a location is rendered when an error, an annotation or a dump
//! reads it.
//!
//! An error keeps its node and the program's locations (shared), and reads its text from
//! [`Locations::rendered`], which renders each node's location once, when first read, and
//! keeps it: failing costs no location text, and reading the same failing keyword's
//! location again costs a lookup.
//!
//! Invariants: a place's parent was added before it (so walks up end), and every node
//! of the program has a location. Nothing is located once a location has been rendered
//! (the program's locations are shared, and so immutable, by then).

use crate::dialect::Keyword;
use crate::error::SchemaLocations;
use crate::ids::NodeId;
use crate::json::pointer::IndexToken;
use smallvec::SmallVec;
use std::sync::OnceLock;

/// A place in a schema document (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Place(u32);

/// The parent of a document root.
const NO_PARENT: u32 = u32::MAX;

/// How a place is reached from its parent.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// A document's root: its URI and `#` (nothing for the root schema's document), a
    /// span of `text`.
    Root { start: u32, len: u32 },
    /// A keyword.
    Keyword(Keyword),
    /// An array item.
    Index(u32),
    /// Any other token, escaped, a span of `text`.
    Token { start: u32, len: u32 },
}

/// The locations of a program's nodes (see the module docs).
#[derive(Clone, Default, Debug)]
pub(crate) struct Locations {
    /// Each node's place, and the keyword it is the node of.
    nodes: Vec<(Place, Option<Keyword>)>,
    /// Each place: its parent (`NO_PARENT` for a root) and its step.
    places: Vec<(u32, Step)>,
    /// Escaped tokens and document URIs, back to back.
    text: String,
    /// The locations rendered so far (see [`Locations::rendered`]).
    rendered: Rendered,
}

/// Nodes' locations as [`Locations::get`] renders them, each made when first read and
/// kept: a slot per node, in chunks of [`CHUNK`] nodes, each chunk (and the list of
/// chunks) allocated when one of its nodes is first read. A slot is three words, so a
/// program whose errors are read pays for the chunks of the nodes that failed, not for
/// every node.
#[derive(Clone, Default, Debug)]
struct Rendered(OnceLock<Box<[OnceLock<Chunk>]>>);

/// [`CHUNK`] nodes' rendered locations.
type Chunk = Box<[OnceLock<Box<str>>]>;

/// Nodes per chunk of [`Rendered`].
const CHUNK: usize = 32;

impl Locations {
    /// The root of a document: `uri` for documents other than the root schema's.
    pub(crate) fn root(&mut self, uri: Option<&str>) -> Place {
        let start = self.text.len() as u32;
        if let Some(uri) = uri {
            self.text.push_str(uri);
            self.text.push('#');
        }
        let len = self.text.len() as u32 - start;
        self.add(NO_PARENT, Step::Root { start, len })
    }

    /// The place of `keyword` in the schema object at `parent`.
    pub(crate) fn keyword(&mut self, parent: Place, keyword: Keyword) -> Place {
        self.add(parent.0, Step::Keyword(keyword))
    }

    /// The place of item `index` of the array at `parent`.
    pub(crate) fn index(&mut self, parent: Place, index: usize) -> Place {
        self.add(parent.0, Step::Index(index as u32))
    }

    /// The place of member `name` of the object at `parent`.
    pub(crate) fn member(&mut self, parent: Place, name: &str) -> Place {
        let start = self.text.len();
        crate::json::pointer::push(&mut self.text, name);
        // The token without the `/` that `push` writes first.
        let (start, len) = (start as u32 + 1, (self.text.len() - start - 1) as u32);
        self.add(parent.0, Step::Token { start, len })
    }

    /// The place `pointer` (a JSON Pointer, escaped) leads to from `root`.
    pub(crate) fn pointer(&mut self, root: Place, pointer: &str) -> Place {
        let mut place = root;
        for token in pointer.split('/').skip(1) {
            let start = self.text.len() as u32;
            self.text.push_str(token);
            place = self.add(
                place.0,
                Step::Token {
                    start,
                    len: token.len() as u32,
                },
            );
        }
        place
    }

    fn add(&mut self, parent: u32, step: Step) -> Place {
        let place = Place(self.places.len() as u32);
        self.places.push((parent, step));
        place
    }

    /// Locates the next node at `place` (at its `keyword`, for a keyword's node).
    pub(crate) fn push(&mut self, place: Place, keyword: Option<Keyword>) {
        self.nodes.push((place, keyword));
    }

    /// Locates the next node where node `from` is.
    pub(crate) fn push_copy(&mut self, from: NodeId) {
        self.nodes.push(self.nodes[from.index()]);
    }

    /// Locates node `to` where node `from` is.
    pub(crate) fn copy(&mut self, to: NodeId, from: NodeId) {
        self.nodes[to.index()] = self.nodes[from.index()];
    }

    /// The place of node `id` (the schema object, for a keyword's node).
    pub(crate) fn place(&self, id: NodeId) -> Place {
        self.nodes[id.index()].0
    }

    /// The location of node `id`: its document's URI and `#` (for documents other than
    /// the root schema's), then a JSON Pointer.
    pub(crate) fn get(&self, id: NodeId) -> String {
        let (place, keyword) = self.nodes[id.index()];
        self.render(place, keyword)
    }

    /// The location of node `id`, as [`Locations::get`] renders it: rendered when first
    /// read, then kept for the life of these locations. An id of no node has none (`""`).
    pub(crate) fn rendered(&self, id: NodeId) -> &str {
        let index = id.index();
        if index >= self.nodes.len() {
            return "";
        }
        let chunks = (self.rendered.0).get_or_init(|| {
            let chunks = self.nodes.len().div_ceil(CHUNK);
            (0..chunks).map(|_| OnceLock::new()).collect()
        });
        let Some(chunk) = chunks.get(index / CHUNK) else {
            return "";
        };
        let chunk = chunk.get_or_init(|| (0..CHUNK).map(|_| OnceLock::new()).collect());
        chunk
            .get(index % CHUNK)
            .map_or("", |slot| slot.get_or_init(|| self.get(id).into()))
    }

    /// The location of `place` (or of `keyword` in it), as [`Locations::get`] writes it.
    pub(crate) fn render(&self, place: Place, keyword: Option<Keyword>) -> String {
        let mut out = String::new();
        self.write(place, keyword, true, &mut out);
        out
    }

    /// The JSON Pointer of `place` within its document, without the document's URI.
    pub(crate) fn pointer_of(&self, place: Place) -> String {
        let mut out = String::new();
        self.write(place, None, false, &mut out);
        out
    }

    fn write(&self, place: Place, keyword: Option<Keyword>, document: bool, out: &mut String) {
        let mut steps: SmallVec<[Step; 16]> = SmallVec::new();
        let mut at = place.0;
        // Parents come first in `places`, so this walk ends; the bound is a safety net.
        for _ in 0..self.places.len() {
            let Some(&(parent, step)) = self.places.get(at as usize) else {
                break;
            };
            steps.push(step);
            if parent == NO_PARENT {
                break;
            }
            at = parent;
        }
        for step in steps.iter().rev() {
            match *step {
                Step::Root { start, len } if document => out.push_str(self.span(start, len)),
                Step::Root { .. } => {}
                Step::Keyword(keyword) => out.push_str(keyword.step()),
                Step::Index(index) => {
                    out.push('/');
                    out.push_str(IndexToken::new(index as usize).as_str());
                }
                Step::Token { start, len } => {
                    out.push('/');
                    out.push_str(self.span(start, len));
                }
            }
        }
        if let Some(keyword) = keyword {
            out.push_str(keyword.step());
        }
    }

    fn span(&self, start: u32, len: u32) -> &str {
        self.text
            .get(start as usize..(start + len) as usize)
            .unwrap_or_default()
    }

    /// Makes room for `nodes` more nodes and `places` more places.
    pub(crate) fn reserve(&mut self, nodes: usize, places: usize) {
        self.nodes.reserve(nodes);
        self.places.reserve(places);
        self.text.reserve(8 * places);
    }

    /// Releases unused capacity.
    pub(crate) fn shrink_to_fit(&mut self) {
        self.nodes.shrink_to_fit();
        self.places.shrink_to_fit();
        self.text.shrink_to_fit();
    }

    /// Heap bytes held (the locations rendered so far included).
    pub(super) fn memory_usage(&self) -> usize {
        use crate::memory::{block, slice, vec};
        let chunk = |chunk: &Chunk| {
            let texts = chunk.iter().filter_map(OnceLock::get);
            slice(chunk) + texts.map(|text| block(text.len())).sum::<usize>()
        };
        let rendered = (self.rendered.0.get()).map_or(0, |chunks| {
            slice(chunks)
                + chunks
                    .iter()
                    .filter_map(OnceLock::get)
                    .map(chunk)
                    .sum::<usize>()
        });
        vec(&self.nodes) + vec(&self.places) + block(self.text.capacity()) + rendered
    }
}

impl SchemaLocations for Locations {
    fn schema_location(&self, node: NodeId) -> &str {
        self.rendered(node)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_render_documents_keywords_indices_and_escaped_members() {
        let mut locations = Locations::default();
        let root = locations.root(None);
        let properties = locations.keyword(root, Keyword::Properties);
        let member = locations.member(properties, "a/b~c");
        let all_of = locations.keyword(member, Keyword::AllOf);
        let branch = locations.index(all_of, 2);
        locations.push(root, None);
        locations.push(branch, Some(Keyword::Type));
        locations.push_copy(NodeId::new(1).unwrap());
        let at = |i: usize| locations.get(NodeId::new(i).unwrap());
        assert_eq!(at(0), "");
        assert_eq!(at(1), "/properties/a~1b~0c/allOf/2/type");
        assert_eq!(at(2), at(1));
        assert_eq!(locations.pointer_of(branch), "/properties/a~1b~0c/allOf/2");

        let other = locations.root(Some("https://example.com/s.json"));
        let defs = locations.pointer(other, "/$defs/a~1b");
        assert_eq!(
            locations.render(defs, Some(Keyword::Ref)),
            "https://example.com/s.json#/$defs/a~1b/$ref"
        );
        assert_eq!(locations.pointer_of(defs), "/$defs/a~1b");
        assert_eq!(locations.render(other, None), "https://example.com/s.json#");
    }

    #[test]
    fn a_rendered_location_is_the_written_one_made_once() {
        let mut locations = Locations::default();
        let root = locations.root(None);
        let defs = locations.keyword(root, Keyword::Defs);
        // Three chunks of nodes, the last one short.
        for i in 0..2 * CHUNK + 5 {
            let place = locations.member(defs, &format!("d{i}"));
            locations.push(place, Some(Keyword::Type));
        }
        let before = locations.memory_usage();
        let ids = (0..2 * CHUNK + 5).map(|i| NodeId::new(i).unwrap());
        for id in ids.clone().rev() {
            assert_eq!(locations.rendered(id), locations.get(id));
        }
        assert_eq!(
            locations.rendered(NodeId::new(7).unwrap()),
            "/$defs/d7/type"
        );
        // Read again, each is the text kept, not a new rendering.
        let kept: Vec<*const u8> = ids
            .clone()
            .map(|id| locations.rendered(id).as_ptr())
            .collect();
        assert!(ids.map(|id| locations.rendered(id).as_ptr()).eq(kept));
        assert!(locations.memory_usage() > before);
        // An id of no node has no location.
        assert_eq!(locations.rendered(NodeId::new(2 * CHUNK + 5).unwrap()), "");
        assert_eq!(locations.rendered(NodeId::new(10 * CHUNK).unwrap()), "");
    }

    #[test]
    fn reading_one_location_allocates_its_chunk_only() {
        let mut locations = Locations::default();
        let root = locations.root(None);
        for _ in 0..100 * CHUNK {
            locations.push(root, Some(Keyword::Type));
        }
        let before = locations.memory_usage();
        assert_eq!(
            locations.rendered(NodeId::new(50 * CHUNK).unwrap()),
            "/type"
        );
        let grown = locations.memory_usage() - before;
        // The list of chunks (a slot each) and one chunk of slots, not a slot per node.
        let slot = size_of::<OnceLock<Box<str>>>();
        assert!(
            grown < 100 * size_of::<OnceLock<Chunk>>() + 2 * CHUNK * slot,
            "{grown}"
        );
    }
}
