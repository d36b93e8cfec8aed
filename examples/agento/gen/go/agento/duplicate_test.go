package agento_test

import (
	"encoding/json"
	"testing"

	"github.com/errgen/errgen/examples/agento/gen/go/agento"
)

// TestDuplicateFlagLastWins holds the decoder to encoding/json's rule for
// a member given twice, the last wins, for a boolean: a true followed by a
// false (in the same object, or in a second copy of the object) is false.
// No contract of the repository but this one's layout has a boolean.
func TestDuplicateFlagLastWins(t *testing.T) {
	for _, doc := range []string{
		`{"status":"error","error":{"code":"CONFIG_INVALID","category":"CONFIG","message":"m","details":{"executionMayHaveOccurred":true,"executionMayHaveOccurred":false}}}`,
		`{"status":"error","error":{"code":"CONFIG_INVALID","category":"CONFIG","message":"m","details":{"executionMayHaveOccurred":true},"details":{"executionMayHaveOccurred":false}}}`,
	} {
		var std struct {
			Error struct {
				Details struct {
					Flag *bool `json:"executionMayHaveOccurred"`
				} `json:"details"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(doc), &std); err != nil || std.Error.Details.Flag == nil || *std.Error.Details.Flag {
			t.Fatalf("encoding/json reads %s otherwise (%v)", doc, err)
		}
		var e agento.Envelope
		if err := json.Unmarshal([]byte(doc), &e); err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		if e.ExecutionMayHaveOccurred == nil || *e.ExecutionMayHaveOccurred {
			t.Errorf("%s: ExecutionMayHaveOccurred is %v, want false (the last member)", doc, e.ExecutionMayHaveOccurred)
		}
	}
}
