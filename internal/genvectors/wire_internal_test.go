package genvectors

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/orderedjson"
)

// with and without copy the objects on their path and share the rest: the
// object they start from is never changed (every section shares the
// examples), and what they do not touch is not copied.
func TestWithCopiesOnlyThePath(t *testing.T) {
	inner := object{{Key: "d", Value: 2}}
	o := object{{Key: "a", Value: object{{Key: "b", Value: 1}}}, {Key: "c", Value: inner}, {Key: "e", Value: orderedjson.Object{{Key: "f", Value: 3}}}}
	before, _ := raw(o)
	w := o.with("a.b", 9).with("a.x", 8).with("e.f", 7).with("n.m", 6)
	wo := o.without("a.b").without("c.d").without("e.f")
	if after, _ := raw(o); !bytes.Equal(before, after) {
		t.Errorf("with and without changed the object they started from:\n%s\nnow\n%s", before, after)
	}
	if got, _ := raw(w); string(got) != `{"a":{"b":9,"x":8},"c":{"d":2},"e":{"f":7},"n":{"m":6}}` {
		t.Errorf("with: %s", got)
	}
	if got, _ := raw(wo); string(got) != `{"a":{},"c":{},"e":{}}` {
		t.Errorf("without: %s", got)
	}
	if c, _ := w.get("c"); &c.(object)[0] != &inner[0] {
		t.Error("with copied an object off its path")
	}
	if f, ok := w.get("e.f"); !ok || f != 7 {
		t.Errorf("get through an orderedjson.Object: %v %v", f, ok)
	}
}

// tokenPastLimits is pastLimits as it read every document before
// validPastLimits: token by token.
func tokenPastLimits(doc []byte, depth int) bool {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) || err != nil {
			return false
		}
		switch t := tok.(type) {
		case json.Delim:
			if t == '[' || t == '{' {
				if depth++; depth > contract.MaxDepth {
					return true
				}
			} else {
				depth--
			}
		case json.Number:
			if f, _ := strconv.ParseFloat(string(t), 64); math.IsInf(f, 0) {
				return true
			}
		}
	}
}

// A document known to be JSON is read byte by byte: the same answers as
// token by token, strings holding brackets, quotes and numbers included.
func TestValidPastLimitsAsTokens(t *testing.T) {
	docs := []string{`{"a":1}`, `{"a":1e999}`, `{"a":"1e999"}`, `{"a":"x\"1e999 [[["}`, `{"x":-1e400,"y":[]}`,
		strings.Repeat("[", 128) + strings.Repeat("]", 128), strings.Repeat("[", 129) + strings.Repeat("]", 129),
		`{"k\\":[1,2.5e3,true,null,"]]]",{"z":-0.0}]}`, `{"n":1` + strings.Repeat("0", 309) + `}`, `{"n":1` + strings.Repeat("0", 308) + `}`,
		`"s"`, `12`, `1e999`, ` { "a" : [ 1E400 ] } `}
	for _, d := range docs {
		if !json.Valid([]byte(d)) {
			t.Fatalf("not JSON: %s", d)
		}
		for _, depth := range []int{0, 1, contract.MaxDepth - 1} {
			if got, want := validPastLimits([]byte(d), depth), tokenPastLimits([]byte(d), depth); got != want {
				t.Errorf("%.40s at depth %d: %v, token by token %v", d, depth, got, want)
			}
		}
	}
}
