package contract

import (
	"gopkg.in/yaml.v3"
)

// aliasAllowance bounds what aliases may add to a contract: the loader
// reads an alias as a copy of what it names, so aliases that name
// mappings holding aliases multiply (a few levels of two properties each
// naming the level below make a file of kilobytes read as millions of
// fields, for minutes, and then generate without end). What they may add
// is four times the nodes the file writes, or this many, whichever is
// more: far beyond sharing a set of fields among every kind.
const aliasAllowance = 1 << 20

// checkAliases reports a contract whose aliases, followed, add more than
// the allowance, at the alias that adds the most (the first such in the
// file), and says whether the contract may be read. Only a text holding a
// '*' can hold an alias, so others skip the walk.
func (l *loader) checkAliases(root *yaml.Node) bool {
	written := 0
	sizes := map[*yaml.Node]int{} // an alias target's size, followed; -1 while it is walked
	var worst *yaml.Node
	worstAdds := 0
	var size func(n *yaml.Node, count bool) int
	size = func(n *yaml.Node, count bool) int {
		if n.Kind == yaml.AliasNode {
			t := n.Alias
			if t == nil {
				return 0
			}
			s, seen := sizes[t]
			if !seen {
				sizes[t] = -1
				s = size(t, false)
				sizes[t] = s
			}
			if s < 0 { // an alias inside what it names: the loader reports the loop where it reads one
				return 0
			}
			if count && s > worstAdds {
				worst, worstAdds = n, s
			}
			return s
		}
		if count {
			written++
		}
		total := 1
		for _, c := range n.Content {
			total += size(c, count)
			if total > 1<<40 {
				total = 1 << 40 // no overflow however the aliases nest
			}
		}
		return total
	}
	total := size(root, true)
	if limit := written + max(aliasAllowance, 4*written); total > limit {
		l.errorf(worst, "the aliases of this contract make it %d nodes where the file writes %d (this alias alone adds %d): aliases may add at most four times what the file writes, or %d nodes; write what the aliases share out where it is used, or share it at one level only",
			total, written, worstAdds, aliasAllowance)
		return false
	}
	return true
}
