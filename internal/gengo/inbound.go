package gengo

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/errgen/errgen/internal/contract"
)

// inbound emits the classifiers of upstream failures and the retry-safety
// upgrade from MCP tool annotations.
func (g *gen) inbound(f *jen.File) {
	c := g.c
	g.annotations(f)
	in := c.Inbound
	if in == nil {
		return
	}
	f.Line()
	fixedSet(f, "Failure", "Failure is a transport failure: the upstream call ended without a response.", contract.Failures)
	f.Line()
	docf(f, "Upstream describes a failed upstream call for a classifier: the HTTP status it answered with (0 when none), the transport failure (empty when a response arrived) and the upstream's error text, if any.")
	f.Type().Id("Upstream").Struct(
		jen.Id("Status").Int(),
		jen.Id("Failure").Id("Failure"),
		jen.Id("Text").String(),
	)
	f.Line()
	docf(f, "Classified is a classifier's answer: the kind, whether the failure counts toward the upstream's circuit breaker, and which rule matched (counting from 1; 0 for the classifier's default).")
	f.Type().Id("Classified").Struct(
		jen.Id("Kind").Id("Kind"),
		jen.Id("CountsTowardBreaker").Bool(),
		jen.Id("Rule").Int(),
	)
	for i, cl := range in.Classifiers {
		f.Line()
		doc := fmt.Sprintf("Classify%s is the %s classifier. %s", cl.Idents.Go, cl.Name, cl.Description)
		if i == 0 {
			doc += " It is the contract's first classifier, so Classify uses it."
		}
		docf(f, doc)
		body := []jen.Code{}
		if usesText(cl) {
			body = append(body, jen.Id("text").Op(":=").Id("asciiLower").Call(jen.Id("u").Dot("Text")))
		}
		for j, r := range cl.Rules {
			body = append(body, jen.If(ruleCond(r)).Block(jen.Return(classified(r.Kind, r.Breaker, j+1))))
		}
		body = append(body, jen.Return(classified(cl.Default, cl.Default.Breaker, 0)))
		f.Func().Id("Classify" + cl.Idents.Go).Params(jen.Id("u").Id("Upstream")).Id("Classified").Block(body...)
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
			jen.Return(classified(in.ToolResult, false, 0)),
		)
	}
}

func failureConst(fl contract.Failure) string { return "Failure" + fl.Idents().Go }

func usesText(cl *contract.Classifier) bool {
	for _, r := range cl.Rules {
		if len(r.Text) > 0 {
			return true
		}
	}
	return false
}

func classified(k *contract.Kind, breaker bool, rule int) jen.Code {
	return jen.Id("Classified").Values(jen.Id(kindConst(k)), jen.Lit(breaker), jen.Lit(rule))
}

// ruleCond is the condition of one rule: every condition it states holds.
func ruleCond(r *contract.Rule) jen.Code {
	var parts []jen.Code
	if len(r.Statuses) > 0 {
		var any []jen.Code
		for _, s := range r.Statuses {
			if s.From == s.To {
				any = append(any, jen.Id("u").Dot("Status").Op("==").Lit(s.From))
			} else {
				any = append(any, jen.Id("u").Dot("Status").Op(">=").Lit(s.From).Op("&&").Id("u").Dot("Status").Op("<=").Lit(s.To))
			}
		}
		parts = append(parts, or(any))
	}
	if r.AnyFailure {
		parts = append(parts, jen.Id("u").Dot("Failure").Op("!=").Lit(""))
	} else if len(r.Failures) > 0 {
		var any []jen.Code
		for _, fl := range r.Failures {
			any = append(any, jen.Id("u").Dot("Failure").Op("==").Id(failureConst(fl)))
		}
		parts = append(parts, or(any))
	}
	if len(r.Text) > 0 {
		args := []jen.Code{jen.Id("text")}
		for _, w := range r.Text {
			args = append(args, jen.Lit(w))
		}
		parts = append(parts, jen.Id("hasWord").Call(args...))
	}
	cond := jen.Add(parts[0])
	for _, p := range parts[1:] {
		cond = cond.Op("&&").Add(p)
	}
	return cond
}

// or joins conditions with ||, parenthesised when there are several.
func or(conds []jen.Code) jen.Code {
	if len(conds) == 1 {
		return conds[0]
	}
	s := jen.Add(conds[0])
	for _, c := range conds[1:] {
		s = s.Op("||").Add(c)
	}
	return jen.Parens(s)
}

// annotations emits the retry-safety upgrade: a same_arguments value that
// the contract upgrades (labby: discouraged -> conditional) when the failing
// tool is annotated read-only or idempotent.
func (g *gen) annotations(f *jen.File) {
	docf(f, "ToolAnnotations are the MCP tool annotations that bear on retry safety.")
	f.Type().Id("ToolAnnotations").Struct(
		jen.Id("ReadOnlyHint").Op("*").Bool().Tag(map[string]string{"json": "readOnlyHint,omitempty"}),
		jen.Id("IdempotentHint").Op("*").Bool().Tag(map[string]string{"json": "idempotentHint,omitempty"}),
	)
	f.Line()
	var cases []jen.Code
	for _, s := range g.c.SameArguments {
		if s.UpgradeTo != nil {
			cases = append(cases, jen.Case(jen.Id("SameArguments"+s.Idents.Go)).Block(jen.Return(jen.Id("SameArguments"+s.UpgradeTo.Idents.Go))))
		}
	}
	docf(f, "ForTool returns the same_arguments advice for a tool with the given annotations: repeating a call to a tool marked read-only or idempotent cannot repeat a side effect, so the contract may relax the advice.")
	body := []jen.Code{
		jen.If(jen.Op("!").Parens(jen.Id("a").Dot("ReadOnlyHint").Op("!=").Nil().Op("&&").Op("*").Id("a").Dot("ReadOnlyHint").Op("||").Id("a").Dot("IdempotentHint").Op("!=").Nil().Op("&&").Op("*").Id("a").Dot("IdempotentHint"))).Block(jen.Return(jen.Id("v"))),
	}
	if len(cases) > 0 {
		body = append(body, jen.Switch(jen.Id("v")).Block(cases...))
	}
	body = append(body, jen.Return(jen.Id("v")))
	f.Func().Params(jen.Id("v").Id("SameArguments")).Id("ForTool").Params(jen.Id("a").Id("ToolAnnotations")).Id("SameArguments").Block(body...)
	f.Line()
	f.Comment("// WithToolAnnotations applies ForTool to the envelope's same_arguments advice.")
	f.Func().Params(jen.Id("e").Op("*").Id("Envelope")).Id("WithToolAnnotations").Params(jen.Id("a").Id("ToolAnnotations")).Op("*").Id("Envelope").Block(
		jen.Id("e").Dot("Recovery").Dot("SameArguments").Op("=").Id("e").Dot("Recovery").Dot("SameArguments").Dot("ForTool").Call(jen.Id("a")),
		jen.Return(jen.Id("e")),
	)
}
