"""The size limit of the direct decoders (issue 28, README: "What every decoder accepts").

A document longer than the limit raises EnvelopeError with path "" and
category "syntax" before it is parsed; max_bytes sets another limit, or none
(None).
"""

from typing import Any

import pytest

from env import parsed, pkg, vectors

ENV = parsed(vectors["envelopes"][0]["envelope"])
ENVELOPE = pkg.to_json(ENV)
AIP193 = pkg.to_aip193(ENV)


def padded(doc: str, n: int) -> str:
    """padded is doc with spaces after its first character, to n bytes of UTF-8."""
    return doc[0] + " " * (n - len(doc.encode())) + doc[1:]


def too_long(what: str, call: Any, limit: int) -> None:
    with pytest.raises(pkg.EnvelopeError) as err:
        call()
    e = err.value
    assert (e.path, e.category, e.problem) == ("", "syntax", f"is longer than the limit of {limit} bytes"), what


def test_size_limit() -> None:
    top = pkg.MAX_DOCUMENT_BYTES
    assert top == 1 << 20
    over = padded(ENVELOPE, top + 1)
    pkg.from_json(padded(ENVELOPE, top))
    too_long("from_json", lambda: pkg.from_json(over), top)
    too_long("from_json of bytes", lambda: pkg.from_json(over.encode()), top)
    pkg.from_aip193(padded(AIP193, top))
    too_long("from_aip193", lambda: pkg.from_aip193(padded(AIP193, top + 1)), top)

    # The CLI reader refuses such a line in either form.
    too_long("read_cli", lambda: pkg.read_cli(over), top)
    too_long("read_cli, wrapped", lambda: pkg.read_cli(padded('{"ok":false,"command":"c","error":' + ENVELOPE + "}", top + 1)), top)

    # A lower limit, n bytes: of UTF-8, not code points ("é" takes 2 bytes
    # and "😀" 4).
    n = max(len(ENVELOPE.encode()), len(AIP193.encode())) + 16
    wide = padded(ENVELOPE.replace('"message":"', '"message":"é😀', 1), n)
    assert len(wide) < n
    pkg.from_json(wide, max_bytes=n)
    too_long("UTF-8 bytes", lambda: pkg.from_json(wide, max_bytes=n - 1), n - 1)
    too_long("max_bytes n", lambda: pkg.from_json(padded(ENVELOPE, n + 1), max_bytes=n), n)
    too_long("from_aip193 max_bytes n", lambda: pkg.from_aip193(padded(AIP193, n + 1), max_bytes=n), n)
    assert pkg.from_json(over, max_bytes=None) == pkg.from_json(ENVELOPE)
    pkg.from_aip193(padded(AIP193, top + 1), max_bytes=None)
    # The limit comes first: an over-long document that is not JSON either
    # is refused for its length.
    too_long("not JSON", lambda: pkg.from_json("{" * (n + 1), max_bytes=n), n)
