package contract

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/synth"
)

var update = flag.Bool("update", false, "rewrite expected outputs")

// caseDirs returns the folders under dir, each one test case.
func caseDirs(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	if len(out) == 0 {
		t.Fatalf("no test cases under %s", dir)
	}
	return out
}

// TestInvalidContracts loads every testdata/invalid/<case>/kinds.yaml and
// compares the problems it reports with the case's stderr.txt: the
// file:line:col lines `errgen validate` prints for that file (before its
// summary line). Run with -update to rewrite the expected outputs, then read
// every changed stderr.txt as a contract owner would before committing it.
func TestInvalidContracts(t *testing.T) {
	dir := filepath.Join("testdata", "invalid")
	for _, name := range caseDirs(t, dir) {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, name, "kinds.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			c, err := Load("kinds.yaml", data)
			if err == nil {
				t.Fatal("Load accepted a broken contract")
			}
			if c != nil {
				t.Error("Load returned a contract together with problems")
			}
			var ps Problems
			if !errors.As(err, &ps) {
				t.Fatalf("Load returned %T, want Problems: %v", err, err)
			}
			checkPositions(t, ps)
			got := err.Error() + "\n"
			wantFile := filepath.Join(dir, name, "stderr.txt")
			if *update {
				if err := os.WriteFile(wantFile, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(wantFile)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("problems differ from %s (run go test -update to accept)\n--- want:\n%s--- got:\n%s", wantFile, want, got)
			}
		})
	}
}

func checkPositions(t *testing.T, ps Problems) {
	t.Helper()
	if len(ps) == 0 {
		t.Error("Load returned an empty Problems")
	}
	for _, p := range ps {
		if p.Pos.Line < 1 || p.Pos.Col < 1 {
			t.Errorf("problem without a usable position: %s", p)
		}
		if p.File != "kinds.yaml" {
			t.Errorf("problem names file %q, want kinds.yaml: %s", p.File, p)
		}
		if p.Message == "" {
			t.Errorf("problem without a message at %d:%d", p.Pos.Line, p.Pos.Col)
		}
	}
	for i := 1; i < len(ps); i++ {
		a, b := ps[i-1].Pos, ps[i].Pos
		if a.Line > b.Line || (a.Line == b.Line && a.Col > b.Col) {
			t.Errorf("problems not sorted by position: %s before %s", ps[i-1], ps[i])
		}
	}
}

func TestValidContracts(t *testing.T) {
	dir := filepath.Join("testdata", "valid")
	for _, name := range caseDirs(t, dir) {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(dir, name, "kinds.yaml")
			c, err := LoadFile(file)
			if err != nil {
				t.Fatalf("%s:\n%v", file, err)
			}
			if c == nil {
				t.Fatal("Load returned neither a contract nor problems")
			}
		})
	}
}

func TestMinimalContract(t *testing.T) {
	c, err := LoadFile(filepath.Join("testdata", "valid", "minimal", "kinds.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Kinds) != 3 || len(c.Origins) != 3 || len(c.Retired) != 1 {
		t.Fatalf("got %d kinds, %d origins, %d retired; want 3, 3, 1", len(c.Kinds), len(c.Origins), len(c.Retired))
	}
	timeout := c.Kind("timeout")
	if timeout.SideEffects.Name != "possible" || !timeout.Breaker || timeout.Log != LogWarn {
		t.Errorf("timeout did not inherit its origin's defaults: side_effects %s, breaker %v, log %v",
			timeout.SideEffects.Name, timeout.Breaker, timeout.Log)
	}
	if !timeout.Retryable() {
		t.Error("timeout (retry_later + safe) is not retryable")
	}
	internal := c.Kind("internal_error")
	if internal.SideEffects.Name != "none_expected" || internal.Breaker || internal.Log != LogError {
		t.Errorf("internal_error: side_effects override or origin defaults lost: %s, %v, %v",
			internal.SideEffects.Name, internal.Breaker, internal.Log)
	}
	if c.Retired[0].ReplacedBy != timeout {
		t.Errorf("retired deadline_exceeded replaced by %v, want timeout", c.Retired[0].ReplacedBy)
	}
	if c.Fallback.SideEffects.Name != "unknown" || c.Fallback.Log != LogError {
		t.Errorf("fallback did not inherit runtime's defaults: %s, %v", c.Fallback.SideEffects.Name, c.Fallback.Log)
	}
	if len(c.KindFields) != 1 || c.KindFields[0].Name != "param" || !c.KindFields[0].Required {
		t.Errorf("kind fields: %+v", c.KindFields)
	}
}

// TestReferenceContract checks resolved facts of contract/kinds.yaml that the
// seed (labby's agent-error v1 table) fixes.
func TestReferenceContract(t *testing.T) {
	c, err := LoadFile(filepath.Join("..", "..", "contract", "kinds.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "agent-error" || c.Version != 1 || c.Naming != SnakeCase {
		t.Errorf("header: name %q, version %d, naming %q", c.Name, c.Version, c.Naming)
	}
	if len(c.Kinds) != 63 {
		t.Errorf("got %d kinds, want 63", len(c.Kinds))
	}

	forbidden := c.Kind("forbidden")
	if forbidden == nil {
		t.Fatal("no kind forbidden")
	}
	req := forbidden.RequiredFields()
	if len(req) != 1 || req[0].Name != "required_scopes" || req[0].Type != TypeArray || req[0].Items != TypeString {
		t.Errorf("forbidden required fields: %+v", req)
	}
	if forbidden.HTTP != 403 || forbidden.Origin.Name != "policy" || forbidden.Recovery.Action.Name != "do_not_retry" {
		t.Errorf("forbidden: http %d, origin %s, action %s", forbidden.HTTP, forbidden.Origin.Name, forbidden.Recovery.Action.Name)
	}

	// Origin defaults flow down to every kind that does not override them.
	inherited := 0
	for _, k := range c.Kinds {
		if k.SideEffects == nil || k.Origin == nil || k.Recovery.Action == nil || k.Recovery.SameArguments == nil || k.Group == nil {
			t.Errorf("kind %s is not fully resolved", k.Name)
			continue
		}
		if k.SideEffects == k.Origin.SideEffects && k.Log == k.Origin.Log && k.Breaker == k.Origin.Breaker {
			inherited++
		}
	}
	if inherited < len(c.Kinds)/2 {
		t.Errorf("only %d of %d kinds carry their origin's defaults", inherited, len(c.Kinds))
	}
	timeout := c.Kind("timeout")
	if timeout.Origin.Name != "upstream_transport" || timeout.SideEffects.Name != "possible" || !timeout.Breaker || timeout.Log != LogWarn {
		t.Errorf("timeout should inherit upstream_transport's defaults: %s, %s, %v, %v",
			timeout.Origin.Name, timeout.SideEffects.Name, timeout.Breaker, timeout.Log)
	}
	if !timeout.Retryable() {
		t.Error("timeout should be retryable")
	}
	// dns_error overrides side_effects but still inherits breaker.
	dns := c.Kind("dns_error")
	if dns.SideEffects.Name != "none_expected" || dns.Origin.SideEffects.Name == "none_expected" || dns.Breaker != dns.Origin.Breaker {
		t.Errorf("dns_error: side_effects %s (origin %s), breaker %v", dns.SideEffects.Name, dns.Origin.SideEffects.Name, dns.Breaker)
	}
	// relay_forwarder_init_failed sets breaker: false explicitly.
	if k := c.Kind("relay_forwarder_init_failed"); k.Breaker {
		t.Error("relay_forwarder_init_failed: explicit breaker: false was lost")
	}

	if len(c.Retired) != 2 {
		t.Fatalf("got %d retired names, want 2", len(c.Retired))
	}
	for _, r := range c.Retired {
		if r.ReplacedBy != timeout {
			t.Errorf("retired %s replaced by %v, want the live kind timeout", r.Name, r.ReplacedBy)
		}
		if c.Kind(r.Name) != nil {
			t.Errorf("retired %s is also live", r.Name)
		}
	}

	fb := c.Fallback
	if fb == nil || fb.HTTP != 500 || fb.Origin.Name != "runtime" || fb.SideEffects.Name != "unknown" || fb.Log != LogError {
		t.Fatalf("fallback: %+v", fb)
	}
	if fb.Recovery.Action.Name != "inspect_and_escalate" || fb.Recovery.SameArguments.Name != "discouraged" || fb.Retryable() {
		t.Errorf("fallback recovery: %s / %s", fb.Recovery.Action.Name, fb.Recovery.SameArguments.Name)
	}
	if len(c.ContextFields) != 11 {
		t.Errorf("got %d context fields, want 11", len(c.ContextFields))
	}
}

// TestReferenceAgreementCatchesIssue14 undoes the fix of issue 14 in the
// reference contract, in memory: the check must name every disagreement
// between labby's two auth heuristics that the issue lists, at the phrase.
func TestReferenceAgreementCatchesIssue14(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "contract", "kinds.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	src := string(data)
	for _, undo := range []struct{ fixed, before string }{
		{`        - {text: ["401", unauthorized, invalid_token, invalid_grant, oauth, access token expired, authentication required, login required, missing credentials], kind: oauth_needs_reauth}`,
			`        - {text: ["401", unauthorized, invalid_token, invalid_grant, oauth, access token expired], kind: oauth_needs_reauth}`},
		{`        - {text: ["401", unauthorized, invalid_token, invalid_grant, oauth, access token expired], kind: auth_failed, breaker: true}`,
			`        - {text: ["401", unauthorized, invalid_token], kind: auth_failed, breaker: true}`},
	} {
		if strings.Count(src, undo.fixed) != 1 {
			t.Fatalf("the reference contract no longer has this line once; update the test:\n%s", undo.fixed)
		}
		src = strings.Replace(src, undo.fixed, undo.before, 1)
	}
	_, err = Load("kinds.yaml", []byte(src))
	if err == nil {
		t.Fatal("the agreement accepts labby's auth heuristics as they were before issue 14")
	}
	lines := strings.Split(err.Error(), "\n")
	for _, want := range []string{
		`text "invalid_grant" (an input of classifier "model" rule 2): model gives oauth_needs_reauth (rule 2, in its set); breaker gives connection_error (default, not in its set [auth_failed, auth_required])`,
		`text "oauth" (an input of classifier "model" rule 2): model gives oauth_needs_reauth (rule 2, in its set); breaker gives connection_error (default`,
		`text "access token expired" (an input of classifier "model" rule 2): model gives oauth_needs_reauth (rule 2, in its set); breaker gives connection_error (default`,
		`text "authentication required" (an input of classifier "breaker" rule 2): model gives upstream_error (default, not in its set [oauth_needs_reauth, permission_denied]); breaker gives auth_required (rule 2, in its set)`,
	} {
		found := false
		for _, l := range lines {
			found = found || strings.Contains(l, want)
		}
		if !found {
			t.Errorf("no problem says %s\ngot:\n%v", want, err)
		}
	}
	if len(lines) != 6 {
		t.Errorf("got %d problems, want 6 (three phrases each way):\n%v", len(lines), err)
	}
}

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"kinds", "kinds", 0},
		{"kindz", "kinds", 1},
		{"orgin", "origin", 1},
		{"kitten", "sitting", 3},
		{"héllo", "hello", 1},
	} {
		if got := distance(tc.a, tc.b); got != tc.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := distance(tc.b, tc.a); got != tc.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tc.b, tc.a, got, tc.want)
		}
	}
}

func TestSuggest(t *testing.T) {
	for _, tc := range []struct {
		got        string
		candidates []string
		want       string
	}{
		{"kindz", sections, ` (did you mean "kinds"?)`},
		{"orgin", []string{"origin", "group"}, ` (did you mean "origin"?)`},
		{"Warn", []string{"debug", "info", "warn", "error"}, ` (did you mean "warn"?)`},
		{"completely_different", []string{"origin", "group"}, ""},
		// Abbreviations and extensions too long for the edit distance.
		{"str", typeNames(), ` (did you mean "string"?)`},
		{"bool", typeNames(), ` (did you mean "boolean"?)`},
		{"none", []string{"none_expected", "possible", "unknown"}, ` (did you mean "none_expected"?)`},
		{"safe_to_retry", []string{"safe", "never"}, ` (did you mean "safe"?)`},
		{"con", sections, ""},                               // contract or context_fields: ambiguous
		{"abcdefgh", []string{"a", "ab"}, ""},               // too short to be a prefix match
		{"retr", []string{"retry_later", "retry_soon"}, ""}, // two extensions: ambiguous
		{"x", nil, ""},
	} {
		if got := suggest(tc.got, tc.candidates); got != tc.want {
			t.Errorf("suggest(%q) = %q, want %q", tc.got, got, tc.want)
		}
	}
}

// TestLayoutRequiredContextAndGuidance checks what the layout's required and
// optional say beyond the wire: which context fields every envelope must
// carry, and whether constructors fill in the contract's guidance.
func TestLayoutRequiredContextAndGuidance(t *testing.T) {
	for _, tc := range []struct {
		file     string
		required []string
		fills    bool
	}{
		// labby's default layout: guidance required, filled from the contract.
		{"../../contract/kinds.yaml", nil, true},
		// AGENTO carries no guidance on the wire; the envelope still has the
		// contract's, as decoding fills it.
		{"../../examples/agento/kinds.yaml", nil, true},
		// ovstorage: operation required, next_action never invented.
		{"../../examples/ovstorage/kinds.yaml", []string{"operation"}, false},
		{"testdata/valid/layout_everything/kinds.yaml", []string{"request_id"}, false},
	} {
		t.Run(tc.file, func(t *testing.T) {
			c, err := LoadFile(filepath.FromSlash(tc.file))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range c.RequiredContext {
				got = append(got, f.Name)
				lf := c.Layout.FieldLeaf(f)
				if lf == nil || !lf.Required() || !lf.RequiredContext || f.Type != TypeString {
					t.Errorf("%s: leaf %+v is not a required string leaf", f.Name, lf)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.required) {
				t.Errorf("required context %v, want %v", got, tc.required)
			}
			// Every other field leaf stays optional on the wire.
			for _, lf := range c.Layout.Leaves {
				if lf.Source == SourceField && !slices.Contains(tc.required, lf.Field.Name) && lf.Required() {
					t.Errorf("%s is required on the wire", lf.Path)
				}
			}
			if c.Layout.FillsGuidance() != tc.fills {
				t.Errorf("FillsGuidance() = %v, want %v", c.Layout.FillsGuidance(), tc.fills)
			}
		})
	}
}

// TestSanitizePaths: path redaction is on by default with errgen's
// credential names; a contract adds names after errgen's, in its order,
// or turns the redaction off, which leaves no names.
func TestSanitizePaths(t *testing.T) {
	base, err := os.ReadFile(filepath.Join("testdata", "valid", "minimal", "kinds.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	load := func(section string) Sanitize {
		t.Helper()
		c, err := Load("kinds.yaml", append(append([]byte(nil), base...), "\nsanitize:\n"+section...))
		if err != nil {
			t.Fatal(err)
		}
		return c.Sanitize
	}
	def := load("  fields: [message]\n")
	if !def.Paths || !slices.Equal(def.AllCredentialNames(), BuiltinCredentialNames) {
		t.Errorf("default: paths %v, names %q", def.Paths, def.AllCredentialNames())
	}
	own := load("  credential_names: [acme-credentials.json, .acme/token]\n")
	want := append(slices.Clone(BuiltinCredentialNames), "acme-credentials.json", ".acme/token")
	if got := own.AllCredentialNames(); !slices.Equal(got, want) {
		t.Errorf("with the contract's names: %q, want %q", got, want)
	}
	if off := load("  paths: false\n"); off.Paths || off.AllCredentialNames() != nil {
		t.Errorf("paths: false: paths %v, names %q", off.Paths, off.AllCredentialNames())
	}
}

// Properties that an alias makes a mapping they are read from (the fields
// that hold them, or a definition on the way) are reported at the
// properties key; they were read without end, until the stack overflowed
// and the process died (the stack is held low here so that it dies fast).
// An alias to a mapping elsewhere is still read.
func TestPropertiesAliasingTheirHolder(t *testing.T) {
	defer debug.SetMaxStack(debug.SetMaxStack(16 << 20))
	base := string(synth.Contract(2))
	const obj = "type: object\n        description: d\n        properties: "
	for _, tt := range []struct{ fields, want string }{
		{"fields: &f\n      p:\n        " + obj + "*f\n", "kinds.yaml:121:9: kind \"zz\": field \"p\": properties lead back"},
		{"fields:\n      p: &p\n        " + obj + "*p\n", "kinds.yaml:121:9: kind \"zz\": field \"p\": properties lead back"},
		{"fields:\n      p: &p\n        " + obj + "\n          q:\n            type: object\n            description: d\n            properties: {r: *p}\n",
			"kinds.yaml:121:9: kind \"zz\": field \"p\": property \"q\": property \"r\": properties lead back"},
		{"fields:\n      a:\n        " + obj + "&shared {s: {type: string, description: d}}\n      p:\n        " + obj + "*shared\n", ""},
	} {
		kind := "  zz:\n    group: group_0\n    description: d\n    origin: validation\n    http: 400\n    recovery:\n      action: revise_and_retry\n      same_arguments: never\n      guidance: g\n    " + tt.fields
		data := strings.Replace(base, "kinds:\n", "kinds:\n"+kind, 1)
		_, err := Load("kinds.yaml", []byte(data))
		got := fmt.Sprint(err)
		if tt.want == "" {
			if err != nil {
				t.Errorf("an alias to a mapping elsewhere is refused: %s", got)
			}
			continue
		}
		if !strings.HasPrefix(got, tt.want) || strings.Count(got, "\n") > 0 {
			t.Errorf("%s\nwant the one problem %s…, got:\n%s", tt.fields, tt.want, got)
		}
	}
}

// TestAliasesMayNotMultiply: levels of properties that each name the level
// below twice read as 2^depth fields (at depth 18, 4 s and about 2 M
// nodes; at 30, hours). The contract is refused at the alias that adds
// most, before anything reads it, while a set of fields shared by many
// kinds through one alias each still loads.
func TestAliasesMayNotMultiply(t *testing.T) {
	base := string(synth.Contract(2))
	kindWith := func(name, fields string) string {
		return "  " + name + ":\n    group: group_0\n    description: d\n    origin: validation\n    http: 400\n    recovery:\n      action: revise_and_retry\n      same_arguments: never\n      guidance: g\n    fields:\n" + fields
	}
	var b strings.Builder
	b.WriteString("      l0: &l0 {type: string, description: d}\n")
	const depth = 22
	for i := 1; i <= depth; i++ {
		fmt.Fprintf(&b, "      l%d: &l%d {type: object, description: d, properties: {a: *l%d, b: *l%d}}\n", i, i, i-1, i-1)
	}
	data := strings.Replace(base, "kinds:\n", "kinds:\n"+kindWith("zz", b.String()), 1)
	_, err := Load("kinds.yaml", []byte(data))
	got := fmt.Sprint(err)
	// The deepest level's first alias adds the most.
	line := strings.Count(data[:strings.Index(data, fmt.Sprintf("l%d: &", depth))], "\n") + 1
	want := fmt.Sprintf("kinds.yaml:%d:%d:", line, strings.Index(data[strings.Index(data, fmt.Sprintf("l%d: &", depth)):], "*")+7)
	if !strings.HasPrefix(got, want) || !strings.Contains(got, "the aliases of this contract make it") || strings.Count(got, "\n") > 0 {
		t.Fatalf("want the one problem %s… the aliases of this contract make it…, got:\n%s", want, got)
	}

	// 300 kinds sharing one set of fields: 300 aliases, each adding a few nodes.
	shared := kindWith("k0", "      <<: &common\n        a: {type: string, description: d}\n        b: {type: object, description: d, properties: {c: {type: string, description: d}}}\n")
	shared = strings.Replace(shared, "    fields:\n      <<: &common\n", "    fields: &common\n", 1)
	for i := 1; i < 300; i++ {
		shared += strings.Replace(kindWith(fmt.Sprintf("k%d", i), ""), "    fields:\n", "    fields: *common\n", 1)
	}
	if _, err := Load("kinds.yaml", []byte(strings.Replace(base, "kinds:\n", "kinds:\n"+shared, 1))); err != nil {
		t.Fatalf("fields shared through aliases are refused: %v", err)
	}
}
