package genrust

import (
	"fmt"
	"path"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/runtimedata"
	"github.com/errgen/errgen/internal/targets"
)

// src/contract.rs holds errgen's log form (contract.LogMembers, LogMaxBytes,
// LogEllipsis) and the fields the contract sanitizes; src/envelope.rs can
// clear every slot, which log_fields needs for an envelope that does not
// encode.
func TestLogTables(t *testing.T) {
	for _, file := range []string{"../../contract/kinds.yaml", "../gengo/testdata/minimal/kinds.yaml"} {
		c := load(t, file)
		out, err := Generate(c, targets.Defaults(c.Name))
		if err != nil {
			t.Fatal(err)
		}
		rs := string(out[path.Join(Dir(targets.Defaults(c.Name)), "src/contract.rs")])
		var members []string
		for _, m := range contract.LogMembers {
			members = append(members, runtimedata.RustString(string(m)))
		}
		for _, want := range []string{
			"pub static LOG: crate::logging::LogForm = crate::logging::LogForm {\n",
			"    members: &[" + strings.Join(members, ", ") + "],\n",
			fmt.Sprintf("    max_bytes: %d,\n", contract.LogMaxBytes),
			"    ellipsis: " + runtimedata.RustString(contract.LogEllipsis) + ",\n",
		} {
			if !strings.Contains(rs, want) {
				t.Errorf("%s: contract.rs lacks %q", file, want)
			}
		}
		var sanitized []string
		for _, name := range append([]string{"message", "guidance"}, fieldNames(c)...) {
			if c.Sanitize.Sanitizes(name) {
				sanitized = append(sanitized, runtimedata.RustString(name))
			}
		}
		if want := "pub static SANITIZED_FIELDS: &[&str] = &[" + strings.Join(sanitized, ", ") + "];\n"; !strings.Contains(rs, want) {
			t.Errorf("%s: contract.rs lacks %q", file, want)
		}
		env := string(out[path.Join(Dir(targets.Defaults(c.Name)), "src/envelope.rs")])
		g, _ := newGen(c, targets.Defaults(c.Name))
		for i, s := range g.fields {
			clear := fmt.Sprintf("            %d => self.%s = None,\n", i, s.name)
			if s.typ == "String" {
				clear = fmt.Sprintf("            %d => self.%s.clear(),\n", i, s.name)
			}
			if !strings.Contains(env, "pub(crate) fn clear_slot(") || !strings.Contains(env, clear) {
				t.Errorf("%s: clear_slot does not clear slot %d (%s)", file, i, s.name)
			}
		}
	}
}

func fieldNames(c *contract.Contract) []string {
	var out []string
	for _, f := range c.EnvelopeFields {
		out = append(out, f.Name)
	}
	return out
}
