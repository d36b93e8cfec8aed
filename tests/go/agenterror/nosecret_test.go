package agenterror_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/errgen/errgen/gen/go/agenterror"
)

// The "no secret through any path" property of issue 28: a token of every
// secret shape the default policy knows (tests/testdata/nosecret.json),
// padded every way the data file lists, put in every carrier a receiver
// may pass on and observed through every output, never shows more than
// the data file's max_run consecutive characters of its body. Trusted
// text (NewTrusted, assigning a field, the setter of a field the contract
// does not list in sanitize.fields) is the producer's own choice and out
// of scope: it is used here only to play the upstream that writes a wire
// form, which a reader then decodes. Every reader is in scope with every
// field, listed or not: what a reader receives is the sender's.
//
// ERRGEN_NOSECRET_SEED and ERRGEN_NOSECRET_CASES override the seed and the
// count (make fuzz).

type nsShape struct {
	Name     string   `json:"name"`
	Prefixes []string `json:"prefixes"`
	Class    string   `json:"class"`
	Min      int      `json:"min"`
	Max      int      `json:"max"`
	Lead     string   `json:"lead"`
	Tail     string   `json:"tail"`
}

type nsShrinker struct {
	Open  string `json:"open"`
	Fill  string `json:"fill"`
	Close string `json:"close"`
}

type nsData struct {
	Bound struct {
		MaxRun int `json:"max_run"`
	} `json:"bound"`
	Classes   map[string]string `json:"classes"`
	Shapes    []nsShape         `json:"shapes"`
	Deletable [][2]int          `json:"deletable"`
	Shrinkers []nsShrinker      `json:"shrinkers"`
	Paddings  map[string]string `json:"paddings"`
	Cases     map[string]int    `json:"cases"`
}

// nsToken is one token put in a text: its shape, its whole text (prefix,
// body, tail) and its body, the part no output may show more than max_run
// characters of in a row.
type nsToken struct {
	shape, text, body string
	grams             *nsGramSet
}

type nsGen struct {
	d        *nsData
	r        *rand.Rand
	paddings []string
	maxLen   int
	window   int
	cut      int
}

func (g *nsGen) pick(list []string) string { return list[g.r.IntN(len(list))] }

func (g *nsGen) runOf(class string, n int) string {
	chars := g.d.Classes[class]
	b := make([]byte, n)
	for i := range b {
		b[i] = chars[g.r.IntN(len(chars))]
	}
	return string(b)
}

func (g *nsGen) token() nsToken {
	s := g.d.Shapes[g.r.IntN(len(g.d.Shapes))]
	n := s.Min + g.r.IntN(s.Max-s.Min+1)
	var body string
	switch s.Class {
	case "jwt":
		body = g.runOf("base64url", n) + "." + g.runOf("base64url", 4+g.r.IntN(s.Max-3))
		if g.r.IntN(2) == 0 {
			body += "." + g.runOf("base64url", 4+g.r.IntN(s.Max-3))
		}
	case "userinfo":
		body = g.runOf("alnum", 4) + ":" + g.runOf("alnum", n-5)
	default:
		body = g.runOf(s.Class, n)
	}
	p := g.pick(s.Prefixes)
	return nsToken{shape: s.Name, text: s.Lead + p + body + s.Tail, body: body}
}

// words is n code points of lower-case words, ending with a space.
func (g *nsGen) words(n int) string {
	if n <= 0 {
		return ""
	}
	b := make([]byte, n)
	next := 3 + g.r.IntN(6)
	for i := range b {
		if i == next {
			b[i] = ' '
			next = i + 3 + g.r.IntN(6)
		} else {
			b[i] = byte('a' + g.r.IntN(26))
		}
	}
	b[n-1] = ' '
	return string(b)
}

func (g *nsGen) deletable(n int) string {
	var b strings.Builder
	for range n {
		rg := g.d.Deletable[g.r.IntN(len(g.d.Deletable))]
		b.WriteRune(rune(rg[0] + g.r.IntN(rg[1]-rg[0]+1)))
	}
	return b.String()
}

// inside puts deletable characters between a token's characters.
func (g *nsGen) inside(s string) string {
	var b strings.Builder
	for i, c := range s {
		if i > 0 && g.r.IntN(3) == 0 {
			b.WriteString(g.deletable(1 + g.r.IntN(3)))
		}
		b.WriteRune(c)
	}
	return b.String()
}

// shrink is n code points (n >= 60) of earlier secrets that sanitizing
// redacts to a few characters.
func (g *nsGen) shrink(n int) string {
	var b strings.Builder
	for n > 0 {
		s := g.d.Shrinkers[g.r.IntN(len(g.d.Shrinkers))]
		m := n
		if n > 400 && g.r.IntN(2) == 0 {
			m = 200 + g.r.IntN(n-200)
		}
		fill := m - utf8.RuneCountInString(s.Open) - utf8.RuneCountInString(s.Close)
		if fill < 12 {
			b.WriteString(strings.Repeat(" ", m))
			break
		}
		b.WriteString(s.Open + strings.Repeat(s.Fill, fill) + s.Close)
		n -= m
	}
	return b.String()
}

func runes(s string) int { return utf8.RuneCountInString(s) }

// text builds one padded text and the tokens in it.
func (g *nsGen) text(padding string) (string, []nsToken) {
	t := g.token()
	after := " " + g.words(1+g.r.IntN(12))
	edge := func() int { return g.r.IntN(runes(t.text) + 2) } // how far into the token an edge falls
	switch padding {
	case "none":
		return g.words(g.r.IntN(40)) + t.text + after, []nsToken{t}
	case "deletable_before":
		return g.deletable(g.r.IntN(9001)) + g.words(g.r.IntN(20)) + t.text + after, []nsToken{t}
	case "deletable_inside":
		return g.words(g.r.IntN(40)) + g.inside(t.text) + after, []nsToken{t}
	case "window_deletable":
		w := g.words(g.r.IntN(30))
		return g.deletable(g.window-edge()-runes(w)) + w + t.text + after, []nsToken{t}
	case "window_shrink":
		w := g.words(g.r.IntN(30))
		return g.shrink(g.window-edge()-runes(w)) + w + t.text + after, []nsToken{t}
	case "truncation_edge":
		return g.words(g.cut-edge()) + t.text + after, []nsToken{t}
	case "shrink_truncation":
		// Every shrinker is redacted to at most 26 characters; the words
		// put the token near the cut once it is.
		s := g.shrink(100 + g.r.IntN(5000))
		return s + g.words(g.cut-edge()-g.r.IntN(40)) + t.text + after, []nsToken{t}
	default: // many
		var b strings.Builder
		var toks []nsToken
		for range 2 + g.r.IntN(4) {
			p := []string{"none", "deletable_before", "deletable_inside"}[g.r.IntN(3)]
			s, ts := g.text(p)
			b.WriteString(s)
			toks = append(toks, ts...)
		}
		return b.String(), toks
	}
}

// nsObs is one observed output of one carrier.
type nsObs struct{ output, text string }

// nsOutputs renders e through every output: string forms, log forms and
// surface writers. A writer that refuses the envelope shows nothing.
func nsOutputs(e *agenterror.Envelope) []nsObs {
	var out []nsObs
	add := func(name, s string) { out = append(out, nsObs{name, s}) }
	add("Error", e.Error())
	for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
		add("fmt"+verb, fmt.Sprintf(verb, e))
	}
	wrapped := fmt.Errorf("call failed: %w", e)
	add("Errorf%w", wrapped.Error())
	var lb bytes.Buffer
	log.New(&lb, "", 0).Print(e)
	add("log.Print", lb.String())
	for _, h := range []struct {
		name string
		make func(io.Writer) slog.Handler
	}{
		{"slog.text", func(w io.Writer) slog.Handler { return slog.NewTextHandler(w, nil) }},
		{"slog.json", func(w io.Writer) slog.Handler { return slog.NewJSONHandler(w, nil) }},
	} {
		var b bytes.Buffer
		slog.New(h.make(&b)).Warn("tool call failed", "error", e)
		add(h.name, b.String())
		b.Reset()
		slog.New(h.make(&b)).Warn("tool call failed", "error", wrapped)
		add(h.name+"(%w)", b.String())
	}
	if b, err := e.AppendJSON(nil); err == nil {
		add("json", string(b))
	}
	for _, accept := range []string{"", "application/problem+json"} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", "/x", nil)
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		e.WriteHTTP(rec, req)
		name := "http"
		if accept != "" {
			name = "http(problem)"
		}
		add(name+".body", rec.Body.String())
		add(name+".headers", fmt.Sprint(rec.Header()))
	}
	if b, err := e.Problem("/x"); err == nil {
		add("problem", string(b))
	}
	if r, err := e.ToolResult(); err == nil {
		b, _ := json.Marshal(r)
		add("mcp", string(b))
	}
	if b, err := e.AIP193(); err == nil {
		add("aip193", string(b))
	}
	if s, err := e.RPCStatus(); err == nil {
		b, _ := json.Marshal(s)
		add("grpc", fmt.Sprintf("%+v %s", *s, b))
	}
	var cb bytes.Buffer
	if err := e.WriteCLI(&cb, "deploy"); err == nil {
		add("cli", cb.String())
	}
	return out
}

var nsKinds = []agenterror.Kind{agenterror.KindAuthFailed, agenterror.KindUpstreamError, agenterror.KindNotFound, agenterror.KindTimeout, agenterror.KindForbidden, agenterror.KindUnknownAction}

// nsDirect are the carriers a producer fills through the sanitizing API:
// the constructors, the setter of each field the contract lists in
// sanitize.fields (field names it; a setter of a field the contract does
// not list takes the producer's own text and is out of scope, so it is a
// carrier only when the package's SanitizedFields lists its field), and
// WithExtra.
var nsDirect = []struct {
	name, field string
	make        func(r *rand.Rand, text string) *agenterror.Envelope
}{
	{"New", "", func(r *rand.Rand, s string) *agenterror.Envelope {
		return agenterror.New(nsKinds[r.IntN(len(nsKinds))], s)
	}},
	{"NewAuthFailed", "", func(_ *rand.Rand, s string) *agenterror.Envelope { return agenterror.NewAuthFailed(s) }},
	{"NewForbidden", "", func(_ *rand.Rand, s string) *agenterror.Envelope { return agenterror.NewForbidden(s, []string{"repo"}) }},
	{"WithCause", "cause", func(_ *rand.Rand, s string) *agenterror.Envelope {
		return agenterror.NewUpstreamError("upstream failed").WithCause(s)
	}},
	{"WithGuidance", "guidance", func(_ *rand.Rand, s string) *agenterror.Envelope {
		return agenterror.NewUpstreamError("upstream failed").WithGuidance(s)
	}},
	{"WithService", "service", func(_ *rand.Rand, s string) *agenterror.Envelope {
		return agenterror.NewUpstreamError("upstream failed").WithService(s)
	}},
	{"WithResource", "resource", func(_ *rand.Rand, s string) *agenterror.Envelope {
		return agenterror.NewNotFound("no such thing").WithResource(s)
	}},
	{"WithEvidence", "evidence", func(_ *rand.Rand, s string) *agenterror.Envelope {
		return agenterror.NewUpstreamError("upstream failed").WithEvidence(map[string]any{"body": s})
	}},
	{"WithExtra", "", func(_ *rand.Rand, s string) *agenterror.Envelope {
		return agenterror.NewUpstreamError("upstream failed").WithExtra("x_note", s)
	}},
	{"WithExtra(nested)", "", func(_ *rand.Rand, s string) *agenterror.Envelope {
		return agenterror.NewUpstreamError("upstream failed").WithExtra("x_obj", map[string]any{"list": []any{"a", map[string]any{"text": s}}})
	}},
}

// nsListed reports whether the contract lists field in sanitize.fields.
func nsListed(field string) bool {
	for _, f := range agenterror.SanitizedFields {
		if f == field {
			return true
		}
	}
	return false
}

// nsUpstream builds the envelope an upstream sends, with the text in field.
func nsUpstream(field, s string) *agenterror.Envelope {
	e := agenterror.NewTrusted(agenterror.KindUpstreamError, "upstream failed")
	switch field {
	case "message":
		e.Message = s
	case "cause":
		e.Cause = s
	case "guidance":
		e.Recovery.Guidance = s
	case "service":
		e.Service = s
	case "kind":
		e.Kind = agenterror.Kind(s)
	case "origin":
		e.Origin = agenterror.Origin(s)
	case "action":
		e.Recovery.Action = agenterror.RecoveryAction(s)
	case "same_arguments":
		e.Recovery.SameArguments = agenterror.SameArguments(s)
	case "side_effects":
		e.SideEffects = agenterror.SideEffects(s)
	case "extra":
		e.Extra = map[string]any{"x_note": s}
	case "extra(nested)":
		e.Extra = map[string]any{"x_obj": map[string]any{"list": []any{"a", map[string]any{"text": s}}}}
	}
	return e
}

// The kind and the enumerated values are the sender's too (a reader
// sanitizes them as any text).
var nsFields = []string{"message", "cause", "guidance", "service", "kind", "origin", "action", "same_arguments", "side_effects", "extra", "extra(nested)"}

func nsResponse(status int, contentType string, body []byte) *http.Response {
	return &http.Response{
		StatusCode: status,
		Status:     strconv.Itoa(status) + " " + http.StatusText(status),
		Header:     http.Header{"Content-Type": []string{contentType}},
		Body:       io.NopCloser(bytes.NewReader(body)),
	}
}

// nsReaders decode an upstream's envelope (or body) carrying the text in
// a field; each returns nil when it reads nothing (never a leak).
var nsReaders = []struct {
	name   string
	fields []string
	read   func(field, s string) *agenterror.Envelope
}{
	{"json", nsFields, func(f, s string) *agenterror.Envelope {
		b, err := nsUpstream(f, s).AppendJSON(nil)
		if err != nil {
			return nil
		}
		var e agenterror.Envelope
		if e.UnmarshalJSON(b) != nil {
			return nil
		}
		return &e
	}},
	{"http", nsFields, func(f, s string) *agenterror.Envelope { return nsHTTPRoundTrip(nsUpstream(f, s), "") }},
	{"http(problem)", nsFields, func(f, s string) *agenterror.Envelope {
		return nsHTTPRoundTrip(nsUpstream(f, s), "application/problem+json")
	}},
	{"http(short)", []string{"message"}, func(_, s string) *agenterror.Envelope {
		b, _ := json.Marshal(map[string]string{"kind": "auth_failed", "message": s})
		e, _ := agenterror.ReadHTTP(nsResponse(401, "application/json", b))
		return e
	}},
	{"http(text)", []string{"message"}, func(_, s string) *agenterror.Envelope {
		e, _ := agenterror.ReadHTTP(nsResponse(502, "text/plain", []byte(s)))
		return e
	}},
	{"aip193", nsFields, func(f, s string) *agenterror.Envelope {
		b, err := nsUpstream(f, s).AIP193()
		if err != nil {
			return nil
		}
		e, _ := agenterror.FromAIP193(b)
		return e
	}},
	{"grpc", nsFields, func(f, s string) *agenterror.Envelope {
		st, err := nsUpstream(f, s).RPCStatus()
		if err != nil {
			return nil
		}
		return agenterror.FromRPCStatus(st)
	}},
	{"cli", nsFields, func(f, s string) *agenterror.Envelope {
		var b bytes.Buffer
		if nsUpstream(f, s).WriteCLI(&b, "deploy") != nil {
			return nil
		}
		e, _ := agenterror.ReadCLI(b.Bytes())
		return e
	}},
	{"mcp", nsFields, func(f, s string) *agenterror.Envelope {
		r, err := nsUpstream(f, s).ToolResult()
		if err != nil {
			return nil
		}
		e, _ := agenterror.FromToolResult(r)
		return e
	}},
}

func nsHTTPRoundTrip(src *agenterror.Envelope, accept string) *agenterror.Envelope {
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/x", nil)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	src.WriteHTTP(rec, req)
	e, _ := agenterror.ReadHTTP(rec.Result())
	return e
}

// nsGrams maps body's substrings of n bytes (n <= 8), packed into
// integers, to where they start in body, so that an output is read once
// per token.
type nsGramSet struct {
	at    map[uint64]int
	bloom [1024]uint64 // a quick no for most of an output's bytes
}

func nsHash(x uint64) uint64 { return (x * 0x9e3779b97f4a7c15) >> 48 }

func nsGrams(body string, n int) *nsGramSet {
	g := &nsGramSet{at: map[uint64]int{}}
	m := g.at
	for i := 0; i+n <= len(body); i++ {
		var x uint64
		for j := 0; j < n; j++ {
			x = x<<8 | uint64(body[i+j])
		}
		if _, ok := m[x]; !ok {
			m[x] = i
		}
		h := nsHash(x)
		g.bloom[h>>6] |= 1 << (h & 63)
	}
	return g
}

// nsRun is the longest run of consecutive characters of body found in
// out, and where it starts in out, when it is longer than maxRun; 0
// otherwise. (A substring of n bytes that occurs twice in a random body
// is measured from its first place only: a run can be found shorter than
// it is, never longer.)
func nsRun(out, body string, grams *nsGramSet, maxRun int) (run, at int) {
	n := maxRun + 1
	mask := uint64(1)<<(8*n) - 1
	var x uint64
	for i := 0; i < len(out); i++ {
		x = (x<<8 | uint64(out[i])) & mask
		if i+1 < n {
			continue
		}
		if h := nsHash(x); grams.bloom[h>>6]&(1<<(h&63)) == 0 {
			continue
		}
		bi, ok := grams.at[x]
		if !ok {
			continue
		}
		start := i + 1 - n
		k := n
		for start+k < len(out) && bi+k < len(body) && out[start+k] == body[bi+k] {
			k++
		}
		if k > run {
			run, at = k, start
		}
	}
	return run, at
}

type nsLeak struct {
	count              int
	shapes, paddings   map[string]bool
	run                int
	example, exampleAt string
}

func TestNoSecretThroughAnyPath(t *testing.T) {
	raw, err := os.ReadFile("../../testdata/nosecret.json")
	if err != nil {
		t.Fatal(err)
	}
	var d nsData
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	if d.Bound.MaxRun < 1 || d.Bound.MaxRun > 7 {
		t.Fatalf("bound.max_run %d: this harness packs max_run+1 bytes into a uint64", d.Bound.MaxRun)
	}
	seed := uint64(20261207)
	if s := os.Getenv("ERRGEN_NOSECRET_SEED"); s != "" {
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("ERRGEN_NOSECRET_SEED: %v", err)
		}
	}
	cases := d.Cases["go"]
	if s := os.Getenv("ERRGEN_NOSECRET_CASES"); s != "" {
		if cases, err = strconv.Atoi(s); err != nil {
			t.Fatalf("ERRGEN_NOSECRET_CASES: %v", err)
		}
	}
	g := &nsGen{d: &d, r: rand.New(rand.NewPCG(seed, 0x6e6f736563726574)), maxLen: agenterror.SanitizeMaxLength}
	g.window = 4 * g.maxLen
	g.cut = g.maxLen - utf8.RuneCountInString(agenterror.SanitizeTruncationMarker)
	for p := range d.Paddings {
		g.paddings = append(g.paddings, p)
	}
	sort.Strings(g.paddings)

	// The carriers: every direct one, then every reader with every field
	// it carries; case i uses carrier i mod len(carriers), so that each
	// is tried about cases/len(carriers) times with random shapes and
	// paddings.
	type carrier struct {
		name string
		make func(r *rand.Rand, s string) *agenterror.Envelope
	}
	var carriers []carrier
	for _, c := range nsDirect {
		if c.field == "" || nsListed(c.field) {
			carriers = append(carriers, carrier{c.name, c.make})
		}
	}
	for _, rd := range nsReaders {
		for _, f := range rd.fields {
			carriers = append(carriers, carrier{"read." + rd.name + "." + f, func(_ *rand.Rand, s string) *agenterror.Envelope { return rd.read(f, s) }})
		}
	}

	leaks := map[string]*nsLeak{}
	observations, leaking, unread := 0, 0, 0
	for i := range cases {
		c := carriers[i%len(carriers)]
		padding := g.paddings[g.r.IntN(len(g.paddings))]
		text, toks := g.text(padding)
		e := c.make(g.r, text)
		if e == nil {
			unread++
			continue
		}
		for _, o := range nsOutputs(e) {
			observations++
			for ti := range toks {
				tk := &toks[ti]
				if tk.grams == nil {
					tk.grams = nsGrams(tk.body, d.Bound.MaxRun+1)
				}
				n, at := nsRun(o.text, tk.body, tk.grams, d.Bound.MaxRun)
				if n == 0 {
					continue
				}
				leaking++
				key := c.name + " | " + o.output
				l := leaks[key]
				if l == nil {
					l = &nsLeak{shapes: map[string]bool{}, paddings: map[string]bool{}}
					leaks[key] = l
				}
				l.count++
				l.shapes[tk.shape] = true
				l.paddings[padding] = true
				if n > l.run {
					l.run = n
					l.example = fmt.Sprintf("case %d: %d of %d body characters of %s", i, n, len(tk.body), tk.shape)
					l.exampleAt = strconv.Quote(o.text[max(0, at-24):min(len(o.text), at+n+16)])
				}
				break
			}
		}
	}
	t.Logf("no secret through any path: seed %d, cases %d, carriers %d, outputs observed %d (unread %d), leaks %d in %d classes (bound: at most %d consecutive body characters)",
		seed, cases, len(carriers), observations, unread, leaking, len(leaks), d.Bound.MaxRun)
	// go test shows a passing test's output only with -v: the seed and the
	// counts also go to build/nosecret.go.txt, which make test-go prints.
	summary := fmt.Sprintf("nosecret (go agent-error): seed %d, cases %d, carriers %d, observations %d, unread %d, leaks %d\n", seed, cases, len(carriers), observations, unread, leaking)
	fmt.Print(summary)
	if err := os.MkdirAll("../../../build", 0o755); err == nil {
		_ = os.WriteFile("../../../build/nosecret.go.txt", []byte(summary), 0o644)
	}
	if len(leaks) == 0 {
		return
	}
	// One line per carrier and set of outputs that leaked the same shapes
	// under the same paddings.
	type group struct {
		carrier, sig string
		outputs      []string
		count, run   int
		example      string
	}
	groups := map[string]*group{}
	for k, l := range leaks {
		carrier, output, _ := strings.Cut(k, " | ")
		sig := "shapes " + nsSet(l.shapes) + "; paddings " + nsSet(l.paddings)
		gk := carrier + "\x00" + sig
		gr := groups[gk]
		if gr == nil {
			gr = &group{carrier: carrier, sig: sig}
			groups[gk] = gr
		}
		gr.outputs = append(gr.outputs, output)
		gr.count += l.count
		if l.run > gr.run {
			gr.run, gr.example = l.run, l.example+" in "+output+": "+l.exampleAt
		}
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		gr := groups[k]
		sort.Strings(gr.outputs)
		fmt.Fprintf(&b, "\n  %s -> %s: %d (%s)\n      e.g. %s", gr.carrier, strings.Join(gr.outputs, ","), gr.count, gr.sig, gr.example)
	}
	t.Errorf("%d leak classes (carrier | output) in %d lines (carrier -> outputs: leaks (shapes; paddings)); seed %d:%s", len(leaks), len(groups), seed, b.String())
}

func nsSet(m map[string]bool) string {
	s := make([]string, 0, len(m))
	for k := range m {
		s = append(s, k)
	}
	sort.Strings(s)
	return strings.Join(s, ",")
}
