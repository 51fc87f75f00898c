//! Runs the official JSON-Schema-Test-Suite against `mcp_jsonschema`.
//!
//! The suite lives in `json-schema-test-suite/` at the repository root; fill it
//! with `scripts/fetch-suite.sh` first. Then:
//!
//! ```text
//! cargo test --test suite                                   # all five dialects
//! SUITE_DIALECTS=draft2020-12 cargo test --test suite       # comma-separated list
//! SUITE_FILTER=ref cargo test --test suite                  # substring of e.g. "draft7/refRemote.json"
//! SUITE_VERBOSE=1 cargo test --test suite                   # also list optional failures
//! ```
//!
//! For each dialect (`draft2020-12`, `draft2019-09`, `draft7`, `draft6`,
//! `draft4`) three directories are run: the required tests (files directly in
//! `tests/<dialect>/`), `optional/` and `optional/format/`. Every file under
//! `remotes/` is registered as a resource at `http://localhost:1234/<path>`, those
//! of dialects not run here (`draft-next`, `draft3`) included: a registered document is
//! read only when a reference reaches it, so an unknown dialect in one that nothing
//! refers to breaks no build.
//!
//! Each test must give the expected verdict from `is_valid`, and `validate`,
//! `iter_errors` and `evaluate` (whose annotating program is built for every schema)
//! must agree with `is_valid`. A schema that fails to build fails
//! every test of its group; a panic fails only the test it happened in.
//!
//! Only required tests decide the exit status. A required test that fails must
//! be listed in `tests/suite/expected-failures.txt` (format described there);
//! a listed test that passes must be removed from the list. The output ends
//! with `suite: N passed, M failed`, where M counts every reason the run fails.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::env;
use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use mcp_jsonschema::{Draft, JsonError, Validator};
use serde_json::Value;

const EXPECTED_FAILURES_FILE: &str = "tests/suite/expected-failures.txt";
/// A dialect: its directory name under `tests/` and the draft it runs with.
struct Dialect {
    name: &'static str,
    draft: Draft,
}

const DIALECTS: [Dialect; 5] = [
    Dialect {
        name: "draft2020-12",
        draft: Draft::Draft202012,
    },
    Dialect {
        name: "draft2019-09",
        draft: Draft::Draft201909,
    },
    Dialect {
        name: "draft7",
        draft: Draft::Draft7,
    },
    Dialect {
        name: "draft6",
        draft: Draft::Draft6,
    },
    Dialect {
        name: "draft4",
        draft: Draft::Draft4,
    },
];

/// The three directories run for each dialect.
#[derive(Clone, Copy, PartialEq)]
enum Section {
    Required,
    Optional,
    Format,
}

impl Section {
    const ALL: [Self; 3] = [Self::Required, Self::Optional, Self::Format];

    /// Path below `tests/<dialect>/`; only the files directly in it belong to the section.
    fn subdir(self) -> &'static str {
        match self {
            Self::Required => "",
            Self::Optional => "optional",
            Self::Format => "optional/format",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Self::Required => "required",
            Self::Optional => "optional",
            Self::Format => "optional/format",
        }
    }
}

// ---------------------------------------------------------------------------
// Configuration
// ---------------------------------------------------------------------------

/// What to run, from the `SUITE_*` environment variables.
struct Config {
    dialects: Vec<&'static Dialect>,
    filter: Option<String>,
    verbose: bool,
}

impl Config {
    fn from_env() -> Result<Self, String> {
        let dialects = match non_empty_env("SUITE_DIALECTS") {
            None => DIALECTS.iter().collect(),
            Some(list) => list
                .split(',')
                .map(|name| find_dialect(name.trim()))
                .collect::<Result<_, _>>()?,
        };
        Ok(Self {
            dialects,
            filter: non_empty_env("SUITE_FILTER"),
            verbose: non_empty_env("SUITE_VERBOSE").is_some_and(|value| value != "0"),
        })
    }

    /// Whether every test of the suite runs (so stale expected failures can be detected).
    fn runs_everything(&self) -> bool {
        self.filter.is_none() && self.dialects.len() == DIALECTS.len()
    }

    fn selects(&self, file_id: &str) -> bool {
        match &self.filter {
            Some(filter) => file_id.contains(filter.as_str()),
            None => true,
        }
    }
}

fn non_empty_env(name: &str) -> Option<String> {
    env::var(name).ok().filter(|value| !value.trim().is_empty())
}

fn find_dialect(name: &str) -> Result<&'static Dialect, String> {
    DIALECTS
        .iter()
        .find(|dialect| dialect.name == name)
        .ok_or_else(|| {
            let known: Vec<&str> = DIALECTS.iter().map(|dialect| dialect.name).collect();
            format!(
                "unknown dialect {name:?} in SUITE_DIALECTS; known: {}",
                known.join(", ")
            )
        })
}

#[path = "suite/load.rs"]
mod load;

use load::*;

// ---------------------------------------------------------------------------
// Running tests
// ---------------------------------------------------------------------------

/// Names one test, as `dialect/file :: group :: test` (the expected-failures key).
struct TestId {
    file: String,
    group: String,
    test: String,
}

impl fmt::Display for TestId {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            formatter,
            "{} :: {} :: {}",
            self.file, self.group, self.test
        )
    }
}

struct TestResult {
    id: TestId,
    /// Why the test failed; `None` if it passed.
    failure: Option<String>,
}

/// Builds the validator for one schema of the dialect being run.
type Compile = dyn Fn(&Value) -> Result<Validator, String>;

/// A compiler for `draft` with every remote registered; the options are built once.
/// Builds validators for one dialect, with every remote registered. `optional/format`
/// assumes `format` is asserted, so that section asks for it (`assert_formats`).
fn dialect_compiler(
    draft: Draft,
    remotes: &[Remote],
    assert_formats: bool,
) -> impl Fn(&Value) -> Result<Validator, String> {
    // Annotations on: `evaluate` then runs the annotating program, whose verdicts are
    // checked against the suite too (see `check_case`).
    let base = Validator::options()
        .with_draft(draft)
        .with_annotations(true);
    let base = if assert_formats {
        base.with_format_assertion(true)
    } else {
        base
    };
    let options = remotes.iter().fold(base, |options, remote| {
        options.with_resource(&remote.uri, remote.document.clone())
    });
    move |schema| options.build(schema).map_err(|error| error.to_string())
}

fn run_file(path: &Path, file_id: &str, compile: &Compile) -> Vec<TestResult> {
    load_test_file(path)
        .iter()
        .flat_map(|group| run_group(group, file_id, compile))
        .collect()
}

fn run_group(group: &TestGroup, file_id: &str, compile: &Compile) -> Vec<TestResult> {
    let built = match catch_panic(|| compile(&group.schema)) {
        Ok(Ok(validator)) => Ok(validator),
        Ok(Err(error)) => Err(format!("build error: {error}")),
        Err(panic) => Err(format!("panic while building: {panic}")),
    };
    let result_of = |case: &TestCase| TestResult {
        id: TestId {
            file: file_id.to_owned(),
            group: group.description.clone(),
            test: case.description.clone(),
        },
        failure: match &built {
            Ok(validator) => run_case(validator, case).err(),
            Err(reason) => Some(reason.clone()),
        },
    };
    group.tests.iter().map(result_of).collect()
}

fn run_case(validator: &Validator, case: &TestCase) -> Result<(), String> {
    match catch_panic(|| check_case(validator, case)) {
        Ok(verdict) => verdict,
        Err(panic) => Err(format!("panic: {panic}")),
    }
}

/// Checks the verdict of `is_valid`, then that `validate` and `iter_errors` agree with it.
fn check_case(validator: &Validator, case: &TestCase) -> Result<(), String> {
    let is_valid = validator.is_valid(&case.data);
    let validated = validator
        .validate(&case.data)
        .map_err(|error| error.to_string());
    if is_valid != case.valid {
        let detail = match &validated {
            Err(error) if !is_valid => format!(" ({error})"),
            _ => String::new(),
        };
        return Err(format!(
            "expected {}, got {}{detail}",
            validity(case.valid),
            validity(is_valid)
        ));
    }
    if validated.is_ok() != is_valid {
        return Err(disagreement("validate()", is_valid, validated.err()));
    }
    let first_error = validator
        .iter_errors(&case.data)
        .next()
        .map(|error| error.to_string());
    if first_error.is_none() != is_valid {
        return Err(disagreement("iter_errors()", is_valid, first_error));
    }
    // The instance as JSON text, read in place: the same verdict and the same first error,
    // its members as `serde_json` writes them (byte order) and reversed.
    for text in [
        serde_json::to_string(&case.data).unwrap_or_default(),
        reversed(&case.data),
    ] {
        let from_text = validator.is_valid_json(text.as_bytes());
        if from_text != Ok(is_valid) {
            return Err(format!(
                "is_valid() is {is_valid} but is_valid_json({text}) is {from_text:?}"
            ));
        }
        let validated_text = match validator.validate_json(text.as_bytes()) {
            Ok(()) => Ok(()),
            Err(JsonError::Invalid(error)) => Err(error.to_string()),
            Err(JsonError::Syntax(error)) => return Err(format!("validate_json({text}): {error}")),
        };
        if validated_text != validated {
            return Err(format!(
                "validate() and validate_json({text}) disagree: {validated:?}, {validated_text:?}"
            ));
        }
    }
    // The annotating program (debug builds assert inside `evaluate` that its own verdict
    // is the fast one's).
    let evaluation = validator.evaluate(&case.data);
    let first_error = evaluation.errors().next().map(|error| error.to_string());
    if evaluation.valid() != is_valid || first_error.is_none() != is_valid {
        return Err(disagreement("evaluate()", is_valid, first_error));
    }
    Ok(())
}

/// `value` as JSON text with every object's members in reverse byte order: a view in an
/// order of its own must give the same verdicts.
fn reversed(value: &Value) -> String {
    match value {
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(reversed).collect();
            format!("[{}]", items.join(","))
        }
        Value::Object(map) => {
            let members: Vec<String> = (map.iter().rev())
                .map(|(key, value)| format!("{}:{}", Value::from(key.as_str()), reversed(value)))
                .collect();
            format!("{{{}}}", members.join(","))
        }
        scalar => scalar.to_string(),
    }
}

fn validity(valid: bool) -> &'static str {
    if valid {
        "valid"
    } else {
        "invalid"
    }
}

fn disagreement(method: &str, is_valid: bool, error: Option<String>) -> String {
    match error {
        Some(error) => format!("is_valid() is true but {method} reports an error: {error}"),
        None => format!("is_valid() is {is_valid} but {method} reports no error"),
    }
}

// ---------------------------------------------------------------------------
// Panics
// ---------------------------------------------------------------------------

thread_local! {
    /// Set while a panic is being caught, to keep the panic hook quiet.
    static CATCHING: Cell<bool> = const { Cell::new(false) };
    /// Where the last caught panic happened, recorded by the panic hook.
    static PANIC_LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Silences panics inside [`catch_panic`]; other panics are reported as usual.
fn install_quiet_panic_hook() {
    let default_hook = panic::take_hook();
    panic::set_hook(Box::new(move |info| {
        if CATCHING.with(Cell::get) {
            PANIC_LOCATION
                .with(|location| *location.borrow_mut() = info.location().map(ToString::to_string));
        } else {
            default_hook(info);
        }
    }));
}

/// Runs `body`, turning a panic into its message and location.
fn catch_panic<T>(body: impl FnOnce() -> T) -> Result<T, String> {
    CATCHING.with(|catching| catching.set(true));
    let outcome = panic::catch_unwind(AssertUnwindSafe(body));
    CATCHING.with(|catching| catching.set(false));
    outcome.map_err(|payload| {
        let location = PANIC_LOCATION.with(|location| location.borrow_mut().take());
        let message = panic_message(payload.as_ref());
        location.map_or_else(
            || message.clone(),
            |location| format!("{message} (at {location})"),
        )
    })
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(message) = payload.downcast_ref::<&str>() {
        (*message).to_owned()
    } else if let Some(message) = payload.downcast_ref::<String>() {
        message.clone()
    } else {
        "panic with a non-string payload".to_owned()
    }
}

// ---------------------------------------------------------------------------
// Expected failures
// ---------------------------------------------------------------------------

/// The required tests known to fail, from [`EXPECTED_FAILURES_FILE`].
struct ExpectedFailures {
    /// Keyed by the test's name, as [`TestId`] displays it.
    entries: HashMap<String, ExpectedFailure>,
}

struct ExpectedFailure {
    line_number: usize,
    /// Whether the run met the test.
    seen: bool,
}

impl ExpectedFailures {
    /// Parses lines `dialect/file :: group :: test  # reason`; blank and `#` lines are comments.
    fn load(path: &Path) -> Self {
        let text = fs::read_to_string(path)
            .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
        let mut entries = HashMap::new();
        for (index, line) in text.lines().enumerate() {
            let line_number = index + 1;
            let Some(key) = parse_expected_failure(line) else {
                continue;
            };
            let key =
                key.unwrap_or_else(|error| panic!("{}:{line_number}: {error}", path.display()));
            if let Some(first) = entries.insert(
                key,
                ExpectedFailure {
                    line_number,
                    seen: false,
                },
            ) {
                panic!(
                    "{}:{line_number}: duplicate of line {}",
                    path.display(),
                    first.line_number
                );
            }
        }
        Self { entries }
    }

    /// Whether `id` is listed, remembering that it was seen.
    fn check_off(&mut self, id: &TestId) -> bool {
        self.entries
            .get_mut(&id.to_string())
            .map(|entry| entry.seen = true)
            .is_some()
    }

    /// Entries that matched no test, with their line numbers, in file order.
    fn unseen(&self) -> Vec<(usize, &str)> {
        let unseen = self.entries.iter().filter(|(_, entry)| !entry.seen);
        let mut unseen: Vec<(usize, &str)> = unseen
            .map(|(key, entry)| (entry.line_number, key.as_str()))
            .collect();
        unseen.sort_unstable();
        unseen
    }
}

/// The normalised key of one line, `None` for a comment or blank line.
fn parse_expected_failure(line: &str) -> Option<Result<String, String>> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    let Some((key, reason)) = line.split_once(" # ") else {
        return Some(Err("missing \" # reason\" after the test name".to_owned()));
    };
    if reason.trim().is_empty() {
        return Some(Err("empty reason after \" # \"".to_owned()));
    }
    let parts: Vec<&str> = key.split(" :: ").map(str::trim).collect();
    if parts.len() != 3 || parts.iter().any(|part| part.is_empty()) {
        return Some(Err(
            "expected `dialect/file :: group :: test  # reason`".to_owned()
        ));
    }
    Some(Ok(parts.join(" :: ")))
}

// ---------------------------------------------------------------------------
// Tallying and reporting
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, Default)]
struct Tally {
    passed: usize,
    total: usize,
}

impl Tally {
    fn of(results: &[TestResult]) -> Self {
        let passed = results
            .iter()
            .filter(|result| result.failure.is_none())
            .count();
        Self {
            passed,
            total: results.len(),
        }
    }

    fn add(&mut self, other: Self) {
        self.passed += other.passed;
        self.total += other.total;
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.pad(&format!("{}/{}", self.passed, self.total))
    }
}

/// Everything the final summary needs.
#[derive(Default)]
struct Report {
    /// Per dialect, the tally of each section that ran.
    dialects: Vec<(&'static str, Vec<(Section, Tally)>)>,
    required_passed: usize,
    expected_failures: usize,
    unexpected_failures: Vec<(TestId, String)>,
    unexpectedly_passing: Vec<TestId>,
    optional_failures: Vec<(TestId, String)>,
}

impl Report {
    /// Required results that fail the run (stale expected failures aside).
    fn unexpected_results(&self) -> usize {
        self.unexpected_failures.len() + self.unexpectedly_passing.len()
    }

    /// Files one result of `section`, comparing required ones with the expected failures.
    fn record(&mut self, section: Section, result: TestResult, expected: &mut ExpectedFailures) {
        if section != Section::Required {
            if let Some(reason) = result.failure {
                self.optional_failures.push((result.id, reason));
            }
            return;
        }
        match (result.failure, expected.check_off(&result.id)) {
            (None, false) => self.required_passed += 1,
            (None, true) => self.unexpectedly_passing.push(result.id),
            (Some(_), true) => self.expected_failures += 1,
            (Some(reason), false) => self.unexpected_failures.push((result.id, reason)),
        }
    }
}

fn print_file_row(name: &str) {
    print!("  {name:<48}");
    // Flushed before the file runs, so a crash (e.g. a stack overflow) shows which file caused it.
    io::stdout().flush().expect("stdout is writable");
}

fn print_section_total(dialect: &str, section: Section, tally: Tally) {
    let note = if section == Section::Required {
        ""
    } else {
        " (not required)"
    };
    println!("{dialect} {}: {tally}{note}", section.label());
}

/// Prints per-dialect totals and every problem; `stale` lists unmatched expected failures.
fn print_summary(report: &Report, stale: &[(usize, &str)], config: &Config) {
    println!("\n== summary ==");
    if report.dialects.is_empty() {
        println!(
            "no test file matches SUITE_FILTER={:?}",
            config.filter.as_deref().unwrap_or_default()
        );
    }
    for (dialect, sections) in &report.dialects {
        let parts: Vec<String> = sections
            .iter()
            .map(|(section, tally)| format!("{}: {tally}", section.label()))
            .collect();
        println!("{dialect} {}", parts.join(" | "));
    }
    if config.verbose {
        print_failures(
            "optional failures (not required)",
            &report.optional_failures,
        );
    }
    print_failures("unexpected failures", &report.unexpected_failures);
    if !report.unexpectedly_passing.is_empty() {
        println!(
            "\nunexpectedly passing: remove from {EXPECTED_FAILURES_FILE} ({}):",
            report.unexpectedly_passing.len()
        );
        report
            .unexpectedly_passing
            .iter()
            .for_each(|id| println!("  {id}"));
    }
    if !stale.is_empty() {
        println!("\nstale entries: no such required test, fix or remove from {EXPECTED_FAILURES_FILE} ({}):", stale.len());
        stale
            .iter()
            .for_each(|(line, key)| println!("  line {line}: {key}"));
    }
    if report.expected_failures > 0 {
        println!(
            "\n{} required tests failed as listed in {EXPECTED_FAILURES_FILE}",
            report.expected_failures
        );
    }
}

fn print_failures(title: &str, failures: &[(TestId, String)]) {
    if failures.is_empty() {
        return;
    }
    println!("\n{title} ({}):", failures.len());
    for (id, reason) in failures {
        println!("  {id}\n      {reason}");
    }
}

// ---------------------------------------------------------------------------
// Driver
// ---------------------------------------------------------------------------

/// A test file, with the id it is reported and filtered by.
struct TestFile {
    path: PathBuf,
    /// `dialect/[optional/[format/]]file.json`, relative to the suite's `tests/`.
    id: String,
}

impl TestFile {
    fn new(tests_dir: &Path, path: PathBuf) -> Self {
        Self {
            id: slash_path(tests_dir, &path),
            path,
        }
    }

    fn name(&self) -> &str {
        self.id.rsplit('/').next().unwrap_or(&self.id)
    }
}

/// One run over the selected dialects, accumulating the report.
struct SuiteRun<'a> {
    config: &'a Config,
    tests_dir: PathBuf,
    remotes: &'a [Remote],
    expected: ExpectedFailures,
    report: Report,
}

impl SuiteRun<'_> {
    fn run_dialect(&mut self, dialect: &Dialect) {
        let dialect_dir = self.tests_dir.join(dialect.name);
        assert!(
            dialect_dir.is_dir(),
            "{} is missing; rerun scripts/fetch-suite.sh",
            dialect_dir.display()
        );
        let compile = dialect_compiler(dialect.draft, self.remotes, false);
        let compile_formats = dialect_compiler(dialect.draft, self.remotes, true);
        let mut tallies = Vec::new();
        for section in Section::ALL {
            let files = self.selected_files(&dialect_dir.join(section.subdir()));
            if !files.is_empty() {
                println!("\n{}/{}", dialect.name, section.subdir());
                let compile: &Compile = match section {
                    Section::Format => &compile_formats,
                    _ => &compile,
                };
                let tally = self.run_section(section, &files, compile);
                print_section_total(dialect.name, section, tally);
                tallies.push((section, tally));
            }
        }
        if !tallies.is_empty() {
            self.report.dialects.push((dialect.name, tallies));
        }
    }

    fn selected_files(&self, dir: &Path) -> Vec<TestFile> {
        let files = json_files_in(dir)
            .into_iter()
            .map(|path| TestFile::new(&self.tests_dir, path));
        files.filter(|file| self.config.selects(&file.id)).collect()
    }

    fn run_section(&mut self, section: Section, files: &[TestFile], compile: &Compile) -> Tally {
        let mut tally = Tally::default();
        for file in files {
            print_file_row(file.name());
            let results = run_file(&file.path, &file.id, compile);
            let file_tally = Tally::of(&results);
            println!(" {file_tally:>9}");
            tally.add(file_tally);
            for result in results {
                self.report.record(section, result, &mut self.expected);
            }
        }
        tally
    }
}

fn main() -> ExitCode {
    let config = match Config::from_env() {
        Ok(config) => config,
        Err(message) => {
            eprintln!("suite: {message}");
            return ExitCode::FAILURE;
        }
    };
    let repo_root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let suite_dir = repo_root.join(SUITE_DIR);
    if !suite_dir.join("tests").is_dir() {
        eprintln!(
            "suite: {} not found; run scripts/fetch-suite.sh first",
            suite_dir.display()
        );
        return ExitCode::FAILURE;
    }
    install_quiet_panic_hook();
    let remotes = load_remotes(&suite_dir.join("remotes"));
    let mut run = SuiteRun {
        config: &config,
        tests_dir: suite_dir.join("tests"),
        remotes: &remotes,
        expected: ExpectedFailures::load(&repo_root.join(EXPECTED_FAILURES_FILE)),
        report: Report::default(),
    };
    for dialect in &config.dialects {
        run.run_dialect(dialect);
    }
    // Entries can only be judged stale when the run met every test.
    let stale = if config.runs_everything() {
        run.expected.unseen()
    } else {
        Vec::new()
    };
    print_summary(&run.report, &stale, &config);
    let failed = run.report.unexpected_results() + stale.len();
    println!(
        "suite: {} passed, {failed} failed",
        run.report.required_passed
    );
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
