#!/usr/bin/env bash
# The project's test command (the README's, and the one CI runs via .ci/run):
# fetch the pinned JSON-Schema-Test-Suite if needed, then run every test target
# (unit tests, integration tests and the suite runner, tests/suite.rs), the same
# with the `arbitrary-precision` feature for the number-related ones, the differential
# test crate and the doctests.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/fetch-suite.sh
# The library and the workspace crates (crates/: the command-line tool, the rmcp
# integration).
cargo test --workspace --all-targets --no-fail-fast
# The annotation and output suites' counts (tests/annotations.rs, run above too).
cargo test --quiet --test annotations -- --nocapture --test-threads 1 2>&1 \
    | grep -oE '(annotations|output) draft[0-9-]+: .*'
# The exact-numbers build (serde_json keeps number texts): the unit tests (the decimal
# arithmetic), the suite and the number tests again, with the feature on.
cargo test --features arbitrary-precision --lib --test suite --test numbers --no-fail-fast
# The differential test against the jsonschema crate is a crate of its own, so that
# competitor never enters the library's dependency tree.
cargo test --manifest-path tests/differential/Cargo.toml
cargo test --workspace --doc
# The rmcp example (README), a real server and client in one process.
cargo run --quiet -p mcp-jsonschema-rmcp --example weather >/dev/null
if scripts/bowtie.sh --check-python; then
    scripts/bowtie.sh
else
    echo "test: SKIPPED scripts/bowtie.sh: no Python >= 3.13 on this machine (Bowtie needs one)"
fi
