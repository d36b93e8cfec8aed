"""Micro-benchmarks of the reference Python package (gen/python).

They read the inputs the Go and TypeScript benchmarks read (bench/testdata),
and print each result as a line in Go's benchmark format, so one tool
tabulates all three:

  BenchmarkPython/SanitizeClean4KiB      52000      19234 ns/op     212.96 MB/s

Usage (from the repository root): tests/python/.venv/bin/python
tests/python/bench.py [--time 1] [--pkg gen/python] [--cpu]. Each benchmark
warms up, then runs for about --time seconds of measured work (wall time, or
the process's CPU time with --cpu). The numbers are for
comparison between runs on one machine; no test asserts on them.
test/test_sanitizer.py runs every benchmark once (smoke), so the script keeps
working.

Beside each operation of the package stands what a Python team would
otherwise use: json.dumps of the same dict and json.loads of the same text;
pydantic v2 on a model of the same envelope (pinned in
bench-requirements.txt, which `make bench-python` installs; without
pydantic those rows are left out); and, for the sanitizer, a port of labby's
published algorithm to a chain of regular expressions (labby_sanitize
below), on ordinary text in ASCII and in other scripts, text full of URLs,
and the dirty text. The SanitizeCrafted rows are the worst repetitive
inputs found for this sanitizer (CRAFTED): each is one short piece repeated
to 16 KiB.
"""

import argparse
import importlib
import json
import os
import re
import sys
import time
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
TESTDATA = os.path.join(REPO, "bench", "testdata")

#: TEN_MIB is the size of the window benchmark's input: the dirty text repeated to 10 MiB.
TEN_MIB = 10 << 20


class Bench(NamedTuple):
    name: str
    bytes: int  # what one operation reads; 0: no MB/s
    op: Callable[[], Any]


def _read(name: str) -> bytes:
    with open(os.path.join(TESTDATA, name), "rb") as f:
        return f.read()


def inputs() -> Tuple[bytes, bytes, bytes, bytes]:
    """inputs reads the shared inputs: the envelope, the clean and dirty texts, and the dirty text repeated to 10,485,760 bytes, cut back to a code point boundary."""
    dirty = _read("sanitize-dirty-4k.txt")
    big = (dirty * (TEN_MIB // len(dirty) + 1))[:TEN_MIB]
    end = len(big)
    while end > 0 and big[end - 1] & 0xC0 == 0x80:
        end -= 1
    if end > 0 and big[end - 1] >= 0xC0:
        end -= 1  # a lead byte whose continuation bytes were cut off
    return _read("envelope.json"), _read("sanitize-clean-4k.txt"), dirty, big[:end]


#: SMALL_MAX is the maximum of the 4 KiB benchmarks.
SMALL_MAX = 4096


def _fill(lines: Tuple[str, ...], size: int = 4096) -> str:
    """_fill repeats lines, whole, up to size bytes of UTF-8."""
    out: List[str] = []
    n = 0
    while True:
        line = lines[len(out) % len(lines)]
        b = len(line.encode("utf-8"))
        if n + b > size:
            return "".join(out)
        out.append(line)
        n += b


#: NON_ASCII is about 4 KiB of ordinary error text in Chinese, Russian, French, Japanese and Greek: the sanitizer changes nothing in it.
NON_ASCII = _fill((
    "上游服务返回错误：请求超时，连接在 30 秒后被关闭。请稍后重试，或者减少并发请求的数量。\n",
    "Ошибка вышестоящего сервиса: превышено время ожидания ответа, соединение закрыто через 30 секунд.\n",
    "Le service en amont a renvoyé une erreur : délai d'attente dépassé, la connexion a été fermée après 30 secondes.\n",
    "アップストリームのサービスがエラーを返しました。しばらくしてから再試行してください。\n",
    "Η υπηρεσία απέτυχε: λήξη χρονικού ορίου, δοκιμάστε ξανά αργότερα.\n",
))

#: URLS is about 4 KiB of error text full of URLs, with a password in one URL's userinfo and a token in one query.
URLS = _fill((
    "GET https://api.github.com/repos/errgen/errgen/issues?state=open&per_page=100&page=3 returned 502 Bad Gateway\n",
    "upstream https://storage.example.com/v1/buckets/logs/objects/2026/12/01/app.log?alt=media failed: connection reset\n",
    "redirect to https://login.example.org/oauth/authorize?client_id=abc123&redirect_uri=https%3A%2F%2Fapp.example.com%2Fcb&state=xyz\n",
    "retrying postgres://app:s3cr3t-pass@db.internal.example.net:5432/orders after timeout (attempt 2 of 5)\n",
    "fetch http://10.0.0.12:8080/healthz?verbose=1 -> 503 Service Unavailable; see https://status.example.com/incidents/1234\n",
    "webhook https://hooks.example.com/services/T000/B000/callback?token=abcdef0123456789abcdef&sig=deadbeef rejected\n",
))

#: DENSE is about 4 KiB of text dense with secrets (issue 33): each line of 80 characters (and a line feed) holds a bearer token, a bidi control, a prompt marker and a GitHub token, in a log line, a header and a JSON object in turn.
DENSE = _fill(tuple(
    (line + " " * 79)[:80] + "\n"
    for i in range(10)
    for line in (
        f"req {i:02d} Bearer abc{i:02d}def456ghIJ \u202e[INST] ghp_{i:02d}{'aB3dE6gH9j' * 3}kLmN ok.",
        f"Authorization: Bearer abc{i:02d}def456ghIJ\u202e [INST] token=ghp_{i:02d}{'aB3dE6gH9j' * 3}kLmN;",
        f'{{"auth":"Bearer abc{i:02d}def","t":"\u202e[INST]ghp_{i:02d}{"aB3dE6gH9j" * 3}kLmN"}}',
    )
))

#: CRAFTED names the repetitive inputs of the SanitizeCrafted rows: each piece repeated to 16 KiB and sanitized with the contract's policy. The first ones are the slowest single pieces of an earlier search; the rest are what the systematic search (every piece of one to three trigger characters, four-character pieces, pieces of trigger words, then random mutations of the slowest) found slowest since, and the inputs that once cost quadratic time.
CRAFTED: Dict[str, str] = {
    "colon": ":",
    "equals": "=",
    "a_colon": "a:",
    "a_equals": "a=",
    "lt": "<",
    "lt_lt": "<<",
    "hash": "#",
    "hashes": "###",
    "dash": "-",
    "slash": "/",
    "backslash": "\\",
    "dot_pem": ".pem",
    "dot_ssh": ".ssh",
    "home": "/home/",
    "sk": "sk-",
    "eyJ": "eyJ",
    "jwt_dot": "eyJa.",
    "scheme": "x://",
    "bearer": "Bearer ",
    "pem_begin": "-----BEGIN ",
    # Once quadratic: every home of one path read the rest of the path
    # (Go's homes-in-one-path), and every eyJ of one run its run.
    "homes_in_one_path": "/home/.",
    "homes_in_one_path_macos": "/Users/.",
    "jwt_runs": "yJe",
    "bearer_without_space": "=Bearer",
    # Separators with quotes and spaces before them, a key or none.
    "space_colon": " :",
    "colon_quote": ":'",
    "long_gap": "      :",
    # Markers: nested across a deletion, and deleted in passes.
    "markers_nested": "<###<system>",
    "markers_passes": "#<<",
    # Nothing but secrets: one redaction every few characters.
    "words": "eyJ ",
    "assign_dense": "pwd=x ",
    "assign_gap_dense": 'pwd"=',
    "key_dense": "\\_key=",
    "home_then_key": "/Users/pwd:",
    "key_file_dense": "key:..",
    "credential_dense": ".ssh?",
    "userinfo_dense": "://a:b@",
    # Go's ill-formed bytes (`\xff`, `\xff:`, `\xff_key=`) have no Python
    # str; the nearest is the lone surrogate that surrogateescape decoding
    # leaves, which the sanitizer replaces with U+FFFD as Go does the byte.
    # And Go's `:\`.
    "lone_surrogate": "\udcff",
    "lone_surrogate_colon": "\udcff:",
    "lone_surrogate_key": "\udcff_key=",
    "colon_backslash": ":\\",
}


def crafted(piece: str, size: int = 16384) -> str:
    return (piece * (size // len(piece) + 1))[:size]


# --- labby's sanitizer, as a chain of regular expressions --------------------
#
# A port of the algorithm labby publishes (its sanitize_error_text), written
# for this benchmark from the published description: bound the input, delete
# controls and bidi controls per line (line breaks kept), delete the prompt
# markers in one pass, redact secret-like tokens, cap the length. It does less
# than errgen's sanitizer (no home directories or credential paths, no
# key = value assignments, fewer token shapes, one marker pass), and is what
# a team porting labby to Python would write: one re.sub per rule.

#: _LABBY_CONTROLS: U+0000-U+001F but the line feed (the text is cleaned line by line, so line breaks stay), U+007F-U+009F, U+202A-U+202E, U+2066-U+2069.
_LABBY_CONTROLS = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_LABBY_MARKERS = re.compile(r"<system>|\[INST\]|###|<<")
#: _LABBY_WORDS: a whitespace-separated token starting like a secret, redacted whole.
_LABBY_WORDS = re.compile(r"(?<!\S)(?:sk-|ghp_|github_pat_|glpat-|xoxb-|xoxp-|tskey-|eyJ)\S*")
#: _LABBY_SECRETS: the shapes redacted anywhere in the text.
_LABBY_SECRETS = (
    re.compile(r"sk-[A-Za-z0-9_-]{20,}"),
    re.compile(r"ghp_[A-Za-z0-9]{36}"),
    re.compile(r"github_pat_[A-Za-z0-9_]{82}"),
    re.compile(r"glpat-[A-Za-z0-9_-]{20,}"),
    re.compile(r"xox[bp]-[A-Za-z0-9-]+"),
    re.compile(r"tskey-[A-Za-z0-9-]+"),
    re.compile(r"eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)?"),
    re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----", re.S),
)
_LABBY_BEARER = re.compile(r"(?i)(bearer) [A-Za-z0-9._~+/=-]{8,}")
_LABBY_USERINFO = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*://)[^/\s:@]+:[^/\s@]+@")


def labby_sanitize(s: str, max_len: int) -> str:
    """labby_sanitize is the port: s cleaned, with at most max_len code points before the truncation marker."""
    limit = 4 * max_len  # bytes of UTF-8, cut on a character boundary
    text = s[:limit]
    cut = len(s) > limit
    if not text.isascii():
        b = text.encode("utf-8", "surrogatepass")
        if len(b) > limit:
            text = b[:limit].decode("utf-8", "ignore")
            cut = True
    text = _LABBY_CONTROLS.sub("", text)
    text = _LABBY_MARKERS.sub("", text)
    text = _LABBY_WORDS.sub("[REDACTED]", text)
    for secret in _LABBY_SECRETS:
        text = secret.sub("[REDACTED]", text)
    text = _LABBY_BEARER.sub(r"\1 [REDACTED]", text)
    text = _LABBY_USERINFO.sub(r"\1[REDACTED]@", text)
    if len(text) > max_len or cut:
        return text[:max_len] + " \u2026[truncated]"
    return text


# --- pydantic ------------------------------------------------------------------


def pydantic_model() -> Any:
    """pydantic_model returns a pydantic v2 model of the reference envelope (the members of bench/testdata/envelope.json and the other context fields, extra members allowed), or None without pydantic."""
    try:
        import pydantic
    except ImportError:
        return None

    class Recovery(pydantic.BaseModel):
        model_config = pydantic.ConfigDict(extra="allow")
        action: str
        same_arguments: str
        guidance: str
        retry_after_ms: Optional[int] = pydantic.Field(default=None, ge=0, le=2**53 - 1)

    class Envelope(pydantic.BaseModel):
        model_config = pydantic.ConfigDict(extra="allow")
        contract_version: int
        kind: str = pydantic.Field(min_length=1)
        message: str
        origin: str
        recovery: Recovery
        side_effects: str
        service: Optional[str] = None
        action: Optional[str] = None
        tool: Optional[str] = None
        upstream: Optional[str] = None
        command: Optional[str] = None
        prompt: Optional[str] = None
        resource: Optional[str] = None
        cause: Optional[str] = None
        original_kind: Optional[str] = None
        safety: Optional[Dict[str, Any]] = None
        evidence: Optional[Dict[str, Any]] = None

    return Envelope


def benchmarks(pkg: Any) -> List[Bench]:
    """benchmarks lists the benchmarks of pkg on the shared inputs."""
    envelope, clean, dirty, big = inputs()
    texts = [b.decode("utf-8") for b in (clean, dirty, big)]
    as_json = [json.dumps(t) for t in texts[:2]]
    if pkg.sanitize_max(texts[0], SMALL_MAX) is not texts[0]:
        raise SystemExit("bench/testdata/sanitize-clean-4k.txt is not clean")
    if pkg.sanitize_max(NON_ASCII, SMALL_MAX) is not NON_ASCII:
        raise SystemExit("bench.py: NON_ASCII is not clean")
    if pkg.sanitize_max(URLS, SMALL_MAX) == URLS:
        raise SystemExit("bench.py: URLS holds nothing to redact")
    if pkg.sanitize_max(DENSE, SMALL_MAX).count("[REDACTED]") < 2 * DENSE.count("\n") or "ghp_" in pkg.sanitize_max(DENSE, SMALL_MAX):
        raise SystemExit("bench.py: DENSE does not hold two secrets a line")
    try:
        env = pkg.from_json(envelope)
        pkg.lookup(env.kind)
    except Exception as e:  # noqa: BLE001 - say which input does not fit
        raise SystemExit(f"bench/testdata/envelope.json does not parse with {pkg.CONTRACT_NAME}: {e}")
    # The equivalent dict of json.dumps, and a check that every encoder writes the same text.
    as_dict = env.to_dict()
    if env.to_json() != envelope.decode("utf-8").strip() or json.loads(json.dumps(as_dict)) != json.loads(envelope):
        raise SystemExit("bench.py: to_json does not write bench/testdata/envelope.json back")
    out = [
        Bench("JSONLoads", len(envelope), lambda: json.loads(envelope)),
        Bench("ParseLookup", len(envelope), lambda: pkg.lookup(pkg.from_json(envelope).kind).http_status),
        Bench("FromJSON", len(envelope), lambda: pkg.from_json(envelope)),
        Bench("JSONDumps", len(envelope), lambda: json.dumps(as_dict)),
        Bench("ToJSON", len(envelope), env.to_json),
    ]
    model = pydantic_model()
    if model is not None:
        m = model.model_validate_json(envelope)
        if m.model_dump_json(exclude_none=True) != env.to_json():
            raise SystemExit("bench.py: the pydantic model does not write bench/testdata/envelope.json back")
        out += [
            Bench("PydanticValidateJSON", len(envelope), lambda: model.model_validate_json(envelope)),
            Bench("PydanticDumpJSON", len(envelope), lambda: m.model_dump_json(exclude_none=True)),
        ]
    out += [
        # The bare parse of the same text, as a JSON string: what the sanitizer is compared with.
        Bench("JSONLoadsClean4KiB", len(clean), lambda: json.loads(as_json[0])),
        Bench("JSONLoadsDirty4KiB", len(dirty), lambda: json.loads(as_json[1])),
        # A maximum of 4096, as in Go's and TypeScript's benchmarks: the 4 KiB
        # inputs fit, so the clean text comes back unchanged instead of truncated.
        Bench("SanitizeClean4KiB", len(clean), lambda: pkg.sanitize_max(texts[0], SMALL_MAX)),
        Bench("SanitizeDirty4KiB", len(dirty), lambda: pkg.sanitize_max(texts[1], SMALL_MAX)),
        Bench("Sanitize10MiB", len(big), lambda: pkg.sanitize(texts[2])),
    ]
    # The sanitizer beside labby's, on the same texts and maximum.
    for name, text in (("Clean4KiB", texts[0]), ("Dirty4KiB", texts[1]), ("NonASCII4KiB", NON_ASCII), ("URLs4KiB", URLS), ("Dense4KiB", DENSE)):
        size = len(text.encode("utf-8"))
        if name not in ("Clean4KiB", "Dirty4KiB"):
            out.append(Bench("Sanitize" + name, size, lambda t=text: pkg.sanitize_max(t, SMALL_MAX)))
        out.append(Bench("Labby" + name, size, lambda t=text: labby_sanitize(t, SMALL_MAX)))
    for name, piece in CRAFTED.items():
        text = crafted(piece)
        # A lone surrogate counts as the three bytes Go's U+FFFD would be.
        out.append(Bench("SanitizeCrafted/" + name, len(text.encode("utf-8", "surrogatepass")), lambda t=text: pkg.sanitize(t)))
    return out


#: _clock is the clock of the measurements: wall time, as Go's benchmarks measure, or with --cpu the process's CPU time, which a machine busy with other work disturbs less.
_clock = time.perf_counter_ns


def _time(op: Callable[[], Any], n: int) -> int:
    start = _clock()
    for _ in range(n):
        op()
    return _clock() - start


def measure(op: Callable[[], Any], target_ns: float = 1e9) -> Tuple[int, int]:
    """measure runs op for about target_ns, the way Go's testing package does.

    It grows the iteration count from a prediction until one run lasts long
    enough, after a warm-up of about a tenth of the target (caches, the
    regular expressions' first use). It returns the iterations and the
    nanoseconds they took.
    """
    n, warm = 1, 0
    while warm < target_ns / 10:
        t = _time(op, n)
        warm += t
        if t < target_ns / 100:
            n *= 2
    n = 1
    while True:
        t = _time(op, n)
        if t >= target_ns or n >= 1_000_000_000:
            return n, t
        predicted = -(-n * target_ns * 1.2 // t) if t > 0 else n * 100
        n = max(n + 1, min(int(predicted), n * 100, 1_000_000_000))


def _pretty(x: float) -> str:
    """_pretty formats ns/op as Go does: fewer decimals for larger numbers."""
    if x >= 99.995:
        return f"{x:.0f}"
    if x >= 9.9995:
        return f"{x:.1f}"
    if x >= 0.99995:
        return f"{x:.2f}"
    return f"{x:.3f}"


def line(name: str, n: int, ns: int, size: int) -> str:
    """line formats one result in Go's benchmark format."""
    s = f"{'BenchmarkPython/' + name:<32} {n:>10}\t{_pretty(ns / n):>10} ns/op"
    if size > 0:
        s += f"\t{size * n * 1e3 / ns:>8.2f} MB/s"
    return s


def run(pkg: Any, smoke: bool = False, target_ns: float = 1e9, out: Optional[Callable[[str], None]] = None) -> List[str]:
    """run runs every benchmark of pkg and returns its lines; smoke runs each operation once, timing nothing that matters."""
    lines = []
    for b in benchmarks(pkg):
        n, ns = (1, max(1, _time(b.op, 1))) if smoke else measure(b.op, target_ns)
        lines.append(line(b.name, n, ns, b.bytes))
        if out is not None:
            out(lines[-1])
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description="Micro-benchmarks of the generated Python package, in Go's benchmark format.")
    ap.add_argument("--time", type=float, default=1.0, help="seconds of measured work per benchmark (default 1)")
    ap.add_argument("--pkg", default=os.path.join(REPO, "gen", "python"), help="the folder holding pyproject.toml and the package")
    ap.add_argument("--cpu", action="store_true", help="measure the process's CPU time instead of wall time (for a busy machine)")
    args = ap.parse_args()
    if args.cpu:
        global _clock
        _clock = time.process_time_ns
    found = [d for d in os.listdir(args.pkg) if os.path.exists(os.path.join(args.pkg, d, "__init__.py"))]
    if len(found) != 1:
        raise SystemExit(f"{args.pkg}: expected one package, found {found}")
    sys.path.insert(0, os.path.abspath(args.pkg))
    pkg = importlib.import_module(found[0])
    print(f"goos: {sys.platform}\npkg: {found[0]} (Python {sys.version.split()[0]}{', CPU time' if args.cpu else ''})")
    run(pkg, target_ns=args.time * 1e9, out=print)
    return 0


if __name__ == "__main__":
    sys.exit(main())
