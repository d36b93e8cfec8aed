"""Micro-benchmarks of the reference Python package (gen/python).

They read the inputs the Go and TypeScript benchmarks read (bench/testdata),
and print each result as a line in Go's benchmark format, so one tool
tabulates all three:

  BenchmarkPython/SanitizeClean4KiB      52000      19234 ns/op     212.96 MB/s

Usage (from the repository root): tests/python/.venv/bin/python
tests/python/bench.py [--time 1] [--pkg gen/python] [--cpu]. Each benchmark
warms up, then runs for about --time seconds of measured work (wall time, or
the process's CPU time with --cpu). The numbers are for
comparison between runs on one machine; no test asserts on them.
test/test_sanitizer.py runs every benchmark once (smoke), so the script keeps
working.
"""

import argparse
import importlib
import json
import os
import sys
import time
from typing import Any, Callable, List, NamedTuple, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
TESTDATA = os.path.join(REPO, "bench", "testdata")

#: TEN_MIB is the size of the window benchmark's input: the dirty text repeated to 10 MiB.
TEN_MIB = 10 << 20


class Bench(NamedTuple):
    name: str
    bytes: int  # what one operation reads; 0: no MB/s
    op: Callable[[], Any]


def _read(name: str) -> bytes:
    with open(os.path.join(TESTDATA, name), "rb") as f:
        return f.read()


def inputs() -> Tuple[bytes, bytes, bytes, bytes]:
    """inputs reads the shared inputs: the envelope, the clean and dirty texts, and the dirty text repeated to 10,485,760 bytes, cut back to a code point boundary."""
    dirty = _read("sanitize-dirty-4k.txt")
    big = (dirty * (TEN_MIB // len(dirty) + 1))[:TEN_MIB]
    end = len(big)
    while end > 0 and big[end - 1] & 0xC0 == 0x80:
        end -= 1
    if end > 0 and big[end - 1] >= 0xC0:
        end -= 1  # a lead byte whose continuation bytes were cut off
    return _read("envelope.json"), _read("sanitize-clean-4k.txt"), dirty, big[:end]


#: SMALL_MAX is the maximum of the 4 KiB benchmarks.
SMALL_MAX = 4096


def benchmarks(pkg: Any) -> List[Bench]:
    """benchmarks lists the benchmarks of pkg on the shared inputs."""
    envelope, clean, dirty, big = inputs()
    texts = [b.decode("utf-8") for b in (clean, dirty, big)]
    as_json = [json.dumps(t) for t in texts[:2]]
    if pkg.sanitize_max(texts[0], SMALL_MAX) is not texts[0]:
        raise SystemExit("bench/testdata/sanitize-clean-4k.txt is not clean")
    try:
        pkg.lookup(pkg.from_json(envelope).kind)
    except Exception as e:  # noqa: BLE001 - say which input does not fit
        raise SystemExit(f"bench/testdata/envelope.json does not parse with {pkg.CONTRACT_NAME}: {e}")
    return [
        Bench("JSONLoads", len(envelope), lambda: json.loads(envelope)),
        Bench("ParseLookup", len(envelope), lambda: pkg.lookup(pkg.from_json(envelope).kind).http_status),
        # The bare parse of the same text, as a JSON string: what the sanitizer is compared with.
        Bench("JSONLoadsClean4KiB", len(clean), lambda: json.loads(as_json[0])),
        Bench("JSONLoadsDirty4KiB", len(dirty), lambda: json.loads(as_json[1])),
        # A maximum of 4096, as in Go's and TypeScript's benchmarks: the 4 KiB
        # inputs fit, so the clean text comes back unchanged instead of truncated.
        Bench("SanitizeClean4KiB", len(clean), lambda: pkg.sanitize_max(texts[0], SMALL_MAX)),
        Bench("SanitizeDirty4KiB", len(dirty), lambda: pkg.sanitize_max(texts[1], SMALL_MAX)),
        Bench("Sanitize10MiB", len(big), lambda: pkg.sanitize(texts[2])),
    ]


#: _clock is the clock of the measurements: wall time, as Go's benchmarks measure, or with --cpu the process's CPU time, which a machine busy with other work disturbs less.
_clock = time.perf_counter_ns


def _time(op: Callable[[], Any], n: int) -> int:
    start = _clock()
    for _ in range(n):
        op()
    return _clock() - start


def measure(op: Callable[[], Any], target_ns: float = 1e9) -> Tuple[int, int]:
    """measure runs op for about target_ns, the way Go's testing package does.

    It grows the iteration count from a prediction until one run lasts long
    enough, after a warm-up of about a tenth of the target (caches, the
    regular expressions' first use). It returns the iterations and the
    nanoseconds they took.
    """
    n, warm = 1, 0
    while warm < target_ns / 10:
        t = _time(op, n)
        warm += t
        if t < target_ns / 100:
            n *= 2
    n = 1
    while True:
        t = _time(op, n)
        if t >= target_ns or n >= 1_000_000_000:
            return n, t
        predicted = -(-n * target_ns * 1.2 // t) if t > 0 else n * 100
        n = max(n + 1, min(int(predicted), n * 100, 1_000_000_000))


def _pretty(x: float) -> str:
    """_pretty formats ns/op as Go does: fewer decimals for larger numbers."""
    if x >= 99.995:
        return f"{x:.0f}"
    if x >= 9.9995:
        return f"{x:.1f}"
    if x >= 0.99995:
        return f"{x:.2f}"
    return f"{x:.3f}"


def line(name: str, n: int, ns: int, size: int) -> str:
    """line formats one result in Go's benchmark format."""
    s = f"{'BenchmarkPython/' + name:<32} {n:>10}\t{_pretty(ns / n):>10} ns/op"
    if size > 0:
        s += f"\t{size * n * 1e3 / ns:>8.2f} MB/s"
    return s


def run(pkg: Any, smoke: bool = False, target_ns: float = 1e9, out: Optional[Callable[[str], None]] = None) -> List[str]:
    """run runs every benchmark of pkg and returns its lines; smoke runs each operation once, timing nothing that matters."""
    lines = []
    for b in benchmarks(pkg):
        n, ns = (1, max(1, _time(b.op, 1))) if smoke else measure(b.op, target_ns)
        lines.append(line(b.name, n, ns, b.bytes))
        if out is not None:
            out(lines[-1])
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description="Micro-benchmarks of the generated Python package, in Go's benchmark format.")
    ap.add_argument("--time", type=float, default=1.0, help="seconds of measured work per benchmark (default 1)")
    ap.add_argument("--pkg", default=os.path.join(REPO, "gen", "python"), help="the folder holding pyproject.toml and the package")
    ap.add_argument("--cpu", action="store_true", help="measure the process's CPU time instead of wall time (for a busy machine)")
    args = ap.parse_args()
    if args.cpu:
        global _clock
        _clock = time.process_time_ns
    found = [d for d in os.listdir(args.pkg) if os.path.exists(os.path.join(args.pkg, d, "__init__.py"))]
    if len(found) != 1:
        raise SystemExit(f"{args.pkg}: expected one package, found {found}")
    sys.path.insert(0, os.path.abspath(args.pkg))
    pkg = importlib.import_module(found[0])
    print(f"goos: {sys.platform}\npkg: {found[0]} (Python {sys.version.split()[0]}{', CPU time' if args.cpu else ''})")
    run(pkg, target_ns=args.time * 1e9, out=print)
    return 0


if __name__ == "__main__":
    sys.exit(main())
