//! Load and churn: the library shared by many threads, for many rounds.
//!
//! * One [`Validator`] per benchmark case and one [`SchemaCache`] are shared by 2, 4 and
//!   8 threads (more threads than this machine's 2 cores, so they are preempted in the
//!   middle of validations). Each thread goes over every case, each from another one, with
//!   the case's validator and with the tool schema the cache hands back for it: every
//!   verdict (`is_valid`, and `validate`'s error: kind, locations and message) is the
//!   single-threaded one.
//! * The resident memory is flat after warm-up. The threads of a count live across its
//!   rounds (as a server's pool would); after the first round of each count (which fills
//!   the per-thread caches of the regex engine, and the allocator's per-thread arenas),
//!   the memory at the end of the later rounds stays within [`FLAT`] of where the second
//!   round ended.
//! * A cache fed ten times its capacity of distinct tool schemas never holds more than
//!   its capacity, fed from one thread or from several at once (whose verdicts with the
//!   schemas it hands back are the single-threaded ones too). Its
//!   [`memory_usage`](SchemaCache::memory_usage) is within 10% of the resident memory the
//!   process gained for it once full, and within 10% of the heap its entries hold both
//!   then and after all the churn, when the heap is where it was once full.
//!
//! How memory is measured: `RssAnon` of `/proc/self/status` (the resident anonymous
//! pages: the heap and the thread stacks, not the pages of the program's file, which
//! come and go with the code run). The cache's figures are measured in a process of its
//! own (this test binary, run again for the one ignored test [`churn`]), so that the
//! heap has no holes that other tests freed for the cache's blocks to fill unseen. There
//! the cache is filled from one thread, whose blocks all come from one allocator arena
//! (freed blocks are reused by the next compilations rather than left in another
//! thread's arena), after a warm-up that compiles each schema once (the one-time tables
//! of the regex engine); and it is large (a thousand entries, tens of megabytes) against
//! a page granularity of 4 KiB and the compiler's scratch. Each entry validates its
//! instances when it is added, so that what patterns build on first use counts too.
//! Churn then leaves holes in the heap that the allocator keeps resident (the blocks of
//! evicted entries, too scattered to make whole free pages), so after it the resident
//! memory is over what the entries hold by the allocator's fragmentation, which is
//! bounded ([`FRAGMENTATION`]) but no figure of the cache's own; what the entries hold is
//! then counted by a global allocator that sums the live blocks as glibc sizes them.
//! Without `/proc` (not Linux) the resident-memory checks are skipped, and the report
//! says so.
//!
//! The benchmark data lives outside the repository (`../shared/bench-data`, or
//! `$MCP_JSONSCHEMA_BENCH_DATA`); without it only the embedded MCP cases run, and the
//! test says so. `scripts/soak.sh` runs the same checks for minutes in a release build
//! (the `soak` test, ignored otherwise) and prints the report the README quotes.

mod common;

use common::{cases, compile};
use mcp_jsonschema::mcp::{self, Role, SchemaCache, ToolSchema};
use mcp_jsonschema::{ValidationError, ValidationErrorKind, Validator};
use serde_json::Value;
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicIsize, AtomicUsize, Ordering};
use std::sync::{Barrier, Mutex};
use std::time::{Duration, Instant};

/// How far the resident memory may move over the rounds after the second one of a
/// thread count. A leak of one block (32 bytes) per check would take more than this by
/// the fourth round, even at 2 threads (see [`MIN_CHECKS`]); the readings here move by
/// tens of kilobytes.
const FLAT: usize = 1 << 20;

/// The fewest checks one thread makes per round (passes repeat until then): 2 threads
/// leaking 32 bytes per check would leak 1.3 MB over rounds 3 and 4.
const MIN_CHECKS: usize = 10_000;

/// The tests of this file measure the process's memory: one at a time.
static MEASURING: Mutex<()> = Mutex::new(());

/// What one check of one instance found.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Verdict {
    valid: bool,
    /// `validate`'s error: kind, instance location, schema location, message.
    error: Option<(ValidationErrorKind, String, String, String)>,
}

impl Verdict {
    fn of(valid: bool, first: Result<(), ValidationError>) -> Verdict {
        let error = first.err().map(|e| {
            let (instance, schema) = (e.instance_location().into(), e.schema_location().into());
            (e.kind(), instance, schema, e.to_string())
        });
        Verdict { valid, error }
    }

    fn with_validator(validator: &Validator, instance: &Value) -> Verdict {
        Verdict::of(validator.is_valid(instance), validator.validate(instance))
    }

    fn with_tool(tool: &ToolSchema, instance: &Value) -> Verdict {
        Verdict::of(tool.is_valid(instance), tool.validate(instance))
    }
}

/// The cases, their validators and their tool schemas' roles and verdicts (see
/// [`tool`]), with the single-threaded verdicts.
struct Load {
    cases: Vec<cases::Case>,
    validators: Vec<Validator>,
    expected: Vec<Vec<Verdict>>,
    tools: Vec<Option<(Role, Vec<Verdict>)>>,
    /// What the data left out, for the report.
    note: String,
}

impl Load {
    /// The benchmark cases, at most `per_case` instances of each, the classic ones (a
    /// few instances of megabytes each) only if `classic`.
    fn new(per_case: usize, classic: bool) -> Load {
        let (mut cases, mut note) = load_cases(&|_| true);
        if !classic && cases.iter().any(|case| case.kind == cases::Kind::Classic) {
            cases.retain(|case| case.kind != cases::Kind::Classic);
            note = "the classic cases (instances of megabytes) are left to the soak".into();
        }
        for case in &mut cases {
            case.instances.truncate(per_case);
            case.expected.truncate(per_case);
        }
        let validators: Vec<Validator> = cases.iter().map(compile).collect();
        let expected = (cases.iter().zip(&validators))
            .map(|(case, v)| {
                case.instances
                    .iter()
                    .map(|i| Verdict::with_validator(v, i))
                    .collect()
            })
            .collect();
        let tools = cases.iter().map(|case| tool(case, usize::MAX)).collect();
        Load {
            cases,
            validators,
            expected,
            tools,
            note,
        }
    }

    fn tool_count(&self) -> usize {
        self.tools.iter().flatten().count()
    }

    fn instance_count(&self) -> usize {
        self.cases.iter().map(|case| case.instances.len()).sum()
    }

    /// The checks of one pass: each instance with its validator, and with its tool schema.
    fn checks_per_pass(&self) -> usize {
        (self.cases.iter().zip(&self.tools))
            .map(|(case, tool)| case.instances.len() * (1 + usize::from(tool.is_some())))
            .sum()
    }

    /// One pass over every case, from case `start` on; the verdicts that differ from the
    /// single-threaded ones go to `mismatches`.
    fn pass(&self, cache: &SchemaCache, start: usize, mismatches: &mut Vec<String>) {
        let n = self.cases.len();
        for i in (0..n).map(|k| (start + k) % n) {
            let case = &self.cases[i];
            let instances = case.instances.iter().enumerate();
            let got = instances.map(|(j, x)| (j, Verdict::with_validator(&self.validators[i], x)));
            mismatches.extend(differences(&case.name, got, &self.expected[i]));
            if let Some((role, expected)) = &self.tools[i] {
                let tool = cache
                    .get_or_compile(*role, &case.schema)
                    .unwrap_or_else(|e| panic!("{}: compiled once, not again: {e}", case.name));
                let instances = case.instances.iter().enumerate();
                let got = instances.map(|(j, x)| (j, Verdict::with_tool(&tool, x)));
                mismatches.extend(differences(&case.name, got, expected));
            }
        }
    }
}

/// The cases `keep` accepts, and a note when the benchmark data is missing.
fn load_cases(keep: &dyn Fn(&str) -> bool) -> (Vec<cases::Case>, String) {
    let dir = cases::data_dir(Path::new(env!("CARGO_MANIFEST_DIR")));
    let cases = cases::load(&dir, keep).expect("the benchmark cases load");
    let note = match dir.is_dir() {
        true => String::new(),
        false => format!(
            "benchmark data not found at {}: only the {} embedded MCP cases ran",
            dir.display(),
            cases.len()
        ),
    };
    (cases, note)
}

/// The verdicts of `got` that are not the `expected` ones, described.
fn differences(
    case: &str,
    got: impl Iterator<Item = (usize, Verdict)>,
    expected: &[Verdict],
) -> Vec<String> {
    got.filter(|(j, verdict)| *verdict != expected[*j])
        .map(|(j, verdict)| {
            let expected = &expected[j];
            format!("{case} instance {j}: {verdict:?}, single-threaded {expected:?}")
        })
        .collect()
}

/// The role a case's schema takes as a tool schema, and the verdicts on its first
/// `per_case` instances; `None` for a schema that does not compile under the MCP profile
/// (a draft-04 one), and for the classic cases, whose large schemas would make each
/// eviction costly. Input schemas are objects: a schema of another type is an output one.
fn tool(case: &cases::Case, per_case: usize) -> Option<(Role, Vec<Verdict>)> {
    if case.kind == cases::Kind::Classic {
        return None;
    }
    let role = match case.schema.get("type") {
        None => Role::Input,
        Some(t) if t == "object" => Role::Input,
        Some(_) => Role::Output,
    };
    let tool = ToolSchema::new(role, &case.schema, &mcp::profile()).ok()?;
    let instances = &case.instances[..per_case.min(case.instances.len())];
    Some((
        role,
        instances
            .iter()
            .map(|x| Verdict::with_tool(&tool, x))
            .collect(),
    ))
}

/// The process's resident anonymous memory, in bytes (`None` without `/proc`).
fn resident() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("RssAnon:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib << 10)
}

/// One round of a thread count, as the main thread saw it.
struct Round {
    elapsed: Duration,
    resident: Option<usize>,
}

/// What [`run`] found for one thread count.
struct Run {
    threads: usize,
    checks_per_round: usize,
    rounds: Vec<Round>,
    mismatches: Vec<String>,
}

impl Run {
    /// How far the resident memory moved after the second round: the largest and the
    /// smallest reading of the later rounds against the second's.
    fn drift(&self) -> Option<(isize, isize)> {
        let second = self.rounds.get(1)?.resident? as isize;
        let later: Vec<isize> = (self.rounds[2..].iter())
            .map(|round| Some(round.resident? as isize - second))
            .collect::<Option<_>>()?;
        Some((*later.iter().min()?, *later.iter().max()?))
    }

    fn checks_per_second(&self) -> f64 {
        let after_warm_up: Duration = self.rounds[1..].iter().map(|r| r.elapsed).sum();
        let checks = self.checks_per_round * (self.rounds.len() - 1);
        checks as f64 / after_warm_up.as_secs_f64().max(1e-9)
    }
}

/// `threads` threads share `load` and `cache` for at least `min_rounds` rounds and until
/// `duration` has passed; each round, each makes `passes` passes.
fn run(
    load: &Load,
    cache: &SchemaCache,
    threads: usize,
    passes: usize,
    min_rounds: usize,
    duration: Duration,
) -> Run {
    let start = Barrier::new(threads + 1);
    let end = Barrier::new(threads + 1);
    let stop = AtomicBool::new(false);
    let mut rounds = Vec::new();
    let mut mismatches = Vec::new();
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let (start, end, stop) = (&start, &end, &stop);
                s.spawn(move || {
                    let mut mismatches = Vec::new();
                    // Threads start their passes on different cases.
                    let mut at = t * load.cases.len() / threads;
                    loop {
                        start.wait();
                        if stop.load(Ordering::Relaxed) {
                            return mismatches;
                        }
                        for _ in 0..passes {
                            load.pass(cache, at, &mut mismatches);
                            at += 1;
                        }
                        end.wait();
                    }
                })
            })
            .collect();
        let began = Instant::now();
        while rounds.len() < min_rounds || began.elapsed() < duration {
            let round = Instant::now();
            start.wait();
            end.wait();
            rounds.push(Round {
                elapsed: round.elapsed(),
                resident: resident(),
            });
        }
        stop.store(true, Ordering::Relaxed);
        start.wait();
        for worker in workers {
            mismatches.extend(worker.join().expect("a worker panicked"));
        }
    });
    Run {
        threads,
        checks_per_round: threads * passes * load.checks_per_pass(),
        rounds,
        mismatches,
    }
}

/// Runs 2, 4 and 8 threads over `load` with one cache of its tool schemas, and checks
/// verdicts and memory; returns the report's lines.
fn threads(load: &Load, min_rounds: usize, duration: Duration) -> Vec<String> {
    let cache = SchemaCache::new(load.tool_count());
    let passes = MIN_CHECKS.div_ceil(load.checks_per_pass().max(1));
    let mut report = vec![format!(
        "{} cases, {} instances, {} tool schemas in a cache of {}; {} checks per pass, \
         {passes} passes per thread per round",
        load.cases.len(),
        load.instance_count(),
        load.tool_count(),
        cache.capacity(),
        load.checks_per_pass(),
    )];
    report.push(format!(
        "{:>7} {:>6} {:>10} {:>9}  {}",
        "threads", "rounds", "checks", "checks/s", "RSS MiB after round 1, round 2; later rounds"
    ));
    let mib = |bytes: isize| bytes as f64 / f64::from(1 << 20);
    for threads in [2, 4, 8] {
        let run = run(load, &cache, threads, passes, min_rounds, duration);
        assert!(
            run.mismatches.is_empty(),
            "{threads} threads: {} verdicts differ from the single-threaded ones:\n{}",
            run.mismatches.len(),
            run.mismatches[..run.mismatches.len().min(20)].join("\n")
        );
        assert!(cache.len() <= cache.capacity());
        let memory = match (run.rounds[0].resident, run.rounds[1].resident, run.drift()) {
            (Some(first), Some(second), Some((low, high))) => format!(
                "{:.1}, {:.1}; {:+.2} to {:+.2} from round 2",
                mib(first as isize),
                mib(second as isize),
                mib(low),
                mib(high)
            ),
            _ => "not measured: no /proc/self/status".into(),
        };
        report.push(format!(
            "{:>7} {:>6} {:>10} {:>9.0}  {memory}",
            run.threads,
            run.rounds.len(),
            run.checks_per_round * run.rounds.len(),
            run.checks_per_second(),
        ));
        if let Some((low, high)) = run.drift() {
            assert!(
                high.unsigned_abs() <= FLAT && low.unsigned_abs() <= FLAT,
                "{threads} threads: the resident memory moved by {low} to {high} bytes \
                 after the second round (allowed: {FLAT})"
            );
        }
    }
    report
}

/// A tool schema the cache is fed variants of: its role, the schema, the instances each
/// variant validates and their single-threaded verdicts.
struct Tool<'a> {
    role: Role,
    schema: &'a Value,
    instances: &'a [Value],
    expected: Vec<Verdict>,
}

/// The `i`-th distinct schema: the `i % n`-th tool's, titled with `i`.
fn variant<'t, 'a>(tools: &'t [Tool<'a>], i: usize) -> (Role, Value, &'t Tool<'a>) {
    let tool = &tools[i % tools.len()];
    let mut schema = tool.schema.clone();
    if let Value::Object(root) = &mut schema {
        root.insert("title".into(), format!("variant {i}").into());
    }
    (tool.role, schema, tool)
}

/// Compiles the `i`-th variant into `cache` and validates its tool's instances with
/// what the cache hands back; returns the verdicts that are not the single-threaded
/// ones.
fn feed(cache: &SchemaCache, tools: &[Tool], i: usize) -> Vec<String> {
    let (role, schema, tool) = variant(tools, i);
    let compiled = cache
        .get_or_compile(role, &schema)
        .expect("a variant compiles");
    let instances = tool.instances.iter().enumerate();
    let got = instances.map(|(j, x)| (j, Verdict::with_tool(&compiled, x)));
    differences(&format!("variant {i}"), got, &tool.expected)
}

/// The cache's test, in a process of its own (see the module docs): `$LOAD_CHURN` says
/// which tool schemas, how large a cache and how many threads (`mcp 1000 4` by
/// default: the MCP cases' schemas; `all` adds the benchmark cases' but the classic
/// ones). Feeds a cache ten times its capacity of distinct variants of them from one
/// thread, measuring its memory, then as many again from the threads at once into
/// another cache; prints the report's lines.
#[test]
#[ignore = "run in a process of its own by a_cache_fed_ten_times_its_capacity_stays_within_it"]
fn churn() {
    COUNTING.store(true, Ordering::Relaxed);
    let plan = std::env::var("LOAD_CHURN").unwrap_or_else(|_| "mcp 1000 4".into());
    let mut words = plan.split_whitespace();
    let all = words.next() == Some("all");
    let mut number = || -> usize {
        (words.next().and_then(|word| word.parse().ok()))
            .expect("$LOAD_CHURN is `mcp|all <capacity> <threads>`")
    };
    let (capacity, threads) = (number(), number());
    // Every case is kept whole: cases dropped or cut short would leave holes in the heap.
    let dir = cases::data_dir(Path::new(env!("CARGO_MANIFEST_DIR")));
    let benchmark = dir.join("jsonschema-benchmark");
    let keep = |name: &str| name.starts_with("mcp-") || all && benchmark.join(name).is_dir();
    let (cases, note) = load_cases(&keep);
    const PER_TOOL: usize = 8;
    let tools: Vec<Tool> = (cases.iter())
        .filter_map(|case| {
            let (role, expected) = tool(case, PER_TOOL)?;
            let instances = &case.instances[..expected.len()];
            Some(Tool {
                role,
                schema: &case.schema,
                instances,
                expected,
            })
        })
        .collect();
    let fed = 10 * capacity;
    let mut mismatches = Vec::new();
    // Warm-up: each schema compiled once, and its instances validated.
    for i in 0..tools.len() {
        mismatches.extend(feed(&SchemaCache::new(1), &tools, usize::MAX - i));
    }

    // One thread feeds the cache.
    let cache = SchemaCache::new(capacity);
    let before = (resident(), LIVE.load(Ordering::Relaxed));
    let measure = |cache: &SchemaCache| Figures {
        reported: cache.memory_usage(),
        live: LIVE.load(Ordering::Relaxed) - before.1,
        resident: Option::zip(resident(), before.0).map(|(r, b)| r as isize - b as isize),
    };
    for i in 0..capacity {
        mismatches.extend(feed(&cache, &tools, i));
    }
    assert_eq!(cache.len(), capacity);
    let full = measure(&cache);
    for i in capacity..fed {
        mismatches.extend(feed(&cache, &tools, i));
        assert!(cache.len() <= capacity, "{} entries", cache.len());
    }
    assert_eq!(cache.len(), capacity);
    let after = measure(&cache);
    drop(cache);

    // The threads feed one cache distinct schemas at once.
    let cache = SchemaCache::new(capacity);
    let next = AtomicUsize::new(0);
    let most = AtomicUsize::new(0);
    let threaded = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= fed {
                    break;
                }
                let differ = feed(&cache, &tools, fed + i);
                threaded
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .extend(differ);
                most.fetch_max(cache.len(), Ordering::Relaxed);
            });
        }
    });
    mismatches.extend(threaded.into_inner().unwrap_or_else(|e| e.into_inner()));
    let most = most.into_inner();

    let mut report = vec![];
    if !note.is_empty() {
        report.push(note);
    }
    report.push(format!(
        "{} tool schemas, {PER_TOOL} instances each at most; a cache of {capacity} fed {fed} \
         distinct variants from one thread, then {fed} more from {threads} threads at once \
         (at most {most} held)",
        tools.len()
    ));
    report.push(format!(
        "{:>8} {:>16} {:>14} {:>14} {:>9} {:>9}",
        "", "memory_usage()", "heap gained", "RSS gained", "/heap", "/RSS"
    ));
    report.push(full.line("full"));
    report.push(after.line("fed 10x"));
    for line in &report {
        println!("{REPORT}{line}");
    }

    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    assert!(
        most <= capacity,
        "the cache held {most} entries, capacity {capacity}"
    );
    // The figures are those of the heap the entries hold, full and after the churn: the
    // evicted entries left nothing behind.
    for figures in [&full, &after] {
        let ratio = figures.reported as f64 / figures.live as f64;
        assert!(
            (0.9..=1.1).contains(&ratio),
            "memory_usage() / heap gained: {ratio}"
        );
    }
    let kept = after.live as f64 / full.live as f64;
    assert!(
        (0.98..=1.02).contains(&kept),
        "the heap moved by {kept} with the churn"
    );
    // The resident memory the full cache took is what it reports; the churn adds the
    // allocator's fragmentation (holes too small to give back), which must stay bounded.
    if let (Some(full_resident), Some(after_resident)) = (full.resident, after.resident) {
        let ratio = full.reported as f64 / full_resident as f64;
        assert!(
            (0.9..=1.1).contains(&ratio),
            "memory_usage() / RSS gained, full: {ratio}"
        );
        let fragmented = after_resident as f64 / full_resident as f64;
        assert!(
            fragmented <= FRAGMENTATION,
            "the churn grew the RSS by {fragmented}"
        );
    }
}

/// How much more resident memory a cache may take after ten times its capacity of
/// churn than once full: the blocks of evicted entries leave holes that glibc's `malloc`
/// keeps (measured: 1.13 to 1.16 in the test build, 1.05 in release; glibc's
/// `malloc_trim(0)` gave none of it back, so the holes are smaller than pages).
const FRAGMENTATION: f64 = 1.25;

/// What [`churn`] measured at one point: the cache's `memory_usage()`, and the heap and
/// the resident memory the process gained since the cache was made.
struct Figures {
    reported: usize,
    live: isize,
    resident: Option<isize>,
}

impl Figures {
    fn line(&self, when: &str) -> String {
        let mib = |bytes: f64| bytes / f64::from(1 << 20);
        let resident = self
            .resident
            .map_or("?".into(), |r| format!("{:.1} MiB", mib(r as f64)));
        let per_resident = self.resident.map_or("?".into(), |r| {
            format!("{:.3}", self.reported as f64 / r as f64)
        });
        format!(
            "{when:>8} {:>12.1} MiB {:>10.1} MiB {resident:>14} {:>9.3} {per_resident:>9}",
            mib(self.reported as f64),
            mib(self.live as f64),
            self.reported as f64 / self.live as f64,
        )
    }
}

/// A global allocator that counts the live heap while [`COUNTING`] is on (in [`churn`]
/// only), each block as the library's figures count it: its size and an 8-byte header,
/// rounded up to 16 bytes, 32 at least (glibc's `malloc`).
struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static LIVE: AtomicIsize = AtomicIsize::new(0);

fn block(size: usize) -> isize {
    ((size + 8).next_multiple_of(16).max(32)) as isize
}

// SAFETY: every call goes to the system allocator unchanged; it only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            LIVE.fetch_add(block(layout.size()), Ordering::Relaxed);
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            LIVE.fetch_add(block(layout.size()), Ordering::Relaxed);
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if COUNTING.load(Ordering::Relaxed) {
            LIVE.fetch_sub(block(layout.size()), Ordering::Relaxed);
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            LIVE.fetch_add(block(new_size) - block(layout.size()), Ordering::Relaxed);
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Runs [`churn`] in a process of its own, with `plan` for `$LOAD_CHURN`; returns its
/// report.
fn churn_apart(plan: &str) -> String {
    let exe = std::env::current_exe().expect("the test binary's path");
    let output = std::process::Command::new(exe)
        .args([
            "churn",
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env("LOAD_CHURN", plan)
        .output()
        .expect("the test binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "churn {plan}:\n{stdout}\n{stderr}");
    (stdout.lines())
        .filter_map(|line| Some(format!("{}\n", line.split_once(REPORT)?.1)))
        .collect()
}

/// What starts each line of [`churn`]'s report, among the test harness's.
const REPORT: &str = "report| ";

/// The report's lines, to standard error (shown with `--nocapture`).
fn print(title: &str, note: &str, lines: &[String]) {
    let mut out = format!("{title}\n");
    for line in std::iter::once(note)
        .filter(|n| !n.is_empty())
        .chain(lines.iter().map(String::as_str))
    {
        for line in line.lines() {
            out += &format!("  {line}\n");
        }
    }
    eprint!("{out}");
}

#[test]
fn threads_share_validators_and_a_cache() {
    let _measuring = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
    let load = Load::new(16, false);
    let report = threads(&load, 4, Duration::ZERO);
    print("load", &load.note, &report);
}

#[test]
fn a_cache_fed_ten_times_its_capacity_stays_within_it() {
    let _measuring = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
    print("churn", "", &[churn_apart("mcp 1000 4")]);
}

/// The soak of `scripts/soak.sh`: every instance of every case, each thread count for
/// `$SOAK_SECONDS` (60 by default), then [`churn`] over every tool schema.
#[test]
#[ignore = "minutes long: run by scripts/soak.sh in a release build"]
fn soak() {
    let _measuring = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
    let seconds = std::env::var("SOAK_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let began = Instant::now();
    let load = Load::new(usize::MAX, true);
    let mut report = vec![load.note.clone()];
    report.extend(threads(&load, 4, Duration::from_secs(seconds)));
    drop(load);
    report.push(churn_apart("all 1000 8"));
    report.push(format!("{:.0} s in all", began.elapsed().as_secs_f64()));
    print("soak", "", &report);
}
