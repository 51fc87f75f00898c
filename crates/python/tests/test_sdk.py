"""The engine inside the official MCP Python SDK (``mcp`` from PyPI): a real low-level
server and a real client in one process, over the SDK's in-memory transport."""

from __future__ import annotations

from typing import Any

import pytest

mcp = pytest.importorskip("mcp", reason="the MCP Python SDK (mcp) is not installed")

import anyio  # noqa: E402  (installed with mcp)
import mcp_types as types  # noqa: E402
from mcp import Client  # noqa: E402
from mcp.client.session import ClientSession  # noqa: E402
from mcp.server.lowlevel import Server  # noqa: E402

import mcp_jsonschema.sdk as sdk  # noqa: E402
from mcp_jsonschema import SchemaError  # noqa: E402

WEATHER_OUTPUT = {
    "type": "object",
    "properties": {"temperature": {"type": "number"}, "units": {"enum": ["metric", "imperial"]}},
    "required": ["temperature", "units"],
}
WEATHER_INPUT = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "minLength": 1},
        "days": {"type": "integer", "minimum": 1, "maximum": 7},
    },
    "required": ["city"],
    "additionalProperties": False,
}

TOOLS = [
    types.Tool(name="weather", input_schema=WEATHER_INPUT, output_schema=WEATHER_OUTPUT),
    # SEP-2106: an output schema whose root is not an object.
    types.Tool(
        name="cities",
        input_schema={"type": "object"},
        output_schema={"type": "array", "items": {"type": "string"}},
    ),
    types.Tool(
        name="remote",
        input_schema={"type": "object"},
        output_schema={"$ref": "https://example.com/schemas/result.json"},
    ),
]


def server(results: dict[str, Any], calls: list[str], tools: list[types.Tool] = TOOLS) -> Server[Any]:
    """A low-level server answering each tool with the structured content in `results`."""

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    @sdk.validate_arguments(tools)
    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        calls.append(params.name)
        structured = results[params.name]
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=repr(structured))],
            structured_content=structured,
        )

    return Server("weather", on_list_tools=list_tools, on_call_tool=call_tool)


def call(results: dict[str, Any], name: str, arguments: dict[str, Any]) -> tuple[Any, list[str]]:
    """Calls `name` through a real client; the result, or the exception raised."""
    calls: list[str] = []

    async def main() -> Any:
        async with Client(server(results, calls)) as client:
            try:
                return await client.call_tool(name, arguments)
            except Exception as error:  # the SDK's RuntimeError is what is checked
                return error

    return anyio.run(main), calls


@pytest.fixture
def installed():
    sdk.install()
    try:
        yield
    finally:
        sdk.uninstall()


def test_install_replaces_the_sdk_check_and_uninstall_restores_it():
    assert not sdk.installed()
    sdk.install()
    sdk.install()
    assert sdk.installed()
    assert ClientSession.validate_tool_result is sdk.ValidatingClientSession.validate_tool_result
    sdk.uninstall()
    assert not sdk.installed()


def test_a_valid_result_passes(installed):
    result, calls = call(
        {"weather": {"temperature": 21.5, "units": "metric"}}, "weather", {"city": "Oslo"}
    )
    assert isinstance(result, types.CallToolResult), result
    assert result.structured_content == {"temperature": 21.5, "units": "metric"}
    assert calls == ["weather"]


def test_a_result_that_breaks_its_output_schema_raises_the_sdks_runtime_error(installed):
    result, _ = call({"weather": {"temperature": "21", "units": "kelvin"}}, "weather", {"city": "Oslo"})
    assert isinstance(result, RuntimeError), result
    text = str(result)
    assert text.startswith("Invalid structured content returned by tool weather: ")
    # Our first error, its pointer and its hint.
    assert '/temperature: expected number, got string "21"' in text
    assert "send the number itself, not a JSON-encoded string" in text
    cause = result.__cause__
    assert cause.instance_location == "/temperature"
    assert cause.schema_location == "/properties/temperature/type"


def test_without_install_the_sdk_reports_with_its_own_validator():
    result, _ = call({"weather": {"temperature": "21", "units": "metric"}}, "weather", {"city": "Oslo"})
    assert isinstance(result, RuntimeError)
    assert "'21' is not of type 'number'" in str(result)


def test_a_non_object_output_schema_works(installed):
    result, _ = call({"cities": ["Oslo", "Lima"]}, "cities", {})
    assert isinstance(result, types.CallToolResult), result
    assert result.structured_content == ["Oslo", "Lima"]
    result, _ = call({"cities": ["Oslo", 7]}, "cities", {})
    assert isinstance(result, RuntimeError)
    assert "/1: expected string, got integer 7" in str(result)


def test_a_network_ref_is_refused_without_a_fetch(installed, monkeypatch):
    import socket

    def no_network(*args, **kwargs):
        raise AssertionError("a network connection was attempted")

    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(socket.socket, "connect", no_network)
    result, _ = call({"remote": {"anything": 1}}, "remote", {})
    assert isinstance(result, RuntimeError), result
    assert str(result).startswith("Invalid schema for tool remote: /$ref: reference")
    assert "https://example.com/schemas/result.json" in str(result)
    assert result.__cause__.kind == "forbidden_reference"


def test_the_session_subclass_checks_results_too():
    async def main() -> Any:
        from mcp.client._memory import InMemoryTransport

        results = {"weather": {"temperature": 1, "units": "kelvin"}}
        # A session of its own speaks the 2025-11-25 handshake, whose output schemas are
        # objects: the weather tool alone.
        async with InMemoryTransport(server(results, [], TOOLS[:1])) as (read, write):
            async with sdk.ValidatingClientSession(read, write) as session:
                await session.initialize()
                try:
                    await session.call_tool("weather", {"city": "Oslo"})
                except RuntimeError as error:
                    return error

    error = anyio.run(main)
    assert isinstance(error, RuntimeError)
    assert '/units: expected one of "metric", "imperial", got "kelvin"' in str(error)


def test_bad_arguments_get_a_tool_error_and_the_tool_does_not_run():
    result, calls = call({}, "weather", {"city": "", "days": 10, "verbose": True})
    assert isinstance(result, types.CallToolResult), result
    assert result.is_error
    assert calls == []
    text = result.content[0].text
    lines = text.splitlines()
    assert lines[0] == 'invalid arguments for tool "weather":'
    assert "/city: " in text and "/days: 10 is greater than the maximum of 7" in text
    assert any(line.startswith("/verbose: ") for line in lines)


def test_a_hint_reaches_the_tool_error():
    result, calls = call({}, "weather", {"city": "Oslo", "days": "3"})
    assert result.is_error and calls == []
    assert "send the number itself, not a JSON-encoded string" in result.content[0].text


def test_good_arguments_reach_the_tool():
    result, calls = call({"weather": {"temperature": 3, "units": "metric"}}, "weather", {"city": "Oslo", "days": 2})
    assert not result.is_error
    assert calls == ["weather"]


def test_an_input_schema_that_does_not_compile_names_the_tool():
    with pytest.raises(SchemaError, match="tool bad: inputSchema: /properties/n/minimum"):
        sdk.validate_arguments({"bad": {"type": "object", "properties": {"n": {"minimum": "1"}}}})


def test_arguments_error_checks_missing_arguments_as_an_empty_object():
    from mcp_jsonschema.mcp import ToolSchema

    tool = ToolSchema.input({"required": ["city"]})
    refused = sdk.arguments_error("weather", tool, None)
    assert refused.is_error
    assert refused.content[0].text.endswith('(root): missing required property "city"')
    assert sdk.arguments_error("weather", tool, {"city": "Oslo"}) is None
