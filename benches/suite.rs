//! Criterion benchmarks of mcp-jsonschema alone, on the cases of `common/cases.rs`.
//!
//! Groups (every id is `<group>/<case>`, so a criterion filter selects by either):
//!
//! * `compile/<case>`: `ValidationOptions::build` of the schema.
//! * `cold/<case>`: compile, then one `is_valid` pass over all instances (the first call
//!   a fresh process pays).
//! * `warm/<case>`: one `is_valid` pass over all instances with a prebuilt validator.
//! * `first_call/<mcp case>`: compile, then `validate` one valid instance.
//! * `error_path/<mcp case>/{is_valid,validate,iter_errors}`: the same invalid instance
//!   through each entry point, to show what building errors costs.
//!
//! Run `cargo bench --bench suite` (all of it takes a few minutes on 2 cores) or
//! `cargo bench --bench suite -- warm/` to filter. The data directory is
//! `$MCP_JSONSCHEMA_BENCH_DATA`, else `../shared/bench-data` next to the crate.
//! `format` is asserted for drafts up to 7 and not from 2019-09 on, as in `benches/compare`.

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use mcp_jsonschema::{Draft, ValidationOptions, Validator};
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

#[path = "common/cases.rs"]
mod cases;

use cases::{Case, Dialect, Kind};

/// The options every case is compiled with.
fn options(case: &Case) -> ValidationOptions {
    let draft = match case.dialect {
        Dialect::Draft4 => Draft::Draft4,
        Dialect::Draft6 => Draft::Draft6,
        Dialect::Draft7 => Draft::Draft7,
        Dialect::Draft201909 => Draft::Draft201909,
        Dialect::Draft202012 => Draft::Draft202012,
    };
    Validator::options()
        .with_draft(draft)
        .with_format_assertion(case.dialect.asserts_formats())
}

fn compile(case: &Case) -> Validator {
    options(case)
        .build(&case.schema)
        .unwrap_or_else(|e| panic!("{}: schema does not compile: {e}", case.name))
}

/// One pass over every instance; returns how many were valid, so nothing is optimised away.
fn pass(validator: &Validator, instances: &[serde_json::Value]) -> usize {
    instances
        .iter()
        .filter(|instance| validator.is_valid(black_box(instance)))
        .count()
}

fn load_cases() -> Vec<Case> {
    let dir = cases::data_dir(Path::new(env!("CARGO_MANIFEST_DIR")));
    cases::load(&dir, &|_| true).unwrap_or_else(|e| panic!("loading benchmark cases: {e}"))
}

fn bench_cases(c: &mut Criterion) {
    let cases = load_cases();

    // Flat sampling in these three groups: an iteration of the slowest cases (compiling
    // FHIR's 3.4 MB schema, a pass over cmake-presets) takes ~0.2 s, and criterion's default
    // linear sampling (55 iterations for 10 samples) would then dominate the run.
    let mut group = c.benchmark_group("compile");
    group.sampling_mode(SamplingMode::Flat);
    for case in &cases {
        group.bench_function(&case.name, |b| {
            b.iter_with_large_drop(|| compile(black_box(case)));
        });
    }
    group.finish();

    let with_instances = || cases.iter().filter(|case| !case.instances.is_empty());

    let mut group = c.benchmark_group("cold");
    group.sampling_mode(SamplingMode::Flat);
    for case in with_instances() {
        group.bench_function(&case.name, |b| {
            b.iter_with_large_drop(|| {
                let validator = compile(black_box(case));
                black_box(pass(&validator, &case.instances));
                validator
            });
        });
    }
    group.finish();

    let mut group = c.benchmark_group("warm");
    group.sampling_mode(SamplingMode::Flat);
    for case in with_instances() {
        // Built on first use, so that a filter that skips this case skips compiling it.
        let mut validator = None;
        group.bench_function(&case.name, |b| {
            let validator = validator.get_or_insert_with(|| compile(case));
            b.iter(|| pass(validator, &case.instances));
        });
    }
    group.finish();

    for case in cases.iter().filter(|case| case.kind == Kind::Mcp) {
        bench_mcp(c, case);
    }
}

/// The groups that only make sense for small MCP tool schemas.
fn bench_mcp(c: &mut Criterion, case: &Case) {
    let valid = case
        .first_valid()
        .unwrap_or_else(|| panic!("{}: no valid instance", case.name));
    let invalid = case
        .first_invalid()
        .unwrap_or_else(|| panic!("{}: no invalid instance", case.name));

    c.benchmark_group("first_call")
        .bench_function(&case.name, |b| {
            b.iter_with_large_drop(|| {
                let validator = compile(black_box(case));
                let verdict = validator.validate(black_box(valid)).is_ok();
                (validator, verdict)
            });
        });

    let mut validator = None;
    let mut group = c.benchmark_group(format!("error_path/{}", case.name));
    group.bench_function("is_valid", |b| {
        let validator = validator.get_or_insert_with(|| compile(case));
        b.iter(|| validator.is_valid(black_box(invalid)));
    });
    group.bench_function("validate", |b| {
        let validator = validator.get_or_insert_with(|| compile(case));
        b.iter(|| validator.validate(black_box(invalid)));
    });
    group.bench_function("iter_errors", |b| {
        let validator = validator.get_or_insert_with(|| compile(case));
        b.iter(|| validator.iter_errors(black_box(invalid)).count());
    });
    group.finish();
}

/// Few samples and short windows: the whole suite (~150 benchmarks) should run in a few
/// minutes on 2 cores. Command-line flags (`--sample-size`, `--measurement-time`, ...)
/// still override these.
fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_cases
}
criterion_main!(benches);
