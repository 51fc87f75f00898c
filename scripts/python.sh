#!/usr/bin/env bash
# Builds the Python wheel (crates/python, by maturin), installs it into a fresh venv
# with pytest and the official MCP Python SDK (`mcp` from PyPI), and runs the Python
# tests (crates/python/tests, the SDK tests included).
#
# Usage: scripts/python.sh [--python PYTHON] [--bench [ARGS...]]   (from any directory)
#   --python PYTHON  the interpreter of the test venv (default: python3, >= 3.10)
#   --bench          instead of the tests, install the peers (python-jsonschema,
#                    jsonschema-rs, fastjsonschema) and run crates/python/bench.py
#   --wheel          only build the wheel, and print its path (scripts/bowtie.sh)
#   --check-python   only say, by the exit code, whether a Python >= 3.10 that can make
#                    venvs (venv, ensurepip) is present
#
# Everything lives under target/python/: the build venv (maturin), the cargo target
# directory, the wheel (target/python/wheels/) and the test venvs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/venv.sh

readonly MATURIN_VERSION=1.16.0
readonly PYTEST_VERSION=9.2.0
readonly MCP_VERSION=2.3.0
readonly PEERS=(jsonschema==4.26.0 jsonschema-rs==0.61.2 fastjsonschema==2.22.3)
readonly OUT=target/python

log() { echo "python: $*" >&2; }

python=python3
bench=0
wheel_only=0
while (($#)); do
    case "$1" in
        --python) python=$2; shift 2 ;;
        --bench) bench=1; shift; break ;;
        --wheel) wheel_only=1; shift ;;
        --check-python)
            command -v "$python" >/dev/null &&
                "$python" -c 'import sys, ensurepip, venv; sys.exit(sys.version_info < (3, 10))' 2>/dev/null
            exit
            ;;
        *) echo "usage: scripts/python.sh [--python PYTHON] [--bench [ARGS...] | --wheel | --check-python]" >&2; exit 2 ;;
    esac
done
"$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))' || {
    echo "python: error: $python is not a Python >= 3.10" >&2
    exit 1
}

mkdir -p "$OUT"
build_venv="$OUT/build-venv"
ensure_venv "$build_venv" python3 maturin "$MATURIN_VERSION" "maturin==$MATURIN_VERSION"
# One abi3 wheel serves every Python >= 3.10: it is always built with the build venv's
# interpreter, so that testing under another Python does not rebuild it.
start=$SECONDS
rm -rf "$OUT/wheels"
CARGO_TARGET_DIR="$OUT/cargo" "$build_venv/bin/maturin" build --release --quiet \
    --manifest-path crates/python/Cargo.toml --out "$OUT/wheels" \
    --interpreter "$build_venv/bin/python" >&2
wheel=$(ls "$OUT"/wheels/mcp_jsonschema-*.whl)
log "built $(basename "$wheel") in $((SECONDS - start)) s"
if ((wheel_only)); then
    echo "$wheel"
    exit
fi

version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
venv="$OUT/venv-$version"
start=$SECONDS
rm -rf "$venv"
"$python" -m venv "$venv"
if ((bench)); then
    "$venv/bin/pip" install --quiet "$wheel" "${PEERS[@]}"
    log "installed the wheel and ${PEERS[*]} into a fresh venv in $((SECONDS - start)) s"
    exec "$venv/bin/python" crates/python/bench.py "$@"
fi
"$venv/bin/pip" install --quiet "$wheel" "pytest==$PYTEST_VERSION" "mcp==$MCP_VERSION"
log "installed the wheel, pytest and mcp $MCP_VERSION into a fresh venv ($venv) in $((SECONDS - start)) s"
# From the tests' folder, so that `import mcp_jsonschema` is the installed wheel's.
cd crates/python/tests
"../../../$venv/bin/python" -m pytest -q -p no:cacheprovider .
