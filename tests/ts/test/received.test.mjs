// The received vectors (issue 28): an envelope from an upstream with
// secrets in what the contract sanitizes. The raw reading keeps them; the
// decoder and every reader, given what each surface writes for the raw
// envelope, redact them; and no surface writing the redacted envelope holds
// one.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { pkg, vectors } from "./env.mjs";

const wire = (env) => JSON.parse(pkg.serializeEnvelope(env));

function ok(r, what) {
  assert.ok(r.ok, r.ok ? "" : `${what}: ${r.error.path} ${r.error.problem}`);
  return r.envelope;
}

/** forms writes env with every surface that has a reader: [surface, text written, read it back]. */
function forms(env) {
  const out = [];
  for (const accept of [undefined, "application/problem+json"]) {
    const a = pkg.httpAnswer(env, accept);
    out.push([`httpAnswer (Accept ${accept})`, a.body, async () => pkg.fromHttpResponse(new Response(a.body, { status: a.status, headers: a.headers })), accept !== undefined]);
  }
  const r = pkg.toMcpToolResult(env);
  out.push(["toMcpToolResult", JSON.stringify(r), async () => pkg.fromMcpToolResult(JSON.parse(JSON.stringify(r)))]);
  const line = pkg.cliLine(env, "cmd");
  out.push(["cliLine", line, async () => pkg.readCli(line)]);
  const aip = pkg.toAip193(env);
  out.push(["toAip193", aip, async () => pkg.fromAip193(aip)]);
  return out;
}

describe(`${pkg.CONTRACT_NAME}: received`, () => {
  test("the vectors have a received section", () => assert.ok(Array.isArray(vectors.received)));
  for (const v of vectors.received ?? []) {
    test(v.name, async () => {
      const text = JSON.stringify(v.document);
      const raw = ok(pkg.parseEnvelopeJson(text, { raw: true }), "parseEnvelopeJson raw");
      assert.deepEqual(wire(raw), v.raw);
      assert.deepEqual(wire(ok(pkg.parseEnvelope(v.document, { raw: true }), "parseEnvelope raw")), v.raw);
      const env = ok(pkg.parseEnvelopeJson(text), "parseEnvelopeJson");
      assert.deepEqual(wire(env), v.envelope);
      assert.deepEqual(wire(ok(pkg.parseEnvelope(v.document), "parseEnvelope")), v.envelope);
      // A top-level member named like a problem member gives way to it, so
      // the problem document reads back without it.
      const collides = ["type", "title", "status", "detail", "instance"].some((m) => Object.hasOwn(v.envelope, m));
      for (const [which, e] of [
        ["raw", raw],
        ["read", env],
      ]) {
        for (const [form, written, read, problem] of forms(e)) {
          if (!(problem && collides)) assert.deepEqual(wire(ok(await read(), `${form} of the ${which} envelope`)), v.envelope, `${form} of the ${which} envelope, read back`);
          if (which === "read") {
            for (const s of v.secrets) assert.ok(!written.includes(s), `${form} of the envelope read holds ${s}: ${written}`);
          }
        }
      }
    });
  }
});
