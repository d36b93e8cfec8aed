"""The sanitizer (docs/sanitizer.md).

The hand-curated vectors every language runs, the differential vectors of
`make sanitize-diff` (seeded random inputs with the Go package's outputs),
the policy, the constructors' sanitization and its opt-out, and a smoke run
of the benchmarks.
"""

import dataclasses
import importlib
import importlib.util
import json
import os
import re
from typing import Any, Dict, List, Optional

import pytest

from env import build, constructors, context_args, context_params, new_env, pkg, root

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
#: REFERENCE is true for the package of the repository's own contract (gen/python), whose policy is errgen's default.
REFERENCE = os.path.abspath(root) == REPO

#: contract is the package's data module: the markers and secrets of the policy are not exported.
contract = importlib.import_module(pkg.__name__ + "._contract")

#: DEFAULT_MARKERS is errgen's default marker list (docs/sanitizer.md).
DEFAULT_MARKERS = ("<system>", "</system>", "[INST]", "[/INST]", "###", "<<", "<|im_start|>", "<|im_end|>", "<|system|>",
                   "<|user|>", "<|assistant|>", "<|endoftext|>", "<|eot_id|>", "<|start_header_id|>", "<|end_header_id|>")

#: DEFAULT_CREDENTIAL_NAMES is errgen's list of credential names (docs/sanitizer.md, shape 9), which the vector files assume.
DEFAULT_CREDENTIAL_NAMES = (".ssh", ".gnupg", ".aws", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk",
                            ".netrc", "_netrc", ".pgpass", ".git-credentials", ".npmrc", ".pypirc", ".vault-token", ".kube/config",
                            ".docker/config.json")

_SURROGATE = re.compile("[\ud800-\udfff]")


def text(t: Any) -> str:
    """text decodes a vector's TEXT.

    A string (json.loads keeps a lone surrogate escape as a lone surrogate);
    {repeat, times}; {hex}, raw bytes; or a list of these, concatenated. A
    text holding bytes is put together as bytes, as Go does, and decoded as
    UTF-8 with U+FFFD replacement, as the specification says; its strings
    are UTF-8 there, a lone surrogate read as U+FFFD like Go's JSON decoder.
    """
    parts: List[Any] = []

    def walk(t: Any) -> None:
        if isinstance(t, str):
            parts.append(t)
        elif isinstance(t, list):
            for x in t:
                walk(x)
        elif isinstance(t, dict) and set(t) == {"repeat", "times"} and isinstance(t["times"], int) and t["times"] >= 1:
            parts.append(t["repeat"] * t["times"])
        elif isinstance(t, dict) and set(t) == {"hex"}:
            parts.append(bytes.fromhex(t["hex"]))
        else:
            raise ValueError(f"a text is a string, {{repeat, times}}, {{hex}} or a list of them, found {json.dumps(t)[:200]}")

    walk(t)
    if not any(isinstance(p, bytes) for p in parts):
        return "".join(parts)
    return b"".join(p if isinstance(p, bytes) else _SURROGATE.sub("\ufffd", p).encode("utf-8") for p in parts).decode("utf-8", "replace")


def short(s: str) -> str:
    """short JSON-escapes s, eliding the middle of a long one."""
    if len(s) <= 400:
        return json.dumps(s)
    return f"{json.dumps(s[:180])} … ({len(s)} code points) … {json.dumps(s[-180:])}"


def same_policy(policy: Dict[str, Any]) -> bool:
    """same_policy reports whether the package's policy is the one a vector file states (and errgen's default markers, no contract secrets and errgen's path rules, which the files assume)."""
    return (pkg.SANITIZE_MAX_LENGTH == policy["max_length"] and pkg.SANITIZE_TRUNCATION_MARKER == policy["truncation_marker"]
            and tuple(contract.SANITIZE_MARKERS) == DEFAULT_MARKERS and len(contract.SANITIZE_SECRETS) == 0
            and contract.SANITIZE_PATHS is True and tuple(contract.SANITIZE_CREDENTIAL_NAMES) == DEFAULT_CREDENTIAL_NAMES)


def check(c: Dict[str, Any], policy: Dict[str, Any]) -> str:
    """check runs one case: the output, and that the output sanitizes to itself. It returns a failure message or ""."""
    limit = c.get("max_length", policy["max_length"])
    given, want = text(c["input"]), text(c["output"])
    got = pkg.sanitize_max(given, limit)
    at = f" (max_length {c['max_length']})" if "max_length" in c else ""
    if got != want:
        return f"case {json.dumps(c['name'])}{at}:\ninput  {short(given)}\ngot    {short(got)}\nwant   {short(want)}"
    again = pkg.sanitize_max(got, limit)
    if again != got:
        return f"case {json.dumps(c['name'])}{at}: not a fixpoint:\nonce   {short(got)}\ntwice  {short(again)}"
    return ""


with open(os.path.join(REPO, "conformance", "sanitizer.vectors.json"), encoding="utf-8") as _f:
    VECTORS: Dict[str, Any] = json.load(_f)

CASES = VECTORS["cases"] if same_policy(VECTORS["policy"]) else []


@pytest.mark.skipif(not CASES, reason=f"{pkg.CONTRACT_NAME} has its own sanitize policy; the hand-curated vectors assume errgen's default")
@pytest.mark.parametrize("c", CASES, ids=[c["name"] for c in CASES])
def test_vector(c: Dict[str, Any]) -> None:
    failure = check(c, VECTORS["policy"])
    assert failure == "", failure


@pytest.mark.skipif(not REFERENCE, reason="run through the reference contract's package only")
def test_differential_vectors() -> None:
    path = os.environ.get("ERRGEN_SANITIZE_DIFF", "")
    assert path, "ERRGEN_SANITIZE_DIFF is not set: run make sanitize-diff, then make test-python (or set it to build/sanitize-diff.vectors.json)"
    assert os.path.exists(path), f"{path} is missing: run make sanitize-diff"
    with open(path, encoding="utf-8") as f:
        diff = json.load(f)
    assert same_policy(diff["policy"]), f"the differential vectors assume {diff['policy']}; {pkg.CONTRACT_NAME} has {pkg.SANITIZE_MAX_LENGTH} and {pkg.SANITIZE_TRUNCATION_MARKER!r}"
    # The three sanitizers are held to agree on at least this many random inputs.
    min_cases = 10000
    assert len(diff["cases"]) >= min_cases, f"{path} holds {len(diff['cases'])} cases, fewer than {min_cases}: run make sanitize-diff"
    passed = 0
    for c in diff["cases"]:
        failure = check(c, diff["policy"])
        if failure:
            pytest.fail(f"first mismatch after {passed} of {len(diff['cases'])} cases passed, {failure}", pytrace=False)
        passed += 1
    # run.py prints this line: pytest keeps the output of passing tests to itself.
    with open(os.path.join(build, "sanitize-diff.txt"), "w", encoding="utf-8") as f:
        f.write(f"sanitizer differential vectors: {passed} of {len(diff['cases'])} cases passed ({path})\n")


# --- the policy ---------------------------------------------------------------


def test_policy_is_exported() -> None:
    assert isinstance(pkg.SANITIZE_MAX_LENGTH, int)
    assert isinstance(pkg.SANITIZE_TRUNCATION_MARKER, str)
    assert isinstance(pkg.SANITIZED_FIELDS, tuple) and all(isinstance(f, str) for f in pkg.SANITIZED_FIELDS)
    for name in ("sanitize", "sanitize_max", "with_fields", "SANITIZE_MAX_LENGTH", "SANITIZE_TRUNCATION_MARKER", "SANITIZED_FIELDS"):
        assert name in pkg.__all__


def test_clean_text_is_the_same_object() -> None:
    for s in ["", "plain", "status: 500, code=7, key=value, https://user@example.com/x", "Grüße 🚀\n\tok", "x" * (pkg.SANITIZE_MAX_LENGTH - 1) + "\n"]:
        s = "".join(list(s))  # a fresh object, not an interned literal
        assert pkg.sanitize(s) is s


def test_lone_surrogates_become_replacement_characters() -> None:
    assert pkg.sanitize("a\ud800b\udfffc") == "a\ufffdb\ufffdc"
    assert pkg.sanitize("\ufffd") == "\ufffd"


def test_ascii_case_only() -> None:
    # Only A-Z fold: the Kelvin sign (U+212A) lowers to k in Unicode but is no ASCII letter.
    assert pkg.sanitize("\u212aey: x") == "\u212aey: x"
    if "<system>" in contract.SANITIZE_MARKERS:
        assert pkg.sanitize("<SyStEm>") == ""
        assert pkg.sanitize("<\u017fystem>") == "<\u017fystem>"  # long s, which Unicode folds to s


def test_maximum_marker_and_window() -> None:
    long = "ab🚀" * pkg.SANITIZE_MAX_LENGTH
    out = pkg.sanitize(long)
    assert len(out) == pkg.SANITIZE_MAX_LENGTH
    assert out.endswith(pkg.SANITIZE_TRUNCATION_MARKER)
    assert pkg.sanitize(out) == out
    # A maximum below the marker plus one character is raised to that.
    least = len(pkg.SANITIZE_TRUNCATION_MARKER) + 1
    for limit in (0, -5, 1):
        assert len(pkg.sanitize_max(long, limit)) == least, f"sanitize_max(…, {limit})"
    # Text beyond the window is never read, and counts as cut off.
    huge = "x" * (4 * pkg.SANITIZE_MAX_LENGTH) + "\x00" * 100
    assert pkg.sanitize(huge).endswith(pkg.SANITIZE_TRUNCATION_MARKER)


def test_markers_are_removed_nested_ones_included() -> None:
    for m in contract.SANITIZE_MARKERS:
        half = len(m) // 2
        nested = m[:half] + m + m[half:]
        assert pkg.sanitize(f"a {m} b") == "a  b", f"marker {m!r}"
        assert m.lower() not in pkg.sanitize(f"x {nested} y").lower(), f"nested marker {m!r}"


def test_contract_secrets_are_redacted() -> None:
    sample = {"alnum": "a", "upper_alnum": "A", "lower_alnum": "a", "hex": "f", "base64url": "a", "base64": "a", "word": "a", "token": "a"}
    for prefixes, chars, least in contract.SANITIZE_SECRETS:
        for p in prefixes:
            assert pkg.sanitize(f"key {p}{sample[chars] * least} end") == "key [REDACTED] end", p
            below = p + sample[chars] * (least - 1)
            assert below in pkg.sanitize(f"key {below} end"), f"{p} below the minimum length is kept"


def test_credential_paths_and_home_directories() -> None:
    home = "open /home/alice/x.go: failed"
    if not contract.SANITIZE_PATHS:
        assert contract.SANITIZE_CREDENTIAL_NAMES == ()
        assert pkg.sanitize(home) == home
        return
    assert tuple(contract.SANITIZE_CREDENTIAL_NAMES[:len(DEFAULT_CREDENTIAL_NAMES)]) == DEFAULT_CREDENTIAL_NAMES, "errgen's names come first"
    assert pkg.sanitize(home) == "open /home/[REDACTED]/x.go: failed"
    for name in contract.SANITIZE_CREDENTIAL_NAMES:
        for sep in ("/", "\\"):
            path = "~" + sep + name.replace("/", sep)
            assert pkg.sanitize(f"open {path}: failed") == "open [REDACTED]: failed", path
            assert pkg.sanitize(f"open {path}x: failed") == f"open {path}x: failed", f"{path}x is another name"


# --- the fast paths against the specification's scan -------------------------
#
# Steps 2 and 3 find their work with regular expressions and take whole runs
# at once (docs/sanitizer.md, "The Python port's fast paths").
# These tests hold them to the steps as the specification words them, on
# seeded random text dense in what the package's own policy reacts to: step 2
# against the character-by-character algorithm the package keeps for markers
# of which one holds another, and step 3 against a scan that tries every
# position with the same shape checks.

sanitize_module = importlib.import_module(pkg.__name__ + "._sanitize")


def _pieces() -> List[str]:
    """_pieces are what the random texts are made of: the policy's markers, their halves, its secret prefixes, credential names and home prefixes, keys, separators, gaps and values, and characters of every kind."""
    out = ["", " ", "  ", "\t", "\n", " é", "\n\t日", ":", "=", "\"", "'", "\\", "@", "/", ".", "..", "-", "_", ",", "&", "?", "#", "[", "x", "ab", "Z9", "é", "日本", "😀", "\ufffd"]
    for m in contract.SANITIZE_MARKERS:
        out += [m, m.upper(), m[: len(m) // 2], m[len(m) // 2:], m[0], m[-1]]
    prefixes = ["sk-", "ghp_", "github_pat_", "xoxb-", "tskey-", "AKIA", "AIza", "npm_", "sk_live_", "eyJ", "eyJhbGciOiJIUzI1NiJ9.", "Bearer ", "bearer\t"]
    prefixes += [p for ps, _, _ in contract.SANITIZE_SECRETS for p in ps]
    out += prefixes + [p + "abcdefghij0123456789" for p in prefixes] + ["abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ", "-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----"]
    out += ["password", "pwd", "PASS", "token", "api_key", "sort_key", "x.sort_key", "code", "?code", "&sig", "Authorization", "cookie", "secret"]
    out += ["://", "https://", "u:p@", "user:pw@", "/home/", "/Users/", "C:", "\\Users\\", "\\\\Users\\\\", "file:///", "alice", "~/"]
    out += list(contract.SANITIZE_CREDENTIAL_NAMES) + [".pem", ".key", ".p12", "x.pem", "id_rsa.pub"]
    return out


def _texts(seed: int, count: int) -> List[str]:
    import random

    rng = random.Random(seed)
    pieces = _pieces()
    texts = []
    for _ in range(count):
        if rng.random() < 0.3:
            # A short run repeated: the dense texts the runs-at-once paths take.
            unit = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 4)))
            texts.append(unit * rng.randint(2, 40))
        else:
            texts.append("".join(rng.choice(pieces) for _ in range(rng.randint(0, 60))))
    return texts


def _scan_every_position(s: str) -> str:
    """_scan_every_position is step 3 as docs/sanitizer.md words it: every position is tried, in order, with the shapes of _Redactor.match."""
    z = sanitize_module
    r = z._Redactor(s)
    p, n = 0, len(s)
    while p < n:
        span = r.match(p)
        if span is None:
            p += 1
            continue
        a, b = span
        if r.out is None:
            r.out = [s[:a], "[REDACTED]"]
        else:
            r.out += (s[r.flushed:a], "[REDACTED]")
        r.flushed = p = b
    return s if r.out is None else "".join(r.out) + s[r.flushed:]


def test_markers_as_the_specification_appends_characters() -> None:
    z = sanitize_module
    for s in _texts(2101, 3000):
        s = z._clean(s)
        want = z._remove_markers_general(s) if z._MARKER_ENDS is not None else s
        assert z._remove_markers(s) == want, repr(s)
        t = z._MT
        first = t.run.search(s) if t is not None else None
        if t is not None and first is not None:
            assert z._remove_markers_exact(s, t, first) == want, repr(s)
            if z._confluent(s, t):
                assert z._remove_markers_passes(s, t) == want, repr(s)


def test_nested_markers_repeated_are_removed_at_once(monkeypatch: Any) -> None:
    """Markers nested across a deletion (<###<system>), repeated, are read by the automaton a few times, not once per copy (issue 33: the crafted worst case): a step from a zero state to a zero state that the text then repeats is appended once per copy (_marker_copies). The output is the character-by-character algorithm's."""
    z = sanitize_module
    t = z._MT
    assert t is not None
    piece = "<###<system>" if tuple(contract.SANITIZE_MARKERS) == DEFAULT_MARKERS else z._MARKERS[0][:1] + z._MARKERS[0] + z._MARKERS[0][1:]
    for k in (3, 40, 300):
        s = piece * k + "x"
        calls: List[int] = []
        search = t.run.search

        class Run:
            def search(self, text: str, pos: int = 0) -> Any:
                calls.append(pos)
                return search(text, pos)

        monkeypatch.setattr(t, "run", Run())
        got = z._remove_markers(s)
        monkeypatch.undo()
        assert got == z._remove_markers_general(s), (k, got[:80])
        if piece == "<###<system>" and k == 300:
            assert got == "system>" * 300 + "x"
            # (The first steps run one by one, until they prove dense.)
            assert len(calls) <= 40, len(calls)


def test_redaction_as_the_specification_scans() -> None:
    z = sanitize_module
    for s in _texts(2102, 3000):
        s = z._remove_markers(z._clean(s))
        assert z._redact(s) == _scan_every_position(s), repr(s)


def test_quoted_keys_take_the_search_span(monkeypatch: Any) -> None:
    """A sensitive key in quotes before its separator ("auth": in JSON) is redacted with the span the candidate search captured, as a key without quotes is, not through the backward scan of _Redactor.separator (issue 33: text dense with secrets); a key whose end the last redaction may have cut, or a _key that may be harmless, still goes there."""
    z = sanitize_module
    calls: List[int] = []
    separator = z._Redactor.separator

    def spy(self: Any, p: int) -> Any:
        calls.append(p)
        return separator(self, p)

    monkeypatch.setattr(z._Redactor, "separator", spy)
    fast = '{"auth":"abc1","t":"x"}\n{"password": "hunter2"}\n{\'api_token\':\'v2\'} \\"session\\":9;Secret :z'
    want = '{"auth":"[REDACTED]","t":"x"}\n{"password": "[REDACTED]"}\n{\'api_token\':\'[REDACTED]\'} \\"session\\":[REDACTED];Secret :[REDACTED]'
    assert z._redact(fast) == want
    assert calls == [fast.index('\\":9') + 2], calls  # only the gap of two, an escaped quote
    calls.clear()
    slow = '{"sort_key":"a","x":"ghp_' + "a" * 36 + '-token":"v"}'
    got = z._redact(slow)
    assert calls == [slow.index('":"a') + 1, slow.index('":"v') + 1], calls
    assert got == _scan_every_position(slow) and want == _scan_every_position(fast)


#: RUN_PIECES are pieces that, repeated, make runs of one redaction each (issue 33's crafted worst cases): assignments, and (PATH_PIECES) homes that each end their path and credential paths after punctuation.
ASSIGN_PIECES = ("pwd=x ", 'pwd"=', "\\_key=", " api_token: 'v1'")
PATH_PIECES = ("/Users/pwd:", "key:..", ".ssh?", " id_rsa")
RUN_PIECES = ASSIGN_PIECES + PATH_PIECES


def _spy_shapes(monkeypatch: Any) -> Dict[str, int]:
    """_spy_shapes counts the places the candidate search reports and the calls of the Python shape checks (_Redactor.match and .separator), and the units _copies redacts at once."""
    z = sanitize_module
    counts = {"python": 0, "copies": 0}
    match, separator, copies = z._Redactor.match, z._Redactor.separator, getattr(z, "_copies", None)

    def spy_match(self: Any, p: int) -> Any:
        counts["python"] += 1
        return match(self, p)

    def spy_separator(self: Any, p: int) -> Any:
        counts["python"] += 1
        return separator(self, p)

    def spy_copies(r: Any, pattern: Any, b: int) -> int:
        e: int = copies(r, pattern, b)  # type: ignore[misc]
        if e > b:
            counts["copies"] += (e - b) // (pattern.match(r.s, b).end(1) - b)
        return e

    class Search:
        """Search counts the places the candidate search reports."""

        def __init__(self, pattern: Any) -> None:
            self.pattern = pattern

        def search(self, *args: Any) -> Any:
            counts["python"] += 1
            return self.pattern.search(*args)

        def finditer(self, *args: Any) -> Any:
            for m in self.pattern.finditer(*args):
                counts["python"] += 1
                yield m

    monkeypatch.setattr(z, "_CANDIDATES", Search(z._CANDIDATES))
    monkeypatch.setattr(z, "_CANDIDATES_NO_JWT", Search(z._CANDIDATES_NO_JWT))
    monkeypatch.setattr(z._Redactor, "match", spy_match)
    monkeypatch.setattr(z._Redactor, "separator", spy_separator)
    monkeypatch.setattr(z, "_copies", spy_copies, raising=False)
    return counts


def test_runs_of_one_unit_are_redacted_at_once(monkeypatch: Any) -> None:
    """A run of one redaction repeated (pwd=x pwd=x …, /Users/a:/Users/a:…, .ssh?.ssh?…) costs a few Python shape checks, not one or more per redaction (issue 33: the crafted worst cases): after three, a continuation pattern reads the run and the exact copies of its first unit are redacted at once (_copies). The output is the scan's."""
    z = sanitize_module
    pieces = ASSIGN_PIECES + (PATH_PIECES if z.SANITIZE_PATHS else ())
    for piece in pieces:
        s = piece * 300
        want = _scan_every_position(s)
        counts = _spy_shapes(monkeypatch)
        got = z._redact(s)
        monkeypatch.undo()
        assert got == want, piece
        assert want.count("[REDACTED]") >= 140, piece
        assert counts["python"] <= 16, (piece, counts)
        assert counts["copies"] >= 100, (piece, counts)


def test_long_gaps_without_a_key_are_no_candidates(monkeypatch: Any) -> None:
    """A separator after six or more spaces, tabs or quotes with neither a key character nor one of those before them is no candidate: the backward scan would find no key (issue 33: the crafted '      :' tried every separator in Python)."""
    z = sanitize_module
    counts = _spy_shapes(monkeypatch)
    s = "      :" * 200 + " \t\"'  =" * 100
    assert z._redact(s) == s
    assert counts["python"] == 1, counts  # the search, which finds no place
    monkeypatch.undo()
    near = "pwd      :v " + "x\t\t\t\t\t\t=v " + "'      :'"
    assert z._redact(near) == _scan_every_position(near) == "pwd      :[REDACTED] x\t\t\t\t\t\t=v '      :'"


def test_runs_with_a_unit_changed_scan_as_the_specification() -> None:
    """Runs of one repeated unit (the continuations and _copies) with another piece put in, near their end or inside: the output is the scan's, wherever the change falls within the units _copies takes on trust."""
    import random

    z = sanitize_module
    rng = random.Random(3303)
    pieces = _pieces()
    units = list(RUN_PIECES) + [" sort_key=1 ", "&pass=q", " x_key=v", " ~/.aws/credentials", ";/home/x", " x.key\\", " pwd = v"]
    for _ in range(60):
        unit = rng.choice(units)
        k = rng.randint(20, 120)
        parts = [unit] * k
        for _ in range(rng.randint(1, 2)):
            parts[rng.choice([rng.randrange(k), k - 1 - rng.randrange(min(k, 25))])] = rng.choice(pieces + [unit[:-1], unit + unit[0]])
        s = z._remove_markers(z._clean("".join(parts)))
        assert z._redact(s) == _scan_every_position(s), repr(s)


def test_authorization_scheme_in_one_match(monkeypatch: Any) -> None:
    """The scheme and credentials after an authorization key are read by one match (_SCHEME_VALUE) where the candidate search found the key, not by _scheme_end's four (issue 33: text dense with secrets); the span is the scan's."""
    z = sanitize_module
    calls: List[int] = []
    scheme_end = z._scheme_end

    def spy(s: str, v: int, e: int) -> int:
        calls.append(v)
        return scheme_end(s, v, e)

    cases = (("Authorization: Bearer abc.def-1 next", "Authorization: [REDACTED] next"),
             ("authorization=Basic\tdXNlcg== x", "authorization=[REDACTED] x"),
             ("AUTHORIZATION: Bearer, x", "AUTHORIZATION: [REDACTED], x"),
             ("authorization: Bearer.x y", "authorization: [REDACTED] y"),
             ('authorization: Bearer "q"', 'authorization: [REDACTED] "q"'))
    monkeypatch.setattr(z, "_scheme_end", spy)
    for s, want in cases:
        assert z._redact(s) == want, s
    assert calls == []
    monkeypatch.undo()
    for s, want in cases:
        assert _scan_every_position(s) == want, s


# --- constructors -----------------------------------------------------------

#: DIRTY is text every policy changes: a zero-width space is always deleted.
DIRTY = "upstream said\u200b: password=hunter2 \x07done"
SANITIZES_MESSAGE = "message" in pkg.SANITIZED_FIELDS
KIND = pkg.KNOWN_KINDS[0]


def sample_value(spec: Optional[Dict[str, Any]]) -> Any:
    """sample_value is a dirty value for a text field: a string, a tuple of strings, or an object whose strings are dirty (nested ones included); None for a field that holds no text."""
    if spec is None:
        return None
    if spec["type"] == "string":
        return DIRTY
    if spec["type"] == "array" and spec["items"] == "string":
        return (DIRTY, "clean")
    if spec["type"] == "object":
        if spec["cls"] is not None:
            cls = getattr(pkg, spec["cls"])
            members = {p["member"]: sample_value(p) for p in spec["properties"]}
            if all(v is None for v in members.values()):
                return None
            for p in spec["properties"]:
                if members[p["member"]] is None and p["type"] in ("integer", "number", "boolean") and p["required"]:
                    members[p["member"]] = {"integer": 1, "number": 1.5, "boolean": True}[p["type"]]
            return cls(**members)
        return {"note": DIRTY, "nested": {"list": [DIRTY, 7, True, None]}, "n": 1}
    return None


def plain_value(spec: Dict[str, Any]) -> Any:
    """plain_value is a clean value of a field's type."""
    scalar = {"string": "x", "integer": 1, "number": 1.5, "boolean": True}
    if spec["type"] == "array":
        return (scalar.get(spec["items"], "x"),)
    if spec["type"] == "object":
        return sample_value(spec) if spec["cls"] is not None else {}
    return scalar[spec["type"]]


def sanitized(v: Any) -> Any:
    """sanitized is v with every string sanitized."""
    if isinstance(v, str):
        return pkg.sanitize(v)
    if isinstance(v, tuple):
        return tuple(sanitized(x) for x in v)
    if isinstance(v, list):
        return [sanitized(x) for x in v]
    if isinstance(v, dict):
        return {k: sanitized(x) for k, x in v.items()}
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return dataclasses.replace(v, **{f.name: sanitized(getattr(v, f.name)) for f in dataclasses.fields(v)})
    return v


def test_new_envelope_sanitizes_unless_trusted() -> None:
    assert pkg.sanitize(DIRTY) != DIRTY
    want = pkg.sanitize(DIRTY) if SANITIZES_MESSAGE else DIRTY
    assert new_env(KIND, DIRTY).message == want
    assert new_env(KIND, DIRTY, trusted=False).message == want
    assert new_env(KIND, DIRTY, trusted=True).message == DIRTY
    assert new_env("kind_nobody_defined", DIRTY).message == want
    # The contract's guidance is the contract's own text, kept as written
    # (where the layout lets constructors fill it in at all).
    assert new_env(KIND, DIRTY).recovery.guidance == (pkg.lookup(KIND).guidance if pkg.FILLS_GUIDANCE else "")


def test_per_kind_constructors_sanitize_the_message_unless_trusted() -> None:
    for kind, (fn, params) in constructors().items():
        args = [plain_value(pkg.FIELDS[p]) for p in params]
        env = fn(DIRTY, *args)
        assert env.kind == kind
        assert env.message == (pkg.sanitize(DIRTY) if SANITIZES_MESSAGE else DIRTY), fn.__name__
        assert fn(DIRTY, *args, trusted=True).message == DIRTY, f"{fn.__name__} with trusted=True"


def test_per_kind_constructors_sanitize_listed_required_fields() -> None:
    for _, (fn, params) in constructors().items():
        for i, p in enumerate(params):
            spec = pkg.FIELDS.get(p)
            value = sample_value(spec)
            if value is None:
                continue
            args = [value if j == i else plain_value(pkg.FIELDS[q]) for j, q in enumerate(params)]
            listed = spec["name"] in pkg.SANITIZED_FIELDS
            assert getattr(fn("m", *args), p) == (sanitized(value) if listed else value), f"{fn.__name__}: {p}"
            assert getattr(fn("m", *args, trusted=True), p) == value, f"{fn.__name__}: {p} trusted"


def test_with_fields_sanitizes_listed_fields() -> None:
    env = new_env(KIND, "m")
    for attr, spec in pkg.FIELDS.items():
        value = sample_value(spec)
        if value is None:
            continue
        snapshot = repr(value)
        listed = spec["name"] in pkg.SANITIZED_FIELDS
        got = pkg.with_fields(env, **{attr: value})
        assert getattr(got, attr) == (sanitized(value) if listed else value), f"{spec['name']} (sanitized: {listed})"
        assert getattr(pkg.with_fields(env, trusted=True, **{attr: value}), attr) == value, f"{spec['name']} trusted"
        assert repr(value) == snapshot, f"{spec['name']}: the caller's value is not modified"
        if attr in context_params:
            # The layout requires it: it is set, and cannot be cleared.
            assert getattr(env, attr) == context_args[context_params.index(attr)], "the envelope given is not modified"
            with pytest.raises(TypeError):
                pkg.with_fields(got, **{attr: None})
            continue
        assert getattr(env, attr) is None, "the envelope given is not modified"
        assert getattr(pkg.with_fields(got, **{attr: None}), attr) is None, "None clears a field"


def test_with_fields_sets_the_guidance() -> None:
    env = new_env(KIND, "m")
    got = pkg.with_fields(env, guidance=DIRTY)
    assert got.recovery.guidance == (pkg.sanitize(DIRTY) if "guidance" in pkg.SANITIZED_FIELDS else DIRTY)
    assert pkg.with_fields(env, guidance=DIRTY, trusted=True).recovery.guidance == DIRTY
    assert env.recovery.guidance == (pkg.lookup(KIND).guidance if pkg.FILLS_GUIDANCE else ""), "the envelope given is not modified"
    assert pkg.with_fields(env, guidance=None).recovery.guidance == env.recovery.guidance


def test_with_fields_rejects_what_is_not_a_field() -> None:
    env = new_env(KIND, "m")
    for bad in ({"message": "x"}, {"field_nobody_defined": "x"}, {"guidance": 42}):
        with pytest.raises(TypeError):
            pkg.with_fields(env, **bad)


def test_replace_never_sanitizes() -> None:
    env = dataclasses.replace(new_env(KIND, "m"), message=DIRTY)
    assert env.message == DIRTY


def test_decoding_sanitizes_every_text() -> None:
    # The same values, set trusted (what an upstream sends): every reader
    # returns each text sanitized, listed in SANITIZED_FIELDS or not, as a
    # constructor sanitizes a listed one; raw=True returns them as sent.
    filled = {attr: v for attr, v in ((a, sample_value(s)) for a, s in pkg.FIELDS.items()) if v is not None}
    env = pkg.with_fields(new_env(KIND, DIRTY, trusted=True), trusted=True, **filled)
    built = pkg.with_fields(new_env(KIND, DIRTY), **filled)
    env = dataclasses.replace(env, extra={"x_note": DIRTY, "x_obj": {"list": ["a", {"text": DIRTY}]}})
    text = pkg.to_json(env)
    back = pkg.from_json(text)
    assert back.message == pkg.sanitize(DIRTY)
    assert back.extra == {"x_note": pkg.sanitize(DIRTY), "x_obj": {"list": ["a", {"text": pkg.sanitize(DIRTY)}]}}
    raw = pkg.from_json(text, raw=True)
    assert raw.message == DIRTY
    assert raw.extra == env.extra
    for attr in filled:
        assert getattr(back, attr) == importlib.import_module(pkg.__name__ + "._sanitize").sanitize_value(getattr(env, attr)), attr
        if pkg.FIELDS[attr]["name"] in pkg.SANITIZED_FIELDS:
            assert getattr(built, attr) == getattr(back, attr), attr
        assert getattr(raw, attr) == getattr(env, attr), attr


# --- benchmarks -------------------------------------------------------------


@pytest.mark.skipif(not REFERENCE, reason="the benchmarks read the reference contract's envelope")
def test_benchmarks_smoke() -> None:
    spec = importlib.util.spec_from_file_location("errgen_bench", os.path.join(HERE, "..", "bench.py"))
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    lines = bench.run(pkg, smoke=True)
    pydantic = ("PydanticValidateJSON", "PydanticDumpJSON") if bench.pydantic_model() is not None else ()
    labby = [p + n for n in ("Clean4KiB", "Dirty4KiB", "NonASCII4KiB", "URLs4KiB", "Dense4KiB") for p in ("Sanitize", "Labby") if p + n not in ("SanitizeClean4KiB", "SanitizeDirty4KiB")]
    assert [line.split()[0] for line in lines] == [f"BenchmarkPython/{n}" for n in
                                                   ("JSONLoads", "ParseLookup", "FromJSON", "JSONDumps", "ToJSON", *pydantic,
                                                    "JSONLoadsClean4KiB", "JSONLoadsDirty4KiB", "SanitizeClean4KiB", "SanitizeDirty4KiB", "Sanitize10MiB",
                                                    *labby, *("SanitizeCrafted/" + n for n in bench.CRAFTED))]
    # The port of labby's sanitizer does what labby's does: controls and markers deleted, secrets redacted, the length capped.
    assert bench.labby_sanitize("a\x1b[31m\u202eb <system>c Bearer abcdefgh12 sk-0123456789abcdefghijKLMN https://u:p@h/ x\ny", 4096) == (
        "a[31mb c Bearer [REDACTED] [REDACTED] https://[REDACTED]@h/ x\ny")
    assert bench.labby_sanitize("é" * 20, 4) == "éééé \u2026[truncated]"
    assert re.fullmatch(r"BenchmarkPython/X\s+10\t\s*1234 ns/op\t\s*81\.04 MB/s", bench.line("X", 10, 12340, 100))
