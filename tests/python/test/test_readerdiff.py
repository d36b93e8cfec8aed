"""The differential reader vectors of make reader-diff (tests/go/readerdiff).

Seeded, mutated inputs for every reader with the Go package's answers. Each
case is read through the same reader here (from_json, from_http_response,
from_aip193, read_cli, from_mcp_tool_result) and must be accepted or
rejected as Go did, with Go's error category; an accepted envelope must
equal Go's as a JSON value (objects unordered, numbers as 64-bit floats, -0
as 0), encode again (to_json) without a lone surrogate, and
to_http_response must send exactly that encoding, and to_aip193 must
encode it. Every disagreement is
listed by class; the test fails on any.
"""

import base64
import json
import os
from typing import Any, Dict, List, Tuple

import pytest

from env import build, pkg, root

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
#: REFERENCE is true for the package of the repository's own contract (gen/python), the one the file is written for.
REFERENCE = os.path.abspath(root) == REPO


def _num(v: Any) -> Any:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return v
    try:
        return float(v)
    except OverflowError:
        return float("inf") if v > 0 else float("-inf")


def same(a: Any, b: Any) -> bool:
    """same compares two JSON values: objects without regard to member order, numbers as doubles (-0 equals 0)."""
    a, b = _num(a), _num(b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def where(a: Any, b: Any, path: str = "") -> str:
    """where names the first difference between two JSON values, with both values there."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in a or k not in b or not same(a[k], b[k]):
                if k in a and k in b:
                    return where(a[k], b[k], k if path == "" else path + "." + k)
                return f"at {path + '.' + k if path else k}: Go {short(json.dumps(a.get(k))) if k in a else '(absent)'}, here {short(json.dumps(b.get(k))) if k in b else '(absent)'}"
    return f"at {path or 'the top'}: Go {short(json.dumps(a))}, here {short(json.dumps(b))}"


def ill_formed(v: Any) -> bool:
    """ill_formed reports whether a JSON value holds a string (or member name) with a lone surrogate."""
    if isinstance(v, str):
        return any(0xD800 <= ord(ch) <= 0xDFFF for ch in v)
    if isinstance(v, list):
        return any(ill_formed(x) for x in v)
    if isinstance(v, dict):
        return any(ill_formed(k) or ill_formed(x) for k, x in v.items())
    return False


def short(s: str) -> str:
    return repr(s) if len(s) <= 300 else f"{s[:140]!r} … ({len(s)} characters) … {s[-100:]!r}"


def case_input(c: Dict[str, Any]) -> bytes:
    if "base64" in c:
        return base64.b64decode(c["base64"])
    return bytes(c["text"].encode("utf-8"))


def read(c: Dict[str, Any]) -> Tuple[bool, str, Any]:
    """read runs a case through the package's reader: (ok, category, envelope)."""
    data = case_input(c)
    try:
        r = c["reader"]
        if r == "envelope":
            e = pkg.from_json(data)
        elif r == "http":
            e = pkg.from_http_response(c["status"], [tuple(h) for h in c["headers"]], data)
        elif r == "aip193":
            e = pkg.from_aip193(data)
        elif r == "cli":
            e = pkg.read_cli(data)
        elif r == "mcp":
            try:
                result = json.loads(data.decode("utf-8"))
            except ValueError:
                return False, "host", None
            e = pkg.from_mcp_tool_result(result)
        else:
            raise AssertionError(f"no reader {r}")
    except pkg.EnvelopeError as err:
        return False, err.category, None
    return True, "", e


@pytest.mark.skipif(not REFERENCE, reason="the file is written for the reference contract's package only")
def test_reader_differential_vectors() -> None:
    path = os.environ.get("ERRGEN_READER_DIFF", "")
    assert path, "ERRGEN_READER_DIFF is not set: run make reader-diff, then make test-python (or set it to build/reader-diff.vectors.json)"
    assert os.path.exists(path), f"{path} is missing: run make reader-diff"
    with open(path, encoding="utf-8") as f:
        diff = json.load(f)
    assert diff["contract"] == pkg.CONTRACT_NAME, f"{path} is written for {diff['contract']}"
    assert len(diff["cases"]) >= 2000, f"{path} holds {len(diff['cases'])} cases, fewer than 2000: run make reader-diff"
    classes: Dict[str, List[str]] = {}

    def disagree(c: Dict[str, Any], cls: str, ours: str) -> None:
        go = "accepted " + short(json.dumps(c.get("value"))) if c["ok"] else f"rejected ({c['category']})"
        http = f" status {c['status']} headers {c['headers']}" if c["reader"] == "http" else ""
        shown = c["text"] if "text" in c else "base64:" + c["base64"]
        classes.setdefault(f"{c['reader']}: {cls}", []).append(f"{c['name']}\n      input: {short(shown)}{http}\n      Go: {go}\n      Python: {ours}")

    accepted = rejected = disagreements = 0
    for c in diff["cases"]:
        ok, category, e = read(c)
        text = ""
        if ok:
            accepted += 1
            try:
                text = pkg.to_json(e)
            except Exception as err:  # noqa: BLE001 — any failure to encode is the finding
                disagreements += 1
                disagree(c, "accepted, but to_json fails", f"accepted, to_json: {err!r}")
                continue
            if ill_formed(json.loads(text)):
                disagreements += 1
                disagree(c, "accepted, but to_json writes a lone surrogate", "accepted, to_json: " + short(text))
                continue
            try:
                body = pkg.to_http_response(e).body
            except Exception as err:  # noqa: BLE001
                body = repr(err).encode()
            if body != text.encode("utf-8", "surrogatepass"):
                disagreements += 1
                disagree(c, "accepted, but to_http_response sends another body", "accepted, body " + short(repr(body)))
                continue
            try:
                pkg.to_aip193(e)
            except Exception as err:  # noqa: BLE001
                disagreements += 1
                disagree(c, "accepted, but to_aip193 fails", f"accepted, to_aip193: {err!r}")
                continue
        else:
            rejected += 1
        if ok != c["ok"]:
            disagreements += 1
            disagree(c, "Go rejects, Python accepts" if ok else "Go accepts, Python rejects", "accepted " + short(text) if ok else f"rejected ({category})")
        elif not ok and category != c["category"]:
            disagreements += 1
            disagree(c, f"rejected as {c['category']} in Go, {category} here", f"rejected ({category})")
        elif ok and "value" in c and not same(c["value"], json.loads(text)):
            disagreements += 1
            disagree(c, "both accept, different envelopes", "accepted, " + where(c["value"], json.loads(text)))
    show = int(os.environ.get("ERRGEN_READER_DIFF_SHOW", "2"))
    report = [
        f"reader differential vectors ({path}): seed {diff['seed']}, {len(diff['cases'])} cases, {accepted} accepted, {rejected} rejected, {disagreements} disagreements with Go",
        "mcp: the tool result is parsed by json.loads, the host's parser, before from_mcp_tool_result sees it; its structuredContent never holds a member given twice, which hosts read differently (Go keeps it raw), and a refusal by the host would count as category host",
        "grpc: not compared here: Python has no gRPC status reader; from_aip193 reads the google.rpc.Status Go's grpcstatus.FromStatus builds (both end in the same FromRPCStatus), compared through the aip193 cases",
    ]
    for cls in sorted(classes):
        report.append(f"  {cls}: {len(classes[cls])} case(s); first:\n    " + "\n    ".join(classes[cls][:show]))
    # run.py prints this file: pytest keeps the output of passing tests to itself.
    with open(os.path.join(build, "reader-diff.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(report[:3]) + "\n")
    if disagreements:
        pytest.fail("\n".join(report), pytrace=False)
