"""Call errors (the contract's call_error section): every call_errors vector (every kind, and the edge cases) built by to_call_error validates against the package's call-error schema and, for the reference contract, labby's published Code Mode call-error schema (vendored in tests/testdata/labby), and matches the vector. The Go, TypeScript and Rust suites run the same vectors."""

import json
import os
from typing import Any, List, Tuple

import pytest
from jsonschema import Draft202012Validator

from env import pkg, root, vectors

_schema_file = os.path.join(root, "schemas", f"{pkg.CONTRACT_NAME}.call-error.schema.json")
_labby_file = os.path.join(os.path.dirname(__file__), "..", "..", "testdata", "labby", "code-mode-call-error.schema.json")


def _validators() -> List[Tuple[str, Any]]:
    out = []
    if pkg.CALL_ERROR is not None:
        with open(_schema_file, encoding="utf-8") as f:
            out.append(("the call-error schema", Draft202012Validator(json.load(f))))
    if pkg.CONTRACT_NAME == "agent-error":
        with open(_labby_file, encoding="utf-8") as f:
            out.append(("labby's code-mode-call-error schema", Draft202012Validator(json.load(f))))
    return out


_validating = _validators()


def _matches(want: Any, got: Any, path: str) -> None:
    """_matches compares as the vectors say: every member want gives equals got's (None: absent), lists item by item."""
    if isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{path}: want {want!r}, got {got!r}"
        for i, (w, g) in enumerate(zip(want, got)):
            _matches(w, g, f"{path}[{i}]")
    elif isinstance(want, dict):
        assert isinstance(got, dict), f"{path}: want an object, got {got!r}"
        for k, w in want.items():
            if w is None:
                assert k not in got, f"{path}.{k}: want it absent, got {got.get(k)!r}"
            else:
                assert k in got, f"{path}.{k}: missing"
                _matches(w, got[k], f"{path}.{k}")
    else:
        assert type(got) is type(want) and got == want, f"{path}: want {want!r}, got {got!r}"


def test_call_error_schema_exactly_with_the_section() -> None:
    assert (pkg.CALL_ERROR is None) == (not os.path.exists(_schema_file))
    if pkg.CALL_ERROR is None:
        assert vectors["call_errors"] == []
        with pytest.raises(ValueError):
            pkg.to_call_error({"content": [], "isError": True})


def test_call_error_vectors() -> None:
    for v in vectors["call_errors"]:
        _check(v)


def _check(v: Any) -> None:
    tool = v["tool"]
    if v["error"]:
        with pytest.raises(ValueError):
            pkg.to_call_error(v["result"], tool["upstream"], tool["name"], tool["annotations"])
        return
    text = pkg.call_error_text(pkg.to_call_error(v["result"], tool["upstream"], tool["name"], tool["annotations"]))
    got = json.loads(text)
    for what, validator in _validating:
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(got)]
        assert not errors, f"{v['name']}: {what}: {errors}\n{text[:600]}"
    _matches(v["expect"], got, v["name"])
    if v["exact"]:
        assert set(got) <= set(v["expect"]), f"{v['name']}: unexpected members {set(got) - set(v['expect'])}"
    for a in v["absent"]:
        assert a not in text, f"{v['name']}: the call error holds {a!r}"
