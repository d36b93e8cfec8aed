"""Producers never emit what the producer schema rejects (issue 14).

Every constructor of every kind, fed adversarial messages, guidance and retry
hints, builds an envelope that validates against the contract's producer
schema and, for the reference contract, against labby's published schema.
The Go (internal/gentest.CheckProducers) and TypeScript (producers.test.mjs)
suites hold their packages to the same inputs.
"""

import json
import math
import os
import re
from typing import Any, List, Tuple

import pytest
from jsonschema import Draft202012Validator

from env import constructors, new_env, parsed, pkg, schema, vectors

producer = Draft202012Validator(schema("producer"))

# labby's own schema, vendored with a note on its origin; a missing file
# fails the test rather than skipping it.
_LABBY_PATH = os.path.join(os.path.dirname(__file__), "..", "..", "testdata", "labby", "agent-error.schema.json")
labby = None
if pkg.CONTRACT_NAME == "agent-error":
    with open(_LABBY_PATH, encoding="utf-8") as f:
        labby = Draft202012Validator(json.load(f))

# Text a reader cannot see, or that the sanitizer empties, and text at the
# edges of size. The third member says when the text is blank for a
# constructor: always, once sanitized, or never.
ADVERSARIAL: List[Tuple[str, str, str]] = [
    ("empty", "", "always"),
    ("blank", " \t\r\n ", "always"),
    ("wide spaces", "\u3000\u00a0\u2007\u202f", "always"),
    ("invisible", "\u200b\u200c\u200d\u2060\ufeff\u00ad", "always"),
    ("bidi only", "\u202a\u202e\u2066\u2069", "sanitized"),
    ("controls only", "\u0000\u0001\u001f\u007f", "sanitized"),
    ("markers only", "<system>[INST]###<<", "sanitized"),
    ("markers and blanks", " <system> \u200b [INST] ", "sanitized"),
    ("lone surrogate", "\ud800", "never"),
    ("huge", "x" * (1 << 18), "never"),
    ("ordinary", "the upstream said no", "never"),
]

HINTS: List[Any] = [0, 1, 1.5, 999.0001, 2**31, 2**53, 2**63 - 1, 2**80, math.inf]
REFUSED_HINTS: List[Any] = [-1, -0.5, -math.inf, math.nan]

# The specification of a blank text (docs/reference/agents.md): only white space and
# invisible format characters.
_INVISIBLE_ONLY = re.compile("^[\t-\r \u0085\u00a0\u00ad\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u3000\ufeff]*$")

BY_KIND = {e["kind"]: parsed(e["envelope"]) for e in vectors["envelopes"] if e["known"] and e["name"] == e["kind"]}


def check(env: Any, what: str) -> None:
    wire = env.to_dict()
    errors = [f"{list(e.absolute_path)}: {e.message[:200]}" for e in producer.iter_errors(wire)]
    assert not errors, f"{what}: producer schema: {errors}"
    if labby is not None:
        errors = [f"{list(e.absolute_path)}: {e.message[:200]}" for e in labby.iter_errors(wire)]
        assert not errors, f"{what}: labby's schema: {errors}"
    assert env.message.strip() != "", f"{what}: blank message"
    # Where the layout carries only the producer's own guidance, there may be none.
    if pkg.FILLS_GUIDANCE or env.recovery.guidance != "":
        assert env.recovery.guidance.strip() != "", f"{what}: blank guidance"
    h = env.recovery.retry_after_ms
    if h is not None:
        assert type(h) is int and 0 <= h <= pkg.RETRY.max_hint_ms, f"{what}: hint {h!r}"


def test_a_constructor_for_every_kind() -> None:
    assert sorted(constructors()) == sorted(pkg.KNOWN_KINDS)


@pytest.mark.parametrize("kind", sorted(constructors()))
def test_constructor_under_adversarial_input(kind: str) -> None:
    fn, params = constructors()[kind]
    sample = BY_KIND[kind]
    args = [getattr(sample, p) for p in params]
    description = pkg.lookup(kind).description
    for name, text, blank in ADVERSARIAL:
        for trusted in (False, True):
            what = f"{kind}, {name}{', trusted' if trusted else ''}"
            env = fn(text, *args, trusted=trusted)
            check(env, f"{what} message")
            seen = text if trusted or "message" not in pkg.SANITIZED_FIELDS else pkg.sanitize(text)
            falls_back = blank == "always" or (blank == "sanitized" and _INVISIBLE_ONLY.match(seen) is not None)
            assert (env.message == description) == (falls_back or text == description), f"{what}: message {env.message[:80]!r}"
            check(pkg.with_fields(env, guidance=text, trusted=trusted), f"{what} guidance")
    base = fn("a message", *args)
    for ms in HINTS:
        env = pkg.with_retry_after(base, ms)
        check(env, f"{kind}, hint {ms}")
        assert env.recovery.retry_after_ms == (pkg.RETRY.max_hint_ms if ms >= pkg.RETRY.max_hint_ms else math.ceil(ms))
    for ms in REFUSED_HINTS:
        with pytest.raises(ValueError):
            pkg.with_retry_after(base, ms)
    for ms in ("5", None, True):
        with pytest.raises(TypeError):
            pkg.with_retry_after(base, ms)


def test_blank_message_falls_back() -> None:
    kind = pkg.KNOWN_KINDS[0]
    assert new_env(kind, "").message == pkg.lookup(kind).description
    assert new_env(kind, "\u200b\u3000").message == pkg.lookup(kind).description
    assert new_env("kind_from_a_newer_contract", " ").message == "kind_from_a_newer_contract"
    assert new_env(kind, " keep me ").message.strip() == "keep me"


def test_blank_guidance_brings_back_the_contracts() -> None:
    kind = pkg.KNOWN_KINDS[0]
    env = pkg.with_fields(new_env(kind, "m"), guidance="\u200b ")
    assert env.recovery.guidance == (pkg.lookup(kind).guidance if pkg.FILLS_GUIDANCE else "")


def test_empty_kind_refused() -> None:
    with pytest.raises(ValueError):
        new_env("", "m")
    import dataclasses

    env = new_env(pkg.KNOWN_KINDS[0], "m")
    with pytest.raises(ValueError):
        dataclasses.replace(env, kind="").to_dict()
    with pytest.raises(ValueError):
        pkg.to_json(dataclasses.replace(env, kind=""))


def test_encoder_refuses_unreadable_hints() -> None:
    import dataclasses

    env = new_env(pkg.KNOWN_KINDS[0], "m")
    for ms in (-1, 2.5, True):
        with pytest.raises(ValueError):
            dataclasses.replace(env, recovery=dataclasses.replace(env.recovery, retry_after_ms=ms)).to_dict()
