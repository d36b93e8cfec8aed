package gengo

import "github.com/errgen/errgen/internal/runtimedata"

// inboundView is what templates/go/inbound_contract.go.tmpl reads besides
// the contract's inbound section: its classifiers' rules, printed by
// runtimedata's Go printer for the runtime's rule engine
// (runtime/go/_src/inbound.go).
type inboundView struct {
	goView
	Classifiers string
}

func (g *gen) inbound() any {
	classifiers := g.t.Inbound.(runtimedata.Record).Get("classifiers")
	return inboundView{goView: g.view(), Classifiers: goPrinter().Typed("[]inboundClassifier", classifiers)}
}
