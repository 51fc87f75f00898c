//! `--floor`: how far both engines are from code written for one schema by hand.
//!
//! lerna's schema (a `properties` tree of strings, booleans and string lists, every table
//! open) written as a Rust function: a `match` on each key, the value's kind tested in
//! place. No interpreter comes closer to the instances than this, with no budget, no depth
//! bound and no tables, so its pass over the instances is a floor for the warm metric, and
//! the plain walk of [`cache::walk`](crate::cache) beside it says how much of that floor
//! is reading the instances at all. Before timing, the function is checked against both
//! engines on every instance and on a variant of each with one property's value replaced
//! by a number (which every named property of the schema refuses).
//!
//! Counted by callgrind, one pass of each reader after the uncounted ones of the check:
//! `valgrind --tool=callgrind --toggle-collect='*floor::counted*'
//! benches/compare/target/release/mcp-jsonschema-compare --floor --count`, then
//! `callgrind_annotate --inclusive=yes` on its output (one line per reader).

use crate::cache::{pass, walk};
use crate::cases::Case;
use crate::engines::{Compiled, Engine};
use crate::measure::median;
use crate::report::fmt_time;
use serde_json::Value;
use std::hint::black_box;

/// The case written by hand below.
pub const CASE: &str = "lerna";

/// Times (or, with `count`, runs once for callgrind) ours, `jsonschema`, the hand-written
/// validator and the walk over [`CASE`]'s instances.
pub fn report(case: &Case, rounds: usize, count: bool) -> Result<(), String> {
    let ours = Engine::Ours.compile(Engine::Ours.prepare(case))?;
    let theirs = Engine::JsonSchema.compile(Engine::JsonSchema.prepare(case))?;
    agree(case, &ours, &theirs)?;
    let instances = &case.instances[..];
    if count {
        let (Compiled::Ours(ours), Compiled::JsonSchema(theirs)) = (&ours, &theirs) else {
            return Err("not the engines asked for".to_owned());
        };
        // `agree` has run every reader over every instance: this pass is a warm one.
        black_box(counted_ours(ours, instances));
        black_box(counted_jsonschema(theirs, instances));
        black_box(counted_by_hand(instances));
        black_box(counted_walk(instances));
        return Ok(());
    }
    let mut samples: [Vec<f64>; 4] = Default::default();
    for _ in 0..rounds {
        let timings = [
            pass(instances, |i| ours.is_valid(i)),
            pass(instances, |i| theirs.is_valid(i)),
            pass(instances, lerna),
            pass(instances, |i| walk(i) > 0),
        ];
        for (sample, timing) in samples.iter_mut().zip(timings) {
            sample.push(timing);
        }
    }
    let [ours, theirs, hand, walked] = samples.map(|s| median(s).unwrap_or(f64::NAN));
    println!(
        "# {CASE}: a warm pass against code written for its schema, medians of {rounds} rounds\n"
    );
    println!("{:14} {:>10} {:>15}", "reader", "pass", "/ jsonschema");
    for (name, time) in [
        ("ours", ours),
        ("jsonschema", theirs),
        ("by hand", hand),
        ("walk", walked),
    ] {
        println!("{name:14} {:>10} {:>15.2}", fmt_time(time), time / theirs);
    }
    Ok(())
}

/// Checks that [`lerna`] gives both engines' verdicts on every instance and on each
/// instance with one property's value made a number.
fn agree(case: &Case, ours: &Compiled, theirs: &Compiled) -> Result<(), String> {
    let mut checked = 0;
    for instance in &case.instances {
        let mut variants = vec![instance.clone()];
        if let Value::Object(map) = instance {
            for key in map.keys() {
                let mut variant = map.clone();
                variant.insert(key.clone(), Value::from(42));
                variants.push(Value::Object(variant));
            }
        }
        for variant in &variants {
            let (a, b, c) = (
                ours.is_valid(variant),
                theirs.is_valid(variant),
                lerna(variant),
            );
            if a != b || b != c {
                return Err(format!(
                    "verdicts differ (ours {a}, jsonschema {b}, by hand {c}) on {variant}"
                ));
            }
            checked += 1;
        }
    }
    eprintln!("floor: the three agree on {checked} instances");
    Ok(())
}

#[inline(never)]
fn counted_ours(validator: &mcp_jsonschema::Validator, instances: &[Value]) -> usize {
    instances.iter().filter(|i| validator.is_valid(i)).count()
}

#[inline(never)]
fn counted_jsonschema(validator: &jsonschema::Validator, instances: &[Value]) -> usize {
    instances.iter().filter(|i| validator.is_valid(i)).count()
}

#[inline(never)]
fn counted_by_hand(instances: &[Value]) -> usize {
    instances.iter().filter(|i| lerna(i)).count()
}

#[inline(never)]
fn counted_walk(instances: &[Value]) -> usize {
    instances.iter().map(walk).sum()
}

/// lerna's schema (`schema.json` of its case), by hand.
#[inline(never)]
fn lerna(instance: &Value) -> bool {
    fields(instance, |key, value| match key {
        "version" | "npmClient" => value.is_string(),
        "npmClientArgs" | "workspaces" | "packages" | "ignoreChanges" => strings(value),
        "useWorkspaces" => value.is_boolean(),
        "command" => fields(value, |key, value| match key {
            "publish" => fields(value, |key, value| match key {
                "ignoreChanges" => string_or_strings(value),
                "message" => value.is_string(),
                _ => true,
            }),
            "bootstrap" => fields(value, |key, value| match key {
                "ignore" => string_or_strings(value),
                "npmClientArgs" => strings(value),
                _ => true,
            }),
            "init" => fields(value, |key, value| key != "exact" || value.is_boolean()),
            "run" => fields(value, |key, value| key != "npmClient" || value.is_string()),
            "version" => fields(value, |key, value| match key {
                "allowBranch" => string_or_strings(value),
                "message" => value.is_string(),
                _ => true,
            }),
            _ => true,
        }),
        _ => true,
    })
}

/// `{"type": "object", "properties": ...}`: an object whose every field passes `field`.
fn fields(value: &Value, field: impl Fn(&str, &Value) -> bool) -> bool {
    match value {
        Value::Object(map) => map.iter().all(|(key, value)| field(key, value)),
        _ => false,
    }
}

/// `{"type": "array", "items": {"type": "string"}}`.
fn strings(value: &Value) -> bool {
    match value {
        Value::Array(items) => items.iter().all(Value::is_string),
        _ => false,
    }
}

/// `{"type": ["string", "array"], "items": {"type": "string"}}`.
fn string_or_strings(value: &Value) -> bool {
    value.is_string() || strings(value)
}
