package gengo

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/runtimedata"
)

// The surfaces put an envelope on the wire of HTTP (the envelope itself or
// its RFC 9457 problem document), MCP (a CallToolResult) and a command line
// (one JSON line), and read it back from each. Their logic is the runtime's
// (runtime/go/_src: http.go, readhttp.go, mcp.go, cli.go); the generated
// surfaces.go (templates/go/surfaces.go.tmpl) holds what the contract
// shapes: the surfaces' tables, printed from runtimedata's description as
// every language's are, and the few accessors that name the contract's
// fields, kinds or classifier.

// recv is the receiver of an Envelope method.
var recv = func() *jen.Statement { return jen.Id("e").Op("*").Id("Envelope") }

// surfacesView is what templates/go/surfaces.go.tmpl reads besides the
// contract: the surfaces' tables printed by runtimedata's Go printer, and
// the doc text the layout decides.
type surfacesView struct {
	goView
	ProblemNotes, RequiredContext                                           string
	ProblemRestores, HTTPKinds, MCPKindErrorCodes, MCPErrorCodes, ExitCodes string
}

func (g *gen) surfaces() any {
	t := g.t
	restores := runtimedata.List{}
	var notes []string
	for _, m := range g.lo.Root.Members {
		if !slices.Contains(contract.ProblemMembers, m.Name()) {
			continue
		}
		notes = append(notes, g.restoreNote(m.Name(), m.Leaf))
		if r, ok := g.problemRestore(m.Name(), m.Leaf); ok {
			restores = append(restores, r)
		}
	}
	kinds := runtimedata.Map{}
	for _, e := range t.HTTPKinds {
		n, _ := strconv.Atoi(e.Key.(string))
		kinds = append(kinds, runtimedata.Entry{Key: n, Value: e.Value})
	}
	p := runtimedata.GoPrinter{}
	return surfacesView{goView: g.view(), ProblemNotes: strings.Join(notes, "; "), RequiredContext: g.requiredContext(),
		ProblemRestores: p.Typed("[]problemRestore", restores), HTTPKinds: p.Typed("map[int]Kind", kinds),
		MCPKindErrorCodes: p.Typed("map[Kind]int", t.MCPKindErrorCodes), MCPErrorCodes: p.Typed("map[Origin]int", t.MCPErrorCodes),
		ExitCodes: p.Typed("map[Origin]int", t.ExitCodes)}
}

// problemRestore is how fromProblem restores the top-level member name
// (lf nil for a nested object) that a problem document replaced; ok is
// false when it cannot: a nested object, a field, or a derived value the
// layout leaves optional.
func (g *gen) problemRestore(name string, lf *contract.Leaf) (runtimedata.Record, bool) {
	if lf == nil {
		return runtimedata.Record{}, false
	}
	raw := ""
	switch lf.Source {
	case contract.SourceField, contract.SourceRetryAfterMs:
		return runtimedata.Record{}, false
	case contract.SourceGroup, contract.SourceRetryable, contract.SourceMayHaveRun:
		if !lf.Required() {
			return runtimedata.Record{}, false
		}
	case contract.SourceConst:
		b, _ := json.Marshal(lf.Const)
		raw = string(b)
	case contract.SourceVersion:
		b, _ := json.Marshal(g.c.VersionValue())
		raw = string(b)
	}
	return runtimedata.Record{Type: "problemRestore", Row: true, Fields: []runtimedata.Field{
		{Name: "name", Value: name}, {Name: "source", Value: string(lf.Source)}, {Name: "raw", Value: raw, Sparse: true},
	}}, true
}

// restoreNote says, for the doc comment of ProblemTypeBase, what a reader
// gets back of a member the problem document replaced.
func (g *gen) restoreNote(name string, lf *contract.Leaf) string {
	if lf == nil {
		return fmt.Sprintf("the envelope's object %q is left out of the problem document and cannot be read back", name)
	}
	what := fmt.Sprintf("the envelope's %q (its %s)", name, lf.Source)
	switch lf.Source {
	case contract.SourceConst:
		raw, _ := json.Marshal(lf.Const)
		return fmt.Sprintf("the envelope's %q (the constant %s) gives way to the problem's; ReadHTTP restores the constant", name, raw)
	case contract.SourceKind:
		return what + " gives way to the problem's; ReadHTTP restores the kind from the problem type"
	case contract.SourceMessage:
		return what + " gives way to the problem's; ReadHTTP restores the message from detail"
	case contract.SourceVersion:
		return what + " gives way to the problem's; ReadHTTP restores this package's ContractVersion"
	case contract.SourceRetryAfterMs:
		return what + " gives way to the problem's; ReadHTTP reads the Retry-After header instead, in whole seconds"
	case contract.SourceField:
		return fmt.Sprintf("the envelope's field %q gives way to the problem's and is lost: a problem document cannot carry it", name)
	}
	return what + " gives way to the problem's; ReadHTTP restores the classification's value for the kind named by the problem type"
}

// requiredContext names the context fields every envelope carries, in Go.
func (g *gen) requiredContext() string {
	names := make([]string, len(g.c.RequiredContext))
	for i, rf := range g.c.RequiredContext {
		names[i] = rf.Idents.Go
	}
	return list(names)
}

// surfacesDoc is the package comment's paragraph on what the contract makes
// of the surfaces, whose functions the runtime documents for any contract.
func (g *gen) surfacesDoc() string {
	c := g.c
	var s []string
	if c.Inbound != nil {
		s = append(s, fmt.Sprintf("ReadHTTP gives a failed response without an envelope the kind Classify (the %s classifier) picks", c.Inbound.Classifiers[0].Name))
	} else {
		s = append(s, fmt.Sprintf("ReadHTTP gives a failed response without an envelope the contract's only kind with its status, else a kind named after it (%s)", c.SyntheticKind(502)))
	}
	msg := "and the message \"HTTP <status> <status text>\""
	if c.Surfaces.HTTP.EchoBody {
		msg += " followed by the start of the body's text"
	} else {
		msg += " alone"
	}
	if sf := c.Surfaces.HTTP.StatusField; sf != nil {
		msg += ", keeping the status in " + sf.Idents.Go
	}
	s[0] += " " + msg
	if sf := c.ShortForm(); sf != nil {
		s = append(s, fmt.Sprintf("it reads labby's short form {%q: ..., %q: ...} too", sf.KindMember, sf.MessageMember))
	}
	if c.Surfaces.CLI.Form == contract.CLIWrapped {
		s = append(s, `WriteCLI writes the wrapped form {"ok":false,"command":command,"error":envelope}`)
	} else {
		s = append(s, "WriteCLI writes the envelope itself")
	}
	s = append(s, "ExitCode is "+codesDoc(c, c.Surfaces.CLI.ExitCodes, c.Surfaces.CLI.DefaultExitCode))
	mcp := c.Surfaces.MCP
	code := "MCPErrorCode is "
	for _, k := range c.Kinds {
		if k.MCPErrorCode != nil {
			code = "MCPErrorCode is the kind's own where it gives one, else "
			break
		}
	}
	s = append(s, code+codesDoc(c, mcp.ErrorCodes, mcp.DefaultErrorCode))
	if mcp.MetaKey != "" {
		s = append(s, fmt.Sprintf("an isError ToolResult carries the envelope under the _meta key %q too", mcp.MetaKey))
	}
	return "In this contract, " + strings.Join(s, "; ") + "."
}

// codesDoc lists the codes of the origins that have one, and the default.
func codesDoc(c *contract.Contract, codes map[*contract.Origin]int, fallback int) string {
	var order []int
	byCode := map[int][]string{}
	for _, o := range c.Origins {
		if code, ok := codes[o]; ok {
			if _, seen := byCode[code]; !seen {
				order = append(order, code)
			}
			byCode[code] = append(byCode[code], o.Name)
		}
	}
	if len(order) == 0 {
		return strconv.Itoa(fallback)
	}
	parts := make([]string, len(order))
	for i, code := range order {
		parts[i] = fmt.Sprintf("%d (%s)", code, strings.Join(byCode[code], ", "))
	}
	return "by origin " + strings.Join(parts, ", ") + ", else " + strconv.Itoa(fallback)
}
