package contract

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/synth"
)

// rvInjections are kinds (or lines between kinds) that TestSideBySideLoadOnInjectedKinds
// puts among a synthetic contract's.
var rvInjections = []string{
	"  zz_dup:\n    description: first\n",
	"  zz_dup:\n    description: second\n",
	"  foo_bar:\n    description: x\n",
	"  Foo-Bar:\n    description: y\n",
	"  foo-bar:\n    group: nope\n",
	"  trusted:\n    description: t\n",
	"  constructor:\n    description: c\n",
	"  other:\n    description: o\n",
	"  zz_null:\n",
	"  zz_list: [1, 2]\n",
	"  zz_anch: &zza\n    description: anchored\n    origin: nowhere\n",
	"  zz_alias: *zza\n",
	"  <<: {x: 1}\n",
	"  ? [complex, key]\n  : {}\n",
	"  zz_num:\n    number: 7\n    description: n\n",
	"  zz_num2:\n    number: 7\n",
	"  zz_neg:\n    number: -1\n",
	"  zz_esc:\n    description: \"a\\u202eb\\0\"\n    \"\\x01\": \"\\uFEFF\"\n",
	"  zz_raw:\n    description: a\u202eb\n",
	"  zz_mcp:\n    mcp_error_code: -32700\n",
	"  zz_fields:\n    fields:\n      a-b: {type: string, description: d}\n      a_b: {type: string, description: d}\n      constructor: {type: object, description: d, properties: {hasOwnProperty: {type: string, description: x}}}\n",
	"  RequestRejected0:\n    description: collides with request_rejected_0\n",
	"  legacy_failure_0:\n    description: retired name\n",
	"  ZZ_UPPER:\n    description: naming\n",
	"  zz_grpc:\n    grpc: NOPE\n    http: 200\n",
	"  zz_tag: !!str text\n",
	"  zz_bool:\n    startup: yes\n",
	"  zz_block:\n    description: |2\n        indented\n\n       text\n    origin: validation\n",
	"  zz_fold:\n    description: >-\n      folded \\u202e\n      text\n\n",
	"# a comment at the top\n",
	"\n\n",
	"  # an indented comment\n",
	"  zz_dq:\n    description: \"multi\n      line \\u0007 escape\n\n      after blank\"\n",
	"  zz_sq:\n    description: 'it''s\n      multi'\n",
	"  zz_flow: {description: \"x\\u200b\",\n      origin: validation,\n      http: 400}\n",
	"  zz_seq:\n    - a\n    - b\n",
	"  zz_plain:\n    description: plain\n      continued \\u0000 not an escape\n",
	"  zz_tagged: !custom\n    description: x\n",
	"  zz_local_alias:\n    description: &dd \"\\u202e\"\n    origin: *dd\n",
	"  zz_merge:\n    <<: {description: m}\n",
	"  zz_dashes:\n    description: \"--- not a document\"\n",
	"  zz_keyesc:\n    \"\\u202ekey\": 1\n",
	"  \"zz_quoted_kind\":\n    description: q\n",
	"  zz_bom:\n    description: a\ufeffb\n",
	"  zz_nbsp:\n    description: \"a\\_b\\N\\L\"\n",
	"  zz_x:\n    fields:\n      f:\n        type: string\n        description: \"\\x01\"\n",
}

// rvCase puts up to 12 of rvInjections at random kind boundaries of
// synth.Contract(n).
func rvCase(r *rand.Rand, n int) []byte {
	data := string(synth.Contract(n))
	start := strings.Index(data, "\nkinds:\n") + len("\nkinds:\n")
	end := strings.Index(data, "\nfallback:\n") + 1
	body := data[start:end]
	// kind boundaries: lines starting with two spaces and a letter
	var cuts []int
	for i := 0; i < len(body); {
		j := strings.IndexByte(body[i:], '\n')
		if j < 0 {
			break
		}
		if len(body) > i+2 && body[i] == ' ' && body[i+1] == ' ' && body[i+2] != ' ' {
			cuts = append(cuts, i)
		}
		i += j + 1
	}
	cuts = append(cuts, len(body))
	ins := map[int][]string{}
	for k := r.IntN(12) + 1; k > 0; k-- {
		c := cuts[r.IntN(len(cuts))]
		ins[c] = append(ins[c], rvInjections[r.IntN(len(rvInjections))])
	}
	var b strings.Builder
	b.WriteString(data[:start])
	last := 0
	for _, c := range cuts {
		if c < last {
			continue
		}
		b.WriteString(body[last:c])
		for _, s := range ins[c] {
			b.WriteString(s)
		}
		last = c
	}
	b.WriteString(body[last:])
	b.WriteString(data[end:])
	return []byte(b.String())
}

// rvCompare loads data serially, then parsed in pieces and read side by side
// with 2, 3, 5 and 8 processors (4 to 16 pieces and runs), and fails where
// the problems or the contract differ.
func rvCompare(t *testing.T, name string, data []byte) {
	t.Helper()
	defer func(m, k int) { splitMin, parallelKinds = m, k }(splitMin, parallelKinds)
	splitMin, parallelKinds = 1<<62, 1<<62
	wantC, wantPs := loadRaw(data)
	for _, procs := range []int{2, 3, 5, 8} {
		old := runtime.GOMAXPROCS(procs)
		splitMin, parallelKinds = 0, 2
		gotC, gotPs := loadRaw(data)
		runtime.GOMAXPROCS(old)
		if !reflect.DeepEqual(gotPs, wantPs) {
			t.Fatalf("%s procs %d: problems side by side:\n%v\nin one piece:\n%v", name, procs, gotPs, wantPs)
		}
		if got, want := dump(gotC), dump(wantC); got != want {
			t.Fatalf("%s procs %d: contract differs", name, procs)
		}
	}
}

// Kinds of every sort of problem and awkward YAML (duplicates, aliases,
// collisions, escapes, block and flow scalars, complex and merge keys), put
// at random kind boundaries of a synthetic contract, so that they fall on
// the pieces' seams and the runs' ends for 4 to 16 pieces and runs: the
// contract and its problems, in order, are the serial loader's.
func TestSideBySideLoadOnInjectedKinds(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 16 {
		data := rvCase(r, 20+r.IntN(40))
		rvCompare(t, fmt.Sprint("case ", i), data)
	}
}

// A contract that imports a large base reads its kinds in one piece (the
// loader records the file of every imported node); the base, loaded on its
// own, is parsed in pieces and read side by side. Both give what the serial
// loader gives, problems in either file included.
func TestSideBySideLoadWithImports(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(9, 9))
	for i := range 6 {
		base := rvCase(r, 40)
		if i%2 == 0 {
			base = synth.Contract(40)
		}
		write(t, dir+"/platform/kinds.yaml", string(base))
		svc := "contract:\n  name: billing-error\nimports:\n  - path: ../platform/kinds.yaml\n    version: 1\nkinds:\n" +
			"  request_rejected_0:\n    description: again\n  RequestRejected1:\n    description: x\n  zz_own:\n    group: nope\n  trusted: {}\n  foo-bar: {}\n  foo_bar: {}\n"
		write(t, dir+"/svc/kinds.yaml", svc)
		load := func() string {
			c, err := LoadFile(dir + "/svc/kinds.yaml")
			return fmt.Sprint(err) + dump(c)
		}
		func() {
			defer func(m, k int) { splitMin, parallelKinds = m, k }(splitMin, parallelKinds)
			splitMin, parallelKinds = 1<<62, 1<<62
			want := load()
			for _, procs := range []int{2, 5} {
				old := runtime.GOMAXPROCS(procs)
				splitMin, parallelKinds = 0, 2
				got := load()
				runtime.GOMAXPROCS(old)
				if got != want {
					t.Fatalf("case %d procs %d: differs:\n%.3000s\nserial:\n%.3000s", i, procs, got, want)
				}
			}
		}()
	}
}
