"""The Python checker of tests/e2e/imports.sh:

    python3 check.py NAME=PACKAGE_DIR:MODULE... -- EXPECTATION.json...

imports each generated Python package from its directory (the one pip
would install) and holds the one each expectation file of imports/expect.py
names as its reader to it, as check.go does the Go packages. Exits 1 on
any difference.
"""

import dataclasses
import importlib
import json
import sys
from types import ModuleType
from typing import Any, Dict, List

args = sys.argv[1:]
sep = args.index("--")
readers: Dict[str, ModuleType] = {}
for a in args[:sep]:
    name, spec = a.split("=", 1)
    path, module = spec.rsplit(":", 1)
    sys.path.insert(0, path)
    readers[name] = importlib.import_module(module)


def problems_of(pkg: Any, x: Dict[str, Any]) -> List[str]:
    problems: List[str] = []

    def bad(name: str, got: Any, want: Any) -> None:
        if got != want:
            problems.append(f"{name}: {got!r}, want {want!r}")

    for v in x["envelopes"]:
        try:
            env = pkg.from_json(v["text"])
        except Exception as e:  # noqa: BLE001 - every failure is a difference to report
            problems.append(f"{v['name']}: {e}")
            continue
        bad(f"{v['name']}: decoded and encoded again", env.to_json(), v["text"])
        got = [env.kind, pkg.is_known_kind(env.kind), pkg.is_retryable(env), pkg.http_status(env)]
        bad(f"{v['name']}: kind, known, retryable, HTTP status", got, [v[k] for k in ("kind", "known", "retryable", "http_status")])
        c = dataclasses.asdict(pkg.lookup(env.kind))
        for name, want in v["lookup"].items():
            bad(f"{v['name']}: lookup({env.kind}).{name}", c[name], want)
    for v in x["next_step"]:
        env = pkg.from_json(v["text"])
        for a in v["attempts"]:
            d = dataclasses.asdict(pkg.next_step(env, a["attempt"]))
            bad(f"next step {v['name']}", {"attempt": a["attempt"], **d}, a)
    return problems


failed = False
for path in args[sep + 1:]:
    with open(path, encoding="utf-8") as f:
        x = json.load(f)
    problems = problems_of(readers[x["reader"]], x)
    for p in problems:
        print(f"python: {x['reader']} reading {x['source']}: {p}", file=sys.stderr)
    failed = failed or bool(problems)
    print(f"python: {x['reader']} reads {x['source']}'s {len(x['envelopes'])} envelopes and {len(x['next_step'])} next-step cases: {len(problems)} differences")
sys.exit(1 if failed else 0)
