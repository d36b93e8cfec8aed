// Call errors (the contract's call_error section): every call_errors vector
// of the package's contract (every kind, and the edge cases) built by
// toCallError validates against the package's call-error schema and, for
// the reference contract, labby's published Code Mode call-error schema
// (vendored in tests/testdata/labby), and matches the vector. The Go
// (internal/gentest.CheckCallErrors), Python and Rust suites run the same
// vectors.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import Ajv2020 from "ajv/dist/2020.js";
import { pkg, root, vectors } from "./env.mjs";

const ajv = new Ajv2020({ allErrors: true, strict: false });
const schemaFile = join(root, "schemas", `${pkg.CONTRACT_NAME}.call-error.schema.json`);
const schemas = [];
if (pkg.CALL_ERROR !== null) {
  schemas.push(["the call-error schema", ajv.compile(JSON.parse(readFileSync(schemaFile, "utf8")))]);
}
if (pkg.CONTRACT_NAME === "agent-error") {
  schemas.push(["labby's code-mode-call-error schema", ajv.compile(JSON.parse(readFileSync(new URL("../../testdata/labby/code-mode-call-error.schema.json", import.meta.url), "utf8")))]);
}

/** matches compares as the vectors say: every member want gives equals got's (null: absent), arrays item by item. */
function matches(want, got, path) {
  if (Array.isArray(want)) {
    assert.ok(Array.isArray(got) && got.length === want.length, `${path}: want ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
    want.forEach((w, i) => matches(w, got[i], `${path}[${i}]`));
  } else if (want !== null && typeof want === "object") {
    assert.ok(got !== null && typeof got === "object" && !Array.isArray(got), `${path}: want an object, got ${JSON.stringify(got)}`);
    for (const [k, w] of Object.entries(want)) {
      if (w === null) {
        assert.ok(!Object.hasOwn(got, k), `${path}.${k}: want it absent, got ${JSON.stringify(got[k])}`);
      } else {
        assert.ok(Object.hasOwn(got, k), `${path}.${k}: missing`);
        matches(w, got[k], `${path}.${k}`);
      }
    }
  } else {
    assert.deepEqual(got, want, path);
  }
}

test("call errors: the call_errors vectors, validated against the call-error schemas", () => {
  assert.equal(pkg.CALL_ERROR === null, !existsSync(schemaFile), "a call-error schema exactly when the contract declares call_error");
  if (pkg.CALL_ERROR === null) {
    assert.equal(vectors.call_errors.length, 0);
    assert.throws(() => pkg.toCallError({ content: [], isError: true }));
    return;
  }
  assert.ok(vectors.call_errors.length > 0);
  for (const v of vectors.call_errors) {
    const call = () => pkg.toCallError(v.result, v.tool);
    if (v.error) {
      assert.throws(call, undefined, v.name);
      continue;
    }
    const text = pkg.callErrorText(call());
    const got = JSON.parse(text);
    for (const [what, validate] of schemas) {
      assert.ok(validate(got), `${v.name}: ${what}: ${ajv.errorsText(validate.errors)}\n${text.slice(0, 600)}`);
    }
    matches(v.expect, got, v.name);
    if (v.exact) {
      for (const k of Object.keys(got)) {
        assert.ok(Object.hasOwn(v.expect, k), `${v.name}: unexpected member ${k}`);
      }
    }
    for (const a of v.absent) {
      assert.ok(!text.includes(a), `${v.name}: the call error holds ${a}`);
    }
  }
});
