"""A real MCP client: the package's tool results, served by the official Python SDK's server and received by its client in one in-memory session.

Every envelope of the vectors (every kind, an unknown kind, every field, ...)
is the error result of three tools: one without an outputSchema, one whose
outputSchema mcp_output_schema widened (to_mcp_tool_result's results), one
advertising its success schema alone (to_mcp_text_tool_result's results).
The caller must receive each envelope, never an exception. The SDK's client
skips error results when it validates; the session's own validator
(validate_tool_result) must accept each one's structuredContent too, the
check the TypeScript SDK's 1.x client makes on every result that has one.
"""

import json
from typing import Any, Dict, List

import anyio
import mcp.types as types
from mcp import Client
from mcp.server import Server

from env import parsed, pkg, vectors

ENVELOPES = [(v["name"], parsed(v["envelope"])) for v in vectors["envelopes"]]

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

TOOLS = [
    {"name": "plain", "inputSchema": {"type": "object"}},
    {"name": "widened", "inputSchema": {"type": "object"}, "outputSchema": pkg.mcp_output_schema(SUCCESS)},
    {"name": "text_errors", "inputSchema": {"type": "object"}, "outputSchema": SUCCESS},
]


def answer(tool: str, args: Dict[str, Any]) -> Dict[str, Any]:
    """answer is a tool's result: the envelope numbered i, or a success value when i is absent."""
    if "i" not in args:
        value = {"items": [1], "total": -1} if args.get("bad") else {"items": ["a", "b"], "total": 2, "shown": 2}
        return {"content": [{"type": "text", "text": json.dumps(value)}], "structuredContent": value}
    env = ENVELOPES[args["i"]][1]
    result: Dict[str, Any] = pkg.to_mcp_text_tool_result(env) if tool == "text_errors" else pkg.to_mcp_tool_result(env)
    return result


async def on_list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
    return types.ListToolsResult.model_validate({"tools": TOOLS})


async def on_call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    return types.CallToolResult.model_validate(answer(params.name, dict(params.arguments or {})))


async def session() -> List[str]:
    problems: List[str] = []
    server: Server[Any] = Server("errgen-test", version="1.0.0", on_list_tools=on_list_tools, on_call_tool=on_call_tool)
    async with Client(server) as client:
        # The client learns the tools' output schemas from the listing, as a host does.
        listed = await client.list_tools()
        assert [t.name for t in listed.tools] == [t["name"] for t in TOOLS]
        for tool in TOOLS:
            name = tool["name"]
            reached = 0
            for i, (env_name, env) in enumerate(ENVELOPES):
                try:
                    result = await client.call_tool(name, {"i": i})
                    if result.structured_content is not None:  # as the TypeScript SDK's 1.x client does
                        await client.session.validate_tool_result(name, result)
                except Exception as err:  # what the caller would have got instead of the envelope
                    problems.append(f"{name}, {env_name}: {type(err).__name__}: {str(err)[:200]}")
                    continue
                received = result.model_dump(mode="json", by_alias=True, exclude_none=True)
                sent = json.loads(json.dumps(answer(name, {"i": i})))
                assert received["isError"] is True, (name, env_name)
                assert pkg.from_mcp_tool_result(received) == env, (name, env_name)
                assert received["content"] == sent["content"], (name, env_name)
                assert received.get("structuredContent") == sent.get("structuredContent"), (name, env_name)
                reached += 1
            if reached != len(ENVELOPES):
                problems.append(f"{name}: {reached} of {len(ENVELOPES)} error results reached the caller")
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


def test_python_sdk_receives_every_error_result() -> None:
    assert anyio.run(session) == []
