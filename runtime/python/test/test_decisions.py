"""_inbound and _nextstep: the rule engine on a classifier written here, and the decision procedure against the fixture contract's retry policy."""

import math
from typing import Any, Dict

from errgen_runtime._classification import classified_envelope, with_retry_after
from errgen_runtime._contract import ACTION_STEPS, CLASSIFICATIONS, RETRY
from errgen_runtime._inbound import classify_with
from errgen_runtime._nextstep import next_step
from errgen_runtime._spec import Classified, Failure, Step


def rule(**r: Any) -> Dict[str, Any]:
    return {"statuses": [], "failures": [], "any_failure": False, "text": [], "breaker": False, **r}


SPEC = {
    "name": "test",
    "rules": [
        rule(statuses=[(429, 429)], kind="throttled"),
        rule(statuses=[(500, 599)], text=["out of memory"], kind="oom", breaker=True),
        rule(statuses=[(500, 599)], kind="server", breaker=True),
        rule(failures=["dns"], kind="unresolved"),
        rule(any_failure=True, kind="transport", breaker=True),
    ],
    "default": "other",
    "default_breaker": False,
}


def test_classify_with_first_match_wins() -> None:
    assert classify_with(SPEC, 429) == Classified("throttled", False, 1)
    assert classify_with(SPEC, 503, text="Out Of Memory!") == Classified("oom", True, 2)
    assert classify_with(SPEC, 503, text="out of memoryless") == Classified("server", True, 3)
    assert classify_with(SPEC, failure=Failure.DNS) == Classified("unresolved", False, 4)
    assert classify_with(SPEC, failure="tls") == Classified("transport", True, 5)


def test_classify_with_default() -> None:
    assert classify_with(SPEC) == Classified("other", False, 0)
    assert classify_with(SPEC, None, None, None) == Classified("other", False, 0)
    assert classify_with(SPEC, 404, "") == Classified("other", False, 0)
    assert classify_with({**SPEC, "rules": []}, 500) == Classified("other", False, 0)


RETRY_KIND = next(c.kind for c in CLASSIFICATIONS.values() if c.retryable)
OTHER_KIND = next(c for c in CLASSIFICATIONS.values() if ACTION_STEPS[c.action] != "retry")


def test_next_step_backs_off() -> None:
    env = classified_envelope(RETRY_KIND, "try again")
    prev = 0
    for attempt in range(1, RETRY.max_attempts):
        d = next_step(env, attempt)
        assert d.step == Step.RETRY and not d.exhausted
        want = min(RETRY.initial_ms * RETRY.multiplier ** (attempt - 1), RETRY.max_ms)
        assert d.delay_max_ms == math.floor(want)
        assert d.delay_min_ms == math.floor(want * (1 - RETRY.jitter))
        assert prev <= d.delay_max_ms <= RETRY.max_ms
        prev = d.delay_max_ms
    last = next_step(env, RETRY.max_attempts)
    assert (last.step, last.exhausted, last.delay_max_ms) == (Step.ESCALATE, True, 0)


def test_next_step_waits_a_hint_clamped() -> None:
    env = classified_envelope(RETRY_KIND, "busy")
    d = next_step(with_retry_after(env, 1500.2), 1)
    assert (d.delay_min_ms, d.delay_max_ms) == (1501, 1501)
    assert next_step(with_retry_after(env, 10.0**30), 1).delay_max_ms == RETRY.max_hint_ms


def test_next_step_other_steps_do_not_wait() -> None:
    d = next_step(classified_envelope(OTHER_KIND.kind, "no"), 1)
    assert d.step == ACTION_STEPS[OTHER_KIND.action]
    assert (d.delay_min_ms, d.delay_max_ms, d.exhausted) == (0, 0, False)
