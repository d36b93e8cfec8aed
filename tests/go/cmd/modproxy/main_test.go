package main

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"

	"github.com/errgen/errgen/internal/config"
	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/targets"
)

// TestReferenceModules is the Go registry's pre-publish check of this
// repository's generated modules (errgen.yaml: the package, a module, and
// its grpcstatus module): each passes the module zip rules at the version
// the contract releases, and publishes into a file proxy whose zip holds
// the module's own files only (never the nested grpcstatus module's).
func TestReferenceModules(t *testing.T) {
	root := filepath.Join("..", "..", "..", "..")
	cfg, err := config.LoadFile(filepath.Join(root, config.FileName))
	if err != nil {
		t.Fatal(err)
	}
	c, err := contract.LoadFile(cfg.Contract)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := cfg.Options(c)
	if err != nil {
		t.Fatal(err)
	}
	release := c.Release
	if release == "" {
		t.Fatalf("the reference contract (version %q) has no release", c.VersionLabel())
	}
	core := opts.Packages.GoImportPath
	dir := filepath.Join(root, filepath.FromSlash(opts.Dir(targets.Go)))
	proxy := t.TempDir()
	for _, m := range []struct{ dir, path string }{{dir, core}, {filepath.Join(dir, "grpcstatus"), core + "/grpcstatus"}} {
		mv := module.Version{Path: m.path, Version: "v" + release}
		if _, err := check(m.dir, mv); err != nil {
			t.Fatal(err)
		}
		if err := publish(m.dir, mv, proxy); err != nil {
			t.Fatal(err)
		}
		ep, _ := module.EscapePath(mv.Path)
		at := filepath.Join(proxy, filepath.FromSlash(ep), "@v")
		if list, err := os.ReadFile(filepath.Join(at, "list")); err != nil || string(list) != mv.Version+"\n" {
			t.Fatalf("%s/list: %q, %v", at, list, err)
		}
		zipFile := filepath.Join(at, mv.Version+".zip")
		if _, err := modzip.CheckZip(mv, zipFile); err != nil {
			t.Fatal(err)
		}
		z, err := zip.OpenReader(zipFile)
		if err != nil {
			t.Fatal(err)
		}
		var goMod bool
		for _, f := range z.File {
			name := strings.TrimPrefix(f.Name, mv.String()+"/")
			goMod = goMod || name == "go.mod"
			if m.path == core && strings.HasPrefix(name, "grpcstatus/") {
				t.Errorf("%s: the zip holds the nested module's %s", zipFile, name)
			}
		}
		z.Close()
		if !goMod {
			t.Errorf("%s holds no go.mod", zipFile)
		}
		if err := publish(m.dir, mv, proxy); err == nil || !strings.Contains(err.Error(), "already published") {
			t.Errorf("publishing %s twice: %v, want already published", mv, err)
		}
	}
	// From v2 on, the module path must end in /vN.
	if _, err := check(dir, module.Version{Path: core, Version: "v2.0.0"}); err == nil {
		t.Errorf("%s at v2.0.0 passed the check; its path has no /v2", core)
	}
}
