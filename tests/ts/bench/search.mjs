// The worst-case search for the TypeScript sanitizer: which short pieces,
// repeated to 16 KiB, cost it the most per byte. bench.mjs's CRAFTED lists
// what it found; this script only prints (no test runs it, and no test
// asserts a time).
//
//   node bench/search.mjs [--rounds 2000] [--pkg path/to/dist/index.js] [--top 30]
//
// The same search as the Go package's TestSanitizeWorstCaseSearch
// (tests/go/agenterror/sanitize_shapes_bench_test.go), with the same
// pieces: every trigger character and word of the steps (assignments,
// URLs, secret prefixes, PEM and JWT starts, markers, paths, escapes,
// non-ASCII and deleted characters) repeated alone, followed by a letter or
// a space, and every pair of them repeated; then it mutates the slowest
// patterns at random (insert, replace or delete a piece), keeping what is
// slower still. Each pattern is timed in CPU time, the fastest of three
// runs, so other work on the machine disturbs it less, after a warm-up on
// all of them (the JIT compiles the sanitizer first); the slowest are
// timed again at the end.
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { crafted } from "./bench.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../../..");

/** UNITS are the pieces patterns are made of (Go's searchUnits; its ill-formed byte is U+FFFD here, what decoding makes of it). */
export const UNITS = ["a:", "a=", ":", "=", "a", " ", "sk-", "sk_live_", "-----BEGIN ", "-", "eyJ", "eyJa.", "~/", "<|", "<", ">", "|>",
  "/", "\\", "//", "%2F", "%", "bearer ", "Bearer", "://", "/home/", "/Users/", "C:\\Users\\", ":\\", ".ssh", "id_", "id_rsa", ".pem", ".",
  "###", "#", "<<", "[INST]", "[", "password=", "token: ", '"key": "', '"', "'", "ghp_", "AKIA", "@", "?", "&", "é", "日", "—", "\u200b",
  "\ufffd", "_key=", "x_key", "authorization: ", "code=", "?sig=", "e", "y", "J", "_", "\ud83d\ude80"];

function cpu() {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1e3;
}

/** cost returns the nanoseconds per byte of sanitizing pattern repeated to 16 KiB with a maximum of its length: the fastest of three runs. */
export function cost(pkg, pattern) {
  const s = crafted(pattern);
  const bytes = Buffer.byteLength(s);
  let best = Infinity;
  for (let r = 0; r < 3; r++) {
    const start = cpu();
    let n = 0;
    do {
      pkg.sanitizeMax(s, s.length);
      n++;
    } while (cpu() - start < 2e6 && n < 1000);
    best = Math.min(best, (cpu() - start) / n);
  }
  return best / bytes;
}

/** mulberry32 is a small seeded generator, so a search can be repeated. */
function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const opt = (name, def) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : def;
  };
  const pkg = await import(pathToFileURL(resolve(opt("--pkg", join(repo, "gen/ts/dist/index.js")))).href);
  const rounds = Number(opt("--rounds", "2000"));
  const top = Number(opt("--top", "30"));
  // Warm up first, on every pattern the search starts from: measured
  // cold, the first patterns would be timed in the interpreter.
  for (let round = 0; round < 3; round++) {
    for (const u of UNITS) {
      for (const v of UNITS) {
        const t = crafted(u + v).slice(0, 1024);
        pkg.sanitizeMax(t, t.length);
      }
    }
  }
  const seen = new Map();
  const tryPattern = (p) => {
    if (p !== "" && !seen.has(p)) seen.set(p, cost(pkg, p));
  };
  for (const u of UNITS) {
    tryPattern(u);
    tryPattern(u + "a");
    tryPattern(u + " ");
    for (const v of UNITS) tryPattern(u + v);
  }
  const ranked = () => [...seen].sort((a, b) => b[1] - a[1]);
  const rand = mulberry32(21);
  const pick = (n) => Math.floor(rand() * n);
  let best = ranked();
  for (let round = 0; round < rounds; round++) {
    let p = best[pick(Math.min(best.length, 20))][0];
    const u = UNITS[pick(UNITS.length)];
    const k = pick(p.length + 1);
    switch (pick(3)) {
      case 0:
        p = p.slice(0, k) + u + p.slice(k);
        break;
      case 1:
        p = p.slice(0, k) + u + p.slice(Math.min(p.length, k + u.length));
        break;
      default:
        p = p.slice(0, k) + p.slice(Math.min(p.length, k + 1 + pick(3)));
    }
    tryPattern(p);
    if (round % 100 === 99) best = ranked();
  }
  // The slowest, timed again, so that a pattern timed while the machine
  // was busy does not stay on top.
  const again = ranked()
    .slice(0, 3 * top)
    .map(([p]) => [p, Math.min(cost(pkg, p), cost(pkg, p))])
    .sort((a, b) => b[1] - a[1]);
  for (const [p, ns] of again.slice(0, top)) {
    console.log(`${(1e3 / ns).toFixed(1).padStart(8)} MB/s  ${JSON.stringify(p)}`);
  }
}
