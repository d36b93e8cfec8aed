// Every vector envelope, and what the package's constructors and serializer
// produce, against the output root's envelope schemas (ajv, draft 2020-12).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import Ajv2020 from "ajv/dist/2020.js";
import { constructors, newEnv, parsed, pkg, schema, vectors } from "./env.mjs";

const ajv = new Ajv2020({ allErrors: true, strict: false });
const consumer = ajv.compile(schema("consumer"));
const producer = ajv.compile(schema("producer"));

function valid(validate, value, what) {
  assert.ok(validate(value), `${what}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value)}`);
}

/** knownVocabulary reports whether every vocabulary value of the envelope is one this contract defines (the producer schema's enums are closed). */
function knownVocabulary(env) {
  return (
    pkg.isKnownKind(env.kind) &&
    pkg.ORIGINS.includes(env.origin) &&
    pkg.RECOVERY_ACTIONS.includes(env.recovery.action) &&
    pkg.SAME_ARGUMENTS_VALUES.includes(env.recovery.sameArguments) &&
    pkg.SIDE_EFFECTS_VALUES.includes(env.sideEffects)
  );
}

describe(`${pkg.CONTRACT_NAME}: envelope schemas`, () => {
  for (const v of vectors.envelopes) {
    test(`vector ${v.name}`, () => {
      valid(consumer, v.envelope, "consumer schema");
      const env = parsed(v.envelope);
      if (v.known && knownVocabulary(env)) {
        valid(producer, v.envelope, "producer schema");
      }
      valid(consumer, pkg.toWire(env), "consumer schema (serialized)");
    });
  }
  test("every constructor's envelope is valid for the producer schema", () => {
    const ctors = constructors();
    const byKind = new Map(vectors.envelopes.filter((e) => e.known && e.name === e.kind).map((e) => [e.kind, parsed(e.envelope)]));
    for (const [kind, { fn, params }] of ctors) {
      const sample = byKind.get(kind);
      assert.ok(sample, `a vector for ${kind}`);
      const env = fn("a message", ...params.slice(1).map((p) => sample[p]));
      valid(producer, pkg.toWire(env), kind);
      valid(consumer, pkg.toWire(env), kind);
    }
  });
  test("an unknown kind is valid for the consumer schema only", () => {
    const fb = vectors.lookup.find((v) => !v.known);
    const wire = pkg.toWire(newEnv(fb.kind, "from a newer producer"));
    valid(consumer, wire, "consumer schema");
    assert.equal(producer(wire), false);
  });
  test("malformed vectors that are JSON objects are mostly rejected by the consumer schema", () => {
    let rejected = 0;
    for (const v of vectors.malformed) if ("input" in v && !consumer(v.input)) rejected++;
    assert.ok(rejected > 0);
  });
});
