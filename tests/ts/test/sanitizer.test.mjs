// The sanitizer (docs/sanitizer.md): the hand-curated vectors every
// language runs, the differential vectors of `make sanitize-diff` (seeded
// random inputs with the Go package's outputs), the constructors'
// sanitization and its opt-out, linear work on the crafted worst cases
// (counted, not timed), and a smoke run of the benchmarks.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { constructors, contextArgs, contextParams, newEnv, pkg, root } from "./env.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../../..");
/** reference is true for the package of the repository's own contract (gen/ts), whose policy is errgen's default. */
const reference = resolve(root) === repo;

/** DEFAULT_CREDENTIAL_NAMES is errgen's list of credential names (docs/sanitizer.md, shape 9), which the vector files assume. */
const DEFAULT_CREDENTIAL_NAMES = [".ssh", ".gnupg", ".aws", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk", ".netrc", "_netrc", ".pgpass", ".git-credentials", ".npmrc", ".pypirc", ".vault-token", ".kube/config", ".docker/config.json"];

/** DEFAULT_MARKERS is errgen's default marker list (docs/sanitizer.md). */
const DEFAULT_MARKERS = ["<system>", "</system>", "[INST]", "[/INST]", "###", "<<", "<|im_start|>", "<|im_end|>", "<|system|>", "<|user|>", "<|assistant|>", "<|endoftext|>", "<|eot_id|>", "<|start_header_id|>", "<|end_header_id|>"];

/**
 * text decodes a vector's TEXT: a string; {repeat, times}; {hex}, raw bytes
 * decoded as UTF-8 with U+FFFD replacement, as the specification says; or a
 * list of these, concatenated. A lone surrogate escape stays a lone
 * surrogate in the JavaScript string.
 */
function text(t) {
  if (typeof t === "string") return t;
  if (Array.isArray(t)) return t.map(text).join("");
  if (typeof t === "object" && t !== null && typeof t.repeat === "string" && Number.isInteger(t.times) && t.times >= 1) return t.repeat.repeat(t.times);
  if (typeof t === "object" && t !== null && typeof t.hex === "string") {
    const hex = t.hex.replaceAll(" ", "");
    assert.match(hex, /^(?:[0-9a-fA-F]{2})*$/, `bad hex text ${t.hex}`);
    const bytes = new Uint8Array(hex.length / 2);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
    return new TextDecoder().decode(bytes);
  }
  throw new Error(`a text is a string, {repeat, times}, {hex} or a list of them, found ${JSON.stringify(t)}`);
}

/** short JSON-escapes s, eliding the middle of a long one. */
function short(s) {
  if (s.length <= 400) return JSON.stringify(s);
  return `${JSON.stringify(s.slice(0, 180))} … (${s.length} units) … ${JSON.stringify(s.slice(-180))}`;
}

/** samePolicy reports whether the package's policy is the one a vector file states (and errgen's default markers, no contract secrets and errgen's path rules, which the files assume). */
function samePolicy(policy) {
  return (
    pkg.SANITIZE_MAX_LENGTH === policy.max_length &&
    pkg.SANITIZE_TRUNCATION_MARKER === policy.truncation_marker &&
    JSON.stringify(pkg.SANITIZE_MARKERS) === JSON.stringify(DEFAULT_MARKERS) &&
    pkg.SANITIZE_SECRETS.length === 0 &&
    pkg.SANITIZE_PATHS === true &&
    JSON.stringify(pkg.SANITIZE_CREDENTIAL_NAMES) === JSON.stringify(DEFAULT_CREDENTIAL_NAMES)
  );
}

/** check runs one case: the output, and that the output sanitizes to itself. It returns a failure message or "". */
function check(c, policy) {
  const max = c.max_length ?? policy.max_length;
  const input = text(c.input);
  const want = text(c.output);
  const got = pkg.sanitizeMax(input, max);
  if (got !== want) return `case ${JSON.stringify(c.name)}${c.max_length ? ` (max_length ${c.max_length})` : ""}:\ninput  ${short(input)}\ngot    ${short(got)}\nwant   ${short(want)}`;
  const again = pkg.sanitizeMax(got, max);
  if (again !== got) return `case ${JSON.stringify(c.name)}: not a fixpoint:\nonce   ${short(got)}\ntwice  ${short(again)}`;
  return "";
}

const vectorFile = join(repo, "conformance/sanitizer.vectors.json");
const vectors = JSON.parse(readFileSync(vectorFile, "utf8"));

describe(`${pkg.CONTRACT_NAME}: sanitizer vectors`, () => {
  if (!samePolicy(vectors.policy)) {
    test("the hand-curated vectors assume errgen's default policy", { skip: `${pkg.CONTRACT_NAME} has its own sanitize policy` }, () => {});
    return;
  }
  for (const c of vectors.cases) {
    test(c.name, () => {
      const failure = check(c, vectors.policy);
      assert.equal(failure, "", failure);
    });
  }
});

describe(`${pkg.CONTRACT_NAME}: sanitizer differential vectors`, { skip: !reference && "run through the reference contract's package only" }, () => {
  test("every case of ERRGEN_SANITIZE_DIFF gives Go's output", () => {
    const path = process.env.ERRGEN_SANITIZE_DIFF;
    assert.ok(path, "ERRGEN_SANITIZE_DIFF is not set: run make sanitize-diff, then make test-ts (or set it to build/sanitize-diff.vectors.json)");
    assert.ok(existsSync(path), `${path} is missing: run make sanitize-diff`);
    const diff = JSON.parse(readFileSync(path, "utf8"));
    assert.ok(samePolicy(diff.policy), `the differential vectors assume ${JSON.stringify(diff.policy)}; ${pkg.CONTRACT_NAME} has ${pkg.SANITIZE_MAX_LENGTH} and ${JSON.stringify(pkg.SANITIZE_TRUNCATION_MARKER)}`);
    // The three sanitizers are held to agree on at least this many random inputs.
    const minCases = 10000;
    assert.ok(diff.cases.length >= minCases, `${path} holds ${diff.cases.length} cases, fewer than ${minCases}: run make sanitize-diff`);
    let passed = 0;
    for (const c of diff.cases) {
      const failure = check(c, diff.policy);
      if (failure !== "") {
        assert.fail(`first mismatch after ${passed} of ${diff.cases.length} cases passed, ${failure}`);
      }
      passed++;
    }
    console.log(`# sanitizer differential vectors: ${passed} of ${diff.cases.length} cases passed (${path})`);
  });
});

/** codePoints counts the code points of s. */
const codePoints = (s) => [...s].length;

describe(`${pkg.CONTRACT_NAME}: sanitizer on marker-dense text`, { skip: !pkg.SANITIZE_MARKERS?.includes("###") && "the contract has no ### marker" }, () => {
  test("thousands of markers taken off join into the right text, surrogate pairs across the join's chunks kept", () => {
    // Each ### ends a range of step 2's output: 5,000 ranges of 3 units
    // are joined through one buffer, in chunks of 8,192 units, one of
    // which ends inside a surrogate pair.
    const piece = "a###\u{1F600}";
    assert.equal(pkg.sanitizeMax(piece.repeat(5000), 100000), "a\u{1F600}".repeat(5000));
    assert.equal(pkg.sanitizeMax("<sy###stem>".repeat(3000), 100000), "");
  });
});

describe(`${pkg.CONTRACT_NAME}: sanitizer policy`, () => {
  test("the policy is exported and frozen", () => {
    assert.equal(typeof pkg.SANITIZE_MAX_LENGTH, "number");
    assert.equal(typeof pkg.SANITIZE_TRUNCATION_MARKER, "string");
    for (const t of [pkg.SANITIZE_MARKERS, pkg.SANITIZE_SECRETS, pkg.SANITIZED_FIELDS]) {
      assert.ok(Array.isArray(t) && Object.isFrozen(t));
    }
  });

  test("clean text comes back as the same string", () => {
    for (const s of ["", "plain", "status: 500, code=7, key=value, https://user@example.com/x", "Grüße 🚀\n\tok"]) {
      assert.equal(pkg.sanitize(s), s);
    }
  });

  test("the maximum, the truncation marker and the window", () => {
    const long = "ab🚀".repeat(pkg.SANITIZE_MAX_LENGTH);
    const out = pkg.sanitize(long);
    assert.equal(codePoints(out), pkg.SANITIZE_MAX_LENGTH);
    assert.ok(out.endsWith(pkg.SANITIZE_TRUNCATION_MARKER));
    assert.equal(pkg.sanitize(out), out);
    // A maximum below the marker plus one character is raised to that.
    const min = codePoints(pkg.SANITIZE_TRUNCATION_MARKER) + 1;
    for (const max of [0, -5, 1, Number.NaN]) {
      assert.equal(codePoints(pkg.sanitizeMax(long, max)), min, `sanitizeMax(…, ${max})`);
    }
    // Text beyond the window is never read, and counts as cut off.
    const huge = "x".repeat(4 * pkg.SANITIZE_MAX_LENGTH) + "\u0000".repeat(100);
    assert.ok(pkg.sanitize(huge).endsWith(pkg.SANITIZE_TRUNCATION_MARKER));
  });

  test("the markers are removed, nested ones included", () => {
    for (const m of pkg.SANITIZE_MARKERS) {
      const half = Math.floor(m.length / 2);
      const nested = m.slice(0, half) + m + m.slice(half);
      assert.equal(pkg.sanitize(`a ${m} b`), "a  b", `marker ${JSON.stringify(m)}`);
      assert.ok(!pkg.sanitize(`x ${nested} y`).toLowerCase().includes(m.toLowerCase()), `nested marker ${JSON.stringify(m)}`);
    }
  });

  test("the contract's own secrets are redacted", () => {
    const sample = { alnum: "a", upper_alnum: "A", lower_alnum: "a", hex: "f", base64url: "a", base64: "a", word: "a", token: "a" };
    for (const s of pkg.SANITIZE_SECRETS) {
      for (const p of s.prefixes) {
        const secret = p + sample[s.chars].repeat(s.minLength);
        assert.equal(pkg.sanitize(`key ${secret} end`), "key [REDACTED] end", `${s.name}: ${p}`);
        const short = p + sample[s.chars].repeat(s.minLength - 1);
        assert.ok(pkg.sanitize(`key ${short} end`).includes(short), `${s.name}: ${p} below the minimum length is kept`);
      }
    }
  });

  test("paths holding a credential name are redacted whole, home directories lose their user name", () => {
    const home = "open /home/alice/x.go: failed";
    if (!pkg.SANITIZE_PATHS) {
      assert.equal(pkg.SANITIZE_CREDENTIAL_NAMES.length, 0);
      assert.equal(pkg.sanitize(home), home);
      return;
    }
    assert.ok(DEFAULT_CREDENTIAL_NAMES.every((n, i) => pkg.SANITIZE_CREDENTIAL_NAMES[i] === n), "errgen's names come first");
    assert.equal(pkg.sanitize(home), "open /home/[REDACTED]/x.go: failed");
    for (const name of pkg.SANITIZE_CREDENTIAL_NAMES) {
      for (const sep of ["/", "\\"]) {
        const path = `~${sep}${name.replaceAll("/", sep)}`;
        assert.equal(pkg.sanitize(`open ${path}: failed`), "open [REDACTED]: failed", path);
        assert.equal(pkg.sanitize(`open ${path}x: failed`), `open ${path}x: failed`, `${path}x is another name`);
      }
    }
  });
});

/** DIRTY is text every policy changes: a zero-width space is always deleted. */
const DIRTY = "upstream said\u200b: password=hunter2 \u0007done";

describe(`${pkg.CONTRACT_NAME}: constructors sanitize`, () => {
  const sanitizesMessage = pkg.SANITIZED_FIELDS.includes("message");
  const kind = pkg.KNOWN_KINDS[0];

  test("newEnvelope sanitizes the message by default, and keeps it with { trusted: true }", () => {
    assert.notEqual(pkg.sanitize(DIRTY), DIRTY);
    assert.equal(newEnv(kind, DIRTY).message, sanitizesMessage ? pkg.sanitize(DIRTY) : DIRTY);
    assert.equal(newEnv(kind, DIRTY, { trusted: true }).message, DIRTY);
    assert.equal(newEnv(kind, DIRTY, { trusted: false }).message, sanitizesMessage ? pkg.sanitize(DIRTY) : DIRTY);
    assert.equal(newEnv("kind_nobody_defined", DIRTY).message, sanitizesMessage ? pkg.sanitize(DIRTY) : DIRTY);
  });

  test("every per-kind constructor sanitizes the message by default, and keeps it with { trusted: true }", () => {
    for (const [k, { exportName, fn, params }] of constructors()) {
      const args = params.slice(1).map((p) => (contextParams.includes(p) ? "x" : ["x"]));
      const env = fn(DIRTY, ...args);
      assert.equal(env.kind, k);
      assert.equal(env.message, sanitizesMessage ? pkg.sanitize(DIRTY) : DIRTY, exportName);
      assert.equal(fn(DIRTY, ...args, { trusted: true }).message, DIRTY, `${exportName} with { trusted: true }`);
    }
  });

  test("a per-kind constructor sanitizes the required fields the contract lists", () => {
    const byName = new Map(Object.values(pkg.FIELDS).map((f) => [f.member, f]));
    for (const [, { exportName, fn, params }] of constructors()) {
      for (const [i, p] of params.slice(1).entries()) {
        const spec = byName.get(p);
        if (spec === undefined) continue;
        const value = sampleValue(spec);
        if (value === undefined) continue;
        const args = params.slice(1).map((q, j) => (j === i ? value : sampleValue(byName.get(q)) ?? "x"));
        const sanitized = pkg.SANITIZED_FIELDS.includes(spec.name);
        assert.deepEqual(fn("m", ...args)[p], sanitized ? sanitizedSample(spec) : value, `${exportName}: ${p}`);
        assert.deepEqual(fn("m", ...args, { trusted: true })[p], value, `${exportName}: ${p} trusted`);
      }
    }
  });

  test("withFields sanitizes the fields the contract lists, strings in arrays and objects included", () => {
    const env = newEnv(kind, "m");
    for (const spec of Object.values(pkg.FIELDS)) {
      const value = sampleValue(spec);
      if (value === undefined) continue;
      const snapshot = JSON.stringify(value);
      const sanitized = pkg.SANITIZED_FIELDS.includes(spec.name);
      const got = pkg.withFields(env, { [spec.member]: value });
      assert.deepEqual(got[spec.member], sanitized ? sanitizedSample(spec) : value, `${spec.name} (sanitized: ${sanitized})`);
      assert.deepEqual(pkg.withFields(env, { [spec.member]: value }, { trusted: true })[spec.member], value, `${spec.name} trusted`);
      assert.equal(JSON.stringify(value), snapshot, `${spec.name}: the caller's value is not modified`);
      if (contextParams.includes(spec.member)) {
        // The layout requires it: it is set, and cannot be removed.
        assert.equal(env[spec.member], contextArgs[contextParams.indexOf(spec.member)], "the envelope given is not modified");
        assert.throws(() => pkg.withFields(got, { [spec.member]: undefined }), TypeError);
        continue;
      }
      assert.equal(env[spec.member], undefined, "the envelope given is not modified");
      assert.equal(pkg.withFields(got, { [spec.member]: undefined })[spec.member], undefined, "undefined removes a field");
      assert.ok(!(spec.member in pkg.withFields(got, { [spec.member]: undefined })));
    }
  });

  test("withFields sets the guidance, sanitized when the contract lists it", () => {
    const env = newEnv(kind, "m");
    const got = pkg.withFields(env, { guidance: DIRTY });
    assert.equal(got.recovery.guidance, pkg.SANITIZED_FIELDS.includes("guidance") ? pkg.sanitize(DIRTY) : DIRTY);
    assert.equal(pkg.withFields(env, { guidance: DIRTY }, { trusted: true }).recovery.guidance, DIRTY);
    assert.equal(env.recovery.guidance, pkg.FILLS_GUIDANCE ? pkg.lookup(kind).guidance : "", "the envelope given is not modified");
    assert.equal(pkg.withFields(env, { guidance: undefined }).recovery.guidance, env.recovery.guidance);
  });

  test("withFields rejects a name that is not a field", () => {
    const env = newEnv(kind, "m");
    assert.throws(() => pkg.withFields(env, { message: "x" }), TypeError);
    assert.throws(() => pkg.withFields(env, { field_nobody_defined: "x" }), TypeError);
    assert.throws(() => pkg.withFields(env, { guidance: 42 }), TypeError);
  });

  test("plain assignment never sanitizes", () => {
    const env = newEnv(kind, "m");
    env.message = DIRTY;
    assert.equal(env.message, DIRTY);
  });

  test("decoding sanitizes every text, listed in SANITIZED_FIELDS or not; { raw: true } reads the text as received", () => {
    // The same values, set trusted (what an upstream sends): every reader
    // returns each text sanitized, as a constructor sanitizes a listed one.
    let trusted = newEnv(kind, DIRTY, { trusted: true });
    let built = newEnv(kind, DIRTY);
    for (const spec of Object.values(pkg.FIELDS)) {
      const value = sampleValue(spec);
      if (value === undefined) continue;
      trusted = pkg.withFields(trusted, { [spec.member]: value }, { trusted: true });
      built = pkg.withFields(built, { [spec.member]: value });
    }
    const text = pkg.serializeEnvelope(trusted);
    const r = pkg.parseEnvelopeJson(text);
    assert.ok(r.ok, r.ok ? "" : `${r.error.path}: ${r.error.problem}`);
    assert.equal(r.envelope.message, pkg.sanitize(DIRTY));
    const raw = pkg.parseEnvelopeJson(text, { raw: true });
    assert.ok(raw.ok);
    assert.equal(raw.envelope.message, DIRTY);
    for (const spec of Object.values(pkg.FIELDS)) {
      if (sampleValue(spec) === undefined) continue;
      assert.deepEqual(r.envelope[spec.member], deepSanitize(trusted[spec.member]), spec.name);
      if (pkg.SANITIZED_FIELDS.includes(spec.name)) assert.deepEqual(built[spec.member], deepSanitize(trusted[spec.member]), spec.name);
      assert.deepEqual(raw.envelope[spec.member], trusted[spec.member], spec.name);
    }
  });
});

/** deepSanitize is v with every string in it sanitized (keys kept). */
function deepSanitize(v) {
  if (typeof v === "string") return pkg.sanitize(v);
  if (Array.isArray(v)) return v.map(deepSanitize);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deepSanitize(x)]));
  return v;
}

/**
 * sampleValue is a dirty value for a text field: a string, an array of
 * strings, or an object whose properties are dirty text (nested objects
 * and arrays included); undefined for a field that holds no text.
 */
function sampleValue(spec) {
  if (spec === undefined) return undefined;
  if (spec.type === "string") return DIRTY;
  if (spec.type === "array" && spec.items === "string") return [DIRTY, "clean"];
  if (spec.type === "object") {
    if (spec.properties !== undefined) {
      const out = {};
      for (const p of spec.properties) {
        const v = sampleValue(p);
        if (v !== undefined) out[p.member] = v;
      }
      return Object.keys(out).length > 0 ? out : undefined;
    }
    return { note: DIRTY, nested: { list: [DIRTY, 7, true, null] }, n: 1 };
  }
  return undefined;
}

/** sanitizedSample is sampleValue with every string sanitized. */
function sanitizedSample(spec) {
  const walk = (v) => {
    if (typeof v === "string") return pkg.sanitize(v);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === "object" && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(sampleValue(spec));
}

/**
 * countWork runs op with the string methods the sanitizer reads text with
 * wrapped so that each counts the code units it reads: one per charCodeAt,
 * the span searched by indexOf, includes, startsWith and regular
 * expressions, the length of each slice. It returns the total, a measure
 * of work that, unlike time, is the same on every run and every machine.
 */
function countWork(op) {
  const P = String.prototype;
  const R = RegExp.prototype;
  const saved = { charCodeAt: P.charCodeAt, codePointAt: P.codePointAt, indexOf: P.indexOf, includes: P.includes, startsWith: P.startsWith, slice: P.slice, exec: R.exec, test: R.test };
  const F = Function.prototype;
  const savedCall = F.call;
  let n = 0;
  const start = (from) => Math.max(0, Math.trunc(from) || 0);
  P.charCodeAt = function (i) {
    n++;
    return Reflect.apply(saved.charCodeAt, this, [i]);
  };
  // Reads through call (String.prototype.charCodeAt.call(s, i), or a
  // reference to the method taken before the count began).
  F.call = function (thisArg, ...args) {
    if (this === saved.charCodeAt) n++;
    return Reflect.apply(this, thisArg, args);
  };
  P.codePointAt = function (i) {
    n++;
    return Reflect.apply(saved.codePointAt, this, [i]);
  };
  P.indexOf = function (x, from) {
    const r = Reflect.apply(saved.indexOf, this, [x, from]);
    n += r < 0 ? this.length - start(from) : r + String(x).length - start(from);
    return r;
  };
  P.includes = function (x, from) {
    const r = Reflect.apply(saved.indexOf, this, [x, from]);
    n += r < 0 ? this.length - start(from) : r + String(x).length - start(from);
    return r >= 0;
  };
  P.startsWith = function (x, from) {
    n += String(x).length;
    return Reflect.apply(saved.startsWith, this, [x, from]);
  };
  P.slice = function (a, b) {
    const r = Reflect.apply(saved.slice, this, [a, b]);
    n += r.length;
    return r;
  };
  // A regular expression reads from lastIndex (a global or sticky one) or
  // from the start, up to the end of its match or, without one, the end.
  R.exec = function (s) {
    const from = this.global || this.sticky ? this.lastIndex : 0;
    const r = Reflect.apply(saved.exec, this, [s]);
    n += r === null ? String(s).length - from : r.index + r[0].length - from;
    return r;
  };
  R.test = function (s) {
    return Reflect.apply(R.exec, this, [s]) !== null;
  };
  try {
    op();
  } finally {
    F.call = savedCall;
    Object.assign(P, { charCodeAt: saved.charCodeAt, codePointAt: saved.codePointAt, indexOf: saved.indexOf, includes: saved.includes, startsWith: saved.startsWith, slice: saved.slice });
    Object.assign(R, { exec: saved.exec, test: saved.test });
  }
  return n;
}

describe(`${pkg.CONTRACT_NAME}: the sanitizer's work grows linearly`, { skip: !reference && "run through the reference contract's package only" }, () => {
  // The crafted inputs of the benchmarks (bench/bench.mjs's CRAFTED, the
  // slowest shapes found for the Go sanitizer and this one), each repeated
  // to 4 KiB and to 16 KiB and sanitized with a maximum of its length, so
  // all of it is read. A linear sanitizer does four times the work on four
  // times the text; the quadratic paths this port had (homes in one path,
  // a bearer without white space) did sixteen times. Counted, not timed.
  test("four times the text is at most five times the work, and at most 64 reads a unit", async () => {
    const { CRAFTED, crafted } = await import("../bench/bench.mjs");
    const failures = [];
    for (const [name, piece] of Object.entries(CRAFTED)) {
      const small = crafted(piece).slice(0, 4096);
      const large = crafted(piece);
      const [ws, wl] = [small, large].map((t) => countWork(() => pkg.sanitizeMax(t, t.length)));
      if (wl > 5 * ws || wl > 64 * large.length) failures.push(`${name} (${JSON.stringify(piece)}): ${ws} reads for ${small.length} units, ${wl} for ${large.length}`);
    }
    assert.deepEqual(failures, []);
  });

  // At a marker character the automaton takes the unit from the scan
  // that has just read it, instead of reading it again: the whole
  // sanitizer then reads each unit of ode=### and a:### 4.57 and 4.00
  // times (4.86 and 4.40 before).
  test("text dense with markers: the automaton reads no marker character twice", async () => {
    const { crafted } = await import("../bench/bench.mjs");
    const bounds = { "ode=###": 4.7, "a:###": 4.2 };
    for (const [piece, bound] of Object.entries(bounds)) {
      const t = crafted(piece);
      const r = countWork(() => pkg.sanitizeMax(t, t.length)) / t.length;
      assert.ok(r < bound, `${piece}: ${r.toFixed(2)} reads a unit`);
    }
  });

  // The text's units are read with String.prototype.charCodeAt.call(s, i),
  // never s.charCodeAt(i): once a site that reads a method from strings
  // has seen more than four kinds of string, V8 looks the method up in its
  // megamorphic cache at every read (sanitize.ts, before at). Here the
  // method is a getter for the time of the test, which sees the string it
  // is read from: the words the scans compare against (prefixes, keys) are
  // short literals and may be read either way; no text of more than 64
  // units is.
  test("the text's units are never read through a string's own method", async () => {
    const { CRAFTED, crafted } = await import("../bench/bench.mjs");
    const P = String.prototype;
    const saved = Object.getOwnPropertyDescriptor(P, "charCodeAt");
    const long = [];
    Object.defineProperty(P, "charCodeAt", {
      configurable: true,
      get() {
        if (typeof this === "string" && this.length > 64 && long.length < 5) long.push(this.length);
        return saved.value;
      },
    });
    try {
      for (const piece of [...Object.values(CRAFTED), "upstream \u202egithub\u202c said: token=abc <|im_start|> x ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"]) {
        const t = crafted(piece).slice(0, 1024);
        pkg.sanitizeMax(t, t.length);
        pkg.sanitizeMax(t, 100);
      }
    } finally {
      Object.defineProperty(P, "charCodeAt", saved);
    }
    assert.deepEqual(long, []);
  });
});

describe(`${pkg.CONTRACT_NAME}: benchmarks (smoke)`, { skip: !reference && "the benchmarks read the reference contract's envelope" }, () => {
  test("bench/bench.mjs runs every benchmark once", async () => {
    const bench = await import("../bench/bench.mjs");
    const names = bench.run(pkg, { smoke: true });
    assert.deepEqual(names, [
      "JSONParse",
      "ParseLookup",
      "ParseLookupZod",
      "ParseLookupAjv",
      "JSONParseClean4KiB",
      "JSONParseDirty4KiB",
      "SanitizeClean4KiB",
      "SanitizeDirty4KiB",
      "Sanitize10MiB",
      "LabbyClean4KiB",
      "LabbyDirty4KiB",
      "SanitizeNonASCII4KiB",
      "LabbyNonASCII4KiB",
      "SanitizeURLs4KiB",
      "LabbyURLs4KiB",
      ...Object.keys(bench.CRAFTED).map((k) => "SanitizeCrafted/" + k),
    ]);
    const { n, ns } = bench.measure(() => {}, 1e5);
    assert.ok(n >= 1 && ns >= 0);
    assert.match(bench.line("X", 10, 12340, 100), /^BenchmarkTS\/X\s+10\t\s*1234 ns\/op\t\s*81\.04 MB\/s$/);
  });
});
