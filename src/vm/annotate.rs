//! The annotating mode of the explaining interpreter (`Validator::evaluate`): it records
//! the [`Node::Annotate`] keywords of every schema object that passes, at the instance
//! location it passed at, and the evaluation path (through `$ref`s) of every keyword
//! it reports. A node that fails drops the annotations recorded while it ran, which
//! drops those of its subschemas too, as 2020-12 Core, section 7.7.1.2 says. Branches
//! whose errors are discarded (`anyOf`, the `if` test, `contains` items...) run in this
//! mode too, for their annotations; only their errors are dropped.

use super::{Annotating, Journal, Logged, Mode, Step, Vm};
use crate::evaluation::Annotation;
use crate::ids::{Id, NodeId};
use crate::json::pointer;
use crate::json::view::{Json, View};
use crate::program::{applicators, other_leaves, AnnotationSet, Node};
use serde_json::Value;

impl<const EXPLAIN: bool> Vm<'_, EXPLAIN>
where
    Mode<EXPLAIN>: Logged,
{
    /// Whether this run collects annotations.
    #[inline(always)]
    pub(super) fn annotating(&self) -> bool {
        EXPLAIN && self.annotating
    }

    fn state(&mut self) -> Option<&mut Annotating> {
        self.log.explained()?.annotating.as_deref_mut()
    }

    /// [`Vm::eval`] in the annotating mode: a `$ref` extends the evaluation path, and a
    /// failure drops the annotations recorded since the node began.
    #[inline(never)]
    pub(super) fn eval_annotating<'i, V: View<'i>>(&mut self, id: NodeId, instance: V) -> bool {
        let program = self.program;
        let frame = match program.nodes[id.index()] {
            Node::Ref(_) => {
                let at = program
                    .ref_targets
                    .binary_search_by_key(&id, |&(node, _)| node);
                let site = self.keyword_location(id);
                at.ok().map(|at| (site, program.ref_targets[at].1.clone()))
            }
            // Every kind named, so that a new one is a build error here; the lists name
            // `Ref` again, which the arm above has taken.
            #[allow(unreachable_patterns)]
            Node::Valid | Node::Type(_) | other_leaves!() | applicators!() => None,
        };
        let framed = frame.is_some();
        let start = self.state().map_or(0, |state| state.annotations.len());
        if let (Some(frame), Some(state)) = (frame, self.state()) {
            state.frames.push(frame);
        }
        let ok = self.eval_node(id, instance);
        if let Some(state) = self.state() {
            if framed {
                state.frames.pop();
            }
            if !ok {
                state.annotations.truncate(start);
            }
        }
        ok
    }

    /// Records the annotations of the schema object of `table` (node `id`) for the
    /// current instance location. Always passes.
    pub(super) fn record_annotations<'i, V: View<'i>>(
        &mut self,
        id: NodeId,
        table: Id<AnnotationSet>,
        instance: V,
    ) -> bool {
        if !self.annotating() {
            return true;
        }
        let program = self.program;
        let set = &program.annotation_sets[table.index()];
        let object = self.keyword_location(id);
        let Some(state) = self.state() else {
            return true;
        };
        let instance_location: String = state.path.concat();
        for (keyword, value, strings_only) in &set.entries {
            if *strings_only && !matches!(instance.json(), Json::String(_)) {
                continue;
            }
            let keyword_location = pointer::join(&object, keyword);
            let schema_location = set.location.to_string();
            let canonical = pointer::join(&set.location, keyword);
            let absolute =
                absolute_location(program.base.as_deref(), &canonical, &keyword_location);
            state.annotations.push(Annotation {
                instance_location: instance_location.clone(),
                keyword_location,
                absolute_keyword_location: absolute,
                schema_location,
                keyword: keyword.clone(),
                value: value.clone(),
            });
        }
        true
    }

    /// Records the annotation of applicator `keyword` (`properties`, `items`,
    /// `contains`...) of the schema object whose node `id` (located at one of its
    /// applicator keywords) passed at the current instance location.
    #[cold]
    pub(super) fn record_applicator(&mut self, id: NodeId, keyword: &str, value: Value) {
        if !self.annotating() {
            return;
        }
        let program = self.program;
        let object = parent(&program.locations.get(id)).to_string();
        let keyword_location = pointer::join(parent(&self.keyword_location(id)), keyword);
        let canonical = pointer::join(&object, keyword);
        let absolute = absolute_location(program.base.as_deref(), &canonical, &keyword_location);
        let Some(state) = self.state() else {
            return;
        };
        state.annotations.push(Annotation {
            instance_location: state.path.concat(),
            keyword_location,
            absolute_keyword_location: absolute,
            schema_location: object,
            keyword: keyword.into(),
            value,
        });
    }

    /// Steps down to `step` of the instance.
    pub(super) fn enter(&mut self, step: Step<'_>) {
        if let Some(state) = self.state() {
            let token = match step {
                Step::Key(key) => pointer::join("", key),
                Step::Index(i) => format!("/{i}"),
            };
            state.path.push(token);
        }
    }

    /// Steps back up from [`Vm::enter`].
    pub(super) fn leave(&mut self) {
        if let Some(state) = self.state() {
            state.path.pop();
        }
    }

    /// Node `id`'s location along the evaluation path: its schema location, with the
    /// part inside the innermost reference followed replaced by that reference's path.
    pub(super) fn keyword_location(&self, id: NodeId) -> String {
        let location = self.program.locations.get(id);
        let frames = (self.log.explained_ref())
            .and_then(|explained| explained.annotating.as_deref())
            .map_or(&[][..], |state| &state.frames[..]);
        for (site, target) in frames.iter().rev() {
            if pointer::is_within(&location, target) {
                return format!("{site}{}", &location[target.len()..]);
            }
        }
        location.to_string()
    }

    /// Drops the annotations recorded since `start` (what `propertyNames` evaluated:
    /// names are not instance locations).
    pub(super) fn drop_annotations_since(&mut self, start: usize) {
        if let Some(state) = self.state() {
            state.annotations.truncate(start);
        }
    }

    /// How many annotations have been recorded.
    pub(super) fn annotation_count(&mut self) -> usize {
        self.state().map_or(0, |state| state.annotations.len())
    }
}

/// The absolute URI of the keyword at `canonical` (a schema location): itself when it
/// names its document, else under the root's `base`; without a base, a placeholder one
/// only when the evaluation path (`keyword_location`) went through a reference, where
/// the output formats require it.
pub(crate) fn absolute_location(
    base: Option<&str>,
    canonical: &str,
    keyword_location: &str,
) -> Option<String> {
    if canonical.contains('#') {
        return Some(fragment_encoded(canonical));
    }
    let base = match base {
        Some(base) => base,
        None if keyword_location != canonical => crate::uri::DEFAULT_BASE,
        None => return None,
    };
    Some(fragment_encoded(&format!("{base}#{canonical}")))
}

/// `uri` with the characters a URI fragment may not hold percent-encoded.
fn fragment_encoded(uri: &str) -> String {
    let Some((head, fragment)) = uri.split_once('#') else {
        return uri.to_string();
    };
    let mut out = String::with_capacity(uri.len() + 8);
    out.push_str(head);
    out.push('#');
    for byte in fragment.bytes() {
        let allowed = byte.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?".contains(&byte);
        if allowed {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// A location without its last token (a keyword's schema object); a registered
/// document's URI stays whole.
fn parent(location: &str) -> &str {
    let fragment = location.rfind('#').map_or(0, |at| at + 1);
    location[fragment..]
        .rfind('/')
        .map_or(&location[..fragment], |at| &location[..fragment + at])
}
