#!/usr/bin/env bash
# Fill json-schema-test-suite/ (at the repository root, git-ignored) with the
# official JSON-Schema-Test-Suite, as pinned inside the jsonschema sdist on PyPI.
#
# The sdist is fetched with pip (PyPI is a registry every machine of this
# project reaches), its sha256 is checked against the pin below, and its
# json/ directory (tests/, remotes/, ...) becomes json-schema-test-suite/.
# A stamp file records what was unpacked, so a second run exits at once.
#
# Usage: scripts/fetch-suite.sh        (from any directory)
set -euo pipefail

readonly PYPI_PACKAGE=jsonschema
readonly PYPI_VERSION=4.26.0
readonly SDIST="${PYPI_PACKAGE}-${PYPI_VERSION}.tar.gz"
readonly SDIST_SHA256=0c26707e2efad8aa1bfc5b7ce170f3fccc2e4918ff85989ba9ffa9facb2be326
readonly SUITE_IN_SDIST="${PYPI_PACKAGE}-${PYPI_VERSION}/json"
readonly DEST=json-schema-test-suite
readonly STAMP="${DEST}/.fetched-from"
readonly STAMP_CONTENT="${SDIST} sha256=${SDIST_SHA256}"

log() { echo "fetch-suite: $*"; }
die() { echo "fetch-suite: error: $*" >&2; exit 1; }

sha256_of() {
    if command -v sha256sum >/dev/null; then
        sha256sum "$1" | cut -d' ' -f1
    else
        shasum -a 256 "$1" | cut -d' ' -f1
    fi
}

cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ -f "$STAMP" && "$(cat "$STAMP")" == "$STAMP_CONTENT" ]]; then
    log "${DEST}/ already holds the suite from ${SDIST}; nothing to do"
    exit 0
fi

command -v python3 >/dev/null || die "python3 (with pip) is needed to download ${SDIST}"

workdir="$(mktemp -d)"
trap 'rm -rf "$workdir"' EXIT

log "downloading ${SDIST} from PyPI"
python3 -m pip download --quiet --disable-pip-version-check \
    --no-deps --no-binary :all: "${PYPI_PACKAGE}==${PYPI_VERSION}" -d "$workdir" \
    || die "pip could not download ${PYPI_PACKAGE}==${PYPI_VERSION}"
[[ -f "$workdir/$SDIST" ]] || die "pip did not produce ${SDIST} (got: $(ls "$workdir"))"

actual_sha256="$(sha256_of "$workdir/$SDIST")"
if [[ "$actual_sha256" != "$SDIST_SHA256" ]]; then
    die "sha256 mismatch for ${SDIST}
  expected: ${SDIST_SHA256}
  actual:   ${actual_sha256}
refusing to use it; if the pin is meant to change, update SDIST_SHA256 in $0"
fi
log "sha256 verified (${SDIST_SHA256})"

tar -xzf "$workdir/$SDIST" -C "$workdir" "$SUITE_IN_SDIST" \
    || die "${SDIST} has no ${SUITE_IN_SDIST}/ directory"
[[ -d "$workdir/$SUITE_IN_SDIST/tests" && -d "$workdir/$SUITE_IN_SDIST/remotes" ]] \
    || die "${SUITE_IN_SDIST}/ in ${SDIST} lacks tests/ or remotes/"

# Replace any previous copy; the stamp is written last, so an interrupted run
# is simply redone next time.
rm -rf "$DEST"
mv "$workdir/$SUITE_IN_SDIST" "$DEST"
echo "$STAMP_CONTENT" > "$STAMP"

test_files="$(find "$DEST/tests" -name '*.json' | wc -l | tr -d ' ')"
log "unpacked the suite into ${DEST}/ (${test_files} test files)"
