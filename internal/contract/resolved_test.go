package contract

import (
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// minimalWith loads testdata/valid/minimal with more kinds (YAML indented
// as entries of kinds) and more top-level sections appended.
func minimalWith(t *testing.T, kinds, sections string) *Contract {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "valid", "minimal", "kinds.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	src := string(data)
	i := strings.Index(src, "\nfallback:")
	if i < 0 {
		t.Fatal("minimal contract has no fallback section")
	}
	src = src[:i] + "\n" + kinds + src[i:] + "\n" + sections
	c, err := Load("kinds.yaml", []byte(src))
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return c
}

// TestRuleBreaker: a rule's breaker is its own when it writes one, else its
// kind's resolved breaker (which a kind sets itself or inherits from its
// origin), and the classifier answers with it.
func TestRuleBreaker(t *testing.T) {
	c := minimalWith(t, `  flaky:
    group: network
    description: An upstream that fails now and then, never its fault.
    origin: upstream
    breaker: false
    http: 502
    recovery:
      action: retry_later
      same_arguments: safe
      guidance: Retry.
`, `inbound:
  classifiers:
    upstream:
      description: Test view.
      default: timeout
      rules:
        - {status: 504, kind: timeout}
        - {status: 503, kind: timeout, breaker: false}
        - {status: 500, kind: internal_error}
        - {status: 501, kind: internal_error, breaker: true}
        - {status: 502, kind: flaky}
        - {status: 599, kind: flaky, breaker: true}
`)
	if !c.Kind("timeout").Breaker || c.Kind("internal_error").Breaker || c.Kind("flaky").Breaker {
		t.Fatal("kind breakers not resolved from origins and kinds")
	}
	cl := c.Inbound.Classifiers[0]
	want := []bool{true, false, false, true, false, true}
	if len(cl.Rules) != len(want) {
		t.Fatalf("%d rules, want %d", len(cl.Rules), len(want))
	}
	for i, r := range cl.Rules {
		if r.Breaker != want[i] {
			t.Errorf("rule %d (%s): Breaker %v, want %v", i+1, r.Kind.Name, r.Breaker, want[i])
		}
		got := cl.Classify(Upstream{Status: r.Statuses[0].From})
		if got.Rule != i+1 || got.Breaker != want[i] {
			t.Errorf("Classify(status %d) = %+v, want rule %d breaker %v", r.Statuses[0].From, got, i+1, want[i])
		}
	}
}

// TestLogLevels: a kind's level is its own or its origin's, and each level
// is named as slog names its level, so the Go package can print
// slog.Level<Go ident> and everything else the name.
func TestLogLevels(t *testing.T) {
	c := minimalWith(t, `  chatty:
    group: core
    description: Logged quietly.
    origin: runtime
    log: debug
    http: 400
    recovery:
      action: escalate
      same_arguments: never
      guidance: None.
`, "")
	for name, want := range map[string]LogLevel{"timeout": LogWarn, "internal_error": LogError, "chatty": LogDebug} {
		if got := c.Kind(name).Log; got != want {
			t.Errorf("%s: log %q, want %q", name, got, want)
		}
	}
	slogLevels := map[string]slog.Level{"LevelDebug": slog.LevelDebug, "LevelInfo": slog.LevelInfo, "LevelWarn": slog.LevelWarn, "LevelError": slog.LevelError}
	if len(LogLevels) != len(slogLevels) {
		t.Fatalf("%d log levels, slog has %d", len(LogLevels), len(slogLevels))
	}
	for _, l := range LogLevels {
		lvl, ok := slogLevels["Level"+l.Idents().Go]
		if !ok {
			t.Errorf("%s: slog has no Level%s", l, l.Idents().Go)
			continue
		}
		if strings.ToLower(lvl.String()) != string(l) {
			t.Errorf("%s: slog.Level%s is %s", l, l.Idents().Go, lvl)
		}
	}
}

// TestStatuses: every status once, ascending, with its kinds in contract
// order; HTTPKinds only the kinds alone with their status; HTTPKind falls
// back to a kind named after the status.
func TestStatuses(t *testing.T) {
	unavailable := func(name string) string {
		return "  " + name + `:
    group: network
    description: Unavailable.
    origin: upstream
    http: 503
    recovery:
      action: retry_later
      same_arguments: safe
      guidance: Retry.
`
	}
	c := minimalWith(t, unavailable("unavailable_b")+unavailable("unavailable_a"), "")
	var got []string
	for _, s := range c.Statuses {
		var names []string
		for _, k := range s.Kinds {
			if k.HTTP != s.Status {
				t.Errorf("%s (status %d) listed under %d", k.Name, k.HTTP, s.Status)
			}
			names = append(names, k.Name)
		}
		got = append(got, strings.Join(append([]string{strconv.Itoa(s.Status)}, names...), " "))
	}
	if want := "422 invalid_param|500 internal_error|503 unavailable_b unavailable_a|504 timeout"; strings.Join(got, "|") != want {
		t.Errorf("Statuses = %q, want %q", strings.Join(got, "|"), want)
	}
	var alone []string
	for _, k := range c.HTTPKinds {
		alone = append(alone, k.Name)
	}
	if want := "invalid_param internal_error timeout"; strings.Join(alone, " ") != want {
		t.Errorf("HTTPKinds = %q, want %q", strings.Join(alone, " "), want)
	}
	for status, want := range map[int]string{422: "invalid_param", 500: "internal_error", 504: "timeout", 503: "http_503", 418: "http_418", 599: "http_599"} {
		if got := c.HTTPKind(status); got != want {
			t.Errorf("HTTPKind(%d) = %q, want %q", status, got, want)
		}
	}
}

// TestSyntheticKind: a kind named after a status follows the contract's
// naming pattern, so consumers' kind checks accept it.
func TestSyntheticKind(t *testing.T) {
	for _, n := range Namings {
		c := &Contract{Naming: n}
		got := c.SyntheticKind(502)
		if !regexp.MustCompile(c.KindPattern()).MatchString(got) {
			t.Errorf("%s: SyntheticKind(502) = %q, which does not match %s", n, got, c.KindPattern())
		}
		if !strings.HasPrefix(got, c.SyntheticKindPrefix()) || !strings.HasSuffix(got, "502") {
			t.Errorf("%s: SyntheticKind(502) = %q, want prefix %q and the status", n, got, c.SyntheticKindPrefix())
		}
	}
}

// TestEnvelopeFields: the context fields, then the union of kind-specific
// fields in order of first declaration; FieldsOf a kind has only its own.
func TestEnvelopeFields(t *testing.T) {
	c := minimalWith(t, `  bad_range:
    group: core
    description: A range is empty.
    origin: validation
    http: 400
    recovery:
      action: revise
      same_arguments: never
      guidance: Fix it.
    fields:
      upper:
        type: integer
        description: The upper bound.
      param:
        type: string
        required: true
        description: The offending parameter.
`, "")
	names := func(fs []*Field) string {
		var out []string
		for _, f := range fs {
			out = append(out, f.Name)
		}
		return strings.Join(out, " ")
	}
	if got, want := names(c.EnvelopeFields), "service param upper"; got != want {
		t.Errorf("EnvelopeFields = %q, want %q", got, want)
	}
	if got, want := names(c.FieldsOf(c.Kind("bad_range"))), "service upper param"; got != want {
		t.Errorf("FieldsOf(bad_range) = %q, want %q", got, want)
	}
	if got, want := names(c.FieldsOf(c.Kind("timeout"))), "service"; got != want {
		t.Errorf("FieldsOf(timeout) = %q, want %q", got, want)
	}
	if f := c.EnvelopeField("service"); f != c.ContextFields[0] {
		t.Errorf("EnvelopeField(service) = %+v, want the context field", f)
	}
	if f := c.EnvelopeField("param"); f != c.Kind("invalid_param").Fields[0] {
		t.Errorf("EnvelopeField(param) = %+v, want invalid_param's, declared first", f)
	}
	if f := c.EnvelopeField("message"); f != nil {
		t.Errorf("EnvelopeField(message) = %+v, want nil", f)
	}
}
