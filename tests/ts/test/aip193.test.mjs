// The google.rpc mapping's vectors (AIP-193): every kind's gRPC code and
// reason through lookup (the reasons' edges through lookup of kinds the
// contract may not define, which computes them), every envelope's AIP-193
// JSON byte for byte as the Go package writes it and read back into the
// envelope, and foreign AIP-193 errors read into their envelopes (a failed
// read for null).
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { contextParams, parsed, pkg, vectors } from "./env.mjs";

const SECTIONS = ["aip193_domain", "aip193_kinds", "aip193_reasons", "aip193_encode", "aip193_decode"];

describe(`${pkg.CONTRACT_NAME}: google.rpc mapping (AIP-193)`, () => {
  test("the vectors have every aip193 section, none empty", () => {
    for (const s of SECTIONS) {
      assert.ok(Object.hasOwn(vectors, s), `the vectors have no ${s}`);
      if (s !== "aip193_domain") assert.ok(vectors[s].length > 0, `${s} is empty`);
    }
  });

  test("ERROR_INFO_DOMAIN", () => assert.equal(pkg.ERROR_INFO_DOMAIN, vectors.aip193_domain));

  for (const want of vectors.aip193_kinds ?? []) {
    test(`lookup(${JSON.stringify(want.kind)}): gRPC code and reason`, () => {
      const c = pkg.lookup(want.kind);
      assert.deepEqual(
        { kind: want.kind, http_status: c.httpStatus, grpc_code: c.grpcCode, grpc_status: c.grpcStatus, reason: c.reason },
        want,
      );
    });
  }

  test("reasons", () => {
    for (const want of vectors.aip193_reasons ?? []) {
      assert.equal(pkg.lookup(want.kind).reason, want.reason, `lookup(${JSON.stringify(want.kind)}).reason`);
    }
  });

  for (const want of vectors.aip193_encode ?? []) {
    test(`encode ${want.name}`, () => {
      const env = parsed(want.envelope);
      assert.equal(pkg.toAip193(env), want.aip193);
      // The google.rpc.Status rendered is the same text.
      assert.equal(pkg.rpcStatusJson(pkg.rpcStatus(env)), want.aip193);
      for (const text of [want.aip193, new TextEncoder().encode(want.aip193)]) {
        const back = pkg.fromAip193(text);
        assert.ok(back.ok, back.ok ? "" : `${back.error.path} ${back.error.problem}`);
        assert.deepEqual(pkg.toWire(back.envelope), want.envelope);
      }
    });
  }

  for (const want of vectors.aip193_decode ?? []) {
    test(`decode ${want.name}`, () => {
      const got = pkg.fromAip193(want.aip193);
      if (want.envelope === null) {
        assert.equal(got.ok, false, "fromAip193 returned an envelope, want a failed read");
        if (want.category !== undefined) {
          // The error the envelope decoder gives for the same problem.
          assert.deepEqual({ path: got.error.path, category: got.error.category }, { path: want.path, category: want.category });
        }
        return;
      }
      assert.ok(got.ok, got.ok ? "" : `${got.error.path} ${got.error.problem}`);
      // A context field every envelope carries is the caller's to set: the
      // error does not say which operation failed.
      const exp = parsed(want.envelope);
      for (const p of contextParams) {
        if (got.envelope[p] === undefined || got.envelope[p] === "") got.envelope[p] = exp[p];
      }
      assert.deepEqual(pkg.toWire(got.envelope), want.envelope);
      // Whatever a reader returns can be written again, as an AIP-193 error too.
      pkg.toAip193(got.envelope);
    });
  }
});

describe(`${pkg.CONTRACT_NAME}: google.rpc mapping beyond the vectors`, () => {
  const kind = pkg.KNOWN_KINDS[0];
  const c = pkg.lookup(kind);

  test("the fallback's reason is computed per kind; its code is the contract's", () => {
    assert.equal(pkg.fallback().reason, "");
    assert.equal(pkg.lookup("someNewKind").reason, "SOME_NEW_KIND");
    assert.equal(pkg.lookup("someNewKind").grpcStatus, pkg.fallback().grpcStatus);
  });

  test("a retry hint past a Duration's range travels exactly in the metadata", () => {
    const env = parsed(vectors.aip193_encode[0].envelope);
    env.recovery.retryAfterMs = 315_576_000_000_001;
    const s = pkg.rpcStatus(env);
    assert.deepEqual(s.retryDelay, { seconds: 315_576_000_000, nanos: 0 });
    assert.equal(s.metadata.retryAfterMs, "315576000000001");
    const back = pkg.fromAip193(pkg.toAip193(env));
    assert.ok(back.ok);
    // Only a layout with the retry hint on the wire reads one back.
    const onWire = pkg.AIP_LEAVES.some((l) => l.src === "retry");
    assert.equal(back.envelope.recovery.retryAfterMs, onWire ? 315_576_000_000_001 : undefined);
  });

  test("fromRpcStatus reads a status from gRPC (no HTTP status) by its code", () => {
    const e = pkg.fromRpcStatus({ httpStatus: 0, code: c.grpcCode, status: "", message: "m", reason: c.reason, domain: pkg.ERROR_INFO_DOMAIN, metadata: {}, retryDelay: { seconds: 1, nanos: 1 } });
    assert.equal(e.kind, kind);
    assert.equal(e.recovery.retryAfterMs, Math.min(1001, pkg.RETRY.maxHintMs));
  });

  test("a metadata value that would add members makes the error foreign", () => {
    const env = parsed(vectors.aip193_encode[0].envelope);
    const s = pkg.rpcStatus(env);
    const leaf = pkg.AIP_LEAVES.find((l) => l.src === "meta" && l.text !== true);
    if (leaf === undefined) return;
    const bad = { ...s, metadata: { ...s.metadata, [leaf.key]: '1,"kind":"x"' } };
    const e = pkg.fromRpcStatus(bad);
    assert.match(e.message, /^HTTP \d{3}/);
  });

  test("what is not an AIP-193 error fails to read", () => {
    for (const text of ["", "[]", "{}", '{"error":[]}', '{"error":null}', "nope"]) {
      assert.equal(pkg.fromAip193(text).ok, false, text);
    }
  });
});

// AIP-193 answers written by the real protobuf library (issue 29): `make
// protojson-aip193` (tests/go/cmd/protojsonaip193) has protojson write a
// google.rpc.Status with its ErrorInfo and RetryInfo for every envelope of
// every contract's aip193_encode vectors, compact, indented and with the
// fields' proto names (retry_delay), inside
// {"error": ...}; fromAip193 must read each back into the envelope.
const protojsonPath = process.env.ERRGEN_PROTOJSON_AIP193;

/** same compares two JSON values: objects without regard to member order. */
function same(a, b) {
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((v, i) => same(v, b[i]));
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
}

describe(`${pkg.CONTRACT_NAME}: AIP-193 answers protojson wrote`, () => {
  test("every answer reads back into its envelope", () => {
    assert.ok(protojsonPath && existsSync(protojsonPath), `no ${protojsonPath}: run make protojson-aip193`);
    const answers = JSON.parse(readFileSync(protojsonPath, "utf8")).contracts[pkg.CONTRACT_NAME];
    assert.ok(Array.isArray(answers) && answers.length > 0, `${protojsonPath} has no answers of ${pkg.CONTRACT_NAME}`);
    const wrong = [];
    for (const a of answers) {
      const got = pkg.fromAip193(a.aip193);
      if (!got.ok) {
        wrong.push(`${a.name}: ${got.error.path} ${got.error.problem}`);
      } else if (!same(pkg.toWire(got.envelope), a.envelope)) {
        wrong.push(`${a.name}: got ${JSON.stringify(pkg.toWire(got.envelope))}, want ${JSON.stringify(a.envelope)}`);
      }
    }
    assert.deepEqual(wrong, [], `${wrong.length} of ${answers.length} answers read wrong`);
  });
});
