"""The word matcher of the inbound classifiers.

Its rules are deliberately simple so the Go, TypeScript and Python
classifiers agree on every input: only ASCII letters are folded, and a word
boundary is any character that is not an ASCII letter, digit or underscore.
"""

from __future__ import annotations

from typing import Iterable

_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_LOWER_TABLE = str.maketrans(_UPPER, _UPPER.lower())


def ascii_lower(s: str) -> str:
    """ascii_lower lower-cases the ASCII letters of s and nothing else."""
    return s.translate(_LOWER_TABLE)


def _word_char(c: str) -> bool:
    return ("a" <= c <= "z") or ("A" <= c <= "Z") or ("0" <= c <= "9") or c == "_"


def has_word(lower: str, phrases: Iterable[str]) -> bool:
    """has_word reports whether lower (already ASCII-lowered) contains any of the phrases as a whole word."""
    for p in phrases:
        start = 0
        while start + len(p) <= len(lower):
            i = lower.find(p, start)
            if i < 0:
                break
            end = i + len(p)
            if (i == 0 or not _word_char(lower[i - 1])) and (end == len(lower) or not _word_char(lower[end])):
                return True
            start = i + 1
    return False
