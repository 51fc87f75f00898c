"""The engine in the official MCP Python SDK (``mcp`` 2.x on PyPI).

Client side: the SDK checks each tool result's structured content against the tool's
``outputSchema`` in ``ClientSession.validate_tool_result``, with python-jsonschema.
``install()`` (one line, once per process) puts this engine there for every session,
the ones ``mcp.Client`` builds included; ``ValidatingClientSession`` does the same for a
session you construct yourself::

    import mcp_jsonschema.sdk
    mcp_jsonschema.sdk.install()

What changes: output schemas compile under the MCP profile (bounds, a step budget,
same-document references only: a ``$ref`` to anything else refuses the schema, and
nothing is ever fetched), once per schema content (a shared ``SchemaCache``); a result
that breaks its schema raises the SDK's ``RuntimeError``, worded as the SDK words it,
carrying this engine's message and JSON Pointers. What stays: when the SDK validates
(``call_tool`` on results that are not errors), a missing structured content is still
an error, and a tool the server never listed is still let through with a warning.

Server side: the low-level ``mcp.server.lowlevel.Server`` passes ``tools/call``
arguments to ``on_call_tool`` unchecked. ``validate_arguments(tools)`` wraps such a
handler: arguments that break the tool's ``inputSchema`` are answered with a tool error
(``isError: true``, one line per error, hints included) and the handler is not called::

    server = Server("weather", on_list_tools=list_tools,
                    on_call_tool=validate_arguments(TOOLS)(call_tool))
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, TypeVar

import mcp_types as types
from mcp.client.session import ClientSession

from mcp_jsonschema._errors import SchemaError, ValidationError
from mcp_jsonschema.mcp import SchemaCache, ToolSchema

__all__ = [
    "ValidatingClientSession",
    "install",
    "installed",
    "uninstall",
    "validate_arguments",
    "arguments_error",
]

logger = logging.getLogger(__name__)

SCHEMAS = SchemaCache(1024)
"""The compiled output and input schemas, shared by every session of the process."""

_SDK_VALIDATE_TOOL_RESULT = ClientSession.validate_tool_result


async def _validate_tool_result(
    self: ClientSession, name: str, result: types.CallToolResult
) -> None:
    """``ClientSession.validate_tool_result`` with this engine (same contract)."""
    schemas = self._tool_output_schemas  # the SDK's own cache of listed output schemas
    if name not in schemas:
        await self.list_tools()
        schemas = self._tool_output_schemas
    if name not in schemas:
        logger.warning(f"Tool {name} not listed by server, cannot validate any structured content")
        return
    output_schema = schemas.get(name)
    if output_schema is None:
        return
    if result.structured_content is None and "structured_content" not in result.model_fields_set:
        raise RuntimeError(f"Tool {name} has an output schema but did not return structured content")
    try:
        tool = SCHEMAS.output(output_schema)
    except (SchemaError, TypeError) as error:
        raise RuntimeError(f"Invalid schema for tool {name}: {error}") from error
    try:
        tool.validate(result.structured_content)
    except (ValidationError, TypeError) as error:
        raise RuntimeError(f"Invalid structured content returned by tool {name}: {error}") from error


class ValidatingClientSession(ClientSession):
    """A ``ClientSession`` whose tool results are checked by mcp_jsonschema."""

    validate_tool_result = _validate_tool_result


def install() -> None:
    """Makes every ``ClientSession`` (and so every ``mcp.Client``) of the process check
    tool results with mcp_jsonschema. Idempotent."""
    ClientSession.validate_tool_result = _validate_tool_result  # type: ignore[method-assign]


def uninstall() -> None:
    """Gives ``ClientSession`` back the SDK's own result check."""
    ClientSession.validate_tool_result = _SDK_VALIDATE_TOOL_RESULT  # type: ignore[method-assign]


def installed() -> bool:
    """Whether ``install()`` is in effect."""
    return ClientSession.validate_tool_result is _validate_tool_result


def _input_schemas(tools: Iterable[types.Tool] | Mapping[str, Any]) -> dict[str, ToolSchema]:
    if isinstance(tools, Mapping):
        pairs = list(tools.items())
    else:
        pairs = [(tool.name, tool.input_schema) for tool in tools]
    compiled = {}
    for name, schema in pairs:
        try:
            compiled[name] = SCHEMAS.input(schema)
        except SchemaError as error:
            raise SchemaError(
                f"tool {name}: inputSchema: {error}", error.location, error.kind, error.message
            ) from error
    return compiled


def arguments_error(
    name: str, schema: ToolSchema, arguments: Mapping[str, Any] | None
) -> types.CallToolResult | None:
    """The tool error to answer a call with when ``arguments`` break ``schema`` (missing
    arguments are checked as ``{}``), or None when they conform."""
    errors = list(schema.iter_errors({} if arguments is None else arguments))
    if not errors:
        return None
    lines = "\n".join(str(error) for error in errors)
    text = f'invalid arguments for tool "{name}":\n{lines}'
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)


Handler = TypeVar("Handler", bound=Callable[..., Awaitable[Any]])


def validate_arguments(
    tools: Iterable[types.Tool] | Mapping[str, Any],
) -> Callable[[Handler], Handler]:
    """A decorator for a low-level server's ``on_call_tool(ctx, params)`` handler: each
    call's arguments are checked against its tool's ``inputSchema`` (compiled once,
    under the MCP profile; a schema that does not compile raises ``SchemaError`` here,
    naming the tool); a call that breaks it gets a tool error, one line per error, and
    the handler does not run. Calls of tools not in ``tools`` reach the handler as they
    are. ``tools`` is the list ``on_list_tools`` returns, or a mapping of tool names to
    input schemas."""
    schemas = _input_schemas(tools)

    def decorate(handler: Handler) -> Handler:
        @functools.wraps(handler)
        async def checked(ctx: Any, params: types.CallToolRequestParams) -> Any:
            schema = schemas.get(params.name)
            if schema is not None:
                refused = arguments_error(params.name, schema, params.arguments)
                if refused is not None:
                    return refused
            return await handler(ctx, params)

        return checked  # type: ignore[return-value]

    return decorate
