# The package under test and its output root, as run.py passes them:
# ERRGEN_PY_NAME (the import name), ERRGEN_PY_SRC (the folder holding
# pyproject.toml and the package), ERRGEN_PY_ROOT (the output root with
# conformance/ and schemas/), ERRGEN_PY_BUILD (a scratch folder),
# ERRGEN_PY_CONTRACT (the contract the output root was generated from).
import os
import sys

for _v in ("ERRGEN_PY_NAME", "ERRGEN_PY_SRC", "ERRGEN_PY_ROOT", "ERRGEN_PY_BUILD", "ERRGEN_PY_CONTRACT"):
    if not os.environ.get(_v):
        raise RuntimeError(f"{_v} is not set: run the tests with run.py (make test-python), which sets it for each generated package")

sys.path.insert(0, os.environ["ERRGEN_PY_SRC"])
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
