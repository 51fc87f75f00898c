//! A hostile corpus: tool schemas within the MCP profile's bounds that aim at cost, each
//! with the instances that aim at its worst validation time, all generated here (no
//! hand-copied files), and the figures they take.
//!
//! Each [`Case`] builds a schema and its probes for a [`Size`]. The attacker is either a
//! malicious MCP server, which writes the tool schemas (and, for an output schema, the
//! `structuredContent` a client validates), or whoever writes a tool call's arguments:
//! instances stay under [`MAX_INSTANCE_BYTES`] (1 MiB of JSON) and within the nesting
//! `serde_json` parses by default (128), but for one built in memory to show the depth
//! bound. A case passes when its schema compiles (or is refused, as the case says, with a
//! `SchemaError`) and every probe gets the verdict the case says from `is_valid`,
//! `validate` and `iter_errors` alike.
//!
//! Two tests:
//!
//! * `corpus_is_judged_correctly` runs every case at its small size in this process and
//!   checks verdicts and termination only: test builds are not optimised, and timing in
//!   tests would be flaky.
//! * `figures` (ignored: run it in a release build) runs every case at full size, each in
//!   a child process of this test binary, prints the table below and fails when a case
//!   gets a wrong verdict, or exceeds a bound (compile 100 ms, any validation 50 ms, RSS
//!   growth 64 MiB).
//!
//! ```sh
//! cargo test --release --test hostile -- --ignored --nocapture
//! HOSTILE_CASES=enum,unique cargo test --release --test hostile -- --ignored --nocapture
//! ```
//!
//! `HOSTILE_CASES` keeps the cases whose name contains any of its comma-separated words;
//! `HOSTILE_VERBOSE=1` prints each probe's figures to standard error.
//!
//! What the columns mean: **compile** is the time to build the `ToolSchema` (metaschema
//! check included); **verdict** is the worst, over the probes, of `is_valid`; **errors**
//! the worst of `validate` and of collecting `iter_errors`. Each time is the child's CPU
//! time (`/proc/thread-self/schedstat`) over up to 8 runs (as many as fit in 400 ms)
//! divided by their number: other load on the machine does not count, and the
//! scheduler's ticks (a few ms) average out; wall-clock time where that file is missing.
//! **RSS**: the child resets its peak resident set (`echo 5 > /proc/self/clear_refs`)
//! once the schema and the probes are built, then reports the peak (`VmHWM`) over the
//! resident set at the reset (`VmRSS`): what compiling and every validation added at
//! their worst. Memory the generator freed may be reused without showing, so the figure
//! is a floor, within the few MiB the generator leaves behind. A watchdog ends a child
//! past 2 GiB or 120 s, and the table says so.

use mcp_jsonschema::mcp::{self, Role, ToolSchema};
use mcp_jsonschema::{SchemaErrorKind, ValidationErrorKind as Kind};
use serde_json::{json, Map, Value};
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// The most bytes of JSON an instance (tool arguments, structured content) may take.
const MAX_INSTANCE_BYTES: usize = 1 << 20;
const COMPILE_BOUND: Duration = Duration::from_millis(100);
const VALIDATION_BOUND: Duration = Duration::from_millis(50);
const RSS_BOUND_KIB: u64 = 64 << 10;

/// How big a case is built.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Size {
    /// For the correctness test in unoptimised builds.
    Small,
    /// Up to the profile's bounds and 1 MiB instances: the figures.
    Full,
}

impl Size {
    fn pick(self, small: usize, full: usize) -> usize {
        match self {
            Size::Small => small,
            Size::Full => full,
        }
    }

    /// Valid at the small size; at full size, out of the budget.
    fn valid_until_full(self) -> Verdict {
        match self {
            Size::Small => Verdict::Valid,
            Size::Full => Verdict::Fails(Kind::BudgetExhausted),
        }
    }

    /// How many items of `item_bytes` (comma included) fit in an instance, at full size.
    fn fill(self, small: usize, item_bytes: usize) -> usize {
        self.pick(small, (MAX_INSTANCE_BYTES - 256) / item_bytes)
    }
}

/// What `validate` says of a probe.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Verdict {
    Valid,
    /// Invalid, `validate`'s error being of this kind.
    Fails(Kind),
    /// Invalid, by a `pattern` mismatch or, when the backtracking engine's steps run out
    /// first, by the budget (which of the two depends on the size of the text).
    Rejected,
}

struct Probe {
    label: &'static str,
    instance: Value,
    verdict: Verdict,
}

fn probe(label: &'static str, instance: Value, verdict: Verdict) -> Probe {
    Probe {
        label,
        instance,
        verdict,
    }
}

/// A case's schema, and what becomes of it.
struct Built {
    schema: Value,
    /// `None` when it compiles; else the kind of `SchemaError` it is refused with.
    refused: Option<SchemaErrorKind>,
    probes: Vec<Probe>,
}

fn compiles(schema: Value, probes: Vec<Probe>) -> Built {
    Built {
        schema,
        refused: None,
        probes,
    }
}

/// A schema that compiles, probed with one valid instance and one that fails with `kind`.
fn valid_and_failing(
    schema: Value,
    (valid_label, valid): (&'static str, Value),
    (failing_label, failing, kind): (&'static str, Value, Kind),
) -> Built {
    compiles(
        schema,
        vec![
            probe(valid_label, valid, Verdict::Valid),
            probe(failing_label, failing, Verdict::Fails(kind)),
        ],
    )
}

struct Case {
    name: &'static str,
    role: Role,
    /// Whether `format` is asserted (`mcp::profile().with_format_assertion(true)`).
    formats: bool,
    build: fn(Size) -> Built,
}

const fn case(name: &'static str, build: fn(Size) -> Built) -> Case {
    Case {
        name,
        role: Role::Input,
        formats: false,
        build,
    }
}

impl Case {
    const fn output(self) -> Case {
        Case {
            role: Role::Output,
            ..self
        }
    }

    const fn formats(self) -> Case {
        Case {
            formats: true,
            ..self
        }
    }

    fn compile(&self, schema: &Value) -> Result<ToolSchema, mcp_jsonschema::SchemaError> {
        let options = mcp::profile().with_format_assertion(self.formats);
        ToolSchema::new(self.role, schema, &options)
    }
}

const CASES: &[Case] = &[
    case("pattern-nested-counted-lookaround", |s| pattern_on_q(s, 0)),
    case("pattern-counted-lookahead-1e6", counted_lookahead),
    case("pattern-backreference", |s| pattern_on_q(s, 1)),
    case("pattern-alternation-lookbehind", |s| pattern_on_q(s, 2)),
    case("pattern-backtracking-items", backtracking_items),
    case("pattern-classic-redos", classic_redos),
    case("pattern-10k-subschemas", ten_thousand_patterns),
    case("pattern-allOf-on-1MiB", patterns_on_one_string),
    case(
        "pattern-anchored-anyOf-on-1MiB",
        anchored_patterns_on_one_string,
    ),
    case("propertyNames-long-pattern", property_names_long_pattern),
    case("patternProperties-many-x-keys", pattern_properties_many),
    case("enum-100k-strings", enum_strings),
    case("enum-near-identical-objects", enum_objects),
    case("enum-100k-numbers", enum_numbers),
    case("const-1MiB", const_large),
    case("uniqueItems-large-arrays", unique_items),
    case("ref-chain-10k", ref_chain),
    case("ref-dag-exponential", ref_dag),
    case("anyOf-fan-out-10k", any_of_fan_out),
    case("anyOf-oneOf-recursion", any_of_recursion).output(),
    case("oneOf-all-pass", one_of_all_pass),
    case("oneOf-nested-planning", one_of_nested_planning),
    case("multipleOf-ratios", multiple_of_ratios),
    case("if-then-else-chains", if_then_else),
    case("if-chains-sharing-a-tail", if_chains_sharing_a_tail),
    case("dependentSchemas-10k", dependent_schemas),
    case("dependentRequired-100k", dependent_required),
    case("unevaluatedProperties-anyOf", unevaluated_properties),
    case("unevaluatedItems-oneOf", unevaluated_items),
    case("dynamicRef-nested-scopes", dynamic_ref).output(),
    case("contains-min-max", contains),
    case("format-assertion", formats).formats(),
    case("required-80k", required_huge),
    case("additionalProperties-suggestions", additional_properties),
    case("properties-10k-wide", properties_wide),
    case("prefixItems-10k", prefix_items),
    case("not-deep", not_deep),
    case("deep-instance", deep_instance).output(),
    case("error-flood", error_flood),
    case("schema-depth-65", too_deep),
    case("subschemas-10001", too_many),
];

// ----- building blocks -----

/// An input schema whose one property `v` is `schema`.
fn with_v(schema: Value) -> Value {
    json!({"type": "object", "properties": {"v": schema}})
}

/// Tool arguments whose one property `v` is `value`.
fn args(value: Value) -> Value {
    json!({ "v": value })
}

fn object(entries: impl IntoIterator<Item = (String, Value)>) -> Value {
    Value::Object(entries.into_iter().collect::<Map<String, Value>>())
}

fn array(items: impl IntoIterator<Item = Value>) -> Value {
    Value::Array(items.into_iter().collect())
}

/// An array of `n` copies of `item`.
fn repeated(n: usize, item: Value) -> Value {
    Value::Array(vec![item; n])
}

/// Tool arguments whose one property `v` is an array of `n` copies of `item`.
fn copies(n: usize, item: Value) -> Value {
    args(repeated(n, item))
}

/// `n` names `prefix00000`, `prefix00001`, ...
fn names(prefix: &str, n: usize) -> impl Iterator<Item = String> + '_ {
    (0..n).map(move |i| format!("{prefix}{i:05}"))
}

fn repeat(text: &str, n: usize) -> String {
    text.repeat(n)
}

/// A pattern case: the pattern of a string property `q`, and its probes, each a label, a
/// text (`unit` repeated `count` times, [`FILL`] for as many as fit in 1 MiB, then
/// `tail`) and its verdict.
type PatternCase = (
    &'static str,
    &'static [(&'static str, (&'static str, usize, &'static str), Verdict)],
);

/// As many as fit in an instance (see [`PatternCase`]).
const FILL: usize = usize::MAX;

/// Rejected, by a `pattern` mismatch or a limit (see [`Verdict::Rejected`]).
const NO: Verdict = Verdict::Rejected;

/// Nested counted lookarounds, a backreference after a nested star, an alternation under
/// a count before a lookbehind.
#[rustfmt::skip]
const PATTERN_CASES: [PatternCase; 3] = [
    ("^(?:(?:(?=a)a){1,30}){1,30}$", &[("900 a", ("a", 900, ""), Verdict::Valid), ("899 a then b", ("a", 899, "b"), NO), ("1 MiB of a", ("a", FILL, ""), NO)]),
    ("^(a*)*\\1b$", &[("aaaab", ("a", 4, "b"), Verdict::Valid), ("30 a", ("a", 30, ""), NO), ("1 MiB of a", ("a", FILL, ""), NO)]),
    ("^(?:a|aa|aaa){1,1000}(?<!a)$", &[("3000 a", ("a", 3_000, ""), NO), ("1 MiB of a", ("a", FILL, ""), NO)]),
];

/// The schema and probes of the [`PATTERN_CASES`] at `index`.
fn pattern_on_q(size: Size, index: usize) -> Built {
    let (pattern, probes) = PATTERN_CASES[index];
    let schema =
        json!({"type": "object", "properties": {"q": {"type": "string", "pattern": pattern}}});
    let probes = (probes.iter())
        .map(|&(label, (unit, count, tail), verdict)| {
            let count = match count {
                FILL => size.fill(2_000, 1) / unit.len(),
                count => count,
            };
            probe(label, json!({ "q": unit.repeat(count) + tail }), verdict)
        })
        .collect();
    compiles(schema, probes)
}

/// A pattern only the backtracking engine runs, on every item of an array: each item
/// matches after many steps, so the budget must hear of them item by item.
fn backtracking_items(size: Size) -> Built {
    let (pattern, _) = PATTERN_CASES[0];
    let schema = with_v(json!({"type": "array", "items": {"type": "string", "pattern": pattern}}));
    let item = repeat("a", 900);
    let n = size.fill(3, item.len() + 3);
    compiles(
        schema,
        vec![probe(
            "items of 900 a",
            copies(n, Value::from(item)),
            size.valid_until_full(),
        )],
    )
}

/// A lookahead counted a million times: the backtracking engine would run it once per
/// count, so it is refused when compiled, as too costly.
fn counted_lookahead(_: Size) -> Built {
    Built {
        schema: json!({"type": "object", "properties": {"q": {"type": "string", "pattern": "(x(?=y)){1000000}"}}}),
        refused: Some(SchemaErrorKind::InvalidPattern),
        probes: Vec::new(),
    }
}

fn classic_redos(size: Size) -> Built {
    let long = size.fill(2_000, 1);
    let schema = json!({"type": "object", "properties": {
        "a": {"type": "string", "pattern": "^(a+)+$"},
        "b": {"type": "string", "pattern": "^(a|aa)+$"},
        "c": {"type": "string", "pattern": "(.*a){20}"},
        "d": {"type": "string", "pattern": "^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$"}
    }});
    let a = repeat("a", long / 4) + "!";
    let probes = vec![
        probe(
            "a+ then !",
            json!({ "a": a }),
            Verdict::Fails(Kind::Pattern),
        ),
        probe(
            "a|aa then !",
            json!({ "b": a }),
            Verdict::Fails(Kind::Pattern),
        ),
        probe(
            "(.*a){20} on b",
            json!({ "c": repeat("b", long) }),
            Verdict::Fails(Kind::Pattern),
        ),
        probe(
            "email-like",
            json!({ "d": repeat("a", long) + "!" }),
            Verdict::Fails(Kind::Pattern),
        ),
    ];
    compiles(schema, probes)
}

/// 9,998 string properties with a pattern each: 10,000 subschemas with the root and `v`.
fn ten_thousand_patterns(size: Size) -> Built {
    let n = size.pick(200, 9_999);
    let schema = json!({"type": "object", "properties": object(names("p", n).enumerate().map(|(i, name)| {
        (name, json!({"type": "string", "pattern": format!("^[a-z]{{1,{}}}(?:-[0-9]+){{0,3}}$", 8 + i % 50)}))
    }))});
    let value = repeat("b", 80);
    let valid =
        object(names("p", n).map(|name| (name, Value::from(format!("{}-1-2", &value[..8])))));
    let invalid = object(names("p", n).map(|name| (name, Value::from(format!("{value}!")))));
    valid_and_failing(
        schema,
        ("every property", valid),
        ("every property fails late", invalid, Kind::Pattern),
    )
}

/// 9,998 unanchored patterns (`allOf`) on one string of 1 MiB.
fn patterns_on_one_string(size: Size) -> Built {
    let n = size.pick(100, 9_998);
    let all = array((0..n).map(|i| json!({ "pattern": format!("[a-z]{}x", i) })));
    let schema = with_v(json!({"type": "string", "allOf": all}));
    let long = size.fill(5_000, 1);
    let matches: String = (0..n / 2).map(|i| format!("a{i}x")).collect();
    compiles(
        schema,
        vec![
            probe(
                "1 MiB, half the patterns matching at its end",
                args(Value::from(repeat("a", long - matches.len()) + &matches)),
                Verdict::Rejected,
            ),
            probe(
                "1 MiB of a",
                args(Value::from(repeat("a", long))),
                Verdict::Rejected,
            ),
        ],
    )
}

/// An `anyOf` of 5,000 anchored names in any case (tsconfig's `lib`, grown), fused into
/// one leaf: its patterns read a few bytes of any text, so a 1 MiB string costs no more
/// than a short one, though the budget is charged for its length, pattern by pattern.
fn anchored_patterns_on_one_string(size: Size) -> Built {
    let n = size.pick(100, 5_000);
    let any =
        array((0..n).map(|i| json!({ "pattern": format!("^[Ee][Ss]{i}(\\.[Ii][Nn][Tt][Ll])?$") })));
    let schema = with_v(json!({"type": "string", "anyOf": any}));
    let long = size.fill(5_000, 1);
    compiles(
        schema,
        vec![
            probe("a name", args(Value::from("es7.intl")), Verdict::Valid),
            probe(
                "1 MiB after a name",
                args(Value::from(format!("es7{}", repeat("a", long - 3)))),
                match size {
                    Size::Small => Verdict::Fails(Kind::AnyOf),
                    Size::Full => Verdict::Fails(Kind::BudgetExhausted),
                },
            ),
        ],
    )
}

fn property_names_long_pattern(size: Size) -> Built {
    let words = size.pick(100, 5_000);
    let pattern = format!("^(?:{})$", names("w", words).collect::<Vec<_>>().join("|"));
    let schema = json!({"type": "object", "propertyNames": {"pattern": pattern}});
    let keys = size.fill(200, 12);
    let listed = object((0..keys).map(|i| (format!("w{:05}", i % words), Value::from(0))));
    let unlisted = object(names("x", keys).map(|k| (k, Value::from(0))));
    let long_keys = object(
        (0..keys / 100).map(|i| (format!("w{:05}{}", i, repeat("w", 1_000)), Value::from(0))),
    );
    compiles(
        schema,
        vec![
            probe("listed keys", listed, Verdict::Valid),
            probe("unlisted keys", unlisted, Verdict::Fails(Kind::Pattern)),
            probe("1 KiB keys", long_keys, Verdict::Fails(Kind::Pattern)),
        ],
    )
}

/// Patterns times keys on long keys no literal prefilter skips: 1.5 GB to scan at full
/// size, 6 MB at the small one, charged by the byte, so the budget ends both.
fn pattern_properties_many(size: Size) -> Built {
    let patterns = size.pick(50, 1_500);
    let schema = json!({"type": "object", "patternProperties": object((0..patterns).map(|i| {
        (format!("^[a-z]*{i}$"), json!({"type": "integer"}))
    }))});
    let keys = size.pick(50, 1_000);
    let key_bytes = MAX_INSTANCE_BYTES / keys - 16;
    let instance = object((0..keys).map(|i| {
        (
            format!("{}-{i}", repeat("a", key_bytes - 8)),
            Value::from(0),
        )
    }));
    compiles(
        schema,
        vec![probe(
            "1 KiB keys matching none",
            instance,
            Verdict::Fails(Kind::BudgetExhausted),
        )],
    )
}

// ----- data keywords -----

fn enum_strings(size: Size) -> Built {
    let options = size.pick(1_000, 100_000);
    let schema = with_v(
        json!({"type": "array", "items": {"enum": array((0..options).map(|i| Value::from(format!("opt-{i:06}"))))}}),
    );
    let n = size.fill(300, 13);
    let listed = |n: usize| {
        args(array((0..n).map(|i| {
            Value::from(format!("opt-{:06}", (i * 7919) % options))
        })))
    };
    let unlisted = array((0..n).map(|i| Value::from(format!("nop-{i:06}"))));
    // A lookup costs 18 steps among 100,000 options: 50,000 of them fit in the budget.
    compiles(
        schema,
        vec![
            probe("listed, 50k items", listed(n.min(50_000)), Verdict::Valid),
            probe("listed, 1 MiB", listed(n), size.valid_until_full()),
            probe("unlisted", args(unlisted), Verdict::Fails(Kind::Enum)),
        ],
    )
}

/// A record of 50 string fields and a last one, `zz`, that tells records apart.
fn record(tag: i64) -> Value {
    let mut map: Map<String, Value> = (0..50)
        .map(|f| (format!("f{f:02}"), Value::from("value-of-field-x")))
        .collect();
    map.insert("zz".into(), Value::from(tag));
    Value::Object(map)
}

/// Objects that differ only in their last member: each comparison reads them whole.
fn enum_objects(size: Size) -> Built {
    let options = size.pick(20, 900);
    let schema =
        with_v(json!({"type": "array", "items": {"enum": array((0..options as i64).map(record))}}));
    let n = size.fill(20, json_bytes(&record(0)) + 8);
    let last = repeated(n, record(options as i64 - 1));
    let unlisted = array((0..n).map(|i| record(-1 - i as i64)));
    valid_and_failing(
        schema,
        ("each the last option", args(last)),
        ("unlisted", args(unlisted), Kind::Enum),
    )
}

fn enum_numbers(size: Size) -> Built {
    let options = size.pick(1_000, 100_000);
    let schema = with_v(
        json!({"type": "array", "items": {"enum": array((0..options).map(|i| json!(i as f64 + 0.5)))}}),
    );
    let n = size.fill(100, 8);
    // Each item costs a step per option: the budget runs out at full size.
    let (listed, unlisted) = (size.valid_until_full(), Verdict::Fails(Kind::Enum));
    let of = |x: f64| copies(n, json!(x));
    let integers = args(array((0..n).map(|i| json!(i))));
    compiles(
        schema,
        vec![
            probe("last option", of(options as f64 - 0.5), listed),
            probe("first option", of(0.5), listed),
            probe("unlisted", integers, unlisted),
        ],
    )
}

/// A deep and wide value of about `bytes`: 64 levels of arrays, then records.
fn big_value(bytes: usize, tag: i64) -> Value {
    let records = bytes / (json_bytes(&record(0)) + 8);
    let mut value =
        array((0..records).map(|i| record(if i + 1 == records { tag } else { i as i64 })));
    for _ in 0..64 {
        value = json!([value]);
    }
    value
}

fn const_large(size: Size) -> Built {
    let bytes = size.pick(20_000, MAX_INSTANCE_BYTES - 4_096);
    let schema = json!({"type": "object", "properties": {
        "v": { "const": big_value(bytes, -1) },
        "w": {"type": "array", "items": {"const": record(-1)}},
        "x": {"type": "array", "items": {"$ref": "#/properties/v"}}
    }});
    let near = size.fill(10, json_bytes(&record(0)) + 8);
    compiles(
        schema,
        vec![
            probe("equal", args(big_value(bytes, -1)), Verdict::Valid),
            probe(
                "differs at the end",
                args(big_value(bytes, -2)),
                Verdict::Fails(Kind::Const),
            ),
            probe(
                "many near misses",
                json!({"w": array((0..near).map(|i| record(i as i64)))}),
                Verdict::Fails(Kind::Const),
            ),
            // Each error of `iter_errors` would carry its own copy of the 1 MiB `const`.
            probe(
                "500k misses of the 1 MiB const",
                json!({"x": repeated(size.fill(1_000, 2), json!(0))}),
                Verdict::Fails(Kind::Const),
            ),
        ],
    )
}

fn unique_items(size: Size) -> Built {
    let schema = with_v(json!({"type": "array", "uniqueItems": true}));
    let ints = size.fill(300, 7);
    let mut repeated: Vec<Value> = (0..ints).map(|i| json!(i)).collect();
    repeated.push(json!(0.0));
    let objects = size.fill(100, 24);
    let deep = size.fill(20, 260);
    let nested = |i: usize| {
        let mut v = json!([i]);
        for _ in 0..120 {
            v = json!([v]);
        }
        v
    };
    let strings = size.fill(100, 110);
    let prefix = repeat("p", 100);
    compiles(
        schema,
        vec![
            probe(
                "distinct integers",
                args(array((0..ints).map(|i| json!(i)))),
                Verdict::Valid,
            ),
            probe(
                "last repeats the first as 0.0",
                args(Value::Array(repeated)),
                Verdict::Fails(Kind::UniqueItems),
            ),
            probe(
                "distinct halves",
                args(array((0..ints / 2).map(|i| json!(i as f64 + 0.5)))),
                Verdict::Valid,
            ),
            probe(
                "distinct objects",
                args(array((0..objects).map(|i| json!({"a": i, "b": "x"})))),
                Verdict::Valid,
            ),
            probe(
                "distinct 121-deep arrays",
                args(array((0..deep).map(nested))),
                Verdict::Valid,
            ),
            probe(
                "strings with a common prefix",
                args(array(
                    (0..strings).map(|i| Value::from(format!("{prefix}{i}"))),
                )),
                Verdict::Valid,
            ),
        ],
    )
}

// ----- references -----

/// 9,998 `$defs` each a `$ref` to the next: 10,000 subschemas with the root and `v`.
fn ref_chain(size: Size) -> Built {
    let n = size.pick(100, 9_998);
    let defs = object((0..n).map(|i| {
        let schema = match i + 1 == n {
            true => json!({"type": "integer"}),
            false => json!({ "$ref": format!("#/$defs/d{:05}", i + 1) }),
        };
        (format!("d{i:05}"), schema)
    }));
    let schema =
        json!({"type": "object", "properties": {"v": {"$ref": "#/$defs/d00000"}}, "$defs": defs});
    valid_and_failing(
        schema,
        ("integer", args(json!(1))),
        ("string", args(json!("x")), Kind::Type),
    )
}

/// 60 levels of two twin definitions, each applying both twins of the next level:
/// 2^60 paths, through `allOf` or `anyOf`. The compiler flattens the `allOf`s into one
/// conjunction of distinct nodes (linear); the `anyOf`s, on a value every branch admits
/// by type, run until the budget is gone.
fn ref_dag(size: Size) -> Built {
    let n = size.pick(30, 60);
    let mut defs = Map::new();
    for keyword in ["allOf", "anyOf"] {
        for i in 0..n {
            let next = |twin: char| match i + 1 == n {
                true => format!("#/$defs/leaf{twin}"),
                false => format!("#/$defs/{keyword}{:02}{twin}", i + 1),
            };
            for (twin, most) in [('a', 1_000_000), ('b', 2_000_000)] {
                let schema = json!({ keyword: [{"$ref": next('a')}, {"$ref": next('b')}], "maxLength": most + i });
                defs.insert(format!("{keyword}{i:02}{twin}"), schema);
            }
        }
    }
    defs.insert("leafa".into(), json!({"type": "integer", "minimum": 0}));
    defs.insert(
        "leafb".into(),
        json!({"type": "integer", "minimum": 0, "maximum": 1e9}),
    );
    let schema = json!({"type": "object", "$defs": defs, "properties": {
        "all": {"$ref": "#/$defs/allOf00a"}, "any": {"$ref": "#/$defs/anyOf00a"}
    }});
    compiles(
        schema,
        vec![
            probe("allOf, passing", json!({"all": 1}), Verdict::Valid),
            probe(
                "allOf, failing",
                json!({"all": -1}),
                Verdict::Fails(Kind::Range),
            ),
            probe("anyOf, passing", json!({"any": 1}), Verdict::Valid),
            probe(
                "anyOf, failing",
                json!({"any": -1}),
                Verdict::Fails(Kind::BudgetExhausted),
            ),
        ],
    )
}

// ----- applicators -----

/// 9,997 `anyOf` branches of one `required` each, on each item of an array.
fn any_of_fan_out(size: Size) -> Built {
    let n = size.pick(100, 9_997);
    let branches = array(names("k", n).map(|k| json!({ "required": [k] })));
    let schema = with_v(json!({"type": "array", "items": {"anyOf": branches}}));
    // About two steps a branch: 45 items of 10,000 branches are within the budget.
    let items = 45;
    let (none, no_branch) = (json!({"a": 0}), Verdict::Fails(Kind::AnyOf));
    compiles(
        schema,
        vec![
            probe(
                "the last branch, 45 items",
                args(array(
                    (0..items).map(|_| json!({ format!("k{:05}", n - 1): 0 })),
                )),
                Verdict::Valid,
            ),
            probe(
                "no branch, 45 items",
                copies(items, none.clone()),
                no_branch,
            ),
            probe(
                "no branch, 100k items",
                copies(size.fill(1_000, 9), none),
                no_branch,
            ),
        ],
    )
}

/// `anyOf` / `oneOf` over recursive references: 8 evaluations per level of nesting.
fn any_of_recursion(_: Size) -> Built {
    let schema = json!({
        "$defs": {"r": {"anyOf": [{"$ref": "#/$defs/r2"}, {"$ref": "#/$defs/r2"}, {"type": "null"}]},
                  "r2": {"oneOf": [{"$ref": "#/$defs/r3"}, {"$ref": "#/$defs/r3"}]},
                  "r3": {"anyOf": [{"items": {"$ref": "#/$defs/r"}}, {"items": {"$ref": "#/$defs/r"}}]}},
        "$ref": "#/$defs/r"
    });
    let deep = |levels: usize| {
        let mut deep = json!([null]);
        for _ in 0..levels {
            deep = json!([deep, null]);
        }
        deep
    };
    compiles(
        schema,
        vec![
            probe(
                "30-deep arrays",
                deep(30),
                Verdict::Fails(Kind::BudgetExhausted),
            ),
            probe(
                "120-deep arrays",
                deep(120),
                Verdict::Fails(Kind::DepthExceeded),
            ),
        ],
    )
}

fn one_of_all_pass(size: Size) -> Built {
    let n = size.pick(100, 9_997);
    let branches = array(names("k", n).map(|k| json!({ "required": [k] })));
    let schema = with_v(json!({"type": "array", "items": {"oneOf": branches}}));
    // Only the last branch passes: every item runs all of them.
    let item = json!({ format!("k{:05}", n - 1): 0 });
    let items = size.fill(1_000, json_bytes(&item) + 1);
    let many = size.valid_until_full();
    compiles(
        schema,
        vec![
            probe("one item", args(json!([item])), Verdict::Valid),
            probe("80k items", copies(items, item.clone()), many),
        ],
    )
}

/// Eight levels of `oneOf`s whose branches all refer to the next level: the compiler's
/// reading of which branch takes which tag multiplies by the width at each level (20^8
/// reads), unless bounded. Validating through the unions is as costly (each level tries
/// every branch): the budget stops it, never with a pass.
fn one_of_nested_planning(size: Size) -> Built {
    let width = size.pick(6, 20);
    let mut defs = Map::new();
    for level in 0..8 {
        let next = json!({"$ref": format!("#/$defs/l{}", level + 1)});
        defs.insert(format!("l{level}"), json!({"oneOf": repeated(width, next)}));
    }
    defs.insert(
        "l8".into(),
        json!({"type": "object", "properties": {"kind": {"const": "x"}}, "required": ["kind"]}),
    );
    let schema = json!({"type": "object", "$defs": defs, "properties": {"v": {"$ref": "#/$defs/l8"}, "w": {"$ref": "#/$defs/l0"}}});
    compiles(
        schema,
        vec![
            probe("the leaf alone", args(json!({"kind": "x"})), Verdict::Valid),
            probe(
                "through the unions",
                json!({"w": {"kind": "x"}}),
                Verdict::Fails(Kind::BudgetExhausted),
            ),
            probe(
                "no tag",
                json!({"w": {}}),
                Verdict::Fails(Kind::BudgetExhausted),
            ),
        ],
    )
}

/// Exponents 600 apart, with a divisor whose digits are prime to 10: the exact remainder
/// takes one step per power of ten unless it is computed smartly.
fn multiple_of_ratios(size: Size) -> Built {
    let schema = json!({"type": "object", "properties": {
        "a": {"type": "array", "items": {"anyOf": [{"multipleOf": 3e-308}, {"type": "number"}]}},
        "b": {"type": "array", "items": {"not": {"multipleOf": 3e-308}}},
        "c": {"type": "array", "items": {"multipleOf": 1e308}},
        "d": {"type": "array", "items": {"multipleOf": 3e-308}}
    }});
    let n = size.fill(1_000, 7);
    let of = |x: f64| repeated(n, json!(x));
    compiles(
        schema,
        vec![
            probe(
                "1e308 under anyOf",
                json!({ "a": of(1e308) }),
                Verdict::Valid,
            ),
            probe("1e308 under not", json!({ "b": of(1e308) }), Verdict::Valid),
            probe(
                "1e-308 of 1e308",
                json!({ "c": of(1e-308) }),
                Verdict::Fails(Kind::MultipleOf),
            ),
            probe(
                "1e308 of 3e-308",
                json!({ "d": of(1e308) }),
                Verdict::Fails(Kind::MultipleOf),
            ),
        ],
    )
}

/// `else if` chains on one tag, each looked up as a table when compiled: 1,500 first
/// links whose `else` is the same chain of 300 links, each link's `enum` listing 200
/// values. Read chain by chain, the tail would be read 1,500 times (90 million values:
/// over 2 GiB of tables). The chains the planning left as written nest past the depth
/// bound.
fn if_chains_sharing_a_tail(size: Size) -> Built {
    let (heads, links, values) = (size.pick(20, 1_500), size.pick(20, 300), size.pick(10, 200));
    let mut defs = Map::new();
    for i in 0..links {
        let listed: Vec<String> = (0..values).map(|v| format!("l{i}v{v}")).collect();
        let next = match i + 1 == links {
            true => json!({"required": ["end"]}),
            false => json!({"$ref": format!("#/$defs/l{}", i + 1)}),
        };
        let link = json!({"if": {"properties": {"kind": {"enum": listed}}},
            "then": {"required": [format!("t{i}")]}, "else": next});
        defs.insert(format!("l{i}"), link);
    }
    let chains = array((0..heads).map(|i| {
        json!({"if": {"properties": {"kind": {"const": format!("h{i}")}}},
            "then": {"required": ["head"]}, "else": {"$ref": "#/$defs/l0"}})
    }));
    let last = links - 1;
    let deep = match size {
        Size::Small => Verdict::Valid,
        Size::Full => Verdict::Fails(Kind::DepthExceeded),
    };
    let schema = json!({"type": "object", "$defs": defs, "allOf": chains});
    compiles(
        schema,
        vec![
            probe(
                "a value of the last link",
                json!({"kind": format!("l{last}v3"), format!("t{last}"): 0}),
                deep,
            ),
            probe(
                "a first link's value",
                json!({"kind": "h7", "head": 0, "end": 0}),
                deep,
            ),
            probe(
                "no value listed",
                json!({"kind": "none"}),
                Verdict::Fails(Kind::Required),
            ),
        ],
    )
}

fn if_then_else(size: Size) -> Built {
    // allOf: [{if: {required: [k]}, then: {required: [t]}, else: {maxProperties: n}}]: 4 subschemas each.
    let n = size.pick(100, 2_450);
    let conditionals = array(names("k", n).map(|k| {
        json!({"if": {"required": [k]}, "then": {"required": [format!("t{k}")]}, "else": {"maxProperties": 100_000}})
    }));
    // And a chain 60 deep: `if` each bound, `then` the next link, `else` false.
    let mut chain = json!({"type": "integer"});
    for i in 0..60 {
        chain = json!({"if": {"minimum": i}, "then": chain, "else": false});
    }
    let schema = json!({"type": "object", "allOf": conditionals, "properties": {"n": {"type": "array", "items": chain}}});
    let keys = size.fill(200, 12);
    let numbers = size.fill(1_000, 3);
    let chained = size.valid_until_full();
    compiles(
        schema,
        vec![
            probe(
                "the chain over 300k numbers",
                json!({"n": repeated(numbers, json!(99))}),
                chained,
            ),
            probe(
                "every if passes",
                object(
                    names("k", n.min(keys / 2))
                        .flat_map(|k| [(format!("t{k}"), json!(0)), (k, json!(0))]),
                ),
                if n <= keys / 2 {
                    Verdict::Valid
                } else {
                    Verdict::Fails(Kind::Required)
                },
            ),
            probe(
                "every if fails",
                object(names("x", keys).map(|k| (k, json!(0)))),
                Verdict::Valid,
            ),
        ],
    )
}

fn dependent_schemas(size: Size) -> Built {
    let n = size.pick(100, 9_998);
    let dependents = object(names("k", n).map(|k| {
        let required = format!("t{k}");
        (k, json!({ "required": [required] }))
    }));
    let schema = json!({"type": "object", "dependentSchemas": dependents});
    let with_all = object(names("k", n).flat_map(|k| [(format!("t{k}"), json!(0)), (k, json!(0))]));
    let missing = object(names("k", n).map(|k| (k, json!(0))));
    valid_and_failing(
        schema,
        ("every dependency met", with_all),
        ("every dependency missing", missing, Kind::Required),
    )
}

fn dependent_required(size: Size) -> Built {
    let (keys, names_each) = (size.pick(10, 100), size.pick(100, 1_000));
    let dependents = object(names("k", keys).map(|k| {
        let required = array((0..names_each).map(|j| Value::from(format!("{k}-{j:04}"))));
        (k, required)
    }));
    let schema = json!({"type": "object", "dependentRequired": dependents});
    let present = object(names("k", keys).map(|k| (k, json!(0))));
    compiles(
        schema,
        vec![probe(
            "every name missing",
            present,
            Verdict::Fails(Kind::Required),
        )],
    )
}

fn unevaluated_properties(size: Size) -> Built {
    let n = size.pick(100, 4_998);
    let branches =
        array(names("k", n).map(|k| json!({ "properties": { k: {"type": "integer"} } })));
    let schema = json!({"type": "object", "anyOf": branches, "unevaluatedProperties": false});
    let keys = size.fill(200, 12);
    let instance = object(names("k", keys).map(|k| (k, json!(0))));
    // Every branch runs (for its annotations) over every key: the budget runs out at
    // full size.
    let verdict = match size {
        Size::Small => Verdict::Fails(Kind::Unexpected),
        Size::Full => Verdict::Fails(Kind::BudgetExhausted),
    };
    compiles(
        schema,
        vec![
            probe("every key named by a branch, then more", instance, verdict),
            probe(
                "no key named",
                object(names("x", keys).map(|k| (k, json!(0)))),
                verdict,
            ),
        ],
    )
}

fn unevaluated_items(size: Size) -> Built {
    let n = size.pick(20, 1_000);
    // oneOf branch i: prefixItems of i+1 integers, then `"maxItems": i + 1`... each a few subschemas.
    let branches = array((0..n).map(|i| json!({"prefixItems": repeated((i % 8) + 1, json!({"type": "integer"})), "contains": {"const": i}})));
    let schema = with_v(json!({"type": "array", "oneOf": branches, "unevaluatedItems": false}));
    let items = size.fill(500, 3);
    // Every branch runs `contains` over every item: the budget runs out at full size.
    let (tail, none) = match size {
        Size::Small => (
            Verdict::Fails(Kind::FalseSchema),
            Verdict::Fails(Kind::OneOf),
        ),
        Size::Full => (
            Verdict::Fails(Kind::BudgetExhausted),
            Verdict::Fails(Kind::BudgetExhausted),
        ),
    };
    compiles(
        schema,
        vec![
            probe(
                "one branch, long tail",
                args(array(
                    (0..items).map(|i| json!(if i == 0 { 3 } else { -1 })),
                )),
                tail,
            ),
            probe("no branch", copies(items, json!(-1)), none),
        ],
    )
}

/// 60 nested resources with a dynamic anchor each; items go back to the outermost.
fn dynamic_ref(size: Size) -> Built {
    let levels = size.pick(20, 60);
    let mut schema = json!({"$id": "leaf/", "$dynamicAnchor": "T", "type": ["array", "integer"], "items": {"$dynamicRef": "#T"}});
    for i in (0..levels).rev() {
        schema = json!({
            "$id": format!("n{i}/"), "$dynamicAnchor": "T", "type": ["array", "integer"],
            "$defs": {"next": schema},
            "prefixItems": [{"$ref": "#/$defs/next"}],
            "items": {"$dynamicRef": "#T"}
        });
    }
    let mut deep = json!(1);
    for _ in 0..size.pick(30, 120) {
        deep = json!([deep, 1, [1, [1]]]);
    }
    let wide = repeated(size.fill(1_000, 6), json!([1]));
    let mut wide_deep = wide;
    for _ in 0..size.pick(30, 120) {
        wide_deep = json!([wide_deep]);
    }
    compiles(
        schema,
        vec![
            probe("120 levels", deep, Verdict::Valid),
            probe("120 levels over 100k arrays", wide_deep, Verdict::Valid),
        ],
    )
}

fn contains(size: Size) -> Built {
    let items = size.fill(1_000, 9);
    let schema = with_v(json!({"type": "array",
        "contains": {"type": "object", "required": ["x"], "properties": {"x": {"type": "integer", "minimum": 0}}},
        "minContains": items * 3 / 5, "maxContains": items - 1}));
    let (too_many, too_few) = (
        Verdict::Fails(Kind::Contains),
        Verdict::Fails(Kind::Contains),
    );
    compiles(
        schema,
        vec![
            probe("every item", copies(items, json!({"x": 1})), too_many),
            probe("no item", copies(items, json!({"x": -1})), too_few),
            probe(
                "60% of them",
                args(array(
                    (0..items).map(|i| json!({"x": if i % 5 < 3 { 1 } else { -1 }})),
                )),
                Verdict::Valid,
            ),
        ],
    )
}

fn formats(size: Size) -> Built {
    let formats = [
        "email",
        "idn-email",
        "hostname",
        "idn-hostname",
        "uri",
        "iri",
        "uri-reference",
        "uri-template",
        "date-time",
        "ipv6",
        "json-pointer",
        "regex",
    ];
    let schema = json!({"type": "object", "properties": object(formats.iter().map(|f| (f.to_string(), json!({"type": "array", "items": {"format": f}}))))});
    let long = size.fill(2_000, 1) / formats.len();
    let label = "é".repeat(31) + ".";
    let strings: Vec<(&str, String)> = vec![
        (
            "email",
            repeat("a", long) + "@" + &repeat("b.", 100) + "com",
        ),
        ("idn-email", repeat("é", long / 2) + "@x.com"),
        ("hostname", repeat(&(repeat("a", 63) + "."), long / 64)),
        ("idn-hostname", repeat(&label, long / 64)),
        ("uri", "http://x/".to_string() + &repeat("%41", long / 3)),
        ("iri", "http://x/".to_string() + &repeat("é", long / 2)),
        ("uri-reference", repeat("a/", long / 2)),
        ("uri-template", repeat("{a}", long / 3)),
        ("date-time", repeat("1", long)),
        ("ipv6", repeat("1:", long / 2)),
        ("json-pointer", repeat("/~0", long / 3)),
        ("regex", repeat("(", long / 2) + &repeat(")", long / 2)),
    ];
    let one_long = object(strings.iter().map(|(f, s)| (f.to_string(), json!([s]))));
    let many = object(formats.iter().map(|f| {
        let items = array(
            (0..size.pick(10, 1_000)).map(|i| Value::from(format!("{}{i}", repeat("a", 60)))),
        );
        (f.to_string(), items)
    }));
    let regexes = json!({"regex": array((0..size.pick(10, 1_000)).map(|i| Value::from(format!("(x(?=y)){{{}}}", 1_000 + i))))});
    compiles(
        schema,
        vec![
            probe(
                "one long string each",
                one_long,
                Verdict::Fails(Kind::Format),
            ),
            probe(
                "1,000 short strings each",
                many,
                Verdict::Fails(Kind::Format),
            ),
            probe("1,000 counted lookaheads as regex", regexes, Verdict::Valid),
        ],
    )
}

fn required_huge(size: Size) -> Built {
    let n = size.pick(1_000, 80_000);
    let schema = json!({"type": "object", "required": array(names("r", n).map(Value::from))});
    let all = object(names("r", n).map(|k| (k, json!(0))));
    let half = object(names("r", n / 2).map(|k| (k, json!(0))));
    compiles(
        schema,
        vec![
            probe("every name", all, Verdict::Valid),
            probe("half the names", half, Verdict::Fails(Kind::Required)),
            probe("none", json!({}), Verdict::Fails(Kind::Required)),
        ],
    )
}

/// 9,998 properties and `additionalProperties: false`, with keys a letter away from them.
fn additional_properties(size: Size) -> Built {
    let n = size.pick(100, 9_998);
    let schema = json!({"type": "object", "additionalProperties": false,
        "properties": object(names("field_", n).map(|k| (k, json!({"type": "integer"}))))});
    let keys = size.fill(200, 17);
    let near = object(names("fielb_", keys).map(|k| (k, json!(0))));
    let accented = object(names("fiéld_", keys * 16 / 18).map(|k| (k, json!(0))));
    compiles(
        schema,
        vec![
            probe(
                "known keys",
                object(names("field_", n).map(|k| (k, json!(0)))),
                Verdict::Valid,
            ),
            probe("misspelt keys", near, Verdict::Fails(Kind::Unexpected)),
            probe("accented keys", accented, Verdict::Fails(Kind::Unexpected)),
        ],
    )
}

fn properties_wide(size: Size) -> Built {
    let n = size.pick(100, 9_999);
    let schema = json!({"type": "object", "properties": object(names("p", n).map(|k| (k, json!({"type": "string", "maxLength": 100}))))});
    let value = repeat("v", 90);
    compiles(
        schema,
        vec![
            probe(
                "every property",
                object(names("p", n).map(|k| (k, Value::from(value.as_str())))),
                Verdict::Valid,
            ),
            probe(
                "every property a number",
                object(names("p", n).map(|k| (k, json!(0)))),
                Verdict::Fails(Kind::Type),
            ),
        ],
    )
}

fn prefix_items(size: Size) -> Built {
    let n = size.pick(100, 9_997);
    let schema = with_v(
        json!({"type": "array", "prefixItems": array((0..n).map(|i| json!({"const": i}))), "items": false}),
    );
    compiles(
        schema,
        vec![
            probe(
                "every item",
                args(array((0..n).map(|i| json!(i)))),
                Verdict::Valid,
            ),
            probe(
                "one extra item",
                args(array((0..=n).map(|i| json!(i)))),
                Verdict::Fails(Kind::Unexpected),
            ),
            probe(
                "300k wrong items",
                copies(size.fill(1_000, 3), json!(-1)),
                Verdict::Fails(Kind::Const),
            ),
        ],
    )
}

fn not_deep(size: Size) -> Built {
    let mut schema = json!({"type": "integer"});
    for _ in 0..62 {
        schema = json!({ "not": schema });
    }
    let schema = with_v(json!({"type": "array", "items": schema}));
    let items = size.fill(1_000, 2);
    // 63 evaluations an item: the budget runs out at full size.
    let integers = size.valid_until_full();
    compiles(
        schema,
        vec![
            probe("integers", copies(items, json!(0)), integers),
            probe(
                "strings",
                copies(items / 2, json!("")),
                Verdict::Fails(Kind::Not),
            ),
        ],
    )
}

fn deep_instance(size: Size) -> Built {
    let schema = json!({"$defs": {"t": {"type": ["array", "object", "integer"],
        "items": {"$ref": "#/$defs/t"}, "additionalProperties": {"$ref": "#/$defs/t"}}},
        "$ref": "#/$defs/t"});
    let nest = |depth: usize, leaf: Value| {
        let mut v = leaf;
        for i in 0..depth {
            v = match i % 2 {
                0 => json!([v]),
                _ => json!({ "k": v }),
            };
        }
        v
    };
    let wide = repeated(size.fill(1_000, 2) - 512, json!(0));
    // Each item is a reference hop and an evaluation: the budget runs out at full size.
    let wide_verdict = size.valid_until_full();
    compiles(
        schema,
        vec![
            probe("126 levels over 500k items", nest(126, wide), wide_verdict),
            probe(
                "126 levels, a string at the bottom",
                nest(126, json!("x")),
                Verdict::Fails(Kind::Type),
            ),
            probe(
                "1,000 levels (built in memory)",
                nest(1_000, json!(0)),
                Verdict::Fails(Kind::DepthExceeded),
            ),
        ],
    )
}

/// One error per item: 500k of them for `iter_errors`.
fn error_flood(size: Size) -> Built {
    let schema = with_v(json!({"type": "array", "items": {"type": "string"}}));
    compiles(
        schema,
        vec![probe(
            "500k numbers",
            copies(size.fill(1_000, 2), json!(0)),
            Verdict::Fails(Kind::Type),
        )],
    )
}

/// A schema one level deeper than the profile allows.
fn too_deep(_: Size) -> Built {
    let mut schema = json!({"type": "integer"});
    for _ in 0..65 {
        schema = json!({ "items": schema });
    }
    schema["type"] = json!("object");
    Built {
        schema,
        refused: Some(SchemaErrorKind::LimitExceeded),
        probes: Vec::new(),
    }
}

/// One subschema more than the profile allows, with 100k-option enums to make it slow.
fn too_many(size: Size) -> Built {
    let schema = json!({"type": "object", "properties": object(names("p", 10_000).map(|k| (k, json!({"type": "integer"})))),
        "enum": array((0..size.pick(1_000, 100_000)).map(|i| json!({ "i": i })))});
    Built {
        schema,
        refused: Some(SchemaErrorKind::LimitExceeded),
        probes: Vec::new(),
    }
}

// ----- judging -----

/// Checks `tool`'s answers on `probe`: the entry points agree with each other and with
/// the case. Returns what `validate` said (`valid` or the error's kind).
fn judge(tool: &ToolSchema, probe: &Probe) -> Result<String, String> {
    let valid = tool.is_valid(&probe.instance);
    let first = tool.validate(&probe.instance);
    let all: Vec<_> = tool.iter_errors(&probe.instance).collect();
    let said = match &first {
        Ok(()) => "valid".to_string(),
        Err(error) => format!("{:?}", error.kind()),
    };
    if valid != first.is_ok() || valid != all.is_empty() {
        return Err(format!(
            "{}: is_valid {valid}, validate {said}, iter_errors {} errors",
            probe.label,
            all.len()
        ));
    }
    let right = match (probe.verdict, &first) {
        (Verdict::Valid, Ok(())) => true,
        (Verdict::Fails(kind), Err(error)) => error.kind() == kind,
        (Verdict::Rejected, Err(error)) => {
            matches!(error.kind(), Kind::Pattern | Kind::BudgetExhausted)
        }
        _ => false,
    };
    match right {
        true => Ok(said),
        false => Err(format!(
            "{}: expected {:?}, validate says {}",
            probe.label,
            probe.verdict,
            first.err().map_or("valid".to_string(), |e| format!(
                "{:?}: {}",
                e.kind(),
                truncated(&e.to_string())
            ))
        )),
    }
}

fn truncated(text: &str) -> String {
    match text.char_indices().nth(200) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_string(),
    }
}

fn json_bytes(value: &Value) -> usize {
    serde_json::to_vec(value).map_or(0, |bytes| bytes.len())
}

#[test]
fn corpus_is_judged_correctly() {
    let mut wrong = Vec::new();
    for case in CASES {
        let built = (case.build)(Size::Small);
        for probe in &built.probes {
            assert!(
                json_bytes(&probe.instance) <= MAX_INSTANCE_BYTES,
                "{}",
                case.name
            );
        }
        match (case.compile(&built.schema), built.refused) {
            (Ok(tool), None) => {
                for probe in &built.probes {
                    if let Err(why) = judge(&tool, probe) {
                        wrong.push(format!("{}: {why}", case.name));
                    }
                }
            }
            (Err(error), Some(kind)) if error.kind() == kind => {}
            (Ok(_), Some(kind)) => {
                wrong.push(format!("{}: compiled, expected {kind:?}", case.name))
            }
            (Err(error), _) => wrong.push(format!("{}: {error:?}", case.name)),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

// ----- figures -----

/// The environment variable naming the one case a child process measures.
const CHILD: &str = "HOSTILE_CASE";
/// The prefix of the line a child reports its figures on.
const REPORT: &str = "hostile-figures\t";

/// One case's figures, as a child measures them.
#[derive(Default)]
struct Figures {
    schema_kib: usize,
    instance_kib: usize,
    compile: Duration,
    verdict: Duration,
    errors: Duration,
    rss_kib: Option<u64>,
    outcome: String,
    wrong: bool,
}

impl Figures {
    fn to_line(&self) -> String {
        let rss = self.rss_kib.map_or("-".to_string(), |k| k.to_string());
        format!(
            "{REPORT}{}\t{}\t{}\t{}\t{}\t{rss}\t{}\t{}",
            self.schema_kib,
            self.instance_kib,
            self.compile.as_micros(),
            self.verdict.as_micros(),
            self.errors.as_micros(),
            self.wrong,
            self.outcome
        )
    }

    fn from_line(line: &str) -> Option<Figures> {
        let fields: Vec<&str> = line.strip_prefix(REPORT)?.splitn(8, '\t').collect();
        let [schema, instance, compile, verdict, errors, rss, wrong, outcome] = fields[..] else {
            return None;
        };
        let micros = |s: &str| s.parse().ok().map(Duration::from_micros);
        Some(Figures {
            schema_kib: schema.parse().ok()?,
            instance_kib: instance.parse().ok()?,
            compile: micros(compile)?,
            verdict: micros(verdict)?,
            errors: micros(errors)?,
            rss_kib: rss.parse().ok(),
            wrong: wrong == "true",
            outcome: outcome.to_string(),
        })
    }

    /// The bounds this case exceeds.
    fn excess(&self) -> Vec<&'static str> {
        let mut over = Vec::new();
        if self.compile > COMPILE_BOUND {
            over.push("compile");
        }
        if self.verdict.max(self.errors) > VALIDATION_BOUND {
            over.push("validation");
        }
        if self.rss_kib.is_some_and(|k| k > RSS_BOUND_KIB) {
            over.push("memory");
        }
        over
    }
}

/// `VmRSS` and `VmHWM` of this process, in KiB.
fn resident() -> Option<(u64, u64)> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = status.lines().find(|l| l.starts_with(name))?;
        line[name.len()..]
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

/// Resets this process's peak resident set to the current one; its size then.
fn reset_peak() -> Option<u64> {
    std::fs::write("/proc/self/clear_refs", "5").ok()?;
    resident().map(|(rss, _)| rss)
}

/// This thread's time on a CPU so far (`/proc/thread-self/schedstat`, counted in the
/// scheduler's ticks of a few milliseconds).
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// What a run of `f` costs: this thread's CPU time over up to 8 runs (as many as fit in
/// about 400 ms), divided by their number, so that other work on the machine does not
/// count and the scheduler's ticks average out; the least wall-clock time of the runs
/// where the CPU time cannot be read.
fn cost<T>(mut f: impl FnMut() -> T) -> (Duration, T) {
    let (mut runs, mut least) = (0u32, Duration::MAX);
    let cpu = cpu_time();
    let start = Instant::now();
    let out = loop {
        let run = Instant::now();
        let out = f();
        least = least.min(run.elapsed());
        runs += 1;
        if runs == 8 || start.elapsed() > Duration::from_millis(400) {
            break out;
        }
    };
    let used = cpu
        .zip(cpu_time())
        .map(|(before, after)| (after - before) / runs);
    (used.unwrap_or(least), out)
}

/// What the child is doing, for the watchdog's report.
static PHASE: std::sync::Mutex<String> = std::sync::Mutex::new(String::new());

fn phase(what: String) {
    if let Ok(mut phase) = PHASE.lock() {
        *phase = what;
    }
}

/// Ends this process when it grows past 2 GiB or runs past 120 s, saying so.
fn watchdog() {
    std::thread::spawn(|| {
        let start = Instant::now();
        loop {
            std::thread::sleep(Duration::from_millis(20));
            let rss = resident().map_or(0, |(rss, _)| rss);
            let why = match () {
                _ if rss > 2 << 20 => "over 2 GiB resident",
                _ if start.elapsed() > Duration::from_secs(120) => "over 120 s",
                _ => continue,
            };
            let during = PHASE.lock().map_or(String::new(), |p| p.clone());
            println!(
                "{REPORT}0\t0\t0\t0\t0\t{rss}\ttrue\tstopped by the watchdog: {why}, in {during}"
            );
            std::process::exit(3);
        }
    });
}

/// Measures `case` in this process (a child of `figures`).
fn measure(case: &Case) -> Figures {
    let verbose = std::env::var_os("HOSTILE_VERBOSE").is_some();
    let built = (case.build)(Size::Full);
    let mut figures = Figures {
        schema_kib: json_bytes(&built.schema) >> 10,
        instance_kib: built
            .probes
            .iter()
            .map(|p| json_bytes(&p.instance))
            .max()
            .unwrap_or(0)
            >> 10,
        ..Figures::default()
    };
    let mut wrong = Vec::new();
    for probe in &built.probes {
        if json_bytes(&probe.instance) > MAX_INSTANCE_BYTES {
            wrong.push(format!("{}: over 1 MiB", probe.label));
        }
    }
    let base = reset_peak();
    phase("compile".into());
    let (compile, tool) = cost(|| case.compile(&built.schema));
    figures.compile = compile;
    let tool = match (tool, built.refused) {
        (Ok(tool), None) => tool,
        (Err(error), Some(kind)) if error.kind() == kind => {
            figures.outcome = format!("refused: {:?}: {}", error.kind(), error.message());
            figures.rss_kib = base
                .zip(resident())
                .map(|(b, (_, peak))| peak.saturating_sub(b));
            return figures;
        }
        (Ok(_), Some(kind)) => {
            figures.wrong = true;
            figures.outcome = format!("compiled, expected {kind:?}");
            return figures;
        }
        (Err(error), _) => {
            figures.wrong = true;
            figures.outcome = format!("refused: {error}");
            return figures;
        }
    };
    let mut said = Vec::new();
    for probe in &built.probes {
        phase(format!("is_valid of {}", probe.label));
        let (verdict, _) = cost(|| tool.is_valid(&probe.instance));
        phase(format!("validate of {}", probe.label));
        let (first, _) = cost(|| tool.validate(&probe.instance));
        phase(format!("iter_errors of {}", probe.label));
        let (every, count) = cost(|| tool.iter_errors(&probe.instance).count());
        if verbose {
            eprintln!(
                "{} / {}: is_valid {verdict:?}, validate {first:?}, iter_errors {every:?} ({count} errors)",
                case.name, probe.label
            );
        }
        figures.verdict = figures.verdict.max(verdict);
        figures.errors = figures.errors.max(first).max(every);
        match judge(&tool, probe) {
            Ok(kind) => said.push(kind),
            Err(why) => {
                said.push("WRONG".into());
                wrong.push(why);
            }
        }
    }
    figures.rss_kib = base
        .zip(resident())
        .map(|(b, (_, peak))| peak.saturating_sub(b));
    figures.wrong = !wrong.is_empty();
    figures.outcome = match wrong.is_empty() {
        true => said.join(", "),
        false => truncated(&wrong.join("; ")),
    };
    figures
}

/// Runs `case` in a child process of this test binary and reads its figures.
fn run_child(case: &Case) -> Figures {
    let exe = std::env::current_exe().expect("the test binary's path");
    let output = std::process::Command::new(exe)
        .args([
            "figures",
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
            "-q",
        ])
        .env(CHILD, case.name)
        .stderr(std::process::Stdio::inherit())
        .output()
        .expect("run the test binary");
    let stdout = String::from_utf8_lossy(&output.stdout);
    (stdout.lines().find_map(Figures::from_line)).unwrap_or_else(|| Figures {
        wrong: true,
        outcome: format!("child ended with {}", output.status),
        ..Figures::default()
    })
}

fn millis(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1e3)
}

#[test]
#[ignore = "figures: cargo test --release --test hostile -- --ignored --nocapture"]
fn figures() {
    if let Ok(name) = std::env::var(CHILD) {
        let case = CASES.iter().find(|c| c.name == name).expect("a known case");
        watchdog();
        println!("{}", measure(case).to_line());
        return;
    }
    let filter = std::env::var("HOSTILE_CASES").unwrap_or_default();
    let words: Vec<&str> = filter.split(',').filter(|w| !w.is_empty()).collect();
    let mut table = String::from(
        "| case | schema KiB | instance KiB | compile ms | verdict ms | errors ms | RSS MiB | bounds | outcome |\n\
         |---|--:|--:|--:|--:|--:|--:|---|---|\n",
    );
    let mut failures = Vec::new();
    for case in CASES
        .iter()
        .filter(|c| words.is_empty() || words.iter().any(|w| c.name.contains(w)))
    {
        let figures = run_child(case);
        let excess = figures.excess();
        let bounds = match excess.is_empty() {
            true => "within".to_string(),
            false => {
                failures.push(format!("{}: over {}", case.name, excess.join(", ")));
                format!("OVER: {}", excess.join(", "))
            }
        };
        if figures.wrong {
            failures.push(format!("{}: {}", case.name, figures.outcome));
        }
        let rss = figures
            .rss_kib
            .map_or("-".to_string(), |k| format!("{:.1}", k as f64 / 1024.0));
        let _ = writeln!(
            table,
            "| {} | {} | {} | {} | {} | {} | {rss} | {bounds} | {} |",
            case.name,
            figures.schema_kib,
            figures.instance_kib,
            millis(figures.compile),
            millis(figures.verdict),
            millis(figures.errors),
            figures.outcome.replace('|', "\\|"),
        );
        eprint!(
            "{}",
            table
                .lines()
                .last()
                .map_or(String::new(), |l| format!("{l}\n"))
        );
    }
    println!("\n{table}");
    if cfg!(debug_assertions) {
        println!("(a debug build: the bounds are not asserted)");
        failures.retain(|f| !f.contains(": over "));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
