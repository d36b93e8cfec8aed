package genvectors_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/gengo"
	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/genvectors"
	"github.com/errgen/errgen/internal/marker"
	"github.com/errgen/errgen/internal/orderedjson"
	"github.com/errgen/errgen/internal/targets"
)

// contracts are the three shipped contracts and every valid test contract.
func contracts(t *testing.T) map[string]*contract.Contract {
	return gentest.Contracts(t, "../contract/testdata/valid/*/kinds.yaml")
}

func generate(t *testing.T, c *contract.Contract) []byte {
	t.Helper()
	files, err := genvectors.Generate(c, targets.Defaults(c.Name))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[genvectors.FileName(c, targets.Defaults(c.Name))] == nil {
		t.Fatalf("files %v, want only %s", len(files), genvectors.FileName(c, targets.Defaults(c.Name)))
	}
	return files[genvectors.FileName(c, targets.Defaults(c.Name))]
}

// TestVectorsWriteAsTheirStructs holds each vector type's AsObject, which
// the file is written with, to its struct: every vector's line must be what
// encoding/json writes for it, field order and json tags alike, so a field
// added to a type and not to its members fails here.
func TestVectorsWriteAsTheirStructs(t *testing.T) {
	for p, c := range contracts(t) {
		f, err := genvectors.Build(c)
		if err != nil {
			t.Fatal(err)
		}
		n := writtenAsStruct(t, p, f.Lookup) + writtenAsStruct(t, p, f.Envelopes) + writtenAsStruct(t, p, f.Malformed) + writtenAsStruct(t, p, f.MCPErrors) +
			writtenAsStruct(t, p, f.Edges) + writtenAsStruct(t, p, f.NextStep) + writtenAsStruct(t, p, f.Classify) +
			writtenAsStruct(t, p, f.ForTool) + writtenAsStruct(t, p, f.HTTP) + writtenAsStruct(t, p, f.Surfaces) +
			writtenAsStruct(t, p, f.Accept) + writtenAsStruct(t, p, f.StringForms) + writtenAsStruct(t, p, f.Writes) + writtenAsStruct(t, p, f.AIPKinds) + writtenAsStruct(t, p, f.AIPReasons) +
			writtenAsStruct(t, p, f.AIPEncode) + writtenAsStruct(t, p, f.AIPDecode) +
			writtenAsStruct(t, p, []genvectors.Retry{f.Retry})
		if f.ToolResult != nil {
			n += writtenAsStruct(t, p, []genvectors.ToolResult{*f.ToolResult})
		}
		if n == 0 {
			t.Errorf("%s: no vectors", p)
		}
	}
}

// writtenAsStruct compares each vector's written form with encoding/json's
// and returns how many it compared. The types the file writes by hand (the
// sections that grow with the kinds) are compared in that form too.
func writtenAsStruct[V orderedjson.Ordered](t *testing.T, p string, vs []V) int {
	t.Helper()
	for _, v := range vs {
		got, err := orderedjson.AppendCompact(nil, v)
		if err != nil {
			t.Fatal(err)
		}
		want, err := orderedjson.Marshal(v) // the struct's fields, by reflection
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: %T is written\n%s\nencoding/json writes\n%s", p, v, got, want)
			return 0
		}
		if byHand, ok := genvectors.AppendJSON(v); ok && !bytes.Equal(byHand, want) {
			t.Errorf("%s: %T is written by hand\n%s\nencoding/json writes\n%s", p, v, byHand, want)
			return 0
		}
	}
	return len(vs)
}

// TestFileShape checks what every language's tests rely on: the name, the
// header as the first member within 512 bytes, indented JSON ending in one
// newline, the documented members in order and determinism.
func TestFileShape(t *testing.T) {
	for p, c := range contracts(t) {
		data := generate(t, c)
		checkFileText(t, p, c, data)
		// The file's one buffer is allocated at an estimate of its size
		// (write.go): past it, append would regrow it by a quarter or more.
		if cap(data) > len(data)+len(data)/10 {
			t.Errorf("%s: the file's buffer is %d bytes for %d: its size estimate is off, or it grew", p, cap(data), len(data))
		}
		var f genvectors.File
		strict := json.NewDecoder(bytes.NewReader(data))
		strict.DisallowUnknownFields()
		if err := strict.Decode(&f); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		checkSectionSizes(t, p, c, &f)
		checkMalformedShape(t, p, &f)
		checkRequiredContextVectors(t, p, c, &f)
		checkEdgeShape(t, p, &f)
		checkNextStepShape(t, p, c, &f)
	}
}

// checkFileText checks the vectors file as text: its name, header, final
// newline, members in order, one vector a line, no HTML escapes, and that
// it is the same on every run.
func checkFileText(t *testing.T, p string, c *contract.Contract, data []byte) {
	t.Helper()
	if want := "conformance/" + c.Name + ".vectors.json"; genvectors.FileName(c, targets.Defaults(c.Name)) != want {
		t.Errorf("%s: file %s, want %s", p, genvectors.FileName(c, targets.Defaults(c.Name)), want)
	}
	if !bytes.HasPrefix(data, []byte(`{`+"\n"+`  "$comment": "`+marker.Text)) || bytes.Index(data, []byte(marker.Text)) > 512 {
		t.Errorf("%s: the header is not the first member near the top:\n%.200s", p, data)
	}
	if !bytes.HasSuffix(data, []byte("}\n")) || bytes.HasSuffix(data, []byte("\n\n")) {
		t.Errorf("%s: does not end in exactly one newline", p)
	}
	if again := generate(t, c); !bytes.Equal(data, again) {
		t.Errorf("%s: differs between runs", p)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var keys []string
	dec.Token()
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(keys, ","); got != "$comment,contract,version,retry,lookup,envelopes,malformed,edges,next_step,classify,tool_result,for_tool,http,surfaces,accept,string_forms,cli_read,mcp_text,mcp_output_schema,mcp_errors,mcp_error_read,writes,aip193_domain,aip193_kinds,aip193_reasons,aip193_encode,aip193_decode,received,call_errors" {
		t.Errorf("%s: members %s", p, got)
	}
	// One vector per line: every line between the sections' brackets
	// holds one whole JSON value.
	for _, line := range strings.Split(string(data), "\n") {
		if l := strings.TrimSuffix(line, ","); strings.HasPrefix(l, "    ") && !json.Valid([]byte(l)) {
			t.Errorf("%s: a vector line is not one JSON value: %.120s", p, line)
			break
		}
	}
	if bytes.Contains(data, []byte(`\u003c`)) || bytes.Contains(data, []byte(`\u0026`)) {
		t.Errorf("%s: HTML escapes", p)
	}
}

// checkSectionSizes checks that the sections that follow the contract have
// a vector for what they follow.
func checkSectionSizes(t *testing.T, p string, c *contract.Contract, f *genvectors.File) {
	t.Helper()
	if len(f.Lookup) != len(c.Kinds)+1 || f.Lookup[len(c.Kinds)].Known {
		t.Errorf("%s: %d lookups, want every kind and one unknown", p, len(f.Lookup))
	}
	if len(f.ForTool) != 4*len(c.SameArguments) {
		t.Errorf("%s: %d for_tool vectors", p, len(f.ForTool))
	}
	if (c.Inbound == nil) != (len(f.Classify) == 0) || (c.Inbound == nil || c.Inbound.ToolResult == nil) != (f.ToolResult == nil) {
		t.Errorf("%s: classify or tool_result does not follow the inbound section", p)
	}
}

// checkMalformedShape checks that each malformed vector carries what its
// category needs.
func checkMalformedShape(t *testing.T, p string, f *genvectors.File) {
	t.Helper()
	syntax := 0
	for _, v := range f.Malformed {
		switch {
		case v.Category == genvectors.CategorySyntax:
			// Text or bytes that are not JSON, or a document past a
			// limit every decoder shares.
			syntax++
			doc, n := []byte(nil), 0
			if v.Text != nil {
				doc, n = []byte(*v.Text), n+1
			}
			if v.Bytes != nil {
				doc, n = v.Bytes, n+1
			}
			if v.Input != nil {
				doc, n = v.Input, n+1
			}
			switch {
			case n != 1 || v.Path != "":
				t.Errorf("%s: syntax vector %q must carry one of text, bytes and input, with path \"\"", p, v.Name)
			case strings.HasPrefix(v.Name, "past a limit where it is written: "):
				// Within the limits as read, past them where a member
				// whose name places it in a nested object is written.
				if !json.Valid(doc) || pastLimit(doc) {
					t.Errorf("%s: syntax vector %q: valid JSON %v, past a limit as read %v", p, v.Name, json.Valid(doc), pastLimit(doc))
				}
			case strings.HasPrefix(v.Name, "past a limit: ") != (json.Valid(doc) && pastLimit(doc)):
				t.Errorf("%s: syntax vector %q: valid JSON %v, past a limit %v", p, v.Name, json.Valid(doc), pastLimit(doc))
			case !strings.HasPrefix(v.Name, "past a limit: ") && json.Valid(doc):
				t.Errorf("%s: syntax vector %q is valid JSON", p, v.Name)
			}
		case v.Category == genvectors.CategoryType, v.Category == genvectors.CategoryMissing, v.Category == genvectors.CategoryValue:
			if v.Text != nil || v.Bytes != nil || !json.Valid(v.Input) || pastLimit(v.Input) {
				t.Errorf("%s: %q must carry a JSON input only, within the limits", p, v.Name)
			}
		default:
			t.Errorf("%s: %q has category %q", p, v.Name, v.Category)
		}
	}
	if syntax < 4 {
		t.Errorf("%s: %d syntax vectors", p, syntax)
	}
}

// checkRequiredContextVectors checks the vectors of a context field the
// layout requires: missing, null and empty are each rejected at its path,
// so every language checks it.
func checkRequiredContextVectors(t *testing.T, p string, c *contract.Contract, f *genvectors.File) {
	t.Helper()
	for _, rf := range c.RequiredContext {
		path := c.Layout.FieldLeaf(rf).Path
		want := map[string]string{"missing " + path: genvectors.CategoryMissing, path + ": null": genvectors.CategoryType, path + ": empty": genvectors.CategoryValue}
		for _, v := range f.Malformed {
			if cat, ok := want[v.Name]; ok && v.Path == path && v.Category == cat {
				delete(want, v.Name)
			}
		}
		if len(want) > 0 {
			t.Errorf("%s: no malformed vectors %v for the required %s", p, want, rf.Name)
		}
	}
}

// checkEdgeShape checks that each edge carries text or bytes of a JSON
// document within the limits, and the envelope it decodes to.
func checkEdgeShape(t *testing.T, p string, f *genvectors.File) {
	t.Helper()
	for _, v := range f.Edges {
		doc := v.Bytes
		if v.Text != nil {
			doc = []byte(*v.Text)
		}
		if (v.Text == nil) == (v.Bytes == nil) || !json.Valid(doc) || pastLimit(doc) || !json.Valid(v.Envelope) {
			t.Errorf("%s: edge %q must carry text or bytes of a JSON document within the limits, and the envelope it decodes to", p, v.Name)
		}
	}
}

// checkNextStepShape checks that each next-step vector has every attempt,
// in order.
func checkNextStepShape(t *testing.T, p string, c *contract.Contract, f *genvectors.File) {
	t.Helper()
	for _, v := range f.NextStep {
		if len(v.Attempts) != c.Retry.MaxAttempts+1 {
			t.Errorf("%s: %q has %d attempts, want %d", p, v.Name, len(v.Attempts), c.Retry.MaxAttempts+1)
		}
		for i, a := range v.Attempts {
			if a.Attempt != i+1 {
				t.Errorf("%s: %q: attempt %d in place %d", p, v.Name, a.Attempt, i+1)
			}
		}
	}
}

// pastLimit reports whether a JSON document nests arrays and objects deeper
// than contract.MaxDepth or holds a number past the range of a 64-bit float.
func pastLimit(doc []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch t := tok.(type) {
		case json.Delim:
			if t == '{' || t == '[' {
				if depth++; depth > contract.MaxDepth {
					return true
				}
			} else {
				depth--
			}
		case json.Number:
			if f, _ := strconv.ParseFloat(string(t), 64); math.IsInf(f, 0) {
				return true
			}
		}
	}
}

// withVectors is a test contract and its vectors.
type withVectors struct {
	path    string
	c       *contract.Contract
	vectors *genvectors.File
}

// classifying returns every test contract that has classifiers, with its
// vectors.
func classifying(t *testing.T) []withVectors {
	t.Helper()
	var out []withVectors
	for p, c := range contracts(t) {
		if c.Inbound == nil {
			continue
		}
		f, err := genvectors.Build(c)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, withVectors{p, c, f})
	}
	return out
}

// TestClassifierCoverage: every rule's own input is a vector and reaches a
// rule, and every classifier has a vector that reaches its default.
func TestClassifierCoverage(t *testing.T) {
	for _, x := range classifying(t) {
		p, c, f := x.path, x.c, x.vectors
		for _, cl := range c.Inbound.Classifiers {
			have := map[genvectors.Upstream]int{}
			for _, v := range f.Classify {
				if v.Classifier == cl.Name {
					have[genvectors.Upstream{Status: v.Status, Failure: v.Failure, Text: v.Text}] = v.Rule
				}
			}
			for i, r := range cl.Rules {
				rule, ok := have[genvectors.RuleInput(r)]
				if !ok || rule == 0 || rule > i+1 {
					t.Errorf("%s: %s rule %d: its input is no vector or reaches rule %d", p, cl.Name, i+1, rule)
				}
			}
			hit := false
			for _, rule := range have {
				hit = hit || rule == 0
			}
			if !hit {
				t.Errorf("%s: %s: no vector reaches the default", p, cl.Name)
			}
		}
	}
}

// redirects are the 3xx answers every classifier's vectors carry, so that
// the Go, TypeScript and Python classifiers are all checked on them.
var redirects = []int{301, 302, 307, 308}

// TestClassifierVectorsCoverRedirects: every classifier of every contract
// has a vector for each redirect status.
func TestClassifierVectorsCoverRedirects(t *testing.T) {
	for _, x := range classifying(t) {
		p, c, f := x.path, x.c, x.vectors
		for _, cl := range c.Inbound.Classifiers {
			for _, status := range redirects {
				found := false
				for _, v := range f.Classify {
					found = found || (v.Classifier == cl.Name && v.Status == status && v.Failure == "" && v.Text == "")
				}
				if !found {
					t.Errorf("%s: %s: no vector for status %d", p, cl.Name, status)
				}
			}
		}
	}
}

// TestAGENTORedirectsAreBlocked: AGENTO maps a redirect to
// TOOL_REDIRECT_BLOCKED (seed 002), whether the downstream answered 3xx or
// the transport refused to follow it; a 3xx answer is no network error. It
// reads the committed vectors, which the TypeScript and Python tests run.
func TestAGENTORedirectsAreBlocked(t *testing.T) {
	data, err := os.ReadFile("../../examples/agento/conformance/agento.vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var f genvectors.File
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, v := range f.Classify {
		if v.Classifier != "downstream" || v.Text != "" {
			continue
		}
		redirect := (v.Status >= 300 && v.Status <= 399) || (v.Status == 0 && v.Failure == string(contract.FailureRedirectBlocked))
		if redirect && v.Kind != "TOOL_REDIRECT_BLOCKED" {
			t.Errorf("status %d, failure %q: %s, want TOOL_REDIRECT_BLOCKED", v.Status, v.Failure, v.Kind)
		}
		if !redirect && v.Kind == "TOOL_REDIRECT_BLOCKED" {
			t.Errorf("status %d, failure %q: TOOL_REDIRECT_BLOCKED for no redirect", v.Status, v.Failure)
		}
		seen[v.Status] = true
	}
	for _, status := range append([]int{300, 399}, redirects...) {
		if !seen[status] {
			t.Errorf("no downstream vector for status %d", status)
		}
	}
}

// TestDecide checks the specification of NextStep on a policy worked out by
// hand.
func TestDecide(t *testing.T) {
	c := gentest.Load(t, "../../contract/kinds.yaml")
	c.Retry = contract.RetryPolicy{InitialMs: 100, MaxMs: 1000, Multiplier: 3, Jitter: 0.25, MaxAttempts: 6, MaxHintMs: 5000}
	var retry, escalate *contract.Action
	for _, a := range c.Actions {
		switch {
		case a.Step == contract.StepRetry && retry == nil:
			retry = a
		case a.Step == contract.StepEscalate && escalate == nil:
			escalate = a
		}
	}
	var safe, never *contract.SameArguments
	for _, s := range c.SameArguments {
		if s.Retry && safe == nil {
			safe = s
		}
		if !s.Retry && never == nil {
			never = s
		}
	}
	se := c.SideEffects[0].Name
	want := [][2]int64{{75, 100}, {225, 300}, {675, 900}, {750, 1000}, {750, 1000}}
	for i, w := range want {
		d := genvectors.Decide(c, retry.Name, safe.Name, se, nil, nil, nil, i+1)
		if d.Step != contract.StepRetry || d.DelayMinMs != w[0] || d.DelayMaxMs != w[1] || d.Exhausted {
			t.Errorf("attempt %d: %+v, want retry %d-%d ms", i+1, d, w[0], w[1])
		}
	}
	if d := genvectors.Decide(c, retry.Name, safe.Name, se, nil, nil, nil, 6); d.Step != contract.StepEscalate || !d.Exhausted {
		t.Errorf("attempt 6: %+v, want escalate, exhausted", d)
	}
	hint := int64(1234)
	if d := genvectors.Decide(c, retry.Name, safe.Name, se, &hint, nil, nil, 2); d.DelayMinMs != 1234 || d.DelayMaxMs != 1234 {
		t.Errorf("hint: %+v", d)
	}
	// Hints saturate at max_hint_ms; a negative one (only a hand-built
	// envelope has one) waits nothing.
	for _, h := range [][2]int64{{5000, 5000}, {5001, 5000}, {1<<63 - 1, 5000}, {-1, 0}} {
		if d := genvectors.Decide(c, retry.Name, safe.Name, se, &h[0], nil, nil, 1); d.DelayMinMs != h[1] || d.DelayMaxMs != h[1] {
			t.Errorf("hint %d: %+v, want %d ms", h[0], d, h[1])
		}
	}
	if d := genvectors.Decide(c, retry.Name, never.Name, se, nil, nil, nil, 1); d.Step != contract.StepEscalate || !d.Exhausted {
		t.Errorf("same_arguments %s: %+v", never.Name, d)
	}
	yes, no := true, false
	if d := genvectors.Decide(c, retry.Name, never.Name, se, nil, &yes, &no, 1); d.Step != contract.StepRetry || d.CheckStateFirst {
		t.Errorf("received retryable true, may_have_run false: %+v", d)
	}
	if d := genvectors.Decide(c, retry.Name, safe.Name, se, nil, &no, &yes, 1); d.Step != contract.StepEscalate || !d.CheckStateFirst {
		t.Errorf("received retryable false, may_have_run true: %+v", d)
	}
	if d := genvectors.Decide(c, "an_action_from_the_future", safe.Name, se, nil, nil, nil, 1); d.Step != contract.StepEscalate || d.Exhausted {
		t.Errorf("unknown action: %+v", d)
	}
}

// TestAgainstGeneratedGo runs the vectors and the producer checks of every test contract against
// its generated Go package, built in a scratch module: the test contracts
// reach layouts the shipped ones do not (several aliases, constants of every
// type, deep nesting, optional derived flags).
func TestAgainstGeneratedGo(t *testing.T) {
	goTool := gentest.GoTool(t)
	files, n := scratchVectorsModule(t)
	dir := gentest.ScratchDir(t, "genvectors", files)
	runScratchVectors(t, goTool, dir, n)
}

// scratchVectorsModule is the scratch module of TestAgainstGeneratedGo,
// for gentest.ScratchDir: each test contract's Go package and vectors, and
// one test file a contract, in cases c1 to cn.
func scratchVectorsModule(t *testing.T) (files map[string][]byte, n int) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files = map[string][]byte{}
	write := func(p string, data []byte) { files[p] = data }
	// The scratch module's path lies under errgen's, so it may import
	// internal/gentest.
	const module = "github.com/errgen/errgen/scratchvectors"
	write("go.mod", fmt.Appendf(nil, "module %s\n\ngo 1.26\n\nrequire github.com/errgen/errgen v0.0.0\n\nreplace github.com/errgen/errgen => %s\n", module, root))
	write("go.sum", sum)
	// In a fixed order, so that the same contracts make the same scratch
	// module (gentest.ScratchDir).
	all := contracts(t)
	for _, p := range slices.Sorted(maps.Keys(all)) {
		c := all[p]
		if !strings.Contains(p, "testdata") {
			continue // the shipped contracts run their vectors in their own packages
		}
		n++
		caseDir := fmt.Sprintf("c%d", n)
		gen, err := gengo.Generate(c, targets.Defaults(c.Name))
		if err != nil {
			t.Fatal(err)
		}
		for fp, data := range gen {
			write(caseDir+"/"+fp, data)
		}
		write(caseDir+"/"+genvectors.FileName(c, targets.Defaults(c.Name)), generate(t, c))
		// Every case's tests are in one test package at the module's root
		// (an import's name is the file's own, so each file calls its
		// package p): one test binary to link rather than one a case.
		write(caseDir+"_test.go", vectorsTestFile(t, c, p, module, caseDir))
	}
	return files, n
}

// vectorsTestFile is the test file of case caseDir (contract c, read from
// p): its vectors and producers checked against its generated Go package.
func vectorsTestFile(t *testing.T, c *contract.Contract, p, module, caseDir string) []byte {
	t.Helper()
	pkg := targets.Defaults(c.Name).Packages.Go
	var classifiers strings.Builder
	toolResult := "nil"
	if c.Inbound != nil {
		for _, cl := range c.Inbound.Classifiers {
			fmt.Fprintf(&classifiers, "\t\t\t%q: p.Classify%s,\n", cl.Name, cl.Idents.Go)
		}
		if c.Inbound.ToolResult != nil {
			toolResult = "p.ClassifyToolResult"
		}
	}
	return fmt.Appendf(nil, `package scratchvectors

import (
	"testing"

	p %[2]q
	"github.com/errgen/errgen/internal/gentest"
)

// %[3]s
func TestVectors_%[9]s(t *testing.T) {
	gentest.CheckVectors(t, "%[9]s/%[4]s", gentest.Package{
		Envelope: p.Envelope{},
		Lookup:   p.Lookup,
		NextStep: p.NextStep,
		ForTool:  p.SameArguments.ForTool,
		Classifiers: map[string]any{
%[5]s		},
		ToolResult: %[6]s,
		Retry: gentest.Retry{Initial: p.RetryInitial, Max: p.RetryMax, Multiplier: p.RetryMultiplier,
			Jitter: p.RetryJitter, MaxAttempts: p.RetryMaxAttempts},
		ReadHTTP: p.ReadHTTP,
		ReadCLI:  p.ReadCLI,
		FromAIP193: p.FromAIP193,
		FromToolResult: p.FromToolResult,
		MCPOutputSchema: p.MCPOutputSchema,
		ReadMCPError: p.ReadMCPError,
		UpstreamStructuredContent: p.UpstreamStructuredContent,
	})
}

func TestProducers_%[9]s(t *testing.T) {
	gentest.CheckProducers(t, gentest.ProducerAPI{
		Contract:       %[7]q,
		New:            func(kind, message string) any { return p.New(p.Kind(kind), message%[8]s) },
		NewTrusted:     func(kind, message string) any { return p.NewTrusted(p.Kind(kind), message%[8]s) },
		Sanitize:       p.Sanitize,
		ProducerSchema: p.ProducerSchema().JSON,
	})
}
`, pkg, module+"/"+caseDir+"/gen/go/"+pkg, filepath.ToSlash(p), genvectors.FileName(c, targets.Defaults(c.Name)), classifiers.String(), toolResult, abs(t, p), strings.Repeat(`, ""`, len(c.RequiredContext)), caseDir)
}

// runScratchVectors vets and tests the scratch module in dir, and checks
// that each of its n cases' two tests ran and passed.
func runScratchVectors(t *testing.T, goTool, dir string, n int) {
	t.Helper()
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	// go test vets only the packages it builds a test binary for, and the
	// generated packages have no tests of their own now: go vet gives them
	// the analyzers go test would have run (go help test).
	vet := exec.Command(goTool, "vet", "-atomic", "-bool", "-buildtags", "-directive", "-errorsas", "-ifaceassert", "-nilfunc", "-printf", "-stringintconv", "-tests", "./...")
	vet.Dir, vet.Env = dir, env
	if out, err := vet.CombinedOutput(); err != nil {
		t.Fatalf("go vet in the scratch module: %v\n%s", err, out)
	}
	// -v, to see that every case's two tests ran and passed.
	cmd := exec.Command(goTool, "test", "-count=1", "-v", "./...")
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	// The top-level results and the packages' lines, without the subtests.
	var summary []string
	for line := range strings.Lines(string(out)) {
		if strings.HasPrefix(line, "--- ") || strings.HasPrefix(line, "ok ") || strings.HasPrefix(line, "FAIL") || strings.HasPrefix(line, "?") || !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "=== ") && !strings.HasPrefix(line, "PASS") {
			summary = append(summary, line)
		}
	}
	if err != nil {
		t.Fatalf("go test in the scratch module: %v\n%s", err, out)
	}
	if got := strings.Count(string(out), "\nok "); got != 1 {
		t.Errorf("%d packages passed, want 1:\n%s", got, strings.Join(summary, ""))
	}
	for i := 1; i <= n; i++ {
		for _, name := range []string{"TestVectors", "TestProducers"} {
			if want := fmt.Sprintf("\n--- PASS: %s_c%d ", name, i); !strings.Contains(string(out), want) {
				t.Errorf("no %q in the output:\n%s", strings.TrimSpace(want), strings.Join(summary, ""))
			}
		}
	}
	t.Logf("%s", strings.Join(summary, ""))
}

func abs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestReferenceChecksStateAfterPossibleWork holds the committed reference
// vectors to labby's rule that only none_expected means nothing ran: every
// decision for an envelope whose side_effects is anything else tells the
// agent to check state before repeating a write. (Issue 14: the vectors once
// carried check_state_first false for every decision.)
func TestReferenceChecksStateAfterPossibleWork(t *testing.T) {
	data, err := os.ReadFile("../../conformance/agent-error.vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		NextStep []struct {
			Name     string `json:"name"`
			Envelope struct {
				SideEffects string `json:"side_effects"`
			} `json:"envelope"`
			Attempts []struct {
				Attempt         int  `json:"attempt"`
				CheckStateFirst bool `json:"check_state_first"`
			} `json:"attempts"`
		} `json:"next_step"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, v := range doc.NextStep {
		want := v.Envelope.SideEffects != "none_expected"
		for _, a := range v.Attempts {
			seen[v.Envelope.SideEffects]++
			if a.CheckStateFirst != want {
				t.Errorf("%s (side_effects %q), attempt %d: check_state_first %t, want %t", v.Name, v.Envelope.SideEffects, a.Attempt, a.CheckStateFirst, want)
			}
		}
	}
	for _, se := range []string{"none_expected", "possible", "unknown"} {
		if seen[se] == 0 {
			t.Errorf("no next_step decision for side_effects %q", se)
		}
	}
}

// TestHTTPShortForm checks the HTTP vectors against the rule they encode:
// a contract using the default layout promotes labby's short form for every
// kind, keeping the kind and classifying it from the contract (the fallback
// for an unknown one), and no other contract promotes anything; a failed
// response is never an error, a successful one without an envelope always.
func TestHTTPShortForm(t *testing.T) {
	for p, c := range contracts(t) {
		var f genvectors.File
		if err := json.Unmarshal(generate(t, c), &f); err != nil {
			t.Fatal(err)
		}
		byName := map[string]genvectors.HTTPVec{}
		promoted := 0
		for _, v := range f.HTTP {
			byName[v.Name] = v
			var env map[string]any
			json.Unmarshal(v.Envelope, &env)
			if (env == nil) != (v.Status < 300 && !strings.HasPrefix(v.Name, "an envelope")) {
				t.Errorf("%s: %q: status %d, envelope %s", p, v.Name, v.Status, v.Envelope)
			}
			if env[contract.PromotedMember] != nil {
				promoted++
				if env[contract.PromotedMember] != contract.PromotedShortForm {
					t.Errorf("%s: %q: mark %v", p, v.Name, env[contract.PromotedMember])
				}
			}
		}
		if c.ShortForm() == nil {
			if promoted != 0 {
				t.Errorf("%s: %d promoted envelopes, but the contract has its own layout", p, promoted)
			}
			continue
		}
		for _, k := range c.Kinds {
			v, ok := byName["short form: "+k.Name]
			if !ok {
				continue // left out: its message might not survive the sanitizer
			}
			var env map[string]any
			json.Unmarshal(v.Envelope, &env)
			if env["kind"] != k.Name || env["origin"] != k.Origin.Name || env[contract.PromotedMember] != contract.PromotedShortForm {
				t.Errorf("%s: %q: %s", p, v.Name, v.Envelope)
			}
		}
		for _, name := range []string{"short form: a kind this contract does not define", "short form: a kind of 128 bytes"} {
			if name == "short form: a kind of 128 bytes" && c.Sanitize.MaxLength < contract.ShortFormMaxKind {
				continue // the sanitizer cuts it: no short form, and left out when its body is not one the vectors can read
			}
			var env map[string]any
			json.Unmarshal(byName[name].Envelope, &env)
			if env["origin"] != c.Fallback.Origin.Name || env[contract.PromotedMember] != contract.PromotedShortForm {
				t.Errorf("%s: %q: %s", p, name, byName[name].Envelope)
			}
		}
		for _, name := range []string{"not a short form: a kind outside the naming pattern", "not a short form: a kind of 129 bytes", "not a short form: a kind the sanitizer redacts", "short form as text/plain, not JSON"} {
			var env map[string]any
			json.Unmarshal(byName[name].Envelope, &env)
			if env[contract.PromotedMember] != nil {
				t.Errorf("%s: %q is promoted: %s", p, name, byName[name].Envelope)
			}
		}
		if promoted < len(c.Kinds)/2 {
			t.Errorf("%s: only %d promoted envelopes for %d kinds", p, promoted, len(c.Kinds))
		}
	}
}
