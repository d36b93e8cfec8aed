"""MCP tool results: an envelope as the result of a failed tool call, and back.

They mirror the Go package's ToolResult / FromToolResult. This module is
the same for every contract.
"""

from __future__ import annotations

import json
from typing import Any, Dict, Mapping, Optional

from ._codec import JSON_SPACE, from_dict, from_json, to_dict, to_json
from ._contract import MCP_ERROR_SCHEMA_JSON
from ._envelope import Envelope
from ._spec import EnvelopeError


def to_mcp_tool_result(envelope: Envelope) -> Dict[str, Any]:
    """to_mcp_tool_result returns the envelope as the result of a failed MCP tool call.

    isError is True, the envelope's JSON is the one text content item (for
    hosts that read only content) and structuredContent is the envelope in
    the wire layout. Text that is not well-formed (a lone surrogate) is
    U+FFFD in both, as in every writer's output.
    """
    text = to_json(envelope)
    # to_json wrote \ufffd for each lone surrogate: the structure is that text read back.
    structured = json.loads(text) if "\\ufffd" in text else to_dict(envelope)
    return {
        "content": [{"type": "text", "text": text}],
        "structuredContent": structured,
        "isError": True,
    }


def to_mcp_text_tool_result(envelope: Envelope) -> Dict[str, Any]:
    """to_mcp_text_tool_result is to_mcp_tool_result without structuredContent.

    The envelope's JSON is the one text content item only. A client that
    checks an error result's structuredContent against the tool's
    outputSchema (the 1.x TypeScript SDK's) accepts it whatever the schema;
    from_mcp_tool_result reads it from the text.
    """
    return {"content": [{"type": "text", "text": to_json(envelope)}], "isError": True}


def mcp_error_schema() -> Dict[str, Any]:
    """mcp_error_schema returns, as a new dict each call, the schema mcp_output_schema admits beside a tool's success schema.

    It is the consumer schema of this contract's envelope (any kind, open
    vocabularies, unknown members allowed) without its descriptions, with no $ref.
    """
    schema: Dict[str, Any] = json.loads(MCP_ERROR_SCHEMA_JSON)
    return schema


# The members of a success schema that stay at the top of the widened schema: its dialect, base URI and definitions.
_SCHEMA_ROOT_MEMBERS = ("$schema", "$id", "$defs", "definitions")

# The keywords whose values are data, not schemas: a "$ref" inside them is not a reference.
_SCHEMA_DATA_KEYWORDS = frozenset(("const", "enum", "default", "examples"))


def mcp_output_schema(success: Mapping[str, Any]) -> Dict[str, Any]:
    """mcp_output_schema widens a tool's success outputSchema to "the success shape or this contract's envelope".

    The result, {"type": "object", "anyOf": [success, mcp_error_schema()]},
    is for the tool's advertised outputSchema, so that a client that checks
    an error result's structuredContent against it (the 1.x TypeScript
    SDK's Client.callTool) accepts to_mcp_tool_result's results. The success
    branch keeps every constraint; its $schema, $id, $defs and definitions
    move to the top, and its other local references ("#",
    "#/properties/...") are rewritten to point into the branch. The argument
    is not changed.
    """
    branch: Dict[str, Any] = json.loads(json.dumps(success))
    top: Dict[str, Any] = {}
    for name in _SCHEMA_ROOT_MEMBERS:
        if name in branch:
            top[name] = branch.pop(name)
    top["type"] = "object"
    top["anyOf"] = [_rebase_refs(branch), mcp_error_schema()]
    return top


def _rebase_refs(value: Any) -> Any:
    """_rebase_refs rewrites the local references of a success schema moved to anyOf/0, but those into its definitions, which stay at the top."""
    if isinstance(value, list):
        return [_rebase_refs(v) for v in value]
    if not isinstance(value, dict):
        return value
    out: Dict[str, Any] = {}
    for key, v in value.items():
        if key == "$ref" and isinstance(v, str):
            if v == "#" or (v.startswith("#/") and not v.startswith(("#/$defs/", "#/definitions/"))):
                v = "#/anyOf/0" + v[1:]
            out[key] = v
        elif key in _SCHEMA_DATA_KEYWORDS:
            out[key] = v
        else:
            out[key] = _rebase_refs(v)
    return out


def from_mcp_tool_result(result: Any) -> Envelope:
    """from_mcp_tool_result reads the envelope of an MCP tool result (a dict as decoded from JSON).

    It tries structuredContent first, then each text content item (trimmed
    of JSON's white space only, as read_cli trims a line). It does
    not look at isError. When no envelope is found it raises the first
    EnvelopeError met.
    """
    if not isinstance(result, Mapping):
        raise EnvelopeError("", "tool result must be an object", "type")
    first: Optional[EnvelopeError] = None
    sc = result.get("structuredContent")
    if sc is not None:
        try:
            return from_dict(sc)
        except EnvelopeError as err:
            first = err
    content = result.get("content")
    if isinstance(content, list):
        for item in content:
            if not isinstance(item, Mapping) or item.get("type") != "text" or not isinstance(item.get("text"), str):
                continue
            try:
                return from_json(item["text"].strip(JSON_SPACE))
            except EnvelopeError as err:
                if first is None:
                    first = err
    if first is not None:
        raise first
    raise EnvelopeError("", "tool result carries no envelope", "missing")
