package gengo

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/errgen/errgen/internal/contract"
)

// nextStep emits the agent's decision procedure (docs/agents.md is its
// specification; the TypeScript and Python packages implement the same).
func (g *gen) nextStep(f *jen.File) {
	c := g.c
	fixedSet(f, "Step", "Step is what an agent does next after a failure.", contract.Steps)
	f.Line()
	var cases []jen.Code
	for _, a := range c.Actions {
		cases = append(cases, jen.Case(jen.Id("RecoveryAction"+a.Idents.Go)).Block(jen.Return(jen.Id(stepConst(a.Step)))))
	}
	f.Comment("// Step returns the step the contract maps the action to; an action this")
	f.Comment("// contract version does not know means escalate.")
	f.Func().Params(jen.Id("v").Id("RecoveryAction")).Id("Step").Params().Id("Step").Block(
		jen.Switch(jen.Id("v")).Block(cases...),
		jen.Return(jen.Id(stepConst(contract.StepEscalate))),
	)
	f.Line()
	r := c.Retry
	f.Comment("// The backoff used when an envelope asks for a retry without a retry hint.")
	f.Const().Defs(
		jen.Comment("// RetryInitial is the first delay."),
		jen.Id("RetryInitial").Op("=").Lit(r.InitialMs).Op("*").Qual("time", "Millisecond"),
		jen.Comment("// RetryMax caps every delay."),
		jen.Id("RetryMax").Op("=").Lit(r.MaxMs).Op("*").Qual("time", "Millisecond"),
		jen.Comment("// RetryMultiplier grows the delay from one attempt to the next."),
		jen.Id("RetryMultiplier").Op("=").Lit(r.Multiplier),
		jen.Comment("// RetryJitter is the fraction of a delay that may be shaved off at random."),
		jen.Id("RetryJitter").Op("=").Lit(r.Jitter),
		jen.Comment("// RetryMaxAttempts is how many attempts an agent makes in all before escalating."),
		jen.Id("RetryMaxAttempts").Op("=").Lit(r.MaxAttempts),
		jen.Comment("// RetryMaxHint is the longest retry hint: producers clamp a longer one to it,"),
		jen.Comment("// and NextStep never waits longer, however large the hint received."),
		jen.Id("RetryMaxHint").Op("=").Lit(int(r.MaxHintMs)).Op("*").Qual("time", "Millisecond"),
	)
	f.Line()
	docf(f, "Decision is what an agent does after attempt number Attempt failed with an envelope.")
	f.Type().Id("Decision").Struct(
		jen.Id("Step").Id("Step"),
		jen.Comment("// DelayMin and DelayMax bound the wait before a retry: wait a duration drawn"),
		jen.Comment("// uniformly between them (they are equal when the envelope carried a retry"),
		jen.Comment("// hint). Zero for other steps."),
		jen.Id("DelayMin").Qual("time", "Duration"),
		jen.Id("DelayMax").Qual("time", "Duration"),
		jen.Comment("// CheckStateFirst is true when work may already have run: before repeating"),
		jen.Comment("// a write, confirm what the failed attempt did."),
		jen.Id("CheckStateFirst").Bool(),
		jen.Comment("// Exhausted is true when the step would have been a retry but the attempts"),
		jen.Comment("// ran out or same_arguments forbids repeating the call; Step is then escalate."),
		jen.Id("Exhausted").Bool(),
	)
	f.Line()
	docf(f, fmt.Sprintf("NextStep decides what to do after attempt number attempt (counting from 1) failed with e. "+
		"The step comes from the envelope's recovery action, or is a retry when the envelope received a retryable flag that is true (it wins over the advice, an unknown kind's fallback included). A retry is taken only while same_arguments permits repeating the identical call and fewer than RetryMaxAttempts (%d) attempts were made; "+
		"otherwise the agent escalates. The wait is the envelope's retry hint when present (at most RetryMaxHint, however large the hint), else min(RetryMax, RetryInitial × RetryMultiplier^(attempt−1)) "+
		"in whole milliseconds with up to RetryJitter of it shaved off.", r.MaxAttempts))
	// A retryable flag received on the wire wins over the advice: true
	// means retry (ovstorage's decision tree asks it first).
	receivedRetry := jen.Null()
	if lf := g.c.Layout.Leaf(contract.SourceRetryable); lf != nil {
		receivedRetry = jen.If(jen.Id("e").Dot(lf.Idents.Go).Op("!=").Nil().Op("&&").Op("*").Id("e").Dot(lf.Idents.Go)).Block(
			jen.Id("d").Dot("Step").Op("=").Id(stepConst(contract.StepRetry)))
	}
	f.Func().Id("NextStep").Params(jen.Id("e").Op("*").Id("Envelope"), jen.Id("attempt").Int()).Id("Decision").Block(
		jen.Id("d").Op(":=").Id("Decision").Values(jen.Dict{
			jen.Id("Step"):            jen.Id("e").Dot("Recovery").Dot("Action").Dot("Step").Call(),
			jen.Id("CheckStateFirst"): jen.Id("e").Dot("WorkMayHaveRun").Call(),
		}),
		receivedRetry,
		jen.If(jen.Id("d").Dot("Step").Op("!=").Id(stepConst(contract.StepRetry))).Block(jen.Return(jen.Id("d"))),
		jen.If(jen.Op("!").Id("e").Dot("IsRetryable").Call().Op("||").Id("attempt").Op(">=").Id("RetryMaxAttempts")).Block(
			jen.Id("d").Dot("Step").Op(",").Id("d").Dot("Exhausted").Op("=").Id(stepConst(contract.StepEscalate)).Op(",").True(),
			jen.Return(jen.Id("d")),
		),
		jen.If(jen.Id("ms").Op(":=").Id("e").Dot("Recovery").Dot("RetryAfterMs"), jen.Id("ms").Op("!=").Nil()).Block(
			jen.Id("d").Dot("DelayMin").Op("=").Id("hintDelay").Call(jen.Op("*").Id("ms")),
			jen.Id("d").Dot("DelayMax").Op("=").Id("d").Dot("DelayMin"),
			jen.Return(jen.Id("d")),
		),
		jen.Comment("// In whole milliseconds and float64, as the TypeScript and Python packages"),
		jen.Comment("// compute it, so all three agree to the millisecond."),
		jen.Id("base").Op(":=").Float64().Call(jen.Id("RetryInitial").Op("/").Qual("time", "Millisecond")).Op("*").Qual("math", "Pow").Call(jen.Id("RetryMultiplier"), jen.Float64().Call(jen.Id("max").Call(jen.Id("attempt"), jen.Lit(1)).Op("-").Lit(1))),
		jen.Id("base").Op("=").Qual("math", "Min").Call(jen.Id("base"), jen.Float64().Call(jen.Id("RetryMax").Op("/").Qual("time", "Millisecond"))),
		jen.Id("d").Dot("DelayMax").Op("=").Qual("time", "Duration").Call(jen.Qual("math", "Floor").Call(jen.Id("base"))).Op("*").Qual("time", "Millisecond"),
		jen.Id("d").Dot("DelayMin").Op("=").Qual("time", "Duration").Call(jen.Qual("math", "Floor").Call(jen.Id("base").Op("*").Parens(jen.Lit(1).Op("-").Id("RetryJitter")))).Op("*").Qual("time", "Millisecond"),
		jen.Return(jen.Id("d")),
	)
}

func stepConst(s contract.Step) string { return "Step" + s.Idents().Go }

// fixedSet declares the string type typ, documented by doc, with one
// constant of it per value of one of errgen's fixed sets (steps, transport
// failures), named typ plus the value's Go name (stepConst, failureConst).
func fixedSet[V interface {
	~string
	Idents() contract.Idents
}](f *jen.File, typ, doc string, values []V) {
	docf(f, doc)
	f.Type().Id(typ).String()
	var defs []jen.Code
	for _, v := range values {
		defs = append(defs, jen.Id(typ+v.Idents().Go).Id(typ).Op("=").Lit(string(v)))
	}
	f.Const().Defs(defs...)
}
