//! `--text`: bytes to verdict, for JSON text that arrives as bytes (a message, a line,
//! a file).
//!
//! Each case's instances are written out as compact JSON once; then, interleaved and
//! timed per pass over all of them (medians of `rounds` rounds): ours reading the text in
//! place (`Validator::is_valid_json`), ours after `serde_json::from_slice` into a `Value`,
//! and `jsonschema` after the same `from_slice` (its only way from bytes). The three must
//! agree on every instance. Issue 56's bar: ours in place at most half the peer's time,
//! geometric mean over the cases.

use crate::cases::Case;
use crate::engines::{Compiled, Engine};
use crate::measure::median;
use crate::report::fmt_time;
use serde_json::Value;
use std::hint::black_box;
use std::time::Instant;

/// Passes per timed sample over all instances.
const PASSES: usize = 20;

/// Prints, for each case, the three readers' time per pass and the ratios; then the
/// geometric means.
pub fn report(cases: &[Case], rounds: usize) -> Result<(), String> {
    println!(
        "# Bytes to verdict: ours in place vs serde_json::from_slice + is_valid, medians of {rounds} rounds\n\n\
         `in place`: ours, `is_valid_json(bytes)`; `tree`: ours, `from_slice` then `is_valid`;\n\
         `jsonschema`: 0.61.2, `from_slice` then `is_valid`. Times per pass over all instances.\n"
    );
    println!(
        "{:24} {:>9} {:>10} {:>10} {:>10} {:>8} {:>8}",
        "case", "bytes", "in place", "tree", "jsonschema", "vs js", "vs tree"
    );
    let (mut vs_peer, mut vs_tree) = (Vec::new(), Vec::new());
    for case in cases.iter().filter(|case| !case.instances.is_empty()) {
        let Compiled::Ours(ours) = Engine::Ours.compile(Engine::Ours.prepare(case))? else {
            return Err("ours compiled to another engine's validator".into());
        };
        let theirs = Engine::JsonSchema.compile(Engine::JsonSchema.prepare(case))?;
        let texts: Vec<Vec<u8>> = (case.instances.iter())
            .map(|instance| serde_json::to_vec(instance).map_err(|e| e.to_string()))
            .collect::<Result<_, _>>()?;
        for (text, instance) in texts.iter().zip(&case.instances) {
            let expected = theirs.is_valid(instance);
            let in_place = ours.is_valid_json(text).map_err(|e| e.to_string())?;
            if in_place != expected || ours.is_valid(instance) != expected {
                return Err(format!("{}: the verdicts differ on {instance}", case.name));
            }
        }
        let tree = |text: &[u8]| serde_json::from_slice::<Value>(text).ok();
        let mut samples: [Vec<f64>; 3] = Default::default();
        for _ in 0..rounds {
            let timings = [
                pass(&texts, |text| ours.is_valid_json(text).unwrap_or(false)),
                pass(&texts, |text| tree(text).is_some_and(|v| ours.is_valid(&v))),
                pass(&texts, |text| {
                    tree(text).is_some_and(|v| theirs.is_valid(&v))
                }),
            ];
            for (sample, timing) in samples.iter_mut().zip(timings) {
                sample.push(timing);
            }
        }
        let [in_place, ours_tree, peer] = samples.map(|sample| median(sample).unwrap_or(f64::NAN));
        vs_peer.push(in_place / peer);
        vs_tree.push(in_place / ours_tree);
        println!(
            "{:24} {:>9} {:>10} {:>10} {:>10} {:>8.2} {:>8.2}",
            case.name,
            texts.iter().map(Vec::len).sum::<usize>(),
            fmt_time(in_place),
            fmt_time(ours_tree),
            fmt_time(peer),
            in_place / peer,
            in_place / ours_tree
        );
    }
    let geomean = |ratios: &[f64]| {
        (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len().max(1) as f64).exp()
    };
    println!(
        "\ngeometric means of in place / jsonschema: {:.2}; in place / tree: {:.2} ({} cases)",
        geomean(&vs_peer),
        geomean(&vs_tree),
        vs_peer.len()
    );
    Ok(())
}

/// Seconds per pass of `check` over `texts`, over [`PASSES`] passes.
fn pass(texts: &[Vec<u8>], check: impl Fn(&[u8]) -> bool) -> f64 {
    let start = Instant::now();
    for _ in 0..PASSES {
        for text in texts {
            black_box(check(black_box(text)));
        }
    }
    start.elapsed().as_secs_f64() / PASSES as f64
}
