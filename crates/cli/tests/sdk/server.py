"""A real MCP server on the Python SDK (`mcp` from PyPI), with no validation of its own:
the low-level `Server` hands every tools/call to `call_tool` as it arrives, which records
it (one JSON line per call, to the file named by $MCP_RECORD) before answering.

    python server.py stdio
    python server.py http PORT [json]

Over HTTP it answers each request with an SSE stream, or with a JSON body given `json`.

The tools are tools.json beside this file. `get_weather` and `get_hourly` answer with a
forecast that breaks their outputSchema when the city is "Nowhere" (a server bug the proxy
must catch). A handshake-era client (2025-11-25 and before) gets `get_hourly` without its
array outputSchema and its result as text alone, since those versions allow object output
schemas only (the SDK refuses anything else).
"""

import json
import os
import sys
from pathlib import Path

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server

TOOLS = json.loads((Path(__file__).parent / "tools.json").read_text())["tools"]


def record(name, arguments):
    with open(os.environ["MCP_RECORD"], "a") as out:
        out.write(json.dumps({"server": "python", "tool": name, "arguments": arguments}) + "\n")


def forecast(arguments):
    if arguments.get("city") == "Nowhere":
        return [{"hour": 10, "temp": "warm"}]
    days = arguments.get("days", 1)
    return [{"hour": f"{h:02}:00", "temp": 4.5 + h, "conditions": "sunny"} for h in range(days * 2)]


def modern(ctx):
    return ctx.protocol_version >= "2026-07-28"


async def list_tools(ctx, params):
    tools = [dict(tool) for tool in TOOLS]
    if not modern(ctx):
        for tool in tools:
            if tool.get("outputSchema", {}).get("type", "object") != "object":
                del tool["outputSchema"]
    return types.ListToolsResult(tools=[types.Tool.model_validate(tool) for tool in tools])


async def call_tool(ctx, params):
    arguments = params.arguments if params.arguments is not None else {}
    record(params.name, arguments)
    if params.name == "get_weather":
        result = {"city": arguments["city"], "hours": forecast(arguments)}
        if arguments["city"] == "Nowhere":
            result = {"city": 0, "hours": forecast(arguments)}
        return types.CallToolResult(
            content=[types.TextContent(text=json.dumps(result))], structured_content=result
        )
    if params.name == "get_hourly":
        hours = forecast(arguments)
        structured = hours if modern(ctx) else None
        return types.CallToolResult(
            content=[types.TextContent(text=json.dumps(hours))], structured_content=structured
        )
    if params.name == "find-by-id-or-name":
        found = {"id": arguments.get("id", 0), "name": arguments.get("name", "?")}
        return types.CallToolResult(content=[types.TextContent(text=json.dumps(found))])
    return types.CallToolResult(content=[types.TextContent(text="called")])


server = Server("python-sdk-server", version="1", on_list_tools=list_tools, on_call_tool=call_tool)


async def stdio():
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def main():
    if sys.argv[1] == "stdio":
        anyio.run(stdio)
    else:
        import uvicorn

        app = server.streamable_http_app(json_response=sys.argv[3:] == ["json"])
        uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")


if __name__ == "__main__":
    main()
