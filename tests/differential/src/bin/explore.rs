//! Hunts for disagreements: runs N generated cases through both implementations and
//! prints each disagreement that [`known`] does not explain, minimized, once per distinct
//! minimized schema.
//!
//! `cargo run --release --manifest-path tests/differential/Cargo.toml --bin explore -- [N] [SEED] [formats] [deep]`
//!
//! `formats` turns format assertion on; `deep` generates the fuzzer's larger schemas
//! (still without reference cycles that consume no input).

use mcp_jsonschema_differential::gen::{self, Bytes, Config};
use mcp_jsonschema_differential::{differences, known, minimize, Dialect, Difference, Pair, Setup};
use std::collections::BTreeSet;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let count: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let mut state: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1) | 1;
    let setup = Setup {
        formats: args.get(2).is_some_and(|a| a == "formats"),
        ..Setup::new(Dialect::Draft202012)
    };
    let base = if args.iter().any(|a| a == "deep") {
        Config::FUZZ
    } else {
        Config::default()
    };
    let config = Config {
        cycles: false,
        ..base
    };
    let mut seen = BTreeSet::new();
    let mut total = 0;
    for _ in 0..count {
        let bytes = gen::xorshift_bytes(&mut state, 600);
        let (schema, instances) = gen::case(&mut Bytes::new(&bytes), config, 4);
        for difference in differences(&schema, &instances, &setup) {
            if known(&schema, &difference, &setup).is_some() {
                continue;
            }
            total += 1;
            let Difference::Verdict {
                instance,
                ours,
                theirs,
            } = &difference
            else {
                if seen.insert(format!("{schema}{difference}")) {
                    println!("schema:   {schema}\n{difference}\n");
                }
                continue;
            };
            let (small_schema, small_instance) = minimize(
                &schema,
                instance,
                |s, i| matches!(Pair::compile(s, &setup).verdicts(i), (Ok(a), Ok(b)) if a == *ours && b == *theirs),
            );
            if seen.insert(small_schema.to_string()) {
                println!("schema:   {small_schema}\ninstance: {small_instance}\nours: {ours}, theirs: {theirs}\n");
            }
        }
    }
    println!("{total} unexplained disagreements, {} distinct", seen.len());
}
