// The Node checker of tests/e2e/imports.sh:
//
//   node check.mjs NAME=PACKAGE_DIR... -- EXPECTATION.json...
//
// loads each generated TypeScript package as it ships (PACKAGE_DIR/dist)
// and holds the one each expectation file of imports/expect.py names as
// its reader to it, as check.go does the Go packages. Exits 1 on any
// difference.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
const sep = args.indexOf("--");
const readers = {};
for (const a of args.slice(0, sep)) {
  const [name, dir] = a.split("=");
  readers[name] = await import(pathToFileURL(join(dir, "dist", "index.js")).href);
}

/** classification is lookup(kind) under the vectors' member names. */
function classification(pkg, kind) {
  const c = pkg.lookup(kind);
  return {
    kind: c.kind, known: c.known, group: c.group, origin: c.origin, action: c.action,
    same_arguments: c.sameArguments, guidance: c.guidance, side_effects: c.sideEffects,
    http_status: c.httpStatus, log_level: c.logLevel, breaker: c.breaker, retryable: c.retryable,
    startup: c.startup, number: c.number, grpc_code: c.grpcCode, grpc_status: c.grpcStatus, reason: c.reason,
  };
}

function decode(pkg, text) {
  const r = pkg.parseEnvelopeJson(text);
  if (!r.ok) throw new Error(`${r.error.path}: ${r.error.problem}`);
  return r.envelope;
}

let failed = false;
for (const path of args.slice(sep + 1)) {
  const x = JSON.parse(readFileSync(path, "utf8"));
  const pkg = readers[x.reader];
  assert.ok(pkg, `no package for the reader ${x.reader}`);
  const problems = [];
  const check = (name, fn) => {
    try {
      fn();
    } catch (e) {
      problems.push(`${name}: ${e.message}`);
    }
  };
  for (const v of x.envelopes) {
    check(v.name, () => {
      const env = decode(pkg, v.text);
      assert.equal(pkg.serializeEnvelope(env), v.text, "decoded and encoded again");
      assert.deepEqual(
        [env.kind, pkg.isKnownKind(env.kind), pkg.isRetryable(env), pkg.httpStatus(env)],
        [v.kind, v.known, v.retryable, v.http_status],
        "kind, known, retryable, HTTP status",
      );
      const c = classification(pkg, env.kind);
      for (const [name, want] of Object.entries(v.lookup)) assert.deepEqual(c[name], want, `lookup(${env.kind}).${name}`);
    });
  }
  for (const v of x.next_step) {
    check(`next step ${v.name}`, () => {
      const env = decode(pkg, v.text);
      for (const a of v.attempts) {
        const d = pkg.nextStep(env, a.attempt);
        assert.deepEqual(
          { attempt: a.attempt, step: d.step, delay_min_ms: d.delayMinMs, delay_max_ms: d.delayMaxMs, check_state_first: d.checkStateFirst, exhausted: d.exhausted },
          a,
        );
      }
    });
  }
  for (const p of problems) console.error(`node: ${x.reader} reading ${x.source}: ${p}`);
  failed ||= problems.length > 0;
  console.log(`node: ${x.reader} reads ${x.source}'s ${x.envelopes.length} envelopes and ${x.next_step.length} next-step cases: ${problems.length} differences`);
}
process.exitCode = failed ? 1 : 0;
