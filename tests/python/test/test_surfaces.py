"""The surfaces and accept vectors, and the README's HTTP adapters.

What every package's producers write on HTTP (the envelope and its RFC 9457
document), the command line and a structured log, byte for byte as the Go
and TypeScript packages write it, and read back. The http.server, WSGI and
ASGI adapters are the package README's own code blocks, extracted and run.
"""

import asyncio
import base64
import dataclasses
import io
import json
import logging
import os
import re
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Tuple
from wsgiref.validate import validator

import pytest

from env import parsed, pkg, src, vectors


def ids(items: Any) -> Any:
    return [v["name"] for v in items]


def headers_of(pairs: Any) -> Dict[str, str]:
    return {n.lower(): v for n, v in pairs}


def test_surface_vectors_exist() -> None:
    assert len(vectors["surfaces"]) >= len(vectors["lookup"])
    assert len(vectors["accept"]) > 0


@pytest.mark.parametrize("v", vectors["surfaces"], ids=ids(vectors["surfaces"]))
def test_surfaces(v: Any) -> None:
    env = parsed(v["envelope"])
    for form, accept in ((v["http"], None), (v["problem"], "application/problem+json")):
        a = pkg.to_http_response(env, accept)
        assert a.status == form["status"]
        assert headers_of(a.headers) == form["headers"]
        assert a.body == form["body"].encode("utf-8")
        back = pkg.from_http_response(form["status"], form["headers"], a.body)
        assert pkg.to_dict(back) == form["envelope"]
    assert pkg.to_problem_json(env) == v["problem"]["body"]
    assert pkg.to_dict(pkg.from_problem_json(v["problem"]["body"])) == v["problem"]["envelope"]
    assert pkg.to_dict(pkg.from_problem(json.loads(v["problem"]["body"]))) == v["problem"]["envelope"]

    assert pkg.exit_code(env) == v["exit_code"]
    assert pkg.cli_line(env, v["command"]) == v["cli"]
    out = io.StringIO()
    pkg.write_cli(env, v["command"], out)
    assert out.getvalue() == v["cli"]
    assert pkg.to_dict(pkg.read_cli(v["cli"])) == v["envelope"]
    assert pkg.to_dict(pkg.read_cli(v["cli"].encode("utf-8"))) == v["envelope"]

    if v["log"] is not None:
        # Member order included: JSON text of both.
        assert json.dumps(pkg.log_fields(env)) == json.dumps(v["log"])


def test_mcp_text_vectors_exist() -> None:
    assert len(vectors["mcp_text"]) > 0


@pytest.mark.parametrize("v", vectors["mcp_text"], ids=ids(vectors["mcp_text"]))
def test_mcp_text(v: Any) -> None:
    result = {"content": [{"type": "text", "text": v["text"]}], "isError": True}
    if v["envelope"] is None:
        with pytest.raises(pkg.EnvelopeError):
            pkg.from_mcp_tool_result(result)
        return
    assert pkg.to_dict(pkg.from_mcp_tool_result(result)) == v["envelope"]


def test_mcp_output_schema_vectors_exist() -> None:
    assert len(vectors["mcp_output_schema"]) > 0


@pytest.mark.parametrize("v", vectors["mcp_output_schema"], ids=ids(vectors["mcp_output_schema"]))
def test_mcp_output_schema(v: Any) -> None:
    success = json.loads(json.dumps(v["success"]))
    assert pkg.mcp_output_schema(success) == v["widened"]
    assert success == v["success"], "the argument is not changed"


def test_cli_read_vectors_exist() -> None:
    assert len(vectors["cli_read"]) > 0


@pytest.mark.parametrize("v", vectors["cli_read"], ids=ids(vectors["cli_read"]))
def test_cli_read(v: Any) -> None:
    lines = [base64.b64decode(v["bytes"])] if "bytes" in v else [v["line"], v["line"].encode("utf-8")]
    for line in lines:
        if v["envelope"] is None:
            with pytest.raises(pkg.EnvelopeError):
                pkg.read_cli(line)
            continue
        assert pkg.to_dict(pkg.read_cli(line)) == v["envelope"]


def test_from_problem_holds_the_whole_document_to_the_limits() -> None:
    # A problem member the reader drops counts too: past a limit, the
    # document is a syntax error, as the envelope decoder reports it.
    doc = json.loads(vectors["surfaces"][0]["problem"]["body"])
    pkg.from_problem(doc)
    deep: Any = []
    for _ in range(127):
        deep = [deep]
    for member, value in (("instance", float("inf")), ("instance", 10**400), ("status", deep)):
        with pytest.raises(pkg.EnvelopeError) as err:
            pkg.from_problem({**doc, member: value})
        assert (err.value.path, err.value.category) == ("", "syntax")
    with pytest.raises(pkg.EnvelopeError) as err:
        pkg.from_problem_json(json.dumps({**doc, "instance": deep}).replace('"instance": [', '"instance": [1e999, ', 1))
    assert (err.value.path, err.value.category) == ("", "syntax")


def ill_formed(v: Any) -> Any:
    """ill_formed replaces each U+FFFD in a value's text (strings, member names, nested dataclasses) with the lone surrogate U+DC80, as surrogateescape decodes a byte that is not UTF-8: text no decoder gives."""
    if isinstance(v, str):
        return v.replace("\ufffd", "\udc80") if "\ufffd" in v else v
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return dataclasses.replace(v, **{f.name: ill_formed(getattr(v, f.name)) for f in dataclasses.fields(v) if f.init})
    if isinstance(v, list):
        return [ill_formed(x) for x in v]
    if isinstance(v, dict):
        return {ill_formed(k): ill_formed(x) for k, x in v.items()}
    return v


def test_write_vectors_exist() -> None:
    assert len(vectors["writes"]) > 0


@pytest.mark.parametrize("v", vectors["writes"], ids=ids(vectors["writes"]))
def test_writes(v: Any) -> None:
    env = parsed(v["envelope"])
    if v["ill_formed"]:
        env = ill_formed(env)
    if v["retry_after_ms"] is not None:
        env = dataclasses.replace(env, recovery=dataclasses.replace(env.recovery, retry_after_ms=int(v["retry_after_ms"])))
    for form, accept in ((v["http"], None), (v["problem"], "application/problem+json")):
        a = pkg.to_http_response(env, accept)
        assert a.status == form["status"]
        assert headers_of(a.headers) == form["headers"]
        assert a.body == form["body"].encode("utf-8")
        back = pkg.from_http_response(form["status"], form["headers"], a.body)
        assert pkg.to_dict(back) == form["envelope"]
    if v["cli"] is not None:
        assert pkg.to_problem_json(env) == v["problem"]["body"]
        assert pkg.cli_line(env, v["command"]) == v["cli"]
        r = pkg.to_mcp_tool_result(env)
        assert r["content"][0]["text"] == v["http"]["body"]
        assert r["structuredContent"] == json.loads(v["http"]["body"])
    if v["log"] is not None:
        assert json.dumps(pkg.log_fields(env)) == json.dumps(v["log"])
    if v["aip193"] is not None:
        text = pkg.to_aip193(env)
        text.encode("utf-8")  # well-formed: strict UTF-8 carries it
        assert json.loads(text) == json.loads(v["aip193"])


@pytest.mark.parametrize("v", vectors["accept"], ids=[json.dumps(v["accept"]) for v in vectors["accept"]])
def test_accept(v: Any) -> None:
    assert pkg.prefers_problem(v["accept"]) == v["problem"]
    a = pkg.to_http_response(parsed(vectors["envelopes"][0]["envelope"]), v["accept"])
    assert headers_of(a.headers)["content-type"] == ("application/problem+json" if v["problem"] else "application/json")


def test_read_cli_reports_the_contracts_own_form() -> None:
    with pytest.raises(pkg.EnvelopeError) as err:
        pkg.read_cli('{"ok":true,"command":"x","error":{}}')
    if pkg.CLI_FORM == "wrapped":
        assert err.value.path == "ok"
    with pytest.raises(pkg.EnvelopeError):
        pkg.read_cli("not json")


def test_log_fields_bounds_and_sanitizes() -> None:
    import dataclasses

    env = parsed(vectors["envelopes"][0]["envelope"])
    f = pkg.log_fields(dataclasses.replace(env, kind="é" * 2000, extra={"token": "x" * 5000}))
    assert len(f["kind"].encode("utf-8")) <= pkg.LOG["max_bytes"] + 3
    assert f["kind"].endswith(pkg.LOG["ellipsis"])
    assert len(f["extra"].encode("utf-8")) <= pkg.LOG["max_bytes"] + 3
    if "message" in pkg.SANITIZED_FIELDS:
        assert "hunter2" not in pkg.log_fields(dataclasses.replace(env, message="failed: password=hunter2"))["message"]
    assert [k for k in pkg.log_fields(env) if k not in pkg.LOG["members"]] == []


def test_logging_helpers() -> None:
    env = parsed(vectors["envelopes"][0]["envelope"])
    records: List[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    logger = logging.getLogger("errgen-surfaces-test")
    logger.addHandler(Keep())
    logger.setLevel(logging.INFO)
    logger.propagate = False
    logger.warning("failed", extra=pkg.log_extra(env))
    pkg.EnvelopeLogger(logger).warning("failed", envelope=env)
    pkg.EnvelopeLogger(logger, key="envelope").warning("failed", envelope=env, extra={"request_id": "r-1"})
    assert [getattr(r, "error", None) for r in records[:2]] == [pkg.log_fields(env)] * 2
    assert getattr(records[2], "envelope") == pkg.log_fields(env) and getattr(records[2], "request_id") == "r-1"


# --- the README's adapters ----------------------------------------------------


def readme_function(name: str) -> Any:
    """readme_function runs the README's Python code block defining name, with ae the package, and returns the function."""
    with open(os.path.join(src, "README.md"), encoding="utf-8") as f:
        blocks = re.findall(r"```python\n(.*?)```", f.read(), re.S)
    found = [b for b in blocks if f"def {name}(" in b]
    assert len(found) == 1, f"the README has {len(found)} code blocks defining {name}"
    ns: Dict[str, Any] = {"ae": pkg}
    exec(compile(found[0], f"README.md ({name})", "exec"), ns)
    return ns[name]


@pytest.mark.parametrize("accept", [None, "application/problem+json"])
def test_readme_http_server(accept: Any) -> None:
    send_envelope = readme_function("send_envelope")
    v = vectors["surfaces"][-1]
    env = parsed(v["envelope"])

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            send_envelope(self, env)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        req = urllib.request.Request(f"http://127.0.0.1:{server.server_address[1]}/", headers={} if accept is None else {"Accept": accept})
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(req, timeout=30)
        body = err.value.read()
        want = v["http"] if accept is None else v["problem"]
        assert err.value.code == want["status"]
        assert body == want["body"].encode("utf-8")
        for name, value in want["headers"].items():
            assert err.value.headers.get(name) == value
        assert pkg.to_dict(pkg.from_http_response(err.value.code, err.value.headers, body)) == want["envelope"]
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("accept", [None, "application/problem+json"])
def test_readme_wsgi(accept: Any) -> None:
    wsgi_envelope = readme_function("wsgi_envelope")
    v = vectors["surfaces"][-1]
    env = parsed(v["envelope"])
    app = validator(lambda environ, start_response: wsgi_envelope(environ, start_response, env))
    environ: Dict[str, Any] = {
        "REQUEST_METHOD": "GET", "SCRIPT_NAME": "", "PATH_INFO": "/", "QUERY_STRING": "", "SERVER_NAME": "localhost",
        "SERVER_PORT": "80", "SERVER_PROTOCOL": "HTTP/1.1", "wsgi.version": (1, 0), "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(b""), "wsgi.errors": io.StringIO(), "wsgi.multithread": False, "wsgi.multiprocess": False, "wsgi.run_once": True,
    }
    if accept is not None:
        environ["HTTP_ACCEPT"] = accept
    started: List[Tuple[str, List[Tuple[str, str]]]] = []
    result = app(environ, lambda status, headers, exc_info=None: started.append((status, headers)))
    body = b"".join(result)
    getattr(result, "close", lambda: None)()
    want = v["http"] if accept is None else v["problem"]
    assert started[0][0].split(" ", 1)[0] == str(want["status"])
    assert {k: val for k, val in headers_of(started[0][1]).items() if k != "content-length"} == want["headers"]
    assert body == want["body"].encode("utf-8")


@pytest.mark.parametrize("accept", [None, "application/problem+json"])
def test_readme_asgi(accept: Any) -> None:
    asgi_envelope = readme_function("asgi_envelope")
    v = vectors["surfaces"][-1]
    env = parsed(v["envelope"])
    sent: List[Dict[str, Any]] = []

    async def send(message: Dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "headers": [] if accept is None else [(b"accept", accept.encode("latin-1"))]}
    asyncio.run(asgi_envelope(scope, send, env))
    want = v["http"] if accept is None else v["problem"]
    assert [m["type"] for m in sent] == ["http.response.start", "http.response.body"]
    assert sent[0]["status"] == want["status"]
    assert {k.decode(): val.decode() for k, val in sent[0]["headers"]} == want["headers"]
    assert sent[1]["body"] == want["body"].encode("utf-8")
