//! Instruction counts: ours against `jsonschema`, one case at a time under callgrind.
//!
//! Wall times on a shared 2-core VM move by ±15% between runs; the number of instructions
//! one operation executes does not (the same binary on the same input gives the same count
//! to within a few instructions). `--instructions` runs this binary once per case and
//! engine under `valgrind --tool=callgrind` in a child mode that performs, in order:
//!
//! 1. an uncounted compile (each engine builds its lazy globals, such as metaschema
//!    validators, on its first compile in a process);
//! 2. one compile, counted;
//! 3. one `is_valid` pass over every instance with that fresh validator, counted (cold =
//!    2 + 3);
//! 4. an uncounted pass, then one more pass, counted (warm).
//!
//! Callgrind dumps its counters on entering each `mark_*` function
//! (`--dump-before=*mark_*`), so each dump holds exactly the phase between two marks. `boon` is left out to keep the run short; its wall
//! times are in the ordinary report.

use crate::cases::Case;
use crate::engines::{Compiled, Engine};
use std::hint::black_box;
use std::path::Path;
use std::process::Command;

/// The engines counted.
const COUNTED: [Engine; 2] = [Engine::Ours, Engine::JsonSchema];

/// Instructions of one engine on one case.
#[derive(Clone, Copy, Debug, Default)]
pub struct Counts {
    /// One compile.
    pub compile: u64,
    /// The first `is_valid` pass over every instance, on the freshly compiled validator.
    pub first_pass: u64,
    /// A later pass.
    pub warm: u64,
}

/// The child mode: `--instructions-child ENGINE CASE`, run under callgrind by
/// [`count`]. Returns an error message for the parent to show.
pub fn child(engine: &str, case: &Case) -> Result<(), String> {
    let engine = COUNTED
        .into_iter()
        .find(|e| e.name() == engine)
        .ok_or_else(|| format!("unknown engine {engine:?}"))?;
    drop(engine.compile(engine.prepare(case))?);
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
    // For profiling the warm path (`valgrind --tool=callgrind --collect-atstart=no
    // --toggle-collect='*profiled_passes*' ...`): extra passes, counted by no dump.
    let extra = std::env::var("COMPARE_PROFILED_PASSES").ok();
    if let Some(n) = extra.and_then(|n| n.parse::<usize>().ok()) {
        black_box(profiled_passes(&validator, case, n));
    }
    Ok(())
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

fn pass(validator: &Compiled, case: &Case) -> usize {
    (case.instances.iter())
        .filter(|instance| validator.is_valid(black_box(instance)))
        .count()
}

/// Counts `case` for every counted engine by running this executable under callgrind;
/// `None` for an engine whose run failed (with the reason on standard error).
pub fn count(case: &Case, scratch: &Path) -> [Option<Counts>; 2] {
    COUNTED.map(|engine| match run_child(engine, case, scratch) {
        Ok(counts) => Some(counts),
        Err(e) => {
            eprintln!("{} / {}: {e}", case.name, engine.name());
            None
        }
    })
}

fn run_child(engine: Engine, case: &Case, scratch: &Path) -> Result<Counts, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let prefix = scratch.join(format!("{}-{}", case.name, engine.name()));
    let out = format!("{}.%p", prefix.display());
    let status = Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={out}"))
        .arg("--dump-before=*instructions::mark_*")
        .arg(&exe)
        .args(["--instructions-child", engine.name(), &case.name])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .output()
        .map_err(|e| format!("cannot run valgrind: {e}"))?;
    if !status.status.success() {
        let stderr = String::from_utf8_lossy(&status.stderr);
        let last = stderr.lines().rev().find(|l| !l.trim().is_empty());
        return Err(format!("child failed: {}", last.unwrap_or("(no output)")));
    }
    let mut counts = Counts::default();
    let mut found = 0;
    let dir = scratch;
    let stem = prefix
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_string();
    let entries = std::fs::read_dir(dir).map_err(|e| e.to_string())?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        if !name.starts_with(&format!("{stem}.")) {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).map_err(|e| e.to_string())?;
        let _ = std::fs::remove_file(entry.path());
        let Some(trigger) = text.lines().find_map(|l| l.strip_prefix("desc: Trigger: ")) else {
            continue;
        };
        let total = text
            .lines()
            .find_map(|l| l.strip_prefix("summary: ").or(l.strip_prefix("totals: ")))
            .and_then(|n| n.trim().parse::<u64>().ok())
            .ok_or_else(|| format!("no total in {name}"))?;
        // The dump made on entering a mark holds the phase that ends there.
        let slot = if trigger.contains("mark_compiled") {
            &mut counts.compile
        } else if trigger.contains("mark_first_pass_done") {
            &mut counts.first_pass
        } else if trigger.contains("mark_warm_pass_done") {
            &mut counts.warm
        } else {
            continue;
        };
        *slot = total;
        found += 1;
    }
    if found != 3 {
        return Err(format!("expected 3 counted dumps, found {found}"));
    }
    Ok(counts)
}

/// The report: per case, instructions of each engine per metric and the ratio, then the
/// geometric means.
pub fn render(results: &[(String, usize, [Option<Counts>; 2])]) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Instructions executed: mcp-jsonschema vs jsonschema 0.61.2 (callgrind)\n\n\
         {} cases. Per case: one compile, compile + first is_valid pass over every\n\
         instance (cold), and a later pass (warm). Ratios are ours/jsonschema: below 1\n\
         ours executes fewer instructions.\n",
        results.len()
    );
    type Pick = fn(&Counts) -> u64;
    let metrics: [(&str, Pick); 3] = [
        ("compile", |c| c.compile),
        ("cold", |c| c.compile + c.first_pass),
        ("warm", |c| c.warm),
    ];
    let _ = writeln!(
        out,
        "{:<24} {:>12} {:>12} {:>6}   {:>12} {:>12} {:>6}   {:>12} {:>12} {:>6}",
        "case", "compile", "theirs", "ratio", "cold", "theirs", "ratio", "warm", "theirs", "ratio"
    );
    let mut logs = [Vec::new(), Vec::new(), Vec::new()];
    for (name, instances, [ours, theirs]) in results {
        let _ = write!(out, "{name:<24}");
        for (m, (_, pick)) in metrics.iter().enumerate() {
            // A case without instances (OpenAPI) has no pass to compare.
            let passes = m == 0 || *instances > 0;
            match (ours, theirs) {
                (Some(a), Some(b)) if pick(b) > 0 && passes => {
                    let (a, b) = (pick(a), pick(b));
                    let ratio = a as f64 / b as f64;
                    if a > 0 {
                        logs[m].push(ratio.ln());
                    }
                    let _ = write!(out, " {a:>12} {b:>12} {ratio:>6.2}  ");
                }
                _ => {
                    let _ = write!(out, " {:>12} {:>12} {:>6}  ", "n/a", "n/a", "");
                }
            }
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(out);
    for ((metric, _), logs) in metrics.iter().zip(&logs) {
        let logs: Vec<f64> = logs.iter().copied().filter(|l| l.is_finite()).collect();
        if logs.is_empty() {
            continue;
        }
        let mean = (logs.iter().sum::<f64>() / logs.len() as f64).exp();
        let above = logs.iter().filter(|l| **l > 0.0).count();
        let _ = writeln!(
            out,
            "geometric mean {metric:<8} {mean:.2}   ({} cases, {above} above 1)",
            logs.len()
        );
    }
    out
}
