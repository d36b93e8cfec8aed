package genvectors

import (
	"encoding/json"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/exampleenv"
	"github.com/errgen/errgen/internal/orderedjson"
)

// MCPErrorVec is one example envelope on the MCP surface beside a plain
// tool result: Error is the JSON-RPC error object of a protocol error
// (Go's MCPError, TypeScript's toMcpError, Python's to_mcp_error, Rust's
// Envelope::to_mcp_error): the code the contract gives the kind's origin
// (surfaces.mcp), the envelope's message and the envelope as data. Meta is
// the _meta every isError tool result carries, the envelope under the
// contract's key, or null when the contract names none. StructuredContent
// is the structuredContent of a tool result that keeps the upstream's own
// structured content (Upstream) beside the envelope. Every value is
// compared as a JSON value, and each reads back as Envelope.
type MCPErrorVec struct {
	Name              string          `json:"name"`
	Envelope          json.RawMessage `json:"envelope"`
	Error             json.RawMessage `json:"error"`
	Meta              json.RawMessage `json:"meta"`
	Upstream          json.RawMessage `json:"upstream"`
	StructuredContent json.RawMessage `json:"structured_content"`
}

// MCPErrorReadVec is a JSON-RPC error, as the error object or the whole
// response, given to every package's reader (Go's ReadMCPError,
// TypeScript's fromMcpError, Python's from_mcp_error, Rust's
// Envelope::from_mcp_error): Envelope is what it reads, compared as a JSON
// value, or null when the error carries no envelope.
type MCPErrorReadVec struct {
	Name     string          `json:"name"`
	Input    json.RawMessage `json:"input"`
	Envelope json.RawMessage `json:"envelope"`
}

// mcpUpstream is the structured content an upstream sent with its failed
// result in the vectors.
const mcpUpstream = `{"status":"failed","rows":[],"detail":{"code":7}}`

// mcpErrors are the protocol errors and tool results of every example
// envelope, and of the richest one with members this contract does not
// name.
func mcpErrors(c *contract.Contract, exs []exampleenv.Example, envs []json.RawMessage) ([]MCPErrorVec, error) {
	all := withUnknownMembers(c, exs, envs, "members this contract does not name", "kept as received")
	out := make([]MCPErrorVec, 0, len(all))
	for _, n := range all {
		env, err := n.wire()
		if err != nil {
			return nil, err
		}
		cl := classificationOf(c, leafString(c, n.o, contract.SourceKind, ""))
		message := leafString(c, n.o, contract.SourceMessage, "")
		key := c.Surfaces.MCP.MetaKey
		// The three values that hold the envelope are written into one
		// buffer, each what orderedjson writes for its object.
		b := make([]byte, 0, 3*len(env)+strEst(message)+strEst(key)+len(mcpUpstream)+100)
		b = appendInt(append(b, `{"code":`...), int64(c.Surfaces.MCP.ErrorCode(cl)))
		b = str(append(b, `,"message":`...), message)
		b = append(append(append(b, `,"data":`...), env...), '}')
		e := json.RawMessage(b[:len(b):len(b)])
		meta := json.RawMessage("null")
		if key != "" {
			at := len(b)
			b = append(append(append(str(append(b, '{'), key), ':'), env...), '}')
			meta = b[at:len(b):len(b)]
		}
		at := len(b)
		b = append(append(b, `{"`+contract.MCPUpstreamErrorMember+`":`...), env...)
		b = append(append(b, `,"`+contract.MCPUpstreamContentMember+`":`...), mcpUpstream...)
		sc := json.RawMessage(append(b, '}')[at:])
		out = append(out, MCPErrorVec{Name: n.name, Envelope: env, Error: e, Meta: meta, Upstream: json.RawMessage(mcpUpstream), StructuredContent: sc})
	}
	return out, nil
}

// mcpErrorReads are the protocol-error reader's vectors: the first
// example's error object and response, errors whose data is missing or no
// envelope, and documents at and past the limits every decoder shares,
// the envelope counting as the first level in both forms.
func mcpErrorReads(c *contract.Contract, exs []exampleenv.Example) ([]MCPErrorReadVec, error) {
	env := fromExample(exs[0].Value)
	envRaw, err := raw(env)
	if err != nil {
		return nil, err
	}
	msg := leafString(c, env, contract.SourceMessage, "")
	errObj := func(data any, more ...orderedjson.Member) object {
		o := object{{Key: "code", Value: contract.JSONRPCInternalError}, {Key: "message", Value: msg}}
		if data != nil {
			o = append(o, orderedjson.Member{Key: "data", Value: data})
		}
		return append(o, more...)
	}
	response := func(id any, e any, more ...orderedjson.Member) object {
		return append(object{{Key: "jsonrpc", Value: "2.0"}, {Key: "id", Value: id}, {Key: "error", Value: e}}, more...)
	}
	deep := deepEnvelope(c, exs[len(exs)-1])
	deepRaw, err := raw(deep)
	if err != nil {
		return nil, err
	}
	null := json.RawMessage("null")
	type tc struct {
		name  string
		input any
		want  json.RawMessage
	}
	cases := []tc{
		{"the error object", errObj(env), envRaw},
		{"the whole response", response(7, errObj(env)), envRaw},
		{"a response with a string id", response("req-1", errObj(env)), envRaw},
		{"a response whose id is null", response(nil, errObj(env)), envRaw},
		{"an error object without data", errObj(nil), null},
		{"an error object whose data is null", errObj(nil, orderedjson.Member{Key: "data", Value: nil}), null},
		{"a response without data", response(1, errObj(nil)), null},
		{"data holding the envelope's JSON text", errObj(string(envRaw)), null},
		{"data that is no envelope", errObj(object{{Key: "detail", Value: "upstream said no"}}), null},
		{"a response whose error is a string", response(1, "failed"), null},
		{"a response whose error is null", response(1, nil), null},
		{"an array", []any{errObj(env)}, null},
		{"the envelope at the depth limit in the error object", errObj(deep), deepRaw},
		{"the envelope at the depth limit in a response", response(1, errObj(deep)), deepRaw},
		{"a member of the error object at the depth limit", errObj(env, orderedjson.Member{Key: "x_deep", Value: nested(contract.MaxDepth)}), envRaw},
		{"a member of the error object past the depth limit", errObj(env, orderedjson.Member{Key: "x_deep", Value: nested(contract.MaxDepth + 1)}), null},
		{"a member of a response at the depth limit", response(1, errObj(env), orderedjson.Member{Key: "x_deep", Value: nested(contract.MaxDepth + 1)}), envRaw},
		{"a member of a response past the depth limit", response(1, errObj(env), orderedjson.Member{Key: "x_deep", Value: nested(contract.MaxDepth + 2)}), null},
	}
	out := make([]MCPErrorReadVec, 0, len(cases))
	for _, k := range cases {
		in, err := raw(k.input)
		if err != nil {
			return nil, err
		}
		out = append(out, MCPErrorReadVec{Name: k.name, Input: in, Envelope: k.want})
	}
	return out, nil
}

// AsObject implements orderedjson.Ordered.
func (v MCPErrorVec) AsObject() orderedjson.Object {
	return orderedjson.Object{{Key: "name", Value: v.Name}, {Key: "envelope", Value: v.Envelope}, {Key: "error", Value: v.Error},
		{Key: "meta", Value: v.Meta}, {Key: "upstream", Value: v.Upstream}, {Key: "structured_content", Value: v.StructuredContent}}
}

// AsObject implements orderedjson.Ordered.
func (v MCPErrorReadVec) AsObject() orderedjson.Object {
	return orderedjson.Object{{Key: "name", Value: v.Name}, {Key: "input", Value: v.Input}, {Key: "envelope", Value: v.Envelope}}
}
