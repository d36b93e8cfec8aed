package gengo

import (
	"slices"
	"strconv"
	"strings"

	"github.com/errgen/errgen/internal/contract"
)

// callErrorView is what templates/go/callerror_contract.go.tmpl reads
// besides the contract's call_error section: its canonical kinds in the
// order of the map literal's keys.
type callErrorView struct {
	goView
	Canonical []contract.CanonicalKind
}

func (g *gen) callErrorPolicy() any {
	canonical := slices.Clone(g.c.CallError.Canonical)
	slices.SortStableFunc(canonical, func(a, b contract.CanonicalKind) int {
		return strings.Compare(strconv.Quote(a.From.Name), strconv.Quote(b.From.Name))
	})
	return callErrorView{goView: g.view(), Canonical: canonical}
}
