package gentest

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// CallErrorBuilder builds the call error of a completed tool result (its
// JSON) for a call to upstream's tool name with the tool's annotations,
// and returns its JSON text, or fails.
type CallErrorBuilder func(result []byte, upstream, name string, annotations map[string]any) ([]byte, error)

// CheckCallErrors runs the call_errors vectors of a vectors file through
// build: each call error must validate against every schema given (name
// and JSON: the package's call-error schema, labby's published one) and
// match the vector (see genvectors.CallErrorVec).
func CheckCallErrors(t *testing.T, vectorsFile string, build CallErrorBuilder, schemas map[string][]byte) {
	t.Helper()
	data, err := os.ReadFile(vectorsFile)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		CallErrors []struct {
			Name   string          `json:"name"`
			Result json.RawMessage `json:"result"`
			Tool   struct {
				Upstream    string         `json:"upstream"`
				Name        string         `json:"name"`
				Annotations map[string]any `json:"annotations"`
			} `json:"tool"`
			Error  bool           `json:"error"`
			Exact  bool           `json:"exact"`
			Expect map[string]any `json:"expect"`
			Absent []string       `json:"absent"`
		} `json:"call_errors"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.CallErrors) == 0 {
		t.Fatalf("%s has no call_errors vectors", vectorsFile)
	}
	compiled := map[string]*jsonschema.Schema{}
	for name, s := range schemas {
		compiled[name] = CompileSchema(t, name, s)
	}
	for _, v := range f.CallErrors {
		out, err := build(v.Result, v.Tool.Upstream, v.Tool.Name, v.Tool.Annotations)
		if v.Error {
			if err == nil {
				t.Errorf("%s: built a call error, want none: %s", v.Name, out)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", v.Name, err)
			continue
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
		if err != nil {
			t.Errorf("%s: not JSON: %v\n%s", v.Name, err, out)
			continue
		}
		for name, s := range compiled {
			if err := s.Validate(inst); err != nil {
				t.Errorf("%s: does not validate against %s: %v\n%s", v.Name, name, err, out)
			}
		}
		var got map[string]any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatal(err)
		}
		if msg := MatchSubset(v.Expect, got, ""); msg != "" {
			t.Errorf("%s: %s\n%s", v.Name, msg, out)
		}
		if v.Exact {
			for k := range got {
				if _, ok := v.Expect[k]; !ok {
					t.Errorf("%s: unexpected member %q\n%s", v.Name, k, out)
				}
			}
		}
		for _, a := range v.Absent {
			if strings.Contains(string(out), a) {
				t.Errorf("%s: the call error holds %q\n%s", v.Name, a, out)
			}
		}
	}
}

// MatchSubset compares got with want as the call_errors vectors do: every
// member want gives equals got's (null: absent), objects member by member,
// arrays item by item with equal lengths. It returns "" or the first
// difference.
func MatchSubset(want, got any, path string) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return path + ": want an object, got " + describe(got)
		}
		for k, wv := range w {
			gv, present := g[k]
			if wv == nil {
				if present {
					return path + "." + k + ": want it absent, got " + describe(gv)
				}
				continue
			}
			if !present {
				return path + "." + k + ": missing"
			}
			if msg := MatchSubset(wv, gv, path+"."+k); msg != "" {
				return msg
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return path + ": want " + describe(want) + ", got " + describe(got)
		}
		for i := range w {
			if msg := MatchSubset(w[i], g[i], path+"["+string(rune('0'+i%10))+"]"); msg != "" {
				return msg
			}
		}
		return ""
	}
	if !reflect.DeepEqual(want, got) {
		return path + ": want " + describe(want) + ", got " + describe(got)
	}
	return ""
}

func describe(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
