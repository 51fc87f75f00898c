//! `--cache-penalty`: how much of a warm pass waits on memory.
//!
//! A case's instances do not all fit in a core's caches, so a pass over them (the warm
//! metric) reads most of them from farther away; the same instances validated each many
//! times in a row are read from the caches. For ours and `jsonschema`, interleaved, this
//! times both (medians of `rounds` rounds), and a plain walk of every value of the
//! instances (each key's length and first byte, each value's kind: what a validator that
//! looks at everything reads, with no work to overlap its misses). The difference between
//! a pass and the in-cache time is what waiting on memory costs an engine; one whose work
//! overlaps its misses pays less of it than the walk does.

use crate::cases::Case;
use crate::engines::Engine;
use crate::measure::median;
use crate::report::fmt_time;
use serde_json::Value;
use std::hint::black_box;
use std::time::Instant;

/// Passes per timed sample over all instances.
const PASSES: usize = 100;

/// Validations of one instance in a row, in the in-cache samples.
const REPEATS: usize = 50;

/// Prints, for each case, the three readers' time per pass with the instances out of and
/// in the caches, and the ratios ours / jsonschema.
pub fn report(cases: &[Case], rounds: usize) -> Result<(), String> {
    println!(
        "# Cache penalty of a warm pass: ours vs jsonschema 0.61.2, medians of {rounds} rounds\n\n\
         `pass`: one is_valid pass over all instances; `in cache`: each instance validated\n\
         {REPEATS} times in a row (per pass); `walk`: each key's length and first byte, each value's kind.\n"
    );
    println!(
        "{:24} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>7} {:>9}",
        "case",
        "ours pass",
        "in cache",
        "js pass",
        "in cache",
        "walk pass",
        "in cache",
        "ratio",
        "in cache"
    );
    for case in cases.iter().filter(|case| !case.instances.is_empty()) {
        let ours = Engine::Ours.compile(Engine::Ours.prepare(case))?;
        let theirs = Engine::JsonSchema.compile(Engine::JsonSchema.prepare(case))?;
        let mut samples: [Vec<f64>; 6] = Default::default();
        for _ in 0..rounds {
            let timings = [
                pass(&case.instances, |i| ours.is_valid(i)),
                in_cache(&case.instances, |i| ours.is_valid(i)),
                pass(&case.instances, |i| theirs.is_valid(i)),
                in_cache(&case.instances, |i| theirs.is_valid(i)),
                pass(&case.instances, |i| walk(i) > 0),
                in_cache(&case.instances, |i| walk(i) > 0),
            ];
            for (sample, timing) in samples.iter_mut().zip(timings) {
                sample.push(timing);
            }
        }
        let [ours_pass, ours_hot, js_pass, js_hot, walk_pass, walk_hot] =
            samples.map(|sample| median(sample).unwrap_or(f64::NAN));
        println!(
            "{:24} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>7.2} {:>9.2}",
            case.name,
            fmt_time(ours_pass),
            fmt_time(ours_hot),
            fmt_time(js_pass),
            fmt_time(js_hot),
            fmt_time(walk_pass),
            fmt_time(walk_hot),
            ours_pass / js_pass,
            ours_hot / js_hot
        );
    }
    Ok(())
}

/// Seconds per pass of `check` over `instances`, over [`PASSES`] passes.
pub fn pass(instances: &[Value], check: impl Fn(&Value) -> bool) -> f64 {
    let start = Instant::now();
    for _ in 0..PASSES {
        for instance in instances {
            black_box(check(black_box(instance)));
        }
    }
    start.elapsed().as_secs_f64() / PASSES as f64
}

/// Seconds per pass of `check` over `instances` with each instance checked [`REPEATS`]
/// times in a row.
fn in_cache(instances: &[Value], check: impl Fn(&Value) -> bool) -> f64 {
    let start = Instant::now();
    for instance in instances {
        for _ in 0..REPEATS {
            black_box(check(black_box(instance)));
        }
    }
    start.elapsed().as_secs_f64() / REPEATS as f64
}

/// Reads every value: each key's length and first byte, each value's kind.
#[inline(never)]
pub fn walk(value: &Value) -> usize {
    match value {
        Value::Object(map) => (map.iter())
            .map(|(key, value)| {
                key.len() + usize::from(key.bytes().next().unwrap_or(0)) + walk(value)
            })
            .sum(),
        Value::Array(items) => items.iter().map(walk).sum(),
        Value::String(text) => text.len(),
        _ => 1,
    }
}
