"""The google.rpc mapping (AIP-193): an envelope as a google.rpc.Status with an ErrorInfo and a RetryInfo, in its JSON form, and back.

    {"error":{"code":<HTTP status>,"message":...,"status":"<gRPC code name>","details":[ErrorInfo, RetryInfo]}}

to_aip193 and from_aip193 mirror the Go package's AIP193 and FromAIP193;
the conformance vectors' aip193 sections hold them to the same bytes and
envelopes. Every envelope this package writes comes back as it was; a
foreign error becomes the best envelope this contract gives it. This module
is the same for every contract; the contract's side (ERROR_INFO_DOMAIN,
AIP193_LEAVES, AIP193_OFF_WIRE, REASON_KINDS, and each classification's
grpc_code, grpc_status and reason) is in _contract.
"""

from __future__ import annotations

import dataclasses
import math
import re
from enum import Enum
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

from ._classification import classified_envelope, lookup, plain
from ._codec import MAX_DOCUMENT_BYTES, _STRICT, _check_size, _extra_within, _loads, _loads_within, _too_deep, from_dict, to_dict
from ._contract import AIP193_LEAVES, AIP193_OFF_WIRE, CONTRACT_VERSION, ERROR_INFO_DOMAIN, REASON_KINDS, RETRY
from ._envelope import Envelope
from ._http import _classify_http, _http_text, _upstream_message
from ._log import _ABSENT, _at, _extra_json, _json
from ._sanitize import sanitize, sanitize_value
from ._spec import EnvelopeError

#: The detail types of the mapping, as "@type" names them.
_ERROR_INFO_TYPE = "type.googleapis.com/google.rpc.ErrorInfo"
_RETRY_INFO_TYPE = "type.googleapis.com/google.rpc.RetryInfo"

#: _MAX_RETRY_DELAY_MS is the longest retry hint a google.protobuf.Duration holds (315,576,000,000 seconds). A longer hint goes into RetryInfo as that maximum and into the metadata, exactly, as retryAfterMs.
_MAX_RETRY_DELAY_MS = 315_576_000_000_000

#: The metadata keys of the kind, of a retry hint past a Duration's range and of the members the contract does not name; the other keys are the contract's (AIP193_LEAVES, AIP193_OFF_WIRE).
_META_KIND = "kind"
_META_RETRY_AFTER_MS = "retryAfterMs"
_META_EXTRA = "extra"

#: _GRPC_CODES are google.rpc.Code's codes by number (index): (name, the HTTP status code.proto documents for it).
_GRPC_CODES: Tuple[Tuple[str, int], ...] = (
    ("OK", 200), ("CANCELLED", 499), ("UNKNOWN", 500), ("INVALID_ARGUMENT", 400),
    ("DEADLINE_EXCEEDED", 504), ("NOT_FOUND", 404), ("ALREADY_EXISTS", 409),
    ("PERMISSION_DENIED", 403), ("RESOURCE_EXHAUSTED", 429), ("FAILED_PRECONDITION", 400),
    ("ABORTED", 409), ("OUT_OF_RANGE", 400), ("UNIMPLEMENTED", 501), ("INTERNAL", 500),
    ("UNAVAILABLE", 503), ("DATA_LOSS", 500), ("UNAUTHENTICATED", 401),
)

_CODE_NUMBERS: Mapping[str, int] = {name: n for n, (name, _) in enumerate(_GRPC_CODES)}

_SURROGATE = re.compile("[\ud800-\udfff]")
_DURATION = re.compile(r"(-?)([0-9]{1,12})(?:\.([0-9]{1,9}))?s")
_GO_INT = re.compile(r"[+-]?[0-9]+")

_KindLike = Union[Envelope, str, Enum]


def _kind_of(x: _KindLike) -> str:
    return plain(x.kind) if isinstance(x, Envelope) else plain(x)


def error_info_reason(kind: _KindLike) -> str:
    """error_info_reason returns the ErrorInfo reason of a kind (or an envelope's kind): the contract's for a known kind, computed the same way for any other (lookup's reason). AIP-193 clients switch on it; the kind itself travels in the metadata."""
    return lookup(_kind_of(kind)).reason


def grpc_code(kind: _KindLike) -> int:
    """grpc_code returns the canonical google.rpc.Code number of a kind (or an envelope's kind); the fallback's for a kind the contract does not list."""
    return lookup(_kind_of(kind)).grpc_code


def grpc_status(kind: _KindLike) -> str:
    """grpc_status returns the name of grpc_code's code ("NOT_FOUND"), as AIP-193's "status" spells it."""
    return lookup(_kind_of(kind)).grpc_status


def _off_wire_get(e: Envelope, source: str) -> str:
    if source == "version":
        return str(e.contract_version)
    if source == "origin":
        return plain(e.origin)
    if source == "side_effects":
        return plain(e.side_effects)
    return plain(getattr(e.recovery, source))  # action, same_arguments, guidance


def _duration(ms: int) -> str:
    """_duration is a Duration of ms milliseconds in its JSON form: seconds with 0 or 3 fractional digits and an "s"."""
    s, frac = divmod(ms, 1000)
    return f"{s}.{frac:03d}s" if frac else f"{s}s"


def _metadata(envelope: Envelope) -> Tuple[Dict[str, str], Optional[str]]:
    """_metadata is the ErrorInfo metadata of an envelope and its RetryInfo's retryDelay (None without a retry hint)."""
    wire = to_dict(envelope)
    meta: Dict[str, str] = {_META_KIND: plain(envelope.kind)}
    for path, source, key, text, _ in AIP193_LEAVES:
        if source != "meta":
            continue
        v = _at(wire, path)
        if v is _ABSENT:
            continue
        if text and isinstance(v, str):
            meta[key] = v
        else:
            raw = _json(v)
            if raw is not None:
                meta[key] = raw
    for key, source in AIP193_OFF_WIRE:
        v = _off_wire_get(envelope, source)
        if source != "guidance" or v != "":
            meta[key] = v
    if envelope.extra:
        meta[_META_EXTRA] = _extra_json(envelope) or "{}"
    delay = None
    ms = envelope.recovery.retry_after_ms
    if ms is not None and ms >= 0:
        delay = _duration(min(ms, _MAX_RETRY_DELAY_MS))
        if ms > _MAX_RETRY_DELAY_MS:
            meta[_META_RETRY_AFTER_MS] = str(ms)
    return meta, delay


def to_aip193(envelope: Envelope) -> str:
    """to_aip193 returns the envelope as an AIP-193 JSON error (a google.rpc.Status).

    {"error":{"code","message","status","details":[ErrorInfo, RetryInfo]}}:
    the kind's HTTP status and gRPC code, the message, an ErrorInfo (reason
    error_info_reason, domain ERROR_INFO_DOMAIN, metadata holding the kind
    verbatim and every value of the envelope AIP-193 has no field for,
    sorted by key) and, with a retry hint, a RetryInfo. The text is the Go
    package's AIP193 byte for byte; from_aip193 reads it back into the same
    envelope. An envelope that does not encode raises ValueError, as
    to_json does.
    """
    meta, delay = _metadata(envelope)
    kind = plain(envelope.kind)
    info = {"@type": _ERROR_INFO_TYPE, "reason": error_info_reason(kind), "domain": ERROR_INFO_DOMAIN, "metadata": {k: meta[k] for k in sorted(meta)}}
    details: List[Dict[str, Any]] = [info]
    if delay is not None:
        details.append({"@type": _RETRY_INFO_TYPE, "retryDelay": delay})
    status = {"error": {"code": lookup(kind).http_status, "message": envelope.message, "status": grpc_status(kind), "details": details}}
    return _json(status) or ""


@dataclasses.dataclass
class _Status:
    """_Status is what from_aip193 reads of a google.rpc.Status: HTTP status 0 and code -1 when unknown."""

    http_status: int = 0
    code: int = -1
    status: str = ""
    message: str = ""
    reason: str = ""
    domain: str = ""
    metadata: Dict[str, str] = dataclasses.field(default_factory=dict)
    retry_delay: Optional[Tuple[int, int]] = None  # (seconds, nanos)


def _string(v: Any) -> Optional[str]:
    """_string is a JSON string as the Go decoder reads it (a lone surrogate is U+FFFD); None for any other value."""
    if not isinstance(v, str):
        return None
    return _SURROGATE.sub("\ufffd", v) if not v.isascii() else v


def _parse_duration(s: str) -> Optional[Tuple[int, int]]:
    """_parse_duration reads a Duration's JSON form: an optional "-", whole seconds (at most 315,576,000,000), optionally "." and 1 to 9 digits, and "s"."""
    m = _DURATION.fullmatch(s)
    if m is None:
        return None
    sec = int(m.group(2))
    if sec > _MAX_RETRY_DELAY_MS // 1000:
        return None
    nanos = int((m.group(3) or "").ljust(9, "0"))
    if m.group(1):
        sec, nanos = -sec, -nanos
    return sec, nanos


def _delay_ms(d: Tuple[int, int]) -> Optional[int]:
    """_delay_ms is a Duration in whole milliseconds, rounded up (a client never retries early); None for a negative one."""
    sec, nanos = d
    if sec < 0 or nanos < 0:
        return None
    return sec * 1000 + (nanos + 999_999) // 1_000_000


def _parse(text: Union[str, bytes, bytearray]) -> _Status:
    # The whole document is held to the limits every decoder shares, with
    # the envelope decoder's error.
    top = _loads_within(text)
    if not isinstance(top, dict):
        raise EnvelopeError("", "must be a JSON object", "type")
    if "error" not in top:
        raise EnvelopeError("error", "is required", "missing")
    obj = top["error"]
    if not isinstance(obj, dict):
        raise EnvelopeError("error", "must be a JSON object" + (", not null" if obj is None else ""), "type")
    s = _Status()
    # The code is read by value, as the envelope's integers are (404.0 is
    # 404); it counts only when it is an error status.
    code = obj.get("code")
    if isinstance(code, (int, float)) and not isinstance(code, bool) and math.isfinite(code) and 400 <= code <= 599 and code == int(code):
        s.http_status = int(code)
    s.message = _string(obj.get("message")) or ""
    s.status = _string(obj.get("status")) or ""
    s.code = _CODE_NUMBERS.get(s.status, -1)
    details = obj.get("details")
    seen_info = seen_retry = False
    for d in details if isinstance(details, list) else ():
        if not isinstance(d, dict):
            continue
        t = _string(d.get("@type"))
        if t == _ERROR_INFO_TYPE and not seen_info:
            seen_info = True
            s.reason = _string(d.get("reason")) or ""
            s.domain = _string(d.get("domain")) or ""
            meta = d.get("metadata")
            if isinstance(meta, dict):
                for k, v in meta.items():
                    sv = _string(v)
                    if sv is not None:
                        s.metadata[_string(k) or ""] = sv
        elif t == _RETRY_INFO_TYPE and not seen_retry:
            seen_retry = True
            # The proto field name, which protobuf's JSON readers accept as well, counts when the JSON name is absent.
            delay = _string(d["retryDelay"] if "retryDelay" in d else d.get("retry_delay"))
            if delay is not None:
                s.retry_delay = _parse_duration(delay)
    return s


def from_aip193(text: Union[str, bytes, bytearray], *, max_bytes: Optional[int] = MAX_DOCUMENT_BYTES) -> Envelope:
    """from_aip193 reads an AIP-193 JSON error into an envelope.

    It raises EnvelopeError only when text is not a JSON object whose
    "error" member is an object, or is past the limits every decoder shares
    (path "", category "syntax", as from_json raises it); every member
    inside that is of the wrong type, and every detail that is not an
    object with a known "@type" and well-typed members, is ignored (the first ErrorInfo and the first
    RetryInfo count).

    One to_aip193 wrote (its ErrorInfo's domain is ERROR_INFO_DOMAIN and
    its metadata has a kind) comes back as the envelope it was. A foreign
    error gets the kind its reason names when its domain is
    ERROR_INFO_DOMAIN, else the kind from_http_response gives a response
    with its HTTP status and message; the HTTP status is "code" when it is
    an error status (400-599), else the one google.rpc.Code documents for
    "status", else 500. The message is "HTTP <status> <status text>:
    <message>"; the retry hint is RetryInfo's delay in whole milliseconds,
    rounded up, at most RETRY.max_hint_ms. A context field the layout
    requires is left empty for the caller to set (dataclasses.replace).
    Text longer than max_bytes bytes of UTF-8 (MAX_DOCUMENT_BYTES, 1 MiB;
    None: no limit) is a syntax error, raised before it is parsed.
    """
    _check_size(text, max_bytes)
    s = _parse(text)
    if s.domain == ERROR_INFO_DOMAIN and s.metadata.get(_META_KIND, "") != "":
        own = _from_own(s)
        if own is not None:
            return own
    status = s.http_status
    if not 400 <= status <= 599:
        status = 500
        if 0 < s.code < len(_GRPC_CODES):
            status = _GRPC_CODES[s.code][1]
    kind = REASON_KINDS.get(s.reason)
    if kind is not None and s.domain == ERROR_INFO_DOMAIN:
        e = classified_envelope(kind, _upstream_message(status, _http_text(s.message.encode("utf-8"))))
    else:
        e = _classify_http(status, s.message.encode("utf-8"))
    if s.retry_delay is not None:
        ms = _delay_ms(s.retry_delay)
        if ms is not None:
            e = dataclasses.replace(e, recovery=dataclasses.replace(e.recovery, retry_after_ms=min(ms, RETRY.max_hint_ms)))
    return e


def _set(root: Dict[str, Any], path: str, v: Any) -> None:
    """_set puts v at a dotted path of root, making the objects on the way; a member already set stays."""
    names = path.split(".")
    for name in names[:-1]:
        child = root.setdefault(name, {})
        if not isinstance(child, dict):
            return
        root = child
    root.setdefault(names[-1], v)


def _raw(text: str, level: int) -> Any:
    """_raw is the one JSON value text holds; _ABSENT when it holds none, or more than one (a metadata text such as '1,"kind":"x"' must not add members).

    The text is held to the limits every decoder shares where the value
    goes, level arrays and objects around it, as Go reads the envelope the
    metadata make: a first copy of a member given twice too, which the
    parsed value no longer holds (_ABSENT past them).
    """
    try:
        v = _loads(text, _STRICT)
    except (ValueError, TypeError, RecursionError):
        return _ABSENT
    return _ABSENT if _too_deep(text, level) else v


def _go_int(text: str) -> Optional[int]:
    """_go_int reads text as Go's strconv.Atoi does: an optional sign and ASCII digits, within 64 bits."""
    if _GO_INT.fullmatch(text) is None:
        return None
    n = int(text)
    return n if -(2**63) <= n < 2**63 else None


def _from_own(s: _Status) -> Optional[Envelope]:
    """_from_own reads back what to_aip193 wrote; None when the metadata does not make an envelope."""
    meta = s.metadata
    retry: Optional[str] = meta.get(_META_RETRY_AFTER_MS)
    if retry is None and s.retry_delay is not None:
        ms = _delay_ms(s.retry_delay)
        retry = None if ms is None else str(ms)
    root: Dict[str, Any] = {}
    for path, source, key, text, const in AIP193_LEAVES:
        if source == "kind":
            v: Any = meta[_META_KIND]
        elif source == "message":
            v = s.message
        elif source == "retry":
            if retry is None or retry == "":
                continue
            v = _raw(retry, 1 + path.count("."))
        elif source == "const":
            v = const
        else:
            if key not in meta:
                continue
            v = meta[key] if text else _raw(meta[key], 1 + path.count("."))
        if v is _ABSENT:
            return None
        _set(root, path, v)
    try:
        e = from_dict(root)
    except (ValueError, TypeError, RecursionError):
        return None
    env: Dict[str, Any] = {}
    rec: Dict[str, Any] = {}
    for key, source in AIP193_OFF_WIRE:
        if key not in meta:
            continue
        v = meta[key]
        if source == "version":
            if isinstance(CONTRACT_VERSION, int):
                n = _go_int(v)
                if n is None:
                    return None
                env["contract_version"] = n
            else:
                env["contract_version"] = v
        elif source in ("origin", "side_effects"):
            # Read from an upstream, each value is sanitized as from_dict sanitizes one on the wire.
            env[source] = sanitize(v)
        else:
            rec[source] = sanitize(v)
    if rec:
        env["recovery"] = dataclasses.replace(e.recovery, **rec)
    if _META_EXTRA in meta:
        try:
            extra = _loads_within(meta[_META_EXTRA])
        except EnvelopeError:
            return None
        if not isinstance(extra, dict):
            return None
        # Each entry goes where its key places it and must stay within the
        # limits there, as the encoder checks it: an envelope read back can
        # always be encoded again.
        if not all(_extra_within(k, v) for k, v in extra.items()):
            return None
        if extra:
            # Their strings are the sender's: sanitized, as from_dict sanitizes extra members.
            env["extra"] = {**e.extra, **sanitize_value(extra)}
    return dataclasses.replace(e, **env) if env else e
