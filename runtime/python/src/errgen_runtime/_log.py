"""The structured-log form of an envelope, for the standard library's logging.

log_fields writes the same members, in the same order and bounds, as the Go
package's Envelope.LogValue and the TypeScript package's logFields (the
contract's LOG table; the conformance vectors' surfaces section holds the
three to the same fields). This module is the same for every contract.
"""

from __future__ import annotations

import json
import math
import logging
import re
from typing import TYPE_CHECKING, Any, Dict, List, MutableMapping, Optional, Tuple

from ._classification import http_status, is_retryable
from ._codec import _go_json, _well_formed, to_dict
from ._contract import FIELDS, LAYOUT, LOG, SANITIZED_FIELDS
from . import _envelope
from ._envelope import Envelope
from ._sanitize import sanitize


def bound_log_text(s: str) -> str:
    """bound_log_text cuts text longer than LOG["max_bytes"] bytes of UTF-8 at a character boundary and ends it with LOG["ellipsis"], so no log line grows with what an upstream sends; a lone surrogate, which no log line can carry as UTF-8, is U+FFFD."""
    s = _well_formed(s)
    b = s.encode("utf-8")
    n = int(LOG["max_bytes"])
    if len(b) <= n:
        return s
    while n > 0 and b[n] & 0xC0 == 0x80:
        n -= 1
    return b[:n].decode("utf-8") + str(LOG["ellipsis"])


#: _LINE_BREAKS are what the string forms write as a space; _REMOVED what they delete (the other C0 controls, DEL, the C1 controls); _SURROGATES what they write as U+FFFD.
_LINE_BREAKS = re.compile("[\t\n\r\u2028\u2029]")
_REMOVED = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_SURROGATES = re.compile("[\ud800-\udfff]")
_NOT_ONE_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def _one_line(s: str) -> str:
    """_one_line is s on one line and without controls: tab, line feed, carriage return, U+2028 and U+2029 become spaces, the other controls go, a lone surrogate becomes U+FFFD."""
    if _NOT_ONE_LINE.search(s) is None:
        return s
    return _SURROGATES.sub("\ufffd", _REMOVED.sub("", _LINE_BREAKS.sub(" ", s)))


def string_text(s: str, sanitized: bool) -> str:
    """string_text is a text of the string forms: on one line, sanitized when sanitized is set (after the line breaks became spaces, so a secret split by one is read whole), bounded as the log form's texts are."""
    s = _one_line(s)
    if sanitized:
        s = _one_line(sanitize(s))
    return bound_log_text(s)


def error_string(envelope: Envelope) -> str:
    """error_string is the envelope's string form, "kind: message", as the Go package's Error() writes it.

    One line: tab, line feed, carriage return, U+2028 and U+2029 become
    spaces and the other controls go, so a message cannot forge a second
    log line; the message sanitized when the contract sanitizes it (however
    the envelope was built or received); each bounded as log_fields bounds
    its texts. str() and repr() of an Envelope and of the exceptions of
    to_exception, and the exceptions' args, are made of it.
    """
    return string_text(str(envelope.kind), False) + ": " + string_text(envelope.message, "message" in SANITIZED_FIELDS)


_envelope._error_string = error_string


def _json(v: Any) -> Optional[str]:
    """_json is the compact JSON text of a value as the envelope's encoder and every package's log form write it; None for a value JSON cannot carry (the AIP-193 metadata reads it too)."""
    try:
        text = json.dumps(v, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (ValueError, TypeError, RecursionError):
        return None
    return _go_json(text)


#: _JSON_STRING is a string of JSON text, escapes included.
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')


def _sanitize_json_string(m: "re.Match[str]") -> str:
    literal = m.group(0)
    s = json.loads(literal)
    clean = sanitize(s)
    return literal if clean == s else (_json(clean) or '""')


def _sanitize_json(text: str) -> str:
    """_sanitize_json sanitizes the compact JSON text _json writes as the log form does: each string first, member names included, decoded from its escapes, so that an escaped control cannot split a secret the sanitizer would find in the text; then the text whole, so that a secret spread over a member's name and its value ("password":"…") goes too."""
    return sanitize(_JSON_STRING.sub(_sanitize_json_string, text))


def _field_leaves(o: Any, out: List[Tuple[str, str]]) -> List[Tuple[str, str]]:
    for m in o["members"]:
        if "object" in m:
            _field_leaves(m["object"], out)
        elif m["leaf"]["source"] == "field":
            out.append((m["leaf"]["field"], m["leaf"]["path"]))
    return out


#: _FIELD_LEAVES are the layout's context and kind-specific fields in wire order: (Envelope attribute, path).
_FIELD_LEAVES = tuple(_field_leaves(LAYOUT, []))

#: _ABSENT is what _at returns for a path the wire form does not hold.
_ABSENT = object()


def _at(wire: Any, path: str) -> Any:
    """_at is the value at the dotted path of wire, an envelope's wire form as a dict, or _ABSENT (the AIP-193 metadata reads it too)."""
    v = wire
    for key in path.split("."):
        if not isinstance(v, dict) or key not in v:
            return _ABSENT
        v = v[key]
    return v


def _fields(envelope: Envelope) -> Dict[str, Any]:
    """_fields is the fields member: each field the envelope carries on the wire, under its contract name."""
    try:
        wire: Any = to_dict(envelope)
    except (ValueError, TypeError, RecursionError):
        wire = None  # an envelope that does not encode logs the fields it can
    out: Dict[str, Any] = {}
    for attr, path in _FIELD_LEAVES:
        spec = FIELDS.get(attr)
        if spec is None:
            continue
        v = _at(wire, path) if wire is not None else getattr(envelope, attr, None)
        if v is _ABSENT or v is None or v == "":
            continue
        name = spec["name"]
        if isinstance(v, (bool, int, float)) and not isinstance(v, str):
            if isinstance(v, float) and not math.isfinite(v):
                continue
            out[name] = v
            continue
        if isinstance(v, str):
            out[name] = bound_log_text(sanitize(v) if name in SANITIZED_FIELDS else v)
            continue
        text = _json(v)
        if text is not None:
            out[name] = bound_log_text(_sanitize_json(text) if name in SANITIZED_FIELDS else text)
    return out


def _extra_json(envelope: Envelope) -> Optional[str]:
    """_extra_json is the compact JSON object of the extra entries, sorted by key, unsanitized and unbounded, as the extra member and the AIP-193 metadata's extra write it; None without an entry JSON can carry."""
    parts = []
    for k in sorted(envelope.extra):
        v = _json(envelope.extra[k])
        if v is not None:
            parts.append((_json(k) or '""') + ":" + v)
    return "{" + ",".join(parts) + "}" if parts else None


def _extra(envelope: Envelope) -> Optional[str]:
    """_extra is the extra member: the compact JSON text of the extra entries, sorted by key, sanitized; None without any."""
    text = _extra_json(envelope)
    return None if text is None else bound_log_text(_sanitize_json(text))


def log_fields(envelope: Envelope) -> Dict[str, Any]:
    """log_fields returns the envelope's structured-log form, a dict the Go and TypeScript packages write member for member (LOG["members"]).

    The members: kind, message, origin, action, same_arguments,
    side_effects, retryable, http_status, retry_after_ms (only with a retry
    hint), fields (the context and kind-specific fields the envelope carries,
    under their contract names: text as it is, integers, numbers and
    booleans as they are, arrays and objects as their compact JSON text;
    only when there are any) and extra (the compact JSON text of the members
    this contract does not name; only when there are any).

    It never leaks what the contract sanitizes: the message and each field
    SANITIZED_FIELDS lists are sanitized, however the envelope was built or
    received, and extra always is. Every text is bounded (bound_log_text).
    """
    out: Dict[str, Any] = {}
    for member in LOG["members"]:
        if member == "kind":
            out[member] = bound_log_text(str(envelope.kind))
        elif member == "message":
            out[member] = bound_log_text(sanitize(envelope.message) if "message" in SANITIZED_FIELDS else envelope.message)
        elif member == "origin":
            out[member] = bound_log_text(str(envelope.origin))
        elif member == "action":
            out[member] = bound_log_text(str(envelope.recovery.action))
        elif member == "same_arguments":
            out[member] = bound_log_text(str(envelope.recovery.same_arguments))
        elif member == "side_effects":
            out[member] = bound_log_text(str(envelope.side_effects))
        elif member == "retryable":
            out[member] = is_retryable(envelope)
        elif member == "http_status":
            out[member] = http_status(envelope)
        elif member == "retry_after_ms":
            if envelope.recovery.retry_after_ms is not None:
                out[member] = envelope.recovery.retry_after_ms
        elif member == "fields":
            group = _fields(envelope)
            if group:
                out[member] = group
        elif member == "extra":
            extra = _extra(envelope)
            if extra is not None:
                out[member] = extra
    return out


def log_extra(envelope: Envelope, key: str = "error") -> Dict[str, Any]:
    """log_extra is the extra= argument of a logging call that records the envelope: {key: log_fields(envelope)}.

    One key, because logging refuses extra keys that name LogRecord
    attributes (message, args, …); a JSON formatter writes it as one object.

        logger.warning("tool call failed", extra=log_extra(env))
    """
    return {key: log_fields(envelope)}


if TYPE_CHECKING:
    _Adapter = logging.LoggerAdapter[logging.Logger]
else:
    _Adapter = logging.LoggerAdapter


class EnvelopeLogger(_Adapter):
    """EnvelopeLogger is a LoggerAdapter whose logging calls take envelope=: it becomes extra[key], log_fields(envelope).

        log = EnvelopeLogger(logging.getLogger(__name__))
        log.warning("tool call failed", envelope=env)
    """

    def __init__(self, logger: logging.Logger, key: str = "error") -> None:
        super().__init__(logger, {})
        self.key = key

    def process(self, msg: Any, kwargs: MutableMapping[str, Any]) -> Tuple[Any, MutableMapping[str, Any]]:
        envelope = kwargs.pop("envelope", None)
        extra = dict(self.extra or {})
        extra.update(kwargs.get("extra") or {})
        if envelope is not None:
            extra[self.key] = log_fields(envelope)
        kwargs["extra"] = extra
        return msg, kwargs
