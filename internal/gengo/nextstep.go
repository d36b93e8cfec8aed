package gengo

import (
	"fmt"
	"slices"
	"strings"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/runtimedata"
)

// nextStepView is what templates/go/nextstep_contract.go.tmpl reads
// besides the contract: NextStep's tables printed by runtimedata's Go
// printer (the runtime's nextstep.go reads them; docs/agents.md is its
// specification), and the leaf of a retryable flag received on the wire.
type nextStepView struct {
	goView
	ActionSteps, RetryActions, SameArguments, SideEffects string
	Retryable                                             *contract.Leaf
}

func (g *gen) nextStep() any {
	t, c := g.t, g.c
	// Each vocabulary's table has a row per value in contract order, which
	// an index function (a switch, as kindIndex) finds.
	actions, retryActions, same, effects := runtimedata.List{}, runtimedata.List{}, runtimedata.List{}, runtimedata.List{}
	for _, a := range t.ActionSteps {
		actions = append(actions, row(runtimedata.Field{Name: "action", Value: a.Key}, runtimedata.Field{Name: "step", Value: a.Value}))
		if a.Value == string(contract.StepRetry) {
			retryActions = append(retryActions, a.Key)
		}
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
	}
	for _, s := range c.SideEffects {
		effects = append(effects, row(runtimedata.Field{Name: "value", Value: s.Name},
			runtimedata.Field{Name: "may_have_run", Value: slices.Contains(t.MayHaveRun, runtimedata.Value(s.Name)), Sparse: true}))
	}
	p := goPrinter()
	return nextStepView{goView: g.view(), ActionSteps: p.Typed("[...]actionStep", actions), RetryActions: p.Typed("[...]RecoveryAction", retryActions),
		SameArguments: p.Typed("[...]sameArgumentsRow", same), SideEffects: p.Typed("[...]sideEffectsRow", effects),
		Retryable: g.lo.Leaf(contract.SourceRetryable)}
}

// row is a table row of the given members.
func row(fields ...runtimedata.Field) runtimedata.Record {
	return runtimedata.Record{Fields: fields, Row: true}
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
