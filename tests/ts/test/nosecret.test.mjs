// The "no secret through any path" property of issue 28, for TypeScript.
//
// A token of every secret shape the default policy knows
// (tests/testdata/nosecret.json), padded every way the data file lists, put
// in every carrier a receiver may pass on (newEnvelope, withFields of the
// fields the contract lists in sanitize.fields, the envelope every reader
// decodes, with the text in any field or extra member) and observed through every output
// (String, util.inspect as console.log prints it, JSON.stringify, an Error
// made from the envelope's message, an Error whose cause it is, logFields,
// and every surface writer; errorString and toError where the package has
// them) never shows more than the data file's max_run consecutive
// characters of its body. Trusted text ({ trusted: true }, assigning a
// member or extra, withFields of a field the contract does not list) is
// the producer's own choice and out of scope: it is used here
// only to play the upstream that writes a wire form, which a reader then
// decodes.
//
// ERRGEN_NOSECRET_SEED and ERRGEN_NOSECRET_CASES override the seed and the
// count (make fuzz); other contracts than the reference one run a tenth of
// the cases.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { inspect } from "node:util";
import { contextArgs, contextParams, newEnv, pkg } from "./env.mjs";

const data = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), "../../testdata/nosecret.json"), "utf8"));
const maxRun = data.bound.maxRun ?? data.bound.max_run;
const cps = (s) => [...s].length;

/** mulberry32: a small seeded generator, enough for drawing test data. */
function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  return { int, pick: (list) => list[int(list.length)] };
}

class Gen {
  constructor(seed) {
    this.r = rng(seed);
    this.maxLen = pkg.SANITIZE_MAX_LENGTH;
    this.window = 4 * this.maxLen;
    this.cut = this.maxLen - cps(pkg.SANITIZE_TRUNCATION_MARKER);
    this.shapes = data.shapes.filter((s) => pkg.SANITIZE_PATHS || (s.name !== "home_dir" && s.name !== "credential_path"));
    this.paddings = Object.keys(data.paddings).sort();
  }
  runOf(cls, n) {
    const chars = data.classes[cls];
    let s = "";
    for (let i = 0; i < n; i++) s += chars[this.r.int(chars.length)];
    return s;
  }
  token() {
    const s = this.r.pick(this.shapes);
    const n = s.min + this.r.int(s.max - s.min + 1);
    let body;
    if (s.class === "jwt") {
      body = this.runOf("base64url", n) + "." + this.runOf("base64url", 4 + this.r.int(s.max - 3));
      if (this.r.int(2) === 0) body += "." + this.runOf("base64url", 4 + this.r.int(s.max - 3));
    } else if (s.class === "userinfo") {
      body = this.runOf("alnum", 4) + ":" + this.runOf("alnum", n - 5);
    } else {
      body = this.runOf(s.class, n);
    }
    return token(s.name, s.lead + this.r.pick(s.prefixes) + body + s.tail, body);
  }
  words(n) {
    if (n <= 0) return "";
    const out = [];
    let next = 3 + this.r.int(6);
    for (let i = 0; i < n; i++) {
      if (i === next) {
        out.push(" ");
        next = i + 3 + this.r.int(6);
      } else out.push(String.fromCharCode(97 + this.r.int(26)));
    }
    out[n - 1] = " ";
    return out.join("");
  }
  dels(n) {
    const out = [];
    for (let i = 0; i < n; i++) {
      const [lo, hi] = this.r.pick(data.deletable);
      out.push(String.fromCodePoint(lo + this.r.int(hi - lo + 1)));
    }
    return out.join("");
  }
  inside(s) {
    const out = [];
    let i = 0;
    for (const c of s) {
      if (i++ > 0 && this.r.int(3) === 0) out.push(this.dels(1 + this.r.int(3)));
      out.push(c);
    }
    return out.join("");
  }
  shrink(n) {
    const out = [];
    while (n > 0) {
      const s = this.r.pick(data.shrinkers);
      let m = n;
      if (n > 400 && this.r.int(2) === 0) m = 200 + this.r.int(n - 200);
      const fill = m - cps(s.open) - cps(s.close);
      if (fill < 12) {
        out.push(" ".repeat(m));
        break;
      }
      out.push(s.open + s.fill.repeat(fill) + s.close);
      n -= m;
    }
    return out.join("");
  }
  text(padding) {
    const t = this.token();
    const after = " " + this.words(1 + this.r.int(12));
    const r = this.r;
    const edge = () => r.int(cps(t.text) + 2);
    switch (padding) {
      case "none":
        return [this.words(r.int(40)) + t.text + after, [t]];
      case "deletable_before":
        return [this.dels(r.int(9001)) + this.words(r.int(20)) + t.text + after, [t]];
      case "deletable_inside":
        return [this.words(r.int(40)) + this.inside(t.text) + after, [t]];
      case "window_deletable": {
        const w = this.words(r.int(30));
        return [this.dels(this.window - edge() - w.length) + w + t.text + after, [t]];
      }
      case "window_shrink": {
        const w = this.words(r.int(30));
        return [this.shrink(this.window - edge() - w.length) + w + t.text + after, [t]];
      }
      case "truncation_edge":
        return [this.words(this.cut - edge()) + t.text + after, [t]];
      case "shrink_truncation": {
        const s = this.shrink(100 + r.int(5000));
        return [s + this.words(this.cut - edge() - r.int(40)) + t.text + after, [t]];
      }
      default: {
        let text = "";
        const toks = [];
        for (let i = 2 + r.int(4); i > 0; i--) {
          const [s, ts] = this.text(r.pick(["none", "deletable_before", "deletable_inside"]));
          text += s;
          toks.push(...ts);
        }
        return [text, toks];
      }
    }
  }
}

function token(shape, text, body) {
  const grams = new Map();
  const n = maxRun + 1;
  for (let i = 0; i + n <= body.length; i++) if (!grams.has(body.slice(i, i + n))) grams.set(body.slice(i, i + n), i);
  return { shape, text, body, grams };
}

// Runs of characters any body may hold, at least maxRun + 1 long: only these
// parts of an output are looked up.
const bodyChars = [...new Set(Object.values(data.classes).join("") + ":.")].map((c) => c.replace(/[\\\]^-]/g, "\\$&")).join("");
const candidate = new RegExp(`[${bodyChars}]{${maxRun + 1},}`, "g");

/** runIn is the longest run of consecutive body characters out shows, and where, when longer than maxRun; [0, 0] otherwise. */
function runIn(out, tok) {
  const n = maxRun + 1;
  let best = 0;
  let at = 0;
  for (const m of out.matchAll(candidate)) {
    for (let i = m.index; i + n <= m.index + m[0].length; i++) {
      const bi = tok.grams.get(out.slice(i, i + n));
      if (bi === undefined) continue;
      let k = n;
      while (i + k < out.length && bi + k < tok.body.length && out[i + k] === tok.body[bi + k]) k++;
      if (k > best) [best, at] = [k, i];
    }
  }
  return [best, at];
}

/** outputs renders e through every output; a writer that throws shows nothing. */
function outputs(e) {
  const out = [];
  const add = (name, f) => {
    let v;
    try {
      v = f();
    } catch {
      return;
    }
    out.push([name, typeof v === "string" ? v : JSON.stringify(v)]);
  };
  add("String", () => String(e));
  add("inspect", () => inspect(e, { depth: 8, maxStringLength: Infinity }));
  add("JSON.stringify", () => JSON.stringify(e));
  add("Error(message)", () => {
    const err = new Error(e.message);
    return `${err.message} ${String(err)} ${err.stack}`;
  });
  add("Error(cause)", () => inspect(new Error("tool call failed", { cause: e }), { depth: 8 }));
  if (typeof pkg.errorString === "function") add("errorString", () => pkg.errorString(e));
  if (typeof pkg.toError === "function") {
    add("toError", () => {
      const err = pkg.toError(e);
      return `${err.message} ${String(err)} ${err.stack} ${inspect(err)}`;
    });
  }
  add("logFields", () => pkg.logFields(e));
  add("serializeEnvelope", () => pkg.serializeEnvelope(e));
  for (const [name, accept] of [["http", undefined], ["http(problem)", "application/problem+json"]]) {
    add(`${name}.body`, () => pkg.httpAnswer(e, accept).body);
    add(`${name}.headers`, () => pkg.httpAnswer(e, accept).headers);
  }
  add("problem", () => pkg.serializeProblem(e, "/x"));
  add("mcp", () => pkg.toMcpToolResult(e));
  add("aip193", () => pkg.toAip193(e));
  add("grpc", () => pkg.rpcStatusJson(pkg.rpcStatus(e)));
  add("cli", () => pkg.cliLine(e, "deploy"));
  return out;
}

const kinds = ["upstream_error", "auth_failed", "not_found", "timeout"].filter((k) => pkg.KNOWN_KINDS.includes(k));
if (kinds.length === 0) kinds.push(...pkg.KNOWN_KINDS.slice(0, 4));
const member = (wire) => Object.values(pkg.FIELDS).find((f) => f.name === wire)?.member;
// The sanitized string fields other than message; one string context field
// the contract does not list (read back by every reader: what a reader
// receives is the sender's, listed or not); one object field the contract
// lists (withFields of one it does not list takes the producer's own text).
const sanitized = pkg.SANITIZED_FIELDS.filter((f) => f !== "message" && member(f) && pkg.FIELDS[member(f)].type === "string").map(member);
const plain = Object.values(pkg.FIELDS).find((f) => f.type === "string" && !pkg.SANITIZED_FIELDS.includes(f.name) && !contextParams.includes(f.member))?.member;
const obj = Object.values(pkg.FIELDS).find((f) => f.type === "object" && pkg.SANITIZED_FIELDS.includes(f.name) && !contextParams.includes(f.member))?.member;
const nested = (s) => ({ list: ["a", { text: s }] });
const base = () => newEnv(kinds[0], "upstream failed");

function response(status, body, contentType) {
  return new Response(body, { status, headers: { "content-type": contentType } });
}

function carriers() {
  const cs = [
    ["newEnvelope", (r, s) => newEnv(r.pick(kinds), s)],
  ];
  if (pkg.SANITIZED_FIELDS.includes("guidance")) cs.push(["withFields(guidance)", (r, s) => pkg.withFields(base(), { guidance: s })]);
  for (const f of sanitized) cs.push([`withFields(${f})`, (r, s) => pkg.withFields(base(), { [f]: s })]);
  if (obj) cs.push([`withFields(${obj})`, (r, s) => pkg.withFields(base(), { [obj]: { body: s } })]);

  // The kind and the enumerated values are the sender's too (a reader sanitizes them as any text).
  const enums = ["kind", "origin", "action", "sameArguments", "sideEffects"];
  const fields = ["message", "guidance", "extra", "extra(nested)", ...enums, ...sanitized, ...(plain ? [plain] : [])];
  const upstream = (field, s) => {
    const e = pkg.newEnvelope(kinds[0], "upstream failed", ...contextArgs, { trusted: true });
    switch (field) {
      case "message":
        return { ...e, message: s };
      case "guidance":
        return { ...e, recovery: { ...e.recovery, guidance: s } };
      case "action":
      case "sameArguments":
        return { ...e, recovery: { ...e.recovery, [field]: s } };
      case "extra":
        return { ...e, extra: { x_note: s } };
      case "extra(nested)":
        return { ...e, extra: { x_obj: nested(s) } };
      default:
        return { ...e, [field]: s };
    }
  };
  const ok = (r) => (r.ok ? r.envelope : null);
  const http = (accept) => async (e) => {
    const a = pkg.httpAnswer(e, accept);
    const ct = a.headers.find(([k]) => k.toLowerCase() === "content-type")?.[1] ?? "application/json";
    return ok(await pkg.fromHttpResponse(response(a.status, a.body, ct)));
  };
  const readers = [
    ["parseEnvelopeJson", (e) => ok(pkg.parseEnvelopeJson(pkg.serializeEnvelope(e)))],
    ["parseEnvelope", (e) => ok(pkg.parseEnvelope(JSON.parse(pkg.serializeEnvelope(e))))],
    ["http", http(undefined)],
    ["http(problem)", http("application/problem+json")],
    ["parseProblemJson", (e) => ok(pkg.parseProblemJson(pkg.serializeProblem(e)))],
    ["aip193", (e) => ok(pkg.fromAip193(pkg.toAip193(e)))],
    ["grpc", (e) => pkg.fromRpcStatus(pkg.rpcStatus(e))],
    ["cli", (e) => ok(pkg.readCli(pkg.cliLine(e, "deploy")))],
    ["mcp", (e) => ok(pkg.fromMcpToolResult(pkg.toMcpToolResult(e)))],
  ];
  for (const [name, read] of readers) {
    for (const f of fields) cs.push([`read.${name}.${f}`, (r, s) => read(upstream(f, s))]);
  }
  const shortKind = kinds[1] ?? kinds[0];
  cs.push(["read.http(short).message", async (r, s) => ok(await pkg.fromHttpResponse(response(401, JSON.stringify({ kind: shortKind, message: s }), "application/json")))]);
  cs.push(["read.http(text).message", async (r, s) => ok(await pkg.fromHttpResponse(response(502, s, "text/plain")))]);
  return cs;
}

test(`${pkg.CONTRACT_NAME}: no secret through any path`, async (t) => {
  const seed = Number(process.env.ERRGEN_NOSECRET_SEED || 20261207);
  let cases = Number(process.env.ERRGEN_NOSECRET_CASES || data.cases.ts);
  if (pkg.CONTRACT_NAME !== "agent-error") cases = Math.max(1, Math.floor(cases / 10));
  const g = new Gen(seed);
  const cs = carriers();
  const leaks = new Map();
  let observations = 0;
  let unread = 0;
  let leaking = 0;
  for (let i = 0; i < cases; i++) {
    const [name, make] = cs[i % cs.length];
    const padding = g.r.pick(g.paddings);
    const [text, toks] = g.text(padding);
    let e;
    try {
      e = await make(g.r, text);
    } catch {
      e = null;
    }
    if (!e) {
      unread++;
      continue;
    }
    for (const [output, o] of outputs(e)) {
      observations++;
      for (const tk of toks) {
        const [n, at] = runIn(o, tk);
        if (n === 0) continue;
        leaking++;
        const key = `${name} | ${output}`;
        if (!leaks.has(key)) leaks.set(key, { count: 0, shapes: new Set(), paddings: new Set(), run: 0, example: "" });
        const l = leaks.get(key);
        l.count++;
        l.shapes.add(tk.shape);
        l.paddings.add(padding);
        if (n > l.run) {
          l.run = n;
          l.example = `case ${i}: ${n} of ${tk.body.length} body characters of ${tk.shape} in ${output}: ${JSON.stringify(o.slice(Math.max(0, at - 24), at + n + 16))}`;
        }
        break;
      }
    }
  }
  t.diagnostic(`nosecret (ts ${pkg.CONTRACT_NAME}): seed ${seed}, cases ${cases}, carriers ${cs.length}, observations ${observations}, unread ${unread}, leaks ${leaking}`);
  if (leaks.size === 0) return;
  const groups = new Map();
  for (const [key, l] of leaks) {
    const [carrier, output] = key.split(" | ");
    const sig = `shapes ${[...l.shapes].sort().join(",")}; paddings ${[...l.paddings].sort().join(",")}`;
    const gk = `${carrier}\u0000${sig}`;
    if (!groups.has(gk)) groups.set(gk, { carrier, sig, outputs: [], count: 0, run: 0, example: "" });
    const gr = groups.get(gk);
    gr.outputs.push(output);
    gr.count += l.count;
    if (l.run > gr.run) [gr.run, gr.example] = [l.run, l.example];
  }
  const lines = [...groups.keys()].sort().map((k) => {
    const gr = groups.get(k);
    return `  ${gr.carrier} -> ${gr.outputs.sort().join(",")}: ${gr.count} (${gr.sig})\n      e.g. ${gr.example}`;
  });
  assert.fail(`${leaks.size} leak classes (carrier | output) in ${groups.size} lines (carrier -> outputs: leaks (shapes; paddings)); seed ${seed}:\n${lines.join("\n")}`);
});
