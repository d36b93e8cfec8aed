"""MCP tool results: an envelope as the result of a failed tool call, and back.

They mirror the Go package's ToolResult / FromToolResult. This module is
the same for every contract.
"""

from __future__ import annotations

import json
from typing import Any, Dict, Mapping, Optional

from ._codec import JSON_SPACE, from_dict, from_json, to_dict, to_json
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
