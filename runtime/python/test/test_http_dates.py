"""_http's Retry-After reader."""

from errgen_runtime._contract import RETRY
from errgen_runtime._http import _parse_retry_after

DATE = "Wed, 21 Oct 2015 07:28:00 GMT"


def test_delay_seconds() -> None:
    assert _parse_retry_after("120", "") == 120000
    assert _parse_retry_after(" 0 ", "") == 0
    assert _parse_retry_after("99999999999", "") == RETRY.max_hint_ms
    for bad in ["", "-1", "1.5", "0x10", "soon", "9" * 40]:
        assert _parse_retry_after(bad, "") is None, bad


def test_http_dates() -> None:
    assert _parse_retry_after("Wed, 21 Oct 2015 07:28:30 GMT", DATE) == 30000
    assert _parse_retry_after("Wed, 21 Oct 2015 07:27:00 GMT", DATE) == 0
    assert _parse_retry_after(DATE, "") == 0  # in the past of now
    assert _parse_retry_after("Wed, 32 Oct 2015 07:28:00 GMT", DATE) is None
    # The obsolete forms RFC 9110 still asks recipients to accept.
    assert _parse_retry_after("Wednesday, 21-Oct-15 07:28:30 GMT", DATE) == 30000
    assert _parse_retry_after("Wed Oct 21 07:28:30 2015", DATE) == 30000
