// Package readerdiff generates the differential reader vectors: seeded
// inputs for every reader of an envelope — the envelope's JSON decoder, the
// HTTP reader (envelope bodies, labby's short form, problem documents and
// anything else, with a status and headers), the AIP-193 reader, the CLI
// line reader and the MCP tool-result reader — with the Go package's
// answers. The inputs start from the conformance vectors' own inputs and
// are mutated: bytes flipped, cut or repeated, members given twice or
// dropped, numbers at and past the limits, nesting around MaxDepth, strings
// with ill-formed UTF-8 and lone surrogate escapes, white space around CLI
// lines, Retry-After variants, statuses and content types. The TypeScript,
// Python and Rust tests read every case through the same reader and must
// give the same answer (make reader-diff writes the file;
// docs/architecture.md and docs/testing.md say where).
package readerdiff

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/errgen/errgen/tests/go/seeded"
)

// The readers a case can be for.
const (
	ReaderEnvelope = "envelope" // UnmarshalJSON / parseEnvelopeJson / from_json / from_slice
	ReaderHTTP     = "http"     // ReadHTTP / fromHttpResponse / from_http_response / read_http
	ReaderAIP193   = "aip193"   // FromAIP193 / fromAip193 / from_aip193 / from_aip193
	ReaderCLI      = "cli"      // ReadCLI / readCli / read_cli / read_cli
	ReaderMCP      = "mcp"      // FromToolResult / fromMcpToolResult / from_mcp_tool_result / from_tool_result
)

// Readers lists the readers in the order the file's counts name them.
var Readers = []string{ReaderEnvelope, ReaderHTTP, ReaderAIP193, ReaderCLI, ReaderMCP}

// Config is what a run generates from.
type Config struct {
	Seed uint64
	// N is the number of seeded cases (the crafted ones come on top).
	N int
	// Vectors is the conformance vector file the seeds are taken from.
	Vectors []byte
}

// Header is one HTTP header line; a name may come more than once.
type Header struct{ Name, Value string }

// Case is one input for one reader.
type Case struct {
	Name   string
	Reader string
	// Input is the document (envelope, AIP-193, CLI line, tool result) or,
	// for ReaderHTTP, the body.
	Input []byte
	// Status and Headers are ReaderHTTP's.
	Status  int
	Headers []Header
	// Mutations names what was done to the seed, for coverage.
	Mutations []string
}

// Mutations lists every mutation a large enough run applies; the test
// checks that each occurs.
var Mutations = []string{
	"seed", "flip", "truncate", "insert-byte", "repeat-bytes", "dup-member", "drop-member", "add-member",
	"number-limit", "deep", "string-bad", "type-swap", "embedded", "cli-space", "status", "content-type",
	"retry-after", "retry-after-twice", "date", "header-case", "short-form", "problem", "no-body", "other-body",
	"mcp-structured", "mcp-text", "mcp-items",
}

// rng is the seeded stream (tests/go/seeded), salted with this
// generator's own constant.
type rng = seeded.RNG

func newRNG(seed uint64) *rng { return seeded.New(seed, 0xD1B54A32D192ED03) }

func pick[T any](r *rng, list []T) T { return seeded.Pick(r, list) }

// seeds are the conformance vectors' inputs, by reader.
type seeds struct {
	envelopes [][]byte // envelopes, malformed inputs, edges
	http      []Case   // the http vectors and the surfaces' HTTP answers
	aip193    [][]byte
	cli       [][]byte
	kinds     []string
}

func loadSeeds(vectors []byte) (*seeds, error) {
	var v struct {
		Envelopes []struct {
			Envelope json.RawMessage `json:"envelope"`
		} `json:"envelopes"`
		Malformed []struct {
			Input json.RawMessage `json:"input"`
		} `json:"malformed"`
		Edges []struct {
			Text  *string `json:"text"`
			Bytes []byte  `json:"bytes"`
		} `json:"edges"`
		HTTP []struct {
			Name    string            `json:"name"`
			Status  int               `json:"status"`
			Headers map[string]string `json:"headers"`
			Body    string            `json:"body"`
		} `json:"http"`
		Surfaces []struct {
			HTTP, Problem struct {
				Status  int               `json:"status"`
				Headers map[string]string `json:"headers"`
				Body    string            `json:"body"`
			}
			CLI string `json:"cli"`
		} `json:"surfaces"`
		AIP193Encode []struct {
			AIP193 string `json:"aip193"`
		} `json:"aip193_encode"`
		AIP193Decode []struct {
			AIP193 string `json:"aip193"`
		} `json:"aip193_decode"`
		Lookup []struct {
			Kind string `json:"kind"`
		} `json:"lookup"`
	}
	if err := json.Unmarshal(vectors, &v); err != nil {
		return nil, fmt.Errorf("readerdiff: reading the conformance vectors: %w", err)
	}
	s := &seeds{}
	for _, e := range v.Envelopes {
		s.envelopes = append(s.envelopes, e.Envelope)
	}
	for _, m := range v.Malformed {
		s.envelopes = append(s.envelopes, m.Input)
	}
	for _, e := range v.Edges {
		if e.Text != nil {
			s.envelopes = append(s.envelopes, []byte(*e.Text))
		} else {
			s.envelopes = append(s.envelopes, e.Bytes)
		}
	}
	headers := func(h map[string]string) []Header {
		var out []Header
		for _, k := range []string{"content-type", "retry-after", "date"} {
			if val, ok := h[k]; ok {
				out = append(out, Header{k, val})
			}
		}
		return out
	}
	for _, h := range v.HTTP {
		s.http = append(s.http, Case{Name: h.Name, Status: h.Status, Headers: headers(h.Headers), Input: []byte(h.Body)})
	}
	for _, sf := range v.Surfaces {
		s.http = append(s.http,
			Case{Status: sf.HTTP.Status, Headers: headers(sf.HTTP.Headers), Input: []byte(sf.HTTP.Body)},
			Case{Status: sf.Problem.Status, Headers: headers(sf.Problem.Headers), Input: []byte(sf.Problem.Body)})
		s.cli = append(s.cli, []byte(sf.CLI))
	}
	for _, a := range v.AIP193Encode {
		s.aip193 = append(s.aip193, []byte(a.AIP193))
	}
	for _, a := range v.AIP193Decode {
		s.aip193 = append(s.aip193, []byte(a.AIP193))
	}
	for _, l := range v.Lookup {
		s.kinds = append(s.kinds, l.Kind)
	}
	if len(s.envelopes) == 0 || len(s.http) == 0 || len(s.aip193) == 0 || len(s.cli) == 0 || len(s.kinds) == 0 {
		return nil, errors.New("readerdiff: the conformance vectors lack envelopes, http, aip193, surfaces or lookup")
	}
	return s, nil
}

// Generate makes cfg.N seeded cases; the same Config always gives the same
// cases.
func Generate(cfg Config) ([]Case, error) {
	s, err := loadSeeds(cfg.Vectors)
	if err != nil {
		return nil, err
	}
	r := newRNG(cfg.Seed)
	cases := make([]Case, cfg.N)
	for i := range cases {
		g := &gen{r: r, s: s}
		var c Case
		switch p := r.Intn(100); {
		case p < 25:
			c = g.envelope()
		case p < 55:
			c = g.http()
		case p < 70:
			c = g.aip193()
		case p < 85:
			c = g.cli()
		default:
			c = g.mcp()
		}
		c.Mutations = g.mutations
		c.Name = fmt.Sprintf("%s %d: %s", c.Reader, i, strings.Join(g.mutations, ", "))
		cases[i] = c
	}
	return cases, nil
}

// gen builds one case.
type gen struct {
	r         *rng
	s         *seeds
	mutations []string
}

func (g *gen) mark(m string) {
	for _, have := range g.mutations {
		if have == m {
			return
		}
	}
	g.mutations = append(g.mutations, m)
}

// mutate changes a JSON document: most often through its tree, sometimes
// its bytes; now and then it is left as it is.
func (g *gen) mutate(doc []byte) []byte {
	r := g.r
	if r.Chance(12) {
		g.mark("seed")
		return doc
	}
	if t, err := parseTree(doc); err == nil && r.Chance(80) {
		for n := r.Between(1, 2); n > 0; n-- {
			g.mutateTree(&t)
		}
		doc = t.bytes()
		if !r.Chance(15) {
			return doc
		}
	}
	return g.mutateBytes(doc)
}

// interesting are the bytes a flip or an insertion writes.
var interesting = []byte("{}[],:\"\\ 0-.eE+tfn\x00\x1f\x7f\x80\xbf\xc0\xe2\xed\xf0\xff\t\n")

func (g *gen) mutateBytes(doc []byte) []byte {
	r := g.r
	doc = append([]byte(nil), doc...)
	switch r.Intn(4) {
	case 0:
		if len(doc) > 0 {
			g.mark("flip")
			doc[r.Intn(len(doc))] = pick(r, interesting)
			return doc
		}
		fallthrough
	case 1:
		g.mark("truncate")
		return doc[:r.Intn(len(doc)+1)]
	case 2:
		g.mark("insert-byte")
		at := r.Intn(len(doc) + 1)
		return append(doc[:at:at], append([]byte{pick(r, interesting)}, doc[at:]...)...)
	}
	g.mark("repeat-bytes")
	if len(doc) == 0 {
		return doc
	}
	at := r.Intn(len(doc))
	end := min(len(doc), at+r.Between(1, 40))
	return append(doc[:end:end], append(append([]byte(nil), doc[at:end]...), doc[end:]...)...)
}

// limitNumbers are numbers at and just past the limits every decoder
// shares (a 64-bit float's range, 2^53-1 for integers), and forms of the
// same integer.
var limitNumbers = []string{
	"0", "-0", "1.0", "1e0", "1E+0", "0.5", "-1", "1.5e3", "1500.0",
	"9007199254740991", "9007199254740992", "9007199254740993", "-9007199254740991", "-9007199254740992",
	"9223372036854775807", "18446744073709551616",
	"1e308", "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "1.8e308",
	"1e309", "2e308", "1e999", "-1e999", "4.9e-324", "1e-400", "1e-999", "-1e-999",
	"1" + strings.Repeat("0", 308), "1" + strings.Repeat("0", 309), "-" + "1" + strings.Repeat("0", 309),
	strings.Repeat("9", 309) + ".5", "0." + strings.Repeat("0", 400) + "1",
}

// badStrings are the JSON texts of strings (quotes included) that hold
// what a decoder must replace or reject: lone surrogate escapes, ill-formed
// UTF-8, controls, white space only.
var badStrings = []string{
	`""`, `" "`, `"\u00a0"`, `"\ud800"`, `"\udc00x"`, `"a\ud83d"`, `"\ud83d\ude80"`, `"\ud800\ud800"`,
	"\"\xff\"", "\"a\xc0\xafb\"", "\"\xed\xa0\x80\"", "\"\xf0\x9f\x98\"", "\"\xe2\x82\"", `"\u0000"`,
	`"\u2028\u2029"`, `"\u0085"`, `"\ufeff"`, `"x\ty"`, `"\\"`, `"\/"`, `"\u202e"`,
	`"ghp_` + strings.Repeat("a1B2", 9) + `"`, `"Bearer abcdefghijklmnopqrstuvwx"`,
}

// otherValues replace a value with one of another type.
var otherValues = []string{"null", "true", "false", "[]", "{}", "0", `"1"`, `[""]`, `{"a":1}`, "[null]"}

// unknownKeys are member names the contract does not define (or nearly
// does); a lone surrogate escape and an ill-formed byte among them.
var unknownKeys = []string{`"x"`, `"x_extension"`, `"Kind"`, `"kind "`, `"_promoted_from"`, `"\ud800"`, "\"\xff\"", `""`, `"__proto__"`, `"constructor"`, `"recovery.x"`}

func (g *gen) value() *node {
	r := g.r
	switch r.Intn(5) {
	case 0:
		g.mark("number-limit")
		return leaf([]byte(pick(r, limitNumbers)))
	case 1:
		g.mark("string-bad")
		return leaf([]byte(pick(r, badStrings)))
	case 2:
		g.mark("deep")
		return nested(r.Between(125, 132), r.Chance(50))
	}
	g.mark("type-swap")
	return leaf([]byte(pick(r, otherValues)))
}

// nested is a value of depth levels: arrays, or objects, around 0.
func nested(depth int, objects bool) *node {
	n := leaf([]byte("0"))
	for i := 0; i < depth; i++ {
		if objects {
			n = &node{kind: nodeObject, members: []member{{key: []byte(`"a"`), val: n}}}
		} else {
			n = &node{kind: nodeArray, items: []*node{n}}
		}
	}
	return n
}

// mutateTree makes one change to the tree.
func (g *gen) mutateTree(root **node) {
	r := g.r
	all := spots(root)
	sp := pick(r, all)
	switch r.Intn(9) {
	case 0, 1:
		if sp.n.kind == nodeObject && len(sp.n.members) > 0 {
			g.mark("dup-member")
			i := r.Intn(len(sp.n.members))
			m := member{key: sp.n.members[i].key, val: sp.n.members[i].val.clone()}
			if r.Chance(50) {
				m.val = g.value()
			}
			at := r.Intn(len(sp.n.members) + 1)
			sp.n.members = append(sp.n.members[:at:at], append([]member{m}, sp.n.members[at:]...)...)
			return
		}
	case 2:
		if sp.n.kind == nodeObject && len(sp.n.members) > 0 {
			g.mark("drop-member")
			i := r.Intn(len(sp.n.members))
			sp.n.members = append(sp.n.members[:i:i], sp.n.members[i+1:]...)
			return
		}
	case 3:
		if sp.n.kind == nodeObject {
			g.mark("add-member")
			v := g.value()
			if v.kind != nodeLeaf && r.Chance(50) {
				// Aim the nesting at the document's limit, wherever it is.
				v = nested(max(1, r.Between(126, 130)-sp.depth), r.Chance(50))
			}
			sp.n.members = append(sp.n.members, member{key: []byte(pick(r, unknownKeys)), val: v})
			return
		}
	case 4:
		// A string holding JSON (AIP-193 metadata) is mutated inside.
		var holders []spot
		for _, c := range all {
			if s, ok := c.n.unquote(); ok && (strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[")) {
				holders = append(holders, c)
			}
		}
		if len(holders) > 0 {
			c := pick(r, holders)
			s, _ := c.n.unquote()
			if inner, err := parseTree([]byte(s)); err == nil {
				g.mark("embedded")
				if r.Chance(30) {
					// Nesting around MaxDepth and far past it, as in issue 28
					// item 6's extra metadata.
					inner = &node{kind: nodeObject, members: []member{{key: []byte(`"x"`), val: nested(r.Between(127, 201), r.Chance(50))}}}
					g.mark("deep")
				} else {
					g.mutateTree(&inner)
				}
				c.set(leaf(quote(string(inner.bytes()))))
				return
			}
		}
	}
	// Otherwise a leaf (or any value) is replaced.
	v := g.value()
	if v.kind != nodeLeaf {
		v = nested(max(1, r.Between(126, 130)-sp.depth+1), r.Chance(50))
	}
	if sp.depth == 1 && r.Chance(70) {
		return // keep the document an object most of the time
	}
	sp.set(v)
}

// cliSpaces are the characters around a CLI line: white space as Go,
// JavaScript, Python and Rust each define it, and characters none of them
// trims.
var cliSpaces = []string{
	" ", "\t", "\n", "\r\n", "\v", "\f", "\u0085", "\u00a0", "\u1680", "\u2000", "\u2007", "\u200a", "\u2028",
	"\u2029", "\u202f", "\u205f", "\u3000", "\ufeff", "\u200b", "\u180e", "\x1c", "\x1d", "\x1e", "\x1f", "\x00",
}

func (g *gen) envelope() Case {
	doc := pick(g.r, g.s.envelopes)
	return Case{Reader: ReaderEnvelope, Input: g.mutate(doc)}
}

func (g *gen) aip193() Case {
	return Case{Reader: ReaderAIP193, Input: g.mutate(pick(g.r, g.s.aip193))}
}

func (g *gen) cli() Case {
	r := g.r
	var line []byte
	if r.Chance(70) {
		line = bytes.TrimRight(pick(r, g.s.cli), "\n")
	} else {
		line = pick(r, g.s.envelopes)
	}
	if r.Chance(60) {
		line = g.mutate(line)
	} else {
		g.mark("seed")
	}
	if r.Chance(50) {
		g.mark("cli-space")
		var pre, post string
		for n := r.Between(0, 2); n > 0; n-- {
			pre += pick(r, cliSpaces)
		}
		for n := r.Between(0, 2); n > 0; n-- {
			post += pick(r, cliSpaces)
		}
		line = append(append([]byte(pre), line...), post...)
	}
	return Case{Reader: ReaderCLI, Input: line}
}

// statuses are the statuses an HTTP case may get.
var statuses = []int{200, 201, 204, 299, 300, 301, 304, 399, 400, 401, 403, 404, 408, 409, 418, 422, 429, 499, 500, 501, 502, 503, 504, 599}

var contentTypes = []string{
	"", "application/json", "application/json; charset=utf-8", "APPLICATION/JSON", "application/problem+json",
	"application/vnd.api+json", "text/plain", "text/html; charset=utf-8", "application/json;", "application/json; charset",
	"application/ json", "json", "application/problem+json; charset=utf-8", "application/octet-stream", "*/*",
}

var retryAfters = []string{
	"0", "5", " 7 ", "120", "-1", "1.5", "5, 10", "9223372036854775", "9223372036854775807", "9223372036854775808",
	"99999999999999999999", "abc", "", "+5", "05", "Wed, 21 Oct 2015 07:28:00 GMT", "Fri, 31 Dec 9999 23:59:59 GMT",
	"Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
}

// A Date header with a Retry-After date makes the answer independent of the
// clock; without one only a date long past or far ahead is used.
var dates = []string{"Wed, 21 Oct 2015 07:28:00 GMT", "Sun, 06 Nov 1994 08:48:00 GMT", "garbage"}

func (g *gen) http() Case {
	r := g.r
	seed := pick(r, g.s.http)
	c := Case{Reader: ReaderHTTP, Status: seed.Status, Input: seed.Input}
	c.Headers = append(c.Headers, seed.Headers...)
	switch r.Intn(8) {
	case 0:
		g.mark("short-form")
		kind := pick(r, g.s.kinds)
		if r.Chance(20) {
			kind = pick(r, []string{"Status", "x", "a_", "a" + strings.Repeat("b", 127), "a" + strings.Repeat("b", 128), ""})
		}
		body := &node{kind: nodeObject, members: []member{{key: []byte(`"kind"`), val: str(kind)}, {key: []byte(`"message"`), val: str("m")}}}
		for n := r.Between(0, 2); n > 0; n-- {
			g.mutateTree(&body)
		}
		c.Input = body.bytes()
		c.Status = pick(r, statuses[4:])
		c.Headers = []Header{{"content-type", "application/json"}}
	case 1:
		g.mark("other-body")
		c.Input = []byte(pick(r, []string{"<html><body>502 Bad Gateway</body></html>", "upstream connect error", "", " ", "null", "[]", "\"x\"", "{", "{}", "rate limit exceeded, retry later", "\xff\xfe{}"}))
	case 2:
		g.mark("no-body")
		c.Input = nil
	default:
		c.Input = g.mutate(c.Input)
	}
	if r.Chance(35) {
		g.mark("status")
		c.Status = pick(r, statuses)
	}
	if r.Chance(30) {
		g.mark("content-type")
		c.Headers = setHeader(c.Headers, "content-type", pick(r, contentTypes))
		if r.Chance(10) {
			c.Headers = append(c.Headers, Header{"content-type", pick(r, contentTypes)})
		}
	}
	if r.Chance(30) {
		g.mark("retry-after")
		ra := pick(r, retryAfters)
		c.Headers = setHeader(c.Headers, "retry-after", ra)
		if strings.Contains(ra, ":") && !strings.Contains(ra, "9999") && !strings.Contains(ra, "1994") && !strings.Contains(ra, "2015") || r.Chance(20) {
			g.mark("date")
			c.Headers = setHeader(c.Headers, "date", pick(r, dates))
		}
		if r.Chance(15) {
			g.mark("retry-after-twice")
			c.Headers = append(c.Headers, Header{"retry-after", pick(r, []string{"10", "3", "x"})})
		}
	}
	if r.Chance(15) {
		g.mark("header-case")
		for i := range c.Headers {
			c.Headers[i].Name = pick(r, []string{strings.ToUpper(c.Headers[i].Name), canonical(c.Headers[i].Name)})
		}
	}
	// A Retry-After date a little ahead with no Date header would depend
	// on the clock: it is dated.
	for _, h := range c.Headers {
		if strings.EqualFold(h.Name, "retry-after") && strings.Contains(h.Value, ":") && headerValue(c.Headers, "date") == "" &&
			!strings.Contains(h.Value, "9999") {
			c.Headers = append(c.Headers, Header{"date", dates[0]})
		}
	}
	if bytes.HasPrefix(c.Input, []byte(`{"type"`)) {
		g.mark("problem")
	}
	return c
}

func canonical(name string) string {
	parts := strings.Split(name, "-")
	for i, p := range parts {
		if p != "" {
			parts[i] = strings.ToUpper(p[:1]) + p[1:]
		}
	}
	return strings.Join(parts, "-")
}

func setHeader(hs []Header, name, value string) []Header {
	out := hs[:0:0]
	for _, h := range hs {
		if !strings.EqualFold(h.Name, name) {
			out = append(out, h)
		}
	}
	return append(out, Header{name, value})
}

func headerValue(hs []Header, name string) string {
	for _, h := range hs {
		if strings.EqualFold(h.Name, name) {
			return h.Value
		}
	}
	return ""
}

// mcp builds a tool result: structuredContent (an envelope, mutated only in
// ways every host's JSON parser reads alike), text items holding an
// envelope's text (mutated in any way: it is a string to the host), both or
// neither.
func (g *gen) mcp() Case {
	r := g.r
	tr := &node{kind: nodeObject}
	env := pick(r, g.s.envelopes)
	if r.Chance(60) {
		g.mark("mcp-structured")
		sc := leaf([]byte("null"))
		// A seed with a member given twice (the edges have some) goes only
		// into text items, as the mutations below give none.
		if t, err := parseTree(env); err == nil && !t.repeatsMember() && r.Chance(90) {
			for n := r.Between(0, 2); n > 0; n-- {
				g.structuralMutation(&t)
			}
			sc = t
		}
		tr.members = append(tr.members, member{key: []byte(`"structuredContent"`), val: sc})
	}
	items := &node{kind: nodeArray}
	if r.Chance(75) {
		g.mark("mcp-text")
		for n := r.Between(1, 3); n > 0; n-- {
			text := g.mutate(pick(r, g.s.envelopes))
			if r.Chance(30) {
				g.mark("cli-space")
				text = append(append([]byte(pick(r, cliSpaces)), text...), pick(r, cliSpaces)...)
			}
			typ := "text"
			if r.Chance(15) {
				g.mark("mcp-items")
				typ = pick(r, []string{"image", "resource", "Text", ""})
			}
			// The host reads the item's text as a JSON string: ill-formed
			// UTF-8 in it would be the host's problem, not the reader's.
			item := &node{kind: nodeObject, members: []member{
				{key: []byte(`"type"`), val: str(typ)},
				{key: []byte(`"text"`), val: str(strings.ToValidUTF8(string(text), "\uFFFD"))},
			}}
			items.items = append(items.items, item)
		}
	}
	tr.members = append(tr.members, member{key: []byte(`"content"`), val: items}, member{key: []byte(`"isError"`), val: leaf([]byte("true"))})
	if r.Chance(20) {
		g.mark("mcp-items")
		tr.members = tr.members[1:]
	}
	return Case{Reader: ReaderMCP, Input: tr.bytes()}
}

// structuralMutation changes a tree only in ways every host's JSON parser
// reads the same: members dropped, types swapped, nesting around MaxDepth.
// A member given twice is not among them: the host of a TypeScript, Python
// or Rust reader (JSON.parse, json.loads, serde_json) keeps only the last,
// while Go's ToolResult keeps structuredContent as raw JSON with both, so
// the readers would be given different values (the text items, strings to
// every host, carry members given twice instead).
func (g *gen) structuralMutation(root **node) {
	r := g.r
	sp := pick(r, spots(root))
	switch r.Intn(2) {
	case 0:
		if sp.n.kind == nodeObject && len(sp.n.members) > 0 {
			g.mark("drop-member")
			i := r.Intn(len(sp.n.members))
			sp.n.members = append(sp.n.members[:i:i], sp.n.members[i+1:]...)
			return
		}
	}
	if sp.depth == 1 {
		return
	}
	g.mark("type-swap")
	if r.Chance(30) {
		g.mark("deep")
		sp.set(nested(max(1, r.Between(126, 130)-sp.depth+1), r.Chance(50)))
		return
	}
	sp.set(leaf([]byte(pick(r, otherValues))))
}

// Crafted returns the exact inputs of issue 28's items 5, 6, 7 and 10, and
// of the disagreements the harness itself found, the same in every run.
func Crafted() []Case {
	deepArray := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	var cs []Case
	for _, x := range []string{"1e999", "1" + strings.Repeat("0", 309), deepArray(129)} {
		cs = append(cs, Case{Name: "issue 28 item 5: a short form with x: " + short(x) + " on a 404", Reader: ReaderHTTP, Status: 404,
			Headers: []Header{{"content-type", "application/json"}},
			Input:   []byte(`{"kind":"auth_failed","message":"m","x":` + x + `}`)})
	}
	cs = append(cs, Case{Name: "issue 28 item 6: an AIP-193 error with x: 1e999", Reader: ReaderAIP193,
		Input: []byte(`{"error":{"code":404,"message":"m","x":1e999}}`)})
	extra := `{"x":` + deepArray(200) + `}`
	cs = append(cs, Case{Name: "issue 28 item 6: an own-domain ErrorInfo whose extra metadata nests 200 levels", Reader: ReaderAIP193,
		Input: []byte(`{"error":{"code":429,"message":"m","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo",` +
			`"reason":"RATE_LIMITED","domain":"agent-error","metadata":{"contractVersion":"1","extra":` + string(quote(extra)) +
			`,"guidance":"g","kind":"rate_limited","origin":"budget","recoveryAction":"retry_later","sameArguments":"conditional","sideEffects":"none_expected"}}]}}`)})
	line := `{"ok":false,"command":"c","error":{"contract_version":1,"kind":"not_found","message":"m","origin":"discovery","recovery":{"action":"rediscover","same_arguments":"never","guidance":"g"},"side_effects":"none_expected"}}`
	for _, w := range []struct{ name, pre, post string }{
		{"a leading BOM", "\ufeff", ""}, {"a leading NBSP", "\u00a0", ""}, {"a leading U+0085", "\u0085", ""},
		{"a trailing U+2028", "", "\u2028"}, {"a trailing NBSP", "", "\u00a0"}, {"a trailing U+0085", "", "\u0085"},
	} {
		cs = append(cs, Case{Name: "issue 28 item 7: a CLI line with " + w.name, Reader: ReaderCLI, Input: []byte(w.pre + line + w.post)})
	}
	// Two more the harness found: a tool result with nothing to decode (a
	// plain error in Go, a missing DecodeError elsewhere), and a CLI line
	// with ill-formed UTF-8 (one U+FFFD for the run in TypeScript's readCli,
	// one a byte elsewhere).
	cs = append(cs,
		Case{Name: "readerdiff: a tool result with nothing to decode", Reader: ReaderMCP, Input: []byte(`{"content":[],"isError":true}`)},
		Case{Name: "readerdiff: a tool result with no text item", Reader: ReaderMCP, Input: []byte(`{"content":[{"type":"image","text":""}],"isError":true}`)},
		Case{Name: "readerdiff: a CLI line whose message holds an encoded surrogate (ED A0 80)", Reader: ReaderCLI,
			Input: []byte(strings.Replace(line, `"message":"m"`, "\"message\":\"\xed\xa0\x80m\"", 1))},
	)
	cs = append(cs,
		Case{Name: "issue 28 item 10: a 200 without an envelope", Reader: ReaderHTTP, Status: 200,
			Headers: []Header{{"content-type", "text/plain"}}, Input: []byte("ok")},
		Case{Name: "issue 28 item 10: a 503 with two Retry-After headers", Reader: ReaderHTTP, Status: 503,
			Headers: []Header{{"content-type", "text/plain"}, {"retry-after", "5"}, {"retry-after", "10"}}, Input: []byte("busy")},
	)
	// Found at 20,000 cases: a member given twice whose first copy is past
	// a limit (TypeScript and Python held the parsed value to the limits,
	// which keeps the last copy), two Content-Type lines (fetch joins them,
	// the others read the first), and a wrapped CLI line whose "ok" is
	// wrong and whose envelope is not JSON (Rust said value, Go syntax).
	shortForm := `{"kind":"auth_failed","message":"m"}`
	env := line[strings.Index(line, `"error":`)+len(`"error":`) : len(line)-1]
	for _, x := range []string{"1e999", "1" + strings.Repeat("0", 309), deepArray(128)} {
		twice := `{"kind":` + x + `,"kind":"not_found","message":"m","x":` + x + `,"x":1}`
		cs = append(cs,
			Case{Name: "readerdiff: an envelope whose first of two kind members is " + short(x), Reader: ReaderEnvelope,
				Input: []byte(`{"kind":` + x + `,` + env[1:])},
			Case{Name: "readerdiff: a short form whose first of two kind and x members are " + short(x), Reader: ReaderHTTP, Status: 404,
				Headers: []Header{{"content-type", "application/json"}}, Input: []byte(twice)},
			Case{Name: "readerdiff: an AIP-193 error whose first of two x members is " + short(x), Reader: ReaderAIP193,
				Input: []byte(`{"error":{"code":404,"message":"m","x":` + x + `,"x":1}}`)},
			Case{Name: "readerdiff: a wrapped CLI line whose first of two x members is " + short(x), Reader: ReaderCLI,
				Input: []byte(`{"x":` + x + `,"x":1,` + line[1:])},
			Case{Name: "readerdiff: a tool result whose text item's first of two kind members is " + short(x), Reader: ReaderMCP,
				Input: []byte(`{"content":[{"type":"text","text":` + string(quote(`{"kind":`+x+`,`+env[1:])) + `}],"isError":true}`)},
		)
	}
	for _, ct := range [][]Header{
		{{"content-type", "text/plain"}, {"content-type", "application/json"}},
		{{"content-type", "application/json"}, {"content-type", "text/plain"}},
		{{"content-type", "text/plain, application/json"}},
	} {
		cs = append(cs, Case{Name: fmt.Sprintf("readerdiff: a short form under Content-Type %q", ct), Reader: ReaderHTTP, Status: 404, Headers: ct, Input: []byte(shortForm)})
	}
	cs = append(cs, Case{Name: "readerdiff: a wrapped CLI line whose ok is {} and whose envelope is not JSON", Reader: ReaderCLI,
		Input: []byte(strings.Replace(strings.Replace(line, `"ok":false`, `"ok":{}`, 1), `"message":"m"`, `"message":"m":"n"`, 1))})
	return cs
}

func short(s string) string {
	if len(s) > 24 {
		return s[:10] + "…(" + strconv.Itoa(len(s)) + " bytes)"
	}
	return s
}

// bytesField writes b as the file holds an input: a JSON string when it is
// valid UTF-8, else base64 under another name.
func bytesField(b []byte) (string, any) {
	if bytesValid(b) {
		return "text", string(b)
	}
	return "base64", base64.StdEncoding.EncodeToString(b)
}
