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
to the root of its repository.

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
	fs.StringVar(&against, "against", "", "the old version: a file, or `REV:path` read with git (required)")
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
		fmt.Fprintf(stderr, "errgen compat: %s lists several contracts; compare one at a time with -contract <file> --against <old>\n", o.config)
		return ExitUsage
	}
	contractPath := o.contract

	newC, ok := load(contractPath, stderr)
	if !ok {
		return ExitUsage
	}
	data, err := readAgainst(against, contractPath)
	if err != nil {
		fmt.Fprintf(stderr, "errgen compat: %v\n", err)
		return ExitUsage
	}
	oldC, ok := loadData(against, data, stderr)
	if !ok {
		return ExitUsage
	}
	findings := compat.Compare(oldC, newC)
	sum := compat.Summarize(oldC, newC, findings)
	switch format {
	case "json":
		writeCompatJSON(stdout, contractPath, against, findings, sum)
	case "github":
		for _, f := range findings {
			fmt.Fprintln(stdout, githubAnnotation(f, newC.File))
		}
		if sum.Needs != compat.BumpNone || sum.ReleaseTooLow {
			fmt.Fprintln(stdout, githubRelease(sum, newC))
		}
		fmt.Fprintf(stdout, "errgen compat against %s: %s\n", against, sum)
	default:
		for _, f := range findings {
			fmt.Fprintln(stdout, f)
		}
		fmt.Fprintf(stdout, "errgen compat against %s: %s\n", against, sum)
		fmt.Fprintln(stdout, releaseLine(sum, newC))
	}
	if sum.Fails() {
		return ExitProblems
	}
	return ExitOK
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
// by the user (a git revision).
func loadData(name string, data []byte, stderr io.Writer) (*contract.Contract, bool) {
	c, err := contract.Load(name, data)
	if err != nil {
		var problems contract.Problems
		if errors.As(err, &problems) {
			fmt.Fprintln(stderr, problems.Error())
			fmt.Fprintf(stderr, "errgen: %d problem%s in %s\n", len(problems), plural(len(problems)), name)
		} else {
			fmt.Fprintf(stderr, "errgen: %v\n", err)
		}
		return nil, false
	}
	return c, true
}

// readAgainst reads the old contract: the file spec names when it exists,
// else REV:path through git, run in the directory of the new contract.
func readAgainst(spec, newContract string) ([]byte, error) {
	if info, err := os.Stat(spec); err == nil && !info.IsDir() {
		return contract.ReadFile(spec)
	}
	rev, path, isRev := strings.Cut(spec, ":")
	if !isRev || rev == "" || path == "" {
		_, err := os.ReadFile(spec)
		return nil, fmt.Errorf("%v (--against takes a file or REV:path)", err)
	}
	if strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("%q is not a git revision", rev)
	}
	git, err := exec.LookPath("git")
	if err != nil {
		return nil, fmt.Errorf("reading %s needs git, which was not found on PATH; install git or pass the old contract as a file", spec)
	}
	cmd := exec.Command(git, "show", spec)
	cmd.Dir = filepath.Dir(newContract)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("cannot read %s with git show in %s: %s", spec, cmd.Dir, strings.ReplaceAll(msg, "\n", "; "))
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

func writeCompatJSON(w io.Writer, contractPath, against string, findings []compat.Finding, sum compat.Summary) {
	out := struct {
		Findings []jsonFinding `json:"findings"`
		Summary  jsonSummary   `json:"summary"`
	}{Findings: []jsonFinding{}}
	for _, f := range findings {
		out.Findings = append(out.Findings, jsonFinding{f.Rule, f.Breaking, f.Subject, f.Message, f.File, f.Pos.Line, f.Pos.Col})
	}
	out.Summary = jsonSummary{Contract: contractPath, Against: against, Breaking: sum.Breaking, Additive: sum.Additive,
		OldVersion: sum.OldVersion, NewVersion: sum.NewVersion, VersionChanged: sum.VersionChanged,
		Needs: map[compat.Bump]string{compat.BumpNone: "none"}[sum.Needs], OldRelease: sum.OldRelease, NewRelease: sum.NewRelease,
		MinRelease: sum.MinRelease, ReleaseChecked: sum.ReleaseChecked, ReleaseOK: !sum.ReleaseTooLow, ReleaseText: sum.ReleaseText(),
		OK: !sum.Fails(), Text: sum.String()}
	if sum.Needs != compat.BumpNone {
		out.Summary.Needs = sum.Needs.String()
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(out)
}

// githubAnnotation is a GitHub Actions workflow command for the finding:
// an error when it is breaking, a warning when it is additive but visible
// to strict consumers, a notice when it only changes documentation. A finding located in
// the old contract (a deletion) has no line in the new file, so it is
// attached to the new contract's file and its old position goes into the
// message.
func githubAnnotation(f compat.Finding, newFile string) string {
	level := "warning"
	switch {
	case f.Breaking:
		level = "error"
	case f.Bump() == compat.BumpPatch:
		level = "notice"
	}
	props := "file=" + ghProperty(filepath.ToSlash(f.File)) + fmt.Sprintf(",line=%d,col=%d", f.Pos.Line, f.Pos.Col)
	msg := f.Subject + ": " + f.Message
	if f.File != newFile {
		props = "file=" + ghProperty(filepath.ToSlash(newFile))
		msg += fmt.Sprintf(" (was at %s:%d:%d)", f.File, f.Pos.Line, f.Pos.Col)
	}
	return fmt.Sprintf("::%s %s,title=%s::%s", level, props, ghProperty(f.Rule), ghData(msg))
}

func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
