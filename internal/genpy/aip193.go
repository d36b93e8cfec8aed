package genpy

import (
	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/runtimedata"
)

// aip193View is the contract's side of the google.rpc mapping (AIP-193)
// that _aip193.py reads, each a Python expression: printed here from the
// model rather than from runtimedata's shared tables, as gengo does.
type aip193View struct {
	// Domain is the ErrorInfo domain as a string literal.
	Domain string
	// Leaves are the layout's leaves in wire order: (path, source, metadata
	// key, text, constant), source one of "meta", "kind", "message",
	// "retry", "const".
	Leaves string
	// OffWire are the values the layout does not carry: (metadata key,
	// source), source one of the model's (version, origin, action,
	// same_arguments, guidance, side_effects).
	OffWire string
	// GRPC maps each known kind to (gRPC code, its name, ErrorInfo
	// reason); GRPCFallback is the fallback's (code, name).
	GRPC, GRPCFallback string
	// ReasonKinds maps each reason to its kind, sorted by reason.
	ReasonKinds string
}

func newAIP193View(c *contract.Contract, py runtimedata.PythonPrinter) aip193View {
	keys := map[*contract.Leaf]*contract.MetaMember{}
	for _, m := range c.AIP193.Members {
		if m.Leaf != nil {
			keys[m.Leaf] = m
		}
	}
	var leaves runtimedata.List
	if c.Layout != nil {
		for _, lf := range c.Layout.Leaves {
			row := runtimedata.List{lf.Path, "", "", false, nil}
			switch lf.Source {
			case contract.SourceKind:
				row[1] = "kind"
			case contract.SourceMessage:
				row[1] = "message"
			case contract.SourceRetryAfterMs:
				row[1] = "retry"
			case contract.SourceConst:
				row[1], row[4] = "const", lf.Const
			default:
				// Every other leaf is a metadata member (the loader made one).
				m := keys[lf]
				row[1], row[2], row[3] = "meta", m.Key, m.Text
			}
			leaves = append(leaves, row)
		}
	}
	var off runtimedata.List
	for _, m := range c.AIP193.Members {
		if m.Leaf == nil {
			off = append(off, runtimedata.List{m.Key, string(m.Source)})
		}
	}
	var grpc runtimedata.Map
	for _, k := range c.Kinds {
		grpc = append(grpc, runtimedata.Entry{Key: k.Name, Value: runtimedata.List{k.GRPC.Number, k.GRPC.Name, k.Reason}})
	}
	var reasons runtimedata.Map
	for _, k := range c.ReasonKinds() {
		reasons = append(reasons, runtimedata.Entry{Key: k.Reason, Value: k.Name})
	}
	fb := c.Fallback.GRPC
	return aip193View{
		Domain:       pyLit(c.AIP193.Domain),
		Leaves:       py.Print(leaves),
		OffWire:      py.Print(off),
		GRPC:         py.Print(grpc),
		GRPCFallback: py.Print(runtimedata.List{fb.Number, fb.Name}),
		ReasonKinds:  py.Print(reasons),
	}
}
