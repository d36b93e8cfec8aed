package gentest

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

// SanitizerVectors is conformance/sanitizer.vectors.json: hand-curated
// cases of the sanitizer with the default policy. docs/sanitizer.md
// describes the file.
type SanitizerVectors struct {
	About  []string `json:"about"`
	Policy struct {
		MaxLength        int    `json:"max_length"`
		TruncationMarker string `json:"truncation_marker"`
	} `json:"policy"`
	Cases []SanitizerCase `json:"cases"`
}

// SanitizerCase is one vector. MaxLength, when not zero, replaces the
// policy's maximum (the test calls SanitizeMax).
type SanitizerCase struct {
	Name      string `json:"name"`
	Input     Text   `json:"input"`
	Output    Text   `json:"output"`
	MaxLength int    `json:"max_length,omitempty"`
}

// Text is a vector's text: a JSON string; {"repeat": s, "times": n}, s
// repeated n times; {"hex": "…"}, raw bytes (possibly ill-formed UTF-8,
// which a TypeScript or Python test decodes with replacement first); or a
// list of these, concatenated.
type Text struct {
	Value string
	// Raw is true when the text holds bytes given as hex.
	Raw bool
}

func (t *Text) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	switch {
	case len(data) > 0 && data[0] == '"':
		return json.Unmarshal(data, &t.Value)
	case len(data) > 0 && data[0] == '[':
		var parts []Text
		if err := json.Unmarshal(data, &parts); err != nil {
			return err
		}
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Value)
			t.Raw = t.Raw || p.Raw
		}
		t.Value = b.String()
		return nil
	}
	var obj struct {
		Repeat *string `json:"repeat"`
		Times  int     `json:"times"`
		Hex    *string `json:"hex"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&obj); err != nil {
		return fmt.Errorf("a text is a string, {repeat, times}, {hex} or a list of them: %w", err)
	}
	switch {
	case obj.Repeat != nil && obj.Hex == nil && obj.Times >= 1:
		t.Value = strings.Repeat(*obj.Repeat, obj.Times)
	case obj.Hex != nil && obj.Repeat == nil && obj.Times == 0:
		b, err := hex.DecodeString(strings.ReplaceAll(*obj.Hex, " ", ""))
		if err != nil {
			return fmt.Errorf("hex: %w", err)
		}
		t.Value, t.Raw = string(b), true
	default:
		return fmt.Errorf("a text object is {repeat: string, times: n >= 1} or {hex: string}, found %s", data)
	}
	return nil
}

// ReadSanitizerVectors reads the sanitizer vectors and checks the file's
// own rules: unique names, outputs that are valid UTF-8, and at least 150
// cases.
func ReadSanitizerVectors(t testing.TB, path string) *SanitizerVectors {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f SanitizerVectors
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(f.Cases) < 150 {
		t.Errorf("%s: %d cases, want at least 150", path, len(f.Cases))
	}
	seen := map[string]bool{}
	for _, c := range f.Cases {
		if c.Name == "" || seen[c.Name] {
			t.Errorf("%s: case name %q is empty or not unique", path, c.Name)
		}
		seen[c.Name] = true
		if c.Output.Raw || !utf8.ValidString(c.Output.Value) {
			t.Errorf("%s: case %q: the output must be a valid string", path, c.Name)
		}
	}
	return &f
}

// CheckSanitizerVectors runs every vector through a generated package's
// sanitizer, whose policy must be the one the file states, and checks that
// every output is a fixpoint.
func CheckSanitizerVectors(t *testing.T, path string, maxLength int, marker string, sanitizeMax func(string, int) string) {
	f := ReadSanitizerVectors(t, path)
	if f.Policy.MaxLength != maxLength || f.Policy.TruncationMarker != marker {
		t.Fatalf("the vectors assume max_length %d and marker %q; the package has %d and %q",
			f.Policy.MaxLength, f.Policy.TruncationMarker, maxLength, marker)
	}
	for _, c := range f.Cases {
		t.Run(c.Name, func(t *testing.T) {
			max := f.Policy.MaxLength
			if c.MaxLength != 0 {
				max = c.MaxLength
			}
			got := sanitizeMax(c.Input.Value, max)
			if got != c.Output.Value {
				t.Errorf("input  %s\ngot    %s\nwant   %s", quoteShort(c.Input.Value), quoteShort(got), quoteShort(c.Output.Value))
			}
			if again := sanitizeMax(got, max); again != got {
				t.Errorf("not a fixpoint:\nonce   %s\ntwice  %s", quoteShort(got), quoteShort(again))
			}
		})
	}
}

// quoteShort quotes s, eliding the middle of a long one.
func quoteShort(s string) string {
	if len(s) > 400 {
		return fmt.Sprintf("%+q … (%d bytes) … %+q", s[:180], len(s), s[len(s)-180:])
	}
	return fmt.Sprintf("%+q", s)
}
