package gengo

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/runtimedata"
)

// nextStep emits nextstep_contract.go: the retry policy's constants and the
// tables the runtime's decision procedure reads (runtime/go/_src/nextstep.go;
// docs/agents.md is its specification).
func (g *gen) nextStep(f *jen.File) {
	r := g.c.Retry
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
	t := g.t
	table(f, "actionSteps", "map[RecoveryAction]Step", t.ActionSteps, "actionSteps maps each recovery action to the step an agent takes (RecoveryAction.Step).")
	table(f, "retrySameArguments", "[]SameArguments", t.RetrySame, "retrySameArguments are the same_arguments values that permit an automatic retry of the identical call (SameArguments.PermitsRetry).")
	table(f, "mayHaveRunSideEffects", "[]SideEffects", t.MayHaveRun, "mayHaveRunSideEffects are the side_effects values under which work may already have run (SideEffects.MayHaveRun).")
	table(f, "sameArgumentsUpgrades", "map[SameArguments]SameArguments", t.Upgrades, "sameArgumentsUpgrades maps a same_arguments value to the one it becomes for a tool annotated read-only or idempotent (SameArguments.ForTool).")
	// A retryable flag received on the wire wins over the advice (NextStep).
	f.Line()
	received := jen.Nil()
	doc := "receivedRetryable is the retryable flag the envelope received on the wire: always nil, as this contract's layout carries none."
	if lf := g.lo.Leaf(contract.SourceRetryable); lf != nil {
		received = jen.Id("e").Dot(lf.Idents.Go)
		doc = "receivedRetryable is the retryable flag the envelope received on the wire, nil when none."
	}
	docf(f, doc)
	f.Func().Params(jen.Id("e").Op("*").Id("Envelope")).Id("receivedRetryable").Params().Op("*").Bool().Block(jen.Return(received))
}

// table declares the unexported variable name of the Go type typ holding v
// as runtimedata's Go printer prints it, documented by doc.
func table(f *jen.File, name, typ string, v runtimedata.Value, doc string) {
	f.Line()
	docf(f, doc)
	f.Var().Id(name).Op("=").Op(goPrinter().Typed(typ, v))
}

// goPrinter prints the runtime tables for the Go runtime: a member holding
// a list names its element type (the types are runtime/go/_src's), and a
// rule's status ranges go on one line.
func goPrinter() runtimedata.GoPrinter {
	return runtimedata.GoPrinter{Member: func(_, member string, v runtimedata.Value) (string, bool) {
		if member == "statuses" {
			var ranges []string
			for _, r := range v.(runtimedata.List) {
				ranges = append(ranges, fmt.Sprintf("{%d, %d}", r.(runtimedata.List)...))
			}
			return "[][2]int{" + strings.Join(ranges, ", ") + "}", true
		}
		typ, ok := map[string]string{"rules": "[]inboundRule", "failures": "[]Failure", "text": "[]string", "members": "[]string"}[member]
		if !ok {
			return "", false
		}
		return goPrinter().Typed(typ, v), true
	}}
}
