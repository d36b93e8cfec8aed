"""The received vectors (issue 28): an envelope from an upstream with secrets in what the contract sanitizes.

The raw reading keeps them; the decoder and every reader, given what each
surface writes for the raw envelope, redact them; and no surface writing
the redacted envelope holds one.
"""

import json
from typing import Any, Callable, List, Tuple

import pytest

from env import pkg, vectors


def forms(env: Any) -> List[Tuple[str, str, Callable[[], Any], bool]]:
    """forms writes env with every surface that has a reader: (surface, text written, read it back, whether it is the problem document)."""
    out: List[Tuple[str, str, Callable[[], Any], bool]] = []
    for accept in (None, "application/problem+json"):
        a = pkg.to_http_response(env, accept)
        out.append((f"to_http_response (Accept {accept})", a.body.decode("utf-8"), lambda a=a: pkg.from_http_response(a.status, dict(a.headers), a.body), accept is not None))
    r = pkg.to_mcp_tool_result(env)
    text = json.dumps(r)
    out.append(("to_mcp_tool_result", text, lambda: pkg.from_mcp_tool_result(json.loads(text)), False))
    line = pkg.cli_line(env, "cmd")
    out.append(("cli_line", line, lambda: pkg.read_cli(line), False))
    aip = pkg.to_aip193(env)
    out.append(("to_aip193", aip, lambda: pkg.from_aip193(aip), False))
    return out


def test_received_section() -> None:
    assert isinstance(vectors["received"], list)


@pytest.mark.parametrize("v", vectors["received"], ids=[v["name"] for v in vectors["received"]])
def test_received(v: Any) -> None:
    text = json.dumps(v["document"])
    raw = pkg.from_json(text, raw=True)
    assert pkg.to_dict(raw) == v["raw"]
    assert pkg.to_dict(pkg.from_dict(v["document"], raw=True)) == v["raw"]
    assert pkg.to_dict(pkg.Envelope.from_json(text, raw=True)) == v["raw"]
    env = pkg.from_json(text)
    assert pkg.to_dict(env) == v["envelope"]
    assert pkg.to_dict(pkg.from_dict(v["document"])) == v["envelope"]
    assert pkg.to_dict(pkg.Envelope.from_dict(v["document"])) == v["envelope"]
    # A top-level member named like a problem member gives way to it, so the
    # problem document reads back without it.
    collides = any(m in v["envelope"] for m in ("type", "title", "status", "detail", "instance"))
    for which, e in (("raw", raw), ("read", env)):
        for form, written, read, problem in forms(e):
            if not (problem and collides):
                assert pkg.to_dict(read()) == v["envelope"], f"{form} of the {which} envelope, read back"
            if which == "read":
                for s in v["secrets"]:
                    assert s not in written, f"{form} of the envelope read holds {s}: {written}"
