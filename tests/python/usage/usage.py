# Code that must type-check with `mypy --strict` against every generated
# package (run.py replaces errgen_pkg with the package's import name). The
# `# type: ignore[code]` lines must really be errors: --strict reports an
# unused ignore, so each one proves the package's types reject the misuse.
import dataclasses
import inspect
import json
from typing import Any, Dict, List, Optional, Type

import errgen_pkg as pkg

#: The context the contract's layout requires (ovstorage: operation): strings
#: every constructor takes after the message.
CTX: List[str] = ["a call" for p in inspect.signature(pkg.new_envelope).parameters.values() if p.kind == p.POSITIONAL_OR_KEYWORD][2:]


def client(body: str, attempt: int) -> Optional[int]:
    try:
        env: pkg.Envelope = pkg.Envelope.from_json(body)
    except pkg.EnvelopeError as err:
        path: str = err.path
        problem: str = err.problem
        print(path, problem)
        return None
    c: pkg.Classification = pkg.lookup(env.kind)
    status: int = c.http_status
    known: bool = pkg.is_known_kind(env.kind)
    d: pkg.Decision = pkg.next_step(env, attempt)
    if d.step == pkg.Step.RETRY:
        return d.delay_min_ms
    retry: bool = pkg.is_retryable(env)
    print(status, known, retry, pkg.work_may_have_run(env), d.check_state_first, d.exhausted)
    hint: Optional[int] = env.recovery.retry_after_ms
    return hint


def server(kind: str) -> Dict[str, Any]:
    env = pkg.new_envelope(kind, "something failed", *CTX)
    env = dataclasses.replace(env, extra={"trace_id": "abc"})
    env = pkg.with_tool_annotations(env, read_only=True)
    wire: Dict[str, Any] = env.to_dict()
    text: str = pkg.to_json(env)
    assert pkg.from_dict(wire).kind == pkg.from_json(text).kind
    result: Dict[str, Any] = pkg.to_mcp_tool_result(env)
    back: pkg.Envelope = pkg.from_mcp_tool_result(result)
    cls: Type[Exception] = pkg.error_class(back.kind)
    exc = pkg.to_exception(back)
    same: pkg.Envelope = exc.envelope
    print(cls, same)
    return result


def http_client(status: int, headers: Dict[str, str], body: bytes) -> str:
    env: pkg.Envelope = pkg.from_http_response(status, headers, body)
    pkg.from_http_response(status, [("Retry-After", "1")], bytearray(body))
    pkg.from_http_response(status, None, None)
    promoted: str = pkg.promoted_from(env)
    if pkg.SHORT_FORM is not None:
        print(pkg.SHORT_FORM["kind_pattern"], pkg.PROMOTED_MEMBER, pkg.PROMOTED_SHORT_FORM)
    pkg.from_http_response("401", headers, body)  # type: ignore[arg-type]
    pkg.from_http_response(status, headers, "text")  # type: ignore[arg-type]
    return promoted


def enums() -> List[str]:
    first: pkg.Kind = list(pkg.Kind)[0]
    env = pkg.new_envelope(first, "m", *CTX)
    s: str = pkg.for_tool(env.recovery.same_arguments, idempotent=True)
    level: str = pkg.log_level(env)
    return [s, level, pkg.problem_type(first), str(pkg.exit_code(env)), pkg.step_of(env.recovery.action).value]


def constructors() -> None:
    for kind, ctor in pkg.CONSTRUCTORS.items():
        print(kind, ctor)
    print(json.dumps(pkg.RETRY.max_attempts), pkg.CONTRACT_NAME, pkg.CONTRACT_VERSION)


def misuse(env: pkg.Envelope) -> None:
    env.message = "changed"  # type: ignore[misc]
    pkg.next_step(env, "1")  # type: ignore[arg-type]
    pkg.lookup(42)  # type: ignore[arg-type]
    x: int = env.kind  # type: ignore[assignment]
    print(x)


def call_errors(result: Dict[str, Any]) -> None:
    ce: Dict[str, Any] = pkg.to_call_error(result, "github", "create_issue", {"readOnlyHint": True})
    text: str = pkg.call_error_text(ce)
    spec: Optional[Any] = pkg.CALL_ERROR
    print(text, spec)
    pkg.to_call_error(result, 42)  # type: ignore[arg-type]
