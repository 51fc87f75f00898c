// A real MCP client on the TypeScript SDK (@modelcontextprotocol/sdk from npm): lists the
// tools, makes the calls of calls.json beside this file, and prints what it got back as
// one JSON object, as client.py does.
//
//     node client.mjs stdio CMD ARGS...     (the server command: the proxy, here)
//     node client.mjs http URL
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const CALLS = JSON.parse(readFileSync(new URL("./calls.json", import.meta.url)));
const [mode, target, ...args] = process.argv.slice(2);
const transport =
  mode === "stdio"
    ? new StdioClientTransport({ command: target, args, env: { ...process.env }, stderr: "inherit" })
    : new StreamableHTTPClientTransport(new URL(target));
// The client tells its transport the version the server answered `initialize` with.
let protocol = null;
const setProtocolVersion = transport.setProtocolVersion?.bind(transport);
transport.setProtocolVersion = (version) => {
  protocol = version;
  setProtocolVersion?.(version);
};
const client = new Client({ name: "typescript-sdk-client", version: "1" });
await client.connect(transport);
const report = { protocol };
const listed = await client.listTools();
report.tools = listed.tools.map((tool) => tool.name).sort();
for (const [label, name, argumentsGiven] of CALLS) {
  try {
    const result = await client.callTool({ name, arguments: argumentsGiven });
    report[label] = {
      isError: result.isError ?? false,
      text: result.content.filter((block) => block.type === "text").map((block) => block.text),
      structured: result.structuredContent ?? null,
    };
  } catch (error) {
    report[label] = { error: error.code ?? null, message: error.message };
  }
}
console.log(JSON.stringify(report));
await client.close();
