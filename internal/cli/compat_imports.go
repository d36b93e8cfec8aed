package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	"github.com/errgen/errgen/internal/contract"
)

// revResolver resolves the imports of a contract read from git at a
// revision, as they were at that revision: compat compares the contract
// that revision built, base included, with the one the working tree builds.
//
//   - An import by path is read with git at the revision, relative to the
//     importing file's path in the repository. A path that leaves the
//     repository is not versioned with it and is read from disk.
//   - An import by module takes the version the go.mod at the revision
//     requires (the nearest go.mod at or above the contract's directory),
//     after its replace directives: a replace to a directory inside the
//     repository reads that directory at the revision, one outside it reads
//     the disk, one to another module version uses that version. The module
//     is fetched with go mod download (into the module cache, run outside
//     any module so that nothing in the repository changes) and checked
//     against the go.sum at the revision when it lists the version.
//   - What a module file imports by path stays inside the module, as with
//     contract.Files.
type revResolver struct {
	rev  string
	dir  string // where git runs: the new contract's directory
	top  string // the repository's top level on disk
	root string // the contract's path in the repository
	// git holds the files read with git, by ImportFile.Path (REV:path):
	// their path in the repository, and the repository path of the module
	// they belong to (a replace directive's directory), if any.
	git  map[string]revFile
	disk *contract.Files

	goMod    *revGoMod
	goModErr error
	goModed  bool
	modules  map[string]*revModule
	goDir    string // an empty directory the go command runs in
}

type revFile struct {
	path    string // slash-separated, relative to the repository's top
	modRoot string // the module's directory in the repository, "" when none
}

// revGoMod is the go.mod at the revision, as go mod edit -json prints it.
type revGoMod struct {
	name    string // REV:path, for messages
	dir     string // its directory in the repository ("." at the top)
	sum     []byte // the go.sum next to it at the revision, nil when none
	Require []struct{ Path, Version string }
	Replace []struct {
		Old, New struct{ Path, Version string }
	}
}

// revModule is a module as the go.mod at the revision selects it.
type revModule struct {
	version string
	repoDir string // a replace directive's directory inside the repository
	dir     string // else the module's directory on disk
	local   bool   // dir is a replace directive's directory (outside the repository)
	err     error
}

// newRevResolver is the resolver for the contract at repoPath (relative to
// the repository's top) at revision rev, loaded under the name name, with
// git run in dir.
func newRevResolver(rev, repoPath, name, dir string) (*revResolver, error) {
	top, err := gitOutput(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("cannot find the repository of %s with git: %v", dir, err)
	}
	r := &revResolver{rev: rev, dir: dir, top: strings.TrimSpace(string(top)), root: repoPath,
		git: map[string]revFile{name: {path: repoPath}}, disk: &contract.Files{Dir: dir}, modules: map[string]*revModule{}}
	return r, nil
}

// repoPathOf is the path inside the repository that REV:p names, git run
// in dir: p itself, or for ./p and ../p, relative to dir.
func repoPathOf(p, dir string) (string, error) {
	if !strings.HasPrefix(p, "./") && !strings.HasPrefix(p, "../") && p != "." && p != ".." {
		return path.Clean(p), nil
	}
	prefix, err := gitOutput(dir, "rev-parse", "--show-prefix")
	if err != nil {
		return "", err
	}
	return path.Clean(path.Join(strings.TrimSpace(string(prefix)), p)), nil
}

// close removes the go command's directory.
func (r *revResolver) close() {
	if r.goDir != "" {
		os.RemoveAll(r.goDir)
	}
}

// Resolve reads the file spec names, imported from the file from.
func (r *revResolver) Resolve(from *contract.ImportFile, spec *contract.ImportSpec) (*contract.ImportFile, error) {
	if spec.Module != "" {
		return r.module(spec)
	}
	f, inGit := r.git[from.Path]
	if !inGit {
		return r.disk.Resolve(from, spec)
	}
	target := path.Clean(path.Join(path.Dir(f.path), spec.Path))
	if f.modRoot != "" && !within(target, f.modRoot) {
		return nil, contract.LeavesModule(spec.Path, from.Module)
	}
	if !within(target, ".") {
		// Outside the repository: not versioned with it, so as it is now.
		p := filepath.Join(r.top, filepath.FromSlash(target))
		return contract.ReadImport(&contract.ImportFile{Path: p, Name: displayPath(p)}, spec.Path)
	}
	out := &contract.ImportFile{Module: from.Module, ModuleVersion: from.ModuleVersion}
	return r.read(out, target, f.modRoot, spec.Path)
}

// within reports whether the clean slash path p lies in dir ("." is the
// repository's top).
func within(p, dir string) bool {
	if p == ".." || strings.HasPrefix(p, "../") || path.IsAbs(p) {
		return false
	}
	return dir == "." || p == dir || strings.HasPrefix(p, dir+"/")
}

// read reads the file at repoPath with git at the revision into out. A
// symbolic link is followed, as the file system follows it for the
// working tree's contract: inside the repository at the revision, outside
// it from disk.
func (r *revResolver) read(out *contract.ImportFile, repoPath, modRoot, written string) (*contract.ImportFile, error) {
	for hops := 0; ; hops++ {
		spec := r.rev + ":" + repoPath
		kind, err := gitOutput(r.dir, "cat-file", "-t", spec)
		if err != nil {
			return nil, fmt.Errorf("cannot import %s: no such file at %s (%s)", written, r.rev, spec)
		}
		if strings.TrimSpace(string(kind)) != "blob" {
			return nil, fmt.Errorf("cannot import %s: %s is a directory; name the contract file in it", written, spec)
		}
		link, err := r.linkAt(repoPath)
		if err != nil {
			return nil, fmt.Errorf("cannot read %s with git in %s: %v", spec, r.dir, err)
		}
		if link == "" {
			break
		}
		if hops == maxLinks {
			return nil, fmt.Errorf("cannot import %s: too many levels of symbolic links at %s (%s)", written, r.rev, spec)
		}
		target := path.Clean(path.Join(path.Dir(repoPath), link))
		if path.IsAbs(link) || !within(target, ".") {
			p := filepath.FromSlash(link)
			if !path.IsAbs(link) {
				p = filepath.Join(r.top, filepath.FromSlash(target))
			}
			return contract.ReadImport(&contract.ImportFile{Path: p, Name: displayPath(p)}, written)
		}
		if modRoot != "" && !within(target, modRoot) {
			return nil, contract.LeavesModule(written, out.Module)
		}
		repoPath = target
	}
	spec := r.rev + ":" + repoPath
	out.Path, out.Name = spec, spec
	data, err := gitOutput(r.dir, "cat-file", "blob", spec)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s with git in %s: %v", spec, r.dir, err)
	}
	out.Data = data
	r.git[spec] = revFile{path: repoPath, modRoot: modRoot}
	return out, nil
}

// maxLinks bounds the symbolic links followed to one file, as the
// operating system bounds them.
const maxLinks = 40

// linkAt is the target of the symbolic link at repoPath at the revision,
// "" when it is no link.
func (r *revResolver) linkAt(repoPath string) (string, error) {
	entry, err := gitOutput(r.dir, "ls-tree", "--full-tree", "-z", r.rev, "--", repoPath)
	if err != nil {
		return "", err
	}
	if !bytes.HasPrefix(entry, []byte("120000 ")) {
		return "", nil
	}
	target, err := gitOutput(r.dir, "cat-file", "blob", r.rev+":"+repoPath)
	return string(target), err
}

// module finds spec's module as the go.mod at the revision requires it.
func (r *revResolver) module(spec *contract.ImportSpec) (*contract.ImportFile, error) {
	m := r.find(spec.Module)
	if m.err != nil {
		return nil, m.err
	}
	clean, err := spec.FileInModule()
	if err != nil {
		return nil, err
	}
	out := &contract.ImportFile{Module: spec.Module, ModuleVersion: m.version}
	if m.repoDir != "" {
		return r.read(out, path.Join(m.repoDir, clean), m.repoDir, spec.Path)
	}
	out.Path, out.ModuleDir = filepath.Join(m.dir, filepath.FromSlash(clean)), m.dir
	out.Name = spec.Module + "@" + m.version + "/" + clean
	if m.local {
		out.Name = displayPath(out.Path)
	}
	return contract.ReadImport(out, spec.Path)
}

// find is where module is at the revision.
func (r *revResolver) find(module string) *revModule {
	if m := r.modules[module]; m != nil {
		return m
	}
	m := &revModule{}
	r.modules[module] = m
	gm, err := r.goModAtRev()
	if err != nil {
		m.err = fmt.Errorf("module %s: %v", module, err)
		return m
	}
	for _, req := range gm.Require {
		if req.Path == module {
			m.version = req.Version
		}
	}
	if m.version == "" {
		m.err = fmt.Errorf("module %s is not required by the go.mod at %s (%s), so the contract there cannot be read as it was; compare with a revision whose go.mod requires it", module, r.rev, gm.name)
		return m
	}
	get, getVersion := module, m.version
	matched := false
	for _, rep := range gm.Replace {
		// A replace of this version wins over one of every version.
		if rep.Old.Path != module || rep.Old.Version != "" && rep.Old.Version != m.version || matched && rep.Old.Version == "" {
			continue
		}
		matched = rep.Old.Version != ""
		get, getVersion = rep.New.Path, rep.New.Version
	}
	if getVersion == "" {
		// A replace directive to a directory, relative to go.mod's.
		if filepath.IsAbs(get) {
			m.dir, m.local = get, true
			return m
		}
		p := path.Clean(path.Join(gm.dir, filepath.ToSlash(get)))
		if within(p, ".") {
			m.repoDir = p
			return m
		}
		m.dir, m.local = filepath.Join(r.top, filepath.FromSlash(p)), true
		return m
	}
	m.version = getVersion
	m.dir, m.err = r.download(get, getVersion, gm)
	return m
}

// goModAtRev reads the go.mod nearest the contract's directory at the
// revision, with go mod edit -json (which knows every directive the
// installed go command does).
func (r *revResolver) goModAtRev() (*revGoMod, error) {
	if r.goModed {
		return r.goMod, r.goModErr
	}
	r.goModed = true
	dir := path.Dir(r.root)
	for {
		name := path.Join(dir, "go.mod")
		if dir == "." {
			name = "go.mod"
		}
		data, err := gitOutput(r.dir, "cat-file", "blob", r.rev+":"+name)
		if err == nil {
			r.goMod, r.goModErr = r.parseGoMod(data, r.rev+":"+name)
			if r.goMod != nil {
				r.goMod.dir = path.Dir(name)
				r.goMod.sum, _ = gitOutput(r.dir, "cat-file", "blob", r.rev+":"+path.Join(r.goMod.dir, "go.sum"))
			}
			return r.goMod, r.goModErr
		}
		if dir == "." {
			break
		}
		dir = path.Dir(dir)
	}
	r.goModErr = fmt.Errorf("no go.mod at or above %s at %s; an import by module takes its version from the repository's go.mod, and that revision has none", path.Dir(r.root), r.rev)
	return nil, r.goModErr
}

func (r *revResolver) parseGoMod(data []byte, name string) (*revGoMod, error) {
	dir, err := r.goWorkDir()
	if err != nil {
		return nil, err
	}
	file := filepath.Join(dir, "rev.mod")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		return nil, err
	}
	out, _, err := runGo(dir, "mod", "edit", "-json", file)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", name, err)
	}
	gm := &revGoMod{name: name}
	if err := json.Unmarshal(out, gm); err != nil {
		return nil, fmt.Errorf("cannot read %s: go mod edit -json printed what errgen cannot read: %v", name, err)
	}
	return gm, nil
}

// download fetches module@version into the module cache and checks it
// against the go.sum at the revision when it lists that version.
func (r *revResolver) download(module, version string, gm *revGoMod) (string, error) {
	dir, err := r.goWorkDir()
	if err != nil {
		return "", err
	}
	out, stderr, err := runGo(dir, "mod", "download", "-json", module+"@"+version)
	var dl struct{ Dir, Sum, Error string }
	if jsonErr := json.Unmarshal(out, &dl); jsonErr != nil {
		if err == nil {
			err = jsonErr
		}
		return "", fmt.Errorf("cannot download %s@%s (the version the go.mod at %s requires): %v%s", module, version, r.rev, err, stderr)
	}
	if dl.Error != "" {
		return "", fmt.Errorf("cannot download %s@%s (the version the go.mod at %s requires): %s", module, version, r.rev, dl.Error)
	}
	for _, line := range strings.Split(string(gm.sum), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == module && f[1] == version && f[2] != dl.Sum {
			return "", fmt.Errorf("%s@%s does not match the go.sum at %s: it lists %s, the download is %s", module, version, r.rev, f[2], dl.Sum)
		}
	}
	return dl.Dir, nil
}

// goWorkDir is an empty directory, outside every module, for the go
// command: go mod download there changes no go.mod or go.sum.
func (r *revResolver) goWorkDir() (string, error) {
	if r.goDir == "" {
		dir, err := os.MkdirTemp("", "errgen-compat-")
		if err != nil {
			return "", err
		}
		r.goDir = dir
	}
	return r.goDir, nil
}

// runGo runs the go command in dir: its standard output, its standard
// error (for messages, with a leading "; "), and an error saying what
// failed.
func runGo(dir string, args ...string) ([]byte, string, error) {
	stdout, stderr, err := contract.GoCommand(dir, args...)
	msg := strings.ReplaceAll(stderr, "\n", "; ")
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return nil, "", errors.New("an import by module needs the go command, which is not installed")
	case err != nil && msg != "":
		return stdout, "; " + msg, errors.New(msg)
	}
	return stdout, "", err
}

// displayPath is p relative to the working directory when it lies below
// it, else p.
func displayPath(p string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return p
}
