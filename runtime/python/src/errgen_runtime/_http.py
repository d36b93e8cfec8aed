"""Reading a failed HTTP response: the envelope it carries, or one built from it.

from_http_response mirrors the Go package's ReadHTTP and the TypeScript
package's fromHttpResponse; the conformance vectors' http section holds the
three to the same answers. It takes the parts of a response every HTTP
client has (status, headers, body bytes), so it works with urllib,
http.client, requests, httpx or aiohttp alike. This module is the same for
every contract.
"""

from __future__ import annotations

import dataclasses
import re
import time
from typing import Any, Dict, Iterable, List, Mapping, Optional, Tuple, Union

from ._classification import _blank, classified_envelope, lookup, may_have_run
from ._codec import _loads_within, _within, from_dict
from ._contract import (
    CONTRACT_VERSION,
    ECHO_BODY,
    HTTP_KINDS,
    HTTP_STATUS_FIELD,
    INBOUND,
    LAYOUT,
    PROBLEM_TYPE_BASE,
    RETRY,
    SHORT_FORM,
    SYNTHETIC_KIND_PREFIX,
)
from ._envelope import Envelope
from ._inbound import classify_with
from ._sanitize import sanitize
from ._spec import EnvelopeError
from ._words import ascii_lower

#: PROMOTED_MEMBER is the top-level member from_http_response adds to an envelope it built from labby's short form of an error body ({"kind": ..., "message": ...}): the advice is then the contract's classification of the kind, not the producer's. No field of a contract can take the name (field names start with a letter), so it travels in extra and survives to_json and from_json.
PROMOTED_MEMBER = "_promoted_from"

#: PROMOTED_SHORT_FORM is PROMOTED_MEMBER's value for labby's short form.
PROMOTED_SHORT_FORM = "short_form"

#: Headers is what from_http_response reads headers from: a mapping (a dict, requests' or httpx's headers, http.client's HTTPMessage) or (name, value) pairs. Names are matched ignoring ASCII case; the first match wins.
Headers = Union[Mapping[str, str], Iterable[Tuple[str, str]], None]

#: _MAX_HTTP_BODY bounds the body read as an envelope: an envelope is a few kilobytes, while an error page from a proxy can be arbitrarily large.
_MAX_HTTP_BODY = 1 << 20

#: _MAX_HTTP_TEXT bounds, in UTF-8 bytes, the body text a message built from a response quotes.
_MAX_HTTP_TEXT = 512

#: _STATUS_TEXT holds Go's net/http status texts, so messages read as the Go package's.
_STATUS_TEXT: Mapping[int, str] = {
    100: "Continue",
    101: "Switching Protocols",
    102: "Processing",
    103: "Early Hints",
    200: "OK",
    201: "Created",
    202: "Accepted",
    203: "Non-Authoritative Information",
    204: "No Content",
    205: "Reset Content",
    206: "Partial Content",
    207: "Multi-Status",
    208: "Already Reported",
    226: "IM Used",
    300: "Multiple Choices",
    301: "Moved Permanently",
    302: "Found",
    303: "See Other",
    304: "Not Modified",
    305: "Use Proxy",
    307: "Temporary Redirect",
    308: "Permanent Redirect",
    400: "Bad Request",
    401: "Unauthorized",
    402: "Payment Required",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    406: "Not Acceptable",
    407: "Proxy Authentication Required",
    408: "Request Timeout",
    409: "Conflict",
    410: "Gone",
    411: "Length Required",
    412: "Precondition Failed",
    413: "Request Entity Too Large",
    414: "Request URI Too Long",
    415: "Unsupported Media Type",
    416: "Requested Range Not Satisfiable",
    417: "Expectation Failed",
    418: "I'm a teapot",
    421: "Misdirected Request",
    422: "Unprocessable Entity",
    423: "Locked",
    424: "Failed Dependency",
    425: "Too Early",
    426: "Upgrade Required",
    428: "Precondition Required",
    429: "Too Many Requests",
    431: "Request Header Fields Too Large",
    451: "Unavailable For Legal Reasons",
    500: "Internal Server Error",
    501: "Not Implemented",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
    505: "HTTP Version Not Supported",
    506: "Variant Also Negotiates",
    507: "Insufficient Storage",
    508: "Loop Detected",
    510: "Not Extended",
    511: "Network Authentication Required",
}

#: _SPACES are the characters Go's unicode.IsSpace calls white space.
_SPACES = "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
_SPACE_RUN = re.compile("[" + _SPACES + "]+")
_ESCAPED_RUN = re.compile("[\udc80-\udcff]+")
_DIGITS = re.compile("[0-9]+")
_PROBLEM_MEMBERS = ("type", "title", "status", "detail", "instance")
_TSPECIALS = '()<>@,;:\\"/[]?='
#: _SECRET_TAIL are the characters a secret shape's text can hold: printable ASCII other than the quotes, the backslash and the brackets.
_SECRET_TAIL = "".join(chr(c) for c in range(0x21, 0x7F) if chr(c) not in "\"'`\\<>[]{}")
_SHORT_FORM_KIND = None if SHORT_FORM is None else re.compile(SHORT_FORM["kind_pattern"])


def promoted_from(envelope: Envelope) -> str:
    """promoted_from returns the form a reader promoted the envelope from, as extra[PROMOTED_MEMBER] records it.

    That is PROMOTED_SHORT_FORM when from_http_response built the envelope
    from labby's short form, or when it was decoded from such an envelope
    encoded again; "" for an envelope its producer sent whole.
    """
    v = envelope.extra.get(PROMOTED_MEMBER)
    return v if isinstance(v, str) else ""


def from_http_response(status: int, headers: Headers, body: Union[bytes, bytearray, memoryview, None]) -> Envelope:
    """from_http_response reads the envelope of a failed HTTP response from its status, headers and body bytes.

    A JSON body (application/json, application/problem+json, another +json
    type, or no Content-Type and a body that opens an object) that decodes
    as an envelope, directly or as an RFC 9457 problem document carrying
    the envelope's members, is returned as it is (what the contract
    sanitizes sanitized, as from_dict sanitizes it). When the contract has a
    short form (SHORT_FORM, labby's {"kind": ..., "message": ...}), a JSON
    body of a failed response (status 300 or more) that is neither is read
    as one: the kind and the message are kept (the message sanitized as
    the constructors sanitize one; empty or blank, it becomes
    "HTTP <status> <status text>"), the advice is lookup's classification of
    the kind (the fallback for a kind this package does not know, never one
    picked from the status), the kind's required collections are empty, and
    extra[PROMOTED_MEMBER] is PROMOTED_SHORT_FORM (see promoted_from). Any
    other member of the short form is ignored.

    Any other body (not JSON, JSON past the limits every decoder shares
    anywhere in it, not an envelope, empty, or longer than 1 MiB)
    yields an envelope built from the response: the contract's first
    classifier picks the kind from the status and the body's text (without
    a classifier: the only kind with that status, else one named after it);
    the message is "HTTP <status> <status text>" followed by the start of
    the body's text.

    A Retry-After header (delay seconds or an HTTP date, measured from the
    Date header when there is one; the first value of a repeated one) fills
    the retry hint when the body carried none. A response below 300 without
    an envelope raises EnvelopeError of category "missing": there is no
    failure to report.
    """
    data = b"" if body is None else bytes(body)
    envelope: Optional[Envelope] = None
    if len(data) <= _MAX_HTTP_BODY:
        envelope = _envelope_from_body(_header(headers, "content-type"), data, status)
    else:
        data = data[:_MAX_HTTP_BODY]
    if envelope is None:
        if status < 300:
            raise EnvelopeError("", "HTTP " + str(status) + " response carries no envelope", "missing")
        envelope = _classify_http(status, data)
        if HTTP_STATUS_FIELD is not None:
            # surfaces.http.status_field: the envelope keeps the response's status.
            keep: Dict[str, Any] = {HTTP_STATUS_FIELD: status}
            envelope = dataclasses.replace(envelope, **keep)
    if envelope.recovery.retry_after_ms is None:
        ms = _parse_retry_after(_header(headers, "retry-after"), _header(headers, "date"))
        if ms is not None:
            envelope = dataclasses.replace(envelope, recovery=dataclasses.replace(envelope.recovery, retry_after_ms=ms))
    return envelope


def _header(headers: Any, name: str) -> str:
    """_header returns the first value of the header name (lower case), or ""."""
    if headers is None:
        return ""
    items = headers.items() if callable(getattr(headers, "items", None)) else headers
    for k, v in items:
        if isinstance(k, (bytes, bytearray)):
            k = bytes(k).decode("latin-1")
        if isinstance(k, str) and ascii_lower(k) == name:
            if isinstance(v, (bytes, bytearray)):
                return bytes(v).decode("latin-1")
            return v if isinstance(v, str) else str(v)
    return ""


def _is_token(s: str) -> bool:
    return s != "" and all(0x20 < ord(ch) < 0x7F and ch not in _TSPECIALS for ch in s)


#: _MEDIA_TYPE_END ends a Content-Type's media type: its parameters, or the next value of a list.
_MEDIA_TYPE_END = re.compile("[;,]")


def _media_type(content_type: str) -> str:
    """_media_type returns the lower-cased media type of a Content-Type value, or "" when it has none or it is malformed (as Go's mime.ParseMediaType).

    The first value of a list counts: a comma before any parameter ends the
    media type, as fetch joins repeated lines ("text/plain, application/json")
    and the first line counts here.
    """
    base = _MEDIA_TYPE_END.split(content_type, 1)[0].lower().strip(_SPACES)
    slash = base.find("/")
    if slash < 0:
        return base if _is_token(base) else ""
    return base if _is_token(base[:slash]) and _is_token(base[slash + 1 :]) else ""


def _opens_object(body: bytes) -> bool:
    stripped = body.lstrip(b" \t\n\v\f\r")
    return stripped[:1] == b"{"


def _valid_utf8(body: bytes) -> str:
    """_valid_utf8 decodes UTF-8 as Go's strings.ToValidUTF8 does: each run of invalid bytes becomes one U+FFFD. (A JSON body goes to _loads, which reads each invalid byte as U+FFFD, as every decoder does.)"""
    return _ESCAPED_RUN.sub("\ufffd", body.decode("utf-8", "surrogateescape"))


def _envelope_from_body(content_type: str, body: bytes, status: int) -> Optional[Envelope]:
    """_envelope_from_body reads a body as an envelope, or returns None when its media type is not JSON or it is not an envelope.

    A problem document is read as one first; any other JSON first as the
    envelope itself, then as a problem document served under another media
    type; JSON that is neither, as the short form when the response failed.
    """
    mt = _media_type(content_type)
    problem = mt == "application/problem+json"
    if not (problem or mt == "application/json" or mt.endswith("+json") or (mt == "" and _opens_object(body))):
        return None
    try:
        # A body past the limits every decoder shares, anywhere in it, is
        # not JSON to a reader: neither an envelope nor a short form.
        value = _loads_within(body)
    except (ValueError, TypeError, RecursionError):
        return None
    for decode in (_from_problem, from_dict) if problem else (from_dict, _from_problem):
        try:
            return decode(value)
        except (ValueError, TypeError, RecursionError):
            pass
    return _from_short_form(value, status) if status >= 300 else None


def _from_problem(doc: Any) -> Envelope:
    """_from_problem reads an envelope back from an RFC 9457 problem document whose extension members are the envelope's.

    The problem members are dropped; envelope members the layout names like
    one of them are restored where the problem says what they were (the
    kind from the problem type, the message from detail, the rest from the
    kind's classification); the rest is decoded with from_dict.
    """
    # The whole document is held to the limits every decoder shares, the
    # problem members too.
    _within(doc, 0)
    if not isinstance(doc, Mapping):
        raise EnvelopeError("", "must be a JSON object", "type")
    obj = dict(doc)
    typ = obj.get("type")
    typ = typ if isinstance(typ, str) else ""
    has_detail = "detail" in obj
    detail = obj.get("detail")
    for p in _PROBLEM_MEMBERS:
        obj.pop(p, None)
    kind = typ[len(PROBLEM_TYPE_BASE) :] if typ.startswith(PROBLEM_TYPE_BASE) else typ
    c = lookup(kind)
    for m in LAYOUT["members"]:
        leaf = m.get("leaf")
        if leaf is None or leaf["name"] not in _PROBLEM_MEMBERS:
            continue
        name, source, required = leaf["name"], leaf["source"], not leaf["optional"]
        if source == "const":
            obj[name] = leaf["value"]
        elif source == "version":
            obj[name] = CONTRACT_VERSION
        elif source == "kind":
            if typ.startswith(PROBLEM_TYPE_BASE) and kind != "":
                obj[name] = kind
        elif source == "message":
            if has_detail:
                obj[name] = detail
        elif source == "origin":
            obj[name] = c.origin
        elif source == "action":
            obj[name] = c.action
        elif source == "same_arguments":
            obj[name] = c.same_arguments
        elif source == "guidance":
            obj[name] = c.guidance
        elif source == "side_effects":
            obj[name] = c.side_effects
        elif source == "group" and required:
            obj[name] = c.group
        elif source == "retryable" and required:
            obj[name] = c.retryable
        elif source == "may_have_run" and required:
            obj[name] = may_have_run(c.side_effects)
    return from_dict(obj)


def _from_short_form(value: Any, status: int) -> Optional[Envelope]:
    """_from_short_form reads labby's short form of an error body, in which SDK and subsystem errors promote their stable kind to the top level.

    That is a JSON object whose kind member is a string of at most
    SHORT_FORM["max_kind_bytes"] bytes matching the contract's kind names
    and whose message member is a string; None for any other value, and
    for every value when the contract has no short form. Every other member
    is ignored: it is unchecked upstream data, and the short form defines
    none.
    """
    if SHORT_FORM is None or _SHORT_FORM_KIND is None or not isinstance(value, dict):
        return None
    kind = value.get(SHORT_FORM["kind_member"])
    if not isinstance(kind, str) or len(kind.encode("utf-8", "surrogatepass")) > SHORT_FORM["max_kind_bytes"] or _SHORT_FORM_KIND.fullmatch(kind) is None:
        return None
    if sanitize(kind) != kind:
        # A kind the sanitizer would change (a lowercase token matches the pattern) is received text, not a kind: not a short form.
        return None
    message = value.get(SHORT_FORM["message_member"])
    if not isinstance(message, str):
        return None
    message = sanitize(message)
    if _blank(message):
        # A message says what happened when every other member is
        # discarded; an empty one says nothing, and the producer schema
        # rejects it.
        message = _status_line(status)
    envelope = classified_envelope(kind, message, trusted=True)
    empty: Dict[str, Any] = {attr: (() if typ == "array" else {}) for attr, typ in SHORT_FORM["empty_fields"].get(kind, {}).items()}
    return dataclasses.replace(envelope, extra={PROMOTED_MEMBER: PROMOTED_SHORT_FORM}, **empty)


def _status_line(status: int) -> str:
    """_status_line is how a message built from a response starts: "HTTP <status> <status text>", or "HTTP <status>" for a status without a text."""
    text = _STATUS_TEXT.get(status)
    return "HTTP " + str(status) + (" " + text if text else "")


def _upstream_message(status: int, text: str) -> str:
    """_upstream_message is the message of an envelope built from a failed response without one (from_http_response, from_aip193 of a foreign status): the status line, then ": " and text, the start of the body as _http_text quotes it, when there is any. A contract with surfaces.http.echo_body false (ECHO_BODY) never echoes upstream text: the status line alone."""
    line = _status_line(status)
    return line + ": " + text if ECHO_BODY and text != "" else line


def _http_text(body: bytes) -> str:
    """_http_text is the start of a body as one line of sanitized text, at most 512 bytes of UTF-8, with an ellipsis when cut.

    Past 4 × 512 bytes the body is cut; each run of invalid UTF-8 becomes
    one U+FFFD. The text is sanitized; when the body was cut, the run of
    characters a secret can be made of that ends it (_SECRET_TAIL) is
    dropped, so that no part of a secret the cut went through is shown.
    Then each run of white space becomes one space; then, past 512 bytes, it is cut at a
    character boundary, before a [REDACTED] the cut would split.
    Sanitizing first means no white space the sanitizer deletes (vertical
    tab, form feed, U+001C to U+001F, NEL) can split a secret into harmless
    looking words. Every language quotes a body so.
    """
    cut = len(body) > 4 * _MAX_HTTP_TEXT
    if cut:
        body = body[: 4 * _MAX_HTTP_TEXT]
    s = sanitize(_valid_utf8(body))
    if cut:
        s = s.rstrip(_SECRET_TAIL)
    s = " ".join(w for w in _SPACE_RUN.split(s) if w)
    b = s.encode("utf-8")
    if len(b) > _MAX_HTTP_TEXT:
        n = _MAX_HTTP_TEXT
        while n > 0 and b[n] & 0xC0 == 0x80:
            n -= 1
        # A [REDACTED] the cut splits goes whole.
        i = b.rfind(b"[REDACTED]", max(0, n - 9), n + 9)
        if i >= 0 and i < n < i + 10:
            n = i
        s, cut = b[:n].decode("utf-8"), True
    if cut and s != "":
        s += "…"
    return s


def _classify_http(status: int, body: bytes) -> Envelope:
    """_classify_http builds the envelope of a failed response without one, from its status and the body's text."""
    text = _http_text(body)
    message = _upstream_message(status, text)
    if INBOUND is not None:
        kind = classify_with(INBOUND["classifiers"][0], status, "", text).kind
    else:
        kind = HTTP_KINDS.get(str(status), SYNTHETIC_KIND_PREFIX + str(status))
    # The layout may require context this response cannot supply; the
    # caller sets it (dataclasses.replace) before passing the envelope on.
    return classified_envelope(kind, message)


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_DAYS = ("sun", "mon", "tue", "wed", "thu", "fri", "sat")
_LONG_DAYS = ("sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday")
_IMF_FIXDATE = re.compile("([A-Za-z]{3}), ([0-9]{2}) ([A-Za-z]{3}) ([0-9]{4}) ([0-9]{2}):([0-9]{2}):([0-9]{2}) GMT")
_RFC850 = re.compile("([A-Za-z]+), ([0-9]{2})-([A-Za-z]{3})-([0-9]{2}) ([0-9]{2}):([0-9]{2}):([0-9]{2}) [A-Za-z]{3,5}")
_ASCTIME = re.compile("([A-Za-z]{3}) ([A-Za-z]{3}) ( [0-9]|[0-9]{1,2}) ([0-9]{2}):([0-9]{2}):([0-9]{2}) ([0-9]{4})")


def _utc_ms(year: int, month_name: str, day: int, h: int, m: int, s: int) -> Optional[int]:
    """_utc_ms is the instant as milliseconds since the epoch, proleptic Gregorian; None for a date or time that does not exist."""
    month_name = month_name.lower()
    if month_name not in _MONTHS or h > 23 or m > 59 or s > 59 or day < 1:
        return None
    month = _MONTHS.index(month_name) + 1
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    if day > (31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)[month - 1]:
        return None
    # Days from the civil date (H. Hinnant's algorithm).
    y = year - (1 if month <= 2 else 0)
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    days = era * 146097 + doe - 719468
    return ((days * 24 + h) * 60 + m) * 60000 + s * 1000


def _parse_http_date(v: str) -> Optional[int]:
    """_parse_http_date parses an HTTP date in the three formats Go's http.ParseTime accepts (IMF-fixdate, RFC 850, asctime), as milliseconds since the epoch."""
    g: List[str]
    match = _IMF_FIXDATE.fullmatch(v)
    if match is not None:
        g = list(match.groups())
        if g[0].lower() not in _DAYS:
            return None
        return _utc_ms(int(g[3]), g[2], int(g[1]), int(g[4]), int(g[5]), int(g[6]))
    match = _RFC850.fullmatch(v)
    if match is not None:
        g = list(match.groups())
        if g[0].lower() not in _LONG_DAYS:
            return None
        yy = int(g[3])
        return _utc_ms(1900 + yy if yy >= 69 else 2000 + yy, g[2], int(g[1]), int(g[4]), int(g[5]), int(g[6]))
    match = _ASCTIME.fullmatch(v)
    if match is not None:
        g = list(match.groups())
        if g[0].lower() not in _DAYS:
            return None
        return _utc_ms(int(g[6]), g[1], int(g[2].strip()), int(g[3]), int(g[4]), int(g[5]))
    return None


#: _DAY_NAME is the text before an HTTP date's one comma: a day name, ASCII letters only.
_DAY_NAME = re.compile(r"[ \t]*[A-Za-z]+[ \t]*")


def _retry_after_value(v: str) -> str:
    """_retry_after_value is the first value of a Retry-After field, which holds a list when a response repeats the header and a client joins the lines with commas.

    The text before the first comma, or before the second when the text
    before the first is ASCII letters only, the day name of an HTTP date
    ("Wed, 21 Oct 2015 07:28:00 GMT" holds one comma). Every language reads
    the field so, and only that value.
    """
    i = v.find(",")
    if i < 0:
        return v
    if _DAY_NAME.fullmatch(v[:i]) is None:
        return v[:i]
    j = v.find(",", i + 1)
    return v if j < 0 else v[:j]


def _parse_retry_after(value: str, date: str) -> Optional[int]:
    """_parse_retry_after reads a Retry-After header (RFC 9110, section 10.2.3) as milliseconds.

    Its first value (_retry_after_value): delay seconds, or
    an HTTP date measured from the response's Date header when it has one,
    so a skewed clock does not matter, and from now otherwise. A date in the
    past means no wait; a wait longer than RETRY.max_hint_ms is clamped to
    it. None when the header is absent or malformed.
    """
    v = _retry_after_value(value).strip(_SPACES)
    if v == "":
        return None
    if _DIGITS.fullmatch(v) is not None:
        secs = int(v)
        if secs <= 9223372036854775807:
            return min(secs * 1000, RETRY.max_hint_ms)
    at = _parse_http_date(v)
    if at is None:
        return None
    now = _parse_http_date(date.strip(_SPACES))
    if now is None:
        now = int(time.time() * 1000)
    return min(max(at - now, 0), RETRY.max_hint_ms)
