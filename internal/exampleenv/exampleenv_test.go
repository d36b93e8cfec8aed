package exampleenv

import (
	"encoding/json"
	"testing"

	"github.com/errgen/errgen/internal/orderedjson"
)

// A type orderedjson does not write goes through encoding/json.
func TestJSONFallsBack(t *testing.T) {
	e := Example{Value: orderedjson.Object{{Key: "u", Value: uint8(3)}, {Key: "f", Value: float32(0.25)}, {Key: "h", Value: "<&>"}}}
	want, _ := json.MarshalIndent(e.Value, "", "  ")
	if got := e.JSON(); string(got) != string(want) {
		t.Errorf("fallback:\ngot  %s\nwant %s", got, want)
	}
}
