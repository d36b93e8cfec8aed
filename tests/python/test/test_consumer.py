"""The package as another project takes it: pip builds it in place from the
generated folder and from a git repository holding it (#subdirectory=), the
sdist and the wheels carry what a typed package needs, a program in a fresh
virtual environment outside the repository imports and uses it, and none of
this leaves a file in the generated folder or a complaint from `errgen check`.

Nothing is fetched: the build backend is the flit_core pinned in
requirements.txt (pip --no-build-isolation --no-index), and the test checks
that the generated pyproject.toml allows that version, so what is tested is
what pip would fetch for a user."""

import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import venv
import zipfile
from typing import Dict, List

import flit_core
from packaging.requirements import Requirement

from env import contract, fallback_vector, name, new_env, pkg, root, src, vectors

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def run(*args: str, cwd: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON") and not k.startswith("GIT_")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    r = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, f"{' '.join(args)}:\n{r.stdout}\n{r.stderr}"
    return r.stdout


def tree(folder: str) -> Dict[str, float]:
    """Every file and folder under folder with its modification time; bytecode caches left aside (this test writes none, a developer's run may)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        for n in dirnames + filenames:
            p = os.path.join(dirpath, n)
            out[os.path.relpath(p, folder)] = os.lstat(p).st_mtime
    return out


def pyproject() -> str:
    with open(os.path.join(src, "pyproject.toml"), encoding="utf-8") as f:
        return f.read()


def dist_name() -> str:
    m = re.search(r'(?ms)^\[project\]$.*?^name = "([^"]+)"$', pyproject())
    assert m, "pyproject.toml has no [project] name"
    return m.group(1)


def build_requires() -> List[str]:
    m = re.search(r"(?m)^requires = (\[.*\])$", pyproject())
    assert m, "pyproject.toml has no [build-system] requires"
    requires: List[str] = json.loads(m.group(1))
    return requires


def test_pinned_backend_is_allowed() -> None:
    """The backend the tests build with is one the generated pyproject.toml lets pip fetch."""
    backends = [Requirement(r) for r in build_requires()]
    assert [r.name for r in backends] == ["flit_core"], backends
    assert backends[0].specifier.contains(flit_core.__version__), f"flit_core {flit_core.__version__} (requirements.txt) is outside {backends[0]}"
    assert re.search(r'(?m)^build-backend = "flit_core\.buildapi"$', pyproject())


def test_pip_install_and_use() -> None:
    tmp = tempfile.mkdtemp(prefix="errgen-py-consumer-")
    before = tree(src)
    try:
        wheels = os.path.join(tmp, "wheels")
        # In place, as `pip install <folder>` builds: no copy to hide what a backend writes.
        run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q", "-w", wheels, src, cwd=tmp)
        sdists = os.path.join(tmp, "sdists")
        run(sys.executable, "-c", "import sys, flit_core.buildapi as b; b.build_sdist(sys.argv[1])", sdists, cwd=src)
        assert tree(src) == before, "building wrote into the generated folder"

        built = glob.glob(os.path.join(wheels, "*.whl"))
        assert len(built) == 1, built
        check_wheel(built[0])
        built = glob.glob(os.path.join(sdists, "*.tar.gz"))
        assert len(built) == 1, built
        check_sdist(built[0])

        app = os.path.join(tmp, "app")
        os.mkdir(app)
        target = os.path.join(tmp, "venv")
        venv.EnvBuilder(with_pip=False).create(target)
        python = os.path.join(target, "Scripts" if os.name == "nt" else "bin", "python")
        run(sys.executable, "-m", "pip", "--python", python, "install", "--no-index", "--no-deps", "-q", glob.glob(os.path.join(wheels, "*.whl"))[0], cwd=app)
        listing = run(python, "-c", f"import {name}, os; print(os.listdir(os.path.dirname({name}.__file__)))", cwd=app)
        assert "py.typed" in listing
        with open(os.path.join(HERE, "..", "consumer", "main.py"), encoding="utf-8") as f:
            program = f.read().replace("errgen_pkg", name)
        with open(os.path.join(app, "main.py"), "w", encoding="utf-8") as f:
            f.write(program)
        check_program(run(python, "-I", "main.py", cwd=app), target)

        # pip install "git+<url>#subdirectory=<folder>": the folder at its
        # path in a repository (here a local one), built by pip from its clone.
        repo = os.path.join(tmp, "repo")
        folder = os.path.relpath(src, root).replace(os.sep, "/")
        shutil.copytree(src, os.path.join(repo, folder), ignore=shutil.ignore_patterns("__pycache__"))
        git = ["git", "-c", "user.name=errgen tests", "-c", "user.email=tests@errgen.invalid", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"]
        run(*git, "init", "-q", cwd=repo)
        run(*git, "add", "-A", cwd=repo)
        run(*git, "commit", "-q", "-m", "the generated package", cwd=repo)
        url = "git+file://" + repo.replace(os.sep, "/") + "#subdirectory=" + folder
        from_git = os.path.join(tmp, "from-git")
        run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q", "-w", from_git, url, cwd=tmp)
        built = glob.glob(os.path.join(from_git, "*.whl"))
        assert len(built) == 1, built
        check_wheel(built[0])
        # The same package as from the folder, so the program's run above holds for it too.
        assert contents(built[0]) == contents(glob.glob(os.path.join(wheels, "*.whl"))[0]), "the wheel from git differs from the wheel from the folder"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    assert tree(src) == before, "installing wrote into the generated folder"
    check_clean()


def check_wheel(path: str) -> None:
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        info = [n for n in names if n.endswith(".dist-info/METADATA")]
        assert len(info) == 1, names
        metadata = z.read(info[0]).decode("utf-8")
    assert f"{name}/py.typed" in names and f"{name}/__init__.py" in names, names
    assert {n.split("/")[0] for n in names if ".dist-info/" not in n} == {name}, f"the wheel holds more than {name}/: {names}"
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")], names
    check_metadata(metadata)


def contents(wheel: str) -> Dict[str, bytes]:
    """The wheel's files by name, but RECORD (which lists their hashes)."""
    with zipfile.ZipFile(wheel) as z:
        return {n: z.read(n) for n in z.namelist() if not n.endswith(".dist-info/RECORD")}


def check_sdist(path: str) -> None:
    with tarfile.open(path) as t:
        names = t.getnames()
        top = names[0].split("/")[0]
        info = t.extractfile(f"{top}/PKG-INFO")
        assert info is not None, names
        metadata = info.read().decode("utf-8")
    files = {n.split("/", 1)[1] for n in names if "/" in n}
    for want in ("pyproject.toml", "README.md", f"{name}/__init__.py", f"{name}/py.typed"):
        assert want in files, f"the sdist lacks {want}: {sorted(files)}"
    assert not [n for n in files if "__pycache__" in n or n.endswith(".pyc")], names
    check_metadata(metadata)


def check_metadata(metadata: str) -> None:
    """The core metadata names the distribution and carries the README as the long description."""
    head, _, body = metadata.partition("\n\n")
    assert re.search(r"(?m)^Name: (.+)$", head).group(1) == dist_name(), head  # type: ignore[union-attr]
    with open(os.path.join(src, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    assert body.strip() == readme.strip(), "the long description is not the README"


def check_program(output: str, target: str) -> None:
    out = json.loads(output)
    fb = fallback_vector()
    assert out["contract"] == vectors["contract"]
    assert out["kinds"] == len([v for v in vectors["lookup"] if v["known"]])
    assert out["location"].startswith(target), "imported from the fresh environment"
    assert out["round_trip"] is True
    assert out["unknown_kind_step"] == pkg.next_step(new_env(fb["kind"], "m"), 1).step.value
    assert out["mcp"] is True
    assert out["caught"] is True


def check_clean() -> None:
    """`errgen check` on the output root: the drift gate a contract owner's CI runs."""
    errgen = os.path.join(REPO, "bin", "errgen")
    # An output root with a generation config is checked the way its owner
    # checks it: through the config (this repository's turns the Go package
    # into a module, whose go.mod only the config generates).
    config = os.path.join(root, "errgen.yaml")
    args = ["check", "-config", config] if os.path.exists(config) else ["check", "-contract", contract, "-out", root]
    cmd = [errgen, *args] if os.path.exists(errgen) else ["go", "run", "./cmd/errgen", *args]
    r = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, f"{' '.join(cmd)} after building and installing the package:\n{r.stdout}\n{r.stderr}"
