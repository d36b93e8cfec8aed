// The surfaces and accept vectors: what every package's producers write on
// HTTP (the envelope and its RFC 9457 document), the command line and a
// structured log, byte for byte as the Go and Python packages write it, and
// read back.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parsed, pkg, vectors } from "./env.mjs";

/** headersOf turns [name, value] pairs into the vectors' object keyed by lower-case name. */
function headersOf(pairs) {
  return Object.fromEntries(pairs.map(([n, v]) => [n.toLowerCase(), v]));
}

/** fakeNodeResponse records what writeHttp does to a Node ServerResponse. */
function fakeNodeResponse() {
  const r = { statusCode: 200, headers: {}, body: undefined, ended: 0 };
  r.setHeader = (name, value) => {
    r.headers[name.toLowerCase()] = value;
    return r;
  };
  r.end = (chunk) => {
    r.body = chunk;
    r.ended++;
    return r;
  };
  return r;
}

async function readBack(form) {
  const r = await pkg.fromHttpResponse(new Response(form.body, { status: form.status, headers: form.headers }));
  assert.ok(r.ok, r.ok ? "" : r.error.problem);
  assert.equal(r.classified, false);
  return r.envelope;
}

describe(`${pkg.CONTRACT_NAME}: surfaces`, () => {
  test("there are surface vectors for every example envelope", () => assert.ok(vectors.surfaces.length >= vectors.lookup.length));
  for (const v of vectors.surfaces) {
    test(v.name, async () => {
      const env = parsed(v.envelope);
      for (const [form, accept] of [
        [v.http, undefined],
        [v.problem, "application/problem+json"],
      ]) {
        const a = pkg.httpAnswer(env, accept);
        assert.equal(a.status, form.status);
        assert.deepEqual(headersOf(a.headers), form.headers);
        assert.equal(a.body, form.body);
        // Node's ServerResponse.
        const res = fakeNodeResponse();
        pkg.writeHttp(env, accept === undefined ? { headers: {} } : { headers: { accept } }, res);
        assert.equal(res.statusCode, form.status);
        assert.deepEqual(res.headers, form.headers);
        assert.equal(res.body, form.body);
        assert.equal(res.ended, 1);
        // The fetch API's Response.
        const fr = pkg.toFetchResponse(env, new Request("http://localhost/", { headers: accept === undefined ? {} : { accept } }), Response);
        assert.equal(fr.status, form.status);
        for (const [name, value] of Object.entries(form.headers)) assert.equal(fr.headers.get(name), value, name);
        assert.equal(await fr.text(), form.body);
        // Read back, as every package's reader reads it.
        assert.deepEqual(pkg.toWire(await readBack(form)), form.envelope);
      }
      assert.equal(pkg.serializeProblem(env), v.problem.body);
      const problem = pkg.parseProblemJson(v.problem.body);
      assert.ok(problem.ok, problem.ok ? "" : problem.error.problem);
      assert.deepEqual(pkg.toWire(problem.envelope), v.problem.envelope);

      assert.equal(pkg.exitCode(env), v.exit_code);
      assert.equal(pkg.cliLine(env, v.command), v.cli);
      let written = "";
      pkg.writeCli(env, v.command, { write: (s) => (written += s) });
      assert.equal(written, v.cli);
      const back = pkg.readCli(v.cli);
      assert.ok(back.ok, back.ok ? "" : back.error.problem);
      assert.equal(pkg.serializeEnvelope(back.envelope), JSON.stringify(v.envelope).replace(/[\u2028\u2029]/g, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029")));
      const bytes = pkg.readCli(new TextEncoder().encode(v.cli));
      assert.ok(bytes.ok);

      if (v.log !== null) {
        // Member order included: JSON text of both.
        assert.equal(JSON.stringify(pkg.logFields(env)), JSON.stringify(v.log));
      }
    });
  }
});

describe(`${pkg.CONTRACT_NAME}: CLI lines read back (cli_read)`, () => {
  test("there are cli_read vectors", () => assert.ok(vectors.cli_read.length > 0));
  for (const v of vectors.cli_read) {
    test(v.name, () => {
      const lines = "bytes" in v ? [new Uint8Array(Buffer.from(v.bytes, "base64"))] : [v.line, new TextEncoder().encode(v.line)];
      for (const line of lines) {
        const r = pkg.readCli(line);
        if (v.envelope === null) {
          assert.equal(r.ok, false, `readCli(${typeof line === "string" ? "text" : "bytes"}) returned an envelope, want an error`);
          continue;
        }
        assert.ok(r.ok, r.ok ? "" : r.error.problem);
        assert.deepEqual(pkg.toWire(r.envelope), v.envelope);
      }
    });
  }
});

/** illFormed replaces each U+FFFD in a value's strings and member names with a lone surrogate, text no decoder gives. */
function illFormed(v) {
  if (typeof v === "string") return v.replaceAll("\uFFFD", "\uD800");
  if (Array.isArray(v)) return v.map(illFormed);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [illFormed(k), illFormed(x)]));
  return v;
}

describe(`${pkg.CONTRACT_NAME}: writes`, () => {
  test("there are write vectors", () => assert.ok(vectors.writes.length > 0));
  for (const v of vectors.writes) {
    test(v.name, async () => {
      let env = parsed(v.envelope);
      if (v.ill_formed) env = illFormed(env);
      if (v.retry_after_ms !== null) env = { ...env, recovery: { ...env.recovery, retryAfterMs: Number(v.retry_after_ms) } };
      for (const [form, accept] of [
        [v.http, undefined],
        [v.problem, "application/problem+json"],
      ]) {
        const a = pkg.httpAnswer(env, accept);
        assert.equal(a.status, form.status);
        assert.deepEqual(headersOf(a.headers), form.headers);
        assert.equal(a.body, form.body);
        const res = fakeNodeResponse();
        pkg.writeHttp(env, accept === undefined ? { headers: {} } : { headers: { accept } }, res);
        assert.equal(res.statusCode, form.status);
        assert.deepEqual(res.headers, form.headers);
        assert.equal(res.body, form.body);
        const fr = pkg.toFetchResponse(env, new Request("http://localhost/", { headers: accept === undefined ? {} : { accept } }), Response);
        assert.equal(fr.status, form.status);
        assert.equal(await fr.text(), form.body);
        assert.deepEqual(pkg.toWire(await readBack(form)), form.envelope);
      }
      if (v.cli !== null) {
        assert.equal(pkg.serializeProblem(env), v.problem.body);
        assert.equal(pkg.cliLine(env, v.command), v.cli);
        const r = pkg.toMcpToolResult(env);
        assert.equal(r.content[0].text, v.http.body);
        assert.deepEqual(r.structuredContent, JSON.parse(v.http.body));
      }
      if (v.log !== null) assert.equal(JSON.stringify(pkg.logFields(env)), JSON.stringify(v.log));
      if (v.aip193 !== null) {
        const text = pkg.toAip193(env);
        assert.ok(text.isWellFormed(), text);
        assert.deepEqual(JSON.parse(text), JSON.parse(v.aip193));
      }
    });
  }
});

describe(`${pkg.CONTRACT_NAME}: MCP text items read back (mcp_text)`, () => {
  test("there are mcp_text vectors", () => assert.ok(vectors.mcp_text.length > 0));
  for (const v of vectors.mcp_text) {
    test(v.name, () => {
      const r = pkg.fromMcpToolResult({ content: [{ type: "text", text: v.text }], isError: true });
      if (v.envelope === null) {
        assert.equal(r.ok, false, "fromMcpToolResult returned an envelope, want an error");
        return;
      }
      assert.ok(r.ok, r.ok ? "" : r.error.problem);
      assert.deepEqual(pkg.toWire(r.envelope), v.envelope);
    });
  }
});

describe(`${pkg.CONTRACT_NAME}: MCP output schemas widened (mcp_output_schema)`, () => {
  test("there are mcp_output_schema vectors", () => assert.ok(vectors.mcp_output_schema.length > 0));
  for (const v of vectors.mcp_output_schema) {
    test(v.name, () => {
      const success = structuredClone(v.success);
      assert.deepEqual(pkg.mcpOutputSchema(success), v.widened);
      assert.deepEqual(success, v.success, "the argument is not changed");
    });
  }
});

describe(`${pkg.CONTRACT_NAME}: fromProblem holds the whole document to the limits`, () => {
  const doc = JSON.parse(vectors.surfaces[0].problem.body);
  test("a problem document reads", () => assert.ok(pkg.fromProblem(doc).ok));
  for (const [what, value] of [["an infinite instance", Infinity], ["a status nested 128 levels deep", JSON.parse("[".repeat(128) + "]".repeat(128))]]) {
    test(`a problem member past the limits (${what}), which the reader drops, is a syntax error`, () => {
      const r = pkg.fromProblem({ ...doc, [what.includes("instance") ? "instance" : "status"]: value });
      assert.equal(r.ok, false);
      assert.deepEqual({ path: r.error.path, category: r.error.category }, { path: "", category: "syntax" });
    });
  }
});

describe(`${pkg.CONTRACT_NAME}: Accept negotiation`, () => {
  const env = parsed(vectors.envelopes[0].envelope);
  for (const v of vectors.accept) {
    test(JSON.stringify(v.accept), () => {
      assert.equal(pkg.prefersProblem(v.accept), v.problem);
      const a = pkg.httpAnswer(env, v.accept);
      assert.equal(headersOf(a.headers)["content-type"], v.problem ? "application/problem+json" : "application/json");
    });
  }
});

describe(`${pkg.CONTRACT_NAME}: surfaces beyond the vectors`, () => {
  const env = parsed(vectors.envelopes[0].envelope);
  test("readCli reads each byte of invalid UTF-8 as U+FFFD, as parseEnvelopeJson and the other languages do", () => {
    // An encoded surrogate (ED A0 80) is three ill-formed bytes: three U+FFFD,
    // not one for the run (issue 28's reader differential).
    const line = new TextEncoder().encode(vectors.surfaces[0].cli);
    const at = Buffer.from(line).indexOf('"message":"') + '"message":"'.length;
    const bytes = new Uint8Array([...line.subarray(0, at), 0xed, 0xa0, 0x80, ...line.subarray(at)]);
    const r = pkg.readCli(bytes);
    assert.ok(r.ok, JSON.stringify(r.error));
    assert.ok(r.envelope.message.startsWith("\uFFFD\uFFFD\uFFFD") && !r.envelope.message.startsWith("\uFFFD".repeat(4)), JSON.stringify(r.envelope.message));
  });

  test("readCli reports the contract's own form's problem", () => {
    const r = pkg.readCli('{"ok":true,"command":"x","error":{}}');
    assert.equal(r.ok, false);
    if (pkg.CLI_FORM === "wrapped") assert.equal(r.error.path, "ok");
    assert.equal(pkg.readCli("not json").ok, false);
  });
  test("an envelope without a kind is a plain-text 500", () => {
    const a = pkg.httpAnswer({ ...env, kind: "" });
    assert.equal(a.status, 500);
    assert.equal(headersOf(a.headers)["content-type"], "text/plain; charset=utf-8");
  });
  test("logFields bounds and sanitizes", () => {
    const long = "é".repeat(2000);
    const f = pkg.logFields({ ...env, kind: long, extra: { token: "x".repeat(5000) } });
    const bytes = new TextEncoder().encode(f.kind).length;
    assert.ok(bytes <= pkg.LOG.maxBytes + 3, `kind is ${bytes} bytes`);
    assert.ok(f.kind.endsWith(pkg.LOG.ellipsis));
    assert.ok(new TextEncoder().encode(f.extra).length <= pkg.LOG.maxBytes + 3);
    if (pkg.SANITIZED_FIELDS.includes("message")) {
      const m = pkg.logFields({ ...env, message: "failed: password=hunter2" }).message;
      assert.ok(!m.includes("hunter2"), m);
    }
    assert.deepEqual(Object.keys(pkg.logFields(env)).filter((k) => !pkg.LOG.members.includes(k)), []);
  });
});
