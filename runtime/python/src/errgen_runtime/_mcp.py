"""MCP tool results: an envelope as the result of a failed tool call, and back.

They mirror the Go package's ToolResult / FromToolResult, and its MCP
protocol errors (MCPError / ReadMCPError): a JSON-RPC error whose data is
the envelope. This module is the same for every contract.
"""

from __future__ import annotations

import json
from typing import Any, Dict, Mapping, Optional, Tuple, Union

from ._classification import lookup, plain
from ._codec import JSON_SPACE, _well_formed, _within, from_dict, from_json, to_dict, to_json
from ._contract import DEFAULT_MCP_ERROR_CODE, MCP_ERROR_CODES, MCP_ERROR_SCHEMA_JSON, MCP_KIND_ERROR_CODES, MCP_META_KEY
from ._envelope import Envelope
from ._spec import EnvelopeError


def _wire(envelope: Envelope) -> Tuple[str, Dict[str, Any]]:
    """_wire is the envelope's JSON text and its structure, well-formed as that text (a lone surrogate is U+FFFD in both)."""
    text = to_json(envelope)
    # to_json wrote \ufffd for each lone surrogate: the structure is that text read back.
    structured: Dict[str, Any] = json.loads(text) if "\\ufffd" in text else to_dict(envelope)
    return text, structured


def _with_meta(result: Dict[str, Any], structured: Dict[str, Any]) -> Dict[str, Any]:
    """_with_meta adds the contract's _meta member, the envelope under MCP_META_KEY, to an isError tool result."""
    if MCP_META_KEY is not None:
        result["_meta"] = {MCP_META_KEY: structured}
    return result


def mcp_error_code(envelope: Envelope) -> int:
    """mcp_error_code is the JSON-RPC error code of the envelope as an MCP protocol error.

    It is the kind's own (MCP_KIND_ERROR_CODES), else the code the contract
    gives the origin of the kind's
    classification (MCP_ERROR_CODES; a kind this package does not know has
    the fallback's origin), else DEFAULT_MCP_ERROR_CODE.
    """
    own = MCP_KIND_ERROR_CODES.get(plain(envelope.kind))
    if own is not None:
        return own
    return MCP_ERROR_CODES.get(lookup(envelope.kind).origin, DEFAULT_MCP_ERROR_CODE)


def to_mcp_error(envelope: Envelope) -> Dict[str, Any]:
    """to_mcp_error returns the envelope as the error of a failed MCP protocol request (a prompt, a resource, a bridge).

    The JSON-RPC error object (MCP's ErrorData): code mcp_error_code(envelope),
    message the envelope's message, data the envelope.
    """
    _, structured = _wire(envelope)
    return {"code": mcp_error_code(envelope), "message": _well_formed(envelope.message), "data": structured}


def to_mcp_error_response(envelope: Envelope, request_id: Union[str, int, None]) -> Dict[str, Any]:
    """to_mcp_error_response returns the whole JSON-RPC response of to_mcp_error for the request with the given id (None when the request's id could not be read)."""
    return {"jsonrpc": "2.0", "id": request_id, "error": to_mcp_error(envelope)}


def from_mcp_error(value: Any) -> Envelope:
    """from_mcp_error reads the envelope of a JSON-RPC error, decoded: the error object (MCP's ErrorData) or the whole response, whose error member it is.

    The envelope is the error's data member, read and sanitized as
    from_dict reads one; the code and message are not looked at. The value
    is held to the limits every decoder shares, the envelope counting as the
    first level in both forms. An error without data (or with None) raises
    EnvelopeError with path "data" (category "missing").
    """
    if not isinstance(value, Mapping):
        raise EnvelopeError("", "must be a JSON object, not null" if value is None else "must be a JSON object", "type")
    # A response holds its error object one level further out.
    response = "error" in value and "code" not in value
    _within(value, -2 if response else -1)
    obj: Mapping[str, Any] = value
    path = "data"
    if response:
        inner = value["error"]
        if not isinstance(inner, Mapping):
            raise EnvelopeError("error", "must be a JSON object, not null" if inner is None else "must be a JSON object", "type")
        obj, path = inner, "error.data"
    data = obj.get("data")
    if data is None:
        raise EnvelopeError(path, "is required: a JSON-RPC error carries the envelope in its data", "missing")
    return from_dict(data)


# The members of a structuredContent that keeps an upstream's own beside the envelope.
_UPSTREAM_ERROR_MEMBER = "error"
_UPSTREAM_CONTENT_MEMBER = "upstream_structured_content"


def _upstream_wrapped(sc: Any) -> Optional[Tuple[Any, Any]]:
    """_upstream_wrapped returns the envelope member and the original of structured content that keeps an upstream's own (exactly those two members), else None."""
    if not isinstance(sc, Mapping) or len(sc) != 2 or _UPSTREAM_ERROR_MEMBER not in sc or _UPSTREAM_CONTENT_MEMBER not in sc:
        return None
    return sc[_UPSTREAM_ERROR_MEMBER], sc[_UPSTREAM_CONTENT_MEMBER]


def to_mcp_upstream_tool_result(envelope: Envelope, upstream: Any) -> Dict[str, Any]:
    """to_mcp_upstream_tool_result is to_mcp_tool_result for a failed call whose upstream sent structured content of its own.

    The structuredContent is {"error": envelope, "upstream_structured_content":
    upstream}, so the original is kept (labby's form); the text content and
    _meta are to_mcp_tool_result's; with upstream None (MCP's
    structuredContent is an object: the upstream sent none) it is
    to_mcp_tool_result's result. from_mcp_tool_result reads the envelope
    back, mcp_upstream_structured_content the original.
    """
    result = to_mcp_tool_result(envelope)
    if upstream is None:
        return result
    result["structuredContent"] = {_UPSTREAM_ERROR_MEMBER: result["structuredContent"], _UPSTREAM_CONTENT_MEMBER: upstream}
    return result


def mcp_upstream_structured_content(result: Any) -> Any:
    """mcp_upstream_structured_content returns the upstream's own structured content an isError tool result keeps beside the envelope, or None when it keeps none."""
    if not isinstance(result, Mapping) or result.get("isError") is not True:
        return None
    wrapped = _upstream_wrapped(result.get("structuredContent"))
    return None if wrapped is None else wrapped[1]


def to_mcp_tool_result(envelope: Envelope) -> Dict[str, Any]:
    """to_mcp_tool_result returns the envelope as the result of a failed MCP tool call.

    isError is True, the envelope's JSON is the one text content item (for
    hosts that read only content) and structuredContent is the envelope in
    the wire layout. Text that is not well-formed (a lone surrogate) is
    U+FFFD in both, as in every writer's output. When the contract names a
    _meta key (MCP_META_KEY), _meta carries the envelope under it.
    """
    text, structured = _wire(envelope)
    return _with_meta(
        {
            "content": [{"type": "text", "text": text}],
            "structuredContent": structured,
            "isError": True,
        },
        structured,
    )


def to_mcp_text_tool_result(envelope: Envelope) -> Dict[str, Any]:
    """to_mcp_text_tool_result is to_mcp_tool_result without structuredContent.

    The envelope's JSON is the one text content item only. A client that
    checks an error result's structuredContent against the tool's
    outputSchema (the 1.x TypeScript SDK's) accepts it whatever the schema;
    from_mcp_tool_result reads it from the text.
    """
    text, structured = _wire(envelope)
    return _with_meta({"content": [{"type": "text", "text": text}], "isError": True}, structured)


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

    It tries structuredContent first (its error member when it keeps an
    upstream's own beside the envelope, as to_mcp_upstream_tool_result
    writes it), then each text content item (trimmed
    of JSON's white space only, as read_cli trims a line). It does
    not look at isError. When no envelope is found it raises the first
    EnvelopeError met.
    """
    if not isinstance(result, Mapping):
        raise EnvelopeError("", "tool result must be an object", "type")
    first: Optional[EnvelopeError] = None
    sc = result.get("structuredContent")
    wrapped = _upstream_wrapped(sc)
    if wrapped is not None and wrapped[0] is not None:
        sc = wrapped[0]
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
