"""The string_forms vectors, and the attacks of issue 28 on the string forms.

str() and repr() of an envelope and of its exception, the exception's args
(which tracebacks print) and the log form's message and extra, for
envelopes received with a secret, a forged log line or controls in them,
as every package writes them; and logger.exception() after raising a
received envelope.
"""

import copy
import dataclasses
import io
import json
import logging
import pickle
import traceback
from typing import Any

import pytest

from env import new_env, pkg, vectors

FORGED = "upstream said ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8\nlevel=ERROR msg=forged"


def leaks(out: str) -> bool:
    """leaks reports whether out holds a piece of the token or a line break."""
    return "a1B2c3D4" in out or "J0k1L2m3" in out or any(c in out.rstrip("\n") for c in "\n\r\u2028\u2029")


@pytest.mark.parametrize("v", vectors["string_forms"], ids=[v["name"] for v in vectors["string_forms"]])
def test_string_form_vectors(v: Any) -> None:
    env = pkg.from_json(v["text"])
    kind, _, message = v["string"].partition(": ")
    assert str(env) == v["string"]
    assert repr(env) == f"Envelope(kind={kind!r}, message={message!r})"
    exc = pkg.to_exception(env)
    assert str(exc) == v["string"]
    assert exc.args == (v["string"],)
    assert repr(exc) == f"{type(exc).__name__}({v['string']!r})"
    assert exc.envelope is env
    fields = pkg.log_fields(env)
    assert fields["message"] == v["log_message"]
    assert fields.get("extra") == v["log_extra"]
    assert pkg.error_string(env) == v["string"]


def test_logger_exception_after_raising_a_received_envelope() -> None:
    """The issue's Python attack: logger.exception() prints the traceback, which ends with the exception's str()."""
    env = dataclasses.replace(new_env(pkg.KNOWN_KINDS[0], "m"), message=FORGED)
    out = io.StringIO()
    log = logging.getLogger("errgen-string-forms")
    handler = logging.StreamHandler(out)
    log.addHandler(handler)
    log.propagate = False
    try:
        try:
            pkg.raise_envelope(env)
        except Exception:
            log.exception("tool call failed")
            text = traceback.format_exc()
    finally:
        log.removeHandler(handler)
    if "message" in pkg.SANITIZED_FIELDS:
        assert "a1B2c3D4" not in out.getvalue() and "a1B2c3D4" not in text
    assert "level=ERROR msg=forged" in out.getvalue()
    assert "\nlevel=ERROR" not in out.getvalue(), "a forged log line"


@pytest.mark.parametrize("trusted", [False, True])
def test_every_string_form_of_a_built_envelope(trusted: bool) -> None:
    env = new_env(pkg.KNOWN_KINDS[0], FORGED, trusted=trusted)
    exc = pkg.to_exception(env)
    sanitized = "message" in pkg.SANITIZED_FIELDS
    for what, out in {"str": str(env), "repr": repr(env), "f-string": f"{env}", "%s": "%s" % (env,), "str(exc)": str(exc),
                      "repr(exc)": repr(exc), "args": repr(exc.args), "format_exception_only": "".join(traceback.format_exception_only(type(exc), exc))}.items():
        assert not (leaks(out) if sanitized else any(c in out for c in "\n\r")), f"{what}: {out!r}"
    back = pickle.loads(pickle.dumps(exc))
    assert type(back) is type(exc) and back.envelope == env and back.args == exc.args
    assert copy.copy(exc).envelope == env


def test_string_form_bounded() -> None:
    env = new_env("k" * 3000, "a" + "é" * 3000, trusted=True)
    kind, _, message = str(env).partition(": ")
    assert kind == "k" * 1024 + "…"
    # The sanitizer bounds the message first (its max_length), the string form then at 1024 bytes.
    assert message == pkg.bound_log_text(pkg.sanitize(env.message))
    assert len(message.encode("utf-8")) <= 1024 + len("…".encode("utf-8"))


def test_log_extra_sanitizes_each_string() -> None:
    """Issue 28 item 4: a secret split by a C0 control in an extra entry (a value, a nested member's name, a key) goes, as in the message."""
    split = "ghp_a1B2c3D4e5F6g7H8i9\x01J0k1L2m3N4o5P6q7R8"
    env = pkg.from_dict(new_env(pkg.KNOWN_KINDS[0], "m").to_dict() | {"xb_note": "key " + split, split: 1, "xa_nested": {split: [split, 2]}})
    assert pkg.log_fields(env)["extra"] == '{"[REDACTED]":1,"xa_nested":{"[REDACTED]":["[REDACTED]",2]},"xb_note":"key [REDACTED]"}'
    out = json.dumps(pkg.log_fields(env))
    assert "a1B2c3D4" not in out and "J0k1L2m3" not in out
    password = pkg.from_dict(new_env(pkg.KNOWN_KINDS[0], "m").to_dict() | {"x_password": "hunter2"})
    assert "hunter2" not in pkg.log_fields(password)["extra"]
