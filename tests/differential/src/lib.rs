//! Runs schemas and instances through both `mcp_jsonschema` ("ours") and the
//! `jsonschema` crate ("theirs") and reports where they disagree.
//!
//! The tests of this crate (`tests/generated.rs`, `tests/suite.rs`) use it; run them with
//! `cargo test --manifest-path tests/differential/Cargo.toml`. Every disagreement is
//! either a bug of ours (the tests fail) or one of theirs listed in `KNOWN.md` and
//! recognised by [`known`], which the tests report without failing.

#[path = "../../../fuzz/src/gen.rs"]
pub mod gen;

use serde_json::Value;
use std::collections::HashMap;
use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

/// The step budget of our validator: far more than any test case needs, so running out
/// shows up as a disagreement instead of a hang.
const STEP_BUDGET: u64 = 50_000_000;

/// A dialect, spelled for both implementations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Draft 4.
    Draft4,
    /// Draft 6.
    Draft6,
    /// Draft 7.
    Draft7,
    /// 2019-09.
    Draft201909,
    /// 2020-12.
    Draft202012,
}

impl Dialect {
    fn ours(self) -> mcp_jsonschema::Draft {
        match self {
            Dialect::Draft4 => mcp_jsonschema::Draft::Draft4,
            Dialect::Draft6 => mcp_jsonschema::Draft::Draft6,
            Dialect::Draft7 => mcp_jsonschema::Draft::Draft7,
            Dialect::Draft201909 => mcp_jsonschema::Draft::Draft201909,
            Dialect::Draft202012 => mcp_jsonschema::Draft::Draft202012,
        }
    }

    fn theirs(self) -> jsonschema::Draft {
        match self {
            Dialect::Draft4 => jsonschema::Draft::Draft4,
            Dialect::Draft6 => jsonschema::Draft::Draft6,
            Dialect::Draft7 => jsonschema::Draft::Draft7,
            Dialect::Draft201909 => jsonschema::Draft::Draft201909,
            Dialect::Draft202012 => jsonschema::Draft::Draft202012,
        }
    }
}

/// How both validators are configured for one schema.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The dialect of schemas that declare none.
    pub dialect: Dialect,
    /// Whether `format` asserts.
    pub formats: bool,
    /// Documents that references may name, by URI.
    pub remotes: Arc<HashMap<String, Value>>,
}

impl Setup {
    /// 2020-12, `format` as an annotation, no remote documents.
    pub fn new(dialect: Dialect) -> Setup {
        Setup {
            dialect,
            formats: false,
            remotes: Arc::default(),
        }
    }
}

/// Serves [`Setup::remotes`] to `jsonschema`, which fetches nothing else.
struct Remotes(Arc<HashMap<String, Value>>);

impl jsonschema::Retrieve for Remotes {
    fn retrieve(
        &self,
        uri: &jsonschema::Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let key = uri.as_str().trim_end_matches('#');
        self.0
            .get(key)
            .cloned()
            .ok_or_else(|| format!("no remote document {key}").into())
    }
}

/// A schema compiled by both implementations (or why either could not compile it).
pub struct Pair {
    ours: Result<mcp_jsonschema::Validator, String>,
    theirs: Result<jsonschema::Validator, String>,
}

/// Runs `f`, turning a panic into an error message.
fn guarded<T>(f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    panic::catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        let message = payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_string()))
            .unwrap_or_default();
        Err(format!("panicked: {message}"))
    })
}

impl Pair {
    /// Compiles `schema` with both implementations.
    pub fn compile(schema: &Value, setup: &Setup) -> Pair {
        let ours = guarded(|| {
            let mut options = mcp_jsonschema::Validator::options()
                .with_draft(setup.dialect.ours())
                .with_format_assertion(setup.formats)
                .with_step_budget(STEP_BUDGET);
            for (uri, document) in setup.remotes.iter() {
                options = options.with_resource(uri.clone(), document.clone());
            }
            options.build(schema).map_err(|e| e.to_string())
        });
        let theirs = guarded(|| {
            jsonschema::options()
                .with_draft(setup.dialect.theirs())
                .should_validate_formats(setup.formats)
                .with_retriever(Remotes(setup.remotes.clone()))
                .build(schema)
                .map_err(|e| e.to_string())
        });
        Pair { ours, theirs }
    }

    /// Our validator, if ours compiled.
    pub fn ours(&self) -> Option<&mcp_jsonschema::Validator> {
        self.ours.as_ref().ok()
    }

    /// Both verdicts on `instance` (a panic of either counts as an error).
    pub fn verdicts(&self, instance: &Value) -> (Result<bool, String>, Result<bool, String>) {
        let ours = match &self.ours {
            Ok(v) => guarded(|| Ok(v.is_valid(instance))),
            Err(e) => Err(e.clone()),
        };
        let theirs = match &self.theirs {
            Ok(v) => guarded(|| Ok(v.is_valid(instance))),
            Err(e) => Err(e.clone()),
        };
        (ours, theirs)
    }
}

/// Where the two implementations part ways.
#[derive(Debug, Clone, PartialEq)]
pub enum Difference {
    /// One compiled the schema and the other did not.
    Compile {
        /// Our error, if any.
        ours: Option<String>,
        /// Theirs, if any.
        theirs: Option<String>,
    },
    /// Both compiled it but disagree about `instance`.
    Verdict {
        /// The instance.
        instance: Value,
        /// Whether we accept it.
        ours: bool,
        /// Whether they do.
        theirs: bool,
    },
    /// A validator panicked on `instance`.
    Panic {
        /// The instance.
        instance: Value,
        /// What panicked, and how.
        message: String,
    },
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Difference::Compile { ours, theirs } => write!(
                f,
                "compilation: ours {}, theirs {}",
                ours.as_deref().unwrap_or("ok"),
                theirs.as_deref().unwrap_or("ok")
            ),
            Difference::Verdict {
                instance,
                ours,
                theirs,
            } => write!(
                f,
                "instance {instance}: ours {}, theirs {}",
                verdict_word(*ours),
                verdict_word(*theirs)
            ),
            Difference::Panic { instance, message } => {
                write!(f, "instance {instance}: {message}")
            }
        }
    }
}

fn verdict_word(valid: bool) -> &'static str {
    if valid {
        "valid"
    } else {
        "invalid"
    }
}

/// Every difference between the implementations on `schema` and `instances`.
pub fn differences(schema: &Value, instances: &[Value], setup: &Setup) -> Vec<Difference> {
    let pair = Pair::compile(schema, setup);
    match (&pair.ours, &pair.theirs) {
        (Ok(_), Ok(_)) => {}
        (Err(a), Err(b)) => {
            // Both refuse; only a panic is worth reporting.
            if a.starts_with("panicked") || b.starts_with("panicked") {
                return vec![Difference::Compile {
                    ours: Some(a.clone()),
                    theirs: Some(b.clone()),
                }];
            }
            return Vec::new();
        }
        (ours, theirs) => {
            return vec![Difference::Compile {
                ours: ours.as_ref().err().cloned(),
                theirs: theirs.as_ref().err().cloned(),
            }]
        }
    }
    let mut found = Vec::new();
    for instance in instances {
        match pair.verdicts(instance) {
            (Ok(ours), Ok(theirs)) if ours != theirs => found.push(Difference::Verdict {
                instance: instance.clone(),
                ours,
                theirs,
            }),
            (Ok(_), Ok(_)) => {}
            (Err(message), _) | (_, Err(message)) => found.push(Difference::Panic {
                instance: instance.clone(),
                message,
            }),
        }
    }
    found
}

/// Whose fault a known disagreement is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// The `jsonschema` crate's (listed in KNOWN.md with the deciding spec section).
    Theirs,
    /// Ours: an open bug, reported to the lead and pinned by an ignored test in
    /// `tests/fuzz_regressions.rs`. Delete the rule once the bug is fixed.
    Ours,
    /// Ours, on purpose: a documented deviation (KNOWN.md says where it is documented).
    Deliberate,
}

/// A disagreement explained in KNOWN.md.
#[derive(Debug, Clone, Copy)]
pub struct Known {
    /// The id of its KNOWN.md entry (`T1`, `B2`, ...).
    pub id: &'static str,
    /// Whose fault it is.
    pub fault: Fault,
}

/// One root cause: a disagreement is attributed to it when the case has the feature
/// (`applies`, given the schema and the instance) and removing the feature from the
/// schema (`strip`) makes the two implementations agree on the instance. That
/// counterfactual keeps a rule from hiding unrelated disagreements.
struct Rule {
    known: Known,
    applies: fn(&Value, &Value) -> bool,
    strip: fn(&Value) -> Value,
}

const RULES: &[Rule] = &[
    Rule {
        known: Known {
            id: "T1",
            fault: Fault::Theirs,
        },
        applies: |schema, instance| {
            let divisors_inexact = any_object(schema, &|s| {
                s.get("multipleOf").is_some_and(|d| !exact_double(d))
            });
            let has_divisor = any_object(schema, &|s| s.contains_key("multipleOf"));
            has_divisor && (divisors_inexact || any_value(instance, &|v| !exact_double(v)))
        },
        strip: |schema| {
            map_objects(schema, &|s| {
                s.shift_remove("multipleOf");
            })
        },
    },
    Rule {
        known: Known {
            id: "T2",
            fault: Fault::Theirs,
        },
        applies: |schema, _| has_format(schema, "idn-hostname"),
        strip: |schema| strip_format(schema, "idn-hostname"),
    },
    Rule {
        known: Known {
            id: "T5",
            fault: Fault::Theirs,
        },
        applies: |schema, _| has_pattern(schema, backreferences),
        strip: |schema| strip_patterns(schema, backreferences),
    },
    Rule {
        known: Known {
            id: "T6",
            fault: Fault::Theirs,
        },
        applies: |schema, instance| {
            has_pattern(schema, unicode_classes) && !instance.to_string().is_ascii()
            // a string or a key
        },
        strip: |schema| strip_patterns(schema, unicode_classes),
    },
    Rule {
        known: Known {
            id: "D1",
            fault: Fault::Deliberate,
        },
        applies: |schema, instance| {
            has_format(schema, "regex")
                && any_value(instance, &|v| {
                    v.as_str().is_some_and(|s| {
                        s.split('\\').skip(1).any(|after| {
                            after.chars().next().is_some_and(|c| {
                                !c.is_ascii_alphanumeric() && !"^$\\.*+?()[]{}|/".contains(c)
                            })
                        })
                    })
                })
        },
        strip: |schema| strip_format(schema, "regex"),
    },
];

/// Whether the schema has a `pattern` that `test` holds of.
fn has_pattern(schema: &Value, test: fn(Option<&Value>) -> bool) -> bool {
    any_object(schema, &|s| test(s.get("pattern")))
}

/// The schema without the `pattern`s that `test` holds of.
fn strip_patterns(schema: &Value, test: fn(Option<&Value>) -> bool) -> Value {
    map_objects(schema, &|s| {
        if test(s.get("pattern")) {
            s.shift_remove("pattern");
        }
    })
}

/// Whether `pattern` is a string with a numbered backreference (`\1` to `\9`).
fn backreferences(pattern: Option<&Value>) -> bool {
    let text = pattern.and_then(Value::as_str).unwrap_or_default();
    text.split('\\')
        .skip(1)
        .any(|after| after.starts_with(|c: char| ('1'..='9').contains(&c)))
}

/// Whether `pattern` is a string that their backtracking engine runs (a lookaround or a
/// backreference) with a class escape ECMA-262 defines on ASCII only (`\w`, `\d`, `\b`
/// and their negations).
fn unicode_classes(pattern: Option<&Value>) -> bool {
    let text = pattern.and_then(Value::as_str).unwrap_or_default();
    let backtracks = ["(?=", "(?!", "(?<=", "(?<!"]
        .iter()
        .any(|l| text.contains(l))
        || backreferences(pattern);
    let classes = text
        .split('\\')
        .skip(1)
        .any(|after| after.starts_with(['w', 'W', 'd', 'D', 'b', 'B']));
    backtracks && classes
}

/// Whether the schema has `"format": name` anywhere.
fn has_format(schema: &Value, name: &str) -> bool {
    any_object(schema, &|s| {
        s.get("format").and_then(Value::as_str) == Some(name)
    })
}

/// The schema without any `"format": name`.
fn strip_format(schema: &Value, name: &str) -> Value {
    map_objects(schema, &|s| {
        if s.get("format").and_then(Value::as_str) == Some(name) {
            s.shift_remove("format");
        }
    })
}

/// The KNOWN.md entry that explains `difference` on `schema`, if any (see [`Rule`]).
pub fn known(schema: &Value, difference: &Difference, setup: &Setup) -> Option<Known> {
    let Difference::Verdict { instance, .. } = difference else {
        return None;
    };
    RULES.iter().find_map(|rule| {
        if !(rule.applies)(schema, instance) {
            return None;
        }
        let stripped = (rule.strip)(schema);
        match Pair::compile(&stripped, setup).verdicts(instance) {
            (Ok(a), Ok(b)) if a == b => Some(rule.known),
            _ => None,
        }
    })
}

/// Whether a JSON number's decimal value is exactly a double (`0.5`, `2`, but not `0.1`
/// or `18446744073709551615`); anything else counts as exact.
fn exact_double(value: &Value) -> bool {
    let Value::Number(n) = value else {
        return true;
    };
    if let Some(i) = n.as_i64() {
        return i.unsigned_abs() <= 1 << 53;
    }
    if let Some(u) = n.as_u64() {
        return u <= 1 << 53;
    }
    // The JSON number is the shortest decimal that reads back as this double, d · 10^-e.
    // Write it m · 10^k with m free of trailing zeros; it is exactly a double iff its
    // odd part, m · 5^k (k ≥ 0) or m / 5^-k (k < 0, needing 5^-k | m), fits 53 bits.
    let text = n
        .as_f64()
        .map(|f| format!("{:e}", f.abs()))
        .unwrap_or_default();
    let Some((mantissa, exponent)) = text.split_once('e') else {
        return false;
    };
    let fraction = mantissa.split_once('.').map_or("", |(_, f)| f);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let trimmed = digits.trim_end_matches('0');
    let zeros = digits.len() - trimmed.len();
    let (Ok(m), Ok(exponent), Ok(fraction), Ok(zeros)) = (
        trimmed.parse::<u128>(),
        exponent.parse::<i64>(),
        i64::try_from(fraction.len()),
        i64::try_from(zeros),
    ) else {
        return false;
    };
    let k = exponent - fraction + zeros;
    let five_power = |k: i64| u32::try_from(k).ok().and_then(|k| 5u128.checked_pow(k));
    let odd = if k >= 0 {
        five_power(k).and_then(|p| m.checked_mul(p))
    } else {
        five_power(-k).and_then(|p| (m % p == 0).then(|| m / p))
    };
    odd.is_some_and(|odd| (odd >> odd.trailing_zeros().min(127)) < 1 << 53)
}

/// Whether `test` holds for `value` or any object nested in it (schemas and data alike;
/// the rules only look for keyword shapes that data rarely has).
fn any_object(value: &Value, test: &dyn Fn(&serde_json::Map<String, Value>) -> bool) -> bool {
    match value {
        Value::Object(map) => test(map) || map.values().any(|v| any_object(v, test)),
        Value::Array(items) => items.iter().any(|v| any_object(v, test)),
        _ => false,
    }
}

/// Whether `test` holds for `value` or any value nested in it.
fn any_value(value: &Value, test: &dyn Fn(&Value) -> bool) -> bool {
    test(value)
        || match value {
            Value::Object(map) => map.values().any(|v| any_value(v, test)),
            Value::Array(items) => items.iter().any(|v| any_value(v, test)),
            _ => false,
        }
}

/// `value` with `edit` applied to every object nested in it, innermost first.
fn map_objects(value: &Value, edit: &dyn Fn(&mut serde_json::Map<String, Value>)) -> Value {
    match value {
        Value::Object(map) => {
            let mut map: serde_json::Map<String, Value> = map
                .iter()
                .map(|(k, v)| (k.clone(), map_objects(v, edit)))
                .collect();
            edit(&mut map);
            Value::Object(map)
        }
        Value::Array(items) => Value::Array(items.iter().map(|v| map_objects(v, edit)).collect()),
        other => other.clone(),
    }
}

/// Greedily shrinks a failing `(schema, instance)` pair while `fails` still holds:
/// removes object members and array elements, and replaces values by `true`, `{}`,
/// `null` or their own children, until nothing more can go. Meant for turning a
/// generated disagreement into a readable reproduction.
pub fn minimize(
    schema: &Value,
    instance: &Value,
    fails: impl Fn(&Value, &Value) -> bool,
) -> (Value, Value) {
    let mut schema = schema.clone();
    let mut instance = instance.clone();
    loop {
        let mut progress = false;
        for candidate in simpler(&schema) {
            if fails(&candidate, &instance) {
                schema = candidate;
                progress = true;
                break;
            }
        }
        for candidate in simpler(&instance) {
            if fails(&schema, &candidate) {
                instance = candidate;
                progress = true;
                break;
            }
        }
        if !progress {
            return (schema, instance);
        }
    }
}

/// Every value one step simpler than `value`, smallest changes last.
fn simpler(value: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    match value {
        Value::Object(map) => {
            for key in map.keys() {
                let mut smaller = map.clone();
                smaller.shift_remove(key);
                out.push(Value::Object(smaller));
            }
            for (key, child) in map {
                for replacement in simpler(child) {
                    let mut changed = map.clone();
                    changed.insert(key.clone(), replacement);
                    out.push(Value::Object(changed));
                }
            }
        }
        Value::Array(items) => {
            for i in 0..items.len() {
                let mut smaller = items.clone();
                smaller.remove(i);
                out.push(Value::Array(smaller));
            }
            for (i, child) in items.iter().enumerate() {
                for replacement in simpler(child) {
                    let mut changed = items.clone();
                    changed[i] = replacement;
                    out.push(Value::Array(changed));
                }
            }
        }
        _ => {}
    }
    if !matches!(value, Value::Bool(true)) && (value.is_object() || value.is_array()) {
        out.push(Value::Bool(true));
        if let Value::Object(map) = value {
            out.extend(map.values().filter(|v| v.is_object()).cloned());
        }
    }
    out
}

/// How many cases a property test of this crate draws: `PROPTEST_CASES` when it is set
/// to a number, else `default`.
pub fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn exact_doubles() {
        let exact = [json!(0.5), json!(7.5), json!(2), json!(1e22), json!(-0.25)];
        for value in exact.iter().chain([&json!("not a number")]) {
            assert!(exact_double(value), "{value}");
        }
        let inexact = [
            json!(0.1),
            json!(1e-5),
            json!(u64::MAX),
            json!(1e300),
            json!(1e23),
        ];
        for value in &inexact {
            assert!(!exact_double(value), "{value}");
        }
    }

    #[test]
    fn minimize_keeps_the_failure_and_drops_the_rest() {
        let schema = json!({"allOf": [{"type": "string"}, {"minimum": 3}], "title": "x"});
        let instance = json!({"a": [1, 2], "b": 2});
        // "Fails" while the schema still mentions minimum and the instance has "b".
        let (schema, instance) = minimize(&schema, &instance, |s, i| {
            s.to_string().contains("minimum") && i.get("b").is_some()
        });
        assert_eq!(schema, json!({"allOf": [{"minimum": 3}]}));
        assert_eq!(instance, json!({"b": 2}));
    }
}
