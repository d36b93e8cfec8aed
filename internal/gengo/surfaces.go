package gengo

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/runtimedata"
)

// The surfaces put an envelope on the wire of HTTP (the envelope itself or
// its RFC 9457 problem document), MCP (a CallToolResult) and a command line
// (one JSON line), and read it back from each. Their logic is the runtime's
// (runtime/go/_src: http.go, readhttp.go, mcp.go, cli.go); surfaces.go holds
// what the contract shapes: the surfaces' tables, printed from
// runtimedata's description as every language's are, and the few accessors
// that name the contract's fields, kinds or classifier.

// recv is the receiver of an Envelope method.
var recv = func() *jen.Statement { return jen.Id("e").Op("*").Id("Envelope") }

// goTable prints a table of the runtime description as a Go literal.
func goTable(typ string, v runtimedata.Value) jen.Code {
	return jen.Op(runtimedata.GoPrinter{}.Typed(typ, v))
}

func (g *gen) surfaces(f *jen.File) {
	t := runtimedata.BuildSurfaces(g.c)
	f.Comment("// The contract's side of the HTTP, RFC 9457, MCP and CLI surfaces of the envelope, which the runtime's http.go, readhttp.go, mcp.go and cli.go read.")
	f.Line()
	g.problemSurface(f)
	g.httpSurface(f)
	g.readHTTP(f, t)
	g.shortForm(f)
	g.mcpSurface(f, t)
	g.cliSurface(f, t)
}

// problemSurface emits the problem type base and the members fromProblem
// restores.
func (g *gen) problemSurface(f *jen.File) {
	doc := []string{"ProblemTypeBase prefixes a kind to make its RFC 9457 problem type URI (ProblemType)."}
	restores := runtimedata.List{}
	var notes []string
	for _, m := range g.lo.Root.Members {
		if !problemMember(m.Name()) {
			continue
		}
		notes = append(notes, g.restoreNote(m.Name(), m.Leaf))
		if r, ok := g.problemRestore(m.Name(), m.Leaf); ok {
			restores = append(restores, r)
		}
	}
	if len(notes) > 0 {
		doc = append(doc, "In this contract's layout "+strings.Join(notes, "; ")+".")
	}
	docf(f, doc...)
	f.Const().Id("ProblemTypeBase").Op("=").Lit(g.c.Surfaces.ProblemTypeBase)
	f.Line()
	docf(f, "problemRestores are the envelope's top-level members a problem document replaces that fromProblem restores, in wire order (see ProblemTypeBase).")
	f.Var().Id("problemRestores").Op("=").Add(goTable("[]problemRestore", restores))
	f.Line()
}

// problemMember reports whether name is a member RFC 9457 defines.
func problemMember(name string) bool {
	for _, p := range contract.ProblemMembers {
		if name == p {
			return true
		}
	}
	return false
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

// httpSurface emits clearOptional, the fields WriteHTTP drops from an
// envelope that does not marshal: everything that may hold a value
// encoding/json rejects, except what the layout requires.
func (g *gen) httpSurface(f *jen.File) {
	doc := "clearOptional clears the envelope's context and kind-specific fields, which httpBody drops from an envelope that does not marshal."
	if len(g.c.RequiredContext) > 0 {
		doc = "clearOptional clears the envelope's optional context and kind-specific fields, which httpBody drops from an envelope that does not marshal. " +
			g.requiredContext() + " stays: the layout requires it, so an envelope with it empty has no valid wire form, and WriteHTTP's response goes out with its status and headers but no body."
	}
	docf(f, doc)
	f.Func().Params(recv()).Id("clearOptional").Params().BlockFunc(func(b *jen.Group) {
		for _, fl := range g.c.EnvelopeFields {
			if g.lo.RequiredLeaf(fl) != nil {
				continue // a string, which always marshals, and the envelope needs it
			}
			zero := jen.Nil()
			if fl.Type == contract.TypeString {
				zero = jen.Lit("")
			}
			b.Id("e").Dot(fl.Idents.Go).Op("=").Add(zero)
		}
	})
	f.Line()
}

// readHTTP emits what ReadHTTP's envelope built from a response without
// one takes from the contract: the kind (upstreamKind, httpKinds), whether
// the message quotes the body (echoBody) and where the status is kept
// (keepHTTPStatus).
func (g *gen) readHTTP(f *jen.File, t *runtimedata.Tables) {
	c := g.c
	status, text := jen.Id("status").Int(), jen.Id("text").String()
	if c.Inbound != nil {
		docf(f, fmt.Sprintf("upstreamKind is the kind of a failed response without an envelope: the contract's Classify (the %s classifier) picks it from the status and the body's text.", c.Inbound.Classifiers[0].Name))
		f.Func().Id("upstreamKind").Params(status, text).Id("Kind").Block(
			jen.Return(jen.Id("Classify").Call(jen.Id("Upstream").Values(jen.Dict{jen.Id("Status"): jen.Id("status"), jen.Id("Text"): jen.Id("text")})).Dot("Kind")),
		)
	} else {
		docf(f, fmt.Sprintf("upstreamKind is the kind of a failed response without an envelope: the contract has no inbound classifier, so it is the contract's only kind with the response's HTTP status, or else one named after the status (%s), which this package does not know and classifies with the fallback (httpKind).", c.SyntheticKind(502)))
		f.Func().Id("upstreamKind").Params(status, jen.Id("_").String()).Id("Kind").Block(jen.Return(jen.Id("httpKind").Call(jen.Id("status"))))
	}
	f.Line()
	kinds := runtimedata.Map{}
	for _, e := range t.HTTPKinds {
		n, _ := strconv.Atoi(e.Key.(string))
		kinds = append(kinds, runtimedata.Entry{Key: n, Value: e.Value})
	}
	docf(f, "httpKinds is the kind of each HTTP status exactly one kind of the contract has (httpKind).")
	f.Var().Id("httpKinds").Op("=").Add(goTable("map[int]Kind", kinds))
	f.Line()
	docf(f, "syntheticKindPrefix starts the kind httpKind names after a status no kind has alone.")
	f.Const().Id("syntheticKindPrefix").Op("=").Lit(c.SyntheticKindPrefix())
	f.Line()
	if t.EchoBody == true {
		docf(f, "echoBody is true: a message built from a failed response without an envelope quotes the start of the body's text after \"HTTP <status> <status text>\" (upstreamMessage; surfaces.http.echo_body).")
	} else {
		docf(f, "echoBody is false: this contract never echoes an upstream body in a message, which is \"HTTP <status> <status text>\" alone (upstreamMessage; surfaces.http.echo_body).")
	}
	f.Const().Id("echoBody").Op("=").Add(goTable("", t.EchoBody))
	f.Line()
	if sf := c.Surfaces.HTTP.StatusField; sf != nil {
		docf(f, "keepHTTPStatus keeps the status of a response without an envelope in the envelope ReadHTTP built from it: in "+sf.Idents.Go+" (surfaces.http.status_field).")
		f.Func().Id("keepHTTPStatus").Params(jen.Id("e").Op("*").Id("Envelope"), status).Block(
			jen.Id("s").Op(":=").Int64().Call(jen.Id("status")),
			jen.Id("e").Dot(sf.Idents.Go).Op("=").Op("&").Id("s"),
		)
	} else {
		docf(f, "keepHTTPStatus does nothing: the contract names no field for the status of a response without an envelope (surfaces.http.status_field).")
		f.Func().Id("keepHTTPStatus").Params(jen.Op("*").Id("Envelope"), jen.Int()).Block()
	}
	f.Line()
}

// shortForm emits the short form the contract's readers accept (nil for
// none) and promotedEnvelope, which builds the envelope of one with the
// required collections of its kind empty.
func (g *gen) shortForm(f *jen.File) {
	sf := g.c.ShortForm()
	if sf == nil {
		docf(f, "shortForm is nil: this contract's ReadHTTP accepts no short form.")
		f.Var().Id("shortForm").Op("*").Id("shortFormSpec")
	} else {
		docf(f, fmt.Sprintf("shortForm is labby's short form of an error body, which ReadHTTP accepts (fromShortForm): a JSON object whose %q is one of this contract's kind names and whose %q is a string.", sf.KindMember, sf.MessageMember))
		f.Var().Id("shortForm").Op("=").Op("&").Id("shortFormSpec").Values(jen.Dict{
			jen.Id("kindMember"):    jen.Lit(sf.KindMember),
			jen.Id("messageMember"): jen.Lit(sf.MessageMember),
			jen.Id("kindPattern"):   jen.Qual("regexp", "MustCompile").Call(jen.Lit(sf.KindPattern)),
		})
	}
	f.Line()
	args := []jen.Code{jen.Id("kind"), jen.Id("message")}
	for range g.c.RequiredContext {
		args = append(args, jen.Lit(""))
	}
	docf(f, "promotedEnvelope is the envelope fromShortForm promotes from the short form: NewTrusted's of kind and message, with the required collections of the kind set empty, as its constructor sets them when given none, so that it meets the producer schema.")
	f.Func().Id("promotedEnvelope").Params(jen.Id("kind").Id("Kind"), jen.Id("message").String()).Op("*").Id("Envelope").BlockFunc(func(b *jen.Group) {
		b.Id("e").Op(":=").Id("NewTrusted").Call(args...)
		if sf != nil && len(sf.Empty) > 0 {
			b.Switch(jen.Id("e").Dot("Kind")).BlockFunc(func(sw *jen.Group) {
				for _, ef := range sf.Empty {
					sw.Case(jen.Id(kindConst(ef.Kind))).BlockFunc(func(cs *jen.Group) {
						for _, fl := range ef.Fields {
							cs.Id("e").Dot(fl.Idents.Go).Op("=").Add(g.goType(fl)).Values()
						}
					})
				}
			})
		}
		b.Return(jen.Id("e"))
	})
	f.Line()
}

// mcpSurface emits the MCP surface's tables: the _meta key and the
// JSON-RPC error codes by kind and by origin.
func (g *gen) mcpSurface(f *jen.File, t *runtimedata.Tables) {
	m := g.c.Surfaces.MCP
	if m.MetaKey != "" {
		docf(f, fmt.Sprintf("mcpMetaKey is the _meta key under which an isError tool result carries the envelope too: %q (surfaces.mcp.meta_key).", m.MetaKey))
	} else {
		docf(f, "mcpMetaKey is empty: the contract names no _meta key (surfaces.mcp.meta_key), and an isError tool result's Meta stays empty.")
	}
	f.Const().Id("mcpMetaKey").Op("=").Lit(m.MetaKey)
	f.Line()
	docf(f, "mcpKindErrorCodes is the JSON-RPC error code of each kind that gives its own (mcp_error_code), ahead of its origin's (MCPErrorCode).")
	f.Var().Id("mcpKindErrorCodes").Op("=").Add(goTable("map[Kind]int", t.MCPKindErrorCodes))
	f.Line()
	docf(f, "mcpErrorCodes is the JSON-RPC error code of each origin that has one (surfaces.mcp.error_codes).")
	f.Var().Id("mcpErrorCodes").Op("=").Add(goTable("map[Origin]int", t.MCPErrorCodes))
	f.Line()
	docf(f, "defaultMCPErrorCode is the JSON-RPC error code of a kind whose origin the contract gives no code (surfaces.mcp).")
	f.Const().Id("defaultMCPErrorCode").Op("=").Lit(m.DefaultErrorCode)
	f.Line()
}

// cliSurface emits the CLI surface's tables: its form and exit codes.
func (g *gen) cliSurface(f *jen.File, t *runtimedata.Tables) {
	cli := g.c.Surfaces.CLI
	docf(f, fmt.Sprintf("cliForm is how WriteCLI writes a failure: %q, the envelope itself or labby's wrapped form around it (surfaces.cli.form).", t.CLIForm))
	f.Const().Id("cliForm").Op("=").Add(goTable("", t.CLIForm))
	f.Line()
	docf(f, "exitCodes is the exit status of each origin that has one (surfaces.cli.exit_codes).")
	f.Var().Id("exitCodes").Op("=").Add(goTable("map[Origin]int", t.ExitCodes))
	f.Line()
	docf(f, "defaultExitCode is the exit status of a kind whose origin the contract gives no exit code (surfaces.cli).")
	f.Const().Id("defaultExitCode").Op("=").Lit(cli.DefaultExitCode)
}

// surfacesDoc is the package comment's paragraph on what the contract makes
// of the surfaces, whose functions the runtime documents for any contract:
// "//"-prefixed lines.
func (g *gen) surfacesDoc() []string {
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
	return append([]string{"//"}, commentLines("In this contract, "+strings.Join(s, "; ")+".")...)
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
