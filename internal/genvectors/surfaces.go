package genvectors

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/exampleenv"
	"github.com/errgen/errgen/internal/orderedjson"
)

// SurfaceVec is one example envelope on every surface a producer writes:
// the HTTP response of the envelope itself (an Accept header that does not
// ask for problem+json), the RFC 9457 one (Accept: application/problem+json),
// the command line's exit code and line, and the structured-log form. Every
// package writes each byte for byte (bodies and lines are UTF-8 text here)
// and reads the HTTP bodies and the CLI line back: HTTP.Envelope and
// Problem.Envelope are what its HTTP reader returns for them (a problem
// document cannot carry an envelope field named like one of its own
// members), the CLI line reads back as Envelope.
type SurfaceVec struct {
	Name     string          `json:"name"`
	Envelope json.RawMessage `json:"envelope"`
	HTTP     HTTPForm        `json:"http"`
	Problem  HTTPForm        `json:"problem"`
	ExitCode int             `json:"exit_code"`
	Command  string          `json:"command"`
	CLI      string          `json:"cli"`
	// Log is the log form (contract.LogMembers), or null when a text the
	// helpers sanitize is one a sanitizer policy might change: the vectors
	// do not carry the sanitizer (it has its own vectors).
	Log json.RawMessage `json:"log"`
}

// HTTPForm is a response a package's HTTP writer sends: the headers it
// sets, by lower-case name, and the body; Envelope is what reading it back
// gives.
type HTTPForm struct {
	Status   int               `json:"status"`
	Headers  map[string]string `json:"headers"`
	Body     string            `json:"body"`
	Envelope json.RawMessage   `json:"envelope"`
}

// AcceptVec is one request's Accept header lines and whether the HTTP
// writers answer with the problem document (else the envelope itself).
type AcceptVec struct {
	Accept  []string `json:"accept"`
	Problem bool     `json:"problem"`
}

// The command of the CLI vectors: a quote to escape, and text that no
// policy sanitizes (the CLI form writes the command as given).
const cliCommand = `deploy --target "staging"`

// surfaceVectors are the surfaces of every example envelope (one per kind,
// the unknown kind's, the one with every field) and of the richest one
// carrying members this contract does not name (Extra).
func surfaceVectors(c *contract.Contract, exs []exampleenv.Example, envs []json.RawMessage) ([]SurfaceVec, error) {
	all := withUnknownMembers(c, exs, envs, "members this contract does not name", "kept as received")

	out := make([]SurfaceVec, 0, len(all))
	// The headers of a response without a retry hint, one map for all.
	plain := map[string]map[string]string{}
	for _, media := range []string{mediaJSON, mediaProblem} {
		plain[media] = map[string]string{"content-type": media, "vary": "Accept"}
	}
	for _, n := range all {
		v, err := surfaceOf(c, n, plain)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// surfaceOf is the specification of the writers for one envelope. plain
// holds the headers of a response without a retry hint by media type, one
// map shared by the vectors (nil: a map of their own).
func surfaceOf(c *contract.Contract, n named, plain map[string]map[string]string) (SurfaceVec, error) {
	name, o := n.name, n.o
	env, err := n.wire()
	if err != nil {
		return SurfaceVec{}, err
	}
	d := decode(c, o)
	headers := func(media string) map[string]string {
		if d.RetryAfterMs == nil || *d.RetryAfterMs < 0 {
			if h := plain[media]; h != nil {
				return h
			}
			return map[string]string{"content-type": media, "vary": "Accept"}
		}
		return map[string]string{"content-type": media, "vary": "Accept",
			"retry-after": strconv.FormatInt((*d.RetryAfterMs+999)/1000, 10)}
	}
	message := leafString(c, o, contract.SourceMessage, "")

	// The problem document: its members, then the envelope's top-level
	// members it does not replace.
	cl, title := &c.Fallback.Classification, contract.UnknownKindTitle
	if k := c.Kind(d.Kind); k != nil {
		cl, title = &k.Classification, k.Description
	}
	kept := len(o) > 0
	for _, m := range o {
		if isProblemName(m.Key) {
			kept = false
			break
		}
	}
	var problem string
	back, problemBack := o, env
	if kept {
		// Every member of the envelope follows the problem's own: the
		// document is theirs, then the envelope's text after its brace
		// (env is o's compact JSON), and reads back as the envelope.
		problem = problemText(c.Surfaces.ProblemTypeBase, d.Kind, title, cl.HTTP, message, env[1:])
	} else {
		doc := append(make(object, 0, 4+len(o)), orderedjson.Member{Key: "type", Value: c.Surfaces.ProblemTypeBase + d.Kind},
			orderedjson.Member{Key: "title", Value: title}, orderedjson.Member{Key: "status", Value: cl.HTTP}, orderedjson.Member{Key: "detail", Value: message})
		for _, m := range o {
			if !isProblemName(m.Key) {
				doc = append(doc, m)
				continue
			}
			// A reader restores what the problem says or the contract fixes,
			// never an envelope's own field or object.
			if lf := topLeaf(c, m.Key); lf == nil || lf.Source == contract.SourceField {
				back, problemBack = back.without(m.Key), nil
			}
		}
		if problem, err = rawString(doc); err != nil {
			return SurfaceVec{}, err
		}
	}
	if problemBack == nil {
		if problemBack, err = raw(back); err != nil {
			return SurfaceVec{}, err
		}
	}

	// The HTTP body is the envelope's text: the CLI line's, when that is
	// the envelope alone, shares its bytes.
	line := string(env) + "\n"
	body := line[:len(env)]
	if c.Surfaces.CLI.Form == contract.CLIWrapped {
		line = `{"ok":false,"command":` + string(orderedjson.AppendString(nil, cliCommand, false)) + `,"error":` + body + "}\n"
	}
	log, err := logForm(c, o, d)
	if err != nil {
		return SurfaceVec{}, err
	}
	return SurfaceVec{
		Name: name, Envelope: env,
		HTTP:     HTTPForm{Status: cl.HTTP, Headers: headers(mediaJSON), Body: body, Envelope: env},
		Problem:  HTTPForm{Status: cl.HTTP, Headers: headers(mediaProblem), Body: problem, Envelope: problemBack},
		ExitCode: c.Surfaces.CLI.ExitCode(cl), Command: cliCommand, CLI: line, Log: log,
	}, nil
}

// problemText is the compact JSON text of a problem document whose type is
// base and kind, with its title, status and detail, then the members of
// the object whose text after its opening brace is rest: as orderedjson
// writes the object of those members.
func problemText(base, kind, title string, status int, detail string, rest []byte) string {
	scratch := rawScratch.Get().(*[]byte)
	defer rawScratch.Put(scratch)
	b := append((*scratch)[:0], `{"type":`...)
	if kind == "" || kind[0] < utf8.RuneSelf {
		// (The byte after the cut is ASCII: base and kind escape apart as
		// they do joined.)
		b = append(orderedjson.AppendEscaped(orderedjson.AppendEscaped(append(b, '"'), base, false), kind, false), '"')
	} else {
		b = str(b, base+kind)
	}
	b = str(append(b, `,"title":`...), title)
	b = appendInt(append(b, `,"status":`...), int64(status))
	b = str(append(b, `,"detail":`...), detail)
	b = append(append(b, ','), rest...)
	*scratch = b
	return string(b)
}

func isProblemName(name string) bool {
	for _, p := range contract.ProblemMembers {
		if p == name {
			return true
		}
	}
	return false
}

// topLeaf is the leaf a top-level member of the layout carries; nil for an
// object or a member the layout does not name.
func topLeaf(c *contract.Contract, name string) *contract.Leaf {
	for _, m := range c.Layout.Root.Members {
		if m.Name() == name {
			return m.Leaf
		}
	}
	return nil
}

// leafString is the string the layout carries for source s, or fallback
// when the layout does not carry it.
func leafString(c *contract.Contract, o object, s contract.Source, fallback string) string {
	if lf := c.Layout.Leaf(s); lf != nil {
		v, _ := o.get(lf.Path)
		str, _ := v.(string)
		return str
	}
	return fallback
}

// logForm is the specification of the logging helpers (contract.LogMembers)
// for one valid envelope, or null when a text they sanitize might not
// survive a sanitizer unchanged.
func logForm(c *contract.Contract, o object, d Decoded) (json.RawMessage, error) {
	cl := classificationOf(c, d.Kind)
	proof := true
	text := func(s string, sanitized bool) string {
		if sanitized && !sanitizeProof(c, s) {
			proof = false
		}
		return boundText(s)
	}
	retryable := d.IsRetryable(c)
	// Written member by member into a scratch buffer, as orderedjson
	// writes the object of these members (one for every example).
	scratch := rawScratch.Get().(*[]byte)
	defer rawScratch.Put(scratch)
	out := (*scratch)[:0]
	key := func(name string) {
		if len(out) == 0 {
			out = append(out, '{')
		} else {
			out = append(out, ',')
		}
		out = append(str(out, name), ':')
	}
	for _, m := range contract.LogMembers {
		switch m {
		case contract.LogKind:
			key(string(m))
			out = str(out, text(d.Kind, false))
		case contract.LogMessage:
			key(string(m))
			out = str(out, text(leafString(c, o, contract.SourceMessage, ""), c.Sanitize.Sanitizes("message")))
		case contract.LogOrigin:
			key(string(m))
			out = str(out, text(leafString(c, o, contract.SourceOrigin, cl.Origin.Name), false))
		case contract.LogAction:
			key(string(m))
			out = str(out, text(d.Action, false))
		case contract.LogSameArguments:
			key(string(m))
			out = str(out, text(d.SameArguments, false))
		case contract.LogSideEffects:
			key(string(m))
			out = str(out, text(d.SideEffects, false))
		case contract.LogRetryable:
			key(string(m))
			out = appendBool(out, retryable)
		case contract.LogHTTPStatus:
			key(string(m))
			out = appendInt(out, int64(cl.HTTP))
		case contract.LogRetryAfterMs:
			if d.RetryAfterMs != nil {
				key(string(m))
				out = appendInt(out, *d.RetryAfterMs)
			}
		case contract.LogFields:
			group := object{}
			for _, lf := range c.Layout.Leaves {
				if lf.Source != contract.SourceField {
					continue
				}
				v, ok := o.get(lf.Path)
				if !ok || v == nil || v == "" {
					continue
				}
				sanitized := c.Sanitize.Sanitizes(lf.Field.Name)
				switch v := v.(type) {
				case string:
					group = append(group, orderedjson.Member{Key: lf.Field.Name, Value: text(v, sanitized)})
				case bool, int, int64, float64:
					group = append(group, orderedjson.Member{Key: lf.Field.Name, Value: v})
				default:
					b, err := raw(v)
					if err != nil {
						return nil, err
					}
					// The helpers sanitize each string of the value, then its text.
					if sanitized && !stringsProof(c, v) {
						proof = false
					}
					group = append(group, orderedjson.Member{Key: lf.Field.Name, Value: text(string(b), sanitized)})
				}
			}
			if len(group) > 0 {
				key(string(m))
				var err error
				if out, err = orderedjson.AppendCompact(out, group); err != nil {
					*scratch = out
					return nil, err
				}
			}
		case contract.LogExtra:
			extra, err := extraOf(c, o)
			if err != nil {
				*scratch = out
				return nil, err
			}
			if extra != "" {
				var v any
				if err := json.Unmarshal([]byte(extra), &v); err != nil || !stringsProof(c, v) {
					proof = false
				}
				key(string(m))
				out = str(out, text(extra, true))
			}
		default:
			panic("genvectors: unhandled log member " + string(m))
		}
	}
	if len(out) == 0 {
		out = append(out, '{')
	}
	out = append(out, '}')
	*scratch = out
	if !proof {
		return json.RawMessage("null"), nil
	}
	return json.RawMessage(append(make([]byte, 0, len(out)), out...)), nil
}

// stringsProof reports whether no sanitizer policy changes a string of v,
// member names included: the log form sanitizes each string of an extra
// entry, and of a sanitized array or object field, before the text whole.
func stringsProof(c *contract.Contract, v any) bool {
	switch v := v.(type) {
	case string:
		return sanitizeProof(c, v)
	case []any:
		for _, x := range v {
			if !stringsProof(c, x) {
				return false
			}
		}
	case []string:
		for _, x := range v {
			if !sanitizeProof(c, x) {
				return false
			}
		}
	case map[string]any:
		for k, x := range v {
			if !sanitizeProof(c, k) || !stringsProof(c, x) {
				return false
			}
		}
	case object:
		for _, m := range v {
			if !sanitizeProof(c, m.Key) || !stringsProof(c, m.Value) {
				return false
			}
		}
	case orderedjson.Object:
		return stringsProof(c, object(v))
	}
	return true
}

// extraOf is the compact JSON text of the members of o the layout does not
// name, keyed by path and sorted: what a decoder keeps as Extra; "" for
// none.
func extraOf(c *contract.Contract, o object) (string, error) {
	type entry struct {
		key   string
		value any
	}
	var entries []entry
	var walk func(obj *contract.Object, o object)
	walk = func(obj *contract.Object, o object) {
		for _, m := range o {
			if !owned(obj, m.Key) {
				entries = append(entries, entry{joinPath(obj.Path, m.Key), m.Value})
				continue
			}
			for _, mm := range obj.Members {
				if mm.Object != nil && mm.Object.Name == m.Key {
					if child, ok := m.Value.(object); ok {
						walk(mm.Object, child)
					}
				}
			}
		}
	}
	walk(c.Layout.Root, o)
	if len(entries) == 0 {
		return "", nil
	}
	for i := 1; i < len(entries); i++ {
		for j := i; j > 0 && entries[j].key < entries[j-1].key; j-- {
			entries[j], entries[j-1] = entries[j-1], entries[j]
		}
	}
	ext := object{}
	for _, e := range entries {
		ext = append(ext, orderedjson.Member{Key: e.key, Value: e.value})
	}
	return rawString(ext)
}

// boundText is a log text bounded at contract.LogMaxBytes bytes, cut at a
// character boundary and ended with contract.LogEllipsis.
func boundText(s string) string {
	if len(s) <= contract.LogMaxBytes {
		return s
	}
	n := contract.LogMaxBytes
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + contract.LogEllipsis
}

// acceptVectors are Accept headers and the writers' choice for each: the
// specification is prefersProblem below, RFC 9110's content negotiation
// between the two media types.
func acceptVectors() []AcceptVec {
	cases := [][]string{
		{}, // no Accept header
		{"*/*"},
		{"application/*"},
		{"text/html"},
		{"application/json"},
		{"application/problem+json"},
		{"APPLICATION/Problem+JSON"},
		{"application/problem+json, application/json"},
		{"application/problem+json, */*"},
		{"application/problem+json, application/*"},
		{"application/problem+json;q=0.5, application/json"},
		{"application/json;q=0.5, application/problem+json"},
		{"application/problem+json; charset=utf-8; q=0.9, application/json; q=0.8"},
		{"application/json;q=0, application/problem+json;q=0.1"},
		{"application/problem+json;q=0"},
		{"application/problem+json;q=0, */*"},
		{"application/problem+json;q=abc, application/json;q=0.1"},
		{"application/problem+json;q=2"},
		{"application/problem+json;q=-0.5, application/json;q=0.1"},
		{"application/problem+json;Q=1.000, application/json;q=0.999"},
		{"application/problem+json;q=.5, application/json;q=0.4"},
		{"application/problem+json;q=, application/json;q=0.4"},
		{"application/problem+json;q=5e-1, application/json;q=0.4"},
		{"text/html, application/problem+json;q=0.9, */*;q=0.8"},
		{"application/json;q=0.1", "application/problem+json"},
		{" , ;q=1, application/problem+json"},
		{"application/problem+json/extra, application/json;q=0.5"},
		{"application/*;q=0.5, application/problem+json;q=0.5"},
	}
	out := make([]AcceptVec, len(cases))
	for i, a := range cases {
		out[i] = AcceptVec{Accept: append([]string{}, a...), Problem: prefersProblem(a)}
	}
	return out
}

// prefersProblem is the specification of the writers' negotiation: each of
// the two media types takes the quality of the most specific media range
// matching it (a range naming it, then its type's wildcard, then */*); the
// problem document is sent when its quality is higher, or equal, not zero
// and matched more specifically. An element that is empty, has no single
// "/" or a q that is not a decimal number from 0 to 1 is ignored.
func prefersProblem(lines []string) bool {
	type best struct {
		q float64
		s int
	}
	js, pr := best{0, -1}, best{0, -1}
	spec := func(rng, mt string) int {
		switch {
		case rng == mt:
			return 2
		case rng == "*/*":
			return 0
		case strings.HasSuffix(rng, "/*") && strings.HasPrefix(mt, strings.TrimSuffix(rng, "*")):
			return 1
		}
		return -1
	}
	for _, line := range lines {
	items:
		for _, item := range strings.Split(line, ",") {
			params := strings.Split(item, ";")
			rng := strings.ToLower(strings.TrimSpace(params[0]))
			if rng == "" || strings.Count(rng, "/") != 1 {
				continue
			}
			q := 1.0
			for _, p := range params[1:] {
				name, value, _ := strings.Cut(p, "=")
				if !strings.EqualFold(strings.TrimSpace(name), "q") {
					continue
				}
				v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
				if err != nil || !(v >= 0 && v <= 1) {
					continue items
				}
				q = v
			}
			if s := spec(rng, mediaJSON); s > js.s {
				js = best{q, s}
			}
			if s := spec(rng, "application/problem+json"); s > pr.s {
				pr = best{q, s}
			}
		}
	}
	if pr.q != js.q {
		return pr.q > js.q
	}
	return pr.q > 0 && pr.s > js.s
}
