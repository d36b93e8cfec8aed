// freeze.ts, spec.ts and the small helpers of codec.ts and classification.ts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mod } from "./load.mjs";

const { deepFreeze } = await mod("freeze");
const { STEPS, FAILURES } = await mod("spec");
const { joinPath, setOwn, isObject, formatDecodeError } = await mod("codec");
const { blank, hasOwn } = await mod("classification");

test("deepFreeze freezes every level and returns its argument", () => {
  const table = { a: [1, { b: "x" }], c: { d: { e: [] } } };
  assert.equal(deepFreeze(table), table);
  for (const v of [table, table.a, table.a[1], table.c, table.c.d, table.c.d.e]) {
    assert.ok(Object.isFrozen(v));
  }
  assert.throws(() => {
    "use strict";
    table.c.d.e.push(1);
  }, TypeError);
  assert.equal(deepFreeze("text"), "text");
  assert.equal(deepFreeze(null), null);
});

test("STEPS and FAILURES are frozen lists without duplicates", () => {
  for (const list of [STEPS, FAILURES]) {
    assert.ok(Object.isFrozen(list));
    assert.equal(new Set(list).size, list.length);
    assert.ok(list.every((s) => /^[a-z][a-z_]*$/.test(s)));
  }
  assert.ok(STEPS.includes("retry") && STEPS.includes("escalate"));
});

test("setOwn defines an own property even for __proto__", () => {
  const o = {};
  setOwn(o, "__proto__", { polluted: true });
  assert.equal(Object.getPrototypeOf(o), Object.prototype);
  assert.deepEqual(Object.keys(o), ["__proto__"]);
  assert.equal({}.polluted, undefined);
  assert.deepEqual(JSON.parse(JSON.stringify(o)), JSON.parse('{"__proto__":{"polluted":true}}'));
});

test("joinPath, isObject and formatDecodeError", () => {
  assert.equal(joinPath("", "kind"), "kind");
  assert.equal(joinPath("recovery", "action"), "recovery.action");
  assert.equal(isObject({}), true);
  assert.equal(isObject([]), false);
  assert.equal(isObject(null), false);
  assert.equal(isObject("{}"), false);
  assert.equal(formatDecodeError({ path: "", problem: "is not a JSON object", category: "type" }), "invalid envelope: is not a JSON object");
  assert.equal(formatDecodeError({ path: "kind", problem: "is required", category: "missing" }), "invalid envelope: kind is required");
});

test("blank accepts only white space and invisible format characters", () => {
  assert.equal(blank(""), true);
  assert.equal(blank(" \t\r\n\u00a0\u200b\u2028\u202e\u3000\ufeff"), true);
  assert.equal(blank(" . "), false);
  assert.equal(blank("\u200bx"), false);
});

test("hasOwn ignores inherited members", () => {
  assert.equal(hasOwn({ a: 1 }, "a"), true);
  assert.equal(hasOwn({}, "toString"), false);
  assert.equal(hasOwn({}, "__proto__"), false);
});
