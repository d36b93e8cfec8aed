// The ErrorInfo reason of a kind (AIP-193), in a module of its own: the
// classification lookup computes an unknown kind's reason, and aip193.ts
// reads the classification, so neither may import the other.

/**
 * aipReason is the ErrorInfo reason of a kind: its words upper-cased and
 * joined with "_", "KIND" put before a result shorter than 3 or not
 * starting with a letter, at most 63 characters. A word ends at every
 * character other than an ASCII letter or digit, before an upper-case
 * letter that follows a lower-case letter or a digit, and before an
 * upper-case letter followed by a lower-case one after an upper-case one
 * (HTTPError: HTTP, Error). lookup computes it for a kind the contract
 * does not know. (Exported for classification.ts; the index does not
 * export it.)
 */
export function aipReason(kind: string): string {
  const lower = (c: string | undefined): boolean => c !== undefined && c >= "a" && c <= "z";
  const upper = (c: string | undefined): boolean => c !== undefined && c >= "A" && c <= "Z";
  const digit = (c: string | undefined): boolean => c !== undefined && c >= "0" && c <= "9";
  let r = "";
  let word = 0; // the length of the current word
  for (let i = 0; i < kind.length; i++) {
    const c = kind[i]!;
    if (!lower(c) && !upper(c) && !digit(c)) {
      word = 0;
      continue;
    }
    if (upper(c) && word > 0) {
      const prev = kind[i - 1];
      if (lower(prev) || digit(prev) || (upper(prev) && lower(kind[i + 1]))) {
        word = 0;
      }
    }
    if (word === 0 && r !== "") {
      r += "_";
    }
    r += lower(c) ? c.toUpperCase() : c;
    word++;
  }
  if (r.length < 3 || !upper(r[0])) {
    r = r === "" ? "KIND" : "KIND_" + r;
  }
  if (r.length > 63) {
    r = r.slice(0, 63).replace(/_+$/, "");
  }
  return r;
}
