package genschema

import (
	"strings"

	"github.com/errgen/errgen/internal/config"
	"github.com/errgen/errgen/internal/marker"
	"github.com/errgen/errgen/internal/targets"
	"github.com/invopop/jsonschema"
)

// ConfigSchema is the JSON Schema of errgen.yaml, the generation config. Its
// name patterns are internal/config's own; what a pattern cannot say (a path
// that leaves the config's directory, a Go keyword as a package name, two
// outputs in one directory) the loader alone checks, with a position.
func ConfigSchema() *jsonschema.Schema {
	// A path may not name errgen's own working files (the lock, a run's
	// journal or temporary files) in any component.
	working := &jsonschema.Schema{Pattern: marker.WorkingComponentPattern}
	dir := &jsonschema.Schema{Type: "string", Pattern: `^[^/\\]+(/[^/\\]+)*$`, Not: &jsonschema.Schema{AnyOf: []*jsonschema.Schema{{Enum: []any{"."}}, working}},
		Description: "The output's directory, relative to the config's directory, with forward slashes; a subdirectory of it, never the directory itself or outside it."}
	outputs := map[string]*jsonschema.Schema{}
	for _, t := range targets.All {
		members := []member{mem("dir", dir)}
		for _, key := range t.Keys {
			members = append(members, mem(key, settingSchemas[t.Key][key]))
		}
		outputs[t.Key] = closedObject(t.Summary, nil, members...)
	}
	// module: true needs import_path.
	goOut := outputs[targets.Go]
	moduleTrue := props()
	moduleTrue.Set("module", &jsonschema.Schema{Const: true})
	goOut.If = &jsonschema.Schema{Properties: moduleTrue, Required: []string{"module"}}
	goOut.Then = &jsonschema.Schema{Required: []string{"import_path"}}
	// grpc: true needs module: true.
	grpcTrue := props()
	grpcTrue.Set("grpc", &jsonschema.Schema{Const: true})
	moduleRequired := props()
	moduleRequired.Set("module", &jsonschema.Schema{Const: true})
	goOut.DependentSchemas = map[string]*jsonschema.Schema{"grpc": {
		If:   &jsonschema.Schema{Properties: grpcTrue, Required: []string{"grpc"}},
		Then: &jsonschema.Schema{Properties: moduleRequired, Required: []string{"module"}},
	}}
	var members []member
	for _, name := range targets.Keys() {
		o := outputs[name]
		// `go:` alone selects the output with its defaults.
		members = append(members, mem(name, &jsonschema.Schema{OneOf: []*jsonschema.Schema{{Type: "null"}, o}}))
	}
	out := closedObject("The outputs to generate; one left out is not generated. Without this section, every output is generated at its default directory.", nil, members...)
	out.MinProperties = uint64p(1)
	contractFile := &jsonschema.Schema{Type: "string", Pattern: `^[^/\\]+(/[^/\\]+)*$`, Not: working, Description: "The contract file, relative to this file's directory; " + config.DefaultContract + " when left out."}
	metadata := closedObject("What the registries show of every generated package (package.json, pyproject.toml, Cargo.toml); each left out is not declared.", nil,
		mem("license", str(config.LicensePattern, "The packages' license, an SPDX expression (MIT, Apache-2.0 OR MIT).")),
		mem("repository", str(config.RepositoryPattern, "The URL of the repository the packages are built from.")),
	)
	entry := closedObject("One contract and its outputs, generated as the part named name: its files' headers read errgen.yaml#<name>, and it owns exactly those.",
		[]string{"name", "contract"},
		mem("name", str(config.PartNamePattern, "The part's name, unique in the list.")),
		mem("contract", &jsonschema.Schema{Type: "string", Pattern: contractFile.Pattern, Not: working, Description: "The contract file, relative to this file's directory."}),
		// The single form's sections, by reference: one definition each.
		mem("metadata", &jsonschema.Schema{Ref: "#/properties/metadata"}),
		mem("outputs", &jsonschema.Schema{Ref: "#/properties/outputs"}),
	)
	contracts := &jsonschema.Schema{Type: "array", MinItems: uint64p(1), Items: entry,
		Description: "Several contracts generated in one run, each with its own outputs; instead of contract, metadata and outputs. Two entries may not share a name or an output directory."}
	s := closedObject("errgen's generation config (errgen.yaml): which outputs errgen generate writes, where, and under what package names. Every path is relative to this file's directory.",
		[]string{"version"},
		mem("version", &jsonschema.Schema{Const: 1, Description: "The config format's version: 1."}),
		mem("contract", contractFile),
		mem("metadata", metadata),
		mem("outputs", out),
		mem("contracts", contracts),
	)
	s.DependentSchemas = map[string]*jsonschema.Schema{"contracts": {Not: &jsonschema.Schema{AnyOf: []*jsonschema.Schema{
		{Required: []string{"contract"}}, {Required: []string{"metadata"}}, {Required: []string{"outputs"}},
	}}}}
	s.Version = draft
	s.ID = config.SchemaID
	s.Comments = marker.Text
	s.Title = "errgen generation config (" + strings.Join(targets.Keys(), ", ") + ")"
	return s
}

// settingSchemas are the schemas of each output's settings besides dir
// (targets.Target.Keys), by output and key.
var settingSchemas = map[string]map[string]*jsonschema.Schema{
	targets.Go: {
		"package":     str(config.GoPackagePattern, "The Go package name; by default the contract name's words joined (agent-error: agenterror)."),
		"import_path": {Type: "string", MinLength: uint64p(1), Description: "The package's import path (e.g. example.com/payments/gen/go/payerrors). Required with module: true. With module: true, from the contract's release 2.0.0 on the module path is this plus /vN (Go's semantic import versioning; the directory stays): write it without the suffix, or with the release's."},
		"module":      boolSchema("Whether the package is a module of its own: its directory gets a go.mod (module import_path, no requires), so an importer's module graph never holds errgen's dependencies. false when left out."),
		"grpc":        boolSchema("Whether to generate the grpcstatus package beside it, a module of its own (import_path/grpcstatus) converting envelopes to and from google.golang.org/grpc/status with ErrorInfo and RetryInfo details. Needs module: true. false when left out."),
	},
	targets.TypeScript: {
		"name": {Type: "string", Pattern: config.NPMNamePattern, MaxLength: uint64p(config.NPMNameMax), Description: "The npm name, optionally scoped (@acme/payments-errors); by default the contract name's words joined by -."},
	},
	targets.Python: {
		"distribution": str(config.PythonDistPattern, "The distribution name pip installs (project.name); by default the contract name's words joined by -."),
		"package":      str(config.PythonPackagePattern, "The import name; by default the contract name's words joined by _."),
	},
	targets.Rust: {
		"crate": {Type: "string", Pattern: config.CargoNamePattern, MaxLength: uint64p(config.CargoNameMax), Description: "The Cargo package name (its library is imported with - as _); by default the contract name's words joined by -."},
	},
}

// str is a string schema with a pattern.
func str(pattern, description string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Pattern: pattern, Description: description}
}
