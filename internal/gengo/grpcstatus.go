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

// grpcFiles returns the grpcstatus module: its go.mod and its one file.
func grpcFiles(c *contract.Contract, o targets.Options) (map[string][]byte, error) {
	if !o.Packages.GoModule || o.Packages.GoImportPath == "" {
		return nil, fmt.Errorf("gengo: the grpcstatus module needs the Go package to be a module with an import path")
	}
	dir := path.Join(Dir(o), GRPCDir)
	core := o.Packages.GoImportPath
	var mod bytes.Buffer
	if err := goTemplates.ExecuteTemplate(&mod, "grpcstatus.go.mod.tmpl", struct{ Header, Module, Core, Release string }{
		marker.Text, GRPCModulePath(c, o), core, c.Release}); err != nil {
		return nil, fmt.Errorf("gengo: grpcstatus go.mod: %w", err)
	}

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
