// The property of docs/sanitizer.md ("What it does not do", the bound): a
// secret of any shape the default policy knows, whatever padding is put
// around and inside it (characters step 1 deletes, of any length, controls,
// markers, earlier secrets that shrink the text when redacted, so that the
// window's edge reaches the output, text that puts it at the truncation
// edge), never leaves a character of its token in the output: at most a
// part of its fixed start. Step 4 never cuts a [REDACTED] in half, and the
// output is a fixpoint. The generator is the one of the Go, Python and Rust
// tests (xorshift32, the same draws in the same order), so a seed gives the
// same cases in each. SANITIZE_EDGE_SEED sets the seed.
import assert from "node:assert/strict";
import { resolve } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { pkg, root } from "./env.mjs";

const repo = resolve(fileURLToPath(import.meta.url), "../../../..");
/** reference is true for the package of the repository's own contract (gen/ts), whose policy is errgen's default. */
const reference = resolve(root) === repo;

/** Rng is xorshift32. */
class Rng {
  constructor(seed) {
    this.x = seed >>> 0;
  }
  next() {
    this.x = (this.x ^ (this.x << 13)) >>> 0;
    this.x = (this.x ^ (this.x >>> 17)) >>> 0;
    this.x = (this.x ^ (this.x << 5)) >>> 0;
    return this.x;
  }
  intn(n) {
    return this.next() % n;
  }
}

const PREFIXES = ["sk-", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "xoxa-", "xoxb-", "xoxe-", "xoxp-", "xoxr-", "xoxs-", "tskey-", "AKIA", "ASIA", "AIza", "sk_live_", "sk_test_", "rk_live_", "rk_test_", "pk_live_", "pk_test_", "whsec_", "npm_"];
/** SHAPES: a fixed start (which may survive, cut short by the window) and what completes the shape. */
const SHAPES = [
  ...PREFIXES.map((p) => [p, ""]),
  ["eyJ", ""],
  ["Bearer ", ""],
  ["password=", ""],
  ["Authorization: Basic ", ""],
  ["https://user:", "@db.example.com"],
  ["-----BEGIN RSA PRIVATE KEY-----\n", "\n-----END RSA PRIVATE KEY-----"],
  ["/home/", "/project"],
];
const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const DELETABLE = ["\u200b", "\u00ad", "\u{E0041}", "\x01", "\u0085", "\ufeff", "\u202e", "\x7f"];
const WORDS = ["error ", "upstream: ", "timeout, ", "a\tb\n", "x", "=", "é", "日本 "];
const MARKERS = ["<system>", "[INST]", "###", "<|im_start|>", "<<"];

/** token is upper-case letters and digits with a digit second: no padding holds either, so two of its characters in a row in the output are a leak. */
function token(r, n) {
  const b = [];
  for (let i = 0; i < n; i++) b.push(UPPER[r.intn(UPPER.length)]);
  b[1] = UPPER[26 + r.intn(10)];
  return b.join("");
}

function lower(r, n) {
  let s = "";
  for (let i = 0; i < n; i++) s += String.fromCharCode(0x61 + r.intn(26));
  return s;
}

/** count counts code points. */
function count(s) {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff) n++;
  }
  return n;
}

function one(r) {
  let max = 64 + r.intn(240);
  if (r.intn(8) === 0) max = 2048;
  const [fixed, tail] = SHAPES[r.intn(SHAPES.length)];
  let tok = token(r, 82 + r.intn(16));
  if (fixed === "eyJ") {
    const a = token(r, 17);
    const b = token(r, 20);
    tok = `${a}.${b}.${token(r, 20)}`;
  }
  let secret = fixed + tok;
  if (r.intn(2) === 0) {
    const k = r.intn(secret.length);
    let ins = DELETABLE[r.intn(DELETABLE.length)].repeat(1 + r.intn(4));
    if (r.intn(2) === 0) ins = MARKERS[r.intn(MARKERS.length)];
    secret = secret.slice(0, k) + ins + secret.slice(k);
  }
  secret += tail;
  let pre = "";
  for (let n = r.intn(6); n > 0; n--) {
    switch (r.intn(4)) {
      case 0:
        pre += WORDS[r.intn(WORDS.length)];
        break;
      case 1:
        pre += MARKERS[r.intn(MARKERS.length)];
        break;
      default: {
        const m = 40 + r.intn(80);
        pre += ` sk-${lower(r, m)} `;
      }
    }
  }
  let joiner = " ";
  if (fixed.length <= 11 && !["Bearer ", "password=", "/home/", "https://user:"].includes(fixed)) {
    joiner = ["", " ", "x", ":", "\t"][r.intn(5)];
  }
  let have = count(pre);
  if (r.intn(3) < 2) {
    // At the window's edge.
    const target = 4 * max - r.intn(count(secret) + 8);
    if (r.intn(3) === 0) {
      while (have + 120 < target - count(joiner) && r.intn(40) !== 0) {
        pre += `sk-${lower(r, 116)} `;
        have += 120;
      }
    }
    const unit = DELETABLE[r.intn(DELETABLE.length)];
    const fill = target - have - count(joiner);
    if (fill > 0) pre += unit.repeat(fill);
  } else {
    // At the truncation edge.
    const target = max - 14 - r.intn(count(secret) + 4);
    if (target > have) pre += "w".repeat(target - have);
  }
  let after = "";
  if (r.intn(2) === 0) after = ` and more text after it ${"z".repeat(r.intn(4 * max))}`;
  return { input: pre + joiner + secret + after, max, fixed, tok };
}

describe(`${pkg.CONTRACT_NAME}: no secret at the window's or the truncation's edge`, { skip: !reference && "run through the reference contract's package only" }, () => {
  test("seeded property: no token character survives, no [REDACTED] is cut, every output is a fixpoint", () => {
    const seed = Number(process.env.SANITIZE_EDGE_SEED ?? 20261207) >>> 0;
    const cases = 400;
    const r = new Rng(seed | 1);
    let leaks = 0;
    let cuts = 0;
    const failures = [];
    for (let i = 0; i < cases; i++) {
      const { input, max, fixed, tok } = one(r);
      const out = pkg.sanitizeMax(input, max);
      if (out.includes(tok.slice(0, 2)) || out.includes(fixed + tok[0])) {
        leaks++;
        failures.push(`case ${i} (max ${max}): a token of ${JSON.stringify(fixed)} survives: ${JSON.stringify(out.slice(-300))}`);
      }
      const marker = " …[truncated]";
      if (out.endsWith(marker)) {
        const kept = out.slice(0, -marker.length);
        for (let j = 1; j < 10; j++) {
          if (kept.endsWith("[REDACTED]".slice(0, j))) {
            cuts++;
            failures.push(`case ${i} (max ${max}): truncation cut a marker: ${JSON.stringify(out.slice(-60))}`);
          }
        }
      }
      const again = pkg.sanitizeMax(out, max);
      if (again !== out) failures.push(`case ${i} (max ${max}): not a fixpoint: ${JSON.stringify(out)} ${JSON.stringify(again)}`);
    }
    console.log(`sanitizer edge property: seed ${seed}, ${cases} cases, ${leaks} leaks, ${cuts} markers cut`);
    assert.deepEqual(failures, []);
  });
});
