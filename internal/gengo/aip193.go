package gengo

import (
	"strings"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/runtimedata"
)

// aip193View is what templates/go/aip193_contract.go.tmpl reads besides the
// contract: the google.rpc mapping's tables (runtimedata.BuildGo), as every
// language's runtime reads them: the ErrorInfo domain, the layout's leaves
// as the mapping reads an envelope back, the values the layout does not
// carry, and the kinds by reason.
type aip193View struct {
	goView
	T *runtimedata.Tables
}

func (g *gen) aip193() any { return aip193View{goView: g.view(), T: g.t} }

// aipSource names the runtime's aipLeaf source src (kind: aipKind).
func aipSource(src string) string { return "aip" + strings.ToUpper(src[:1]) + src[1:] }

// aipOffSource names the runtime's aipOff source of each value a layout
// may leave off the wire.
func aipOffSource(src string) string {
	return map[contract.Source]string{
		contract.SourceVersion:       "aipOffVersion",
		contract.SourceOrigin:        "aipOffOrigin",
		contract.SourceAction:        "aipOffAction",
		contract.SourceSameArguments: "aipOffSameArguments",
		contract.SourceGuidance:      "aipOffGuidance",
		contract.SourceSideEffects:   "aipOffSideEffects",
	}[contract.Source(src)]
}
