package examples

import (
	"encoding/json"
	"testing"
)

// JSON writes its bytes directly; they must be json.MarshalIndent's.
func TestJSONMatchesMarshalIndent(t *testing.T) {
	tricky := "a <b> & \"c\" \\ \n\r\t\b\f\x01\x7f é \u2028\u2029 \xff end"
	vals := []any{nil, true, false, 0, -7, int64(1) << 40, 0.5, 1e-7, 1e21, 123456.789, "", tricky,
		[]any{}, []any{1, "x", []any{}}, []string(nil), []string{}, []string{"a", tricky},
		Object{}, Object{{tricky, Object{{"n", []any{Object{}, Object{{"k", 1}}}}}}}}
	for _, v := range vals {
		e := Example{Value: Object{{"v", v}, {"w", Object{{"v", v}}}}}
		want, err := json.MarshalIndent(e.Value, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if got := e.JSON(); string(got) != string(want) {
			t.Errorf("%#v:\ngot  %s\nwant %s", v, got, want)
		}
	}
	// A type the writer does not know goes through encoding/json.
	e := Example{Value: Object{{"u", uint8(3)}, {"f", float32(0.25)}}}
	want, _ := json.MarshalIndent(e.Value, "", "  ")
	if got := e.JSON(); string(got) != string(want) {
		t.Errorf("fallback:\ngot  %s\nwant %s", got, want)
	}
}

// AppendString without html must write what Marshal writes.
func TestAppendStringMatchesMarshal(t *testing.T) {
	for _, s := range []string{"", "plain", "a <b> & \"c\" \\ \n\x00\x1f\x7f é \u2028\u2029 \xff\xfe end"} {
		want, err := Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendString(nil, s, false); string(got) != string(want) {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	}
}
