"""A real MCP client: each package's tool results, served by the official Python SDK's server and received by its client in an in-memory session.

Every envelope of the vectors (every kind, an unknown kind, every field, ...)
is the error result of three tools: one without an outputSchema, one whose
outputSchema mcp_output_schema widened (to_mcp_tool_result's results), one
advertising its success schema alone (to_mcp_text_tool_result's results).
The caller must receive each envelope, never an exception. The SDK's client
skips error results when it validates; the session's own validator
(validate_tool_result) must accept each one's structuredContent too, the
check the TypeScript SDK's 1.x client makes on every result that has one.
One session per package, every package in this one process (run.py lists
them in ERRGEN_PY_PACKAGES), so the SDK loads once.

Then MCP protocol errors: every package's JSON-RPC error responses
(to_mcp_error_response) and tool results that keep an upstream's
structuredContent (to_mcp_upstream_tool_result) meet the SDK's own types
(mcp.types.JSONRPCError, ErrorData, CallToolResult), and a prompt request
failing with the package's error reaches the SDK's client as an MCPError
whose data from_mcp_error reads the envelope from (one more session per
package).
"""

import importlib
import json
import os
import sys
from typing import Any, Callable, Dict, List, Tuple

import anyio
import mcp.types as types
import pytest
from mcp import Client
from mcp.server import Server
from mcp.shared.exceptions import MCPError

if not os.environ.get("ERRGEN_PY_PACKAGES"):
    raise RuntimeError("ERRGEN_PY_PACKAGES is not set: run the tests with run.py (make test-python), which lists every generated package in it")
# The packages under test: each one's import name, source folder and output root.
PACKAGES: List[Dict[str, str]] = json.loads(os.environ["ERRGEN_PY_PACKAGES"])

# A success schema as tools write them: definitions under $defs, a reference
# into them and one into its own properties (which the widening rebases),
# nothing beyond its members.
SUCCESS: Dict[str, Any] = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "items": {"type": "array", "items": {"$ref": "#/$defs/item"}},
        "total": {"type": "integer", "minimum": 0},
        "shown": {"$ref": "#/properties/total"},
    },
    "required": ["items", "total"],
    "additionalProperties": False,
    "$defs": {"item": {"type": "string"}},
}



def served(pkg: Any, envelopes: List[Tuple[str, Any]]) -> Tuple[List[Dict[str, Any]], Callable[[str, Dict[str, Any]], Dict[str, Any]]]:
    """served is what one package's server offers: its tools, and each call's result as JSON text, written once by the package and read afresh for every answer, as off the wire."""
    tools: List[Dict[str, Any]] = [
        {"name": "plain", "inputSchema": {"type": "object"}},
        {"name": "widened", "inputSchema": {"type": "object"}, "outputSchema": pkg.mcp_output_schema(SUCCESS)},
        {"name": "text_errors", "inputSchema": {"type": "object"}, "outputSchema": SUCCESS},
    ]
    written = {
        t["name"]: [json.dumps(pkg.to_mcp_text_tool_result(env) if t["name"] == "text_errors" else pkg.to_mcp_tool_result(env)) for _, env in envelopes]
        for t in tools
    }

    def answer(tool: str, args: Dict[str, Any]) -> Dict[str, Any]:
        """answer is a tool's result: the envelope numbered i, or a success value when i is absent."""
        if "i" not in args:
            value = {"items": [1], "total": -1} if args.get("bad") else {"items": ["a", "b"], "total": 2, "shown": 2}
            return {"content": [{"type": "text", "text": json.dumps(value)}], "structuredContent": value}
        result: Dict[str, Any] = json.loads(written[tool][args["i"]])
        return result

    return tools, answer


async def session(pkg: Any, envelopes: List[Tuple[str, Any]]) -> List[str]:
    tools, answer = served(pkg, envelopes)

    async def on_list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult.model_validate({"tools": tools})

    async def on_call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        return types.CallToolResult.model_validate(answer(params.name, dict(params.arguments or {})))

    problems: List[str] = []
    server: Server[Any] = Server("errgen-test", version="1.0.0", on_list_tools=on_list_tools, on_call_tool=on_call_tool)
    async with Client(server) as client:
        # The client learns the tools' output schemas from the listing, as a host does.
        listed = await client.list_tools()
        assert [t.name for t in listed.tools] == [t["name"] for t in tools]
        for tool in tools:
            name = tool["name"]
            reached = 0
            for i, (env_name, env) in enumerate(envelopes):
                try:
                    result = await client.call_tool(name, {"i": i})
                    if result.structured_content is not None:  # as the TypeScript SDK's 1.x client does
                        await client.session.validate_tool_result(name, result)
                except Exception as err:  # what the caller would have got instead of the envelope
                    problems.append(f"{name}, {env_name}: {type(err).__name__}: {str(err)[:200]}")
                    continue
                received = result.model_dump(mode="json", by_alias=True, exclude_none=True)
                sent = answer(name, {"i": i})
                assert received["isError"] is True, (name, env_name)
                assert pkg.from_mcp_tool_result(received) == env, (name, env_name)
                assert received["content"] == sent["content"], (name, env_name)
                assert received.get("structuredContent") == sent.get("structuredContent"), (name, env_name)
                reached += 1
            if reached != len(envelopes):
                problems.append(f"{name}: {reached} of {len(envelopes)} error results reached the caller")
        # A success result still meets the success schema exactly: a conforming
        # value arrives, a nonconforming one is refused.
        for name in ("widened", "text_errors"):
            ok = await client.call_tool(name, {})
            assert ok.structured_content == {"items": ["a", "b"], "total": 2, "shown": 2}
            try:
                await client.call_tool(name, {"bad": True})
            except RuntimeError as err:
                assert "structured content" in str(err).lower(), err
            else:
                problems.append(f"{name}: a success value outside the success schema was accepted")
    return problems


def envelope_vectors(text: str, name: str = "envelopes") -> List[Dict[str, Any]]:
    """envelope_vectors parses the envelopes section of a vectors file alone.

    It is a few kilobytes of a file that reaches tens of megabytes for the
    reserved-words contract. The file puts each top-level member on a line
    of its own indented by two spaces, and JSON text holds no raw line
    break, so the section runs from its member's line to the next one's.
    """
    key = f'\n  "{name}": '
    start = text.index(key) + len(key)
    end = text.index('\n  "', start)
    section: List[Dict[str, Any]] = json.loads(text[start:end].rstrip().rstrip(","))
    return section


@pytest.mark.parametrize("p", PACKAGES, ids=[p["name"] for p in PACKAGES])
def test_python_sdk_receives_every_error_result(p: Dict[str, str]) -> None:
    sys.path.insert(0, p["src"])
    try:
        pkg = importlib.import_module(p["name"])
    finally:
        sys.path.remove(p["src"])
    with open(os.path.join(p["root"], "conformance", f"{pkg.CONTRACT_NAME}.vectors.json"), encoding="utf-8") as f:
        text = f.read()
    vectors = envelope_vectors(text)
    envelopes = [(v["name"], pkg.from_dict(v["envelope"])) for v in vectors]
    assert anyio.run(session, pkg, envelopes) == []

    # MCP protocol errors and the SDK's types.
    protocol = envelope_vectors(text, "mcp_errors")
    for v in protocol:
        env = pkg.from_dict(v["envelope"])
        checked = types.JSONRPCError.model_validate(json.loads(json.dumps(pkg.to_mcp_error_response(env, 1))))
        assert checked.error.data == v["envelope"], v["name"]
        assert pkg.to_dict(pkg.from_mcp_error(checked.model_dump(mode="json", by_alias=True))) == v["envelope"], v["name"]
        result = types.CallToolResult.model_validate(json.loads(json.dumps(pkg.to_mcp_upstream_tool_result(env, v["upstream"]))))
        received = result.model_dump(mode="json", by_alias=True, exclude_none=True)
        assert received["isError"] is True and received["structuredContent"] == v["structured_content"], v["name"]
        assert received.get("_meta") == v["meta"], v["name"]
    first = protocol[0]
    assert anyio.run(failed_prompt, pkg, pkg.from_dict(first["envelope"])) == (first["error"]["code"], first["envelope"])


async def failed_prompt(pkg: Any, env: Any) -> Tuple[int, Any]:
    """failed_prompt asks a server whose prompt request fails with env's MCP error for a prompt, and returns the code and the envelope the client's MCPError carries."""

    async def on_get_prompt(ctx: Any, params: Any) -> types.GetPromptResult:
        e = pkg.to_mcp_error(env)
        raise MCPError(e["code"], e["message"], e["data"])

    server: Server[Any] = Server("errgen-test", version="1.0.0", on_get_prompt=on_get_prompt)
    async with Client(server) as client:
        try:
            await client.get_prompt("p")
        except MCPError as err:
            return err.code, pkg.to_dict(pkg.from_mcp_error({"code": err.code, "message": err.message, "data": err.data}))
    raise AssertionError("get_prompt succeeded")
