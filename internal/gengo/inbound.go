package gengo

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/errgen/errgen/internal/runtimedata"
)

// inbound emits inbound_contract.go: the classifiers' rules, which the
// runtime's rule engine reads (runtime/go/_src/inbound.go), and the function
// that runs each classifier. Only a contract with inbound classifiers has it.
func (g *gen) inbound(f *jen.File) {
	in := g.c.Inbound
	classifiers := g.t.Inbound.(runtimedata.Record).Get("classifiers")
	table(f, "inboundClassifiers", "[]inboundClassifier", classifiers,
		"inboundClassifiers are the contract's classifiers of upstream failures, in contract order: each one's rules and its default.")
	for i, cl := range in.Classifiers {
		f.Line()
		doc := fmt.Sprintf("Classify%s is the %s classifier. %s", cl.Idents.Go, cl.Name, cl.Description)
		if i == 0 {
			doc += " It is the contract's first classifier, so Classify uses it."
		}
		docf(f, doc)
		f.Func().Id("Classify" + cl.Idents.Go).Params(jen.Id("u").Id("Upstream")).Id("Classified").Block(
			jen.Return(jen.Id("inboundClassifiers").Index(jen.Lit(i)).Dot("classify").Call(jen.Id("u"))))
	}
	f.Line()
	docf(f, fmt.Sprintf("Classify classifies an upstream failure with the contract's first classifier (%s).", in.Classifiers[0].Name))
	f.Func().Id("Classify").Params(jen.Id("u").Id("Upstream")).Id("Classified").Block(
		jen.Return(jen.Id("Classify" + in.Classifiers[0].Idents.Go).Call(jen.Id("u"))),
	)
	if in.ToolResult != nil {
		f.Line()
		docf(f, "ClassifyToolResult classifies a completed tool result flagged as an error (MCP isError: true). The upstream answered, so it never counts toward the circuit breaker.")
		f.Func().Id("ClassifyToolResult").Params().Id("Classified").Block(
			jen.Return(jen.Id("Classified").Values(jen.Id(kindConst(in.ToolResult)), jen.False(), jen.Lit(0))),
		)
	}
}
