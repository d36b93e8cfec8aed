package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"text/template"

	"github.com/errgen/errgen/internal/config"
	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/naming"
	"github.com/errgen/errgen/templates"
)

// importFiles renders a service contract that imports base (a file, or a
// Go module), with one group and kind of its own, and the config; the
// contract is loaded with its base before anything is written.
func importFiles(base, name, dir string) ([]initFile, error) {
	if name == "" {
		name = defaultName(dir)
	}
	contractPath := filepath.Join(dir, filepath.FromSlash(config.DefaultContract))
	entry, module, err := importEntry(base, contractPath)
	if err != nil {
		return nil, err
	}
	r := contract.NewFiles(contractPath)
	// The go command runs where the contract will be, whose directory may
	// not exist yet: the nearest one that does has the same go.mod.
	r.Dir = existingDir(filepath.Dir(contractPath))
	stub := fmt.Sprintf("contract:\n  name: %s\nimports:\n%s", name, entry)
	c0, err := contract.LoadWith(contractPath, []byte(stub), r)
	if err != nil {
		return nil, fmt.Errorf("nothing was written: the base %s does not load:\n%s", base, baseProblems(err, contractPath))
	}
	imp := c0.Imports[0]
	version := imp.Version
	if c0.VersionIsText() {
		version = strconv.Quote(version)
	}
	view := importView(c0, name)
	view["BaseName"], view["Module"] = imp.Name, module
	if !c0.VersionIsText() {
		// The release's major is the wire version's.
		view["Release"] = version + ".0.0"
	}
	view["Entry"] = strings.TrimRight(entry, "\n") + "\n    version: " + version
	t, err := template.ParseFS(templates.FS, "init/import.yaml.tmpl")
	if err != nil {
		return nil, err
	}
	var src bytes.Buffer
	if err := t.Execute(&src, view); err != nil {
		return nil, err
	}
	data := withSchemaLine(src.Bytes())
	c, err := contract.LoadWith(contractPath, data, r)
	if err != nil {
		return nil, fmt.Errorf("nothing was written: the contract importing %s does not validate:\n%v\n(rename the example group or kind errgen init chose with -name, or import another base)", base, err)
	}
	return withConfig(c, contractPath, data, dir)
}

// baseProblems lists what stops the base from loading: problems in the base
// as they are, and the ones at the import entry of the contract init has
// not written yet without its position.
func baseProblems(err error, contractPath string) string {
	var ps contract.Problems
	if !errors.As(err, &ps) {
		return err.Error()
	}
	lines := make([]string, 0, len(ps))
	for _, p := range ps {
		switch {
		case p.File != contractPath:
			lines = append(lines, p.String())
		case len(ps) == 1 || !strings.Contains(p.Message, "does not load"):
			lines = append(lines, p.Message)
		}
	}
	return strings.Join(lines, "\n")
}

// importEntry is the imports entry for base: a path relative to the
// contract when base names a file, else a module.
func importEntry(base, contractPath string) (entry, module string, err error) {
	info, statErr := os.Stat(base)
	switch {
	case statErr == nil && info.IsDir():
		return "", "", fmt.Errorf("-import %s is a directory: name the base's contract file in it (e.g. %s)", base, filepath.Join(base, filepath.FromSlash(contract.DefaultModuleFile)))
	case statErr == nil:
		from, err1 := filepath.Abs(filepath.Dir(contractPath))
		to, err2 := filepath.Abs(base)
		if err1 != nil || err2 != nil {
			return "", "", fmt.Errorf("-import %s: %v", base, firstErr(err1, err2))
		}
		rel, err := filepath.Rel(from, to)
		if err != nil {
			return "", "", fmt.Errorf("-import %s: %v", base, err)
		}
		return "  - path: " + yamlScalar(filepath.ToSlash(rel)) + "\n", "", nil
	case statErr != nil && moduleImport(base):
		return "  - module: " + base + "\n", base, nil
	}
	return "", "", fmt.Errorf("-import %s: no such file, and not a Go module path (e.g. example.com/platform/errors)", base)
}

// moduleImport reports whether importEntry reads base as a Go module.
func moduleImport(base string) bool {
	_, err := os.Stat(base)
	return err != nil && contract.IsModulePath(base) && !strings.HasSuffix(base, ".yaml") && !strings.HasSuffix(base, ".yml")
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// plainScalar is what YAML reads as the string it is, unquoted.
var plainScalar = regexp.MustCompile(`^[A-Za-z0-9._/][-A-Za-z0-9._/]*$`)

// yamlScalar writes s as a YAML string.
func yamlScalar(s string) string {
	if plainScalar.MatchString(s) {
		return s
	}
	return strconv.Quote(s)
}

// existingDir is dir or its nearest parent that exists.
func existingDir(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if info, err := os.Stat(d); err == nil && info.IsDir() || filepath.Dir(d) == d {
			return d
		}
	}
}

// importView names the example group and kind, after the contract's first
// word and in the base's naming, and picks what they refer to from the
// base: an origin, a recovery action that revises when there is one, and
// a same_arguments value that forbids an identical retry when there is
// one.
func importView(c *contract.Contract, name string) map[string]any {
	word := naming.Words(name)[0]
	group := word
	taken := map[string]bool{}
	for _, g := range c.Groups {
		taken[g.Name] = true
	}
	for _, r := range c.Retired {
		taken[r.Name] = true
	}
	for i := 2; taken[group]; i++ {
		group = fmt.Sprintf("%s%d", word, i)
	}
	kindWords := []string{word, "failed"}
	kind := kindName(c.Naming, kindWords)
	for i := 2; c.Kind(kind) != nil || taken[kind]; i++ {
		kind = kindName(c.Naming, append(kindWords, strconv.Itoa(i)))
	}
	action, http := c.Actions[0], 500
	for _, a := range c.Actions {
		if a.Step == contract.StepRevise {
			action, http = a, 422
			break
		}
	}
	same := c.SameArguments[0]
	for _, sa := range c.SameArguments {
		if !sa.Retry {
			same = sa
			break
		}
	}
	number := 0
	if c.Numbered {
		for _, k := range c.Kinds {
			number = max(number, k.Number+1)
		}
	}
	return map[string]any{
		"Name": name, "Naming": string(c.Naming),
		"Group": group, "Title": strings.ToUpper(group[:1]) + group[1:],
		"Kind": kind, "Origin": c.Origins[0].Name, "HTTP": http,
		"Action": action.Name, "SameArguments": same.Name, "Number": number,
	}
}

// kindName joins lower-case words in naming n.
func kindName(n contract.Naming, words []string) string {
	switch n {
	case contract.ScreamingSnakeCase:
		return strings.ToUpper(strings.Join(words, "_"))
	case contract.PascalCase:
		var b strings.Builder
		for _, w := range words {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
		return b.String()
	case contract.KebabCase:
		return strings.Join(words, "-")
	}
	return strings.Join(words, "_")
}
