package agenterror

import (
	"bytes"
	"encoding/json"
	"errors"
)

// The MCP surface beside tool results: a protocol error (a failed prompt,
// resource or bridge request) is a JSON-RPC error whose code the contract
// gives by origin (MCPErrorCode) and whose data member is the envelope; an
// isError tool result that replaces an upstream's own structuredContent
// keeps it beside the envelope; and when the contract names a _meta key
// (surfaces.mcp.meta_key), every isError tool result carries the envelope
// under it too.

// MCPError is the error object of a JSON-RPC error response (MCP's
// ErrorData): the code, the envelope's message and the envelope as data.
type MCPError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

// MCPErrorResponse is a whole JSON-RPC error response.
type MCPErrorResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   MCPError        `json:"error"`
}

// MCPError returns the envelope as the error of a failed MCP protocol
// request (a prompt, a resource, a bridge): code MCPErrorCode(), message
// the envelope's message, data the envelope.
func (e *Envelope) MCPError() (MCPError, error) {
	b, err := e.MarshalJSON()
	if err != nil {
		return MCPError{}, err
	}
	return MCPError{Code: e.MCPErrorCode(), Message: e.Message, Data: b}, nil
}

// MCPErrorResponse returns the whole JSON-RPC response of MCPError for the
// request with the given id (its JSON: a string or a number; nil or empty
// is null, the id of a request whose id could not be read).
func (e *Envelope) MCPErrorResponse(id json.RawMessage) (MCPErrorResponse, error) {
	m, err := e.MCPError()
	if err != nil {
		return MCPErrorResponse{}, err
	}
	if len(bytes.TrimSpace(id)) == 0 {
		id = json.RawMessage("null")
	} else if !json.Valid(id) {
		return MCPErrorResponse{}, errors.New("agenterror: MCPErrorResponse: the id is not JSON")
	}
	return MCPErrorResponse{JSONRPC: "2.0", ID: id, Error: m}, nil
}

// ReadMCPError reads the envelope of a JSON-RPC error: the error object
// (MCP's ErrorData) or the whole response, whose error member it is. The
// envelope is the error's data member, decoded and sanitized as
// UnmarshalJSON decodes one; the code and message are not looked at. The
// document is held to the limits every decoder shares, the envelope
// counting as the first level as everywhere. An error without data (or
// with null) is a DecodeMissing error with path "data"; data that is not an
// envelope is the envelope decoder's error.
func ReadMCPError(data []byte) (*Envelope, error) {
	if err := checkSize(data, MaxDocumentBytes); err != nil {
		return nil, err
	}
	obj, err := jsonObject(data, "")
	var de *DecodeError
	if err != nil && errors.As(err, &de) && de.Category == DecodeSyntax {
		return nil, err
	}
	// A response holds its error object one level further out.
	response := false
	if err == nil {
		_, code := obj["code"]
		_, inner := obj["error"]
		response = inner && !code
	}
	depth := -1
	if response {
		depth = -2
	}
	if lerr := withinLimits(data, depth); lerr != nil {
		return nil, lerr
	}
	if err != nil {
		return nil, err
	}
	path := "data"
	if response {
		if obj, err = jsonObject(obj["error"], "error"); err != nil {
			return nil, err
		}
		path = "error.data"
	}
	raw, ok := obj["data"]
	if !ok || string(bytes.TrimSpace(raw)) == "null" {
		return nil, &DecodeError{Path: path, Problem: "is required: a JSON-RPC error carries the envelope in its data", Category: DecodeMissing}
	}
	return decodeEnvelope(raw)
}

// The members of an isError result's structuredContent that keeps an
// upstream's own: labby's {"error": envelope, "upstream_structured_content": original}.
const (
	upstreamErrorMember   = "error"
	upstreamContentMember = "upstream_structured_content"
)

// mcpMeta is the _meta of an isError tool result carrying env: the
// envelope under the contract's key, or nil when it names none.
func mcpMeta(env json.RawMessage) map[string]json.RawMessage {
	if mcpMetaKey == "" {
		return nil
	}
	return map[string]json.RawMessage{mcpMetaKey: env}
}

// UpstreamToolResult is ToolResult for a failed call whose upstream sent
// structured content of its own (upstream, any JSON value): the
// structuredContent is {"error": envelope, "upstream_structured_content":
// upstream}, so the original is kept; the text content and _meta are
// ToolResult's. With upstream nil, empty or null (MCP's structuredContent is
// an object: the upstream sent none) it is ToolResult().
// FromToolResult reads the envelope back, UpstreamStructuredContent the
// original.
func (e *Envelope) UpstreamToolResult(upstream json.RawMessage) (ToolResult, error) {
	r, err := e.ToolResult()
	if t := bytes.TrimSpace(upstream); err != nil || len(t) == 0 || string(t) == "null" {
		return r, err
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, upstream); err != nil {
		return ToolResult{}, errors.New("agenterror: UpstreamToolResult: the upstream's structured content is not JSON")
	}
	b := make([]byte, 0, len(r.StructuredContent)+compact.Len()+48)
	b = append(b, `{"`+upstreamErrorMember+`":`...)
	b = append(b, r.StructuredContent...)
	b = append(b, `,"`+upstreamContentMember+`":`...)
	b = append(b, compact.Bytes()...)
	r.StructuredContent = append(b, '}')
	return r, nil
}

// upstreamWrapped returns the envelope member of structured content that
// keeps an upstream's own (UpstreamToolResult's), and the original; ok is
// false for any other structured content.
func upstreamWrapped(sc []byte) (env, original json.RawMessage, ok bool) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(sc, &obj) != nil || len(obj) != 2 {
		return nil, nil, false
	}
	env, ok1 := obj[upstreamErrorMember]
	original, ok2 := obj[upstreamContentMember]
	return env, original, ok1 && ok2
}

// UpstreamStructuredContent returns the upstream's own structured content
// that an isError tool result keeps beside the envelope (UpstreamToolResult),
// or nil when it keeps none.
func UpstreamStructuredContent(r ToolResult) json.RawMessage {
	if !r.IsError {
		return nil
	}
	_, original, ok := upstreamWrapped(r.StructuredContent)
	if !ok {
		return nil
	}
	return original
}
