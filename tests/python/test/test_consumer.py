"""The package as another project consumes it: build a wheel from a copy outside the repository, pip install it into a fresh virtual environment outside the repository, then import and use it there."""

import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import venv

from env import fallback_vector, name, new_env, pkg, src, vectors

HERE = os.path.dirname(os.path.abspath(__file__))


def run(*args: str, cwd: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    r = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, f"{' '.join(args)}:\n{r.stdout}\n{r.stderr}"
    return r.stdout


def test_pip_install_and_use() -> None:
    tmp = tempfile.mkdtemp(prefix="errgen-py-consumer-")
    try:
        copy = os.path.join(tmp, "pkg")
        shutil.copytree(src, copy)
        dist = os.path.join(tmp, "dist")
        # The build backend (setuptools) is pinned in requirements.txt and installed beside the tests.
        run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q", "-w", dist, copy, cwd=tmp)
        wheels = glob.glob(os.path.join(dist, "*.whl"))
        assert len(wheels) == 1, wheels
        app = os.path.join(tmp, "app")
        os.mkdir(app)
        target = os.path.join(tmp, "venv")
        venv.EnvBuilder(with_pip=False).create(target)
        python = os.path.join(target, "Scripts" if os.name == "nt" else "bin", "python")
        run(sys.executable, "-m", "pip", "--python", python, "install", "--no-index", "--no-deps", "-q", wheels[0], cwd=app)
        listing = run(python, "-c", f"import {name}, os; print(os.listdir(os.path.dirname({name}.__file__)))", cwd=app)
        assert "py.typed" in listing
        with open(os.path.join(HERE, "..", "consumer", "main.py"), encoding="utf-8") as f:
            program = f.read().replace("errgen_pkg", name)
        with open(os.path.join(app, "main.py"), "w", encoding="utf-8") as f:
            f.write(program)
        out = json.loads(run(python, "-I", "main.py", cwd=app))
        fb = fallback_vector()
        assert out["contract"] == vectors["contract"]
        assert out["kinds"] == len([v for v in vectors["lookup"] if v["known"]])
        assert out["location"].startswith(target), "imported from the fresh environment"
        assert out["round_trip"] is True
        assert out["unknown_kind_step"] == pkg.next_step(new_env(fb["kind"], "m"), 1).step.value
        assert out["mcp"] is True
        assert out["caught"] is True
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
