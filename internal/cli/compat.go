package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/errgen/errgen/internal/compat"
	"github.com/errgen/errgen/internal/config"
	"github.com/errgen/errgen/internal/contract"
)

const compatSummary = `Compare the contract with an older version of it and report every change as
BREAKING or additive, with a rule id and file:line:col (in the new contract,
or in the old one for what was deleted). The old version is a file, or a git
revision and a path read with "git show REV:path" (no checkout), e.g.
--against HEAD~1:contract/kinds.yaml (the previous commit) or
--against @{upstream}:contract/kinds.yaml (the branch the current one
tracks); git runs in the new contract's directory, so the path is relative
to the root of its repository. A revision alone (--against HEAD) names the
contract's own path at it. A contract's imports are read as they were at
the revision: a path with git, a Go module at the version the go.mod there
requires (go mod download). With a config that lists several
contracts, --against is a revision only (--against HEAD~1): each entry's
contract is compared with its file at that revision and reported under the
entry's name, and a contract the revision lacks is reported as new.

A second line says which release the change needs (major for a breaking
change, minor for an additive one, patch for documentation only) and
whether the contract's release has it.

Exit codes: 0 when every change is additive or contract.version changed
(with a summary); 1 when a change is breaking and contract.version was not
changed, or when the contract writes a release lower than the change needs,
and only then; 2 when the comparison cannot be made: a usage error, a file or
git revision that cannot be read, a contract or config that does not
validate.`

var compatFormats = []string{"text", "json", "github"}

func runCompat(args []string, stdout, stderr io.Writer) int {
	var against, format string
	o := &options{}
	fs := flag.NewFlagSet("errgen compat", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.contract, "contract", defaultContract, "the contract file to read (the new version)")
	fs.StringVar(&o.config, "config", "", "the generation config naming the contract (default "+config.FileName+" in the working directory, when it exists and -contract is not given)")
	fs.StringVar(&against, "against", "", "the old version: a file, `REV:path` read with git, or a revision (the contract's own path at it; with a contracts list, a revision only) (required)")
	fs.StringVar(&format, "format", "text", "output format: text, json or github (GitHub Actions annotations)")
	u := commandUsage{fs, "errgen compat [-contract " + defaultContract + "] --against <old> [--format text|json|github]", compatSummary, stdout, stderr}
	if code, stop := u.parse(args); stop {
		return code
	}
	switch {
	case fs.NArg() > 0:
		return u.errorf("unexpected argument %q (the old contract is given with --against)", fs.Arg(0))
	case against == "":
		return u.errorf("--against is required: the old contract, a file or REV:path")
	case !slices.Contains(compatFormats, format):
		return u.errorf("unknown format %q; use text, json or github", format)
	}
	// Exit 1 says "a breaking change without a new version", which CI
	// acts on; a comparison that could not be made exits 2.
	if _, stop := o.resolveConfig(fs, "compat", u.print, stderr); stop {
		return ExitUsage
	}
	if o.cfg != nil && o.cfg.Parts != nil {
		return compatList(o, against, format, stdout, stderr)
	}
	r, ok := compareOne(o.contract, against, stderr)
	if !ok {
		return ExitUsage
	}
	switch format {
	case "json":
		writeCompatJSON(stdout, r.report())
	case "github":
		r.writeGitHub(stdout)
	default:
		r.writeText(stdout)
	}
	if r.sum.Fails() {
		return ExitProblems
	}
	return ExitOK
}

// compared is one contract compared with its old version.
type compared struct {
	name     string // the contracts entry's, empty in the single form
	contract string // the new contract's path
	against  string // the old version: a file or REV:path
	newC     *contract.Contract
	findings []compat.Finding
	sum      compat.Summary
	isNew    bool // the old version does not exist: a new contract
}

// compareOne loads the contract at contractPath and the old version that
// against names, and compares them.
func compareOne(contractPath, against string, stderr io.Writer) (*compared, bool) {
	newC, ok := load(contractPath, stderr)
	if !ok {
		return nil, false
	}
	old, err := openAgainst(against, contractPath)
	if err != nil {
		fmt.Fprintf(stderr, "errgen compat: %v\n", err)
		return nil, false
	}
	defer old.close()
	oldC, ok := loadData(old.name, old.data, old.resolver, stderr)
	if !ok {
		return nil, false
	}
	findings := compat.Compare(oldC, newC)
	return &compared{contract: contractPath, against: old.name, newC: newC, findings: findings,
		sum: compat.Summarize(oldC, newC, findings)}, true
}

// summaryLine is the line after the findings: the summary, or for a new
// contract that it is new.
func (r *compared) summaryLine() string {
	who := "errgen compat "
	if r.name != "" {
		who += r.name + " "
	}
	if r.isNew {
		return who + "against " + r.against + ": " + newContractText
	}
	return fmt.Sprintf("%sagainst %s: %s", who, r.against, r.sum)
}

const newContractText = "a new contract, not in that revision: additive"

func (r *compared) writeText(w io.Writer) {
	for _, f := range r.findings {
		fmt.Fprintln(w, f)
	}
	fmt.Fprintln(w, r.summaryLine())
	if !r.isNew {
		fmt.Fprintln(w, releaseLine(r.sum, r.newC))
	}
}

func (r *compared) writeGitHub(w io.Writer) {
	for _, f := range r.findings {
		fmt.Fprintln(w, githubAnnotation(f, r.newC))
	}
	switch {
	case r.isNew:
		fmt.Fprintf(w, "::notice file=%s,title=CONTRACT_ADDED::%s\n", ghProperty(filepath.ToSlash(r.newC.File)),
			ghData(fmt.Sprintf("contracts.%s: %s (%s)", r.name, newContractText, r.against)))
	case r.sum.Needs != compat.BumpNone || r.sum.ReleaseTooLow:
		fmt.Fprintln(w, githubRelease(r.sum, r.newC))
	}
	fmt.Fprintln(w, r.summaryLine())
}

// compatList compares every contract a config lists with its path at the
// git revision against names, and reports each under its entry's name. A
// contract the revision does not have is new. Every contract is compared
// before anything is printed, so one that cannot be compared exits 2 with
// no partial report.
func compatList(o *options, against, format string, stdout, stderr io.Writer) int {
	if info, err := os.Stat(against); err == nil && !info.IsDir() || strings.Contains(against, ":") || strings.HasPrefix(against, "-") {
		fmt.Fprintf(stderr, "errgen compat: %s lists several contracts: --against takes a git revision (--against HEAD~1), and each entry's contract is compared with its path at that revision; to compare one contract with a file or REV:path, give -contract <file> --against <old>\n", o.config)
		return ExitUsage
	}
	var results []*compared
	failed := false
	for _, e := range o.cfg.Parts {
		r, ok := compareAtRevision(e, against, stderr)
		if !ok {
			failed = true
			continue
		}
		results = append(results, r)
	}
	if failed {
		return ExitUsage
	}
	reports := []compatReport{}
	code := ExitOK
	for _, r := range results {
		switch format {
		case "json":
			reports = append(reports, r.report())
		case "github":
			r.writeGitHub(stdout)
		default:
			r.writeText(stdout)
		}
		if r.sum.Fails() {
			code = ExitProblems
		}
	}
	if format == "json" {
		writeCompatJSON(stdout, reports)
	}
	return code
}

// compareAtRevision compares entry e's contract with the same file at the
// git revision rev, read with git in the contract's directory.
func compareAtRevision(e *config.Config, rev string, stderr io.Writer) (*compared, bool) {
	newC, ok := load(e.Contract, stderr)
	if !ok {
		return nil, false
	}
	dir := filepath.Dir(e.Contract)
	fail := func(err error) (*compared, bool) {
		fmt.Fprintf(stderr, "errgen compat: contracts.%s: %v\n", e.Name, err)
		return nil, false
	}
	if _, err := gitOutput(dir, "rev-parse", "--verify", rev+"^{tree}"); err != nil {
		return fail(fmt.Errorf("%q is not a revision git can read in %s: %v", rev, dir, err))
	}
	prefix, err := gitOutput(dir, "rev-parse", "--show-prefix")
	if err != nil {
		return fail(fmt.Errorf("cannot find the repository of %s with git: %v", e.Contract, err))
	}
	spec := rev + ":" + strings.TrimSpace(string(prefix)) + filepath.Base(e.Contract)
	r := &compared{name: e.Name, contract: e.Contract, against: spec, newC: newC}
	if _, err := gitOutput(dir, "cat-file", "-e", spec); err != nil {
		r.isNew = true
		return r, true
	}
	data, err := gitOutput(dir, "show", spec)
	if err != nil {
		return fail(fmt.Errorf("cannot read %s with git show in %s: %v", spec, dir, err))
	}
	rr, err := newRevResolver(rev, strings.TrimSpace(string(prefix))+filepath.Base(e.Contract), spec, dir)
	if err != nil {
		return fail(err)
	}
	defer rr.close()
	oldC, ok := loadData(spec, data, rr, stderr)
	if !ok {
		return nil, false
	}
	r.findings = compat.Compare(oldC, newC)
	r.sum = compat.Summarize(oldC, newC, r.findings)
	return r, true
}

// releaseLine is the release bump the change needs, at the new contract's
// release when it writes one.
func releaseLine(sum compat.Summary, c *contract.Contract) string {
	if c.ReleaseWritten() {
		return fmt.Sprintf("%s:%d:%d: release: %s", c.File, c.ReleasePos.Line, c.ReleasePos.Col, sum.ReleaseText())
	}
	return "release: " + sum.ReleaseText()
}

// githubRelease is releaseLine as an annotation: an error when it fails,
// else a notice.
func githubRelease(sum compat.Summary, c *contract.Contract) string {
	level, props := "notice", "file="+ghProperty(filepath.ToSlash(c.File))
	if sum.ReleaseChecked && sum.ReleaseTooLow {
		level = "error"
	}
	if c.ReleaseWritten() {
		props += fmt.Sprintf(",line=%d,col=%d", c.ReleasePos.Line, c.ReleasePos.Col)
	}
	return fmt.Sprintf("::%s %s,title=RELEASE::%s", level, props, ghData(sum.ReleaseText()))
}

// loadData is load for contract bytes that did not come from a file named
// by the user (a git revision), with r resolving its imports.
func loadData(name string, data []byte, r contract.Resolver, stderr io.Writer) (*contract.Contract, bool) {
	c, err := contract.LoadWith(name, data, r)
	if err != nil {
		printProblems(err, name, stderr)
		return nil, false
	}
	return c, true
}

// oldVersion is the old contract as --against names it: its name in
// positions, its bytes, and the resolver of its imports as they were.
type oldVersion struct {
	name     string
	data     []byte
	resolver contract.Resolver
	rev      *revResolver
}

func (o *oldVersion) close() {
	if o.rev != nil {
		o.rev.close()
	}
}

// openAgainst reads the old contract: the file spec names when it exists
// (its imports read from the file system), else REV:path through git, run
// in the directory of the new contract, or a revision alone, which names
// the new contract's own path at it (its imports read as they were at the
// revision: revResolver).
func openAgainst(spec, newContract string) (*oldVersion, error) {
	if info, err := os.Stat(spec); err == nil && !info.IsDir() {
		data, err := contract.ReadFile(spec)
		if err != nil {
			return nil, err
		}
		return &oldVersion{name: spec, data: data, resolver: contract.NewFiles(spec)}, nil
	}
	dir := filepath.Dir(newContract)
	rev, p, isRev := strings.Cut(spec, ":")
	if !isRev && spec != "" && !strings.HasPrefix(spec, "-") {
		if _, err := gitOutput(dir, "rev-parse", "--verify", "--quiet", spec+"^{tree}"); err == nil {
			prefix, err := gitOutput(dir, "rev-parse", "--show-prefix")
			if err != nil {
				return nil, fmt.Errorf("cannot find the repository of %s with git: %v", newContract, err)
			}
			p, isRev = strings.TrimSpace(string(prefix))+filepath.Base(newContract), true
			spec = rev + ":" + p
		}
	}
	if !isRev || rev == "" || p == "" {
		_, err := os.ReadFile(spec)
		return nil, fmt.Errorf("%v (--against takes a file, REV:path or a revision)", err)
	}
	if strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("%q is not a git revision", rev)
	}
	out, err := gitOutput(dir, "show", spec)
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return nil, fmt.Errorf("reading %s needs git, which was not found on PATH; install git or pass the old contract as a file", spec)
		}
		return nil, fmt.Errorf("cannot read %s with git show in %s: %v", spec, dir, err)
	}
	repoPath, err := repoPathOf(p, dir)
	if err != nil {
		return nil, fmt.Errorf("cannot find the repository of %s with git: %v", newContract, err)
	}
	rr, err := newRevResolver(rev, repoPath, spec, dir)
	if err != nil {
		return nil, err
	}
	return &oldVersion{name: spec, data: out, resolver: rr, rev: rr}, nil
}

// gitOutput runs git with args in dir and returns its standard output;
// its error carries git's message on one line, or exec.ErrNotFound when
// git is not on PATH.
func gitOutput(dir string, args ...string) ([]byte, error) {
	git, err := exec.LookPath("git")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(git, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, errors.New(strings.ReplaceAll(msg, "\n", "; "))
	}
	return out.Bytes(), nil
}

type jsonFinding struct {
	Rule     string `json:"rule"`
	Breaking bool   `json:"breaking"`
	Subject  string `json:"subject"`
	Message  string `json:"message"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
}

type jsonSummary struct {
	Contract       string `json:"contract"`
	Against        string `json:"against"`
	Breaking       int    `json:"breaking"`
	Additive       int    `json:"additive"`
	OldVersion     string `json:"old_version"`
	NewVersion     string `json:"new_version"`
	VersionChanged bool   `json:"version_changed"`
	// Needs is the release bump the change needs: none, patch, minor or
	// major; MinRelease the lowest release it allows (empty without
	// release numbers), ReleaseOK whether the new release has it.
	Needs          string `json:"needs"`
	OldRelease     string `json:"old_release"`
	NewRelease     string `json:"new_release"`
	MinRelease     string `json:"min_release"`
	ReleaseChecked bool   `json:"release_checked"`
	ReleaseOK      bool   `json:"release_ok"`
	ReleaseText    string `json:"release_text"`
	OK             bool   `json:"ok"` // false exactly when errgen compat exits 1
	Text           string `json:"text"`
}

// compatReport is one contract's JSON report. Name and New are left out
// in the single form, which prints one report; a contracts list prints an
// array of them, in the list's order.
type compatReport struct {
	Name     string        `json:"name,omitempty"`
	New      bool          `json:"new,omitempty"` // the revision has no such file: findings are empty
	Findings []jsonFinding `json:"findings"`
	Summary  jsonSummary   `json:"summary"`
}

func (r *compared) report() compatReport {
	out := compatReport{Name: r.name, New: r.isNew, Findings: []jsonFinding{}}
	for _, f := range r.findings {
		out.Findings = append(out.Findings, jsonFinding{f.Rule, f.Breaking, f.Subject, f.Message, f.File, f.Pos.Line, f.Pos.Col})
	}
	sum := r.sum
	if r.isNew {
		out.Summary = jsonSummary{Contract: r.contract, Against: r.against, NewVersion: r.newC.VersionLabel(), Needs: "none",
			NewRelease: r.newC.Release, ReleaseOK: true, OK: true, Text: newContractText}
		return out
	}
	out.Summary = jsonSummary{Contract: r.contract, Against: r.against, Breaking: sum.Breaking, Additive: sum.Additive,
		OldVersion: sum.OldVersion, NewVersion: sum.NewVersion, VersionChanged: sum.VersionChanged,
		Needs: map[compat.Bump]string{compat.BumpNone: "none"}[sum.Needs], OldRelease: sum.OldRelease, NewRelease: sum.NewRelease,
		MinRelease: sum.MinRelease, ReleaseChecked: sum.ReleaseChecked, ReleaseOK: !sum.ReleaseTooLow, ReleaseText: sum.ReleaseText(),
		OK: !sum.Fails(), Text: sum.String()}
	if sum.Needs != compat.BumpNone {
		out.Summary.Needs = sum.Needs.String()
	}
	return out
}

// writeCompatJSON writes v, a report or an array of them, indented.
func writeCompatJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}

// githubAnnotation is a GitHub Actions workflow command for the finding:
// an error when it is breaking, a warning when it is additive but visible
// to strict consumers, a notice when it only changes documentation (or
// needs no release, like an upgraded import). A finding is attached where it is when that is a file of the checkout: the
// new contract, or a file it imports by path. Else its position goes into
// the message: a finding located in the old contract (a deletion) is
// attached to the new contract's file, one in an imported module (outside
// the checkout) to the import entry that brings it.
func githubAnnotation(f compat.Finding, newC *contract.Contract) string {
	level := "warning"
	switch {
	case f.Breaking:
		level = "error"
	case f.Bump() <= compat.BumpPatch:
		level = "notice"
	}
	props := "file=" + ghProperty(filepath.ToSlash(f.File)) + fmt.Sprintf(",line=%d,col=%d", f.Pos.Line, f.Pos.Col)
	msg := f.Subject + ": " + f.Message
	if f.File != newC.File {
		imp := importOf(newC, f.File)
		switch {
		case imp != nil && inCheckout(imp):
		case imp != nil:
			props = "file=" + ghProperty(filepath.ToSlash(newC.File)) + fmt.Sprintf(",line=%d,col=%d", imp.Pos.Line, imp.Pos.Col)
			msg += fmt.Sprintf(" (at %s:%d:%d)", f.File, f.Pos.Line, f.Pos.Col)
		default:
			props = "file=" + ghProperty(filepath.ToSlash(newC.File))
			msg += fmt.Sprintf(" (was at %s:%d:%d)", f.File, f.Pos.Line, f.Pos.Col)
		}
	}
	return fmt.Sprintf("::%s %s,title=%s::%s", level, props, ghProperty(f.Rule), ghData(msg))
}

// importOf is the import of c whose file is file, nil when none is.
func importOf(c *contract.Contract, file string) *contract.Import {
	for _, i := range c.Imports {
		if i.File == file {
			return i
		}
	}
	return nil
}

// inCheckout reports whether an import's file is one GitHub can annotate:
// a file on disk, named as the new contract is (a module's file is named
// module@version/path, which is no such file), and not above the working
// directory.
func inCheckout(i *contract.Import) bool {
	if p := filepath.ToSlash(filepath.Clean(i.File)); p == ".." || strings.HasPrefix(p, "../") {
		return false
	}
	info, err := os.Stat(i.File)
	return err == nil && info.Mode().IsRegular()
}

func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
