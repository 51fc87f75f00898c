//! Shrinks a disagreement to a small reproduction:
//!
//! `cargo run --manifest-path tests/differential/Cargo.toml --bin minimize -- SCHEMA INSTANCE [formats]`
//!
//! where SCHEMA and INSTANCE are JSON texts on which the two implementations disagree
//! (2020-12; `formats` turns format assertion on). Prints the smallest pair found on
//! which they still disagree the same way.

use mcp_jsonschema_differential::{minimize, Dialect, Pair, Setup};
use serde_json::Value;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(schema), Some(instance)) = (args.first(), args.get(1)) else {
        eprintln!("usage: minimize SCHEMA INSTANCE [formats]");
        std::process::exit(2);
    };
    let parse = |text: &str| -> Value {
        serde_json::from_str(text).unwrap_or_else(|e| {
            eprintln!("not JSON: {e}");
            std::process::exit(2)
        })
    };
    let (schema, instance) = (parse(schema), parse(instance));
    let setup = Setup {
        formats: args.get(2).is_some_and(|a| a == "formats"),
        ..Setup::new(Dialect::Draft202012)
    };
    let verdicts = |s: &Value, i: &Value| Pair::compile(s, &setup).verdicts(i);
    let (ours, theirs) = verdicts(&schema, &instance);
    let (Ok(ours), Ok(theirs)) = (ours, theirs) else {
        eprintln!("one of them does not compile it");
        std::process::exit(1);
    };
    if ours == theirs {
        eprintln!("they agree ({ours})");
        std::process::exit(1);
    }
    let (schema, instance) = minimize(
        &schema,
        &instance,
        |s, i| matches!(verdicts(s, i), (Ok(a), Ok(b)) if a == ours && b == theirs),
    );
    println!("schema:   {schema}\ninstance: {instance}\nours: {ours}, theirs: {theirs}");
}
