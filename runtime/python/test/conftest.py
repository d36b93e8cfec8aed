"""The runtime under test: runtime/python/src/errgen_runtime, where it is written.

errgen_runtime is a namespace package (no __init__.py) that spans src/ and
fixture/: the runtime's modules and the reference contract's rendered
modules (_contract, _envelope, _constructors, _exceptions), which the
runtime imports relatively as it does inside a generated package.
tests/python/run.py copies those into fixture/ (git ignores it) from the
committed gen/python before it runs these tests. These
tests exercise the runtime modules one by one, on inputs the conformance
vectors (which every generated package runs) do not reach.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if not os.path.isdir(os.path.join(HERE, "..", "fixture", "errgen_runtime")):
    raise RuntimeError("runtime/python/fixture is missing: run the tests with tests/python/run.sh, which copies the reference contract's modules there")
for d in ("src", "fixture"):
    sys.path.insert(0, os.path.join(HERE, "..", d))
