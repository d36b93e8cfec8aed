package genvectors

import (
	"encoding/json"
	"strings"
	"testing"

	"path/filepath"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/orderedjson"
)

// sanitizeProofByFragment is sanitizeProof as it was written before proof:
// the text lowered, then searched for each fragment in turn. The one-pass
// reading must answer as it does.
func sanitizeProofByFragment(c *contract.Contract, s string) bool {
	if len(s) > c.Sanitize.MaxLength {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	lower := strings.ToLower(s)
	hit := func(fragments []string) bool {
		for _, f := range fragments {
			if strings.Contains(lower, strings.ToLower(f)) {
				return true
			}
		}
		return false
	}
	if hit(riskyText) || hit(c.Sanitize.Markers) || hit(contract.BuiltinSecretPrefixes) {
		return false
	}
	for _, p := range c.Sanitize.Secrets {
		if hit(p.Prefixes) {
			return false
		}
	}
	for i := 0; i < len(lower); i++ {
		if lower[i] != ':' && lower[i] != '=' {
			continue
		}
		j := i
		for j > 0 && (lower[j-1] == ' ' || lower[j-1] == '\t') {
			j--
		}
		for n := 0; n < 2 && j > 0 && strings.IndexByte("\"'\\", lower[j-1]) >= 0; n++ {
			j--
		}
		k := j
		for k > 0 && isKeyChar(lower[k-1]) {
			k--
		}
		key := lower[k:j]
		if key == "auth" {
			return false
		}
		for _, r := range riskyKeys {
			if strings.Contains(key, r) {
				return false
			}
		}
	}
	return true
}

// proof answers as the fragment-by-fragment search on texts made of every
// contract's fragments, cut, cased and joined at random, and of the texts
// its vectors check, for every test contract (and again when the contracts
// alternate, so that the cached reading of one is never used for another).
func TestProofMatchesFragmentSearch(t *testing.T) {
	cs := testContracts(t)
	var pieces []string
	for _, c := range cs {
		pieces = append(pieces, c.Sanitize.Markers...)
		for _, sp := range c.Sanitize.Secrets {
			pieces = append(pieces, sp.Prefixes...)
		}
		for _, k := range c.Kinds {
			pieces = append(pieces, k.Name, k.Description)
		}
	}
	pieces = append(pieces, riskyText...)
	pieces = append(pieces, riskyKeys...)
	pieces = append(pieces, contract.BuiltinSecretPrefixes...)
	pieces = append(pieces, "auth", "Auth", ":", "=", " ", "\t", "\"", "'", "\\", "x", "AUTH", "é", "\x7f", "\x01", "K", "\u212a")
	rnd := uint32(7)
	next := func(n int) int { rnd = rnd*1664525 + 1013904223; return int(rnd>>8) % n }
	texts := []string{"", shortMessage, proxyText, strings.Repeat("a", 300), strings.Repeat("a", 300) + "Bearer"}
	for range 1500 {
		var b strings.Builder
		for range next(6) + 1 {
			p := pieces[next(len(pieces))]
			if len(p) > 1 && next(3) == 0 {
				p = p[next(len(p)):]
			}
			if next(2) == 0 {
				p = strings.ToUpper(p)
			}
			b.WriteString(p)
		}
		texts = append(texts, b.String())
	}
	answers := map[bool]int{}
	for round := range 2 {
		for name, c := range cs {
			for _, s := range texts {
				got, want := sanitizeProof(c, s), sanitizeProofByFragment(c, s)
				if got != want {
					t.Fatalf("%s (round %d): sanitizeProof(%q) = %v, the fragment search %v", name, round, s, got, want)
				}
				answers[got]++
			}
		}
	}
	// Both answers, often: texts that all fail (or all pass) would judge
	// nothing.
	if answers[true] < 500 || answers[false] < 500 {
		t.Errorf("answers %v: want both often", answers)
	}
}

// appendIn copies a text's escaped bytes into a longer text that holds it
// only where that gives what escaping the longer text whole gives: texts
// made of pieces that need escapes, cut anywhere, with the piece at the
// right offset or not, and a surface vector whose body, problem document
// and CLI line share awkward text.
func TestAppendInMatchesStr(t *testing.T) {
	pieces := []string{"{", "}", "a", "\"", "\\", "\n", "\x01", "é", "\xff", "\xe2\x80", "\xa8", "\u2028", "<&>", "x\"y", " "}
	rnd := uint32(3)
	next := func(n int) int { rnd = rnd*1664525 + 1013904223; return int(rnd>>8) % n }
	text := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(pieces[next(len(pieces))])
		}
		return b.String()
	}
	copied := 0
	for range 20000 {
		inner := text(next(5) + 1)
		before, after := text(next(3)), text(next(3))
		s := before + inner + after
		at := len(before)
		if next(4) == 0 {
			at = next(len(s)+2) - 1
		}
		esc := orderedjson.AppendEscaped(nil, inner, false)
		e := escapedText{inner, esc}
		if next(2) == 0 {
			e = e.tail()
			at++
		}
		want := str(nil, s)
		got := e.appendIn(nil, s, at)
		if string(got) != string(want) {
			t.Fatalf("%q holding %q at %d: got %s, want %s", s, e.text, at, got, want)
		}
		if e.text != "" && at >= 0 && at+len(e.text) <= len(s) && s[at:at+len(e.text)] == e.text {
			copied++
		}
	}
	if copied < 5000 {
		t.Errorf("only %d texts held the piece where appendIn was told", copied)
	}
	for range 2000 {
		body := text(next(6) + 1)
		v := SurfaceVec{Name: "n", Envelope: json.RawMessage("{}"), Log: json.RawMessage("null"),
			HTTP:    HTTPForm{Headers: map[string]string{}, Body: body, Envelope: json.RawMessage("{}")},
			Problem: HTTPForm{Headers: map[string]string{}, Envelope: json.RawMessage("{}")}}
		switch next(3) {
		case 0:
			v.Problem.Body, v.CLI = text(2)+body[min(1, len(body)):], body+"\n"
		case 1:
			v.Problem.Body, v.CLI = text(2), `{"ok":false,"error":`+body+"}\n"
		default:
			v.Problem.Body, v.CLI = body, text(3)
		}
		want, err := orderedjson.AppendCompact(nil, v.AsObject())
		if err != nil {
			t.Fatal(err)
		}
		if got := v.appendJSON(nil); string(got) != string(want) {
			t.Fatalf("%+v:\ngot  %s\nwant %s", v, got, want)
		}
	}
}

// testContracts are the shipped contracts, the examples' and every valid
// test contract.
func testContracts(t *testing.T) map[string]*contract.Contract {
	var paths []string
	for _, glob := range []string{"../../contract/kinds.yaml", "../../examples/*/kinds.yaml", "../contract/testdata/valid/*/kinds.yaml"} {
		found, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, found...)
	}
	cs := map[string]*contract.Contract{}
	for _, p := range paths {
		c, err := contract.LoadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		cs[p] = c
	}
	if len(cs) < 4 {
		t.Fatalf("only %d contracts", len(cs))
	}
	return cs
}

// shortFormOf reads a body it was told is the short form of two strings as
// it reads the body parsed: every response of the HTTP vectors, each kind's
// among them, and kinds and messages that are not UTF-8 or hold escapes.
func TestShortFormReadWithoutParse(t *testing.T) {
	told := 0
	for name, c := range testContracts(t) {
		sf := newShortFormSpec(c)
		rs := shortFormResponses(c)
		for _, k := range []string{c.Kinds[0].Name, "a\xffb", "q\"uote", "\u2028", ""} {
			for _, m := range []string{shortMessage, "", "\xff", "line\nbreak"} {
				rs = append(rs, shortFormResponse("x", 502, jsonHeaders(), k, m))
			}
		}
		for _, r := range rs {
			if !r.short {
				continue
			}
			told++
			if r.body != shortFormBody(r.kind, r.message) {
				t.Errorf("%s: body %s, the short form of its strings %s", name, r.body, shortFormBody(r.kind, r.message))
			}
			parsed := r
			parsed.short, parsed.kind, parsed.message = false, "", ""
			k1, m1, ok1 := shortFormOf(c, sf, r)
			k2, m2, ok2 := shortFormOf(c, sf, parsed)
			if k1 != k2 || m1 != m2 || ok1 != ok2 {
				t.Errorf("%s: %s: told (%q, %q, %v), parsed (%q, %q, %v)", name, r.body, k1, m1, ok1, k2, m2, ok2)
			}
		}
	}
	if told < 100 {
		t.Errorf("only %d responses told their short form", told)
	}
}
