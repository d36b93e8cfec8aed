package agenterror_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log"
	"log/slog"
	"strings"
	"testing"

	"github.com/errgen/errgen/gen/go/agenterror"
)

// The attack of issue 28: a received message carrying a GitHub token, then
// a line feed and a forged log line.
const (
	forgedToken   = "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
	forgedMessage = "upstream said " + forgedToken + "\nlevel=ERROR msg=forged"
)

// leaks reports what of the attack survives in out: a piece of the token,
// or a line break.
func leaks(out string) string {
	if i := strings.Index(out, "a1B2c3D4"); i >= 0 {
		return "the token"
	}
	if i := strings.Index(out, "J0k1L2m3"); i >= 0 {
		return "the token's second half"
	}
	if strings.ContainsAny(strings.TrimSuffix(out, "\n"), "\n\r\u2028\u2029") {
		return "a line break"
	}
	return ""
}

// TestErrorStringsRedact holds every string form of an envelope to the
// redacting single line, however it was made: decoded, built, built
// trusted; printed by fmt, wrapped by fmt.Errorf's %w, logged by log.Print
// and by slog's handlers, which print an error as its Error().
func TestErrorStringsRedact(t *testing.T) {
	var decoded agenterror.Envelope
	body := `{"contract_version":1,"kind":"not_found","message":` + jsonString(forgedMessage) + `,"origin":"discovery","recovery":{"action":"rediscover","same_arguments":"never","guidance":"Look again."},"side_effects":"none_expected"}`
	if err := json.Unmarshal([]byte(body), &decoded); err != nil {
		t.Fatal(err)
	}
	want := "not_found: upstream said [REDACTED] level=ERROR msg=forged"
	for name, e := range map[string]*agenterror.Envelope{
		"decoded":       &decoded,
		"built":         agenterror.New(agenterror.KindNotFound, forgedMessage),
		"built trusted": agenterror.NewTrusted(agenterror.KindNotFound, forgedMessage),
		"assigned":      func() *agenterror.Envelope { e := agenterror.NewNotFound("x"); e.Message = forgedMessage; return e }(),
	} {
		wrapped := fmt.Errorf("up: %w", e)
		var printed, text, js bytes.Buffer
		log.New(&printed, "", 0).Print(wrapped)
		slog.New(slog.NewTextHandler(&text, nil)).Warn("x", "error", wrapped)
		slog.New(slog.NewJSONHandler(&js, nil)).Warn("x", "error", wrapped)
		if got := e.Error(); got != want {
			t.Errorf("%s: Error() = %q, want %q", name, got, want)
		}
		for what, out := range map[string]string{
			"%v": fmt.Sprintf("%v", e), "%+v": fmt.Sprintf("%+v", e), "%s": fmt.Sprintf("%s", e), "%q": fmt.Sprintf("%q", e),
			"%#v": fmt.Sprintf("%#v", e), "%#v of the value": fmt.Sprintf("%#v", *e), "fmt.Errorf": wrapped.Error(),
			"log.Print": printed.String(), "slog text": text.String(), "slog JSON": js.String(),
		} {
			if leak := leaks(out); leak != "" {
				t.Errorf("%s: %s leaks %s: %q", name, what, leak, out)
			}
		}
		if got := printed.String(); got != "up: "+want+"\n" {
			t.Errorf("%s: log.Print wrote %q", name, got)
		}
	}
}

// TestErrorStringBounded: the string form is bounded as the log form's
// texts are, the message and the kind each, cut at a character boundary.
func TestErrorStringBounded(t *testing.T) {
	e := agenterror.NewTrusted(agenterror.Kind(strings.Repeat("k", 3000)), "a"+strings.Repeat("é", 3000))
	got := e.Error()
	kind, message, _ := strings.Cut(got, ": ")
	if kind != strings.Repeat("k", 1024)+"…" || message != "a"+strings.Repeat("é", 511)+"…" {
		t.Errorf("Error() = %q", got)
	}
}

// TestLogExtraRedactsSplitSecrets: a secret split by a C0 control in an
// Extra entry (its value, a nested member's name, its own key) is redacted
// in the log form as it is in the message, for an entry built with
// WithExtra as for one decoded.
func TestLogExtraRedactsSplitSecrets(t *testing.T) {
	split := "ghp_a1B2c3D4e5F6g7H8i9\x01J0k1L2m3N4o5P6q7R8"
	e := agenterror.NewNotFound("gone").
		WithExtra("note", "key "+split).
		WithExtra(split, 1).
		WithExtra("nested", map[string]any{split: []any{split, 2}})
	var out bytes.Buffer
	slog.New(slog.NewJSONHandler(&out, nil)).Warn("x", "error", e)
	var rec struct {
		Error struct {
			Extra string `json:"extra"`
		} `json:"error"`
	}
	if err := json.Unmarshal(out.Bytes(), &rec); err != nil {
		t.Fatal(err)
	}
	const want = `{"[REDACTED]":1,"nested":{"[REDACTED]":["[REDACTED]",2]},"note":"key [REDACTED]"}`
	if rec.Error.Extra != want {
		t.Errorf("extra = %s, want %s", rec.Error.Extra, want)
	}
	if leak := leaks(out.String()); leak != "" {
		t.Errorf("the log line leaks %s: %s", leak, out.String())
	}
	// An assignment across a member's name and its value is still redacted.
	e = agenterror.NewNotFound("gone").WithExtra("password", "hunter2")
	out.Reset()
	slog.New(slog.NewJSONHandler(&out, nil)).Warn("x", "error", e)
	if strings.Contains(out.String(), "hunter2") {
		t.Errorf("extra leaks a password: %s", out.String())
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
