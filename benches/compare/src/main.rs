//! Compares mcp-jsonschema with the `jsonschema` and `boon` crates on the benchmark cases
//! of `benches/common/cases.rs`, interleaved in one process, and checks that the three give
//! the same verdict on every instance.
//!
//! ```text
//! cargo run --release --manifest-path benches/compare/Cargo.toml -- [--filter SUBSTR] [--rounds N] [--batch-ms MS]
//! cargo run --release --manifest-path benches/compare/Cargo.toml -- --instructions [--filter SUBSTR] [--profiles LIST]
//! cargo run --release --manifest-path benches/compare/Cargo.toml -- --cache-penalty [--filter SUBSTR] [--rounds N]
//! cargo run --release --manifest-path benches/compare/Cargo.toml -- --text [--filter SUBSTR] [--rounds N]
//! ```
//!
//! The tables go to standard output, progress to standard error. The data directory is
//! `$MCP_JSONSCHEMA_BENCH_DATA`, else `shared/bench-data` beside the repository.
//!
//! `--release` builds with fat LTO, one codegen unit and `panic = "abort"` (how
//! speed-minded users ship, and the yardstick); `--profile default-release` with Cargo's
//! default release settings. `--instructions` counts with the binary of every profile in
//! `--profiles` (default `release,default-release`) found beside the running one, in
//! `benches/compare/target/<profile>/`, so build both first:
//!
//! ```text
//! cargo build --release --manifest-path benches/compare/Cargo.toml
//! cargo build --profile default-release --manifest-path benches/compare/Cargo.toml
//! benches/compare/target/release/mcp-jsonschema-compare --instructions
//! ```
//!
//! Modules: `engines` wraps the three validators, `measure` times one case, `report` prints
//! the tables, `alloc` counts heap bytes for the memory table, `instructions` counts
//! instructions under callgrind instead of timing, `cache` times warm passes with the
//! instances out of and in the caches, `text` times bytes to verdict.

mod alloc;
mod cache;
mod engines;
mod floor;
mod instructions;
mod measure;
mod report;
mod text;

// Shared with `benches/suite.rs`, which also uses the helpers this binary does not.
#[allow(dead_code)]
#[path = "../../common/cases.rs"]
mod cases;

use measure::Settings;
use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[global_allocator]
static ALLOCATOR: alloc::Counting = alloc::Counting;

const USAGE: &str = "\
usage: compare [--filter SUBSTR]... [--rounds N] [--batch-ms MS]
       compare --instructions [--filter SUBSTR]... [--profiles LIST]
       compare --cache-penalty [--filter SUBSTR]... [--rounds N]
       compare --floor [--rounds N] [--count]
       compare --text [--filter SUBSTR]... [--rounds N]

  --filter SUBSTR  only cases whose name contains SUBSTR (case-insensitive; repeatable:
                   a case is kept if any filter matches)
  --rounds N       interleaved rounds per case; each metric's figure is the median of N
                   samples (default 7)
  --batch-ms MS    target length of one timed batch, in milliseconds (default 10)
  --instructions   count instructions (valgrind's callgrind), ours and jsonschema's,
                   instead of timing: the compile of a schema the process has not seen
                   (its globals warmed on another schema of the dialect), the first
                   compile in a fresh process, a second compile of the same schema, the
                   first is_valid pass (cold = compile + first pass), a later pass (warm)
                   and, for MCP cases, validate + message on an invalid instance (error)
  --profiles LIST  with --instructions: the build profiles to count, comma-separated;
                   each one's binary is target/<profile>/ beside the running binary's
                   directory (default release,default-release; a missing one is skipped)
  --cache-penalty  time a warm pass of ours and jsonschema's over all instances against
                   each instance validated many times in a row (in the caches), beside a
                   plain walk of every value: what waiting on memory costs each
  --text           time bytes to verdict: ours reading JSON text in place against
                   serde_json::from_slice + is_valid, ours and jsonschema's
  --floor          time a warm pass of ours and jsonschema's over lerna's instances
                   against a validator written by hand for its schema and a plain walk
                   (with --count, one pass of each, for callgrind: see src/floor.rs)

Data directory: $MCP_JSONSCHEMA_BENCH_DATA, else ../shared/bench-data from the repository.";

/// Command-line options.
struct Args {
    filters: Vec<String>,
    settings: Settings,
    /// `--instructions`.
    instructions: bool,
    /// `--profiles`.
    profiles: String,
    /// `--cache-penalty`.
    cache_penalty: bool,
    /// `--floor`.
    floor: bool,
    /// `--text`.
    text: bool,
    /// `--count` (with `--floor`).
    count: bool,
    /// `--instructions-child MODE ENGINE CASE` (internal: what `--instructions` runs under
    /// callgrind).
    child: Option<[String; 3]>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        filters: Vec::new(),
        settings: Settings {
            rounds: 7,
            batch: Duration::from_millis(10),
        },
        instructions: false,
        profiles: instructions::DEFAULT_PROFILES.to_owned(),
        cache_penalty: false,
        text: false,
        floor: false,
        count: false,
        child: None,
    };
    let mut iter = std::env::args().skip(1);
    while let Some(arg) = iter.next() {
        let mut value = |name: &str| iter.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--filter" => args.filters.push(value("--filter")?.to_lowercase()),
            "--rounds" => {
                args.settings.rounds = value("--rounds")?
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or("--rounds needs a positive integer")?;
            }
            "--batch-ms" => {
                let ms: u64 = value("--batch-ms")?
                    .parse()
                    .map_err(|_| "--batch-ms needs an integer")?;
                args.settings.batch = Duration::from_millis(ms.max(1));
            }
            "--instructions" => args.instructions = true,
            "--profiles" => args.profiles = value("--profiles")?,
            "--cache-penalty" => args.cache_penalty = true,
            "--floor" => args.floor = true,
            "--text" => args.text = true,
            "--count" => args.count = true,
            "--instructions-child" => {
                let mode = value("--instructions-child")?;
                let engine = value("--instructions-child")?;
                let case = value("--instructions-child")?;
                args.child = Some([mode, engine, case]);
            }
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    let modes = [args.instructions, args.cache_penalty, args.floor, args.text];
    if modes.into_iter().filter(|&on| on).count() > 1 {
        return Err(
            "--instructions, --cache-penalty, --floor and --text go one at a time".to_owned(),
        );
    }
    if args.count && !args.floor {
        return Err("--count goes with --floor".to_owned());
    }
    if args.floor && !args.filters.is_empty() {
        return Err(format!("--floor runs {} alone: no --filter", floor::CASE));
    }
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("error: {message}\n");
            }
            eprintln!("{USAGE}");
            return if message.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            };
        }
    };

    let repo_root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let data_dir = cases::data_dir(&repo_root);
    if let Some([mode, engine, name]) = &args.child {
        return on_case(&data_dir, name, |case| {
            instructions::child(mode, engine, case)
        });
    }
    if args.floor {
        let rounds = args.settings.rounds;
        return on_case(&data_dir, floor::CASE, |case| {
            floor::report(case, rounds, args.count)
        });
    }
    let keep = |name: &str| {
        let name = name.to_lowercase();
        args.filters.is_empty() || args.filters.iter().any(|f| name.contains(f.as_str()))
    };
    let cases = match cases::load(&data_dir, &keep) {
        Ok(cases) if cases.is_empty() => {
            eprintln!("error: no case matches the filter");
            return ExitCode::FAILURE;
        }
        Ok(cases) => cases,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };

    if args.text {
        return match text::report(&cases, args.settings.rounds) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        };
    }
    if args.cache_penalty {
        return match cache::report(&cases, args.settings.rounds) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        };
    }
    if args.instructions {
        return match instructions::profiles(&args.profiles, &repo_root) {
            Ok(profiles) => count_instructions(&profiles, &cases),
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        };
    }
    println!(
        "# mcp-jsonschema vs jsonschema 0.61.2 vs boon 0.6.1\n\n\
         {} cases from {}; {} rounds, batches of ~{} ms; figures are medians.\n\
         `format` is asserted up to draft 7, not from 2019-09 on (every engine alike).\n\
         Ratios are ours/theirs: below 1 ours is faster (or smaller); within 10% a tie.",
        cases.len(),
        relative(&data_dir, &repo_root),
        args.settings.rounds,
        args.settings.batch.as_millis()
    );

    let started = Instant::now();
    let mut results = Vec::with_capacity(cases.len());
    for (i, case) in cases.iter().enumerate() {
        eprint!("[{}/{}] {} ... ", i + 1, cases.len(), case.name);
        let _ = std::io::stderr().flush();
        let case_started = Instant::now();
        results.push(measure::measure(case, args.settings));
        eprintln!("{:.1} s", case_started.elapsed().as_secs_f64());
    }
    print!("{}", report::render(&results));
    eprintln!("done in {:.0} s", started.elapsed().as_secs_f64());
    ExitCode::SUCCESS
}

/// Runs `run` on the case called `name`, loaded alone; an error (or no such case) is
/// printed and fails the process.
fn on_case(
    data_dir: &Path,
    name: &str,
    run: impl FnOnce(&cases::Case) -> Result<(), String>,
) -> ExitCode {
    let exact = |case: &str| case == name;
    let result = cases::load(data_dir, &exact).and_then(|cases| match cases.first() {
        Some(case) => run(case),
        None => Err(format!("no case {name:?}")),
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `--instructions`: every case, engine and child mode under callgrind with each profile's
/// binary, two runs at a time (one per core), then the tables.
fn count_instructions(profiles: &[instructions::Profile], cases: &[cases::Case]) -> ExitCode {
    use instructions::{CaseCounts, Mode, COUNTED};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let scratch =
        std::env::temp_dir().join(format!("mcp-jsonschema-callgrind-{}", std::process::id()));
    let started = Instant::now();
    // Every run: (profile, case, engine, mode), as indices into the lists.
    let mut jobs = Vec::new();
    for p in 0..profiles.len() {
        for c in 0..cases.len() {
            for e in 0..COUNTED.len() {
                for mode in [Mode::Fresh, Mode::Unseen] {
                    jobs.push((p, c, e, mode));
                }
            }
        }
    }
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    // Per profile, case and engine: the phases counted so far, or why a run failed.
    type Phases = Result<Vec<(&'static str, u64)>, String>;
    let phases: Mutex<Vec<Vec<[Phases; 2]>>> = Mutex::new(
        (0..profiles.len())
            .map(|_| {
                (0..cases.len())
                    .map(|_| [Ok(Vec::new()), Ok(Vec::new())])
                    .collect()
            })
            .collect(),
    );
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(p, c, e, mode)) = jobs.get(i) else {
                    break;
                };
                let (profile, case, engine) = (&profiles[p], &cases[c], COUNTED[e]);
                let run = instructions::run_child(
                    profile,
                    mode,
                    engine,
                    case,
                    &scratch.join(i.to_string()),
                );
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                eprintln!(
                    "[{n}/{}] {} {} {} {mode:?}",
                    jobs.len(),
                    profile.name,
                    case.name,
                    engine.name()
                );
                if let Ok(mut phases) = phases.lock() {
                    let slot = &mut phases[p][c][e];
                    match (run, slot.as_mut()) {
                        (Ok(run), Ok(so_far)) => so_far.extend(run),
                        (Err(e), _) => *slot = Err(e),
                        (Ok(_), Err(_)) => {}
                    }
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&scratch);
    let phases = phases.into_inner().unwrap_or_default();
    let results: Vec<CaseCounts> = (cases.iter().enumerate())
        .map(|(c, case)| CaseCounts {
            name: case.name.clone(),
            instances: case.instances.len(),
            counts: (profiles.iter().zip(&phases))
                .map(|(profile, per_case)| {
                    let mut engines =
                        per_case[c].iter().zip(COUNTED).map(|(run, engine)| {
                            match run
                                .as_ref()
                                .map_err(String::clone)
                                .and_then(|phases| instructions::counts(case, phases))
                            {
                                Ok(counts) => Some(counts),
                                Err(e) => {
                                    eprintln!(
                                        "{} / {} / {}: {e}",
                                        profile.name,
                                        case.name,
                                        engine.name()
                                    );
                                    None
                                }
                            }
                        });
                    [engines.next().flatten(), engines.next().flatten()]
                })
                .collect(),
        })
        .collect();
    print!("{}", instructions::render(profiles, &results));
    eprintln!("done in {:.0} s", started.elapsed().as_secs_f64());
    ExitCode::SUCCESS
}

/// `path` relative to `base` (`../shared/bench-data`), so reports name no machine's
/// directories; as given when the two share no prefix.
fn relative(path: &Path, base: &Path) -> String {
    let (Ok(path), Ok(base)) = (path.canonicalize(), base.canonicalize()) else {
        return path.display().to_string();
    };
    let (mut p, mut b) = (path.components().peekable(), base.components().peekable());
    while let (Some(x), Some(y)) = (p.peek(), b.peek()) {
        if x != y {
            break;
        }
        p.next();
        b.next();
    }
    let mut out = std::path::PathBuf::new();
    for _ in b {
        out.push("..");
    }
    out.extend(p);
    out.display().to_string()
}
