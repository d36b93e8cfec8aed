package gengo

import (
	"fmt"
	"slices"
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
	c := g.c
	// Each vocabulary's table has a row per value in contract order, which
	// an index function (a switch, as kindIndex) finds: no map to hash and
	// no search on every NextStep.
	actions, retryActions, same, effects := runtimedata.List{}, runtimedata.List{}, runtimedata.List{}, runtimedata.List{}
	var actionConsts, sameConsts, effectConsts []string
	for _, a := range t.ActionSteps {
		actions = append(actions, row(runtimedata.Field{Name: "action", Value: a.Key}, runtimedata.Field{Name: "step", Value: a.Value}))
		if a.Value == string(contract.StepRetry) {
			retryActions = append(retryActions, a.Key)
		}
	}
	for _, a := range c.Actions {
		actionConsts = append(actionConsts, "RecoveryAction"+a.Idents.Go)
	}
	for _, s := range c.SameArguments {
		upgrade := runtimedata.Value("")
		for _, u := range t.Upgrades {
			if u.Key == s.Name {
				upgrade = u.Value
			}
		}
		same = append(same, row(runtimedata.Field{Name: "value", Value: s.Name},
			runtimedata.Field{Name: "retry", Value: slices.Contains(t.RetrySame, runtimedata.Value(s.Name)), Sparse: true},
			runtimedata.Field{Name: "upgrade_to", Value: upgrade, Sparse: true}))
		sameConsts = append(sameConsts, "SameArguments"+s.Idents.Go)
	}
	for _, s := range c.SideEffects {
		effects = append(effects, row(runtimedata.Field{Name: "value", Value: s.Name},
			runtimedata.Field{Name: "may_have_run", Value: slices.Contains(t.MayHaveRun, runtimedata.Value(s.Name)), Sparse: true}))
		effectConsts = append(effectConsts, "SideEffects"+s.Idents.Go)
	}
	table(f, "actionSteps", "[...]actionStep", actions, "actionSteps maps each recovery action, in contract order (actionIndex), to the step an agent takes (RecoveryAction.Step).")
	table(f, "retryActions", "[...]RecoveryAction", retryActions, "retryActions are the recovery actions whose step is a retry (RecoveryAction.IsRetry): a search of these few is quicker than actionIndex.")
	table(f, "sameArgumentsAdvice", "[...]sameArgumentsRow", same, "sameArgumentsAdvice is each same_arguments value in contract order (sameArgumentsIndex): whether it permits an automatic retry of the identical call (SameArguments.PermitsRetry), and the value it becomes for a tool annotated read-only or idempotent when that changes it (SameArguments.ForTool).")
	table(f, "sideEffectsAdvice", "[...]sideEffectsRow", effects, "sideEffectsAdvice is each side_effects value in contract order (sideEffectsIndex): whether work may already have run under it (SideEffects.MayHaveRun; a value the contract does not list counts as may have run).")
	indexFunc(f, "actionIndex", "RecoveryAction", actionConsts)
	indexFunc(f, "sameArgumentsIndex", "SameArguments", sameConsts)
	indexFunc(f, "sideEffectsIndex", "SideEffects", effectConsts)
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

// row is a table row of the given members.
func row(fields ...runtimedata.Field) runtimedata.Record {
	return runtimedata.Record{Fields: fields, Row: true}
}

// indexFunc declares name, which returns the position of a value of typ
// among consts (its table's row), -1 for a value the contract does not
// list. A switch compiles to a binary search over constant strings.
func indexFunc(f *jen.File, name, typ string, consts []string) {
	f.Line()
	docf(f, fmt.Sprintf("%s is the row of v in its table, -1 when the contract does not list v.", name))
	f.Func().Id(name).Params(jen.Id("v").Id(typ)).Int().BlockFunc(func(gr *jen.Group) {
		gr.Switch(jen.Id("v")).BlockFunc(func(sw *jen.Group) {
			for i, c := range consts {
				sw.Case(jen.Id(c)).Block(jen.Return(jen.Lit(i)))
			}
		})
		gr.Return(jen.Lit(-1))
	})
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
