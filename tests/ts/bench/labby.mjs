// labby's sanitizer as a chain of regular expressions: the baseline the
// TypeScript sanitizer is measured against (issue 21). Only bench/bench.mjs
// uses it; no test relies on what it returns.
//
// Origin: a port, written for this benchmark, of the algorithm labby
// publishes for its sanitize_error_text (the steps as the project's notes on
// labby describe them, shared/reference/labby.md, nothing read from there at
// run time), in the form a TypeScript team porting it would write: one
// String.prototype.replace with a regular expression per rule, as
// tests/python/bench.py's labby_sanitize does with re.sub. It bounds the
// input to 4 × max bytes of UTF-8, deletes controls and bidi controls (line
// breaks kept), deletes the four prompt markers in one pass, redacts
// secret-like tokens, and caps the length. It does less than errgen's
// sanitizer: no home directories or credential paths, no key = value
// assignments, fewer token shapes, one marker pass, no lone surrogates.

const CONTROLS = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
const MARKERS = /<system>|\[INST\]|###|<</g;
/** WORDS: a whitespace-separated token starting like a secret, redacted whole. */
const WORDS = /(?<!\S)(?:sk-|ghp_|github_pat_|glpat-|xoxb-|xoxp-|tskey-|eyJ)\S*/g;
/** SECRETS: the shapes redacted anywhere in the text. */
const SECRETS = [
  /sk-[A-Za-z0-9_-]{20,}/g,
  /ghp_[A-Za-z0-9]{36}/g,
  /github_pat_[A-Za-z0-9_]{82}/g,
  /glpat-[A-Za-z0-9_-]{20,}/g,
  /xox[bp]-[A-Za-z0-9-]+/g,
  /tskey-[A-Za-z0-9-]+/g,
  /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)?/g,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
];
const BEARER = /(bearer) [A-Za-z0-9._~+/=-]{8,}/gi;
const USERINFO = /([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/\s:@]+:[^/\s@]+@/g;
const ASCII = /^[\x00-\x7f]*$/;
const TRUNCATED = " \u2026[truncated]";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** labbySanitize is the port: s cleaned, with at most max code points before the truncation marker. */
export function labbySanitize(s, max) {
  const limit = 4 * max; // bytes of UTF-8, cut on a character boundary
  let text = s.length > limit ? s.slice(0, limit) : s;
  let cut = s.length > limit;
  if (!ASCII.test(text)) {
    const b = encoder.encode(text);
    if (b.length > limit) {
      let end = limit;
      while (end > 0 && (b[end] & 0xc0) === 0x80) end--; // back to a character's start
      text = decoder.decode(b.subarray(0, end));
      cut = true;
    }
  }
  text = text.replace(CONTROLS, "");
  text = text.replace(MARKERS, "");
  text = text.replace(WORDS, "[REDACTED]");
  for (const secret of SECRETS) text = text.replace(secret, "[REDACTED]");
  text = text.replace(BEARER, "$1 [REDACTED]");
  text = text.replace(USERINFO, "$1[REDACTED]@");
  // Code points, not UTF-16 units: units are at least as many, so only a
  // longer text needs counting.
  if (cut || text.length > max) {
    const points = Array.from(text);
    if (cut || points.length > max) return points.slice(0, max).join("") + TRUNCATED;
  }
  return text;
}
