package contract

import (
	"fmt"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// ruleItems are the nodes of a rule's conditions, parallel to its Statuses,
// Failures and Text; any is the node of `any` when the rule has it.
type ruleItems struct {
	status, failure, text []*yaml.Node
	any                   *yaml.Node
}

const agreementExample = "e.g. auth: {description: ..., classifiers: {model: [oauth_needs_reauth], breaker: [auth_failed, auth_required]}}"

// agreements reads inbound.agreements and checks that the classifiers keep
// every agreement whose classifiers and kinds all resolved.
func (l *loader) agreements(c *Contract, in *Inbound, sec *mapping) {
	ak, av := sec.get("agreements")
	if ak == nil {
		return
	}
	if av.Kind == yaml.ScalarNode && av.Tag == "!!null" {
		l.errorf(ak, "inbound: agreements is empty; declare at least one agreement (%s) or remove the key", agreementExample)
		return
	}
	am := l.asMapping(av, ak, "inbound: ", "agreements")
	if am == nil {
		return
	}
	if len(am.keys) == 0 {
		l.errorf(ak, "inbound: agreements must not be empty; declare at least one agreement (%s) or remove the key", agreementExample)
	}
	am.each(func(k, v *yaml.Node) {
		prefix := fmt.Sprintf("inbound: agreement %q: ", k.Value)
		m := l.asMapping(v, k, prefix, "its definition")
		if m == nil {
			return
		}
		m.what = prefix
		if !namingRes[SnakeCase].MatchString(k.Value) {
			hint := "e.g. auth"
			if alt := applyNaming(SnakeCase, k.Value); namingRes[SnakeCase].MatchString(alt) {
				hint = "rename it " + alt
			}
			l.errorf(k, "%sname must be snake_case, like a classifier's; %s", prefix, hint)
		}
		a := &Agreement{Name: k.Value, Pos: l.pos(k)}
		a.Description, _ = m.str("description", true)
		whole := true // every classifier and kind resolved
		if ck, cv := m.get("classifiers"); ck == nil {
			m.missingf("classifiers", m.at, "%smissing required key \"classifiers\"; map each classifier that must agree to its kinds for the shared notion, e.g. classifiers: {model: [oauth_needs_reauth], breaker: [auth_failed]}", prefix)
			whole = false
		} else if cm := l.asMapping(cv, ck, prefix, "classifiers"); cm == nil {
			whole = false
		} else {
			cm.each(func(sk, sv *yaml.Node) {
				if side := l.agreementSide(c, in, sk, sv, prefix); side != nil {
					a.Sides = append(a.Sides, side)
				} else {
					whole = false
				}
			})
			switch len(cm.keys) {
			case 0:
				l.errorf(ck, "%sclassifiers must name two or more classifiers, each with its kinds for the shared notion, e.g. {model: [oauth_needs_reauth], breaker: [auth_failed]}", prefix)
			case 1:
				l.errorf(cm.keys[0], "%slists only classifier %q; an agreement compares two or more classifiers, so add the classifiers that must agree with it, each with its own kinds", prefix, cm.keys[0].Value)
			}
		}
		m.done("description", "classifiers")
		in.Agreements = append(in.Agreements, a)
		if whole && len(a.Sides) >= 2 {
			l.checkAgreement(a, k, prefix)
		}
	})
}

// agreementSide reads one classifier of an agreement and its set of kinds,
// or returns nil after reporting why it cannot be used (or when a problem
// reported elsewhere makes it unusable).
func (l *loader) agreementSide(c *Contract, in *Inbound, k, v *yaml.Node, prefix string) *AgreementSide {
	var cl *Classifier
	for _, x := range in.Classifiers {
		if x.Name == k.Value {
			cl = x
		}
	}
	if cl == nil {
		if !l.reported("inbound.classifiers", k.Value) {
			names := make([]string, len(in.Classifiers))
			for i, x := range in.Classifiers {
				names[i] = x.Name
			}
			l.errorf(k, "%sunknown classifier %q%s; declare it under inbound.classifiers or use one of %s", prefix, k.Value, suggest(k.Value, names), quoteList(names))
		}
		return nil
	}
	broken := l.brokenClassifiers[cl.Name]
	// gives are the kinds the classifier can answer with, in rule order.
	var gives []string
	if !broken {
		for _, r := range cl.Rules {
			if !contains(gives, r.Kind.Name) {
				gives = append(gives, r.Kind.Name)
			}
		}
		if !contains(gives, cl.Default.Name) {
			gives = append(gives, cl.Default.Name)
		}
	}
	side := &AgreementSide{Classifier: cl, Pos: l.pos(k)}
	what := fmt.Sprintf("%sclassifier %q: ", prefix, cl.Name)
	items := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		items = v.Content
		if len(items) == 0 {
			l.errorf(v, "%slists no kinds; give the kinds that make up the shared notion in this classifier's vocabulary, from %s", what, quoteList(gives))
			return nil
		}
	}
	ok := !broken
	for _, it := range items {
		it = deref(it)
		if it.Kind != yaml.ScalarNode || it.Tag != "!!str" || isBlank(it.Value) {
			l.errorf(it, "%smust be a kind or a list of kinds, found %s", what, describeNode(it))
			ok = false
			continue
		}
		kind := c.kindIndex[it.Value]
		switch {
		case kind == nil:
			ok = false
			if l.reported("kinds", it.Value) {
				continue
			}
			hint := suggest(it.Value, gives)
			if hint == "" {
				names := make([]string, len(c.Kinds))
				for i, k := range c.Kinds {
					names[i] = k.Name
				}
				hint = suggest(it.Value, names)
			}
			l.errorf(it, "%sunknown kind %q%s; declare it under kinds, or list kinds this classifier gives: %s", what, it.Value, hint, quoteList(gives))
		case side.Has(it.Value):
			l.errorf(it, "%skind %q is listed twice; list it once", what, it.Value)
		case !broken && !contains(gives, it.Value):
			// A kind the classifier never gives is a set that cannot mean
			// what it says, most often the other classifier's vocabulary.
			l.errorf(it, "%sthe classifier never gives kind %q (no rule or default of it does), so it cannot be part of its set; list kinds it gives: %s", what, it.Value, quoteList(gives))
			ok = false
		default:
			side.Kinds = append(side.Kinds, kind)
		}
	}
	if !ok {
		return nil
	}
	return side
}

// probe is an input derived from one rule of one side of an agreement.
type probe struct {
	in   Upstream
	side *AgreementSide
	rule int        // from 1
	at   *yaml.Node // the condition it comes from, or the rule
}

// checkAgreement runs every classifier of a on inputs derived from the rules
// that give a kind of their side's set, and reports each input on which the
// classifiers disagree: some put it in their set and some do not.
func (l *loader) checkAgreement(a *Agreement, key *yaml.Node, prefix string) {
	probes := agreementProbes(a, l.ruleItems)
	if len(probes) == 0 {
		l.errorf(key, "%sno rule of its classifiers gives a kind of its set, so there is nothing to compare (a default is no rule: it has no inputs of its own); list kinds that rules give", prefix)
		return
	}
	for _, p := range probes {
		type answer struct {
			side *AgreementSide
			got  Classified
			in   bool
		}
		answers := make([]answer, len(a.Sides))
		inside := 0
		for i, s := range a.Sides {
			got := s.Classifier.Classify(p.in)
			answers[i] = answer{s, got, s.Has(got.Kind)}
			if answers[i].in {
				inside++
			}
		}
		if inside == 0 || inside == len(answers) {
			continue
		}
		input := describeUpstream(p.in)
		var said, fixes []string
		for _, an := range answers {
			by := "default"
			if an.got.Rule > 0 {
				by = fmt.Sprintf("rule %d", an.got.Rule)
			}
			if an.in {
				said = append(said, fmt.Sprintf("%s gives %s (%s, in its set)", an.side.Classifier.Name, an.got.Kind, by))
				continue
			}
			said = append(said, fmt.Sprintf("%s gives %s (%s, not in its set [%s])", an.side.Classifier.Name, an.got.Kind, by, kindList(an.side.Kinds, ", ")))
			fix := fmt.Sprintf("in %s match it with a rule of kind %s", an.side.Classifier.Name, kindList(an.side.Kinds, " or "))
			if an.got.Rule > 0 {
				fix += fmt.Sprintf(" (before rule %d, which takes it now)", an.got.Rule)
			}
			fixes = append(fixes, fix)
		}
		// The other way to agree: no classifier puts it in its set, which
		// means taking it out of the rules that do.
		var givers []string
		for _, an := range answers {
			if an.in && an.got.Rule > 0 {
				givers = append(givers, fmt.Sprintf("%s's rule %d", an.side.Classifier.Name, an.got.Rule))
			}
		}
		alternative := "or keep it out of every set"
		if len(givers) == inside {
			alternative = "or take it out of " + strings.Join(givers, " and ")
		}
		l.errorf(p.at, "%sclassifiers disagree on %s (an input of classifier %q rule %d): %s; to agree, %s, %s",
			prefix, input, p.side.Classifier.Name, p.rule, strings.Join(said, "; "), strings.Join(fixes, " and "), alternative)
	}
}

// agreementProbes are the inputs an agreement is checked on, without
// repeats, each from the first rule that yields it: for every rule of every
// side whose kind is in that side's set, each status it names (a class or
// range stands for its first code and every code in it where a rule of any
// of the classifiers starts or stops matching, which covers every answer
// they can give inside it), each failure (any: every failure), each text
// phrase, and every combination of them when the rule has several
// conditions. A condition the rule leaves out stays empty.
func agreementProbes(a *Agreement, items map[*Rule]*ruleItems) []probe {
	var cuts []int
	for _, s := range a.Sides {
		for _, r := range s.Classifier.Rules {
			for _, st := range r.Statuses {
				cuts = append(cuts, st.From, st.To+1)
			}
		}
	}
	sort.Ints(cuts)
	type item[T any] struct {
		v  T
		at *yaml.Node
	}
	var out []probe
	seen := map[Upstream]bool{}
	for _, s := range a.Sides {
		for i, r := range s.Classifier.Rules {
			if !s.Has(r.Kind.Name) {
				continue
			}
			ri := items[r]
			if ri == nil {
				ri = &ruleItems{}
			}
			statuses := []item[int]{{0, nil}}
			if len(r.Statuses) > 0 {
				statuses = statuses[:0]
				for j, st := range r.Statuses {
					at := nodeAt(ri.status, j)
					statuses = append(statuses, item[int]{st.From, at})
					for _, c := range cuts {
						if c > st.From && c <= st.To {
							statuses = append(statuses, item[int]{c, at})
						}
					}
				}
			}
			failures := []item[string]{{"", nil}}
			if r.AnyFailure || len(r.Failures) > 0 {
				failures = failures[:0]
				for j, f := range r.Failures {
					failures = append(failures, item[string]{string(f), nodeAt(ri.failure, j)})
				}
				if r.AnyFailure {
					for _, f := range Failures {
						failures = append(failures, item[string]{string(f), ri.any})
					}
				}
			}
			texts := []item[string]{{"", nil}}
			if len(r.Text) > 0 {
				texts = texts[:0]
				for j, w := range r.Text {
					texts = append(texts, item[string]{w, nodeAt(ri.text, j)})
				}
			}
			conditions := 0
			for _, given := range []bool{len(r.Statuses) > 0, r.AnyFailure || len(r.Failures) > 0, len(r.Text) > 0} {
				if given {
					conditions++
				}
			}
			ruleNode := &yaml.Node{Line: r.Pos.Line, Column: r.Pos.Col}
			for _, st := range statuses {
				for _, f := range failures {
					for _, t := range texts {
						u := Upstream{Status: st.v, Failure: f.v, Text: t.v}
						if seen[u] {
							continue
						}
						seen[u] = true
						// One condition: the item itself; several: the rule.
						at := ruleNode
						if conditions == 1 {
							at = firstNode(st.at, f.at, t.at, ruleNode)
						}
						out = append(out, probe{u, s, i + 1, at})
					}
				}
			}
		}
	}
	return out
}

func nodeAt(nodes []*yaml.Node, i int) *yaml.Node {
	if i < len(nodes) {
		return nodes[i]
	}
	return nil
}

func firstNode(nodes ...*yaml.Node) *yaml.Node {
	for _, n := range nodes {
		if n != nil {
			return n
		}
	}
	return nil
}

// describeUpstream names an input as a contract owner writes it.
func describeUpstream(u Upstream) string {
	var parts []string
	if u.Status != 0 {
		parts = append(parts, fmt.Sprintf("status %d", u.Status))
	}
	if u.Failure != "" {
		parts = append(parts, "failure "+u.Failure)
	}
	if u.Text != "" {
		parts = append(parts, fmt.Sprintf("text %q", u.Text))
	}
	return strings.Join(parts, " with ")
}

func kindList(kinds []*Kind, sep string) string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.Name
	}
	if sep == " or " && len(names) > 1 {
		return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	}
	return strings.Join(names, sep)
}
