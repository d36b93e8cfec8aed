// Command modproxy is the Go module proxy's pre-publish check of a generated
// Go module, and a release into a file GOPROXY: in tests/go,
//
//	go run ./cmd/modproxy -dir DIR -module PATH -version vX.Y.Z [-o PROXYDIR]
//
// checks DIR against the module zip rules of golang.org/x/mod/zip (the
// rules the go command applies to every module it downloads: file names,
// sizes, case collisions, nested modules left out) and that PATH and the
// version agree (from v2 on, the path ends in /vN), that DIR's go.mod
// declares PATH. With -o it then writes the release into PROXYDIR as a
// GOPROXY=file://PROXYDIR serves it: <module>/@v/list, <version>.info,
// .mod and .zip. tests/e2e/run.sh publishes the owner's modules with it;
// its test checks this repository's generated modules.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
	"golang.org/x/mod/zip"
)

func main() {
	dir := flag.String("dir", "", "the module's directory (required)")
	path := flag.String("module", "", "the module path (required)")
	version := flag.String("version", "", "the release, vMAJOR.MINOR.PATCH (required)")
	out := flag.String("o", "", "the file GOPROXY directory to publish into; empty: check only")
	flag.Parse()
	if *dir == "" || *path == "" || *version == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: modproxy -dir DIR -module PATH -version vX.Y.Z [-o PROXYDIR]")
		os.Exit(2)
	}
	mv := module.Version{Path: *path, Version: *version}
	omitted, err := check(*dir, mv)
	for _, o := range omitted {
		fmt.Fprintf(os.Stderr, "modproxy: %s@%s: left out of the zip: %s\n", mv.Path, mv.Version, o)
	}
	if err == nil && *out != "" {
		err = publish(*dir, mv, *out)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "modproxy:", err)
		os.Exit(1)
	}
}

// check applies the zip rules to dir and checks that the module's go.mod
// and version agree with mv. omitted lists what the zip leaves out (a
// nested module's directory, for one) with the reason.
func check(dir string, mv module.Version) (omitted []string, err error) {
	if err := module.Check(mv.Path, mv.Version); err != nil {
		return nil, err
	}
	if module.CanonicalVersion(mv.Version) != mv.Version {
		return nil, fmt.Errorf("%s: the version %q is not canonical (vMAJOR.MINOR.PATCH)", mv.Path, mv.Version)
	}
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return nil, err
	}
	if got := modfile.ModulePath(data); got != mv.Path {
		return nil, fmt.Errorf("%s/go.mod declares module %q, not %q", dir, got, mv.Path)
	}
	files, err := zip.CheckDir(dir)
	for _, f := range files.Omitted {
		omitted = append(omitted, fmt.Sprintf("%s (%v)", f.Path, f.Err))
	}
	if err != nil {
		return omitted, fmt.Errorf("%s@%s breaks the module zip rules: %w", mv.Path, mv.Version, err)
	}
	return omitted, nil
}

// publish writes mv, made from dir, into the file proxy at out.
func publish(dir string, mv module.Version, out string) error {
	ep, err := module.EscapePath(mv.Path)
	if err != nil {
		return err
	}
	ev, err := module.EscapeVersion(mv.Version)
	if err != nil {
		return err
	}
	at := filepath.Join(out, filepath.FromSlash(ep), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		return err
	}
	base := filepath.Join(at, ev)
	if _, err := os.Stat(base + ".zip"); err == nil {
		return fmt.Errorf("%s@%s is already published", mv.Path, mv.Version)
	}
	z, err := os.Create(base + ".zip")
	if err != nil {
		return err
	}
	err = zip.CreateFromDir(z, mv, dir)
	if cerr := z.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	info, _ := json.Marshal(struct {
		Version string
		Time    time.Time
	}{mv.Version, time.Now().UTC().Truncate(time.Second)})
	list, err := os.ReadFile(filepath.Join(at, "list"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	versions := strings.Fields(string(list))
	versions = append(versions, mv.Version)
	semver.Sort(versions)
	for _, f := range []struct {
		name string
		data []byte
	}{{base + ".mod", mod}, {base + ".info", info}, {filepath.Join(at, "list"), []byte(strings.Join(versions, "\n") + "\n")}} {
		if err := os.WriteFile(f.name, f.data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
