# A program in another project using the installed package; the test
# replaces errgen_pkg with the package's import name.
import inspect
import json

import errgen_pkg as pkg

# new_envelope takes the context the contract's layout requires (ovstorage:
# operation) after the message.
ctx = ["consumer_call" for p in inspect.signature(pkg.new_envelope).parameters.values() if p.kind == p.POSITIONAL_OR_KEYWORD][2:]
first = pkg.KNOWN_KINDS[0]
env = pkg.new_envelope(first, "from the consumer", *ctx)
# The exact round trip reads raw; every reader sanitizes alike, so the MCP
# reader returns what the sanitizing decoder returns (the same text, but
# where the contract's own guidance is not one the sanitizer keeps).
back = pkg.Envelope.from_json(env.to_json(), raw=True)
read = pkg.Envelope.from_json(env.to_json())
unknown = pkg.new_envelope("kind_from_the_future_" + "x", "m", *ctx)
try:
    pkg.raise_envelope(env)
    caught = False
except pkg.ERROR_CLASSES[first] as exc:
    caught = exc.envelope is env
print(json.dumps({
    "contract": pkg.CONTRACT_NAME,
    "kinds": len(pkg.KNOWN_KINDS),
    "location": pkg.__file__,
    "round_trip": back.to_dict() == env.to_dict() and back.kind == env.kind,
    "unknown_kind_step": pkg.next_step(unknown, 1).step.value,
    "mcp": pkg.from_mcp_tool_result(json.loads(json.dumps(pkg.to_mcp_tool_result(env)))) == read,
    "caught": caught,
}))
