"""Call errors: the object a sandbox's rejected tool call carries (labby's Code Mode call error).

Built from a completed MCP tool result flagged isError, as the contract's
call_error section (CALL_ERROR) describes it. A completed result is the
contract's tool_result kind and origin, and never counts toward the circuit
breaker. This module is the same for every contract.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Mapping, Optional, Sequence

from ._classification import _blank, for_tool, lookup, plain
from ._codec import JSON_SPACE
from ._contract import CALL_ERROR
from ._mcp import from_mcp_tool_result
from ._sanitize import sanitize, sanitize_max, sanitize_value
from ._spec import EnvelopeError


def to_call_error(result: Any, upstream: str = "", name: str = "", annotations: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
    """to_call_error builds the call error of result, a completed MCP tool result flagged isError (a dict as decoded from JSON), for a call to upstream's tool name with the tool's MCP annotations.

    Its kind is the envelope the result carries (from_mcp_tool_result),
    canonicalised, or the contract's tool_result kind; its recovery and
    side_effects are the contract's classification of that kind, the
    same_arguments advice relaxed for the tool's annotations (for_tool). The
    members are named as on the wire, in the contract's order. It raises
    ValueError when the contract declares no call_error, or result is not a
    mapping with isError true and a content list.
    """
    p = CALL_ERROR
    if p is None:
        raise ValueError("this contract declares no call_error")
    if not isinstance(result, Mapping) or result.get("isError") is not True:
        raise ValueError("the tool result is not flagged isError")
    content = result.get("content")
    if content is None:
        content = []
    if not isinstance(content, list):
        raise ValueError("the tool result's content is not a list")
    texts = [b["text"] for b in content if isinstance(b, Mapping) and b.get("type") == "text" and isinstance(b.get("text"), str)]
    sc = result.get("structuredContent")
    kind: str = p["result_kind"]
    message = ""
    cause = ""
    retry_after: Optional[int] = None
    try:
        env = from_mcp_tool_result({"content": [{"type": "text", "text": t} for t in texts], "structuredContent": sc})
    except EnvelopeError:
        if texts:
            message = sanitize(texts[0])
    else:
        kind, message = plain(env.kind), env.message
        c = getattr(env, "cause", None)
        cause = c if isinstance(c, str) else ""
        ms = env.recovery.retry_after_ms
        if isinstance(ms, int) and not isinstance(ms, bool) and ms >= 0:
            retry_after = ms
    if _blank(message):
        message = p["default_message"]
    original_kind = ""
    if kind in p["canonical"]:
        original_kind, kind = kind, p["canonical"][kind]
    upstream = upstream if isinstance(upstream, str) else ""
    name = name if isinstance(name, str) else ""
    tool = ""
    if upstream and name:
        tool = upstream + p["separator"] + name
    else:
        i = name.find(p["separator"])
        if i > 0 and i + len(p["separator"]) < len(name):
            tool = name
    ann: Mapping[str, Any] = annotations if isinstance(annotations, Mapping) else {}

    def hint(n: str) -> Optional[bool]:
        v = ann.get(n)
        return v if isinstance(v, bool) else None

    safety: Dict[str, bool] = {}
    for member, annotation in p["hints"]:
        b = hint(annotation)
        if b is not None:
            safety[member] = b
    cl = lookup(kind)
    recovery: Dict[str, Any] = {"action": cl.action, "same_arguments": for_tool(cl.same_arguments, hint("readOnlyHint"), hint("idempotentHint")), "guidance": cl.guidance}
    if retry_after is not None:
        recovery["retry_after_ms"] = retry_after
    values: Dict[str, Any] = {
        "contract_version": p["version"],
        "kind": kind,
        "message": message,
        "tool": tool or None,
        "origin": p["origin"],
        "recovery": recovery,
        "side_effects": cl.side_effects,
        "original_kind": original_kind or None,
        "cause": cause or None,
        "safety": safety or None,
        "evidence": _evidence(p, content, texts, sc),
    }
    return {m: values[m] for m in p["members"] if values.get(m) is not None}


def call_error_text(call_error: Mapping[str, Any]) -> str:
    """call_error_text is the call error's JSON text, which a sandbox puts in the message of the error its call rejects with."""
    return json.dumps(call_error, ensure_ascii=False, separators=(",", ":"))


def _str(o: Any, key: str) -> Optional[str]:
    if not isinstance(o, Mapping):
        return None
    v = o.get(key)
    return v if isinstance(v, str) else None


def _no_constant(name: str) -> Any:
    """_no_constant refuses NaN and Infinity, which JSON does not have."""
    raise ValueError(name + " is not JSON")


def _utf8_len(s: str) -> int:
    return len(s.encode("utf-8", "surrogatepass"))


def _evidence(p: Mapping[str, Any], content: Sequence[Any], texts: List[str], structured: Any) -> Dict[str, Any]:
    blocks: List[Dict[str, Any]] = []
    omitted = 0
    for i, b in enumerate(content):
        if i >= p["max_blocks"]:
            omitted += len(content) - i
            break
        typ = _str(b, "type") or ""
        out: Dict[str, Any] = {"type": sanitize(typ)}
        if not isinstance(b, Mapping) or typ == "":
            out["type"] = "unknown"
            out["omitted"] = True
            omitted += 1
        elif typ == "text":
            out["text"] = sanitize_max(_str(b, "text") or "", p["max_text"])
        elif typ == "resource":
            res = b.get("resource")
            uri, mt, text = _str(res, "uri"), _str(res, "mimeType"), _str(res, "text")
            if uri is not None:
                out["uri"] = sanitize(uri)
            if mt is not None:
                out["mime_type"] = sanitize(mt)
            if text is not None:
                out["text"] = sanitize_max(text, p["max_resource"])
            else:
                out["encoded_bytes"] = _utf8_len(_str(res, "blob") or "")
                out["omitted"] = True
                omitted += 1
        elif typ == "resource_link":
            uri = _str(b, "uri")
            if uri is not None:
                out["uri"] = sanitize(uri)
        elif typ in p["binary"]:
            mt = _str(b, "mimeType")
            if mt is not None:
                out["mime_type"] = sanitize(mt)
            out["encoded_bytes"] = _utf8_len(_str(b, "data") or "")
            out["omitted"] = True
            omitted += 1
        else:
            out["omitted"] = True
            omitted += 1
        blocks.append(out)
    ev: Dict[str, Any] = {"content": blocks}
    if structured is not None:
        ev["structured_content"] = sanitize_value(structured)
    for t in texts:
        try:
            v = json.loads(t.strip(JSON_SPACE), parse_constant=_no_constant)
        except ValueError:
            continue
        if isinstance(v, dict):
            ev["parsed_error"] = sanitize_value(v)
            break
    ev["omitted_content_blocks"] = omitted
    return ev
