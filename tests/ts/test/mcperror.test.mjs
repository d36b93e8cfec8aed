// The MCP protocol-error surface, driven by the vectors: JSON-RPC errors whose
// data is the envelope (mcp_errors, mcp_error_read), the _meta key of isError
// tool results and tool results that keep an upstream's structuredContent.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parsed, pkg, vectors } from "./env.mjs";

describe(`${pkg.CONTRACT_NAME}: MCP protocol errors (mcp_errors)`, () => {
  test("there are mcp_errors vectors", () => assert.ok(vectors.mcp_errors.length > 0));
  for (const v of vectors.mcp_errors) {
    test(v.name, () => {
      const env = parsed(v.envelope);
      const error = pkg.toMcpError(env);
      assert.deepEqual(JSON.parse(JSON.stringify(error)), v.error);
      assert.equal(pkg.mcpErrorCode(env), v.error.code);
      const response = pkg.toMcpErrorResponse(env, "req-1");
      assert.deepEqual(JSON.parse(JSON.stringify(response)), { jsonrpc: "2.0", id: "req-1", error: v.error });
      for (const form of [error, response]) {
        const back = pkg.fromMcpError(JSON.parse(JSON.stringify(form)));
        assert.ok(back.ok, back.ok ? "" : back.error.problem);
        assert.deepEqual(pkg.toWire(back.envelope), v.envelope);
      }
      // Every isError tool result carries the contract's _meta, or none.
      for (const r of [pkg.toMcpToolResult(env), pkg.toMcpTextToolResult(env)]) {
        assert.deepEqual(JSON.parse(JSON.stringify(r))._meta ?? null, v.meta);
      }
      const up = JSON.parse(JSON.stringify(pkg.toMcpUpstreamToolResult(env, v.upstream)));
      assert.equal(up.isError, true);
      assert.deepEqual(JSON.parse(up.content[0].text), v.envelope);
      assert.deepEqual(up.structuredContent, v.structured_content);
      assert.deepEqual(up._meta ?? null, v.meta);
      for (const r of [up, { content: [], structuredContent: v.structured_content, isError: true }]) {
        const back = pkg.fromMcpToolResult(r);
        assert.ok(back.ok, back.ok ? "" : back.error.problem);
        assert.deepEqual(pkg.toWire(back.envelope), v.envelope);
        assert.deepEqual(pkg.mcpUpstreamStructuredContent(r), v.upstream);
      }
      assert.equal(pkg.mcpUpstreamStructuredContent(pkg.toMcpToolResult(env)), undefined);
      // An upstream that sent no structured content leaves the plain result.
      assert.deepEqual(pkg.toMcpUpstreamToolResult(env, null), pkg.toMcpToolResult(env));
    });
  }
});

describe(`${pkg.CONTRACT_NAME}: JSON-RPC errors read back (mcp_error_read)`, () => {
  test("there are mcp_error_read vectors", () => assert.ok(vectors.mcp_error_read.length > 0));
  for (const v of vectors.mcp_error_read) {
    test(v.name, () => {
      const r = pkg.fromMcpError(v.input);
      if (v.envelope === null) {
        assert.equal(r.ok, false, "fromMcpError returned an envelope, want an error");
        return;
      }
      assert.ok(r.ok, r.ok ? "" : r.error.problem);
      assert.deepEqual(pkg.toWire(r.envelope), v.envelope);
    });
  }
  test("foreign values are errors, never exceptions", () => {
    for (const value of [null, undefined, "text", 3, [], { error: [] }]) {
      assert.equal(pkg.fromMcpError(value).ok, false);
    }
  });
});
