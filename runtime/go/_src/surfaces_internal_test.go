package agenterror

import (
	"encoding/json"
	"strconv"
	"testing"
)

// fromProblem restores the envelope members a problem document replaced
// from the contract's problemRestores. The reference contract's layout
// replaces none, so restoreProblemMembers is tested here on every source a
// table can name: each value must be the classification's of the kind the
// problem type names, the kind and message the problem's own.
func TestRestoreProblemMembers(t *testing.T) {
	kind := Kinds()[0]
	c := Lookup(kind)
	saved := problemRestores
	defer func() { problemRestores = saved }()
	problemRestores = []problemRestore{
		{name: "a", source: "const", raw: `{"x":1}`},
		{name: "b", source: "version", raw: `"7"`},
		{name: "c", source: "kind"},
		{name: "d", source: "message"},
		{name: "e", source: "origin"},
		{name: "f", source: "action"},
		{name: "g", source: "same_arguments"},
		{name: "h", source: "guidance"},
		{name: "i", source: "side_effects"},
		{name: "j", source: "group"},
		{name: "k", source: "retryable"},
		{name: "l", source: "may_have_run"},
		{name: "m", source: "field"},
	}
	str := func(s string) string { return string(appendString(nil, s)) }
	want := map[string]string{
		"a": `{"x":1}`, "b": `"7"`, "c": str(string(kind)), "d": `"the detail"`,
		"e": str(string(c.Origin)), "f": str(string(c.Action)), "g": str(string(c.SameArguments)),
		"h": str(c.Guidance), "i": str(string(c.SideEffects)), "j": str(string(c.Group)),
		"k": strconv.FormatBool(c.Retryable), "l": strconv.FormatBool(c.SideEffects.MayHaveRun()),
	}
	obj := map[string]json.RawMessage{}
	restoreProblemMembers(obj, ProblemTypeBase+string(kind), json.RawMessage(`"the detail"`))
	if len(obj) != len(want) {
		t.Errorf("restored %d members, want %d: %s", len(obj), len(want), obj)
	}
	for name, v := range want {
		if string(obj[name]) != v {
			t.Errorf("%s = %s, want %s", name, obj[name], v)
		}
	}
	// A type that is not ProblemTypeBase and a kind restores no kind, and
	// a document without detail no message.
	for _, typ := range []string{"", ProblemTypeBase, "urn:other:" + string(kind)} {
		obj = map[string]json.RawMessage{}
		restoreProblemMembers(obj, typ, nil)
		if _, ok := obj["c"]; ok {
			t.Errorf("type %q restored the kind %s", typ, obj["c"])
		}
		if _, ok := obj["d"]; ok {
			t.Errorf("no detail restored the message %s", obj["d"])
		}
	}
}
