package generate

import (
	"encoding/json"
	"os"
	"path"
	"regexp"
	"strings"
	"testing"
	"text/template"

	"github.com/errgen/errgen/internal/genschema"
	"github.com/errgen/errgen/internal/naming"
	"github.com/errgen/errgen/internal/targets"
)

// TestEveryTargetIsComplete (issue 31): every target of internal/targets has
// every piece a target needs, so adding one fails here until it is whole:
// its key and summary, a default directory of its own, an emitter bound in
// emitters.go, its entry and settings in the config's JSON Schema, its lines
// in the errgen.yaml errgen init writes, a mention in the README, and, for
// a language, its reserved words and identifier forms in internal/naming.
// Its header syntax is checked against what its emitter writes by
// TestEveryOutputFollowsTheRule.
func TestEveryTargetIsComplete(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	outputs := configSchemaOutputs(t)
	p := targets.DefaultPackages("agent-error")
	keys, ids, dirs := map[string]bool{}, map[string]bool{}, map[string]string{}
	syntax := map[string][2]string{}
	for _, tg := range targets.All {
		what := "target " + tg.Key
		if !regexp.MustCompile(`^[a-z][a-z0-9]*$`).MatchString(tg.Key) || keys[tg.Key] || ids[tg.ID()] {
			t.Errorf("%s: the key (and name %q) must be a lower-case word no other target has", what, tg.ID())
		}
		keys[tg.Key], ids[tg.ID()] = true, true
		if tg.Summary == "" {
			t.Errorf("%s: no Summary for the config schema", what)
		}
		checkTargetDir(t, tg, p, dirs)
		if e, ok := emitters[tg.Key]; !ok || e.Generate == nil {
			t.Errorf("%s: no emitter in internal/generate/emitters.go", what)
		}
		checkSchema(t, tg, outputs[tg.Key])
		checkInit(t, tg)
		if !regexp.MustCompile("(?m)(outputs\\." + tg.Key + "\\b|^  (# )?" + tg.Key + ":|`" + tg.Key + "`)").Match(readme) {
			t.Errorf("%s: README.md names it nowhere (outputs.%s, `%s`, or a %s: line in an errgen.yaml)", what, tg.Key, tg.Key, tg.Key)
		}
		if tg.Lang != "" {
			checkLang(t, tg)
		}
		for ext, s := range tg.Headers {
			if other, ok := syntax[ext]; ok && other != s {
				t.Errorf("%s: %s files' header syntax %q differs from another target's %q", what, ext, s, other)
			}
			syntax[ext] = s
		}
	}
	for key := range emitters {
		if targets.ByKey(key) == nil {
			t.Errorf("emitters.go binds %s, which internal/targets does not declare", key)
		}
	}
}

// checkTargetDir: a default directory, clean, relative and no other target's.
func checkTargetDir(t *testing.T, tg *targets.Target, p targets.Packages, dirs map[string]string) {
	t.Helper()
	if tg.Dir == nil {
		t.Errorf("target %s: no default Dir", tg.Key)
		return
	}
	d := tg.Dir(p)
	if d == "" || d == "." || path.Clean(d) != d || path.IsAbs(d) || strings.HasPrefix(d, "../") {
		t.Errorf("target %s: default directory %q is not a clean relative path below the root", tg.Key, d)
	}
	if other, ok := dirs[d]; ok {
		t.Errorf("target %s: default directory %s is also %s's", tg.Key, d, other)
	}
	dirs[d] = tg.Key
}

// configSchemaOutputs is the config schema's outputs, by key: the schema
// each accepts besides null.
func configSchemaOutputs(t *testing.T) map[string]map[string]any {
	t.Helper()
	data, err := genschema.Marshal(genschema.ConfigSchema())
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Properties struct {
			Outputs struct {
				Properties map[string]struct {
					OneOf []map[string]any `json:"oneOf"`
				} `json:"properties"`
			} `json:"outputs"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]any{}
	for key, o := range s.Properties.Outputs.Properties {
		if len(o.OneOf) == 2 {
			out[key] = o.OneOf[1]
		}
	}
	return out
}

// checkSchema: the config schema has the target, with dir and a schema for
// every setting it accepts.
func checkSchema(t *testing.T, tg *targets.Target, o map[string]any) {
	t.Helper()
	props, _ := o["properties"].(map[string]any)
	if props == nil {
		t.Errorf("target %s: not in the config schema's outputs", tg.Key)
		return
	}
	for _, key := range append([]string{"dir"}, tg.Keys...) {
		if s, _ := props[key].(map[string]any); len(s) == 0 {
			t.Errorf("target %s: the config schema has no schema for outputs.%s.%s (genschema's settingSchemas)", tg.Key, tg.Key, key)
		}
	}
}

// checkInit: the target's lines for errgen init parse and name it.
func checkInit(t *testing.T, tg *targets.Target) {
	t.Helper()
	if _, err := template.New(tg.Key).Parse(tg.Init); err != nil {
		t.Errorf("target %s: its Init lines: %v", tg.Key, err)
	}
	if !regexp.MustCompile(`(?m)^  (# )?`+tg.Key+`:`).MatchString(tg.Init) || !strings.HasSuffix(tg.Init, "\n") {
		t.Errorf("target %s: its Init lines must name it (  %s:, or   # %s: for an opt-in target) and end in a newline", tg.Key, tg.Key, tg.Key)
	}
}

// checkLang: a language's reserved words and identifier forms are in
// internal/naming, and its files have a header syntax.
func checkLang(t *testing.T, tg *targets.Target) {
	t.Helper()
	if len(naming.Reserved(tg.Lang, naming.Keyword)) == 0 {
		t.Errorf("target %s: internal/naming has no keywords of %s", tg.Key, tg.Lang)
	}
	if len(tg.Forms) == 0 {
		t.Errorf("target %s: no identifier Forms of %s, so no collision in it is caught", tg.Key, tg.Lang)
	}
	if len(tg.Headers) == 0 {
		t.Errorf("target %s: no header syntax for its files", tg.Key)
	}
}
