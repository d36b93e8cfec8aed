"""The worst-case search for the Python sanitizer: which short piece, repeated, costs the most per byte.

It times every piece of one to three trigger characters and four-character
pieces over a smaller alphabet, extends the slowest by one character,
adds pieces of one to three trigger words, then mutates the slowest at
random (insert, replace or delete a character or word), keeping what is
slower still; each piece is repeated to 4 KiB for the screen, and the
slowest are timed again at 16 KiB. It only prints (CPU time, so other work
on the machine disturbs it less); no test runs it, and bench.py's CRAFTED
names what it found. Run from the repository root:

  tests/python/.venv/bin/python tests/python/sanitize_search.py [mutations] [--pkg gen/python]

It takes a few minutes.
"""

import argparse
import importlib
import itertools
import os
import random
import sys
import time
from typing import List, Set, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))

#: CHARS are the trigger characters: separators, quotes, path and marker characters, the letters the shapes start with, white space, non-ASCII.
CHARS = list(":= a-_./\\<>|[]#\"'@?&;eyJskbBxA\t\n") + ["é"]
#: SMALL is the alphabet of the four-character pieces.
SMALL = list(":= a-./\\<#\"@eskb")
#: WORDS are the trigger words: the shapes' literals, keys, markers and their pieces.
WORDS = ["sk-", "ghp_", "github_pat_", "xoxb-", "tskey-", "AKIA", "AIza", "npm_", "sk_live_", "whsec_", "eyJ", "eyJa.", "-----BEGIN ", "PRIVATE KEY",
         "-----", "-----END ", "Bearer", "bearer ", "Authorization", "://", "http://", "u:p@", "/home/", "/Users/", "C:", "\\Users\\", "\\\\Users\\\\", ".ssh",
         "id_rsa", ".kube", "/config", ".pem", ".key", "token", "pwd", "pass", "password", "_key", "sort_key", "code", "sig", "?code=", "<system>", "<sys",
         "tem>", "<<", "###", "[INST]", "<|im_start|>", "<|", "|>", "x", " ", "=", ":", "\"", "'", "\\", "/", ".", "-", "a", "é", "\ufffd", "\t"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mutations", nargs="?", type=int, default=3000)
    ap.add_argument("--pkg", default=os.path.join(REPO, "gen", "python"))
    args = ap.parse_args()
    found = [d for d in os.listdir(args.pkg) if os.path.exists(os.path.join(args.pkg, d, "__init__.py"))]
    sys.path.insert(0, os.path.abspath(args.pkg))
    pkg = importlib.import_module(found[0])

    def rate(piece: str, size: int, runs: int) -> float:
        s = (piece * (size // len(piece) + 1))[:size]
        best = 1e9
        for _ in range(runs):
            t0 = time.process_time()
            pkg.sanitize_max(s, 1 << 20)
            best = min(best, time.process_time() - t0)
        return len(s.encode("utf-8", "surrogatepass")) / max(best, 1e-7) / 1e6

    def screen(pieces: Set[str]) -> List[Tuple[float, str]]:
        return sorted((rate(p, 4096, 2), p) for p in sorted(pieces))

    start = time.time()
    pieces = {"".join(c) for k in (1, 2, 3) for c in itertools.product(CHARS, repeat=k)}
    pieces |= {"".join(c) for c in itertools.product(SMALL, repeat=4)}
    results = screen(pieces)
    top = [p for _, p in results[:150]]
    extended = {q for p in top for c in CHARS for q in (p + c, c + p) if len(q) <= 4} - pieces
    results += screen(extended)
    words = set(WORDS) | {a + b for a in WORDS for b in WORDS} | {a + b + c for a in WORDS[:40] for b in WORDS for c in ["", " ", "=", ":", "x", "/", "\\", "."]}
    results += screen(words - pieces - extended)
    results.sort()
    print(f"screened {len(results)} pieces in {time.time() - start:.0f} s", flush=True)
    rng = random.Random(21)
    units = CHARS + WORDS
    seen = {p for _, p in results}
    best = results[:40]
    for _ in range(args.mutations):
        _, p = best[rng.randrange(min(len(best), 20))]
        i = rng.randrange(len(p) + 1)
        op = rng.randrange(3)
        if op == 0:
            q = p[:i] + rng.choice(units) + p[i:]
        elif op == 1 and len(p) > 1:
            q = p[:i] + rng.choice(units) + p[i + 1:]
        else:
            q = p[:i] + p[i + 1:] if len(p) > 1 else p + rng.choice(units)
        if not q or q in seen or len(q) > 40:
            continue
        seen.add(q)
        r = rate(q, 4096, 2)
        if r < best[-1][0]:
            best = sorted(best + [(r, q)])[:40]
    final = sorted({p for _, p in results[:60] + best})
    for r, p in sorted((rate(p, 16384, 3), p) for p in final)[:40]:
        print(f"{r:8.1f} MB/s  {p!r}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
