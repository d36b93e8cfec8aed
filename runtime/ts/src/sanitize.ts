// The sanitizer. docs/sanitizer.md specifies it step by step; the Go and
// Python packages implement the same steps, and the shared vectors
// (conformance/sanitizer.vectors.json) hold all three to it. This file is
// the same for every contract: the policy (maximum length, truncation
// marker, markers, the contract's secrets, the sanitized fields) is data in
// contract.ts.
//
// The steps, in order:
//
//  1. Window and clean: read at most 4 × max code points; replace each lone
//     surrogate with U+FFFD; delete controls except tab, LF and CR, bidi
//     controls, zero-width and invisible formatting characters.
//  2. Markers: delete prompt-injection markers (ASCII case ignored) until
//     none remain.
//  3. Redact: replace secrets with [REDACTED] in one left-to-right scan.
//  4. Truncate: when the text is longer than max code points or the window
//     cut something off, keep max − len(marker) code points and append the
//     truncation marker.
//
// Every pattern is ASCII and matched by hand-written forward scans over
// UTF-16 code units, with no regular expression. After step 1 the text is
// well-formed, and a non-ASCII code point is one or two units of 0x80 or
// more, just as it is two to four bytes of 0x80 or more in Go: no ASCII
// pattern can match inside it, and every shape matches the span Go's byte
// scans match. Lengths that the specification counts in code points (the
// window, the maximum, the truncation) are counted in code points here.

import {
  FIELDS,
  SANITIZED_FIELDS,
  SANITIZE_CREDENTIAL_NAMES,
  SANITIZE_MARKERS,
  SANITIZE_MAX_LENGTH,
  SANITIZE_PATHS,
  SANITIZE_SECRETS,
  SANITIZE_TRUNCATION_MARKER,
} from "./contract.js";
import type { SecretChars } from "./spec.js";

/**
 * sanitize cleans upstream-controlled text with the contract's policy
 * (SANITIZE_MAX_LENGTH, SANITIZE_TRUNCATION_MARKER, SANITIZE_MARKERS and the
 * secret catalogue). It returns s itself when nothing changes, and
 * sanitize(sanitize(s)) === sanitize(s). It is defence in depth, not a
 * guarantee: docs/sanitizer.md lists what it does not catch.
 */
export function sanitize(s: string): string {
  return sanitizeMax(s, SANITIZE_MAX_LENGTH);
}

/**
 * sanitizeMax is sanitize with another maximum length in code points, the
 * truncation marker included. A maximum shorter than the marker plus one
 * character is raised to that (so is one that is not a number).
 */
export function sanitizeMax(s: string, maxLength: number): string {
  let max = Math.trunc(maxLength);
  if (!(max >= MARKER_LEN + 1)) {
    max = MARKER_LEN + 1;
  }
  if (max > MAX_MAX) {
    max = MAX_MAX;
  }
  let t = clean(s, 4 * max);
  const cut = cleanCut;
  const pairs = cleanPairs;
  t = removeMarkers(t, cleanMarkerFrom);
  t = redact(t);
  return truncate(t, max, cut, pairs);
}

/** MAX_MAX bounds the maximum as Go does, so the window stays a small integer. */
const MAX_MAX = 1 << 28;

const REDACTED = "[REDACTED]";

/** MARKER_LEN is the truncation marker's length in code points. */
const MARKER_LEN = [...SANITIZE_TRUNCATION_MARKER].length;

// ---------------------------------------------------------------------------
// Step 1: window and clean.

/** cleanCut is clean's second result: whether the window cut text off. */
let cleanCut = false;
/**
 * cleanPairs is clean's third result: whether the output holds a surrogate
 * pair. Without one, and steps 2 and 3 never add one, a length in units is
 * a length in code points.
 */
let cleanPairs = false;
/**
 * cleanMarkerFrom is clean's fourth result: where step 2 must start, the
 * first character a marker can end with (a marker can only be taken off
 * there). It is 0 when clean changed the text or the contract has a marker
 * ending in a non-ASCII character, and the length when there is none.
 */
let cleanMarkerFrom = 0;

/** removedBmp reports whether step 1 deletes the BMP character c (c >= 0x7F, not a surrogate). */
function removedBmp(c: number): boolean {
  if (c <= 0x9f) {
    return true; // DEL and the C1 controls
  }
  if (c < 0x200b) {
    return c === 0xad || c === 0x061c || c === 0x180e;
  }
  if (c <= 0x206f) {
    return c <= 0x200f || (c >= 0x202a && c <= 0x202e) || (c >= 0x2060 && c !== 0x2065);
  }
  return c === 0xfeff || (c >= 0xfff9 && c <= 0xfffb);
}

/**
 * clean is step 1. The output is built from slices of s between the
 * characters it deletes or replaces; text that needs no change is returned
 * as it is. Runs of printable ASCII, the common case, are passed over in a
 * tight loop: each is one code point of the window.
 */
function clean(s: string, window: number): string {
  const len = s.length;
  let out = ""; // the output before s[from:i]
  let from = 0;
  let changed = false;
  let budget = window; // code points the window still admits
  let i = 0;
  let markerFrom = otherMarkerEnds ? 0 : -1;
  cleanCut = false;
  cleanPairs = false;
  for (;;) {
    const stop = len - i < budget ? len : i + budget;
    let j = i;
    let c = 0;
    while (j < stop) {
      c = s.charCodeAt(j);
      if (c < 0x20 || c >= 0x7f) {
        break;
      }
      if (MARKER_END[c] !== 0 && markerFrom < 0) {
        markerFrom = j;
      }
      j++;
    }
    budget -= j - i;
    i = j;
    if (i === len) {
      break;
    }
    if (budget === 0) {
      cleanCut = true;
      break;
    }
    budget--;
    if (c < 0x7f) {
      if (c !== 0x09 && c !== 0x0a && c !== 0x0d) {
        out += s.slice(from, i);
        from = i + 1;
        changed = true;
      }
      i++;
    } else if (c < 0xd800 || c > 0xdfff) {
      if (removedBmp(c)) {
        out += s.slice(from, i);
        from = i + 1;
        changed = true;
      }
      i++;
    } else {
      const d = c <= 0xdbff && i + 1 < len ? s.charCodeAt(i + 1) : 0;
      if (d >= 0xdc00 && d <= 0xdfff) {
        // A surrogate pair: the tag characters U+E0000–U+E007F are deleted.
        if (c === 0xdb40 && d <= 0xdc7f) {
          out += s.slice(from, i);
          from = i + 2;
          changed = true;
        } else {
          cleanPairs = true;
        }
        i += 2;
      } else {
        // A lone surrogate, which UTF-8 cannot encode: U+FFFD, as Go reads
        // an encoded surrogate and JSON's lone "\ud800".
        out += s.slice(from, i) + "\uFFFD";
        from = i + 1;
        changed = true;
        i++;
      }
    }
  }
  if (!changed) {
    cleanMarkerFrom = markerFrom < 0 ? i : markerFrom;
    return i === len ? s : s.slice(0, i);
  }
  cleanMarkerFrom = 0;
  return out + s.slice(from, i);
}

// ---------------------------------------------------------------------------
// Step 2: markers.

/** asciiFold lower-cases an ASCII letter's code and leaves any other alone. */
function asciiFold(c: number): number {
  return c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
}

/**
 * The markers, lower-cased as code-unit arrays, grouped by their last unit:
 * only the markers ending with the current character can complete. Each
 * group keeps the contract's order, so the first marker that matches is the
 * one Go takes off. MARKER_END flags the ASCII characters (both cases) a
 * marker ends with, so the scan passes over the others in a tight loop.
 */
const markersByEndAscii: (number[][] | undefined)[] = new Array<number[][] | undefined>(128).fill(undefined);
const markersByEndOther = new Map<number, number[][]>();
const MARKER_END = new Uint8Array(128);
for (const m of SANITIZE_MARKERS) {
  const codes: number[] = [];
  for (let i = 0; i < m.length; i++) {
    codes.push(asciiFold(m.charCodeAt(i)));
  }
  const last = codes[codes.length - 1]!;
  const group = last < 128 ? markersByEndAscii[last] : markersByEndOther.get(last);
  if (group !== undefined) {
    group.push(codes);
  } else if (last < 128) {
    markersByEndAscii[last] = [codes];
    MARKER_END[last] = 1;
    if (last >= 0x61 && last <= 0x7a) {
      MARKER_END[last - 0x20] = 1;
    }
  } else {
    markersByEndOther.set(last, [codes]);
  }
}
const otherMarkerEnds = markersByEndOther.size > 0;

/** markersEndingWith returns the markers ending with the folded unit f, if any. */
function markersEndingWith(f: number): number[][] | undefined {
  return f < 128 ? markersByEndAscii[f] : markersByEndOther.get(f);
}

/**
 * removeMarkers is step 2: characters are appended to the output one by
 * one, and whenever the output ends with a marker, the marker is taken off
 * again. The output is kept as ranges of s: finished ones on a stack
 * (rangeStart, rangeEnd) and the current one, s[cur:i+1], which grows by
 * itself as the scan moves on. Only the characters a marker can end with
 * are looked at, from the first one (from, which step 1 found), and taking
 * a marker off shortens or pops ranges, so nothing is copied until the
 * slices are joined at the end.
 */
function removeMarkers(s: string, from: number): string {
  if (SANITIZE_MARKERS.length === 0) {
    return s;
  }
  const len = s.length;
  let cur = 0;
  let depth = 0; // finished ranges on the stack
  let changed = false;
  for (let i = from; i < len; i++) {
    const c = s.charCodeAt(i);
    if (c < 128 ? MARKER_END[c] === 0 : !otherMarkerEnds || !markersByEndOther.has(c)) {
      continue;
    }
    for (const m of markersEndingWith(asciiFold(c))!) {
      if (!outputEndsWith(s, cur, i + 1, depth, m)) {
        continue;
      }
      // Take m off: first from the current range, then from the stack.
      let take = m.length;
      const inCur = i + 1 - cur;
      if (take < inCur) {
        rangeStart[depth] = cur;
        rangeEnd[depth] = i + 1 - take;
        depth++;
      } else {
        take -= inCur;
        while (take > 0) {
          const top = rangeEnd[depth - 1]! - rangeStart[depth - 1]!;
          if (take < top) {
            rangeEnd[depth - 1] = rangeEnd[depth - 1]! - take;
            break;
          }
          take -= top;
          depth--;
        }
      }
      cur = i + 1;
      changed = true;
      break;
    }
  }
  if (!changed) {
    return s;
  }
  let out = "";
  for (let d = 0; d < depth; d++) {
    out += s.slice(rangeStart[d], rangeEnd[d]);
  }
  if (rangeStart.length > 4096) {
    rangeStart.length = rangeEnd.length = 0; // a huge input does not keep its stack
  }
  return out + s.slice(cur);
}

/** The finished ranges of removeMarkers' output; each marker taken off adds at most one. */
const rangeStart: number[] = [];
const rangeEnd: number[] = [];

/**
 * outputEndsWith reports whether the output (the stacked ranges, then
 * s[cur:end]) ends with the folded marker m, ignoring ASCII case.
 */
function outputEndsWith(s: string, cur: number, end: number, depth: number, m: number[]): boolean {
  let j = m.length - 1;
  // The current range.
  for (let k = end - 1; k >= cur && j >= 0; k--, j--) {
    if (asciiFold(s.charCodeAt(k)) !== m[j]) {
      return false;
    }
  }
  // The stacked ranges, from the top.
  for (let d = depth - 1; d >= 0 && j >= 0; d--) {
    for (let k = rangeEnd[d]! - 1; k >= rangeStart[d]! && j >= 0; k--, j--) {
      if (asciiFold(s.charCodeAt(k)) !== m[j]) {
        return false;
      }
    }
  }
  return j < 0;
}

// ---------------------------------------------------------------------------
// Step 3: redact.

// Character classes, one bit each, for the ASCII codes.
const ALNUM = 1 << 0;
const UPPER_ALNUM = 1 << 1;
const LOWER_ALNUM = 1 << 2;
const HEX = 1 << 3;
const BASE64URL = 1 << 4;
const BASE64 = 1 << 5;
const WORD = 1 << 6;
const TOKEN = 1 << 7;
/** KEY: the characters of a key name (letters, digits, _ . -). */
const KEY = 1 << 8;
/** VALUE: ASCII characters a value may hold: printable, not a space, quote, backslash or one of & , ; < > ( ) [ ] { }. */
const VALUE = 1 << 9;
/** USERINFO: ASCII characters of a URL's userinfo: printable, not a space, quote, backslash or one of / ? # @ [ ] < > { } `. */
const USERINFO = 1 << 10;
/** PATH: the ASCII characters of a path: letters, digits, - . _ ~ + @ % $ and the separators / and \. Every non-ASCII unit is one too (isPath). */
const PATH = 1 << 11;

const CHAR_CLASSES: { readonly [C in SecretChars]: number } = {
  alnum: ALNUM,
  upper_alnum: UPPER_ALNUM,
  lower_alnum: LOWER_ALNUM,
  hex: HEX,
  base64url: BASE64URL,
  base64: BASE64,
  word: WORD,
  token: TOKEN,
};

const CLASSES = new Uint16Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  const lower = c >= 0x61 && c <= 0x7a;
  const upper = c >= 0x41 && c <= 0x5a;
  const digit = c >= 0x30 && c <= 0x39;
  const alnum = lower || upper || digit;
  const printable = c > 0x20 && c < 0x7f;
  let t = 0;
  if (alnum) t |= ALNUM;
  if (upper || digit) t |= UPPER_ALNUM;
  if (lower || digit) t |= LOWER_ALNUM;
  if (digit || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46)) t |= HEX;
  if (alnum || ch === "_" || ch === "-") t |= BASE64URL;
  if (alnum || ch === "+" || ch === "/" || ch === "=") t |= BASE64;
  if (alnum || ch === "_") t |= WORD;
  if (alnum || "-._~+/=".includes(ch)) t |= TOKEN; // RFC 6750 b64token
  if (alnum || ch === "_" || ch === "." || ch === "-") t |= KEY;
  if (printable && !"\"'`\\&,;<>()[]{}".includes(ch)) t |= VALUE;
  if (printable && !"\"'`\\/?#@[]<>{}".includes(ch)) t |= USERINFO;
  if (alnum || "-._~+@%$/\\".includes(ch)) t |= PATH;
  CLASSES[c] = t;
}

/** A prefixed shape: the prefix, then at least min characters of the class. */
interface Prefixed {
  readonly prefix: string;
  readonly cls: number;
  readonly min: number;
}

/** BUILTIN_SECRETS is errgen's catalogue of token shapes, in the order they are tried. */
const BUILTIN_SECRETS: readonly { readonly prefixes: readonly string[]; readonly cls: number; readonly min: number }[] = [
  { prefixes: ["sk-"], cls: BASE64URL, min: 20 }, // OpenAI, Anthropic and similar API keys
  { prefixes: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"], cls: ALNUM, min: 36 }, // GitHub tokens
  { prefixes: ["github_pat_"], cls: WORD, min: 82 }, // GitHub fine-grained tokens
  { prefixes: ["glpat-"], cls: BASE64URL, min: 20 }, // GitLab tokens
  { prefixes: ["xoxa-", "xoxb-", "xoxe-", "xoxp-", "xoxr-", "xoxs-"], cls: BASE64URL, min: 10 }, // Slack tokens
  { prefixes: ["tskey-"], cls: BASE64URL, min: 10 }, // Tailscale keys
  { prefixes: ["AKIA", "ASIA"], cls: UPPER_ALNUM, min: 16 }, // AWS access key ids
  { prefixes: ["AIza"], cls: BASE64URL, min: 35 }, // Google API keys
  { prefixes: ["sk_live_", "sk_test_", "rk_live_", "rk_test_", "pk_live_", "pk_test_", "whsec_"], cls: ALNUM, min: 16 }, // Stripe keys
  { prefixes: ["npm_"], cls: ALNUM, min: 36 }, // npm tokens
];

/** WORD_PREFIXES start a token that is redacted whole, up to the next white space, when it begins the text or follows white space. */
const WORD_PREFIXES = ["sk-", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "xoxa-", "xoxb-", "xoxe-", "xoxp-", "xoxr-", "xoxs-", "tskey-", "eyJ"];

// What may start at a character: the flags of the other shapes, and the
// prefixed shapes and word prefixes starting with it (in catalogue order,
// so filtering by the first character keeps the order of step 3).
const START_PEM = 1; // -----BEGIN
const START_JWT = 2; // eyJ
const START_BEARER = 4; // bearer, any case
const START_URL = 8; // ://
const START_ASSIGN = 16; // : or =
const START_HOME = 32; // /home/, /Users/, or a drive's :\Users\
const START_NAME = 64; // a credential name or a key file extension

/** HOME_PREFIXES start a Unix home directory; the user name follows. */
const HOME_PREFIXES = ["/home/", "/Users/"];

/** KEY_EXTENSIONS end the name of a key or certificate store file. */
const KEY_EXTENSIONS = [".pem", ".key", ".p12", ".pfx", ".ppk", ".jks"];

/** NAMES holds the credential names (SANITIZE_CREDENTIAL_NAMES) by their first character. */
const NAMES: (string[] | undefined)[] = new Array<string[] | undefined>(128).fill(undefined);

const FLAGS = new Uint8Array(128);
const PREFIXED: (Prefixed[] | undefined)[] = new Array<Prefixed[] | undefined>(128).fill(undefined);
const WORDS: (string[] | undefined)[] = new Array<string[] | undefined>(128).fill(undefined);
/**
 * PAIRS[first << 7 | next] is 1 when a shape can start with first followed
 * by next (an assignment at : or = whatever follows), so most characters
 * are passed over without trying one.
 */
const PAIRS = new Uint8Array(128 * 128);

/**
 * THIRDS[first << 7 | next], for a pair only prefixes of three or more
 * characters start with, flags the characters that can come third: most
 * pairs inside ordinary words ("ts" in "its", "wh" in "while") stop there.
 */
const THIRDS: (Uint8Array | undefined)[] = new Array<Uint8Array | undefined>(128 * 128).fill(undefined);
/** anyThird marks the pairs a two-character prefix starts with: any third character will do. */
const anyThird = new Uint8Array(128 * 128);

/** follow records that a shape can start with prefix (its first three characters, any ASCII case for those given in both). */
function follow(prefix: string): void {
  const first = prefix.charCodeAt(0);
  const next = prefix.charCodeAt(1);
  if (first >= 128 || next >= 128) {
    return;
  }
  const pair = (first << 7) | next;
  PAIRS[pair] = 1;
  if (prefix.length < 3) {
    anyThird[pair] = 1;
    return;
  }
  const third = prefix.charCodeAt(2);
  if (third < 128) {
    (THIRDS[pair] ??= new Uint8Array(128))[third] = 1;
  } else {
    anyThird[pair] = 1;
  }
}

for (const list of [BUILTIN_SECRETS, SANITIZE_SECRETS.map((s) => ({ prefixes: s.prefixes, cls: CHAR_CLASSES[s.chars], min: s.minLength }))]) {
  for (const sec of list) {
    for (const prefix of sec.prefixes) {
      const first = prefix.charCodeAt(0);
      (PREFIXED[first] ??= []).push({ prefix, cls: sec.cls, min: sec.min });
      follow(prefix);
    }
  }
}
for (const w of WORD_PREFIXES) {
  const first = w.charCodeAt(0);
  (WORDS[first] ??= []).push(w);
  follow(w);
}
FLAGS[0x2d] = START_PEM; // -
FLAGS[0x65] = START_JWT; // e
FLAGS[0x62] = START_BEARER; // b
FLAGS[0x42] = START_BEARER; // B
FLAGS[0x3a] = START_URL | START_ASSIGN; // :
FLAGS[0x3d] = START_ASSIGN; // =
if (SANITIZE_PATHS) {
  FLAGS[0x3a]! |= START_HOME;
  for (const h of HOME_PREFIXES) {
    FLAGS[h.charCodeAt(0)]! |= START_HOME;
    follow(h);
  }
  for (const n of [...SANITIZE_CREDENTIAL_NAMES, ...KEY_EXTENSIONS]) {
    FLAGS[n.charCodeAt(0)]! |= START_NAME;
    follow(n);
  }
  for (const n of SANITIZE_CREDENTIAL_NAMES) {
    (NAMES[n.charCodeAt(0)] ??= []).push(n);
  }
}
for (const f of ["---", "eyJ", "bea", "beA", "bEa", "bEA", "Bea", "BeA", "BEa", "BEA"]) {
  follow(f);
}
for (let next = 0; next < 128; next++) {
  follow(":" + String.fromCharCode(next)); // an assignment, whatever follows
  follow("=" + String.fromCharCode(next));
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function isQuote(c: number): boolean {
  return c === 0x22 || c === 0x27 || c === 0x5c; // " ' \
}

/** inClass reports whether the unit c is an ASCII character of one of the classes. */
function inClass(c: number, cls: number): boolean {
  return c < 128 && (CLASSES[c]! & cls) !== 0;
}

/** run counts the characters of the class from s[i]. */
function run(s: string, i: number, cls: number): number {
  const len = s.length;
  let j = i;
  while (j < len && inClass(s.charCodeAt(j), cls)) {
    j++;
  }
  return j - i;
}

/**
 * hasAt reports whether s has prefix at i. Most candidates differ in their
 * second or third character, so comparing by hand, stopping at the first
 * difference, is cheaper than a call to startsWith.
 */
function hasAt(s: string, i: number, prefix: string): boolean {
  if (s.length - i < prefix.length) {
    return false;
  }
  for (let j = 1; j < prefix.length; j++) {
    if (s.charCodeAt(i + j) !== prefix.charCodeAt(j)) {
      return false;
    }
  }
  return s.charCodeAt(i) === prefix.charCodeAt(0);
}

/** startsWithFold reports whether s has the lower-case prefix at i, ignoring ASCII case. */
function startsWithFold(s: string, i: number, prefix: string): boolean {
  if (s.length - i < prefix.length) {
    return false;
  }
  for (let j = 0; j < prefix.length; j++) {
    if (asciiFold(s.charCodeAt(i + j)) !== prefix.charCodeAt(j)) {
      return false;
    }
  }
  return true;
}

// Step 3's state, module-level so a scan allocates nothing until it
// redacts (the scan is synchronous and calls nothing outside this file).
// The output is out (once anything was redacted) followed by
// rs[flushed:] up to the scan position.
let rs = "";
let out = "";
let dirty = false;
let flushed = 0;
// noJWT: no JWT starts before this position. A JWT attempt that fails after
// a run of base64url would fail at every eyJ inside that run too (the run
// ends at the same character), so they are not tried again: this keeps the
// scan linear without changing what it finds.
let noJWT = 0;
// The span match found.
let matchFrom = 0;
let matchTo = 0;
// The path scans remember their last answer, which holds for every later
// start inside the same path: a text of many home directories in one path
// (/home/./home/./home/.…) is read once, not once per home. pathFrom to
// pathRun is a run of path characters that ends at pathRun; no credential
// name is at any position from credFrom to credEnd but credAt (-1: none).
let pathFrom = 0;
let pathRun = 0;
let credFrom = 0;
let credEnd = 0;
let credAt = -1;

/**
 * back returns the k-th unit (k >= 1) before position p of the output, or
 * -1 before its start. Once something was redacted the output built so far
 * ends with [REDACTED]; no backward scan gets past its "]", but the general
 * case is kept for safety.
 */
function back(p: number, k: number): number {
  const pending = p - flushed;
  if (k <= pending) {
    return rs.charCodeAt(p - k);
  }
  if (!dirty) {
    return -1;
  }
  k -= pending;
  if (k <= REDACTED.length) {
    return REDACTED.charCodeAt(REDACTED.length - k);
  }
  return k <= out.length ? out.charCodeAt(out.length - k) : -1;
}

/** redact is step 3: at each position the shapes are tried in order; the first that matches is replaced and the scan goes on after it. */
function redact(s: string): string {
  rs = s;
  out = "";
  dirty = false;
  flushed = 0;
  noJWT = 0;
  pathFrom = pathRun = credFrom = credEnd = 0;
  credAt = -1;
  const len = s.length;
  let p = 0;
  let c = len > 0 ? s.charCodeAt(0) : 0; // s[p]
  while (p < len) {
    // Pass over the positions where no shape can start: one look at each
    // character pair, each character read once.
    for (;;) {
      if (p + 1 === len) {
        if (c >= 128 || (FLAGS[c]! & START_ASSIGN) === 0) {
          p = len;
        }
        break;
      }
      const next = s.charCodeAt(p + 1);
      if ((c | next) < 128 ? PAIRS[(c << 7) | next] !== 0 : c < 128 && (FLAGS[c]! & START_ASSIGN) !== 0) {
        break;
      }
      p++;
      c = next;
    }
    if (p === len) {
      break;
    }
    // A pair only longer prefixes start with must be followed by one of
    // their third characters (an assignment at : or = never stops here).
    const next = p + 1 < len ? s.charCodeAt(p + 1) : 128;
    if (next < 128 && anyThird[(c << 7) | next] === 0) {
      const third = p + 2 < len ? s.charCodeAt(p + 2) : 128;
      if (third >= 128 || THIRDS[(c << 7) | next]![third] === 0) {
        p++;
        c = next;
        continue;
      }
    }
    if (match(p)) {
      out += s.slice(flushed, matchFrom) + REDACTED;
      dirty = true;
      flushed = matchTo;
      p = matchTo;
    } else {
      p++;
    }
    c = p < len ? s.charCodeAt(p) : 0;
  }
  let result = s;
  if (dirty) {
    result = out + s.slice(flushed);
  }
  rs = "";
  out = "";
  return result;
}

/** match tries every shape at p and, when one matches, sets the span to redact. */
function match(p: number): boolean {
  const s = rs;
  const len = s.length;
  const c = s.charCodeAt(p);
  const flags = FLAGS[c]!;
  // A private key block, through its END line or to the end of the text.
  if ((flags & START_PEM) !== 0 && s.startsWith("-----BEGIN ", p)) {
    const j = p + 11;
    let k = j;
    for (; k < len && k - j < 64; k++) {
      const d = s.charCodeAt(k);
      if (!((d >= 0x41 && d <= 0x5a) || (d >= 0x30 && d <= 0x39) || d === 0x20)) {
        break;
      }
    }
    if (s.slice(j, k).includes("PRIVATE KEY") && s.startsWith("-----", k)) {
      let end = len;
      const e = s.indexOf("-----END ", k + 5);
      if (e >= 0) {
        const f = s.indexOf("-----", e + 9);
        if (f >= 0) {
          end = f + 5;
        }
      }
      matchFrom = p;
      matchTo = end;
      return true;
    }
  }
  // A token starting like a known secret, redacted up to white space.
  const words = WORDS[c];
  if (words !== undefined) {
    const prev = back(p, 1);
    if (prev === -1 || isSpace(prev)) {
      for (const w of words) {
        if (hasAt(s, p, w)) {
          let e = p + w.length;
          while (e < len && !isSpace(s.charCodeAt(e))) {
            e++;
          }
          matchFrom = p;
          matchTo = e;
          return true;
        }
      }
    }
  }
  // Prefixed token shapes, anywhere.
  const prefixed = PREFIXED[c];
  if (prefixed !== undefined) {
    for (const sec of prefixed) {
      if (hasAt(s, p, sec.prefix)) {
        const n = run(s, p + sec.prefix.length, sec.cls);
        if (n >= sec.min) {
          matchFrom = p;
          matchTo = p + sec.prefix.length + n;
          return true;
        }
      }
    }
  }
  // A JSON Web Token: eyJ… . … (. …).
  if ((flags & START_JWT) !== 0 && p >= noJWT && s.startsWith("eyJ", p)) {
    const n1 = run(s, p, BASE64URL);
    if (n1 >= 10 && p + n1 < len && s.charCodeAt(p + n1) === 0x2e) {
      let e = p + n1 + 1;
      const n2 = run(s, e, BASE64URL);
      if (n2 >= 4) {
        e += n2;
        if (e < len && s.charCodeAt(e) === 0x2e) {
          e++;
          e += run(s, e, BASE64URL);
        }
        matchFrom = p;
        matchTo = e;
        return true;
      }
    }
    noJWT = p + n1;
  }
  // Bearer <token>: the token.
  if ((flags & START_BEARER) !== 0 && startsWithFold(s, p, "bearer")) {
    const prev = back(p, 1);
    if (prev === -1 || !inClass(prev, ALNUM)) {
      let e = p + 6;
      while (e < len && (s.charCodeAt(e) === 0x20 || s.charCodeAt(e) === 0x09)) {
        e++;
      }
      // The token's run only after white space: read at every "bearer" of
      // a text like "=Bearer=Bearer…", the run to its end made the scan
      // quadratic.
      if (e > p + 6) {
        const n = run(s, e, TOKEN);
        if (n >= 8) {
          matchFrom = e;
          matchTo = e + n;
          return true;
        }
      }
    }
  }
  // key = value and key: value for a sensitive key. Tried before the URL
  // rule, which starts at the same ':' but redacts less: were the URL rule
  // first, a second pass could redact the "//" it skipped.
  if ((flags & START_ASSIGN) !== 0 && assignment(p)) {
    return true;
  }
  // URL userinfo holding a password: scheme://user:password@host.
  if ((flags & START_URL) !== 0 && s.startsWith("://", p)) {
    const j = p + 3;
    const n = run(s, j, USERINFO);
    if (n > 0 && j + n < len && s.charCodeAt(j + n) === 0x40 && s.slice(j, j + n).includes(":")) {
      matchFrom = j;
      matchTo = j + n;
      return true;
    }
  }
  // A home directory: its user name, or the whole path when it holds a
  // credential name.
  if ((flags & START_HOME) !== 0 && home(p)) {
    return true;
  }
  // A credential name: the whole path holding it.
  if ((flags & START_NAME) !== 0 && credentialAt(s, p, back(p, 1))) {
    matchFrom = pathStart(p);
    matchTo = pathEnd(s, p + 1);
    return true;
  }
  return false;
}

/** isPath reports whether the unit c belongs to a path: an ASCII path character or any non-ASCII unit. */
function isPath(c: number): boolean {
  return c >= 128 || (c >= 0 && (CLASSES[c]! & PATH) !== 0);
}

function isSeparator(c: number): boolean {
  return c === 0x2f || c === 0x5c; // / \
}

/**
 * home matches a home directory at p: /home/ or /Users/ at "/", or a drive
 * letter's :\Users\, :\\Users\\ or :/Users/ (Users in any ASCII case) at
 * ":". The path must start at a boundary. The user name is redacted, or the
 * whole path when it holds a credential name.
 */
function home(p: number): boolean {
  const s = rs;
  const len = s.length;
  let start = p;
  let seg = -1;
  if (s.charCodeAt(p) === 0x2f) {
    for (const h of HOME_PREFIXES) {
      if (hasAt(s, p, h)) {
        seg = p + h.length;
        break;
      }
    }
  } else {
    const n = driveUsers(s, p);
    const c = back(p, 1) | 0x20;
    if (n > 0 && c >= 0x61 && c <= 0x7a) {
      start = p - 1;
      seg = p + n;
    }
  }
  if (seg < 0 || !pathBoundary(start)) {
    return false;
  }
  let e = seg;
  while (e < len) {
    const c = s.charCodeAt(e);
    if (!isPath(c) || isSeparator(c)) {
      break;
    }
    e++;
  }
  if (e === seg) {
    return false;
  }
  const end = pathEnd(s, e);
  if (credential(seg, end)) {
    matchFrom = start;
    matchTo = end;
    return true;
  }
  matchFrom = seg;
  matchTo = e;
  return true;
}

/** credential reports whether a credential name is at a position from seg to end, in a path whose unit seg-1 is a separator. */
function credential(seg: number, end: number): boolean {
  if (end === credEnd && seg >= credFrom && (credAt < 0 || credAt >= seg)) {
    return credAt >= 0;
  }
  const s = rs;
  credFrom = seg;
  credEnd = end;
  credAt = -1;
  for (let i = seg; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c < 128 && (FLAGS[c]! & START_NAME) !== 0 && credentialAt(s, i, s.charCodeAt(i - 1))) {
      credAt = i;
      return true;
    }
  }
  return false;
}

/** driveUsers returns the length of :\Users\, :\\Users\\ or :/Users/ (Users in any ASCII case) at p, or 0. */
function driveUsers(s: string, p: number): number {
  const c = s.charCodeAt(p + 1);
  if (!isSeparator(c)) {
    return 0;
  }
  const sep = c === 0x5c && s.charCodeAt(p + 2) === 0x5c ? 2 : 1;
  const n = 1 + sep;
  if (!startsWithFold(s, p + n, "users")) {
    return 0;
  }
  for (let k = 0; k < sep; k++) {
    if (s.charCodeAt(p + n + 5 + k) !== c) {
      return 0;
    }
  }
  return n + 5 + sep;
}

/** pathBoundary reports whether a home directory's path may start at p: at the start of the output, after a character that is no path character, or after "://" or ":///" (file:///home/…). */
function pathBoundary(p: number): boolean {
  const c = back(p, 1);
  if (c === -1 || !isPath(c)) {
    return true;
  }
  if (c !== 0x2f || back(p, 2) !== 0x2f) {
    return false;
  }
  const e = back(p, 3);
  return e === 0x3a || (e === 0x2f && back(p, 4) === 0x3a);
}

/**
 * credentialAt reports whether a credential name is at p, given the
 * output's unit before it (-1 at the start): a listed name as a whole
 * segment, or a key file extension ending a segment that has more before it.
 */
function credentialAt(s: string, p: number, prev: number): boolean {
  if (prev === -1 || !isPath(prev) || isSeparator(prev)) {
    const names = NAMES[s.charCodeAt(p)];
    if (names !== undefined) {
      for (const n of names) {
        const e = nameAt(s, p, n);
        if (e >= 0 && nameEnds(s, e)) {
          return true;
        }
      }
    }
    return false;
  }
  if (s.charCodeAt(p) === 0x2e) {
    for (const x of KEY_EXTENSIONS) {
      if (hasAt(s, p, x) && nameEnds(s, p + x.length)) {
        return true;
      }
    }
  }
  return false;
}

/** nameAt matches a credential name at i, where a "/" in the name stands for one or more separators, and returns where it ends, or -1. */
function nameAt(s: string, i: number, name: string): number {
  const len = s.length;
  for (let k = 0; k < name.length; k++) {
    const want = name.charCodeAt(k);
    if (want === 0x2f) {
      if (i >= len || !isSeparator(s.charCodeAt(i))) {
        return -1;
      }
      while (i < len && isSeparator(s.charCodeAt(i))) {
        i++;
      }
      continue;
    }
    if (i >= len || s.charCodeAt(i) !== want) {
      return -1;
    }
    i++;
  }
  return i;
}

/**
 * nameEnds reports whether a name that ends at e ends its segment: after any
 * full stops comes a separator, the end, or an ASCII character that is
 * neither a path character nor "["; or white space, when an ASCII character
 * or the end follows it. So neither the truncation marker (a space and a
 * non-ASCII character) nor a [REDACTED] after a name that goes on ever
 * makes one.
 */
function nameEnds(s: string, e: number): boolean {
  const len = s.length;
  while (e < len && s.charCodeAt(e) === 0x2e) {
    e++;
  }
  if (e === len) {
    return true;
  }
  const c = s.charCodeAt(e);
  if (isSeparator(c)) {
    return true;
  }
  if (c === 0x5b) {
    return false; // [
  }
  if (isSpace(c)) {
    while (e < len && isSpace(s.charCodeAt(e))) {
      e++;
    }
    return e === len || s.charCodeAt(e) < 128;
  }
  return !isPath(c);
}

/** pathStart returns where the path holding p starts: after the output's last unit before p that is no path character (the "]" of an earlier redaction at the latest), at its first ASCII character. */
function pathStart(p: number): number {
  let q = p;
  for (let k = 1; ; k++) {
    const c = back(p, k);
    if (c === -1 || !isPath(c)) {
      break;
    }
    q = p - k;
  }
  while (rs.charCodeAt(q) >= 128) {
    q++;
  }
  return q;
}

/**
 * pathEnd returns the end of the path whose unit i-1 is no backslash: the
 * end of the path characters from i, less the backslashes that end them
 * (those of an escaped quote). The run is read once per path: a start
 * inside the last run read ends where it ends.
 */
function pathEnd(s: string, i: number): number {
  if (i < pathFrom || i > pathRun) {
    pathFrom = i;
    const len = s.length;
    while (i < len && isPath(s.charCodeAt(i))) {
      i++;
    }
    pathRun = i;
  }
  i = pathRun;
  while (s.charCodeAt(i - 1) === 0x5c) {
    i--;
  }
  return i;
}

/** KEY_BUF holds a key's last 64 characters, lower-cased, while assignment reads it backwards. */
const KEY_BUF = new Uint16Array(64);

/**
 * assignment matches a sensitive key's value around the separator at p:
 * key, up to two quotes or backslashes, spaces, the separator, spaces, up
 * to two quotes or backslashes, then the value.
 */
function assignment(p: number): boolean {
  const s = rs;
  const len = s.length;
  let k = 1;
  let c = back(p, k);
  while (c === 0x20 || c === 0x09) {
    k++;
    c = back(p, k);
  }
  let gap = k - 1;
  for (let q = 0; q < 2; q++) {
    if (isQuote(back(p, k))) {
      k++;
      gap++;
    }
  }
  // The key, lower-cased, into KEY_BUF's end: its last 64 characters
  // suffice for every test.
  let n = 0;
  for (c = back(p, k); c !== -1 && inClass(c, KEY); c = back(p, k)) {
    if (n < 64) {
      KEY_BUF[63 - n] = asciiFold(c);
    }
    n++;
    k++;
  }
  if (n === 0) {
    return false;
  }
  keyLen = n;
  if (!sensitiveKey()) {
    const before = back(p, k);
    const queryOnly =
      (keyIs("code") || keyIs("sig")) &&
      gap === 0 &&
      s.charCodeAt(p) === 0x3d &&
      (before === 0x3f || before === 0x26 || before === 0x23 || before === 0x3b); // ? & # ;
    if (!queryOnly) {
      return false;
    }
  }
  let v = p + 1;
  while (v < len && (s.charCodeAt(v) === 0x20 || s.charCodeAt(v) === 0x09)) {
    v++;
  }
  for (let q = 0; q < 2 && v < len && isQuote(s.charCodeAt(v)); q++) {
    v++;
  }
  let e = valueEnd(s, v);
  if (e === v) {
    return false;
  }
  if (keyEndsWith("authorization", false) && run(s, v, ALNUM | BASE64URL) === e - v) {
    // A scheme (Bearer, Basic, AWS4-HMAC-SHA256, …) and its credentials.
    let w = e;
    while (w < len && (s.charCodeAt(w) === 0x20 || s.charCodeAt(w) === 0x09)) {
      w++;
    }
    if (w > e) {
      const f = valueEnd(s, w);
      if (f > w) {
        e = f;
      }
    }
  }
  matchFrom = v;
  matchTo = e;
  return true;
}

/**
 * valueEnd returns the end of the value starting at v: it must start with an
 * ASCII value character and runs up to white space, a quote, a backslash or
 * one of & , ; < > ( ) [ ] { }; non-ASCII characters belong to it.
 */
function valueEnd(s: string, v: number): number {
  const len = s.length;
  if (v >= len || !inClass(s.charCodeAt(v), VALUE)) {
    return v;
  }
  let e = v + 1;
  for (; e < len; e++) {
    const c = s.charCodeAt(e);
    if (c < 128 && (CLASSES[c]! & VALUE) === 0) {
      break;
    }
  }
  return e;
}

/** KEY_SUFFIXES make a key sensitive when it ends with one of them (lower-cased): token, secret and password keys of every spelling. */
const KEY_SUFFIXES = ["token", "secret", "password", "passwd", "apikey", "api_key", "api-key", "signature", "credential", "credentials", "authorization", "cookie", "sessionid", "session_id", "accesskey", "privatekey", "secretkey"];

/** KEY_EXACT are sensitive keys that are not a suffix rule's. */
const KEY_EXACT = ["pwd", "pass", "auth", "session"];

/** KEY_HARMLESS are keys ending in _key or -key that name no secret. */
const KEY_HARMLESS = ["sort_key", "cache_key", "idempotency_key", "partition_key", "primary_key", "public_key", "foreign_key", "hash_key", "range_key", "row_key", "object_key", "routing_key", "shard_key", "dedup_key", "dedupe_key", "group_key", "lookup_key", "unique_key", "index_key", "map_key", "s3_key"];

/** keyLen is the length of the key in KEY_BUF (its last 64 characters are there). */
let keyLen = 0;

/** keyEndsWith reports whether the key ends with word; norm reads - in the key as _. */
function keyEndsWith(word: string, norm: boolean): boolean {
  const w = word.length;
  if (w > keyLen) {
    return false;
  }
  for (let j = 0; j < w; j++) {
    let c = KEY_BUF[64 - w + j]!;
    if (norm && c === 0x2d) {
      c = 0x5f;
    }
    if (c !== word.charCodeAt(j)) {
      return false;
    }
  }
  return true;
}

/** keyIs reports whether the key is word. */
function keyIs(word: string): boolean {
  return keyLen === word.length && keyEndsWith(word, false);
}

/** KEY_RULES holds, per last character, the exact keys and suffixes ending with it, so a key is held against a few names at most. */
const KEY_RULES: ({ exact: string[]; suffixes: string[] } | undefined)[] = new Array<{ exact: string[]; suffixes: string[] } | undefined>(128).fill(undefined);
for (const [list, exact] of [[KEY_EXACT, true], [KEY_SUFFIXES, false]] as const) {
  for (const k of list) {
    const rules = (KEY_RULES[k.charCodeAt(k.length - 1)] ??= { exact: [], suffixes: [] });
    (exact ? rules.exact : rules.suffixes).push(k);
  }
}

/** sensitiveKey reports whether the key in KEY_BUF names a secret. */
function sensitiveKey(): boolean {
  const last = KEY_BUF[63]!;
  const rules = KEY_RULES[last];
  if (rules !== undefined) {
    for (const k of rules.exact) {
      if (keyIs(k)) {
        return true;
      }
    }
    for (const suffix of rules.suffixes) {
      if (keyEndsWith(suffix, false)) {
        return true;
      }
    }
  }
  if (last !== 0x79) {
    return false; // only the _key rule is left, and the key does not end with y
  }
  if (keyEndsWith("_key", true)) {
    // Harmless only as the whole key or after _ or . (- reads as _).
    for (const h of KEY_HARMLESS) {
      if (keyEndsWith(h, true)) {
        if (keyLen === h.length) {
          return false;
        }
        const before = KEY_BUF[63 - h.length]!;
        if (before === 0x5f || before === 0x2d || before === 0x2e) {
          return false;
        }
      }
    }
    return true;
  }
  return false;
}

// ---------------------------------------------------------------------------
// Step 4: truncate.

/**
 * truncate is step 4. Text without surrogate pairs has one unit per code
 * point; other text is walked for at most max + 1 code points: where the
 * kept text ends, and whether there is more than max. After step 1 every
 * high surrogate starts a pair, so a pair is never split.
 */
function truncate(s: string, max: number, cut: boolean, pairs: boolean): string {
  const len = s.length;
  if (!cut && len <= max) {
    return s; // at most as many code points as units
  }
  const keep = max - MARKER_LEN;
  if (!pairs) {
    return detach(s.slice(0, keep) + SANITIZE_TRUNCATION_MARKER); // one unit per code point
  }
  let i = 0;
  let n = 0;
  let end = 0; // the end of the first keep code points
  while (i < len && n <= max) {
    if (n === keep) {
      end = i;
    }
    const c = s.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff ? 2 : 1;
    n++;
  }
  if (!cut && n <= max) {
    return s;
  }
  if (n <= keep) {
    end = i; // cut by the window, with fewer than keep code points left
  }
  return detach(s.slice(0, end) + SANITIZE_TRUNCATION_MARKER);
}

/**
 * detach makes the engine copy a truncated output into a string of its own.
 * A slice can share the input's memory (V8 makes slices views of their
 * parent), and a short output must not keep a 10 MiB input alive; reading a
 * character flattens the concatenation, which drops the view.
 */
function detach(s: string): string {
  s.charCodeAt(0);
  return s;
}

// ---------------------------------------------------------------------------
// The sanitized fields of an envelope.

/** SanitizeOptions are the trailing options of the constructors and withFields. */
export interface SanitizeOptions {
  /**
   * trusted: true keeps the text as given, for text the caller wrote itself
   * (never text that came from an upstream). The default sanitizes every
   * field named in SANITIZED_FIELDS.
   */
  readonly trusted?: boolean | undefined;
}

/** sanitizesMessage and sanitizesGuidance say whether the contract sanitizes the envelope's message and guidance. */
export const sanitizesMessage: boolean = SANITIZED_FIELDS.includes("message");
export const sanitizesGuidance: boolean = SANITIZED_FIELDS.includes("guidance");

/** sanitizedMembers holds the Envelope members of the sanitized context and kind-specific fields. */
export const sanitizedMembers: ReadonlySet<string> = new Set(
  Object.keys(FIELDS).filter((member) => SANITIZED_FIELDS.includes(FIELDS[member]!.name)),
);

/**
 * sanitizeValue returns value with every string in it sanitized: a string,
 * the strings of an array, and the string values of a plain object, nested
 * ones included (keys are kept). Arrays and objects are copied when a string
 * in them changes, never modified; anything else is returned as it is.
 */
export function sanitizeValue<T>(value: T): T {
  return sanitizeAny(value, 0) as T;
}

/** MAX_DEPTH stops the descent into a structure too deep (or cyclic) to be JSON an envelope can carry. */
const MAX_DEPTH = 64;

function sanitizeAny(value: unknown, depth: number): unknown {
  if (typeof value === "string") {
    return sanitize(value);
  }
  if (typeof value !== "object" || value === null || depth >= MAX_DEPTH) {
    return value;
  }
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      const w = sanitizeAny(v, depth + 1);
      if (w !== v && copy === undefined) {
        copy = value.slice();
      }
      if (copy !== undefined) {
        copy[i] = w;
      }
    }
    return copy ?? value;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    return value;
  }
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    const w = sanitizeAny(v, depth + 1);
    if (w !== v) {
      copy ??= { ...(value as Record<string, unknown>) };
      // defineProperty, not assignment: a key such as "__proto__" stays a key.
      Object.defineProperty(copy, key, { value: w, writable: true, enumerable: true, configurable: true });
    }
  }
  return copy ?? value;
}

/** sanitizeUnlessTrusted is sanitizeValue unless opts says the value is trusted. */
export function sanitizeUnlessTrusted<T>(value: T, opts: SanitizeOptions | undefined): T {
  return opts?.trusted === true ? value : sanitizeValue(value);
}
