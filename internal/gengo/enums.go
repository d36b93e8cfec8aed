package gengo

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/errgen/errgen/internal/contract"
)

func (g *gen) doc(f *jen.File) {
	c := g.c
	// Each package comment line is passed with its "//" so jennifer prints it
	// verbatim: a description containing "*/" must stay inside // comments.
	lines := []string{fmt.Sprintf("// Package %s is the %s error contract, version %s.", c.Packages.Go, c.Name, c.VersionLabel())}
	if c.Description != "" {
		lines = append(lines, "//")
		lines = append(lines, commentLines(c.Description)...)
	}
	lines = append(lines,
		"//",
		"// Every failure is an *Envelope: it implements error, works with errors.As,",
		"// and marshals to the contract's wire format. Lookup classifies any kind,",
		"// including kinds this package does not know, which fall back to the",
		"// contract's catch-all classification instead of failing.",
	)
	for _, l := range lines {
		f.PackageComment(l)
	}
	f.Const().Defs(
		jen.Comment("// ContractName is the name of the contract this package was generated from."),
		jen.Id("ContractName").Op("=").Lit(c.Name),
		jen.Comment("// ContractVersion is the wire contract version every envelope carries."),
		jen.Id("ContractVersion").Op("=").Lit(c.VersionValue()),
	)
}

// enumSpec describes one closed vocabulary emitted as a typed string.
type enumSpec struct {
	typeName string
	allName  string // the function listing every value
	doc      string
	values   []*contract.Value
	extra    func(v *contract.Value) []jen.Code // extra comment lines per value
}

func (g *gen) enumSpecs() []enumSpec {
	c := g.c
	vals := func(n int, at func(int) *contract.Value) []*contract.Value {
		out := make([]*contract.Value, n)
		for i := range out {
			out[i] = at(i)
		}
		return out
	}
	return []enumSpec{
		{"Origin", "Origins", "Origin says where a failure arose.", vals(len(c.Origins), func(i int) *contract.Value { return &c.Origins[i].Value }), nil},
		{"RecoveryAction", "RecoveryActions", "RecoveryAction is what the caller should do next.", vals(len(c.Actions), func(i int) *contract.Value { return &c.Actions[i].Value }), nil},
		{"SameArguments", "SameArgumentsValues", "SameArguments says whether repeating the identical call is safe.", vals(len(c.SameArguments), func(i int) *contract.Value { return &c.SameArguments[i].Value }), nil},
		{"SideEffects", "SideEffectsValues", "SideEffects says whether work may already have happened before the failure.", vals(len(c.SideEffects), func(i int) *contract.Value { return &c.SideEffects[i].Value }), nil},
		{"Group", "Groups", "Group is the documentation group a kind belongs to.", vals(len(c.Groups), func(i int) *contract.Value { return &c.Groups[i].Value }), nil},
	}
}

func (g *gen) enums(f *jen.File) {
	c := g.c
	// Kind is open: an envelope from a newer producer may carry a kind this
	// package has never heard of, and that must still decode and classify.
	docf(f, "Kind is the stable, machine-readable tag of a failure. The set is open: a kind this package does not know is still valid, and Lookup classifies it with the contract's fallback.")
	f.Type().Id("Kind").String()
	f.Line()
	defs := make([]jen.Code, 0, 2*len(c.Kinds))
	for _, k := range c.Kinds {
		defs = append(defs, comment(fmt.Sprintf("%s %s", kindConst(k), k.Description))...)
		defs = append(defs, jen.Id(kindConst(k)).Id("Kind").Op("=").Lit(k.Name))
	}
	f.Const().Defs(defs...)
	f.Line()
	f.Comment("// IsKnown reports whether k is a kind of this contract version.")
	f.Func().Params(jen.Id("k").Id("Kind")).Id("IsKnown").Params().Bool().Block(
		jen.Return(jen.Id("kindIndex").Call(jen.Id("k")).Op(">=").Lit(0)),
	)
	f.Line()
	f.Comment("// String returns the kind's wire value.")
	f.Func().Params(jen.Id("k").Id("Kind")).Id("String").Params().String().Block(jen.Return(jen.String().Call(jen.Id("k"))))
	f.Line()
	f.Comment("// Kinds returns every known kind in contract order. The slice is a fresh copy.")
	f.Func().Id("Kinds").Params().Index().Id("Kind").Block(
		jen.Id("out").Op(":=").Make(jen.Index().Id("Kind"), jen.Len(jen.Id("classifications"))),
		jen.For(jen.Id("i").Op(":=").Range().Id("classifications")).Block(
			jen.Id("out").Index(jen.Id("i")).Op("=").Id("classifications").Index(jen.Id("i")).Dot("Kind"),
		),
		jen.Return(jen.Id("out")),
	)

	for _, e := range g.enumSpecs() {
		f.Line()
		docf(f, e.doc+" Values outside the constants below come from a newer contract; keep them as they are.")
		f.Type().Id(e.typeName).String()
		f.Line()
		defs := make([]jen.Code, 0, 2*len(e.values))
		cases := make([]jen.Code, 0, len(e.values))
		for _, v := range e.values {
			name := e.typeName + v.Idents.Go
			defs = append(defs, comment(fmt.Sprintf("%s %s", name, v.Description))...)
			defs = append(defs, jen.Id(name).Id(e.typeName).Op("=").Lit(v.Name))
			cases = append(cases, jen.Id(name))
		}
		f.Const().Defs(defs...)
		f.Line()
		recv := "v"
		f.Commentf("// IsKnown reports whether v is one of the contract's %s values.", e.typeName)
		f.Func().Params(jen.Id(recv).Id(e.typeName)).Id("IsKnown").Params().Bool().Block(
			jen.Switch(jen.Id(recv)).Block(jen.Case(cases...).Block(jen.Return(jen.True()))),
			jen.Return(jen.False()),
		)
		f.Line()
		f.Comment("// String returns the wire value.")
		f.Func().Params(jen.Id(recv).Id(e.typeName)).Id("String").Params().String().Block(jen.Return(jen.String().Call(jen.Id(recv))))
		f.Line()
		f.Commentf("// %s returns every %s value of the contract, in contract order.", e.allName, e.typeName)
		f.Func().Id(e.allName).Params().Index().Id(e.typeName).Block(
			jen.Return(jen.Index().Id(e.typeName).Values(cases...)),
		)
	}

	// Retry semantics are contract data (an action's step, a same_arguments
	// value's retry flag); the generated code only reads them.
	var retrySteps, retrySame []jen.Code
	for _, a := range c.Actions {
		if a.Step == contract.StepRetry {
			retrySteps = append(retrySteps, jen.Id("RecoveryAction"+a.Idents.Go))
		}
	}
	for _, s := range c.SameArguments {
		if s.Retry {
			retrySame = append(retrySame, jen.Id("SameArguments"+s.Idents.Go))
		}
	}
	f.Line()
	f.Comment("// IsRetry reports whether the action asks the caller to try again later.")
	f.Func().Params(jen.Id("v").Id("RecoveryAction")).Id("IsRetry").Params().Bool().Block(switchTrue("v", retrySteps)...)
	f.Line()
	f.Comment("// PermitsRetry reports whether an automatic retry of the identical call is permitted.")
	f.Func().Params(jen.Id("v").Id("SameArguments")).Id("PermitsRetry").Params().Bool().Block(switchTrue("v", retrySame)...)
	var ran []jen.Code
	for _, s := range c.SideEffects {
		if s.MayHaveRun {
			ran = append(ran, jen.Id("SideEffects"+s.Idents.Go))
		}
	}
	f.Line()
	f.Comment("// MayHaveRun reports whether work may already have run when a failure reports v.")
	f.Func().Params(jen.Id("v").Id("SideEffects")).Id("MayHaveRun").Params().Bool().Block(switchTrue("v", ran)...)
}

// switchTrue returns `switch v { case cases...: return true }; return false`,
// or just `return false` when no value qualifies.
func switchTrue(v string, cases []jen.Code) []jen.Code {
	if len(cases) == 0 {
		return []jen.Code{jen.Return(jen.False())}
	}
	return []jen.Code{
		jen.Switch(jen.Id(v)).Block(jen.Case(cases...).Block(jen.Return(jen.True()))),
		jen.Return(jen.False()),
	}
}

func kindConst(k *contract.Kind) string { return "Kind" + k.Idents.Go }
