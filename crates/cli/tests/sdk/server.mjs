// A real MCP server on the TypeScript SDK (@modelcontextprotocol/sdk from npm), with no
// validation of its own: the low-level `Server` hands every tools/call to the handler as
// it arrives, which records it (one JSON line per call, to the file named by $MCP_RECORD)
// before answering.
//
//     node server.mjs stdio
//     node server.mjs http PORT [json]
//
// Over HTTP it answers each request with an SSE stream, or with a JSON body given `json`.
//
// The tools are tools.json beside this file, as server.py serves them. This SDK speaks
// the handshake-era protocol (2025-11-25 and before), which allows object output schemas
// only: `get_hourly` is listed without its array outputSchema and answers with text.
import { readFileSync, appendFileSync } from "node:fs";
import http from "node:http";
import { randomUUID } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  isInitializeRequest,
} from "@modelcontextprotocol/sdk/types.js";

const TOOLS = JSON.parse(readFileSync(new URL("./tools.json", import.meta.url))).tools.map(
  (tool) => {
    const listed = { ...tool };
    if ((listed.outputSchema?.type ?? "object") !== "object") delete listed.outputSchema;
    return listed;
  },
);

function forecast(args) {
  if (args.city === "Nowhere") return [{ hour: 10, temp: "warm" }];
  const hours = [];
  for (let h = 0; h < (args.days ?? 1) * 2; h++) {
    hours.push({ hour: `${String(h).padStart(2, "0")}:00`, temp: 4.5 + h, conditions: "sunny" });
  }
  return hours;
}

function text(value) {
  return [{ type: "text", text: JSON.stringify(value) }];
}

function makeServer() {
  const server = new Server({ name: "typescript-sdk-server", version: "1" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    appendFileSync(process.env.MCP_RECORD, JSON.stringify({ server: "typescript", tool: name, arguments: args }) + "\n");
    if (name === "get_weather") {
      const result = { city: args.city === "Nowhere" ? 0 : args.city, hours: forecast(args) };
      return { content: text(result), structuredContent: result };
    }
    if (name === "get_hourly") return { content: text(forecast(args)) };
    if (name === "find-by-id-or-name") return { content: text({ id: args.id ?? 0, name: args.name ?? "?" }) };
    return { content: [{ type: "text", text: "called" }] };
  });
  return server;
}

async function readBody(request) {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  const body = Buffer.concat(chunks).toString("utf8");
  return body ? JSON.parse(body) : undefined;
}

async function serveHttp(port, json) {
  const sessions = new Map();
  http
    .createServer(async (request, response) => {
      try {
        const body = request.method === "POST" ? await readBody(request) : undefined;
        const id = request.headers["mcp-session-id"];
        let transport = id ? sessions.get(id) : undefined;
        if (!transport) {
          if (request.method !== "POST" || !isInitializeRequest(body)) {
            response.writeHead(400, { "content-type": "application/json" });
            response.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "no session" } }));
            return;
          }
          transport = new StreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            enableJsonResponse: json,
            onsessioninitialized: (sessionId) => sessions.set(sessionId, transport),
          });
          transport.onclose = () => sessions.delete(transport.sessionId);
          await makeServer().connect(transport);
        }
        await transport.handleRequest(request, response, body);
      } catch (error) {
        console.error(error);
        if (!response.headersSent) response.writeHead(500).end();
      }
    })
    .listen(port, "127.0.0.1");
}

if (process.argv[2] === "stdio") {
  await makeServer().connect(new StdioServerTransport());
} else {
  await serveHttp(Number(process.argv[3]), process.argv[4] === "json");
}
