#!/usr/bin/env bash
# The project's test command (the README's, and the one CI runs via .ci/run):
# fetch the pinned JSON-Schema-Test-Suite if needed, then run every test target
# (unit tests, integration tests and the suite runner, tests/suite.rs), the same
# with the `arbitrary-precision` feature for the number-related ones, the differential
# test crate, the doctests and the Python binding's tests.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# Disk is what a clean clone runs short of (CI ran out at the exact-numbers build): no
# incremental caches, which a run from scratch never reuses (2.4 GB of them), and line
# tables only in the test binaries, enough for a panic's backtrace (full debug info made
# target/debug 4 GB of its 6.7).
export CARGO_INCREMENTAL=0
export CARGO_PROFILE_TEST_DEBUG=line-tables-only
export CARGO_PROFILE_DEV_DEBUG=line-tables-only

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
# Each published crate packaged and built from its package, as a user would get it
# (the library, the CLI, the rmcp crate; crates.io's index is read, nothing uploaded).
# Cargo verifies each package against the others through a temporary local registry. It
# takes anything from a registry for immutable once it has it: the copy it unpacked into
# $CARGO_HOME/registry/src/-HASH/ and the library it compiled from it are kept by name and
# version, so on a machine that ran this before, an earlier library would be built against
# (the CLI then fails on what it lacks, or passes on what it no longer has). Both go first;
# the build has a target directory of its own so that nothing else needs rebuilding.
publish_target=target/publish
rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/mcp-jsonschema* \
    "$publish_target"/debug/.fingerprint/mcp-jsonschema*
cargo publish --dry-run --workspace --allow-dirty --quiet --target-dir "$publish_target"
# The Python binding (crates/python, a crate of its own): the wheel built and installed
# into a fresh venv beside the MCP Python SDK from PyPI, then pytest.
if scripts/python.sh --check-python; then
    scripts/python.sh
    # The same abi3 wheel under a second Python, pyenv's 3.13, when there is one (cargo's
    # cache makes building it again a matter of seconds; then a fresh venv and the tests).
    second=$(pyenv versions --bare 2>/dev/null | grep -E '^3\.13(\.|$)' | tail -1 || true)
    if [[ -n "$second" ]]; then
        scripts/python.sh --python "$(pyenv root)/versions/$second/bin/python3"
    else
        echo "test: SKIPPED scripts/python.sh under Python 3.13: no pyenv 3.13 on this machine"
    fi
else
    echo "test: SKIPPED scripts/python.sh: no Python >= 3.10 with venv and ensurepip on this machine"
fi
if scripts/bowtie.sh --check-python; then
    scripts/bowtie.sh
else
    echo "test: SKIPPED scripts/bowtie.sh: no Python >= 3.13 on this machine (Bowtie needs one)"
fi

# --- The MCP proxy against the real SDKs -----------------------------------------------
# crates/cli/tests/sdk.rs (run by the workspace tests above) drives servers and clients
# of the Python and TypeScript MCP SDKs through `mcp-jsonschema proxy`, over stdio and
# Streamable HTTP, and `tools --stdio` / `--http` against their servers, installing the
# SDKs into target/tmp/sdk-env on first use; where Python >= 3.10 or node >= 18 with npm
# is missing, its tests pass without running and name what they skipped here.
sdk_skipped="${CARGO_TARGET_DIR:-target}/tmp/sdk-env/SKIPPED"
if [ -s "$sdk_skipped" ]; then
    sed 's/^/test: /' "$sdk_skipped"
fi
# --- end of the MCP proxy block ---------------------------------------------------------
