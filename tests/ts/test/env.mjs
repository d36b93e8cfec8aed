// The package under test and its output root, as run.mjs passes them.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

for (const v of ["ERRGEN_TS_PKG", "ERRGEN_TS_ROOT", "ERRGEN_TS_NAME", "ERRGEN_TS_SRC"]) {
  if (!process.env[v]) {
    throw new Error(`${v} is not set: run the tests with \`npm test\` (run.mjs), which sets it for each generated package`);
  }
}

export const name = process.env.ERRGEN_TS_NAME;
export const root = process.env.ERRGEN_TS_ROOT;
export const src = process.env.ERRGEN_TS_SRC;

/** pkg is the compiled package under test. */
export const pkg = await import(pathToFileURL(process.env.ERRGEN_TS_PKG).href);

/** vectors are the conformance vectors of the package's contract. */
export const vectorsPath = join(root, "conformance", `${pkg.CONTRACT_NAME}.vectors.json`);
if (!existsSync(vectorsPath)) {
  throw new Error(`no conformance vectors at ${vectorsPath}: run \`make generate\``);
}
export const vectors = JSON.parse(readFileSync(vectorsPath, "utf8"));

/** schema reads one of the envelope schemas of the output root. */
export function schema(which) {
  return JSON.parse(readFileSync(join(root, "schemas", `${pkg.CONTRACT_NAME}.${which}.schema.json`), "utf8"));
}

/** parsed parses a wire envelope that must be valid. */
export function parsed(wire) {
  const r = pkg.parseEnvelope(wire);
  if (!r.ok) {
    throw new Error(`expected a valid envelope, got ${r.error.path}: ${r.error.problem} for ${JSON.stringify(wire)}`);
  }
  return r.envelope;
}

/**
 * paramsOf lists a compiled function's parameters, without the trailing opts
 * ({ trusted }), which is an option, by the Envelope member each sets: a
 * parameter named like something the constructor's body uses (opts,
 * newEnvelope) carries a trailing underscore its member does not.
 */
function paramsOf(fn) {
  const m = /^function\s+\w+\s*\(([^)]*)\)/.exec(fn.toString());
  const names = m ? m[1].split(",").map((s) => s.trim()).filter((s) => s !== "") : [];
  if (names[names.length - 1] === "opts") names.pop();
  const member = (p) => (p.endsWith("_") && !Object.hasOwn(pkg.FIELDS, p) && Object.hasOwn(pkg.FIELDS, p.slice(0, -1)) ? p.slice(0, -1) : p);
  return names.map(member);
}

/**
 * contextParams are the parameters newEnvelope takes after the kind and the
 * message: the context fields the layout requires (ovstorage: operation),
 * which every constructor takes after the message. Empty for most contracts.
 */
export const contextParams = paramsOf(pkg.newEnvelope).slice(2);

/** contextArgs are values for contextParams: non-empty strings. */
export const contextArgs = contextParams.map((p) => `example ${p}`);

/** newEnv is newEnvelope with the required context filled in. */
export function newEnv(kind, message, opts) {
  return pkg.newEnvelope(kind, message, ...contextArgs, opts);
}

/** constructors maps each known kind to the package's constructor for it, and its parameter names. */
export function constructors() {
  const out = new Map();
  for (const [exportName, fn] of Object.entries(pkg)) {
    if (!/^new[A-Z]/.test(exportName) || exportName === "newEnvelope" || typeof fn !== "function") continue;
    const params = paramsOf(fn);
    // The required context must be a non-empty string; the kind's own
    // required fields may be left out to learn the kind.
    const kind = fn("probe", ...params.slice(1).map((p) => (contextParams.includes(p) ? "probe" : undefined))).kind;
    out.set(kind, { exportName, fn, params });
  }
  return out;
}
