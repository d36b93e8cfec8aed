"""Classification of kinds and the questions an envelope answers.

This module is the same for every contract: it reads the contract's data tables.
"""

from __future__ import annotations

import dataclasses
import math
from enum import Enum
from typing import Any, Dict, FrozenSet, List, Mapping, Optional, Union

from ._contract import (
    ACTION_STEPS,
    CLASSIFICATIONS,
    CONTRACT_VERSION,
    DEFAULT_EXIT_CODE,
    EXIT_CODES,
    FALLBACK,
    FIELDS,
    KNOWN_KINDS,
    LAYOUT,
    MAY_HAVE_RUN_SIDE_EFFECTS,
    RETRY,
    PROBLEM_TYPE_BASE,
    RETRY_SAME_ARGUMENTS,
    SAME_ARGUMENTS_UPGRADES,
    SANITIZED_FIELDS,
    SideEffects,
)
from ._envelope import Envelope, Recovery
from ._reason import aip_reason
from ._sanitize import sanitize, sanitize_value
from ._spec import Classification, Step


def plain(value: Union[str, Enum]) -> str:
    """plain returns the string of a value given as a str or as a member of one of the package's Enums."""
    if isinstance(value, Enum):
        return str(value.value)
    return str.__str__(value)


def is_known_kind(kind: Union[str, Enum]) -> bool:
    """is_known_kind reports whether kind is one this contract defines."""
    return plain(kind) in CLASSIFICATIONS


def lookup(kind: Union[str, Enum]) -> Classification:
    """lookup returns the classification of kind.

    It never fails: a kind the contract does not list gets the fallback
    classification, with known False, the kind kept as given and its
    ErrorInfo reason computed, as the Go package's Lookup.
    """
    k = plain(kind)
    c = CLASSIFICATIONS.get(k)
    if c is not None:
        return c
    return dataclasses.replace(FALLBACK, kind=k, reason=aip_reason(k))


def fallback() -> Classification:
    """fallback returns the classification every unknown kind gets."""
    return FALLBACK


_BY_NUMBER: Dict[int, str] = {CLASSIFICATIONS[k].number: k for k in KNOWN_KINDS if CLASSIFICATIONS[k].number >= 0}


def kind_by_number(n: int) -> Optional[str]:
    """kind_by_number returns the kind with the stable number n, or None when no kind has it (or the contract numbers none)."""
    return _BY_NUMBER.get(n)


def step_of(action: Union[str, Enum]) -> Step:
    """step_of returns the step the contract maps a recovery action to; an action this contract version does not know means escalate."""
    return Step(ACTION_STEPS.get(plain(action), Step.ESCALATE.value))


def permits_retry(same_arguments: Union[str, Enum]) -> bool:
    """permits_retry reports whether a same_arguments value permits an automatic retry of the identical call."""
    return plain(same_arguments) in RETRY_SAME_ARGUMENTS


_SIDE_EFFECTS_VALUES: FrozenSet[str] = frozenset(v.value for v in SideEffects)


def may_have_run(side_effects: Union[str, Enum]) -> bool:
    """may_have_run reports whether work may already have run when a failure reports this side_effects value.

    A value this contract does not list (a newer producer's) counts as may
    have run, so an agent checks state.
    """
    v = plain(side_effects)
    return v in MAY_HAVE_RUN_SIDE_EFFECTS or v not in _SIDE_EFFECTS_VALUES


def _received_attrs(o: Mapping[str, Any], out: Dict[str, str]) -> Dict[str, str]:
    for m in o["members"]:
        if "object" in m:
            _received_attrs(m["object"], out)
        elif "received" in m["leaf"] and m["leaf"]["source"] not in out:
            out[m["leaf"]["source"]] = m["leaf"]["received"]
    return out


#: RECEIVED_ATTRS names, per derived source, the Received attribute the layout keeps it in.
RECEIVED_ATTRS: Mapping[str, str] = _received_attrs(LAYOUT, {})


def received(envelope: Envelope, source: str) -> Any:
    """received returns the derived value of source as the envelope received it, or None."""
    attr = RECEIVED_ATTRS.get(source)
    if attr is None:
        return None
    return getattr(envelope.received, attr, None)


#: SANITIZES_MESSAGE and SANITIZES_GUIDANCE say whether the contract sanitizes the message and the guidance.
SANITIZES_MESSAGE = "message" in SANITIZED_FIELDS
SANITIZES_GUIDANCE = "guidance" in SANITIZED_FIELDS

#: SANITIZED_ATTRS holds the Envelope attributes of the sanitized context and kind-specific fields.
SANITIZED_ATTRS: FrozenSet[str] = frozenset(attr for attr, spec in FIELDS.items() if spec["name"] in SANITIZED_FIELDS)


# The characters a blank text consists of: white space and invisible format
# characters, spelled out so that the Go and TypeScript packages agree.
_INVISIBLE: FrozenSet[str] = frozenset(
    chr(c)
    for lo, hi in (
        (0x09, 0x0D), (0x20, 0x20), (0x85, 0x85), (0xA0, 0xA0), (0xAD, 0xAD), (0x1680, 0x1680), (0x180E, 0x180E),
        (0x2000, 0x200F), (0x2028, 0x202F), (0x205F, 0x2064), (0x3000, 0x3000), (0xFEFF, 0xFEFF),
    )
    for c in range(lo, hi + 1)
)


def _blank(text: str) -> bool:
    """_blank reports whether text has nothing a reader could see: it is empty or holds only white space and invisible format characters (what is left of a message that was all prompt markers or bidi controls once sanitized)."""
    return all(ch in _INVISIBLE for ch in text)


def _message_or(c: Classification, message: str) -> str:
    """_message_or is the message a constructor puts into an envelope: the one given unless it is blank, else the kind's description, else (for a kind the contract does not list) the kind itself. A message must stay useful when a client drops every other field, so it is never empty."""
    if isinstance(message, str) and not _blank(message):
        return message
    return c.description or plain(c.kind)


def with_retry_after(envelope: Envelope, ms: Union[int, float]) -> Envelope:
    """with_retry_after returns a copy of the envelope with the retry hint set to ms milliseconds.

    The hint is rounded up to a whole millisecond, so a caller never
    retries early, and clamped to RETRY.max_hint_ms. A negative hint or NaN
    raises ValueError, a value that is not a number TypeError: the producer
    schema and every decoder reject them.
    """
    if isinstance(ms, bool) or not isinstance(ms, (int, float)):
        raise TypeError(f"with_retry_after: the retry hint must be a number of milliseconds, found {type(ms).__name__}")
    if not ms >= 0:
        raise ValueError(f"with_retry_after: the retry hint must not be negative, found {ms!r}")
    hint = RETRY.max_hint_ms if ms >= RETRY.max_hint_ms else math.ceil(ms)
    return dataclasses.replace(envelope, recovery=dataclasses.replace(envelope.recovery, retry_after_ms=hint))


def _guidance_leaf(o: Mapping[str, Any]) -> Optional[Mapping[str, Any]]:
    for m in o["members"]:
        found = _guidance_leaf(m["object"]) if "object" in m else m["leaf"] if m["leaf"]["source"] == "guidance" else None
        if found is not None:
            return found
    return None


_GUIDANCE_LEAF = _guidance_leaf(LAYOUT)
#: FILLS_GUIDANCE says whether a new envelope starts with the contract's
#: guidance for its kind. It does unless the layout marks the guidance leaf
#: optional: such a field carries only advice the producer gives, so a new
#: envelope's guidance is empty until with_fields sets it.
FILLS_GUIDANCE: bool = _GUIDANCE_LEAF is None or not _GUIDANCE_LEAF["optional"]


def _required_attrs(o: Mapping[str, Any], out: List[str]) -> List[str]:
    for m in o["members"]:
        if "object" in m:
            _required_attrs(m["object"], out)
        elif m["leaf"]["source"] == "field" and m["leaf"]["required"]:
            out.append(m["leaf"]["field"])
    return out


#: REQUIRED_ATTRS holds the Envelope attributes of the context fields the layout requires.
REQUIRED_ATTRS: FrozenSet[str] = frozenset(_required_attrs(LAYOUT, []))


def classified_envelope(kind: Union[str, Enum], message: str, *, trusted: bool = False) -> Envelope:
    """classified_envelope returns an envelope of any kind with its classification's defaults and no context.

    It is what every constructor starts from, and what a client builds
    from a failure that carries no envelope. The message is sanitized when
    the contract lists it in SANITIZED_FIELDS, unless trusted is True.
    """
    if not isinstance(kind, (str, Enum)) or plain(kind) == "":
        raise ValueError("new_envelope: the kind must be a non-empty string")
    c = lookup(kind)
    return Envelope(
        kind=c.kind,
        message=_message_or(c, message if trusted or not SANITIZES_MESSAGE else sanitize(message)),
        origin=c.origin,
        recovery=Recovery(action=c.action, same_arguments=c.same_arguments, guidance=c.guidance if FILLS_GUIDANCE else ""),
        side_effects=c.side_effects,
        contract_version=CONTRACT_VERSION,
    )


def required_text(attr: str, value: Any, *, trusted: bool = False) -> str:
    """required_text checks a value for a context field the layout requires.

    It must be a str (TypeError otherwise); it is sanitized when the
    contract lists the field, unless trusted is True; and it must not be
    empty afterwards (ValueError): an envelope without it is not one the
    contract accepts.
    """
    if not isinstance(value, str):
        raise TypeError(f"{attr} must be a str, found {type(value).__name__}: the layout requires it in every envelope")
    v = value if trusted or attr not in SANITIZED_ATTRS else sanitize(value)
    if v == "":
        raise ValueError(f"{attr} must not be empty: the layout requires it in every envelope")
    return str.__str__(v)


def with_fields(envelope: Envelope, /, *, trusted: bool = False, **fields: Any) -> Envelope:
    """with_fields returns a copy of the envelope with optional values set: guidance, and any context or kind-specific field by its attribute name.

    The values of the fields the contract lists in SANITIZED_FIELDS are
    sanitized (a string, the strings of an array, the strings inside an
    object); pass trusted=True for text the caller wrote itself. None
    clears a field and keeps the guidance; blank guidance restores the
    contract's (or none, where the layout carries only the producer's own).
    An unknown name raises TypeError. A context field the layout requires
    cannot be cleared or emptied: it raises TypeError or ValueError, as the
    constructors do.
    """
    updates: Dict[str, Any] = {}
    for name, value in fields.items():
        if name == "guidance":
            continue
        if name not in FIELDS:
            raise TypeError(f"with_fields: {name!r} is not a context or kind-specific field of the contract (nor guidance)")
        if name in REQUIRED_ATTRS:
            updates[name] = required_text(name, value, trusted=trusted)
            continue
        updates[name] = value if trusted or name not in SANITIZED_ATTRS else sanitize_value(value)
    guidance = fields.get("guidance")
    if guidance is not None:
        if not isinstance(guidance, str):
            raise TypeError(f"with_fields: guidance must be a str, found {type(guidance).__name__}")
        if SANITIZES_GUIDANCE and not trusted:
            guidance = sanitize(guidance)
        if _blank(guidance):
            # Blank advice is never emitted: the contract's comes back where
            # the layout fills guidance, and there is none where it carries
            # only the producer's own.
            guidance = lookup(envelope.kind).guidance if FILLS_GUIDANCE else ""
        updates["recovery"] = dataclasses.replace(envelope.recovery, guidance=guidance)
    return dataclasses.replace(envelope, **updates)


def classification(envelope: Envelope) -> Classification:
    """classification returns the contract's classification of the envelope's kind."""
    return lookup(envelope.kind)


def http_status(envelope: Union[Envelope, str, Enum]) -> int:
    """http_status returns the status an HTTP surface answers with for the envelope's kind (or for a kind)."""
    return lookup(envelope.kind if isinstance(envelope, Envelope) else envelope).http_status


def log_level(envelope: Envelope) -> str:
    """log_level returns the level to log the failure at: debug, info, warn or error."""
    return lookup(envelope.kind).log_level


def counts_toward_breaker(envelope: Envelope) -> bool:
    """counts_toward_breaker reports whether the failure is a transport failure that counts toward the upstream's circuit breaker."""
    return lookup(envelope.kind).breaker


def is_startup_failure(envelope: Envelope) -> bool:
    """is_startup_failure reports whether the kind is raised while starting up rather than returned as an operation's result."""
    return lookup(envelope.kind).startup


def is_retryable(envelope: Envelope) -> bool:
    """is_retryable reports whether the envelope's own advice permits an automatic retry of the identical call.

    That is a retry action with a same_arguments value that permits
    repeating it. A derived retryable flag received on the wire wins.
    """
    r = received(envelope, "retryable")
    if isinstance(r, bool):
        return r
    return step_of(envelope.recovery.action) == Step.RETRY and permits_retry(envelope.recovery.same_arguments)


def work_may_have_run(envelope: Envelope) -> bool:
    """work_may_have_run reports whether work may already have run before the failure (a derived flag received on the wire wins): check state before repeating a write."""
    r = received(envelope, "may_have_run")
    if isinstance(r, bool):
        return r
    return may_have_run(envelope.side_effects)


def for_tool(same_arguments: Union[str, Enum], read_only: Optional[bool] = None, idempotent: Optional[bool] = None) -> str:
    """for_tool returns the same_arguments advice for a tool with the given MCP annotations.

    Repeating a call to a tool marked read-only (readOnlyHint) or idempotent
    (idempotentHint) cannot repeat a side effect, so the contract may relax
    the advice. None means the hint is absent.
    """
    s = plain(same_arguments)
    if not (read_only is True or idempotent is True):
        return s
    return SAME_ARGUMENTS_UPGRADES.get(s, s)


def with_tool_annotations(envelope: Envelope, read_only: Optional[bool] = None, idempotent: Optional[bool] = None) -> Envelope:
    """with_tool_annotations returns a copy of the envelope with for_tool applied to its same_arguments advice."""
    recovery = dataclasses.replace(envelope.recovery, same_arguments=for_tool(envelope.recovery.same_arguments, read_only, idempotent))
    return dataclasses.replace(envelope, recovery=recovery)


def exit_code(envelope: Envelope) -> int:
    """exit_code is the exit status a command line reports the failure with, by the origin of the kind's classification."""
    return EXIT_CODES.get(lookup(envelope.kind).origin, DEFAULT_EXIT_CODE)


def problem_type(kind: Union[str, Enum]) -> str:
    """problem_type returns the RFC 9457 problem type URI of kind."""
    return PROBLEM_TYPE_BASE + plain(kind)
