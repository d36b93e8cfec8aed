package agenterror

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// The MCP surface's tool results and error codes (mcperror.go holds the
// protocol errors and the results that keep an upstream's structured
// content). The contract's side (mcpMetaKey, mcpKindErrorCodes,
// mcpErrorCodes, defaultMCPErrorCode) is rendered into surfaces.go.

// ToolResult is an MCP CallToolResult reporting a failure: the envelope as
// text content, for hosts that read only content, and as structured
// content. Meta holds the envelope under the contract's _meta key
// (mcpMetaKey, surfaces.mcp.meta_key) and stays empty when the contract
// names none.
type ToolResult struct {
	Content           []ToolContent              `json:"content"`
	StructuredContent json.RawMessage            `json:"structuredContent,omitempty"`
	IsError           bool                       `json:"isError"`
	Meta              map[string]json.RawMessage `json:"_meta,omitempty"`
}

// ToolContent is one content item of a ToolResult.
type ToolContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// ToolResult returns the envelope as the result of a failed MCP tool call:
// isError true, the envelope's JSON as the one text content item and as
// structuredContent.
func (e *Envelope) ToolResult() (ToolResult, error) {
	return e.toolResult(true)
}

// TextToolResult is ToolResult without structuredContent: the envelope's
// JSON as the one text content item only. A client that checks an error
// result's structuredContent against the tool's outputSchema (the 1.x
// TypeScript SDK's) accepts it whatever the schema; FromToolResult reads it
// from the text.
func (e *Envelope) TextToolResult() (ToolResult, error) {
	return e.toolResult(false)
}

// toolResult is the isError tool result of the envelope, with its JSON as
// structuredContent too when structured is set.
func (e *Envelope) toolResult(structured bool) (ToolResult, error) {
	b, err := e.MarshalJSON()
	if err != nil {
		return ToolResult{}, err
	}
	r := ToolResult{
		Content: []ToolContent{{Type: "text", Text: string(b)}},
		IsError: true,
		Meta:    mcpMeta(b),
	}
	if structured {
		r.StructuredContent = b
	}
	return r, nil
}

// FromToolResult reads the envelope of an MCP tool result: its
// structuredContent when that is an envelope (or keeps an upstream's own
// beside it, as UpstreamToolResult writes it: the envelope is its error
// member), else the first text content item that is (trimmed of JSON's
// white space only, as ReadCLI trims a line). It does not look at isError.
// The envelope is sanitized as UnmarshalJSON sanitizes one. The error, when
// no envelope is found, wraps the first decoding problem.
func FromToolResult(r ToolResult) (*Envelope, error) {
	var first error
	if s := bytes.TrimSpace(r.StructuredContent); len(s) > 0 && string(s) != "null" {
		if env, _, ok := upstreamWrapped(s); ok {
			s = env
		}
		e, err := decodeEnvelope(s)
		if err == nil {
			return e, nil
		}
		first = err
	}
	for _, c := range r.Content {
		if c.Type != "text" {
			continue
		}
		e, err := decodeEnvelope([]byte(strings.Trim(c.Text, jsonSpace)))
		if err == nil {
			return e, nil
		}
		if first == nil {
			first = err
		}
	}
	if first != nil {
		return nil, fmt.Errorf("agenterror: tool result carries no envelope: %w", first)
	}
	// Nothing to decode is a DecodeError (DecodeMissing), as every
	// language's reader reports it.
	return nil, &DecodeError{Problem: "tool result carries no envelope", Category: DecodeMissing}
}

// MCPErrorCode is the JSON-RPC error code of the failure as an MCP protocol
// error (MCPError): the kind's own (mcp_error_code, mcpKindErrorCodes)
// where it gives one, else by the origin of the kind's classification (a
// kind this package does not know has the fallback's origin;
// mcpErrorCodes), and defaultMCPErrorCode for an origin the contract gives
// no code (surfaces.mcp).
func (e *Envelope) MCPErrorCode() int {
	if code, ok := mcpKindErrorCodes[e.Kind]; ok {
		return code
	}
	if code, ok := mcpErrorCodes[Lookup(e.Kind).Origin]; ok {
		return code
	}
	return defaultMCPErrorCode
}
