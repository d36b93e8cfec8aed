"""The sanitizer: it cleans upstream-controlled text before it goes into an envelope, a log or a prompt.

docs/sanitizer.md in the errgen repository specifies it step by step; the
Go and TypeScript packages implement the same steps, and the shared vectors
(conformance/sanitizer.vectors.json) hold all three to it. This module is
the same for every contract: the policy (maximum length, truncation marker,
markers, the contract's secret shapes) is data in _contract.py.

The steps, in order:

1. Window and clean: read at most 4 x max_length code points; a lone
   surrogate becomes U+FFFD; controls except tab, LF and CR, bidi controls,
   zero-width and invisible formatting characters are deleted.
2. Markers: prompt-injection markers (ASCII case ignored) are deleted until
   none remain.
3. Redact: secrets become [REDACTED] in one left-to-right scan.
4. Truncate: text longer than max_length code points, or cut off by the
   window, keeps max_length - len(marker) code points and gets the
   truncation marker.

Python indexes str by code point, as the specification counts. Every
pattern is ASCII. The work is done by str methods and regular expressions
that cannot backtrack (character classes, literals, lookarounds of fixed
width, bounded repeats of disjoint classes): they find the few places where
a rule may apply, and the rules are then checked exactly as the
specification words them. Each step returns its input object itself when it
changes nothing, so clean text costs no copy.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Dict, FrozenSet, List, Mapping, Optional, Pattern, Set, Tuple

from ._contract import (
    SANITIZE_CREDENTIAL_NAMES,
    SANITIZE_MARKERS,
    SANITIZE_MAX_LENGTH,
    SANITIZE_PATHS,
    SANITIZE_SECRETS,
    SANITIZE_TRUNCATION_MARKER,
)

_REDACTED = "[REDACTED]"
_MARKER_LEN = len(SANITIZE_TRUNCATION_MARKER)


def sanitize(s: str) -> str:
    """sanitize cleans upstream-controlled text with the contract's policy (SANITIZE_MAX_LENGTH, SANITIZE_TRUNCATION_MARKER, its markers and secret shapes).

    It returns s itself when nothing changes. It is defence in depth, not a
    guarantee: a secret without a recognisable shape passes through.
    """
    return sanitize_max(s, SANITIZE_MAX_LENGTH)


def sanitize_max(s: str, max_length: int) -> str:
    """sanitize_max is sanitize with another maximum length in code points, the truncation marker included.

    A maximum shorter than the marker plus one character is raised to that.
    """
    if max_length < _MARKER_LEN + 1:
        max_length = _MARKER_LEN + 1
    if max_length > 1 << 28:
        max_length = 1 << 28
    window = 4 * max_length
    cut = len(s) > window
    if cut:
        s = s[:window]
    s = _clean(s)
    s = _remove_markers(s)
    s = _redact(s)
    if len(s) <= max_length and not cut:
        return s
    return s[: max_length - _MARKER_LEN] + SANITIZE_TRUNCATION_MARKER


# --- 1. clean ---------------------------------------------------------------

#: _CTRL_BYTES are the ASCII characters step 1 deletes: C0 controls but tab, LF and CR, and DEL.
_CTRL_BYTES = bytes([c for c in range(0x20) if c not in (0x09, 0x0A, 0x0D)] + [0x7F])
_REMOVED = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\xad\u061c\u180e\u200b-\u200f\u202a-\u202e"
    "\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000e0000-\U000e007f]"
)
_SURROGATE = re.compile("[\ud800-\udfff]")
_DIRTY = re.compile(_REMOVED.pattern[:-1] + "\ud800-\udfff]")


def _clean(s: str) -> str:
    # isprintable is false for every character step 1 changes (they are
    # controls, format characters or surrogates), and ASCII text needs only
    # a byte-level check: both are much faster than a regular expression.
    if s.isprintable():
        return s
    if s.isascii():
        b = s.encode("ascii")
        kept = b.translate(None, _CTRL_BYTES)
        return s if len(kept) == len(b) else kept.decode("ascii")
    if _DIRTY.search(s) is None:
        return s
    return _SURROGATE.sub("\ufffd", _REMOVED.sub("", s))


# --- 2. markers -------------------------------------------------------------


def _fold(s: str) -> str:
    """_fold lower-cases ASCII letters only; bytes.lower never touches other characters."""
    return s.encode("utf-8", "surrogatepass").lower().decode("utf-8", "surrogatepass")


def _caseless(text: str, first_literal: bool) -> str:
    """_caseless is a pattern matching text with ASCII case ignored; with first_literal, it is a branch per case of the first letter, so the regular expression engine can skip to the characters a match may start with."""
    def one(c: str) -> str:
        if "a" <= c <= "z":
            return "[" + c.upper() + c + "]"
        return re.escape(c)

    rest = "".join(one(c) for c in text[1:])
    if first_literal and "a" <= text[0] <= "z":
        return re.escape(text[0].upper()) + rest + "|" + re.escape(text[0]) + rest
    return one(text[0]) + rest


#: _MARKERS are the markers with ASCII letters lower-cased, in the contract's order.
_MARKERS: Tuple[str, ...] = tuple(_fold(m) for m in SANITIZE_MARKERS)
#: _MARKERS_BY_END lists, per last character, the markers ending with it, in order.
_MARKERS_BY_END: Dict[str, Tuple[str, ...]] = {}
for _m in _MARKERS:
    _MARKERS_BY_END[_m[-1]] = _MARKERS_BY_END.get(_m[-1], ()) + (_m,)
#: _MARKER_LONGEST maps a last character to the length of the longest marker ending with it.
_MARKER_LONGEST: Dict[str, int] = {c: max(len(m) for m in ms) for c, ms in _MARKERS_BY_END.items()}
#: _MARKER_ANY finds a marker, ASCII case ignored: without one, step 2 changes nothing.
_MARKER_ANY: Optional[Pattern[str]] = re.compile("|".join(_caseless(m, True) for m in _MARKERS)) if _MARKERS else None
#: _MARKER_ENDS finds, in folded text, the characters a marker ends with.
_MARKER_ENDS: Optional[Pattern[str]] = re.compile("[" + "".join(re.escape(c) for c in _MARKERS_BY_END) + "]") if _MARKERS else None
#: _MARKER_LAST holds the characters a marker ends with, in either ASCII case: text holding none of them holds no marker, which a few substring tests prove faster than _MARKER_ANY.
_MARKER_LAST: Tuple[str, ...] = tuple(sorted({c for m in _MARKERS for c in (m[-1], m[-1].upper() if "a" <= m[-1] <= "z" else m[-1])}))


def _remove_markers(s: str) -> str:
    """_remove_markers is step 2.

    Characters are appended to the output one by one, and whenever the
    output ends with a marker (the first in the contract's order), the
    marker is taken off again. The output is kept as ranges of s, since it
    is always made of pieces of s: out holds the ranges before start, and
    s[start:j] is the rest of the output, up to the character just
    appended. Only characters a marker ends with need a look.
    """
    if _MARKER_ANY is None or _MARKER_ENDS is None:
        return s
    for c in _MARKER_LAST:
        if c in s:
            break
    else:
        return s
    if _MARKER_ANY.search(s) is None:
        return s
    fs = _fold(s)
    out: List[List[int]] = []
    start = 0
    for hit in _MARKER_ENDS.finditer(fs):
        j = hit.end()
        c = fs[j - 1]
        markers = _MARKERS_BY_END[c]
        pending = j - start
        if pending >= _MARKER_LONGEST[c]:
            if not fs.endswith(markers, start, j):
                continue
            found = next(m for m in markers if fs.endswith(m, start, j))
        else:
            # The marker may reach back into the output before start.
            need = _MARKER_LONGEST[c] - pending
            parts = [fs[start:j]]
            k = len(out) - 1
            while need > 0 and k >= 0:
                a, b = out[k]
                a = max(a, b - need)
                parts.append(fs[a:b])
                need -= b - a
                k -= 1
            tail = "".join(reversed(parts))
            if not tail.endswith(markers):
                continue
            found = next(m for m in markers if tail.endswith(m))
        n = len(found)
        if n <= pending:
            if j - n > start:
                out.append([start, j - n])
        else:
            n -= pending
            while n > 0:
                a, b = out[-1]
                if b - a <= n:
                    out.pop()
                    n -= b - a
                else:
                    out[-1][1] = b - n
                    n = 0
        start = j
    if start < len(s):
        out.append([start, len(s)])
    return "".join(s[a:b] for a, b in out)


# --- 3. redact --------------------------------------------------------------

#: _CLASSES are the character classes of the secret shapes (all ASCII).
_CLASSES: Mapping[str, str] = {
    "alnum": "A-Za-z0-9",
    "upper_alnum": "A-Z0-9",
    "lower_alnum": "a-z0-9",
    "hex": "0-9a-fA-F",
    "base64url": "A-Za-z0-9_\\-",
    "base64": "A-Za-z0-9+/=",
    "word": "A-Za-z0-9_",
    "token": "A-Za-z0-9\\-._~+/=",  # RFC 6750 b64token
}
#: _RUNS match a run of each class (possibly empty).
_RUNS: Mapping[str, Pattern[str]] = {name: re.compile("[" + chars + "]*") for name, chars in _CLASSES.items()}

#: _BUILTIN_SECRETS is errgen's catalogue of token shapes: prefixes, class, minimum run.
_BUILTIN_SECRETS: Tuple[Tuple[Tuple[str, ...], str, int], ...] = (
    (("sk-",), "base64url", 20),  # OpenAI, Anthropic and similar API keys
    (("ghp_", "gho_", "ghu_", "ghs_", "ghr_"), "alnum", 36),  # GitHub tokens
    (("github_pat_",), "word", 82),  # GitHub fine-grained tokens
    (("glpat-",), "base64url", 20),  # GitLab tokens
    (("xoxa-", "xoxb-", "xoxe-", "xoxp-", "xoxr-", "xoxs-"), "base64url", 10),  # Slack tokens
    (("tskey-",), "base64url", 10),  # Tailscale keys
    (("AKIA", "ASIA"), "upper_alnum", 16),  # AWS access key ids
    (("AIza",), "base64url", 35),  # Google API keys
    (("sk_live_", "sk_test_", "rk_live_", "rk_test_", "pk_live_", "pk_test_", "whsec_"), "alnum", 16),  # Stripe keys
    (("npm_",), "alnum", 36),  # npm tokens
)

#: _WORD_PREFIXES start a token redacted whole, up to the next white space, at the start or after white space.
_WORD_PREFIXES = ("sk-", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-",
                  "xoxa-", "xoxb-", "xoxe-", "xoxp-", "xoxr-", "xoxs-", "tskey-", "eyJ")

#: _PREFIXED lists, per first character, the prefixed shapes (prefix, run, minimum) in catalogue order, the contract's after errgen's.
_PREFIXED: Dict[str, List[Tuple[str, Pattern[str], int]]] = {}
for _prefixes, _class, _least in _BUILTIN_SECRETS + tuple(SANITIZE_SECRETS):
    for _p in _prefixes:
        _PREFIXED.setdefault(_p[0], []).append((_p, _RUNS[_class], _least))
#: _WORDS lists, per first character, the word prefixes starting with it.
_WORDS: Dict[str, Tuple[str, ...]] = {}
for _w in _WORD_PREFIXES:
    _WORDS[_w[0]] = _WORDS.get(_w[0], ()) + (_w,)

_SPACE: FrozenSet[str] = frozenset(" \t\n\r")
_ALNUM: FrozenSet[str] = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_KEY_CHARS: FrozenSet[str] = _ALNUM | frozenset("_.-")
_QUOTES: FrozenSet[str] = frozenset("\"'\\")
#: _VALUE_START: the ASCII characters a value may start with: printable, not a space, quote, backslash or one of & , ; < > ( ) [ ] { }.
_VALUE_START: FrozenSet[str] = frozenset(chr(c) for c in range(0x21, 0x7F)) - frozenset("\"'`\\&,;<>()[]{}")
#: _VALUE_RUN: a value runs up to white space, a control, a quote, a backslash or one of & , ; < > ( ) [ ] { }; non-ASCII characters belong to it.
_VALUE_RUN = re.compile("[^\x00-\x20\x7f\"'`\\\\&,;<>()\\[\\]{}]*")
#: _USERINFO_RUN: the printable ASCII characters of a URL's userinfo (no space, quote, backslash or / ? # @ [ ] < > { }).
_USERINFO_RUN = re.compile("[!$-.0-9:;=A-Z^_a-z|~]*")
_NOT_SPACE_RUN = re.compile("[^ \t\n\r]*")
_BLANKS = re.compile("[ \t]*")
_PEM_LABEL = re.compile("[A-Z0-9 ]{0,64}")
_BEARER = re.compile(_caseless("bearer", False))

_KEY_SUFFIXES = ("token", "secret", "password", "passwd", "apikey", "api_key", "api-key",
                 "signature", "credential", "credentials", "authorization", "cookie", "sessionid", "session_id",
                 "accesskey", "privatekey", "secretkey")
_KEY_EXACT: FrozenSet[str] = frozenset(("pwd", "pass", "auth", "session"))
#: _KEY_HARMLESS are keys ending in _key or -key that name no secret.
_KEY_HARMLESS = ("sort_key", "cache_key", "idempotency_key", "partition_key", "primary_key",
                 "public_key", "foreign_key", "hash_key", "range_key", "row_key", "object_key", "routing_key", "shard_key",
                 "dedup_key", "dedupe_key", "group_key", "lookup_key", "unique_key", "index_key", "map_key", "s3_key")


#: _HOME_PREFIXES start a Unix home directory; the user name follows.
_HOME_PREFIXES = ("/home/", "/Users/")
#: _KEY_EXTENSIONS end the name of a key or certificate store file.
_KEY_EXTENSIONS = (".pem", ".key", ".p12", ".pfx", ".ppk", ".jks")
#: _PATH_ASCII are the ASCII characters of a path: letters, digits, - . _ ~ + @ % $ and the separators / and \. Every non-ASCII character is one too.
_PATH_ASCII: FrozenSet[str] = _ALNUM | frozenset("-._~+@%$/\\")
_PATH_CLASS = "A-Za-z0-9._~+@%$/\\\\\\-\x80-\U0010ffff"
_PATH_RUN = re.compile("[" + _PATH_CLASS + "]*")
#: _USER_RUN: a home directory's user name, the path characters but the separators.
_USER_RUN = re.compile("[A-Za-z0-9._~+@%$\\-\x80-\U0010ffff]*")
_NON_ASCII_RUN = re.compile("[\x80-\U0010ffff]*")
_DOTS = re.compile("\\.*")
_SPACES = re.compile("[ \t\n\r]*")
_LETTERS: FrozenSet[str] = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def _name_pattern(name: str) -> Pattern[str]:
    """_name_pattern matches a credential name, a "/" in it standing for one or more separators."""
    return re.compile("[/\\\\]+".join(re.escape(part) for part in name.split("/")))


#: _NAMES lists, per first character, the credential names as patterns; _NAME_FIRST holds the first characters of the names and key file extensions; _NAME_HEADS finds where one may start (their first three characters).
_NAMES: Dict[str, List[Pattern[str]]] = {}
_NAME_FIRST: FrozenSet[str] = frozenset()
_NAME_HEADS = re.compile("(?!)")
if SANITIZE_PATHS:
    for _n in SANITIZE_CREDENTIAL_NAMES:
        _NAMES.setdefault(_n[0], []).append(_name_pattern(_n))
    _heads = sorted({n[:3] for n in tuple(SANITIZE_CREDENTIAL_NAMES) + _KEY_EXTENSIONS})
    _NAME_FIRST = frozenset(h[0] for h in _heads)
    _NAME_HEADS = re.compile("(?=" + "|".join(re.escape(h) for h in _heads) + ")")


def _is_path(c: str) -> bool:
    return c >= "\x80" or c in _PATH_ASCII


def _path_end(s: str, i: int) -> int:
    """_path_end returns the end of the path whose character i-1 is no backslash: the end of the path characters from i, less the backslashes that end them (those of an escaped quote)."""
    i = _PATH_RUN.match(s, i).end()  # type: ignore[union-attr]
    while s[i - 1] == "\\":
        i -= 1
    return i


#: _DRIVE_USERS matches :\\Users\\, :\\\\Users\\\\ or :/Users/ (Users in any ASCII case), the same separator after Users as before.
_DRIVE_USERS = re.compile(":(\\\\\\\\|[\\\\/])" + _caseless("users", False) + "\\1")


def _drive_users(s: str, p: int) -> int:
    """_drive_users returns the length of :\\Users\\, :\\\\Users\\\\ or :/Users/ (Users in any ASCII case) at p, or 0."""
    m = _DRIVE_USERS.match(s, p)
    return 0 if m is None else m.end() - p


def _name_ends(s: str, e: int) -> bool:
    """_name_ends reports whether a name that ends at e ends its segment.

    After any full stops comes a separator, the end, or an ASCII character
    that is neither a path character nor "["; or white space, when an ASCII
    character or the end follows it. So neither the truncation marker (a
    space and a non-ASCII character) nor a [REDACTED] after a name that goes
    on ever makes one.
    """
    e = _DOTS.match(s, e).end()  # type: ignore[union-attr]
    if e == len(s):
        return True
    c = s[e]
    if c == "/" or c == "\\":
        return True
    if c == "[":
        return False
    if c in _SPACE:
        e = _SPACES.match(s, e).end()  # type: ignore[union-attr]
        return e == len(s) or s[e] < "\x80"
    return not _is_path(c)


def _credential_at(s: str, p: int, prev: str) -> bool:
    """_credential_at reports whether a credential name is at p, given the output's character before it ("" at the start): a listed name as a whole segment, or a key file extension ending a segment that has more before it."""
    if prev == "" or prev == "/" or prev == "\\" or not _is_path(prev):
        for pattern in _NAMES.get(s[p], ()):
            m = pattern.match(s, p)
            if m is not None and _name_ends(s, m.end()):
                return True
        return False
    if s[p] == ".":
        for x in _KEY_EXTENSIONS:
            if s.startswith(x, p) and _name_ends(s, p + len(x)):
                return True
    return False


def _anchor_rank(c: str) -> int:
    """_anchor_rank orders the characters of a prefix by how rarely ordinary text holds them."""
    if c in "-_":
        return 0
    if "A" <= c <= "Z" or c in "./":
        # "." and "/" start the path shapes (.ssh, .pem, /home/): rarer in
        # text than the lower-case letters after them.
        return 1
    if "0" <= c <= "9":
        return 2
    return 3


def _around(lit: str, i: int) -> str:
    """_around is a pattern checking, at the anchor lit[i] just matched, that lit stands around it."""
    out = "(?<=" + re.escape(lit[: i + 1]) + ")" if i > 0 else ""
    if i + 1 < len(lit):
        out += "(?=" + re.escape(lit[i + 1:]) + ")"
    return out


def _candidates_pattern() -> Tuple[str, Dict[str, List[Tuple[str, int]]]]:
    """_candidates_pattern finds the places where a shape of step 3 may start.

    A shape starts with a literal (a prefix, -----BEGIN, eyJ, bearer, : or
    =). Rather than the literal's first character, which is often a common
    letter, each literal is found at its rarest character (its anchor),
    checked around it with fixed-width lookarounds: the engine then skips
    through text at the speed of a character class. Most separators of
    ordinary text fail their lookbehinds there and never cost a Python
    step. The pattern is a necessary condition only; match decides.
    anchors maps an anchor character to the literals it stands for and its
    offset in them.
    """
    literals = ["-----BEGIN "] + list(_WORD_PREFIXES) + [p for ps in _PREFIXED.values() for p, _, _ in ps]
    if SANITIZE_PATHS:
        # A credential name is found by its first segment (a "/" in it
        # stands for one or more separators).
        literals += list(_HOME_PREFIXES) + [n.split("/")[0] for n in SANITIZE_CREDENTIAL_NAMES] + list(_KEY_EXTENSIONS)
    anchors: Dict[str, List[Tuple[str, int]]] = {}
    seen: Set[str] = set()
    for lit in literals:
        if lit in seen:
            continue
        seen.add(lit)
        i = min(range(len(lit)), key=lambda k: (_anchor_rank(lit[k]), -k))
        anchors.setdefault(lit[i], []).append((lit, i))
    branches = []
    for c, lits in anchors.items():
        # A gate on the character before the anchor (one lookbehind of a
        # class) turns most anchors of ordinary text away before the
        # literals are tried one by one.
        behind = sorted({lit[i - 1] for lit, i in lits if i > 0})
        gated = [_around(lit, i) for lit, i in lits if i > 0]
        alts = [_around(lit, i) for lit, i in lits if i == 0]
        if len(alts) > 1:
            # The same gate after the anchor, for the literals it starts
            # (".ssh", ".pem", ... after the "." of "example.com").
            ahead = sorted({lit[1] for lit, i in lits if i == 0})
            alts = ["(?=[" + "".join(re.escape(a) for a in ahead) + "])(?:" + "|".join(alts) + ")"]
        if gated:
            gate = "(?<=[" + "".join(re.escape(b) for b in behind) + "]" + re.escape(c) + ")"
            alts.insert(0, gate + "(?:" + "|".join(gated) + ")")
        branches.append(re.escape(c) + "(?:" + "|".join(alts) + ")")
    rest = _caseless("earer", False)
    branches += ["b(?=" + rest + ")", "B(?=" + rest + ")"]
    # A separator where an assignment may start: the key must end with a
    # sensitive suffix, an exact name, code or sig (ASCII case ignored), or
    # spaces or quotes stand between it and the separator; or where URL
    # credentials may start: "://" follows.
    names = _KEY_SUFFIXES + ("_key", "-key") + tuple(sorted(_KEY_EXACT)) + ("code", "sig")
    last = "".join(sorted({k[-1] for k in names}))
    for sep in ":=":
        # Gated on the key's last character, as the anchors are.
        keys = "(?<=[" + re.escape(last) + "]" + re.escape(sep) + ")(?:" + "|".join("(?<=" + re.escape(k + sep) + ")" for k in names) + ")"
        alts = ["(?i:" + keys + ")", "(?<=[ \t\"'\\\\]" + re.escape(sep) + ")"]
        if sep == ":":
            alts.append("(?=//)")
            if SANITIZE_PATHS:
                alts.append("(?<=[A-Za-z]:)(?=[/\\\\])")  # a drive's home
        branches.append(re.escape(sep) + "(?:" + "|".join(alts) + ")")
    return "|".join(branches), anchors


_CANDIDATE_PATTERN, _ANCHORS = _candidates_pattern()
_CANDIDATES = re.compile(_CANDIDATE_PATTERN, re.ASCII)
#: _STARTS_HERE are the characters the candidate pattern finds at the start of a shape (separators, bearer) rather than inside a literal.
_STARTS_HERE: FrozenSet[str] = frozenset(":=bB")


def _reversed_alternation(words: Tuple[str, ...]) -> str:
    return "|".join(re.escape(w[::-1]) for w in words)


#: _BACK_SCAN is the backward scan itself on the reversed text: spaces and tabs, up to two quotes or backslashes, then the key (only its last 64 characters matter, and whether it is longer).
_BACK_SCAN = re.compile("[ \t]*([\"'\\\\]{0,2})([A-Za-z0-9_.\\-]{0,65})")


def _sensitive_key(key: str) -> bool:
    """_sensitive_key reports whether a lower-cased key names a secret."""
    if key in _KEY_EXACT or key.endswith(_KEY_SUFFIXES):
        return True
    if key.endswith(("_key", "-key")):
        norm = key.replace("-", "_")
        for h in _KEY_HARMLESS:
            if norm.endswith(h) and (len(norm) == len(h) or norm[-len(h) - 1] in "_."):
                return False
        return True
    return False


def _value_end(s: str, v: int) -> int:
    """_value_end returns the end of the value starting at v, or v when none starts there."""
    if v >= len(s) or s[v] not in _VALUE_START:
        return v
    return _VALUE_RUN.match(s, v).end()  # type: ignore[union-attr]


class _Redactor:
    """_Redactor is step 3's state: the output is out (once something was redacted) followed by s[flushed:] up to the scan position."""

    __slots__ = ("s", "rs", "out", "flushed", "no_jwt")

    def __init__(self, s: str) -> None:
        self.s = s
        #: rs is s reversed, made when a separator needs a backward scan.
        self.rs: Optional[str] = None
        self.out: Optional[List[str]] = None
        self.flushed = 0
        # No JWT starts before no_jwt. A JWT attempt that fails after a run
        # of base64url would fail at every eyJ inside that run too (the run
        # ends at the same character), so they are not tried again: this
        # keeps the scan linear without changing what it finds.
        self.no_jwt = 0

    def before(self, i: int) -> str:
        """before returns the output's character in front of s[i] (i >= flushed); "" at the start of the text.

        Straight after a redaction it is the "]" of [REDACTED]; no scan
        reads further back, since "]" ends every backward scan.
        """
        if i > self.flushed:
            return self.s[i - 1]
        if self.out is not None:
            return "]"
        return self.s[i - 1] if i > 0 else ""

    def match(self, p: int) -> Optional[Tuple[int, int]]:
        """match tries every shape at p, in the specification's order, and returns the span to redact."""
        s = self.s
        c = s[p]
        if c == ":" or c == "=":
            return self.separator(p)
        # A private key block, through its END line or to the end of the text.
        if c == "-" and s.startswith("-----BEGIN ", p):
            j = p + 11
            k = _PEM_LABEL.match(s, j).end()  # type: ignore[union-attr]
            if "PRIVATE KEY" in s[j:k] and s.startswith("-----", k):
                end = len(s)
                e = s.find("-----END ", k + 5)
                if e >= 0:
                    f = s.find("-----", e + 9)
                    if f >= 0:
                        end = f + 5
                return p, end
        # A token starting like a known secret, redacted up to white space.
        words = _WORDS.get(c)
        if words is not None:
            prev = self.before(p)
            if prev == "" or prev in _SPACE:
                for w in words:
                    if s.startswith(w, p):
                        return p, _NOT_SPACE_RUN.match(s, p + len(w)).end()  # type: ignore[union-attr]
        # Prefixed token shapes, anywhere.
        for prefix, run, least in _PREFIXED.get(c, ()):
            if s.startswith(prefix, p):
                start = p + len(prefix)
                e = run.match(s, start).end()  # type: ignore[union-attr]
                if e - start >= least:
                    return p, e
        # A JSON Web Token: eyJ… . … (. …).
        if c == "e" and p >= self.no_jwt and s.startswith("eyJ", p):
            b64url = _RUNS["base64url"]
            e1 = b64url.match(s, p).end()  # type: ignore[union-attr]
            if e1 - p >= 10 and s.startswith(".", e1):
                e2 = b64url.match(s, e1 + 1).end()  # type: ignore[union-attr]
                if e2 - e1 - 1 >= 4:
                    if s.startswith(".", e2):
                        e2 = b64url.match(s, e2 + 1).end()  # type: ignore[union-attr]
                    return p, e2
            self.no_jwt = e1
        # Bearer <token>: the token.
        if (c == "b" or c == "B") and _BEARER.match(s, p) is not None:
            if self.before(p) not in _ALNUM:
                e = _BLANKS.match(s, p + 6).end()  # type: ignore[union-attr]
                if e > p + 6:
                    t = _RUNS["token"].match(s, e).end()  # type: ignore[union-attr]
                    if t - e >= 8:
                        return e, t
        # A home directory: its user name, or the whole path when it holds a
        # credential name.
        if c == "/" and SANITIZE_PATHS:
            span = self.home(p)
            if span is not None:
                return span
        # A credential name: the whole path holding it.
        if c in _NAME_FIRST and _credential_at(s, p, self.back(p, 1)):
            return self.path_start(p), _path_end(s, p + 1)
        return None

    def back(self, p: int, k: int) -> str:
        """back returns the output's k-th character before s[p] (p >= flushed); "" before the start."""
        pending = p - self.flushed
        if k <= pending:
            return self.s[p - k]
        if self.out is None or k - pending > len(_REDACTED):
            return ""
        return _REDACTED[pending - k]

    def home(self, p: int) -> Optional[Tuple[int, int]]:
        """home matches a home directory at p: /home/ or /Users/ at "/", or a drive letter's :\\Users\\, :\\\\Users\\\\ or :/Users/ (Users in any ASCII case) at ":".

        The path must start at a boundary. The user name is redacted, or the
        whole path when it holds a credential name.
        """
        s = self.s
        start, seg = p, -1
        if s[p] == "/":
            for h in _HOME_PREFIXES:
                if s.startswith(h, p):
                    seg = p + len(h)
                    break
        else:
            n = _drive_users(s, p)
            if n > 0 and self.back(p, 1) in _LETTERS:
                start, seg = p - 1, p + n
        if seg < 0 or not self.path_boundary(start):
            return None
        e = _USER_RUN.match(s, seg).end()  # type: ignore[union-attr]
        if e == seg:
            return None
        end = _path_end(s, e)
        for hit in _NAME_HEADS.finditer(s, seg, end):
            i = hit.start()
            if _credential_at(s, i, s[i - 1]):
                return start, end
        return seg, e

    def path_boundary(self, p: int) -> bool:
        """path_boundary reports whether a home directory's path may start at p: at the start of the output, after a character that is no path character, or after "://" or ":///" (file:///home/…)."""
        c = self.back(p, 1)
        if c == "" or not _is_path(c):
            return True
        if c != "/" or self.back(p, 2) != "/":
            return False
        e = self.back(p, 3)
        return e == ":" or (e == "/" and self.back(p, 4) == ":")

    def path_start(self, p: int) -> int:
        """path_start returns where the path holding p starts: after the output's last character before p that is no path character (the "]" of an earlier redaction at the latest), at its first ASCII character."""
        s = self.s
        n = len(s)
        if self.rs is None:
            self.rs = s[::-1]
        q = p - (_PATH_RUN.match(self.rs, n - p, n - self.flushed).end() - (n - p))  # type: ignore[union-attr]
        return _NON_ASCII_RUN.match(s, q).end()  # type: ignore[union-attr]

    def separator(self, p: int) -> Optional[Tuple[int, int]]:
        """separator tries the shapes that start at a ':' or '='."""
        c = self.s[p]
        # key = value and key: value for a sensitive key. Tried before the
        # URL rule, which starts at the same ':' but redacts less: were the
        # URL rule first, a second pass could redact the "//" it skipped.
        span = self.assignment(p)
        if span is not None:
            return span
        # URL userinfo holding a password: scheme://user:password@host.
        s = self.s
        if s.startswith("://", p):
            j = p + 3
            e = _USERINFO_RUN.match(s, j).end()  # type: ignore[union-attr]
            if e > j and s.startswith("@", e) and s.find(":", j, e) >= 0:
                return j, e
        # A drive letter's home directory.
        if SANITIZE_PATHS and c == ":" and _DRIVE_USERS.match(s, p) is not None:
            return self.home(p)
        return None

    def assignment(self, p: int) -> Optional[Tuple[int, int]]:
        """assignment matches a sensitive key's value around the separator at p.

        That is: the key, up to two quotes or backslashes, spaces, the
        separator, spaces, up to two quotes or backslashes, then the value.
        The backward part is a forward match on the reversed text, ending
        where the output stops being s: at the "]" of the last redaction,
        which is no key character, quote or space, or at the start.
        """
        s = self.s
        n = len(s)
        if self.rs is None:
            self.rs = s[::-1]
        rs = self.rs
        at, stop = n - p, n - self.flushed
        back = _BACK_SCAN.match(rs, at, stop)
        assert back is not None  # every part of it may be empty
        gap = back.end(1) - at
        key = back.group(2)[::-1].lower()  # key characters are ASCII
        if not key:
            return None
        if len(key) > 64:
            key = "\x00" + key[-64:]  # a key this long matches no name exactly
        if not _sensitive_key(key):
            e = back.end()
            before = rs[e] if e < stop else ""
            if not ((key == "code" or key == "sig") and gap == 0 and s[p] == "=" and before != "" and before in "?&#;"):
                return None
        v = _BLANKS.match(s, p + 1).end()  # type: ignore[union-attr]
        for _ in range(2):
            if v < n and s[v] in _QUOTES:
                v += 1
        e = _value_end(s, v)
        if e == v:
            return None
        if key.endswith("authorization") and _RUNS["base64url"].match(s, v).end() == e:  # type: ignore[union-attr]
            # A scheme (Bearer, Basic, AWS4-HMAC-SHA256, …) and its credentials.
            w = _BLANKS.match(s, e).end()  # type: ignore[union-attr]
            if w > e:
                f = _value_end(s, w)
                if f > w:
                    e = f
        return v, e


def _redact(s: str) -> str:
    """_redact is step 3: at each place where a shape may start, the shapes are tried in order; the first that matches is replaced, and the scan goes on after it."""
    starts: List[int] = []
    for hit in _CANDIDATES.finditer(s):
        a = hit.start()
        c = s[a]
        if c in _STARTS_HERE:
            starts.append(a)
        anchors = _ANCHORS.get(c)
        if anchors is not None:
            for lit, i in anchors:
                if a >= i and s.startswith(lit, a - i):
                    starts.append(a - i)
    if not starts:
        return s
    # An anchor stands after its literal's start, so the starts may be out of order.
    starts.sort()
    r = _Redactor(s)
    resume = last = -1
    match = r.match
    for p in starts:
        if p < resume or p == last:
            continue
        last = p
        span = match(p)
        if span is not None:
            a, b = span
            if r.out is None:
                r.out = [s[:a], _REDACTED]
            else:
                r.out += (s[r.flushed:a], _REDACTED)
            r.flushed = resume = b
    if r.out is None:
        return s
    r.out.append(s[r.flushed:])
    return "".join(r.out)


# --- envelope values --------------------------------------------------------

#: _MAX_DEPTH stops the descent into a structure too deep (or cyclic) to be JSON an envelope can carry.
_MAX_DEPTH = 64


def sanitize_value(value: Any) -> Any:
    """sanitize_value returns value with every string in it sanitized.

    That is a string, the strings of a list or tuple, the string values of
    a mapping and the string members of a dataclass, nested ones included
    (mapping keys are kept). A container is copied when a string in it
    changes, never modified; anything else is returned as it is.
    """
    return _sanitize_any(value, 0)


def _sanitize_any(value: Any, depth: int) -> Any:
    if isinstance(value, str):
        return sanitize(value)
    if depth >= _MAX_DEPTH:
        return value
    if isinstance(value, (list, tuple)):
        items = [_sanitize_any(v, depth + 1) for v in value]
        if all(a is b for a, b in zip(items, value)):
            return value
        return tuple(items) if isinstance(value, tuple) else items
    if isinstance(value, Mapping):
        changed = {k: _sanitize_any(v, depth + 1) for k, v in value.items()}
        if all(changed[k] is v for k, v in value.items()):
            return value
        return changed
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        updates = {}
        for f in dataclasses.fields(value):
            v = getattr(value, f.name)
            w = _sanitize_any(v, depth + 1)
            if w is not v:
                updates[f.name] = w
        return dataclasses.replace(value, **updates) if updates else value
    return value
