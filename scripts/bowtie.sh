#!/usr/bin/env bash
# Runs the real Bowtie (the JSON Schema compliance harness, PyPI `bowtie-json-schema`)
# over the pinned official suite, against `mcp-jsonschema bowtie`, offline: Bowtie's
# `direct:` connector imports scripts/bowtie_shim.py, which starts the harness binary
# and speaks the protocol over its stdin/stdout (no container engine needed).
#
# Needs a Python >= 3.13 (current Bowtie releases require it): `python3.13` on PATH, or
# pyenv's 3.13. The venv lives in target/bowtie/venv; reports in target/bowtie/.
# Prints Bowtie's own summary per dialect and fails if any required test fails or errors.
#
# Usage: scripts/bowtie.sh [--check-python]   (from any directory; --check-python only
# says whether a suitable Python is present, by its exit code)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

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
if ! "$venv/bin/bowtie" --version 2>/dev/null | grep -q "$BOWTIE_VERSION"; then
    log "installing bowtie-json-schema $BOWTIE_VERSION with $python"
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/pip" install --quiet "bowtie-json-schema==$BOWTIE_VERSION"
fi
scripts/fetch-suite.sh
cargo build --release --quiet -p mcp-jsonschema-cli
harness="direct:bowtie_shim:harness,cmd=target/release/mcp-jsonschema bowtie"

failed=0
for dialect in "${DIALECTS[@]}"; do
    report="$OUT/$dialect.jsonl"
    PYTHONPATH=scripts "$venv/bin/bowtie" suite -i "$harness" \
        "json-schema-test-suite/tests/$dialect" >"$report" 2>"$OUT/$dialect.log"
    log "$dialect"
    "$venv/bin/bowtie" summary --format markdown --show failures <"$report"
    # The JSON summary: [[implementation, {"failed": n, "errored": n, "skipped": n}]].
    if ! "$venv/bin/python" -c '
import json, sys
counts = json.load(sys.stdin)[0][1]
sys.exit(counts["failed"] + counts["errored"] > 0)
' < <("$venv/bin/bowtie" summary --format json --show failures <"$report"); then
        failed=1
    fi
done
# The annotation suite: each case says which dialects it suits, so it runs per dialect.
for dialect in 2020-12 2019-09; do
    report="$OUT/annotations-$dialect.jsonl"
    PYTHONPATH=scripts "$venv/bin/bowtie" annotation-suite -i "$harness" -D "$dialect" \
        json-schema-test-suite/annotations/tests >"$report" 2>"$OUT/annotations-$dialect.log"
    log "annotation-suite $dialect"
    "$venv/bin/bowtie" summary --format markdown --show failures <"$report"
    if ! "$venv/bin/python" -c '
import json, sys
counts = json.load(sys.stdin)[0][1]
sys.exit(counts["failed"] + counts["errored"] + counts["skipped"] > 0)
' < <("$venv/bin/bowtie" summary --format json --show failures <"$report"); then
        failed=1
    fi
done
if ((failed)); then
    echo "bowtie: error: some required tests failed or errored (reports in $OUT)" >&2
    exit 1
fi
log "every required test of ${DIALECTS[*]} and every annotation test passed"
