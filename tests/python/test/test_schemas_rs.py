"""A second JSON Schema validator, jsonschema-rs (the Rust jsonschema crate), on the conformance vectors, beside the Python jsonschema package (test_schemas.py), ajv (tests/ts) and santhosh-tekuri/jsonschema (Go).

It must give the verdicts the vectors fix, which the others check on the
envelope vectors (and Go's on the HTTP ones): every envelope the vectors
hold (the envelope vectors and their encodings, and every envelope a reader
returns or a surface writes: HTTP, MCP, CLI, AIP-193, next step, received)
is valid for the output root's consumer schema; an envelope vector of a
kind and vocabulary the contract defines is valid for the producer schema,
one of an unknown kind invalid; and most malformed vectors are rejected by
the consumer schema.

Where the vectors fix no verdict, the two validators must agree with each
other: on every document a vector gives as JSON text (the edges, string
forms, CLI lines, MCP texts and malformed texts, which hold the unusual text:
non-ASCII letters, escapes, secrets, lone surrogates) and on the envelopes
the decoder edges read (one of which, contract_version -(2^53-1), no schema
accepts), against both schemas.
The malformed input objects are judged by jsonschema-rs alone: the Python
validator takes milliseconds for each of a large layout's (the reserved-words
test contract's 1247 inputs of 13 kB take it 5 s).
"""

import json
from typing import Any, Iterator, List, Tuple

import jsonschema_rs
from jsonschema import Draft202012Validator

from env import known_vocabulary, parsed, pkg, schema, vectors

# The members of a vector that hold JSON text.
TEXT_MEMBERS = ("text", "line")
# The members of a vector that hold a JSON document.
DOCUMENTS = ("envelope", "input", "document", "aip193")


def members(node: Any, names: Tuple[str, ...], where: str) -> Iterator[Tuple[str, Any]]:
    """Every value of a member named in names, anywhere under node, with where it is."""
    if isinstance(node, list):
        for i, item in enumerate(node):
            yield from members(item, names, f"{where}[{i}]")
        return
    if not isinstance(node, dict):
        return
    for key, value in node.items():
        if key in names:
            yield f"{where}.{key}", value
        # Not into a document (an envelope, an input): none holds a vector.
        elif isinstance(value, (dict, list)) and key not in DOCUMENTS:
            yield from members(value, names, f"{where}.{key}")


def well_formed(node: Any) -> Any:
    """node with each lone surrogate (which a JSON text may escape, as some vectors do) replaced by U+FFFD: jsonschema-rs takes Unicode text only, and no keyword of the schemas tells the two apart (each is one character)."""
    if isinstance(node, str):
        return "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in node)
    if isinstance(node, list):
        return [well_formed(v) for v in node]
    if isinstance(node, dict):
        return {well_formed(k): well_formed(v) for k, v in node.items()}
    return node


def distinct(found: Iterator[Tuple[str, Any]]) -> List[Tuple[str, Any]]:
    """Each distinct JSON object once (many vectors repeat an envelope), with the first place it occurs."""
    seen = set()
    out = []
    for where, doc in found:
        if not isinstance(doc, dict):
            continue
        key = json.dumps(doc)
        if key not in seen:
            seen.add(key)
            out.append((where, doc))
    return out


def rs_valid(validator: Any, doc: Any) -> bool:
    """jsonschema-rs's verdict on doc; one holding a lone surrogate is judged well_formed(doc) (few are: well_formed walks a document in Python)."""
    try:
        return bool(validator.is_valid(doc))
    except UnicodeEncodeError:
        return bool(validator.is_valid(well_formed(doc)))


def decoded(found: Iterator[Tuple[str, Any]]) -> Iterator[Tuple[str, Any]]:
    for where, text in found:
        try:
            yield where, json.loads(text)
        except (TypeError, ValueError):
            continue


consumer = jsonschema_rs.Draft202012Validator(schema("consumer"))
producer = jsonschema_rs.Draft202012Validator(schema("producer"))

# One walk over the vectors (a large layout's run to megabytes).
FOUND: List[Tuple[str, Any]] = list(members(vectors, ("envelope",) + TEXT_MEMBERS, "vectors"))


def test_every_envelope_is_consumer_valid() -> None:
    envelopes = [(where, doc) for where, doc in FOUND if where.endswith(".envelope") and isinstance(doc, dict) and not where.startswith("vectors.edges")]
    assert len(envelopes) >= len(vectors["envelopes"])
    invalid = [f"{where}: {[e.message for e in consumer.iter_errors(well_formed(doc))][:3]}" for where, doc in envelopes if not rs_valid(consumer, doc)]
    assert not invalid, "\n".join(invalid)


def test_envelope_vectors_producer_verdicts() -> None:
    for v in vectors["envelopes"]:
        env = parsed(v["envelope"])
        assert rs_valid(consumer, pkg.to_dict(env)), v["name"]
        if v["known"] and known_vocabulary(env):
            if not rs_valid(producer, v["envelope"]):
                raise AssertionError((v["name"], [e.message for e in producer.iter_errors(well_formed(v["envelope"]))]))
        elif not v["known"]:
            assert not rs_valid(producer, v["envelope"]), v["name"]


def test_malformed_inputs_are_mostly_rejected() -> None:
    inputs = [doc for v in vectors["malformed"] if isinstance(doc := v.get("input"), dict)]
    rejected = sum(not rs_valid(consumer, doc) for doc in inputs)
    assert rejected > len(inputs) // 2, f"{rejected} of {len(inputs)}"


def test_texts_get_the_same_verdict_from_both() -> None:
    docs = distinct(decoded((where, text) for where, text in FOUND if where.rsplit(".", 1)[1] in TEXT_MEMBERS))
    docs += distinct((where, doc) for where, doc in FOUND if where.startswith("vectors.edges") and where.endswith(".envelope"))
    assert docs
    disagree = []
    verdicts = {True: 0, False: 0}
    for role, rust in (("consumer", consumer), ("producer", producer)):
        python = Draft202012Validator(schema(role))
        for where, doc in docs:
            a, b = python.is_valid(doc), rs_valid(rust, doc)
            verdicts[a] += 1
            if a != b:
                disagree.append(f"{role} schema, {where}: jsonschema says {a}, jsonschema-rs {b}: {json.dumps(doc)[:300]}")
    assert not disagree, "\n".join(disagree)
    assert verdicts[True] > 0 and verdicts[False] > 0, verdicts
