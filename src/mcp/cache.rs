//! A bounded, thread-safe cache of compiled tool schemas, for servers and gateways that
//! rebuild the same tools again and again.
//!
//! Entries are keyed by a digest of the schema's JSON content (key order and number
//! spelling do not matter) and the role; a hit is confirmed by comparing the stored schema,
//! so a digest collision can never hand back the wrong validator. Only schemas that
//! compiled are cached. When full, the least recently used entry makes room.

use super::{profile, Role, ToolSchema};
use crate::error::SchemaError;
use crate::json::equal;
use crate::options::ValidationOptions;
use serde_json::Value;
use std::hash::{BuildHasher, Hasher};
use std::sync::{Arc, Mutex};

struct Entry {
    digest: u64,
    role: Role,
    schema: Value,
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
/// let a = cache.get_or_compile(Role::Input, &json!({"type": "object"}))?;
/// let b = cache.get_or_compile(Role::Input, &json!({"type": "object"}))?;
/// assert!(std::sync::Arc::ptr_eq(&a, &b));
/// assert_eq!(cache.len(), 1);
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
    /// A cache of at most `capacity` schemas compiled under the MCP [`profile`].
    pub fn new(capacity: usize) -> SchemaCache {
        Self::with_options(capacity, profile())
    }

    /// A cache whose schemas are compiled with `options`.
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
            schema: schema.clone(),
            compiled: compiled.clone(),
            last_used: now,
        });
        Ok(compiled)
    }

    /// How many schemas are cached.
    pub fn len(&self) -> usize {
        self.lock().entries.len()
    }

    /// Whether the cache is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
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
        self.digest == digest && self.role == role && equal::equal(&self.schema, schema)
    }
}

/// A digest of a schema's JSON content, stable within a process.
fn digest(schema: &Value) -> u64 {
    let mut hasher = ahash::RandomState::with_seeds(0x6d63, 0x7073, 0x6a73, 0x6f6e).build_hasher();
    equal::hash(schema, &mut hasher);
    hasher.finish()
}
