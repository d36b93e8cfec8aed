package contract

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

func failureNames() []string {
	out := make([]string, len(Failures))
	for i, f := range Failures {
		out[i] = string(f)
	}
	return out
}

// kindRef resolves a kind named under key.
func (l *loader) kindRef(c *Contract, m *mapping, key string, required bool) *Kind {
	k, _ := refTo(l, m, key, required, c.Kinds, func(k *Kind) string { return k.Name }, "kind", "kinds")
	return k
}

// inbound reads how upstream failures become kinds.
func (l *loader) inbound(c *Contract, sec *mapping, key *yaml.Node) {
	if sec == nil {
		return
	}
	sec.what = "inbound: "
	in := &Inbound{Pos: posOf(key)}
	in.ToolResult = l.kindRef(c, sec, "tool_result", false)
	if ck, cv := sec.get("classifiers"); ck == nil {
		sec.missing("classifiers")
	} else if cm := l.asMapping(cv, ck, "inbound: ", "classifiers"); cm != nil {
		if len(cm.keys) == 0 {
			l.errorf(ck, "inbound: classifiers must not be empty; declare at least one, e.g. model")
		}
		seen := map[string]*Value{}
		cm.each(func(k, v *yaml.Node) {
			prefix := fmt.Sprintf("inbound: classifier %q: ", k.Value)
			m := l.asMapping(v, k, prefix, "its definition")
			if m == nil {
				return
			}
			if !namingRes[SnakeCase].MatchString(k.Value) {
				l.errorf(k, "%sname must be snake_case (it names generated functions, e.g. Classify%s)", prefix, identsFor(k.Value).Go)
			}
			cl := &Classifier{Name: k.Value, Pos: posOf(k), Idents: identsFor(k.Value)}
			cl.Description, _ = m.str("description", true)
			cl.Default = l.kindRef(c, m, "default", true)
			if rk, rv := m.get("rules"); rk == nil {
				m.missing("rules")
			} else if rv.Kind != yaml.SequenceNode {
				l.errorf(rk, "%srules must be a list of rules, each like {status: 401, kind: auth_failed}", prefix)
			} else {
				for i, item := range rv.Content {
					if r := l.rule(c, item, fmt.Sprintf("%srule %d: ", prefix, i+1)); r != nil {
						cl.Rules = append(cl.Rules, r)
					}
				}
			}
			m.done("description", "default", "rules")
			l.collide(seen, &Value{Name: cl.Name, Pos: cl.Pos, Idents: cl.Idents}, "classifier")
			in.Classifiers = append(in.Classifiers, cl)
		})
	}
	sec.done("tool_result", "classifiers")
	c.Inbound = in
}

var (
	statusExact = regexp.MustCompile(`^[1-5][0-9][0-9]$`)
	statusClass = regexp.MustCompile(`^([1-5])xx$`)
	statusRange = regexp.MustCompile(`^([1-5][0-9][0-9])-([1-5][0-9][0-9])$`)
	wordRe      = regexp.MustCompile(`^[a-z0-9_]([a-z0-9_ .:/-]*[a-z0-9_])?$`)
)

// rule reads one classifier rule.
func (l *loader) rule(c *Contract, n *yaml.Node, prefix string) *Rule {
	m := l.asMapping(n, n, prefix, "the rule")
	if m == nil {
		return nil
	}
	m.what = prefix
	r := &Rule{Pos: posOf(n)}
	conditions := 0
	if sk, sv := m.get("status"); sk != nil {
		conditions++
		items := []*yaml.Node{sv}
		if sv.Kind == yaml.SequenceNode {
			items = sv.Content
		}
		for _, it := range items {
			text := it.Value
			var sr StatusRange
			switch {
			case it.Kind != yaml.ScalarNode:
				l.errorf(it, "%sstatus must be a code (401), a class (4xx), a range (500-599) or a list of them", prefix)
				continue
			case statusExact.MatchString(text):
				sr.From, _ = strconv.Atoi(text)
				sr.To = sr.From
			case statusClass.MatchString(text):
				class, _ := strconv.Atoi(statusClass.FindStringSubmatch(text)[1])
				sr.From, sr.To = class*100, class*100+99
			case statusRange.MatchString(text):
				g := statusRange.FindStringSubmatch(text)
				sr.From, _ = strconv.Atoi(g[1])
				sr.To, _ = strconv.Atoi(g[2])
				if sr.From > sr.To {
					l.errorf(it, "%sstatus range %s runs backwards; write the lower code first", prefix, text)
					continue
				}
			default:
				l.errorf(it, "%sstatus %q is not a code (401), a class (4xx) or a range (500-599)", prefix, text)
				continue
			}
			sr.Text = text
			r.Statuses = append(r.Statuses, sr)
		}
	}
	if fk, fv := m.get("failure"); fk != nil {
		conditions++
		items := []*yaml.Node{fv}
		if fv.Kind == yaml.SequenceNode {
			items = fv.Content
		}
		for _, it := range items {
			switch {
			case it.Kind == yaml.ScalarNode && it.Value == "any":
				r.AnyFailure = true
			case it.Kind == yaml.ScalarNode && contains(Failures, Failure(it.Value)):
				r.Failures = append(r.Failures, Failure(it.Value))
			default:
				l.errorf(it, "%sunknown failure %q%s; use any or one of %s", prefix, it.Value, suggest(it.Value, failureNames()), joinPlain(failureNames()))
			}
		}
	}
	if tk, tv := m.get("text"); tk != nil {
		conditions++
		items := []*yaml.Node{tv}
		if tv.Kind == yaml.SequenceNode {
			items = tv.Content
		}
		for _, it := range items {
			w := strings.ToLower(it.Value)
			if it.Kind != yaml.ScalarNode || !wordRe.MatchString(w) {
				l.errorf(it, "%stext %q must be a word or phrase of letters, digits, _, spaces, ., :, / or -, starting and ending with a letter, digit or _", prefix, it.Value)
				continue
			}
			r.Text = append(r.Text, w)
		}
	}
	if conditions == 0 {
		l.errorf(n, "%sa rule needs at least one of status, failure or text; the classifier's default covers everything else", prefix)
	}
	r.Kind = l.kindRef(c, m, "kind", true)
	if b, bn := m.boolean("breaker", false); bn != nil {
		r.Breaker = &b
	}
	m.done("status", "failure", "text", "kind", "breaker")
	return r
}

// retryPolicy reads the backoff policy, starting from the default.
func (l *loader) retryPolicy(c *Contract, sec *mapping, key *yaml.Node) {
	c.Retry = DefaultRetry()
	if sec == nil {
		return
	}
	sec.what = "retry: "
	c.Retry.Pos = posOf(key)
	positive := func(name string, dst *int) {
		if v, n := sec.integer(name, false); n != nil {
			if v < 1 {
				l.errorf(n, "retry: %s must be at least 1", name)
				return
			}
			*dst = v
		}
	}
	positive("initial_ms", &c.Retry.InitialMs)
	positive("max_ms", &c.Retry.MaxMs)
	positive("max_attempts", &c.Retry.MaxAttempts)
	fraction := func(name string, dst *float64, min, max float64, what string) {
		k, v := sec.get(name)
		if k == nil {
			return
		}
		var f float64
		if v.Kind != yaml.ScalarNode || (v.Tag != "!!float" && v.Tag != "!!int") || v.Decode(&f) != nil || f < min || f > max {
			l.errorf(v, "retry: %s must be %s", name, what)
			return
		}
		*dst = f
	}
	fraction("multiplier", &c.Retry.Multiplier, 1, 10, "a number from 1 to 10")
	fraction("jitter", &c.Retry.Jitter, 0, 1, "a fraction from 0 to 1")
	if c.Retry.MaxMs < c.Retry.InitialMs {
		l.errorf(key, "retry: max_ms (%d) is below initial_ms (%d)", c.Retry.MaxMs, c.Retry.InitialMs)
	}
	sec.done("initial_ms", "max_ms", "multiplier", "jitter", "max_attempts")
}

// surfaces reads how the HTTP, problem+json and CLI surfaces render.
func (l *loader) surfaces(c *Contract, sec *mapping) {
	c.Surfaces = Surfaces{
		ProblemTypeBase: "urn:errgen:" + c.Name + ":",
		CLI:             CLI{Form: CLIEnvelope, DefaultExitCode: 1, ExitCodes: map[*Origin]int{}},
	}
	if sec == nil {
		return
	}
	sec.what = "surfaces: "
	if base, n := sec.str("problem_type_base", false); n != nil {
		if !regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:\S*$`).MatchString(base) {
			l.errorf(n, "surfaces: problem_type_base %q must be an absolute URI (e.g. https://errors.example.com/agent-error/)", base)
		}
		c.Surfaces.ProblemTypeBase = base
	}
	if ck, cv := sec.get("cli"); ck != nil {
		if m := l.asMapping(cv, ck, "surfaces: cli: ", ""); m != nil {
			m.what = "surfaces: cli: "
			if form, n := m.str("form", false); n != nil {
				if form != string(CLIEnvelope) && form != string(CLIWrapped) {
					l.errorf(n, "surfaces: cli: form must be envelope or wrapped (labby's {ok: false, command, error})%s", suggest(form, []string{"envelope", "wrapped"}))
				}
				c.Surfaces.CLI.Form = CLIForm(form)
			}
			exit := func(n *yaml.Node, code int) bool {
				if code < 1 || code > 125 {
					l.errorf(n, "surfaces: cli: exit code %d must be from 1 to 125 (0 is success; above 125 the shell reserves)", code)
					return false
				}
				return true
			}
			if code, n := m.integer("default_exit_code", false); n != nil && exit(n, code) {
				c.Surfaces.CLI.DefaultExitCode = code
			}
			if ek, ev := m.get("exit_codes"); ek != nil {
				if em := l.asMapping(ev, ek, "surfaces: cli: exit_codes: ", ""); em != nil {
					em.what = "surfaces: cli: exit_codes: "
					em.each(func(k, v *yaml.Node) {
						o, ok := refToName(c.Origins, k.Value)
						if !ok {
							names := make([]string, len(c.Origins))
							for i, o := range c.Origins {
								names[i] = o.Name
							}
							l.errorf(k, "surfaces: cli: exit_codes: unknown origin %q%s; exit codes are given per origin", k.Value, suggest(k.Value, names))
							return
						}
						var code int
						if v.Kind != yaml.ScalarNode || v.Tag != "!!int" || v.Decode(&code) != nil {
							l.errorf(v, "surfaces: cli: exit_codes: %s must be an integer", k.Value)
							return
						}
						if exit(v, code) {
							c.Surfaces.CLI.ExitCodes[o] = code
						}
					})
				}
			}
			m.done("form", "default_exit_code", "exit_codes")
		}
	}
	sec.done("problem_type_base", "cli")
}

func refToName(origins []*Origin, name string) (*Origin, bool) {
	for _, o := range origins {
		if o.Name == name {
			return o, true
		}
	}
	return nil, false
}
