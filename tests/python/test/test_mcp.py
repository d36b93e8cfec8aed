"""MCP tool results, driven by the vectors' envelopes."""

import json
from typing import Any

import pytest

from env import parsed, pkg, vectors


@pytest.mark.parametrize("v", vectors["envelopes"], ids=[v["name"] for v in vectors["envelopes"]])
def test_round_trip(v: Any) -> None:
    env = parsed(v["envelope"])
    r = pkg.to_mcp_tool_result(env)
    assert r["isError"] is True
    assert r["content"] == [{"type": "text", "text": env.to_json()}]
    assert r["structuredContent"] == v["envelope"]
    received = json.loads(json.dumps(r))
    assert pkg.from_mcp_tool_result(received) == env
    # Hosts that drop structuredContent still get the envelope from the text.
    text_only = {"content": [{"type": "image", "data": ""}] + received["content"], "isError": True}
    assert pkg.from_mcp_tool_result(text_only) == env


def test_no_envelope() -> None:
    bad = next(v for v in vectors["malformed"] if v["path"] != "")
    with pytest.raises(pkg.EnvelopeError) as err:
        pkg.from_mcp_tool_result({"structuredContent": bad["input"], "content": [{"type": "text", "text": "plain words"}]})
    assert err.value.path == bad["path"]
    with pytest.raises(pkg.EnvelopeError) as err:
        pkg.from_mcp_tool_result({"content": []})
    assert err.value.path == ""
    for value in [None, "text", [], 3]:
        with pytest.raises(pkg.EnvelopeError):
            pkg.from_mcp_tool_result(value)


def test_mcp_error_schema() -> None:
    """mcp_error_schema: the consumer schema without its $id and descriptions, a new dict each call (test_surfaces checks the widening)."""
    errors = pkg.mcp_error_schema()
    assert errors is not pkg.mcp_error_schema()
    assert errors["type"] == "object" and "$id" not in errors
    # Every layout's members (agento's and ovstorage's name the kind otherwise).
    described = [name for name, member in errors["properties"].items() if "description" in member]
    assert errors["properties"] and not described, described


@pytest.mark.parametrize("v", vectors["envelopes"], ids=[v["name"] for v in vectors["envelopes"]])
def test_text_tool_result(v: Any) -> None:
    env = parsed(v["envelope"])
    r = pkg.to_mcp_text_tool_result(env)
    # The contract's _meta key, when it names one, carries the envelope too.
    meta = {} if pkg.MCP_META_KEY is None else {"_meta": {pkg.MCP_META_KEY: pkg.to_dict(env)}}
    assert r == {"content": [{"type": "text", "text": env.to_json()}], "isError": True, **meta}
    assert pkg.from_mcp_tool_result(json.loads(json.dumps(r))) == env
