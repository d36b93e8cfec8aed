"""The package under test, its conformance vectors and schemas."""

import importlib
import inspect
import json
import os
from typing import Any, Dict, List, Tuple

name = os.environ["ERRGEN_PY_NAME"]
src = os.environ["ERRGEN_PY_SRC"]
root = os.environ["ERRGEN_PY_ROOT"]
build = os.environ["ERRGEN_PY_BUILD"]
contract = os.environ["ERRGEN_PY_CONTRACT"]

pkg: Any = importlib.import_module(name)

vectors_path = os.path.join(root, "conformance", f"{pkg.CONTRACT_NAME}.vectors.json")
with open(vectors_path, encoding="utf-8") as f:
    vectors: Dict[str, Any] = json.load(f)


def schema(which: str) -> Any:
    with open(os.path.join(root, "schemas", f"{pkg.CONTRACT_NAME}.{which}.schema.json"), encoding="utf-8") as f:
        return json.load(f)


def parsed(wire: Any) -> Any:
    """parsed decodes a wire envelope that must be valid."""
    return pkg.from_dict(wire)


def fallback_vector() -> Dict[str, Any]:
    return next(v for v in vectors["lookup"] if not v["known"])


def constructors() -> Dict[str, Tuple[Any, List[str]]]:
    """constructors maps each known kind to the package's constructor for it and its required parameter names (the keyword-only trusted is not one)."""
    return {k: (fn, [p.name for p in inspect.signature(fn).parameters.values() if p.kind != p.KEYWORD_ONLY][1:]) for k, fn in pkg.CONSTRUCTORS.items()}


#: context_params are the parameters new_envelope takes after the kind and
#: the message: the context fields the layout requires (ovstorage:
#: operation), which every constructor takes after the message.
context_params: List[str] = [p.name for p in inspect.signature(pkg.new_envelope).parameters.values() if p.kind != p.KEYWORD_ONLY][2:]

#: context_args are values for context_params: non-empty strings.
context_args: List[str] = [f"example {p}" for p in context_params]


def new_env(kind: Any, message: str, **kw: Any) -> Any:
    """new_env is new_envelope with the required context filled in."""
    return pkg.new_envelope(kind, message, *context_args, **kw)


def leaves(o: Any = None, out: Any = None) -> List[Any]:
    o = pkg.LAYOUT if o is None else o
    out = [] if out is None else out
    for m in o["members"]:
        if "object" in m:
            leaves(m["object"], out)
        else:
            out.append(m["leaf"])
    return out


def on_wire(source: str) -> bool:
    return any(l["source"] == source for l in leaves())


def go_json(v: Any) -> str:
    """go_json is compact JSON with U+2028 and U+2029 escaped, as the Go encoder writes them."""
    return json.dumps(v, ensure_ascii=False, separators=(",", ":")).replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def known_vocabulary(env: Any) -> bool:
    """Whether every enumerated value of a decoded envelope is one this package's contract defines (what its producer schema accepts)."""
    return (
        pkg.is_known_kind(env.kind)
        and env.origin in {o.value for o in pkg.Origin}
        and env.recovery.action in {a.value for a in pkg.RecoveryAction}
        and env.recovery.same_arguments in {s.value for s in pkg.SameArguments}
        and env.side_effects in {s.value for s in pkg.SideEffects}
    )
