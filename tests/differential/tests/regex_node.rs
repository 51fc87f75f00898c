//! `pattern` against the reference ECMA-262 engine: Node.js's `RegExp` with the `u` flag.
//!
//! Generated patterns and strings are matched by ours (`{"pattern": p}`) and by
//! `new RegExp(p, "u").test(s)` in one `node` process: concatenations of atoms covering
//! classes, escapes, anchors, quantifiers, groups, lookarounds and backreferences
//! (`patterns_match_like_node`), and nested trees of groups, lookarounds of every kind,
//! quantified groups, alternations and backreferences, the backtracking engine's ground
//! (`nested_patterns_match_like_node`). Every difference in match results, and every
//! pattern one side accepts and the other rejects, fails the test, except where KNOWN.md
//! says node is wrong (N1). Skipped, with a note, when `node` is not on the PATH.
//!
//! `cargo test --manifest-path tests/differential/Cargo.toml --test regex_node`

use mcp_jsonschema_differential::cases;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config as ProptestConfig, TestRunner};
use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};

/// Pattern pieces, each valid on its own under the `u` flag.
const ATOMS: [&str; 40] = [
    "a",
    "b",
    ".",
    "\\d",
    "\\D",
    "\\w",
    "\\W",
    "\\s",
    "\\S",
    "\\b",
    "\\B",
    "[a-c]",
    "[^a]",
    "[\\d-]",
    "[^\\s]",
    "(a|b)",
    "(?:ab)",
    "a*",
    "b+?",
    "a{2}",
    "a{1,3}",
    "^",
    "$",
    "\\u00e9",
    "é",
    "\\p{L}",
    "\\P{Lu}",
    "(?=a)",
    "(?!b)",
    "(?<=a)",
    "(?<!b)",
    "(a)\\1",
    "\\n",
    "\\t",
    "\\.",
    "\\/",
    "[😀]",
    "\\u{1F600}",
    "(?<n>a)\\k<n>",
    "[\\b]",
];
/// Pieces that make a pattern invalid under the `u` flag (some of them accepted by ours
/// on purpose: see [`documented_leniency`]).
const BROKEN: [&str; 14] = [
    "*",
    "(",
    ")",
    "[",
    "a{2,1}",
    "\\c",
    "\\u{110000}",
    "\\p{Foo}",
    "\\k<zz>",
    "(?<a)",
    "{",
    "]",
    "\\-",
    "\\é",
];
/// Characters of the probe strings.
const CHARS: [char; 11] = [
    'a', 'b', '1', ' ', 'é', '\n', '_', 'A', '😀', '.', '\u{2028}',
];

/// Whether ours accepts `text` under `{"pattern": pattern}`; `None` if the pattern does
/// not compile.
fn ours(pattern: &str, text: &str) -> Option<bool> {
    let validator = mcp_jsonschema::Validator::new(&json!({ "pattern": pattern })).ok()?;
    Some(validator.is_valid(&json!(text)))
}

/// KNOWN.md, N1: V8 tries `\B` between the two halves of a surrogate pair even under
/// the `u` flag (`/\B/u.exec("a😀").index` is 2), where the spec has no position.
fn v8_splits_surrogates(pattern: &str, text: &str) -> bool {
    pattern.contains("\\B") && text.chars().any(|c| c > '\u{FFFF}')
}

/// KNOWN.md, D1: ours accepts, as Annex B does without the `u` flag, a lone `{`, `}` or
/// `]` as a literal and an identity escape of any character that is not an ASCII letter
/// or digit (documented on `translate` in `src/regex/translate.rs`).
fn documented_leniency(pattern: &str) -> bool {
    let chars: Vec<char> = pattern.chars().collect();
    chars.iter().any(|c| matches!(c, '{' | '}' | ']'))
        || chars.windows(2).any(|w| {
            w[0] == '\\' && !w[1].is_ascii_alphanumeric() && !"^$\\.*+?()[]{}|/".contains(w[1])
        })
}

/// Node's answers for every (pattern, string) pair: `null` for a pattern it rejects.
fn node(cases: &[(String, Vec<String>)]) -> Option<Vec<Value>> {
    let script = r#"
        let input = "";
        // Decoded by the stream, not chunk by chunk: a chunk may end inside a
        // character's UTF-8 bytes, which would then reach the patterns as U+FFFD.
        process.stdin.setEncoding("utf8");
        process.stdin.on("data", d => input += d);
        process.stdin.on("end", () => {
            const out = JSON.parse(input).map(([p, strings]) => {
                let re;
                try { re = new RegExp(p, "u"); } catch (e) { return null; }
                return strings.map(s => re.test(s));
            });
            process.stdout.write(JSON.stringify(out));
        });
    "#;
    let mut child = Command::new("node")
        .args(["-e", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .ok()?;
    let payload = serde_json::to_vec(cases).ok()?;
    child.stdin.take()?.write_all(&payload).ok()?;
    let output = child.wait_with_output().ok()?;
    serde_json::from_slice::<Vec<Value>>(&output.stdout).ok()
}

#[test]
fn patterns_match_like_node() {
    let atom = prop_oneof![
        12 => proptest::sample::select(&ATOMS[..]),
        1 => proptest::sample::select(&BROKEN[..]),
    ];
    let pattern = proptest::collection::vec(atom, 1..5).prop_map(|atoms| atoms.concat());
    let string = proptest::collection::vec(proptest::sample::select(&CHARS[..]), 0..6)
        .prop_map(|chars| chars.into_iter().collect::<String>());
    agree_with_node((pattern, proptest::collection::vec(string, 4..8)));
}

/// The leaves of [`nested_patterns_match_like_node`]'s trees.
const LEAVES: [&str; 12] = [
    "a", "b", ".", "\\d", "[ab]", "\\b", "^", "$", "\\1", "\\2", "(?:)", "\\B",
];
/// How its groups open.
const OPENINGS: [&str; 6] = ["(", "(?:", "(?=", "(?!", "(?<=", "(?<!"];
/// Its quantifiers (on capturing and plain groups only: a quantified lookaround is not
/// valid under the `u` flag).
const QUANTIFIERS: [&str; 10] = [
    "*", "+", "?", "{0,2}", "{1,3}", "{2}", "*?", "+?", "??", "{0,2}?",
];

#[test]
fn nested_patterns_match_like_node() {
    use proptest::sample::select;
    let leaf = select(&LEAVES[..]).prop_map(String::from);
    let pattern = leaf.prop_recursive(4, 24, 3, move |inner| {
        let sequence = proptest::collection::vec(inner, 1..4).prop_map(|items| items.concat());
        prop_oneof![
            (select(&OPENINGS[..]), sequence.clone())
                .prop_map(|(open, body)| format!("{open}{body})")),
            (
                select(&["(", "(?:"][..]),
                sequence.clone(),
                select(&QUANTIFIERS[..])
            )
                .prop_map(|(open, body, quantifier)| format!("{open}{body}){quantifier}")),
            (sequence.clone(), sequence.clone()).prop_map(|(a, b)| format!("{a}|{b}")),
            sequence,
        ]
    });
    let string = proptest::collection::vec(select(&['a', 'b', '1', ' '][..]), 0..8)
        .prop_map(|chars| chars.into_iter().collect::<String>());
    agree_with_node((pattern, proptest::collection::vec(string, 4..8)));
}

/// Draws `PROPTEST_CASES` (default 3,000) cases of `case` and fails on every
/// disagreement with node (skipped when node is missing).
fn agree_with_node(case: impl Strategy<Value = (String, Vec<String>)>) {
    if Command::new("node").arg("--version").output().is_err() {
        eprintln!("node is not installed: skipping the ECMA-262 reference comparison");
        return;
    }
    let count = cases(3_000);
    let mut runner = TestRunner::new(ProptestConfig::default());
    let cases: Vec<(String, Vec<String>)> = (0..count)
        .map(|_| {
            case.new_tree(&mut runner)
                .expect("the strategy cannot fail")
                .current()
        })
        .collect();
    let answers = node(&cases).expect("node ran the batch");
    assert_eq!(answers.len(), cases.len());

    let mut problems = Vec::new();
    for ((pattern, strings), answer) in cases.iter().zip(&answers) {
        match answer.as_array() {
            None => {
                if ours(pattern, "").is_some() && !documented_leniency(pattern) {
                    problems.push(format!("{pattern:?}: node rejects it, ours compiles it"));
                }
            }
            Some(results) => {
                for (text, expected) in strings.iter().zip(results) {
                    if v8_splits_surrogates(pattern, text) {
                        continue;
                    }
                    let expected = expected.as_bool();
                    let got = ours(pattern, text);
                    if got != expected {
                        problems.push(format!(
                            "{pattern:?} on {text:?}: node {expected:?}, ours {got:?}"
                        ));
                    }
                }
            }
        }
    }
    problems.sort();
    problems.dedup();
    assert!(
        problems.is_empty(),
        "{} disagreements with node:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
