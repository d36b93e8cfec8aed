"""The property of docs/sanitizer.md ("What it does not do", the bound).

A secret of any shape the default policy knows, whatever padding is put
around and inside it (characters step 1 deletes, of any length, controls,
markers, earlier secrets that shrink the text when redacted, so that the
window's edge reaches the output, text that puts it at the truncation
edge), never leaves a character of its token in the output: at most a part
of its fixed start. Step 4 never cuts a [REDACTED] in half, and the output
is a fixpoint. The generator is the one of the Go, TypeScript and Rust tests
(xorshift32, the same draws in the same order), so a seed gives the same
cases in each. SANITIZE_EDGE_SEED sets the seed.
"""

import os
from typing import List, Tuple

import pytest

from env import pkg, root

REFERENCE = os.path.abspath(root) == os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


class Rng:
    """xorshift32."""

    def __init__(self, seed: int) -> None:
        self.x = seed & 0xFFFFFFFF

    def next(self) -> int:
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x

    def intn(self, n: int) -> int:
        return self.next() % n


PREFIXES = ["sk-", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "xoxa-", "xoxb-", "xoxe-", "xoxp-",
            "xoxr-", "xoxs-", "tskey-", "AKIA", "ASIA", "AIza", "sk_live_", "sk_test_", "rk_live_", "rk_test_", "pk_live_",
            "pk_test_", "whsec_", "npm_"]
#: SHAPES: a fixed start (which may survive, cut short by the window) and what completes the shape.
SHAPES: List[Tuple[str, str]] = [(p, "") for p in PREFIXES] + [
    ("eyJ", ""),
    ("Bearer ", ""),
    ("password=", ""),
    ("Authorization: Basic ", ""),
    ("https://user:", "@db.example.com"),
    ("-----BEGIN RSA PRIVATE KEY-----\n", "\n-----END RSA PRIVATE KEY-----"),
    ("/home/", "/project"),
]
UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
DELETABLE = ["\u200b", "\u00ad", "\U000E0041", "\x01", "\u0085", "\ufeff", "\u202e", "\x7f"]
WORDS = ["error ", "upstream: ", "timeout, ", "a\tb\n", "x", "=", "é", "日本 "]
MARKERS = ["<system>", "[INST]", "###", "<|im_start|>", "<<"]


def token(r: Rng, n: int) -> str:
    """token is upper-case letters and digits with a digit second: no padding holds either, so two of its characters in a row in the output are a leak."""
    b = [UPPER[r.intn(len(UPPER))] for _ in range(n)]
    b[1] = UPPER[26 + r.intn(10)]
    return "".join(b)


def lower(r: Rng, n: int) -> str:
    return "".join(chr(0x61 + r.intn(26)) for _ in range(n))


def one(r: Rng) -> Tuple[str, int, str, str]:
    max_length = 64 + r.intn(240)
    if r.intn(8) == 0:
        max_length = 2048
    fixed, tail = SHAPES[r.intn(len(SHAPES))]
    tok = token(r, 82 + r.intn(16))
    if fixed == "eyJ":
        a = token(r, 17)
        b = token(r, 20)
        tok = f"{a}.{b}.{token(r, 20)}"
    secret = fixed + tok
    if r.intn(2) == 0:
        k = r.intn(len(secret))
        ins = DELETABLE[r.intn(len(DELETABLE))] * (1 + r.intn(4))
        if r.intn(2) == 0:
            ins = MARKERS[r.intn(len(MARKERS))]
        secret = secret[:k] + ins + secret[k:]
    secret += tail
    pre: List[str] = []
    for _ in range(r.intn(6)):
        kind = r.intn(4)
        if kind == 0:
            pre.append(WORDS[r.intn(len(WORDS))])
        elif kind == 1:
            pre.append(MARKERS[r.intn(len(MARKERS))])
        else:
            m = 40 + r.intn(80)
            pre.append(f" sk-{lower(r, m)} ")
    joiner = " "
    if len(fixed) <= 11 and fixed not in ("Bearer ", "password=", "/home/", "https://user:"):
        joiner = ["", " ", "x", ":", "\t"][r.intn(5)]
    have = sum(len(p) for p in pre)
    if r.intn(3) < 2:
        # At the window's edge.
        target = 4 * max_length - r.intn(len(secret) + 8)
        if r.intn(3) == 0:
            while have + 120 < target - len(joiner) and r.intn(40) != 0:
                pre.append(f"sk-{lower(r, 116)} ")
                have += 120
        unit = DELETABLE[r.intn(len(DELETABLE))]
        fill = target - have - len(joiner)
        if fill > 0:
            pre.append(unit * fill)
    else:
        # At the truncation edge.
        target = max_length - 14 - r.intn(len(secret) + 4)
        if target > have:
            pre.append("w" * (target - have))
    after = ""
    if r.intn(2) == 0:
        after = " and more text after it " + "z" * r.intn(4 * max_length)
    return "".join(pre) + joiner + secret + after, max_length, fixed, tok


@pytest.mark.skipif(not REFERENCE, reason="run through the reference contract's package only")
def test_no_secret_at_the_edges() -> None:
    seed = int(os.environ.get("SANITIZE_EDGE_SEED", "20261207")) & 0xFFFFFFFF
    cases = 400
    r = Rng(seed | 1)
    leaks = cuts = 0
    failures: List[str] = []
    marker = " …[truncated]"
    for i in range(cases):
        text, max_length, fixed, tok = one(r)
        out = pkg.sanitize_max(text, max_length)
        if tok[:2] in out or fixed + tok[0] in out:
            leaks += 1
            failures.append(f"case {i} (max {max_length}): a token of {fixed!r} survives: {out[-300:]!r}")
        if out.endswith(marker):
            kept = out[: -len(marker)]
            for j in range(1, 10):
                if kept.endswith("[REDACTED]"[:j]):
                    cuts += 1
                    failures.append(f"case {i} (max {max_length}): truncation cut a marker: {out[-60:]!r}")
        again = pkg.sanitize_max(out, max_length)
        if again != out:
            failures.append(f"case {i} (max {max_length}): not a fixpoint: {out!r} {again!r}")
    print(f"sanitizer edge property: seed {seed}, {cases} cases, {leaks} leaks, {cuts} markers cut")
    assert failures == [], "\n".join(failures)
