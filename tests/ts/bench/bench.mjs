// Micro-benchmarks of the reference TypeScript package (gen/ts), on the
// inputs the Go and Python benchmarks read (bench/testdata). Each result is
// a line in Go's benchmark format, so one tool tabulates all three:
//
//   BenchmarkTS/SanitizeClean4KiB      52000      19234 ns/op     212.96 MB/s
//
// Usage (from tests/ts): npm run bench [-- --time 1s] [-- --pkg path/to/dist/index.js] [-- --run regexp] [-- --cpu]
// Without --pkg it measures the package as shipped, gen/ts/dist. Each benchmark
// warms up, then runs for about --time (default 1 s) of measured work;
// --run keeps the benchmarks whose names match a regular expression. The
// numbers are for comparison between runs on one machine; no test asserts
// on them. test/sanitizer.test.mjs imports this module and runs every
// benchmark once (smoke), so the script keeps working.
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";
import { z } from "zod";
import { labbySanitize } from "./labby.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../../..");
const testdata = join(repo, "bench/testdata");

/** The size of the window benchmark's input: the dirty text repeated to 10 MiB. */
const TEN_MIB = 10 << 20;

/** inputs reads the shared benchmark inputs, as UTF-8 strings, and their sizes in bytes. */
export function inputs() {
  const read = (name) => readFileSync(join(testdata, name));
  const dirty = read("sanitize-dirty-4k.txt");
  // The dirty text repeated to 10,485,760 bytes, cut back to a code point
  // boundary (a byte that is not a UTF-8 continuation byte).
  const big = Buffer.alloc(TEN_MIB);
  for (let i = 0; i < TEN_MIB; i += dirty.length) dirty.copy(big, i, 0, Math.min(dirty.length, TEN_MIB - i));
  let start = TEN_MIB - 1; // where the last code point starts
  while (start > 0 && (big[start] & 0xc0) === 0x80) start--;
  const lead = big[start];
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  const end = TEN_MIB - start < need ? start : TEN_MIB; // drop a code point cut in half
  const text = (b) => ({ text: new TextDecoder().decode(b), bytes: b.length });
  return {
    envelope: text(read("envelope.json")),
    clean: text(read("sanitize-clean-4k.txt")),
    dirty: text(dirty),
    tenMiB: text(big.subarray(0, end)),
  };
}

/** fill repeats lines, whole, up to size bytes of UTF-8. */
function fill(lines, size = 4096) {
  let out = "";
  let n = 0;
  for (let i = 0; ; i++) {
    const line = lines[i % lines.length];
    const b = Buffer.byteLength(line);
    if (n + b > size) return out;
    out += line;
    n += b;
  }
}

/**
 * NON_ASCII is about 4 KiB of ordinary error text in Chinese, Russian,
 * French, Japanese and Greek (the lines of tests/python/bench.py's
 * NON_ASCII): the sanitizer changes nothing in it.
 */
export const NON_ASCII = fill([
  "上游服务返回错误：请求超时，连接在 30 秒后被关闭。请稍后重试，或者减少并发请求的数量。\n",
  "Ошибка вышестоящего сервиса: превышено время ожидания ответа, соединение закрыто через 30 секунд.\n",
  "Le service en amont a renvoyé une erreur : délai d'attente dépassé, la connexion a été fermée après 30 secondes.\n",
  "アップストリームのサービスがエラーを返しました。しばらくしてから再試行してください。\n",
  "Η υπηρεσία απέτυχε: λήξη χρονικού ορίου, δοκιμάστε ξανά αργότερα.\n",
]);

/**
 * URLS is about 4 KiB of error text full of URLs, with a password in one
 * URL's userinfo and a token in one query (the lines of
 * tests/python/bench.py's URLS).
 */
export const URLS = fill([
  "GET https://api.github.com/repos/errgen/errgen/issues?state=open&per_page=100&page=3 returned 502 Bad Gateway\n",
  "upstream https://storage.example.com/v1/buckets/logs/objects/2026/12/01/app.log?alt=media failed: connection reset\n",
  "redirect to https://login.example.org/oauth/authorize?client_id=abc123&redirect_uri=https%3A%2F%2Fapp.example.com%2Fcb&state=xyz\n",
  "retrying postgres://app:s3cr3t-pass@db.internal.example.net:5432/orders after timeout (attempt 2 of 5)\n",
  "fetch http://10.0.0.12:8080/healthz?verbose=1 -> 503 Service Unavailable; see https://status.example.com/incidents/1234\n",
  "webhook https://hooks.example.com/services/T000/B000/callback?token=abcdef0123456789abcdef&sig=deadbeef rejected\n",
]);

/**
 * CRAFTED are the inputs of the SanitizeCrafted rows: each a short piece
 * repeated to CRAFTED_SIZE bytes and sanitized with a maximum of its own
 * length, so the whole of it is read and nothing is truncated. The first
 * are the Go benchmark's worst cases (tests/go/agenterror/
 * sanitize_shapes_bench_test.go: three of them were quadratic in Go and in
 * this port), the rest the slowest pieces bench/search.mjs found for this
 * sanitizer (every trigger character and word, alone, followed by a letter
 * or a space, and in pairs, then mutated): a key a sensitive key could end
 * like, markers between assignments, a secret prefix without its token, a
 * run of the endings ten markers share, a run of dashes.
 */
export const CRAFTED = {
  "homes-in-one-path": "/home/.",
  "homes-in-one-path-macos": "/Users/.",
  "bearer-without-space": "=Bearer",
  "key-file-extension": ".pem",
  "credential-name-assign": ".sshc=",
  colon: ":",
  "dash-colon": "-:",
  "assign-colon": "a:",
  "assign-equals": "a=",
  "replacement-key": "\ufffd_key=",
  "jwt-start": "eyJ ",
  "pem-begin": "-----BEGIN ",
  "marker-start": "<|",
  // Found by bench/search.mjs for this sanitizer.
  "key-assign": "key=",
  "code-assign-markers": "ode=###",
  "assign-markers": "a:###",
  "prefix-without-token": "=ghp_",
  "marker-ends": "|>|>",
  "dashes": "--",
};

/** CRAFTED_SIZE is the size of a crafted input in bytes of UTF-8. */
const CRAFTED_SIZE = 16 << 10;

/** crafted repeats piece to CRAFTED_SIZE bytes of UTF-8, whole code points only. */
export function crafted(piece) {
  const b = Buffer.from(piece.repeat(Math.ceil(CRAFTED_SIZE / Buffer.byteLength(piece)) + 1)).subarray(0, CRAFTED_SIZE);
  let end = b.length;
  while (end > 0 && (b[end - 1] & 0xc0) === 0x80) end--;
  if (end > 0 && b[end - 1] >= 0xc0) end--; // a lead byte whose continuation bytes were cut off
  return b.subarray(0, end).toString();
}

let sink = 0;

/**
 * SMALL_MAX is the maximum of the 4 KiB benchmarks, as in Go's: the inputs
 * fit in it, so the clean text comes back unchanged instead of truncated
 * (which would time the copy).
 */
const SMALL_MAX = 4096;

/** benchmarks lists the benchmarks of pkg: a name, the bytes one operation reads (0: no MB/s) and the operation. */
export function benchmarks(pkg, data = inputs()) {
  const { envelope, clean, dirty, tenMiB } = data;
  const parsed = pkg.parseEnvelopeJson(envelope.text);
  if (!parsed.ok) {
    throw new Error(`bench/testdata/envelope.json does not parse with ${pkg.CONTRACT_NAME}: ${parsed.error.path}: ${parsed.error.problem}`);
  }
  if (pkg.sanitizeMax(clean.text, SMALL_MAX) !== clean.text) {
    throw new Error("bench/testdata/sanitize-clean-4k.txt is not clean");
  }
  const cleanJSON = JSON.stringify(clean.text);
  const dirtyJSON = JSON.stringify(dirty.text);
  return [
    { name: "JSONParse", bytes: envelope.bytes, op: () => (sink += JSON.parse(envelope.text).kind.length) },
    {
      name: "ParseLookup",
      bytes: envelope.bytes,
      op: () => {
        const r = pkg.parseEnvelopeJson(envelope.text);
        sink += r.ok ? pkg.lookup(r.envelope.kind).httpStatus : -1;
      },
    },
    ...alternatives(pkg, envelope),
    // The bare parse of the same text, as a JSON string: what the sanitizer is compared with.
    { name: "JSONParseClean4KiB", bytes: clean.bytes, op: () => (sink += JSON.parse(cleanJSON).length) },
    { name: "JSONParseDirty4KiB", bytes: dirty.bytes, op: () => (sink += JSON.parse(dirtyJSON).length) },
    { name: "SanitizeClean4KiB", bytes: clean.bytes, op: () => (sink += pkg.sanitizeMax(clean.text, SMALL_MAX).length) },
    { name: "SanitizeDirty4KiB", bytes: dirty.bytes, op: () => (sink += pkg.sanitizeMax(dirty.text, SMALL_MAX).length) },
    { name: "Sanitize10MiB", bytes: tenMiB.bytes, op: () => (sink += pkg.sanitize(tenMiB.text).length) },
    ...sanitizerBenchmarks(pkg, data),
  ];
}

/**
 * zodEnvelope is a zod schema of the reference contract's envelope, as a
 * TypeScript team would write it by hand: the members of the consumer
 * schema (schemas/agent-error.consumer.schema.json), members it does not
 * name allowed, the enums as non-empty strings (a consumer must accept
 * values a newer contract adds), the retry hint a non-negative safe
 * integer.
 */
export function zodEnvelope() {
  const text = z.string();
  const word = z.string().min(1);
  const hint = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
  return z.looseObject({
    contract_version: z.literal(1),
    kind: word,
    message: word,
    origin: word,
    recovery: z.looseObject({ action: word, same_arguments: word, guidance: word, retry_after_ms: hint.optional(), retryAfterMs: hint.optional() }),
    side_effects: word,
    service: text.optional(),
    action: text.optional(),
    tool: text.optional(),
    upstream: text.optional(),
    command: text.optional(),
    prompt: text.optional(),
    resource: text.optional(),
    cause: text.optional(),
    original_kind: text.optional(),
    safety: z.record(z.string(), z.unknown()).optional(),
    evidence: z.record(z.string(), z.unknown()).optional(),
    valid_choices: z.array(text).optional(),
    hint: text.optional(),
    required_scopes: z.array(text).optional(),
  });
}

/**
 * alternatives are what a TypeScript team would otherwise parse the
 * envelope with, each followed by the same lookup of its kind: zod (a
 * hand-written schema of the envelope, zodEnvelope) and ajv validating
 * JSON.parse's result against the generated consumer schema (schemas/,
 * draft 2020-12). Before timing, each must accept envelope.json and reject
 * what the package rejects for lacking a required member or for a
 * negative retry hint, so the three check the same things.
 */
function alternatives(pkg, envelope) {
  const zodSchema = zodEnvelope();
  const schema = JSON.parse(readFileSync(join(repo, "schemas", `${pkg.CONTRACT_NAME}.consumer.schema.json`), "utf8"));
  const validate = new Ajv2020({ strict: false }).compile(schema);
  const broken = [
    envelope.text.replace('"kind":"rate_limited",', ""),
    envelope.text.replace('"retry_after_ms":1500', '"retry_after_ms":-1'),
  ];
  for (const [name, accepts] of [
    ["parseEnvelopeJson", (t) => pkg.parseEnvelopeJson(t).ok],
    ["zod", (t) => zodSchema.safeParse(JSON.parse(t)).success],
    ["ajv", (t) => validate(JSON.parse(t))],
  ]) {
    if (!accepts(envelope.text)) throw new Error(`bench.mjs: ${name} rejects bench/testdata/envelope.json`);
    for (const b of broken) {
      if (b === envelope.text || accepts(b)) throw new Error(`bench.mjs: ${name} accepts a broken envelope: ${b}`);
    }
  }
  return [
    {
      name: "ParseLookupZod",
      bytes: envelope.bytes,
      op: () => {
        const r = zodSchema.safeParse(JSON.parse(envelope.text));
        sink += r.success ? pkg.lookup(r.data.kind).httpStatus : -1;
      },
    },
    {
      name: "ParseLookupAjv",
      bytes: envelope.bytes,
      op: () => {
        const v = JSON.parse(envelope.text);
        sink += validate(v) ? pkg.lookup(v.kind).httpStatus : -1;
      },
    },
  ];
}

/**
 * sanitizerBenchmarks are issue 21's: the sanitizer beside labby's as a
 * regular expression chain (labby.mjs) on four kinds of text, at the same
 * maximum, and the crafted inputs.
 */
function sanitizerBenchmarks(pkg, { clean, dirty }) {
  if (pkg.sanitizeMax(NON_ASCII, SMALL_MAX) !== NON_ASCII) {
    throw new Error("bench.mjs: NON_ASCII is not clean");
  }
  if (pkg.sanitizeMax(URLS, SMALL_MAX) === URLS) {
    throw new Error("bench.mjs: URLS holds nothing to redact");
  }
  // The port does the work it is timed on: it keeps clean text and
  // changes the dirty text and the URLs (a password in one of them).
  if (labbySanitize(clean.text, SMALL_MAX) !== clean.text || labbySanitize(NON_ASCII, SMALL_MAX) !== NON_ASCII) {
    throw new Error("bench.mjs: labbySanitize changes clean text");
  }
  if (labbySanitize(dirty.text, SMALL_MAX) === dirty.text || !labbySanitize(URLS, SMALL_MAX).includes("postgres://[REDACTED]@")) {
    throw new Error("bench.mjs: labbySanitize leaves the dirty text or the URLs' password as they are");
  }
  const out = [];
  const texts = [
    ["Clean4KiB", clean.text],
    ["Dirty4KiB", dirty.text],
    ["NonASCII4KiB", NON_ASCII],
    ["URLs4KiB", URLS],
  ];
  for (const [name, text] of texts) {
    const bytes = Buffer.byteLength(text);
    if (name === "NonASCII4KiB" || name === "URLs4KiB") {
      out.push({ name: "Sanitize" + name, bytes, op: () => (sink += pkg.sanitizeMax(text, SMALL_MAX).length) });
    }
    out.push({ name: "Labby" + name, bytes, op: () => (sink += labbySanitize(text, SMALL_MAX).length) });
  }
  for (const [name, piece] of Object.entries(CRAFTED)) {
    const text = crafted(piece);
    const bytes = Buffer.byteLength(text);
    const max = text.length;
    out.push({ name: "SanitizeCrafted/" + name, bytes, op: () => (sink += pkg.sanitizeMax(text, max).length) });
  }
  return out;
}

/**
 * clock returns the time in nanoseconds: wall time, as Go's benchmarks
 * measure, or with --cpu the process's CPU time (microseconds, user and
 * system), which a machine busy with other work disturbs less.
 */
let clock = () => Number(process.hrtime.bigint());

/** cpuClock is clock under --cpu. */
function cpuClock() {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1e3;
}

/** time runs op n times and returns the elapsed nanoseconds. */
function time(op, n) {
  const start = clock();
  for (let i = 0; i < n; i++) op();
  return clock() - start;
}

/**
 * measure runs op for about targetNs, the way Go's testing package does:
 * grow the iteration count from a prediction until one run lasts long
 * enough. A warm-up of about a tenth of the target goes first, so the JIT
 * has compiled op before anything is counted.
 */
export function measure(op, targetNs = 1e9) {
  let n = 1;
  for (let warm = 0; warm < targetNs / 10; ) {
    const t = time(op, n);
    warm += t;
    if (t < targetNs / 100) n *= 2;
  }
  n = 1;
  for (;;) {
    const t = time(op, n);
    if (t >= targetNs || n >= 1e9) return { n, ns: t };
    const predicted = t > 0 ? Math.ceil((n * targetNs * 1.2) / t) : n * 100;
    n = Math.max(n + 1, Math.min(predicted, n * 100, 1e9));
  }
}

/** pretty formats ns/op as Go does: fewer decimals for larger numbers. */
function pretty(x) {
  if (x >= 99.995) return x.toFixed(0);
  if (x >= 9.9995) return x.toFixed(1);
  if (x >= 0.99995) return x.toFixed(2);
  return x.toFixed(3);
}

/** line formats one result in Go's benchmark format. */
export function line(name, n, ns, bytes) {
  const perOp = ns / n;
  let s = `${("BenchmarkTS/" + name).padEnd(32)} ${String(n).padStart(10)}\t${pretty(perOp).padStart(10)} ns/op`;
  if (bytes > 0) s += `\t${((bytes * n * 1e3) / ns).toFixed(2).padStart(8)} MB/s`;
  return s;
}

/**
 * run runs every benchmark of pkg and returns its lines. smoke runs each
 * operation once without timing anything, to check that the script works.
 */
export function run(pkg, { smoke = false, targetNs = 1e9, filter = /(?:)/, print = () => {} } = {}) {
  const out = [];
  for (const b of benchmarks(pkg)) {
    if (!filter.test(b.name)) continue;
    if (smoke) {
      b.op();
      out.push(b.name);
      continue;
    }
    const { n, ns } = measure(b.op, targetNs);
    const l = line(b.name, n, ns, b.bytes);
    print(l);
    out.push(l);
  }
  return out;
}

/** parseTime reads a duration such as 1s, 500ms or 2.5s as nanoseconds. */
function parseTime(v) {
  const m = /^(\d+(?:\.\d+)?)(ms|s)$/.exec(v ?? "");
  if (m === null) throw new Error(`--time wants a duration such as 1s or 500ms, found ${v}`);
  return Number(m[1]) * (m[2] === "s" ? 1e9 : 1e6);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const opt = (name) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const pkgPath = opt("--pkg") !== undefined ? resolve(opt("--pkg")) : join(repo, "gen/ts/dist/index.js");
  const pkg = await import(pathToFileURL(pkgPath).href);
  if (args.includes("--cpu")) clock = cpuClock;
  console.log(`goos: ${process.platform}\ngoarch: ${process.arch}\npkg: ${pkg.CONTRACT_NAME} (TypeScript, node ${process.versions.node})`);
  run(pkg, {
    targetNs: opt("--time") !== undefined ? parseTime(opt("--time")) : 1e9,
    filter: new RegExp(opt("--run") ?? ""),
    print: (l) => console.log(l),
  });
  if (sink === 0.5) console.log(""); // keeps sink alive
}
