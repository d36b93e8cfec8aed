package gengo

import (
	"bytes"
	"fmt"
	"path"
	"strings"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/marker"
	"github.com/errgen/errgen/internal/targets"
	"github.com/errgen/errgen/runtime"
)

// GRPCDir is the grpcstatus module's directory inside the Go package's.
const GRPCDir = "grpcstatus"

// The grpcstatus module's go line and requirements: what `go mod tidy`
// writes for its imports (google.golang.org/grpc/status and codes, the
// genproto google.rpc code and errdetails packages, protobuf's proto and
// durationpb), pinned by errgen. Go 1.26 is the go line grpc 1.85 declares.
// The package's own module is required at the contract's release (v0.0.0
// without one) and replaced by the directory above: a replace directive
// applies only where grpcstatus is the main module (its own tests, the
// repository that generates it); a consumer gets at least the release of
// the package that grpcstatus was generated with, tagged with it.
const grpcGoVersion = "1.26.0"

var grpcRequires = [][2]string{
	{"google.golang.org/genproto/googleapis/rpc", "v0.0.0-20261110000943-09e21b237f2c"},
	{"google.golang.org/grpc", "v1.85.0"},
	{"google.golang.org/protobuf", "v1.36.12"},
}

var grpcIndirect = [][2]string{
	{"golang.org/x/sys", "v0.48.0"},
}

// grpcFiles returns the grpcstatus module: its go.mod and its one file.
func grpcFiles(c *contract.Contract, o targets.Options) (map[string][]byte, error) {
	if !o.Packages.GoModule || o.Packages.GoImportPath == "" {
		return nil, fmt.Errorf("gengo: the grpcstatus module needs the Go package to be a module with an import path")
	}
	dir := path.Join(Dir(o), GRPCDir)
	core := o.Packages.GoImportPath
	var mod bytes.Buffer
	fmt.Fprintf(&mod, "// %s\n\nmodule %s\n\ngo %s\n\nrequire (\n\t%s v%s\n", marker.Text, GRPCModulePath(c, o), grpcGoVersion, core, orZero(c.Release))
	for _, r := range grpcRequires {
		fmt.Fprintf(&mod, "\t%s %s\n", r[0], r[1])
	}
	mod.WriteString(")\n\nrequire ")
	for _, r := range grpcIndirect {
		fmt.Fprintf(&mod, "%s %s // indirect\n", r[0], r[1])
	}
	fmt.Fprintf(&mod, "\nreplace %s => ../\n", core)

	// The file is the runtime's (runtime/go/_grpcstatus), written for the
	// reference package and renamed for this one.
	src, err := runtime.GRPCStatus("// "+marker.Text, core, o.Packages.Go)
	if err != nil {
		return nil, fmt.Errorf("gengo: grpcstatus: %w", err)
	}
	return map[string][]byte{
		path.Join(dir, "go.mod"):        mod.Bytes(),
		path.Join(dir, "grpcstatus.go"): src,
	}, nil
}

// GRPCModulePath is the grpcstatus module's path: the package's, with
// grpcstatus before the major suffix from release 2.0.0 on (the package
// example.com/p/v2 has example.com/p/grpcstatus/v2 beside it, in the
// directory grpcstatus of the package's, tagged <dir>/grpcstatus/v2.y.z).
func GRPCModulePath(c *contract.Contract, o targets.Options) string {
	suffix := contract.GoMajorSuffix(c.Release)
	core := o.Packages.GoImportPath
	if suffix == "" || !strings.HasSuffix(core, suffix) {
		return core + "/" + GRPCDir
	}
	return strings.TrimSuffix(core, suffix) + "/" + GRPCDir + suffix
}

func orZero(release string) string {
	if release == "" {
		return "0.0.0"
	}
	return release
}
