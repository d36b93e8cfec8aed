// aip193.ts: the google.rpc mapping's pieces on inputs the conformance
// vectors (which every generated package runs) do not reach: the reason of
// odd kinds, Duration texts, the escaping of the AIP-193 text and the
// lenient reading of foreign errors.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mod } from "./load.mjs";

const { aipReason, fromAip193, fromRpcStatus, rpcStatusJson } = await mod("aip193");
const { encodeUtf8 } = await mod("utf8");
const { ERROR_INFO_DOMAIN, RETRY } = await mod("contract");

test("aipReason splits words as every package does", () => {
  assert.equal(aipReason("rate_limited"), "RATE_LIMITED");
  assert.equal(aipReason("HTTPError"), "HTTP_ERROR");
  assert.equal(aipReason("v2Beta"), "V2_BETA");
  assert.equal(aipReason("ok"), "KIND_OK");
  assert.equal(aipReason("7"), "KIND_7");
  assert.equal(aipReason(""), "KIND");
  assert.equal(aipReason("ünïcode-kind"), "N_CODE_KIND");
  // Cut at 63 characters, without the "_" that would end it.
  assert.equal(aipReason("a".repeat(62) + "_b"), "A".repeat(62));
  assert.equal(aipReason("x".repeat(80)).length, 63);
});

const status = (over) => ({ httpStatus: 0, code: -1, status: "", message: "", reason: "", domain: "", metadata: {}, ...over });

test("rpcStatusJson escapes as the Go encoder: control characters by \\u00xx, U+2028, lone surrogates as U+FFFD, no HTML escapes", () => {
  const text = rpcStatusJson(status({ httpStatus: 400, message: "a\b\f\n<&>\u2028\ud800", retryDelay: { seconds: 1, nanos: 500_000_000 } }));
  assert.ok(text.includes('"message":"a\\u0008\\u000c\\n<&>\\u2028\\ufffd"'), text);
  assert.ok(text.endsWith('"retryDelay":"1.500s"}]}}'), text);
  assert.ok(rpcStatusJson(status({ retryDelay: { seconds: 0, nanos: 1000 } })).includes('"0.000001s"'));
  assert.ok(rpcStatusJson(status({ retryDelay: { seconds: 0, nanos: 1 } })).includes('"0.000000001s"'));
  assert.ok(rpcStatusJson(status({ retryDelay: { seconds: 2, nanos: 0 } })).includes('"2s"'));
});

const retryOf = (delay) => {
  const r = fromAip193(JSON.stringify({ error: { code: 500, details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: delay }] } }));
  assert.ok(r.ok);
  return r.envelope.recovery.retryAfterMs;
};

test("a RetryInfo delay is read in whole milliseconds, rounded up, bounded; a malformed or negative one is none", () => {
  assert.equal(retryOf("1.0001s"), 1001);
  assert.equal(retryOf("0s"), 0);
  assert.equal(retryOf("-0s"), 0);
  assert.equal(retryOf("999999999s"), RETRY.maxHintMs);
  for (const bad of ["-1s", "1", "1.s", ".5s", "1.0000000001s", "315576000001s", "1e3s", 1000]) {
    assert.equal(retryOf(bad), undefined, String(bad));
  }
});

test("a foreign error: lenient inside, the first ErrorInfo counts, its reason only in this domain", () => {
  const r = fromAip193(JSON.stringify({ error: { code: "404", message: 7, status: "NOT_FOUND", details: "x" } }));
  assert.ok(r.ok);
  assert.equal(r.envelope.message, "HTTP 404 Not Found");
  const other = fromRpcStatus(status({ httpStatus: 404, reason: "SOMETHING", domain: "other.example" }));
  assert.match(other.message, /^HTTP 404 Not Found$/);
  // gRPC's own status, no HTTP status: code.proto's status for the code, else 500.
  assert.match(fromRpcStatus(status({ code: 14 })).message, /^HTTP 503 /);
  assert.match(fromRpcStatus(status({ status: "UNAUTHENTICATED" })).message, /^HTTP 401 /);
  assert.match(fromRpcStatus(status({ status: "OK" })).message, /^HTTP 500 /);
  assert.equal(typeof ERROR_INFO_DOMAIN, "string");
});

test("encodeUtf8 writes UTF-8, a lone surrogate as U+FFFD", () => {
  assert.deepEqual([...encodeUtf8("aé€😀\ud800")], [0x61, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xef, 0xbf, 0xbd]);
});
