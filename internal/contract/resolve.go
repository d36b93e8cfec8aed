package contract

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
)

// Files resolves imports on the file system: a path relative to the
// importing file, and a Go module through the go command, run in the
// directory of the contract being loaded so that its go.mod (and its
// replace directives, and go.sum's checks) decide the version. protobuf's
// and buf's way, a pinned dependency of the repository, with the pin kept
// where the repository's owners already keep Go's.
type Files struct {
	// Dir is where the go command runs: the loaded contract's directory.
	Dir string
	// Go runs the go command in dir and returns its standard output; nil
	// runs the real one. Tests give a fake.
	Go func(dir string, args ...string) ([]byte, error)

	modules map[string]*goModule
}

// NewFiles is the resolver for the contract file at file.
func NewFiles(file string) *Files {
	return &Files{Dir: filepath.Dir(file)}
}

type goModule struct {
	Path, Version, Dir string
	Replace            *goModule
	err                error
}

// Resolve reads the file spec names, imported from the file from.
func (r *Files) Resolve(from *ImportFile, spec *ImportSpec) (*ImportFile, error) {
	if spec.Module != "" {
		return r.module(spec)
	}
	rel := filepath.FromSlash(spec.Path)
	out := &ImportFile{Path: filepath.Join(filepath.Dir(from.Path), rel)}
	if from.ModuleDir != "" {
		// Inside a module, a path stays inside it: what lies outside is
		// not in the module's zip, so it would differ from one machine to
		// the next.
		inside, err := filepath.Rel(from.ModuleDir, out.Path)
		if err != nil || inside == ".." || strings.HasPrefix(inside, ".."+string(filepath.Separator)) {
			return nil, LeavesModule(spec.Path, from.Module)
		}
		out.Module, out.ModuleVersion, out.ModuleDir = from.Module, from.ModuleVersion, from.ModuleDir
		out.Name = moduleName(from.Module, from.ModuleVersion, filepath.ToSlash(inside))
	} else {
		out.Name = filepath.Join(filepath.Dir(from.Name), rel)
	}
	return ReadImport(out, spec.Path)
}

// module finds spec's module as the go.mod in r.Dir requires it.
func (r *Files) module(spec *ImportSpec) (*ImportFile, error) {
	m := r.find(spec.Module)
	if m.err != nil {
		return nil, m.err
	}
	dir, name := m.Dir, ""
	if m.Replace != nil && m.Replace.Version == "" {
		// A replace directive to a directory: positions name the file
		// there, where its owner edits it, as they name a file imported by
		// path: relative to the working directory when the contract's
		// path is (the go command gives the directory absolute).
		name = filepath.Join(dir, filepath.FromSlash(spec.Path))
		if wd, err := os.Getwd(); err == nil && !filepath.IsAbs(r.Dir) && filepath.IsAbs(name) {
			if rel, err := filepath.Rel(wd, name); err == nil {
				name = rel
			}
		}
	} else {
		name = moduleName(spec.Module, m.Version, spec.Path)
	}
	clean, err := spec.FileInModule()
	if err != nil {
		return nil, err
	}
	out := &ImportFile{Path: filepath.Join(dir, filepath.FromSlash(clean)), Name: name,
		Module: spec.Module, ModuleVersion: m.Version, ModuleDir: dir}
	return ReadImport(out, spec.Path)
}

// FileInModule is the clean slash path of the file an import by module
// names inside the module, or an error when the path leaves it.
func (spec *ImportSpec) FileInModule() (string, error) {
	clean := path.Clean(spec.Path)
	if path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
		return "", fmt.Errorf("path %s leaves the module %s; name a file inside it (e.g. %s)", spec.Path, spec.Module, DefaultModuleFile)
	}
	return clean, nil
}

// LeavesModule is the error for an import by path, written in a file of
// module, that names a file outside the module.
func LeavesModule(written, module string) error {
	return fmt.Errorf("%s leaves the module %s; an import inside a module names a file of the same module", written, module)
}

func moduleName(module, version, file string) string {
	if version != "" {
		module += "@" + version
	}
	return module + "/" + file
}

// ReadImport reads out's file from disk (out.Path, which must be a regular
// file), saying what is wrong in terms of the import as written. compat's
// resolver reads what lies outside the repository with it too.
func ReadImport(out *ImportFile, written string) (*ImportFile, error) {
	data, err := ReadRegularFile(out.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		where := "no such file"
		if out.Module != "" {
			where = "the module " + out.Module + " has no such file"
		}
		return nil, fmt.Errorf("cannot import %s: %s (%s)", written, where, out.Name)
	case errors.Is(err, ErrDirectory):
		return nil, fmt.Errorf("cannot import %s: it is a directory; name the contract file in it", written)
	case errors.Is(err, ErrNotRegular):
		return nil, fmt.Errorf("cannot import %s: it is not a regular file; name the contract file", written)
	case err != nil:
		return nil, fmt.Errorf("cannot read %s: %v", out.Name, unwrapPath(err))
	}
	out.Data = data
	// One file reached through a symbolic link is still one file: the
	// same contract, not a second one defining the same names.
	out.Key = realPath(out.Path)
	return out, nil
}

// ErrDirectory and ErrNotRegular are what ReadRegularFile returns for a
// path that names no regular file.
var (
	ErrDirectory  = errors.New("is a directory")
	ErrNotRegular = errors.New("not a regular file")
)

// ReadRegularFile is ReadFile for a file an import names: it must be a
// regular file (after symbolic links), checked before it is opened, so
// that a FIFO never blocks the run and a device is never read.
func ReadRegularFile(path string) ([]byte, error) {
	info, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, err
	case info.IsDir():
		return nil, ErrDirectory
	case !info.Mode().IsRegular():
		return nil, ErrNotRegular
	}
	return ReadFile(path)
}

// realPath is p absolute with its symbolic links resolved, or p when that
// fails.
func realPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	return p
}

// unwrapPath drops the path an *fs.PathError repeats.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// find asks the go command where module is: go list -m names the version
// the build list selects (and the replacement), go mod download fetches it
// into the module cache when it is not there yet, checking go.sum.
func (r *Files) find(module string) *goModule {
	if m := r.modules[module]; m != nil {
		return m
	}
	if r.modules == nil {
		r.modules = map[string]*goModule{}
	}
	m := &goModule{}
	r.modules[module] = m
	out, err := r.run("list", "-m", "-json", module)
	if err != nil {
		m.err = r.goError(module, err)
		return m
	}
	if err := json.Unmarshal(out, m); err != nil {
		m.err = fmt.Errorf("go list -m %s printed what errgen cannot read: %v", module, err)
		return m
	}
	get := module
	if m.Replace != nil {
		// The replacement is what the build uses: a directory, or another
		// module's version, which go list names without a directory until
		// it is in the module cache.
		m.Dir = m.Replace.Dir
		if m.Replace.Version != "" {
			get, m.Version = m.Replace.Path, m.Replace.Version
		}
	}
	if m.Dir == "" {
		// go mod download -json reports a failure as a string Error in
		// its JSON, exiting 1 with nothing on standard error: the JSON is
		// read whether or not the command succeeded.
		var dl struct{ Dir, Error string }
		out, err := r.run("mod", "download", "-json", get+"@"+m.Version)
		jsonErr := json.Unmarshal(out, &dl)
		switch {
		case jsonErr == nil && dl.Error != "":
			m.err = fmt.Errorf("cannot download %s@%s: %s", get, m.Version, strings.TrimPrefix(dl.Error, get+"@"+m.Version+": "))
		case err != nil:
			m.err = r.goError(module, err)
		case jsonErr != nil:
			m.err = r.goError(module, jsonErr)
		default:
			m.Dir = dl.Dir
		}
	}
	return m
}

func (r *Files) run(args ...string) ([]byte, error) {
	if r.Go != nil {
		return r.Go(r.Dir, args...)
	}
	out, stderr, err := GoCommand(r.Dir, args...)
	if err != nil {
		if stderr != "" {
			return out, errors.New(stderr)
		}
		if errors.Is(err, exec.ErrNotFound) {
			return nil, errors.New("the go command is not installed")
		}
	}
	return out, err
}

// GoCommand runs the go command in dir: its standard output, its standard
// error (trimmed) and the error from running it. The go.mod decides, not a
// go.work above it: a workspace is a developer's local override, usually
// not committed, and the outputs (and compat, which reads a revision's
// go.mod) must not depend on it.
func GoCommand(dir string, args ...string) ([]byte, string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return stdout.Bytes(), strings.TrimSpace(stderr.String()), err
}

// goError turns what the go command says into what to do.
func (r *Files) goError(module string, err error) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "not a known dependency"):
		gomod := "the go.mod of " + displayDir(r.Dir)
		if out, err := r.run("env", "GOMOD"); err == nil && len(bytes.TrimSpace(out)) > 0 {
			gomod = string(bytes.TrimSpace(out))
		}
		return fmt.Errorf("module %s is not required by %s: run go get %s@VERSION in its directory, so that go.mod pins the version imported", module, gomod, module)
	case strings.Contains(msg, "go.mod file not found") || strings.Contains(msg, "without a main module") || strings.Contains(msg, "cannot find main module"):
		return fmt.Errorf("module %s: no go.mod at or above %s; an import by module takes its version from the repository's go.mod: run go mod init there, then go get %s@VERSION", module, displayDir(r.Dir), module)
	case strings.Contains(msg, "the go command is not installed"):
		return fmt.Errorf("module %s: an import by module needs the go command, which is not installed; install Go, or import the file by path", module)
	}
	return fmt.Errorf("cannot resolve module %s: %s", module, strings.ReplaceAll(msg, "\n", "; "))
}

func displayDir(dir string) string {
	if dir == "" || dir == "." {
		return "the current directory"
	}
	return dir
}
