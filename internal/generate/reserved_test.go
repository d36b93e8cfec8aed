package generate

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/naming"
	"github.com/errgen/errgen/internal/targets"
)

var update = flag.Bool("update", false, "rewrite internal/gengo/testdata/reserved/kinds.yaml from internal/naming's table")

var snakeCase = regexp.MustCompile(contract.SnakeCase.Pattern())

// tableWords are the words of internal/naming's table of the given classes,
// in every target's language (targets.Langs), as snake_case contract names
// (toString -> to_string, __proto__ -> proto), each once, sorted.
func tableWords(classes ...naming.Class) []string {
	seen := map[string]bool{}
	for _, lang := range targets.Langs() {
		for _, class := range classes {
			for _, w := range naming.Reserved(lang, class) {
				if s := strings.Join(naming.Words(w), "_"); snakeCase.MatchString(s) {
					seen[s] = true
				}
			}
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// probe is a contract with slots where a role's names go.
const probe = `# Code written by TestReservedContract in internal/generate from the table of
# internal/naming (go test ./internal/generate -run TestReservedContract -update):
# every keyword, builtin and constructor local the loader accepts, as
# required fields, object properties and (some) kinds. Its Go, TypeScript and
# Python packages must compile and pass their tests
# (TestCompilesAndCarriesStrings, tests/ts, tests/python): what validate
# accepts, every emitter generates and compiles.%.0s
contract:
  name: reserved-words
  version: 1
  naming: snake_case
  description: Names that are keywords, builtins or locals in a target language.
origins:
  request: {description: The request was rejected., side_effects: none_expected, log: warn}
  upstream: {description: An upstream failed., side_effects: possible, log: warn, breaker: true}
%[2]srecovery_actions:
  revise: {description: Change the arguments., step: revise}
  retry_later: {description: Wait and try again., step: retry}
same_arguments:
  safe: {description: Repeating is harmless., retry: true}
  never: {description: Repeating fails the same way., retry: false}
side_effects:
  none_expected: {description: Nothing changed., may_have_run: false}
  possible: {description: Something may have changed.}
groups:
  core: {title: Core, description: Core failures.}
context_fields:
  service: {type: string, description: The service that failed.}
%[3]skinds:
  holder_of_required:
    group: core
    description: A kind whose required fields are the words.
    origin: request
    http: 422
    recovery: {action: revise, same_arguments: never, guidance: Fix the fields.}
    fields:
      anchor: {type: string, required: true, description: A field that is no word.}
%[4]s  holder_of_optional:
    group: core
    description: A kind with an object field whose properties are the words.
    origin: upstream
    http: 502
    recovery: {action: retry_later, same_arguments: safe, guidance: Retry later.}
    fields:
      nested: {type: object, description: An object of words., properties: {p0: {type: string, description: d}
%[5]s        }}
%[6]sfallback:
  origin: upstream
  http: 500
  recovery: {action: retry_later, same_arguments: safe, guidance: Retry later.}
inbound:
  classifiers:
    upstream_calls:
      description: How an upstream failure becomes a kind.
      default: holder_of_optional
      rules:
        - {status: 422, kind: holder_of_required}
%[7]s`

// probeRoles are where a name can stand in the probe: its slot and the
// YAML of one name there.
var probeRoles = []struct {
	name string
	slot int // 2 origins, 3 context fields, 4 required fields, 5 properties, 6 kinds, 7 classifiers
	yaml func(w string) string
}{
	{"origins", 2, func(w string) string {
		return fmt.Sprintf("  %s: {description: d, side_effects: possible, log: warn}\n", w)
	}},
	{"context fields", 3, func(w string) string { return fmt.Sprintf("  %s: {type: integer, description: d}\n", w) }},
	{"required fields", 4, func(w string) string {
		return fmt.Sprintf("      %s: {type: array, items: string, required: true, description: d}\n", w)
	}},
	{"properties", 5, func(w string) string { return fmt.Sprintf("        , %s: {type: string, description: d}\n", w) }},
	{"kinds", 6, func(w string) string {
		return fmt.Sprintf("  %s:\n    group: core\n    description: d\n    origin: request\n    http: 400\n    recovery: {action: revise, same_arguments: never, guidance: g}\n", w)
	}},
	{"classifiers", 7, func(w string) string {
		return fmt.Sprintf("    %s:\n      description: d\n      default: holder_of_optional\n      rules:\n        - {status: 502, kind: holder_of_optional}\n", w)
	}},
}

// renderProbe fills the probe with lines per slot.
func renderProbe(what string, slots map[int][]string) []byte {
	args := []any{what}
	for slot := 2; slot <= 7; slot++ {
		args = append(args, strings.Join(slots[slot], ""))
	}
	return []byte(fmt.Sprintf(probe, args...))
}

// accepted returns the words the loader accepts in role, together in one
// contract: each on its own first, then all at once, dropping those the
// combination rejects (two words that become one identifier).
func accepted(t *testing.T, role int, words []string) []string {
	t.Helper()
	r := probeRoles[role]
	var ok []string
	for _, w := range words {
		if _, err := contract.Load("kinds.yaml", renderProbe("", map[int][]string{r.slot: {r.yaml(w)}})); err == nil {
			ok = append(ok, w)
		} else if ps := (contract.Problems{}); !errors.As(err, &ps) {
			t.Fatalf("%s %s: %v", r.name, w, err)
		}
	}
	for round := 0; ; round++ {
		var lines []string
		for _, w := range ok {
			lines = append(lines, r.yaml(w))
		}
		data := renderProbe("", map[int][]string{r.slot: lines})
		_, err := contract.Load("kinds.yaml", data)
		if err == nil {
			return ok
		}
		var ps contract.Problems
		if !errors.As(err, &ps) || round > 10 {
			t.Fatalf("%s: %v", r.name, err)
		}
		bad := map[string]bool{}
		for _, p := range ps {
			line := strings.SplitN(string(data), "\n", p.Pos.Line+1)[p.Pos.Line-1]
			bad[strings.Trim(strings.Fields(line)[0], ":,")] = true
		}
		var keep []string
		for _, w := range ok {
			if !bad[w] {
				keep = append(keep, w)
			}
		}
		if len(keep) == len(ok) {
			t.Fatalf("%s: the combination is rejected for words it cannot drop: %v", r.name, err)
		}
		ok = keep
	}
}

// TestReservedWordsGenerate: every word of internal/naming's table, in
// every role a name can have, is either rejected by the loader (with a
// position) or generated by every emitter.
func TestReservedWordsGenerate(t *testing.T) {
	words := tableWords(naming.Keyword, naming.Builtin, naming.ObjectMember, naming.Local, naming.Package)
	for i, r := range probeRoles {
		t.Run(r.name, func(t *testing.T) {
			ok := accepted(t, i, words)
			var lines []string
			for _, w := range ok {
				lines = append(lines, r.yaml(w))
			}
			c := gentest.LoadData(t, renderProbe("", map[int][]string{r.slot: lines}))
			if _, err := Generate(c, targets.Defaults(c.Name)); err != nil {
				t.Fatalf("the loader accepted %d reserved words as %s, and generating failed: %v", len(ok), r.name, err)
			}
		})
	}
}

// TestReservedContract keeps internal/gengo/testdata/reserved/kinds.yaml
// equal to the probe holding every keyword, builtin and constructor local
// of the table that the loader accepts, as required fields (the
// constructors' parameters), object properties and kinds. The Go,
// TypeScript and Python tests compile and run its packages, so a word added
// to the table is proved in every language.
func TestReservedContract(t *testing.T) {
	words := tableWords(naming.Keyword, naming.Builtin, naming.Local)
	slots := map[int][]string{}
	for i, r := range probeRoles {
		if r.slot == 2 || r.slot == 3 || r.slot == 7 {
			// Values and context fields share their forms with kinds and
			// fields; a classifier's forms all carry a prefix (classify),
			// which no keyword or builtin can break.
			continue
		}
		words := words
		if r.slot == 6 {
			// A kind's forms that are not prefixed (its Python exception
			// class, its TypeScript type) meet the keywords and Python's
			// exceptions; more kinds only make the package's types too
			// large for tsc's type-level tests.
			words = kindWords()
		}
		for _, w := range accepted(t, i, words) {
			slots[r.slot] = append(slots[r.slot], r.yaml(w))
		}
	}
	got := renderProbe("", slots)
	const file = "../gengo/testdata/reserved/kinds.yaml"
	if *update {
		if err := os.MkdirAll("../gengo/testdata/reserved", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/generate -run TestReservedContract -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is not the probe of internal/naming's table; run go test ./internal/generate -run TestReservedContract -update", file)
	}
	if _, err := contract.Load("kinds.yaml", got); err != nil {
		t.Fatal(err)
	}
}

// kindWords are the words the unprefixed forms of a kind can meet: the
// keywords, and the names of Python's exception classes without their Error
// (lookup becomes LookupError).
func kindWords() []string {
	seen := map[string]bool{}
	for _, w := range tableWords(naming.Keyword) {
		seen[w] = true
	}
	for _, w := range naming.Reserved(naming.Python, naming.Builtin) {
		if strings.HasSuffix(w, "Error") && w != "Error" {
			if s := strings.Join(naming.Words(strings.TrimSuffix(w, "Error")), "_"); snakeCase.MatchString(s) {
				seen[s] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(seen))
}
