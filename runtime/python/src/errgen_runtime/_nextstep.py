"""The agent's decision procedure (docs/agents.md is its specification).

It computes exactly what the Go package's NextStep does, in whole
milliseconds and double-precision arithmetic.
"""

from __future__ import annotations

import math

from ._classification import is_retryable, received, step_of, work_may_have_run
from ._contract import RETRY
from ._envelope import Envelope
from ._spec import Decision, Step


def next_step(envelope: Envelope, attempt: int) -> Decision:
    """next_step decides what to do after attempt number attempt (counting from 1) failed with the envelope.

    The step comes from the envelope's recovery action. A retry is taken
    only while same_arguments permits repeating the identical call and fewer
    than RETRY.max_attempts attempts were made; otherwise the agent
    escalates. The wait is the envelope's retry hint when present (at most
    RETRY.max_hint_ms, however large the hint), else
    min(max_ms, initial_ms * multiplier ** (attempt - 1)) in whole
    milliseconds with up to RETRY.jitter of it shaved off.
    """
    # A retryable flag received on the wire wins over the advice: True means
    # retry (ovstorage's decision tree asks it first), whatever the kind.
    step = Step.RETRY if received(envelope, "retryable") is True else step_of(envelope.recovery.action)
    check = work_may_have_run(envelope)
    if step != Step.RETRY:
        return Decision(step=step, delay_min_ms=0, delay_max_ms=0, check_state_first=check, exhausted=False)
    if not is_retryable(envelope) or attempt >= RETRY.max_attempts:
        return Decision(step=Step.ESCALATE, delay_min_ms=0, delay_max_ms=0, check_state_first=check, exhausted=True)
    hint = envelope.recovery.retry_after_ms
    if hint is not None:
        # Saturated at RETRY.max_hint_ms, as Go's NextStep does: a hint beyond
        # it (2**63 - 1 ms from a hostile upstream) waits the maximum.
        ms = min(max(hint, 0), RETRY.max_hint_ms)
        return Decision(step=step, delay_min_ms=ms, delay_max_ms=ms, check_state_first=check, exhausted=False)
    try:
        base = float(RETRY.initial_ms) * math.pow(float(RETRY.multiplier), float(max(attempt, 1) - 1))
    except OverflowError:
        base = math.inf
    base = min(base, float(RETRY.max_ms))
    return Decision(
        step=step,
        delay_min_ms=math.floor(base * (1 - RETRY.jitter)),
        delay_max_ms=math.floor(base),
        check_state_first=check,
        exhausted=False,
    )
