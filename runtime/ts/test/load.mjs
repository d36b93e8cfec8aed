// The runtime under test: runtime/ts/src compiled with the reference
// contract's modules of fixture/ beside it, which tests/ts/run.mjs writes to
// the directory ERRGEN_RUNTIME_TS names. These tests exercise the runtime
// modules one by one, on inputs the conformance vectors (which every
// generated package runs) do not reach.
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const dir = process.env.ERRGEN_RUNTIME_TS;
if (!dir) {
  throw new Error("ERRGEN_RUNTIME_TS is not set: run the runtime's tests with `npm test` in tests/ts (run.mjs compiles the runtime and sets it)");
}

/** mod imports one compiled module of the runtime (or of the fixture), by its base name. */
export function mod(name) {
  return import(pathToFileURL(join(dir, `${name}.js`)).href);
}
