"""_words and the text helpers of _http: what the classifiers and the HTTP surface share with Go and TypeScript."""

from errgen_runtime._http import _http_text, _status_line
from errgen_runtime._words import ascii_lower, has_word


def test_ascii_lower_folds_ascii_letters_only() -> None:
    assert ascii_lower("Rate LIMITED 429") == "rate limited 429"
    # Not Unicode case folding: Ä, the dotted İ and the Kelvin sign stay.
    assert ascii_lower("ÄBC İ \u212a") == "Äbc İ \u212a"


def test_has_word_matches_whole_words_only() -> None:
    assert has_word("rate limited!", ["rate limited"])
    assert has_word("(timeout)", ["timeout"])
    assert not has_word("rate_limited", ["limited"])
    assert not has_word("timeout2", ["timeout"])
    assert not has_word("xtimeout", ["timeout"])
    assert has_word("xtimeout timeout", ["timeout"])
    assert has_word("étimeoutà", ["timeout"])
    assert not has_word("anything", [])


def test_http_text_collapses_space_and_cuts_at_512_bytes() -> None:
    assert _http_text(b"  upstream\n\tdown \r\n ") == "upstream down"
    assert _http_text(b"a\xff\xfe b") == "a\ufffd b"
    assert _http_text(b"") == ""
    assert _http_text("é".encode() * 400) == "é" * 256 + "…"
    assert _http_text(b"x" * 512) == "x" * 512


def test_status_line() -> None:
    assert _status_line(503) == "HTTP 503 Service Unavailable"
    assert _status_line(418) == "HTTP 418 I'm a teapot"
    assert _status_line(599) == "HTTP 599"
