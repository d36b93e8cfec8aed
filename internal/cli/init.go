package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"text/template"

	"golang.org/x/mod/modfile"
	"gopkg.in/yaml.v3"

	"github.com/errgen/errgen"
	"github.com/errgen/errgen/internal/config"
	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/genschema"
	"github.com/errgen/errgen/internal/targets"
	"github.com/errgen/errgen/templates"
)

const initSummary = `Write a commented starter contract (contract/kinds.yaml) and generation
config (errgen.yaml) into a directory, ready for "errgen generate". Nothing
is written when either file exists already.

Templates:
  minimal    six kinds most services need, every section explained (default)
  labby      labby's agent-error vocabulary: errgen's reference contract
  agento     AGENTO's error codes, with its own wire layout
  ovstorage  ovstorage's envelope v0.1, with its own wire layout

With -import, init writes a service contract that builds on a base contract
instead: -import names the base's file (a path from the working directory,
written into the contract relative to it) or the Go module that ships it at
` + contract.DefaultModuleFile + ` (the repository's go.mod pins its version). The
contract names the import and the base's version, adds one example group and
kind of its own, and validates with the base before anything is written.

When the directory is inside a Go module, the config makes the generated Go
package a module of its own under the module's path, so that importers never
get errgen's dependencies in their module graph.`

// starter is one template of errgen init.
type starter struct {
	name   string
	source func() ([]byte, error)
}

var starters = []starter{
	{"minimal", func() ([]byte, error) { return fs.ReadFile(templates.FS, "init/minimal.yaml") }},
	{"labby", func() ([]byte, error) { return fs.ReadFile(errgen.Starters, "contract/kinds.yaml") }},
	{"agento", func() ([]byte, error) { return fs.ReadFile(errgen.Starters, "examples/agento/kinds.yaml") }},
	{"ovstorage", func() ([]byte, error) { return fs.ReadFile(errgen.Starters, "examples/ovstorage/kinds.yaml") }},
}

func starterNames() string {
	names := make([]string, len(starters))
	for i, s := range starters {
		names[i] = s.name
	}
	return strings.Join(names, ", ")
}

func runInit(args []string, stdout, stderr io.Writer) int {
	var tmpl, name, dir, base string
	fs := flag.NewFlagSet("errgen init", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&tmpl, "template", "minimal", "the starter: "+starterNames())
	fs.StringVar(&name, "name", "", "the contract's name, which names every generated package (default: the template's own, or for minimal the directory's name followed by -errors)")
	fs.StringVar(&dir, "dir", ".", "the directory to write "+config.FileName+" and "+config.DefaultContract+" into")
	fs.StringVar(&base, "import", "", "instead of a template, a service contract that imports a base: the base's contract file (a path from the working directory) or the Go module that ships it (e.g. example.com/platform/errors)")
	u := commandUsage{fs, "errgen init [-template minimal|labby|agento|ovstorage | -import PATH|MODULE] [-name NAME] [-dir DIR]", initSummary, stdout, stderr}
	if code, stop := u.parse(args); stop {
		return code
	}
	if fs.NArg() > 0 {
		return u.errorf("unexpected argument %q (the directory is given with -dir)", fs.Arg(0))
	}
	if base != "" {
		explicit := false
		fs.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "template" })
		if explicit {
			return u.errorf("-import and -template exclude each other: -import writes a contract that takes its vocabulary from the base")
		}
	}
	var st *starter
	for i := range starters {
		if starters[i].name == tmpl {
			st = &starters[i]
		}
	}
	if st == nil {
		return u.errorf("unknown template %q; use one of %s", tmpl, starterNames())
	}
	if name != "" && !contract.IsName(name) {
		return u.errorf("-name %q must be lower-case words separated by - or _ (e.g. payments-error); it becomes the Go, npm and Python package names", name)
	}
	// The directory and its parents are created when missing (and removed
	// again when init fails).
	if info, err := os.Stat(dir); err == nil && !info.IsDir() {
		fmt.Fprintf(stderr, "errgen init: %s is not a directory\n", dir)
		return ExitProblems
	}

	var files []initFile
	var err error
	what := "the " + st.name + " starter"
	if base != "" {
		files, err = importFiles(base, name, dir)
		what = "a contract that imports " + base
	} else {
		files, err = initFiles(st, name, dir)
	}
	if err != nil {
		fmt.Fprintf(stderr, "errgen init: %v\n", err)
		return ExitProblems
	}
	var existing []string
	for _, f := range files {
		if _, err := os.Lstat(f.path); err == nil {
			existing = append(existing, f.path)
		}
	}
	if len(existing) > 0 {
		verb := "exist"
		if len(existing) == 1 {
			verb = "exists"
		}
		fmt.Fprintf(stderr, "errgen init: nothing was written: %s already %s; errgen init never replaces a file (remove %s, or init another -dir)\n",
			strings.Join(existing, " and "), verb, itThem(len(existing)))
		return ExitProblems
	}
	created := missingDirs(filepath.Join(dir, filepath.FromSlash(path.Dir(config.DefaultContract))))
	for i, f := range files {
		if err := createFile(f.path, f.data); err != nil {
			for _, done := range files[:i] {
				os.Remove(done.path) // all or nothing
			}
			for j := len(created) - 1; j >= 0; j-- {
				os.Remove(created[j]) // only while empty
			}
			fmt.Fprintf(stderr, "errgen init: nothing was written: %v\n", err)
			return ExitProblems
		}
	}
	fmt.Fprintf(stdout, "errgen: wrote %s (%s) and %s\n\nNext:\n", files[0].path, what, files[1].path)
	step := func(format string, args ...any) { fmt.Fprintf(stdout, "  "+format+"\n", args...) }
	cd := ""
	if filepath.Clean(dir) != "." {
		cd = "cd " + shellQuote(dir) + " && "
	}
	cmd := commandName(dir)
	step("%s%s generate          # write the outputs errgen.yaml selects", cd, cmd)
	step("add to a Go file:  //go:generate go tool errgen generate")
	// HEAD~1 is there in every repository with a second commit, whatever
	// its branches are called; a pull request's check compares with the
	// branch it merges into instead (docs/compat.md).
	step("in CI:             %s%s check && %s compat --against HEAD~1:%s", cd, cmd, cmd, repoPath(files[0].path))
	if base != "" && moduleImport(base) {
		step("keep %s in go.mod: go mod tidy drops a module no Go package imports (errgen's docs/imports.md)", base)
	}
	return ExitOK
}

type initFile struct {
	path string
	data []byte
}

// initFiles renders the contract and the config, and checks that they
// validate and generate together before anything is written.
func initFiles(st *starter, name, dir string) ([]initFile, error) {
	src, err := st.source()
	if err != nil {
		return nil, err
	}
	if name == "" && st.name == "minimal" {
		name = defaultName(dir)
	}
	if name != "" {
		if src, err = renameContract(src, name); err != nil {
			return nil, err
		}
	}
	// The starters from the repository carry no schema line, or one for
	// their own place: every starter lands in contract/ beside schemas/.
	src = schemaLine.ReplaceAll(src, nil)
	src = withSchemaLine(src)
	contractPath := filepath.Join(dir, filepath.FromSlash(config.DefaultContract))
	c, err := contract.Load(contractPath, src)
	if err != nil {
		return nil, fmt.Errorf("the %s starter does not validate (a bug in errgen):\n%v", st.name, err)
	}
	return withConfig(c, contractPath, src, dir)
}

// withSchemaLine puts the line that points editors at the contract schema
// first: the contract lands in contract/ beside schemas/.
func withSchemaLine(src []byte) []byte {
	return append([]byte("# yaml-language-server: $schema=../schemas/"+genschema.ContractSchemaFile+"\n"), src...)
}

// withConfig renders the config beside the contract c (src, at
// contractPath) and checks the two together.
func withConfig(c *contract.Contract, contractPath string, src []byte, dir string) ([]initFile, error) {
	p := targets.DefaultPackages(c.Name)
	// What the template and the targets' Init lines may use: the default
	// package names (.Packages), each output's default directory by key
	// (.Dir.go), and the Go package's import path when dir is inside a Go
	// module.
	dirs := map[string]string{}
	for _, t := range targets.All {
		dirs[t.Key] = t.Dir(p)
	}
	view := map[string]any{
		"Schema":   "schemas/" + config.SchemaFileName,
		"Contract": config.DefaultContract,
		"Packages": p,
		"Dir":      dirs,
	}
	if modPath, modDir := goModule(dir); modPath != "" {
		abs, err := filepath.Abs(filepath.Join(dir, filepath.FromSlash(dirs[targets.Go])))
		rel := ""
		if err == nil {
			rel, err = filepath.Rel(modDir, abs)
		}
		if err == nil {
			view["ImportPath"] = path.Join(modPath, filepath.ToSlash(rel))
		}
	}
	cfgText, err := initConfig(view)
	if err != nil {
		return nil, err
	}
	cfgPath := filepath.Join(dir, config.FileName)
	cfg, err := config.Load(cfgPath, cfgText)
	if err == nil {
		_, err = cfg.Options(c)
	}
	if err != nil {
		return nil, fmt.Errorf("the config errgen init wrote does not validate (a bug in errgen):\n%v", err)
	}
	return []initFile{{contractPath, src}, {cfgPath, cfgText}}, nil
}

// initConfig is the errgen.yaml init writes: templates/init's
// errgen.yaml.tmpl, ending in outputs:, then every target's Init lines.
func initConfig(view map[string]any) ([]byte, error) {
	t, err := template.ParseFS(templates.FS, "init/errgen.yaml.tmpl")
	if err != nil {
		return nil, err
	}
	var text bytes.Buffer
	if err := t.Execute(&text, view); err != nil {
		return nil, err
	}
	for _, tg := range targets.All {
		t, err := template.New(tg.Key).Parse(tg.Init)
		if err == nil {
			err = t.Execute(&text, view)
		}
		if err != nil {
			return nil, fmt.Errorf("the init lines of target %s: %w", tg.Key, err)
		}
	}
	return text.Bytes(), nil
}

var schemaLine = regexp.MustCompile(`(?m)\A# yaml-language-server: \$schema=\S*\n`)

// renameContract replaces contract.name in src, keeping every comment and
// the layout of the rest: the starters are meant to be read.
func renameContract(src []byte, name string) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil || len(doc.Content) == 0 {
		return nil, fmt.Errorf("cannot read the starter: %v", err)
	}
	var at *yaml.Node
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != "contract" {
			continue
		}
		m := root.Content[i+1]
		for j := 0; j+1 < len(m.Content); j += 2 {
			if m.Content[j].Value == "name" {
				at = m.Content[j+1]
			}
		}
	}
	if at == nil || at.Style != 0 {
		return nil, errors.New("the starter has no plain contract.name to replace")
	}
	lines := bytes.SplitAfter(src, []byte("\n"))
	line := lines[at.Line-1]
	col := at.Column - 1
	if !bytes.HasPrefix(line[col:], []byte(at.Value)) {
		return nil, errors.New("the starter's contract.name is not where the parser says")
	}
	lines[at.Line-1] = append(append(append([]byte{}, line[:col]...), name...), line[col+len(at.Value):]...)
	return bytes.Join(lines, nil), nil
}

var nonName = regexp.MustCompile(`[^a-z0-9]+`)

// defaultName is the minimal starter's contract name: the directory's (or
// its Go module's) last element followed by -errors, or starter-errors.
func defaultName(dir string) string {
	base := ""
	if modPath, _ := goModule(dir); modPath != "" {
		base = path.Base(modPath)
	} else if abs, err := filepath.Abs(dir); err == nil {
		base = filepath.Base(abs)
	}
	base = strings.Trim(nonName.ReplaceAllString(strings.ToLower(base), "-"), "-")
	for base != "" && (base[0] < 'a' || base[0] > 'z') {
		base = strings.TrimLeft(base[1:], "-")
	}
	if name := base + "-errors"; base != "" && contract.IsName(name) {
		return name
	}
	return "starter-errors"
}

// goModule finds the go.mod holding dir and returns its module path and
// directory, or "" when dir is not inside a module.
func goModule(dir string) (modPath, modDir string) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", ""
	}
	for d := abs; ; d = filepath.Dir(d) {
		if data, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil {
			return modfile.ModulePath(data), d
		}
		if filepath.Dir(d) == d {
			return "", ""
		}
	}
}

// missingDirs lists dir and its parents that do not exist, outermost
// first.
func missingDirs(dir string) []string {
	var missing []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || filepath.Dir(d) == d {
			break
		}
		missing = append([]string{d}, missing...)
	}
	return missing
}

// createFile writes a new file, failing when one exists (even one created
// since the check), creating its directory.
func createFile(name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(name)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(name)
		return err
	}
	return nil
}
