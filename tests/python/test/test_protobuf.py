"""AIP-193 answers through the real protobuf library (issue 29).

google.protobuf.json_format (PyPI protobuf, with google.rpc.Status,
ErrorInfo and RetryInfo from googleapis-common-protos) reads every answer of
the aip193_encode vectors into a Status with the kind's HTTP status, the
message, an ErrorInfo (the kind's reason, the contract's domain, the
metadata the answer carries) and a RetryInfo with the retry hint; and
from_aip193 reads back what json_format writes from such a Status, and what
protojson wrote (`make protojson-aip193`, ERRGEN_PROTOJSON_AIP193).

An AIP-193 answer over HTTP is {"error": {...}}: a Status (code holding the
HTTP status) plus "status", the canonical code's name, which Status does
not have; the tests take it out before json_format reads the rest, and put
it in after json_format writes.
"""

import json
import os
from typing import Any, Dict, List, Optional, Tuple

from google.protobuf import any_pb2, duration_pb2, json_format
from google.rpc import error_details_pb2, status_pb2

from env import pkg, vectors

MAX_RETRY_DELAY_MS = 315_576_000_000_000
REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def parse(text: str) -> Tuple[Any, Optional[str]]:
    """parse reads an AIP-193 answer with json_format, strictly: the Status and the status member."""
    doc = json.loads(text)
    assert list(doc) == ["error"], "an AIP-193 answer has one member, error"
    err = doc["error"]
    name = err.pop("status", None)
    st = status_pb2.Status()
    json_format.Parse(json.dumps(err), st)
    return st, name


def write(st: Any, name: str, proto_names: bool = False) -> str:
    """write writes a Status with json_format (MessageToJson's default form, indented; with the fields' proto names, retry_delay, when proto_names) as an AIP-193 answer: json_format's text with the status member put first, inside {"error": ...}."""
    text = json_format.MessageToJson(st, preserving_proto_field_name=proto_names).strip()
    assert text.startswith("{") and text != "{}"
    return '{"error": {"status": ' + json.dumps(name) + ", " + text[1:] + "}"


def want(v: Dict[str, Any]) -> Tuple[Any, str]:
    """want is the Status a vector's answer holds, built without json_format: the kind's HTTP status, code name and reason, the contract's domain, the envelope's message and retry hint (at most a Duration's longest), the metadata the answer carries."""
    env = pkg.from_dict(v["envelope"])
    kind = str(getattr(env.kind, "value", env.kind))
    meta = json.loads(v["aip193"])["error"]["details"][0]["metadata"]
    assert meta["kind"] == kind
    info = any_pb2.Any()
    info.Pack(error_details_pb2.ErrorInfo(reason=pkg.error_info_reason(kind), domain=vectors["aip193_domain"], metadata=meta))
    st = status_pb2.Status(code=pkg.http_status(kind), message=env.message, details=[info])
    ms = env.recovery.retry_after_ms
    if ms is not None and ms >= 0:
        ms = min(ms, MAX_RETRY_DELAY_MS)
        retry = any_pb2.Any()
        retry.Pack(error_details_pb2.RetryInfo(retry_delay=duration_pb2.Duration(seconds=ms // 1000, nanos=ms % 1000 * 1_000_000)))
        st.details.append(retry)
    return st, pkg.grpc_status(kind)


def unpacked(st: Any) -> List[Any]:
    out = []
    for d in st.details:
        m = error_details_pb2.ErrorInfo() if d.Is(error_details_pb2.ErrorInfo.DESCRIPTOR) else error_details_pb2.RetryInfo()
        assert d.Unpack(m), d.type_url
        out.append(m)
    return out


def test_json_format_reads_every_answer() -> None:
    wrong = []
    kinds = set()
    for v in vectors["aip193_encode"]:
        got, name = parse(v["aip193"])
        w, wname = want(v)
        if (got.code, got.message, name, unpacked(got)) != (w.code, w.message, wname, unpacked(w)):
            wrong.append(f"{v['name']}: json_format reads {got} status {name!r}, want {w} status {wname!r}")
        kinds.add(unpacked(got)[0].metadata["kind"])
    assert wrong == []
    assert set(pkg.KNOWN_KINDS) <= kinds, "an answer of every kind"


def test_json_format_reads_the_writes() -> None:
    # The other AIP-193 answers the vectors hold, the writes section's (text that is not well-formed, written as U+FFFD).
    answers = [w for w in vectors.get("writes", []) if w.get("aip193") is not None]
    assert answers, "no AIP-193 answer in the writes section"
    for w in answers:
        got, name = parse(w["aip193"])
        kind = w["envelope"]["kind"] if "kind" in w["envelope"] else str(pkg.from_dict(w["envelope"]).kind)
        info = unpacked(got)[0]
        assert (got.code, name, info.reason, info.domain, info.metadata["kind"]) == (pkg.http_status(kind), pkg.grpc_status(kind), pkg.error_info_reason(kind), vectors["aip193_domain"], kind), w["name"]


def test_json_format_written_answers_read_back() -> None:
    wrong = []
    for v in vectors["aip193_encode"]:
        st, name = want(v)
        # MessageToJson's default form, indented (protojson's compact one is
        # the next test's), with the fields' JSON names and their proto names.
        # Only RetryInfo's retry_delay has a proto name that is not its JSON name.
        for proto_names in (False, True) if len(st.details) > 1 else (False,):
            text = write(st, name, proto_names)
            got = pkg.to_dict(pkg.from_aip193(text))
            if got != v["envelope"]:
                wrong.append(f"{v['name']} (proto names {proto_names}): got {got}, want {v['envelope']} from {text}")
    assert wrong == []


def test_protojson_written_answers_read_back() -> None:
    path = os.environ.get("ERRGEN_PROTOJSON_AIP193") or os.path.join(REPO, "build", "protojson-aip193.vectors.json")
    assert os.path.exists(path), f"no {path}: run make protojson-aip193"
    with open(path, encoding="utf-8") as f:
        answers = json.load(f)["contracts"].get(pkg.CONTRACT_NAME)
    assert answers, f"{path} has no answers of {pkg.CONTRACT_NAME}"
    wrong = []
    # The compact ones: json_format's indented form, and the proto names,
    # are the previous test's.
    answers = [a for a in answers if a["name"].endswith("(protojson)")]
    assert answers
    for a in answers:
        got = pkg.to_dict(pkg.from_aip193(a["aip193"]))
        if got != a["envelope"]:
            wrong.append(f"{a['name']}: got {got}, want {a['envelope']}")
    assert wrong == []
