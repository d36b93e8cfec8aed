"""The google.rpc mapping's vectors (AIP-193): every kind's gRPC code and reason, every envelope's to_aip193 byte for byte and read back, and foreign AIP-193 errors read into their envelopes."""

import dataclasses
import json
from typing import Any

import pytest

from env import on_wire, pkg, vectors
from test_conformance import caller_sets, ids

SECTIONS = ("aip193_domain", "aip193_kinds", "aip193_reasons", "aip193_encode", "aip193_decode")


def test_every_section_is_there() -> None:
    for name in SECTIONS:
        assert vectors.get(name), f"the vectors have no {name} section"


def test_domain() -> None:
    assert pkg.ERROR_INFO_DOMAIN == vectors["aip193_domain"]


@pytest.mark.parametrize("v", vectors.get("aip193_kinds", []), ids=ids(vectors.get("aip193_kinds", []), lambda v: v["kind"]))
def test_kind(v: Any) -> None:
    k = v["kind"]
    got = {"kind": k, "http_status": pkg.http_status(k), "grpc_code": pkg.grpc_code(k), "grpc_status": pkg.grpc_status(k), "reason": pkg.error_info_reason(k)}
    assert got == v
    # lookup carries them too, an unknown kind's reason computed, as the Go package's Lookup.
    c = pkg.lookup(k)
    assert {"kind": c.kind, "http_status": c.http_status, "grpc_code": c.grpc_code, "grpc_status": c.grpc_status, "reason": c.reason} == v
    if pkg.is_known_kind(k):
        assert pkg.grpc_code(pkg.Kind(k)) == v["grpc_code"], "an Enum member maps like its string"


@pytest.mark.parametrize("v", vectors.get("aip193_reasons", []), ids=ids(vectors.get("aip193_reasons", []), lambda v: repr(v["kind"])))
def test_reason(v: Any) -> None:
    assert pkg.error_info_reason(v["kind"]) == v["reason"]


@pytest.mark.parametrize("v", vectors.get("aip193_encode", []), ids=ids(vectors.get("aip193_encode", []), lambda v: v["name"]))
def test_encode(v: Any) -> None:
    env = pkg.from_dict(v["envelope"])
    assert pkg.to_aip193(env) == v["aip193"]
    assert pkg.grpc_code(env) == pkg.grpc_code(env.kind)
    back = pkg.from_aip193(v["aip193"])
    assert pkg.to_dict(back) == v["envelope"]
    assert back == env
    # Bytes read as text.
    assert pkg.from_aip193(v["aip193"].encode("utf-8")) == env


@pytest.mark.parametrize("v", vectors.get("aip193_decode", []), ids=ids(vectors.get("aip193_decode", []), lambda v: v["name"]))
def test_decode(v: Any) -> None:
    if v["envelope"] is None:
        with pytest.raises(pkg.EnvelopeError) as err:
            pkg.from_aip193(v["aip193"])
        if "category" in v:
            # The error the envelope decoder gives for the same problem.
            assert (err.value.path, err.value.category) == (v["path"], v["category"])
        return
    env = caller_sets(pkg.from_aip193(v["aip193"]), v["envelope"])
    assert pkg.to_dict(env) == v["envelope"]
    # Whatever a reader returns can be written again, as an AIP-193 error too.
    pkg.to_aip193(env)


def test_extra_round_trips() -> None:
    # Beyond the vectors: entries the contract does not name come back as
    # they were, through the metadata's extra.
    env = pkg.from_dict(vectors["aip193_encode"][0]["envelope"])
    env = dataclasses.replace(env, extra={"zz_note": {"a": [1, "x\u2028"]}, "aa": True})
    text = pkg.to_aip193(env)
    meta = json.loads(text)["error"]["details"][0]["metadata"]
    assert json.loads(meta["extra"]) == {"aa": True, "zz_note": {"a": [1, "x\u2028"]}}
    assert pkg.to_dict(pkg.from_aip193(text)) == pkg.to_dict(env)


def test_long_retry_hint_is_kept_exactly() -> None:
    # A hint past a Duration's range: RetryInfo holds the maximum, the
    # metadata the hint itself, which the layout's retry leaf gets back.
    env = pkg.from_dict(vectors["aip193_encode"][0]["envelope"])
    env = dataclasses.replace(env, recovery=dataclasses.replace(env.recovery, retry_after_ms=315_576_000_000_001))
    status = json.loads(pkg.to_aip193(env))["error"]
    assert status["details"][1] == {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "315576000000s"}
    assert status["details"][0]["metadata"]["retryAfterMs"] == "315576000000001"
    if on_wire("retry_after_ms"):
        assert pkg.from_aip193(pkg.to_aip193(env)).recovery.retry_after_ms == 315_576_000_000_001


def test_metadata_cannot_add_members() -> None:
    # A metadata value that is JSON is one JSON value: one that would add
    # members makes the error a foreign one, read by its reason.
    if not isinstance(pkg.CONTRACT_VERSION, int):
        pytest.skip("the contract version is text, which the metadata carries as it is")
    v = vectors["aip193_encode"][0]
    doc = json.loads(v["aip193"])
    doc["error"]["details"][0]["metadata"]["contractVersion"] = '1,"smuggled":"x"'
    env = pkg.from_aip193(json.dumps(doc))
    assert env.kind == pkg.from_aip193(v["aip193"]).kind
    assert env.message.startswith("HTTP "), "read as a foreign error"
    assert "smuggled" not in env.extra
