#!/usr/bin/env bash
# The project's test command (the README's, and the one CI runs via .ci/run):
# fetch the pinned JSON-Schema-Test-Suite if needed, then run every test target
# (unit tests, integration tests and the suite runner, tests/suite.rs), the
# differential test crate and the doctests.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/fetch-suite.sh
cargo test --all-targets --no-fail-fast
# The differential test against the jsonschema crate is a crate of its own, so that
# competitor never enters the library's dependency tree.
cargo test --manifest-path tests/differential/Cargo.toml
cargo test --doc
