// The string_forms vectors, and the attacks of issue 28 on the string forms:
// errorString, the message, toString() and stack of the Error toError makes,
// and the log form's message and extra, for envelopes received with a
// secret, a forged log line or controls in them, as every package writes
// them.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { format } from "node:util";
import { pkg, vectors } from "./env.mjs";

const FORGED = "upstream said ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8\nlevel=ERROR msg=forged";
const SPLIT = "ghp_a1B2c3D4e5F6g7H8i9\u0001J0k1L2m3N4o5P6q7R8";
const sanitized = pkg.SANITIZED_FIELDS.includes("message");

/** decoded reads JSON text that must be a valid envelope. */
function decoded(text) {
  const r = pkg.parseEnvelopeJson(text);
  assert.ok(r.ok, r.ok ? "" : `${r.error.path}: ${r.error.problem}`);
  return r.envelope;
}

/** leaks reports whether out holds a piece of the token or a line break. */
function leaks(out) {
  return out.includes("a1B2c3D4") || out.includes("J0k1L2m3") || /[\n\r\u2028\u2029]/.test(out);
}

/** withMembers is an envelope of the first kind, received with the given members added at its top level. */
function withMembers(members) {
  const wire = pkg.toWire(pkg.newEnvelope(vectors.lookup[0].kind, "m", ...contextArgs()));
  return decoded(JSON.stringify({ ...wire, ...members }));
}

/** contextArgs are values for the context fields newEnvelope requires after the message. */
function contextArgs() {
  const m = /^function\s+\w+\s*\(([^)]*)\)/.exec(pkg.newEnvelope.toString());
  const names = m ? m[1].split(",").map((s) => s.trim()).filter((s) => s !== "" && s !== "opts") : [];
  return names.slice(2).map((n) => `example ${n}`);
}

describe(`${pkg.CONTRACT_NAME}: string forms`, () => {
  for (const v of vectors.string_forms) {
    test(v.name, () => {
      const env = decoded(v.text);
      const fields = pkg.logFields(env);
      assert.equal(fields.message, v.log_message);
      assert.equal(fields.extra, v.log_extra ?? undefined);
      assert.equal(pkg.errorString(env), v.string);
      const err = pkg.toError(env);
      assert.ok(err instanceof Error && err instanceof pkg.ErrorWithEnvelope);
      assert.equal(err.envelope, env);
      assert.equal(err.message, v.string);
      assert.equal(String(err), `ErrorWithEnvelope: ${v.string}`);
      assert.equal(err.stack.split("\n")[0], `ErrorWithEnvelope: ${v.string}`);
    });
  }

  for (const trusted of [false, true]) {
    test(`every string form of an envelope built${trusted ? " trusted" : ""}`, () => {
      const env = pkg.newEnvelope(vectors.lookup[0].kind, FORGED, ...contextArgs(), { trusted });
      const err = pkg.toError(env);
      let thrown;
      try {
        throw err;
      } catch (e) {
        thrown = e;
      }
      for (const [what, out] of Object.entries({
        errorString: pkg.errorString(env),
        message: err.message,
        toString: String(err),
        "stack header": thrown.stack.split("\n    at ")[0],
        "util.format %s": format("%s", err).split("\n    at ")[0],
      })) {
        assert.ok(sanitized ? !leaks(out) : !/[\n\r]/.test(out), `${what}: ${JSON.stringify(out)}`);
      }
    });
  }

  test("the string form is bounded", () => {
    const env = pkg.newEnvelope("k".repeat(3000), "a" + "é".repeat(3000), ...contextArgs(), { trusted: true });
    // The sanitizer bounds the message first (its max_length), the string form then at 1024 bytes.
    assert.equal(pkg.errorString(env), "k".repeat(1024) + "…: " + pkg.boundLogText(pkg.sanitize(env.message)));
  });

  test("extra sanitizes each string before its JSON text", () => {
    const env = withMembers({ xb_note: "key " + SPLIT, [SPLIT]: 1, xa_nested: { [SPLIT]: [SPLIT, 2] } });
    assert.equal(pkg.logFields(env).extra, '{"[REDACTED]":1,"xa_nested":{"[REDACTED]":["[REDACTED]",2]},"xb_note":"key [REDACTED]"}');
    assert.ok(!leaks(JSON.stringify(pkg.logFields(env))));
    assert.ok(!pkg.logFields(withMembers({ x_password: "hunter2" })).extra.includes("hunter2"));
  });
});
