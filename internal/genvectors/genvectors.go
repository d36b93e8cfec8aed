// Package genvectors writes the conformance vectors of a contract: the
// expected answers of every generated package (lookup, decoding, the next
// step, the classifiers), computed from the model. Each language's tests run
// the same file, so one set of vectors proves them all.
//
// Nothing here reads generated code: every expectation follows from the
// contract, the layout and the decision table of docs/agents.md. The Go
// check that runs the vectors against a generated package is
// internal/gentest.CheckVectors.
package genvectors

import (
	"encoding/json"
	"fmt"
	"path"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/exampleenv"
	"github.com/errgen/errgen/internal/marker"
	"github.com/errgen/errgen/internal/orderedjson"
	"github.com/errgen/errgen/internal/targets"
)

// Dir is where the vectors go, relative to the output root.
func Dir(o targets.Options) string { return o.Dir(targets.Conformance) }

// FileName is the path of the contract's vectors file, relative to the
// output root: conformance/<contract name>.vectors.json.
func FileName(c *contract.Contract, o targets.Options) string {
	return path.Join(Dir(o), c.Name+".vectors.json")
}

// File is the vectors file. Its JSON form is what every language's tests
// read; the field order here is the order on disk.
type File struct {
	Comment  string `json:"$comment"`
	Contract string `json:"contract"`
	// Version is the wire contract version: a number, or a string when the
	// contract writes it as one ("0.1").
	Version    any            `json:"version"`
	Retry      Retry          `json:"retry"`
	Lookup     []LookupVec    `json:"lookup"`
	Envelopes  []EnvelopeVec  `json:"envelopes"`
	Malformed  []MalformedVec `json:"malformed"`
	Edges      []EdgeVec      `json:"edges"`
	NextStep   []NextStepVec  `json:"next_step"`
	Classify   []ClassifyVec  `json:"classify"`
	ToolResult *ToolResult    `json:"tool_result"`
	ForTool    []ForToolVec   `json:"for_tool"`
	HTTP       []HTTPVec      `json:"http"`
	// Surfaces and Accept are what the producers' surfaces write (HTTP,
	// RFC 9457, CLI, logging), every package byte for byte (surfaces.go).
	Surfaces []SurfaceVec `json:"surfaces"`
	Accept   []AcceptVec  `json:"accept"`
	// StringForms are received envelopes whose text tries to get out of the
	// string form of an error and the log form (stringforms.go).
	StringForms []StringFormVec `json:"string_forms"`
	// CLIRead is what the CLI readers make of lines at the edges of the CLI
	// form: JSON's white space and other spaces at its ends, the limits in
	// the wrapped form (readers.go).
	CLIRead []CLIReadVec `json:"cli_read"`
	// MCPText is what the MCP tool-result readers make of a text content
	// item with other spaces at its ends (readers.go).
	MCPText []MCPTextVec `json:"mcp_text"`
	// MCPOutputSchema is what the packages' widening of an MCP tool's
	// outputSchema makes of success schemas (mcpschema.go).
	MCPOutputSchema []MCPOutputSchemaVec `json:"mcp_output_schema"`
	// MCPErrors are the MCP protocol errors (JSON-RPC errors whose data is
	// the envelope) and the isError tool results that keep an upstream's
	// structured content, of every example; MCPErrorRead what the
	// protocol-error readers make of errors at their edges (mcperror.go).
	MCPErrors    []MCPErrorVec     `json:"mcp_errors"`
	MCPErrorRead []MCPErrorReadVec `json:"mcp_error_read"`
	// Writes are the writers' answers to envelopes set by hand, which no
	// decoder gives (writes.go).
	Writes []WriteVec `json:"writes"`
	// The google.rpc mapping (aip193.go): the ErrorInfo domain, every
	// kind's code and reason, the reasons of kind names at the edges of its
	// steps, envelopes as AIP-193 errors and foreign errors read back.
	AIPDomain  string         `json:"aip193_domain"`
	AIPKinds   []AIPKindVec   `json:"aip193_kinds"`
	AIPReasons []AIPReasonVec `json:"aip193_reasons"`
	AIPEncode  []AIPEncodeVec `json:"aip193_encode"`
	AIPDecode  []AIPDecodeVec `json:"aip193_decode"`
	// Received holds envelopes from an upstream with secrets in what the
	// contract sanitizes: every reader redacts them (received.go).
	Received []ReceivedVec `json:"received"`
	// CallErrors are the call errors of completed tool results flagged
	// isError, for a contract with a call_error section (callerrors.go).
	CallErrors []CallErrorVec `json:"call_errors"`
}

// Retry is the contract's backoff for retries without a retry hint.
type Retry struct {
	InitialMs   int     `json:"initial_ms"`
	MaxMs       int     `json:"max_ms"`
	Multiplier  float64 `json:"multiplier"`
	Jitter      float64 `json:"jitter"`
	MaxAttempts int     `json:"max_attempts"`
	MaxHintMs   int64   `json:"max_hint_ms"`
}

// LookupVec is the classification Lookup(kind) returns.
type LookupVec struct {
	Kind          string `json:"kind"`
	Known         bool   `json:"known"`
	Group         string `json:"group"` // "" for an unknown kind
	Origin        string `json:"origin"`
	Action        string `json:"action"`
	SameArguments string `json:"same_arguments"`
	Guidance      string `json:"guidance"`
	SideEffects   string `json:"side_effects"`
	HTTPStatus    int    `json:"http_status"`
	LogLevel      string `json:"log_level"` // debug, info, warn or error
	Breaker       bool   `json:"breaker"`
	Retryable     bool   `json:"retryable"`
	Startup       bool   `json:"startup"`
	Number        int    `json:"number"` // -1 when the contract numbers no kinds
	// The google.rpc mapping's code and status, and the kind's ErrorInfo
	// reason: computed for a kind the contract does not define.
	GRPCCode   int    `json:"grpc_code"`
	GRPCStatus string `json:"grpc_status"`
	Reason     string `json:"reason"`
}

// EnvelopeVec is a valid envelope: it decodes, and encoding the decoded
// envelope gives the same JSON (as a value: member order aside).
type EnvelopeVec struct {
	Name     string          `json:"name"`
	Envelope json.RawMessage `json:"envelope"`
	// Kind, Known, Retryable and HTTPStatus are what the decoded envelope
	// answers: its kind, whether the contract defines it, IsRetryable (a
	// received derived flag wins) and its HTTP status.
	Kind       string `json:"kind"`
	Known      bool   `json:"known"`
	Retryable  bool   `json:"retryable"`
	HTTPStatus int    `json:"http_status"`
}

// MalformedVec is an input that must not decode: a JSON value (Input), or
// for category "syntax" text (Text) that is not JSON at all or past a limit
// every decoder shares (edges.go), or bytes (Bytes, base64 in the file)
// that are not UTF-8 JSON. Path is the JSON path the decoder reports
// (dotted; "" for the document as a whole) and Category the kind of
// problem: "syntax", "type", "missing" or "value".
type MalformedVec struct {
	Name     string          `json:"name"`
	Input    json.RawMessage `json:"input,omitempty"`
	Text     *string         `json:"text,omitempty"`
	Bytes    []byte          `json:"bytes,omitempty"`
	Path     string          `json:"path"`
	Category string          `json:"category"`
}

// The decode error categories every generated decoder reports.
const (
	CategorySyntax  = "syntax"  // not JSON at all, or past a limit every decoder shares
	CategoryType    = "type"    // the wrong JSON type, null where a value is required, a document that is not an object
	CategoryMissing = "missing" // a required member is absent
	CategoryValue   = "value"   // the right type, a rejected value (empty kind, negative hint, another constant)
)

// NextStepVec is NextStep on one decoded envelope after each attempt from
// 1 to max_attempts + 1 failed: the envelope once, the decisions in order.
type NextStepVec struct {
	Name     string          `json:"name"`
	Envelope json.RawMessage `json:"envelope"`
	Attempts []AttemptVec    `json:"attempts"`
	// attemptsJSON is Attempts written, when Build wrote them once for
	// every vector that shares them (nil: written with the vector).
	attemptsJSON []byte
}

// AttemptVec is NextStep's decision after attempt Attempt (from 1) failed.
// Delays are in whole milliseconds.
type AttemptVec struct {
	Attempt         int    `json:"attempt"`
	Step            string `json:"step"`
	DelayMinMs      int64  `json:"delay_min_ms"`
	DelayMaxMs      int64  `json:"delay_max_ms"`
	CheckStateFirst bool   `json:"check_state_first"`
	Exhausted       bool   `json:"exhausted"`
}

// ClassifyVec is one classifier's answer for one upstream failure. Failure
// and Text are "" when absent, Status 0.
type ClassifyVec struct {
	Classifier string `json:"classifier"`
	Status     int    `json:"status"`
	Failure    string `json:"failure"`
	Text       string `json:"text"`
	Kind       string `json:"kind"`
	Breaker    bool   `json:"breaker"`
	Rule       int    `json:"rule"` // from 1; 0 for the default
}

// ToolResult is ClassifyToolResult's answer.
type ToolResult struct {
	Kind    string `json:"kind"`
	Breaker bool   `json:"breaker"`
}

// ForToolVec is SameArguments.ForTool for a tool's annotations; false
// stands for a hint that is absent or false alike.
type ForToolVec struct {
	SameArguments string `json:"same_arguments"`
	ReadOnly      bool   `json:"read_only"`
	Idempotent    bool   `json:"idempotent"`
	Result        string `json:"result"`
}

// Generate returns the vectors file of c.
func Generate(c *contract.Contract, o targets.Options) (map[string][]byte, error) {
	f, err := build(c, o.Shared)
	if err != nil {
		return nil, err
	}
	data, err := Marshal(f)
	if err != nil {
		return nil, err
	}
	return map[string][]byte{FileName(c, o): data}, nil
}

// Build computes the vectors of c.
func Build(c *contract.Contract) (*File, error) { return build(c, nil) }

// build is Build with the examples shared with the run's other emitters.
func build(c *contract.Contract, shared *targets.Shared) (*File, error) {
	f := &File{
		Comment: fmt.Sprintf("%s Conformance vectors of the %s contract, version %s: what every generated package must answer, computed from the contract. See docs/conformance.md in errgen's repository.",
			marker.Text, c.Name, c.VersionLabel()),
		Contract: c.Name,
		Version:  c.VersionValue(),
		Retry: Retry{InitialMs: c.Retry.InitialMs, MaxMs: c.Retry.MaxMs, Multiplier: c.Retry.Multiplier,
			Jitter: c.Retry.Jitter, MaxAttempts: c.Retry.MaxAttempts, MaxHintMs: c.Retry.MaxHintMs},
		Lookup:    lookups(c),
		Classify:  []ClassifyVec{},
		ForTool:   forTool(c),
		Envelopes: []EnvelopeVec{},
		Malformed: []MalformedVec{},
		Edges:     []EdgeVec{},
		NextStep:  []NextStepVec{},
	}
	// One example per kind, then the unknown kind's and the richest one,
	// built once for every section.
	all := receivable(c, exampleenv.Shared(c, shared))
	for i := range all {
		all[i].Value = orderedjson.Object(fromExample(all[i].Value))
	}
	envs, err := wires(all)
	if err != nil {
		return nil, err
	}
	if f.Envelopes, err = envelopes(c, all, envs); err != nil {
		return nil, err
	}
	if f.Malformed, err = malformed(c, all[len(all)-1]); err != nil {
		return nil, err
	}
	if f.Edges, err = edges(c, all[len(all)-1]); err != nil {
		return nil, err
	}
	if f.NextStep, err = nextSteps(c, all[:len(all)-1], envs[:len(all)-1]); err != nil {
		return nil, err
	}
	if f.HTTP, err = httpReads(c, all); err != nil {
		return nil, err
	}
	if f.Surfaces, err = surfaceVectors(c, all, envs); err != nil {
		return nil, err
	}
	if f.Received, err = received(c, all[len(all)-1]); err != nil {
		return nil, err
	}
	f.Accept = acceptVectors()
	if f.StringForms, err = stringFormVectors(c, all); err != nil {
		return nil, err
	}
	if f.CLIRead, err = cliReads(c, all); err != nil {
		return nil, err
	}
	if f.MCPText, err = mcpTexts(all); err != nil {
		return nil, err
	}
	if f.MCPOutputSchema, err = mcpOutputSchemas(c); err != nil {
		return nil, err
	}
	if f.MCPErrors, err = mcpErrors(c, all, envs); err != nil {
		return nil, err
	}
	if f.MCPErrorRead, err = mcpErrorReads(c, all); err != nil {
		return nil, err
	}
	if f.Writes, err = writeVectors(c, all); err != nil {
		return nil, err
	}
	if err = aip193(f, c, all, envs); err != nil {
		return nil, err
	}
	if c.Inbound != nil {
		f.Classify = classify(c)
		if k := c.Inbound.ToolResult; k != nil {
			f.ToolResult = &ToolResult{Kind: k.Name, Breaker: false}
		}
	}
	f.CallErrors = []CallErrorVec{}
	if c.CallError != nil && c.Inbound != nil && c.Inbound.ToolResult != nil {
		if f.CallErrors, err = callErrors(c); err != nil {
			return nil, err
		}
	}
	if err := unique(f); err != nil {
		return nil, err
	}
	return f, nil
}

// BuildAIP193 computes only the google.rpc mapping's sections of c's
// vectors (aip193_*), as Build computes them, and the contract's name and
// retry policy: for the tests that run those sections through the real
// protobuf libraries, which need not pay for every other section.
func BuildAIP193(c *contract.Contract) (*File, error) {
	f := &File{
		Contract: c.Name,
		Version:  c.VersionValue(),
		Retry: Retry{InitialMs: c.Retry.InitialMs, MaxMs: c.Retry.MaxMs, Multiplier: c.Retry.Multiplier,
			Jitter: c.Retry.Jitter, MaxAttempts: c.Retry.MaxAttempts, MaxHintMs: c.Retry.MaxHintMs},
	}
	all := receivable(c, exampleenv.All(c))
	envs, err := wires(all)
	if err != nil {
		return nil, err
	}
	if err := aip193(f, c, all, envs); err != nil {
		return nil, err
	}
	return f, nil
}

// unique checks that vector names identify their vectors in each section.
func unique(f *File) error {
	for _, err := range []error{
		uniqueIn("envelopes", f.Envelopes, func(v EnvelopeVec) string { return v.Name }),
		uniqueIn("malformed", f.Malformed, func(v MalformedVec) string { return v.Name }),
		uniqueIn("edges", f.Edges, func(v EdgeVec) string { return v.Name }),
		uniqueIn("next_step", f.NextStep, func(v NextStepVec) string { return v.Name }),
		uniqueIn("http", f.HTTP, func(v HTTPVec) string { return v.Name }),
		uniqueIn("surfaces", f.Surfaces, func(v SurfaceVec) string { return v.Name }),
		uniqueIn("string_forms", f.StringForms, func(v StringFormVec) string { return v.Name }),
		uniqueIn("writes", f.Writes, func(v WriteVec) string { return v.Name }),
		uniqueIn("mcp_errors", f.MCPErrors, func(v MCPErrorVec) string { return v.Name }),
		uniqueIn("mcp_error_read", f.MCPErrorRead, func(v MCPErrorReadVec) string { return v.Name }),
		uniqueIn("call_errors", f.CallErrors, func(v CallErrorVec) string { return v.Name }),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}

func uniqueIn[V any](section string, vecs []V, name func(V) string) error {
	seen := make(map[string]bool, len(vecs))
	for _, v := range vecs {
		if seen[name(v)] {
			return fmt.Errorf("genvectors: two %s vectors are named %q", section, name(v))
		}
		seen[name(v)] = true
	}
	return nil
}

// Marshal renders the file: one vector per line, compact JSON inside the
// line, ending in one newline.
func Marshal(f *File) ([]byte, error) {
	b, err := write(f)
	if err != nil {
		return nil, fmt.Errorf("genvectors: %w", err)
	}
	return b, nil
}

// lookups is every kind, then a kind the contract does not define: the
// fallback's classification with its kind and reason filled in.
func lookups(c *contract.Contract) []LookupVec {
	out := make([]LookupVec, 0, len(c.Kinds)+1)
	for _, k := range c.Kinds {
		l := lookupOf(k.Name, true, &k.Classification, k.Reason)
		l.Group, l.Startup = k.Group.Name, k.Startup
		if c.Numbered {
			l.Number = k.Number
		}
		out = append(out, l)
	}
	unknown := exampleenv.UnknownKindName(c)
	return append(out, lookupOf(unknown, false, &c.Fallback.Classification, contract.Reason(unknown)))
}

// lookupOf is the lookup of a kind with its classification and reason (a
// kind's own, which the loader computed; not computed again per kind).
func lookupOf(kind string, known bool, cl *contract.Classification, reason string) LookupVec {
	return LookupVec{
		Kind: kind, Known: known, Origin: cl.Origin.Name,
		Action: cl.Recovery.Action.Name, SameArguments: cl.Recovery.SameArguments.Name, Guidance: cl.Recovery.Guidance,
		SideEffects: cl.SideEffects.Name, HTTPStatus: cl.HTTP, LogLevel: string(cl.Log),
		Breaker: cl.Breaker, Retryable: cl.Retryable(), Number: -1,
		GRPCCode: cl.GRPC.Number, GRPCStatus: cl.GRPC.Name, Reason: reason,
	}
}

// forTool is every same_arguments value for every combination of the two
// annotations.
func forTool(c *contract.Contract) []ForToolVec {
	var out []ForToolVec
	for _, s := range c.SameArguments {
		for _, ro := range []bool{false, true} {
			for _, idem := range []bool{false, true} {
				out = append(out, ForToolVec{SameArguments: s.Name, ReadOnly: ro, Idempotent: idem, Result: ForTool(s, ro, idem).Name})
			}
		}
	}
	return out
}

// ForTool is the specification of SameArguments.ForTool: a tool annotated
// read-only or idempotent gets the value's upgrade, when it has one.
func ForTool(s *contract.SameArguments, readOnly, idempotent bool) *contract.SameArguments {
	if (readOnly || idempotent) && s.UpgradeTo != nil {
		return s.UpgradeTo
	}
	return s
}
