package genrust

import (
	"path"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/targets"
)

// The README's sentence on what log_fields sanitizes lists the contract's
// sanitized values in English, the guidance left out (it is no member of
// the log form); the three shipped contracts do not reach every case.
func TestReadmeLogSanitized(t *testing.T) {
	for _, tt := range []struct {
		fields []string
		want   string
	}{
		{nil, "it sanitizes nothing of the message or the fields (this contract sanitizes none of them) however"},
		{[]string{"guidance"}, "it sanitizes nothing of the message or the fields"},
		{[]string{"message", "guidance"}, "it sanitizes the `message` value however"},
		{[]string{"message", "cause"}, "it sanitizes the `message` and `cause` values however"},
		{[]string{"message", "guidance", "cause", "detail"}, "it sanitizes the `message`, `cause` and `detail` values however"},
	} {
		c := load(t, "../gengo/testdata/minimal/kinds.yaml")
		c.Sanitize.Fields = tt.fields
		out, err := Generate(c, targets.Defaults(c.Name))
		if err != nil {
			t.Fatal(err)
		}
		if readme := string(out[path.Join(Dir(targets.Defaults(c.Name)), "README.md")]); !strings.Contains(readme, tt.want) {
			t.Errorf("sanitized %q: README lacks %q", tt.fields, tt.want)
		}
	}
}
