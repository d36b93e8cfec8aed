// The package as another repository consumes it: npm pack a copy of the
// generated package with its build output, install the tarball into a
// temporary project outside the repository, then compile a small program
// against it with tsc and run it with node.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { buildDir, name, newEnv, pkg, src, vectors } from "./env.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const tsc = join(here, "../node_modules/typescript/bin/tsc");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

test(`${name}: npm pack, install and use from another project`, { timeout: 120_000 }, () => {
  const tmp = mkdtempSync(join(tmpdir(), "errgen-ts-consumer-"));
  try {
    const pkgDir = join(tmp, "pkg");
    cpSync(src, pkgDir, { recursive: true });
    cpSync(join(buildDir, "dist"), join(pkgDir, "dist"), { recursive: true });
    const quiet = { stdio: ["ignore", "pipe", "pipe"], encoding: "utf8", env: { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" } };
    execFileSync(npm, ["pack", "--pack-destination", tmp], { ...quiet, cwd: pkgDir });
    const tarball = readdirSync(tmp).find((f) => f.endsWith(".tgz"));
    assert.ok(tarball, "npm pack wrote a tarball");
    const listing = execFileSync("tar", ["-tzf", join(tmp, tarball)], { encoding: "utf8" }).split("\n");
    assert.ok(listing.includes("package/dist/index.js"));
    assert.ok(listing.includes("package/dist/index.d.ts"));
    assert.ok(!listing.some((f) => f.startsWith("package/src/")), "sources are not published");

    const app = join(tmp, "app");
    cpSync(join(here, "../consumer"), app, { recursive: true });
    writeFileSync(
      join(app, "package.json"),
      JSON.stringify({ name: "consumer-app", private: true, type: "module", dependencies: { [name]: `file:../${tarball}` } }, null, 2),
    );
    execFileSync(npm, ["install", "--offline", "--ignore-scripts", "--no-package-lock"], { ...quiet, cwd: app });
    // The program imports the package by name; errgen-pkg is its placeholder.
    const main = join(app, "main.ts");
    writeFileSync(main, readFileSync(main, "utf8").replaceAll("errgen-pkg", name));
    execFileSync(process.execPath, [tsc, "-p", app], { ...quiet, cwd: app });
    const out = JSON.parse(execFileSync(process.execPath, [join(app, "main.js")], { ...quiet, cwd: app }));
    const fb = vectors.lookup.find((v) => !v.known);
    assert.equal(out.contract, vectors.contract);
    assert.equal(out.kinds, vectors.lookup.filter((v) => v.known).length);
    assert.equal(out.parsed, true);
    assert.equal(out.unknownKindStep, pkg.nextStep(newEnv(fb.kind, "m"), 1).step);
    assert.equal(out.roundTrip, true);
    assert.equal(out.mcp, true);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
