//! Checking a schema against the metaschema its `$schema` names, before it is compiled.
//!
//! A metaschema is a schema like any other: it is compiled into a [`Program`] and run in
//! explaining mode over the schema document, so one check reports every problem with its
//! JSON Pointer. The official metaschemas are compiled once per process (lazily, in a
//! `OnceLock`). A registered custom metaschema is compiled for each build that names it,
//! with the same registered resources, after being checked against its own metaschema
//! in turn (a chain of at most [`MAX_CHAIN`] custom metaschemas).
//!
//! A schema that passed an official metaschema is remembered by its digest (a keyed
//! hash of its whole value, see `Digest`): compiling it again in the same process skips
//! the check, which costs about a tenth of a compile.
//!
//! This module sits above the compiler, which it uses; a `$schema` that names nothing
//! known is left for the compiler to report as an unknown dialect.

use crate::dialect::{self, Draft};
use crate::error::{SchemaError, SchemaErrorKind, ValidationError};
use crate::options::ValidationOptions;
use crate::program::Program;
use crate::uri;
use crate::vm::{self, Limits};
use serde_json::Value;
use std::sync::{Arc, Mutex, OnceLock};

/// The most problems one error message lists.
const MAX_LISTED: usize = 10;

/// The longest chain of custom metaschemas checked, each against the next.
const MAX_CHAIN: u32 = 8;

/// Checks `schema` against the metaschema its `$schema` names (or the default draft's);
/// the error lists every problem found.
pub(crate) fn check(schema: &Value, options: &ValidationOptions) -> Result<(), SchemaError> {
    check_chain(schema, options, 0)
}

/// What a schema's `$schema` names.
enum Declared<'o> {
    /// An official draft (or none, so the default one).
    Draft(Draft),
    /// A registered custom metaschema: its URI and document.
    Custom(&'o str, &'o Value),
    /// Nothing known: the compiler reports it.
    Unknown,
}

fn declared<'o>(schema: &Value, options: &'o ValidationOptions) -> Declared<'o> {
    let default = options.draft.unwrap_or_default();
    let Some(Value::String(name)) = schema.get("$schema") else {
        return Declared::Draft(default);
    };
    if let Some(draft) = Draft::from_uri(name) {
        return Declared::Draft(draft);
    }
    let name = uri::split_fragment(name).0;
    options
        .resources
        .iter()
        .find(|(registered, _)| uri::split_fragment(registered).0 == name)
        .map_or(Declared::Unknown, |(registered, document)| {
            Declared::Custom(registered, document)
        })
}

fn check_chain(schema: &Value, options: &ValidationOptions, chain: u32) -> Result<(), SchemaError> {
    match declared(schema, options) {
        Declared::Draft(draft) => check_official(schema, draft),
        Declared::Custom(name, meta) => {
            // A metaschema naming itself, or a chain too long: the compiler refuses the
            // dialect, which it cannot settle either.
            if chain >= MAX_CHAIN || std::ptr::eq(meta, schema) {
                return Ok(());
            }
            let inside = |error: SchemaError| within_metaschema(name, error);
            check_chain(meta, options, chain + 1).map_err(inside)?;
            let meta_options = ValidationOptions {
                format_assertion: Some(false),
                metaschema_check: false,
                ..options.clone()
            };
            let program = crate::compiler::compile(meta, &meta_options).map_err(inside)?;
            report(schema, &program, &format!("the metaschema {name}"))
        }
        Declared::Unknown => Ok(()),
    }
}

/// `error`, found in the custom metaschema registered as `name`, as an error of the
/// schema that uses it.
#[cold]
fn within_metaschema(name: &str, error: SchemaError) -> SchemaError {
    // Locations in a registered document already name it.
    let location = if error.location().contains('#') {
        error.location().to_string()
    } else {
        format!("{}#{}", uri::split_fragment(name).0, error.location())
    };
    SchemaError::new(
        error.kind(),
        &location,
        format!("in the metaschema {name}: {}", error.message()),
    )
}

/// The compiled official metaschema of `draft`, built on first use.
pub(crate) fn official(draft: Draft) -> &'static Arc<Program> {
    static PROGRAMS: [OnceLock<Arc<Program>>; Draft::COUNT] =
        [const { OnceLock::new() }; Draft::COUNT];
    PROGRAMS[draft.index()].get_or_init(|| {
        let uri = dialect::uri_without_fragment(draft);
        let document = dialect::metaschemas()
            .iter()
            .find(|embedded| embedded.uri == uri)
            .map(dialect::Embedded::value)
            .expect("every draft's metaschema is embedded");
        let options = ValidationOptions::default()
            .with_draft(draft)
            .with_format_assertion(false)
            .with_metaschema_check(false);
        let program = crate::compiler::compile(document, &options);
        Arc::new(program.expect("embedded metaschemas compile"))
    })
}

/// Checks `schema` against the official metaschema of `draft`, unless a schema with the
/// same digest passed it before in this process.
fn check_official(schema: &Value, draft: Draft) -> Result<(), SchemaError> {
    let digest = Digest::of(schema, draft);
    if digest.is_some_and(|digest| PASSED.contains(digest)) {
        return Ok(());
    }
    let name = format!("the {} metaschema", draft.name());
    report(schema, official(draft), &name)?;
    if let Some(digest) = digest {
        PASSED.insert(digest);
    }
    Ok(())
}

/// A schema's digest, for [`PASSED`]: a keyed 64-bit hash of its whole value (every
/// member, in order, and every number as held; of the text of a `description`, `title`
/// or `$comment`, only its length, since any text there passes) and its draft, beside
/// the count of its values and bytes. The key is random per process, so a collision cannot be crafted;
/// a chance one among the few digests kept is about one in 2^58. Equal schemas have
/// equal digests; schemas that differ anywhere all but surely differ in theirs.
///
/// A schema nested deeper than [`STACK_SAFE_DEPTH`](crate::options::STACK_SAFE_DEPTH)
/// has none (the digest recurses; the metaschema check refuses such a schema anyway).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Digest {
    hash: u64,
    values: u64,
    bytes: u64,
}

impl Digest {
    fn of(schema: &Value, draft: Draft) -> Option<Digest> {
        use std::hash::{BuildHasher, Hash, Hasher};
        static KEYS: OnceLock<ahash::RandomState> = OnceLock::new();
        let mut hasher = KEYS.get_or_init(ahash::RandomState::new).build_hasher();
        draft.hash(&mut hasher);
        let mut digest = Digest {
            hash: 0,
            values: 0,
            bytes: 0,
        };
        digest.feed(schema, &mut hasher, crate::options::STACK_SAFE_DEPTH)?;
        digest.hash = hasher.finish();
        Some(digest)
    }

    /// Feeds `value` to `hasher`; `None` when it nests deeper than `depth` levels.
    fn feed(
        &mut self,
        value: &Value,
        hasher: &mut impl std::hash::Hasher,
        depth: u32,
    ) -> Option<()> {
        use std::hash::Hash;
        let depth = depth.checked_sub(1)?;
        self.values += 1;
        match value {
            Value::Null => hasher.write_u8(0),
            Value::Bool(b) => hasher.write_u8(1 + u8::from(*b)),
            Value::Number(n) => {
                hasher.write_u8(3);
                n.hash(hasher);
            }
            Value::String(text) => {
                hasher.write_u8(4);
                self.text(text, hasher);
            }
            Value::Array(items) => {
                hasher.write_u8(5);
                hasher.write_usize(items.len());
                for item in items {
                    self.feed(item, hasher, depth)?;
                }
            }
            Value::Object(map) => {
                hasher.write_u8(6);
                hasher.write_usize(map.len());
                for (key, item) in map {
                    self.text(key, hasher);
                    match (key.as_str(), item) {
                        // Any text passes these under every official metaschema, and
                        // fails nothing where a member of that name is no keyword (a
                        // property's schema, a dependency: a string fails there, whatever
                        // it says): its length stands for it. They are most of a
                        // schema's bytes.
                        ("description" | "title" | "$comment", Value::String(text)) => {
                            hasher.write_u8(7);
                            hasher.write_usize(text.len());
                        }
                        _ => self.feed(item, hasher, depth)?,
                    }
                }
            }
        }
        Some(())
    }

    fn text(&mut self, text: &str, hasher: &mut impl std::hash::Hasher) {
        self.bytes += text.len() as u64;
        hasher.write_usize(text.len());
        hasher.write(text.as_bytes());
    }
}

/// The digests of the last schemas that passed an official metaschema (most schemas a
/// process compiles are compiled again: an MCP client's tool schemas on every
/// `tools/list`, a gateway's on every connection).
static PASSED: Passed = Passed(Mutex::new(Recent {
    digests: [None; Passed::KEPT],
    next: 0,
}));

struct Passed(Mutex<Recent>);

struct Recent {
    digests: [Option<Digest>; Passed::KEPT],
    next: usize,
}

impl Passed {
    /// How many digests are kept: a ring, the oldest replaced first.
    const KEPT: usize = 64;

    fn contains(&self, digest: Digest) -> bool {
        let recent = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        recent.digests.contains(&Some(digest))
    }

    fn insert(&self, digest: Digest) {
        let mut recent = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let at = recent.next;
        recent.digests[at] = Some(digest);
        recent.next = (at + 1) % Self::KEPT;
    }
}

/// Runs `metaschema` (`name` in messages: "the 2020-12 metaschema") over `schema`.
/// The limits a schema is checked against its metaschema within: no step budget (a
/// metaschema's work grows with the schema, which compiling bounds anyway), and as deep
/// as the stack safely allows.
pub(crate) const LIMITS: Limits = Limits {
    max_depth: crate::options::STACK_SAFE_DEPTH,
    max_steps: u64::MAX,
    masked: false,
};

fn report(schema: &Value, metaschema: &Program, name: &str) -> Result<(), SchemaError> {
    let limits = LIMITS;
    if vm::is_valid(metaschema, schema, limits) {
        return Ok(());
    }
    let listed = vm::listed_errors(metaschema, schema, limits);
    // One line each: a failed union's closest branch is listed after it.
    let problems: Vec<&ValidationError> = (listed.iter())
        .flat_map(|error| error.lines().map(|(_, line)| line))
        .collect();
    let location = problems
        .first()
        .map(|p| p.instance_location().to_string())
        .unwrap_or_default();
    let mut message = format!("schema is not valid under {name}: ");
    for (i, problem) in problems.iter().take(MAX_LISTED).enumerate() {
        if i > 0 {
            message.push_str("; ");
        }
        let at = match problem.instance_location() {
            "" => "(root)",
            at => at,
        };
        message.push_str(&format!("{at}: {}", problem.message()));
    }
    if problems.len() > MAX_LISTED {
        message.push_str(&format!("; and {} more", problems.len() - MAX_LISTED));
    }
    // A schema too deep to check is too deep to use: say so rather than "invalid".
    let stopped = problems.iter().any(|p| p.kind().is_limit());
    let kind = if stopped {
        SchemaErrorKind::LimitExceeded
    } else {
        SchemaErrorKind::InvalidKeyword
    };
    Err(SchemaError::new(kind, &location, message))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_schemas_that_passed_are_remembered_and_only_for_their_draft() {
        // Each test uses schemas of its own: the ring is shared by the whole process.
        let valid = json!({"title": "remembered", "minLength": 2});
        let invalid = json!({"title": "remembered", "minLength": "2"});
        for _ in 0..2 {
            assert!(check_official(&valid, Draft::Draft202012).is_ok());
            assert!(PASSED.contains(Digest::of(&valid, Draft::Draft202012).unwrap()));
            // A schema that failed is checked (and fails) every time.
            assert!(check_official(&invalid, Draft::Draft202012).is_err());
            assert!(!PASSED.contains(Digest::of(&invalid, Draft::Draft202012).unwrap()));
        }
        // Valid for draft 7, not for draft 4 (an exclusive bound must be a boolean
        // there): what passed one draft's metaschema says nothing of another's.
        let bounded = json!({"exclusiveMinimum": 3, "title": "remembered per draft"});
        assert!(check_official(&bounded, Draft::Draft7).is_ok());
        assert!(check_official(&bounded, Draft::Draft4).is_err());
        assert!(check_official(&bounded, Draft::Draft4).is_err());
    }

    #[test]
    fn digests_see_every_member_and_the_spelling_of_numbers() {
        let digest = |value: Value| Digest::of(&value, Draft::Draft202012);
        let base = digest(json!({"a": [1, "x", {"b": null}]}));
        assert!(base.is_some());
        assert_eq!(base, digest(json!({"a": [1, "x", {"b": null}]})));
        for other in [
            json!({"a": [1, "x", {"b": false}]}),
            json!({"a": [1.0, "x", {"b": null}]}),
            json!({"a": ["x", 1, {"b": null}]}),
            json!({"a": [1, "x", {"c": null}]}),
            json!({"a": [1, "x", {"b": null}], "d": 1}),
            json!({"a": [1, "x", {}]}),
        ] {
            assert_ne!(base, digest(other.clone()), "{other}");
        }
        assert_ne!(
            base,
            Digest::of(&json!({"a": [1, "x", {"b": null}]}), Draft::Draft7)
        );
    }

    #[test]
    fn annotation_text_counts_by_its_length_and_everything_else_in_full() {
        let digest = |value: Value| Digest::of(&value, Draft::Draft202012);
        let base =
            digest(json!({"title": "ab", "properties": {"description": {"type": "string"}}}));
        // Any text of these passes every official metaschema: its length stands for it.
        assert_eq!(
            base,
            digest(json!({"title": "xy", "properties": {"description": {"type": "string"}}}))
        );
        for other in [
            json!({"title": "abc", "properties": {"description": {"type": "string"}}}),
            json!({"title": 12, "properties": {"description": {"type": "string"}}}),
            json!({"title": "ab", "properties": {"description": {"type": "number"}}}),
            json!({"titles": "ab", "properties": {"description": {"type": "string"}}}),
        ] {
            assert_ne!(base, digest(other.clone()), "{other}");
        }
        // Whatever their text, the verdicts agree: a string member of these names is
        // annotation text, or fails (a property's schema) whatever it says.
        for (a, b) in [
            (json!({"description": "a"}), json!({"description": "b"})),
            (
                json!({"properties": {"title": "a"}}),
                json!({"properties": {"title": "b"}}),
            ),
        ] {
            for draft in [Draft::Draft4, Draft::Draft7, Draft::Draft202012] {
                let checked = |schema: &Value| report(schema, official(draft), "m").is_ok();
                assert_eq!(checked(&a), checked(&b), "{a} {b} {draft:?}");
            }
        }
    }

    #[test]
    fn schemas_too_deep_to_digest_have_none_and_are_checked_every_time() {
        let nested = |levels: u32| {
            let mut schema = json!({});
            for _ in 1..levels {
                schema = json!({ "not": schema });
            }
            schema
        };
        let limit = crate::options::STACK_SAFE_DEPTH;
        assert!(Digest::of(&nested(limit), Draft::Draft202012).is_some());
        assert!(Digest::of(&nested(limit + 1), Draft::Draft202012).is_none());
        let too_deep = nested(limit + 1);
        for _ in 0..2 {
            let error = check_official(&too_deep, Draft::Draft202012).unwrap_err();
            assert_eq!(error.kind(), SchemaErrorKind::LimitExceeded);
        }
    }
}
