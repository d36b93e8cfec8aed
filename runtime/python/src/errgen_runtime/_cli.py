"""The command-line surface: the contract's CLI form written as one JSON line, and read back.

They mirror the Go package's WriteCLI and ReadCLI byte for byte (the
conformance vectors' surfaces section holds them to the same lines);
exit_code (in _classification) is its ExitCode. This module is the same
for every contract.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Optional, TextIO, Union

from ._codec import JSON_SPACE, MAX_DOCUMENT_BYTES, _check_size, _go_json, _loads_within, from_dict, from_json, to_json
from ._contract import CLI_FORM
from ._envelope import Envelope
from ._spec import EnvelopeError


def cli_line(envelope: Envelope, command: str) -> str:
    """cli_line returns the failure of command as the one JSON line (newline included) a command line writes on stderr.

    It is in this contract's CLI form (CLI_FORM): the envelope itself, or
    wrapped as {"ok":false,"command":command,"error":envelope}; the envelope
    form does not carry command. Raises ValueError as to_json does.
    """
    env = to_json(envelope)
    if CLI_FORM == "wrapped":
        cmd = _go_json(json.dumps(command, ensure_ascii=False))
        return '{"ok":false,"command":' + cmd + ',"error":' + env + "}\n"
    return env + "\n"


def write_cli(envelope: Envelope, command: str, stream: Optional[TextIO] = None) -> None:
    """write_cli writes cli_line(envelope, command) to stream, sys.stderr by default; exit with exit_code(envelope) after it."""
    (sys.stderr if stream is None else stream).write(cli_line(envelope, command))


def _read_wrapped(text: Union[str, bytes]) -> Envelope:
    """_read_wrapped reads the wrapped CLI form {"ok":false,"command":...,"error":envelope}."""
    # The wrapper's own object is level 0: the envelope in it nests as
    # deeply as any.
    obj: Any = _loads_within(text, -1)
    if not isinstance(obj, dict):
        raise EnvelopeError("", "must be a JSON object", "type")
    if "ok" in obj and obj["ok"] is not False:
        raise EnvelopeError("ok", "must be false in a failure line", "value")
    if "error" not in obj:
        raise EnvelopeError("error", "is required in the wrapped CLI form", "missing")
    return from_dict(obj["error"])


_JSON_SPACE_BYTES = JSON_SPACE.encode()


def read_cli(line: Union[str, bytes, bytearray]) -> Envelope:
    """read_cli reads back a line cli_line wrote (text, or UTF-8 bytes).

    It accepts both CLI forms, the envelope itself and the wrapped
    {"ok":false,"command":...,"error":envelope}, trying this contract's own
    form (CLI_FORM) first; the EnvelopeError raised is that of this
    contract's form, as the Go package's ReadCLI. Only JSON's white space
    (space, tab, line feed, carriage return) is trimmed from either end: a
    line that starts or ends with any other character (a byte order mark, a
    no-break space, U+0085, U+2028) is not a CLI line. The whole line is
    held to the limits every decoder shares, the wrapped form's object
    counting as level 0. A line longer than MAX_DOCUMENT_BYTES is refused
    before it is parsed, in either form.
    """
    text: Union[str, bytes] = line.strip(JSON_SPACE) if isinstance(line, str) else bytes(line).strip(_JSON_SPACE_BYTES)
    # Over MAX_DOCUMENT_BYTES in either form, as in the Go package.
    _check_size(text, MAX_DOCUMENT_BYTES)
    own, other = (_read_wrapped, from_json) if CLI_FORM == "wrapped" else (from_json, _read_wrapped)
    try:
        return own(text)
    except EnvelopeError as err:
        first = err
    except (ValueError, TypeError, RecursionError) as err:
        first = EnvelopeError("", str(err), "syntax")
    try:
        return other(text)
    except (ValueError, TypeError, RecursionError):
        raise first from None
