"""The rule engine of the inbound classifiers: the same for every contract, driven by the contract's INBOUND table."""

from __future__ import annotations

from enum import Enum
from typing import Any, Callable, List, Mapping, Optional, Union

from ._spec import Classified
from ._words import ascii_lower, has_word


def _rule_matches(r: Mapping[str, Any], status: int, failure: str, text: Callable[[], str]) -> bool:
    if r["statuses"] and not any(lo <= status <= hi for lo, hi in r["statuses"]):
        return False
    if r["any_failure"]:
        if failure == "":
            return False
    elif r["failures"] and failure not in r["failures"]:
        return False
    return not r["text"] or has_word(text(), r["text"])


def classify_with(spec: Mapping[str, Any], status: Optional[int] = 0, failure: Union[str, Enum, None] = "", text: Optional[str] = "") -> Classified:
    """classify_with runs one classifier over an upstream failure: the first rule whose conditions all hold wins, else the default.

    status is the HTTP status the upstream answered with (0 or None when
    none), failure the transport failure (a Failure value; empty or None
    when a response arrived) and text the upstream's error text.
    """
    st = status or 0
    fl = "" if failure is None else (str(failure.value) if isinstance(failure, Enum) else failure)
    lowered: List[str] = []

    def lower() -> str:
        if not lowered:
            lowered.append(ascii_lower(text or ""))
        return lowered[0]

    for i, r in enumerate(spec["rules"]):
        if _rule_matches(r, st, fl, lower):
            return Classified(kind=r["kind"], counts_toward_breaker=r["breaker"], rule=i + 1)
    return Classified(kind=spec["default"], counts_toward_breaker=spec["default_breaker"], rule=0)
