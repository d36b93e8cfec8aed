// Runs the tests of every generated TypeScript package (gen/ts under the
// repository root and under each examples/<name>/), contract-independently,
// and of the runtime they ship (runtime/ts, where it is written).
// What is tested is what ships: the package's committed dist/ (JavaScript
// and declarations that errgen generates), never a build made here.
//
//   0. runtime/ts type-checks in place under the generated package's
//      strict tsconfig, against the reference contract's modules in
//      runtime/ts/fixture, and compiles into build/_runtime for its unit
//      tests (runtime/ts/test/*.test.mjs, run beside step 4);
//   1. the sources type-check under the package's own strict tsconfig
//      (isolatedDeclarations included), and tsc writes its own
//      declarations of them into build/<name>/tsc — the build output never
//      lands in gen/; dist/ holds a .js and a .d.ts for every src/*.ts and
//      nothing else;
//   2. the shipped declarations agree with tsc's: module by module, the
//      same export names with the same meanings (value, type), and for
//      each export identical types, checked by tsc on a generated
//      build/<name>/types/agree.ts;
//   3. type-level tests: types/usage.ts must compile against each
//      package's dist/index.d.ts with `tsc --noEmit --strict`, and every
//      `// @ts-expect-error` line in it must really be an error; in the
//      same tsc run, the types openapi-typescript makes from the output
//      root's OpenAPI document (and from tests/openapi/sample-api.yaml)
//      must type what the package writes for every envelope vector
//      (openapi-types.mjs; the reference contract's and the examples');
//   Every tsc run of steps 0 to 3 is tsc's own command line run inside this
//   process (tscRun), one after another: the same checks, diagnostics and
//   exit codes as a tsc process, at about a third of the CPU time.
//   4. `node --test` on test/*.test.mjs once per package, against its
//      dist/index.js, with the package and its output root (conformance
//      vectors, schemas) in the environment, every file in one process
//      (oneProcess).
//      The sanitizer test also reads the differential vectors of `make
//      sanitize-diff` from ERRGEN_SANITIZE_DIFF (by default
//      build/sanitize-diff.vectors.json at the repository root), and the
//      reader test those of `make reader-diff` from ERRGEN_READER_DIFF
//      (build/reader-diff.vectors.json), and the protobuf test the answers
//      protojson wrote of `make protojson-aip193` from ERRGEN_PROTOJSON_AIP193
//      (build/protojson-aip193.vectors.json).
//   5. beside them, once for every package, clients/*.test.mjs: real MCP
//      clients and servers (the SDK's 1.x and 2.x lines) in memory, with
//      every package listed in ERRGEN_TS_PACKAGES.
//
// Usage: node run.mjs (from tests/ts; `npm test` does this).
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { availableParallelism } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";
import { openapiTypes } from "./openapi-types.mjs";

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

/**
 * tscRun runs one tsc command line (its arguments after "tsc") and returns
 * its exit code and everything it printed, as a tsc process would, but
 * inside this process: tsc's own command-line entry point
 * (ts.executeCommandLine, what bin/tsc calls; internal to the pinned
 * typescript, hence the fallback to a process) with a system whose output
 * is captured and whose exit records the code. The same options, checks,
 * diagnostics (not "pretty": the output is no terminal) and exit codes; one
 * process instead of one per run, whose compiler the first runs have warmed
 * up: a program that costs a tsc process about 3.5 CPU-seconds (starting
 * node, loading and compiling typescript.js, then running it cold) costs
 * about 1 here. The runs are synchronous, one after another.
 */
async function tscRun(args) {
  if (typeof ts.executeCommandLine !== "function") return run(process.execPath, [tsc, ...args], { capture: true });
  let out = "";
  let code;
  const system = {
    ...ts.sys,
    write: (s) => (out += s),
    writeOutputIsTTY: () => false,
    exit: (c) => {
      code ??= c ?? 0;
    },
  };
  try {
    ts.executeCommandLine(system, () => {}, args);
  } catch (e) {
    return { code: 1, out: `${out}tsc ${args.join(" ")} threw: ${e?.stack ?? e}\n` };
  }
  // tsc ends through sys.exit on every path; a run that did not is a failure.
  return { code: code ?? 1, out: code === undefined ? `${out}tsc ${args.join(" ")} returned without an exit code\n` : out };
}

function seconds(since) {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

/** The modules of a package: the basenames of its src/*.ts. */
function modules(p) {
  return readdirSync(join(p.src, "src"))
    .filter((f) => f.endsWith(".ts"))
    .map((f) => f.slice(0, -3))
    .sort();
}

/** shippedFiles lists what is wrong with a package's dist/: it must hold a .js and a .d.ts for each module, nothing else. */
function shippedFiles(p) {
  const dist = join(p.src, "dist");
  const want = modules(p).flatMap((m) => [`${m}.d.ts`, `${m}.js`]);
  const have = existsSync(dist) ? readdirSync(dist).sort() : [];
  const problems = [];
  for (const f of want) if (!have.includes(f)) problems.push(`${f} is missing`);
  for (const f of have) if (!want.includes(f)) problems.push(`${f} is not compiled from a source`);
  return problems;
}

/** importPath is the relative module specifier of file from dir. */
function importPath(dir, file) {
  const rel = relative(dir, file).split(sep).join("/");
  return rel.startsWith(".") ? rel : `./${rel}`;
}

/**
 * declaredExports reads, with the TypeScript compiler API, the exports of
 * every module of every package twice: from the shipped dist/<module>.d.ts
 * and from tsc's build/<name>/tsc/<module>.d.ts. For each export: whether
 * it is a value, a type, and how many type parameters the type takes.
 */
function declaredExports(pkgs) {
  const files = [];
  for (const p of pkgs) {
    for (const m of modules(p)) files.push(join(p.src, "dist", `${m}.d.ts`), join(p.out, "tsc", `${m}.d.ts`));
  }
  const program = ts.createProgram(files, {
    noEmit: true,
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
  });
  const checker = program.getTypeChecker();
  const exportsOf = (file) => {
    const out = new Map();
    const sf = program.getSourceFile(file);
    const mod = sf && checker.getSymbolAtLocation(sf);
    for (const e of mod ? checker.getExportsOfModule(mod) : []) {
      const t = e.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(e) : e;
      const decl = (t.declarations ?? []).find((d) => ts.isTypeAliasDeclaration(d) || ts.isInterfaceDeclaration(d) || ts.isClassDeclaration(d));
      out.set(e.name, {
        value: (t.flags & ts.SymbolFlags.Value) !== 0,
        type: (t.flags & ts.SymbolFlags.Type) !== 0,
        arity: decl?.typeParameters?.length ?? 0,
      });
    }
    return out;
  };
  const byPackage = new Map();
  for (const p of pkgs) {
    byPackage.set(
      p,
      modules(p).map((m) => ({ module: m, shipped: exportsOf(join(p.src, "dist", `${m}.d.ts`)), tsc: exportsOf(join(p.out, "tsc", `${m}.d.ts`)) })),
    );
  }
  return byPackage;
}

/**
 * agreementFile writes the assertions of step 2 for one package: for each
 * module, the export names of the shipped declarations must be tsc's, with
 * the same meanings (problems lists the differences), and agree.ts asserts
 * that each value's type and each type are identical in both (instantiated
 * with any for a generic type), one export a line.
 */
function agreementFile(p, dir, mods) {
  const problems = [];
  const lines = [
    "// Generated by tests/ts/run.mjs: the shipped declarations (shipped_*) against tsc's declarations of the sources (tsc_*).",
    "type Same<X, Y> = (<G>() => G extends X ? 1 : 2) extends <G>() => G extends Y ? 1 : 2 ? true : false;",
    "type Check<T extends true> = T;",
  ];
  for (const { module: m, shipped, tsc: built } of mods) {
    lines.push(`import type * as shipped_${m} from ${JSON.stringify(importPath(dir, join(p.src, "dist", `${m}.js`)))};`);
    lines.push(`import type * as tsc_${m} from ${JSON.stringify(importPath(dir, join(p.out, "tsc", `${m}.js`)))};`);
  }
  for (const { module: m, shipped, tsc: built } of mods) {
    for (const name of built.keys()) if (!shipped.has(name)) problems.push(`dist/${m}.d.ts does not export ${name}`);
    for (const name of shipped.keys()) if (!built.has(name)) problems.push(`dist/${m}.d.ts exports ${name}, which the source does not`);
    for (const [name, s] of [...shipped].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const b = built.get(name);
      if (b === undefined) continue;
      if (s.value !== b.value || s.type !== b.type || s.arity !== b.arity) {
        problems.push(`dist/${m}.d.ts: ${name} is ${meaning(s)}, the source's ${meaning(b)}`);
        continue;
      }
      if (s.value) lines.push(`export type value_${m}_${name} = Check<Same<typeof shipped_${m}.${name}, typeof tsc_${m}.${name}>>;`);
      if (s.type) {
        const args = s.arity > 0 ? `<${Array(s.arity).fill("any").join(", ")}>` : "";
        lines.push(`export type type_${m}_${name} = Check<Same<shipped_${m}.${name}${args}, tsc_${m}.${name}${args}>>;`);
      }
    }
  }
  return { agreement: lines.join("\n") + "\n", problems };
}

function meaning(e) {
  return [e.value && "a value", e.type && `a type${e.arity ? ` with ${e.arity} type parameters` : ""}`].filter(Boolean).join(" and ") || "neither";
}

/** explainAgreement follows each error tsc reports in agree.ts with the line it is on, which names the module and export. */
function explainAgreement(dir, out) {
  const lines = existsSync(join(dir, "agree.ts")) ? readFileSync(join(dir, "agree.ts"), "utf8").split("\n") : [];
  return out.replace(/^(\S*agree\.ts\((\d+),\d+\).*)$/gm, (all, _line, n) => `${all}\n    ${lines[Number(n) - 1] ?? ""}`);
}

const started = Date.now();
if (!existsSync(tsc)) {
  console.error("typescript is not installed: run `npm ci` in tests/ts first");
  process.exit(1);
}
rmSync(build, { recursive: true, force: true });
// ERRGEN_TS_ONLY=name[,name...] tests only those packages (while working on one).
const only = process.env.ERRGEN_TS_ONLY ? process.env.ERRGEN_TS_ONLY.split(",") : null;
const packages = [...roots(), ...(await testdataRoots())]
  .map((root) => {
    const pkg = JSON.parse(readFileSync(join(root, "gen/ts/package.json"), "utf8"));
    return { root, name: pkg.name, src: join(root, "gen/ts"), out: join(build, pkg.name) };
  })
  .filter((p) => only === null || only.includes(p.name));
if (packages.length === 0) {
  console.error("no generated TypeScript package found (gen/ts/package.json); run `make generate`");
  process.exit(1);
}
let failed = false;

// 0. The runtime of runtime/ts, where it is written: tsc type-checks it in
// place under the generated package's options (runtime/ts/tsconfig.json
// merges src/ with the reference contract's modules in fixture/) and
// compiles it, before the packages of step 1; the fixture's modules are then
// put beside the runtime's, as in a generated package, for its unit tests
// (runtime/ts/test, run in step 4).
const runtimeDir = join(repo, "runtime/ts");
const runtimeOut = join(build, "_runtime");
// The fixture (git ignores it) is every module of the committed reference
// package that the runtime does not hold itself (contract.ts,
// constructors.ts), copied as it is: always what `make generate` wrote, never
// a copy someone must remember to refresh.
{
  const fixture = join(runtimeDir, "fixture");
  const own = new Set(readdirSync(join(runtimeDir, "src")));
  rmSync(fixture, { recursive: true, force: true });
  mkdirSync(fixture, { recursive: true });
  for (const f of readdirSync(join(repo, "gen/ts/src")).filter((f) => f.endsWith(".ts") && !own.has(f))) {
    copyFileSync(join(repo, "gen/ts/src", f), join(fixture, f));
  }
}
const runtimeCompiled = await tscRun(["-p", join(runtimeDir, "tsconfig.json"), "--noEmit", "false", "--outDir", runtimeOut]);

// 1. Type-check every package's sources and let tsc write their
// declarations (one after another, in this process: tscRun); check the
// shipped file set.
const compiled = [];
for (const p of packages) {
  const r = await tscRun(["-p", join(p.src, "tsconfig.json"), "--noEmit", "false", "--emitDeclarationOnly", "--outDir", join(p.out, "tsc")]);
  compiled.push({ p, ...r });
}
for (const { p, code, out } of compiled) {
  console.log(`tsc ${relative(repo, p.src)} (declarations -> ${relative(repo, join(p.out, "tsc"))}): ${code === 0 ? "ok" : "FAILED"}`);
  if (code !== 0) {
    console.log(out);
    failed = true;
  }
  const problems = shippedFiles(p);
  if (problems.length > 0) {
    console.log(`${relative(repo, join(p.src, "dist"))}: ${problems.join("; ")}`);
    failed = true;
  }
}
{
  const { code, out } = runtimeCompiled;
  console.log(`tsc ${relative(repo, runtimeDir)} (the runtime, against fixture/): ${code === 0 ? "ok" : "FAILED"}`);
  if (code !== 0) {
    console.log(out);
    failed = true;
  } else {
    for (const f of readdirSync(join(runtimeOut, "fixture")).filter((f) => f.endsWith(".js"))) {
      copyFileSync(join(runtimeOut, "fixture", f), join(runtimeOut, "src", f));
    }
  }
}
if (failed) process.exit(1);

const phases = [`tsc ${seconds(started)}`];
let phaseStart = Date.now();

// 2. and 3. The shipped declarations against tsc's, and the type-level
// tests against the shipped declarations.
const exportsByPackage = declaredExports(packages);
const typecheck = await Promise.all(
  packages.map(async (p) => {
    const dir = join(p.out, "types");
    mkdirSync(dir, { recursive: true });
    const { agreement, problems } = agreementFile(p, dir, exportsByPackage.get(p));
    writeFileSync(join(dir, "agree.ts"), agreement);
    // The committed output roots' OpenAPI documents (the reference
    // contract's and the examples'), not the test contracts'.
    const openapi = p.root.startsWith(build) ? null : await openapiTypes(p, dir, join(repo, "tests/openapi/sample-api.yaml"));
    // usage.ts and dom.ts import "../dist/index.js": the shipped package.
    const index = JSON.stringify(importPath(dir, join(p.src, "dist/index.js")));
    for (const f of ["usage.ts", "dom.ts"]) {
      writeFileSync(join(dir, f), readFileSync(join(here, "types", f), "utf8").replaceAll('"../dist/index.js"', index));
    }
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
          files: ["usage.ts", "agree.ts", ...(openapi?.files ?? [])],
        },
        null,
        2,
      ),
    );
    const r = await tscRun(["--noEmit", "--strict", "-p", dir]);
    // The declarations themselves were checked by the run above.
    const dom = await tscRun(["--noEmit", "--strict", "--skipLibCheck", "-p", join(dir, "tsconfig.dom.json")]);
    return { p, problems, openapi, code: r.code || dom.code, out: explainAgreement(dir, r.out) + dom.out };
  }),
);
for (const { p, problems, openapi, code, out } of typecheck) {
  if (openapi !== null) {
    console.log(`openapi-typescript types of ${p.name}'s OpenAPI document${openapi.files.includes("openapi-sample.ts") ? " and tests/openapi/sample-api.yaml" : ""}: ${openapi.problems.length === 0 ? "ok" : "FAILED"}`);
    for (const m of openapi.problems) console.log(`  ${m}`);
    if (openapi.problems.length > 0) failed = true;
  }
  console.log(`dist/*.d.ts of ${p.name} agree with tsc's declarations: ${problems.length === 0 && !/agree\.ts/.test(out) ? "ok" : "FAILED"}`);
  for (const m of problems) console.log(`  ${m}`);
  console.log(
    `tsc --noEmit --strict types/usage.ts, types/dom.ts, types/openapi-*.ts (openapi-typescript) against ${p.name}'s dist: ${code === 0 ? "ok" : "FAILED"}`,
  );
  if (code !== 0) console.log(out);
  if (code !== 0 || problems.length > 0) failed = true;
}
if (failed) process.exit(1);

phases.push(`declarations and type-level tests ${seconds(phaseStart)}`);
phaseStart = Date.now();

// 4. The runtime tests, once per package, as many packages at a time as
// there are processors (node --test runs one file at a time on two): a
// package's tests wait on child processes (npm, git, tsc) much of the
// time. The reports are printed in package order.
const testFiles = readdirSync(join(here, "test"))
  .filter((f) => f.endsWith(".test.mjs"))
  .sort()
  .map((f) => join("test", f));
const totals = { tests: 0, pass: 0, fail: 0 };
/**
 * oneProcess writes build/<name>.test.mjs, which imports every test file in
 * turn, so that `node --test` runs them all in one process rather than one
 * process each (about 16 -> 11 CPU-seconds a package): the same tests, in
 * the same order, with the same report lines. A file that fails to load
 * becomes a failing test named after it, and the files after it still run,
 * as they do in processes of their own. The files share that process, so a
 * test file must not change what its neighbours see (globals, process.env);
 * none does.
 */
function oneProcess(name, files, cwd) {
  const entry = join(build, `${name.replaceAll("/", "_")}.test.mjs`);
  const lines = [
    "// Written by tests/ts/run.mjs: every test file of one run, in one process.",
    'import { test } from "node:test";',
    "for (const file of " + JSON.stringify(files.map((f) => pathToFileURL(resolve(cwd, f)).href), null, 2) + ") {",
    "  try {",
    "    await import(file);",
    "  } catch (e) {",
    "    test(`${file} loads`, () => {",
    "      throw e;",
    "    });",
    "  }",
    "}",
  ];
  writeFileSync(entry, lines.join("\n") + "\n");
  return entry;
}
/**
 * filesFor leaves the consumer test out for the test contracts (built into
 * build/): they test what their names and texts do to a package, while how a
 * package installs is the same for every contract, tested on the shipped
 * ones here and, by version from a registry, by tests/e2e.
 */
function filesFor(p) {
  return p.root.startsWith(build) ? testFiles.filter((f) => !f.endsWith("consumer.test.mjs")) : testFiles;
}
async function runtimeTests(p) {
  const tap = join(build, `${p.name}.tap`);
  const r = await run(
    process.execPath,
    ["--test", "--test-reporter=tap", `--test-reporter-destination=${tap}`, oneProcess(p.name, filesFor(p), here)],
    {
      cwd: here,
      env: {
        ...process.env,
        ERRGEN_TS_NAME: p.name,
        ERRGEN_TS_ROOT: p.root,
        ERRGEN_TS_SRC: p.src,
        ERRGEN_TS_PKG: join(p.src, "dist/index.js"),
        ERRGEN_SANITIZE_DIFF: process.env.ERRGEN_SANITIZE_DIFF || join(repo, "build/sanitize-diff.vectors.json"),
        ERRGEN_READER_DIFF: process.env.ERRGEN_READER_DIFF || join(repo, "build/reader-diff.vectors.json"),
        ERRGEN_PROTOJSON_AIP193: process.env.ERRGEN_PROTOJSON_AIP193 || join(repo, "build/protojson-aip193.vectors.json"),
      },
    },
  );
  return { p, code: r.code, report: existsSync(tap) ? readFileSync(tap, "utf8") : "" };
}
// The runtime's own unit tests run as one more job beside the packages'.
const runtimeTestFiles = readdirSync(join(runtimeDir, "test"))
  .filter((f) => f.endsWith(".test.mjs"))
  .sort()
  .map((f) => join(runtimeDir, "test", f));
const runtimeJob = (async () => {
  const tap = join(build, "_runtime.tap");
  const r = await run(process.execPath, ["--test", "--test-reporter=tap", `--test-reporter-destination=${tap}`, oneProcess("_runtime", runtimeTestFiles, runtimeDir)], {
    cwd: runtimeDir,
    env: { ...process.env, ERRGEN_RUNTIME_TS: join(runtimeOut, "src") },
  });
  return { p: { name: "runtime/ts", root: runtimeDir }, code: r.code, report: existsSync(tap) ? readFileSync(tap, "utf8") : "" };
})();
// The real MCP clients' sessions (clients/*.test.mjs): one more job, once for
// every package, so that the SDKs load once.
const clientTestFiles = readdirSync(join(here, "clients"))
  .filter((f) => f.endsWith(".test.mjs"))
  .sort()
  .map((f) => join("clients", f));
const clientsJob = (async () => {
  const tap = join(build, "_clients.tap");
  const list = packages.map((p) => ({ name: p.name, root: p.root, pkg: join(p.src, "dist/index.js") }));
  const r = await run(process.execPath, ["--test", "--test-reporter=tap", `--test-reporter-destination=${tap}`, ...clientTestFiles], {
    cwd: here,
    env: { ...process.env, ERRGEN_TS_PACKAGES: JSON.stringify(list) },
  });
  return { p: { name: "real MCP clients", root: join(here, "clients") }, code: r.code, report: existsSync(tap) ? readFileSync(tap, "utf8") : "" };
})();
const results = [];
let nextPackage = 0;
await Promise.all(
  Array.from({ length: Math.min(packages.length, Math.max(1, availableParallelism())) }, async () => {
    while (nextPackage < packages.length) {
      const i = nextPackage++;
      results[i] = await runtimeTests(packages[i]);
    }
  }),
);
results.push(await runtimeJob, await clientsJob);
for (const { p, code, report } of results) {
  const count = (k) => Number((new RegExp(`^# ${k} (\\d+)$`, "m").exec(report) ?? [])[1] ?? 0);
  console.log(`node --test ${p.name} (${relative(repo, p.root) || "."}): ${count("tests")} tests, ${count("pass")} passed, ${count("fail")} failed`);
  // nosecret.test.mjs's seed and counts (a TAP diagnostic).
  for (const m of report.matchAll(/^\s*# (nosecret \(ts .*)$/gm)) console.log(`  ${m[1]}`);
  for (const k of Object.keys(totals)) totals[k] += count(k);
  // The differential tests' seeds and counts.
  for (const m of report.matchAll(/^# ((?:reader|sanitizer) differential vectors.*|grpc: .*|mcp: the tool result .*)$/gm)) console.log(`  ${m[1]}`);
  if (code !== 0) {
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
phases.push(`node --test ${seconds(phaseStart)}`);
console.log(
  `TypeScript tests ${failed ? "FAILED" : "passed"} for ${packages.map((p) => p.name).join(", ")} in ${seconds(started)} (${phases.join(", ")})`,
);
// The last line is the plain summary CI readers look for.
console.log(`typescript: ${totals.pass} passed, ${totals.fail} failed`);
process.exit(failed ? 1 : 0);
