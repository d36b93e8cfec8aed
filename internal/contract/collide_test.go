package contract

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/errgen/errgen/internal/naming"
	"github.com/errgen/errgen/internal/targets"
)

// TestCollisionMessagesOutliveANewLanguage (issue 31): a language added to
// targets.All, whose forms collide wherever the others do, changes none
// of the collision messages the existing languages give: each names the
// first identifier two names share, not every language's list.
func TestCollisionMessagesOutliveANewLanguage(t *testing.T) {
	saved := targets.All
	t.Cleanup(func() { targets.All = saved })
	targets.All = append(append([]*targets.Target(nil), saved...), &targets.Target{Key: "toy", Lang: "Toy",
		Forms: []func(*naming.Forms) string{func(f *naming.Forms) string { return f.RustConst }}})
	for _, name := range []string{"field_ident_collision", "ident_collision_pascal_case", "ident_collision_snake_case"} {
		dir := filepath.Join("testdata", "invalid", name)
		data, err := os.ReadFile(filepath.Join(dir, "kinds.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(dir, "stderr.txt"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Load("kinds.yaml", data); err == nil || err.Error()+"\n" != string(want) {
			t.Errorf("%s: with a new language, the problems are\n%v\nwant\n%s", name, err, want)
		}
	}
}
