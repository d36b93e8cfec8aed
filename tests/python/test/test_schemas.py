"""Every vector envelope, and what the constructors and encoder produce, against the output root's envelope schemas (Draft 2020-12)."""

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from env import constructors, fallback_vector, known_vocabulary, new_env, parsed, pkg, schema, vectors

consumer = Draft202012Validator(schema("consumer"))
producer = Draft202012Validator(schema("producer"))


def valid(validator: Any, value: Any, what: str) -> None:
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(value)]
    assert not errors, f"{what}: {errors}"


def test_schemas_are_valid() -> None:
    Draft202012Validator.check_schema(schema("consumer"))
    Draft202012Validator.check_schema(schema("producer"))


@pytest.mark.parametrize("v", vectors["envelopes"], ids=[v["name"] for v in vectors["envelopes"]])
def test_vector(v: Any) -> None:
    valid(consumer, v["envelope"], "consumer schema")
    env = parsed(v["envelope"])
    if v["known"] and known_vocabulary(env):
        valid(producer, v["envelope"], "producer schema")
    valid(consumer, pkg.to_dict(env), "consumer schema (encoded)")


def test_every_constructor_is_producer_valid() -> None:
    by_kind = {e["kind"]: parsed(e["envelope"]) for e in vectors["envelopes"] if e["known"] and e["name"] == e["kind"]}
    for kind, (fn, params) in constructors().items():
        sample = by_kind[kind]
        env = fn("a message", *[getattr(sample, p) for p in params])
        valid(producer, env.to_dict(), kind)
        valid(consumer, env.to_dict(), kind)


def test_unknown_kind_consumer_only() -> None:
    wire = new_env(fallback_vector()["kind"], "from a newer producer").to_dict()
    valid(consumer, wire, "consumer schema")
    assert not producer.is_valid(wire)


def test_malformed_mostly_rejected() -> None:
    assert any(not consumer.is_valid(v["input"]) for v in vectors["malformed"] if "input" in v)
