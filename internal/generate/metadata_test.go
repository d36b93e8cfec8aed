package generate

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/config"
	"github.com/errgen/errgen/internal/targets"
)

// TestRegistryMetadata: the config's metadata (license, repository) reaches
// what each registry reads (package.json, pyproject.toml, Cargo.toml), in the
// form each registry's publishing tool keeps unchanged (npm publish rewrites
// a bare repository string); the crate can be published (no publish =
// false, which makes cargo publish refuse it); without metadata none of the
// fields is written.
func TestRegistryMetadata(t *testing.T) {
	for _, tc := range []struct {
		config              string
		license, repository string
	}{
		{"version: 1\nmetadata:\n  license: Apache-2.0 OR MIT\n  repository: https://example.com/acme/payments\n", "Apache-2.0 OR MIT", "https://example.com/acme/payments"},
		{"version: 1\n", "", ""},
	} {
		cfg, err := config.Load("errgen.yaml", []byte(tc.config))
		if err != nil {
			t.Fatal(err)
		}
		c := loadReference(t)
		opts, err := cfg.Options(c)
		if err != nil {
			t.Fatal(err)
		}
		out, err := Generate(c, opts)
		if err != nil {
			t.Fatal(err)
		}
		var pkg struct {
			License    string `json:"license"`
			Repository *struct {
				Type, URL string
			} `json:"repository"`
		}
		if err := json.Unmarshal(out.Files[opts.Dir(targets.TypeScript)+"/package.json"], &pkg); err != nil {
			t.Fatal(err)
		}
		if pkg.License != tc.license {
			t.Errorf("package.json: license %q, want %q", pkg.License, tc.license)
		}
		switch {
		case tc.repository == "" && pkg.Repository != nil:
			t.Errorf("package.json: repository %+v, want none", pkg.Repository)
		case tc.repository != "" && (pkg.Repository == nil || *pkg.Repository != struct{ Type, URL string }{"git", "git+" + tc.repository + ".git"}):
			t.Errorf("package.json: repository %+v, want git, git+%s.git", pkg.Repository, tc.repository)
		}
		cargo := string(out.Files[opts.Dir(targets.Rust)+"/Cargo.toml"])
		pyproject := string(out.Files[opts.Dir(targets.Python)+"/pyproject.toml"])
		for _, f := range []struct {
			file, text, key, want string
		}{
			{"Cargo.toml", cargo, "license", tc.license},
			{"Cargo.toml", cargo, "repository", tc.repository},
			{"pyproject.toml", pyproject, "license", tc.license},
			{"pyproject.toml", pyproject, "Repository", tc.repository},
		} {
			m := regexp.MustCompile(`(?m)^` + f.key + ` = "([^"]*)"$`).FindStringSubmatch(f.text)
			switch {
			case f.want == "" && m != nil:
				t.Errorf("%s: %s, want none", f.file, m[0])
			case f.want != "" && (m == nil || m[1] != f.want):
				t.Errorf("%s: %s = %q, want %q", f.file, f.key, m, f.want)
			}
		}
		if strings.Contains(cargo, "\npublish") {
			t.Errorf("Cargo.toml restricts publishing:\n%s", cargo)
		}
	}
}
