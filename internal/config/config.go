// Package config reads errgen.yaml, the generation config: which outputs to
// generate, the directory of each, and the names of the generated packages.
//
// It is a file of its own, like buf.gen.yaml or sqlc.yaml, rather than a
// section of the contract, because the two change for different reasons and
// belong to different people: the contract is the wire vocabulary, versioned
// and checked by errgen compat, that every consumer shares; the config says
// where one repository puts its generated code. A consumer's repository can
// generate only the TypeScript package from the owner's contract, under its
// own npm scope, without touching the contract.
//
// Every path in the file is relative to the file's directory, which is also
// the output root: errgen behaves the same whatever directory it runs from.
package config

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/mod/module"
	"gopkg.in/yaml.v3"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/marker"
	"github.com/errgen/errgen/internal/naming"
	"github.com/errgen/errgen/internal/targets"
)

// FileName is the config file errgen looks for in the working directory.
const FileName = "errgen.yaml"

// SchemaFileName is the config's JSON Schema, which the schemas output
// holds beside the contract file's; SchemaID is its $id.
const (
	SchemaFileName = "errgen.schema.json"
	SchemaID       = "urn:errgen:config-schema:v1"
)

// DefaultContract is the contract path when the config names none.
const DefaultContract = "contract/kinds.yaml"

// MaxSize bounds the config file; a real one is a few hundred bytes.
const MaxSize = 1 << 20

// outputKeys are the keys each output accepts: dir, and its target's own.
func outputKeys(name string) []string {
	return append([]string{"dir"}, targets.ByKey(name).Keys...)
}

// Config is one loaded errgen.yaml.
type Config struct {
	File string // the path it was read from, as given
	// Root is the directory holding the file: every path in the file is
	// relative to it, and it is the output root.
	Root string
	// Contract is the contract's path, joined to Root; ContractPos is where
	// the file names it (zero for the default).
	Contract    string
	ContractPos contract.Pos
	// Outputs is nil when the file has no outputs section: every output is
	// generated at its default directory, as without a config.
	Outputs map[string]*Output
	// License and Repository are the metadata section's: what the
	// registries show of every generated package; empty when not given.
	License, Repository string
	// Parts are the entries of a contracts: list, a config that generates
	// several contracts in one run (issue 32); nil in the single form.
	// Each is a Config of its own (File and Root the file's), with Name
	// (the part its files' headers name) and NamePos set.
	Parts   []*Config
	Name    string
	NamePos contract.Pos
}

// Entries are the contracts cfg generates: its Parts, or cfg itself in
// the single form.
func (cfg *Config) Entries() []*Config {
	if cfg.Parts != nil {
		return cfg.Parts
	}
	return []*Config{cfg}
}

// Prefix is how messages name the entry's keys: "contracts.<name>." for
// a part, "" in the single form.
func (cfg *Config) Prefix() string {
	if cfg.Name == "" {
		return ""
	}
	return "contracts." + cfg.Name + "."
}

// OutputPos is where the file names output key (its dir when written),
// or 1:1 for an output the file does not name.
func (cfg *Config) OutputPos(key string) contract.Pos {
	if out := cfg.Outputs[key]; out != nil {
		if out.DirPos.Line > 0 {
			return out.DirPos
		}
		return out.Pos
	}
	if cfg.Name != "" {
		return cfg.NamePos
	}
	return contract.Pos{Line: 1, Col: 1}
}

// PartNamePattern is the rule for a part's name: a simple identifier, so
// that it reads the same in headers and manifest file names.
const PartNamePattern = `^[a-z][a-z0-9_-]*$`

var partName = nameRule{regexp.MustCompile(PartNamePattern), "a part name (lower-case letters, digits, _ and -, starting with a letter)", nil}

// metadataKeys are the keys of the metadata section.
var metadataKeys = []string{"license", "repository"}

// Output is one selected output. Empty strings mean the default.
type Output struct {
	Pos        contract.Pos // of the output's key
	DirPos     contract.Pos // of its dir; zero for the default
	Dir        string
	Package    string // go: the package name; python: the import name
	ImportPath string // go
	// ImportPathPos is where import_path is written.
	ImportPathPos contract.Pos
	Module        bool   // go
	GRPC          bool   // go: the grpcstatus module beside the package
	Name          string // typescript: the npm name, scoped or not
	Dist          string // python: the distribution name
	Crate         string // rust: the Cargo package name
}

// Problem and Problems are the contract's, so the CLI prints config and
// contract problems alike: file:line:col: message.
type (
	Problem  = contract.Problem
	Problems = contract.Problems
)

// LoadFile reads and checks the config at path.
func LoadFile(file string) (*Config, error) {
	info, err := os.Stat(file)
	if err != nil {
		return nil, err
	}
	if info.Size() > MaxSize {
		return nil, Problems{{File: file, Pos: contract.Pos{Line: 1, Col: 1}, Message: fmt.Sprintf("the config is %d bytes, more than errgen's limit of %d", info.Size(), MaxSize)}}
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return Load(file, data)
}

// Load checks data, the text of the config at file, and reports every
// problem with its position.
func Load(file string, data []byte) (cfg *Config, err error) {
	l := &loader{file: file}
	defer func() {
		// The YAML parser is third-party code fed user input: whatever it
		// does, the caller gets a positioned problem rather than a crash.
		if r := recover(); r != nil {
			cfg, err = nil, Problems{{File: file, Pos: contract.Pos{Line: 1, Col: 1}, Message: fmt.Sprintf("cannot parse the config: %v", r)}}
		}
	}()
	cfg = &Config{File: file, Root: filepath.Dir(file)}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, Problems{{File: file, Pos: yamlErrorPos(err), Message: "cannot parse the config: " + strings.TrimPrefix(err.Error(), "yaml: ")}}
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		n := &doc
		if len(doc.Content) > 0 {
			n = doc.Content[0]
		}
		l.errorf(n, "the config must be a mapping with version, contract and outputs (run errgen init to write one)")
		return nil, l.problems
	}
	l.root(cfg, doc.Content[0])
	if len(l.problems) > 0 {
		sort.SliceStable(l.problems, func(i, j int) bool {
			a, b := l.problems[i].Pos, l.problems[j].Pos
			return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
		})
		return nil, l.problems
	}
	return cfg, nil
}

type loader struct {
	file     string
	problems Problems
}

func (l *loader) errorf(n *yaml.Node, format string, args ...any) {
	l.problems = append(l.problems, Problem{File: l.file, Pos: contract.Pos{Line: max(n.Line, 1), Col: max(n.Column, 1)}, Message: fmt.Sprintf(format, args...)})
}

var yamlLine = regexp.MustCompile(`line ([0-9]+)`)

// yamlErrorPos is the line a yaml.v3 syntax error names.
func yamlErrorPos(err error) contract.Pos {
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		var line int
		fmt.Sscan(m[1], &line)
		return contract.Pos{Line: line, Col: 1}
	}
	return contract.Pos{Line: 1, Col: 1}
}

// members returns a mapping's keys and values, reporting duplicates and keys
// outside allowed.
func (l *loader) members(m *yaml.Node, what string, allowed []string) map[string][2]*yaml.Node {
	out := map[string][2]*yaml.Node{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		switch {
		case k.Kind != yaml.ScalarNode:
			l.errorf(k, "%s: keys must be plain names", what)
			continue
		case out[k.Value][0] != nil:
			l.errorf(k, "%s: %s is given twice (first at line %d)", what, k.Value, out[k.Value][0].Line)
			continue
		case !slices.Contains(allowed, k.Value):
			l.errorf(k, "%s: unknown key %q%s; the keys are %s", what, k.Value, contract.Suggest(k.Value, allowed), strings.Join(allowed, ", "))
			continue
		}
		out[k.Value] = [2]*yaml.Node{k, v}
	}
	return out
}

// inOrder lists the keys of ms in the order mapping m holds them.
func inOrder(m *yaml.Node, ms map[string][2]*yaml.Node) []string {
	var keys []string
	for i := 0; i < len(m.Content); i += 2 {
		if kv, ok := ms[m.Content[i].Value]; ok && kv[0] == m.Content[i] {
			keys = append(keys, m.Content[i].Value)
		}
	}
	return keys
}

// str reads a string scalar; ok is false (and a problem recorded) otherwise.
func (l *loader) str(v *yaml.Node, what string) (string, bool) {
	if v.Kind != yaml.ScalarNode || v.Tag != "!!str" {
		l.errorf(v, "%s must be a string", what)
		return "", false
	}
	if strings.TrimSpace(v.Value) == "" {
		l.errorf(v, "%s must not be blank; leave the key out for the default", what)
		return "", false
	}
	return v.Value, true
}

func (l *loader) root(cfg *Config, m *yaml.Node) {
	ms := l.members(m, "config", []string{"version", "contract", "metadata", "outputs", "contracts"})
	if kv, ok := ms["version"]; !ok {
		l.errorf(m, "config: version is missing; write version: 1 (the only config version so far)")
	} else if v := kv[1]; v.Kind != yaml.ScalarNode || v.Tag != "!!int" || v.Value != "1" {
		l.errorf(v, "config: version must be 1, the only config version this errgen reads")
	}
	kv, ok := ms["contracts"]
	if !ok {
		l.entry(cfg, "", ms, map[string]*yaml.Node{})
		return
	}
	for _, key := range []string{"contract", "metadata", "outputs"} {
		if single, ok := ms[key]; ok {
			l.errorf(single[0], "config: %s is given beside contracts; with a contracts list, each entry has its own %s", key, key)
		}
	}
	l.contracts(cfg, kv[1])
}

// contracts reads a contracts list: each entry is a contract of its own
// with its outputs, generated as a part named by its name (as sqlc's sql:
// list or buf.work.yaml's directories). Two entries may not share a name
// or an output directory.
func (l *loader) contracts(cfg *Config, list *yaml.Node) {
	if list.Kind != yaml.SequenceNode || len(list.Content) == 0 {
		l.errorf(list, "contracts must be a list of entries, each with name, contract and outputs")
		return
	}
	names := map[string]*yaml.Node{}
	dirs := map[string]*yaml.Node{}
	cfg.Parts = []*Config{}
	for i, m := range list.Content {
		what := fmt.Sprintf("contracts[%d]", i)
		if m.Kind != yaml.MappingNode {
			l.errorf(m, "%s must be a mapping with name, contract and outputs", what)
			continue
		}
		part := &Config{File: cfg.File, Root: cfg.Root}
		ms := l.members(m, what, []string{"name", "contract", "metadata", "outputs"})
		kv, ok := ms["name"]
		if !ok {
			l.errorf(m, "%s: name is missing; each entry names its part (the header of its files reads %s#<name>)", what, FileName)
		} else if s, ok := l.str(kv[1], what+".name"); ok {
			l.check(kv[1], what+".name", s, partName)
			if first, dup := names[s]; dup {
				l.errorf(kv[1], "%s.name: %s is already the name of the entry at line %d; each entry needs its own", what, s, first.Line)
			}
			names[s] = kv[1]
			part.Name, part.NamePos = s, contract.Pos{Line: kv[1].Line, Col: kv[1].Column}
			if partName.re.MatchString(s) {
				what = "contracts." + s
			}
		}
		if _, ok := ms["contract"]; !ok {
			l.errorf(m, "%s: contract is missing; each entry names its contract file", what)
		}
		l.entry(part, what+".", ms, dirs)
		cfg.Parts = append(cfg.Parts, part)
	}
	if len(cfg.Parts) > 0 {
		cfg.Contract, cfg.ContractPos = cfg.Parts[0].Contract, cfg.Parts[0].ContractPos
	}
}

// entry reads one contract's contract, metadata and outputs (the config's
// own in the single form, a contracts entry's otherwise); prefix names
// the entry in messages and dirs holds the output directories written so
// far.
func (l *loader) entry(cfg *Config, prefix string, ms map[string][2]*yaml.Node, dirs map[string]*yaml.Node) {
	cfg.Contract = filepath.Join(cfg.Root, DefaultContract)
	if kv, ok := ms["contract"]; ok {
		if p, ok := l.str(kv[1], prefix+"contract"); ok {
			if rel, ok := l.relPath(kv[1], p, prefix+"contract", true); ok {
				cfg.Contract = filepath.Join(cfg.Root, filepath.FromSlash(rel))
				cfg.ContractPos = contract.Pos{Line: kv[1].Line, Col: kv[1].Column}
			}
		}
	}
	if kv, ok := ms["metadata"]; ok {
		l.metadata(cfg, prefix, kv[1])
	}
	kv, ok := ms["outputs"]
	if !ok {
		return
	}
	outs := kv[1]
	if outs.Kind != yaml.MappingNode {
		l.errorf(outs, "%soutputs must be a mapping from output (%s) to its settings", prefix, strings.Join(targets.Keys(), ", "))
		return
	}
	cfg.Outputs = map[string]*Output{}
	outMembers := l.members(outs, prefix+"outputs", targets.Keys())
	// In the file's order, so that of two outputs sharing a directory the
	// later one is reported, on every run.
	for _, name := range inOrder(outs, outMembers) {
		kv := outMembers[name]
		o := &Output{Pos: contract.Pos{Line: kv[0].Line, Col: kv[0].Column}}
		cfg.Outputs[name] = o
		v := kv[1]
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			continue // `go:` alone: the defaults
		}
		if v.Kind != yaml.MappingNode {
			l.errorf(v, "%soutputs.%s must be a mapping (or empty, for the defaults)", prefix, name)
			continue
		}
		l.output(prefix, name, o, v, dirs)
	}
	if len(cfg.Outputs) == 0 {
		l.errorf(outs, "%soutputs selects nothing; name at least one of %s, or leave outputs out to generate every one", prefix, strings.Join(targets.Keys(), ", "))
	}
}

// metadata reads the metadata section: the license and repository every
// generated package declares to its registry.
func (l *loader) metadata(cfg *Config, prefix string, m *yaml.Node) {
	if m.Kind != yaml.MappingNode {
		l.errorf(m, "%smetadata must be a mapping with %s", prefix, strings.Join(metadataKeys, " and "))
		return
	}
	ms := l.members(m, prefix+"metadata", metadataKeys)
	if kv, ok := ms["license"]; ok {
		if s, ok := l.str(kv[1], prefix+"metadata.license"); ok {
			l.check(kv[1], prefix+"metadata.license", s, license)
			cfg.License = s
		}
	}
	if kv, ok := ms["repository"]; ok {
		if s, ok := l.str(kv[1], prefix+"metadata.repository"); ok {
			l.check(kv[1], prefix+"metadata.repository", s, repository)
			cfg.Repository = s
		}
	}
}

func (l *loader) output(prefix, name string, o *Output, m *yaml.Node, dirs map[string]*yaml.Node) {
	what := prefix + "outputs." + name
	ms := l.members(m, what, outputKeys(name))
	for _, key := range inOrder(m, ms) {
		kv := ms[key]
		v := kv[1]
		field := what + "." + key
		if key == "module" || key == "grpc" {
			if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
				l.errorf(v, "%s must be true or false", field)
			} else if key == "module" {
				o.Module = v.Value == "true"
			} else {
				o.GRPC = v.Value == "true"
			}
			continue
		}
		s, ok := l.str(v, field)
		if !ok {
			continue
		}
		switch key {
		case "dir":
			rel, ok := l.relPath(v, s, field, false)
			if !ok {
				continue
			}
			if other, dup := dirs[rel]; dup {
				l.errorf(v, "%s: %s is already the directory of the output at line %d; each output needs its own", field, rel, other.Line)
				continue
			}
			dirs[rel] = v
			o.Dir = rel
			o.DirPos = contract.Pos{Line: v.Line, Col: v.Column}
		case "package":
			if name == targets.Go {
				l.check(v, field, s, goPackage)
			} else {
				l.check(v, field, s, pythonPackage)
			}
			o.Package = s
		case "import_path":
			if err := module.CheckImportPath(s); err != nil {
				l.errorf(v, "%s: %q is not a Go import path: %v", field, s, unwrapModuleError(err))
			}
			o.ImportPath = s
			o.ImportPathPos = contract.Pos{Line: v.Line, Col: v.Column}
		case "name":
			l.check(v, field, s, npmName)
			o.Name = s
		case "distribution":
			l.check(v, field, s, pythonDist)
			o.Dist = s
		case "crate":
			l.check(v, field, s, cargoName)
			o.Crate = s
		}
	}
	if name == targets.Go && o.GRPC && !o.Module {
		// The grpcstatus module requires the package's module by its path.
		l.errorf(ms["grpc"][0], "%s: grpc: true needs module: true (and import_path): the grpcstatus package is a module of its own that requires the package's module", what)
	}
	if name == targets.Go && o.Module {
		switch {
		case o.ImportPath == "":
			l.errorf(ms["module"][0], "%s: module: true needs import_path, the module path of the generated package (e.g. example.com/payments/gen/go/payerrors)", what)
		case module.CheckPath(o.ImportPath) != nil:
			l.errorf(ms["import_path"][1], "%s.import_path: %q cannot be a module path: %v", what, o.ImportPath, unwrapModuleError(module.CheckPath(o.ImportPath)))
		}
	}
}

// unwrapModuleError drops x/mod's repetition of the path.
func unwrapModuleError(err error) string {
	s := err.Error()
	if i := strings.Index(s, ": "); i >= 0 && strings.HasPrefix(s, "malformed") {
		return s[i+2:]
	}
	return s
}

// relPath checks a path in the file: slash-separated, relative, clean and
// inside the config's directory. A file (the contract) may be anywhere
// below; an output directory must be a proper subdirectory, because errgen
// prunes its generated files there and the root holds everything else.
func (l *loader) relPath(v *yaml.Node, p, what string, file bool) (string, bool) {
	switch {
	case strings.IndexFunc(p, unicode.IsControl) >= 0:
		r, _ := utf8.DecodeRuneInString(p[strings.IndexFunc(p, unicode.IsControl):])
		l.errorf(v, "%s: %q holds a control character (U+%04X); a path of the outputs is written into comments, go.mod and package manifests, so keep to printable characters", what, p, r)
	case strings.Contains(p, `\`):
		l.errorf(v, "%s: write %q with forward slashes", what, p)
	case path.IsAbs(p) || filepath.IsAbs(p) || filepath.VolumeName(p) != "":
		l.errorf(v, "%s: %q must be relative to the config's directory", what, p)
	case path.Clean(p) != p:
		l.errorf(v, "%s: write %q as %q", what, p, path.Clean(p))
	case p == "..", strings.HasPrefix(p, "../"):
		l.errorf(v, "%s: %q is outside the config's directory; move errgen.yaml up, or the output down", what, p)
	case p == "." && !file:
		l.errorf(v, "%s: an output needs a directory of its own below the config's, not the config's directory itself", what)
	case workingName(p) != "":
		l.errorf(v, "%s: %q %s", what, p, workingName(p))
	default:
		return p, true
	}
	return "", false
}

// workingName explains why p cannot be used when one of its components is
// named like one of errgen's own working files (marker.WorkingFile): a run
// would take it for its lock or for what an interrupted run left, so
// generate would fail and check report runs that never happened.
func workingName(p string) string {
	for _, part := range strings.Split(p, "/") {
		if what := marker.WorkingFile(part); what != "" {
			return fmt.Sprintf("has a component %q named like errgen's own %s, which errgen keeps in the output tree; pick another name", part, what)
		}
	}
	return ""
}

type nameRule struct {
	re   *regexp.Regexp
	rule string
	bad  func(string) string
}

func (l *loader) check(v *yaml.Node, what, s string, r nameRule) {
	if !r.re.MatchString(s) {
		l.errorf(v, "%s: %q is not %s", what, s, r.rule)
		return
	}
	if r.bad != nil {
		if why := r.bad(s); why != "" {
			l.errorf(v, "%s: %q %s", what, s, why)
		}
	}
}

// The name rules as patterns that RE2 and ECMA-262 read alike, so the
// config's JSON Schema (internal/genschema) uses the very same ones.
const (
	GoPackagePattern     = `^[a-z][a-z0-9]*$`
	PythonPackagePattern = `^[a-z_][a-z0-9_]*$`
	// NPMNamePattern is npm's rule for new package names
	// (validate-npm-package-name): lower case, URL-safe, optionally scoped.
	NPMNamePattern = `^(@[a-z0-9~-][a-z0-9._~-]*/)?[a-z0-9~-][a-z0-9._~-]*$`
	// PythonDistPattern is PEP 508's name, which pip and PyPI accept.
	PythonDistPattern = `^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$`
	// NPMNameMax is npm's length limit.
	NPMNameMax = 214
	// CargoNamePattern is Cargo's rule for a package name that crates can
	// depend on: ASCII letters, digits, - and _, starting with a letter.
	CargoNamePattern = `^[A-Za-z][A-Za-z0-9_-]*$`
	// CargoNameMax is the registry's length limit.
	CargoNameMax = 64
	// LicensePattern is an SPDX license expression's shape: identifiers
	// (LicenseRef- ones too) joined by AND, OR and WITH, with parentheses.
	LicensePattern = `^[(]*[A-Za-z0-9][A-Za-z0-9.+-]*[)]*( (AND|OR|WITH) [(]*[A-Za-z0-9][A-Za-z0-9.+-]*[)]*)*$`
	// RepositoryPattern is an http(s) URL with a host and nothing that
	// needs quoting in JSON or TOML.
	RepositoryPattern = `^https?://[A-Za-z0-9.-]+(:[0-9]+)?(/[A-Za-z0-9._~%!$&*+,;=:@/-]*)?$`
)

var (
	goPackage = nameRule{regexp.MustCompile(GoPackagePattern), "a Go package name (lower-case letters and digits, starting with a letter)", func(s string) string {
		switch {
		case naming.Is(naming.Go, naming.Keyword, s):
			return "is a Go keyword"
		case s == "main":
			return "would make the package a command; pick another name"
		}
		return ""
	}}
	pythonPackage = nameRule{regexp.MustCompile(PythonPackagePattern), "a Python import name (lower-case letters, digits and _, not starting with a digit)", func(s string) string {
		if naming.Is(naming.Python, naming.Keyword, s) || naming.Is(naming.Python, naming.Builtin, s) {
			return "is a Python keyword or builtin"
		}
		return ""
	}}
	npmName = nameRule{regexp.MustCompile(NPMNamePattern), "an npm package name (lower case, URL-safe, optionally scoped as @scope/name)", func(s string) string {
		if len(s) > NPMNameMax {
			return fmt.Sprintf("is longer than npm's limit of %d characters", NPMNameMax)
		}
		return ""
	}}
	license    = nameRule{regexp.MustCompile(LicensePattern), "an SPDX license expression (e.g. MIT, Apache-2.0 OR MIT)", nil}
	repository = nameRule{regexp.MustCompile(RepositoryPattern), "an http or https URL of the repository (e.g. https://github.com/acme/payments)", nil}
	pythonDist = nameRule{regexp.MustCompile(PythonDistPattern), "a Python distribution name (letters, digits, ., _ and -, starting and ending with a letter or digit)", nil}
	// cargoName follows cargo new's checks: its library name (- as _) must
	// not be a Rust keyword, and test, std, core and alloc would shadow
	// what every crate uses.
	cargoName = nameRule{regexp.MustCompile(CargoNamePattern), "a Cargo package name (ASCII letters, digits, - and _, starting with a letter)", func(s string) string {
		lib := strings.ReplaceAll(s, "-", "_")
		switch {
		case len(s) > CargoNameMax:
			return fmt.Sprintf("is longer than the registry's limit of %d characters", CargoNameMax)
		case naming.Is(naming.Rust, naming.Keyword, lib):
			return "is a Rust keyword as a library name"
		case lib == "test" || lib == "std" || lib == "core" || lib == "alloc" || lib == "proc_macro":
			return "is the name of a crate Rust provides"
		}
		return ""
	}}
)

// Options are the generation settings of c under this config: the
// package names and the directories of the outputs it selects, every output
// that is on by default when it has no outputs section. It fails when two
// outputs end up in one directory (a default meeting a chosen one, which
// Load cannot see before the contract names the packages).
func (cfg *Config) Options(c *contract.Contract) (targets.Options, error) {
	o := targets.Defaults(c.Name)
	o.Packages.License, o.Packages.Repository = cfg.License, cfg.Repository
	if cfg.Outputs == nil {
		return o, nil
	}
	if err := cfg.packages(c, &o.Packages); err != nil {
		return targets.Options{}, err
	}
	o.Dirs = map[string]string{}
	taken := map[string]string{}
	var problems Problems
	for _, t := range targets.All {
		out := cfg.Outputs[t.Key]
		if out == nil {
			continue
		}
		d := out.Dir
		if d == "" {
			d = t.Dir(o.Packages)
		}
		if other, ok := taken[d]; ok {
			problems = append(problems, Problem{File: cfg.File, Pos: out.Pos, Message: fmt.Sprintf("%soutputs.%s: its directory %s is also the %s output's; give one of them another dir", cfg.Prefix(), t.Key, d, other)})
		}
		taken[d] = t.Key
		o.Dirs[t.Key] = d
	}
	if len(problems) > 0 {
		return targets.Options{}, problems
	}
	return o, nil
}

// packages sets the package names the config's outputs choose in p.
func (cfg *Config) packages(c *contract.Contract, p *targets.Packages) error {
	if o := cfg.Outputs[targets.Go]; o != nil {
		if o.Package != "" {
			p.Go = o.Package
		}
		p.GoImportPath, p.GoModule, p.GoGRPC = o.ImportPath, o.Module, o.GRPC
		if o.Module {
			path, err := majorPath(o.ImportPath, c.Release)
			if err != nil {
				return Problems{{File: cfg.File, Pos: o.ImportPathPos, Message: cfg.Prefix() + "outputs.go.import_path: " + err.Error()}}
			}
			p.GoImportPath = path
		}
	}
	if o := cfg.Outputs[targets.TypeScript]; o != nil && o.Name != "" {
		p.NPM = o.Name
	}
	if o := cfg.Outputs[targets.Python]; o != nil {
		if o.Package != "" {
			p.Python = o.Package
		}
		if o.Dist != "" {
			p.PythonDist = o.Dist
		}
	}
	if o := cfg.Outputs[targets.Rust]; o != nil && o.Crate != "" {
		p.Crate = o.Crate
	}
	return nil
}

// majorPath is the module path of a Go package that is a module of its own
// at the contract's release: from major 2 on, Go's semantic import
// versioning puts /vN at its end (the module stays in its directory: the
// "major branch" layout, tagged <dir>/vN.y.z). An import path that already
// ends in the right /vN is kept; one ending in another is an error.
func majorPath(importPath, release string) (string, error) {
	want := contract.GoMajorSuffix(release)
	if release == "" || strings.HasPrefix(importPath, "gopkg.in/") {
		// No release number (a text version that is none), or gopkg.in's
		// own .vN convention: the path is as written.
		return importPath, nil
	}
	prefix, got, ok := module.SplitPathVersion(importPath)
	switch {
	case !ok || got == want:
		// Not a module path at all is reported where import_path is read.
		return importPath, nil
	case got == "":
		return importPath + want, nil
	case want == "":
		return "", fmt.Errorf("%q ends in %s, but the contract's release %s has major %s: a Go module below v2 has no major suffix; write %s (errgen adds /vN from release 2.0.0 on)",
			importPath, got, release, strings.SplitN(release, ".", 2)[0], prefix)
	}
	return "", fmt.Errorf("%q ends in %s, but the contract's release %s needs %s; write %s, or leave the suffix out and errgen adds it",
		importPath, got, release, want, prefix+want)
}

// CheckDirs calls check with the directory of every output o generates
// and reports each error at the output's dir in the file (its key, for a
// default directory): generate.CheckDir, which refuses a directory that a
// symbolic link leads outside the config's directory.
func (cfg *Config) CheckDirs(o targets.Options, check func(dir string) error) error {
	var problems Problems
	for _, t := range targets.All {
		d := o.Dir(t.Key)
		if d == "" {
			continue
		}
		if err := check(d); err != nil {
			pos := contract.Pos{Line: 1, Col: 1}
			if out := cfg.Outputs[t.Key]; out != nil {
				pos = out.Pos
				if out.DirPos.Line > 0 {
					pos = out.DirPos
				}
			}
			problems = append(problems, Problem{File: cfg.File, Pos: pos, Message: fmt.Sprintf("%soutputs.%s.dir: %v", cfg.Prefix(), t.Key, err)})
		}
	}
	if len(problems) > 0 {
		return problems
	}
	return nil
}

// Selected lists the outputs o generates as "name (dir)", in targets.All's
// order.
func Selected(o targets.Options) []string {
	var out []string
	for _, t := range targets.All {
		if d := o.Dir(t.Key); d != "" {
			out = append(out, t.Key+" ("+d+")")
		}
	}
	return out
}
