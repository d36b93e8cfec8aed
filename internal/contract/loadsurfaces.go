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

// kindRef resolves a kind named under key. An unknown name says which key
// it is under, unless that key is kind itself.
func (l *loader) kindRef(c *Contract, m *mapping, key string, required bool) *Kind {
	if k, v := m.get(key); k != nil && key != "kind" && v.Kind == yaml.ScalarNode && v.Tag == "!!str" && !isBlank(v.Value) {
		defer func(what string) { m.what = what }(m.what)
		m.what += key + ": "
	}
	k, _ := refTo(l, m, key, required, c.Kinds, func(k *Kind) string { return k.Name }, "kind", "kinds")
	return k
}

// inbound reads how upstream failures become kinds.
func (l *loader) inbound(c *Contract, sec *mapping, key *yaml.Node) {
	if sec == nil {
		return
	}
	sec.what = "inbound: "
	in := &Inbound{Pos: l.pos(key), KeyPos: sec.keyPos()}
	in.ToolResult = l.kindRef(c, sec, "tool_result", false)
	// An agreement naming a classifier that is missing for a reason already
	// reported is not reported again.
	l.broken["inbound.classifiers"] = true
	if ck, cv := sec.get("classifiers"); ck == nil {
		sec.missingf("classifiers", sec.at, "inbound: missing required key \"classifiers\"; declare at least one classifier, e.g. model: {description: ..., default: <kind>, rules: [...]}")
	} else if cm := l.asMapping(cv, ck, "inbound: ", "classifiers"); cm != nil {
		l.broken["inbound.classifiers"] = false
		if len(cm.keys) == 0 {
			l.errorf(ck, "inbound: classifiers must not be empty; declare at least one classifier, e.g. model: {description: ..., default: <kind>, rules: [...]}")
		}
		seen := newIdentities(0)
		cm.each(func(k, v *yaml.Node) {
			l.declare("inbound.classifiers", k.Value)
			before := len(l.problems)
			defer func() {
				if len(l.problems) > before {
					// Its rules may lack kinds or conditions: an agreement
					// naming it is not evaluated (see agreements).
					l.brokenClassifiers[k.Value] = true
				}
			}()
			prefix := fmt.Sprintf("inbound: classifier %q: ", k.Value)
			m := l.asMapping(v, k, prefix, "its definition")
			if m == nil {
				return
			}
			if !namingRes[SnakeCase].MatchString(k.Value) {
				hint := "e.g. model"
				if alt := applyNaming(SnakeCase, k.Value); namingRes[SnakeCase].MatchString(alt) {
					hint = "rename it " + alt
				}
				l.errorf(k, "%sname must be snake_case, as it names generated functions (e.g. Classify%s); %s", prefix, identsFor(k.Value).Go, hint)
			}
			cl := &Classifier{Name: k.Value, Pos: l.pos(k), Idents: identsFor(k.Value)}
			cl.Description, _ = m.str("description", true)
			cl.Default = l.kindRef(c, m, "default", true)
			if rk, rv := m.get("rules"); rk == nil {
				m.missing("rules")
			} else if rv.Kind != yaml.SequenceNode {
				l.errorf(rk, "%srules must be a list of rules, each like {status: 401, kind: auth_failed}, found %s", prefix, describeNode(rv))
			} else {
				for i, item := range rv.Content {
					if r := l.rule(c, item, fmt.Sprintf("%srule %d: ", prefix, i+1)); r != nil {
						cl.Rules = append(cl.Rules, r)
					}
				}
			}
			m.done("description", "default", "rules")
			// A kind whose own definition is broken resolves to nil without
			// a problem here: the classifier cannot be evaluated either.
			usable := cl.Default != nil
			for _, r := range cl.Rules {
				usable = usable && r.Kind != nil
			}
			if !usable {
				l.brokenClassifiers[cl.Name] = true
			}
			l.collide(seen, &Value{Name: cl.Name, Pos: cl.Pos, Idents: cl.Idents}, "classifier")
			in.Classifiers = append(in.Classifiers, cl)
		})
	}
	l.agreements(c, in, sec)
	sec.done("tool_result", "classifiers", "agreements")
	c.Inbound = in
}

// statusDigits is a number that is no status, e.g. 600 or 42.
var statusDigits = regexp.MustCompile(`^[0-9]+$`)

// ruleConditions are the keys a rule matches on.
var ruleConditions = []string{"status", "failure", "text"}

// rule reads one classifier rule.
func (l *loader) rule(c *Contract, n *yaml.Node, prefix string) *Rule {
	m := l.asMapping(n, n, prefix, "the rule")
	if m == nil {
		return nil
	}
	m.what = prefix
	r := &Rule{Pos: l.pos(n)}
	items := &ruleItems{}
	l.ruleItems[r] = items
	given := 0
	// condition returns the items of a condition written as one value or
	// a list of them; nil when it is left out or an empty list.
	condition := func(key, want string) []*yaml.Node {
		k, v := m.get(key)
		if k == nil {
			return nil
		}
		given++
		if v.Kind != yaml.SequenceNode {
			return []*yaml.Node{v}
		}
		if len(v.Content) == 0 {
			l.errorf(v, "%s%s is an empty list, which would match nothing; give %s, or leave %s out", prefix, key, want, key)
		}
		return v.Content
	}
	for _, it := range condition("status", "at least one code (401), class (4xx) or range (500-599)") {
		it = deref(it)
		text := it.Value
		var sr StatusRange
		switch {
		case it.Kind != yaml.ScalarNode || it.Tag == "!!null":
			l.errorf(it, "%sstatus must be a code (401), a class (4xx), a range (500-599) or a list of them, found %s", prefix, describeNode(it))
			continue
		case statusRe.MatchString(text) && strings.HasSuffix(text, "xx"): // a class, 4xx
			class := int(text[0] - '0')
			sr.From, sr.To = class*100, class*100+99
		case statusRe.MatchString(text): // a code, 401, or a range, 500-599
			from, to, _ := strings.Cut(text, "-")
			sr.From, _ = strconv.Atoi(from)
			sr.To = sr.From
			if to != "" {
				sr.To, _ = strconv.Atoi(to)
			}
			if sr.From > sr.To {
				l.errorf(it, "%sstatus range %s runs backwards; write the lower code first (%d-%d)", prefix, text, sr.To, sr.From)
				continue
			}
		case statusDigits.MatchString(text):
			l.errorf(it, "%sstatus %s is not an HTTP status; use a code from 100 to 599", prefix, text)
			continue
		default:
			l.errorf(it, "%sstatus %q is not a code (401), a class (4xx) or a range (500-599)", prefix, text)
			continue
		}
		sr.Text = text
		r.Statuses = append(r.Statuses, sr)
		items.status = append(items.status, it)
	}
	for _, it := range condition("failure", "at least one failure") {
		it = deref(it)
		switch {
		case it.Kind == yaml.ScalarNode && it.Value == "any":
			r.AnyFailure = true
			items.any = it
		case it.Kind == yaml.ScalarNode && contains(Failures, Failure(it.Value)):
			r.Failures = append(r.Failures, Failure(it.Value))
			items.failure = append(items.failure, it)
		case it.Kind != yaml.ScalarNode || it.Tag == "!!null":
			l.errorf(it, "%sfailure must be any, one of %s, or a list of them, found %s", prefix, joinPlain(failureNames()), describeNode(it))
		default:
			l.errorf(it, "%sunknown failure %q%s; use any or one of %s", prefix, it.Value, suggest(it.Value, failureNames()), joinPlain(failureNames()))
		}
	}
	for _, it := range condition("text", "at least one word or phrase") {
		it = deref(it)
		w := strings.ToLower(it.Value)
		switch {
		case it.Kind != yaml.ScalarNode || it.Tag == "!!null":
			l.errorf(it, "%stext must be a word or phrase, or a list of them, found %s", prefix, describeNode(it))
			continue
		case !textRe.MatchString(w):
			l.errorf(it, "%stext %q must be a word or phrase of letters, digits, _, spaces, ., :, / or -, starting and ending with a letter, digit or _", prefix, it.Value)
			continue
		}
		r.Text = append(r.Text, w)
		items.text = append(items.text, it)
	}
	if given == 0 && !misspells(m, ruleConditions) {
		l.errorf(n, "%sa rule needs at least one of status, failure or text; the classifier's default covers everything else", prefix)
	}
	r.Kind = l.kindRef(c, m, "kind", true)
	if b, bn := m.boolean("breaker", false); bn != nil {
		r.Breaker = b
	} else if r.Kind != nil {
		r.Breaker = r.Kind.Breaker
	}
	m.done("status", "failure", "text", "kind", "breaker")
	return r
}

// misspells reports whether an unknown key of m is a misspelling of one of
// keys, which done then reports as such.
func misspells(m *mapping, keys []string) bool {
	allowed := append([]string{"kind", "breaker"}, keys...)
	for _, k := range m.keys {
		if !contains(allowed, k.Value) && contains(keys, closest(k.Value, allowed)) {
			return true
		}
	}
	return false
}

// retryPolicy reads the backoff policy, starting from the default.
func (l *loader) retryPolicy(c *Contract, sec *mapping, key *yaml.Node) {
	c.Retry = DefaultRetry()
	if sec == nil {
		return
	}
	sec.what = "retry: "
	c.Retry.Pos, c.Retry.KeyPos = l.pos(key), sec.keyPos()
	positive := func(name string, dst *int) {
		if v, n := sec.integer(name, false); n != nil {
			if v < 1 {
				l.errorf(n, "retry: %s must be at least 1, found %d", name, v)
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
		// Written so that NaN, which compares false with everything, fails.
		if v.Kind != yaml.ScalarNode || (v.Tag != "!!float" && v.Tag != "!!int") || v.Decode(&f) != nil || !(f >= min && f <= max) {
			l.errorf(v, "retry: %s must be %s, found %s", name, what, describeNode(v))
			return
		}
		*dst = f
	}
	if v, n := sec.integer("max_hint_ms", false); n != nil {
		if v < 1 || int64(v) > MaxHintLimitMs {
			l.errorf(n, "retry: max_hint_ms must be from 1 to %d (about 292 years, the longest wait Go's time.Duration holds), found %d", MaxHintLimitMs, v)
		} else {
			c.Retry.MaxHintMs = int64(v)
		}
	}
	fraction("multiplier", &c.Retry.Multiplier, 1, 10, "a number from 1 to 10")
	fraction("jitter", &c.Retry.Jitter, 0, 1, "a fraction from 0 to 1")
	if c.Retry.MaxMs < c.Retry.InitialMs {
		// Reported at max_ms, or at initial_ms when max_ms is the default.
		at, maxMs := key, fmt.Sprint(c.Retry.MaxMs)
		if _, n := sec.get("max_ms"); n != nil {
			at = n
		} else if _, n := sec.get("initial_ms"); n != nil {
			at, maxMs = n, maxMs+", the default"
		}
		l.errorf(at, "retry: max_ms (%s) is below initial_ms (%d); the longest delay cannot be shorter than the first, so raise max_ms or lower initial_ms", maxMs, c.Retry.InitialMs)
	}
	sec.done("initial_ms", "max_ms", "multiplier", "jitter", "max_attempts", "max_hint_ms")
}

// surfaces reads how the HTTP, problem+json and CLI surfaces render.
func (l *loader) surfaces(c *Contract, sec *mapping) {
	c.Surfaces = Surfaces{
		ProblemTypeBase: "urn:errgen:" + c.Name + ":",
		CLI:             CLI{Form: CLIEnvelope, DefaultExitCode: 1, ExitCodes: map[*Origin]int{}},
		HTTP:            HTTPReading{EchoBody: true},
		MCP:             MCP{DefaultErrorCode: JSONRPCInternalError, ErrorCodes: map[*Origin]int{}},
	}
	if l.wire != nil {
		c.Surfaces.ProblemTypeBase = l.wire.Surfaces.ProblemTypeBase
	}
	if sec == nil {
		return
	}
	sec.what = "surfaces: "
	if base, n := sec.str("problem_type_base", false); n != nil {
		if !absoluteURIRe.MatchString(base) {
			l.errorf(n, "surfaces: problem_type_base %q must be an absolute URI (e.g. https://errors.example.com/agent-error/)", base)
		}
		c.Surfaces.ProblemTypeBase = base
	}
	if ck, cv := sec.get("cli"); ck != nil {
		if m := l.asMapping(cv, ck, "surfaces: cli: ", ""); m != nil {
			m.what = "surfaces: cli: "
			if form, n := m.str("form", false); n != nil {
				if form != string(CLIEnvelope) && form != string(CLIWrapped) {
					l.errorf(n, "surfaces: cli: unknown form %q%s; use envelope (the envelope itself) or wrapped (labby's {ok: false, command, error: envelope})", form, suggest(form, []string{"envelope", "wrapped"}))
				}
				c.Surfaces.CLI.Form = CLIForm(form)
			}
			exit := func(n *yaml.Node, what string, code int) bool {
				if code < 1 || code > 125 {
					l.errorf(n, "surfaces: cli: %s must be from 1 to 125, found %d (0 means success; the shell reserves codes above 125)", what, code)
					return false
				}
				return true
			}
			if code, n := m.integer("default_exit_code", false); n != nil && exit(n, "default_exit_code", code) {
				c.Surfaces.CLI.DefaultExitCode = code
			}
			l.byOrigin(c, m, "exit_codes", "surfaces: cli: exit_codes: ", "exit codes", func(o *Origin, k, v *yaml.Node) {
				var code int
				if v.Kind != yaml.ScalarNode || v.Tag != "!!int" || v.Decode(&code) != nil {
					l.errorf(v, "surfaces: cli: exit_codes: %s must be an integer from 1 to 125, found %s", k.Value, describeNode(v))
					return
				}
				if exit(v, "exit_codes: "+k.Value, code) {
					c.Surfaces.CLI.ExitCodes[o] = code
				}
			})
			m.done("form", "default_exit_code", "exit_codes")
		}
	}
	if domain, n := sec.str("error_info_domain", false); n != nil {
		if isBlank(domain) || strings.ContainsAny(domain, " \t\r\n") {
			l.errorf(n, "surfaces: error_info_domain %q must be a name without white space (e.g. agent-error.example.com, the service that owns the reasons)", domain)
		}
		c.Surfaces.ErrorDomain = domain
	}
	if hk, hv := sec.get("http"); hk != nil {
		if m := l.asMapping(hv, hk, "surfaces: http: ", ""); m != nil {
			m.what = "surfaces: http: "
			if echo, n := m.boolean("echo_body", false); n != nil {
				c.Surfaces.HTTP.EchoBody, c.Surfaces.HTTP.Pos = echo, l.pos(n)
			}
			if name, n := m.str("status_field", false); n != nil {
				var names []string
				for _, f := range c.ContextFields {
					if f.Name == name {
						c.Surfaces.HTTP.StatusField = f
					}
					names = append(names, f.Name)
				}
				switch f := c.Surfaces.HTTP.StatusField; {
				case f == nil:
					l.errorf(n, "surfaces: http: status_field: unknown context field %q%s; name the integer context field that keeps the response's HTTP status (declare it under context_fields)%s", name, suggest(name, names), oneOf(names))
				case f.Type != TypeInteger:
					l.errorf(n, "surfaces: http: status_field: the context field %q is of type %s; the HTTP status needs an integer field", name, f.Type)
					c.Surfaces.HTTP.StatusField = nil
				}
			}
			m.done("echo_body", "status_field")
		}
	}
	if mk, mv := sec.get("mcp"); mk != nil {
		if m := l.asMapping(mv, mk, "surfaces: mcp: ", ""); m != nil {
			l.mcpSurface(c, m)
		}
	}
	sec.done("problem_type_base", "cli", "http", "error_info_domain", "mcp")
}

// metaKeyRe is an MCP _meta key: an optional prefix of dot-separated labels
// ending in a slash, then a name that starts and ends with a letter or
// digit.
var metaKeyRe = regexp.MustCompile(MetaKeyPattern)

// MetaKeyPattern is an MCP _meta key's pattern (metaKeyRe).
const MetaKeyPattern = `^(?:[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*/)?[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$`

// reservedMetaPrefix is a prefix the MCP specification keeps for itself:
// one whose second label is modelcontextprotocol or mcp.
var reservedMetaPrefix = regexp.MustCompile(`^[^./]+\.(?:modelcontextprotocol|mcp)[./]`)

// mcpSurface reads surfaces.mcp: the _meta key and the JSON-RPC error codes
// of protocol errors.
func (l *loader) mcpSurface(c *Contract, m *mapping) {
	m.what = "surfaces: mcp: "
	if key, n := m.str("meta_key", false); n != nil {
		switch {
		case !metaKeyRe.MatchString(key):
			l.errorf(n, "surfaces: mcp: meta_key %q is not an MCP _meta key: an optional reverse-DNS prefix ending in / and a name of letters, digits, -, _ and . that starts and ends with a letter or digit (e.g. com.example/error)", key)
		case reservedMetaPrefix.MatchString(key):
			l.errorf(n, "surfaces: mcp: meta_key %q uses a prefix the MCP specification reserves (a second label modelcontextprotocol or mcp); use your own domain (e.g. com.example/error)", key)
		default:
			c.Surfaces.MCP.MetaKey = key
		}
	}
	code := func(n *yaml.Node, what string) (int, bool) {
		var v int
		if n.Kind != yaml.ScalarNode || n.Tag != "!!int" || n.Decode(&v) != nil {
			l.errorf(n, "surfaces: mcp: %s must be a JSON-RPC error code (an integer, e.g. -32602), found %s", what, describeNode(n))
			return 0, false
		}
		if p := JSONRPCCodeProblem(v); p != "" {
			l.errorf(n, "surfaces: mcp: %s %d %s; use -32602 (invalid params), -32603 (internal error), a server error from -32099 to -32000, or a code outside the reserved range", what, v, p)
			return 0, false
		}
		return v, true
	}
	if _, n := m.get("default_error_code"); n != nil {
		if v, ok := code(n, "default_error_code"); ok {
			c.Surfaces.MCP.DefaultErrorCode = v
		}
	}
	l.byOrigin(c, m, "error_codes", "surfaces: mcp: error_codes: ", "error codes", func(o *Origin, k, v *yaml.Node) {
		if code, ok := code(v, "error_codes: "+k.Value); ok {
			c.Surfaces.MCP.ErrorCodes[o] = code
		}
	})
	m.done("meta_key", "default_error_code", "error_codes")
}

// oneOf is ", or use one of ..." for a non-empty list of names.
func oneOf(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return ", or use one of " + quoteList(names)
}

func refToName(origins []*Origin, name string) (*Origin, bool) {
	for _, o := range origins {
		if o.Name == name {
			return o, true
		}
	}
	return nil, false
}

// byOrigin reads m's key, a mapping of values by origin (what is its place
// in messages, e.g. "surfaces: cli: exit_codes: "), reporting an origin the
// contract does not declare, and hands each declared one to set.
func (l *loader) byOrigin(c *Contract, m *mapping, key, what, values string, set func(o *Origin, k, v *yaml.Node)) {
	ek, ev := m.get(key)
	if ek == nil {
		return
	}
	em := l.asMapping(ev, ek, what, "")
	if em == nil {
		return
	}
	em.what = what
	em.each(func(k, v *yaml.Node) {
		o, ok := refToName(c.Origins, k.Value)
		if !ok {
			if l.reported("origins", k.Value) {
				return
			}
			names := make([]string, len(c.Origins))
			for i, o := range c.Origins {
				names[i] = o.Name
			}
			l.errorf(k, "%sunknown origin %q%s; %s are given per origin, so declare it under origins or use one of %s", what, k.Value, suggest(k.Value, names), values, quoteList(names))
			return
		}
		set(o, k, v)
	})
}
