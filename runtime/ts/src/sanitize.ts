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
//     cut something off, keep max − len(marker) code points (fewer when
//     the cut falls inside a [REDACTED]: before it) and append the
//     truncation marker.
//
// When the window cut the text, its end counts as text that goes on: step
// 2 also deletes the marker starts there, and a secret that runs to it is
// redacted however short (edgeMarkers, edgeSecret), so no token character
// reaches the output (docs/sanitizer.md, the bound).
//
// Every pattern is ASCII and matched by hand-written forward scans over
// UTF-16 code units. After step 1 the text is well-formed, and a non-ASCII
// code point is one or two units of 0x80 or more, just as it is two to four
// bytes of 0x80 or more in Go: no ASCII pattern can match inside it, and
// every shape matches the span Go's byte scans match. Lengths that the
// specification counts in code points (the window, the maximum, the
// truncation) are counted in code points here.
//
// How it runs, for speed (the results are those of the steps in order):
// step 3 runs first, on the input, and also looks at what steps 1 and 2
// would change (redact with guard); most text needs no change by them, and
// is then read once, two units at a time. Where step 1 or 2 would change
// something, they run from there, in one pass (cleanAndUnmark), and step
// 3 again on their output. Regular expressions serve only as searches for
// one character class, to pass over runs of text in native code; no
// shape is matched with one, and nothing backtracks. Every read that may
// fall outside the text is guarded (at): a NaN from charCodeAt makes V8
// compile the function again, slower.

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
  const window = 4 * max;
  // Most text needs no change by steps 1 and 2, and often none at all:
  // step 3 runs first, on the input, and stops where step 1 or 2 would
  // change something (see redact). Then steps 1 and 2 run from there and
  // step 3 again on their output. Text longer than the window (in units,
  // so also in code points) goes to the steps at once.
  let from = 0;
  let pairsBefore = false;
  if (s.length <= window) {
    const t = redact(s, true, max, false);
    if (stoppedAt < 0) {
      return truncate(t, max, redactCut, guardPairs);
    }
    from = stoppedAt;
    pairsBefore = guardPairs;
  }
  let t = cleanAndUnmark(s, window, from, pairsBefore);
  const cut = cleanCut;
  const pairs = cleanPairs;
  if (cut) {
    // The window cut the text: what lies past it could have completed a
    // marker or a secret that reaches its edge (edgeMarkers, edgeSecret).
    t = edgeMarkers(t);
  }
  t = redact(t, false, max, pairs);
  if (cut && !redactCut) {
    // When step 3 stopped early (redactCut), its output before the stop is
    // longer than step 4 keeps, and the end edgeSecret would redact, kept
    // text after the last redaction, starts after it.
    t = edgeSecret(t);
  }
  return truncate(t, max, cut || redactCut, pairs);
}

/**
 * edgeMarkers is step 2's end when the window cut the text: the text past
 * the window could complete a marker that starts before its edge, and then
 * another, so the longest end of t made of proper starts of markers (ASCII
 * case ignored), one after another, is deleted. A secret glued to a marker
 * cut in half (ghp_…<sys) thus reaches the edge. The starts are read
 * backwards from each place the end can be deleted from, down EDGE_TRIE.
 */
function edgeMarkers(t: string): string {
  let lo = t.length; // the earliest position the end can be deleted from
  let reach: Uint8Array | undefined;
  for (let b = t.length; b >= lo; b--) {
    if (b < t.length && reach![b] === 0) {
      continue;
    }
    let n = 0;
    for (let i = b - 1; i >= 0; i--) {
      n = EDGE_TRIE.get(n * 0x10000 + asciiFold(String.prototype.charCodeAt.call(t, i))) ?? 0;
      if (n === 0) {
        break;
      }
      if (EDGE_STARTS[n] === 1) {
        reach ??= new Uint8Array(t.length + 1);
        reach[i] = 1;
        lo = Math.min(lo, i);
      }
    }
  }
  return t.slice(0, lo);
}

/**
 * EDGE_TRIE holds the proper starts of the markers, ASCII lower-cased,
 * reversed: node 0 is the root, the node after n by the unit c is
 * EDGE_TRIE.get(n * 0x10000 + c), and EDGE_STARTS[n] tells that the units
 * read to reach n, backwards, are one of the starts.
 */
const EDGE_TRIE = new Map<number, number>();
const EDGE_STARTS: number[] = [0];
for (const m of SANITIZE_MARKERS) {
  for (let j = 1; j < m.length; j++) {
    let n = 0;
    for (let i = j - 1; i >= 0; i--) {
      const key = n * 0x10000 + asciiFold(m.charCodeAt(i));
      let next = EDGE_TRIE.get(key);
      if (next === undefined) {
        next = EDGE_STARTS.length;
        EDGE_STARTS.push(0);
        EDGE_TRIE.set(key, next);
      }
      n = next;
    }
    EDGE_STARTS[n] = 1;
  }
}

/**
 * edgeSecret is step 3's end when the window cut the text: a secret that
 * runs to the edge may go on past it, below its shape's minimum length, so
 * the end of o is redacted from the earliest start of one of these that
 * runs to the end: a prefixed shape's prefix, then characters of its class
 * (none or more); eyJ, then base64url characters and dots; the token
 * characters after "bearer" (any ASCII case, not after a letter or digit)
 * and spaces or tabs; the userinfo after "://" when it holds a ":".
 */
function edgeSecret(o: string): string {
  let from = o.length;
  const runs = edgeRuns(o);
  for (const sec of EDGE_SECRETS) {
    const r = runs[31 - Math.clz32(sec.cls)]!;
    for (const p of sec.prefixes) {
      const i = o.indexOf(p, Math.max(0, r - p.length));
      if (i >= 0) {
        from = Math.min(from, i);
      }
    }
  }
  const e = o.indexOf("eyJ", runs[15]!);
  if (e >= 0) {
    from = Math.min(from, e);
  }
  let r = runs[31 - Math.clz32(TOKEN)]!;
  if (r < o.length) {
    let w = r;
    while (w > 0 && (String.prototype.charCodeAt.call(o, w - 1) === 0x20 || String.prototype.charCodeAt.call(o, w - 1) === 0x09)) {
      w--;
    }
    if (w < r && w >= 6 && startsWithFold(o, w - 6, "bearer") && (w === 6 || !inClass(String.prototype.charCodeAt.call(o, w - 7), ALNUM))) {
      from = Math.min(from, r);
    }
  }
  r = runs[31 - Math.clz32(USERINFO)]!;
  if (r < o.length && r >= 3 && o.startsWith("://", r - 3) && o.indexOf(":", r) >= 0) {
    from = Math.min(from, r);
  }
  return from === o.length ? o : o.slice(0, from) + REDACTED;
}

/**
 * edgeRuns returns where the run of each class's characters at the end of
 * o starts, by the class's bit (bit 15: base64url characters and dots), for
 * the classes edgeSecret reads, in one backward pass.
 */
function edgeRuns(o: string): Int32Array {
  const starts = new Int32Array(16);
  let mask = EDGE_MASK;
  let j = o.length;
  for (; j > 0 && mask !== 0; j--) {
    const c = String.prototype.charCodeAt.call(o, j - 1);
    let b = c < 128 ? CLASSES[c]! : 0;
    if (c === 0x2e || (b & BASE64URL) !== 0) {
      b |= 1 << 15;
    }
    for (let gone = mask & ~b; gone !== 0; gone &= gone - 1) {
      starts[31 - Math.clz32(gone & -gone)] = j;
    }
    mask &= b;
  }
  for (; mask !== 0; mask &= mask - 1) {
    starts[31 - Math.clz32(mask & -mask)] = j;
  }
  return starts;
}

/** cutBefore returns where step 4 cuts s to keep what lies before k: k, or the start of a [REDACTED] that k would cut in half. */
function cutBefore(s: string, k: number): number {
  if (k >= s.length) {
    return k;
  }
  const i = s.indexOf(REDACTED, Math.max(0, k - REDACTED.length + 1));
  return i >= 0 && i < k ? i : k;
}

/** MAX_MAX bounds the maximum as Go does, so the window stays a small integer. */
const MAX_MAX = 1 << 28;

const REDACTED = "[REDACTED]";

/** MARKER_LEN is the truncation marker's length in code points. */
const MARKER_LEN = [...SANITIZE_TRUNCATION_MARKER].length;

// Every unit of the text is read with String.prototype.charCodeAt.call(s,
// i), never s.charCodeAt(i). A method read from a string goes through the
// engine's property cache for the string's representation (a flat string
// of one or two bytes a unit, a concatenation, a slice, an internalized
// string, …), and once a read site has seen more than four of them (a
// process that sanitizes text of every kind does) V8 looks the method up
// in its megamorphic cache at every read: 40 % of the crafted inputs' time
// after the dirty text had run. String.prototype.charCodeAt is a constant
// to the compiler, which then reads the unit inline whatever the call
// site saw (a module constant holding it, called the same way, was
// compiled to a generic call in some processes). For the same reason the
// functions that read the text's length begin with s = "" + s, which V8
// compiles to a check that s is a string (it always is), after which
// s.length is read directly.

/**
 * at returns the unit of s at i, or -1 outside it. Every read that may
 * fall outside the text goes through it: charCodeAt past the end gives NaN,
 * and a function that has seen NaN once is compiled again, slower, for
 * floating-point numbers.
 */
function at(s: string, i: number): number {
  s = "" + s; // a string to the compiler (see at)
  return i >= 0 && i < s.length ? String.prototype.charCodeAt.call(s, i) : -1;
}

// ---------------------------------------------------------------------------
// Steps 1 and 2: window, clean and markers, in one pass.

/** cleanCut is cleanAndUnmark's second result: whether the window cut text off. */
let cleanCut = false;
/**
 * cleanPairs is cleanAndUnmark's third result: whether the output holds a
 * surrogate pair. Without one, and step 3 never adds one, a length in units
 * is a length in code points.
 */
let cleanPairs = false;

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
 * UNITS holds what each UTF-16 unit can do, so the scans look a unit up
 * once instead of testing ranges: STEP1, step 1 must look at it (a control
 * other than tab, LF and CR, a deleted character, a surrogate); MARKER_LAST,
 * a marker ends with it (any ASCII case); TRIGGER, a shape of step 3 can
 * start at it alone (: and =).
 */
const UNITS = new Uint8Array(0x10000);
const STEP1 = 1;
const MARKER_LAST = 2;
const TRIGGER = 4;
for (let c = 0; c < 0x10000; c++) {
  if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || (c >= 0xd800 && c <= 0xdfff) || (c >= 0x7f && removedBmp(c))) {
    UNITS[c] = STEP1;
  }
}
UNITS[0x3a] = TRIGGER; // :
UNITS[0x3d] = TRIGGER; // =

/** asciiFold lower-cases an ASCII letter's code and leaves any other alone. */
function asciiFold(c: number): number {
  return c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
}

/**
 * The marker trie holds the markers, lower-cased, read from their end: a
 * path from the root spells a marker backwards, so the markers the output
 * ends with are found by reading the output backwards, each unit once,
 * however many markers share an ending (ten of the defaults end with
 * "|>"). Its nodes are numbers (the root is 0): TRIE_ASCII[node << 7 | c]
 * is the child for the ASCII unit c (0: none), trieOther the children for
 * other units. Where two markers end, the first listed is taken off, as
 * Go does: TRIE_TAKE[node] is the length of the first listed of the
 * markers on the path from the root to node (0: none), so a walk only
 * remembers the node it reached. UNITS flags the units (both ASCII cases) a
 * marker ends with (MARKER_LAST), so the scans pass over the others.
 */
const trieLen: number[] = [0];
const trieOrder: number[] = [-1];
const trieParent: number[] = [0];
const trieAscii: number[] = new Array<number>(128).fill(0);
const trieOther = new Map<number, number>();
SANITIZE_MARKERS.forEach((m, order) => {
  let node = 0;
  for (let k = m.length - 1; k >= 0; k--) {
    const f = asciiFold(m.charCodeAt(k));
    let child = f < 128 ? trieAscii[(node << 7) | f]! : (trieOther.get(node * 0x10000 + f) ?? 0);
    if (child === 0) {
      child = trieLen.length;
      trieLen.push(0);
      trieOrder.push(-1);
      trieParent.push(node);
      for (let c = 0; c < 128; c++) {
        trieAscii.push(0);
      }
      if (f < 128) {
        trieAscii[(node << 7) | f] = child;
      } else {
        trieOther.set(node * 0x10000 + f, child);
      }
    }
    node = child;
  }
  if (trieOrder[node]! < 0) {
    trieOrder[node] = order;
    trieLen[node] = m.length;
  }
  const last = m.charCodeAt(m.length - 1);
  UNITS[last]! |= MARKER_LAST;
  UNITS[asciiFold(last)]! |= MARKER_LAST;
  if (last >= 0x61 && last <= 0x7a) {
    UNITS[last - 0x20]! |= MARKER_LAST;
  }
});
const TRIE_ASCII = Int32Array.from(trieAscii);
const TRIE_TAKE = new Int32Array(trieLen.length);
{
  // A node's parent comes before it: the first listed marker of the
  // parent's path, or the node's own when that is listed before it.
  const best = trieOrder.slice();
  for (let node = 1; node < trieLen.length; node++) {
    const parent = trieParent[node]!;
    TRIE_TAKE[node] = trieLen[node]!;
    if (best[parent]! >= 0 && (best[node]! < 0 || best[parent]! < best[node]!)) {
      best[node] = best[parent]!;
      TRIE_TAKE[node] = TRIE_TAKE[parent]!;
    }
  }
}
const trieHasOther = trieOther.size > 0;

/** trieChild returns the node a backward walk reaches from node over the unit c, or 0 when it ends. */
function trieChild(node: number, c: number): number {
  const f = c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
  return f < 128 ? TRIE_ASCII[(node << 7) | f]! : trieHasOther ? (trieOther.get(node * 0x10000 + f) ?? 0) : 0;
}

/**
 * When every marker is ASCII (the defaults are), step 2 also runs a forward
 * automaton (Aho–Corasick, as a table) over the output, so a run of marker
 * characters (`###`, `|>|>`) reads each unit once instead of walking back
 * down the trie at each one. FWD_CLASS[c] numbers the ASCII units markers
 * hold (both cases of a letter alike; 0: none). A state is a start of a
 * marker (lower-cased); FWD_GOTO[state * FWD_N + class] is the state after
 * one more unit, and FWD_TAKE[state] the length of the first listed marker
 * the state's text ends with (0: none), so it is what Go takes off. A state
 * is found where the scan has none by reading the output backwards down
 * BACK_TRIE, which spells every substring of a marker backwards:
 * BACK_STATE[node] is the state of the longest of the texts on the path
 * from the root that is a start of a marker.
 */
const FWD = SANITIZE_MARKERS.every((m) => !/[^\x00-\x7f]/.test(m));
const FWD_CLASS = new Uint8Array(128);
let FWD_N = 1;
const FWD_GOTO_L: number[] = [];
const FWD_TAKE_L: number[] = [0];
const BACK_L: number[] = [];
const BACK_STATE_L: number[] = [0];
if (FWD) {
  for (const m of SANITIZE_MARKERS) {
    for (let k = 0; k < m.length; k++) {
      const f = asciiFold(m.charCodeAt(k));
      if (FWD_CLASS[f] === 0) {
        FWD_CLASS[f] = FWD_N++;
        if (f >= 0x61 && f <= 0x7a) {
          FWD_CLASS[f - 0x20] = FWD_CLASS[f]!;
        }
      }
    }
  }
  // The forward trie of the markers: its nodes are the states.
  const child: number[] = new Array<number>(FWD_N).fill(0);
  const text: string[] = [""];
  const order: number[] = [-1];
  SANITIZE_MARKERS.forEach((m, o) => {
    let st = 0;
    for (let k = 0; k < m.length; k++) {
      const f = asciiFold(m.charCodeAt(k));
      let next = child[st * FWD_N + FWD_CLASS[f]!]!;
      if (next === 0) {
        next = text.length;
        text.push(text[st]! + String.fromCharCode(f));
        order.push(-1);
        for (let a = 0; a < FWD_N; a++) {
          child.push(0);
        }
        child[st * FWD_N + FWD_CLASS[f]!] = next;
      }
      st = next;
    }
    if (order[st]! < 0) {
      order[st] = o;
    }
  });
  // Breadth first: a state's failure (the longest proper end of its text
  // that is a state) comes before it.
  const fail = new Array<number>(text.length).fill(0);
  const best = order.slice();
  for (let k = 0; k < text.length * FWD_N; k++) {
    FWD_GOTO_L.push(0);
  }
  for (let k = 1; k < text.length; k++) {
    FWD_TAKE_L.push(0);
  }
  const queue = [0];
  for (let q = 0; q < queue.length; q++) {
    const st = queue[q]!;
    for (let a = 1; a < FWD_N; a++) {
      const next = child[st * FWD_N + a]!;
      if (next !== 0) {
        fail[next] = st === 0 ? 0 : FWD_GOTO_L[fail[st]! * FWD_N + a]!;
        const f = best[fail[next]!]!;
        if (f >= 0 && (best[next]! < 0 || f < best[next]!)) {
          best[next] = f;
        }
        FWD_TAKE_L[next] = best[next]! >= 0 ? SANITIZE_MARKERS[best[next]!]!.length : 0;
        FWD_GOTO_L[st * FWD_N + a] = next;
        queue.push(next);
      } else {
        FWD_GOTO_L[st * FWD_N + a] = st === 0 ? 0 : FWD_GOTO_L[fail[st]! * FWD_N + a]!;
      }
    }
  }
  // BACK_TRIE: every state's text, read backwards, and each of its ends.
  for (let a = 0; a < FWD_N; a++) {
    BACK_L.push(0);
  }
  const own: number[] = [0];
  const parent: number[] = [0];
  for (let st = 1; st < text.length; st++) {
    const t = text[st]!;
    let node = 0;
    for (let k = t.length - 1; k >= 0; k--) {
      const a = FWD_CLASS[String.prototype.charCodeAt.call(t, k)]!;
      let next = BACK_L[node * FWD_N + a]!;
      if (next === 0) {
        next = own.length;
        own.push(-1);
        parent.push(node);
        for (let b = 0; b < FWD_N; b++) {
          BACK_L.push(0);
        }
        BACK_L[node * FWD_N + a] = next;
      }
      node = next;
    }
    own[node] = st;
  }
  for (let node = 1; node < own.length; node++) {
    BACK_STATE_L.push(own[node]! >= 0 ? own[node]! : BACK_STATE_L[parent[node]!]!);
  }
}
const FWD_GOTO = Int32Array.from(FWD_GOTO_L);
const FWD_TAKE = Int32Array.from(FWD_TAKE_L);
const BACK_TRIE = Int32Array.from(BACK_L);
const BACK_STATE = Int32Array.from(BACK_STATE_L);

/**
 * fwdStates[k] is the automaton's state after the output unit s[k] where
 * fwdStamp[k] is the current call's fwdGen (else unknown), so the state is
 * known again where taking a marker off leaves the output ending at a unit
 * the automaton has read.
 */
let fwdStates = new Int32Array(256);
let fwdStamp = new Int32Array(256);
let fwdGen = 0;

/** fwdRoom makes fwdStates and fwdStamp hold index k. */
function fwdRoom(k: number): void {
  let n = fwdStates.length;
  while (n <= k) {
    n *= 2;
  }
  const st = new Int32Array(n);
  st.set(fwdStates);
  const sp = new Int32Array(n);
  sp.set(fwdStamp);
  fwdStates = st;
  fwdStamp = sp;
}

/**
 * backState returns the automaton's state after the output (the stacked
 * ranges, then s[cur:end]), read backwards down BACK_TRIE.
 */
function backState(s: string, cur: number, end: number, depth: number): number {
  s = "" + s; // a string to the compiler (see at)
  let node = 0;
  for (let k = end - 1; k >= cur; k--) {
    const u = String.prototype.charCodeAt.call(s, k);
    const next = u < 128 ? BACK_TRIE[node * FWD_N + FWD_CLASS[u]!]! : 0;
    if (next === 0) {
      return BACK_STATE[node]!;
    }
    node = next;
  }
  for (let d = depth - 1; d >= 0; d--) {
    for (let k = rangeEnd[d]! - 1; k >= rangeStart[d]!; k--) {
      const u = String.prototype.charCodeAt.call(s, k);
      const next = u < 128 ? BACK_TRIE[node * FWD_N + FWD_CLASS[u]!]! : 0;
      if (next === 0) {
        return BACK_STATE[node]!;
      }
      node = next;
    }
  }
  return BACK_STATE[node]!;
}

/** FWD_GAP is the most units the automaton reads forward to a marker's last unit before a backward read is cheaper. */
const FWD_GAP = 8;

/**
 * unitsRegExp returns a regular expression that finds the units UNITS
 * flags with flag: one character class, which the engine runs as native
 * code, about twice as fast per unit as a loop of charCodeAt, so long runs
 * of text are passed over with it (see skip).
 */
function unitsRegExp(flag: number): RegExp {
  let cls = "";
  for (let c = 0; c < 0x10000; c++) {
    if ((UNITS[c]! & flag) === 0) {
      continue;
    }
    let e = c;
    while (e + 1 < 0x10000 && (UNITS[e + 1]! & flag) !== 0) {
      e++;
    }
    cls += e === c ? hex4(c) : hex4(c) + "-" + hex4(e);
    c = e;
  }
  return new RegExp(cls === "" ? "[^\\s\\S]" : "[" + cls + "]", "g");
}

function hex4(c: number): string {
  return "\\u" + c.toString(16).padStart(4, "0");
}

/**
 * STEP1_RE and MARKER_RE find the units steps 1 and 2 look at. They are
 * two: a class of many ranges that holds printable ASCII characters is
 * several times slower in V8 than either alone.
 */
const STEP1_RE = unitsRegExp(STEP1);
const MARKER_RE = unitsRegExp(MARKER_LAST);

/**
 * skip returns the first position from i on, before end, of a unit UNITS
 * flags with flag, or end. It reads the next few units itself, where
 * flagged units are dense, and hands longer runs to re (unitsRegExp(flag)),
 * which reads bounded (s, or a slice of it that ends at end) up to its
 * first match or its end: a caller calls skip only where the next flagged
 * unit is wanted wherever it is (what lies before it is passed over
 * anyway). Only the regular expression reads the slice: the code that
 * reads units sees the same kind of string on every call (a slice is
 * another representation in V8, and code that has seen both is slower).
 */
function skip(s: string, i: number, end: number, flag: number, re: RegExp, bounded: string): number {
  s = "" + s; // a string to the compiler (see at)
  const near = end - i < SKIP_NEAR ? end : i + SKIP_NEAR;
  for (; i < near; i++) {
    if ((UNITS[String.prototype.charCodeAt.call(s, i)]! & flag) !== 0) {
      return i;
    }
  }
  if (i >= end) {
    return end;
  }
  re.lastIndex = i;
  if (!re.test(bounded)) {
    return end;
  }
  const j = re.lastIndex - 1;
  return j < end ? j : end;
}

/**
 * SKIP_NEAR is how many units skip reads itself before it calls the regular
 * expression, whose call costs about as much as a dozen reads: eight
 * passes over "ode=" between two "###" (a marker every seven units) without one.
 */
const SKIP_NEAR = 8;

/** LONE_RE finds the lone surrogates, which step 1 replaces with U+FFFD. */
const LONE_RE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * cleanAndUnmark is steps 1 and 2 from from on: s[:from] needs no change,
 * and no marker ends in it; pairsBefore tells whether it holds a surrogate
 * pair. from is 0 unless s is no longer than the window (in units, so also
 * in code points): then the window cuts nothing off.
 *
 * Step 1 reads at most window code points; it replaces each lone surrogate
 * with U+FFFD (as Go reads an encoded surrogate and JSON's lone "\ud800"),
 * which keeps every position, and deletes the controls and invisible
 * characters. Step 2 appends the characters step 1 keeps to the output one
 * by one, and whenever the output ends with a marker takes the marker off
 * again. The output is kept as ranges of s: finished ones on a stack
 * (rangeStart, rangeEnd) and the current one, s[cur:i], which grows by
 * itself as the scan moves on; a deleted character ends a range, taking a
 * marker off shortens or pops ranges, and nothing is copied until the
 * slices are joined at the end. Only the units either step looks at are
 * looked at, found by CLEAN_RE.
 */
function cleanAndUnmark(s: string, window: number, from: number, pairsBefore: boolean): string {
  s = "" + s; // a string to the compiler (see at)
  const len = s.length;
  let budget = window - from; // code points the window still admits (at least; see above)
  let pairs = pairsBefore;
  let cur = 0;
  let depth = 0; // finished ranges on the stack
  let changed = false;
  let i = from;
  cleanCut = false;
  // The window holds at most two units a code point: the searches read
  // no further (a 10 MiB input costs its window).
  let w = len - from > 2 * budget ? s.slice(0, from + 2 * budget) : s;
  // The next unit step 1 looks at and the next a marker ends with, each
  // found by its own search, which goes on only once the scan passes it.
  let next1 = -1;
  let next2 = -1;
  // The automaton's state after the output up to s[fPos] (the stacked
  // ranges, then s[cur:fPos]) where fState >= 0 and fPos >= cur.
  let fState = -1;
  let fPos = 0;
  if (++fwdGen === 0x7fffffff) {
    fwdStamp.fill(0);
    fwdGen = 1;
  }
  for (;;) {
    const stop = len - i < budget ? len : i + budget;
    // c is the unit at i, read once (-1 at the stop).
    let c = i < stop ? String.prototype.charCodeAt.call(s, i) : -1;
    if (c < 0 || (UNITS[c]! & (STEP1 | MARKER_LAST)) === 0) {
      // Not at one already (where they are dense): search.
      if (next1 < i) {
        next1 = skip(s, i, w.length, STEP1, STEP1_RE, w);
      }
      if (next2 < i) {
        next2 = skip(s, i, w.length, MARKER_LAST, MARKER_RE, w);
      }
      const j = next1 < next2 ? (next1 < stop ? next1 : stop) : next2 < stop ? next2 : stop;
      budget -= j - i;
      i = j;
      c = i < len ? String.prototype.charCodeAt.call(s, i) : -1;
    }
    if (i === len) {
      break;
    }
    if (budget === 0) {
      cleanCut = true;
      break;
    }
    budget--;
    let size = 1;
    if ((UNITS[c]! & STEP1) !== 0) {
      if (c < 0xd800 || c > 0xdfff) {
        // A control or a deleted character: the current range ends.
        if (i > cur) {
          rangeStart[depth] = cur;
          rangeEnd[depth] = i;
          depth++;
        }
        if (fPos === i) {
          fPos = i + 1;
        }
        cur = i + 1;
        changed = true;
        i++;
        continue;
      }
      const d = c <= 0xdbff && i + 1 < len ? String.prototype.charCodeAt.call(s, i + 1) : 0;
      if (d >= 0xdc00 && d <= 0xdfff) {
        if (c === 0xdb40 && d <= 0xdc7f) {
          // A tag character, U+E0000–U+E007F.
          if (i > cur) {
            rangeStart[depth] = cur;
            rangeEnd[depth] = i;
            depth++;
          }
          if (fPos === i) {
            fPos = i + 2;
          }
          cur = i + 2;
          changed = true;
          i += 2;
          continue;
        }
        pairs = true;
        c = d;
        size = 2;
      } else {
        // A lone surrogate: from here on, s with U+FFFD for each of them
        // (the same length: every position holds).
        s = s.replace(LONE_RE, "\uFFFD");
        w = w.length === len ? s : s.slice(0, w.length);
        c = 0xfffd;
        changed = true;
      }
    }
    i += size;
    if ((UNITS[c]! & MARKER_LAST) === 0) {
      continue;
    }
    // A marker may end here: the automaton reads on from its last state
    // where that is near, else the output (the stacked ranges, then
    // s[cur:i]) is read backwards.
    let take0: number;
    if (FWD) {
      if (i > fwdStates.length - 1) {
        fwdRoom(i);
      }
      let st: number;
      if (fState >= 0 && fPos >= cur && i - fPos <= FWD_GAP) {
        st = fState;
        for (let k = fPos; k < i; k++) {
          // c is the unit at i - 1 (a pair's second unit, after one).
          const u = k === i - 1 ? c : String.prototype.charCodeAt.call(s, k);
          st = FWD_GOTO[st * FWD_N + (u < 128 ? FWD_CLASS[u]! : 0)]!;
          fwdStates[k] = st;
          fwdStamp[k] = fwdGen;
        }
      } else {
        st = backState(s, cur, i, depth);
        fwdStates[i - 1] = st;
        fwdStamp[i - 1] = fwdGen;
      }
      fState = st;
      fPos = i;
      take0 = FWD_TAKE[st]!;
    } else {
      take0 = markerInOutput(s, cur, i, depth);
    }
    if (take0 === 0) {
      continue;
    }
    // Take it off: first from the current range, then from the stack.
    let take = take0;
    const inCur = i - cur;
    if (take < inCur) {
      rangeStart[depth] = cur;
      rangeEnd[depth] = i - take;
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
    cur = i;
    changed = true;
    if (FWD) {
      // The output now ends where the automaton may have read.
      fPos = i;
      if (depth === 0) {
        fState = 0;
      } else {
        const e = rangeEnd[depth - 1]! - 1;
        fState = fwdStamp[e] === fwdGen ? fwdStates[e]! : -1;
      }
    }
  }
  cleanPairs = pairs;
  if (!changed) {
    return i === len ? s : s.slice(0, i);
  }
  let n = i - cur;
  for (let d = 0; d < depth; d++) {
    n += rangeEnd[d]! - rangeStart[d]!;
  }
  let out = "";
  if (depth > JOIN_RANGES && n < depth * JOIN_SHORT) {
    // Many short ranges (markers or deleted characters every few
    // characters): their units are copied into one buffer and made into
    // a string from it, where a slice and a joined string for each range
    // would cost an allocation each and a string that must be flattened
    // before step 3 reads it.
    out = joinUnits(s, depth, cur, i, n);
  } else {
    for (let d = 0; d < depth; d++) {
      out += s.slice(rangeStart[d], rangeEnd[d]);
    }
    out += s.slice(cur, i);
  }
  if (rangeStart.length > 4096) {
    rangeStart.length = rangeEnd.length = 0; // a huge input does not keep its stack
  }
  return out;
}

/** JOIN_RANGES and JOIN_SHORT: cleanAndUnmark joins more ranges than JOIN_RANGES, JOIN_SHORT units long on average or less, through joinUnits. */
const JOIN_RANGES = 16;
const JOIN_SHORT = 8;

/** joinBuf holds joinUnits' units; it is kept between calls up to 64 Ki units. */
let joinBuf = new Uint16Array(1024);

/** joinUnits returns the stacked ranges of s, then s[cur:end], n units in all, as one string. */
function joinUnits(s: string, depth: number, cur: number, end: number, n: number): string {
  s = "" + s; // a string to the compiler (see at)
  let buf = joinBuf;
  if (buf.length < n) {
    buf = new Uint16Array(n);
    if (n <= 0x10000) {
      joinBuf = buf;
    }
  }
  let o = 0;
  for (let d = 0; d < depth; d++) {
    const e = rangeEnd[d]!;
    for (let k = rangeStart[d]!; k < e; k++) {
      buf[o++] = String.prototype.charCodeAt.call(s, k);
    }
  }
  for (let k = cur; k < end; k++) {
    buf[o++] = String.prototype.charCodeAt.call(s, k);
  }
  let out = "";
  for (let k = 0; k < n; k += 0x2000) {
    out += String.fromCharCode.apply(null, buf.subarray(k, k + 0x2000 < n ? k + 0x2000 : n) as unknown as number[]);
  }
  return out;
}

/** The finished ranges of cleanAndUnmark's output; each deletion and each marker taken off adds at most one. */
const rangeStart: number[] = [];
const rangeEnd: number[] = [];

/**
 * markerInOutput returns the length of the marker the output (the stacked
 * ranges, then s[cur:end]) ends with, ignoring ASCII case, or 0.
 */
function markerInOutput(s: string, cur: number, end: number, depth: number): number {
  s = "" + s; // a string to the compiler (see at)
  let node = 0;
  for (let k = end - 1; k >= cur; k--) {
    const next = trieChild(node, String.prototype.charCodeAt.call(s, k));
    if (next === 0) {
      return TRIE_TAKE[node]!;
    }
    node = next;
  }
  for (let d = depth - 1; d >= 0; d--) {
    for (let k = rangeEnd[d]! - 1; k >= rangeStart[d]!; k--) {
      const next = trieChild(node, String.prototype.charCodeAt.call(s, k));
      if (next === 0) {
        return TRIE_TAKE[node]!;
      }
      node = next;
    }
  }
  return TRIE_TAKE[node]!;
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

/** EDGE_SECRETS are the prefixed shapes edgeSecret looks for: the catalogue's, then the contract's. */
const EDGE_SECRETS: readonly { readonly prefixes: readonly string[]; readonly cls: number }[] = [
  ...BUILTIN_SECRETS,
  ...SANITIZE_SECRETS.map((s) => ({ prefixes: s.prefixes, cls: CHAR_CLASSES[s.chars] })),
];
/** EDGE_MASK holds the classes edgeRuns reads (bit 15: base64url characters and dots). */
const EDGE_MASK = EDGE_SECRETS.reduce((m, sec) => m | sec.cls, (1 << 15) | TOKEN | USERINFO);

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

/** NAMES holds the credential names (SANITIZE_CREDENTIAL_NAMES) by their first two characters (first << 7 | second). */
const NAMES: (string[] | undefined)[] = new Array<string[] | undefined>(128 * 128).fill(undefined);

/** NAME_FOURTH[first << 7 | second][c] is 1 when a credential name starting with first and second has c (ASCII) fourth, or has three characters: where the fourth character is none of them, no name is compared. */
const NAME_FOURTH: (Uint8Array | undefined)[] = new Array<Uint8Array | undefined>(128 * 128).fill(undefined);

/** EXTENSIONS holds KEY_EXTENSIONS (each a "." and three characters) by their second character. */
const EXTENSIONS: (string[] | undefined)[] = new Array<string[] | undefined>(128).fill(undefined);
for (const x of KEY_EXTENSIONS) {
  (EXTENSIONS[x.charCodeAt(1)] ??= []).push(x);
}

const FLAGS = new Uint8Array(128);
/**
 * PREFIXED holds the prefixed shapes by their prefix's first two characters
 * (first << 7 | second; every prefix is two ASCII characters or more), and
 * then by the unit after those (128: none, or not ASCII): the shapes whose
 * prefix has that third character or only two, in catalogue order.
 */
const PREFIXED: ((Prefixed[] | undefined)[] | undefined)[] = new Array<(Prefixed[] | undefined)[] | undefined>(128 * 128).fill(undefined);
/** PREFIXED_FIRST flags the first characters of the prefixes. */
const PREFIXED_FIRST = new Uint8Array(128);
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
/**
 * PREFIX_PAIRS flags the first and second, and the second and third,
 * characters of every prefix: a scan that reads pairs at even positions
 * only sees one of the two.
 */
const PREFIX_PAIRS = new Uint8Array(128 * 128);

/** follow records that a shape can start with prefix (its first three characters, any ASCII case for those given in both). */
function follow(prefix: string): void {
  const first = prefix.charCodeAt(0);
  const next = prefix.charCodeAt(1);
  if (first >= 128 || next >= 128) {
    return;
  }
  const pair = (first << 7) | next;
  PAIRS[pair] = 1;
  PREFIX_PAIRS[pair] = 1;
  if (prefix.length < 3) {
    // A prefix of two (a contract's secret): its second character and
    // the first of its run.
    anyThird[pair] = 1;
    for (let c = 0; c < 128; c++) {
      PREFIX_PAIRS[(next << 7) | c] = 1;
    }
    return;
  }
  const third = prefix.charCodeAt(2);
  if (third < 128) {
    (THIRDS[pair] ??= new Uint8Array(128))[third] = 1;
    PREFIX_PAIRS[(next << 7) | third] = 1;
  } else {
    anyThird[pair] = 1; // never: every prefix is ASCII
  }
}

for (const list of [BUILTIN_SECRETS, SANITIZE_SECRETS.map((s) => ({ prefixes: s.prefixes, cls: CHAR_CLASSES[s.chars], min: s.minLength }))]) {
  for (const sec of list) {
    for (const prefix of sec.prefixes) {
      const first = prefix.charCodeAt(0);
      const third = prefix.length > 2 ? prefix.charCodeAt(2) : -1;
      const byThird = (PREFIXED[(first << 7) | prefix.charCodeAt(1)] ??= new Array<Prefixed[] | undefined>(129).fill(undefined));
      for (let e = 0; e <= 128; e++) {
        if (third < 0 || third === e) {
          (byThird[e] ??= []).push({ prefix, cls: sec.cls, min: sec.min });
        }
      }
      PREFIXED_FIRST[first] = 1;
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
    const two = (n.charCodeAt(0) << 7) | n.charCodeAt(1);
    (NAMES[two] ??= []).push(n);
    // The fourth characters of the names: any, after a name of three.
    const f = n.length > 3 ? n.charCodeAt(3) : -1;
    const fourth = (NAME_FOURTH[two] ??= new Uint8Array(128));
    for (let c = 0; c < 128; c++) {
      if (f < 0 || c === f || (f === 0x2f && isSeparator(c))) {
        fourth[c] = 1;
      }
    }
  }
}
for (const f of ["---", "eyJ", "bea", "beA", "bEa", "bEA", "Bea", "BeA", "BEa", "BEA"]) {
  follow(f);
}
for (let next = 0; next < 128; next++) {
  // An assignment, whatever follows (UNITS flags : and = alone).
  for (const sep of [0x3a, 0x3d]) {
    PAIRS[(sep << 7) | next] = 1;
    anyThird[(sep << 7) | next] = 1;
  }
}

/**
 * DASH_PEM_ONLY tells whether a private key block is the only shape that
 * can start at a dash, and steps 1 and 2 never look at one (the contract's
 * secrets, credential names and markers could make it false): redact then
 * passes over a run of dashes up to noPEM at once ("--" repeated was read
 * a unit at a time, each tried as a shape).
 */
const DASH_PEM_ONLY = FLAGS[0x2d] === START_PEM && PREFIXED_FIRST[0x2d] === 0 && WORDS[0x2d] === undefined && UNITS[0x2d] === 0;

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
  s = "" + s; // a string to the compiler (see at)
  const len = s.length;
  let j = i;
  while (j < len && inClass(String.prototype.charCodeAt.call(s, j), cls)) {
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
  s = "" + s; // a string to the compiler (see at)
  if (s.length - i < prefix.length) {
    return false;
  }
  for (let j = 1; j < prefix.length; j++) {
    if (String.prototype.charCodeAt.call(s, i + j) !== prefix.charCodeAt(j)) {
      return false;
    }
  }
  return String.prototype.charCodeAt.call(s, i) === prefix.charCodeAt(0);
}

/** startsWithFold reports whether s has the lower-case prefix at i, ignoring ASCII case. */
function startsWithFold(s: string, i: number, prefix: string): boolean {
  s = "" + s; // a string to the compiler (see at)
  if (s.length - i < prefix.length) {
    return false;
  }
  for (let j = 0; j < prefix.length; j++) {
    if (asciiFold(String.prototype.charCodeAt.call(s, i + j)) !== prefix.charCodeAt(j)) {
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
// noPEM: no private key block starts before this position. "-----BEGIN "
// starts with exactly the last five dashes of a run, so a run of dashes is
// tried once, at its fifth dash from the end ("--" repeated was read five
// times over).
let noPEM = 0;
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
    return String.prototype.charCodeAt.call(rs, p - k);
  }
  if (!dirty) {
    return -1;
  }
  k -= pending;
  if (k <= REDACTED.length) {
    return REDACTED.charCodeAt(REDACTED.length - k);
  }
  return k <= out.length ? String.prototype.charCodeAt.call(out, out.length - k) : -1;
}

/** startScan makes s the text of step 3's scan (and of the quick pass, which tries step 3's shapes on the input), with nothing redacted yet. */
function startScan(s: string): void {
  rs = s;
  out = "";
  dirty = false;
  flushed = 0;
  noJWT = 0;
  noPEM = 0;
  pathFrom = pathRun = credFrom = credEnd = 0;
  credAt = -1;
}

/**
 * mayStart reports whether a shape may start at p: the pair c, d (s[p] and
 * s[p+1], or -1 past the end) starts a prefix (an assignment at : or =, whatever follows), and a pair
 * that only longer prefixes start with is followed by one of their third
 * characters ("ts" in "its" and "wh" in "while" stop there).
 */
function mayStart(s: string, p: number, c: number, d: number): boolean {
  s = "" + s; // a string to the compiler (see at)
  const len = s.length;
  if (d < 0 || c >= 128) {
    return false; // no shape fits in one character, or starts with one that is not ASCII
  }
  if ((UNITS[c]! & TRIGGER) !== 0) {
    return mayAssign(p, c, d);
  }
  if (d >= 128) {
    return false;
  }
  const pair = (c << 7) | d;
  if (PAIRS[pair] === 0) {
    return false;
  }
  if (anyThird[pair] !== 0) {
    return true;
  }
  const e = p + 2 < len ? String.prototype.charCodeAt.call(s, p + 2) : 128;
  return e < 128 && THIRDS[pair]![e] !== 0;
}

/**
 * mayAssign is mayStart at a : or = (c, followed by d): a URL or a drive's
 * home needs a separator after the ":", an assignment a key before the
 * separator (white space and quotes between) that ends with one of the
 * words of KEY_TRIE. Most separators in text ("a: b", "x=1", "::", "id=7",
 * "key=") have neither.
 */
function mayAssign(p: number, c: number, d: number): boolean {
  if (c === 0x3a && (d === 0x2f || d === 0x5c)) {
    return true;
  }
  // The units before p, from the scan's text while they lie after the
  // last redaction (back otherwise): white space, up to two quotes, then
  // the key, read backwards down KEY_TRIE from its last character. Most
  // keys ("a: b", "id=7", "key=", "a_token_x") leave the trie within a
  // character or three, and assignment, which reads the whole key and
  // holds it against the rules, is not called. One read site, so the
  // function stays small where redact inlines it.
  const s = "" + rs; // a string to the compiler (see at)
  const pending = p - flushed;
  let k = 0;
  let phase = 0; // 0: white space, 1: quotes, 2: the key
  let quotes = 0;
  let node = 0;
  for (;;) {
    k++;
    const e = k <= pending ? String.prototype.charCodeAt.call(s, p - k) : back(p, k);
    if (phase === 0) {
      if (e === 0x20 || e === 0x09) {
        continue;
      }
      phase = 1;
    }
    if (phase === 1) {
      if (quotes < 2 && isQuote(e)) {
        quotes++;
        continue;
      }
      phase = 2;
    }
    if (e < 0 || e >= 128) {
      return false;
    }
    node = KEY_TRIE[(node << 7) | asciiFold(e)]!;
    if (node === 0) {
      return false;
    }
    if (KEY_WORD[node] !== 0) {
      return true;
    }
  }
}

/**
 * redact is step 3: at each position the shapes are tried in order; the
 * first that matches is replaced and the scan goes on after it. The scan
 * reads the text two units at a time, at even positions, and looks the
 * pair up in PAIRS2: every shape's first three characters hold a pair it
 * flags, so the positions around the pairs it does not flag are passed
 * over.
 *
 * With guard, redact is also the quick pass, run on the input itself: it
 * looks at every character steps 1 and 2 would look at too (those PAIRS2
 * and UNITS flag for QUIET_PAIR), and stops at the first that one of them
 * would change (deleted or replaced, or the end of a marker), setting
 * stoppedAt there (-1 when it never stops); everything before that needs
 * no change by steps 1 and 2. A text that steps 1 and 2 keep as it is,
 * most text, is thus read once, and most of it a pair at a time. The
 * characters inside a redacted span are looked at too, since step 3 runs
 * on what steps 1 and 2 leave, and so are those a shape reads past its
 * span. guardPairs tells whether a surrogate pair came before stoppedAt.
 *
 * max is step 4's maximum: once the output holds more code points (more
 * units than max, or than 2 × max when it may hold a surrogate pair, as
 * pairs or guardPairs tell), the rest is not read (redactCut).
 */
function redact(s: string, guard: boolean, max: number, pairs: boolean): string {
  s = "" + s; // a string to the compiler (see at)
  startScan(s);
  const len = s.length;
  redactCut = false;
  const mask = guard ? QUIET_PAIR : REDACT_PAIR;
  const other = guard ? STEP1 | MARKER_LAST | TRIGGER : TRIGGER; // what flags a pair that is not ASCII
  stoppedAt = -1;
  guardPairs = false;
  guardNext = 0;
  let p = 0; // the first position not tried yet
  let i = 0; // the even position of the next pair
  scan: while (i + 1 < len) {
    const a = String.prototype.charCodeAt.call(s, i);
    const b = String.prototype.charCodeAt.call(s, i + 1);
    if ((a | b) < 128 ? (PAIRS2[(a << 7) | b]! & mask) === 0 : ((UNITS[a]! | UNITS[b]!) & other) === 0) {
      i += 2;
      continue;
    }
    // The shapes that may start at i-1 (a pair of their second and third
    // characters), i or i+1.
    // Each unit is read once: c is s[q], d the unit after it (-1 at the
    // end), the pair's own units taken from a and b.
    const last = i + 1;
    let q = p > i - 1 ? p : i - 1;
    let c = q === i ? a : q === last ? b : String.prototype.charCodeAt.call(s, q);
    for (; q <= last; q++) {
      const d = q === i - 1 ? a : q === i ? b : q + 1 < len ? String.prototype.charCodeAt.call(s, q + 1) : -1;
      if (guard && (UNITS[c]! & (STEP1 | MARKER_LAST)) !== 0 && q >= guardNext && !guardAt(s, q, c)) {
        return stop(q);
      }
      if (mayStart(s, q, c, d) && match(q)) {
        if (guard && !guardSpan(s, q + 1, matchTo)) {
          return stop(guardNext);
        }
        out += s.slice(flushed, matchFrom) + REDACTED;
        dirty = true;
        flushed = matchTo;
        p = matchTo;
        i = p - (p & 1);
        if (out.length > (pairs || guardPairs ? 2 * max : max)) {
          // More than max code points: step 4 cuts the rest off, so it is
          // not read (but, with guard, for what steps 1 and 2 would change).
          if (guard && !guardSpan(s, p, len)) {
            return stop(guardNext);
          }
          redactCut = true;
          break scan;
        }
        continue scan;
      }
      if (c === 0x2d && q + 1 < noPEM && DASH_PEM_ONLY) {
        // Inside a run of dashes that pemAt has read: up to noPEM every
        // unit is a dash, where only a private key block could start.
        p = noPEM;
        i = p - (p & 1);
        continue scan;
      }
      c = d;
    }
    p = i = last + 1;
  }
  // The last unit of a text of odd length is in no pair.
  if (guard && !redactCut && len > 0 && guardNext < len && !guardSpan(s, Math.max(guardNext, p), len)) {
    return stop(guardNext);
  }
  let result = s;
  if (redactCut) {
    result = out;
  } else if (dirty) {
    result = out + s.slice(flushed);
  }
  rs = "";
  out = "";
  return result;
}

/** redactCut tells whether redact stopped reading because its output is longer than the maximum, which step 4 then cuts. */
let redactCut = false;

/** stoppedAt is where redact with guard stopped, or -1. */
let stoppedAt = -1;
/** guardPairs tells whether redact with guard passed a surrogate pair. */
let guardPairs = false;
/** guardNext is the first position guardAt has not looked at (of those it must: redact looks only at the units UNITS flags for it). */
let guardNext = 0;

/** stop ends redact with guard at p. */
function stop(p: number): string {
  stoppedAt = p;
  rs = "";
  out = "";
  return "";
}

/**
 * guardAt looks at the character at p (guardNext or later), c, for steps 1
 * and 2 and reports false when one of them would change it: it is
 * deleted or replaced, or a marker ends with it. Else it moves guardNext
 * past it.
 */
function guardAt(s: string, p: number, c: number): boolean {
  s = "" + s; // a string to the compiler (see at)
  let last = c;
  let size = 1;
  if ((UNITS[c]! & STEP1) !== 0) {
    if (c < 0xd800 || c > 0xdfff) {
      return false; // deleted
    }
    const d = c <= 0xdbff && p + 1 < s.length ? String.prototype.charCodeAt.call(s, p + 1) : 0;
    if (d < 0xdc00 || d > 0xdfff || (c === 0xdb40 && d <= 0xdc7f)) {
      return false; // a lone surrogate, or a tag character
    }
    guardPairs = true;
    last = d;
    size = 2;
  }
  if ((UNITS[last]! & MARKER_LAST) !== 0 && markerEndsAt(s, p + size)) {
    return false;
  }
  guardNext = p + size;
  return true;
}

/**
 * guardSpan runs guardAt from guardNext (or from, if later) to end and
 * reports false where it does. It reads the span unit by unit: a regular
 * expression would read on past end to the next unit it finds, and every
 * span would cost the rest of the text.
 */
function guardSpan(s: string, from: number, end: number): boolean {
  s = "" + s; // a string to the compiler (see at)
  for (let p = guardNext > from ? guardNext : from; p < end; p++) {
    const c = String.prototype.charCodeAt.call(s, p);
    if ((UNITS[c]! & (STEP1 | MARKER_LAST)) === 0) {
      continue;
    }
    if (!guardAt(s, p, c)) {
      guardNext = p; // where redact stops
      return false;
    }
    p = guardNext - 1;
  }
  guardNext = end;
  return true;
}

/** markerEndsAt reports whether s[:end] ends with a marker, ignoring ASCII case. */
function markerEndsAt(s: string, end: number): boolean {
  s = "" + s; // a string to the compiler (see at)
  let node = 0;
  for (let k = end - 1; k >= 0; k--) {
    node = trieChild(node, String.prototype.charCodeAt.call(s, k));
    if (node === 0) {
      return false;
    }
    if (TRIE_TAKE[node] !== 0) {
      return true; // whichever marker is taken off
    }
  }
  return false;
}

/** match tries every shape at p and, when one matches, sets the span to redact. */
function match(p: number): boolean {
  const s = "" + rs; // a string to the compiler (see at)
  const len = s.length;
  const c = String.prototype.charCodeAt.call(s, p);
  const flags = FLAGS[c]!;
  if ((flags & START_ASSIGN) !== 0) {
    // Only the assignment, the URL and a drive's home start at : or =.
    return separator(p, c, flags);
  }
  // A private key block, through its END line or to the end of the text.
  if ((flags & START_PEM) !== 0 && p >= noPEM && pemAt(p)) {
    const j = p + 11;
    let k = j;
    for (; k < len && k - j < 64; k++) {
      const d = String.prototype.charCodeAt.call(s, k);
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
          while (e < len && !isSpace(String.prototype.charCodeAt.call(s, e))) {
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
  // (match is called where the pair at p starts a shape: p+1 is in s.)
  const d = String.prototype.charCodeAt.call(s, p + 1);
  const byThird = d < 128 ? PREFIXED[(c << 7) | d] : undefined;
  const e = byThird === undefined ? -1 : at(s, p + 2);
  const prefixed = byThird === undefined ? undefined : byThird[e >= 0 && e < 128 ? e : 128];
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
    if (n1 >= 10 && p + n1 < len && String.prototype.charCodeAt.call(s, p + n1) === 0x2e) {
      let e = p + n1 + 1;
      const n2 = run(s, e, BASE64URL);
      if (n2 >= 4) {
        e += n2;
        if (e < len && String.prototype.charCodeAt.call(s, e) === 0x2e) {
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
      while (e < len && (String.prototype.charCodeAt.call(s, e) === 0x20 || String.prototype.charCodeAt.call(s, e) === 0x09)) {
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

/** pemAt reports whether "-----BEGIN " is at p, and when it is not, moves noPEM to the one place in p's run of dashes where it can be. */
function pemAt(p: number): boolean {
  const s = "" + rs; // a string to the compiler (see at)
  let r = p;
  while (r < s.length && String.prototype.charCodeAt.call(s, r) === 0x2d) {
    r++;
  }
  if (r - p > 5) {
    noPEM = r - 5;
    return false;
  }
  noPEM = r;
  return r - p === 5 && s.startsWith("BEGIN ", r);
}

/**
 * separator is match at a : or = (c), where only these shapes start, in
 * this order: the assignment, the URL's userinfo (at :// only) and a
 * drive's home (at :\ or :/ only).
 */
function separator(p: number, c: number, flags: number): boolean {
  // key = value and key: value for a sensitive key. Tried before the URL
  // rule, which starts at the same ':' but redacts less: were the URL rule
  // first, a second pass could redact the "//" it skipped.
  if (assignment(p)) {
    return true;
  }
  const s = "" + rs; // a string to the compiler (see at)
  const next = at(s, p + 1);
  if (c !== 0x3a || (next !== 0x2f && next !== 0x5c)) {
    return false;
  }
  // URL userinfo holding a password: scheme://user:password@host.
  if ((flags & START_URL) !== 0 && next === 0x2f && at(s, p + 2) === 0x2f) {
    const j = p + 3;
    const n = run(s, j, USERINFO);
    if (n > 0 && j + n < s.length && String.prototype.charCodeAt.call(s, j + n) === 0x40 && s.slice(j, j + n).includes(":")) {
      matchFrom = j;
      matchTo = j + n;
      return true;
    }
  }
  // A home directory on a drive: its user name, or the whole path when it
  // holds a credential name.
  return (flags & START_HOME) !== 0 && home(p);
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
  const s = "" + rs; // a string to the compiler (see at)
  const len = s.length;
  let start = p;
  let seg = -1;
  if (String.prototype.charCodeAt.call(s, p) === 0x2f) {
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
    const c = String.prototype.charCodeAt.call(s, e);
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
  const s = "" + rs; // a string to the compiler (see at)
  credFrom = seg;
  credEnd = end;
  credAt = -1;
  for (let i = seg; i < end; i++) {
    const c = String.prototype.charCodeAt.call(s, i);
    if (c < 128 && (FLAGS[c]! & START_NAME) !== 0 && credentialAt(s, i, String.prototype.charCodeAt.call(s, i - 1))) {
      credAt = i;
      return true;
    }
  }
  return false;
}

/** driveUsers returns the length of :\Users\, :\\Users\\ or :/Users/ (Users in any ASCII case) at p, or 0. */
function driveUsers(s: string, p: number): number {
  s = "" + s; // a string to the compiler (see at)
  const c = at(s, p + 1);
  if (!isSeparator(c)) {
    return 0;
  }
  const sep = c === 0x5c && at(s, p + 2) === 0x5c ? 2 : 1;
  const n = 1 + sep;
  if (!startsWithFold(s, p + n, "users")) {
    return 0;
  }
  for (let k = 0; k < sep; k++) {
    if (at(s, p + n + 5 + k) !== c) {
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
  s = "" + s; // a string to the compiler (see at)
  // Every name and extension starts with two ASCII characters that are
  // no separator: they pick the few to compare.
  const c = String.prototype.charCodeAt.call(s, p);
  const d = at(s, p + 1);
  if (c >= 128 || d < 0 || d >= 128) {
    return false;
  }
  if (prev === -1 || !isPath(prev) || isSeparator(prev)) {
    const names = NAMES[(c << 7) | d];
    const fourth = at(s, p + 3);
    if (names !== undefined && (fourth < 0 || fourth >= 128 || NAME_FOURTH[(c << 7) | d]![fourth] !== 0)) {
      for (const n of names) {
        const e = nameAt(s, p, n);
        if (e >= 0 && nameEnds(s, e)) {
          return true;
        }
      }
    }
    return false;
  }
  if (c === 0x2e) {
    const exts = EXTENSIONS[d];
    // Every extension is four characters long: where they would end is
    // looked at once, before they are compared.
    if (exts !== undefined && nameEnds(s, p + 4)) {
      for (const x of exts) {
        if (hasAt(s, p, x)) {
          return true;
        }
      }
    }
  }
  return false;
}

/** nameAt matches a credential name at i, where a "/" in the name stands for one or more separators, and returns where it ends, or -1. */
function nameAt(s: string, i: number, name: string): number {
  s = "" + s; // a string to the compiler (see at)
  const len = s.length;
  for (let k = 0; k < name.length; k++) {
    const want = name.charCodeAt(k);
    if (want === 0x2f) {
      if (i >= len || !isSeparator(String.prototype.charCodeAt.call(s, i))) {
        return -1;
      }
      while (i < len && isSeparator(String.prototype.charCodeAt.call(s, i))) {
        i++;
      }
      continue;
    }
    if (i >= len || String.prototype.charCodeAt.call(s, i) !== want) {
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
  s = "" + s; // a string to the compiler (see at)
  const len = s.length;
  while (e < len && String.prototype.charCodeAt.call(s, e) === 0x2e) {
    e++;
  }
  if (e === len) {
    return true;
  }
  const c = String.prototype.charCodeAt.call(s, e);
  if (isSeparator(c)) {
    return true;
  }
  if (c === 0x5b) {
    return false; // [
  }
  if (isSpace(c)) {
    while (e < len && isSpace(String.prototype.charCodeAt.call(s, e))) {
      e++;
    }
    return e === len || String.prototype.charCodeAt.call(s, e) < 128;
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
  while (String.prototype.charCodeAt.call(rs, q) >= 128) {
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
  s = "" + s; // a string to the compiler (see at)
  if (i < pathFrom || i > pathRun) {
    pathFrom = i;
    const len = s.length;
    while (i < len && isPath(String.prototype.charCodeAt.call(s, i))) {
      i++;
    }
    pathRun = i;
  }
  i = pathRun;
  while (String.prototype.charCodeAt.call(s, i - 1) === 0x5c) {
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
  const s = "" + rs; // a string to the compiler (see at)
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
  // A key whose last character no sensitive key ends with is not read,
  // nor one without a value.
  c = back(p, k);
  if (c < 0 || !inClass(c, KEY) || KEY_LAST[asciiFold(c)] === 0) {
    return false;
  }
  let v = p + 1;
  while (v < len && (String.prototype.charCodeAt.call(s, v) === 0x20 || String.prototype.charCodeAt.call(s, v) === 0x09)) {
    v++;
  }
  for (let q = 0; q < 2 && v < len && isQuote(String.prototype.charCodeAt.call(s, v)); q++) {
    v++;
  }
  if (v === len || !inClass(String.prototype.charCodeAt.call(s, v), VALUE)) {
    return false;
  }
  // The key, lower-cased, into KEY_BUF's end: its last 64 characters
  // suffice for every test. It is read from s while it lies after the
  // last redaction (always, in fact: "]" ends every key).
  let n = 0;
  const pending = p - flushed;
  for (;;) {
    c = k <= pending ? String.prototype.charCodeAt.call(s, p - k) : back(p, k);
    if (c < 0 || c >= 128 || (CLASSES[c]! & KEY) === 0) {
      break;
    }
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
      (n === 3 || n === 4) &&
      (keyIs("code") || keyIs("sig")) &&
      gap === 0 &&
      String.prototype.charCodeAt.call(s, p) === 0x3d &&
      (before === 0x3f || before === 0x26 || before === 0x23 || before === 0x3b); // ? & # ;
    if (!queryOnly) {
      return false;
    }
  }
  let e = valueEnd(s, v);
  if (keyEndsWith("authorization", false) && run(s, v, ALNUM | BASE64URL) === e - v) {
    // A scheme (Bearer, Basic, AWS4-HMAC-SHA256, …) and its credentials.
    let w = e;
    while (w < len && (String.prototype.charCodeAt.call(s, w) === 0x20 || String.prototype.charCodeAt.call(s, w) === 0x09)) {
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
  s = "" + s; // a string to the compiler (see at)
  const len = s.length;
  if (v >= len || !inClass(String.prototype.charCodeAt.call(s, v), VALUE)) {
    return v;
  }
  let e = v + 1;
  for (; e < len; e++) {
    const c = String.prototype.charCodeAt.call(s, e);
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

/**
 * KEY_LAST flags the (lower-case) characters a sensitive key can end with:
 * the last characters of KEY_SUFFIXES and KEY_EXACT, _key's and -key's,
 * and code's and sig's.
 */
const KEY_LAST = new Uint8Array(128);
for (const k of [...KEY_SUFFIXES, ...KEY_EXACT, "_key", "code", "sig"]) {
  KEY_LAST[k.charCodeAt(k.length - 1)] = 1;
}

/**
 * KEY_TRIE holds the words a sensitive key ends with, lower-cased and read
 * from their end (KEY_SUFFIXES, KEY_EXACT, _key and -key, code and sig):
 * KEY_TRIE[node << 7 | c] is the child for the character c (0: none; the
 * root is 0), KEY_WORD[node] is 1 where a word ends. A key that ends with
 * none of them is no sensitive key (sensitiveKey) and no query-only one,
 * whatever comes before: mayAssign rejects it after reading its last
 * characters, down the trie, once each. Every word is of key characters
 * (letters, _ and -), so no walk reads past the key.
 */
const keyTrie: number[] = new Array<number>(128).fill(0);
const keyWord: number[] = [0];
for (const k of [...KEY_SUFFIXES, ...KEY_EXACT, "_key", "-key", "code", "sig"]) {
  let node = 0;
  for (let j = k.length - 1; j >= 0; j--) {
    const c = k.charCodeAt(j);
    let child = keyTrie[(node << 7) | c]!;
    if (child === 0) {
      child = keyWord.length;
      keyWord.push(0);
      for (let x = 0; x < 128; x++) {
        keyTrie.push(0);
      }
      keyTrie[(node << 7) | c] = child;
    }
    node = child;
  }
  keyWord[node] = 1;
}
const KEY_TRIE = Int32Array.from(keyTrie);
const KEY_WORD = Uint8Array.from(keyWord);

/** NO_NAMES is an empty list of names. */
const NO_NAMES: readonly string[] = [];

/** HARMLESS holds KEY_HARMLESS by the character before their _key. */
const HARMLESS: (string[] | undefined)[] = new Array<string[] | undefined>(128).fill(undefined);
for (const h of KEY_HARMLESS) {
  (HARMLESS[h.charCodeAt(h.length - 5)] ??= []).push(h);
}

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

/** KEY_RULES holds, per last character, the exact keys and suffixes ending with it (and the length of the shortest), so a key is held against a few names at most. */
const KEY_RULES: ({ exact: string[]; suffixes: string[]; shortest: number } | undefined)[] = new Array<{ exact: string[]; suffixes: string[]; shortest: number } | undefined>(128).fill(undefined);
for (const [list, exact] of [[KEY_EXACT, true], [KEY_SUFFIXES, false]] as const) {
  for (const k of list) {
    const rules = (KEY_RULES[k.charCodeAt(k.length - 1)] ??= { exact: [], suffixes: [], shortest: k.length });
    (exact ? rules.exact : rules.suffixes).push(k);
    rules.shortest = Math.min(rules.shortest, k.length);
  }
}

/** sensitiveKey reports whether the key in KEY_BUF names a secret. */
function sensitiveKey(): boolean {
  if (keyLen < 3) {
    return false; // every sensitive key has three characters or more
  }
  const last = KEY_BUF[63]!;
  const rules = KEY_RULES[last];
  if (rules !== undefined && keyLen >= rules.shortest) {
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
    // Harmless only as the whole key or after _ or . (- reads as _). The
    // character before _key picks the few harmless keys to compare.
    const harmless = (keyLen > 4 ? HARMLESS[KEY_BUF[59]!] : undefined) ?? NO_NAMES;
    for (const h of harmless) {
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
// The scans by pairs.

/**
 * PAIRS2 flags the pairs of ASCII units the scans at even positions stop
 * at: REDACT_PAIR, the first and second or second and third characters of
 * a shape's prefix, or a : or =; QUIET_PAIR, those and the pairs holding a
 * character step 1 or 2 must look at.
 */
const PAIRS2 = new Uint8Array(128 * 128);
const REDACT_PAIR = 1;
const QUIET_PAIR = 2;
for (let pair = 0; pair < 128 * 128; pair++) {
  const a = pair >> 7;
  const b = pair & 127;
  let f = PREFIX_PAIRS[pair] !== 0 || ((UNITS[a]! | UNITS[b]!) & TRIGGER) !== 0 ? REDACT_PAIR | QUIET_PAIR : 0;
  if ((UNITS[a]! | UNITS[b]!) !== 0) {
    f |= QUIET_PAIR;
  }
  PAIRS2[pair] = f;
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
    return detach(s.slice(0, cutBefore(s, keep)) + SANITIZE_TRUNCATION_MARKER); // one unit per code point
  }
  let i = 0;
  let n = 0;
  let end = 0; // the end of the first keep code points
  while (i < len && n <= max) {
    if (n === keep) {
      end = i;
    }
    const c = String.prototype.charCodeAt.call(s, i);
    i += c >= 0xd800 && c <= 0xdbff ? 2 : 1;
    n++;
  }
  if (!cut && n <= max) {
    return s;
  }
  if (n <= keep) {
    end = i; // cut by the window, with fewer than keep code points left
  }
  return detach(s.slice(0, cutBefore(s, end)) + SANITIZE_TRUNCATION_MARKER);
}

/**
 * detach makes the engine copy a truncated output into a string of its own.
 * A slice can share the input's memory (V8 makes slices views of their
 * parent), and a short output must not keep a 10 MiB input alive; reading a
 * character flattens the concatenation, which drops the view.
 */
function detach(s: string): string {
  String.prototype.charCodeAt.call(s, 0);
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
const MAX_DEPTH = 160;

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
