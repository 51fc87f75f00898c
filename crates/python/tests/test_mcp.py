"""mcp_jsonschema.mcp: the MCP profile's tool schemas, text fallback, tools/list checker
and cache."""

from __future__ import annotations

import pytest

from mcp_jsonschema import SchemaError, ValidationError, Validator
from mcp_jsonschema import mcp


def test_input_schemas():
    tool = mcp.ToolSchema.input({"properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
                                 "oneOf": [{"required": ["id"]}, {"required": ["name"]}]})
    assert tool.role == "input"
    assert tool.is_valid({"id": 7})
    assert not tool.is_valid({"id": 7, "name": "x"})
    wire = tool.to_wire()
    assert wire["type"] == "object"
    assert wire["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    with pytest.raises(SchemaError, match='inputSchema must have type "object", got "array"'):
        mcp.ToolSchema.input({"type": "array"})


def test_output_schemas_of_any_shape():
    tool = mcp.ToolSchema.output({"type": "array", "items": {"type": "string"}})
    assert tool.role == "output"
    assert tool.is_valid(["a"])
    with pytest.raises(ValidationError, match='/0: expected string, got integer 1'):
        tool.validate([1])
    assert mcp.ToolSchema.output({"properties": {"a": {}}}).to_wire()["type"] == "object"
    assert "type" not in mcp.ToolSchema.output({"anyOf": [{"type": "string"}]}).to_wire()


def test_the_profile_refuses_other_documents_and_draft_4():
    with pytest.raises(SchemaError) as caught:
        mcp.ToolSchema.input({"properties": {"n": {"$ref": "https://example.com/n.json"}}})
    assert caught.value.kind == "forbidden_reference"
    assert caught.value.location == "/properties/n/$ref"
    with pytest.raises(SchemaError):
        mcp.ToolSchema.input({"$schema": "http://json-schema.org/draft-04/schema#"})


def test_the_profile_bounds():
    deep = {}
    for _ in range(mcp.MAX_SCHEMA_DEPTH + 1):
        deep = {"items": deep}
    with pytest.raises(SchemaError) as caught:
        mcp.ToolSchema.output(deep)
    assert caught.value.kind == "limit_exceeded"
    assert mcp.MAX_SUBSCHEMAS == 10_000 and mcp.MAX_EVALUATION_DEPTH == 256
    # Work past the profile's step budget stops the validation: an error that says so,
    # never a pass, where a validator without a budget finds the instance valid.
    schema = {"type": "array", "items": {"pattern": "^(?:(?=a)a)*$"}}
    instance = ["a" * 10_000] * 200  # about 60,000 backtracking steps a string
    assert Validator(schema).is_valid(instance)
    tool = mcp.ToolSchema.output(schema)
    assert not tool.is_valid(instance)
    with pytest.raises(ValidationError) as stopped:
        tool.validate(instance)
    assert stopped.value.kind == "budget_exhausted"


def test_text_fallback():
    assert mcp.text_fallback([1, 2]) == {"type": "text", "text": "[1,2]"}
    assert mcp.text_fallback({"a": 1}) is None
    assert mcp.text_fallback("x", [{"type": "text", "text": "x"}]) is None
    assert mcp.text_fallback(3, [{"type": "image", "data": "", "mimeType": "image/png"}]) == {"type": "text", "text": "3"}


def test_check_tools_list():
    reports = mcp.check_tools_list({"tools": [
        {"name": "ok", "inputSchema": {"type": "object"}, "outputSchema": {"type": "array"}},
        {"name": "bad", "inputSchema": {"type": "object", "properties": {"n": {"$ref": "https://x/s.json"}}}},
        {"inputSchema": {"type": "object"}},
    ]})
    assert [r.name for r in reports] == ["ok", "bad", "<unnamed #2>"]
    assert reports[0].ok and isinstance(reports[0].input, mcp.ToolSchema)
    assert isinstance(reports[0].output, mcp.ToolSchema)
    assert not reports[1].ok
    assert isinstance(reports[1].input, SchemaError)
    assert reports[1].output is None
    assert reports[1].problems[0].startswith("bad: inputSchema: /properties/n/$ref: reference")
    assert reports[2].ok


def test_schema_cache():
    cache = mcp.SchemaCache(2)
    assert len(cache) == 0 and cache.capacity == 2
    a = cache.input({"type": "object"})
    cache.input({"type": "object"})
    assert len(cache) == 1
    assert a.is_valid({})
    assert cache.memory_usage() > 0
    for n in range(5):
        cache.output({"const": n})
    assert len(cache) == 2
    with pytest.raises(SchemaError):
        cache.input({"type": "array"})
    assert len(cache) == 2
