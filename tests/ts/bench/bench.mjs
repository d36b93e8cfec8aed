// Micro-benchmarks of the reference TypeScript package (gen/ts), on the
// inputs the Go and Python benchmarks read (bench/testdata). Each result is
// a line in Go's benchmark format, so one tool tabulates all three:
//
//   BenchmarkTS/SanitizeClean4KiB      52000      19234 ns/op     212.96 MB/s
//
// Usage (from tests/ts): npm run bench [-- --time 1s] [-- --pkg path/to/dist/index.js]
// Without --pkg it measures the package as shipped, gen/ts/dist. Each benchmark
// warms up, then runs for about --time (default 1 s) of measured work. The
// numbers are for comparison between runs on one machine; no test asserts
// on them. test/sanitizer.test.mjs imports this module and runs every
// benchmark once (smoke), so the script keeps working.
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

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
    // The bare parse of the same text, as a JSON string: what the sanitizer is compared with.
    { name: "JSONParseClean4KiB", bytes: clean.bytes, op: () => (sink += JSON.parse(cleanJSON).length) },
    { name: "JSONParseDirty4KiB", bytes: dirty.bytes, op: () => (sink += JSON.parse(dirtyJSON).length) },
    { name: "SanitizeClean4KiB", bytes: clean.bytes, op: () => (sink += pkg.sanitizeMax(clean.text, SMALL_MAX).length) },
    { name: "SanitizeDirty4KiB", bytes: dirty.bytes, op: () => (sink += pkg.sanitizeMax(dirty.text, SMALL_MAX).length) },
    { name: "Sanitize10MiB", bytes: tenMiB.bytes, op: () => (sink += pkg.sanitize(tenMiB.text).length) },
  ];
}

/** time runs op n times and returns the elapsed nanoseconds. */
function time(op, n) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) op();
  return Number(process.hrtime.bigint() - start);
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
export function run(pkg, { smoke = false, targetNs = 1e9, print = () => {} } = {}) {
  const out = [];
  for (const b of benchmarks(pkg)) {
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
  console.log(`goos: ${process.platform}\ngoarch: ${process.arch}\npkg: ${pkg.CONTRACT_NAME} (TypeScript, node ${process.versions.node})`);
  run(pkg, { targetNs: opt("--time") !== undefined ? parseTime(opt("--time")) : 1e9, print: (l) => console.log(l) });
  if (sink === 0.5) console.log(""); // keeps sink alive
}
