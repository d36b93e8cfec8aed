// Producers never emit what the producer schema rejects (issue 14): every
// constructor of every kind, fed adversarial messages, guidance and retry
// hints, builds an envelope that validates against the contract's producer
// schema and, for the reference contract, against labby's published schema.
// The Go (internal/gentest.CheckProducers) and Python (test_producers.py)
// suites hold their packages to the same inputs.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import Ajv2020 from "ajv/dist/2020.js";
import { constructors, newEnv, parsed, pkg, schema, vectors } from "./env.mjs";

const ajv = new Ajv2020({ allErrors: true, strict: false });
const producer = ajv.compile(schema("producer"));
// labby's own schema, vendored with a note on its origin; a missing file
// fails the test rather than skipping it.
const labby =
  pkg.CONTRACT_NAME === "agent-error"
    ? ajv.compile(JSON.parse(readFileSync(new URL("../../testdata/labby/agent-error.schema.json", import.meta.url), "utf8")))
    : undefined;

/**
 * Text a reader cannot see, or that the sanitizer empties, and text at the
 * edges of size. The third member says when the text is blank for a
 * constructor: always, once sanitized (the sanitizer removes markers, bidi
 * and control characters), or never.
 */
const adversarial = [
  ["empty", "", "always"],
  ["blank", " \t\r\n ", "always"],
  ["wide spaces", "\u3000\u00a0\u2007\u202f", "always"],
  ["invisible", "\u200b\u200c\u200d\u2060\ufeff\u00ad", "always"],
  ["bidi only", "\u202a\u202e\u2066\u2069", "sanitized"],
  ["controls only", "\u0000\u0001\u001f\u007f", "sanitized"],
  ["markers only", "<system>[INST]###<<", "sanitized"],
  ["markers and blanks", " <system> \u200b [INST] ", "sanitized"],
  ["lone surrogate", "\ud800", "never"],
  ["huge", "x".repeat(1 << 18), "never"],
  ["ordinary", "the upstream said no", "never"],
];

/** invisibleOnly is the specification of a blank text (docs/reference/agents.md): only white space and invisible format characters. */
function invisibleOnly(text) {
  return /^[\t-\r \u0085\u00a0\u00ad\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u3000\ufeff]*$/u.test(text);
}

/** Hints a producer clamps, and hints it must refuse. */
const hints = [0, 1, 1.5, 999.0001, 2 ** 31, 2 ** 53, Number.MAX_VALUE, Infinity];
const refusedHints = [-1, -0.5, -Infinity, NaN, "5", null];

function check(env, what) {
  const wire = pkg.toWire(env);
  assert.ok(producer(wire), `${what}: producer schema: ${ajv.errorsText(producer.errors)}\n${JSON.stringify(wire).slice(0, 400)}`);
  if (labby) {
    assert.ok(labby(wire), `${what}: labby's schema: ${ajv.errorsText(labby.errors)}`);
  }
  assert.notEqual(env.message.trim(), "", `${what}: blank message`);
  // Where the layout carries only the producer's own guidance, there may be none.
  if (pkg.FILLS_GUIDANCE || env.recovery.guidance !== "") {
    assert.notEqual(env.recovery.guidance.trim(), "", `${what}: blank guidance`);
  }
  const h = env.recovery.retryAfterMs;
  if (h !== undefined) {
    assert.ok(Number.isInteger(h) && h >= 0 && h <= pkg.RETRY.maxHintMs, `${what}: hint ${h}`);
  }
}

describe(`${pkg.CONTRACT_NAME}: producers under adversarial input`, () => {
  const byKind = new Map(vectors.envelopes.filter((e) => e.known && e.name === e.kind).map((e) => [e.kind, parsed(e.envelope)]));
  const ctors = [...constructors()];

  test("there is a constructor for every kind", () => {
    assert.deepEqual(ctors.map(([kind]) => kind).sort(), [...pkg.KNOWN_KINDS].sort());
  });

  for (const [kind, { fn, params }] of ctors) {
    const sample = byKind.get(kind);
    const args = params.slice(1).map((p) => sample[p]);
    test(`${kind}: messages, guidance and hints`, () => {
      for (const [name, text, blank] of adversarial) {
        for (const trusted of [false, true]) {
          const what = `${kind}, ${name}${trusted ? ", trusted" : ""}`;
          const env = fn(text, ...args, { trusted });
          check(env, `${what} message`);
          const seen = trusted || !pkg.SANITIZED_FIELDS.includes("message") ? text : pkg.sanitize(text);
          const fallsBack = blank === "always" || (blank === "sanitized" && invisibleOnly(seen));
          assert.equal(env.message === pkg.lookup(kind).description, fallsBack || text === pkg.lookup(kind).description, `${what}: message ${JSON.stringify(env.message.slice(0, 80))}`);
          const g = pkg.withFields(env, { guidance: text }, { trusted });
          check(g, `${what} guidance`);
        }
      }
      const base = fn("a message", ...args);
      for (const ms of hints) {
        const env = pkg.withRetryAfter(base, ms);
        check(env, `${kind}, hint ${ms}`);
        assert.equal(env.recovery.retryAfterMs, Math.min(Math.ceil(ms), pkg.RETRY.maxHintMs), `${kind}: hint ${ms}`);
      }
      for (const ms of refusedHints) {
        assert.throws(() => pkg.withRetryAfter(base, ms), RangeError, `${kind}: hint ${String(ms)} must be refused`);
      }
    });
  }

  test("a blank message falls back to the kind's description, or to the kind itself", () => {
    const [kind, { fn, params }] = ctors[0];
    const args = params.slice(1).map((p) => byKind.get(kind)[p]);
    assert.equal(fn("", ...args).message, pkg.lookup(kind).description);
    assert.equal(newEnv(kind, "\u200b\u3000").message, pkg.lookup(kind).description);
    assert.equal(newEnv("kind_from_a_newer_contract", " ").message, "kind_from_a_newer_contract");
    assert.equal(newEnv(kind, " keep me ").message.trim(), "keep me");
  });

  test("blank guidance brings back the contract's, or none where the layout carries only the producer's own", () => {
    const env = pkg.withFields(newEnv(pkg.KNOWN_KINDS[0], "m"), { guidance: "\u200b " });
    assert.equal(env.recovery.guidance, pkg.FILLS_GUIDANCE ? pkg.lookup(pkg.KNOWN_KINDS[0]).guidance : "");
  });

  test("an empty kind is refused by the constructor and by the encoder", () => {
    assert.throws(() => newEnv("", "m"), TypeError);
    const env = newEnv(pkg.KNOWN_KINDS[0], "m");
    assert.throws(() => pkg.toWire({ ...env, kind: "" }), TypeError);
    assert.throws(() => pkg.serializeEnvelope({ ...env, kind: "" }), TypeError);
  });

  test("the encoder refuses a retry hint no decoder reads back", () => {
    const env = newEnv(pkg.KNOWN_KINDS[0], "m");
    for (const ms of [-1, 2.5, NaN]) {
      assert.throws(() => pkg.toWire({ ...env, recovery: { ...env.recovery, retryAfterMs: ms } }), RangeError, String(ms));
    }
  });
});
