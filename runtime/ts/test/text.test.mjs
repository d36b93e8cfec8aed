// words.ts and utf8.ts: the text primitives the classifiers and the HTTP
// surface share with the Go and Python packages.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mod } from "./load.mjs";

const { asciiLower, hasWord } = await mod("words");
const { decodeUtf8, utf8Length, truncateUtf8 } = await mod("utf8");

test("asciiLower folds ASCII letters only", () => {
  assert.equal(asciiLower("Rate LIMITED 429"), "rate limited 429");
  // Not Unicode case folding: Ä, the dotted İ and the Kelvin sign stay, so
  // the three languages agree on every input.
  assert.equal(asciiLower("ÄBC İ \u212a"), "Äbc İ \u212a");
});

test("hasWord matches whole words only", () => {
  assert.equal(hasWord("rate limited!", ["rate limited"]), true);
  assert.equal(hasWord("(timeout)", ["timeout"]), true);
  // Letters, digits and the underscore continue a word.
  assert.equal(hasWord("rate_limited", ["limited"]), false);
  assert.equal(hasWord("timeout2", ["timeout"]), false);
  assert.equal(hasWord("xtimeout", ["timeout"]), false);
  // A later whole occurrence counts after an embedded one.
  assert.equal(hasWord("xtimeout timeout", ["timeout"]), true);
  // Non-ASCII letters are boundaries.
  assert.equal(hasWord("étimeoutà", ["timeout"]), true);
  assert.equal(hasWord("anything", []), false);
});

test("decodeUtf8 replaces invalid bytes as Go does", () => {
  const bytes = (...b) => new Uint8Array(b);
  assert.equal(decodeUtf8(bytes(0x61, 0xc3, 0xa9, 0x62), false), "aéb");
  // Each invalid byte on its own (encoding/json), or each run as one (strings.ToValidUTF8).
  assert.equal(decodeUtf8(bytes(0x61, 0xff, 0xfe, 0x62), false), "a\ufffd\ufffdb");
  assert.equal(decodeUtf8(bytes(0x61, 0xff, 0xfe, 0x62), true), "a\ufffdb");
  // An encoded surrogate and an overlong NUL are invalid, byte by byte.
  assert.equal(decodeUtf8(bytes(0xed, 0xa0, 0x80), false), "\ufffd\ufffd\ufffd");
  assert.equal(decodeUtf8(bytes(0xc0, 0x80), false), "\ufffd\ufffd");
  // A truncated sequence at the end.
  assert.equal(decodeUtf8(bytes(0x61, 0xf0, 0x9f, 0x98), false), "a\ufffd\ufffd\ufffd");
  assert.equal(decodeUtf8(bytes(0xf0, 0x9f, 0x98, 0x80), false), "😀");
});

test("decodeUtf8 handles inputs longer than one chunk", () => {
  const b = new Uint8Array(10000).fill(0x78);
  b[5000] = 0xff;
  const s = decodeUtf8(b, true);
  assert.equal(s.length, 10000);
  assert.equal(s[5000], "\ufffd");
});

test("utf8Length and truncateUtf8 count UTF-8 bytes and never split a character", () => {
  assert.equal(utf8Length("aé€😀"), 1 + 2 + 3 + 4);
  assert.equal(utf8Length("\ud800"), 3); // a lone surrogate counts as U+FFFD
  assert.equal(truncateUtf8("aé€😀", 3), "aé");
  assert.equal(truncateUtf8("aé€😀", 2), "a");
  assert.equal(truncateUtf8("aé€😀", 9), "aé€");
  assert.equal(truncateUtf8("aé€😀", 10), "aé€😀");
  assert.equal(truncateUtf8("abc", 0), "");
});
