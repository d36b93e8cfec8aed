package gengo_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"regexp"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/gengo"
	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/synth"
	"github.com/errgen/errgen/internal/targets"
)

// docEdges are kind descriptions at the edges of what go/doc/comment
// rewrites: the Kind constants' doc comments are written pre-formatted when
// they are one plain line, and formatted otherwise.
var docEdges = []string{
	"plain words, commas; and (parentheses)",
	"two  spaces and a trailing dot .",
	"Heading Like Words",
	"see https://example.com/x and http://a.b",
	"a [doc link] and [Kind]: https://example.com",
	"tab\there",
	"- looks like a list",
	"1. looks numbered",
	"# looks like a heading",
	"first paragraph\n\nSecond Heading\n\nthird paragraph",
	"line one\n  indented code\nline three",
	"list:\n- one\n- two",
	"quote \" backslash \\ star-slash */ /* open `tick` ${x} %s <b>&amp;",
	"non-ASCII Grüße 日本語 🚀 and U+2028 [\u2028]",
	"//go:generate not a directive here",
	"ends with a colon:",
	"  leading and trailing spaces  ",
}

// withDescriptions returns data with the descriptions of the first kinds
// replaced by descs.
func withDescriptions(t *testing.T, data []byte, descs []string) []byte {
	for i, d := range descs {
		q, err := json.Marshal(d) // a JSON string is a YAML double-quoted scalar
		if err != nil {
			t.Fatal(err)
		}
		re := regexp.MustCompile(fmt.Sprintf(`description: Synthetic failure number %d,.*`, i))
		if !re.Match(data) {
			t.Fatalf("no description of kind %d to replace", i)
		}
		data = re.ReplaceAllLiteral(data, append([]byte("description: "), q...))
	}
	return data
}

// TestGofmtClean holds the parts written pre-formatted instead of going
// through go/format (the classification table, the kindIndex and
// KindByNumber cases, the Kind constants) to gofmt's output, on contracts
// larger and more varied than the golden ones.
func TestGofmtClean(t *testing.T) {
	long := strings.Repeat("A description well past any line length. ", 10_000)
	n := 0
	contracts := map[string][]byte{
		"synth": synth.Contract(120),
		"docs":  withDescriptions(t, synth.Contract(len(docEdges)+3), docEdges),
		// Every kind numbered, so KindByNumber is generated.
		"numbered": regexp.MustCompile(`\n    group: `).ReplaceAllFunc(synth.Contract(30), func(m []byte) []byte {
			n++
			return fmt.Appendf(nil, "\n    number: %d%s", n, m)
		}),
		// Values long enough to make go/printer's alignment decisions about
		// size, but short of the bound where classificationRows hands the
		// whole file to go/format.
		"long": bytes.Replace(synth.Contract(3), []byte("description: Synthetic failure number 1,"), []byte("description: "+long+"Synthetic failure number 1,"), 1),
		// Past that bound: formatted after all, and still correct.
		"huge": bytes.Replace(synth.Contract(3), []byte("description: Synthetic failure number 1,"), []byte("description: "+long+long+long+"Synthetic failure number 1,"), 1),
	}
	if !bytes.Contains(contracts["long"], []byte(long)) {
		t.Fatal("the long description did not make it into the contract")
	}
	for name, data := range contracts {
		t.Run(name, func(t *testing.T) {
			c := gentest.LoadData(t, data)
			files, err := gengo.Generate(c, targets.Defaults(c.Name))
			if err != nil {
				t.Fatal(err)
			}
			if name == "numbered" && !bytes.Contains(files["gen/go/syntherror/classification.go"], []byte("func KindByNumber")) {
				t.Error("the numbered contract has no KindByNumber")
			}
			for p, src := range files {
				if !strings.HasSuffix(p, ".go") {
					continue
				}
				want, err := format.Source(src)
				if err != nil {
					t.Fatalf("%s: %v", p, err)
				}
				if !bytes.Equal(src, want) {
					t.Errorf("%s is not gofmt-clean", p)
				}
			}
		})
	}
}
