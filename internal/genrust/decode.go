package genrust

import (
	"bytes"
	"fmt"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/runtimedata"
)

// ownedIndex prints owned_index, the decoders' member-name matcher: for
// each object of the layout (numbered in pre-order, the envelope's own
// object 0, as the runtime's codec numbers them) a match on the name's
// bytes giving its position in the object's owned names (the LAYOUT
// table's owned list: each member's name, then a leaf's aliases). A match
// compiles to a switch on the length and a few word compares, where a
// search of the owned names compares each in turn.
func (g *gen) ownedIndex() string {
	var b bytes.Buffer
	b.WriteString("/// The position of a member name (as the document spells it, escapes decoded) among the owned names of the layout's object number object (numbered in pre-order, the envelope's own object 0), for the decoders: a match on the name's bytes instead of a search.\n")
	b.WriteString("pub(crate) fn owned_index(object: usize, name: &[u8]) -> Option<usize> {\n    match object {\n")
	id := 0
	var visit func(o *contract.Object)
	visit = func(o *contract.Object) {
		fmt.Fprintf(&b, "        %d => match name {\n", id)
		id++
		var owned []string
		var children []*contract.Object
		for _, m := range o.Members {
			owned = append(owned, m.Name())
			if m.Object != nil {
				children = append(children, m.Object)
				continue
			}
			owned = append(owned, m.Leaf.Aliases...)
		}
		seen := map[string]bool{}
		for i, n := range owned {
			if seen[n] {
				continue // the first position is the one a search finds
			}
			seen[n] = true
			fmt.Fprintf(&b, "            %s => Some(%d),\n", runtimedata.RustByteString(n), i)
		}
		b.WriteString("            _ => None,\n        },\n")
		for _, c := range children {
			visit(c)
		}
	}
	visit(g.c.Layout.Root)
	b.WriteString("        _ => None,\n    }\n}\n\n")
	return b.String()
}
