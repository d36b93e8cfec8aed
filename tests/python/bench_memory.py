"""The Python rows of the decoders' memory benchmark (issue 28, make bench-memory).

from_json on the hostile documents that tests/go/cmd/hostiledocs writes, read
as bytes, with no size limit. Each shape runs in a process of its own, so
that the peak resident size the kernel reports (ru_maxrss) is that decode's;
peak-x is it less the resident size before the decode, kept-x the resident
size after the decode (the envelope alive) less the same. With --tracemalloc
both come from tracemalloc instead (every allocation through Python's
allocators, which is all the decoder makes), exact but about ten times
slower on the nested shapes. Each result is a line in Go's benchmark
format:

  BenchmarkPythonDecodeHostile/shape=members   1   2.1e9 ns/op   23.1 peak-x   9.8 kept-x

peak-x and kept-x are over the input's size. impl=json_loads is the
baseline: a bare json.loads of the same bytes. No check asserts on a number.

Usage (from the repository root): tests/python/.venv/bin/python
tests/python/bench_memory.py DIR [--pkg gen/python] [--tracemalloc]
"""

import argparse
import gc
import importlib
import json
import os
import resource
import subprocess
import sys
import time
import tracemalloc

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
SHAPES = ["members", "nested_arrays", "nested_objects", "strings", "numbers"]


def rss() -> int:
    """rss is the process's resident size now, in bytes."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def one(pkg_dir: str, path: str, shape: str, impl: str, traced: bool) -> None:
    sys.path.insert(0, os.path.abspath(pkg_dir))
    names = [n for n in os.listdir(pkg_dir) if os.path.isfile(os.path.join(pkg_dir, n, "__init__.py"))]
    pkg = importlib.import_module(names[0])
    with open(path, "rb") as f:
        data = f.read()
    gc.collect()
    if traced:
        tracemalloc.start()
        base, _ = tracemalloc.get_traced_memory()
    else:
        base = rss()
    start = time.perf_counter_ns()
    env = pkg.from_json(data, max_bytes=None) if impl == "errgen" else json.loads(data)
    took = time.perf_counter_ns() - start
    if traced:
        now, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    else:
        now, peak = rss(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    if (env.tool if impl == "errgen" else env["tool"]) != "t":
        raise SystemExit(f"{shape}: the last member was not read")
    n = len(data)
    print(f"BenchmarkPythonDecodeHostile/shape={shape}/impl={impl}\t1\t{took} ns/op\t{(peak - base) / n:.3f} peak-x\t{(now - base) / n:.3f} kept-x", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", help="the directory of <shape>.json")
    ap.add_argument("--pkg", default=os.path.join(REPO, "gen", "python"), help="the folder holding pyproject.toml and the package")
    ap.add_argument("--tracemalloc", action="store_true", help="measure with tracemalloc, not the resident size")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("--impl", default="errgen", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        one(args.pkg, os.path.join(args.dir, args.one + ".json"), args.one, args.impl, args.tracemalloc)
        return
    print("pkg: python", flush=True)
    for shape in SHAPES:
        for impl in ("errgen", "json_loads"):
            subprocess.run([sys.executable, __file__, args.dir, "--pkg", args.pkg, "--one", shape, "--impl", impl] + (["--tracemalloc"] if args.tracemalloc else []), check=True)


if __name__ == "__main__":
    main()
