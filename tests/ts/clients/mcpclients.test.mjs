// Real MCP clients: the package's tool results, served by the official
// TypeScript SDK's server and received by its client in an in-memory session,
// for both lines of the SDK (@modelcontextprotocol/sdk 1.x, the default, whose
// Client.callTool checks an error result's structuredContent against the
// tool's outputSchema; @modelcontextprotocol/client and server 2.x). Every
// envelope of the vectors (every kind, an unknown kind, every field, ...) is
// the error result of three tools: one without an outputSchema, one whose
// outputSchema mcpOutputSchema widened (toMcpToolResult's results), one
// advertising its success schema alone (toMcpTextToolResult's results). The
// caller must receive each envelope, never an exception. One session per
// package and SDK line. Then MCP protocol errors with the 1.x line: every
// package's JSON-RPC error responses (toMcpErrorResponse) and tool results
// that keep an upstream's structuredContent (toMcpUpstreamToolResult) meet
// the SDK's own schemas, and a prompt request failing with the package's
// error reaches the SDK's client as an McpError whose data fromMcpError
// reads the envelope from (one more session per package).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as InMemoryTransport1 } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server as Server1 } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, CallToolResultSchema, GetPromptRequestSchema, JSONRPCErrorResponseSchema, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { Client as Client2, InMemoryTransport as InMemoryTransport2 } from "@modelcontextprotocol/client";
import { Server as Server2 } from "@modelcontextprotocol/server";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

if (!process.env.ERRGEN_TS_PACKAGES) {
  throw new Error("ERRGEN_TS_PACKAGES is not set: run the tests with `npm test` (run.mjs), which lists every generated package in it");
}
/** The packages under test: each one's compiled dist/index.js and output root. */
const packages = JSON.parse(process.env.ERRGEN_TS_PACKAGES);

/**
 * A success schema as tools write them: definitions under $defs, a reference
 * into them and one into its own properties (which the widening rebases),
 * nothing beyond its members.
 */
const success = {
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  properties: {
    items: { type: "array", items: { $ref: "#/$defs/item" } },
    total: { type: "integer", minimum: 0 },
    shown: { $ref: "#/properties/total" },
  },
  required: ["items", "total"],
  additionalProperties: false,
  $defs: { item: { type: "string" } },
};

/**
 * served is what one package's server offers: its tools, and each call's
 * result as JSON text, written once by the package (toMcpToolResult,
 * toMcpTextToolResult) and read afresh for every answer, as off the wire.
 */
function served(pkg, envelopes) {
  const tools = [
    { name: "plain", inputSchema: { type: "object" } },
    { name: "widened", inputSchema: { type: "object" }, outputSchema: pkg.mcpOutputSchema(success) },
    { name: "text_errors", inputSchema: { type: "object" }, outputSchema: success },
  ];
  const written = new Map(
    tools.map((t) => [t.name, envelopes.map(({ env }) => JSON.stringify(t.name === "text_errors" ? pkg.toMcpTextToolResult(env) : pkg.toMcpToolResult(env)))]),
  );
  const good = { items: ["a", "b"], total: 2, shown: 2 };
  const bad = { items: [1], total: -1 };
  /** answer is a tool's result: the envelope numbered i, or a success value when i is absent. */
  function answer(tool, args) {
    if (args.i === undefined) {
      const value = args.bad ? bad : good;
      return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };
    }
    return JSON.parse(written.get(tool)[args.i]);
  }
  return { pkg, envelopes, tools, answer };
}

/** session connects a client to a server of the tools over a linked in-memory pair. */
async function session({ tools, answer }, { Client, Server, InMemoryTransport, onList, onCall }) {
  const server = new Server({ name: "errgen-test", version: "1.0.0" }, { capabilities: { tools: {} } });
  onList(server, async () => ({ tools }));
  onCall(server, async (request) => answer(request.params.name, request.params.arguments ?? {}));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "errgen-test-client", version: "1.0.0" });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return { client, close: () => Promise.all([client.close(), server.close()]) };
}

/** receivesEveryEnvelope calls each tool with each envelope and returns what went wrong, as text. */
async function receivesEveryEnvelope(client, { pkg, envelopes, tools, answer }) {
  // The client learns the tools' output schemas from the listing, as a host does.
  const listed = await client.listTools();
  assert.deepEqual(
    listed.tools.map((t) => t.name),
    tools.map((t) => t.name),
  );
  const problems = [];
  for (const tool of tools) {
    // Every call at once: the session answers them as a host's would.
    const outcomes = await Promise.all(
      envelopes.map((_, i) =>
        client.callTool({ name: tool.name, arguments: { i } }).then(
          (result) => ({ result }),
          (err) => ({ err }),
        ),
      ),
    );
    let reached = 0;
    outcomes.forEach(({ result, err }, i) => {
      const { name, env } = envelopes[i];
      if (err) {
        problems.push(`${tool.name}, ${name}: ${err.code ?? ""} ${String(err.message).slice(0, 200)}`);
        return;
      }
      const sent = JSON.parse(JSON.stringify(answer(tool.name, { i })));
      const back = pkg.fromMcpToolResult(result);
      if (result.isError !== true || !back.ok) {
        problems.push(`${tool.name}, ${name}: isError ${result.isError}, ${back.ok ? "" : back.error.problem}`);
        return;
      }
      assert.deepEqual(back.envelope, env, `${tool.name}, ${name}`);
      assert.deepEqual(result.content, sent.content, `${tool.name}, ${name}`);
      assert.deepEqual(result.structuredContent, sent.structuredContent, `${tool.name}, ${name}`);
      reached++;
    });
    if (reached !== envelopes.length) {
      problems.push(`${tool.name}: ${reached} of ${envelopes.length} error results reached the caller`);
    }
  }
  // A success result still meets the success schema exactly: the widened
  // tool's conforming value arrives, a nonconforming one is refused.
  for (const name of ["widened", "text_errors"]) {
    const ok = await client.callTool({ name, arguments: {} });
    assert.deepEqual(ok.structuredContent, { items: ["a", "b"], total: 2, shown: 2 });
    await assert.rejects(client.callTool({ name, arguments: { bad: true } }), /output schema|structured content/i);
  }
  return problems;
}

const lines = [
  {
    name: "@modelcontextprotocol/sdk 1.x client and server, in memory",
    Client: Client1,
    Server: Server1,
    InMemoryTransport: InMemoryTransport1,
    onList: (server, h) => server.setRequestHandler(ListToolsRequestSchema, h),
    onCall: (server, h) => server.setRequestHandler(CallToolRequestSchema, h),
  },
  {
    name: "@modelcontextprotocol/client and server 2.x, in memory",
    Client: Client2,
    Server: Server2,
    InMemoryTransport: InMemoryTransport2,
    onList: (server, h) => server.setRequestHandler("tools/list", h),
    onCall: (server, h) => server.setRequestHandler("tools/call", h),
  },
];

/**
 * envelopeVectors parses the envelopes section of a vectors file alone (a
 * few kilobytes of a file that reaches tens of megabytes for the
 * reserved-words contract). The file puts each top-level member on a line
 * of its own indented by two spaces, and JSON text holds no raw line
 * break, so the section runs from its member's line to the next one's.
 */
function envelopeVectors(text, name = "envelopes") {
  const key = `\n  "${name}": `;
  const start = text.indexOf(key);
  assert.ok(start >= 0, `the vectors have a ${name} section`);
  const end = text.indexOf('\n  "', start + key.length);
  return JSON.parse(text.slice(start + key.length, end).replace(/,\s*$/, ""));
}

for (const p of packages) {
  const pkg = await import(pathToFileURL(p.pkg).href);
  const text = readFileSync(join(p.root, "conformance", `${pkg.CONTRACT_NAME}.vectors.json`), "utf8");
  const envelopes = envelopeVectors(text).map((v) => {
    const r = pkg.parseEnvelope(v.envelope);
    assert.ok(r.ok, `${pkg.CONTRACT_NAME}: vector ${v.name} does not parse`);
    return { name: v.name, env: r.envelope };
  });
  const offer = served(pkg, envelopes);
  describe(`${pkg.CONTRACT_NAME}: real MCP clients receive every error result`, () => {
    for (const line of lines) {
      test(line.name, async () => {
        const s = await session(offer, line);
        try {
          assert.deepEqual(await receivesEveryEnvelope(s.client, offer), []);
        } finally {
          await s.close();
        }
      });
    }
  });
  const protocol = envelopeVectors(text, "mcp_errors").map((v) => {
    const r = pkg.parseEnvelope(v.envelope);
    assert.ok(r.ok, `${pkg.CONTRACT_NAME}: vector ${v.name} does not parse`);
    return { v, env: r.envelope };
  });
  describe(`${pkg.CONTRACT_NAME}: MCP protocol errors and the 1.x SDK`, () => {
    test("every JSON-RPC error response and upstream tool result meets the SDK's schemas", () => {
      for (const { v, env } of protocol) {
        const checked = JSONRPCErrorResponseSchema.parse(JSON.parse(JSON.stringify(pkg.toMcpErrorResponse(env, 1))));
        assert.deepEqual(checked.error.data, v.envelope, v.name);
        assert.ok(pkg.fromMcpError(checked).ok, v.name);
        const result = CallToolResultSchema.parse(JSON.parse(JSON.stringify(pkg.toMcpUpstreamToolResult(env, v.upstream))));
        assert.equal(result.isError, true, v.name);
        assert.deepEqual(result.structuredContent, v.structured_content, v.name);
        assert.deepEqual(result._meta ?? null, v.meta, v.name);
      }
    });
    test("a failed prompt request reaches the client as an McpError carrying the envelope", async () => {
      const { v, env } = protocol[0];
      const server = new Server1({ name: "errgen-test", version: "1.0.0" }, { capabilities: { prompts: {} } });
      server.setRequestHandler(GetPromptRequestSchema, async () => {
        const e = pkg.toMcpError(env);
        throw new McpError(e.code, e.message, e.data);
      });
      const [clientSide, serverSide] = InMemoryTransport1.createLinkedPair();
      const client = new Client1({ name: "errgen-test-client", version: "1.0.0" });
      await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
      try {
        const err = await client.getPrompt({ name: "p" }).then(
          () => assert.fail("getPrompt succeeded"),
          (e) => e,
        );
        assert.ok(err instanceof McpError, String(err));
        assert.equal(err.code, v.error.code);
        const back = pkg.fromMcpError({ code: err.code, message: err.message, data: err.data });
        assert.ok(back.ok, back.ok ? "" : back.error.problem);
        assert.deepEqual(pkg.toWire(back.envelope), v.envelope);
      } finally {
        await Promise.all([client.close(), server.close()]);
      }
    });
  });
}
