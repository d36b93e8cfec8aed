package genschema_test

import (
	"github.com/errgen/errgen/internal/genschema"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/config"
	"github.com/errgen/errgen/internal/gentest"
)

// TestConfigSchemaAgreesWithTheLoader validates every config test case of
// internal/config against the config's JSON Schema: what the loader accepts
// the schema accepts, and the schema rejects every case whose problems a
// schema can express (unknown keys, a wrong version, malformed names).
// Path rules and keywords the loader alone checks are listed below.
func TestConfigSchemaAgreesWithTheLoader(t *testing.T) {
	data, err := genschema.Marshal(genschema.ConfigSchema())
	if err != nil {
		t.Fatal(err)
	}
	sch := gentest.CompileSchema(t, config.SchemaFileName, data)
	loaderOnly := map[string]bool{
		"paths.yaml":          true, // ../ and unclean paths: RE2 has no lookahead to say it
		"duplicate_dirs.yaml": true, // compares two values
	}
	files, _ := filepath.Glob("../config/testdata/*.yaml")
	if len(files) == 0 {
		t.Fatal("no config cases")
	}
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		_, loadErr := config.Load("errgen.yaml", text)
		schemaErr := schemaVerdict(sch, text)
		name := filepath.Base(f)
		switch {
		case loadErr == nil && schemaErr != nil:
			t.Errorf("%s: the loader accepts it, the schema rejects it: %v", name, schemaErr)
		case loadErr != nil && schemaErr == nil && !loaderOnly[name]:
			t.Errorf("%s: the loader rejects it (%v), the schema accepts it", name, strings.SplitN(loadErr.Error(), "\n", 2)[0])
		}
	}
}
