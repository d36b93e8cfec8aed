// Runs the tests of every generated TypeScript package (gen/ts under the
// repository root and under each examples/<name>/), contract-independently:
//
//   1. compile each package with tsc (its own strict tsconfig) into
//      build/<name>/dist — the build output never lands in gen/;
//   2. type-level tests: types/usage.ts must compile against each package
//      with `tsc --noEmit --strict`, and every `// @ts-expect-error` line in
//      it must really be an error;
//   3. `node --test` on test/*.test.mjs once per package, with the package
//      and its output root (conformance vectors, schemas) in the environment.
//      The sanitizer test also reads the differential vectors of `make
//      sanitize-diff` from ERRGEN_SANITIZE_DIFF (by default
//      build/sanitize-diff.vectors.json at the repository root).
//
// Usage: node run.mjs (from tests/ts; `npm test` does this).
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../..");
const tsc = join(here, "node_modules/typescript/bin/tsc");
const build = join(here, "build");

function run(cmd, args, opts = {}) {
  return new Promise((resolveRun) => {
    const child = spawn(cmd, args, { stdio: opts.capture ? ["ignore", "pipe", "pipe"] : "inherit", ...opts });
    let out = "";
    if (opts.capture) {
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (out += d));
    }
    child.on("close", (code) => resolveRun({ code, out }));
  });
}

/** The output roots holding a generated TypeScript package. */
function roots() {
  const out = [];
  if (existsSync(join(repo, "gen/ts/package.json"))) out.push(repo);
  const ex = join(repo, "examples");
  for (const d of existsSync(ex) ? readdirSync(ex).sort() : []) {
    if (existsSync(join(ex, d, "gen/ts/package.json"))) out.push(join(ex, d));
  }
  return out;
}

/**
 * The test contracts of internal/gengo/testdata (one full of quotes,
 * backslashes, comment closers, template syntax, U+2028 and non-ASCII text),
 * generated into build/_contracts/<case> with errgen: their packages must compile
 * and pass every test too. Skipped, with a notice, when neither bin/errgen
 * (built by `make test`) nor go is available.
 */
async function testdataRoots() {
  const dir = join(repo, "internal/gengo/testdata");
  const cases = existsSync(dir) ? readdirSync(dir).filter((d) => existsSync(join(dir, d, "kinds.yaml"))).sort() : [];
  const errgen = join(repo, "bin/errgen");
  const out = [];
  for (const c of cases) {
    // "_" keeps `go test ./...` and `go vet ./...` out of the generated Go packages.
    const target = join(build, "_contracts", c);
    mkdirSync(target, { recursive: true });
    const args = ["generate", "-contract", join(dir, c, "kinds.yaml"), "-out", target];
    const r = existsSync(errgen) ? await run(errgen, args, { capture: true }) : await run("go", ["run", "./cmd/errgen", ...args], { capture: true, cwd: repo });
    if (r.code !== 0) {
      console.log(`notice: cannot generate the ${c} test contract (${r.out.trim() || "no errgen"}); skipping it`);
      continue;
    }
    out.push(target);
  }
  return out;
}

const started = Date.now();
if (!existsSync(tsc)) {
  console.error("typescript is not installed: run `npm ci` in tests/ts first");
  process.exit(1);
}
rmSync(build, { recursive: true, force: true });
const packages = [...roots(), ...(await testdataRoots())].map((root) => {
  const pkg = JSON.parse(readFileSync(join(root, "gen/ts/package.json"), "utf8"));
  return { root, name: pkg.name, src: join(root, "gen/ts"), out: join(build, pkg.name) };
});
if (packages.length === 0) {
  console.error("no generated TypeScript package found (gen/ts/package.json); run `make generate`");
  process.exit(1);
}
let failed = false;

// 1. Compile every package, in parallel.
const compiled = await Promise.all(
  packages.map(async (p) => {
    const r = await run(process.execPath, [tsc, "-p", join(p.src, "tsconfig.json"), "--outDir", join(p.out, "dist")], { capture: true });
    return { p, ...r };
  }),
);
for (const { p, code, out } of compiled) {
  console.log(`tsc ${relative(repo, p.src)} -> ${relative(repo, join(p.out, "dist"))}: ${code === 0 ? "ok" : "FAILED"}`);
  if (code !== 0) {
    console.log(out);
    failed = true;
  }
}
if (failed) process.exit(1);

// 2. Type-level tests against each package's declarations.
const typecheck = await Promise.all(
  packages.map(async (p) => {
    const dir = join(p.out, "types");
    mkdirSync(dir, { recursive: true });
    cpSync(join(here, "types/usage.ts"), join(dir, "usage.ts"));
    cpSync(join(here, "types/dom.ts"), join(dir, "dom.ts"));
    writeFileSync(
      join(dir, "tsconfig.dom.json"),
      JSON.stringify({ extends: "./tsconfig.json", compilerOptions: { lib: ["ES2022", "DOM"] }, files: ["dom.ts"] }, null, 2),
    );
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify(
        {
          compilerOptions: {
            target: "ES2022",
            lib: ["ES2022"],
            types: [],
            module: "NodeNext",
            moduleResolution: "NodeNext",
            strict: true,
            noEmit: true,
            noUncheckedIndexedAccess: true,
          },
          files: ["usage.ts"],
        },
        null,
        2,
      ),
    );
    const r = await run(process.execPath, [tsc, "--noEmit", "--strict", "-p", dir], { capture: true });
    const dom = await run(process.execPath, [tsc, "--noEmit", "--strict", "-p", join(dir, "tsconfig.dom.json")], { capture: true });
    return { p, code: r.code || dom.code, out: r.out + dom.out };
  }),
);
for (const { p, code, out } of typecheck) {
  console.log(`tsc --noEmit --strict types/usage.ts, types/dom.ts against ${p.name}: ${code === 0 ? "ok" : "FAILED"}`);
  if (code !== 0) {
    console.log(out);
    failed = true;
  }
}
if (failed) process.exit(1);

// 3. The runtime tests, once per package.
const testFiles = readdirSync(join(here, "test"))
  .filter((f) => f.endsWith(".test.mjs"))
  .sort()
  .map((f) => join("test", f));
const totals = { tests: 0, pass: 0, fail: 0 };
for (const p of packages) {
  const tap = join(build, `${p.name}.tap`);
  process.stdout.write(`node --test ${p.name} (${relative(repo, p.root) || "."}): `);
  const r = await run(
    process.execPath,
    ["--test", "--test-reporter=tap", `--test-reporter-destination=${tap}`, ...testFiles],
    {
      cwd: here,
      env: {
        ...process.env,
        ERRGEN_TS_NAME: p.name,
        ERRGEN_TS_ROOT: p.root,
        ERRGEN_TS_SRC: p.src,
        ERRGEN_TS_BUILD: p.out,
        ERRGEN_TS_PKG: join(p.out, "dist/index.js"),
        ERRGEN_SANITIZE_DIFF: process.env.ERRGEN_SANITIZE_DIFF || join(repo, "build/sanitize-diff.vectors.json"),
      },
    },
  );
  const report = existsSync(tap) ? readFileSync(tap, "utf8") : "";
  const count = (k) => Number((new RegExp(`^# ${k} (\\d+)$`, "m").exec(report) ?? [])[1] ?? 0);
  console.log(`${count("tests")} tests, ${count("pass")} passed, ${count("fail")} failed`);
  for (const k of Object.keys(totals)) totals[k] += count(k);
  if (r.code !== 0) {
    failed = true;
    // The failing tests, with their diagnostics, from the TAP report.
    const lines = report.split("\n");
    for (let i = 0; i < lines.length; i++) {
      if (!/^\s*not ok /.test(lines[i])) continue;
      const indent = lines[i].search(/\S/);
      console.log(lines[i].trim());
      for (i++; i < lines.length && (lines[i].trim() === "" || lines[i].search(/\S/) > indent); i++) console.log(lines[i]);
      i--;
    }
  }
}
console.log(
  `TypeScript tests ${failed ? "FAILED" : "passed"} for ${packages.map((p) => p.name).join(", ")} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
// The last line is the plain summary CI readers look for.
console.log(`typescript: ${totals.pass} passed, ${totals.fail} failed`);
process.exit(failed ? 1 : 0);
