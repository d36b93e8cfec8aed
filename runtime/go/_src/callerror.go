package agenterror

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

// Call errors: the object a sandbox's rejected tool call carries (labby's
// Code Mode call error), built from a completed MCP tool result flagged
// isError, as the contract's call_error section (callerror_contract.go)
// describes it. A completed result is the contract's tool_result kind and
// origin, and never counts toward the circuit breaker.

// callErrorSpec is the contract's call_error section.
type callErrorSpec struct {
	version        int
	members        []string
	origin         Origin
	resultKind     Kind
	canonical      map[string]string
	separator      string
	defaultMessage string
	hints          [][2]string // member, MCP annotation
	maxBlocks      int
	maxText        int
	maxResource    int
	binary         []string
}

// CallTool names the tool a call went to: its upstream, its name, and its
// MCP annotations (readOnlyHint, destructiveHint, ...) as the upstream
// advertised them, which a call error carries as untrusted hints.
type CallTool struct {
	Upstream    string
	Name        string
	Annotations map[string]any
}

// CallRecovery is a call error's recovery advice.
type CallRecovery struct {
	Action        RecoveryAction
	SameArguments SameArguments
	Guidance      string
	RetryAfterMs  *int64
}

// CallEvidence is the sanitized evidence a call error keeps of the result:
// its first content blocks (text sanitized and capped, binary content
// reduced to its type, MIME type and encoded size, resources redacted and
// capped), its structuredContent and the JSON object of its first text
// block, both sanitized; OmittedContentBlocks counts the blocks whose
// content is not carried.
type CallEvidence struct {
	Content              []map[string]any
	StructuredContent    any
	ParsedError          any
	OmittedContentBlocks int
}

// CallError is the call error of a completed MCP tool result flagged
// isError. Error returns its JSON text, which a sandbox puts in the message
// of the error its call rejects with.
type CallError struct {
	ContractVersion int
	// Kind is the canonical kind: one the contract canonicalises is replaced,
	// and OriginalKind keeps the one the result reported.
	Kind         string
	Message      string
	Tool         string
	Origin       Origin
	Recovery     CallRecovery
	SideEffects  SideEffects
	OriginalKind string
	Cause        string
	// Safety holds the tool's annotations: hints, not guarantees.
	Safety   map[string]bool
	Evidence CallEvidence
}

// CountsTowardBreaker is false: the upstream answered with a completed
// result, so a call error never counts toward its circuit breaker.
func (c *CallError) CountsTowardBreaker() bool { return ClassifyToolResult().CountsTowardBreaker }

// NewCallError builds the call error of result, the JSON of a completed
// MCP tool result flagged isError (content, structuredContent), for a call
// to tool. Its kind is the envelope the result carries (FromToolResult),
// canonicalised, or the contract's tool_result kind; its recovery and
// side_effects are the contract's classification of that kind, the
// same_arguments advice relaxed for the tool's annotations (ForTool). It
// fails when result is not a JSON object with isError true and a content
// array.
func NewCallError(result []byte, tool CallTool) (*CallError, error) {
	var r struct {
		Content           []json.RawMessage `json:"content"`
		StructuredContent json.RawMessage   `json:"structuredContent"`
		IsError           *bool             `json:"isError"`
	}
	if err := json.Unmarshal(result, &r); err != nil {
		return nil, errors.New("agenterror: not an MCP tool result: " + err.Error())
	}
	if r.IsError == nil || !*r.IsError {
		return nil, errors.New("agenterror: the tool result is not flagged isError")
	}
	p := &callErrorPolicy
	ce := &CallError{ContractVersion: p.version, Kind: string(p.resultKind), Origin: p.origin}
	blocks := make([]map[string]any, len(r.Content))
	var texts []ToolContent
	for i, raw := range r.Content {
		blocks[i] = callJSONObject(raw)
		if blocks[i] != nil && blocks[i]["type"] == "text" {
			if t, ok := blocks[i]["text"].(string); ok {
				texts = append(texts, ToolContent{Type: "text", Text: t})
			}
		}
	}
	env, err := FromToolResult(ToolResult{Content: texts, StructuredContent: r.StructuredContent, IsError: true})
	var retryAfter *int64
	if err == nil {
		ce.Kind, ce.Message, ce.Cause = string(env.Kind), env.Message, env.callErrorCause()
		if ms := env.Recovery.RetryAfterMs; ms != nil && *ms >= 0 {
			v := *ms
			retryAfter = &v
		}
	} else if len(texts) > 0 {
		ce.Message = Sanitize(texts[0].Text)
	}
	if blank(ce.Message) {
		ce.Message = p.defaultMessage
	}
	if to, ok := p.canonical[ce.Kind]; ok {
		ce.OriginalKind, ce.Kind = ce.Kind, to
	}
	if ce.Tool = tool.Name; tool.Upstream != "" && tool.Name != "" {
		ce.Tool = tool.Upstream + p.separator + tool.Name
	} else if i := strings.Index(tool.Name, p.separator); i <= 0 || i+len(p.separator) >= len(tool.Name) {
		ce.Tool = ""
	}
	annotation := func(name string) (bool, bool) {
		b, ok := tool.Annotations[name].(bool)
		return b, ok
	}
	for _, h := range p.hints {
		if b, ok := annotation(h[1]); ok {
			if ce.Safety == nil {
				ce.Safety = map[string]bool{}
			}
			ce.Safety[h[0]] = b
		}
	}
	cl := Lookup(Kind(ce.Kind))
	var a ToolAnnotations
	if b, ok := annotation("readOnlyHint"); ok {
		a.ReadOnlyHint = &b
	}
	if b, ok := annotation("idempotentHint"); ok {
		a.IdempotentHint = &b
	}
	ce.Recovery = CallRecovery{Action: cl.Action, SameArguments: cl.SameArguments.ForTool(a), Guidance: cl.Guidance, RetryAfterMs: retryAfter}
	ce.SideEffects = cl.SideEffects
	ce.Evidence = callEvidence(p, blocks, texts, r.StructuredContent)
	return ce, nil
}

// callJSONObject decodes raw as a JSON object, numbers kept as written; nil
// when it is none.
func callJSONObject(raw []byte) map[string]any {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var m map[string]any
	if d.Decode(&m) != nil || d.More() {
		return nil
	}
	return m
}

// callEvidence keeps the sanitized evidence of a result.
func callEvidence(p *callErrorSpec, blocks []map[string]any, texts []ToolContent, structured json.RawMessage) CallEvidence {
	ev := CallEvidence{Content: []map[string]any{}}
	str := func(m map[string]any, key string) (string, bool) {
		s, ok := m[key].(string)
		return s, ok
	}
	for i, b := range blocks {
		if i >= p.maxBlocks {
			ev.OmittedContentBlocks += len(blocks) - i
			break
		}
		typ, _ := str(b, "type")
		out := map[string]any{"type": Sanitize(typ)}
		switch {
		case b == nil || typ == "":
			out["type"] = "unknown"
			out["omitted"] = true
			ev.OmittedContentBlocks++
		case typ == "text":
			t, _ := str(b, "text")
			out["text"] = SanitizeMax(t, p.maxText)
		case typ == "resource":
			res, _ := b["resource"].(map[string]any)
			if uri, ok := str(res, "uri"); ok {
				out["uri"] = Sanitize(uri)
			}
			if mt, ok := str(res, "mimeType"); ok {
				out["mime_type"] = Sanitize(mt)
			}
			if t, ok := str(res, "text"); ok {
				out["text"] = SanitizeMax(t, p.maxResource)
			} else {
				blob, _ := str(res, "blob")
				out["encoded_bytes"] = len(blob)
				out["omitted"] = true
				ev.OmittedContentBlocks++
			}
		case typ == "resource_link":
			if uri, ok := str(b, "uri"); ok {
				out["uri"] = Sanitize(uri)
			}
		case callBinary(p, typ):
			if mt, ok := str(b, "mimeType"); ok {
				out["mime_type"] = Sanitize(mt)
			}
			data, _ := str(b, "data")
			out["encoded_bytes"] = len(data)
			out["omitted"] = true
			ev.OmittedContentBlocks++
		default:
			out["omitted"] = true
			ev.OmittedContentBlocks++
		}
		ev.Content = append(ev.Content, out)
	}
	if s := bytes.TrimSpace(structured); len(s) > 0 && string(s) != "null" {
		d := json.NewDecoder(bytes.NewReader(s))
		d.UseNumber()
		var v any
		if d.Decode(&v) == nil {
			ev.StructuredContent = sanitizeValue(v)
		}
	}
	for _, t := range texts {
		if m := callJSONObject([]byte(strings.Trim(t.Text, " \t\n\r"))); m != nil {
			ev.ParsedError = sanitizeValue(m)
			break
		}
	}
	return ev
}

func callBinary(p *callErrorSpec, typ string) bool {
	for _, b := range p.binary {
		if b == typ {
			return true
		}
	}
	return false
}

// MarshalJSON writes the members the contract's call_error section lists,
// in its order; the optional ones only when they have a value.
func (c *CallError) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	add := func(name string, v any) error {
		raw, err := json.Marshal(v)
		if err != nil {
			return err
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = append(appendString(b, name), ':')
		b = append(b, raw...)
		return nil
	}
	for _, m := range callErrorPolicy.members {
		var v any
		switch m {
		case "contract_version":
			v = c.ContractVersion
		case "kind":
			v = c.Kind
		case "message":
			v = c.Message
		case "tool":
			if c.Tool != "" {
				v = c.Tool
			}
		case "origin":
			v = c.Origin
		case "recovery":
			r := map[string]any{"action": c.Recovery.Action, "same_arguments": c.Recovery.SameArguments, "guidance": c.Recovery.Guidance}
			if c.Recovery.RetryAfterMs != nil {
				r["retry_after_ms"] = *c.Recovery.RetryAfterMs
			}
			v = r
		case "side_effects":
			v = c.SideEffects
		case "original_kind":
			if c.OriginalKind != "" {
				v = c.OriginalKind
			}
		case "cause":
			if c.Cause != "" {
				v = c.Cause
			}
		case "safety":
			if len(c.Safety) > 0 {
				v = c.Safety
			}
		case "evidence":
			ev := map[string]any{"content": c.Evidence.Content, "omitted_content_blocks": c.Evidence.OmittedContentBlocks}
			if ev["content"] == nil {
				ev["content"] = []any{}
			}
			if c.Evidence.StructuredContent != nil {
				ev["structured_content"] = c.Evidence.StructuredContent
			}
			if c.Evidence.ParsedError != nil {
				ev["parsed_error"] = c.Evidence.ParsedError
			}
			v = ev
		}
		if v == nil {
			continue
		}
		if err := add(m, v); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// Error is the call error's JSON text.
func (c *CallError) Error() string {
	b, err := c.MarshalJSON()
	if err != nil {
		return `{"kind":` + string(appendString(nil, c.Kind)) + `}`
	}
	return string(b)
}
