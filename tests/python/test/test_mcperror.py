"""The MCP protocol-error surface, driven by the vectors: JSON-RPC errors whose data is the envelope (mcp_errors, mcp_error_read), the _meta key of isError tool results and tool results that keep an upstream's structuredContent."""

import json
from typing import Any

import pytest

from env import parsed, pkg, vectors


def wire(v: Any) -> Any:
    """wire is v as a client receives it: JSON over the wire."""
    return json.loads(json.dumps(v))


def test_there_are_vectors() -> None:
    assert vectors["mcp_errors"] and vectors["mcp_error_read"]


@pytest.mark.parametrize("v", vectors["mcp_errors"], ids=[v["name"] for v in vectors["mcp_errors"]])
def test_mcp_errors(v: Any) -> None:
    env = parsed(v["envelope"])
    error = pkg.to_mcp_error(env)
    assert wire(error) == v["error"]
    assert pkg.mcp_error_code(env) == v["error"]["code"]
    response = pkg.to_mcp_error_response(env, "req-1")
    assert wire(response) == {"jsonrpc": "2.0", "id": "req-1", "error": v["error"]}
    for form in (error, response):
        assert pkg.to_dict(pkg.from_mcp_error(wire(form))) == v["envelope"]
    # Every isError tool result carries the contract's _meta, or none.
    for r in (pkg.to_mcp_tool_result(env), pkg.to_mcp_text_tool_result(env)):
        assert wire(r).get("_meta") == v["meta"]
    up = wire(pkg.to_mcp_upstream_tool_result(env, v["upstream"]))
    assert up["isError"] is True
    assert json.loads(up["content"][0]["text"]) == v["envelope"]
    assert up["structuredContent"] == v["structured_content"]
    assert up.get("_meta") == v["meta"]
    for r in (up, {"content": [], "structuredContent": v["structured_content"], "isError": True}):
        assert pkg.to_dict(pkg.from_mcp_tool_result(r)) == v["envelope"]
        assert pkg.mcp_upstream_structured_content(r) == v["upstream"]
    assert pkg.mcp_upstream_structured_content(pkg.to_mcp_tool_result(env)) is None
    # An upstream that sent no structured content leaves the plain result.
    assert pkg.to_mcp_upstream_tool_result(env, None) == pkg.to_mcp_tool_result(env)


@pytest.mark.parametrize("v", vectors["mcp_error_read"], ids=[v["name"] for v in vectors["mcp_error_read"]])
def test_mcp_error_read(v: Any) -> None:
    if v["envelope"] is None:
        with pytest.raises(pkg.EnvelopeError):
            pkg.from_mcp_error(v["input"])
        return
    assert pkg.to_dict(pkg.from_mcp_error(v["input"])) == v["envelope"]


def test_foreign_values() -> None:
    for value in (None, "text", 3, [], {"error": []}):
        with pytest.raises(pkg.EnvelopeError):
            pkg.from_mcp_error(value)
