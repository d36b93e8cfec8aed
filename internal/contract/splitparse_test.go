package contract

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/synth"
	"gopkg.in/yaml.v3"
)

// wholeParse is the parse of the whole document as parse does it: the
// first document, and whether it is the only one.
func wholeParse(data []byte) (*yaml.Node, bool) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if dec.Decode(&doc) != nil {
		return nil, false
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, false
	}
	return &doc, true
}

// sameTree says where two trees differ in anything the loader reads (all
// but the comments), or "".
func sameTree(a, b *yaml.Node, path string) string {
	switch {
	case a.Kind != b.Kind, a.Style != b.Style, a.Tag != b.Tag, a.Value != b.Value, a.Anchor != b.Anchor:
		return fmt.Sprintf("%s: %v %v %q %q %q, whole parse %v %v %q %q %q", path, a.Kind, a.Style, a.Tag, a.Value, a.Anchor, b.Kind, b.Style, b.Tag, b.Value, b.Anchor)
	case a.Line != b.Line || a.Column != b.Column:
		return fmt.Sprintf("%s: at %d:%d, whole parse %d:%d", path, a.Line, a.Column, b.Line, b.Column)
	case (a.Alias == nil) != (b.Alias == nil):
		return path + ": alias differs"
	case a.Alias != nil && (a.Alias.Line != b.Alias.Line || a.Alias.Column != b.Alias.Column):
		return path + ": alias names another node"
	case len(a.Content) != len(b.Content):
		return fmt.Sprintf("%s: %d children, whole parse %d", path, len(a.Content), len(b.Content))
	}
	for i := range a.Content {
		if d := sameTree(a.Content[i], b.Content[i], fmt.Sprintf("%s/%d", path, i)); d != "" {
			return d
		}
	}
	return ""
}

// checkSplit parses data in at most parts pieces and, when the split
// parse gives a tree, holds it to the whole parse. It reports whether the
// split parse gave one.
func checkSplit(t *testing.T, data []byte, parts int) bool {
	t.Helper()
	p, ok := planSplit(data, parts)
	if !ok {
		return false
	}
	got, ok := p.parse()
	if !ok {
		return false
	}
	want, ok := wholeParse(data)
	if !ok {
		t.Fatalf("the split parse gave a tree where the whole parse fails:\n%s", data)
	}
	if d := sameTree(got, want, ""); d != "" {
		t.Fatalf("the split parse differs from the whole parse: %s\n%s", d, data)
	}
	return true
}

// The pieces of a large contract join into the tree of the whole parse,
// however many there are, for the synthetic contracts and every test
// contract the split accepts.
func TestSplitParseIsTheParse(t *testing.T) {
	if !checkSplit(t, synth.Contract(3), 1<<20) {
		t.Error("3 kinds: not split")
	}
	data := synth.Contract(120)
	for _, parts := range []int{2, 3, 7, 1 << 20} {
		if !checkSplit(t, data, parts) {
			t.Errorf("120 kinds, %d pieces: not split", parts)
		}
	}
	files, err := filepath.Glob("testdata/*/*/kinds.yaml")
	if err != nil || len(files) < 100 {
		t.Fatalf("test contracts: %v, %d", err, len(files))
	}
	split := 0
	for _, f := range append(files, "../../contract/kinds.yaml") {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if checkSplit(t, data, 1<<20) {
			split++
		}
	}
	if split < len(files)/2 {
		t.Errorf("%d of %d test contracts split; the check refuses too much", split, len(files))
	}
}

// What the pieces cannot parse alone is parsed whole: each of these
// splits, or fails in a piece, before the whole parse is asked.
func TestSplitParseFallsBack(t *testing.T) {
	const head = "contract:\n  name: x\nkinds:\n"
	const tail = "fallback:\n  origin: o\n"
	kinds := func(body string) []byte { return []byte(head + body + tail) }
	plain := "  a:\n    description: one\n  b:\n    description: two\n  c:\n    description: three\n"
	for _, body := range []string{plain,
		"  a:\n  - one\n  b: x\n",                           // a sequence at the kinds' indent
		"  a: |\n    one\n\n  b: >+\n    two\n\n\n  c: x\n", // block scalars ending at a cut
		"  a:\n    x: &r 1\n    y: *r\n  b: 2\n",            // an alias in its piece
		"  a: one\n    two\n  # three\n#four\n  b: x\n",     // a plain scalar and comments
	} {
		if !checkSplit(t, kinds(body), 1<<20) {
			t.Errorf("not split:\n%s", body)
		}
	}
	for _, tt := range []struct {
		name string
		data []byte
	}{
		{"a double-quoted scalar across a cut", kinds("  a:\n    description: \"one\n  b: x\"\n  c:\n    description: three\n")},
		{"a single-quoted scalar across a cut", kinds("  a:\n    description: 'one\n  b: x'\n  c:\n    description: three\n")},
		{"a flow mapping across a cut", kinds("  a: {description: one,\n  b: x}\n  c:\n    description: three\n")},
		{"a flow sequence across a cut", kinds("  a: [one,\n  b]\n  c:\n    description: three\n")},
		{"an alias to an anchor in another piece", kinds("  a: &r\n    description: one\n  b: *r\n")},
		{"an alias to an anchor before the kinds", []byte("contract: &c\n  name: x\nkinds:\n  a: *c\n  b:\n    description: two\n" + tail)},
		{"a directive", []byte("%YAML 1.2\n---\n" + head + plain + tail)},
		{"a tag directive", []byte("%TAG !e! tag:example.com,2000:\n---\n" + head + "  a: !e!x one\n  b: !e!x two\n" + tail)},
		{"a second document", []byte(head + plain + "---\n" + tail)},
		{"a document end", []byte(head + plain + "...\n")},
		{"carriage returns", []byte(strings.ReplaceAll(head+plain+tail, "\n", "\r\n"))},
		{"a line separator", kinds("  a:\n    description: one\u2028two\n  b: x\n")},
		{"a next line", kinds("  a:\n    description: one\u0085two\n  b: x\n")},
		{"a tab before a kind", kinds("  a:\n    description: one\n\tb: x\n  c: y\n")},
		{"a line too long", kinds("  a:\n    description: " + strings.Repeat("x", maxSplitLine) + "\n  b: x\n")},
		{"a kind indented less", kinds("  a:\n    description: one\n b: x\n  c: y\n")},
		{"a sequence at the top", kinds("  a: x\n- one\n")},
		{"no kinds key", []byte("contract:\n  name: x\nkinds: {}\n")},
		{"kinds in flow", []byte("contract:\n  name: x\nkinds:\n  {a: 1,\n  b: 2}\n")},
		{"kinds: written as a scalar", []byte("contract:\n  name: x\nkinds:#x\n  a: 1\n  b: 2\n")},
		{"a key of an unplain kind", kinds("  \"a\": 1\n  b: 2\n")},
		{"kinds: inside a quoted scalar", []byte("contract:\n  name: \"x\nkinds:\n  a: 1\n  b: 2\n\"\n" + tail)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if checkSplit(t, tt.data, 1<<20) {
				t.Errorf("split; it must parse whole")
			}
		})
	}
}

// FuzzSplitParse holds the split parse to the whole parse on mutated
// contracts (make fuzz; make test runs the seeds). With a seed, the
// contract is one of TestSplitParseOnAwkwardYAML's with data written into
// it; without, data is the contract, or its kinds when it has no kinds:
// key.
func FuzzSplitParse(f *testing.F) {
	f.Add(synth.Contract(4), uint64(0), uint8(3))
	f.Add([]byte("contract:\n  name: x\nkinds:\n  a:\n    description: \"one\n  b: x\"\n  c: |\n    text\n\n  d: [1,\n   2]\n  e: &x 1\n  f: *x\nfallback: 1\n"), uint64(0), uint8(9))
	f.Add([]byte("kinds:\n  a: 'x\n\n  y'\n  b: |+\n    keep\n\n\n  c: >-\n    fold\n  # c\n  d:\n    - 1\n    - 2\n  e: x\n  # end\n"), uint64(0), uint8(255))
	f.Add([]byte("a: 1\nkinds:   # the kinds\n\n  # first\n  k1: ? x\n  k2:\n  k3: !!str 4\n  k4: \"\\u0000\"\nb:\n  - kinds\n"), uint64(0), uint8(2))
	// A body of kinds alone, which the fuzzer mutates inside the frame.
	f.Add([]byte("  a:\n    description: \"x\n  y\"\n    http: 400\n  b: &b\n    c: [1,\n  2]\n  d: *b\n  e: 'q''\n  r'\n"), uint64(0), uint8(200))
	f.Add([]byte("  z: &a0 x\n"), uint64(7), uint8(255))
	f.Add([]byte(""), uint64(33<<8|5), uint8(4))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64, parts uint8) {
		if seed != 0 {
			doc := splitCase(rand.New(rand.NewPCG(seed, 1)))
			at := int(seed>>8) % (len(doc) + 1)
			data = append(append(append([]byte(nil), doc[:at]...), data...), doc[at:]...)
		} else if !bytes.HasPrefix(data, []byte("kinds:")) && !bytes.Contains(data, []byte("\nkinds:")) {
			data = append(append([]byte("contract: {name: x}\nkinds:\n"), data...), "\nfallback:\n  http: 500\n"...)
		}
		checkSplit(t, data, int(parts))
	})
}

// loadRaw loads data as LoadWith does, returning the problems in the order
// the loader found them (before sorting) with the contract.
func loadRaw(data []byte) (*Contract, Problems) {
	s := &session{done: map[string]*loaded{}}
	out := s.load(&ImportFile{Path: "kinds.yaml", Name: "kinds.yaml", Data: data})
	return out.c, out.problems
}

// With the pieces and the kinds read side by side from the smallest
// contract on, every test contract loads to the same contract with the
// same problems, in the same order, as read in one piece on one goroutine.
func TestSideBySideLoadIsTheLoad(t *testing.T) {
	files, err := filepath.Glob("testdata/*/*/kinds.yaml")
	if err != nil || len(files) < 100 {
		t.Fatalf("test contracts: %v, %d", err, len(files))
	}
	inputs := map[string][]byte{"synth 40": synth.Contract(40)}
	for _, f := range append(files, "../../contract/kinds.yaml") {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs[f] = data
	}
	// A contract of many kinds with a problem in each of some, and kinds
	// that collide across the runs.
	var b strings.Builder
	b.Write(synth.Contract(6))
	broken := strings.Replace(b.String(), "kinds:\n", "kinds:\n  zz_first: 3\n  ZzFirst:\n    group: nope\n  zz_second:\n    origin: validation\n    http: 200\n    bogus: 1\n  request_rejected_0x: {}\n", 1)
	broken = strings.Replace(broken, "fallback:\n", "  zz-first:\n    description: again\n  Zz_Second: []\n  zz_text:\n    description: \"a\\u202eb\\0\"\n    \"\\x01\": \"\\uFEFF\"\nfallback:\n", 1)
	inputs["broken"] = []byte(broken)
	if ps := fmt.Sprint(loadRaw(inputs["broken"])); !strings.Contains(ps, "U+202E") || !strings.Contains(ps, "collides") {
		t.Fatalf("the broken contract lacks the problems it is made for: %s", ps)
	}
	if _, ok := planSplit(inputs["broken"], 4); !ok {
		t.Fatal("the broken contract is not split")
	}
	// Two goroutines at least, on any machine.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0))))
	defer func(m, k int) { splitMin, parallelKinds = m, k }(splitMin, parallelKinds)
	for name, data := range inputs {
		splitMin, parallelKinds = 1<<62, 1<<62
		wantC, wantPs := loadRaw(data)
		splitMin, parallelKinds = 0, 2
		gotC, gotPs := loadRaw(data)
		if !reflect.DeepEqual(gotPs, wantPs) {
			t.Errorf("%s: problems side by side:\n%v\nin one piece:\n%v", name, gotPs, wantPs)
		}
		if got, want := dump(gotC), dump(wantC); got != want {
			t.Errorf("%s: the contract read side by side differs:\n%s\nin one piece:\n%s", name, got, want)
		}
	}
}

// dump writes v out whole, for comparing two loads: a pointer met again as
// the number of its first visit, maps in the order of their keys' dumps
// (the keys of some are pointers, which differ between loads).
func dump(v any) string {
	var b strings.Builder
	d := dumper{seen: map[uintptr]int{}}
	d.write(&b, reflect.ValueOf(v), 0)
	return b.String()
}

type dumper struct{ seen map[uintptr]int }

func (d dumper) write(b *strings.Builder, v reflect.Value, depth int) {
	if depth > 64 {
		b.WriteString("…")
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		if d.seen != nil {
			if i, ok := d.seen[v.Pointer()]; ok {
				fmt.Fprintf(b, "@%d", i)
				return
			}
			d.seen[v.Pointer()] = len(d.seen)
		}
		b.WriteString("&")
		d.write(b, v.Elem(), depth+1)
	case reflect.Interface:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		d.write(b, v.Elem(), depth+1)
	case reflect.Struct:
		b.WriteString("{")
		for i := range v.NumField() {
			fmt.Fprintf(b, "%s:", v.Type().Field(i).Name)
			d.write(b, v.Field(i), depth+1)
			b.WriteString(" ")
		}
		b.WriteString("}")
	case reflect.Slice, reflect.Array:
		b.WriteString("[")
		for i := range v.Len() {
			d.write(b, v.Index(i), depth+1)
			b.WriteString(" ")
		}
		b.WriteString("]")
	case reflect.Map:
		type entry struct{ k, v string }
		var es []entry
		iter := v.MapRange()
		for iter.Next() {
			var kb, vb strings.Builder
			(dumper{}).write(&kb, iter.Key(), depth+1)
			(dumper{}).write(&vb, iter.Value(), depth+1)
			es = append(es, entry{kb.String(), vb.String()})
		}
		sort.Slice(es, func(i, j int) bool { return es[i].k+es[i].v < es[j].k+es[j].v })
		fmt.Fprintf(b, "map%v", es)
	case reflect.Func:
		fmt.Fprintf(b, "func:%v", !v.IsNil())
	default:
		fmt.Fprintf(b, "%#v", v)
	}
}

// splitCase writes a contract whose kinds hold the YAML the split must
// handle or refuse: scalars of every style over several lines (some with
// lines indented like a kind, or not at all), flow collections over lines,
// anchors and aliases across kinds, tags, comments anywhere, empty values,
// sequences at the kinds' indent, explicit keys and tabs.
func splitCase(r *rand.Rand) []byte {
	// Values the split takes, and values it must refuse where a cut
	// falls in them (one in twelve).
	takes := []string{
		"plain", "two words", "", "'single'", "\"double\"", "!!str 5", "!x tagged", "&a%d anchored", "~", "null",
		"plain\n      continued", "\"double\n      continued\"", "'it''s\n\n      after a blank'",
		"|\n      block\n\n      text", "|+\n      kept\n\n", "|-\n      stripped\n", ">\n      folded\n      text\n", "|2\n        indented",
		"{x: 1,\n      y: 2}", "[a,\n\n       b]", "{}", "[]", "\n      - a\n      - b", "\n    - a\n    - b",
		"\n      nested: 1\n      deeper:\n        x: y", "# a comment", "x # a comment", "\"a\\u0000b\"", "\"esc\\\n      aped\"",
	}
	refuses := []string{"\"double\n  k9: at the kinds\"", "\"double\nat the top\"", "'single\n  k9: at the kinds'",
		"[a, b,\n  c]", "{x: 1,\n  y: 2}", "\"esc\\\n  aped\"", "*a%d", "plain\n  at the kinds"}
	value := func(i int) string {
		v := takes[r.IntN(len(takes))]
		if r.IntN(12) == 0 {
			v = refuses[r.IntN(len(refuses))]
		}
		if strings.Contains(v, "%d") {
			v = fmt.Sprintf(v, r.IntN(i+1))
		}
		return v
	}
	// An anchor and an alias to it in one kind.
	anchored := func(b *strings.Builder, i int) {
		fmt.Fprintf(b, "    a: &k%d\n      x: 1\n    b: *k%d\n", i, i)
	}
	var b strings.Builder
	b.WriteString("contract:\n  name: x\n")
	if r.IntN(2) == 0 {
		b.WriteString("anchor: &a0 base\n")
	}
	b.WriteString("kinds:")
	if r.IntN(4) == 0 {
		b.WriteString("  # the kinds")
	}
	b.WriteString("\n")
	if r.IntN(3) == 0 {
		b.WriteString("\n  # first\n")
	}
	for i := range 2 + r.IntN(8) {
		switch r.IntN(16) {
		case 0:
			b.WriteString("  # between\n")
		case 1:
			b.WriteString("# at the top\n")
		case 2:
			b.WriteString("\n")
		case 3:
			if r.IntN(4) == 0 {
				b.WriteString("\t# a tab\n")
			}
		case 4:
			b.WriteString("  ? explicit\n  : value\n")
		}
		fmt.Fprintf(&b, "  k%d:", i)
		if r.IntN(4) == 0 {
			fmt.Fprintf(&b, " %s\n", value(i))
			continue
		}
		b.WriteString("\n")
		if r.IntN(6) == 0 {
			anchored(&b, i)
		}
		for j := range 1 + r.IntN(3) {
			fmt.Fprintf(&b, "    f%d: %s\n", j, value(i))
		}
	}
	switch r.IntN(8) {
	case 0:
	case 1:
		b.WriteString("- a top sequence\n")
	case 2, 3:
		b.WriteString("fallback: *a0\n")
	default:
		b.WriteString("fallback:\n  http: 500\n")
	}
	return []byte(b.String())
}

// The split parse on contracts made of awkward YAML: whatever it accepts is
// the whole parse's tree, and it accepts a good share of them.
func TestSplitParseOnAwkwardYAML(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 1))
	split := 0
	const cases = 600
	for range cases {
		data := splitCase(r)
		for _, parts := range []int{2, 1 << 20} {
			if checkSplit(t, data, parts) && parts > 2 {
				split++
			}
		}
	}
	if split < cases/4 {
		t.Errorf("%d of %d awkward contracts split", split, cases)
	}
	t.Logf("%d of %d split", split, cases)
}

// Loading a contract of 1,000 kinds (parsed in pieces and read side by
// side) allocates at most 175 times a kind: 216 at 77267497, 160 now, most
// of them yaml.v3's nodes and scalars. Allocations, unlike time, are exact
// on a shared machine.
func TestLoadAllocationsAKind(t *testing.T) {
	data := synth.Contract(1000)
	if n := testing.AllocsPerRun(2, func() {
		if _, err := Load("kinds.yaml", data); err != nil {
			t.Fatal(err)
		}
	}) / 1000; n > 175 {
		t.Errorf("loading 1,000 kinds allocates %.1f times a kind, want at most 175", n)
	}
}

// namingMatch is the naming's pattern, on names near and far from each.
func TestNamingMatchIsThePattern(t *testing.T) {
	names := []string{"", "a", "A", "_", "-", "a_b", "a__b", "a_", "_a", "a-b", "a--b", "a-", "aB", "Ab", "AB", "A_B", "A__B", "A_",
		"a1", "1a", "a_1", "A_1", "a_1b", "auth_failed", "AUTH_FAILED", "AuthFailed", "auth-failed", "a_b-c", "é", "aé", "a b", "a.b", "A1b2C3"}
	r := rand.New(rand.NewPCG(7, 7))
	const alphabet = "aZ_-09.é "
	for range 3000 {
		b := make([]byte, r.IntN(6))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		names = append(names, string(b))
	}
	for _, n := range Namings {
		for _, name := range names {
			if got, want := namingMatch(n, name), namingRes[n].MatchString(name); got != want {
				t.Errorf("namingMatch(%s, %q) = %v, the pattern says %v", n, name, got, want)
			}
		}
	}
}
