package genvectors

import (
	"encoding/json"
	"strings"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/exampleenv"
	"github.com/errgen/errgen/internal/orderedjson"
)

// CallErrorVec is the call error of a completed MCP tool result flagged
// isError (the contract's call_error section): Result is the result, Tool
// the call's upstream, tool name and annotations. When Error is true no
// call error is built (the result is not a failed completed result).
// Otherwise the call error must validate against the call-error schema and
// match Expect: every member Expect gives equals the call error's (objects
// compared member by member the same way, arrays item by item with equal
// lengths, scalars exactly), a member given as null is absent, and when
// Exact is true the call error has no top-level member Expect does not
// give. Absent are texts its JSON text must not contain: secrets, and the
// tail of text past a cap. The vectors do not carry the sanitizer (it has
// its own), so a string the sanitizer may change is left out of Expect.
type CallErrorVec struct {
	Name   string          `json:"name"`
	Result json.RawMessage `json:"result"`
	Tool   json.RawMessage `json:"tool"`
	Error  bool            `json:"error"`
	Exact  bool            `json:"exact"`
	Expect json.RawMessage `json:"expect"`
	Absent []string        `json:"absent"`
}

// callErrorCase is a CallErrorVec as callErrors builds it.
type callErrorCase struct {
	Name                 string
	Result, Tool, Expect orderedjson.Object
	Error, Exact         bool
	Absent               []string
}

// AsObject implements orderedjson.Ordered.
func (v CallErrorVec) AsObject() orderedjson.Object {
	absent := make([]any, len(v.Absent))
	for i, a := range v.Absent {
		absent[i] = a
	}
	return orderedjson.Object{{Key: "name", Value: v.Name}, {Key: "result", Value: v.Result}, {Key: "tool", Value: v.Tool},
		{Key: "error", Value: v.Error}, {Key: "exact", Value: v.Exact}, {Key: "expect", Value: v.Expect}, {Key: "absent", Value: absent}}
}

// The secrets the edge cases hide, each of a shape every sanitizer policy
// redacts (a built-in secret prefix, a bearer token).
const (
	callSecretToken  = "ghp_Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lz9Xc8Vb"
	callSecretBearer = "Bearer eyJhbGciOiJIUzI1NiJ9.c2VjcmV0cGF5bG9hZA.c2lnbmF0dXJlMTIz"
)

// callErrors are the call_error vectors: one per kind and for a kind the
// contract does not define (the kind's envelope as structuredContent), and
// the edge cases: many content blocks, binary blocks, huge text, secrets in
// text, resources and structured content, an envelope in text only, no
// content at all, annotations, tool names, and results that are no error.
func callErrors(c *contract.Contract) ([]CallErrorVec, error) {
	cases := callErrorCases(c)
	out := make([]CallErrorVec, len(cases))
	for i, cc := range cases {
		v := CallErrorVec{Name: cc.Name, Error: cc.Error, Exact: cc.Exact, Absent: cc.Absent}
		var err error
		if v.Result, err = raw(cc.Result); err != nil {
			return nil, err
		}
		if v.Tool, err = raw(cc.Tool); err != nil {
			return nil, err
		}
		if v.Expect, err = raw(cc.Expect); err != nil {
			return nil, err
		}
		if v.Absent == nil {
			v.Absent = []string{}
		}
		out[i] = v
	}
	return out, nil
}

// callErrorCases are the call_error vectors before encoding, one step a
// group of cases, in the order the vectors file lists them.
func callErrorCases(c *contract.Contract) []callErrorCase {
	b := callErrorBuilder{c: c, ce: c.CallError, resultKind: c.Inbound.ToolResult.Name}
	var out []callErrorCase
	out = append(out, b.kindCases()...)
	out = append(out, b.blockCases()...)
	out = append(out, b.redactionCases()...)
	out = append(out, b.textEnvelopeCases()...)
	out = append(out, b.noContentCase())
	out = append(out, b.annotationCases()...)
	out = append(out, b.toolNameCases()...)
	out = append(out, notCallErrorCases()...)
	out = append(out, b.malformedBlockCase())
	return out
}

// callErrorMessage is the message the vectors' failing results carry.
const callErrorMessage = "The tool failed."

// callErrorBuilder builds the call_error vectors of one contract.
type callErrorBuilder struct {
	c  *contract.Contract
	ce *contract.CallError
	// resultKind is the kind a failed result without an envelope reports.
	resultKind string
}

// stdTool is the call's tool in most cases: upstream github, tool
// create_issue, no annotations.
var stdTool = callTool("github", "create_issue", nil)

// callTool is a vector's tool: its upstream, name and annotations.
func callTool(upstream, name string, annotations orderedjson.Object) orderedjson.Object {
	if annotations == nil {
		annotations = orderedjson.Object{}
	}
	return orderedjson.Object{{Key: "upstream", Value: upstream}, {Key: "name", Value: name}, {Key: "annotations", Value: annotations}}
}

// textBlock is an MCP text content block.
func textBlock(s string) orderedjson.Object {
	return orderedjson.Object{{Key: "type", Value: "text"}, {Key: "text", Value: s}}
}

// failedResult is a tool result flagged isError with the content blocks
// given and, unless nil, structured content.
func failedResult(structured any, blocks ...any) orderedjson.Object {
	if blocks == nil {
		blocks = []any{}
	}
	r := orderedjson.Object{{Key: "content", Value: blocks}}
	if structured != nil {
		r = append(r, orderedjson.Member{Key: "structuredContent", Value: structured})
	}
	return append(r, orderedjson.Member{Key: "isError", Value: true})
}

// callEvidence is a call error's evidence member.
func callEvidence(blocks []any, structured, parsed any, omitted int) orderedjson.Object {
	if blocks == nil {
		blocks = []any{}
	}
	return orderedjson.Object{{Key: "content", Value: blocks}, {Key: "structured_content", Value: structured},
		{Key: "parsed_error", Value: parsed}, {Key: "omitted_content_blocks", Value: omitted}}
}

// withMember returns a copy of o with key set to v (replaced in place, or
// added at the end).
func withMember(o orderedjson.Object, key string, v any) orderedjson.Object {
	out := append(orderedjson.Object(nil), o...)
	for i := range out {
		if out[i].Key == key {
			out[i].Value = v
			return out
		}
	}
	return append(out, orderedjson.Member{Key: key, Value: v})
}

// expect is the whole call error of kind (as reported), message and tool,
// with sameArgs (nil: the kind's own) and evidence.
func (b callErrorBuilder) expect(kind, msg, toolName string, sameArgs *contract.SameArguments, evidence orderedjson.Object) orderedjson.Object {
	c, ce := b.c, b.ce
	canonical, changed := ce.CanonicalOf(kind)
	cl := &c.Fallback.Classification
	if k := c.Kind(canonical); k != nil {
		cl = &k.Classification
	}
	if sameArgs == nil {
		sameArgs = cl.Recovery.SameArguments
	}
	var o orderedjson.Object
	for _, m := range ce.Members {
		var v any
		switch m {
		case "contract_version":
			v = c.Version
		case "kind":
			v = canonical
		case "message":
			v = msg
		case "tool":
			if toolName != "" {
				v = toolName
			}
		case "origin":
			v = ce.Origin.Name
		case "recovery":
			v = orderedjson.Object{{Key: "action", Value: cl.Recovery.Action.Name}, {Key: "same_arguments", Value: sameArgs.Name},
				{Key: "guidance", Value: cl.Recovery.Guidance}, {Key: "retry_after_ms", Value: nil}}
		case "side_effects":
			v = cl.SideEffects.Name
		case "original_kind":
			if changed {
				v = kind
			}
		case "evidence":
			v = evidence
		}
		o = append(o, orderedjson.Member{Key: m, Value: v})
	}
	return o
}

// kindCases are one case a kind, and one for a kind the contract does not
// define: the kind's envelope as structuredContent.
func (b callErrorBuilder) kindCases() []callErrorCase {
	c := b.c
	names := make([]string, 0, len(c.Kinds)+1)
	for _, k := range c.Kinds {
		names = append(names, k.Name)
	}
	names = append(names, exampleenv.UnknownKindName(c))
	var out []callErrorCase
	for _, kind := range names {
		env := exampleenv.New(c, kind, callErrorMessage, nil)
		ev := callEvidence([]any{textBlock(callErrorMessage)}, env, nil, 0)
		if !proofTree(c, env) {
			// The sanitizer may change a string of it: not compared.
			ev = orderedjson.Object{ev[0], ev[2], ev[3]}
		}
		out = append(out, callErrorCase{Name: "kind " + kind, Result: failedResult(env, textBlock(callErrorMessage)), Tool: stdTool, Exact: true,
			Expect: b.expect(kind, callErrorMessage, "github::create_issue", nil, ev)})
	}
	return out
}

// blockCases are the content-block edge cases: more blocks than the cap,
// binary blocks, and blocks of unknown types or that are no objects.
func (b callErrorBuilder) blockCases() []callErrorCase {
	ce := b.ce
	var out []callErrorCase
	var many, kept []any
	for i := 1; i <= ce.Evidence.MaxBlocks+4; i++ {
		block := textBlock("Block " + itoa(i) + ".")
		many = append(many, block)
		if i <= ce.Evidence.MaxBlocks {
			kept = append(kept, block)
		}
	}
	out = append(out, callErrorCase{Name: "more content blocks than the cap", Result: failedResult(nil, many...), Tool: stdTool, Exact: true,
		Expect: b.expect(b.resultKind, "Block 1.", "github::create_issue", nil, callEvidence(kept, nil, nil, 4))})
	binary := ce.Evidence.Binary
	if len(binary) > 0 {
		blocks := []any{textBlock("Rendering failed.")}
		want := []any{textBlock("Rendering failed.")}
		for i, typ := range binary {
			data := strings.Repeat("QUJD", i+2)
			blocks = append(blocks, orderedjson.Object{{Key: "type", Value: typ}, {Key: "data", Value: data}, {Key: "mimeType", Value: typ + "/x-test"}})
			want = append(want, orderedjson.Object{{Key: "type", Value: typ}, {Key: "encoded_bytes", Value: len(data)}, {Key: "omitted", Value: true}})
		}
		blocks = append(blocks, orderedjson.Object{{Key: "type", Value: "resource"}, {Key: "resource", Value: orderedjson.Object{
			{Key: "uri", Value: "memory:report"}, {Key: "blob", Value: "AAAAAAAA"}}}})
		want = append(want, orderedjson.Object{{Key: "type", Value: "resource"}, {Key: "encoded_bytes", Value: 8}, {Key: "omitted", Value: true}})
		out = append(out, callErrorCase{Name: "binary blocks are reduced to type, MIME type and size", Result: failedResult(nil, blocks...), Tool: stdTool, Exact: true,
			Expect: b.expect(b.resultKind, "Rendering failed.", "github::create_issue", nil, callEvidence(want, nil, nil, len(binary)+1))})
	}
	out = append(out, callErrorCase{Name: "blocks of unknown types and blocks that are no objects", Tool: stdTool, Exact: true,
		Result: failedResult(nil, orderedjson.Object{{Key: "type", Value: "hologram"}, {Key: "data", Value: "zzz"}}, "just a string", orderedjson.Object{{Key: "text", Value: "no type"}}),
		Expect: b.expect(b.resultKind, ce.DefaultMessage, "github::create_issue", nil, callEvidence([]any{
			orderedjson.Object{{Key: "type", Value: "hologram"}, {Key: "omitted", Value: true}},
			orderedjson.Object{{Key: "type", Value: "unknown"}, {Key: "omitted", Value: true}},
			orderedjson.Object{{Key: "type", Value: "unknown"}, {Key: "omitted", Value: true}},
		}, nil, nil, 3))})
	return out
}

// redactionCases are huge text, capped with its tail gone, and secrets in
// text, resources and structured content, redacted.
func (b callErrorBuilder) redactionCases() []callErrorCase {
	resultKind := b.resultKind
	// Past both caps: the text block's and the message's.
	huge := strings.Repeat("The export stalled again. ", max(b.ce.Evidence.MaxText, b.c.Sanitize.MaxLength)/26+20) + "TAILMARKER"
	return []callErrorCase{
		{Name: "huge text is capped", Tool: stdTool, Result: failedResult(nil, textBlock(huge)),
			Expect: orderedjson.Object{{Key: "kind", Value: resultKind}, {Key: "original_kind", Value: nil}}, Absent: []string{"TAILMARKER"}},
		{Name: "secrets in text are redacted", Tool: stdTool,
			Result: failedResult(nil, textBlock("Push rejected for "+callSecretToken), textBlock("Header was "+callSecretBearer)),
			Expect: orderedjson.Object{{Key: "kind", Value: resultKind}}, Absent: []string{callSecretToken, "eyJhbGciOiJIUzI1NiJ9"}},
		{Name: "secrets in resources are redacted", Tool: stdTool,
			Result: failedResult(nil, textBlock("Config rejected."), orderedjson.Object{{Key: "type", Value: "resource"}, {Key: "resource", Value: orderedjson.Object{
				{Key: "uri", Value: "https://deploy:" + callSecretToken + "@example.com/config"}, {Key: "mimeType", Value: "text/plain"},
				{Key: "text", Value: "token=" + callSecretToken + "\n" + strings.Repeat("setting = value\n", 400) + "TAILMARKER"}}}}),
			Expect: orderedjson.Object{{Key: "kind", Value: resultKind}}, Absent: []string{callSecretToken, "TAILMARKER"}},
		{Name: "secrets in structured content are redacted", Tool: stdTool,
			Result: failedResult(orderedjson.Object{{Key: "detail", Value: "upstream said " + callSecretBearer},
				{Key: "nested", Value: []any{orderedjson.Object{{Key: "hint", Value: "retry with " + callSecretToken}}, 42, true}}}, textBlock("Request failed.")),
			Expect: orderedjson.Object{{Key: "kind", Value: resultKind}, {Key: "message", Value: "Request failed."}}, Absent: []string{callSecretToken, "eyJhbGciOiJIUzI1NiJ9"}},
	}
}

// textEnvelopeCases carry the envelope in text only (no
// structuredContent), with a retry hint: one for a retryable kind the
// contract keeps and one for a kind it canonicalises, where it has them.
func (b callErrorBuilder) textEnvelopeCases() []callErrorCase {
	var out []callErrorCase
	done := map[bool]bool{}
	for _, k := range b.c.Kinds {
		canonical, changed := b.ce.CanonicalOf(k.Name)
		if !k.Retryable() || done[changed] {
			continue
		}
		done[changed] = true
		hint := int64(1500)
		env := exampleenv.New(b.c, k.Name, callErrorMessage, &hint)
		text, err := orderedjson.AppendCompact(nil, env)
		if err != nil {
			continue
		}
		name := "an envelope in text only, no structuredContent, with a retry hint"
		want := orderedjson.Object{{Key: "kind", Value: canonical}, {Key: "message", Value: callErrorMessage}}
		if changed {
			name += ", its kind canonicalised"
			want = append(want, orderedjson.Member{Key: "original_kind", Value: k.Name})
		} else {
			want = append(want, orderedjson.Member{Key: "original_kind", Value: nil}, orderedjson.Member{Key: "recovery", Value: orderedjson.Object{{Key: "action", Value: k.Recovery.Action.Name},
				{Key: "same_arguments", Value: k.Recovery.SameArguments.Name}, {Key: "guidance", Value: k.Recovery.Guidance}, {Key: "retry_after_ms", Value: hint}}})
		}
		out = append(out, callErrorCase{Name: name, Tool: stdTool, Result: failedResult(nil, textBlock(string(text))), Expect: want})
	}
	return out
}

// noContentCase is a failed result with no content at all and no tool.
func (b callErrorBuilder) noContentCase() callErrorCase {
	return callErrorCase{Name: "no content and no structuredContent", Tool: callTool("", "", nil), Result: failedResult(nil), Exact: true,
		Expect: b.expect(b.resultKind, b.ce.DefaultMessage, "", nil, callEvidence(nil, nil, nil, 0))}
}

// annotationCases copy the tool's annotations as untrusted hints and relax
// the same_arguments advice, where the contract declares safety hints.
func (b callErrorBuilder) annotationCases() []callErrorCase {
	ce := b.ce
	if len(ce.SafetyHints) == 0 {
		return nil
	}
	ann := orderedjson.Object{}
	safety := orderedjson.Object{}
	for i, h := range ce.SafetyHints {
		ann = append(ann, orderedjson.Member{Key: h.Annotation, Value: i%2 == 0})
		safety = append(safety, orderedjson.Member{Key: h.Name, Value: i%2 == 0})
	}
	ann = append(ann, orderedjson.Member{Key: "title", Value: "Create issue"})
	var readOnly bool
	for _, h := range ce.SafetyHints {
		readOnly = readOnly || h.Annotation == "readOnlyHint"
	}
	rk := b.c.Kind(b.resultKind)
	sa := ForTool(rk.Recovery.SameArguments, readOnly, false)
	want := b.expect(b.resultKind, "Request failed.", "github::create_issue", sa, callEvidence([]any{textBlock("Request failed.")}, nil, nil, 0))
	want = withMember(want, "safety", safety)
	return []callErrorCase{{Name: "annotations are copied as hints and relax same_arguments", Tool: callTool("github", "create_issue", ann),
		Result: failedResult(nil, textBlock("Request failed.")), Expect: want}}
}

// toolNameCases: a fully-qualified tool name without an upstream is kept,
// one that is not fully qualified is left out.
func (b callErrorBuilder) toolNameCases() []callErrorCase {
	sep := b.ce.ToolSeparator
	return []callErrorCase{
		{Name: "a fully-qualified tool name without an upstream", Tool: callTool("", "github"+sep+"create_issue", nil),
			Result: failedResult(nil, textBlock("Request failed.")), Expect: orderedjson.Object{{Key: "tool", Value: "github" + sep + "create_issue"}}},
		{Name: "a tool name that is not fully qualified is left out", Tool: callTool("", "create_issue", nil),
			Result: failedResult(nil, textBlock("Request failed.")), Expect: orderedjson.Object{{Key: "tool", Value: nil}}},
	}
}

// notCallErrorCases are results that are no failed completed result, so
// build no call error.
func notCallErrorCases() []callErrorCase {
	notError := orderedjson.Object{{Key: "content", Value: []any{textBlock("ok")}}, {Key: "isError", Value: false}}
	return []callErrorCase{
		{Name: "a result not flagged isError", Tool: stdTool, Result: notError, Error: true, Expect: orderedjson.Object{}},
		{Name: "a result without isError", Tool: stdTool, Result: orderedjson.Object{{Key: "content", Value: []any{textBlock("ok")}}}, Error: true, Expect: orderedjson.Object{}},
		{Name: "a result whose isError is a string", Tool: stdTool, Result: orderedjson.Object{{Key: "content", Value: []any{textBlock("failed")}}, {Key: "isError", Value: "true"}}, Error: true, Expect: orderedjson.Object{}},
		{Name: "a result whose content is not an array", Tool: stdTool, Result: orderedjson.Object{{Key: "content", Value: "failed"}, {Key: "isError", Value: true}}, Error: true, Expect: orderedjson.Object{}},
	}
}

// malformedBlockCase has blocks whose members have the wrong types, and a
// null block.
func (b callErrorBuilder) malformedBlockCase() callErrorCase {
	return callErrorCase{Name: "blocks whose members have the wrong types", Tool: stdTool, Exact: true,
		Result: failedResult(nil, orderedjson.Object{{Key: "type", Value: "text"}, {Key: "text", Value: 5}}, nil, orderedjson.Object{{Key: "type", Value: 7}}),
		Expect: b.expect(b.resultKind, b.ce.DefaultMessage, "github::create_issue", nil, callEvidence([]any{
			orderedjson.Object{{Key: "type", Value: "text"}, {Key: "text", Value: ""}},
			orderedjson.Object{{Key: "type", Value: "unknown"}, {Key: "omitted", Value: true}},
			orderedjson.Object{{Key: "type", Value: "unknown"}, {Key: "omitted", Value: true}},
		}, nil, nil, 2))}
}

// proofTree reports whether no string in v (keys and values) is one the
// sanitizer might change.
func proofTree(c *contract.Contract, v any) bool {
	switch x := v.(type) {
	case string:
		return sanitizeProof(c, x)
	case orderedjson.Object:
		for _, m := range x {
			if !proofTree(c, m.Value) {
				return false
			}
		}
	case []any:
		for _, e := range x {
			if !proofTree(c, e) {
				return false
			}
		}
	}
	return true
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
