// The package as another repository consumes it, the three ways npm takes
// a package that is not published: a copy of the generated package is
// installed by a temporary project outside the repository from its
// directory, from a git repository (git+file://, as a git URL is
// installed: cloned, then packed, with no build step) and from the tarball
// `npm pack` makes of it; a small program imports it under each name and
// is compiled with tsc and run with node. Packing and type-checking inside
// the package directory change none of its files: errgen's drift gate
// stays clean.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { name, newEnv, pkg, src, vectors } from "./env.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const tsc = join(here, "../node_modules/typescript/bin/tsc");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** snapshot maps every file under dir (but .git) to its content. */
function snapshot(dir) {
  const out = new Map();
  const walk = (d) => {
    for (const f of readdirSync(d).sort()) {
      const full = join(d, f);
      if (f === ".git") continue;
      if (statSync(full).isDirectory()) walk(full);
      else out.set(relative(dir, full), readFileSync(full));
    }
  };
  walk(dir);
  return out;
}

test(`${name}: install from a directory, a git URL and a tarball, and use it from another project`, { timeout: 120_000 }, () => {
  const tmp = mkdtempSync(join(tmpdir(), "errgen-ts-consumer-"));
  try {
    const env = { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" };
    const quiet = { stdio: ["ignore", "pipe", "pipe"], encoding: "utf8", env };
    const pkgDir = join(tmp, "pkg");
    cpSync(src, pkgDir, { recursive: true });

    // Building and packing where the package lives leave it as generated.
    const before = snapshot(pkgDir);
    // --noCheck: run.mjs has type-checked the sources; what matters here
    // is what `tsc -p .` writes, and with noEmit that is nothing either way.
    execFileSync(process.execPath, [tsc, "-p", ".", "--noCheck"], { ...quiet, cwd: pkgDir });
    execFileSync(npm, ["pack"], { ...quiet, cwd: pkgDir });
    const after = snapshot(pkgDir);
    const tarball = [...after.keys()].find((f) => f.endsWith(".tgz"));
    assert.ok(tarball, "npm pack wrote a tarball");
    assert.deepEqual([...after.keys()].filter((f) => f !== tarball), [...before.keys()], "tsc -p . and npm pack added no file but the tarball");
    for (const [f, data] of before) assert.ok(data.equals(after.get(f)), `${f} is unchanged`);
    renameSync(join(pkgDir, tarball), join(tmp, tarball));

    const listing = execFileSync("tar", ["-tzf", join(tmp, tarball)], { encoding: "utf8" }).split("\n");
    for (const m of readdirSync(join(src, "src")).filter((f) => f.endsWith(".ts"))) {
      const base = m.slice(0, -3);
      assert.ok(listing.includes(`package/dist/${base}.js`), `the tarball has dist/${base}.js`);
      assert.ok(listing.includes(`package/dist/${base}.d.ts`), `the tarball has dist/${base}.d.ts`);
    }
    assert.ok(!listing.some((f) => f.startsWith("package/src/")), "sources are not published");

    const git = (...args) => execFileSync("git", ["-c", "user.name=errgen", "-c", "user.email=errgen@example.com", ...args], { ...quiet, cwd: pkgDir });
    git("init", "-q");
    git("add", "-A");
    git("commit", "-q", "-m", "the generated package");

    // One project, the package three times: under its own name from the
    // tarball, and under two scoped aliases from the directory and the git
    // URL (a scoped name resolves through node_modules/@scope/name).
    const app = join(tmp, "app");
    cpSync(join(here, "../consumer"), app, { recursive: true });
    const ways = { [name]: `file:../${tarball}`, "@errgen-test/from-directory": "file:../pkg", "@errgen-test/from-git": `git+${pathToFileURL(pkgDir).href}` };
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "consumer-app", private: true, type: "module", dependencies: ways }, null, 2));
    execFileSync(npm, ["install", "--offline", "--no-package-lock"], { ...quiet, cwd: app });
    // The program imports the package by name; errgen-pkg is its placeholder.
    const main = readFileSync(join(app, "main.ts"), "utf8");
    const programs = Object.keys(ways).map((dep, i) => ({ dep, file: `main${i}.ts` })); // the names may hold "@" and "/"
    for (const { dep, file } of programs) writeFileSync(join(app, file), main.replaceAll("errgen-pkg", dep));
    rmSync(join(app, "main.ts"));
    const tsconfig = JSON.parse(readFileSync(join(app, "tsconfig.json"), "utf8"));
    writeFileSync(join(app, "tsconfig.json"), JSON.stringify({ ...tsconfig, files: programs.map((p) => p.file) }, null, 2));
    execFileSync(process.execPath, [tsc, "-p", app], { ...quiet, cwd: app });
    for (const { dep, file } of programs) {
      const out = JSON.parse(execFileSync(process.execPath, [join(app, file.replace(/\.ts$/, ".js"))], { ...quiet, cwd: app }));
      const fb = vectors.lookup.find((v) => !v.known);
      assert.equal(out.contract, vectors.contract, dep);
      assert.equal(out.kinds, vectors.lookup.filter((v) => v.known).length, dep);
      assert.equal(out.parsed, true, dep);
      assert.equal(out.unknownKindStep, pkg.nextStep(newEnv(fb.kind, "m"), 1).step, dep);
      assert.equal(out.roundTrip, true, dep);
      assert.equal(out.mcp, true, dep);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
