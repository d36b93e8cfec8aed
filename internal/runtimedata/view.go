package runtimedata

import (
	"fmt"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/marker"
)

// Common is the part of a template view every language's emitter shares:
// the same facts, with the language's constant names and its printed
// tables. An emitter embeds it in its view (templates read its members as
// the view's own) and adds what only its language has.
type Common struct {
	Header   string // the first line of every generated file
	Marker   string
	C        *contract.Contract
	MaxDepth int    // contract.MaxDepth, the nesting limit every decoder shares
	Contract string // the contract's name

	Description     string
	ProblemTypeBase string
	DefaultExitCode int
	// DefaultMCPErrorCode is the JSON-RPC error code of a protocol error
	// whose origin has none in MCPErrorCodes.
	DefaultMCPErrorCode int
	SyntheticPrefix     string

	// The closed vocabularies, each value with its constant's name.
	Origins, Actions, SameArguments, SideEffects, Groups []Constant

	// The tables, printed.
	Printed

	// Inbound classification: whether the contract has it, whether it
	// classifies completed tool results, its first (default) classifier,
	// and every classifier with its function's name.
	HasInbound      bool
	HasToolResult   bool
	FirstClassifier string
	Classifiers     []Classifier
}

// Constant is a vocabulary value: its name, its constant's name in the
// language and its description.
type Constant struct {
	Name, Const, Doc string
}

// Classifier is an inbound classifier: its name, the name of the function
// that runs it, its description and its place in the contract.
type Classifier struct {
	Name, Func, Doc string
	Index           int
}

// Printed is the tables of Tables in one language's syntax, each member
// printed from the Tables member of its name (SanitizeSecrets, which a
// language may lay out as it likes, is left to the emitter).
type Printed struct {
	Classifications, Fallback, Layout, Fields    string
	Inbound, ShortForm, Retry                    string
	ActionSteps, Upgrades, RetrySame, MayHaveRun string
	HTTPKinds, ExitCodes                         string
	MCPErrorCodes, MCPMetaKey, MCPKindErrorCodes string
	// Log and CLIForm are the surfaces' tables of logging and the command line.
	Log, CLIForm string
	// EchoBody is whether the HTTP readers quote a body in a message.
	EchoBody string
	// HTTPStatusField is the member keeping a read response's status, or null.
	HTTPStatusField string
	// The google.rpc mapping's tables (AIP-193).
	AIPDomain, AIPLeaves, AIPOffWire, AIPReasons string

	SanitizeMarkers, SanitizedFields, SanitizeCredentialNames string
	// CallError is the call_error section (null/None without one).
	CallError string
}

// Print prints the tables with p.
func (t *Tables) Print(p Printer) Printed {
	return Printed{
		Classifications: p.Print(t.Classifications), Fallback: p.Print(t.Fallback), Layout: p.Print(t.Layout), Fields: p.Print(t.Fields),
		Inbound: p.Print(t.Inbound), ShortForm: p.Print(t.ShortForm), Retry: p.Print(t.Retry),
		ActionSteps: p.Print(t.ActionSteps), Upgrades: p.Print(t.Upgrades), RetrySame: p.Print(t.RetrySame), MayHaveRun: p.Print(t.MayHaveRun),
		HTTPKinds: p.Print(t.HTTPKinds), ExitCodes: p.Print(t.ExitCodes), MCPErrorCodes: p.Print(t.MCPErrorCodes), MCPMetaKey: p.Print(t.MCPMetaKey), MCPKindErrorCodes: p.Print(t.MCPKindErrorCodes), Log: p.Print(t.Log), CLIForm: p.Print(t.CLIForm),
		EchoBody: p.Print(t.EchoBody), HTTPStatusField: p.Print(t.HTTPStatusField),
		AIPDomain: p.Print(t.AIPDomain), AIPLeaves: p.Print(t.AIPLeaves), AIPOffWire: p.Print(t.AIPOffWire), AIPReasons: p.Print(t.AIPReasons),
		SanitizeMarkers: p.Print(t.SanitizeMarkers), SanitizedFields: p.Print(t.SanitizedFields), SanitizeCredentialNames: p.Print(t.SanitizeCredentialNames),
		CallError: p.Print(t.CallError),
	}
}

// Syntax is how a language names and prints what Common holds.
type Syntax struct {
	// Comment starts a line comment: the header is the marker behind it.
	Comment string
	// Const is the name of a vocabulary value's constant; ClassifierFunc
	// the name of the function that runs a classifier.
	Const          func(*contract.Idents) string
	ClassifierFunc func(*contract.Classifier) string
	// Printer prints the tables.
	Printer Printer
}

// NewCommon fills Common for c in the language's syntax, printing t.
func NewCommon(c *contract.Contract, t *Tables, s Syntax) Common {
	consts := func(in []*contract.Value) []Constant {
		out := make([]Constant, len(in))
		for i, x := range in {
			out[i] = Constant{Name: x.Name, Const: s.Const(&x.Idents), Doc: x.Description}
		}
		return out
	}
	v := Common{
		Header:              s.Comment + " " + marker.Text,
		Marker:              marker.Text,
		C:                   c,
		MaxDepth:            contract.MaxDepth,
		Contract:            c.Name,
		Description:         c.Description,
		ProblemTypeBase:     c.Surfaces.ProblemTypeBase,
		DefaultExitCode:     c.Surfaces.CLI.DefaultExitCode,
		DefaultMCPErrorCode: c.Surfaces.MCP.DefaultErrorCode,
		SyntheticPrefix:     c.SyntheticKindPrefix(),
		Origins:             consts(contract.Values(c.Origins)),
		Actions:             consts(contract.Values(c.Actions)),
		SameArguments:       consts(contract.Values(c.SameArguments)),
		SideEffects:         consts(contract.Values(c.SideEffects)),
		Groups:              consts(contract.Values(c.Groups)),
		Printed:             t.Print(s.Printer),
	}
	if in := c.Inbound; in != nil {
		v.HasInbound = true
		v.HasToolResult = in.ToolResult != nil
		v.FirstClassifier = in.Classifiers[0].Name
		for i, cl := range in.Classifiers {
			v.Classifiers = append(v.Classifiers, Classifier{Name: cl.Name, Func: s.ClassifierFunc(cl), Doc: cl.Description, Index: i})
		}
	}
	return v
}

// Derived is a layout leaf whose value the runtime derives from the
// kind's classification (the group, the retryable and may_have_run flags),
// which a decoded envelope keeps as it was received: Group tells the
// group's text from a flag, Doc describes it.
type Derived struct {
	Leaf  *contract.Leaf
	Group bool
	Doc   string
}

// DerivedLeaves lists the layout's derived leaves in wire order.
func DerivedLeaves(c *contract.Contract) []Derived {
	var out []Derived
	for _, lf := range c.Layout.Leaves {
		if lf.Source.Derived() {
			out = append(out, Derived{Leaf: lf, Group: lf.Source == contract.SourceGroup,
				Doc: fmt.Sprintf("%q on the wire, derived from %s.", lf.Path, lf.Source)})
		}
	}
	return out
}
