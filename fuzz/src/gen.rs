//! A structure-aware generator of JSON Schema 2020-12 documents and JSON instances.
//!
//! Every decision the generator makes is a number drawn from a [`Source`]: libFuzzer's
//! bytes through `arbitrary::Unstructured` in the fuzz targets, or proptest's bytes
//! through [`Bytes`] in `tests/properties.rs` and `tests/differential/`. A source that
//! runs dry answers `0`, and option `0` of every decision is the simplest one (fewer
//! keywords, `true`, the first pool entry), so shrinking the bytes shrinks the schema.
//!
//! The schemas are made of real keywords (assertions, applicators, `$ref`s into `$defs`,
//! `$anchor`, `$id`, `$dynamicRef` / `$dynamicAnchor`, `unevaluated*`) whose values come
//! from small pools, so that property names, patterns, constants and instance values
//! collide often and both verdicts occur. References are always resolvable: a target is
//! named by a JSON Pointer or an anchor inside the root resource, or by an absolute URI
//! when it is an embedded resource (`$id`). With [`Config::cycles`] off, every reference
//! cycle passes through a keyword that descends into the instance (`properties`,
//! `items`, ...), so evaluation terminates in every implementation without needing a
//! depth limit; with it on, cycles such as `{"$ref": "#"}` are generated too.
//!
//! This file depends only on `serde_json`, so the test crates include it with
//! `#[path = ".../fuzz/src/gen.rs"] mod gen;`.

use serde_json::{Map, Number, Value};

/// Where the generator's decisions come from.
pub trait Source {
    /// A number in `0..n` (`n >= 1`); `0` once the source is exhausted.
    fn below(&mut self, n: usize) -> usize;
}

/// A byte string as a [`Source`]: each decision reads one byte (more for `n > 256`).
#[derive(Debug, Clone)]
pub struct Bytes<'a> {
    data: &'a [u8],
}

impl<'a> Bytes<'a> {
    /// A source reading `data` from the start.
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data }
    }
}

/// `len` pseudo-random bytes from a xorshift64 `state` (advanced in place): input for
/// [`case`] outside libFuzzer, in tests and in the differential explorer.
pub fn xorshift_bytes(state: &mut u64, len: usize) -> Vec<u8> {
    (0..len)
        .map(|_| {
            *state ^= *state << 13;
            *state ^= *state >> 7;
            *state ^= *state << 17;
            state.to_le_bytes()[0]
        })
        .collect()
}

impl Source for Bytes<'_> {
    fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let mut value = 0usize;
        let mut range = 1usize;
        while range < n {
            let Some((&byte, rest)) = self.data.split_first() else {
                break;
            };
            self.data = rest;
            value = value.wrapping_mul(256).wrapping_add(usize::from(byte));
            range = range.saturating_mul(256);
        }
        value % n
    }
}

/// What the generator may produce.
#[derive(Debug, Clone, Copy)]
pub struct Config {
    /// Deepest subschema nesting below the root.
    pub max_depth: u32,
    /// Most entries in the root's `$defs`.
    pub max_defs: usize,
    /// Most subschemas in one document (a soft cap: past it only leaves are generated).
    pub max_nodes: usize,
    /// Whether reference cycles may avoid consuming the instance (`{"$ref": "#"}`).
    /// Such schemas never terminate without a depth limit.
    pub cycles: bool,
    /// Whether to generate embedded resources: `$id`, absolute-URI references,
    /// `$dynamicAnchor` and `$dynamicRef`.
    pub resources: bool,
    /// Whether to generate `format`.
    pub formats: bool,
    /// Whether to generate `pattern` and `patternProperties`.
    pub patterns: bool,
}

impl Config {
    /// Everything, for the fuzzer.
    pub const FUZZ: Config = Config {
        max_depth: 6,
        max_defs: 4,
        max_nodes: 80,
        cycles: true,
        resources: true,
        formats: true,
        patterns: true,
    };
}

impl Default for Config {
    /// Everything except non-consuming reference cycles, at a size quick to validate.
    fn default() -> Self {
        Config {
            max_depth: 4,
            max_defs: 3,
            max_nodes: 40,
            cycles: false,
            resources: true,
            formats: true,
            patterns: true,
        }
    }
}

/// The base of every generated `$id`.
pub const BASE: &str = "https://example.com/";
/// The name every generated `$dynamicAnchor` uses, so that dynamic references have a
/// choice of targets.
pub const DYNAMIC_ANCHOR: &str = "meta";

/// Property names: short, colliding, and a few that look like keywords.
const NAMES: [&str; 10] = ["a", "b", "c", "foo", "0", "", "é", "a b", "$ref", "$id"];
/// Keys of `patternProperties`.
const NAME_PATTERNS: [&str; 7] = ["^a", "b", "^[0-9]+$", ".", "^$", "^\\$", "é$"];
/// Values of `pattern`: common shapes, and the last five aimed at cost (exponential
/// backtracking, counted lookarounds, a lookbehind of any length, nested quantifiers).
const PATTERNS: [&str; 27] = [
    "^a",
    "a$",
    "^[a-c]*$",
    "\\d",
    "^.$",
    "[^a]",
    "^(a|b)+$",
    "\\w+",
    "^\\p{L}+$",
    "é",
    "^$",
    "(a)\\1",
    "\\bfoo",
    "^\\S*$",
    "[\\u0041-\\u005A]",
    "^(?!a)",
    "x*",
    ".",
    "^.{2,3}$",
    "\\u00e9",
    "[😀]",
    "^[^\\d]+$",
    "(a|a)*(?=b)\\1|x",
    "^(?:(?=a)a){1,99999}$",
    "^((a+)+)+$",
    "(?<=(a|b)*c)d",
    "^(\\w+\\s?)*(?!x)$",
];
/// Values of `format` (the last one is unknown).
const FORMATS: [&str; 17] = [
    "date",
    "date-time",
    "time",
    "email",
    "ipv4",
    "ipv6",
    "hostname",
    "uri",
    "uri-reference",
    "uuid",
    "regex",
    "duration",
    "json-pointer",
    "relative-json-pointer",
    "idn-hostname",
    "iri",
    "not-a-format",
];
/// Values of `type`.
const TYPES: [&str; 7] = [
    "null", "boolean", "integer", "number", "string", "array", "object",
];
/// Strings, many of them valid in some format; the last ones feed the costly patterns.
const STRINGS: [&str; 30] = [
    "",
    "a",
    "b",
    "ab",
    "abc",
    "aaa",
    "foo",
    "bar",
    "0",
    "42",
    "é",
    "日本",
    "😀",
    "a b",
    "A",
    "2020-01-01",
    "2020-02-30",
    "12:00:00Z",
    "2020-01-01T12:00:00Z",
    "a@b.co",
    "127.0.0.1",
    "::1",
    "example.com",
    "http://a.b/c",
    "/a/b",
    "P1D",
    "550e8400-e29b-41d4-a716-446655440000",
    "^a",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!",
    "ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab!",
];
/// Characters of generated free-form strings.
const CHARS: [char; 10] = ['a', 'b', '1', 'é', '😀', ' ', '\\', '\n', 'A', '$'];
/// Bounds of the numeric keywords.
const LIMITS: [f64; 10] = [0.0, 1.0, -1.0, 2.0, 2.5, 10.0, -0.5, 1000.0, 0.1, 1e300];
/// Divisors of `multipleOf`.
const DIVISORS: [f64; 9] = [1.0, 2.0, 0.5, 3.0, 0.1, 1e-5, 7.5, 0.01, 1e300];

/// How to refer to one entry of `$defs`.
#[derive(Debug, Clone, Copy, Default)]
struct DefPlan {
    /// It is an embedded resource with `$id: BASE + "d<n>"`.
    id: bool,
    /// It has `$anchor: "a<n>"` (only entries without `$id`).
    anchor: bool,
    /// It has `$dynamicAnchor: "meta"` (only entries with `$id`).
    dynamic: bool,
}

/// Which schema body is being generated, for keeping cycles through `$defs` acyclic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Owner {
    Root,
    Def(usize),
}

/// Where a subschema is being generated.
#[derive(Debug, Clone, Copy)]
struct At {
    /// The resource whose base URI applies: the root resource (`None`) or entry `n`.
    resource: Option<usize>,
    owner: Owner,
    /// Whether a keyword that descends into the instance lies between the body's top
    /// and here, so a reference back cannot loop on the same instance.
    guarded: bool,
    depth: u32,
}

impl At {
    fn child(self, consumes: bool) -> At {
        At {
            guarded: self.guarded || consumes,
            depth: self.depth + 1,
            ..self
        }
    }
}

/// The generator: create one per document with [`Gen::new`], then call [`Gen::schema`]
/// once and [`Gen::instance`] any number of times.
#[derive(Debug)]
pub struct Gen<'s, S: Source> {
    src: &'s mut S,
    config: Config,
    nodes: usize,
    defs: Vec<DefPlan>,
    root_id: bool,
    root_dynamic: bool,
    /// Values the schema mentions (constants, enum members, names), for instances.
    pool: Vec<Value>,
}

impl<'s, S: Source> Gen<'s, S> {
    /// A generator drawing from `src`.
    pub fn new(src: &'s mut S, config: Config) -> Self {
        Gen {
            src,
            config,
            nodes: 0,
            defs: Vec::new(),
            root_id: false,
            root_dynamic: false,
            pool: Vec::new(),
        }
    }

    fn below(&mut self, n: usize) -> usize {
        self.src.below(n)
    }

    /// True with probability `1 / n`.
    fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == n - 1
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// A whole schema document. The root is an object with `$defs` when entries were
    /// planned, except for an occasional boolean root.
    pub fn schema(&mut self) -> Value {
        let defs = self.below(self.config.max_defs + 1);
        if defs == 0 && self.one_in(16) {
            return Value::Bool(self.below(2) == 1);
        }
        let resources = self.config.resources;
        self.defs = (0..defs)
            .map(|_| {
                let id = resources && self.one_in(3);
                DefPlan {
                    id,
                    anchor: !id && self.one_in(3),
                    dynamic: id && self.one_in(2),
                }
            })
            .collect();
        self.root_id = resources && self.one_in(3);
        self.root_dynamic = resources && self.one_in(3);

        let root_at = At {
            resource: None,
            owner: Owner::Root,
            guarded: false,
            depth: 0,
        };
        let mut root = self.object(root_at);
        if self.root_id {
            root.insert("$id".into(), format!("{BASE}root").into());
        }
        if self.root_dynamic {
            root.insert("$dynamicAnchor".into(), DYNAMIC_ANCHOR.into());
        }
        if defs > 0 {
            let mut entries = Map::new();
            for n in 0..defs {
                let plan = self.defs[n];
                let at = At {
                    resource: plan.id.then_some(n),
                    owner: Owner::Def(n),
                    guarded: false,
                    depth: 1,
                };
                let mut body = self.object(at);
                if plan.id {
                    body.insert("$id".into(), format!("{BASE}d{n}").into());
                }
                if plan.anchor {
                    body.insert("$anchor".into(), format!("a{n}").into());
                }
                if plan.dynamic {
                    body.insert("$dynamicAnchor".into(), DYNAMIC_ANCHOR.into());
                }
                entries.insert(format!("d{n}"), Value::Object(body));
            }
            root.insert("$defs".into(), Value::Object(entries));
        }
        Value::Object(root)
    }

    /// An instance: a JSON value of nesting at most 3 that often reuses the values and
    /// names the schema mentions. Call after [`Gen::schema`].
    pub fn instance(&mut self) -> Value {
        self.value(3)
    }

    /// A subschema: mostly an object, sometimes a boolean.
    fn subschema(&mut self, at: At) -> Value {
        self.nodes += 1;
        match self.below(16) {
            0 => Value::Bool(true),
            1 => Value::Bool(false),
            _ => Value::Object(self.object(at)),
        }
    }

    /// A schema object of up to four keywords.
    fn object(&mut self, at: At) -> Map<String, Value> {
        let mut map = Map::new();
        let count = [1, 2, 1, 3, 0, 2, 4, 1][self.below(8)];
        for _ in 0..count {
            self.keyword(&mut map, at);
        }
        map
    }

    /// A number of subschemas for an array-valued applicator.
    fn subschemas(&mut self, at: At, consumes: bool) -> Vec<Value> {
        let count = 1 + self.below(3);
        (0..count)
            .map(|_| self.subschema(at.child(consumes)))
            .collect()
    }

    /// Adds one keyword (or a group that belongs together, like `if`/`then`) to `map`.
    fn keyword(&mut self, map: &mut Map<String, Value>, at: At) {
        const ASSERTIONS: usize = 14;
        const ALL: usize = 31;
        let nested = at.depth < self.config.max_depth && self.nodes < self.config.max_nodes;
        let choice = self.below(if nested { ALL } else { ASSERTIONS });
        let mut put = |key: &str, value: Value| {
            map.insert(key.to_string(), value);
        };
        match choice {
            0 => {
                let value = if self.one_in(3) {
                    let mut types: Vec<Value> = Vec::new();
                    for _ in 0..1 + self.below(3) {
                        let t = Value::from(self.pick(&TYPES));
                        if !types.contains(&t) {
                            types.push(t);
                        }
                    }
                    Value::Array(types)
                } else {
                    self.pick(&TYPES).into()
                };
                put("type", value);
            }
            1 => {
                let value = self.value(2);
                self.pool.push(value.clone());
                put("const", value);
            }
            2 => {
                let members: Vec<Value> = (0..1 + self.below(4)).map(|_| self.value(1)).collect();
                self.pool.extend(members.iter().cloned());
                put("enum", Value::Array(members));
            }
            3 => {
                let key =
                    self.pick(&["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]);
                put(key, number(self.pick(&LIMITS)));
            }
            4 => put("multipleOf", number(self.pick(&DIVISORS))),
            5 => {
                let key = self.pick(&["minLength", "maxLength"]);
                put(key, self.below(4).into());
            }
            6 if self.config.patterns => put("pattern", self.pick(&PATTERNS).into()),
            7 if self.config.formats => put("format", self.pick(&FORMATS).into()),
            6 | 7 => put("type", self.pick(&TYPES).into()),
            8 => {
                let key = self.pick(&["minItems", "maxItems"]);
                put(key, self.below(4).into());
            }
            9 => put("uniqueItems", Value::Bool(self.below(4) != 0)),
            10 => {
                let names = self.names();
                put("required", names);
            }
            11 => {
                let key = self.pick(&["minProperties", "maxProperties"]);
                put(key, self.below(4).into());
            }
            12 => {
                let mut deps = Map::new();
                let name = self.name();
                deps.insert(name, self.names());
                put("dependentRequired", Value::Object(deps));
            }
            13 => {
                let key = self.pick(&["minContains", "maxContains"]);
                put(key, self.below(4).into());
            }
            14 => {
                let mut props = Map::new();
                for _ in 0..1 + self.below(3) {
                    let name = self.name();
                    props.insert(name, self.subschema(at.child(true)));
                }
                put("properties", Value::Object(props));
            }
            15 => {
                let mut props = Map::new();
                for _ in 0..1 + self.below(2) {
                    let pattern = if self.config.patterns {
                        self.pick(&NAME_PATTERNS)
                    } else {
                        "^a"
                    };
                    props.insert(pattern.into(), self.subschema(at.child(true)));
                }
                put("patternProperties", Value::Object(props));
            }
            16 => put("additionalProperties", self.subschema(at.child(true))),
            17 => put("propertyNames", self.subschema(at.child(true))),
            18 => {
                let mut deps = Map::new();
                let name = self.name();
                deps.insert(name, self.subschema(at.child(false)));
                put("dependentSchemas", Value::Object(deps));
            }
            19 => put("items", self.subschema(at.child(true))),
            20 => put("prefixItems", Value::Array(self.subschemas(at, true))),
            21 => {
                put("contains", self.subschema(at.child(true)));
                if self.one_in(2) {
                    let key = self.pick(&["minContains", "maxContains"]);
                    put(key, self.below(3).into());
                }
            }
            22 => put("allOf", Value::Array(self.subschemas(at, false))),
            23 => put("anyOf", Value::Array(self.subschemas(at, false))),
            24 => put("oneOf", Value::Array(self.subschemas(at, false))),
            25 => put("not", self.subschema(at.child(false))),
            26 => {
                put("if", self.subschema(at.child(false)));
                match self.below(3) {
                    0 => put("then", self.subschema(at.child(false))),
                    1 => put("else", self.subschema(at.child(false))),
                    _ => {
                        put("then", self.subschema(at.child(false)));
                        put("else", self.subschema(at.child(false)));
                    }
                }
            }
            27 => match self.reference(at) {
                Some(uri) => put("$ref", uri.into()),
                None => put("type", self.pick(&TYPES).into()),
            },
            28 => match self.dynamic_reference(at) {
                Some(uri) => put("$dynamicRef", uri.into()),
                None => put("minimum", 0.into()),
            },
            29 => put("unevaluatedProperties", self.subschema(at.child(true))),
            _ => put("unevaluatedItems", self.subschema(at.child(true))),
        }
    }

    /// A `$ref` value that resolves from `at`, or `None` when no target may be named.
    fn reference(&mut self, at: At) -> Option<String> {
        let free = at.guarded || self.config.cycles;
        let mut candidates = Vec::new();
        if free {
            if at.resource.is_none() {
                candidates.push("#".to_string());
            } else if self.root_id {
                candidates.push(format!("{BASE}root"));
            }
        }
        for n in 0..self.defs.len() {
            let forward = match at.owner {
                Owner::Root => true,
                Owner::Def(m) => n > m,
            };
            if !(free || forward) {
                continue;
            }
            let plan = self.defs[n];
            if plan.id {
                candidates.push(format!("{BASE}d{n}"));
                continue;
            }
            let local = if plan.anchor && self.below(2) == 1 {
                format!("#a{n}")
            } else {
                format!("#/$defs/d{n}")
            };
            if at.resource.is_none() {
                candidates.push(local);
            } else if self.root_id {
                candidates.push(format!("{BASE}root{local}"));
            }
        }
        if candidates.is_empty() {
            None
        } else {
            let i = self.below(candidates.len());
            Some(candidates.swap_remove(i))
        }
    }

    /// A `$dynamicRef` value that resolves from `at`. Only generated where a reference
    /// back to any resource is allowed, since the dynamic scope decides the target.
    fn dynamic_reference(&mut self, at: At) -> Option<String> {
        if !(at.guarded || self.config.cycles) {
            return None;
        }
        let mut candidates = Vec::new();
        let here = match at.resource {
            None => self.root_dynamic,
            Some(n) => self.defs[n].dynamic,
        };
        if here {
            candidates.push(format!("#{DYNAMIC_ANCHOR}"));
        }
        if self.root_id && self.root_dynamic {
            candidates.push(format!("{BASE}root#{DYNAMIC_ANCHOR}"));
        }
        for (n, plan) in self.defs.iter().enumerate() {
            if plan.dynamic {
                candidates.push(format!("{BASE}d{n}#{DYNAMIC_ANCHOR}"));
            }
        }
        if candidates.is_empty() {
            None
        } else {
            let i = self.below(candidates.len());
            Some(candidates.swap_remove(i))
        }
    }

    fn name(&mut self) -> String {
        let name = self.pick(&NAMES).to_string();
        self.pool.push(Value::String(name.clone()));
        name
    }

    /// One to three distinct names, as a JSON array.
    fn names(&mut self) -> Value {
        let mut names: Vec<Value> = Vec::new();
        for _ in 0..1 + self.below(3) {
            let name = Value::String(self.name());
            if !names.contains(&name) {
                names.push(name);
            }
        }
        Value::Array(names)
    }

    /// A JSON value nested at most `depth` deep.
    pub fn value(&mut self, depth: u32) -> Value {
        let kinds = if depth == 0 { 6 } else { 9 };
        match self.below(kinds) {
            0 => Value::Null,
            1 => Value::Bool(self.below(2) == 1),
            2 => self.number(),
            3 => self.string(),
            4 | 5 if !self.pool.is_empty() => {
                let i = self.below(self.pool.len());
                self.pool[i].clone()
            }
            4 => self.number(),
            5 => self.string(),
            6 => Value::Array((0..self.below(4)).map(|_| self.value(depth - 1)).collect()),
            _ => {
                let mut map = Map::new();
                for _ in 0..self.below(4) {
                    let key = if self.one_in(8) {
                        self.free_string()
                    } else {
                        self.pick(&NAMES).to_string()
                    };
                    let value = self.value(depth - 1);
                    map.insert(key, value);
                }
                Value::Object(map)
            }
        }
    }

    fn number(&mut self) -> Value {
        match self.below(20) {
            0 => 0.into(),
            1 => 1.into(),
            2 => (-1).into(),
            3 => 2.into(),
            4 => 3.into(),
            5 => 10.into(),
            6 => number(0.5),
            7 => float(1.0),
            8 => float(2.0),
            9 => number(-2.5),
            10 => number(0.1),
            11 => number(0.3),
            12 => number(1e300),
            13 => number(-1e-7),
            14 => 9_007_199_254_740_993u64.into(),
            15 => u64::MAX.into(),
            16 => i64::MIN.into(),
            17 => number(7.5),
            18 => 1000.into(),
            _ => float(-0.0),
        }
    }

    fn string(&mut self) -> Value {
        if self.one_in(4) {
            Value::String(self.free_string())
        } else {
            self.pick(&STRINGS).into()
        }
    }

    fn free_string(&mut self) -> String {
        (0..self.below(6)).map(|_| self.pick(&CHARS)).collect()
    }
}

/// `x` as a JSON number: an integer when it is one (so `1` is not written `1.0`).
fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 1e15 && !(x == 0.0 && x.is_sign_negative()) {
        // The guard keeps the conversion exact.
        #[allow(clippy::cast_possible_truncation)]
        return Value::from(x as i64);
    }
    float(x)
}

/// `x` as a JSON number with a fraction part on the wire (`1.0`), which JSON Schema
/// still counts as an integer when the fraction is zero.
fn float(x: f64) -> Value {
    Number::from_f64(x).map_or(Value::Null, Value::Number)
}

/// A schema and instances drawn from `src` with `config`.
pub fn case<S: Source>(src: &mut S, config: Config, instances: usize) -> (Value, Vec<Value>) {
    let mut gen = Gen::new(src, config);
    let schema = gen.schema();
    let instances = (0..instances).map(|_| gen.instance()).collect();
    (schema, instances)
}
