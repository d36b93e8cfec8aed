// The differential reader vectors of `make reader-diff` (tests/go/readerdiff):
// seeded, mutated inputs for every reader with the Go package's answers.
// Each case is read through the same reader here — parseEnvelopeJson,
// fromHttpResponse, fromAip193, readCli, fromMcpToolResult — and must be
// accepted or rejected as Go did, with Go's DecodeError category, and an
// accepted envelope must equal Go's as a JSON value (objects unordered,
// numbers as 64-bit floats, -0 as 0) and encode again: serializeEnvelope,
// httpAnswer to the same text, and toAip193. Every disagreement is listed
// by class at the end; the test fails on any.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { pkg, root } from "./env.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../../..");
/** reference is true for the package of the repository's own contract (gen/ts), the one the file is written for. */
const reference = resolve(root) === repo;

/** input returns a case's bytes. */
function input(c) {
  return new Uint8Array(c.base64 !== undefined ? Buffer.from(c.base64, "base64") : Buffer.from(c.text, "utf8"));
}

/** same compares two JSON values: objects without regard to member order, numbers as doubles with -0 equal to 0. */
export function same(a, b) {
  if (typeof a === "number" && typeof b === "number") return a === b;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((v, i) => same(v, b[i]));
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
}

/** where returns the path of the first difference between two JSON values, with both values there. */
function where(a, b, path = "") {
  if (same(a, b)) return "";
  if (a !== null && b !== null && typeof a === "object" && typeof b === "object" && Array.isArray(a) === Array.isArray(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (!same(a[k], b[k])) return where(a[k], b[k], path === "" ? k : path + "." + k);
    }
  }
  const show = (v) => (v === undefined ? "(absent)" : short(JSON.stringify(v)));
  return `at ${path === "" ? "the top" : path}: Go ${show(a)}, here ${show(b)}`;
}

/** illFormed reports whether a JSON value holds a string (or member name) with a lone surrogate: every output must be well-formed. */
function illFormed(v) {
  if (typeof v === "string") return !v.isWellFormed();
  if (v === null || typeof v !== "object") return false;
  return Object.entries(v).some(([k, x]) => !k.isWellFormed() || illFormed(x));
}

/** read runs a case through the package's reader: { ok, category, envelope }. */
async function read(c) {
  const bytes = input(c);
  let r;
  switch (c.reader) {
    case "envelope":
      r = pkg.parseEnvelopeJson(bytes);
      break;
    case "http": {
      const headers = new Headers();
      try {
        for (const [n, v] of c.headers) headers.append(n, v);
      } catch {
        return { ok: false, category: "host" };
      }
      r = await pkg.fromHttpResponse({ status: c.status, headers, arrayBuffer: async () => bytes.slice().buffer });
      break;
    }
    case "aip193":
      r = pkg.fromAip193(bytes);
      break;
    case "cli":
      r = pkg.readCli(bytes);
      break;
    case "mcp": {
      let result;
      try {
        result = JSON.parse(new TextDecoder().decode(bytes));
      } catch {
        return { ok: false, category: "host" };
      }
      r = pkg.fromMcpToolResult(result);
      break;
    }
    default:
      throw new Error(`no reader ${c.reader}`);
  }
  return r.ok ? { ok: true, envelope: r.envelope } : { ok: false, category: r.error.category };
}

/** short JSON-escapes s, eliding the middle of a long one. */
function short(s) {
  return s.length <= 300 ? JSON.stringify(s) : `${JSON.stringify(s.slice(0, 140))} … (${s.length} units) … ${JSON.stringify(s.slice(-100))}`;
}

describe(`${pkg.CONTRACT_NAME}: reader differential vectors`, { skip: !reference && "the file is written for the reference contract's package only" }, () => {
  test("every case of ERRGEN_READER_DIFF gets Go's answer from the same reader", async () => {
    const path = process.env.ERRGEN_READER_DIFF;
    assert.ok(path, "ERRGEN_READER_DIFF is not set: run make reader-diff, then make test-ts (or set it to build/reader-diff.vectors.json)");
    assert.ok(existsSync(path), `${path} is missing: run make reader-diff`);
    const diff = JSON.parse(readFileSync(path, "utf8"));
    assert.equal(diff.contract, pkg.CONTRACT_NAME, `${path} is written for ${diff.contract}`);
    assert.ok(diff.cases.length >= 2000, `${path} holds ${diff.cases.length} cases, fewer than 2000: run make reader-diff`);
    const classes = new Map();
    const disagree = (c, cls, ours) => {
      const key = `${c.reader}: ${cls}`;
      const list = classes.get(key) ?? [];
      list.push(`${c.name}\n      input: ${short(c.text ?? "base64:" + c.base64)}${c.reader === "http" ? ` status ${c.status} headers ${JSON.stringify(c.headers)}` : ""}\n      Go: ${c.ok ? "accepted " + short(JSON.stringify(c.value ?? null)) : "rejected (" + c.category + ")"}\n      TypeScript: ${ours}`);
      classes.set(key, list);
    };
    let accepted = 0;
    let rejected = 0;
    let disagreements = 0;
    for (const c of diff.cases) {
      const got = await read(c);
      let text;
      if (got.ok) {
        accepted++;
        try {
          text = pkg.serializeEnvelope(got.envelope);
        } catch (err) {
          disagreements++;
          disagree(c, "accepted, but serializeEnvelope fails", `accepted, serializeEnvelope: ${err}`);
          continue;
        }
        if (illFormed(JSON.parse(text))) {
          disagreements++;
          disagree(c, "accepted, but serializeEnvelope writes a lone surrogate", `accepted, serializeEnvelope: ${short(text)}`);
          continue;
        }
        const body = pkg.httpAnswer(got.envelope).body;
        if (body !== text) {
          disagreements++;
          disagree(c, "accepted, but httpAnswer sends another body", `accepted, httpAnswer body ${short(body)}`);
          continue;
        }
        try {
          pkg.toAip193(got.envelope);
        } catch (err) {
          disagreements++;
          disagree(c, "accepted, but toAip193 fails", `accepted, toAip193: ${err}`);
          continue;
        }
      } else {
        rejected++;
      }
      if (got.ok !== c.ok) {
        disagreements++;
        disagree(c, got.ok ? "Go rejects, TypeScript accepts" : "Go accepts, TypeScript rejects", got.ok ? "accepted " + short(text) : `rejected (${got.category})`);
      } else if (!got.ok && got.category !== c.category) {
        disagreements++;
        disagree(c, `rejected as ${c.category} in Go, ${got.category} here`, `rejected (${got.category})`);
      } else if (got.ok && c.value !== undefined && !same(JSON.parse(text), c.value)) {
        disagreements++;
        disagree(c, "both accept, different envelopes", "accepted, " + where(c.value, JSON.parse(text)));
      }
    }
    const report = [
      `reader differential vectors (${path}): seed ${diff.seed}, ${diff.cases.length} cases, ${accepted} accepted, ${rejected} rejected, ${disagreements} disagreements with Go`,
      "mcp: the tool result is parsed by JSON.parse, the host's parser, before fromMcpToolResult sees it; its structuredContent never holds a member given twice, which hosts read differently (Go keeps it raw), and a refusal by the host would count as category host",
      "grpc: not compared here: TypeScript has no gRPC status reader; fromRpcStatus, which reads the google.rpc.Status Go's grpcstatus.FromStatus builds, is compared through the aip193 cases",
    ];
    for (const [cls, list] of [...classes].sort()) {
      report.push(`  ${cls}: ${list.length} case(s); first:\n    ${list.slice(0, Number(process.env.ERRGEN_READER_DIFF_SHOW ?? 2)).join("\n    ")}`);
    }
    console.log(report.join("\n"));
    assert.equal(disagreements, 0, report.join("\n"));
  });
});
