// The size limit of the direct decoders (issue 28, docs/conformance.md: "What every
// decoder accepts"): a document longer than the limit is a syntax error
// with path "", found before it is parsed; options.maxBytes sets another
// limit, or none (Infinity).
import assert from "node:assert/strict";
import { test } from "node:test";
import { parsed, pkg, vectors } from "./env.mjs";

const env = parsed(vectors.envelopes[0].envelope);
const envelope = pkg.serializeEnvelope(env);
const aip193 = pkg.toAip193(env);

/** padded is doc with spaces after its first character, to n bytes of UTF-8. */
const padded = (doc, n) => doc[0] + " ".repeat(n - Buffer.byteLength(doc)) + doc.slice(1);

function tooLong(what, r, limit) {
  assert.equal(r.ok, false, what);
  assert.deepEqual(r.error, { path: "", problem: `is longer than the limit of ${limit} bytes`, category: "syntax" }, what);
}

test(`${pkg.CONTRACT_NAME}: the size limit of parseEnvelopeJson, fromAip193 and readCli`, () => {
  const max = pkg.MAX_DOCUMENT_BYTES;
  assert.equal(max, 1 << 20);
  const over = padded(envelope, max + 1);
  assert.ok(pkg.parseEnvelopeJson(padded(envelope, max)).ok, "a document of MAX_DOCUMENT_BYTES");
  tooLong("parseEnvelopeJson", pkg.parseEnvelopeJson(over), max);
  tooLong("parseEnvelopeJson of bytes", pkg.parseEnvelopeJson(new TextEncoder().encode(over)), max);
  assert.ok(pkg.fromAip193(padded(aip193, max)).ok, "an AIP-193 document of MAX_DOCUMENT_BYTES");
  tooLong("fromAip193", pkg.fromAip193(padded(aip193, max + 1)), max);

  // The CLI reader refuses such a line in either form.
  tooLong("readCli", pkg.readCli(over), max);
  tooLong("readCli, wrapped", pkg.readCli(padded(`{"ok":false,"command":"c","error":${envelope}}`, max + 1)), max);

  // A lower limit, n bytes: of UTF-8, not UTF-16 code units ("é" takes 2
  // bytes and "😀" 4, however many code units they are).
  const n = Math.max(Buffer.byteLength(envelope), Buffer.byteLength(aip193)) + 16;
  const wide = padded(envelope.replace('"message":"', '"message":"é😀'), n);
  assert.ok(wide.length < n);
  assert.ok(pkg.parseEnvelopeJson(wide, { maxBytes: n }).ok);
  tooLong("UTF-8 bytes", pkg.parseEnvelopeJson(wide, { maxBytes: n - 1 }), n - 1);
  tooLong("maxBytes n", pkg.parseEnvelopeJson(padded(envelope, n + 1), { maxBytes: n }), n);
  tooLong("fromAip193 maxBytes n", pkg.fromAip193(padded(aip193, n + 1), { maxBytes: n }), n);
  assert.ok(pkg.parseEnvelopeJson(over, { maxBytes: Infinity }).ok, "no limit");
  assert.ok(pkg.fromAip193(padded(aip193, max + 1), { maxBytes: Infinity }).ok, "no limit, AIP-193");
  // The limit comes first: an over-long document that is not JSON either
  // is refused for its length.
  tooLong("not JSON", pkg.parseEnvelopeJson("{".repeat(n + 1), { maxBytes: n }), n);
});
