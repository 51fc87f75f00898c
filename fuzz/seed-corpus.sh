#!/usr/bin/env bash
# Fills fuzz/corpus/<target>/ (git-ignored) with seeds taken from the official
# JSON-Schema-Test-Suite, one file per input, named by content hash:
#
#   compile/   every test group's schema, as JSON text;
#   validate/  every test group as a JSON case {"schema", "instances", "budget"}
#              (the form the validate target reads when its input starts with `{`);
#   regex/     every `pattern` value and `patternProperties` key, and every string
#              the `format: regex` tests check;
#   text/      every test's instance as JSON text, its group's schema on the first line.
#
# The committed inputs of fuzz/regressions/<target>/ are copied in too.
# Fetches the suite first if needed (scripts/fetch-suite.sh). Needs python3.
#
# Usage: fuzz/seed-corpus.sh          (from any directory)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/fetch-suite.sh
python3 - <<'PY'
import hashlib, json, pathlib, shutil

suite = pathlib.Path("json-schema-test-suite/tests")
corpus = pathlib.Path("fuzz/corpus")
counts = {}

def put(target, data):
    if isinstance(data, str):
        data = data.encode()
    folder = corpus / target
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / hashlib.sha1(data).hexdigest()
    if not path.exists():
        path.write_bytes(data)
        counts[target] = counts.get(target, 0) + 1

def patterns(schema):
    """Every `pattern` value and `patternProperties` key anywhere in `schema`."""
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "pattern" and isinstance(value, str):
                yield value
            if key == "patternProperties" and isinstance(value, dict):
                yield from value.keys()
            yield from patterns(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from patterns(item)

for path in sorted(suite.rglob("*.json")):
    for group in json.loads(path.read_text(encoding="utf-8")):
        schema = group["schema"]
        instances = [test["data"] for test in group["tests"]]
        put("compile", json.dumps(schema, ensure_ascii=False))
        put("validate", json.dumps(
            {"schema": schema, "instances": instances, "budget": 100},
            ensure_ascii=False))
        for data in instances:
            # The text target: the schema on the first line, the instance as text.
            put("text", json.dumps(schema, ensure_ascii=False) + "\n"
                + json.dumps(data, ensure_ascii=False, indent=1))
        for pattern in patterns(schema):
            put("regex", pattern)
        if isinstance(schema, dict) and schema.get("format") == "regex":
            for data in instances:
                if isinstance(data, str):
                    put("regex", data)

for target in ("compile", "validate", "regex", "text"):
    regressions = pathlib.Path("fuzz/regressions") / target
    if regressions.is_dir():
        for path in sorted(regressions.iterdir()):
            if path.is_file():
                put(target, path.read_bytes())

for target in sorted(counts):
    print(f"seed-corpus: {counts[target]} new inputs in fuzz/corpus/{target}/")
PY
