//! A bounded, thread-safe cache of compiled tool schemas, for servers and gateways that
//! rebuild the same tools again and again.
//!
//! Entries are keyed by a digest of the schema's JSON content (key order and number
//! spelling do not matter) and the role; a hit is confirmed by comparing the schema with
//! the entry's wire form (which is the schema and the members the MCP rules add), so a
//! digest collision can never hand back the wrong validator, and no second copy of the
//! schema is kept. Only schemas that compiled are cached. When full, the least recently
//! used entry makes room.

use super::{is_wire_form, profile, Role, ToolSchema};
use crate::error::SchemaError;
use crate::json::equal;
use crate::options::ValidationOptions;
use serde_json::Value;
use std::hash::{BuildHasher, Hasher};
use std::sync::{Arc, Mutex};

struct Entry {
    digest: u64,
    role: Role,
    compiled: Arc<ToolSchema>,
    last_used: u64,
}

struct Slots {
    entries: Vec<Entry>,
    clock: u64,
}

/// A bounded cache of compiled [`ToolSchema`]s, shared across threads.
///
/// ```
/// use serde_json::json;
/// use mcp_jsonschema::mcp::{Role, SchemaCache};
/// let cache = SchemaCache::new(128);
/// assert!(cache.is_empty());
/// assert_eq!(cache.capacity(), 128);
/// let a = cache.get_or_compile(Role::Input, &json!({"type": "object"}))?;
/// let b = cache.get_or_compile(Role::Input, &json!({"type": "object"}))?;
/// assert!(std::sync::Arc::ptr_eq(&a, &b));
/// assert_eq!(cache.len(), 1);
/// // The same schema in the other role is another entry.
/// cache.get_or_compile(Role::Output, &json!({"type": "object"}))?;
/// assert_eq!(cache.len(), 2);
/// # Ok::<(), mcp_jsonschema::SchemaError>(())
/// ```
pub struct SchemaCache {
    options: ValidationOptions,
    capacity: usize,
    slots: Mutex<Slots>,
}

impl std::fmt::Debug for SchemaCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SchemaCache")
            .field("capacity", &self.capacity)
            .field("len", &self.len())
            .finish()
    }
}

impl SchemaCache {
    /// A cache of at most `capacity` schemas (at least one) compiled under the MCP
    /// [`profile`]. See the example on [`SchemaCache`].
    pub fn new(capacity: usize) -> SchemaCache {
        Self::with_options(capacity, profile())
    }

    /// A cache whose schemas are compiled with `options` (start from [`profile`]).
    ///
    /// ```
    /// use serde_json::json;
    /// use mcp_jsonschema::mcp::{self, Role, SchemaCache};
    /// let cache = SchemaCache::with_options(64, mcp::profile().with_format_assertion(true));
    /// let schema = json!({"properties": {"email": {"format": "email"}}});
    /// let tool = cache.get_or_compile(Role::Input, &schema)?;
    /// assert!(!tool.is_valid(&json!({"email": "ada"})));
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
    pub fn with_options(capacity: usize, options: ValidationOptions) -> SchemaCache {
        SchemaCache {
            options,
            capacity: capacity.max(1),
            slots: Mutex::new(Slots {
                entries: Vec::new(),
                clock: 0,
            }),
        }
    }

    /// The compiled schema for `schema` in `role`, compiling (outside the lock) and caching
    /// it on a miss. A schema that fails to compile is returned as an error and not cached.
    ///
    /// ```
    /// use serde_json::json;
    /// use mcp_jsonschema::mcp::{Role, SchemaCache};
    /// let cache = SchemaCache::new(8);
    /// // Key order and number spelling do not matter.
    /// let a = cache.get_or_compile(Role::Input, &json!({"type": "object", "maxProperties": 2}))?;
    /// let b = cache.get_or_compile(Role::Input, &json!({"maxProperties": 2.0, "type": "object"}))?;
    /// assert!(std::sync::Arc::ptr_eq(&a, &b));
    ///
    /// assert!(cache.get_or_compile(Role::Input, &json!({"type": "string"})).is_err());
    /// assert_eq!(cache.len(), 1);
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Those of [`ToolSchema::new`] for `role`, `schema` and the cache's options (for a
    /// cache made with [`new`](SchemaCache::new), those of [`ToolSchema::input`] or
    /// [`ToolSchema::output`]). Each call for a schema that fails compiles it again.
    pub fn get_or_compile(
        &self,
        role: Role,
        schema: &Value,
    ) -> Result<Arc<ToolSchema>, SchemaError> {
        let digest = digest(schema);
        if let Some(hit) = self.lookup(digest, role, schema) {
            return Ok(hit);
        }
        let compiled = Arc::new(ToolSchema::new(role, schema, &self.options)?);
        let mut slots = self.lock();
        slots.clock += 1;
        let now = slots.clock;
        if let Some(existing) = slots
            .entries
            .iter_mut()
            .find(|e| e.matches(digest, role, schema))
        {
            // Another thread compiled it meanwhile: keep one copy.
            existing.last_used = now;
            return Ok(existing.compiled.clone());
        }
        if slots.entries.len() >= self.capacity {
            if let Some(oldest) = slots
                .entries
                .iter()
                .enumerate()
                .min_by_key(|(_, e)| e.last_used)
                .map(|(i, _)| i)
            {
                slots.entries.swap_remove(oldest);
            }
        }
        slots.entries.push(Entry {
            digest,
            role,
            compiled: compiled.clone(),
            last_used: now,
        });
        Ok(compiled)
    }

    /// How many schemas are cached. See the example on [`SchemaCache`].
    pub fn len(&self) -> usize {
        self.lock().entries.len()
    }

    /// Whether the cache is empty. See the example on [`SchemaCache`].
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The most schemas it holds. See the example on [`SchemaCache`].
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Approximate heap bytes its entries hold: each compiled schema
    /// ([`ToolSchema::memory_usage`]) and the cache's own table, counted as
    /// [`Validator::memory_usage`](crate::Validator::memory_usage) counts (allocator
    /// blocks). A schema a caller still holds after its entry was evicted is no longer
    /// counted.
    ///
    /// ```
    /// use serde_json::json;
    /// use mcp_jsonschema::mcp::{Role, SchemaCache};
    /// let schema = |n: u32| json!({"properties": {"n": {"const": n}}});
    /// let cache = SchemaCache::new(2);
    /// assert_eq!(cache.memory_usage(), 0);
    /// let tool = cache.get_or_compile(Role::Input, &schema(0))?;
    /// let one = cache.memory_usage();
    /// assert!(one > tool.memory_usage());
    /// for n in 1..10 {
    ///     cache.get_or_compile(Role::Input, &schema(n))?;
    /// }
    /// assert_eq!(cache.len(), 2);
    /// assert!(cache.memory_usage() < 3 * one);
    /// # Ok::<(), mcp_jsonschema::SchemaError>(())
    /// ```
    pub fn memory_usage(&self) -> usize {
        use crate::memory::{arc, vec};
        let slots = self.lock();
        vec(&slots.entries)
            + (slots.entries.iter())
                .map(|entry| arc::<ToolSchema>() + entry.compiled.memory_usage())
                .sum::<usize>()
    }

    fn lookup(&self, digest: u64, role: Role, schema: &Value) -> Option<Arc<ToolSchema>> {
        let mut slots = self.lock();
        slots.clock += 1;
        let now = slots.clock;
        let entry = slots
            .entries
            .iter_mut()
            .find(|e| e.matches(digest, role, schema))?;
        entry.last_used = now;
        Some(entry.compiled.clone())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Slots> {
        // A panic while holding the lock cannot leave the slots inconsistent (every update
        // is a single push, swap_remove or field write), so a poisoned lock is still usable.
        self.slots
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Entry {
    fn matches(&self, digest: u64, role: Role, schema: &Value) -> bool {
        self.digest == digest
            && self.role == role
            && is_wire_form(role, schema, self.compiled.to_wire())
    }
}

/// A digest of a schema's JSON content, stable within a process.
fn digest(schema: &Value) -> u64 {
    let mut hasher = ahash::RandomState::with_seeds(0x6d63, 0x7073, 0x6a73, 0x6f6e).build_hasher();
    equal::hash(schema, &mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// An entry for `schema` whose digest is `digest`, whatever the schema's.
    fn entry(digest: u64, role: Role, schema: &Value) -> Entry {
        let compiled = Arc::new(ToolSchema::new(role, schema, &profile()).unwrap());
        Entry {
            digest,
            role,
            compiled,
            last_used: 0,
        }
    }

    #[test]
    fn a_hit_is_confirmed_against_the_wire_form() {
        // Digests forced equal: only the comparison with the wire form decides.
        let input = entry(
            7,
            Role::Input,
            &json!({"properties": {"n": {"maximum": 1}}}),
        );
        assert!(input.matches(
            7,
            Role::Input,
            &json!({"properties": {"n": {"maximum": 1.0}}})
        ));
        assert!(!input.matches(
            8,
            Role::Input,
            &json!({"properties": {"n": {"maximum": 1}}})
        ));
        assert!(!input.matches(
            7,
            Role::Output,
            &json!({"properties": {"n": {"maximum": 1}}})
        ));
        assert!(!input.matches(
            7,
            Role::Input,
            &json!({"properties": {"n": {"maximum": 2}}})
        ));
        assert!(!input.matches(7, Role::Input, &json!({})));
        assert!(!input.matches(7, Role::Input, &json!([])));
        // A schema whose wire form is the same is the same tool schema.
        let explicit = json!({
            "type": "object",
            "properties": {"n": {"maximum": 1}},
            "$schema": "https://json-schema.org/draft/2020-12/schema"
        });
        assert!(input.matches(7, Role::Input, &explicit));
        let mut more = explicit.clone();
        more["title"] = json!("n");
        assert!(!input.matches(7, Role::Input, &more));
        // An output schema gets a root type only when nothing shapes it.
        let shaped = entry(
            7,
            Role::Output,
            &json!({"anyOf": [{"type": "string"}], "type": "object"}),
        );
        assert!(!shaped.matches(7, Role::Output, &json!({"anyOf": [{"type": "string"}]})));
        let plain = entry(7, Role::Output, &json!({"type": "object"}));
        assert!(plain.matches(7, Role::Output, &json!({})));
        let draft7 = json!({"$schema": "http://json-schema.org/draft-07/schema#"});
        let declared = entry(7, Role::Output, &draft7);
        assert!(declared.matches(7, Role::Output, &draft7));
        assert!(!declared.matches(7, Role::Output, &json!({})));
    }
}
