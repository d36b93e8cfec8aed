// inbound.ts and nextstep.ts: the rule engine on a classifier written here,
// and the decision procedure against the fixture contract's retry policy.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mod } from "./load.mjs";

const { classifyWith } = await mod("inbound");
const { nextStep } = await mod("nextstep");
const { classifiedEnvelope, withRetryAfter } = await mod("classification");
const { CLASSIFICATIONS, ACTION_STEPS, RETRY } = await mod("contract");

const rule = (r) => ({ statuses: [], failures: [], anyFailure: false, text: [], breaker: false, ...r });
const spec = {
  name: "test",
  rules: [
    rule({ statuses: [[429, 429]], kind: "throttled", breaker: false }),
    rule({ statuses: [[500, 599]], text: ["out of memory"], kind: "oom", breaker: true }),
    rule({ statuses: [[500, 599]], kind: "server", breaker: true }),
    rule({ failures: ["dns"], kind: "unresolved" }),
    rule({ anyFailure: true, kind: "transport", breaker: true }),
  ],
  default: "other",
  defaultBreaker: false,
};

test("classifyWith: the first rule whose conditions all hold wins", () => {
  assert.deepEqual(classifyWith(spec, { status: 429 }), { kind: "throttled", countsTowardBreaker: false, rule: 1 });
  assert.deepEqual(classifyWith(spec, { status: 503, text: "Out Of Memory!" }), { kind: "oom", countsTowardBreaker: true, rule: 2 });
  assert.deepEqual(classifyWith(spec, { status: 503, text: "out of memoryless" }), { kind: "server", countsTowardBreaker: true, rule: 3 });
  assert.deepEqual(classifyWith(spec, { failure: "dns" }), { kind: "unresolved", countsTowardBreaker: false, rule: 4 });
  assert.deepEqual(classifyWith(spec, { failure: "tls" }), { kind: "transport", countsTowardBreaker: true, rule: 5 });
});

test("classifyWith: the default, and anyFailure needs a failure", () => {
  assert.deepEqual(classifyWith(spec, {}), { kind: "other", countsTowardBreaker: false, rule: 0 });
  assert.deepEqual(classifyWith(spec, { status: 404, failure: "" }), { kind: "other", countsTowardBreaker: false, rule: 0 });
  assert.deepEqual(classifyWith({ ...spec, rules: [] }, { status: 500 }), { kind: "other", countsTowardBreaker: false, rule: 0 });
});

// A kind of the fixture contract whose action is a retry that the same
// arguments permit: nextStep backs off for it.
const retryKind = Object.values(CLASSIFICATIONS).find((c) => c.retryable);
const otherKind = Object.values(CLASSIFICATIONS).find((c) => ACTION_STEPS[c.action] !== "retry");

test("nextStep backs off exponentially, capped, with jitter below the bound", () => {
  assert.ok(retryKind, "the fixture contract has a retryable kind");
  const env = classifiedEnvelope(retryKind.kind, "try again");
  let prev = 0;
  for (let attempt = 1; attempt < RETRY.maxAttempts; attempt++) {
    const d = nextStep(env, attempt);
    assert.equal(d.step, "retry");
    assert.equal(d.exhausted, false);
    const want = Math.min(RETRY.initialMs * RETRY.multiplier ** (attempt - 1), RETRY.maxMs);
    assert.equal(d.delayMaxMs, Math.floor(want));
    assert.equal(d.delayMinMs, Math.floor(want * (1 - RETRY.jitter)));
    assert.ok(d.delayMaxMs >= prev && d.delayMaxMs <= RETRY.maxMs);
    prev = d.delayMaxMs;
  }
  const last = nextStep(env, RETRY.maxAttempts);
  assert.deepEqual({ step: last.step, exhausted: last.exhausted, max: last.delayMaxMs }, { step: "escalate", exhausted: true, max: 0 });
});

test("nextStep waits exactly a retry hint, clamped to maxHintMs", () => {
  const env = classifiedEnvelope(retryKind.kind, "busy");
  const d = nextStep(withRetryAfter(env, 1500.2), 1);
  assert.deepEqual([d.delayMinMs, d.delayMaxMs], [1501, 1501]);
  const huge = { ...env, recovery: { ...env.recovery, retryAfterMs: Number.MAX_SAFE_INTEGER } };
  assert.equal(nextStep(huge, 1).delayMaxMs, RETRY.maxHintMs);
});

test("nextStep takes other steps from the action, without waiting", () => {
  assert.ok(otherKind, "the fixture contract has a kind that is not retried");
  const d = nextStep(classifiedEnvelope(otherKind.kind, "no"), 1);
  assert.equal(d.step, ACTION_STEPS[otherKind.action]);
  assert.deepEqual([d.delayMinMs, d.delayMaxMs, d.exhausted], [0, 0, false]);
});
