"""The conformance vectors of the package's contract: the answers every generated package (Go, TypeScript, Python) must give."""

import base64
import copy
import dataclasses
import json
import math
from typing import Any, List

import pytest

from env import constructors, context_args, context_params, fallback_vector, go_json, leaves, new_env, on_wire, parsed, pkg, vectors


def ids(items: Any, key: Any) -> Any:
    return [key(v) for v in items]


# --- contract ---------------------------------------------------------------


def test_name_version_retry() -> None:
    assert pkg.CONTRACT_NAME == vectors["contract"]
    assert pkg.CONTRACT_VERSION == vectors["version"]
    assert type(pkg.CONTRACT_VERSION) is type(vectors["version"])
    r = vectors["retry"]
    assert dataclasses.asdict(pkg.RETRY) == {k: r[k] for k in ("initial_ms", "max_ms", "multiplier", "jitter", "max_attempts", "max_hint_ms")}


def test_tables_are_read_only() -> None:
    with pytest.raises(TypeError):
        pkg.CLASSIFICATIONS["x"] = None
    with pytest.raises(dataclasses.FrozenInstanceError):
        pkg.CLASSIFICATIONS[pkg.KNOWN_KINDS[0]].http_status = 1
    assert isinstance(pkg.KNOWN_KINDS, tuple)


# --- lookup -----------------------------------------------------------------


def test_known_kinds_in_order() -> None:
    known = [v["kind"] for v in vectors["lookup"] if v["known"]]
    assert list(pkg.KNOWN_KINDS) == known
    assert [k.value for k in pkg.Kind] == known
    assert all(pkg.Kind(k) == k for k in known)


@pytest.mark.parametrize("v", vectors["lookup"], ids=ids(vectors["lookup"], lambda v: v["kind"]))
def test_lookup(v: Any) -> None:
    c = pkg.lookup(v["kind"])
    got = dataclasses.asdict(c)
    del got["description"]
    assert got == v
    assert pkg.is_known_kind(v["kind"]) == v["known"]
    assert pkg.LogLevel(c.log_level) == c.log_level
    if v["known"]:
        assert pkg.lookup(pkg.Kind(v["kind"])) == c, "an Enum member looks up like its string"
        if v["number"] >= 0:
            assert pkg.kind_by_number(v["number"]) == v["kind"]


def test_fallback_any_string() -> None:
    fb = fallback_vector()
    for kind in ["", "constructor", "__class__", "None", fb["kind"], "ünïcode"]:
        c = pkg.lookup(kind)
        assert c.known is False
        assert c.kind == kind
        assert c.origin == fb["origin"]
        assert c.http_status == fb["http_status"]
        assert not pkg.is_known_kind(kind)
    # lookup fills in the kind and its computed ErrorInfo reason, as every language's; the rest is the fallback's.
    assert (pkg.fallback().kind, pkg.fallback().reason) == ("", "")
    assert dataclasses.replace(pkg.fallback(), kind=fb["kind"], reason=fb["reason"]) == pkg.lookup(fb["kind"])
    assert pkg.kind_by_number(10**9) is None


# --- decode and encode ------------------------------------------------------


@pytest.mark.parametrize("v", vectors["envelopes"], ids=ids(vectors["envelopes"], lambda v: v["name"]))
def test_envelope(v: Any) -> None:
    env = parsed(v["envelope"])
    assert env.kind == v["kind"]
    assert pkg.is_known_kind(env.kind) == v["known"]
    assert pkg.is_retryable(env) == v["retryable"]
    assert pkg.http_status(env) == v["http_status"]
    # Round trip: the same members, in the same order, as the Go encoder writes them.
    wire = pkg.to_dict(env)
    assert wire == v["envelope"]
    assert json.dumps(wire) == json.dumps(v["envelope"]), "member order"
    assert env.to_json() == go_json(v["envelope"])
    again = pkg.Envelope.from_json(env.to_json())
    assert again == env
    assert pkg.from_json(env.to_json().encode("utf-8")) == env
    # Values the layout leaves off the wire come from the classification.
    c = pkg.lookup(env.kind)
    for source, value, got in [
        ("origin", c.origin, env.origin),
        ("action", c.action, env.recovery.action),
        ("same_arguments", c.same_arguments, env.recovery.same_arguments),
        ("side_effects", c.side_effects, env.side_effects),
        ("version", pkg.CONTRACT_VERSION, env.contract_version),
    ]:
        if not on_wire(source):
            assert got == value, source
    # The input is not changed by decoding.
    assert copy.deepcopy(v["envelope"]) == v["envelope"]


def test_unknown_members_kept() -> None:
    v = next(e for e in vectors["envelopes"] if e["name"] == "unknown members")
    env = parsed(v["envelope"])
    assert len(env.extra) > 0
    assert pkg.to_dict(env) == v["envelope"]


def test_extra_never_overrides() -> None:
    env = new_env(pkg.KNOWN_KINDS[0], "the message")
    kind_leaf = next(l for l in leaves() if l["source"] == "kind")
    with_extra = dataclasses.replace(env, extra={kind_leaf["path"]: "overridden", "zzz": 1})
    wire = pkg.to_dict(with_extra)
    assert pkg.from_dict(wire).kind == env.kind
    assert wire["zzz"] == 1


def test_retry_hint_spellings() -> None:
    leaf = next((l for l in leaves() if l["source"] == "retry_after_ms"), None)
    if leaf is None:
        pytest.skip("the layout does not carry a retry hint")
    base = pkg.to_dict(new_env(pkg.KNOWN_KINDS[0], "m"))
    parent = leaf["path"].split(".")[:-1]
    obj = base
    for k in parent:
        obj = obj[k]
    for alias in leaf["aliases"]:
        obj[alias] = 1500
        env = parsed(base)
        assert env.recovery.retry_after_ms == 1500
        assert env.extra == {}, "an alias does not resurface as extra"
        obj[leaf["name"]] = 700
        assert parsed(base).recovery.retry_after_ms == 700
        del obj[leaf["name"]]
        obj[alias] = -1
        with pytest.raises(pkg.EnvelopeError) as err:
            pkg.from_dict(base)
        assert err.value.path == ".".join(parent + [alias])
        assert err.value.category == "value"
        del obj[alias]


def test_received_derived_values_win() -> None:
    fb = fallback_vector()
    for leaf in [l for l in leaves() if "received" in l]:
        wire = pkg.to_dict(new_env(fb["kind"], "from a newer producer"))
        path = leaf["path"].split(".")
        o = wire
        for k in path[:-1]:
            o = o.setdefault(k, {})
        value = "SOME_GROUP" if leaf["source"] == "group" else True
        o[path[-1]] = value
        got = parsed(wire)
        assert getattr(got.received, leaf["received"]) == value
        if leaf["source"] == "retryable":
            assert pkg.is_retryable(got) is True
        if leaf["source"] == "may_have_run":
            assert pkg.work_may_have_run(got) is True
        assert pkg.to_dict(got) == wire


@pytest.mark.parametrize("v", vectors["malformed"], ids=ids(vectors["malformed"], lambda v: v["name"]))
def test_malformed(v: Any) -> None:
    assert v["category"] in ("syntax", "type", "missing", "value")
    if "text" in v or "bytes" in v:
        # Text that is not JSON at all or past a shared limit (also as UTF-8
        # bytes), or bytes that are not UTF-8 JSON.
        assert len([k for k in ("text", "bytes", "input") if k in v]) == 1, "a vector holds one of text, bytes and input"
        inputs = [v["text"], v["text"].encode("utf-8")] if "text" in v else [base64.b64decode(v["bytes"])]
        for text in inputs:
            with pytest.raises(pkg.EnvelopeError) as err0:
                pkg.from_json(text)
            assert err0.value.path == v["path"], f"{err0.value.path}: {err0.value.problem}"
            assert err0.value.category == v["category"], f"{err0.value.category}: {err0.value.problem}"
        return
    with pytest.raises(pkg.EnvelopeError) as err:
        pkg.from_dict(v["input"])
    assert err.value.path == v["path"], f"{err.value.path}: {err.value.problem}"
    assert err.value.category == v["category"], f"{err.value.category}: {err.value.problem}"
    assert isinstance(err.value.problem, str) and err.value.problem
    assert isinstance(err.value, ValueError)
    with pytest.raises(pkg.EnvelopeError) as err2:
        pkg.from_json(json.dumps(v["input"]))
    assert err2.value.path == v["path"]
    assert err2.value.category == v["category"]


@pytest.mark.parametrize("v", vectors["edges"], ids=ids(vectors["edges"], lambda v: v["name"]))
def test_edge(v: Any) -> None:
    """A document at an edge of what every decoder accepts decodes, and encodes back to the vector's envelope."""
    inputs = [v["text"], v["text"].encode("utf-8")] if "text" in v else [base64.b64decode(v["bytes"])]
    for text in inputs:
        env = pkg.from_json(text)
        assert pkg.to_dict(env) == v["envelope"]
        assert pkg.from_json(env.to_json()) == env


def test_limits_in_values() -> None:
    """from_dict applies the limits every decoder shares to a value, not only to text (issue 15: a raw RecursionError past about 500 levels in to_json, to_dict and to_mcp_tool_result)."""
    assert pkg.MAX_DEPTH == 128
    base = pkg.to_dict(new_env(pkg.KNOWN_KINDS[0], "m"))

    def nest(n: int) -> Any:
        v: Any = []
        for _ in range(n - 1):
            v = [v]
        return v

    assert parsed({**base, "x_deep": nest(pkg.MAX_DEPTH - 1)}).extra["x_deep"] == nest(pkg.MAX_DEPTH - 1)
    cyclic: Any = {}
    cyclic["self"] = cyclic
    for value in ({**base, "x_deep": nest(pkg.MAX_DEPTH)}, {**base, "x_deep": nest(5000)}, {**base, "x_cycle": cyclic},
                  {**base, "x": [math.inf]}, {**base, "x": [math.nan]}, {**base, "x": 10**400}):
        with pytest.raises(pkg.EnvelopeError) as err:
            pkg.from_dict(value)
        assert (err.value.path, err.value.category) == ("", "syntax")
    lone = {**base, "x_text": ["a\ud800b"], "x_\udc00": 1}
    got = parsed(lone)
    assert got.extra == {"x_text": ["a\ufffdb"], "x_\ufffd": 1}
    assert lone["x_text"] == ["a\ud800b"], "the input is not changed"


def test_encoders_refuse_what_no_decoder_reads() -> None:
    """to_dict, to_json and to_mcp_tool_result raise ValueError, never RecursionError, for a value no decoder reads back."""
    env = new_env(pkg.KNOWN_KINDS[0], "m")

    def nest(n: int) -> Any:
        v: Any = []
        for _ in range(n - 1):
            v = [v]
        return v

    for depth in (pkg.MAX_DEPTH, 600, 5000):
        deep = dataclasses.replace(env, extra={"x": nest(depth)})
        for encode in (pkg.to_dict, pkg.to_json, pkg.to_mcp_tool_result):
            with pytest.raises(ValueError, match="levels deep"):
                encode(deep)
    pkg.to_json(dataclasses.replace(env, extra={"x": nest(pkg.MAX_DEPTH - 1)}))
    for hint in (2**53, 2**63 - 1, 1.5):
        with pytest.raises(ValueError):
            pkg.to_dict(dataclasses.replace(env, recovery=dataclasses.replace(env.recovery, retry_after_ms=hint)))


def test_not_json() -> None:
    for text in ["{not json", "", '{"a": NaN}', "[1,"]:
        with pytest.raises(pkg.EnvelopeError) as err:
            pkg.from_json(text)
        assert err.value.path == ""
        assert err.value.category == "syntax"
    for value in [0, True, "text", [], None, 1.5]:
        with pytest.raises(pkg.EnvelopeError) as err:
            pkg.from_dict(value)
        assert err.value.path == ""
        assert err.value.category == "type"


def test_booleans_are_not_integers() -> None:
    leaf = next((l for l in leaves() if l["source"] == "retry_after_ms"), None)
    if leaf is None:
        pytest.skip("the layout does not carry a retry hint")
    wire = pkg.to_dict(new_env(pkg.KNOWN_KINDS[0], "m"))
    obj = wire
    for k in leaf["path"].split(".")[:-1]:
        obj = obj[k]
    obj[leaf["name"]] = True
    with pytest.raises(pkg.EnvelopeError) as err:
        pkg.from_dict(wire)
    assert err.value.path == leaf["path"]
    assert err.value.category == "type"


def test_number_json_cannot_carry() -> None:
    env = dataclasses.replace(new_env(pkg.KNOWN_KINDS[0], "m"), extra={"bad": math.nan})
    with pytest.raises(ValueError):
        env.to_json()
    if on_wire("retry_after_ms"):
        bad = dataclasses.replace(env, extra={}, recovery=dataclasses.replace(env.recovery, retry_after_ms=math.inf))
        with pytest.raises(ValueError):
            pkg.to_dict(bad)


def test_line_separators_escaped() -> None:
    env = new_env(pkg.KNOWN_KINDS[0], "a\u2028b\u2029c é")
    text = env.to_json()
    assert "a\\u2028b\\u2029c é" in text
    assert pkg.from_json(text).message == "a\u2028b\u2029c é"


def test_envelope_is_frozen_and_enums_normalized() -> None:
    env = new_env(pkg.Kind(pkg.KNOWN_KINDS[0]), "m")
    assert type(env.kind) is str
    with pytest.raises(dataclasses.FrozenInstanceError):
        env.message = "x"
    origin = pkg.Origin(env.origin)
    assert type(dataclasses.replace(env, origin=origin).origin) is str


# --- constructors -----------------------------------------------------------

CTORS = constructors()
CTOR_VECTORS = [e for e in vectors["envelopes"] if e["known"] and e["name"] == e["kind"]]


def test_one_constructor_per_kind() -> None:
    assert sorted(CTORS) == sorted(pkg.KNOWN_KINDS)


@pytest.mark.parametrize("v", CTOR_VECTORS, ids=ids(CTOR_VECTORS, lambda v: v["kind"]))
def test_constructor(v: Any) -> None:
    want = parsed(v["envelope"])
    fn, params = CTORS[v["kind"]]
    # The vectors carry text as received; constructors sanitize unless told it is trusted.
    env = fn(want.message, *[getattr(want, p) for p in params], trusted=True)
    assert env.kind == v["kind"]
    for p in params:
        assert getattr(env, p) is not None, f"required field {p}"
    if want.recovery.retry_after_ms is not None:
        env = dataclasses.replace(env, recovery=dataclasses.replace(env.recovery, retry_after_ms=want.recovery.retry_after_ms))
    # Every reader sanitizes the guidance it reads, so the vectors carry a
    # stand-in where the contract's own is not a text the sanitizer keeps
    # (the escaping test contract's); the constructor puts the contract's.
    if pkg.sanitize(env.recovery.guidance) != env.recovery.guidance:
        env = dataclasses.replace(env, recovery=dataclasses.replace(env.recovery, guidance=want.recovery.guidance))
    assert pkg.to_dict(env) == v["envelope"]


def test_new_envelope_any_kind() -> None:
    fb = fallback_vector()
    env = new_env(fb["kind"], "m")
    assert (env.kind, env.origin, env.recovery.action, env.recovery.same_arguments, env.recovery.guidance, env.side_effects) == (
        fb["kind"], fb["origin"], fb["action"], fb["same_arguments"], fb["guidance"] if pkg.FILLS_GUIDANCE else "", fb["side_effects"])
    assert env.contract_version == pkg.CONTRACT_VERSION


# --- context the layout requires, guidance it does not invent ---------------

REQUIRED = [l for l in leaves() if l["source"] == "field" and l["required"]]
#: SAMPLES holds each known kind's vector envelope, decoded: values for its required fields.
SAMPLES = {v["kind"]: parsed(v["envelope"]) for v in CTOR_VECTORS}
GUIDANCE = next((l for l in leaves() if l["source"] == "guidance"), None)


def test_the_contracts_own_rules() -> None:
    # ovstorage's v0.1 envelope requires operation and never invents
    # next_action; labby's flat layout requires guidance.
    want = {"ovstorage": (["operation"], False), "agent-error": ([], True), "agento": ([], True)}.get(pkg.CONTRACT_NAME)
    if want is not None:
        assert (context_params, pkg.FILLS_GUIDANCE) == want
    assert context_params == [l["field"] for l in REQUIRED]
    assert pkg.FILLS_GUIDANCE == (GUIDANCE is None or not GUIDANCE["optional"])


@pytest.mark.parametrize("leaf", REQUIRED, ids=ids(REQUIRED, lambda l: l["path"]))
def test_required_context(leaf: Any) -> None:
    kind = pkg.KNOWN_KINDS[0]
    at = context_params.index(leaf["field"])

    def args(v: Any) -> List[Any]:
        return [v if i == at else a for i, a in enumerate(context_args)]

    assert getattr(new_env(kind, "m"), leaf["field"]) == context_args[at]
    with pytest.raises(ValueError):
        pkg.new_envelope(kind, "m", *args(""))
    for bad in (None, 42):
        with pytest.raises(TypeError):
            pkg.new_envelope(kind, "m", *args(bad))
    with pytest.raises(TypeError):
        pkg.new_envelope(kind, "m")
    for k, (fn, params) in CTORS.items():
        sample = SAMPLES[k]

        def call(v: Any) -> Any:
            return fn("m", *[v if p == leaf["field"] else "op" if p in context_params else getattr(sample, p) for p in params])
        assert getattr(call("x"), leaf["field"]) == "x", k
        with pytest.raises(ValueError):
            call("")
    env = new_env(kind, "m")
    with pytest.raises(ValueError):
        pkg.with_fields(env, **{leaf["field"]: ""})
    with pytest.raises(TypeError):
        pkg.with_fields(env, **{leaf["field"]: None})
    assert getattr(pkg.with_fields(env, **{leaf["field"]: "other"}), leaf["field"]) == "other"
    # An envelope without it, or with it empty, is not encoded.
    for v in (None, ""):
        broken = dataclasses.replace(env, **{leaf["field"]: v})
        with pytest.raises(ValueError):
            pkg.to_dict(broken)
        with pytest.raises(ValueError):
            pkg.to_mcp_tool_result(broken)
    # Decoding without it is a missing error at its path; empty, a value error.
    wire = pkg.to_dict(env)
    parent = wire
    for key in leaf["path"].split(".")[:-1]:
        parent = parent[key]
    del parent[leaf["name"]]
    with pytest.raises(pkg.EnvelopeError) as missing:
        pkg.from_dict(wire)
    assert (missing.value.path, missing.value.category) == (leaf["path"], "missing")
    parent[leaf["name"]] = ""
    with pytest.raises(pkg.EnvelopeError) as empty:
        pkg.from_dict(wire)
    assert (empty.value.path, empty.value.category) == (leaf["path"], "value")


def test_guidance_is_not_invented_where_the_layout_says_so() -> None:
    for k, (fn, params) in CTORS.items():
        env = fn("m", *["op" if p in context_params else getattr(SAMPLES[k], p) for p in params])
        assert env.recovery.guidance == (pkg.lookup(k).guidance if pkg.FILLS_GUIDANCE else ""), k
        if GUIDANCE is None or pkg.FILLS_GUIDANCE:
            continue

        def value_at(w: Any) -> Any:
            for key in GUIDANCE["path"].split("."):
                if not isinstance(w, dict) or key not in w:
                    return None
                w = w[key]
            return w

        assert value_at(pkg.to_dict(env)) is None, f"{k}: guidance invented"
        # A producer's own guidance is sent as given; the decision does not depend on it.
        advised = pkg.with_fields(env, guidance=pkg.lookup(k).guidance)
        assert value_at(pkg.to_dict(advised)) == pkg.lookup(k).guidance, k
        for attempt in range(1, pkg.RETRY.max_attempts + 2):
            assert pkg.next_step(advised, attempt) == pkg.next_step(env, attempt)


# --- next_step --------------------------------------------------------------


@pytest.mark.parametrize("v", vectors["next_step"], ids=ids(vectors["next_step"], lambda v: v["name"]))
def test_next_step(v: Any) -> None:
    assert v["attempts"], "no attempts"
    env = parsed(v["envelope"])
    for a in v["attempts"]:
        d = pkg.next_step(env, a["attempt"])
        assert dataclasses.asdict(d) == {
            "step": a["step"], "delay_min_ms": a["delay_min_ms"], "delay_max_ms": a["delay_max_ms"],
            "check_state_first": a["check_state_first"], "exhausted": a["exhausted"],
        }, f"attempt {a['attempt']}"
        assert isinstance(d.step, pkg.Step)
        assert type(d.delay_min_ms) is int and type(d.delay_max_ms) is int


def test_next_step_covers_every_step() -> None:
    steps = {a["step"] for v in vectors["next_step"] for a in v["attempts"]}
    for a in pkg.RecoveryAction:
        s = pkg.ACTION_STEPS[a.value]
        if s != "retry":
            assert s in steps, f"step {s} (action {a.value})"
    assert "escalate" in steps
    assert pkg.step_of("action_nobody_defined") == pkg.Step.ESCALATE


# --- inbound classification -------------------------------------------------


def classifier_func(name: str) -> Any:
    fn = pkg.CLASSIFIERS[name]
    assert getattr(pkg, fn.__name__) is fn, "exported by name"
    return fn


def test_no_inbound() -> None:
    if pkg.INBOUND is not None:
        assert vectors["classify"] or pkg.INBOUND["classifiers"]
        return
    assert vectors["classify"] == []
    assert not hasattr(pkg, "classify")
    assert not hasattr(pkg, "CLASSIFIERS")
    assert not hasattr(pkg, "classify_tool_result")
    assert vectors["tool_result"] is None


@pytest.mark.parametrize("v", vectors["classify"], ids=ids(vectors["classify"], lambda v: f"{v['classifier']}: {v['status']} {v['failure']!r} {v['text']!r}"))
def test_classify(v: Any) -> None:
    fn = classifier_func(v["classifier"])
    got = fn(status=v["status"], failure=v["failure"], text=v["text"])
    assert dataclasses.asdict(got) == {"kind": v["kind"], "counts_toward_breaker": v["breaker"], "rule": v["rule"]}
    if v["classifier"] == pkg.INBOUND["classifiers"][0]["name"]:
        assert pkg.classify(v["status"], v["failure"], v["text"]) == got
    # Absent arguments mean the same as zero values; a Failure member as its string.
    sparse = {}
    if v["status"] != 0:
        sparse["status"] = v["status"]
    if v["failure"] != "":
        sparse["failure"] = pkg.Failure(v["failure"]) if v["failure"] in [f.value for f in pkg.Failure] else v["failure"]
    if v["text"] != "":
        sparse["text"] = v["text"]
    assert fn(**sparse) == got
    assert fn(status=v["status"] or None, failure=v["failure"] or None, text=v["text"] or None) == got


def test_classifiers_see_redirects() -> None:
    """Every classifier is checked on the redirects 301, 302, 307 and 308."""
    if pkg.INBOUND is None:
        return
    for c in pkg.INBOUND["classifiers"]:
        for status in (301, 302, 307, 308):
            assert any(v["classifier"] == c["name"] and v["status"] == status and v["failure"] == "" and v["text"] == "" for v in vectors["classify"]), f"{c['name']}: no vector for status {status}"


def test_tool_result() -> None:
    if vectors["tool_result"] is None:
        assert not hasattr(pkg, "classify_tool_result")
        return
    assert dataclasses.asdict(pkg.classify_tool_result()) == {"kind": vectors["tool_result"]["kind"], "counts_toward_breaker": vectors["tool_result"]["breaker"], "rule": 0}


def test_word_matching() -> None:
    assert pkg.ascii_lower("ÄBC-Déf") == "Äbc-déf"
    assert pkg.has_word("an oauth error", ["oauth"])
    assert not pkg.has_word("oauth2 error", ["oauth"])
    assert not pkg.has_word("x_oauth", ["oauth"])
    assert pkg.has_word("é-oauth-é", ["oauth"])
    assert pkg.has_word("oauthoauth oauth", ["oauth"])
    assert pkg.has_word("ǅoauth", ["oauth"]), "a non-ASCII letter is a boundary"


# --- for_tool ---------------------------------------------------------------


@pytest.mark.parametrize("v", vectors["for_tool"], ids=ids(vectors["for_tool"], lambda v: f"{v['same_arguments']}, read-only {v['read_only']}, idempotent {v['idempotent']}"))
def test_for_tool(v: Any) -> None:
    assert pkg.for_tool(v["same_arguments"], read_only=v["read_only"], idempotent=v["idempotent"]) == v["result"]
    env = new_env(pkg.KNOWN_KINDS[0], "m")
    env = dataclasses.replace(env, recovery=dataclasses.replace(env.recovery, same_arguments=v["same_arguments"]))
    got = pkg.with_tool_annotations(env, read_only=v["read_only"], idempotent=v["idempotent"])
    assert got.recovery.same_arguments == v["result"]
    assert env.recovery.same_arguments == v["same_arguments"], "the input is not changed"


# --- http -------------------------------------------------------------------


def test_http_vectors_exist() -> None:
    assert len(vectors["http"]) > 0


def caller_sets(env: Any, want: Any, o: Any = None) -> Any:
    """caller_sets fills in what a response cannot say but the layout requires in every envelope (ovstorage's operation), as the caller of from_http_response does before passing the envelope on: from the vector's envelope."""
    o = pkg.LAYOUT if o is None else o
    for m in o["members"]:
        if "object" in m:
            env = caller_sets(env, (want or {}).get(m["object"]["name"]), m["object"])
        elif m["leaf"].get("required") and "field" in m["leaf"]:
            attr = m["leaf"]["field"]
            attr = next((a for a, spec in pkg.FIELDS.items() if spec["name"] == attr), attr)
            if getattr(env, attr) in ("", None):
                env = dataclasses.replace(env, **{attr: (want or {}).get(m["leaf"]["name"])})
    return env


@pytest.mark.parametrize("v", vectors["http"], ids=ids(vectors["http"], lambda v: v["name"]))
def test_http(v: Any) -> None:
    body = v["body"].encode("utf-8")
    # A repeated header: (name, value) pairs, the lines in order.
    headers = list(v["headers"].items()) + [(name, value) for name, value in v["header_lines"]]
    if v["envelope"] is None:
        with pytest.raises(pkg.EnvelopeError) as err:
            pkg.from_http_response(v["status"], headers, body)
        assert err.value.category == v["error"]
        return
    env = caller_sets(pkg.from_http_response(v["status"], headers, body), v["envelope"])
    assert pkg.to_dict(env) == v["envelope"]
    mark = v["envelope"].get(pkg.PROMOTED_MEMBER, "")
    assert pkg.promoted_from(env) == mark
    # The mark survives encoding and decoding.
    assert pkg.promoted_from(pkg.from_json(pkg.to_json(env))) == mark
