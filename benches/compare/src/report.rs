//! Printing the results: one table per metric, then memory, verdict disagreements,
//! compile failures and our own entry points' consistency.
//!
//! A ratio is ours divided by theirs (below 1: ours is faster or smaller); within 10% of 1
//! it is called a tie. The geometric mean of a ratio column is over the cases where both
//! engines have a figure.

use crate::cases::Dialect;
use crate::engines::ENGINES;
use crate::measure::{CaseResult, EngineResult};
use std::fmt::Write as _;

/// Ratios closer to 1 than this are ties.
const TIE: f64 = 0.10;

/// What a ratio below and above 1 means in a table.
type Words = (&'static str, &'static str);
const SPEED: Words = ("faster", "slower");
const SIZE: Words = ("smaller", "larger");

/// One figure of an engine's result.
type Metric = fn(&EngineResult) -> Option<f64>;

/// The whole report, as text.
pub fn render(results: &[CaseResult]) -> String {
    let mut out = String::new();
    let metrics: [(&str, Metric); 4] = [
        ("compile: median time to compile the schema", |r| r.compile),
        (
            "cold: median time to compile + validate every instance once",
            |r| r.cold,
        ),
        (
            "warm: median time of one is_valid pass over every instance, validator prebuilt",
            |r| r.warm,
        ),
        (
            "error (MCP cases): median time of `validate` + message of the first invalid instance",
            |r| r.error,
        ),
    ];
    for (title, metric) in metrics {
        table(&mut out, title, results, metric, fmt_time, SPEED);
    }
    table(
        &mut out,
        "memory: heap bytes a compiled schema retains (counted by the allocator)",
        results,
        |r| r.retained.map(|b| b as f64),
        |b| fmt_bytes(b as usize),
        SIZE,
    );
    reported_memory(&mut out, results);
    verdicts(&mut out, results);
    failures(&mut out, results);
    out
}

fn table(
    out: &mut String,
    title: &str,
    results: &[CaseResult],
    metric: impl Fn(&EngineResult) -> Option<f64>,
    fmt: fn(f64) -> String,
    words: Words,
) {
    let rows: Vec<&CaseResult> = results
        .iter()
        .filter(|case| case.engines.iter().any(|r| metric(r).is_some()))
        .collect();
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n## {title}\n");
    let _ = writeln!(
        out,
        "{:<24} {:<8} {:>10} {:>10} {:>10}  {:<16} {:<16}",
        "case", "dialect", "ours", "jsonschema", "boon", "ours/jsonschema", "ours/boon"
    );
    let mut logs: [Vec<f64>; 2] = Default::default();
    let mut kind = None;
    for case in rows {
        if kind.is_some_and(|k| k != case.kind) {
            out.push('\n');
        }
        kind = Some(case.kind);
        let values = case.engines.each_ref().map(&metric);
        let cell = |v: Option<f64>| v.map_or_else(|| "n/a".to_owned(), fmt);
        let mut ratios = [String::new(), String::new()];
        for (i, other) in [1, 2].into_iter().enumerate() {
            if let (Some(ours), Some(theirs)) = (values[0], values[other]) {
                if ours > 0.0 && theirs > 0.0 {
                    let ratio = ours / theirs;
                    logs[i].push(ratio.ln());
                    ratios[i] = fmt_ratio(ratio, words);
                }
            }
        }
        let _ = writeln!(
            out,
            "{:<24} {:<8} {:>10} {:>10} {:>10}  {:<16} {:<16}",
            case.name,
            dialect_name(case.dialect),
            cell(values[0]),
            cell(values[1]),
            cell(values[2]),
            ratios[0],
            ratios[1]
        );
    }
    let geo = |logs: &[f64]| {
        if logs.is_empty() {
            return String::new();
        }
        fmt_ratio((logs.iter().sum::<f64>() / logs.len() as f64).exp(), words)
    };
    let _ = writeln!(
        out,
        "\n{:<24} {:<8} {:>10} {:>10} {:>10}  {:<16} {:<16}",
        "geometric mean",
        "",
        "",
        "",
        "",
        geo(&logs[0]),
        geo(&logs[1])
    );
    for (logs, other) in logs.iter().zip(["jsonschema", "boon"]) {
        let faster = logs.iter().filter(|l| l.exp() < 1.0 - TIE).count();
        let slower = logs.iter().filter(|l| l.exp() > 1.0 + TIE).count();
        let ties = logs.len() - faster - slower;
        let _ = writeln!(
            out,
            "ours vs {other}: {faster} {}, {ties} ties, {slower} {} (of {})",
            words.0,
            words.1,
            logs.len()
        );
    }
}

/// Ours' own `memory_usage()` next to what the allocator counted for it.
fn reported_memory(out: &mut String, results: &[CaseResult]) {
    let rows: Vec<_> = results
        .iter()
        .filter_map(|case| {
            let ours = &case.engines[0];
            Some((case, ours.reported?, ours.retained?))
        })
        .collect();
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\n## memory_usage() as ours reports it, next to the allocator's count\n"
    );
    let _ = writeln!(
        out,
        "{:<24} {:>12} {:>12} {:>8}",
        "case", "reported", "counted", "rep/cnt"
    );
    for (case, reported, retained) in rows {
        let _ = writeln!(
            out,
            "{:<24} {:>12} {:>12} {:>8.2}",
            case.name,
            fmt_bytes(reported),
            fmt_bytes(retained),
            reported as f64 / retained.max(1) as f64
        );
    }
}

/// Every instance on which the engines that compiled the schema do not all agree, then every
/// one on which they agree with each other but not with the expected verdict.
fn verdicts(out: &mut String, results: &[CaseResult]) {
    let mut disagreements = Vec::new();
    let mut unexpected = Vec::new();
    let mut checked = 0;
    for case in results {
        for (index, &expected) in case.expected.iter().enumerate() {
            let verdicts: Vec<Option<bool>> = case
                .engines
                .iter()
                .map(|r| r.verdicts.get(index).copied())
                .collect();
            let given: Vec<bool> = verdicts.iter().flatten().copied().collect();
            if given.is_empty() {
                continue;
            }
            checked += 1;
            let row = (case.name.as_str(), index, expected, verdicts.clone());
            if given.iter().any(|&v| v != given[0]) {
                disagreements.push(row);
            } else if given[0] != expected {
                unexpected.push(row);
            }
        }
    }
    let _ = writeln!(out, "\n## verdicts\n");
    let header = |out: &mut String| {
        let _ = writeln!(
            out,
            "{:<24} {:>8} {:>9} {:>8} {:>11} {:>8}",
            "case", "instance", "expected", "ours", "jsonschema", "boon"
        );
    };
    let row =
        |out: &mut String,
         (name, index, expected, verdicts): &(&str, usize, bool, Vec<Option<bool>>)| {
            let v = |i: usize| verdicts[i].map_or("n/a", |b| if b { "valid" } else { "INVALID" });
            let _ = writeln!(
                out,
                "{:<24} {:>8} {:>9} {:>8} {:>11} {:>8}",
                name,
                index,
                if *expected { "valid" } else { "INVALID" },
                v(0),
                v(1),
                v(2)
            );
        };
    if disagreements.is_empty() {
        let _ = writeln!(out, "The engines agree on all {checked} instances.");
    } else {
        let _ = writeln!(
            out,
            "{} of {checked} instances get different verdicts (instance = line index in \
             instances.jsonl for benchmark cases; valid then invalid list for MCP cases):\n",
            disagreements.len()
        );
        header(out);
        disagreements.iter().for_each(|d| row(out, d));
    }
    if !unexpected.is_empty() {
        let _ = writeln!(
            out,
            "\n{} instances on which all engines agree, against the expected verdict:\n",
            unexpected.len()
        );
        header(out);
        unexpected.iter().for_each(|d| row(out, d));
    }
}

/// Schemas an engine could not compile, and our own entry points disagreeing.
fn failures(out: &mut String, results: &[CaseResult]) {
    let mut any = false;
    for case in results {
        for (engine, result) in ENGINES.iter().zip(&case.engines) {
            if let Some(error) = &result.compile_error {
                if !any {
                    let _ = writeln!(out, "\n## compile failures\n");
                    any = true;
                }
                let error: String = error.chars().take(300).collect();
                let _ = writeln!(out, "{} / {}: {}", case.name, engine.name(), error.trim());
            }
        }
    }
    let mut any = false;
    for case in results {
        for (index, what) in &case.engines[0].inconsistent {
            if !any {
                let _ = writeln!(
                    out,
                    "\n## ours: validate/iter_errors disagree with is_valid\n"
                );
                any = true;
            }
            let _ = writeln!(out, "{} #{index}: {what}", case.name);
        }
    }
}

fn dialect_name(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Draft4 => "draft-04",
        Dialect::Draft6 => "draft-06",
        Dialect::Draft7 => "draft-07",
        Dialect::Draft201909 => "2019-09",
        Dialect::Draft202012 => "2020-12",
    }
}

/// `0.42 faster`, `1.05 tie`, `3.10 slower` (with `words` = [`SPEED`]).
fn fmt_ratio(ratio: f64, (better, worse): Words) -> String {
    let word = if ratio < 1.0 - TIE {
        better
    } else if ratio > 1.0 + TIE {
        worse
    } else {
        "tie"
    };
    format!("{ratio:.2} {word}")
}

pub fn fmt_time(seconds: f64) -> String {
    let (value, unit) = if seconds < 1e-6 {
        (seconds * 1e9, "ns")
    } else if seconds < 1e-3 {
        (seconds * 1e6, "µs")
    } else if seconds < 1.0 {
        (seconds * 1e3, "ms")
    } else {
        (seconds, "s")
    };
    let digits = if value < 10.0 {
        2
    } else if value < 100.0 {
        1
    } else {
        0
    };
    format!("{value:.digits$} {unit}")
}

fn fmt_bytes(bytes: usize) -> String {
    let b = bytes as f64;
    if b < 1024.0 {
        format!("{bytes} B")
    } else if b < 1024.0 * 1024.0 {
        format!("{:.1} KiB", b / 1024.0)
    } else {
        format!("{:.1} MiB", b / (1024.0 * 1024.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(fmt_time(1.5e-7), "150 ns");
        assert_eq!(fmt_time(2.5e-5), "25.0 µs");
        assert_eq!(fmt_time(3.0), "3.00 s");
        assert_eq!(fmt_bytes(2048), "2.0 KiB");
        assert_eq!(fmt_ratio(0.5, SPEED), "0.50 faster");
        assert_eq!(fmt_ratio(1.09, SPEED), "1.09 tie");
        assert_eq!(fmt_ratio(1.2, SIZE), "1.20 larger");
    }
}
