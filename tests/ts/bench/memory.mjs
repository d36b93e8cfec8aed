// The TypeScript rows of the decoders' memory benchmark (issue 28, make
// bench-memory): parseEnvelopeJson on the hostile documents that
// tests/go/cmd/hostiledocs writes, read as bytes, with no size limit. Each
// shape runs in a process of its own (node --expose-gc), so that the peak
// resident size the kernel reports (maxRSS) is that decode's; the heap the
// decoded envelope keeps is read after a collection. Each result is a line
// in Go's benchmark format:
//
//   BenchmarkTSDecodeHostile/shape=members   1   2.1e9 ns/op   23.1 peak-x   9.8 kept-x
//
// peak-x: the peak resident size less the resident size before the decode,
// over the input's size; kept-x: the heap and external memory the envelope
// keeps alive. impl=json_parse is the baseline: a bare JSON.parse of the
// same bytes. No check asserts on a number.
//
// Usage (from tests/ts): node bench/memory.mjs DIR [--pkg path/to/dist/index.js]
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../../..");
const SHAPES = ["members", "nested_arrays", "nested_objects", "strings", "numbers"];

const args = process.argv.slice(2);
const pkgAt = args.indexOf("--pkg");
const pkg = pkgAt >= 0 ? resolve(args[pkgAt + 1]) : join(repo, "gen/ts/dist/index.js");
const dir = args.find((a, i) => !a.startsWith("--") && (pkgAt < 0 || i !== pkgAt + 1));
const one = process.env.ERRGEN_HOSTILE_ONE;
const impl = process.env.ERRGEN_HOSTILE_IMPL ?? "errgen";

if (!dir) {
  console.error("usage: node bench/memory.mjs DIR [--pkg dist/index.js]");
  process.exit(2);
}

if (one) {
  const { parseEnvelopeJson } = await import(pathToFileURL(pkg).href);
  const data = new Uint8Array(readFileSync(join(dir, one + ".json")));
  const used = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.external + m.arrayBuffers;
  };
  globalThis.gc();
  const rss = process.memoryUsage().rss;
  const heap = used();
  const start = process.hrtime.bigint();
  const r = impl === "errgen" ? parseEnvelopeJson(data, { maxBytes: Infinity }) : { ok: true, envelope: JSON.parse(new TextDecoder().decode(data)) };
  const took = process.hrtime.bigint() - start;
  const peak = process.resourceUsage().maxRSS * 1024;
  if (!r.ok || r.envelope.tool !== "t") {
    console.error(`${one}: decoded ${JSON.stringify(r.ok ? r.envelope.tool : r.error)}`);
    process.exit(1);
  }
  globalThis.gc();
  const kept = used() - heap;
  console.log(
    `BenchmarkTSDecodeHostile/shape=${one}/impl=${impl}\t1\t${took} ns/op\t${((peak - rss) / data.length).toFixed(3)} peak-x\t${(kept / data.length).toFixed(3)} kept-x`,
  );
  process.exit(0);
}

console.log("pkg: ts");
for (const shape of SHAPES) {
  for (const impl of ["errgen", "json_parse"]) {
    const r = spawnSync(process.execPath, ["--expose-gc", "--max-old-space-size=16384", fileURLToPath(import.meta.url), ...args], {
      env: { ...process.env, ERRGEN_HOSTILE_ONE: shape, ERRGEN_HOSTILE_IMPL: impl },
      stdio: ["ignore", "inherit", "inherit"],
    });
    if (r.status !== 0) process.exit(1);
  }
}
