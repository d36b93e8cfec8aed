package contract

import (
	"fmt"
	"strconv"

	"gopkg.in/yaml.v3"
)

// section is one top-level section of a merged tree, and the import it came
// from (nil: the importing contract's own).
type section struct {
	key, val *yaml.Node
	from     *base
	entries  map[string]*yaml.Node // an addable section's entry keys by name, once folded
}

// merge returns the tree of the contract at own with bases merged in:
// the bases' sections first, then own's additions. It reports, at own's
// nodes, everything own may not write, and at the import entries what the
// bases cannot share.
func (l *loader) merge(own *yaml.Node, bases []*base) *yaml.Node {
	secs, order := l.foldBases(bases)
	out := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: own.Line, Column: own.Column}
	used := map[string]bool{}
	for i := 0; i+1 < len(own.Content); i += 2 {
		k, v := own.Content[i], deref(own.Content[i+1])
		name := k.Value
		sec := secs[name]
		switch {
		case name == "imports":
			continue
		case name == "contract":
			v = l.mergeHeader(v, secs["contract"])
		case inherited[name]:
			whose := fmt.Sprintf("this section is the imported contract %s's, which leaves it to errgen's defaults (%s)", bases[0].imp.Name, bases[0].imp.File)
			if sec != nil {
				whose = fmt.Sprintf("this section comes from the imported contract %s (%s)", sec.from.imp.Name, l.where(k, l.pos(sec.key)))
			}
			l.errorf(k, "%s: %s; a contract that imports another adds only kinds, groups, origins and retired names, and inherits the rest, so that its envelopes are the base's: remove it here", name, whose)
			continue
		case addable[name] && sec != nil && v.Kind == yaml.ScalarNode && v.Tag == "!!null":
			continue // nothing added: the base's section stands
		case addable[name] && sec != nil && v.Kind == yaml.MappingNode:
			v = l.extend(name, sec, v)
		}
		// Own's section replaces the base's: extended, or (written wrongly)
		// reported as its own.
		used[name] = true
		out.Content = append(out.Content, k, v)
	}
	for _, name := range order {
		if !used[name] && name != "contract" {
			out.Content = append(out.Content, secs[name].key, secs[name].val)
		}
	}
	return out
}

// foldBases joins the bases' sections. Two imports may share what they
// both inherit from one contract (the same nodes); anything else defined
// twice is reported at the later import.
func (l *loader) foldBases(bases []*base) (map[string]*section, []string) {
	secs := map[string]*section{}
	var order []string
	for _, b := range bases {
		if first := secs["contract"]; first != nil && !l.sameHeader(b, first) {
			continue // two wire versions: what else differs follows from it
		}
		root := b.root
		for i := 0; i+1 < len(root.Content); i += 2 {
			k, v := root.Content[i], deref(root.Content[i+1])
			name := k.Value
			sec := secs[name]
			switch {
			case sec == nil:
				secs[name] = &section{key: k, val: v, from: b}
				order = append(order, name)
			case sec.val == v:
			case name == "contract":
			case addable[name]:
				l.foldEntries(b, sec, v)
			default:
				l.errorf(b.spec.node, "imports: %s and %s both write %s, differently (%s, %s); contracts imported together must share it, from one contract they both import",
					sec.from.imp.Name, b.imp.Name, name, l.where(b.spec.node, l.pos(sec.key)), l.where(b.spec.node, l.pos(k)))
			}
		}
	}
	return secs, order
}

// sameHeader reports a second import whose version or naming differs from
// the first's: the importing contract would speak two wire versions.
func (l *loader) sameHeader(b *base, first *section) bool {
	same := true
	_, header := mapGet(b.root, "contract")
	for _, key := range []string{"version", "naming"} {
		fk, fv := mapGet(first.val, key)
		bk, bv := mapGet(header, key)
		if fk == nil || bk == nil || fv.Value == bv.Value {
			continue
		}
		l.errorf(b.spec.node, "imports: %s has %s %s (%s) but %s has %s %s (%s); contracts imported together must agree on it",
			b.imp.Name, key, bv.Value, l.where(b.spec.node, l.pos(bv)), first.from.imp.Name, key, fv.Value, l.where(b.spec.node, l.pos(fv)))
		same = false
	}
	return same
}

// foldEntries adds b's entries of an addable section to sec.
func (l *loader) foldEntries(b *base, sec *section, v *yaml.Node) {
	l.index(sec)
	for j := 0; j+1 < len(v.Content); j += 2 {
		ek := v.Content[j]
		prev, dup := sec.entries[ek.Value]
		switch {
		case !dup:
			sec.entries[ek.Value] = ek
			sec.val.Content = append(sec.val.Content, ek, v.Content[j+1])
		case prev != ek:
			l.errorf(b.spec.node, "imports: %s defines %s %q (%s), which %s defines too (%s); contracts imported together must not define one name twice",
				l.owner(ek), entryWhat(sec.key.Value), ek.Value, l.where(b.spec.node, l.pos(ek)), l.owner(prev), l.where(b.spec.node, l.pos(prev)))
		}
	}
}

// index fills sec.entries and gives sec a mapping of its own, so that
// folding never changes a base's tree.
func (l *loader) index(sec *section) {
	if sec.entries != nil {
		return
	}
	sec.entries = map[string]*yaml.Node{}
	cp := *sec.val
	cp.Content = append([]*yaml.Node(nil), sec.val.Content...)
	l.inFile(&cp, l.fileOf(sec.val))
	sec.val = &cp
	for j := 0; j+1 < len(cp.Content); j += 2 {
		sec.entries[cp.Content[j].Value] = cp.Content[j]
	}
}

// extend returns the base's section with own's entries after it, reporting
// each own entry that redefines a base entry.
func (l *loader) extend(name string, sec *section, own *yaml.Node) *yaml.Node {
	l.index(sec)
	out := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: own.Line, Column: own.Column}
	out.Content = append(out.Content, sec.val.Content...)
	for j := 0; j+1 < len(own.Content); j += 2 {
		ek := own.Content[j]
		if prev, dup := sec.entries[ek.Value]; dup && ek.Kind == yaml.ScalarNode {
			from := l.owner(prev)
			l.errorf(ek, "%s %q is defined by the imported contract %s (%s); a contract cannot redefine what it imports: give this %s another name, or remove it to use %s's",
				entryWhat(name), ek.Value, from, l.where(ek, l.pos(prev)), entryWhat(name), from)
			continue
		}
		out.Content = append(out.Content, ek, own.Content[j+1])
	}
	return out
}

// mergeHeader is own's contract section with the base's version and
// naming, which own may repeat but not change.
func (l *loader) mergeHeader(own *yaml.Node, base *section) *yaml.Node {
	if own.Kind != yaml.MappingNode || base == nil {
		return own
	}
	out := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: own.Line, Column: own.Column}
	out.Content = append(out.Content, own.Content...)
	for _, key := range []string{"version", "naming"} {
		bk, bv := mapGet(base.val, key)
		if bk == nil {
			continue
		}
		ok, ov := mapGet(own, key)
		if ok == nil {
			out.Content = append(out.Content, bk, bv)
			continue
		}
		if ov.Value == bv.Value && ov.Tag == bv.Tag {
			continue
		}
		// The base's value stands, so that the base's own entries are
		// not reported against a value they never had.
		for i := 0; i+1 < len(out.Content); i += 2 {
			if out.Content[i] == ok {
				out.Content[i], out.Content[i+1] = bk, bv
			}
		}
		why := "its envelopes carry the base's contract_version, so that the base's packages read them"
		if key == "naming" {
			why = "one naming keeps one contract's kinds alike"
		}
		at := ov
		if ov.Kind == yaml.ScalarNode && ov.Tag == "!!null" {
			at = ok // nothing written: the key is where
		}
		l.errorf(at, "contract: %s %s does not match the imported contract %s's %s %s (%s); %s: write %s: %s or leave it out",
			key, yamlText(ov), base.from.imp.Name, key, yamlText(bv), l.where(at, l.pos(bv)), why, key, yamlText(bv))
	}
	return out
}

// yamlText is a scalar as YAML would write it: a string that would read as
// another type quoted, so that version "1" and version 1 look different;
// what is no scalar, described.
func yamlText(n *yaml.Node) string {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return "(" + describeNode(n) + ")"
	}
	if n.Tag == "!!str" && (&yaml.Node{Kind: yaml.ScalarNode, Value: n.Value}).ShortTag() != "!!str" {
		return strconv.Quote(n.Value)
	}
	return n.Value
}

// owner names the imported contract whose file holds n.
func (l *loader) owner(n *yaml.Node) string {
	if i := l.imported[l.fileOf(n)]; i != nil {
		return i.Name
	}
	return l.fileOf(n)
}

// entryWhat names an entry of an addable section.
func entryWhat(section string) string {
	switch section {
	case "origins":
		return "origin"
	case "groups":
		return "group"
	case "retired":
		return "retired kind"
	}
	return "kind"
}
