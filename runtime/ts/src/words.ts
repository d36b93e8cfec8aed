// The word matcher of the inbound classifiers. Its rules are deliberately
// simple so the Go, TypeScript and Python classifiers agree on every input:
// only ASCII letters are folded, and a word boundary is any character that
// is not an ASCII letter, digit or underscore.

/** asciiLower lower-cases the ASCII letters of s and nothing else. */
export function asciiLower(s: string): string {
  return s.replace(/[A-Z]+/g, (run) => run.toLowerCase());
}

function wordChar(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || code === 0x5f;
}

/** hasWord reports whether lower (already ASCII-lowered) contains any of the phrases as a whole word: not preceded or followed by a word character. */
export function hasWord(lower: string, phrases: readonly string[]): boolean {
  for (const p of phrases) {
    for (let from = 0; from + p.length <= lower.length; ) {
      const i = lower.indexOf(p, from);
      if (i < 0) {
        break;
      }
      const end = i + p.length;
      if ((i === 0 || !wordChar(lower.charCodeAt(i - 1))) && (end === lower.length || !wordChar(lower.charCodeAt(end)))) {
        return true;
      }
      from = i + 1;
    }
  }
  return false;
}
