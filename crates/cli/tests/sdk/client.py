"""A real MCP client on the Python SDK (`mcp` from PyPI): lists the tools, makes the calls
of calls.json beside this file, and prints what it got back as one JSON object.

    python client.py stdio CMD ARGS...     (the server command: the proxy, here)
    python client.py http URL

The client negotiates as the SDK does by default: `server/discover` first (2026-07-28),
the `initialize` handshake with a server that does not know it.
"""

import json
import os
import sys
from pathlib import Path

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

CALLS = json.loads((Path(__file__).parent / "calls.json").read_text())


async def main():
    if sys.argv[1] == "stdio":
        server = StdioServerParameters(command=sys.argv[2], args=sys.argv[3:], env=dict(os.environ))
    else:
        server = sys.argv[2]
    report = {}
    async with Client(server, read_timeout_seconds=30) as client:
        report["protocol"] = client.protocol_version
        listed = await client.list_tools()
        report["tools"] = sorted(tool.name for tool in listed.tools)
        for label, name, arguments in CALLS:
            try:
                result = await client.call_tool(name, arguments)
                report[label] = {
                    "isError": result.is_error,
                    "text": [block.text for block in result.content if block.type == "text"],
                    "structured": result.structured_content,
                }
            except Exception as error:
                report[label] = {"error": getattr(error, "code", None), "message": str(error)}
    print(json.dumps(report))


anyio.run(main)
