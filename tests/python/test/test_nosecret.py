"""The "no secret through any path" property of issue 28, for Python.

A token of every secret shape the default policy knows
(tests/testdata/nosecret.json), padded every way the data file lists, put
in every carrier a receiver may pass on (new_envelope, with_fields of the
fields the contract lists in sanitize.fields, the envelope every reader
decodes, with the text in any field or extra member) and observed through every
output (str, repr, the exception of to_exception, logging.exception's
traceback, also of an exception raised from it, log_fields and a logging
call with log_extra, and every surface writer) never shows more than the
data file's max_run consecutive characters of its body. Trusted text
(trusted=True, plain assignment, with_fields of a field the contract does
not list) is the producer's own choice and out of scope: it is used here only to play the upstream that writes a wire form,
which a reader then decodes.

ERRGEN_NOSECRET_SEED and ERRGEN_NOSECRET_CASES override the seed and the
count (make fuzz); other contracts than the reference one run a tenth of
the cases.
"""

import dataclasses
import io
import json
import logging
import os
import random
import re
from typing import Any, Callable, Dict, List, Optional, Tuple

import pytest

from env import build, new_env, pkg

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "..", "testdata", "nosecret.json"), encoding="utf-8") as _f:
    DATA: Dict[str, Any] = json.load(_f)

MAX_RUN: int = DATA["bound"]["max_run"]
# Runs of characters any body may hold (the classes, and the ':' and '.'
# of userinfo and JSON Web Tokens) at least MAX_RUN + 1 long: only these
# parts of an output are looked up.
_CANDIDATE = re.compile("[" + re.escape("".join(sorted(set("".join(DATA["classes"].values()) + ":.")))) + "]{%d,}" % (MAX_RUN + 1))
PATH_SHAPES = ("home_dir", "credential_path")


class Token:
    def __init__(self, shape: str, text: str, body: str) -> None:
        self.shape, self.text, self.body = shape, text, body
        n = MAX_RUN + 1
        self.grams: Dict[str, int] = {}
        for i in range(len(body) - n + 1):
            self.grams.setdefault(body[i : i + n], i)


class Gen:
    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)
        self.max_len: int = pkg.SANITIZE_MAX_LENGTH
        self.window = 4 * self.max_len
        self.cut = self.max_len - len(pkg.SANITIZE_TRUNCATION_MARKER)
        paths = getattr(pkg._contract, "SANITIZE_PATHS", True)
        self.shapes = [s for s in DATA["shapes"] if paths or s["name"] not in PATH_SHAPES]
        self.paddings = sorted(DATA["paddings"])
        self.deletable = DATA["deletable"]

    def run_of(self, cls: str, n: int) -> str:
        chars = DATA["classes"][cls]
        return "".join(self.r.choice(chars) for _ in range(n))

    def token(self) -> Token:
        s = self.r.choice(self.shapes)
        n = s["min"] + self.r.randrange(s["max"] - s["min"] + 1)
        if s["class"] == "jwt":
            body = self.run_of("base64url", n) + "." + self.run_of("base64url", 4 + self.r.randrange(s["max"] - 3))
            if self.r.randrange(2) == 0:
                body += "." + self.run_of("base64url", 4 + self.r.randrange(s["max"] - 3))
        elif s["class"] == "userinfo":
            body = self.run_of("alnum", 4) + ":" + self.run_of("alnum", n - 5)
        else:
            body = self.run_of(s["class"], n)
        return Token(s["name"], s["lead"] + self.r.choice(s["prefixes"]) + body + s["tail"], body)

    def words(self, n: int) -> str:
        if n <= 0:
            return ""
        out = []
        nxt = 3 + self.r.randrange(6)
        for i in range(n):
            if i == nxt:
                out.append(" ")
                nxt = i + 3 + self.r.randrange(6)
            else:
                out.append(chr(97 + self.r.randrange(26)))
        out[-1] = " "
        return "".join(out)

    def dels(self, n: int) -> str:
        out = []
        for _ in range(max(0, n)):
            lo, hi = self.r.choice(self.deletable)
            out.append(chr(lo + self.r.randrange(hi - lo + 1)))
        return "".join(out)

    def inside(self, s: str) -> str:
        out = []
        for i, c in enumerate(s):
            if i > 0 and self.r.randrange(3) == 0:
                out.append(self.dels(1 + self.r.randrange(3)))
            out.append(c)
        return "".join(out)

    def shrink(self, n: int) -> str:
        out = []
        while n > 0:
            s = self.r.choice(DATA["shrinkers"])
            m = n
            if n > 400 and self.r.randrange(2) == 0:
                m = 200 + self.r.randrange(n - 200)
            fill = m - len(s["open"]) - len(s["close"])
            if fill < 12:
                out.append(" " * m)
                break
            out.append(s["open"] + s["fill"] * fill + s["close"])
            n -= m
        return "".join(out)

    def text(self, padding: str) -> Tuple[str, List[Token]]:
        t = self.token()
        after = " " + self.words(1 + self.r.randrange(12))
        r = self.r

        def edge() -> int:
            return r.randrange(len(t.text) + 2)

        if padding == "none":
            return self.words(r.randrange(40)) + t.text + after, [t]
        if padding == "deletable_before":
            return self.dels(r.randrange(9001)) + self.words(r.randrange(20)) + t.text + after, [t]
        if padding == "deletable_inside":
            return self.words(r.randrange(40)) + self.inside(t.text) + after, [t]
        if padding == "window_deletable":
            w = self.words(r.randrange(30))
            return self.dels(self.window - edge() - len(w)) + w + t.text + after, [t]
        if padding == "window_shrink":
            w = self.words(r.randrange(30))
            return self.shrink(self.window - edge() - len(w)) + w + t.text + after, [t]
        if padding == "truncation_edge":
            return self.words(self.cut - edge()) + t.text + after, [t]
        if padding == "shrink_truncation":
            s = self.shrink(100 + r.randrange(5000))
            return s + self.words(self.cut - edge() - r.randrange(40)) + t.text + after, [t]
        parts, toks = [], []
        for _ in range(2 + r.randrange(4)):
            s, ts = self.text(r.choice(["none", "deletable_before", "deletable_inside"]))
            parts.append(s)
            toks.extend(ts)
        return "".join(parts), toks


def run_in(out: str, tok: Token) -> Tuple[int, int]:
    """The longest run of consecutive body characters out shows, and where, when longer than MAX_RUN; (0, 0) otherwise."""
    n = MAX_RUN + 1
    best, at = 0, 0
    body = tok.body
    grams = tok.grams
    for m in _CANDIDATE.finditer(out):
        for i in range(m.start(), m.end() - n + 1):
            bi = grams.get(out[i : i + n])
            if bi is None:
                continue
            k = n
            while i + k < len(out) and bi + k < len(body) and out[i + k] == body[bi + k]:
                k += 1
            if k > best:
                best, at = k, i
    return best, at


_log = logging.getLogger("errgen.nosecret")
_log.propagate = False


def _logged(fn: Callable[[logging.Logger], None], fmt: str) -> str:
    buf = io.StringIO()
    h = logging.StreamHandler(buf)
    h.setFormatter(logging.Formatter(fmt))
    _log.addHandler(h)
    try:
        fn(_log)
    finally:
        _log.removeHandler(h)
    return buf.getvalue()


def outputs(e: Any) -> List[Tuple[str, str]]:
    out: List[Tuple[str, str]] = []

    def add(name: str, f: Callable[[], Any]) -> None:
        try:
            v = f()
        except Exception:  # a writer that refuses the envelope shows nothing
            return
        out.append((name, v if isinstance(v, str) else v.decode("utf-8", "replace") if isinstance(v, bytes) else json.dumps(v, ensure_ascii=False)))

    exc = pkg.to_exception(e)
    add("str", lambda: str(e))
    add("repr", lambda: repr(e))
    add("str(exception)", lambda: str(exc))
    add("repr(exception)", lambda: repr(exc))
    add("exception.args", lambda: repr(exc.args))

    def raise_and_log(log: logging.Logger) -> None:
        try:
            raise pkg.to_exception(e)
        except pkg.AgentError:
            log.exception("tool call failed")

    add("logging.exception", lambda: _logged(raise_and_log, "%(message)s"))

    def raise_chained_and_log(log: logging.Logger) -> None:
        try:
            try:
                raise pkg.to_exception(e)
            except pkg.AgentError as inner:
                raise RuntimeError("tool call failed") from inner
        except RuntimeError:
            log.exception("request failed")

    add("logging.exception(chained)", lambda: _logged(raise_chained_and_log, "%(message)s"))
    add("log_fields", lambda: pkg.log_fields(e))
    add("logging(log_extra)", lambda: _logged(lambda log: log.warning("tool call failed", extra=pkg.log_extra(e)), "%(message)s %(error)s"))
    add("logging(%s)", lambda: _logged(lambda log: log.warning("tool call failed: %s", e), "%(message)s"))
    add("to_json", lambda: pkg.to_json(e))
    for name, accept in (("http", None), ("http(problem)", "application/problem+json")):
        a = None
        try:
            a = pkg.to_http_response(e, accept)
        except Exception:
            pass
        if a is not None:
            out.append((name + ".body", a.body.decode("utf-8", "replace")))
            out.append((name + ".headers", repr(a.headers)))
    add("problem", lambda: pkg.to_problem_json(e, "/x"))
    add("mcp", lambda: pkg.to_mcp_tool_result(e))
    add("aip193", lambda: pkg.to_aip193(e))
    add("cli", lambda: pkg.cli_line(e, "deploy"))
    return out


def _string_fields() -> Tuple[List[str], Optional[str], Optional[str]]:
    """The sanitized string fields other than message, one string context field the contract does not list (read back by every reader: what a reader receives is the sender's), one object field the contract lists."""
    sanitized = [f for f in pkg.SANITIZED_FIELDS if f != "message" and f in pkg.FIELDS and pkg.FIELDS[f]["type"] == "string"]
    plain = next((f for f, m in pkg.FIELDS.items() if m["type"] == "string" and not m["required"] and f not in pkg.SANITIZED_FIELDS), None)
    obj = next((f for f, m in pkg.FIELDS.items() if m["type"] == "object" and not m["required"] and f in pkg.SANITIZED_FIELDS), None)
    return sanitized, plain, obj


SANITIZED, PLAIN, OBJ = _string_fields()
KINDS = [k for k in ("upstream_error", "auth_failed", "not_found", "timeout") if k in pkg.KNOWN_KINDS] or list(pkg.KNOWN_KINDS[:4])
NESTED = lambda s: {"list": ["a", {"text": s}]}  # noqa: E731


def carriers() -> List[Tuple[str, Callable[[random.Random, str], Any]]]:
    cs: List[Tuple[str, Callable[[random.Random, str], Any]]] = [
        ("new_envelope", lambda r, s: new_env(r.choice(KINDS), s)),
    ]
    if "guidance" in pkg.SANITIZED_FIELDS:
        cs.append(("with_fields(guidance)", lambda r, s: pkg.with_fields(new_env(KINDS[0], "upstream failed"), guidance=s)))
    for f in SANITIZED:
        cs.append((f"with_fields({f})", lambda r, s, f=f: pkg.with_fields(new_env(KINDS[0], "upstream failed"), **{f: s})))
    if OBJ:
        cs.append((f"with_fields({OBJ})", lambda r, s: pkg.with_fields(new_env(KINDS[0], "upstream failed"), **{OBJ: {"body": s}})))

    # The kind and the enumerated values are the sender's too (a reader sanitizes them as any text).
    fields = ["message", "guidance", "extra", "extra(nested)", "kind", "origin", "action", "same_arguments", "side_effects"] + SANITIZED + ([PLAIN] if PLAIN else [])

    def upstream(field: str, s: str) -> Any:
        e = new_env(KINDS[0], "upstream failed", trusted=True)
        if field == "message":
            return dataclasses.replace(e, message=s)
        if field == "guidance":
            return dataclasses.replace(e, recovery=dataclasses.replace(e.recovery, guidance=s))
        if field in ("action", "same_arguments"):
            return dataclasses.replace(e, recovery=dataclasses.replace(e.recovery, **{field: s}))
        if field == "extra":
            return dataclasses.replace(e, extra={"x_note": s})
        if field == "extra(nested)":
            return dataclasses.replace(e, extra={"x_obj": NESTED(s)})
        return dataclasses.replace(e, **{field: s})

    def http(accept: Optional[str]) -> Callable[[Any], Any]:
        def read(e: Any) -> Any:
            a = pkg.to_http_response(e, accept)
            return pkg.from_http_response(a.status, a.headers, a.body)

        return read

    readers: List[Tuple[str, List[str], Callable[[Any], Any]]] = [
        ("from_json", fields, lambda e: pkg.from_json(pkg.to_json(e))),
        ("from_dict", fields, lambda e: pkg.from_dict(json.loads(pkg.to_json(e)))),
        ("http", fields, http(None)),
        ("http(problem)", fields, http("application/problem+json")),
        ("from_problem_json", fields, lambda e: pkg.from_problem_json(pkg.to_problem_json(e))),
        ("aip193", fields, lambda e: pkg.from_aip193(pkg.to_aip193(e))),
        ("cli", fields, lambda e: pkg.read_cli(pkg.cli_line(e, "deploy"))),
        ("mcp", fields, lambda e: pkg.from_mcp_tool_result(pkg.to_mcp_tool_result(e))),
    ]
    for name, fs, read in readers:
        for f in fs:
            cs.append((f"read.{name}.{f}", lambda r, s, f=f, read=read: read(upstream(f, s))))
    short_kind = KINDS[1] if len(KINDS) > 1 else KINDS[0]
    cs.append(("read.http(short).message", lambda r, s: pkg.from_http_response(401, (("Content-Type", "application/json"),), json.dumps({"kind": short_kind, "message": s}).encode())))
    cs.append(("read.http(text).message", lambda r, s: pkg.from_http_response(502, (("Content-Type", "text/plain"),), s.encode())))
    return cs


def test_no_secret_through_any_path() -> None:
    seed = int(os.environ.get("ERRGEN_NOSECRET_SEED") or 20261207)
    cases = int(os.environ.get("ERRGEN_NOSECRET_CASES") or DATA["cases"]["python"])
    if pkg.CONTRACT_NAME != "agent-error":
        cases = max(1, cases // 10)
    g = Gen(seed)
    cs = carriers()
    leaks: Dict[Tuple[str, str], Dict[str, Any]] = {}
    observations = unread = leaking = 0
    for i in range(cases):
        name, make = cs[i % len(cs)]
        padding = g.r.choice(g.paddings)
        text, toks = g.text(padding)
        try:
            e = make(g.r, text)
        except Exception:
            unread += 1
            continue
        for output, o in outputs(e):
            observations += 1
            for t in toks:
                n, at = run_in(o, t)
                if n == 0:
                    continue
                leaking += 1
                l = leaks.setdefault((name, output), {"count": 0, "shapes": set(), "paddings": set(), "run": 0, "example": ""})
                l["count"] += 1
                l["shapes"].add(t.shape)
                l["paddings"].add(padding)
                if n > l["run"]:
                    l["run"] = n
                    l["example"] = f"case {i}: {n} of {len(t.body)} body characters of {t.shape} in {output}: {o[max(0, at - 24) : at + n + 16]!r}"
                break
    summary = f"nosecret (python {pkg.CONTRACT_NAME}): seed {seed}, cases {cases}, carriers {len(cs)}, observations {observations}, unread {unread}, leaks {leaking}"
    print(summary)
    with open(os.path.join(build, "nosecret.txt"), "w", encoding="utf-8") as f:
        f.write(summary + "\n")
    if not leaks:
        return
    groups: Dict[Tuple[str, str], Dict[str, Any]] = {}
    for (carrier, output), l in leaks.items():
        sig = f"shapes {','.join(sorted(l['shapes']))}; paddings {','.join(sorted(l['paddings']))}"
        gr = groups.setdefault((carrier, sig), {"outputs": [], "count": 0, "run": 0, "example": ""})
        gr["outputs"].append(output)
        gr["count"] += l["count"]
        if l["run"] > gr["run"]:
            gr["run"], gr["example"] = l["run"], l["example"]
    lines = [f"  {c} -> {','.join(sorted(gr['outputs']))}: {gr['count']} ({sig})\n      e.g. {gr['example']}" for (c, sig), gr in sorted(groups.items())]
    pytest.fail(f"{len(leaks)} leak classes (carrier | output) in {len(groups)} lines (carrier -> outputs: leaks (shapes; paddings)); seed {seed}:\n" + "\n".join(lines), pytrace=False)
