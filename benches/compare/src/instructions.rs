//! Instruction counts: ours against `jsonschema`, one case at a time under callgrind, in
//! every build profile asked for.
//!
//! Wall times on a shared 2-core VM move by ±15% between runs; the number of instructions
//! one operation executes does not (the same binary on the same input gives the same count
//! to within a few instructions). `--instructions` runs a binary of this crate (one per
//! profile, see [`profiles`]) under `valgrind --tool=callgrind`, twice per case and engine,
//! in a child mode (`--instructions-child MODE ENGINE CASE`):
//!
//! * `fresh`: the process's very first compile, of the case's schema, counted (what a CLI
//!   run, a serverless cold start or an MCP client's first `tools/list` pays: the one-time
//!   set-up of metaschema validators and tables included); then a second compile of the
//!   same schema, counted (`recompile`: a schema the process has compiled before; a
//!   cache keyed by a schema's content would show here).
//! * `unseen`: first an uncounted warm-up on a *different* schema of the case's dialect
//!   (compiled, then run on a few instances), so that the globals each engine builds once
//!   per process are built but no cache keyed by a schema's content can know the case's
//!   schema; then, counted, one compile of the case's schema (`compile`: what a server
//!   compiling a new schema pays), the first `is_valid` pass over every instance with it
//!   (`cold` = compile + first pass), after an uncounted pass one more pass (`warm`), and
//!   for MCP cases, after an uncounted one, one `validate` with its message on the first
//!   invalid instance (`error`).
//!
//! Callgrind dumps its counters on entering each `mark_*` function
//! (`--dump-before=*instructions::mark_*`), so each dump holds exactly the phase between two
//! marks. `boon` is left out to keep the run short; its wall times are in the ordinary
//! report.
//!
//! To profile one phase, run the child alone under callgrind, e.g. an unseen compile:
//! `valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*counted_compile*'
//! benches/compare/target/release/mcp-jsonschema-compare --instructions-child unseen ours deno`,
//! or warm passes: the same with `COMPARE_PROFILED_PASSES=N` and
//! `--toggle-collect='*profiled_passes*'` (N more warm passes).

use crate::cases::{Case, Dialect, Kind};
use crate::engines::{Compiled, Engine};
use serde_json::{json, Value};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The engines counted.
pub const COUNTED: [Engine; 2] = [Engine::Ours, Engine::JsonSchema];

/// The profiles `--instructions` counts unless `--profiles` says otherwise: the one the
/// comparison is judged by (fat LTO), then Cargo's default release settings.
pub const DEFAULT_PROFILES: &str = "release,default-release";

/// The two child runs per case and engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The first compile in a fresh process, then a second compile of the same schema.
    Fresh,
    /// Compile of a schema the process has not seen (globals warmed on another), passes,
    /// error.
    Unseen,
}

impl Mode {
    const ALL: [Mode; 2] = [Mode::Fresh, Mode::Unseen];

    fn name(self) -> &'static str {
        match self {
            Mode::Fresh => "fresh",
            Mode::Unseen => "unseen",
        }
    }
}

/// Instructions of one engine on one case (in one profile).
#[derive(Clone, Copy, Debug, Default)]
pub struct Counts {
    /// The first compile in a fresh process.
    pub fresh: u64,
    /// A second compile of the same schema in that process.
    pub recompile: u64,
    /// One compile of a schema the process has not seen, its globals warmed.
    pub compile: u64,
    /// The first `is_valid` pass over every instance, on that freshly compiled validator.
    pub first_pass: u64,
    /// A later pass.
    pub warm: u64,
    /// `validate` and its message on the first invalid instance (MCP cases only).
    pub error: Option<u64>,
}

/// A build profile's binary of this crate.
#[derive(Clone, Debug)]
pub struct Profile {
    /// The profile's name (`release`, `default-release`).
    pub name: String,
    /// The executable.
    pub exe: PathBuf,
}

/// The binaries of the profiles named in `list` (comma-separated), found beside the
/// running one: `target/<profile>/<this executable's name>`. A profile without a binary is
/// skipped with a warning, as is one older than the sources (with a warning only).
pub fn profiles(list: &str, repo_root: &Path) -> Result<Vec<Profile>, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let (Some(file), Some(target)) = (exe.file_name(), exe.parent().and_then(Path::parent)) else {
        return Err(format!("cannot place {}", exe.display()));
    };
    let newest_source = newest_source(repo_root);
    let mut found = Vec::new();
    for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let path = target.join(name).join(file);
        let Ok(meta) = path.metadata() else {
            eprintln!(
                "warning: no binary for profile {name} (build it with `cargo build --profile \
                 {name} --manifest-path benches/compare/Cargo.toml`); skipped"
            );
            continue;
        };
        if let (Ok(built), Some(source)) = (meta.modified(), newest_source) {
            if built < source {
                eprintln!("warning: the {name} binary is older than the sources; rebuild it");
            }
        }
        found.push(Profile {
            name: name.to_owned(),
            exe: path,
        });
    }
    if found.is_empty() {
        return Err(format!("no binary for any of the profiles {list:?}"));
    }
    Ok(found)
}

/// The modification time of the newest file among the sources both binaries are built
/// from (the library, this crate, the shared cases), if any can be read.
fn newest_source(repo_root: &Path) -> Option<std::time::SystemTime> {
    fn walk(path: &Path, newest: &mut Option<std::time::SystemTime>) {
        let Ok(meta) = path.metadata() else { return };
        if meta.is_dir() {
            for entry in std::fs::read_dir(path).into_iter().flatten().flatten() {
                walk(&entry.path(), newest);
            }
        } else if let Ok(modified) = meta.modified() {
            *newest = (*newest).max(Some(modified));
        }
    }
    let mut newest = None;
    for part in [
        "src",
        "Cargo.toml",
        "benches/common",
        "benches/data",
        "benches/compare/src",
        "benches/compare/Cargo.toml",
        "benches/compare/Cargo.lock",
    ] {
        walk(&repo_root.join(part), &mut newest);
    }
    newest
}

/// The child mode: `--instructions-child MODE ENGINE CASE`, run under callgrind by
/// [`count`]. Returns an error message for the parent to show.
pub fn child(mode: &str, engine: &str, case: &Case) -> Result<(), String> {
    let engine = COUNTED
        .into_iter()
        .find(|e| e.name() == engine)
        .ok_or_else(|| format!("unknown engine {engine:?}"))?;
    match Mode::ALL.into_iter().find(|m| m.name() == mode) {
        Some(Mode::Fresh) => child_fresh(engine, case),
        Some(Mode::Unseen) => child_unseen(engine, case),
        None => Err(format!("unknown mode {mode:?}")),
    }
}

/// [`Mode::Fresh`]: nothing of the engine has run before the first counted compile.
fn child_fresh(engine: Engine, case: &Case) -> Result<(), String> {
    let input = engine.prepare(case);
    mark_start(0);
    let first = counted_compile(engine, input)?;
    mark_fresh_compiled(1);
    drop(first);
    let input = engine.prepare(case);
    mark_start(2);
    let again = counted_compile(engine, input)?;
    mark_recompiled(3);
    drop(again);
    Ok(())
}

/// [`Mode::Unseen`]: globals warmed on [`warm_up`]'s schema, then the case's schema, never
/// compiled before in this process.
fn child_unseen(engine: Engine, case: &Case) -> Result<(), String> {
    let other = warm_up(case);
    let warming = engine.compile(engine.prepare(&other))?;
    black_box(pass(&warming, &other));
    black_box(other.first_invalid().map(|i| warming.first_error(i)));
    drop(warming);

    let input = engine.prepare(case);
    mark_start(0);
    let validator = counted_compile(engine, input)?;
    mark_compiled(1);
    black_box(pass(&validator, case));
    mark_first_pass_done(2);
    black_box(pass(&validator, case));
    mark_start(3);
    black_box(pass(&validator, case));
    mark_warm_pass_done(4);
    if let Some(invalid) = error_instance(case) {
        black_box(validator.first_error(black_box(invalid)));
        mark_start(5);
        black_box(validator.first_error(black_box(invalid)));
        mark_error_done(6);
    }
    // For profiling the warm path (`valgrind --tool=callgrind --collect-atstart=no
    // --toggle-collect='*profiled_passes*' ...`): extra passes, counted by no dump.
    let extra = std::env::var("COMPARE_PROFILED_PASSES").ok();
    if let Some(n) = extra.and_then(|n| n.parse::<usize>().ok()) {
        black_box(profiled_passes(&validator, case, n));
    }
    Ok(())
}

/// The instance whose first error is counted: the first invalid one of an MCP case (as in
/// the timed report's `error` table).
fn error_instance(case: &Case) -> Option<&Value> {
    case.first_invalid().filter(|_| case.kind == Kind::Mcp)
}

/// A small schema of `case`'s dialect (declared the same way: the same `$schema` text, or
/// none) that no case uses, with the keywords most schemas have (types, properties, a
/// pattern, an enum, bounds, a local `$ref`, unions, a `format`), and two instances, one
/// valid and one not. Compiling and running it builds each engine's per-process globals
/// (metaschema validators, keyword tables, hasher keys, regex machinery) before the counted
/// compile, without telling any cache keyed by content about the case's schema.
pub fn warm_up(case: &Case) -> Case {
    let defs = if case.dialect <= Dialect::Draft7 {
        "definitions"
    } else {
        "$defs"
    };
    let mut schema = json!({
        "title": "warm-up",
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[a-z][a-z0-9_]*$"},
            "count": {"type": "integer", "minimum": 0, "maximum": 100},
            "ratio": {"type": "number", "multipleOf": 0.5},
            "kind": {"enum": ["a", "b", "c"]},
            "flag": {"type": "boolean"},
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "maxItems": 8},
            "child": {"$ref": format!("#/{defs}/child")},
            "either": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "one": {"oneOf": [{"type": "integer"}, {"type": "string"}]},
            "mail": {"type": "string", "format": "email"}
        },
        "required": ["name"],
        "additionalProperties": false,
        defs: {
            "child": {
                "type": "object",
                "properties": {"id": {"type": "integer"}},
                "additionalProperties": {"type": "string"}
            }
        }
    });
    if let (Some(declared), Value::Object(map)) = (case.schema.get("$schema"), &mut schema) {
        map.insert("$schema".to_owned(), declared.clone());
    }
    let valid = json!({"name": "abc", "count": 3, "kind": "b", "tags": ["x", "y"],
        "child": {"id": 1, "note": "n"}, "either": null, "one": 2, "mail": "a@b.example"});
    let invalid = json!({"name": "Abc", "count": 300, "kind": "d", "tags": ["x", "x"],
        "child": {"id": "1"}, "extra": true});
    Case {
        name: "warm-up".to_owned(),
        kind: case.kind,
        schema,
        dialect: case.dialect,
        instances: vec![valid, invalid],
        expected: vec![true, false],
    }
}

/// The counted compile, a function of its own for profiling the compile alone
/// (`--toggle-collect='*counted_compile*'`).
#[inline(never)]
fn counted_compile(engine: Engine, input: crate::engines::Input<'_>) -> Result<Compiled, String> {
    engine.compile(black_box(input))
}

#[inline(never)]
fn profiled_passes(validator: &Compiled, case: &Case, n: usize) -> usize {
    (0..n).map(|_| pass(validator, case)).sum()
}

// Callgrind dumps its counters when one of these is entered (`--dump-before=*mark_*`):
// each dump holds what ran since the previous one. Distinct bodies keep the linker from
// folding them into one symbol.

#[inline(never)]
fn mark_start(n: u32) {
    black_box(n);
}

#[inline(never)]
fn mark_compiled(n: u32) {
    black_box(n.wrapping_add(10));
}

#[inline(never)]
fn mark_first_pass_done(n: u32) {
    black_box(n.wrapping_add(20));
}

#[inline(never)]
fn mark_warm_pass_done(n: u32) {
    black_box(n.wrapping_add(30));
}

#[inline(never)]
fn mark_error_done(n: u32) {
    black_box(n.wrapping_add(40));
}

#[inline(never)]
fn mark_fresh_compiled(n: u32) {
    black_box(n.wrapping_add(50));
}

#[inline(never)]
fn mark_recompiled(n: u32) {
    black_box(n.wrapping_add(60));
}

fn pass(validator: &Compiled, case: &Case) -> usize {
    (case.instances.iter())
        .filter(|instance| validator.is_valid(black_box(instance)))
        .count()
}

/// Which phase a dump holds, from the mark whose entry triggered it; `None` for the
/// uncounted phases (ended by `mark_start`) and the final dump at exit.
fn phase(trigger: &str) -> Option<&'static str> {
    [
        "mark_fresh_compiled",
        "mark_recompiled",
        "mark_compiled",
        "mark_first_pass_done",
        "mark_warm_pass_done",
        "mark_error_done",
    ]
    .into_iter()
    .find(|mark| trigger.contains(mark))
}

/// Runs `profile`'s binary under callgrind in `mode` for `engine` on `case`, in its own
/// directory `scratch` (created and removed here); the counted phases' totals, by the mark
/// that ended each (see [`phase`]).
pub fn run_child(
    profile: &Profile,
    mode: Mode,
    engine: Engine,
    case: &Case,
    scratch: &Path,
) -> Result<Vec<(&'static str, u64)>, String> {
    std::fs::create_dir_all(scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
    let out = scratch.join("callgrind.out.%p");
    let status = Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg("--dump-before=*instructions::mark_*")
        .arg(&profile.exe)
        .args([
            "--instructions-child",
            mode.name(),
            engine.name(),
            &case.name,
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .output()
        .map_err(|e| format!("cannot run valgrind: {e}"))?;
    let mut phases = Vec::new();
    let entries = std::fs::read_dir(scratch).map_err(|e| e.to_string())?;
    for entry in entries.flatten() {
        let text = std::fs::read_to_string(entry.path()).map_err(|e| e.to_string())?;
        let Some(trigger) = text.lines().find_map(|l| l.strip_prefix("desc: Trigger: ")) else {
            continue;
        };
        let Some(phase) = phase(trigger) else {
            continue;
        };
        let total = text
            .lines()
            .find_map(|l| l.strip_prefix("summary: ").or(l.strip_prefix("totals: ")))
            .and_then(|n| n.trim().parse::<u64>().ok())
            .ok_or_else(|| format!("no total in the dump of {phase}"))?;
        phases.push((phase, total));
    }
    let _ = std::fs::remove_dir_all(scratch);
    if !status.status.success() {
        let stderr = String::from_utf8_lossy(&status.stderr);
        let last = stderr.lines().rev().find(|l| !l.trim().is_empty());
        return Err(format!("child failed: {}", last.unwrap_or("(no output)")));
    }
    Ok(phases)
}

/// The counts of one engine on one case from its two runs' phases; an error naming a
/// missing phase.
pub fn counts(case: &Case, phases: &[(&'static str, u64)]) -> Result<Counts, String> {
    let get = |name: &str| {
        (phases.iter().find(|(phase, _)| *phase == name))
            .map(|&(_, total)| total)
            .ok_or_else(|| format!("no dump for {name}"))
    };
    Ok(Counts {
        fresh: get("mark_fresh_compiled")?,
        recompile: get("mark_recompiled")?,
        compile: get("mark_compiled")?,
        first_pass: get("mark_first_pass_done")?,
        warm: get("mark_warm_pass_done")?,
        error: match error_instance(case) {
            Some(_) => Some(get("mark_error_done")?),
            None => None,
        },
    })
}

/// One case's counts: per profile, per engine in [`COUNTED`] order (`None` where a run
/// failed).
pub struct CaseCounts {
    /// The case's name.
    pub name: String,
    /// How many instances it has (none: compile-only).
    pub instances: usize,
    /// Per profile, per engine.
    pub counts: Vec<[Option<Counts>; 2]>,
}

type Pick = fn(&Counts) -> Option<u64>;

/// Cases' names and ratios.
type Ratios<'a> = Vec<(&'a str, f64)>;

/// The metrics reported, in order: name, description, what it picks.
const METRICS: [(&str, &str, Pick); 6] = [
    (
        "compile",
        "one compile of a schema the process has not seen, its globals warmed on another \
         schema of the dialect",
        |c| Some(c.compile),
    ),
    (
        "fresh",
        "the first compile in a fresh process (one-time set-up included)",
        |c| Some(c.fresh),
    ),
    (
        "recompile",
        "a second compile of the same schema in that process",
        |c| Some(c.recompile),
    ),
    (
        "cold",
        "compile (unseen) + the first is_valid pass over every instance",
        |c| Some(c.compile + c.first_pass),
    ),
    ("warm", "a later is_valid pass over every instance", |c| {
        Some(c.warm)
    }),
    (
        "error",
        "validate + message on the first invalid instance (MCP cases)",
        |c| c.error,
    ),
];

/// Whether `metric` applies to a case with `instances` instances: a case without any
/// (OpenAPI) has no pass to compare.
fn applies(metric: &str, instances: usize) -> bool {
    instances > 0 || !matches!(metric, "cold" | "warm")
}

/// The report: per metric, a table of cases with each profile's counts and ratio; then,
/// per metric and profile, the geometric mean, how many cases are above 1 and 1.1, and the
/// highest ratios.
pub fn render(profiles: &[Profile], results: &[CaseCounts]) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let names: Vec<&str> = profiles.iter().map(|p| p.name.as_str()).collect();
    let _ = writeln!(
        out,
        "# Instructions executed: mcp-jsonschema vs jsonschema 0.61.2 (callgrind)\n\n\
         {} cases, profiles {}. Ratios are ours/jsonschema: below 1 ours executes fewer\n\
         instructions. `release` is fat LTO, codegen-units = 1, panic = abort;\n\
         `default-release` is Cargo's default release settings.",
        results.len(),
        names.join(", ")
    );
    // Per metric and profile: each case's ratio.
    let mut summary: Vec<(&str, &str, Ratios)> = Vec::new();
    for (metric, description, pick) in METRICS {
        let _ = writeln!(out, "\n## {metric}: {description}\n");
        let _ = write!(out, "{:<24}", "case");
        for name in &names {
            let ours = format!("ours {name}");
            let _ = write!(out, " {ours:>24} {:>12} {:>6}", "jsonschema", "ratio");
        }
        let _ = writeln!(out);
        let mut ratios: Vec<Ratios> = vec![Vec::new(); profiles.len()];
        for case in results {
            let cells: Vec<Option<(u64, u64)>> = (case.counts.iter())
                .map(|[ours, theirs]| {
                    let (ours, theirs) = (pick(ours.as_ref()?)?, pick(theirs.as_ref()?)?);
                    (ours > 0 && theirs > 0 && applies(metric, case.instances))
                        .then_some((ours, theirs))
                })
                .collect();
            if cells.iter().all(Option::is_none) {
                continue;
            }
            let _ = write!(out, "{:<24}", case.name);
            for (p, cell) in cells.into_iter().enumerate() {
                match cell {
                    Some((ours, theirs)) => {
                        let ratio = ours as f64 / theirs as f64;
                        ratios[p].push((case.name.as_str(), ratio));
                        let _ = write!(out, " {ours:>24} {theirs:>12} {ratio:>6.2}");
                    }
                    None => {
                        let _ = write!(out, " {:>24} {:>12} {:>6}", "n/a", "n/a", "");
                    }
                }
            }
            let _ = writeln!(out);
        }
        for (name, ratios) in names.iter().zip(ratios) {
            summary.push((metric, name, ratios));
        }
    }
    let _ = writeln!(out, "\n## geometric means of ours/jsonschema\n");
    let _ = writeln!(
        out,
        "{:<10} {:<16} {:>6} {:>6} {:>6} {:>6}  highest",
        "metric", "profile", "geo", "cases", ">1", ">1.1"
    );
    for (metric, profile, mut ratios) in summary {
        if ratios.is_empty() {
            continue;
        }
        let geo = (ratios.iter().map(|(_, r)| r.ln()).sum::<f64>() / ratios.len() as f64).exp();
        let above = ratios.iter().filter(|(_, r)| *r > 1.0).count();
        let well_above = ratios.iter().filter(|(_, r)| *r > 1.1).count();
        ratios.sort_by(|a, b| b.1.total_cmp(&a.1));
        let highest: Vec<String> = (ratios.iter().take(5))
            .map(|(name, r)| format!("{name} {r:.2}"))
            .collect();
        let _ = writeln!(
            out,
            "{metric:<10} {profile:<16} {geo:>6.2} {:>6} {above:>6} {well_above:>6}  {}",
            ratios.len(),
            highest.join(", ")
        );
    }
    out
}
