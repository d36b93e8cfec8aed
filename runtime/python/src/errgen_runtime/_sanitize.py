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
   window, keeps max_length - len(marker) code points (fewer when the cut
   falls inside a [REDACTED]: before it) and gets the truncation marker.

When the window cut the text, its end counts as text that goes on: step 2
also deletes the marker starts there, and a secret that runs to it is
redacted however short (_edge_markers, _edge_secret), so no token character
reaches the output (docs/sanitizer.md, the bound).

Python indexes str by code point, as the specification counts. Each step
returns its input object itself when it changes nothing, so clean text
costs no copy. Every Python step costs far more than a character read by
str methods or the regular expression engine, so the work is pushed into
them: step 2 drops whole runs of markers and runs its automaton only where
a marker may complete across a deletion; step 3's search checks each
shape's conditions around the place it finds, gives the span of the
simple shapes, and reads a run of redactions of one shape at once. Where a
pattern cannot tell (the output's "]" after a redaction, a key reaching
back into one), the place is checked exactly as the specification words
it. No pattern reads the same text again for each of many places (their
runs are bounded, or read once and remembered), so the work is linear;
docs/sanitizer.md ("The Python port's fast paths") gives the details.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Callable, Dict, Iterator, FrozenSet, List, Mapping, Optional, Pattern, Set, Tuple

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
    if cut:
        # The window cut the text: what lies past it could have completed a
        # marker or a secret that reaches its edge.
        s = _edge_markers(s)
    s = _redact(s)
    if cut:
        s = _edge_secret(s)
    if len(s) <= max_length and not cut:
        return s
    return s[: _cut_before(s, max_length - _MARKER_LEN)] + SANITIZE_TRUNCATION_MARKER


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
    s = _REMOVED.sub("", s)
    try:
        # Only a lone surrogate fails to encode: without one, the pass for
        # them is skipped.
        s.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", s)
    return s


# --- 2. markers -------------------------------------------------------------
#
# The specification appends the characters to the output one by one and
# takes a marker off whenever the output ends with one. Done that way in
# Python, every character costs interpreter steps. Three facts let the
# regular expression engine do nearly all of it instead, with the same
# result:
#
# - When no marker holds another, that procedure deletes, over and over,
#   the occurrence of a marker that ends first in the whole text (the output
#   so far never holds a marker, so the next one to complete is the one
#   that ends first), and the earliest-ending occurrence is also the
#   leftmost one.
# - The output before a point where no suffix of it is a proper prefix of a
#   marker (the "state" of the marker automaton is zero there) never
#   changes again: a marker completed later would have to start with such a
#   suffix. So a run of markers found where the state is zero is deleted
#   whole, and the automaton (_marker_machine) runs character by character
#   only from a marker that a proper prefix stands right before, until the
#   state is zero again.
# - When no two markers that can both occur in the text overlap in a way
#   whose two deletions leave different text ("<<" and "<system>" in
#   "<<system>" leave "system>" or "<"), the deletions are confluent: every
#   order of deleting occurrences ends in the same text, so whole passes of
#   re.subn give the result.


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


def _longest(words: List[str]) -> str:
    """_longest is a pattern matching the longest of words that starts where it is tried: a trie, each step greedy, falling back to a shorter word on failure."""
    ends = "" in words
    kids: Dict[str, List[str]] = {}
    for w in words:
        if w:
            kids.setdefault(w[0], []).append(w[1:])
    alts = [re.escape(c) + _longest(rest) for c, rest in sorted(kids.items())]
    if not alts:
        return ""
    body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
    if len(alts) == 1 and not ends:
        return body
    return "(?:" + body + ")" + ("?" if ends else "")


class _MarkerTables:
    """_MarkerTables are step 2's tables for markers of which none holds another; they read the text itself, ASCII case ignored.

    rows is the marker automaton: rows[state] maps a character to the next
    state, -len(marker) when the output then ends with that marker (absent
    characters lead to state 0; state 0 is the empty prefix). run finds a
    run of markers; passes is the same pattern, for re.subn. before finds,
    on the reversed text, the longest proper prefix of a marker that ends at
    a position, and states maps it (reversed, folded by fold) to its state;
    ends holds the characters such a prefix can end with. unconfluent lists,
    per pair of markers whose overlap makes the order of deletions matter,
    the pairs of characters one of which the text must hold for the two to
    meet, and the characters both need (each in its ASCII cases).
    """

    __slots__ = ("rows", "run", "plain", "cased", "before", "states", "fold", "ends", "unconfluent", "longest")

    def __init__(self, markers: Tuple[str, ...]) -> None:
        prefixes: Dict[str, int] = {"": 0}
        for m in markers:
            for k in range(1, len(m)):
                prefixes.setdefault(m[:k], len(prefixes))
        whole = set(markers)
        alphabet = sorted({c for m in markers for c in m})

        def cases(c: str) -> Tuple[str, ...]:
            return (c, c.upper()) if "a" <= c <= "z" else (c,)

        #: longest is the length of the longest marker.
        self.longest = max(len(m) for m in markers)
        self.rows: List[Dict[str, int]] = []
        for p in sorted(prefixes, key=prefixes.__getitem__):
            row: Dict[str, int] = {}
            for c in alphabet:
                t = p + c
                # The longest suffix of t that is a marker or a proper
                # prefix of one; no marker holds another, so a marker that
                # is a suffix is that longest one.
                for k in range(len(t)):
                    if t[k:] in whole:
                        row.update(dict.fromkeys(cases(c), -(len(t) - k)))
                        break
                    if t[k:] in prefixes:
                        row.update(dict.fromkeys(cases(c), prefixes[t[k:]]))
                        break
            self.rows.append(row)
        alternation = "|".join(re.escape(m) for m in markers)
        self.run: Pattern[str] = re.compile("(?ai:(?:" + alternation + ")(?:" + alternation + ")*)")
        self.plain: Tuple[str, ...] = tuple(m for m in markers if not re.search("[a-z]", m))
        cased = [m for m in markers if re.search("[a-z]", m)]
        self.cased: Optional[Pattern[str]] = re.compile("(?ai:" + "|".join(re.escape(m) for m in cased) + ")") if cased else None
        proper = [p for p in prefixes if p]
        self.before: Optional[Pattern[str]] = re.compile("(?ai:" + _longest([p[::-1] for p in proper]) + ")") if proper else None
        self.states: Dict[str, int] = {p[::-1]: prefixes[p] for p in proper}
        # The matched text differs from a folded prefix in ASCII case only;
        # str.lower folds it when every marker is ASCII.
        self.fold: Callable[[str], str] = str.lower if all(m.isascii() for m in markers) else _fold
        self.ends: FrozenSet[str] = frozenset(x for p in proper for x in cases(p[-1]))
        firsts = {m[0] for m in markers}
        unconfluent: Set[Tuple[Tuple[str, ...], Tuple[Tuple[str, ...], ...]]] = set()
        for a in markers:
            for b in markers:
                for k in range(1, min(len(a), len(b))):
                    if a[-k:] != b[:k]:
                        continue
                    # In a + b[k:], deleting a leaves b[k:] and deleting b
                    # leaves a[:-k]: the same text when they are equal and
                    # hold no letter (whose case could differ).
                    if a[:-k] == b[k:] and not re.search("[a-z]", a[:-k]):
                        continue
                    # The two meet only in text holding every character of
                    # both, and where the first two characters of a + b[k:]
                    # stand side by side: in the text itself, or once what
                    # lies between them is deleted, which starts with a
                    # marker's first character.
                    w = a + b[k:]
                    pairs = {w[0] + x for x in {w[1]} | firsts}
                    bigrams = tuple(sorted({x + y for p in pairs for x in cases(p[0]) for y in cases(p[1])}))
                    chars = sorted(set(w), key=lambda c: ("a" <= c <= "z", c))
                    unconfluent.add((bigrams, tuple(cases(c) for c in chars)))
        self.unconfluent: Tuple[Tuple[Tuple[str, ...], Tuple[Tuple[str, ...], ...]], ...] = tuple(sorted(unconfluent))


def _marker_tables() -> Optional[_MarkerTables]:
    markers = tuple(dict.fromkeys(_MARKERS))
    if not markers or any(not m for m in markers) or any(a != b and a in b for a in markers for b in markers):
        return None
    return _MarkerTables(markers)


#: _MT are step 2's tables, or None when a marker holds another (then _remove_markers_general runs).
_MT: Optional[_MarkerTables] = _marker_tables()
#: _MARKER_PASSES bounds the passes of re.subn in the confluent case; deeper nesting finishes with the automaton, so the work stays linear.
_MARKER_PASSES = 6
#: _MARKER_SLACK is how many Python steps _remove_markers_exact may take beyond a quarter of the characters it has passed before it checks whether passes can take the rest.
_MARKER_SLACK = 128


def _remove_markers(s: str) -> str:
    """_remove_markers is step 2: markers (ASCII case ignored) are deleted until none remain, as if the characters were appended to the output one by one and a marker taken off whenever the output ends with one."""
    if _MARKER_ANY is None:
        return s
    for c in _MARKER_LAST:
        if c in s:
            break
    else:
        return s
    t = _MT
    if t is None:
        if _MARKER_ANY.search(s) is None:
            return s
        return _remove_markers_general(s)
    first = t.run.search(s)
    if first is None:
        return s
    return _remove_markers_exact(s, t, first)


def _confluent(s: str, t: _MarkerTables) -> bool:
    """_confluent reports whether no two markers whose order of deletion matters can meet in s."""
    found: Dict[str, bool] = {}
    for bigrams, chars in t.unconfluent:
        for cs in chars:
            for c in cs:
                if c not in found:
                    found[c] = c in s
                if found[c]:
                    break
            else:
                break
        else:
            for x in bigrams:
                if x not in found:
                    found[x] = x in s
                if found[x]:
                    return False
    return True


def _remove_markers_passes(s: str, t: _MarkerTables) -> str:
    """_remove_markers_passes is step 2 for text in which the order of deletions does not matter: markers without letters are deleted by str.replace, the others by one pass of re.subn, over and over until nothing changes; if the nesting runs deeper than _MARKER_PASSES, the automaton finishes."""
    for _ in range(_MARKER_PASSES):
        n = len(s)
        for m in t.plain:
            if m in s:
                s = s.replace(m, "")
        if t.cased is not None:
            s = t.cased.sub("", s)
        if len(s) == n:
            return s
    first = t.run.search(s)
    return s if first is None else _remove_markers_exact(s, t, first)


def _remove_markers_exact(s: str, t: _MarkerTables, m: "re.Match[str]") -> str:
    """_remove_markers_exact deletes markers in the specification's order, whatever the markers (none holding another).

    m is the first run of markers in s. The output is s[:i] less the pieces
    not in out, and its state is zero at i: runs of markers found there are
    dropped whole, and the automaton runs from a run that a proper prefix
    of a marker stands right before. Both cost Python steps per run of
    markers and per character the automaton reads: when they grow dense (a
    crafted text), the rest of the text, which nothing before i can join,
    goes to _remove_markers_passes if the order of deletions does not
    matter there.
    """
    n = len(s)
    rows, run, before, states, fold, ends = t.rows, t.run, t.before, t.states, t.fold, t.ends
    rs = ""
    out: List[str] = []
    i = 0
    # last is the length of the text the last step read from i to i (the
    # state zero at both ends), kept once track is set (steps dense enough
    # that spent reached its check); see _marker_copies.
    last = 0
    track = False
    i0 = o0 = 0
    # spent counts the Python steps (a run 4, a character read 1), checked
    # against a quarter of the characters passed, plus _MARKER_SLACK.
    spent = 0
    while True:
        if spent > (i >> 2) + _MARKER_SLACK:
            track = True
            if _confluent(s[i:], t):
                out.append(_remove_markers_passes(s[i:], t))
                return "".join(out)
            spent = -n
        spent += 4
        a, b = m.span()
        if track:
            i0, o0 = i, len(out)
        st = 0
        if a > i and s[a - 1] in ends:
            if not rs:
                rs = s[::-1]
            hit = before.match(rs, n - a, n - i)  # type: ignore[union-attr]
            if hit is not None:
                st = states[fold(hit.group())]
        if st == 0:
            out.append(s[i:a])
            i = b
        else:
            # The automaton from a: top is its state, stack the states
            # before each kept character from a; deleting past them takes
            # characters off the pending text s[i:left] and recomputes the
            # state there.
            left, top = a, st
            kept: List[int] = []
            stack: List[int] = []
            k = a
            while k < n:
                nx = rows[top].get(s[k], 0)
                if nx > 0:
                    stack.append(top)
                    kept.append(k)
                    top = nx
                    k += 1
                    continue
                k += 1
                if nx == 0:
                    kept.append(k - 1)
                    break
                d = -nx - 1
                if d <= len(kept):
                    if d:
                        top = stack[-d]
                        del kept[-d:]
                        del stack[-d:]
                else:
                    left -= d - len(kept)
                    kept.clear()
                    stack.clear()
                    top = 0
                    if left > i and s[left - 1] in ends:
                        hit = before.match(rs, n - left, n - i)  # type: ignore[union-attr]
                        if hit is not None:
                            top = states[fold(hit.group())]
                if top == 0:
                    break
            spent += k - a
            out.append(s[i:left])
            if kept:
                lo = hi = kept[0]
                for q in kept[1:]:
                    if q != hi + 1:
                        out.append(s[lo:hi + 1])
                        lo = q
                    hi = q
                out.append(s[lo:hi + 1])
            i = k
        if track:
            if i - i0 == last and i < n and s[i] == s[i0]:
                i = _marker_copies(s, i0, i, max(b + t.longest, i), out, o0)
            last = i - i0
        nm = run.search(s, i)
        if nm is None:
            break
        m = nm
    out.append(s[i:])
    return "".join(out)


def _marker_copies(s: str, i0: int, i: int, reach: int, out: List[str], o0: int) -> int:
    """_marker_copies appends to out, for each exact copy of s[i0:i] that follows i (and can be trusted), what the step from i0 to i appended (out[o0:]), and returns where the copies end.

    From a point where the automaton's state is zero, what step 2 does
    depends only on the text from there: the step from i0 read no further
    than reach (the run of markers found, and the longest marker past it,
    which the search may have tried; or the automaton's last character),
    and ended at i with the state zero again. A copy of s[i0:i] at i is
    read the same way if the text up to reach past its start is copies
    too; the last copies, which are not, are left to the loop.
    """
    p = i - i0
    unit = s[i0:i]
    if not s.startswith(unit, i):
        return i
    lo, hi = 1, (len(s) - i) // p
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if s.startswith(unit * mid, i):
            lo = mid
        else:
            hi = mid - 1
    # The copies at i, i + p, … read s[i0:reach] shifted; all of it must lie
    # within s[i0:i + lo * p], the text made of copies.
    c = lo + 1 - -(-(reach - i0) // p)
    if c < 1:
        return i
    out.append("".join(out[o0:]) * c)
    return i + c * p


def _remove_markers_general(s: str) -> str:
    """_remove_markers_general is step 2 for markers of which one holds another.

    Characters are appended to the output one by one, and whenever the
    output ends with a marker (the first in the contract's order), the
    marker is taken off again. The output is kept as ranges of s, since it
    is always made of pieces of s: out holds the ranges before start, and
    s[start:j] is the rest of the output, up to the character just
    appended. Only characters a marker ends with need a look.
    """
    assert _MARKER_ENDS is not None
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
#
# One compiled search finds the places where a shape may be tried, each by
# its rarest character and with the shape's own conditions checked around
# it where fixed-width lookarounds can (a value after a sensitive key's
# separator, a whole name segment, a run long enough, a boundary before a
# home directory), so that text made of near misses is skipped inside the
# regular expression engine. Each place found is then checked exactly as
# the specification words it. The conditions read the text, not the output:
# they differ only right after a redaction, where the output's previous
# character is "]", and the positions that difference can turn into a match
# are tried directly.

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
_SEPARATORS: FrozenSet[str] = frozenset(":=")
#: _VALUE_START: the ASCII characters a value may start with: printable, not a space, quote, backslash or one of & , ; < > ( ) [ ] { }.
_VALUE_START: FrozenSet[str] = frozenset(chr(c) for c in range(0x21, 0x7F)) - frozenset("\"'`\\&,;<>()[]{}")
#: _VALUE_RUN: a value runs up to white space, a control, a quote, a backslash or one of & , ; < > ( ) [ ] { }; non-ASCII characters belong to it.
_VALUE_RUN = re.compile("[^\x00-\x20\x7f\"'`\\\\&,;<>()\\[\\]{}]*")
#: _USERINFO_RUN: the printable ASCII characters of a URL's userinfo (no space, quote, backslash or / ? # @ [ ] < > { }).
_USERINFO = "!$-.0-9:;=A-Z^_a-z|~"
_USERINFO_RUN = re.compile("[" + _USERINFO + "]*")
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
#: _SEGMENT_CLASS and _PATH_CLASS are the path characters but the separators, and all of them, inside [].
_SEGMENT_CLASS = "A-Za-z0-9._~+@%$\\-\x80-\U0010ffff"
_PATH_CLASS = _SEGMENT_CLASS + "/\\\\"
_PATH_RUN = re.compile("[" + _PATH_CLASS + "]*")
#: _USER_RUN: a home directory's user name, the path characters but the separators.
_USER_RUN = re.compile("[" + _SEGMENT_CLASS + "]*")
_NON_ASCII_RUN = re.compile("[\x80-\U0010ffff]*")
_DOTS = re.compile("\\.*")
_SPACES = re.compile("[ \t\n\r]*")
_LETTERS: FrozenSet[str] = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def _class_of(chars: "Set[str] | FrozenSet[str]") -> str:
    """_class_of is a regular expression class ([...]) matching exactly chars."""
    return "[" + "".join(re.escape(c) for c in sorted(chars)) + "]"


#: _NAME_END is _name_ends as a pattern, exactly: full stops, then a separator, the end, a whole run of white space before an ASCII character or the end, or an ASCII character that is neither a path character nor "[".
_NAME_END = ("\\.*(?:\\Z|[/\\\\]|[ \t\n\r]+(?![ \t\n\r])(?:\\Z|[\x00-\x7f])|"
             + _class_of({chr(c) for c in range(0x80)} - _PATH_ASCII - _SPACE - {"["}) + ")")


def _name_pattern(name: str) -> str:
    """_name_pattern matches a credential name, a "/" in it standing for one or more separators."""
    return "[/\\\\]+".join(re.escape(part) for part in name.split("/"))


#: _NAMES lists, per first character, the credential names as patterns; _NAME_FIRST holds the first characters of the names and key file extensions; _NAME_HEADS finds where one may start (their first three characters).
_NAMES: Dict[str, List[Pattern[str]]] = {}
_NAME_FIRST: FrozenSet[str] = frozenset()
_NAME_HEADS = re.compile("(?!)")
if SANITIZE_PATHS:
    for _n in SANITIZE_CREDENTIAL_NAMES:
        _NAMES.setdefault(_n[0], []).append(re.compile(_name_pattern(_n)))
    _heads = sorted({n[:3] for n in tuple(SANITIZE_CREDENTIAL_NAMES) + _KEY_EXTENSIONS})
    _NAME_FIRST = frozenset(h[0] for h in _heads)
    _NAME_HEADS = re.compile("(?=" + "|".join(re.escape(h) for h in _heads) + ")")


def _is_path(c: str) -> bool:
    return c >= "\x80" or c in _PATH_ASCII


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


def _anchor_rank(lit: str, k: int) -> int:
    """_anchor_rank orders the characters of a literal by how rarely ordinary text holds them; a character with the same one beside it comes last (a run of it, as in -----BEGIN, would reach the literals at every character)."""
    c = lit[k]
    if (k > 0 and lit[k - 1] == c) or (k + 1 < len(lit) and lit[k + 1] == c):
        return 4
    if c in "-_":
        return 0
    if "A" <= c <= "Z" or c in "./":
        # "." and "/" start the path shapes (.ssh, .pem, /home/): rarer in
        # text than the lower-case letters after them.
        return 1
    if "0" <= c <= "9":
        return 2
    return 3


#: The kinds of place the candidate search reports. The fast ones carry the
#: span to redact in a group of the match: _Redactor.match would find the
#: same span (the search checks their whole shape, and no other literal can
#: start at the same place), provided the output's previous character is the
#: text's (p > flushed) for _WORD and _BEARER_TOKEN, and the key's suffix lies
#: after the last redaction for _SUFFIX (a sensitive key, but a gap before
#: the separator) and _AUTH (a key ending with
#: authorization: the span is read on from its value's start, a scheme's
#: credentials included). For _NAME (a credential name) and _EXT (a key file
#: extension), the span runs from the start of the path (_Redactor.path_start)
#: to the end of the path characters from the literal (a group), less the
#: backslashes that end them. _QUOTED is _SUFFIX with one quote, space or
#: tab between the key and the separator ("auth": in JSON), the key's end
#: lying after the last redaction. _NO_JWT is eyJ, generic, passed over
#: before _Redactor.no_jwt.
_GENERIC, _WORD, _PREFIXED_RUN, _NO_JWT, _BEARER_TOKEN, _SUFFIX, _URL, _AUTH, _NAME, _EXT, _QUOTED = range(11)
#: The shapes of redactions, for _continuations; _S_HOMES_APART names the continuation of homes each ending its own path.
_S_OTHER, _S_WORD, _S_ASSIGN, _S_URL, _S_HOME, _S_PATH, _S_HOMES_APART = range(7)
#: _KIND_SHAPES maps a fast kind to its shape (the generic kinds' shape is _Redactor.shape).
_KIND_SHAPES = {_GENERIC: _S_OTHER, _WORD: _S_WORD, _PREFIXED_RUN: _S_OTHER, _NO_JWT: _S_OTHER, _BEARER_TOKEN: _S_OTHER, _SUFFIX: _S_ASSIGN, _URL: _S_URL, _AUTH: _S_ASSIGN, _NAME: _S_PATH, _EXT: _S_PATH, _QUOTED: _S_ASSIGN}


def _literal_conditions(jwt: bool = True) -> Dict[str, List[Tuple[str, str, int, int]]]:
    """_literal_conditions maps each literal a shape starts with to its conditions, in the specification's order of the shapes: (a zero-width pattern true where the literal starts, a pattern that must follow the literal, the kind, the shape's rank in that order); a place passing none is no candidate. A fast kind's pattern holds one group, ending where the redaction does."""
    conds: Dict[str, List[Tuple[str, str, int, int]]] = {}

    def add(lit: str, before: str, after: str, kind: int, rank: int) -> None:
        conds.setdefault(lit, []).append((before, after, kind, rank))

    b64url = "[" + _CLASSES["base64url"] + "]"
    # A private key block: a label of at most 64 of [A-Z0-9 ] holding PRIVATE KEY, then -----.
    add("-----BEGIN ", "", "(?=[A-Z0-9 ]{0,53}PRIVATE KEY)[A-Z0-9 ]{0,64}-----", _GENERIC, 0)
    for w in _WORD_PREFIXES:
        add(w, "(?<![^ \t\n\r])", "(?P<SPAN>[^ \t\n\r]*)", _WORD, 1)
    for prefixes, cls, least in _BUILTIN_SECRETS + tuple(SANITIZE_SECRETS):
        for p in prefixes:
            add(p, "", "(?P<SPAN>[" + _CLASSES[cls] + "]{" + str(least) + ",})", _PREFIXED_RUN, 2)
    # (At least the first part's ten characters: the rest, read to the end
    # of a run that may hold many eyJ, is for _Redactor.match, which reads
    # each run once.)
    if jwt:
        add("eyJ", "", b64url + "{7}", _NO_JWT, 3)
    if SANITIZE_PATHS:
        for h in _HOME_PREFIXES:
            add(h, "(?:(?<![" + _PATH_CLASS + "])|(?<=://)|(?<=:///))", "[" + _SEGMENT_CLASS + "]", _GENERIC, 4)
        for n in SANITIZE_CREDENTIAL_NAMES:
            segments = n.split("/")
            rest = "".join("[/\\\\]+" + re.escape(x) for x in segments[1:])
            # (With the run of path characters from the name's end, which the
            # span ends with, when the name is ASCII path characters.)
            run = ")(?P<SPAN>[" + _PATH_CLASS + "]*" if all(c in _PATH_ASCII for c in n) else ""
            add(segments[0], "(?<![" + _SEGMENT_CLASS + "])", "(?=" + rest + _NAME_END + run + ")", _NAME if run else _GENERIC, 5)
        for x in _KEY_EXTENSIONS:
            add(x, "(?<=[" + _SEGMENT_CLASS + "])", "(?=" + _NAME_END + ")(?P<SPAN>[" + _PATH_CLASS + "]*)", _EXT, 6)
    return conds


def _compatible(x: str, y: str, d: int, fold: bool) -> bool:
    """_compatible reports whether y can start d characters into x (they agree where they overlap)."""
    n = min(len(x) - d, len(y))
    if fold:
        return x[d:d + n].lower() == y[:n].lower()
    return x[d:d + n] == y[:n]


def _inverted(branches: List[Tuple[str, int, bool, List[str]]]) -> bool:
    """_inverted reports whether two places could be found out of order, or one hidden by the other at the same character: a literal that can start inside another, before the other's anchor, with its own anchor no later.

    Each branch is (literal, anchor offset, ASCII case ignored, the patterns
    that must hold where the literal starts: a place passing none of them
    is no candidate); the text before the inner literal is the outer one's.
    """
    for x, ox, fx, _ in branches:
        for y, oy, fy, befores in branches:
            for d in range(1, ox - oy + 1):
                if _compatible(x, y, d, fx or fy):
                    w = x[:d] + y
                    if any(not b or re.compile(b).match(w, d) for b in befores):
                        return True
    return False


def _trie(entries: List[Tuple[str, Callable[[], str]]]) -> str:
    """_trie reads each entry's string as a trie of its characters, then writes the entry's pattern (emitted in the order they appear)."""
    here = [emit for rest, emit in entries if not rest]
    kids: Dict[str, List[Tuple[str, Callable[[], str]]]] = {}
    for rest, emit in entries:
        if rest:
            kids.setdefault(rest[0], []).append((rest[1:], emit))
    alts = [emit() for emit in here] + [re.escape(c) + _trie(sub) for c, sub in kids.items()]
    return alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"


def _candidates_pattern(jwt: bool = True) -> Tuple[Pattern[str], List[Tuple[int, int, int, int]]]:
    """_candidates_pattern finds the places where a shape of step 3 may be tried.

    A shape starts with a literal (a prefix, -----BEGIN, eyJ, bearer, a home
    prefix, a credential name, : or =). Rather than the literal's first
    character, which is often a common letter, each literal is found at its
    rarest character (its anchor), checked around it with fixed-width
    lookarounds, so that the engine skips through text at the speed of a
    character class; a gate on the character before the anchor turns most
    anchors of ordinary text away before the literals are tried one by one.
    Each condition ends with an empty group, which the match's lastindex
    names: kinds[lastindex] is (the anchor's offset in the literal, the
    kind, the group holding the span of a fast kind, its shape). Every
    match ends one character past its start, so the places are found by one
    finditer. The pattern is a
    necessary condition only; _Redactor.match decides the generic kind.
    When two literals could be found out of order, every literal is found
    at its first character instead. Without jwt, eyJ is no JSON Web Token
    (for the text before _Redactor.no_jwt).
    """
    conds = _literal_conditions(jwt)
    seps = {":": [""], "=": [""]}
    lits: List[Tuple[str, bool]] = [(lit, False) for lit in conds] + [(":", False), ("=", False), ("bearer", True)]

    def alone(lit: str, fold: bool) -> bool:
        """alone reports whether no other literal can start where lit does."""
        return not any(other != lit and (_compatible(lit, other, 0, fold or f)) for other, f in lits)

    anchors: Dict[str, int] = {}
    for first_only in (False, True):
        anchors = {lit: 0 if first_only else min(range(len(lit)), key=lambda k: (_anchor_rank(lit, k), -k)) for lit in conds}
        found = [(lit, anchors[lit], False, [b for b, _, _, _ in cs]) for lit, cs in conds.items()]
        found += [(c, 0, False, seps[c]) for c in seps] + [("bearer", 0, True, [""])]
        if not _inverted(found):
            break
    conditions: List[Tuple[int, int]] = []

    def group(kind: int, offset: int, pat: str) -> str:
        """group returns pat, a condition's pattern, with a group that ends it and names it: its span's group s<n> (written (?P<SPAN>…) in pat, and closing last), or else an empty group m<n>. Few groups keep the engine's work per match small."""
        n = len(conditions)
        if "(?P<SPAN>" in pat:
            conditions.append((offset, kind))
            return pat.replace("(?P<SPAN>", "(?P<s%d>" % n)
        conditions.append((offset, kind if kind == _NO_JWT else _GENERIC))
        return pat + "(?P<m%d>)" % n

    # Per anchor character: the literals anchored past their first
    # character (behind a gate on the character before the anchor), then
    # the others. Under each, the conditions are grouped by shape (in the
    # specification's order), anchor offset, kind and the patterns around
    # the literal, each group of literals read as a trie and named by one
    # group of the pattern.
    by_anchor: Dict[str, List[str]] = {}
    for lit in conds:
        by_anchor.setdefault(lit[anchors[lit]], []).append(lit)
    pattern = []
    for c, group_lits in by_anchor.items():
        alts = []
        for gated in (True, False):
            classes: Dict[Tuple[int, int, int, str, str], List[str]] = {}
            for lit in group_lits:
                i = anchors[lit]
                if (i > 0) != gated:
                    continue
                one = alone(lit, False)
                for before, after, kind, rank in conds[lit]:
                    classes.setdefault((rank, i, kind if one else _GENERIC, before, after), []).append(lit)
            bodies = []
            for (_, i, kind, before, after), lits_ in sorted(classes.items(), key=lambda kv: kv[0][0]):
                def leaf(lit: str, before: str = before, i: int = i) -> Callable[[], str]:
                    return lambda: "(?<=" + before + re.escape(lit) + ")" if before or i > 0 else ""
                # (Read in a lookahead: a match ends just past its anchor, so
                # the search goes on from there and no place is read over.)
                read = _trie([(lit[i + 1:], leaf(lit)) for lit in lits_])
                bodies.append(group(kind, i, "(?=" + read + ("(?=" + after + ")" if after else "") + ")"))
            if not bodies:
                continue
            body = bodies[0] if len(bodies) == 1 else "(?:" + "|".join(bodies) + ")"
            if gated:
                gate = {lit[anchors[lit] - 1] for lit in group_lits if anchors[lit] > 0}
                body = "(?<=" + _class_of(gate) + re.escape(c) + ")" + body
            alts.append(body)
        pattern.append(re.escape(c) + (alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"))
    # A separator where an assignment may start (a sensitive key's suffix or
    # exact name before it, by the key's last character, or quotes and
    # spaces between a key and it, then a value), where URL credentials
    # start (://, a userinfo run holding :, then @), or a drive's home
    # directory. Matched from the separator.
    # (At most 64 characters of the value: the rest of a longer one is read
    # once it is redacted, so that separators inside one long value, each
    # a candidate, do not read it each to its end.)
    value = "(?=[ \t]*[\"'\\\\]{0,2}(?P<SPAN>" + _class_of(_VALUE_START) + _VALUE_RUN.pattern[:-1] + "{0,63}))"
    plain_value = "(?=[ \t]*[\"'\\\\]{0,2}" + _class_of(_VALUE_START) + ")"
    sep_fast = alone(":", False) and alone("=", False)
    for sep in ":=":
        e = re.escape(sep)
        # Every rule of _sensitive_key, checked on the key's last
        # characters: a suffix; _key or -key but no harmless name (one that
        # is the key, or follows a character that is no letter or digit); a
        # name that is the whole key; code or sig after a query character.
        # The value's start (and its first 64 characters) is captured.
        # (The harmless names in one lookbehind per length.)
        harmless_by_len: Dict[int, List[str]] = {}
        for h in _KEY_HARMLESS:
            harmless_by_len.setdefault(len(h), []).append(re.escape(h[:-4]).replace("_", "[_\\-]"))
        harmless = "".join("(?<!(?<![A-Za-z0-9])(?:" + "|".join(hs) + ")[_\\-]key" + re.escape(sep) + ")" for _, hs in sorted(harmless_by_len.items()))
        keys = [("(?<=" + re.escape(k + sep) + ")", k[-1]) for k in _KEY_SUFFIXES if k != "authorization"]
        keys += [("(?<=" + re.escape(k + sep) + ")" + harmless, k[-1]) for k in ("_key", "-key")]
        keys += [("(?<=" + re.escape(k + sep) + ")(?<![A-Za-z0-9_.\\-]" + re.escape(k + sep) + ")", k[-1]) for k in sorted(_KEY_EXACT)]
        if sep == "=":
            keys += [("(?<=[?&#;]code=)", "e"), ("(?<=[?&#;]sig=)", "g")]
        # Grouped by the key's last character, behind a gate on it; then
        # authorization, whose scheme's credentials go with its value.
        by_last: Dict[str, List[str]] = {}
        for behind, last in keys:
            by_last.setdefault(last, []).append(behind)
        lbs = ["(?ai:(?<=" + re.escape(last + sep) + "))" + ("(?ai:" + bs[0] + ")" if len(bs) == 1 else "(?ai:" + "|".join(bs) + ")") for last, bs in by_last.items()]
        keyed = "(?ai:(?<=" + _class_of(set(by_last)) + e + "))(?:" + "|".join(lbs) + ")"
        alts = [group(_SUFFIX if sep_fast else _GENERIC, 0, keyed + value)]
        auth = "(?ai:(?<=authorization" + e + "))(?=[ \t]*[\"'\\\\]{0,2}(?P<SPAN>)" + _class_of(_VALUE_START) + ")"
        alts.append(group(_AUTH if sep_fast else _GENERIC, 0, auth))
        # Quotes and spaces between the key and the separator: a sensitive
        # key before a gap of one to five of them, checked at that distance
        # (the key's last character first); a longer gap is left to
        # _Redactor.match.
        gap = "[ \t\"'\\\\]"
        gapped = [k for k in _KEY_SUFFIXES + ("_key", "-key")] + ["!" + k for k in sorted(_KEY_EXACT)]

        def gap_keys(keys: List[str], w: int) -> str:
            """gap_keys matches where one of keys stands before a gap of w and the separator, the gate on its last character passed."""
            at = gap + "{%d}" % w + e
            return "(?ai:" + "|".join("(?<=" + re.escape(k) + at + ")" if k[0] != "!" else "(?<=" + re.escape(k[1:]) + at + ")(?<![A-Za-z0-9_.\\-]" + re.escape(k[1:]) + at + ")" for k in keys) + ")"

        def gap_gate(w: int) -> str:
            return "(?ai:(?<=" + _class_of({k[-1] for k in gapped}) + gap + "{%d}" % w + e + "))"

        # A gap of one ("auth": in JSON): a key that is sensitive whatever
        # stands before it (a suffix but authorization, whose scheme goes
        # with its value, or a whole name; not _key or -key, which a
        # harmless name may end with) carries its value's span, as _SUFFIX;
        # the others go to _Redactor.match.
        sure = [k for k in gapped if k not in ("_key", "-key", "authorization")]
        gap_one = gap_gate(1) + "(?:" + group(_QUOTED if sep_fast else _GENERIC, 0, gap_keys(sure, 1) + value) + "|" + group(_GENERIC, 0, gap_keys([k for k in gapped if k not in sure], 1) + plain_value) + ")"
        # (Six or more first: such a gap goes to _Redactor.match at once,
        # unless the character before its last six is neither a key
        # character nor one of the gap's: the backward scan then finds no
        # key, as in a run of spaces and separators.)
        widths = ["(?<=[A-Za-z0-9_.\\- \t\"'\\\\]" + gap + "{6}" + e + ")"] + [gap_gate(w) + gap_keys(gapped, w) for w in range(2, 6)]
        # (Behind a gate on the two characters before the separator: a gap
        # of one after a key's last character, or a longer gap.)
        lasts = {x for k in gapped for x in (k[-1], k[-1].upper())}
        alts.append("(?<=" + _class_of(lasts | set(" \t\"'\\")) + gap + e + ")(?:" + gap_one + "|" + group(_GENERIC, 0, "(?:" + "|".join(widths) + ")" + plain_value) + ")")
        # One gate for all of these: the character before the separator.
        gate = {x for k in list(by_last) + ["n"] for x in (k, k.upper())} | set(" \t\"'\\")
        alts = ["(?<=" + _class_of(gate) + e + ")(?:" + "|".join(alts) + ")"]
        if sep == ":":
            slash = [group(_URL if sep_fast else _GENERIC, 0, "(?=//(?P<SPAN>[" + _USERINFO.replace(":", "") + "]*:[" + _USERINFO + "]*)@)")]
            if SANITIZE_PATHS:
                boundary = "(?:(?<![" + _PATH_CLASS + "][A-Za-z]:)|(?<=://[A-Za-z]:)|(?<=:///[A-Za-z]:))"
                slash.append(group(_GENERIC, 0, "(?<=[A-Za-z]:)" + boundary + "(?=(?:\\\\\\\\|\\\\|/)" + _caseless("users", False) + "[\\\\/])"))
            alts.append("(?=[/\\\\])(?:" + "|".join(slash) + ")")
        pattern.append(e + "(?:" + "|".join(alts) + ")")
    rest = _caseless("earer", False) + "[ \t]+(?P<SPAN>[" + _CLASSES["token"] + "]{8,})"
    for b in "bB":
        pattern.append(b + group(_BEARER_TOKEN if alone("bearer", True) else _GENERIC, 0, "(?<![A-Za-z0-9]" + b + ")(?=" + rest + ")"))
    compiled = re.compile("|".join(pattern))
    # Per group number: (anchor offset, kind, the group of the span) for the
    # groups ending a condition; the others are never a match's lastindex.
    kinds = [(0, _GENERIC, 0, _S_OTHER)] * (compiled.groups + 1)
    for n, (offset, kind) in enumerate(conditions):
        span = compiled.groupindex.get("s%d" % n, 0)
        kinds[span or compiled.groupindex["m%d" % n]] = (offset, kind, span, _KIND_SHAPES[kind])
    return compiled, kinds


_CANDIDATES, _KINDS = _candidates_pattern()
_CANDIDATES_NO_JWT, _KINDS_NO_JWT = _candidates_pattern(False)
#: _RETRY holds the characters a shape tried at the position right after a redaction may start with when that shape reads the output's previous character ("]" there, not the text's): bearer, a home directory and a credential name.
_RETRY: FrozenSet[str] = frozenset("bB" + ("/" if SANITIZE_PATHS else "")) | _NAME_FIRST
#: _KEY_AT matches a key up to its separator (the assignment's backward scan, forwards).
_KEY_AT = re.compile("[A-Za-z0-9_.\\-]{1,65}[\"'\\\\]{0,2}[ \t]*[:=]")
#: _LONGEST_SUFFIX is the length of the longest sensitive key suffix.
_LONGEST_SUFFIX = max(len(k) for k in _KEY_SUFFIXES)


# Continuations. Text made of nothing but secrets (a crafted input, or a
# dump of credentials) costs a few Python steps per redaction, which caps
# its throughput. After two redactions of the same shape close together,
# a continuation pattern reads on at once as many more of that shape as
# follow, each with the text before it: one unit per redaction, whose
# group holds what is kept (the text between redactions) and whose rest is
# redacted. A unit is written so that it matches exactly what the
# specification's scan would do there, with the output's "]" before it:
# the text between redactions holds no place where any literal starts
# (the guard), and each unit's parts end where the next must start, so
# the engine cannot split the text into units differently.


def _continuations() -> Dict[int, Tuple[str, str, Optional[str]]]:
    """_continuations maps a shape to the patterns (not compiled) of a run of its units, of one unit as the run is split, and of a unit followed by its exact copies (_copies; None for shapes whose units may read before their start).

    A run is matched in the text; its units are then split from the run
    alone, where no pattern can look past its end: so no unit looks past
    its own end but through a part the run checks.
    """
    conds = _literal_conditions()

    def guard(below: int) -> str:
        """guard is true where no literal of a shape ranked below below (4: before home directories, 5: before credential names, 6: before key file extensions, 7: all) starts, nor bearer; first on the character alone."""
        lits = sorted((lit for lit, cs in conds.items() if any(c[3] < below for c in cs)), key=lambda lit: (-len(lit), lit))
        cls = _class_of({lit[0] for lit in lits} | {"b", "B"})
        # The two branches exclude each other: inside a repeat, a place
        # that both could take would make a failing match try every mix.
        # (The literals read as a trie: a character is compared with each
        # first character once, not with every literal.)
        return "(?:(?!" + cls + ")|(?=" + cls + ")(?!" + _longest(lits) + "|" + _caseless("bearer", False) + "))"

    every = guard(7)

    def guarded(chars: str) -> str:
        """guarded matches one of chars (a class's inside) where every passes: the characters no literal starts with at once, the others after the literals' trie."""
        lits = sorted((lit for lit in conds), key=lambda lit: (-len(lit), lit))
        firsts = {lit[0] for lit in lits} | {"b", "B"}
        cs = {c for c in map(chr, range(128)) if re.fullmatch("[" + chars + "]", c)}
        out = [_class_of(cs - firsts)] if cs - firsts else []
        if cs & firsts:
            out.append("(?!" + _longest(lits) + "|" + _caseless("bearer", False) + ")" + _class_of(cs & firsts))
        return out[0] if len(out) == 1 else "(?:" + "|".join(out) + ")"
    units: Dict[int, str] = {}
    # Between two redactions: white space, or one character that is no path
    # character and starts no shape (a separator there finds no key, as
    # "]" stands right before it, and a drive's home needs a letter).
    apart = "(?:[ \t\n\r]+|[?:=,;])"
    words = "|".join(re.escape(w) for w in sorted(_WORD_PREFIXES, key=lambda w: (-len(w), w)))
    units[_S_WORD] = "([ \t\n\r]+)(?:" + words + ")[^ \t\n\r]*"
    # (The run checks the "@" after each userinfo; a unit, which splits the
    # run, stops at the end of the run.)
    units[_S_URL] = "([@ \t\n\r]*://)[" + _USERINFO.replace(":", "") + "]*:[" + _USERINFO + "]*"
    if SANITIZE_PATHS:
        homes = "|".join(re.escape(h) for h in _HOME_PREFIXES)
        units[_S_HOME] = "(" + guard(4) + "(?:" + homes + "))[" + _SEGMENT_CLASS + "]+"
        # Homes apart (/Users/a:/Users/b:…): after a character that is no
        # path character, a home whose path ends with its user name, in
        # which no credential name or key file extension starts (none of
        # their first three characters), so that the user name is redacted.
        heads = "|".join(re.escape(h) for h in sorted({n[:3] for n in tuple(SANITIZE_CREDENTIAL_NAMES) + _KEY_EXTENSIONS}))
        units[_S_HOMES_APART] = ("(" + apart + guard(4) + "(?:" + homes + "))(?:(?!" + heads + ")[" + _SEGMENT_CLASS + "])+"
                                 + "(?![" + _PATH_CLASS + "])")
        names = "|".join(_name_pattern(n) for n in sorted(SANITIZE_CREDENTIAL_NAMES, key=lambda n: (-len(n), n)))
        exts = "|".join(re.escape(x) for x in _KEY_EXTENSIONS)
        # After white space, a credential name, or a segment of ASCII path
        # characters (where no literal starts) ending in a key file
        # extension; then the rest of the path, less the backslashes that
        # end it.
        segment = "(?:" + every + "[A-Za-z0-9._~+@%$\\-])(?:" + every + "[A-Za-z0-9._~+@%$\\-])*?" + guard(6) + "(?:" + exts + ")"
        units[_S_PATH] = ("(" + apart + ")(?:" + guard(5) + "(?:" + names + ")|" + segment + ")(?=" + _NAME_END + ")"
                          + "[" + _PATH_CLASS + "]*(?<!\\\\)")
    # Assignments (pwd=x pwd=x …, "auth":"a","auth":"b"…): after white
    # space, quotes, backslashes, & , or ; (a value ends there, so the one
    # before is whole) and separators after them (the backward scan finds
    # no key there), a key of at most 64 characters in which no literal
    # starts and which is sensitive by _sensitive_key's rules (not
    # authorization, whose scheme goes with its value); the gap before and
    # after the separator as the backward and forward scans read it; then
    # the whole value.
    between = "[ \t\"'\\\\,;&]"
    # (The key is read whole, then told sensitive by lookbehinds at its
    # end, grouped by its last character: the key's start is the end of
    # what comes before it, which holds no key character.)
    ends: Dict[str, List[str]] = {}
    for k in sorted(_KEY_EXACT):
        ends.setdefault(k[-1], []).append("(?<=" + re.escape(k) + ")(?<![A-Za-z0-9_.\\-]" + re.escape(k) + ")")
    for k in _KEY_SUFFIXES:
        if k != "authorization":
            ends.setdefault(k[-1], []).append("(?<=" + re.escape(k) + ")")
    # (The harmless names in one lookbehind per length.)
    by_len: Dict[int, List[str]] = {}
    for h in _KEY_HARMLESS:
        by_len.setdefault(len(h), []).append(re.escape(h[:-4]))
    ends["y"].append("(?<=[_\\-]key)" + "".join("(?<!(?<![A-Za-z0-9])(?:" + "|".join(hs) + ")[_\\-]key)" for _, hs in sorted(by_len.items())))
    sensitive = "|".join("(?<=" + re.escape(c) + ")(?:" + "|".join(bs) + ")" for c, bs in sorted(ends.items()))
    value_chars = _VALUE_RUN.pattern[:-1]
    between = guarded(between[1:-1])
    units[_S_ASSIGN] = ("(" + between + "+(?:[:=](?!//)" + between + "*)*"
                        + guarded("A-Za-z0-9_.\\-") + "{1,64}(?![A-Za-z0-9_.\\-])(?ai:" + sensitive + ")"
                        + "[\"'\\\\]{0,2}[ \t]*[:=][ \t]*[\"'\\\\]{0,2})"
                        + _class_of(_VALUE_START) + value_chars + "*(?!" + value_chars + ")")
    # Splitting a run that matched needs none of the guards and conditions:
    # each part of a unit there is the longest run of its characters, and
    # these patterns read the same parts.
    splits = {_S_ASSIGN: "([ \t\"'\\\\,;&:=]+[A-Za-z0-9_.\\-]+[\"'\\\\]{0,2}[ \t]*[:=][ \t]*[\"'\\\\]{0,2})" + value_chars + "*"}
    if SANITIZE_PATHS:
        splits[_S_HOMES_APART] = "(" + apart + "(?:" + homes + "))[" + _SEGMENT_CLASS + "]+"
        splits[_S_PATH] = "(" + apart + ")[" + _PATH_CLASS + "]*(?<!\\\\)"
    runs = {k: "(?:" + u + ("(?=@)" if k == _S_URL else "") + ")+" for k, u in units.items()}
    # The units of these read nothing before their start that can change
    # their answer: a lookbehind there stops at the text the unit keeps.
    # Group 1 is the unit, group 2 what it keeps.
    copies = {k: "(" + units[k] + ")(?:\\1)*" for k in (_S_ASSIGN, _S_PATH, _S_HOMES_APART) if k in units}
    return {k: (runs[k], splits.get(k, u), copies.get(k)) for k, u in units.items()}


#: _CONTINUED are the shapes with a continuation.
_CONTINUED: FrozenSet[int] = frozenset((_S_WORD, _S_URL, _S_ASSIGN) + ((_S_HOME, _S_PATH) if SANITIZE_PATHS else ()))
#: _CONTINUATION_SOURCES holds _continuations once a text first needs one; _CONTINUATION_PATTERNS the patterns of each shape, compiled when a text first needs them (compiling all of them takes tens of milliseconds, which an import, or a text that needs one, should not pay).
_CONTINUATION_SOURCES: List[Dict[int, Tuple[str, str, Optional[str]]]] = []
_CONTINUATION_PATTERNS: Dict[int, Tuple[Pattern[str], Pattern[str], Optional[Pattern[str]]]] = {}


def _continuation(shape: int) -> Tuple[Pattern[str], Pattern[str], Optional[Pattern[str]]]:
    """_continuation returns the compiled patterns of shape's continuation (_continuations)."""
    c = _CONTINUATION_PATTERNS.get(shape)
    if c is None:
        if not _CONTINUATION_SOURCES:
            _CONTINUATION_SOURCES.append(_continuations())
        run, split, copies = _CONTINUATION_SOURCES[0][shape]
        c = _CONTINUATION_PATTERNS[shape] = (re.compile(run), re.compile(split), None if copies is None else re.compile(copies))
    return c


#: _COPY_MARGIN is how far past its end a unit's conditions may read, at most: the longest literal (a guard), or a value's, a path's or a name's end, which a copy of a unit finds within the next copies.
_COPY_MARGIN = max([80] + [len(lit) + 1 for lit in _literal_conditions()])


def _copies(r: "_Redactor", pattern: Pattern[str], b: int) -> int:
    """_copies redacts, at b (right after a redaction), a unit of a continuation and the exact copies of it that follow, but the last ones, and returns where it stopped.

    A unit's answer depends only on its text and on at most _COPY_MARGIN
    characters after it (its conditions read ahead that far at most: a
    literal, or a value's, a path's or a name's end, which lies within the
    next copy), never on the text before it. So a copy followed by three
    copies and _COPY_MARGIN characters of copies reads the same text as
    the first, and gets the same answer; the last copies are left to the
    continuation's run, which reads them with what follows.
    """
    s = r.s
    m = pattern.match(s, b)
    if m is None:
        return b
    q = m.end(1) - b
    k = (m.end() - b) // q - 3 - _COPY_MARGIN // q
    if k < 1:
        return b
    r.out += ((m.group(2) + _REDACTED) * k,)  # type: ignore[operator]
    r.flushed = b = b + k * q
    return b


#: _BACK_SCAN is the backward scan itself on the reversed text: spaces and tabs, up to two quotes or backslashes, then the key (only its last 64 characters matter, and whether it is longer).
_BACK_SCAN = re.compile("[ \t]*([\"'\\\\]{0,2})([A-Za-z0-9_.\\-]{0,65})")


def _sensitive_key(key: str) -> bool:
    """_sensitive_key reports whether a lower-cased key names a secret."""
    if key in _KEY_EXACT or key.endswith(_KEY_SUFFIXES):
        return True
    if key.endswith(("_key", "-key")):
        norm = key.replace("-", "_")
        if not norm.endswith(_KEY_HARMLESS):
            return True
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

    __slots__ = ("s", "rs", "out", "flushed", "no_jwt", "path_from", "path_run", "path_end_at", "cred_from", "cred_end", "cred_at", "shape", "last")

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
        # The path scans remember their last answer, which holds for every
        # later start inside the same path: a text of many home directories
        # in one path (/home/./home/./home/.…) is read once, not once per
        # home. path_from..path_run is a run of path characters, and
        # path_end_at its end less the backslashes that end it; no
        # credential name is at any position from cred_from to cred_end but
        # cred_at (-1: none).
        self.path_from = self.path_run = self.path_end_at = -1
        self.cred_from = self.cred_end = self.cred_at = -1
        # shape is the shape of the span match returned last, and last the
        # shape of the last redaction (see _continuations).
        self.shape = self.last = _S_OTHER

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
                self.shape = _S_OTHER
                return p, end
        # A token starting like a known secret, redacted up to white space.
        words = _WORDS.get(c)
        if words is not None:
            prev = self.before(p)
            if prev == "" or prev in _SPACE:
                for w in words:
                    if s.startswith(w, p):
                        self.shape = _S_WORD
                        return p, _NOT_SPACE_RUN.match(s, p + len(w)).end()  # type: ignore[union-attr]
        # Prefixed token shapes, anywhere.
        for prefix, run, least in _PREFIXED.get(c, ()):
            if s.startswith(prefix, p):
                start = p + len(prefix)
                e = run.match(s, start).end()  # type: ignore[union-attr]
                if e - start >= least:
                    self.shape = _S_OTHER
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
                    self.shape = _S_OTHER
                    return p, e2
            self.no_jwt = e1
        # Bearer <token>: the token, read only after white space (read at
        # every "bearer" of "=Bearer=Bearer…", the run made the scan
        # quadratic).
        if (c == "b" or c == "B") and _BEARER.match(s, p) is not None:
            if self.before(p) not in _ALNUM:
                e = _BLANKS.match(s, p + 6).end()  # type: ignore[union-attr]
                if e > p + 6:
                    t = _RUNS["token"].match(s, e).end()  # type: ignore[union-attr]
                    if t - e >= 8:
                        self.shape = _S_OTHER
                        return e, t
        # A home directory: its user name, or the whole path when it holds a
        # credential name.
        if c == "/" and SANITIZE_PATHS:
            span = self.home(p)
            if span is not None:
                return span
        # A credential name: the whole path holding it.
        if c in _NAME_FIRST and _credential_at(s, p, self.back(p, 1)):
            self.shape = _S_PATH
            return self.path_start(p), self.path_end(p + 1)
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
        end = self.path_end(e)
        if self.credential(seg, end):
            self.shape = _S_OTHER
            return start, end
        self.shape = _S_HOME if start == p else _S_OTHER
        return seg, e

    def credential(self, seg: int, end: int) -> bool:
        """credential reports whether a credential name is at a position from seg to end, in a path whose character seg-1 is a separator."""
        if end == self.cred_end and seg >= self.cred_from and (self.cred_at < 0 or self.cred_at >= seg):
            return self.cred_at >= 0
        self.cred_from, self.cred_end, self.cred_at = seg, end, -1
        s = self.s
        for hit in _NAME_HEADS.finditer(s, seg, end):
            i = hit.start()
            if _credential_at(s, i, s[i - 1]):
                self.cred_at = i
                return True
        return False

    def path_end(self, i: int) -> int:
        """path_end returns the end of the path whose character i-1 is no backslash: the end of the path characters from i, less the backslashes that end them (those of an escaped quote)."""
        if i < self.path_from or i > self.path_run:
            s = self.s
            self.path_from = i
            e = self.path_run = _PATH_RUN.match(s, i).end()  # type: ignore[union-attr]
            while s[e - 1] == "\\":
                e -= 1
            self.path_end_at = e
        return self.path_end_at

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
            self.shape = _S_ASSIGN
            return span
        # URL userinfo holding a password: scheme://user:password@host.
        s = self.s
        if s.startswith("://", p):
            j = p + 3
            e = _USERINFO_RUN.match(s, j).end()  # type: ignore[union-attr]
            if e > j and s.startswith("@", e) and s.find(":", j, e) >= 0:
                self.shape = _S_URL
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
        if key.endswith("authorization"):
            e = _scheme_end(s, v, e)
        return v, e


def _no_key(s: str, f: int, p: int) -> bool:
    """_no_key reports whether no shape is tried at the separator s[p] with only quotes and spaces between it and the last redaction's end f: the key is empty there, no letter stands before a colon, and no // follows it."""
    return s[p] in _SEPARATORS and not s[f:p].strip(" \t\"'\\") and not s.startswith("//", p + 1)


#: _SCHEME_VALUE matches, at an authorization's value, a scheme and its credentials as _scheme_end reads them: base64url characters up to spaces or tabs (the value ends there), then a value; one match instead of four.
_SCHEME_VALUE = re.compile("[" + _CLASSES["base64url"] + "]+[ \t]+(?=" + _class_of(_VALUE_START) + ")" + _VALUE_RUN.pattern)


def _scheme_end(s: str, v: int, e: int) -> int:
    """_scheme_end returns the end of an authorization's value s[v:e]: a value made only of A–Z a–z 0–9 _ - is a scheme (Bearer, Basic, AWS4-HMAC-SHA256, …), and its credentials, after spaces, go with it."""
    if _RUNS["base64url"].match(s, v).end() == e:  # type: ignore[union-attr]
        w = _BLANKS.match(s, e).end()  # type: ignore[union-attr]
        if w > e:
            f = _value_end(s, w)
            if f > w:
                return f
    return e


# --- the edges ---------------------------------------------------------------

#: _EDGE_TRIE holds the proper starts of the markers, ASCII lower-cased, reversed: node 0 is the root, _EDGE_TRIE[n] maps a character to the node after n, and _EDGE_STARTS[n] tells that the characters read to reach n, backwards, are one of the starts.
_EDGE_TRIE: List[Dict[str, int]] = [{}]
_EDGE_STARTS: List[bool] = [False]
for _marker in SANITIZE_MARKERS:
    _marker = _fold(_marker)
    for _length in range(1, len(_marker)):
        _node = 0
        for _char in reversed(_marker[:_length]):
            _child = _EDGE_TRIE[_node].get(_char)
            if _child is None:
                _child = _EDGE_TRIE[_node][_char] = len(_EDGE_TRIE)
                _EDGE_TRIE.append({})
                _EDGE_STARTS.append(False)
            _node = _child
        _EDGE_STARTS[_node] = True


def _edge_markers(s: str) -> str:
    """_edge_markers is step 2's end when the window cut the text.

    The text past the window could complete a marker that starts before its
    edge, and then another, so the longest end of s made of proper starts of
    markers (ASCII case ignored), one after another, is deleted. A secret
    glued to a marker cut in half (ghp_...<sys) thus reaches the edge. The
    starts are read backwards from each place the end can be deleted from,
    down _EDGE_TRIE.
    """
    n = len(s)
    lo = n  # the earliest position the end can be deleted from
    reach = {n}
    trie, starts = _EDGE_TRIE, _EDGE_STARTS
    b = n
    while b >= lo:
        if b in reach:
            node = 0
            for i in range(b - 1, -1, -1):
                c = s[i]
                if "A" <= c <= "Z":
                    c = c.lower()
                node = trie[node].get(c, 0)
                if node == 0:
                    break
                if starts[node]:
                    reach.add(i)
                    lo = min(lo, i)
        b -= 1
    return s[:lo]


#: _EDGE_SECRETS are the prefixed shapes (prefixes, run pattern) _edge_secret looks for: the catalogue's, then the contract's.
_EDGE_SECRETS: Tuple[Tuple[Tuple[str, ...], Pattern[str]], ...] = tuple(
    (prefixes, _RUNS[cls]) for prefixes, cls, _ in _BUILTIN_SECRETS + tuple(SANITIZE_SECRETS))
_JWT_RUN = re.compile("[A-Za-z0-9_\\-.]*")
_TOKEN_RUN = re.compile("[" + _CLASSES["token"] + "]*")


def _edge_secret(o: str) -> str:
    """_edge_secret is step 3's end when the window cut the text.

    A secret that runs to the edge may go on past it, below its shape's
    minimum length, so the end of o is redacted from the earliest start of
    one of these that runs to the end: a prefixed shape's prefix, then
    characters of its class (none or more); eyJ, then base64url characters
    and dots; the token characters after "bearer" (any ASCII case, not after
    a letter or digit) and spaces or tabs; the userinfo after "://" when it
    holds a ":". The runs are read backwards, on o reversed.
    """
    n = len(o)
    rev = o[::-1]
    start = n
    runs: Dict[Pattern[str], int] = {}  # by class, read once each
    for prefixes, run in _EDGE_SECRETS:
        r = runs.get(run, -1)
        if r < 0:
            r = runs[run] = n - run.match(rev).end()  # type: ignore[union-attr]
        for p in prefixes:
            i = o.find(p, max(0, r - len(p)))
            if i >= 0:
                start = min(start, i)
    i = o.find("eyJ", n - _JWT_RUN.match(rev).end())  # type: ignore[union-attr]
    if i >= 0:
        start = min(start, i)
    r = n - _TOKEN_RUN.match(rev).end()  # type: ignore[union-attr]
    if r < n:
        w = len(o[:r].rstrip(" \t"))
        if w < r and w >= 6 and _fold(o[w - 6:w]) == "bearer" and (w == 6 or o[w - 7] not in _ALNUM):
            start = min(start, r)
    r = n - _USERINFO_RUN.match(rev).end()  # type: ignore[union-attr]
    if r < n and r >= 3 and o[r - 3:r] == "://" and ":" in o[r:]:
        start = min(start, r)
    return o if start == n else o[:start] + _REDACTED


def _cut_before(s: str, k: int) -> int:
    """_cut_before returns where step 4 cuts s to keep what lies before k: k, or the start of a [REDACTED] that k would cut in half."""
    i = s.find(_REDACTED, max(0, k - len(_REDACTED) + 1), k + len(_REDACTED) - 1)
    return i if i >= 0 else k


def _redact(s: str) -> str:
    """_redact is step 3: at each place where a shape may start, the shapes are tried in order; the first that matches is replaced, and the scan goes on after it.

    Places are found in order (no literal can start inside another before
    the other's anchor; _candidates_pattern checks it). Every position
    before done was tried or lies inside a redaction.
    """
    cands, kinds = _CANDIDATES, _KINDS
    m = cands.search(s)
    if m is None:
        return s
    # it, when not None, is a finditer of cands whose last match is m: the
    # places after rejected ones come from it. After a redaction the search
    # starts anew with first, its first place; a finditer, which costs more
    # to start than a search, is started at the second place rejected.
    it: "Optional[Iterator[re.Match[str]]]" = None
    first: "Optional[re.Match[str]]" = m
    r = _Redactor(s)
    n = len(s)
    match = r.match
    done = 0
    # force is a separator to try although the search may not find it (n:
    # none); see below.
    force = n
    # streak counts the redactions of one shape in a row, each close after
    # the last (see _continuations).
    streak = 0
    while True:
        if m is not None:
            offset, kind, g, shape = kinds[m.lastindex]  # type: ignore[index]
            p = m.start() - offset
            if p < done or (kind == _NO_JWT and p < r.no_jwt):
                # (Before no_jwt, where every eyJ was found to start no JSON
                # Web Token, the search goes on without that shape: each
                # would read the same run to its end.)
                pos = m.start() + 1
                if pos < r.no_jwt:
                    if it is None or kinds is not _KINDS_NO_JWT:
                        it, kinds = _CANDIDATES_NO_JWT.finditer(s, pos), _KINDS_NO_JWT
                    m = next(it, None)
                    if m is None or m.start() - kinds[m.lastindex][0] >= r.no_jwt:  # type: ignore[index]
                        it, kinds = cands.finditer(s, r.no_jwt), _KINDS
                        m = next(it, None)
                elif it is not None and kinds is _KINDS:
                    m = next(it, None)
                elif kinds is _KINDS and m is not first:
                    it = cands.finditer(s, pos)
                    m = next(it, None)
                else:
                    m, kinds, first = cands.search(s, pos), _KINDS, None
                continue
            if p >= force:
                p, kind = force, _GENERIC
        elif force < n:
            p, kind = force, _GENERIC
        else:
            break
        if p == force:
            force = n
            if p < done:
                continue
        f = r.flushed
        if kind == _GENERIC or kind == _NO_JWT:
            if r.out is not None and p - f <= 8 and _no_key(s, f, p):
                span = None
            else:
                span = match(p)
                shape = r.shape
        elif kind == _SUFFIX or kind == _AUTH or kind == _QUOTED:
            # The key ends the same in the output when its suffix, or a
            # character that is no key character, lies after the last
            # redaction. (q is where the key ends: before the quote, space
            # or tab of a _QUOTED one.)
            q = p - 1 if kind == _QUOTED else p
            if q - _LONGEST_SUFFIX >= f or r.out is None or (f < q and s[f] not in _KEY_CHARS):
                v, e = m.span(g)  # type: ignore[union-attr]
                if kind == _AUTH:
                    am = _SCHEME_VALUE.match(s, v)
                    span = v, (am.end() if am is not None else _VALUE_RUN.match(s, v).end())  # type: ignore[union-attr]
                else:
                    if e - v == 64:
                        e = _VALUE_RUN.match(s, e).end()  # type: ignore[union-attr]
                    span = v, e
            elif _no_key(s, f, p):
                span = None
            else:
                span = r.separator(p)
                shape = r.shape
        elif kind == _PREFIXED_RUN:
            span = p, m.end(g)  # type: ignore[union-attr]
        elif kind == _NAME or kind == _EXT:
            if p > f or r.out is None:
                e = m.end(g)  # type: ignore[union-attr]
                while s[e - 1] == "\\":
                    e -= 1
                span = (p if p == 0 or not _is_path(s[p - 1]) else r.path_start(p)), e
            else:
                # After "]", which the search read as the text's character.
                span = match(p)
                shape = r.shape
        elif kind == _URL:
            span = m.span(g)  # type: ignore[union-attr]
        elif p <= f and r.out is not None:  # _WORD, _BEARER_TOKEN after "]"
            span = match(p)
            shape = r.shape
        elif kind == _WORD:
            span = p, m.end(g)  # type: ignore[union-attr]
        else:
            span = m.span(g)  # type: ignore[union-attr]
        if span is None:
            done = p + 1
            if m is not None and m.start() - offset < done:
                if it is not None and kinds is _KINDS:
                    m = next(it, None)
                elif kinds is _KINDS and m is not first:
                    it = cands.finditer(s, m.start() + 1)
                    m = next(it, None)
                else:
                    m, kinds, first = cands.search(s, m.start() + 1), _KINDS, None
            continue
        a, b = span
        if r.out is None:
            r.out = [s[:a], _REDACTED]
            streak = 1
        else:
            r.out += (s[f:a], _REDACTED)
            streak = streak + 1 if shape == r.last and a - f <= 24 else 1
        r.flushed = done = b
        r.last = shape
        while b < n:
            # The third redaction of one shape in a row: the rest of the run
            # at once.
            if streak > 2 and shape in _CONTINUED:
                streak = 0
                cm = None
                # (Assignments only where the last unit, from the end of
                # the text kept before the last redaction, which started at
                # a, is repeated: text dense with assignments of other keys
                # and values, the common case, would pay for a failing run.)
                if (shape != _S_HOME or r.path_from <= b <= r.path_run and r.cred_end == r.path_end_at) and (shape != _S_ASSIGN or s.startswith(s[a - len(r.out[-2]):b], b)):
                    run, unit, copies = _continuation(shape)
                    if copies is not None:
                        b = done = _copies(r, copies, b)
                    cm = run.match(s, b)
                if cm is None and shape == _S_HOME:
                    # Homes that each end their path, whatever the path
                    # scans remember.
                    run, unit, copies = _continuation(_S_HOMES_APART)
                    if copies is not None:
                        b = done = _copies(r, copies, b)
                    cm = run.match(s, b)
                if cm is not None:
                    e = cm.end()
                    r.out += (_REDACTED.join(unit.split(s[b:e])[1::2]), _REDACTED)
                    r.flushed = b = done = e
                    continue
            # Right after a redaction the output's previous character is
            # "]", which the candidate search, reading the text, does not
            # see: the shapes that read it are tried there directly (and a
            # drive's home directory one character on, its letter then
            # starting the output).
            c = s[b]
            span = None
            if c in _RETRY:
                done = b + 1
                span = match(b)
            if span is None and SANITIZE_PATHS and c in _LETTERS and s.startswith(":", b + 1):
                if done == b:
                    done = b + 1
                    span = match(b)
                if span is None:
                    done = b + 2
                    span = match(b + 1)
            if span is not None:
                a, e = span
                shape = r.shape
                r.out += (s[b:a], _REDACTED)
                streak = streak + 1 if shape == r.last and a - b <= 24 else 1
                r.flushed = b = done = e
                r.last = shape
                continue
            # A key that starts the output after "]": the search, which saw
            # the text's key characters before it, may have turned its
            # separator away (a name that is the whole key, or a harmless
            # name cut short); the separator is tried directly.
            if c in _KEY_CHARS:
                k = _KEY_AT.match(s, b)
                if k is not None:
                    force = k.end() - 1
            break
        if m is not None and m.start() < b:
            m, kinds, it = cands.search(s, b), _KINDS, None
            first = m
    if r.out is None:
        return s
    r.out.append(s[r.flushed:])
    return "".join(r.out)


# --- envelope values --------------------------------------------------------

#: _MAX_DEPTH stops the descent into a structure too deep (or cyclic) to be JSON an envelope can carry.
_MAX_DEPTH = 160


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
