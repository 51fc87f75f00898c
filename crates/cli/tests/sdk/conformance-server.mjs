// A Streamable HTTP MCP server on the official TypeScript SDK (@modelcontextprotocol/sdk 1.x),
// written for the server scenarios of the MCP conformance suite
// (@modelcontextprotocol/conformance: the active suite, plus the pending server-sse-polling
// and json-schema-2020-12): every tool, resource and prompt below is one that a scenario
// asks for by name, shaped the way that scenario's checks expect.
// The project uses it as a real SDK server to run the suite against, directly and through
// the proxy.
//
//     node conformance-server.mjs PORT      # run from a directory whose node_modules has the SDK
//     npx @modelcontextprotocol/conformance server --url http://localhost:PORT/mcp
//
// It binds 127.0.0.1, serves MCP at /mcp and prints `listening on PORT` once ready.
// Sessions: an initialize without Mcp-Session-Id opens a session (its own transport and
// McpServer); later requests carry the id, DELETE ends the session, an unknown id gets 404.
// Each session keeps its SSE events in memory, so a client can resume a stream with
// Last-Event-ID. The SDK's Host-header check (createMcpExpressApp) guards against DNS
// rebinding. Beyond the suite, test_simple_text and test_sampling declare an outputSchema and
// answer with matching structuredContent, so a proxy's output validation is exercised too.
import { randomUUID } from "node:crypto";
import * as z from "zod";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { completable } from "@modelcontextprotocol/sdk/server/completable.js";
import { createMcpExpressApp } from "@modelcontextprotocol/sdk/server/express.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  isInitializeRequest,
  LoggingLevelSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

const PORT = Number(process.argv[2] ?? process.env.PORT ?? 3000);

// A 1x1 red PNG, and a short silent 8 kHz mono 16-bit WAV built at startup.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR42mP4z8AAAAMBAQD3A0FDAAAAAElFTkSuQmCC";
const WAV = (() => {
  const samples = 800; // 0.1 s
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write("RIFF", 0); wav.writeUInt32LE(36 + samples * 2, 4); wav.write("WAVE", 8);
  wav.write("fmt ", 12); wav.writeUInt32LE(16, 16); wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); wav.writeUInt32LE(8000, 24); wav.writeUInt32LE(16000, 28);
  wav.writeUInt16LE(2, 32); wav.writeUInt16LE(16, 34);
  wav.write("data", 36); wav.writeUInt32LE(samples * 2, 40);
  return wav.toString("base64");
})();

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const text = (t) => ({ type: "text", text: t });

// The JSON Schema 2020-12 input schema of json-schema-2020-12's tool. The SDK lists zod
// schemas only, and a zod schema's metadata is merged into the JSON Schema it produces, so
// this document rides on an accept-anything zod object and is listed exactly as written.
const SCHEMA_2020_12 = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: {
    address: {
      $anchor: "addressDef",
      type: "object",
      properties: { street: { type: "string" }, city: { type: "string" } },
    },
  },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
};

// In-memory EventStore (one per session): every SSE event the transport sends is kept, so a
// GET with Last-Event-ID replays what came after it on the same stream.
class MemoryEventStore {
  events = new Map(); // eventId -> { streamId, message }, in the order stored
  count = 0;
  async storeEvent(streamId, message) {
    const eventId = `${streamId}_${++this.count}`;
    this.events.set(eventId, { streamId, message });
    return eventId;
  }
  async getStreamIdForEventId(eventId) {
    return this.events.get(eventId)?.streamId;
  }
  async replayEventsAfter(lastEventId, { send }) {
    const streamId = this.events.get(lastEventId)?.streamId;
    if (streamId === undefined) throw new Error(`unknown event id ${lastEventId}`);
    let after = false;
    for (const [eventId, event] of this.events) {
      if (eventId === lastEventId) after = true;
      // Priming events are stored as `{}`; only real JSON-RPC messages are replayed.
      else if (after && event.streamId === streamId && "jsonrpc" in event.message) await send(eventId, event.message);
    }
    return streamId;
  }
}

// One McpServer per session, with everything the suite's server scenarios ask for.
function makeServer() {
  const server = new McpServer(
    { name: "conformance-sdk-server", version: "1.0.0" },
    { capabilities: { resources: { subscribe: true } } },
  );

  // logging/setLevel: remember the session's level and drop quieter messages (log() below).
  const severity = LoggingLevelSchema.options; // debug ... emergency, least severe first
  let minLevel = "debug";
  server.server.registerCapabilities({ logging: {} });
  server.server.setRequestHandler(SetLevelRequestSchema, (request) => {
    minLevel = request.params.level;
    return {};
  });
  // Notifications go through `extra`, so they travel on the calling request's SSE stream.
  const log = (extra, level, data) =>
    severity.indexOf(level) < severity.indexOf(minLevel)
      ? Promise.resolve()
      : extra.sendNotification({ method: "notifications/message", params: { level, logger: "conformance", data } });

  // resources/subscribe and resources/unsubscribe: track the subscribed URIs.
  const subscriptions = new Set();
  server.server.setRequestHandler(SubscribeRequestSchema, (request) => {
    subscriptions.add(request.params.uri);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscriptions.delete(request.params.uri);
    return {};
  });

  // ---- tools ----
  server.registerTool(
    "test_simple_text",
    {
      description: "Returns a simple text response (and the same text as structured content)",
      outputSchema: { text: z.string() },
    },
    () => {
      const reply = "This is a simple text response for testing.";
      return { content: [text(reply)], structuredContent: { text: reply } };
    },
  );
  server.registerTool("test_image_content", { description: "Returns a 1x1 PNG image" }, () => ({
    content: [{ type: "image", data: PNG, mimeType: "image/png" }],
  }));
  server.registerTool("test_audio_content", { description: "Returns a short WAV clip" }, () => ({
    content: [{ type: "audio", data: WAV, mimeType: "audio/wav" }],
  }));
  server.registerTool("test_embedded_resource", { description: "Returns an embedded text resource" }, () => ({
    content: [
      {
        type: "resource",
        resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." },
      },
    ],
  }));
  server.registerTool(
    "test_multiple_content_types",
    { description: "Returns text, an image and an embedded resource" },
    () => ({
      content: [
        text("Multiple content types test:"),
        { type: "image", data: PNG, mimeType: "image/png" },
        {
          type: "resource",
          resource: {
            uri: "test://mixed-content-resource",
            mimeType: "application/json",
            text: JSON.stringify({ test: "data", value: 123 }),
          },
        },
      ],
    }),
  );
  server.registerTool(
    "test_tool_with_logging",
    { description: "Sends three info log messages while it runs" },
    async (extra) => {
      await log(extra, "info", "Tool execution started");
      await sleep(50);
      await log(extra, "info", "Tool processing data");
      await sleep(50);
      await log(extra, "info", "Tool execution completed");
      return { content: [text("Tool with logging executed successfully")] };
    },
  );
  server.registerTool(
    "test_tool_with_progress",
    { description: "Reports progress 0, 50 and 100 of 100 when given a progress token" },
    async (extra) => {
      const progressToken = extra._meta?.progressToken;
      for (const progress of [0, 50, 100]) {
        if (progressToken !== undefined) {
          await extra.sendNotification({
            method: "notifications/progress",
            params: { progressToken, progress, total: 100, message: `step ${progress}/100` },
          });
        }
        if (progress < 100) await sleep(50);
      }
      return { content: [text("Tool with progress executed successfully")] };
    },
  );
  server.registerTool("test_error_handling", { description: "Always fails" }, () => {
    // McpServer turns a thrown error into a result with isError: true.
    throw new Error("This tool intentionally returns an error for testing");
  });
  server.registerTool(
    "test_sampling",
    {
      description: "Asks the client's LLM (sampling/createMessage) to answer a prompt",
      inputSchema: { prompt: z.string().describe("The prompt to send to the LLM") },
      outputSchema: { model: z.string(), response: z.string() },
    },
    async ({ prompt }, extra) => {
      // Sent as part of this call, so the SDK first checks the client declared `sampling`.
      const result = await extra.sendRequest(
        {
          method: "sampling/createMessage",
          params: { messages: [{ role: "user", content: text(prompt) }], maxTokens: 100 },
        },
        CreateMessageResultSchema,
      );
      const response = result.content?.type === "text" ? result.content.text : JSON.stringify(result.content);
      return {
        content: [text(`LLM response: ${response}`)],
        structuredContent: { model: result.model, response },
      };
    },
  );
  // Asks the client for input (elicitation/create) and reports what came back.
  const elicit = async (extra, params, label) => {
    const result = await extra.sendRequest({ method: "elicitation/create", params }, ElicitResultSchema);
    return { content: [text(`${label}: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`)] };
  };
  server.registerTool(
    "test_elicitation",
    {
      description: "Asks the user for a username and email (elicitation/create)",
      inputSchema: { message: z.string().describe("The message to show the user") },
    },
    ({ message }, extra) =>
      elicit(
        extra,
        {
          message,
          requestedSchema: {
            type: "object",
            properties: {
              username: { type: "string", description: "User's response" },
              email: { type: "string", description: "User's email address" },
            },
            required: ["username", "email"],
          },
        },
        "User response",
      ),
  );
  server.registerTool(
    "test_elicitation_sep1034_defaults",
    { description: "Elicitation whose fields of every primitive type carry defaults (SEP-1034)" },
    (extra) =>
      elicit(
        extra,
        {
          message: "Please review the defaults and accept",
          requestedSchema: {
            type: "object",
            properties: {
              name: { type: "string", description: "User name", default: "John Doe" },
              age: { type: "integer", description: "User age", default: 30 },
              score: { type: "number", description: "User score", default: 95.5 },
              status: {
                type: "string",
                description: "User status",
                enum: ["active", "inactive", "pending"],
                default: "active",
              },
              verified: { type: "boolean", description: "Verification status", default: true },
            },
          },
        },
        "Elicitation completed",
      ),
  );
  server.registerTool(
    "test_elicitation_sep1330_enums",
    { description: "Elicitation using each of the five enum schema forms (SEP-1330)" },
    (extra) =>
      elicit(
        extra,
        {
          message: "Please pick some options",
          requestedSchema: {
            type: "object",
            properties: {
              untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
              titledSingle: {
                type: "string",
                oneOf: [
                  { const: "value1", title: "First Option" },
                  { const: "value2", title: "Second Option" },
                  { const: "value3", title: "Third Option" },
                ],
              },
              legacyEnum: {
                type: "string",
                enum: ["opt1", "opt2", "opt3"],
                enumNames: ["Option One", "Option Two", "Option Three"],
              },
              untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
              titledMulti: {
                type: "array",
                items: {
                  anyOf: [
                    { const: "value1", title: "First Choice" },
                    { const: "value2", title: "Second Choice" },
                    { const: "value3", title: "Third Choice" },
                  ],
                },
              },
            },
          },
        },
        "Elicitation completed",
      ),
  );
  // server-sse-polling (SEP-1699): close this call's SSE stream before answering; the
  // client reconnects with Last-Event-ID and the answer reaches it from the event store.
  server.registerTool(
    "test_reconnection",
    { description: "Closes its SSE stream mid-call and answers after the client reconnects" },
    async (extra) => {
      extra.closeSSEStream?.();
      await sleep(200);
      return { content: [text("Reconnection test completed")] };
    },
  );
  server.registerTool(
    "json_schema_2020_12_tool",
    {
      description: "Takes input described by a JSON Schema 2020-12 document",
      inputSchema: z.looseObject({}).meta(SCHEMA_2020_12),
    },
    (args) => ({ content: [text(`Received: ${JSON.stringify(args)}`)] }),
  );

  // ---- resources ----
  server.registerResource(
    "static-text",
    "test://static-text",
    { description: "A static text resource", mimeType: "text/plain" },
    (uri) => ({
      contents: [{ uri: uri.href, mimeType: "text/plain", text: "This is the content of the static text resource." }],
    }),
  );
  server.registerResource(
    "static-binary",
    "test://static-binary",
    { description: "A static binary resource (a PNG image)", mimeType: "image/png" },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: "image/png", blob: PNG }] }),
  );
  server.registerResource(
    "watched-resource",
    "test://watched-resource",
    { description: "A resource clients can subscribe to", mimeType: "text/plain" },
    (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: "text/plain",
          text: subscriptions.has(uri.href) ? "Watched resource (subscribed)" : "Watched resource",
        },
      ],
    }),
  );
  server.registerResource(
    "template-data",
    new ResourceTemplate("test://template/{id}/data", { list: undefined }),
    { description: "Data for the id in the URI", mimeType: "application/json" },
    (uri, { id }) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: "application/json",
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
        },
      ],
    }),
  );

  // ---- prompts ----
  server.registerPrompt("test_simple_prompt", { description: "A prompt without arguments" }, () => ({
    messages: [{ role: "user", content: text("This is a simple prompt for testing.") }],
  }));
  server.registerPrompt(
    "test_prompt_with_arguments",
    {
      description: "A prompt with two arguments (arg1 offers completions)",
      argsSchema: {
        // completion/complete on arg1 is answered from this list.
        arg1: completable(z.string().describe("First test argument"), (value) =>
          ["paris", "park", "party"].filter((word) => word.startsWith(value)),
        ),
        arg2: z.string().describe("Second test argument"),
      },
    },
    ({ arg1, arg2 }) => ({
      messages: [{ role: "user", content: text(`Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`) }],
    }),
  );
  server.registerPrompt(
    "test_prompt_with_embedded_resource",
    {
      description: "A prompt that embeds a resource",
      argsSchema: { resourceUri: z.string().describe("URI of the resource to embed") },
    },
    ({ resourceUri }) => ({
      messages: [
        {
          role: "user",
          content: {
            type: "resource",
            resource: { uri: resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." },
          },
        },
        { role: "user", content: text("Please process the embedded resource above.") },
      ],
    }),
  );
  server.registerPrompt("test_prompt_with_image", { description: "A prompt with an image" }, () => ({
    messages: [
      { role: "user", content: { type: "image", data: PNG, mimeType: "image/png" } },
      { role: "user", content: text("Please analyze the image above.") },
    ],
  }));

  return server;
}

// ---- HTTP: sessions over Streamable HTTP ----
const app = createMcpExpressApp({ host: "127.0.0.1" }); // rejects non-localhost Host headers (403)
const transports = new Map(); // Mcp-Session-Id -> transport

const jsonRpcError = (res, status, code, message) =>
  res.status(status).json({ jsonrpc: "2.0", error: { code, message }, id: null });

// Routes a request carrying a session id to that session's transport.
async function toSession(req, res) {
  const sessionId = req.headers["mcp-session-id"];
  if (!sessionId) return jsonRpcError(res, 400, -32000, "Bad Request: Mcp-Session-Id header is required");
  const transport = transports.get(sessionId);
  if (!transport) return jsonRpcError(res, 404, -32001, "Session not found");
  await transport.handleRequest(req, res, req.body);
}

app.post("/mcp", async (req, res) => {
  try {
    if (req.headers["mcp-session-id"] || !isInitializeRequest(req.body)) return await toSession(req, res);
    // A new session: its own transport, event store and McpServer.
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new MemoryEventStore(),
      retryInterval: 500, // the `retry:` a client waits before reconnecting a closed stream
      onsessioninitialized: (sessionId) => transports.set(sessionId, transport),
    });
    transport.onclose = () => transport.sessionId && transports.delete(transport.sessionId);
    await makeServer().connect(transport);
    await transport.handleRequest(req, res, req.body);
  } catch (error) {
    console.error("error handling POST /mcp:", error);
    if (!res.headersSent) jsonRpcError(res, 500, -32603, "Internal server error");
  }
});
app.get("/mcp", toSession); // the standalone SSE stream, or a resumption with Last-Event-ID
app.delete("/mcp", toSession); // ends the session; the transport's onclose forgets it

// No signal handlers: SIGINT/SIGTERM end the process at once, which is all a test needs.
app.listen(PORT, "127.0.0.1", () => console.log(`listening on ${PORT}`));
