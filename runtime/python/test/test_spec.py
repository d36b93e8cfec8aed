"""_spec's enums and _codec's nesting limit."""

import json

import pytest

from errgen_runtime._classification import classified_envelope
from errgen_runtime._codec import MAX_DEPTH, from_json, to_dict
from errgen_runtime._contract import KNOWN_KINDS
from errgen_runtime._spec import EnvelopeError, Failure, Step


def test_enums_are_str_values() -> None:
    assert Step("retry") is Step.RETRY
    assert Step.ESCALATE == "escalate"
    assert len({s.value for s in Step}) == len(Step)
    assert Failure("dns") is Failure.DNS
    with pytest.raises(ValueError):
        Step("nap")


def test_nesting_is_limited_to_max_depth() -> None:
    # The envelope's own object is the first level: an extra member nested
    # to MAX_DEPTH in all is kept, one level more rejects the document.
    wire = json.dumps(to_dict(classified_envelope(KNOWN_KINDS[0], "m")))

    def doc(levels: int) -> str:
        return wire[:-1] + ',"deep":' + "[" * (levels - 1) + "]" * (levels - 1) + "}"

    assert isinstance(from_json(doc(MAX_DEPTH)).extra["deep"], list)
    with pytest.raises(EnvelopeError) as e:
        from_json(doc(MAX_DEPTH + 1))
    assert e.value.args == ("", f"nests arrays and objects more than {MAX_DEPTH} levels deep", "syntax")
