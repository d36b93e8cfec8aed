"""The JSON codec: an interpreter of the contract's LAYOUT.

Decoding mirrors the Go package's decoder step by step, so a malformed
envelope fails at the same JSON path in every language; encoding writes the
layout's fields in order, then extra entries sorted by key. This module is
the same for every contract.
"""

from __future__ import annotations

import itertools
import json
import math
import operator
import re
from typing import Any, Callable, Dict, FrozenSet, List, Mapping, Optional, Tuple, Union

from . import _envelope
from ._classification import is_retryable, lookup, received, work_may_have_run
from ._contract import CONTRACT_VERSION, FIELDS, LAYOUT
from ._envelope import Envelope, Received, Recovery
from ._sanitize import sanitize, sanitize_value
from ._spec import EnvelopeError

#: _MISSING marks a member the input lacks (None is JSON's null).
_MISSING = object()

#: MAX_DEPTH is how deeply an envelope may nest arrays and objects, the
#: envelope's own object counting as the first level. The Go and TypeScript
#: packages of the contract share it: from_json and from_dict reject a deeper
#: document (category "syntax"), and to_dict refuses to write one, so what one
#: of them reads the others read, and every one of them writes back.
MAX_DEPTH = 128
#: MAX_DOCUMENT_BYTES is the size limit of the decoders that take JSON text (from_json, from_aip193), 1 MiB of UTF-8, the same in every package of the contract and the same as the body from_http_response reads: an envelope is a few kilobytes, and a hostile document costs a decoder a multiple of its size. A longer document raises EnvelopeError with path "" and category "syntax" before it is parsed; max_bytes sets another limit (None: no limit).
MAX_DOCUMENT_BYTES = 1 << 20

#: _MAX_SAFE is the largest integer every decoder of the contract reads
#: exactly, 2^53-1 (JavaScript's Number.MAX_SAFE_INTEGER).
_MAX_SAFE = 2**53 - 1

#: The problems of an integer past _MAX_SAFE (for the retry hint, or negative), as every language words them.
_INTEGER_RANGE = "must be an integer from -9007199254740991 to 9007199254740991"
_HINT_RANGE = "must be an integer from 0 to 9007199254740991"

#: _FLOAT_MAX is the first integer a 64-bit float cannot hold (it rounds to infinity): 2^1024 - 2^970.
_FLOAT_MAX = 2**1024 - 2**970


def _join(path: str, key: str) -> str:
    return key if path == "" else path + "." + key


def _whole(v: Any) -> bool:
    """_whole reports whether v is a number whose value is a whole number (1, 1.0; not True)."""
    return type(v) is int or (type(v) is float and v.is_integer())


def _is_int(v: Any) -> bool:
    """_is_int reports whether v is an integer every decoder reads exactly: a whole number of at most 2^53-1 in magnitude, however it was written (1.0 and 1e0 are 1)."""
    return _whole(v) and -_MAX_SAFE <= v <= _MAX_SAFE


def _is_number(v: Any) -> bool:
    return (type(v) is int or type(v) is float) and not (type(v) is float and not math.isfinite(v))


class _PastLimit(ValueError):
    """_PastLimit is raised while parsing text past a limit every decoder of the contract shares."""


#: _SURROGATE finds a surrogate code point, which a Python string holds for a \u escape of a lone surrogate (json.loads joins the escapes of a pair).
_SURROGATE = re.compile("[\ud800-\udfff]")
#: _SURROGATE_ESCAPE finds text that may escape a surrogate.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")

_NAN_OR_INF = "holds a number past the range of a 64-bit float"


def _go_json(text: str) -> str:
    """_go_json is json.dumps's text (ensure_ascii off) as the Go encoder writes it.

    U+2028 and U+2029 escaped, and each surrogate code point, which is not
    well-formed text (UTF-8 cannot carry it), as the escape \\ufffd, as the
    Go encoder writes a byte that is not UTF-8: every writer's output is
    valid UTF-8 and reads back as U+FFFD.
    """
    if text.isascii():
        return text
    text = text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    if _SURROGATE.search(text) is None:
        return text
    return _SURROGATE.sub(r"\\ufffd", text)


def _well_formed(s: str) -> str:
    """_well_formed returns s with each surrogate code point replaced by U+FFFD, as the Go decoder reads an escape of a lone surrogate (backslash, u)."""
    if s.isascii() or _SURROGATE.search(s) is None:
        return s
    return _SURROGATE.sub("\ufffd", s)


def _within(v: Any, level: int) -> Any:
    """_within checks a decoded value against the limits every decoder of the contract shares and returns it with each lone surrogate in a string or a member name replaced by U+FFFD: the value itself when nothing changes, a copy of what does otherwise.

    level is the number of arrays and objects around v. A value nested
    deeper than MAX_DEPTH (a cycle included), a float that is not finite or
    an integer no 64-bit float holds raises EnvelopeError (path "", category
    "syntax"), as the Go decoder rejects such a document.
    """
    t = type(v)
    if t is str:
        return _well_formed(v)
    if t is float:
        if not math.isfinite(v):
            raise EnvelopeError("", "holds NaN, which is not a JSON number" if v != v else _NAN_OR_INF, "syntax")
        return v
    if t is int:
        if not -_FLOAT_MAX < v < _FLOAT_MAX:
            raise EnvelopeError("", _NAN_OR_INF, "syntax")
        return v
    if t is bool or v is None:
        return v
    if t is dict or (t is not list and t is not tuple and isinstance(v, Mapping)):
        if level >= MAX_DEPTH:
            raise EnvelopeError("", f"nests arrays and objects more than {MAX_DEPTH} levels deep", "syntax")
        out: Optional[Dict[Any, Any]] = None
        for k, x in v.items():
            # Inline for the usual members: ASCII text, small integers, flags, null.
            tx = type(x)
            if (tx is str and x.isascii()) or (tx is int and -_MAX_SAFE <= x <= _MAX_SAFE) or tx is bool or x is None:
                y = x
            else:
                y = _within(x, level + 1)
            name = k if type(k) is not str or k.isascii() else _well_formed(k)
            if out is None and (y is not x or name is not k):
                # Rare: from here on the object is a copy, which starts with
                # the members before this one as they are.
                out = {}
                for p, z in v.items():
                    if p is k:
                        break
                    out[p] = z
            if out is not None:
                out[name] = y
        return v if out is None else out
    if t is list or t is tuple:
        if level >= MAX_DEPTH:
            raise EnvelopeError("", f"nests arrays and objects more than {MAX_DEPTH} levels deep", "syntax")
        items: Optional[List[Any]] = None
        for i, x in enumerate(v):
            y = _within(x, level + 1)
            if y is not x:
                if items is None:
                    items = list(v)
                items[i] = y
        return v if items is None else (items if t is list else tuple(items))
    return v


def _decode_object(value: Any, path: str) -> Dict[str, Any]:
    """_decode_object copies a JSON object's members, which decoding then takes out one by one."""
    if value is None:
        raise EnvelopeError(path, "must be a JSON object, not null", "type")
    if type(value) is dict:
        # The common case, at C speed: a copy, and a check that every key is a string.
        out: Dict[str, Any] = value.copy()
        if all(map(isinstance, out, _STR_TYPES)):
            return out
        raise EnvelopeError(path, "must be a JSON object", "type")
    if not isinstance(value, Mapping):
        raise EnvelopeError(path, "must be a JSON object", "type")
    out = {}
    for k, v in value.items():
        if not isinstance(k, str):
            raise EnvelopeError(path, "must be a JSON object", "type")
        out[k] = v
    return out


#: _STR_TYPES feeds isinstance(key, str) to map, one key at a time.
_STR_TYPES = itertools.repeat(str)


def _take(obj: Dict[str, Any], path: str, key: str, required: bool) -> Any:
    """_take removes key from obj and returns its value; null counts as absent."""
    v = obj.pop(key, _MISSING)
    if v is _MISSING or v is None:
        if required:
            # Absent is missing; null where a value is required is the wrong type.
            raise EnvelopeError(_join(path, key), "is required", "missing" if v is _MISSING else "type")
        return None
    return v


_TYPE_WANT = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
    "object": "an object",
    "array": "an array",
}


def _want(spec: Mapping[str, Any]) -> str:
    if spec["type"] == "array":
        items = spec["items"] or "string"
        return "an array of " + ("integers" if items == "integer" else "objects" if items == "object" else items + "s")
    return _TYPE_WANT[spec["type"]]


class _Bad(Exception):
    pass


def _zero(typ: str) -> Any:
    """_zero is the value Go's decoder leaves in a typed member the input lacks or sets to null."""
    return {"string": "", "integer": 0, "number": 0, "boolean": False, "array": (), "object": {}}[typ]


def _object_class(spec: Mapping[str, Any]) -> Any:
    return getattr(_envelope, spec["cls"])


def _ascii(s: str) -> bool:
    return all(ord(c) < 0x80 for c in s)


# A typed object's properties by name and by lower-cased name, the first
# property winning as in the list; built once per spec (the specs are the
# contract's constants), so a member is found in one lookup, not a scan of
# every property (a quadratic read of an object with many properties).
_PROPERTY_INDEX: Dict[int, Tuple[Mapping[str, Any], Dict[Any, Mapping[str, Any]], Dict[str, Mapping[str, Any]]]] = {}


def _property_index(spec: Mapping[str, Any]) -> Tuple[Dict[Any, Mapping[str, Any]], Dict[str, Mapping[str, Any]]]:
    entry = _PROPERTY_INDEX.get(id(spec))
    if entry is None or entry[0] is not spec:
        exact: Dict[Any, Mapping[str, Any]] = {}
        folded: Dict[str, Mapping[str, Any]] = {}
        for q in spec["properties"]:
            exact.setdefault(q["name"], q)
            folded.setdefault(q["name"].lower(), q)
        entry = _PROPERTY_INDEX[id(spec)] = (spec, exact, folded)
    return entry[1], entry[2]


def _convert(typ: str, spec: Optional[Mapping[str, Any]], v: Any) -> Any:
    """_convert checks a field value against its spec and returns the value the envelope keeps; it raises _Bad."""
    if typ == "string":
        if isinstance(v, str):
            return v
    elif typ == "integer":
        if _is_int(v):
            return int(v)
    elif typ == "number":
        if _is_number(v):
            return v
    elif typ == "boolean":
        if isinstance(v, bool):
            return v
    elif typ == "array":
        if isinstance(v, (list, tuple)):
            items = (spec["items"] if spec is not None else "") or "string"
            return tuple(_zero(items) if x is None else _convert(items, None, x) for x in v)
    elif typ == "object":
        if isinstance(v, Mapping):
            if spec is None or not spec["properties"]:
                return dict(v)
            props = spec["properties"]
            # A typed object reads as Go's encoding/json reads a struct:
            # members match a property exactly, else ignoring ASCII case;
            # others are dropped; null leaves a property alone; a required
            # property the input lacks gets its zero value.
            exact, folded = _property_index(spec)
            attrs: Dict[str, Any] = {}
            for k, x in v.items():
                p = exact.get(k)
                if p is None and isinstance(k, str) and _ascii(k):
                    p = folded.get(k.lower())
                if p is None or x is None:
                    continue
                attrs[p["member"]] = _convert(p["type"], p, x)
            for p in props:
                if p["required"] and p["member"] not in attrs:
                    attrs[p["member"]] = None if p["type"] in ("array", "object") else _zero(p["type"])
            return _object_class(spec)(**attrs)
    raise _Bad()


def _leaf_required(leaf: Mapping[str, Any]) -> bool:
    if leaf["source"] == "field":
        # A context or kind-specific field only when the layout requires it.
        return bool(leaf["required"])
    if leaf["source"] == "retry_after_ms":
        return False
    return not leaf["optional"]


def _same_const(v: Any, c: Any) -> bool:
    if isinstance(c, bool) or isinstance(v, bool):
        return type(v) is type(c) and v == c
    if isinstance(c, (int, float)):
        return _is_number(v) and v == c
    return type(v) is type(c) and v == c


# Decoding follows a plan built once from LAYOUT: per object its path and
# its members as steps, each a tuple whose first item says what it is. It
# changes how fast the layout is read, never what is read: every check,
# path and problem is the one the layout's leaf asks for.
_OBJECT, _STRING, _KIND, _VERSION, _RETRY, _GROUP, _FLAG, _CONST, _FIELD = range(9)

#: _STRING_ATTR says where a text source goes: the envelope (True) or its recovery (False), under which attribute.
_STRING_ATTR: Mapping[str, Tuple[bool, str]] = {
    "message": (True, "message"),
    "origin": (True, "origin"),
    "side_effects": (True, "side_effects"),
    "action": (False, "action"),
    "same_arguments": (False, "same_arguments"),
    "guidance": (False, "guidance"),
}

class _ObjectPlan:
    """_ObjectPlan is the decoding plan of one layout object.

    steps are its members in order: (_OBJECT, name, required, plan),
    (_STRING, name, required, in envelope, attribute), (_KIND | _VERSION,
    name, required, path), (_RETRY, name, False, spellings), (_GROUP |
    _FLAG, name, required, received attribute), (_CONST, name, True, value,
    path, want) and (_FIELD, name, required, member, spec, path). by_name maps
    every name a step reads (each spelling of retry_after_ms) to its step
    as the quick decoding reads it (see _quick_step); required holds the
    names that must be present, objects the nested object steps in order;
    fast is False when two steps read one name, which only the ordered
    decoding handles.
    """

    __slots__ = ("path", "steps", "by_name", "required", "objects", "fast")

    def __init__(self, o: Mapping[str, Any]) -> None:
        steps: List[Tuple[Any, ...]] = []
        for m in o["members"]:
            if "object" in m:
                child = m["object"]
                steps.append((_OBJECT, child["name"], child["required"], _ObjectPlan(child)))
                continue
            leaf = m["leaf"]
            name, source, req = leaf["name"], leaf["source"], _leaf_required(leaf)
            if source == "version":
                steps.append((_VERSION, name, req, leaf["path"]))
            elif source == "kind":
                steps.append((_KIND, name, req, leaf["path"]))
            elif source in _STRING_ATTR:
                steps.append((_STRING, name, req) + _STRING_ATTR[source])
            elif source == "retry_after_ms":
                steps.append((_RETRY, name, False, (name, *leaf["aliases"])))
            elif source == "group":
                steps.append((_GROUP, name, req, leaf["received"]))
            elif source in ("retryable", "may_have_run"):
                steps.append((_FLAG, name, req, leaf["received"]))
            elif source == "const":
                steps.append((_CONST, name, True, leaf["value"], leaf["path"], leaf["want"]))
            elif source == "field":
                steps.append((_FIELD, name, req, leaf["field"], FIELDS.get(leaf["field"]), leaf["path"]))
        self.path: str = o["path"]
        self.steps = tuple(steps)
        self.by_name: Dict[str, Tuple[Any, ...]] = {}
        reads = 0
        for st in steps:
            for name in st[3] if st[0] == _RETRY else (st[1],):
                self.by_name[name] = _quick_step(st)
                reads += 1
        self.required = frozenset(st[1] for st in steps if st[2])
        self.objects = tuple(st for st in steps if st[0] == _OBJECT)
        self.fast: bool = reads == len(self.by_name) and all(st[3].fast for st in self.objects)


# The steps of the quick decoding, by what they do with a value that is not null.
_TO_ENV, _TO_REC = 9, 10  # text for the envelope or its recovery


def _quick_step(st: Tuple[Any, ...]) -> Tuple[Any, ...]:
    """_quick_step is a step as the quick decoding reads it: (op, required, ...); text for the envelope (a string field too) is (_TO_ENV, required, attribute), for its recovery (_TO_REC, required, attribute)."""
    op = st[0]
    if op == _STRING:
        return (_TO_ENV if st[3] else _TO_REC, st[2], st[4])
    if op == _FIELD and st[4] is not None and st[4]["type"] == "string" and not st[2]:
        return (_TO_ENV, False, st[3])
    return (op, st[2]) + st[3:]


def _text(v: Any) -> Any:
    """_text is a string as the envelope keeps it: an Enum member (a str subclass) becomes its value, as the dataclasses normalize it."""
    return v if type(v) is str else _envelope._plain(v)


def _decode_members(plan: _ObjectPlan, value: Any, env: Dict[str, Any], rec: Dict[str, Any], received: Dict[str, Any], extra: Dict[str, Any]) -> None:
    """_decode_members reads a layout object step by step, in the layout's order: the first problem it meets is the one the Go decoder reports."""
    path = plan.path
    obj = _decode_object(value, path)
    for step in plan.steps:
        op = step[0]
        if op == _RETRY:
            # The first spelling present wins; the others are dropped so
            # they do not resurface as extra entries.
            for spelling in step[3]:
                if rec["retry_after_ms"] is None:
                    v = _take(obj, path, spelling, False)
                    if v is not None and not _whole(v):
                        raise EnvelopeError(_join(path, spelling), "must be a non-negative integer", "type")
                    if v is not None and (not _is_int(v) or v < 0):
                        raise EnvelopeError(_join(path, spelling), _HINT_RANGE, "value")
                    rec["retry_after_ms"] = None if v is None else int(v)
                obj.pop(spelling, None)
            continue
        name = step[1]
        v = obj.pop(name, _MISSING)
        if v is _MISSING or v is None:
            if step[2]:
                # Absent is missing; null where a value is required is the wrong type.
                raise EnvelopeError(_join(path, name), "is required", "missing" if v is _MISSING else "type")
            if op == _KIND and env["kind"] == "":
                raise EnvelopeError(step[3], "must not be empty", "value")
            continue
        if op == _FIELD:
            spec = step[4]
            if spec is None:
                continue
            if spec["type"] == "integer" and _whole(v) and not _is_int(v):
                raise EnvelopeError(step[5], _INTEGER_RANGE, "value")
            try:
                x = _convert(spec["type"], spec, v)
            except _Bad:
                raise EnvelopeError(step[5], "must be " + _want(spec), "type") from None
            if step[2] and x == "":
                # A context field the layout requires is never empty, as the kind.
                raise EnvelopeError(step[5], "must not be empty", "value")
            env[step[3]] = _text(x)
        elif op == _STRING:
            if not isinstance(v, str):
                raise EnvelopeError(_join(path, name), "must be a string", "type")
            (env if step[3] else rec)[step[4]] = _text(v)
        elif op == _KIND:
            if not isinstance(v, str):
                raise EnvelopeError(_join(path, name), "must be a string", "type")
            if v == "":
                raise EnvelopeError(step[3], "must not be empty", "value")
            env["kind"] = _text(v)
        elif op == _OBJECT:
            _decode_members(step[3], v, env, rec, received, extra)
        elif op == _VERSION:
            if isinstance(CONTRACT_VERSION, int):
                if not _whole(v):
                    raise EnvelopeError(step[3], "must be an integer", "type")
                if not _is_int(v):
                    raise EnvelopeError(step[3], _INTEGER_RANGE, "value")
                env["contract_version"] = int(v)
            elif not isinstance(v, str):
                raise EnvelopeError(step[3], "must be a string", "type")
            else:
                env["contract_version"] = _text(v)
        elif op == _GROUP:
            if not isinstance(v, str):
                raise EnvelopeError(_join(path, name), "must be a string", "type")
            received[step[3]] = _text(v)
        elif op == _FLAG:
            if not isinstance(v, bool):
                raise EnvelopeError(_join(path, name), "must be a boolean", "type")
            received[step[3]] = v
        elif op == _CONST:
            if not _same_const(v, step[3]):
                # Any other value than the constant is a rejected value, whatever its type.
                raise EnvelopeError(step[4], "must be " + step[5], "value")
    for k, v in obj.items():
        extra[_join(path, k)] = v


class _Slow(Exception):
    """_Slow says the quick decoding met something only the ordered decoding may judge."""


def _quick_field(spec: Mapping[str, Any], required: bool, member: str, v: Any, env: Dict[str, Any]) -> None:
    """_quick_field reads a field value that is not null as the quick decoding does: checked by _convert (which raises _Bad), never empty when required."""
    x = _convert(spec["type"], spec, v)
    if required and x == "":
        raise _Slow
    env[member] = x if type(x) is str else _envelope._plain(x)


#: _ONLY_STR is the set of the types of a JSON object's keys.
_ONLY_STR = frozenset((str,))


class _Source:
    """_Source is the source of a function its maker writes from the layout and runs with exec: its lines, from the def line on, and names, the globals it refers to (each value it needs beyond them a constant _c0, _c1, …)."""

    def __init__(self, header: str, names: Dict[str, Any]) -> None:
        self.lines: List[str] = [header]
        self.names: Dict[str, Any] = names

    def const(self, v: Any) -> str:
        """const is the name of a new constant holding v."""
        name = f"_c{len(self.names)}"
        self.names[name] = v
        return name


class _QuickSource(_Source):
    """_QuickSource writes the source of the quick decoding (see _make_quick)."""

    def __init__(self) -> None:
        super().__init__("def _quick(d0, env, rec, received, extra, keys_checked):", {
            "_Slow": _Slow,
            "_MAX_SAFE": _MAX_SAFE,
            "_ONLY_STR": _ONLY_STR,
            "_quick_field": _quick_field,
            "_same_const": _same_const,
        })

    def object(self, plan: _ObjectPlan, depth: int) -> None:
        """object writes the statements that read the object plan describes, held in the variable d<depth>.

        A required member is read by subscription: a KeyError, like any
        other exception, sends from_dict to the ordered decoding. n<depth>
        counts the members read: when the object has more, it has members
        the layout does not name, which go to extra.
        """
        d, n, ind = f"d{depth}", f"n{depth}", "    "
        add = self.lines.append
        add(f"{ind}if type({d}) is not dict:")
        add(f"{ind}    raise _Slow")
        add(f"{ind}if not keys_checked and not set(map(type, {d})) <= _ONLY_STR:")
        add(f"{ind}    raise _Slow")
        add(f"{ind}{n} = {len(plan.required)}")
        # The texts of the envelope the layout does not require (string
        # fields, most of them absent) are read where the input has them:
        # one set operation in C finds those.
        texts = {st[1]: q[2] for st in plan.steps for q in (_quick_step(st),) if q[0] == _TO_ENV and not q[1]}
        if texts:
            add(f"{ind}p = {self.const(frozenset(texts))}.intersection({d})")
            add(f"{ind}if p:")
            add(f"{ind}    {n} += len(p)")
            add(f"{ind}    for k in p:")
            add(f"{ind}        v = {d}[k]")
            add(f"{ind}        if v is not None:")
            add(f"{ind}            if type(v) is not str:")
            add(f"{ind}                raise _Slow")
            add(f"{ind}            env[{self.const(texts)}[k]] = v")
        for st in plan.steps:
            op, name, required = st[0], st[1], st[2]
            q = _quick_step(st)
            if name in texts:
                continue
            if op == _RETRY:
                for spelling in st[3]:
                    add(f"{ind}v = {d}.get({spelling!r})")
                    add(f"{ind}if v is not None:")
                    add(f"{ind}    if rec[\"retry_after_ms\"] is not None or type(v) is not int or not 0 <= v <= _MAX_SAFE:")
                    add(f"{ind}        raise _Slow")
                    add(f"{ind}    rec[\"retry_after_ms\"] = v")
                    add(f"{ind}    {n} += 1")
                continue
            if required:
                add(f"{ind}v = {d}[{name!r}]")
                body = ind
                if op in (_FIELD, _CONST):
                    # The checks below take null for a value.
                    add(f"{ind}if v is None:")
                    add(f"{ind}    raise _Slow")
            else:
                add(f"{ind}v = {d}.get({name!r})")
                add(f"{ind}if v is not None:")
                add(f"{ind}    {n} += 1")
                body = ind + "    "
            if q[0] == _TO_ENV or q[0] == _TO_REC:
                add(f"{body}if type(v) is not str:")
                add(f"{body}    raise _Slow")
                add(f"{body}{'env' if q[0] == _TO_ENV else 'rec'}[{q[2]!r}] = v")
            elif op == _KIND:
                add(f"{body}if type(v) is not str or v == \"\":")
                add(f"{body}    raise _Slow")
                add(f"{body}env[\"kind\"] = v")
            elif op == _VERSION:
                # Integers written as such only; 1.0 and the like take the ordered decoding.
                test = "type(v) is int and -_MAX_SAFE <= v <= _MAX_SAFE" if isinstance(CONTRACT_VERSION, int) else "type(v) is str"
                add(f"{body}if not ({test}):")
                add(f"{body}    raise _Slow")
                add(f"{body}env[\"contract_version\"] = v")
            elif op == _OBJECT:
                add(f"{body}d{depth + 1} = v")
                mark = len(self.lines)
                self.object(st[3], depth + 1)
                self.lines[mark:] = [body[len(ind):] + line for line in self.lines[mark:]]
            elif op == _FIELD:
                if st[4] is not None:
                    add(f"{body}_quick_field({self.const(st[4])}, {bool(required)!r}, {st[3]!r}, v, env)")
                else:
                    add(f"{body}pass")
            elif op == _GROUP or op == _FLAG:
                add(f"{body}if type(v) is not {'str' if op == _GROUP else 'bool'}:")
                add(f"{body}    raise _Slow")
                add(f"{body}received[{st[3]!r}] = v")
            elif op == _CONST:
                add(f"{body}if not _same_const(v, {self.const(st[3])}):")
                add(f"{body}    raise _Slow")
        # The members the layout does not name, in the input's order, after the nested objects'.
        known = self.const(frozenset(plan.by_name))
        add(f"{ind}if len({d}) != {n}:")
        add(f"{ind}    for k in {d}:")
        add(f"{ind}        if k not in {known}:")
        key = "k" if plan.path == "" else f"{plan.path + '.'!r} + k"
        add(f"{ind}            extra[{key}] = {d}[k]")


def _make_quick() -> Optional[Callable[[Any, Dict[str, Any], Dict[str, Any], Dict[str, Any], Dict[str, Any], bool], None]]:
    """_make_quick returns the quick decoding of the layout, or None when only the ordered decoding reads it (two steps read one name).

    The quick decoding reads each member of the layout where the input has
    it, with the checks and the names written out: for a valid envelope it
    gives what _decode_members gives (every step writes a value of its own,
    and the extra entries are added in the same order: nested objects in
    layout order first, then the object's own, in the input's order).
    Whatever could be a problem (a missing or null required member, a value
    of the wrong type, a second spelling of retry_after_ms, a key that is
    not a string, which keys_checked says was checked already) raises
    _Slow, and from_dict starts over with the ordered decoding, which finds
    the problem the Go decoder reports. It is written once, when this
    module is imported, as dataclasses writes the __init__ of a class.
    """
    if not _PLAN.fast:
        return None
    src = _QuickSource()
    src.object(_PLAN, 0)
    exec("\n".join(src.lines), src.names)  # noqa: S102 - the source is written above, from the layout: names as repr literals
    quick: Callable[[Any, Dict[str, Any], Dict[str, Any], Dict[str, Any], Dict[str, Any], bool], None] = src.names["_quick"]
    return quick


def _sources(o: Mapping[str, Any], out: List[str]) -> List[str]:
    for m in o["members"]:
        if "object" in m:
            _sources(m["object"], out)
        else:
            out.append(m["leaf"]["source"])
    return out


#: ON_WIRE holds the sources the layout carries.
ON_WIRE = frozenset(_sources(LAYOUT, []))

_PLAN = _ObjectPlan(LAYOUT)
#: _FILLED lists the values the layout leaves off the wire, which come from the kind's classification: (in the envelope or its recovery, attribute).
_FILLED: Tuple[Tuple[bool, str], ...] = tuple(_STRING_ATTR[s] for s in _STRING_ATTR if s not in ON_WIRE and s != "message")
_KIND_ON_WIRE = "kind" in ON_WIRE


def _sanitized_steps(plan: _ObjectPlan, out: List[Tuple[str, bool, str]]) -> List[Tuple[str, bool, str]]:
    for st in plan.steps:
        if st[0] == _OBJECT:
            _sanitized_steps(st[3], out)
        elif st[0] == _FIELD:
            out.append((st[3], st[2], st[5]))
    return out


#: _SANITIZED lists the context and kind-specific fields on the wire, in layout order: (attribute, required, path). Every reader sanitizes each, listed in SANITIZED_FIELDS or not.
_SANITIZED: Tuple[Tuple[str, bool, str], ...] = tuple(_sanitized_steps(_PLAN, []))
_SANITIZES_WIRE_GUIDANCE = "guidance" in ON_WIRE


def _kind_path(o: Mapping[str, Any]) -> Optional[str]:
    for m in o["members"]:
        p = _kind_path(m["object"]) if "object" in m else (m["leaf"]["path"] if m["leaf"]["source"] == "kind" else None)
        if p is not None:
            return p
    return None


#: _KIND_PATH is the kind's path on the wire, for the error of a kind the sanitizer empties.
_KIND_PATH = _kind_path(LAYOUT) or "kind"


def _sanitize_decoded(env: Dict[str, Any], rec: Dict[str, Any]) -> None:
    """_sanitize_decoded sanitizes every text of a decoded envelope, as the constructors sanitize text: the message, the guidance the wire carried and every context and kind-specific field, whatever SANITIZED_FIELDS lists (all of it is the sender's), and the kind and the enumerated values (origin, recovery action, same_arguments, side_effects), before the kind's classification is looked up (a clean value, as every known one is, is unchanged). A kind or required field the sanitizer leaves empty is the value error an empty one is; an emptied enumerated value is kept empty, as an empty one is. The caller sanitizes the extra members."""
    # (Empty text is left as it is: the sanitizer keeps it, and costs a call.)
    if env["kind"]:
        env["kind"] = sanitize(env["kind"])
        if env["kind"] == "":
            raise EnvelopeError(_KIND_PATH, "must not be empty", "value")
    for k in ("origin", "side_effects"):
        if env[k]:
            env[k] = sanitize(env[k])
    for k in ("action", "same_arguments"):
        if rec[k]:
            rec[k] = sanitize(rec[k])
    if env["message"]:
        env["message"] = sanitize(env["message"])
    if _SANITIZES_WIRE_GUIDANCE and rec["guidance"]:
        rec["guidance"] = sanitize(rec["guidance"])
    for attr, required, path in _SANITIZED:
        v = env.get(attr)
        if v is None or v == "":
            continue
        x = sanitize_value(v)
        if required and x == "":
            raise EnvelopeError(path, "must not be empty", "value")
        env[attr] = x

_VERSION_OFF_WIRE = "version" not in ON_WIRE
_QUICK = _make_quick()

def _start(cls: Any, zero: Mapping[str, Any], set_later: Tuple[str, ...]) -> Tuple[Dict[str, Any], bool]:
    """_start returns the fields a decoded instance of cls starts from (its defaults, then zero), and whether from_dict may fill an instance's __dict__ with them directly.

    It may when instances have a __dict__ and from_dict sets every field
    with a default factory itself (set_later); see _envelope._defaults.
    """
    defaults, factories, plain = _envelope._defaults(cls)
    fields = dict(defaults)
    fields.update(zero)
    return fields, plain and all(name in set_later for name, _ in factories)


# The fields decoding starts from: the decoder's zero values where the
# layout may leave a value out, the dataclasses' defaults for the rest.
_ENV0, _ENV_DIRECT = _start(Envelope, {"kind": "", "message": "", "origin": "", "side_effects": "", "contract_version": 0 if isinstance(CONTRACT_VERSION, int) else ""}, ("recovery", "received", "extra"))
_REC0, _REC_DIRECT = _start(Recovery, {"action": "", "same_arguments": "", "guidance": "", "retry_after_ms": None}, ())
_RECEIVED0, _RECEIVED_DIRECT = _start(Received, {}, ())
#: _DIRECT says from_dict builds the dataclasses by filling their __dict__: the same instances as calling them, faster.
_DIRECT = _ENV_DIRECT and _REC_DIRECT and _RECEIVED_DIRECT
_new = object.__new__


def from_dict(value: Any, *, raw: bool = False) -> Envelope:
    """from_dict reads a decoded JSON value as an envelope in the contract's wire layout.

    A kind, origin or other value this contract version does not know is
    kept as it is; fields the contract does not name go to extra; the retry
    hint is also accepted under the layout's other spellings (such as
    retryAfterMs); values the layout does not carry are filled from the
    kind's classification; derived values received are kept in received.
    Malformed input raises EnvelopeError with the JSON path of the
    offending field: the same path the Go package reports. A value past the
    limits every decoder of the contract shares (nested deeper than
    MAX_DEPTH, a number no 64-bit float holds) raises it with category
    "syntax", before anything else is looked at; a lone surrogate in a
    string reads as U+FFFD.

    What the contract sanitizes (SANITIZED_FIELDS) is sanitized as the
    constructors sanitize it, so an envelope read from an upstream can be
    re-emitted or logged as it is; a required field the sanitizer leaves
    empty raises EnvelopeError (category "value"). raw=True keeps the text
    as the sender wrote it: never re-emit it or show it to a model.
    """
    return _from_value(_within(value, 0), False, raw)


#: _JSON_STRING matches a JSON string of text that parsed; _NOT_BRACKET a run of anything but brackets.
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^][{}]+")
#: _NEST is how each bracket changes the depth.
_NEST = {"{": 1, "[": 1, "}": -1, "]": -1}


def _too_deep(text: str, level: int) -> bool:
    """_too_deep reports whether JSON text, which parsed, nests arrays and objects deeper than MAX_DEPTH anywhere in it, level of them being around it.

    The text, not the value json.loads made of it: a member given twice
    keeps only its last copy there, and the Go decoder (and Rust's) reject
    the document when an earlier copy nests too deep. Only text holding more
    brackets than the depth allows is looked at closely.
    """
    # ("[" in text finds its answer faster than count, and envelopes seldom hold arrays.)
    if text.count("{") + (text.count("[") if "[" in text else 0) <= MAX_DEPTH - level:
        return False
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    return max(itertools.accumulate(map(_NEST.__getitem__, brackets)), default=0) > MAX_DEPTH - level


def _from_value(value: Any, keys_checked: bool, raw: bool = False) -> Envelope:
    """_from_value is from_dict for a value known to be within the limits (_within); keys_checked says every key of every object in it is a str, as json.loads makes them."""
    if _DIRECT:
        envelope, recovery, got = _new(Envelope), _new(Recovery), _new(Received)
        env, rec, received = envelope.__dict__, recovery.__dict__, got.__dict__
        env.update(_ENV0)
        rec.update(_REC0)
        received.update(_RECEIVED0)
    else:
        env, rec, received = dict(_ENV0), dict(_REC0), dict(_RECEIVED0)
    extra: Dict[str, Any] = {}
    # The quick decoding first; on anything unusual, the ordered one.
    quick = False
    if _QUICK is not None:
        try:
            _QUICK(value, env, rec, received, extra, keys_checked)
            quick = not (_KIND_ON_WIRE and env["kind"] == "")
        except Exception:  # noqa: BLE001 - whatever it was, the ordered decoding says what is wrong
            pass
    if not quick:
        env.update(_ENV0)
        rec.update(_REC0)
        received.clear()
        received.update(_RECEIVED0)
        extra = {}
        _decode_members(_PLAN, value, env, rec, received, extra)
    if extra:
        # An entry whose key places it in a nested object (a root member
        # "recovery.x" goes into recovery, a level deeper than it was read)
        # must stay within the limits there: the encoder writes it there.
        for k, x in extra.items():
            if "." in k and not _extra_within(k, x):
                raise EnvelopeError("", f"places {k} where it nests arrays and objects more than {MAX_DEPTH} levels deep", "syntax")
    if not raw:
        _sanitize_decoded(env, rec)
        if extra:
            # The strings of the extra members (their names kept), as the log form sanitizes them.
            extra = sanitize_value(extra)
    if _VERSION_OFF_WIRE:
        env["contract_version"] = CONTRACT_VERSION
    if _FILLED:
        # What the layout leaves off the wire comes from the kind's classification.
        c = lookup(env["kind"])
        for in_env, attr in _FILLED:
            (env if in_env else rec)[attr] = _text(getattr(c, attr))
    if not _DIRECT:
        return Envelope(**{**env, "recovery": Recovery(**rec), "received": Received(**received), "extra": extra})
    env["recovery"] = recovery
    env["received"] = got
    env["extra"] = extra
    return envelope


def _reject_constant(name: str) -> Any:
    raise ValueError("invalid JSON number " + name)


def _lenient_int(s: str) -> Any:
    """_lenient_int reads an integer as JavaScript and Go do whatever its length: one past the range of a 64-bit float as an infinity, which _within then rejects (int() refuses more than 4,300 digits)."""
    if len(s) < 300:
        return int(s)
    f = float(s)
    return f if math.isinf(f) else int(s)


def _strict_int(s: str) -> int:
    """_strict_int reads an integer, refusing one no 64-bit float holds (310 digits or more)."""
    if len(s) < 300:
        return int(s)
    if math.isinf(float(s)):
        raise _PastLimit(_NAN_OR_INF)
    return int(s)


def _strict_float(s: str) -> float:
    """_strict_float reads a number with a fraction or an exponent, refusing one past the range of a 64-bit float (1e999)."""
    f = float(s)
    if math.isinf(f):
        raise _PastLimit(_NAN_OR_INF)
    return f


#: _DECODER is json.loads's decoder with NaN and the infinities rejected, made once: json.loads builds a new one on every call that passes an option. Numbers past the range of a 64-bit float read as infinities, which from_dict rejects.
_DECODER: Any = json.JSONDecoder(parse_constant=_reject_constant, parse_int=_lenient_int)
#: _STRICT is _DECODER refusing numbers past the range of a 64-bit float as it reads them (_PastLimit), for from_json.
_STRICT: Any = json.JSONDecoder(parse_constant=_reject_constant, parse_int=_strict_int, parse_float=_strict_float)


def _utf8(b: Union[bytes, bytearray]) -> str:
    """_utf8 decodes bytes as UTF-8 the way the Go decoder reads them: each byte of invalid UTF-8 is U+FFFD. Never as UTF-16 or UTF-32."""
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        # surrogateescape keeps each invalid byte as one code point of its own.
        return _ESCAPED_BYTE.sub("\ufffd", b.decode("utf-8", "surrogateescape"))


_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")


def _loads(text: Union[str, bytes, bytearray], decoder: Any = _DECODER) -> Any:
    """_loads is json.loads(text, parse_constant=_reject_constant) on a decoder made once, except that bytes are read as UTF-8 only (see _utf8), and numbers as decoder reads them."""
    if isinstance(text, (bytes, bytearray)):
        text = _utf8(text)
    elif not isinstance(text, str):
        raise TypeError(f"the JSON object must be str, bytes or bytearray, not {text.__class__.__name__}")
    if text.startswith("\ufeff"):
        raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
    return decoder.decode(text)


def _loads_within(text: Union[str, bytes, bytearray], level: int = 0) -> Any:
    """_loads_within parses JSON text for a reader other than the envelope decoder (a short form, a problem document, an AIP-193 error, a wrapped CLI line).

    The whole document is held to the limits every decoder of the contract
    shares, with level arrays and objects around it (0 for a document, -1
    for a wrapper whose member is an envelope), and with the envelope
    decoder's error: text that is not JSON, or past a limit, raises
    EnvelopeError with an empty path and category "syntax". The value is
    returned as parsed.
    """
    try:
        if isinstance(text, (bytes, bytearray)):
            text = _utf8(text)
        value = _loads(text, _STRICT)
    except _PastLimit as err:
        raise EnvelopeError("", str(err), "syntax") from None
    except (ValueError, TypeError) as err:
        raise EnvelopeError("", "is not valid JSON: " + str(err), "syntax") from None
    except RecursionError:
        raise EnvelopeError("", f"nests arrays and objects more than {MAX_DEPTH} levels deep", "syntax") from None
    if _too_deep(text, level):
        raise EnvelopeError("", f"nests arrays and objects more than {MAX_DEPTH} levels deep", "syntax")
    return value


def _extra_within(key: str, value: Any) -> bool:
    """_extra_within reports whether an extra entry's value, placed where its key places it (as the encoder places it), stays within the limits every decoder shares."""
    path = _place_extra(key)[0]
    try:
        _within(value, 1 if path == "" else 2 + path.count("."))
    except (EnvelopeError, RecursionError):
        return False
    return True


#: JSON_SPACE is JSON's insignificant white space, the only characters a reader of a line trims from its ends.
JSON_SPACE = " \t\n\r"


def _check_size(text: Any, limit: Optional[int]) -> None:
    """_check_size raises the size limit's EnvelopeError when text (str, bytes or bytearray) takes more than limit bytes of UTF-8 (a lone surrogate three, as U+FFFD); None is no limit."""
    if limit is None or not isinstance(text, (str, bytes, bytearray)):
        return
    n = len(text)
    if n > limit or (type(text) is str and 4 * n > limit and len(text.encode("utf-8", "surrogatepass")) > limit):
        raise EnvelopeError("", f"is longer than the limit of {limit} bytes", "syntax")


def from_json(text: Union[str, bytes, bytearray], *, raw: bool = False, max_bytes: Optional[int] = MAX_DOCUMENT_BYTES) -> Envelope:
    """from_json parses JSON text, then reads it with from_dict (raw as there). Text that is not JSON, or past the limits every decoder of the contract shares, raises EnvelopeError with an empty path and category "syntax".

    Bytes are UTF-8 (each byte of invalid UTF-8 reads as U+FFFD, a byte
    order mark is not JSON); a number past the range of a 64-bit float
    (1e999, an integer of 310 digits or more) and nesting deeper than
    MAX_DEPTH are past the limits. Text longer than max_bytes bytes of
    UTF-8 (MAX_DOCUMENT_BYTES, 1 MiB; None: no limit) is a syntax error,
    raised before it is parsed.
    """
    _check_size(text, max_bytes)
    try:
        # _loads(text, _STRICT), without the call.
        if type(text) is not str:
            if isinstance(text, (bytes, bytearray)):
                text = _utf8(text)
            elif not isinstance(text, str):
                raise TypeError(f"the JSON object must be str, bytes or bytearray, not {text.__class__.__name__}")
        if text.startswith("\ufeff"):
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
        value = _STRICT.decode(text)
    except _PastLimit as err:
        raise EnvelopeError("", str(err), "syntax") from None
    except (ValueError, TypeError) as err:
        raise EnvelopeError("", "is not valid JSON: " + str(err), "syntax") from None
    except RecursionError:
        raise EnvelopeError("", f"nests arrays and objects more than {MAX_DEPTH} levels deep", "syntax") from None
    # The numbers are checked as read, the nesting in the text (a member
    # given twice keeps only its last copy in value); text that shows no
    # surrogate and no escape of one skips the walk.
    # (_too_deep's first look inline: "[" in text finds its answer faster
    # than count, and envelopes seldom hold arrays.)
    if text.count("{") + (text.count("[") if "[" in text else 0) > MAX_DEPTH and _too_deep(text, 0):
        raise EnvelopeError("", f"nests arrays and objects more than {MAX_DEPTH} levels deep", "syntax")
    if (not text.isascii() and _SURROGATE.search(text)) or ("\\u" in text and _SURROGATE_ESCAPE.search(text)):
        return _from_value(_within(value, 0), True, raw)
    return _from_value(value, True, raw)


def _finite(path: str, v: Any) -> None:
    if isinstance(v, float) and not math.isfinite(v):
        raise ValueError("cannot encode " + path + ": " + repr(v) + " is not a JSON number")


def _json_value(v: Any) -> Any:
    """_json_value turns tuples into lists and dataclasses of typed objects into dicts, recursively."""
    if isinstance(v, tuple):
        return [_json_value(x) for x in v]
    if isinstance(v, list):
        return [_json_value(x) for x in v]
    if isinstance(v, Mapping):
        return {k: _json_value(x) for k, x in v.items()}
    return v


def _get(v: Any, member: str) -> Any:
    if isinstance(v, Mapping):
        return v.get(member)
    return getattr(v, member, None)


def _encode_typed(spec: Mapping[str, Any], v: Any, path: str) -> Dict[str, Any]:
    """_encode_typed writes a typed object as Go's encoding/json writes its struct: properties in order, required ones always, optional ones unless empty."""
    out: Dict[str, Any] = {}
    for p in spec["properties"]:
        x = _get(v, p["member"])
        if x is None:
            if not p["required"] or p["type"] in ("array", "object"):
                if p["required"]:
                    out[p["name"]] = None
                continue
            x = _zero(p["type"])
        if not p["required"]:
            empty = (
                (p["type"] == "string" and x == "")
                or (p["type"] == "array" and len(x) == 0)
                or (p["type"] == "object" and not p["properties"] and isinstance(x, Mapping) and len(x) == 0)
            )
            if empty:
                continue
        out[p["name"]] = _encode_value(p, x, _join(path, p["name"]))
    return out


def _integer_out(path: str, v: Any) -> None:
    """_integer_out raises ValueError for a number of integer type that no decoder of the contract reads back as one."""
    if (type(v) is int or type(v) is float) and not _is_int(v):
        raise ValueError(f"cannot encode {path}: {v!r} is not an integer from -9007199254740991 to 9007199254740991")


def _encode_value(spec: Mapping[str, Any], v: Any, path: str) -> Any:
    typ = spec["type"]
    if typ == "string":
        return _json_value(v)
    _finite(path, v)
    if typ == "integer":
        _integer_out(path, v)
    if typ == "object" and spec["properties"] and not isinstance(v, (list, tuple, str)):
        return _encode_typed(spec, v, path)
    if typ == "object" or typ == "array":
        # The value sits in as many objects as its path has members.
        _writable(path, v, path.count(".") + 1)
    if isinstance(v, (list, tuple)):
        for x in v:
            _finite(path, x)
            if spec["items"] == "integer":
                _integer_out(path, x)
    return _json_value(v)


def _writable(path: str, v: Any, level: int) -> None:
    """_writable raises ValueError for a value about to be written with level arrays and objects around it that no decoder of the contract reads back: one nested deeper than MAX_DEPTH, or a number JSON cannot carry or no 64-bit float holds."""
    if isinstance(v, float):
        _finite(path, v)
    elif type(v) is int:
        if not -_FLOAT_MAX < v < _FLOAT_MAX:
            raise ValueError(f"cannot encode {path}: it holds an integer no 64-bit float holds")
    elif isinstance(v, (list, tuple, Mapping)):
        if level >= MAX_DEPTH:
            raise ValueError(f"cannot encode {path}: it nests arrays and objects more than {MAX_DEPTH} levels deep")
        for x in v.values() if isinstance(v, Mapping) else v:
            _writable(path, x, level + 1)


_ABSENT = object()


def _leaf_value(leaf: Mapping[str, Any], e: Envelope) -> Any:
    source = leaf["source"]
    if source == "version":
        return e.contract_version
    if source == "kind":
        return e.kind
    if source == "message":
        return e.message
    if source == "origin":
        return e.origin
    if source == "action":
        return e.recovery.action
    if source == "same_arguments":
        return e.recovery.same_arguments
    if source == "side_effects":
        return e.side_effects
    if source == "guidance":
        return _ABSENT if leaf["optional"] and e.recovery.guidance == "" else e.recovery.guidance
    if source == "retry_after_ms":
        ms = e.recovery.retry_after_ms
        if ms is None:
            return _ABSENT
        _finite(leaf["path"], ms)
        return ms if type(ms) is int or not _is_int(ms) else int(ms)
    if source == "group":
        r = received(e, "group")
        g = r if isinstance(r, str) and r != "" else lookup(e.kind).group
        return _ABSENT if leaf["optional"] and g == "" else g
    if source in ("retryable", "may_have_run"):
        b = is_retryable(e) if source == "retryable" else work_may_have_run(e)
        # An optional flag is written when it was received (a received false
        # as well, so it survives a round trip) or computes true.
        return _ABSENT if leaf["optional"] and not b and not isinstance(received(e, source), bool) else b
    if source == "const":
        return leaf["value"]
    if source == "field":
        member = leaf["field"]
        spec = FIELDS.get(member)
        v = getattr(e, member, None)
        if leaf["required"] and (not isinstance(v, str) or v == ""):
            # The layout requires it: an envelope without it is not one the
            # contract's systems accept, so it is not encoded.
            raise ValueError("cannot encode " + leaf["path"] + ": the layout requires it, and it is " + ("empty" if v == "" else "missing"))
        if spec is None or v is None or (spec["type"] == "string" and v == ""):
            return _ABSENT
        if leaf["optional"] and spec["type"] == "array" and len(v) == 0:
            # An array the layout marks optional is left out when empty.
            return _ABSENT
        return _encode_value(spec, v, leaf["path"])
    return _ABSENT


def _object_paths(o: Mapping[str, Any], out: List[str]) -> List[str]:
    out.append(o["path"])
    for m in o["members"]:
        if "object" in m:
            _object_paths(m["object"], out)
    return out


_OBJECT_PATHS = tuple(_object_paths(LAYOUT, []))


def _place_extra(k: str) -> Tuple[str, str]:
    """_place_extra splits an extra key into the object it belongs in (the longest object path of the layout that prefixes it) and its member name there."""
    best = ""
    for p in _OBJECT_PATHS:
        if p != "" and len(p) > len(best) and k.startswith(p + "."):
            best = p
    return ("", k) if best == "" else (best, k[len(best) + 1 :])


# Encoding runs a function written once, when this module is imported, from
# LAYOUT: one statement or two per leaf of the layout, in its order, with
# nothing left to look up (which member, which JSON name, whether it is
# optional), as dataclasses writes the __init__ of a class. It changes how
# fast the layout is written, never what is written: each leaf is written
# as _leaf_value writes it, in the layout's order, raising what it raises;
# the leaves the function does not handle itself are left to _leaf_value,
# and extra entries to _encode_extra.

#: _ENC_ATTR says which attribute of the envelope (True) or its recovery (False) a text source is written from, as _leaf_value reads it.
_ENC_ATTR: Mapping[str, Tuple[bool, str]] = {
    "version": (True, "contract_version"),
    "kind": (True, "kind"),
    "message": (True, "message"),
    "origin": (True, "origin"),
    "side_effects": (True, "side_effects"),
    "action": (False, "action"),
    "same_arguments": (False, "same_arguments"),
}

#: _Field is a field the layout does not require, as the encoder writes it: its JSON name, member, spec, path and whether it is left out when empty (a string field, or an array the layout marks optional).
_Field = Tuple[str, str, Mapping[str, Any], str, bool]


def _encode_field(out: Dict[str, Any], field: _Field, v: Any) -> None:
    """_encode_field writes the value v (not None) of a field the layout does not require, as _leaf_value writes it: an empty string field, or an empty array the layout marks optional, is left out."""
    name, _, spec, path, omit_empty = field
    if omit_empty and (v == "" or (type(v) is not str and len(v) == 0)):
        return
    out[name] = v if type(v) is str else _encode_value(spec, v, path)


def _encode_extra(out: Dict[str, Any], path: str, owned: FrozenSet[str], e: Envelope, extra_keys: List[str]) -> None:
    """_encode_extra writes the extra entries that belong in the object at path, those the layout does not own."""
    for k in extra_keys:
        where, name = _place_extra(k)
        if where == path and name not in owned:
            x = e.extra[k]
            # The entry sits in the object and the objects around it.
            _writable(k, x, 1 if path == "" else path.count(".") + 2)
            out[name] = _json_value(x)


def _read_fields(e: Envelope, fields: Tuple[_Field, ...]) -> Tuple[Any, ...]:
    """_read_fields reads the members of fields as _leaf_value reads them: None when the envelope lacks one."""
    return tuple(getattr(e, f[1], None) for f in fields)


class _EncoderSource(_Source):
    """_EncoderSource writes the encoding function's source; the values it refers to (getters, specs, leaves) are its constants."""

    def __init__(self) -> None:
        super().__init__("def _encode(e, rec, extra_keys):", {
            "_ABSENT": _ABSENT,
            "_encode_extra": _encode_extra,
            "_encode_field": _encode_field,
            "_finite": _finite,
            "_is_int": _is_int,
            "_leaf_value": _leaf_value,
            "_read_fields": _read_fields,
        })
        self.objects = 0

    def object(self, o: Mapping[str, Any], depth: int) -> str:
        """object writes the statements that build the object o into a variable, and returns the variable's name."""
        out = f"o{self.objects}"
        self.objects += 1
        add = self.lines.append
        add(f"    {out} = {{}}")
        run: List[_Field] = []

        def flush() -> None:
            if not run:
                return
            values = [f"{out}_{i}" for i in range(len(run))]
            if len(run) == 1:
                add(f"    {values[0]} = getattr(e, {run[0][1]!r}, None)")
            else:
                # One call in C reads them all.
                add("    try:")
                add(f"        {', '.join(values)} = {self.const(operator.attrgetter(*(f[1] for f in run)))}(e)")
                add("    except AttributeError:")
                add(f"        {', '.join(values)} = _read_fields(e, {self.const(tuple(run))})")
            for v, f in zip(values, run):
                add(f"    if {v} is not None:")
                if f[4]:
                    add(f"        if type({v}) is str:")
                    add(f"            if {v} != \"\":")
                    add(f"                {out}[{f[0]!r}] = {v}")
                    add("        else:")
                    add(f"            _encode_field({out}, {self.const(f)}, {v})")
                else:
                    add(f"        _encode_field({out}, {self.const(f)}, {v})")
            values.clear()
            run.clear()

        for m in o["members"]:
            leaf = m.get("leaf")
            if leaf is None:
                flush()
                child = m["object"]
                name = self.object(child, depth + 1)
                if child["required"]:
                    add(f"    {out}[{child['name']!r}] = {name}")
                else:
                    add(f"    if {name}:")
                    add(f"        {out}[{child['name']!r}] = {name}")
                continue
            source, key = leaf["source"], repr(leaf["name"])
            spec = FIELDS.get(leaf["field"]) if source == "field" else None
            if spec is not None and not leaf["required"]:
                run.append((leaf["name"], leaf["field"], spec, leaf["path"], spec["type"] == "string" or (spec["type"] == "array" and bool(leaf["optional"]))))
                continue
            flush()
            if source in _ENC_ATTR:
                in_env, attr = _ENC_ATTR[source]
                add(f"    {out}[{key}] = {'e' if in_env else 'rec'}.{attr}")
            elif source == "guidance" and leaf["optional"]:
                add("    g = rec.guidance")
                add("    if g != \"\":")
                add(f"        {out}[{key}] = g")
            elif source == "guidance":
                add(f"    {out}[{key}] = rec.guidance")
            elif source == "retry_after_ms":
                add("    ms = rec.retry_after_ms")
                add("    if ms is not None:")
                add("        if type(ms) is not int:")
                add(f"            _finite({leaf['path']!r}, ms)")
                add("            if _is_int(ms):")
                add("                ms = int(ms)")
                add(f"        {out}[{key}] = ms")
            else:
                add(f"    v = _leaf_value({self.const(leaf)}, e)")
                add("    if v is not _ABSENT:")
                add(f"        {out}[{key}] = v")
        flush()
        add("    if extra_keys:")
        add(f"        _encode_extra({out}, {o['path']!r}, {self.const(o['owned'])}, e, extra_keys)")
        return out


def _make_encoder() -> Callable[[Envelope, Recovery, List[str]], Dict[str, Any]]:
    src = _EncoderSource()
    top = src.object(LAYOUT, 0)
    src.lines.append(f"    return {top}")
    exec("\n".join(src.lines), src.names)  # noqa: S102 - the source is written above, from the layout: names as repr literals, members as attributes
    encode: Callable[[Envelope, Recovery, List[str]], Dict[str, Any]] = src.names["_encode"]
    return encode


#: _ENCODE writes an envelope's layout as a dict: _ENCODE(envelope, its recovery, the keys of its extra entries, sorted).
_ENCODE = _make_encoder()


def to_dict(envelope: Envelope) -> Dict[str, Any]:
    """to_dict returns the envelope in the contract's wire layout as a JSON-ready dict.

    The layout's fields come in order, absent optional fields left out, then
    extra entries sorted by key, skipping any that would override a field of
    the contract. A number JSON cannot carry (NaN, an infinity) raises
    ValueError, as the Go encoder fails; so does what no decoder would read
    back: an empty kind, a retry hint that is not an integer from 0 to
    2^53-1, an integer field past ±(2^53-1), a value nested deeper than
    MAX_DEPTH, a missing or empty context field the layout requires.
    """
    # Refused, as Go's AppendJSON refuses them: no decoder reads them back.
    kind = envelope.kind
    if not isinstance(kind, str) or kind == "":
        raise ValueError("cannot encode the envelope: its kind is empty")
    rec = envelope.recovery
    hint = rec.retry_after_ms
    if hint is not None and not (_is_int(hint) and hint >= 0):
        raise ValueError(f"cannot encode the envelope: its retry hint {hint!r} is not an integer from 0 to 9007199254740991")
    extra = envelope.extra
    return _ENCODE(envelope, rec, sorted(extra) if extra else _NO_KEYS)


_NO_KEYS: List[str] = []

#: _ENCODER is json.dumps with to_json's options, made once: json.dumps builds a new encoder on every call that passes an option.
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def to_json(envelope: Envelope) -> str:
    """to_json returns the envelope's compact JSON text in the contract's wire layout (see to_dict).

    Like the Go encoder it escapes U+2028 and U+2029, writes a lone
    surrogate as \\ufffd (see _go_json) and leaves other non-ASCII text as
    it is.
    """
    return _go_json(_ENCODER.encode(to_dict(envelope)))


# Envelope's methods of the same names call these (see the end of _envelope).
_envelope._from_dict, _envelope._from_json, _envelope._to_dict, _envelope._to_json = from_dict, from_json, to_dict, to_json
