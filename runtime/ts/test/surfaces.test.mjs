// surfaces.ts: reading Retry-After and the text of a response body.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mod } from "./load.mjs";

const { parseRetryAfter, httpText } = await mod("surfaces");
const { RETRY } = await mod("contract");

test("parseRetryAfter reads delay seconds", () => {
  assert.equal(parseRetryAfter("120"), 120000);
  assert.equal(parseRetryAfter(" 0 "), 0);
  // Past what a hint may say, and past 2^63 seconds: the maximum.
  assert.equal(parseRetryAfter("99999999999"), RETRY.maxHintMs);
  assert.equal(parseRetryAfter("9".repeat(40)), undefined);
  for (const bad of [undefined, null, "", "-1", "1.5", "0x10", "soon"]) {
    assert.equal(parseRetryAfter(bad), undefined, String(bad));
  }
});

test("parseRetryAfter measures an HTTP date from the response's Date", () => {
  const date = "Wed, 21 Oct 2015 07:28:00 GMT";
  assert.equal(parseRetryAfter("Wed, 21 Oct 2015 07:28:30 GMT", date), 30000);
  assert.equal(parseRetryAfter("Wed, 21 Oct 2015 07:27:00 GMT", date), 0);
  // A date in the past of now, without a Date header: no wait.
  assert.equal(parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT"), 0);
  assert.equal(parseRetryAfter("Wed, 32 Oct 2015 07:28:00 GMT", date), undefined);
});

test("httpText collapses white space and cuts at 512 bytes with an ellipsis", () => {
  const enc = (s) => new TextEncoder().encode(s);
  assert.equal(httpText(enc("  upstream\n\tdown \r\n ")), "upstream down");
  assert.equal(httpText(new Uint8Array([0x61, 0xff, 0xfe, 0x20, 0x62])), "a\ufffd b");
  assert.equal(httpText(enc("")), "");
  const long = httpText(enc("é".repeat(400)));
  assert.ok(long.endsWith("…"));
  assert.equal(long, "é".repeat(256) + "…");
  assert.equal(httpText(enc("x".repeat(512))), "x".repeat(512));
});
