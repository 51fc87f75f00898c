"""The in-process Bowtie harness (mcp_jsonschema.bowtie) speaks Bowtie's protocol; the
real Bowtie runs it over the whole suite in scripts/bowtie.sh."""

from __future__ import annotations

import asyncio
import re

from mcp_jsonschema.bowtie import DIALECTS, harness


def talk(*messages):
    connection = harness()()
    return [asyncio.run(connection.request(message)) for message in messages]


def test_start_dialect_run_stop():
    started, dialect, unknown, ran, stopped = talk(
        {"cmd": "start", "version": 1},
        {"cmd": "dialect", "dialect": "http://json-schema.org/draft-04/schema#"},
        {"cmd": "dialect", "dialect": "http://json-schema.org/draft-03/schema#"},
        {
            "cmd": "run",
            "seq": 7,
            "case": {
                "description": "draft 4's boolean exclusiveMaximum",
                "schema": {"maximum": 5, "exclusiveMaximum": True, "items": {"$ref": "http://localhost:1234/int.json"}},
                "registry": {"http://localhost:1234/int.json": {"type": "integer"}},
                "tests": [{"description": "at the bound", "instance": 5}, {"description": "below", "instance": [1]},
                          {"description": "not JSON", "instance": {1, 2}}],
            },
        },
        {"cmd": "stop"},
    )
    implementation = started["implementation"]
    assert started["version"] == 1
    assert re.fullmatch(r"[A-Za-z][\w\-.]*[A-Za-z0-9]", implementation["name"])
    assert implementation["dialects"] == list(DIALECTS)
    assert dialect == {"ok": True} and unknown == {"ok": False}
    assert ran["seq"] == 7
    assert ran["results"][:2] == [{"valid": False}, {"valid": True}]
    assert ran["results"][2]["errored"] is True
    assert stopped == {}


def test_a_schema_that_does_not_compile_errors_the_case():
    (ran,) = talk({"cmd": "run", "seq": 1, "case": {"schema": {"minimum": "x"}, "tests": [{"instance": 1}]}})
    assert ran["errored"] is True
    assert "/minimum" in ran["context"]["message"]


def test_annotations():
    (ran,) = talk(
        {
            "cmd": "run",
            "seq": 2,
            "output": "annotations",
            "case": {"schema": {"properties": {"a/b": {"title": "T"}}}, "tests": [{"instance": {"a/b": 1}}]},
        }
    )
    result = ran["results"][0]
    assert result["valid"] is True
    assert {"keyword": "title", "instanceLocation": "/a~1b", "keywordLocation": "#/properties/a~1b/title",
            "annotation": "T"} in result["annotations"]
