package contract

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// A contract may import others: a platform's base vocabulary that service
// contracts build on. The design, and what it takes from protobuf, buf,
// Smithy and TypeSpec, is in docs/imports.md. In short:
//
//   - An import names a file by path (relative to the importing file) or by
//     Go module (the owner's go.mod pins the version, go.sum checks it; the
//     Resolver asks the go command, see resolve.go).
//   - The importing contract inherits everything of what it imports and may
//     add only kinds, groups, origins and retired names (addable). What
//     every service must share, the recovery actions, same-argument and
//     side-effect values, the envelope's context fields and layout, the
//     fallback and the policies, come from the base and cannot be written
//     again (inherited); its wire version too. So a service's envelopes are
//     the platform's envelopes, and the platform's packages read them.
//   - Names live in one validated namespace: a name the base defines cannot
//     be defined again, and every identifier check runs over the whole. The
//     wire carries kinds as flat strings, so prefixes or namespaces would
//     change what the platform's packages read.
//
// Imports are merged as YAML before the model is built: the base's nodes
// join the importing contract's tree, and the loader validates the whole as
// one contract. Every node keeps its file (loader.files), so a problem is
// reported in the file that made it, and the model's positions (compat's)
// point into the base where the base wrote something.

// addable are the sections an importing contract may extend.
var addable = map[string]bool{"origins": true, "groups": true, "kinds": true, "retired": true}

// InheritedSections are the sections only an imported contract may write
// (the contract's JSON Schema says the same, from this list).
var InheritedSections = []string{"recovery_actions", "same_arguments", "side_effects", "context_fields", "fallback",
	"layout", "inbound", "retry", "surfaces", "sanitize", "call_error"}

var inherited = func() map[string]bool {
	m := make(map[string]bool, len(InheritedSections))
	for _, s := range InheritedSections {
		m[s] = true
	}
	return m
}()

// Import is a contract that the loaded contract builds on, directly or
// through another import.
type Import struct {
	// Name and Version are the imported contract's contract.name and
	// version label.
	Name, Version string
	// File is how positions name the imported file.
	File string
	// Module and ModuleVersion are the Go module that ships the file and
	// the version the importing repository's go.mod selects; ModuleFile is
	// the file's path inside the module. Empty for an import by path.
	Module, ModuleVersion, ModuleFile string
	// Path is the path as an import by path writes it.
	Path string
	// Pos is where the loaded contract imports it (File empty: in the
	// loaded contract itself); Direct is false for an import of an import.
	Pos    Pos
	Direct bool
}

// Label names the import for readers: module@version/file or the path.
func (i *Import) Label() string {
	if i.Module == "" {
		return i.Path
	}
	v := ""
	if i.ModuleVersion != "" {
		v = "@" + i.ModuleVersion
	}
	return i.Module + v + "/" + i.ModuleFile
}

// ImportSpec is one entry of a contract's imports section.
type ImportSpec struct {
	// Path is the file: relative to the importing file, or with Module,
	// inside the module (DefaultModuleFile when not written).
	Path   string
	Module string
	// Version is the imported contract's version the importing contract
	// expects, "" when the entry does not say.
	Version string
	node    *yaml.Node // the entry, where problems of the import are reported
	pathN   *yaml.Node
	modN    *yaml.Node
	verN    *yaml.Node
}

// DefaultModuleFile is where an import by module looks in the module when
// it names no path: where errgen init puts a contract.
const DefaultModuleFile = "contract/kinds.yaml"

// ImportFile is a contract file as a Resolver found it.
type ImportFile struct {
	// Path is where the file is read (the key of cycle checks and of the
	// cache: one file imported twice is loaded once).
	Path string
	// Name is how positions name it.
	Name string
	// Module, ModuleVersion and ModuleDir locate a file inside a Go module:
	// an import by path from it stays inside ModuleDir.
	Module, ModuleVersion, ModuleDir string
	Data                             []byte
	// Key, when set, names the file for cycle checks and the cache in
	// Path's place: the Files resolver's real path, so that one file
	// reached through a symbolic link is one file.
	Key string
}

// key is what tells f from another file.
func (f *ImportFile) key() string {
	if f.Key != "" {
		return f.Key
	}
	return f.Path
}

// Resolver finds the file an import names.
type Resolver interface {
	Resolve(from *ImportFile, spec *ImportSpec) (*ImportFile, error)
}

// session loads one contract and everything it imports.
type session struct {
	r     Resolver
	done  map[string]*loaded // by ImportFile.key()
	stack []*ImportFile      // the files being loaded, for cycles
}

// loaded is one file's result: its tree with its imports merged in, which
// file each node came from, and the contract.
type loaded struct {
	src  *ImportFile
	root *yaml.Node
	// inherited names the file of each node that src's imports brought;
	// files adds src's own nodes, once something imports src.
	inherited map[*yaml.Node]string
	files     map[*yaml.Node]string
	c         *Contract
	imports   []*Import // direct and transitive, each file once
	problems  Problems
	size      int
}

// importSpecs reads the imports section: a list of entries, each with path
// or module (and path inside it), and optionally version.
func (l *loader) importSpecs(root *yaml.Node) []*ImportSpec {
	key, val := mapGet(root, "imports")
	if key == nil {
		return nil
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		// Only the first is read, and the merge drops them all: a second
		// would go unread, unreported.
		if k := root.Content[i]; k != key && k.Kind == yaml.ScalarNode && k.Value == "imports" {
			l.errorf(k, "duplicate key %q (first at line %d); a key may appear only once, so remove or rename one", k.Value, key.Line)
		}
	}
	if val.Kind == yaml.SequenceNode && len(val.Content) == 0 {
		l.errorf(key, "imports is empty; list the contracts to build on (e.g. - path: ../platform/kinds.yaml), or remove it")
		return nil
	}
	if val.Kind != yaml.SequenceNode {
		l.errorf(key, "imports must be a list of contracts to build on (e.g. - path: ../platform/kinds.yaml, or - module: example.com/platform/errors), found %s", describeNode(val))
		return nil
	}
	var specs []*ImportSpec
	for i, item := range val.Content {
		what := fmt.Sprintf("imports[%d]: ", i)
		if item.Kind == yaml.ScalarNode && item.Tag == "!!str" {
			l.errorf(item, "%san entry names the file with path: or module: (e.g. - path: %s)", what, item.Value)
			continue
		}
		m := l.asMapping(item, item, what, "")
		if m == nil {
			continue
		}
		s := &ImportSpec{node: item}
		s.Path, s.pathN = m.str("path", false)
		s.Module, s.modN = m.str("module", false)
		if _, vv := m.get("version"); vv != nil {
			if vv.Kind != yaml.ScalarNode || vv.Tag == "!!null" || isBlank(vv.Value) {
				l.errorf(vv, "%sversion must be the imported contract's version (e.g. version: 1), found %s", what, describeNode(vv))
			} else {
				s.Version, s.verN = vv.Value, vv
			}
		}
		m.done("path", "module", "version")
		switch {
		case s.pathN != nil && isBlank(s.Path):
			l.errorf(s.pathN, "%spath must not be blank; name the contract file (relative to this one, or with module: inside the module)", what)
			continue
		case s.pathN == nil && s.modN == nil:
			l.errorf(item, "%sname the contract to import: path: (a file, relative to this one) or module: (a Go module your go.mod requires)", what)
			continue
		case s.modN != nil && !IsModulePath(s.Module):
			l.errorf(s.modN, "%smodule %q is not a Go module path (e.g. example.com/platform/errors)", what, s.Module)
			continue
		case s.modN == nil && strings.HasPrefix(s.Path, "/"):
			l.errorf(s.pathN, "%spath %q is absolute; write it relative to this file, so the repository works wherever it is checked out", what, s.Path)
			continue
		case s.modN != nil && s.pathN == nil:
			s.Path = DefaultModuleFile
		}
		specs = append(specs, s)
	}
	return specs
}

// load loads src and, first, every contract it imports.
func (s *session) load(src *ImportFile) (out *loaded) {
	if done := s.done[src.key()]; done != nil {
		return done
	}
	out = &loaded{src: src, size: len(src.Data)}
	l := newLoader(src.Name)
	defer func() {
		// The YAML parser is third-party code fed user input; whatever it
		// does, the caller gets a positioned problem rather than a crash.
		if r := recover(); r != nil {
			out.c = nil
			out.problems = append(l.problems, Problem{File: src.Name, Pos: Pos{Line: 1, Col: 1}, Message: fmt.Sprintf("cannot parse the contract: %v", r)})
		}
	}()
	s.done[src.key()] = out
	// Bounds and encoding first (bounds.go), then the characters no text may
	// hold (text.go).
	if !l.checkInput(src.Data) || !l.rawText(src.Data) {
		out.problems = l.problems
		return out
	}
	root := l.parse(src.Data)
	if root == nil {
		out.problems = l.problems
		return out
	}
	l.text(src.Data, root, make([]string, 0, 16))
	before := len(l.problems)
	specs := l.importSpecs(root)
	if k, _ := mapGet(root, "imports"); k != nil {
		var failed bool
		root, failed = s.withImports(l, out, root, specs)
		// A malformed or failed import leaves the contract without what
		// it builds on: building it would report every missing reference.
		if failed || len(specs) == 0 && len(l.problems) > before {
			out.problems = l.problems
			return out
		}
	}
	out.inherited = l.files
	c := l.build(root)
	out.root = root
	if len(l.problems) > 0 {
		out.problems = l.problems
		return out
	}
	c.Size = out.size
	c.Imports = out.imports
	c.attribute(out.imports)
	c.oddGRPC()
	out.c = c
	return out
}

// withImports loads what specs name and returns root with it merged in.
func (s *session) withImports(l *loader, out *loaded, root *yaml.Node, specs []*ImportSpec) (*yaml.Node, bool) {
	if s.r == nil {
		k, _ := mapGet(root, "imports")
		l.errorf(k, "imports: this contract imports others, which errgen reads only from files: run errgen on the contract file")
		return root, true
	}
	var bases []*base
	for _, spec := range specs {
		b := s.importOne(l, out.src, spec)
		if b == nil {
			continue
		}
		bases = append(bases, b)
		out.size += b.size
		for n, f := range b.fileMap() {
			l.inFile(n, f)
		}
		out.imports = addImports(out.imports, b.imp, b.imports)
	}
	if len(bases) == 0 || len(bases) < len(specs) {
		return root, true
	}
	l.imported = map[string]*Import{}
	l.wire = bases[0].c
	for _, b := range bases {
		l.bases = append(l.bases, b.c)
	}
	for _, i := range out.imports {
		l.imported[i.File] = i
	}
	// A name of its own: the packages are named after the contract, and
	// a service's must not pass for the base's.
	_, header := mapGet(root, "contract")
	if _, name := mapGet(header, "name"); name != nil && name.Kind == yaml.ScalarNode {
		for _, i := range out.imports {
			if i.Name == name.Value {
				l.errorf(name, "contract: name %s is the imported contract's (%s); the packages are named after the contract, so a contract that imports another needs a name of its own (e.g. billing-error): rename it", name.Value, i.File)
				break
			}
		}
	}
	// What merge reports (a redefinition, a section the base owns) it
	// leaves out, so the contract still builds and every other problem is
	// found in the same run.
	return l.merge(root, bases), false
}

// base is an imported contract, loaded, and the entry that imported it.
type base struct {
	*loaded
	spec *ImportSpec
	imp  *Import
}

// importOne resolves and loads one import, reporting at the entry anything
// that stops it.
func (s *session) importOne(l *loader, from *ImportFile, spec *ImportSpec) *base {
	at := spec.modN
	if at == nil {
		at = spec.pathN
	}
	src, err := s.r.Resolve(from, spec)
	if err != nil {
		l.errorf(at, "imports: %v", err)
		return nil
	}
	open := append(s.stack, from)
	for i, o := range open {
		if o.key() == src.key() {
			chain := make([]string, 0, len(open)-i+1)
			for _, o := range open[i:] {
				chain = append(chain, o.Name)
			}
			chain = append(chain, src.Name)
			l.errorf(at, "imports: an import cycle: %s; a contract cannot build on itself, so remove one of these imports", strings.Join(chain, " imports "))
			return nil
		}
	}
	s.stack = append(s.stack, from)
	sub := s.load(src)
	s.stack = s.stack[:len(s.stack)-1]
	if sub.c == nil {
		l.problems = append(l.problems, sub.problems...)
		if len(sub.problems) > 0 {
			fix := "fix it there" // a file of this repository
			if src.Module != "" {
				fix = "its owners fix it, or import another version (go get " + src.Module + "@VERSION)"
			}
			l.errorf(at, "imports: %s does not load (its problems are listed with its name); %s", src.Name, fix)
		}
		return nil
	}
	imp := &Import{Name: sub.c.Name, Version: sub.c.VersionLabel(), File: src.Name, Pos: l.pos(spec.node), Direct: true}
	if spec.Module != "" {
		imp.Module, imp.ModuleVersion, imp.ModuleFile = spec.Module, src.ModuleVersion, spec.Path
	} else {
		imp.Path = spec.Path
	}
	if spec.verN != nil && spec.Version != imp.Version {
		// The version may be one the import inherits, in its own base.
		vfile := src.Name
		if f := sub.c.VersionPos.File; f != "" {
			vfile = f
		}
		l.errorf(spec.verN, "imports: version %s does not match: %s is contract %s version %s (%s:%d:%d); read what changed (errgen compat), then write version: %s",
			spec.Version, src.Name, imp.Name, imp.Version, vfile, sub.c.VersionPos.Line, sub.c.VersionPos.Col, imp.Version)
	}
	return &base{loaded: sub, spec: spec, imp: imp}
}

// addImports adds imp and, not direct, what it imports, each file once.
func addImports(list []*Import, imp *Import, through []*Import) []*Import {
	has := func(file string) bool {
		for _, i := range list {
			if i.File == file {
				return true
			}
		}
		return false
	}
	if !has(imp.File) {
		list = append(list, imp)
	}
	for _, t := range through {
		if !has(t.File) {
			cp := *t
			cp.Direct, cp.Pos = false, imp.Pos
			if t.Module == "" {
				// t's path is relative to imp's file: relative to this
				// one, it goes through imp's path, or inside imp's module.
				if imp.Module != "" {
					cp.Module, cp.ModuleVersion, cp.Path = imp.Module, imp.ModuleVersion, ""
					cp.ModuleFile = path.Clean(path.Join(path.Dir(imp.ModuleFile), t.Path))
				} else {
					cp.Path = path.Clean(path.Join(path.Dir(imp.Path), t.Path))
				}
			}
			list = append(list, &cp)
		}
	}
	return list
}

// attribute sets From on every value an import brought.
func (c *Contract) attribute(imports []*Import) {
	if len(imports) == 0 {
		return
	}
	byFile := make(map[string]*Import, len(imports))
	for _, i := range imports {
		byFile[i.File] = i
	}
	set := func(v *Value) { v.From = byFile[v.Pos.File] }
	for _, v := range Values(c.Origins) {
		set(v)
	}
	for _, v := range Values(c.Actions) {
		set(v)
	}
	for _, v := range Values(c.SameArguments) {
		set(v)
	}
	for _, v := range Values(c.SideEffects) {
		set(v)
	}
	for _, v := range Values(c.Groups) {
		set(v)
	}
	for _, k := range c.Kinds {
		set(&k.Value)
	}
	for _, r := range c.Retired {
		r.From = byFile[r.Pos.File]
	}
}

// fileMap names the file of every node of the loaded tree. It is built
// only for a contract something imports: a contract imported by none
// never pays for it.
func (d *loaded) fileMap() map[*yaml.Node]string {
	if d.files != nil {
		return d.files
	}
	d.files = make(map[*yaml.Node]string, len(d.inherited))
	for n, f := range d.inherited {
		d.files[n] = f
	}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil || d.inherited[n] != "" {
			return
		}
		d.files[n] = d.src.Name
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(d.root)
	return d.files
}

// modulePathRe is a Go module path as an import names it: a dotted first
// element (example.com/...), then path elements. The go command checks the
// rest when it resolves it.
var modulePathRe = regexp.MustCompile(ModulePathPattern)

// IsModulePath reports whether s is a Go module path as an import names it.
func IsModulePath(s string) bool { return modulePathRe.MatchString(s) }

// ModulePathPattern is modulePathRe's pattern, which the contract file's
// JSON Schema shares.
const ModulePathPattern = `^[a-z0-9][-a-z0-9]*(\.[-a-z0-9]+)+(/[A-Za-z0-9][-._~A-Za-z0-9]*)*$`

// inheritStatuses keeps the bases' reading of a bare HTTP status (HTTPKinds)
// for every status a base has a kind for: a service kind that shares the
// status would otherwise take it from the base's kind, and the service's
// packages would read a bare 504 as http_504 where the base's read timeout.
// Where two bases decide a status differently, neither decides it.
func (c *Contract) inheritStatuses(bases []*Contract) {
	decided := map[int]string{} // status -> the kind it reads as, "" for none
	for _, b := range bases {
		alone := map[int]string{}
		for _, k := range b.HTTPKinds {
			alone[k.HTTP] = k.Name
		}
		for _, s := range b.Statuses {
			name := alone[s.Status]
			if prev, ok := decided[s.Status]; ok && prev != name {
				name = ""
			}
			decided[s.Status] = name
		}
	}
	c.HTTPKinds = c.HTTPKinds[:0]
	for _, s := range c.Statuses {
		name, ok := decided[s.Status]
		switch {
		case ok && name != "":
			c.HTTPKinds = append(c.HTTPKinds, c.Kind(name))
		case !ok && len(s.Kinds) == 1:
			c.HTTPKinds = append(c.HTTPKinds, s.Kinds[0])
		}
	}
}
