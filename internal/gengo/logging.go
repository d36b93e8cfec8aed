package gengo

// loggingView is what templates/go/logging_contract.go.tmpl reads besides
// the contract and its layout: the log form's table, printed by
// runtimedata's Go printer, which the runtime's Envelope.LogValue reads
// (runtime/go/_src/logging.go).
type loggingView struct {
	goView
	LogForm string
}

func (g *gen) logging() any {
	return loggingView{goView: g.view(), LogForm: goPrinter().Typed("logFormSpec", g.t.Log)}
}
