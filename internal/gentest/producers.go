package gentest

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/exampleenv"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// ProducerAPI is what CheckProducers needs of a generated Go package.
type ProducerAPI struct {
	// Contract is the path of the package's contract.
	Contract string
	// New and NewTrusted wrap the package's constructors of any kind:
	// func(kind, message string) any returning an *Envelope.
	New, NewTrusted func(kind, message string) any
	// Sanitize is the package's Sanitize.
	Sanitize func(string) string
	// ProducerSchema is the package's producer schema (ProducerSchema()).
	ProducerSchema []byte
	// Labby is labby's published schema, for the reference contract
	// (tests/testdata/labby); nil for the others.
	Labby []byte
}

// Adversarial is text a reader cannot see, or that the sanitizer empties, and
// text at the edges of size. Blank says when a constructor treats it as
// blank: "always", "sanitized" (once the sanitizer removed markers, bidi and
// control characters) or "never". The TypeScript and Python suites
// (producers.test.mjs, test_producers.py) use the same texts.
var Adversarial = []struct{ Name, Text, Blank string }{
	{"empty", "", "always"},
	{"blank", " \t\r\n ", "always"},
	{"wide spaces", "\u3000\u00a0\u2007\u202f", "always"},
	{"invisible", "\u200b\u200c\u200d\u2060\ufeff\u00ad", "always"},
	{"bidi only", "\u202a\u202e\u2066\u2069", "sanitized"},
	{"controls only", "\x00\x01\x1f\x7f", "sanitized"},
	{"markers only", "<system>[INST]###<<", "sanitized"},
	{"markers and blanks", " <system> \u200b [INST] ", "sanitized"},
	{"invalid UTF-8", "\xff\xfe", "never"},
	{"huge", strings.Repeat("x", 1<<18), "never"},
	{"ordinary", "the upstream said no", "never"},
}

// invisibleOnly is the specification of a blank text (docs/agents.md): only
// white space and invisible format characters.
var invisibleOnly = regexp.MustCompile("^[\t-\r \u0085\u00a0\u00ad\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u3000\ufeff]*$")

// CheckProducers holds a generated package to the rule that producers never
// emit what the producer schema rejects: for every kind, a constructor fed
// each Adversarial message (sanitized and trusted), then WithGuidance fed
// each, then WithRetryAfter fed hints at and past the edges, must build an
// envelope whose JSON the producer schema (and, for the reference contract,
// labby's published schema) accepts, with a message and guidance that are
// not blank and a hint within [0, RetryMaxHint]. It also checks the
// fallbacks themselves and that the encoder refuses an envelope without a
// kind or with a negative hint.
func CheckProducers(t *testing.T, api ProducerAPI) {
	t.Helper()
	c := Load(t, api.Contract)
	schemas := []*jsonschema.Schema{CompileSchema(t, "producer.schema.json", api.ProducerSchema)}
	if api.Labby != nil {
		schemas = append(schemas, CompileSchema(t, "labby.schema.json", api.Labby))
	}
	guidanceRequired := false
	if lf := c.Layout.Leaf(contract.SourceGuidance); lf != nil {
		guidanceRequired = !lf.Optional
	}
	check := func(t *testing.T, what string, e any) {
		t.Helper()
		out := call(t, reflect.ValueOf(e).MethodByName("MarshalJSON"))
		data := out[0].Bytes()
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: not JSON: %v", what, err)
		}
		for i, s := range schemas {
			if err := s.Validate(inst); err != nil {
				t.Errorf("%s: rejected by the %s schema: %v\n%.400s", what, [...]string{"producer", "labby"}[i], err, data)
			}
		}
		if m := field(e, "Message").String(); strings.TrimSpace(m) == "" {
			t.Errorf("%s: blank message %q", what, m)
		}
		if g := field(e, "Recovery").FieldByName("Guidance").String(); strings.TrimSpace(g) == "" && guidanceRequired {
			t.Errorf("%s: blank guidance %q", what, g)
		}
		if ms := retryAfterMs(e); ms != nil && (*ms < 0 || *ms > c.Retry.MaxHintMs) {
			t.Errorf("%s: retry hint %d outside [0, %d]", what, *ms, c.Retry.MaxHintMs)
		}
	}
	sanitizesMessage := false
	for _, f := range c.Sanitize.Fields {
		sanitizesMessage = sanitizesMessage || f == "message"
	}
	maxHint := time.Duration(c.Retry.MaxHintMs) * time.Millisecond
	for _, ex := range exampleenv.All(c) {
		k := c.Kind(exampleKind(ex))
		if k == nil {
			continue // the unknown kind's example: the producer schema rejects it by design
		}
		t.Run(k.Name, func(t *testing.T) {
			for _, a := range Adversarial {
				for _, trusted := range []bool{false, true} {
					what := fmt.Sprintf("%s, %s", k.Name, a.Name)
					ctor, seen := api.New, a.Text
					if trusted || !sanitizesMessage {
						ctor, what = api.NewTrusted, what+", trusted"
					} else {
						seen = api.Sanitize(a.Text)
					}
					e := build(t, ex, func(kind, _ string) any { return ctor(kind, a.Text) })
					check(t, what+": message", e)
					fallsBack := a.Blank == "always" || a.Blank == "sanitized" && invisibleOnly.MatchString(seen)
					if got := field(e, "Message").String(); (got == k.Description) != (fallsBack || a.Text == k.Description) {
						t.Errorf("%s: message %.80q, falls back to the description: %t", what, got, fallsBack)
					}
					call(t, reflect.ValueOf(e).MethodByName("WithGuidance"), a.Text)
					check(t, what+": guidance", e)
				}
			}
			e := build(t, ex, api.New)
			for _, d := range []time.Duration{0, 1, time.Millisecond, 999*time.Millisecond + 1, maxHint, maxHint + 1, math.MaxInt64} {
				call(t, reflect.ValueOf(e).MethodByName("WithRetryAfter"), d)
				check(t, fmt.Sprintf("%s, hint %v", k.Name, d), e)
				want := maxHint / time.Millisecond
				if d < maxHint {
					want = (d + time.Millisecond - 1) / time.Millisecond
				}
				if got := retryAfterMs(e); got == nil || *got != int64(want) {
					t.Errorf("%s: WithRetryAfter(%v) gives %v ms, want %d", k.Name, d, got, want)
				}
			}
			before := *retryAfterMs(e)
			for _, d := range []time.Duration{-1, -time.Hour, math.MinInt64} {
				call(t, reflect.ValueOf(e).MethodByName("WithRetryAfter"), d)
				if got := retryAfterMs(e); got == nil || *got != before {
					t.Errorf("%s: WithRetryAfter(%v) changed the hint to %v; a negative hint is refused", k.Name, d, got)
				}
			}
		})
	}
	t.Run("an unknown kind's blank message is the kind", func(t *testing.T) {
		e := api.New("kind_from_a_newer_contract", " ")
		if got := field(e, "Message").String(); got != "kind_from_a_newer_contract" {
			t.Errorf("message %q", got)
		}
	})
	t.Run("the encoder refuses what no decoder reads back", func(t *testing.T) {
		e := api.New(c.Kinds[0].Name, "m")
		field(e, "Kind").SetString("")
		if err := marshalErr(e); err == nil || !strings.Contains(err.Error(), "Kind is empty") {
			t.Errorf("an envelope without a kind: %v", err)
		}
		e = api.New(c.Kinds[0].Name, "m")
		neg := int64(-1)
		field(e, "Recovery").FieldByName("RetryAfterMs").Set(reflect.ValueOf(&neg))
		if err := marshalErr(e); err == nil || !strings.Contains(err.Error(), "RetryAfterMs is negative") {
			t.Errorf("a negative hint: %v", err)
		}
	})
}

func exampleKind(ex exampleenv.Example) string {
	for _, s := range ex.Set {
		if s.Leaf.Source == contract.SourceKind {
			return s.Value.(string)
		}
	}
	return ""
}

// marshalErr is the error MarshalJSON returns for e.
func marshalErr(e any) error {
	err, _ := reflect.ValueOf(e).MethodByName("MarshalJSON").Call(nil)[1].Interface().(error)
	return err
}

// CompileSchema compiles a JSON Schema (draft 2020-12 unless it says
// otherwise) registered under name, or fails the test.
func CompileSchema(t *testing.T, name string, data []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	comp := jsonschema.NewCompiler()
	comp.DefaultDraft(jsonschema.Draft2020)
	if err := comp.AddResource(name, doc); err != nil {
		t.Fatal(err)
	}
	s, err := comp.Compile(name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}
