"""The server side of the HTTP surface, and RFC 9457 problem documents both ways.

to_http_response turns an envelope into a response (status, headers, body
bytes) without any web framework: the status is the kind's, a retry hint
becomes Retry-After, and the body is the envelope or its problem document as
the request's Accept header asks, byte for byte what the Go package's
WriteHTTP and Problem write (the conformance vectors' surfaces and accept
sections hold them to the same bytes). The package README shows the few
lines that hand it to http.server, WSGI or ASGI. This module is the same
for every contract.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any, Dict, Iterable, List, Optional, Tuple, Union

from ._classification import http_status, lookup, problem_type
from ._codec import _MAX_SAFE, _go_json, _loads_within, to_dict, to_json
from ._contract import FIELDS, LAYOUT
from ._envelope import Envelope
from ._http import _from_problem

_MEDIA_JSON = "application/json"
_MEDIA_PROBLEM = "application/problem+json"
_PROBLEM_MEMBERS = ("type", "title", "status", "detail", "instance")

#: _UNKNOWN_KIND_TITLE is the problem title of a kind this contract version does not define: RFC 9457 wants a title that does not change between occurrences.
_UNKNOWN_KIND_TITLE = "Error of a kind this contract version does not define"

#: _DECIMAL is a q value as Go's strconv.ParseFloat reads a decimal one.
_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")

#: _Accept is an Accept header: one value, several header lines, or None.
_Accept = Union[str, Iterable[str], None]


def _json(v: Any) -> str:
    """_json is compact JSON text as the Go encoder writes it: non-ASCII text as it is, U+2028 and U+2029 escaped, a lone surrogate as \\ufffd."""
    return _go_json(json.dumps(v, ensure_ascii=False, separators=(",", ":"), allow_nan=False))


def _media_range(item: str) -> Optional[Tuple[str, float]]:
    """_media_range parses one element of an Accept header into its media range, in lower case, and its quality; None for an empty or malformed element, which is ignored."""
    params = item.split(";")
    rng = params[0].strip().lower()
    if rng == "" or rng.count("/") != 1:
        return None
    q = 1.0
    for p in params[1:]:
        name, _, value = p.partition("=")
        if name.strip() not in ("q", "Q"):
            continue
        value = value.strip()
        v = float(value) if _DECIMAL.fullmatch(value) else float("nan")
        if not (0 <= v <= 1):
            return None
        q = v
    return rng, q


def _specificity(rng: str, media_type: str) -> int:
    """_specificity is how specifically a media range matches a media type: 2 when it names it, 1 for its type's wildcard, 0 for */* and -1 when it does not match."""
    if rng == media_type:
        return 2
    if rng == "*/*":
        return 0
    if rng.endswith("/*") and media_type.startswith(rng[:-1]):
        return 1
    return -1


def prefers_problem(accept: _Accept) -> bool:
    """prefers_problem reports whether Accept header values rank application/problem+json above application/json (RFC 9110, section 12.5.1).

    Each type takes the quality of the most specific media range that
    matches it; on equal quality problem+json wins only when it is matched
    more specifically. A missing header, */*, a tie and a header naming
    neither type all answer False: the envelope itself.
    """
    lines: List[str] = [] if accept is None else [accept] if isinstance(accept, str) else list(accept)
    json_q, json_s, problem_q, problem_s = 0.0, -1, 0.0, -1
    for header in lines:
        for item in header.split(","):
            r = _media_range(item)
            if r is None:
                continue
            rng, q = r
            s = _specificity(rng, _MEDIA_JSON)
            if s > json_s:
                json_q, json_s = q, s
            s = _specificity(rng, _MEDIA_PROBLEM)
            if s > problem_s:
                problem_q, problem_s = q, s
    if problem_q != json_q:
        return problem_q > json_q
    return problem_q > 0 and problem_s > json_s


def to_problem(envelope: Envelope, instance: str = "") -> Dict[str, Any]:
    """to_problem renders the envelope as an RFC 9457 problem document, a JSON-ready dict.

    type is problem_type(kind), title the kind's description (a generic
    title for a kind this package does not know), status the kind's HTTP
    status, detail the message and instance the given URI reference (left
    out when empty). The envelope's own top-level members follow as
    extension members, in wire order, so a reader gets the envelope back
    (from_problem); an envelope member named like a problem member gives
    way to it. Raises ValueError as to_dict does.
    """
    c = lookup(envelope.kind)
    out: Dict[str, Any] = {
        "type": problem_type(envelope.kind),
        "title": c.description if c.known else _UNKNOWN_KIND_TITLE,
        "status": c.http_status,
        "detail": envelope.message,
    }
    if instance != "":
        out["instance"] = instance
    for name, value in to_dict(envelope).items():
        if name not in _PROBLEM_MEMBERS:
            out[name] = value
    return out


def to_problem_json(envelope: Envelope, instance: str = "") -> str:
    """to_problem_json returns to_problem's document as compact JSON text, byte for byte what the Go package's Problem writes."""
    return _json(to_problem(envelope, instance))


def from_problem(doc: Any) -> Envelope:
    """from_problem reads an envelope back from the problem document to_problem renders (a dict as decoded from JSON).

    The problem members are dropped; envelope members the layout names like
    one of them are restored where the problem says what they were (the
    kind from the problem type, the message from detail, the rest from the
    kind's classification); the rest is decoded with from_dict. Raises
    EnvelopeError.
    """
    return _from_problem(doc)


def from_problem_json(text: Union[str, bytes, bytearray]) -> Envelope:
    """from_problem_json parses problem+json text, with the limits every decoder shares, then reads it with from_problem."""
    return _from_problem(_loads_within(text))


@dataclasses.dataclass(frozen=True)
class HttpAnswer:
    """HttpAnswer is an envelope as an HTTP response, for any server: the status, the headers in order, the body bytes."""

    #: The HTTP status code.
    status: int
    #: (name, value) pairs, as the Go package writes them.
    headers: Tuple[Tuple[str, str], ...]
    #: The body: UTF-8 JSON.
    body: bytes

    @property
    def reason(self) -> str:
        """reason is the status line's reason phrase (Go's status text), for WSGI's "429 Too Many Requests"."""
        from ._http import _STATUS_TEXT

        return _STATUS_TEXT.get(self.status, "")


def _required_attrs(o: Any, out: List[str]) -> List[str]:
    for m in o["members"]:
        if "object" in m:
            _required_attrs(m["object"], out)
        elif m["leaf"]["source"] == "field" and m["leaf"].get("required"):
            out.append(m["leaf"]["field"])
    return out


#: _OPTIONAL_ATTRS are the fields an envelope may go without: all but the context fields the layout requires.
_OPTIONAL_ATTRS = tuple(a for a in FIELDS if a not in _required_attrs(LAYOUT, []))


def _body(envelope: Envelope, problem: bool) -> bytes:
    """_body renders the body: the envelope, or its problem document; one that does not encode goes without its optional fields and extra, as the Go package's WriteHTTP sends it."""

    def render(e: Envelope) -> bytes:
        return (to_problem_json(e) if problem else to_json(e)).encode("utf-8")

    try:
        return render(envelope)
    except (ValueError, TypeError, RecursionError):
        pass  # sent without what may not encode, rather than not at all
    hint = envelope.recovery.retry_after_ms
    recovery = envelope.recovery
    if hint is not None and not (isinstance(hint, int) and not isinstance(hint, bool) and hint >= 0):
        recovery = dataclasses.replace(recovery, retry_after_ms=None)
    cleared: Dict[str, Any] = {a: None for a in _OPTIONAL_ATTRS}
    safe = dataclasses.replace(envelope, extra={}, recovery=recovery, **cleared)
    try:
        return render(safe)
    except (ValueError, TypeError, RecursionError):
        return b""


def to_http_response(envelope: Envelope, accept: _Accept = None) -> HttpAnswer:
    """to_http_response answers a request whose Accept header is accept with the envelope, as the Go package's WriteHTTP does.

    The status is http_status(envelope); a retry hint becomes a Retry-After
    header in whole seconds, rounded up so a client never retries early (a
    negative one is left out; one past 2**53 - 1, JavaScript's
    MAX_SAFE_INTEGER, which no encoder writes, is sent as 2**53 - 1 in the
    header and the body alike, as every package's HTTP writer sends it).
    The body is the envelope (Content-Type: application/json) unless Accept
    ranks application/problem+json above application/json
    (prefers_problem), when it is to_problem_json's document
    with no instance (Content-Type: application/problem+json); Vary: Accept
    says the body depends on it. An envelope without a kind, which no client
    could read, is answered with a plain-text 500.
    """
    if not isinstance(envelope.kind, str) or envelope.kind == "":
        return HttpAnswer(500, (("Content-Type", "text/plain; charset=utf-8"), ("X-Content-Type-Options", "nosniff")), b"the error envelope has no kind\n")
    ms = envelope.recovery.retry_after_ms
    if isinstance(ms, int) and not isinstance(ms, bool) and ms > _MAX_SAFE:
        envelope = dataclasses.replace(envelope, recovery=dataclasses.replace(envelope.recovery, retry_after_ms=_MAX_SAFE))
        ms = _MAX_SAFE
    problem = prefers_problem(accept)
    headers: List[Tuple[str, str]] = [("Content-Type", _MEDIA_PROBLEM if problem else _MEDIA_JSON), ("Vary", "Accept")]
    if isinstance(ms, int) and not isinstance(ms, bool) and ms >= 0:
        headers.append(("Retry-After", str((ms + 999) // 1000)))
    return HttpAnswer(http_status(envelope), tuple(headers), _body(envelope, problem))
