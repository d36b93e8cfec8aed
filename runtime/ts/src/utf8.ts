// UTF-8 decoding with Go's rules, so text built from response bytes reads
// the same as in the Go package, without depending on TextDecoder.

/** decodeRune decodes the UTF-8 sequence at b[i] as Go's utf8.DecodeRune does: [code point, width], or [-1, 1] for an invalid or incomplete sequence. */
function decodeRune(b: Uint8Array, i: number): [number, number] {
  const b0 = b[i]!;
  if (b0 < 0x80) {
    return [b0, 1];
  }
  const cont = (j: number, lo = 0x80, hi = 0xbf): number => {
    const x = b[i + j];
    return x !== undefined && x >= lo && x <= hi ? x & 0x3f : -1;
  };
  if (b0 >= 0xc2 && b0 <= 0xdf) {
    const c1 = cont(1);
    return c1 < 0 ? [-1, 1] : [((b0 & 0x1f) << 6) | c1, 2];
  }
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const c1 = b0 === 0xe0 ? cont(1, 0xa0) : b0 === 0xed ? cont(1, 0x80, 0x9f) : cont(1);
    const c2 = c1 < 0 ? -1 : cont(2);
    return c2 < 0 ? [-1, 1] : [((b0 & 0x0f) << 12) | (c1 << 6) | c2, 3];
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const c1 = b0 === 0xf0 ? cont(1, 0x90) : b0 === 0xf4 ? cont(1, 0x80, 0x8f) : cont(1);
    const c2 = c1 < 0 ? -1 : cont(2);
    const c3 = c2 < 0 ? -1 : cont(3);
    return c3 < 0 ? [-1, 1] : [((b0 & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3, 4];
  }
  return [-1, 1];
}

/**
 * decodeUtf8 decodes bytes as UTF-8. Invalid bytes become U+FFFD: each one
 * on its own (as Go's encoding/json does inside strings), or each run of
 * them as one (collapse: Go's strings.ToValidUTF8).
 */
export function decodeUtf8(b: Uint8Array, collapse: boolean): string {
  const parts: string[] = [];
  let codes: number[] = [];
  let inInvalid = false;
  for (let i = 0; i < b.length; ) {
    const [r, w] = decodeRune(b, i);
    i += w;
    if (r < 0) {
      if (!(collapse && inInvalid)) {
        codes.push(0xfffd);
      }
      inInvalid = true;
    } else {
      codes.push(r);
      inInvalid = false;
    }
    if (codes.length >= 4096) {
      parts.push(String.fromCodePoint(...codes));
      codes = [];
    }
  }
  parts.push(String.fromCodePoint(...codes));
  return parts.join("");
}

/** utf8Length is the number of bytes s takes in UTF-8 (a lone surrogate counts as U+FFFD). */
export function utf8Length(s: string): number {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

/** truncateUtf8 returns the longest prefix of s that takes at most max bytes in UTF-8 without splitting a character. */
export function truncateUtf8(s: string, max: number): string {
  let n = 0;
  let end = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    const w = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    if (n + w > max) {
      break;
    }
    n += w;
    end += ch.length;
  }
  return s.slice(0, end);
}

/** encodeUtf8 is s in UTF-8, a lone surrogate as U+FFFD (TextEncoder's encoding, which the package's strict lib settings do not declare). */
export function encodeUtf8(s: string): Uint8Array {
  const out: number[] = [];
  for (const ch of s) {
    let c = ch.codePointAt(0)!;
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
    if (c < 0x80) {
      out.push(c);
    } else if (c < 0x800) {
      out.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
      out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    } else {
      out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    }
  }
  return Uint8Array.from(out);
}
