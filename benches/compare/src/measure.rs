//! Measuring one case with all engines, interleaved.
//!
//! Each engine first compiles the schema once (to see whether it can, to warm its lazy
//! globals, and to collect its verdicts); then come `rounds` rounds, and in each round every
//! engine in turn (the order rotating from round to round) runs one timed batch of each
//! metric. A batch repeats the operation until it lasts about `batch` (calibrated once),
//! so that short operations are not lost in timer noise; a sample is the batch time
//! divided by its count, and the reported figure is the median of the samples.

use crate::alloc;
use crate::cases::{Case, Dialect, Kind};
use crate::engines::{Compiled, Engine, ENGINES};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// How long and how often to measure.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Number of interleaved rounds (samples per metric and engine).
    pub rounds: usize,
    /// Target duration of one timed batch.
    pub batch: Duration,
}

/// What one engine did on one case. Times are median seconds per operation.
#[derive(Debug, Default)]
pub struct EngineResult {
    /// Why the schema did not compile, if it did not; every other field is then empty.
    pub compile_error: Option<String>,
    /// Compile time.
    pub compile: Option<f64>,
    /// Compile plus one `is_valid` pass over all instances, on a fresh validator.
    pub cold: Option<f64>,
    /// One `is_valid` pass over all instances with a prebuilt validator.
    pub warm: Option<f64>,
    /// First error (as a message) of the case's first invalid instance; MCP cases only.
    pub error: Option<f64>,
    /// Heap bytes allocated by one compile and still held by its result.
    pub retained: Option<usize>,
    /// The engine's own estimate of the compiled schema's size, if it offers one.
    pub reported: Option<usize>,
    /// The `is_valid` verdict for each instance.
    pub verdicts: Vec<bool>,
    /// Instances on which our `validate`/`iter_errors` disagree with our `is_valid`.
    pub inconsistent: Vec<(usize, String)>,
}

/// Everything measured on one case.
#[derive(Debug)]
pub struct CaseResult {
    /// The case's name.
    pub name: String,
    /// Where it comes from.
    pub kind: Kind,
    /// Its dialect.
    pub dialect: Dialect,
    /// The expected verdict of each instance.
    pub expected: Vec<bool>,
    /// Per engine, in [`ENGINES`] order.
    pub engines: [EngineResult; 3],
}

/// Largest batch counts, so that a calibration hiccup cannot make a batch run for ages.
const MAX_COMPILES: usize = 10_000;
const MAX_PASSES: usize = 1_000_000;

/// Measures `case` with every engine.
pub fn measure(case: &Case, settings: Settings) -> CaseResult {
    let mut results: [EngineResult; 3] = Default::default();
    let mut compiled: [Option<Compiled>; 3] = [None, None, None];
    let invalid = case.first_invalid().filter(|_| case.kind == Kind::Mcp);

    for (slot, (engine, result)) in ENGINES.iter().zip(&mut results).enumerate() {
        match engine.compile(engine.prepare(case)) {
            Err(e) => result.compile_error = Some(e),
            Ok(validator) => {
                result.verdicts = case
                    .instances
                    .iter()
                    .map(|i| validator.is_valid(i))
                    .collect();
                result.inconsistent = case
                    .instances
                    .iter()
                    .enumerate()
                    .filter_map(|(index, i)| Some((index, validator.self_check(i)?)))
                    .collect();
                result.reported = validator.reported_memory();
                // Preparing inside the count too: boon's compiler frees the schema copy it
                // was handed, which must not be subtracted from what it retains.
                let (again, bytes) = alloc::retained_by(|| engine.compile(engine.prepare(case)));
                drop(again);
                result.retained = Some(bytes);
                compiled[slot] = Some(validator);
            }
        }
    }

    // Batch counts, from one timed run of each operation.
    let counts: Vec<Option<[usize; 4]>> = ENGINES
        .iter()
        .zip(&compiled)
        .map(|(&engine, validator)| {
            let validator = validator.as_ref()?;
            let per = |seconds: f64, max: usize| -> usize {
                let n = (settings.batch.as_secs_f64() / seconds.max(1e-9)).ceil();
                (n as usize).clamp(1, max)
            };
            Some([
                per(time_compile(engine, case, 1), MAX_COMPILES),
                per(time_cold(engine, case, 1), MAX_COMPILES),
                per(time_warm(validator, case, 1), MAX_PASSES),
                invalid.map_or(0, |i| per(time_error(validator, i, 1), MAX_PASSES)),
            ])
        })
        .collect();

    let mut samples: [[Vec<f64>; 4]; 3] = Default::default();
    for round in 0..settings.rounds {
        for k in 0..ENGINES.len() {
            let slot = (k + round) % ENGINES.len();
            let (Some(validator), Some([compile, cold, warm, error])) =
                (&compiled[slot], counts[slot])
            else {
                continue;
            };
            let engine = ENGINES[slot];
            let into = &mut samples[slot];
            into[0].push(time_compile(engine, case, compile));
            if !case.instances.is_empty() {
                into[1].push(time_cold(engine, case, cold));
                into[2].push(time_warm(validator, case, warm));
            }
            if let Some(invalid) = invalid {
                into[3].push(time_error(validator, invalid, error));
            }
        }
    }

    for (result, [compile, cold, warm, error]) in results.iter_mut().zip(samples) {
        result.compile = median(compile);
        result.cold = median(cold);
        result.warm = median(warm);
        result.error = median(error);
    }
    CaseResult {
        name: case.name.clone(),
        kind: case.kind,
        dialect: case.dialect,
        expected: case.expected.clone(),
        engines: results,
    }
}

/// Seconds per compile, over a batch of `n`; the validators are dropped after the clock
/// stops.
fn time_compile(engine: Engine, case: &Case, n: usize) -> f64 {
    let inputs: Vec<_> = (0..n).map(|_| engine.prepare(case)).collect();
    let mut keep = Vec::with_capacity(n);
    let start = Instant::now();
    for input in inputs {
        keep.push(black_box(engine.compile(input)));
    }
    let elapsed = start.elapsed();
    drop(keep);
    elapsed.as_secs_f64() / n as f64
}

/// Seconds per compile-and-first-pass, over a batch of `n`.
fn time_cold(engine: Engine, case: &Case, n: usize) -> f64 {
    let inputs: Vec<_> = (0..n).map(|_| engine.prepare(case)).collect();
    let mut keep = Vec::with_capacity(n);
    let start = Instant::now();
    for input in inputs {
        let validator = engine.compile(input).expect("compiled before");
        black_box(pass(&validator, case));
        keep.push(validator);
    }
    let elapsed = start.elapsed();
    drop(keep);
    elapsed.as_secs_f64() / n as f64
}

/// Seconds per pass over all instances, over a batch of `n` passes.
fn time_warm(validator: &Compiled, case: &Case, n: usize) -> f64 {
    let start = Instant::now();
    for _ in 0..n {
        black_box(pass(validator, case));
    }
    start.elapsed().as_secs_f64() / n as f64
}

/// Seconds per first-error message, over a batch of `n`.
fn time_error(validator: &Compiled, invalid: &serde_json::Value, n: usize) -> f64 {
    let start = Instant::now();
    for _ in 0..n {
        black_box(validator.first_error(black_box(invalid)));
    }
    start.elapsed().as_secs_f64() / n as f64
}

/// One `is_valid` pass over the case's instances; the number found valid.
fn pass(validator: &Compiled, case: &Case) -> usize {
    case.instances
        .iter()
        .filter(|instance| validator.is_valid(black_box(instance)))
        .count()
}

/// The median of `samples`, `None` when there are none.
pub fn median(mut samples: Vec<f64>) -> Option<f64> {
    if samples.is_empty() {
        return None;
    }
    samples.sort_by(f64::total_cmp);
    let mid = samples.len() / 2;
    Some(if samples.len() % 2 == 1 {
        samples[mid]
    } else {
        (samples[mid - 1] + samples[mid]) / 2.0
    })
}
