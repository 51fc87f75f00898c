#!/usr/bin/env bash
# Runs the real Bowtie (the JSON Schema compliance harness, PyPI `bowtie-json-schema`)
# over the pinned official suite, against `mcp-jsonschema bowtie`, offline: Bowtie's
# `direct:` connector imports scripts/bowtie_shim.py, which starts the harness binary
# and speaks the protocol over its stdin/stdout (no container engine needed). Then the
# same against the Python binding, in process: the wheel (crates/python) is installed
# into Bowtie's venv and `direct:mcp_jsonschema.bowtie:harness` imports its harness.
#
# Needs a Python >= 3.13 (current Bowtie releases require it): `python3.13` on PATH, or
# pyenv's 3.13. The venv lives in target/bowtie/venv; reports in target/bowtie/.
# Prints Bowtie's own summary per dialect and fails if any required test fails or errors.
#
# Usage: scripts/bowtie.sh [--check-python]   (from any directory; --check-python only
# says whether a suitable Python is present, by its exit code)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/venv.sh

readonly BOWTIE_VERSION=2026.10.2
readonly DIALECTS=(draft2020-12 draft2019-09 draft7 draft6 draft4)
readonly OUT=target/bowtie

log() { echo "bowtie: $*"; }

# A Python interpreter >= 3.13, or nothing.
find_python() {
    local candidates=(python3.13 python3.14 python3)
    if command -v pyenv >/dev/null; then
        local version
        for version in $(pyenv versions --bare 2>/dev/null); do
            case "$version" in
                3.1[3-9]*) candidates+=("$(pyenv root)/versions/${version}/bin/python3") ;;
            esac
        done
    fi
    local python
    for python in "${candidates[@]}"; do
        if command -v "$python" >/dev/null &&
            "$python" -c 'import sys; sys.exit(sys.version_info < (3, 13))' 2>/dev/null; then
            command -v "$python"
            return 0
        fi
    done
    return 1
}

if [[ "${1:-}" == "--check-python" ]]; then
    find_python >/dev/null
    exit
fi

python=$(find_python) || {
    echo "bowtie: error: no Python >= 3.13 found (python3.13 on PATH, or pyenv's 3.13)" >&2
    exit 1
}
mkdir -p "$OUT"
venv="$OUT/venv"
ensure_venv "$venv" "$python" bowtie "$BOWTIE_VERSION" "bowtie-json-schema==$BOWTIE_VERSION"
scripts/fetch-suite.sh
cargo build --release --quiet -p mcp-jsonschema-cli
harness="direct:bowtie_shim:harness,cmd=target/release/mcp-jsonschema bowtie"

failed=0
# Bowtie's JSON summary of a report: [[implementation, {"failed", "errored", "skipped"}]];
# fails if any count named by the arguments is not 0.
check_report() {
    "$venv/bin/python" -c '
import json, sys
counts = json.load(sys.stdin)[0][1]
sys.exit(sum(counts[name] for name in sys.argv[1:]) > 0)
' "$@" < <("$venv/bin/bowtie" summary --format json --show failures <"$report")
}

# Every required test of each dialect, then the annotation suite (each case says which
# dialects it suits, so it runs per dialect), against one implementation: $1 names it
# in the reports, $2 is Bowtie's connectable.
run_suites() {
    local name=$1 implementation=$2 dialect
    for dialect in "${DIALECTS[@]}"; do
        report="$OUT/$name$dialect.jsonl"
        PYTHONPATH=scripts "$venv/bin/bowtie" suite -i "$implementation" \
            "json-schema-test-suite/tests/$dialect" >"$report" 2>"$OUT/$name$dialect.log"
        log "$name$dialect"
        "$venv/bin/bowtie" summary --format markdown --show failures <"$report"
        check_report failed errored skipped || failed=1
    done
    for dialect in 2020-12 2019-09; do
        report="$OUT/${name}annotations-$dialect.jsonl"
        PYTHONPATH=scripts "$venv/bin/bowtie" annotation-suite -i "$implementation" -D "$dialect" \
            json-schema-test-suite/annotations/tests >"$report" 2>"$OUT/${name}annotations-$dialect.log"
        log "${name}annotation-suite $dialect"
        "$venv/bin/bowtie" summary --format markdown --show failures <"$report"
        check_report failed errored skipped || failed=1
    done
}

run_suites "" "$harness"
# The Python binding, in process. Its wheel is abi3 (CPython >= 3.10): Bowtie's own
# Python takes it.
wheel=$(scripts/python.sh --wheel)
"$venv/bin/pip" install --quiet --force-reinstall --no-deps "$wheel"
run_suites python- "direct:mcp_jsonschema.bowtie:harness"
if ((failed)); then
    echo "bowtie: error: some required tests failed or errored (reports in $OUT)" >&2
    exit 1
fi
log "every required test of ${DIALECTS[*]} and every annotation test passed, through the binary and through the Python binding"
