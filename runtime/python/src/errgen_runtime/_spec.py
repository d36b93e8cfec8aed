"""The types of the runtime: the same for every contract."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Literal


class Step(str, Enum):
    """Step is what an agent does next after a failure; every recovery action maps onto one."""
    RETRY = "retry"
    REVISE = "revise"
    REAUTHENTICATE = "reauthenticate"
    CONFIRM = "confirm"
    REDISCOVER = "rediscover"
    REDUCE_WORK = "reduce_work"
    START_DEPENDENCY = "start_dependency"
    ESCALATE = "escalate"
    STOP = "stop"


class Failure(str, Enum):
    """Failure is a transport failure: the upstream call ended without a response."""
    TIMEOUT = "timeout"
    DNS = "dns"
    CONNECTION_REFUSED = "connection_refused"
    CONNECTION_RESET = "connection_reset"
    TLS = "tls"
    REDIRECT_BLOCKED = "redirect_blocked"
    CANCELLED = "cancelled"
    RESPONSE_TOO_LARGE = "response_too_large"
    MALFORMED_RESPONSE = "malformed_response"


class LogLevel(str, Enum):
    """LogLevel is the level a failure is logged at."""

    DEBUG = "debug"
    INFO = "info"
    WARN = "warn"
    ERROR = "error"


@dataclass(frozen=True)
class Classification:
    """Classification is everything the contract says about one kind."""

    kind: str
    #: False when the kind is not in the contract and the fallback applies.
    known: bool
    #: Empty for an unknown kind.
    group: str
    origin: str
    action: str
    same_arguments: str
    #: The contract's default advice for the caller.
    guidance: str
    side_effects: str
    #: The status an HTTP surface answers with.
    http_status: int
    log_level: str
    #: True for transport failures, which count toward an upstream's circuit breaker.
    breaker: bool
    #: True when the action is a retry and same_arguments permits repeating the call.
    retryable: bool
    description: str
    #: True for failures raised while starting up rather than returned as an operation's result.
    startup: bool
    #: The kind's stable numeric code; -1 when the contract has none.
    number: int
    #: The canonical google.rpc.Code number the google.rpc mapping (AIP-193) reports.
    grpc_code: int
    #: The code's name ("NOT_FOUND"): AIP-193's "status".
    grpc_status: str
    #: The kind's ErrorInfo reason (AIP-193): its words in UPPER_SNAKE_CASE; lookup computes it for a kind the contract does not list (the fallback's own is empty).
    reason: str


@dataclass(frozen=True)
class RetryPolicy:
    """RetryPolicy is the backoff for a retry without a retry hint."""

    initial_ms: int
    max_ms: int
    multiplier: float
    jitter: float
    max_attempts: int
    #: The longest retry hint, in milliseconds: producers clamp a longer one
    #: to it, and next_step never waits longer, however large the hint received.
    max_hint_ms: int


@dataclass(frozen=True)
class Decision:
    """Decision is what an agent does after an attempt failed with an envelope.

    delay_min_ms and delay_max_ms bound the wait before a retry (equal when
    the envelope carried a retry hint; zero for other steps).
    check_state_first is true when work may already have run. exhausted is
    true when the step would have been a retry but the attempts ran out or
    same_arguments forbids repeating the call; step is then escalate.
    """

    step: Step
    delay_min_ms: int
    delay_max_ms: int
    check_state_first: bool
    exhausted: bool


@dataclass(frozen=True)
class Classified:
    """Classified is a classifier's answer: the kind, whether the failure counts toward the upstream's circuit breaker, and which rule matched (from 1; 0 for the default)."""

    kind: str
    counts_toward_breaker: bool
    rule: int


#: DecodeErrorCategory sorts a decode problem, as the Go package's
#: DecodeError.Category does: "syntax" (not JSON at all), "type" (the wrong
#: JSON type, including null where a value is required, a non-integer number
#: where an integer is required and a document that is not an object),
#: "missing" (a required member is absent) or "value" (the right type but a
#: rejected value: an empty kind, a negative integer, a layout constant that
#: differs, whatever its type).
DecodeErrorCategory = Literal["syntax", "type", "missing", "value"]


class EnvelopeError(ValueError):
    """EnvelopeError says why a value is not a valid envelope.

    path is the JSON path of the offending field, such as "recovery.action"
    (the same path the Go package's DecodeError reports); empty when the
    document as a whole is wrong. problem says what is wrong, and category
    what kind of problem it is (the same category the Go package reports).
    """

    def __init__(self, path: str, problem: str, category: DecodeErrorCategory) -> None:
        super().__init__(path, problem, category)
        self.path = path
        self.problem = problem
        self.category: DecodeErrorCategory = category

    def __str__(self) -> str:
        if self.path == "":
            return "invalid envelope: " + self.problem
        return "invalid envelope: " + self.path + " " + self.problem
