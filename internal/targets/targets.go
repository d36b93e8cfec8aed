package targets

import "github.com/errgen/errgen/internal/naming"

// All is every output, in the order errgen.yaml documents them. Adding a
// target is one entry here and one emitter in internal/generate's
// emitters.go (docs/architecture.md, "Adding a language", has the rest);
// TestEveryTargetIsComplete in internal/generate fails while a piece is
// missing.
var All = []*Target{
	{
		Key: Go, Summary: "The Go package: stdlib-only.", Lang: naming.Go, OnByDefault: true,
		Forms:   []func(*naming.Forms) string{func(f *naming.Forms) string { return f.Go }},
		Dir:     func(p Packages) string { return "gen/go/" + p.Go },
		Names:   func(name string, p *Packages) { p.Go = naming.GoPackage(name) },
		Keys:    []string{"package", "import_path", "module", "grpc"},
		Headers: map[string][2]string{".go": {"// ", ""}, ".mod": {"// ", ""}}, // .mod: the package's go.mod, when it is a module
		Init: `  # A stdlib-only Go package.
  go:
    dir: {{.Dir.go}}
    # package: {{.Packages.Go}}    # the package name; from the contract name by default
{{- if .ImportPath}}
    import_path: {{.ImportPath}}
    # Its own module (a go.mod with no requires): importers never get
    # errgen's dependencies in their module graph.
    module: true
    # grpc: true                 # also <dir>/grpcstatus, a module of its own
    #                            # converting to and from gRPC's status.Status
{{- else}}
    # import_path: example.com/you/repo/{{.Dir.go}}
    # module: true               # with import_path: a go.mod of its own, so
    #                            # importers never get errgen's dependencies
{{- end}}
`,
	},
	{
		Key: TypeScript, Name: "ts", Summary: "The npm package: ES modules, compiled JavaScript and type declarations.",
		Lang: naming.TypeScript, OnByDefault: true,
		Forms:   []func(*naming.Forms) string{func(f *naming.Forms) string { return f.TSType }, func(f *naming.Forms) string { return f.TSLocal }},
		Dir:     func(Packages) string { return "gen/ts" },
		Names:   func(name string, p *Packages) { p.NPM = naming.NPMPackage(name) },
		Keys:    []string{"name"},
		Headers: map[string][2]string{".ts": {"// ", ""}, ".js": {"// ", ""}, ".md": {"<!-- ", " -->"}}, // .ts: .d.ts too
		Init: `  # An npm package (ES modules, with its compiled JavaScript and type
  # declarations): npm install <this directory>.
  typescript:
    dir: gen/ts
    # name: "@your-scope/{{.Packages.NPM}}"   # the npm name; scoped names are allowed
`,
	},
	{
		Key: Python, Summary: "The typed Python package.", Lang: naming.Python, OnByDefault: true,
		Forms: []func(*naming.Forms) string{func(f *naming.Forms) string { return f.PythonConst }, func(f *naming.Forms) string { return f.PythonLocal }},
		Dir:   func(Packages) string { return "gen/python" },
		Names: func(name string, p *Packages) {
			p.Python, p.PythonDist = naming.PythonLocal(name), naming.NPMPackage(name)
		},
		Keys:    []string{"distribution", "package"},
		Headers: map[string][2]string{".py": {"# ", ""}, ".toml": {"# ", ""}, ".typed": {"# ", ""}, ".md": {"<!-- ", " -->"}},
		Init: `  # A typed Python package: pip install <this directory>.
  python:
    dir: gen/python
    # distribution: {{.Packages.PythonDist}}   # the name pip installs
    # package: {{.Packages.Python}}    # the name Python imports
`,
	},
	{
		Key: Rust, Summary: "The Rust crate: serde and serde_json its only dependencies.", Lang: naming.Rust, OnByDefault: true,
		Forms:   []func(*naming.Forms) string{func(f *naming.Forms) string { return f.RustType }, func(f *naming.Forms) string { return f.RustLocal }},
		Dir:     func(p Packages) string { return "gen/rust/" + p.Crate },
		Names:   func(name string, p *Packages) { p.Crate = naming.CargoPackage(name) },
		Keys:    []string{"crate"},
		Headers: map[string][2]string{".rs": {"// ", ""}, ".toml": {"# ", ""}, ".md": {"<!-- ", " -->"}},
		Init: `  # A Rust crate (serde and serde_json its only dependencies): a path or git
  # dependency in Cargo.toml.
  rust:
    dir: gen/rust/{{.Packages.Crate}}
    # crate: {{.Packages.Crate}}   # the Cargo package name (imported with - as _)
`,
	},
	{
		Key: Schemas, Summary: "The JSON Schemas of the envelope (producer and consumer), the contract file and this file.", OnByDefault: true,
		Dir: func(Packages) string { return "schemas" },
		Init: `  # JSON Schemas of the envelope (producer and consumer) and of this file.
  schemas:
    dir: schemas
`,
	},
	{
		Key: Docs, Summary: "The Markdown reference.", OnByDefault: true,
		Dir:     func(Packages) string { return "docs" },
		Headers: map[string][2]string{".md": {"<!-- ", " -->"}},
		Init: `  # The Markdown reference.
  docs:
    dir: docs
`,
	},
	{
		Key: Conformance, Summary: "The conformance vectors every language's tests share.", OnByDefault: true,
		Dir: func(Packages) string { return "conformance" },
		Init: `  # Test vectors every language's tests share.
  conformance:
    dir: conformance
`,
	},
	{
		Key: OpenAPI, Summary: "The OpenAPI 3.1 document of the contract's error responses (components for an API document to $ref).", OnByDefault: true,
		Dir:     func(Packages) string { return "openapi" },
		Headers: map[string][2]string{".yaml": {"# ", ""}},
		Init: `  # An OpenAPI 3.1 document of the error responses (schemas, responses,
  # headers) that your API document can $ref.
  openapi:
    dir: openapi
`,
	},
}

// Packages are the names of the generated packages: derived from the
// contract's name (each target's Names), or set by a generation config
// (internal/config). A target whose package has a name adds its field here.
type Packages struct {
	Go     string // the Go package name: agenterror
	NPM    string // the npm package name, scoped or not: agent-error, @acme/agent-error
	Python string // the Python import name: agent_error
	// PythonDist is the Python distribution name (pyproject's project.name):
	// agent-error.
	PythonDist string
	// Crate is the Cargo package name of the Rust crate: agent-error (its
	// library is imported as agent_error).
	Crate string
	// GoImportPath is the Go package's import path; empty when no config
	// names it (the package is then part of whatever module holds it).
	GoImportPath string
	// GoModule makes the Go package a module of its own: its directory gets
	// a go.mod (module GoImportPath, no requires), so a consumer's module
	// graph never holds the generator's dependencies.
	GoModule bool
	// GoGRPC adds the grpcstatus module beside the Go package (in its
	// grpcstatus directory): conversions to and from
	// google.golang.org/grpc/status, whose dependencies the package itself
	// never takes. It needs GoModule.
	GoGRPC bool
	// License (an SPDX expression) and Repository (a URL) are what the
	// registries show of every package (package.json, pyproject.toml,
	// Cargo.toml): the generation config's metadata; empty when it gives
	// none.
	License, Repository string
}
