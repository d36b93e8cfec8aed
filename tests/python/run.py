"""Runs the tests of every generated Python package, contract-independently.

The packages: gen/python under the repository root and under each
examples/<name>/, plus the internal/gengo/testdata contracts generated into
build/_contracts/<case> with bin/errgen. For each package, in parallel:

  1. mypy --strict (targeting Python 3.9) on the package, and on
     usage/usage.py with the package's name filled in;
  2. pytest over test/ with the package, its output root (conformance
     vectors, schemas) and its contract in the environment: the vectors,
     constructors, exceptions, MCP helpers, schemas, and a consumer install
     (pip builds from the folder and from git, after which `errgen check`
     on the output root must pass).

Once for every package, beside them: pytest over clients/, real MCP client
and server sessions (the mcp SDK, in memory), with every package listed in
ERRGEN_PY_PACKAGES.

And the runtime they ship, where it is written (runtime/python): mypy
--strict on runtime/python/src/errgen_runtime against the reference
contract's modules, which runtime_fixture copies from gen/python into
runtime/python/fixture (one namespace package over both directories, as the
modules sit together in a generated package), and pytest over
runtime/python/test.

Usage: python run.py, with the tools of requirements.txt installed
(`make test-python` creates tests/python/.venv and installs them). The last
line is "python: N passed, N failed".
"""

import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from typing import Dict, List, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
BUILD = os.path.join(HERE, "build")


def sh(args: List[str], cwd: str = HERE, env: "Dict[str, str] | None" = None) -> Tuple[int, str]:
    r = subprocess.run(args, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return r.returncode, r.stdout


def package_of(src: str) -> str:
    """The import name: the folder beside pyproject.toml holding __init__.py."""
    found = [os.path.basename(os.path.dirname(p)) for p in glob.glob(os.path.join(src, "*", "__init__.py"))]
    if len(found) != 1:
        raise SystemExit(f"{src}: expected one package, found {found}")
    return found[0]


def roots() -> List[Tuple[str, str]]:
    """The output roots holding a generated Python package, each with its contract."""
    out = []
    if os.path.exists(os.path.join(REPO, "gen/python/pyproject.toml")):
        out.append((REPO, os.path.join(REPO, "contract", "kinds.yaml")))
    for d in sorted(glob.glob(os.path.join(REPO, "examples", "*"))):
        if os.path.exists(os.path.join(d, "gen/python/pyproject.toml")):
            out.append((d, os.path.join(d, "kinds.yaml")))
    return out


def testdata_roots() -> List[Tuple[str, str]]:
    errgen = os.path.join(REPO, "bin", "errgen")
    out = []
    for contract in sorted(glob.glob(os.path.join(REPO, "internal/gengo/testdata/*/kinds.yaml"))):
        case = os.path.basename(os.path.dirname(contract))
        # "_" keeps `go test ./...` and `go vet ./...` out of the generated Go packages.
        target = os.path.join(BUILD, "_contracts", case)
        os.makedirs(target, exist_ok=True)
        args = ["generate", "-contract", contract, "-out", target]
        code, text = sh([errgen, *args]) if os.path.exists(errgen) else sh(["go", "run", "./cmd/errgen", *args], cwd=REPO)
        if code != 0:
            print(f"notice: cannot generate the {case} test contract ({text.strip() or 'no errgen'}); skipping it")
            continue
        out.append((target, contract))
    return out


def mypy(name: str, src: str, out: str) -> Tuple[int, str]:
    usage = os.path.join(out, "usage")
    os.makedirs(usage, exist_ok=True)
    with open(os.path.join(HERE, "usage", "usage.py"), encoding="utf-8") as f:
        text = f.read().replace("errgen_pkg", name)
    with open(os.path.join(usage, "usage.py"), "w", encoding="utf-8") as f:
        f.write(text)
    env = dict(os.environ, MYPYPATH=src)
    return sh([sys.executable, "-m", "mypy", "--strict", "--python-version", "3.9", "--no-error-summary",
               "--cache-dir", os.path.join(MYPY_CACHE, name), name, os.path.join(usage, "usage.py")], cwd=src, env=env)


RUNTIME = os.path.join(REPO, "runtime", "python")
# mypy's incremental caches, one a package, kept from run to run (BUILD is
# emptied each run): mypy, in its default incremental mode, rechecks every
# module whose file (by hash) or whose dependencies' interfaces changed, and
# never keeps a module with errors in its cache, so it reports the same
# errors; what a warm cache spares is re-reading typeshed's standard library
# and the modules nothing has changed (about 2.3 -> 0.2 CPU-seconds a
# package). Under the repository's build/, which git ignores.
MYPY_CACHE = os.path.join(REPO, "build", "mypy-cache")


def runtime_fixture() -> None:
    """Fills runtime/python/fixture (git ignores it) with the reference contract's own modules.

    They are every module of the committed reference package that the
    runtime does not hold itself (the contract-shaped ones: _contract,
    _envelope, …), copied as they are, so the fixture is always the package
    `make generate` wrote and never a copy someone must remember to refresh.
    """
    generated = os.path.join(REPO, "gen", "python", "agent_error")
    runtime = set(os.listdir(os.path.join(RUNTIME, "src", "errgen_runtime")))
    target = os.path.join(RUNTIME, "fixture", "errgen_runtime")
    shutil.rmtree(os.path.join(RUNTIME, "fixture"), ignore_errors=True)
    os.makedirs(target)
    for name in sorted(os.listdir(generated)):
        if name.endswith(".py") and name != "__init__.py" and name not in runtime:
            shutil.copyfile(os.path.join(generated, name), os.path.join(target, name))


def runtime_mypy() -> Tuple[int, str]:
    env = dict(os.environ, MYPYPATH=os.pathsep.join([os.path.join(RUNTIME, "src"), os.path.join(RUNTIME, "fixture")]))
    return sh([sys.executable, "-m", "mypy", "--strict", "--python-version", "3.9", "--no-error-summary", "--explicit-package-bases",
               "--cache-dir", os.path.join(MYPY_CACHE, "_runtime"), "-p", "errgen_runtime"], cwd=RUNTIME, env=env)


def junit_counts(xml: str) -> Dict[str, int]:
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    if os.path.exists(xml):
        root = ET.parse(xml).getroot()
        suite = root if root.tag == "testsuite" else root.find("testsuite")
        for k in counts:
            counts[k] = int(suite.get(k, "0")) if suite is not None else 0
    return counts


def runtime_pytest() -> Tuple[int, str, Dict[str, int]]:
    xml = os.path.join(BUILD, "_runtime", "junit.xml")
    code, text = sh([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--junitxml", xml, os.path.join(RUNTIME, "test")],
                    cwd=RUNTIME, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    return code, text, junit_counts(xml)


def pytest(name: str, root: str, src: str, out: str, contract: str) -> Tuple[int, str, Dict[str, int]]:
    xml = os.path.join(out, "junit.xml")
    env = dict(os.environ, ERRGEN_PY_NAME=name, ERRGEN_PY_ROOT=root, ERRGEN_PY_SRC=src, ERRGEN_PY_BUILD=out,
               ERRGEN_PY_CONTRACT=contract, PYTHONDONTWRITEBYTECODE="1")
    # The test contracts (built into BUILD) test what their names and texts
    # do to a package; how a package installs is the same for every contract,
    # and is tested on the shipped ones here and, by version from a registry,
    # by tests/e2e.
    skip = ["--ignore", os.path.join(HERE, "test", "test_consumer.py")] if root.startswith(BUILD + os.sep) else []
    code, text = sh([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--junitxml", xml, *skip, os.path.join(HERE, "test")], env=env)
    return code, text, junit_counts(xml)


def clients_pytest(packages: List[Tuple[str, str, str, str, str]]) -> Tuple[int, str, Dict[str, int]]:
    """pytest over clients/ once for every package (listed in ERRGEN_PY_PACKAGES): the real MCP client and server sessions."""
    xml = os.path.join(BUILD, "_clients", "junit.xml")
    listed = json.dumps([{"name": n, "src": s, "root": r} for n, r, s, _, _ in packages])
    code, text = sh([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--junitxml", xml, os.path.join(HERE, "clients")],
                    env=dict(os.environ, ERRGEN_PY_PACKAGES=listed, PYTHONDONTWRITEBYTECODE="1"))
    return code, text, junit_counts(xml)


def report(what: str, code: int, text: str, c: Dict[str, int], totals: Dict[str, int]) -> bool:
    """report prints one pytest run's counts, adds them to totals and prints its output when it failed; it returns whether it failed."""
    bad = c["failures"] + c["errors"]
    totals["passed"] += c["tests"] - bad - c["skipped"]
    totals["failed"] += bad
    print(f"pytest {what}: {c['tests']} tests, {c['tests'] - bad - c['skipped']} passed, {bad} failed, {c['skipped']} skipped")
    if code == 0:
        return False
    if bad == 0:
        totals["failed"] += 1
    print(text)
    return True


def main() -> int:
    started = time.time()
    shutil.rmtree(BUILD, ignore_errors=True)
    os.makedirs(BUILD)
    packages = []
    for root, contract in roots() + testdata_roots():
        src = os.path.join(root, "gen", "python")
        name = package_of(src)
        packages.append((name, root, src, os.path.join(BUILD, name), contract))
    if not packages:
        print("no generated Python package found (gen/python/pyproject.toml); run `make generate`")
        return 1
    failed = False
    totals = {"passed": 0, "failed": 0}
    runtime_fixture()
    with ThreadPoolExecutor(max_workers=min(8, 2 * len(packages))) as pool:
        runtime_check = pool.submit(runtime_mypy)
        runtime_run = pool.submit(runtime_pytest)
        clients_run = pool.submit(clients_pytest, packages)
        checks = [pool.submit(mypy, n, s, o) for n, _, s, o, _ in packages]
        runs = [pool.submit(pytest, n, r, s, o, c) for n, r, s, o, c in packages]
        code, text = runtime_check.result()
        print(f"mypy --strict runtime/python (against fixture/): {'ok' if code == 0 else 'FAILED'}")
        if code != 0:
            print(text)
            failed = True
            totals["failed"] += 1
        else:
            totals["passed"] += 1
        failed = report("runtime/python", *runtime_run.result(), totals) or failed
        for (name, root, src, out, _), check, run in zip(packages, checks, runs):
            code, text = check.result()
            print(f"mypy --strict {os.path.relpath(src, REPO)} and usage/usage.py: {'ok' if code == 0 else 'FAILED'}")
            if code != 0:
                print(text)
                failed = True
                totals["failed"] += 1
            else:
                totals["passed"] += 1
            code, text, c = run.result()
            bad = c["failures"] + c["errors"]
            passed = c["tests"] - bad - c["skipped"]
            totals["passed"] += passed
            totals["failed"] += bad
            print(f"pytest {name} ({os.path.relpath(root, REPO)}): {c['tests']} tests, {passed} passed, {bad} failed, {c['skipped']} skipped")
            # test_nosecret.py's seed and counts.
            if os.path.exists(os.path.join(out, "nosecret.txt")):
                with open(os.path.join(out, "nosecret.txt"), encoding="utf-8") as f:
                    print("  " + f.read().strip())
            # test_sanitizer.py and test_readerdiff.py leave the counts of the differential vectors here.
            for note in (os.path.join(out, "sanitize-diff.txt"), os.path.join(out, "reader-diff.txt")):
                if os.path.exists(note):
                    with open(note, encoding="utf-8") as f:
                        print("  " + f.read().strip().replace("\n", "\n  "))
            if code != 0:
                failed = True
                if bad == 0:
                    totals["failed"] += 1
                print(re.sub(r"(?m)^\.+\s*\[\s*\d+%\]\n", "", text))
        failed = report("clients/ (real MCP clients, every package)", *clients_run.result(), totals) or failed
    names = ", ".join(p[0] for p in packages)
    print(f"Python tests {'FAILED' if failed else 'passed'} for {names} in {time.time() - started:.1f} s")
    # The last line is the plain summary CI readers look for.
    print(f"python: {totals['passed']} passed, {totals['failed']} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
