// Package cli implements the errgen command line. main only forwards to Run,
// so every command is testable in-process with its exit code and output.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/errgen/errgen/internal/config"
	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/diff"
	"github.com/errgen/errgen/internal/generate"
	"github.com/errgen/errgen/internal/targets"
)

// Exit codes, as in most compilers and linters.
const (
	ExitOK       = 0
	ExitProblems = 1 // contract problems, drift, or an I/O failure
	ExitUsage    = 2
)

const defaultContract = "contract/kinds.yaml"

const usage = `errgen turns one YAML error contract into code, schemas and docs.

Usage:
  errgen <command> [flags]

Commands:
  init       write a commented starter contract and errgen.yaml
  generate   write every output from the contract (the default main job)
  check      exit 1 with a diff when committed outputs differ from the contract
  validate   check the contract (and errgen.yaml) only; print every problem as
             file:line:col
  compat     compare with an older contract (--against file or REV:path); exit 1
             on a breaking change without a new contract version
  version    print errgen's version (also --version)

generate, check, validate and compat read errgen.yaml, the generation config,
when the working directory has one and neither -contract nor -out is given;
without one they read contract/kinds.yaml and write every output under the
working directory.

generate, check and validate print a one-line summary on success (-q: none).

Run "errgen <command> -help" for a command's flags.

Exit codes: 0 success, 1 contract problems or stale outputs, 2 usage errors.
compat exits 1 for a breaking change only, and 2 when it cannot compare
(a file or git revision it cannot read, a contract that does not validate).
`

// Run executes errgen with args (without the program name) and returns the
// process exit code.
func Run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return ExitUsage
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return ExitOK
	case "version", "-version", "--version":
		return runVersion(rest, stdout, stderr)
	case "init":
		return runInit(rest, stdout, stderr)
	case "generate":
		return runGenerate(rest, stdout, stderr)
	case "check":
		return runCheck(rest, stdout, stderr)
	case "validate":
		return runValidate(rest, stdout, stderr)
	case "compat":
		return runCompat(rest, stdout, stderr)
	}
	fmt.Fprintf(stderr, "errgen: unknown command %q\n\n%s", cmd, usage)
	return ExitUsage
}

type options struct {
	contract string
	out      string
	// config is the generation config in use: given with -config, or
	// errgen.yaml found in the working directory when neither -contract
	// nor -out is given. Empty without one.
	config      string
	configGiven bool // -config was on the command line
	cfg         *config.Config
	verbose     bool
	quiet       bool
	takeOver    bool
	lockTimeout time.Duration
}

// commandUsage is a command's usage text and the way it reports misuse.
type commandUsage struct {
	fs             *flag.FlagSet // named "errgen <command>"
	line, summary  string
	stdout, stderr io.Writer
}

// print writes the usage: the line, the summary and every flag.
func (u commandUsage) print(w io.Writer) {
	fmt.Fprintf(w, "Usage: %s\n\n%s\n\nFlags:\n", u.line, u.summary)
	u.fs.SetOutput(w)
	u.fs.PrintDefaults()
	u.fs.SetOutput(io.Discard)
}

// errorf reports a usage error, then the usage, and returns ExitUsage.
func (u commandUsage) errorf(format string, args ...any) int {
	fmt.Fprintf(u.stderr, u.fs.Name()+": "+format+"\n", args...)
	u.print(u.stderr)
	return ExitUsage
}

// parse parses the flags of args. It returns an exit code and true when the
// command ends there: help was asked for, or a flag is wrong.
func (u commandUsage) parse(args []string) (int, bool) {
	if err := u.fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			u.print(u.stdout)
			return ExitOK, true
		}
		return u.errorf("%v", err), true
	}
	return 0, false
}

// parse parses a command's flags. It returns an exit code when the command
// should stop (help asked for, or a usage error).
func parse(name, summary string, args []string, withOut bool, stdout, stderr io.Writer) (*options, int, bool) {
	o := &options{}
	fs := flag.NewFlagSet("errgen "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.contract, "contract", defaultContract, "the contract file to read")
	fs.StringVar(&o.config, "config", "", "the generation config (default "+config.FileName+" in the working directory, when it exists and neither -contract nor -out is given); its contract and outputs replace -contract and -out")
	if withOut {
		fs.StringVar(&o.out, "out", ".", "the output root; files go to gen/go/<package>/ and so on beneath it")
		fs.DurationVar(&o.lockTimeout, "lock-timeout", generate.DefaultLockTimeout, "how long to wait while another errgen run holds the output root's "+generate.LockFile)
	}
	if name == "generate" {
		fs.BoolVar(&o.takeOver, "take-over", false, "replace files at generated paths even when they are not errgen's (their header line is not errgen's)")
	}
	fs.BoolVar(&o.verbose, "v", false, "list every file written or removed")
	fs.BoolVar(&o.quiet, "q", false, "print nothing on success (the one-line summary is left out; problems still go to stderr)")
	u := commandUsage{fs, "errgen " + name + " [flags]", summary, stdout, stderr}
	if code, stop := u.parse(args); stop {
		return nil, code, true
	}
	if fs.NArg() > 0 {
		return nil, u.errorf("unexpected argument %q (the contract is given with -contract)", fs.Arg(0)), true
	}
	if o.quiet && o.verbose {
		return nil, u.errorf("-q and -v contradict each other; give one"), true
	}
	if code, stop := o.resolveConfig(fs, name, u.print, stderr); stop {
		return nil, code, true
	}
	return o, 0, false
}

// resolveConfig settles which generation config applies, after fs has
// parsed: -config, or errgen.yaml in the working directory when neither
// -contract nor -out was given (as buf and sqlc find theirs), and loads it.
func (o *options) resolveConfig(fs *flag.FlagSet, name string, printUsage func(io.Writer), stderr io.Writer) (int, bool) {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case set["config"] && (set["contract"] || set["out"]):
		fmt.Fprintf(stderr, "errgen %s: -config names the contract and the output directories; leave out -contract and -out, or -config\n", name)
		printUsage(stderr)
		return ExitUsage, true
	case set["config"] && o.config == "":
		fmt.Fprintf(stderr, "errgen %s: -config needs a file\n", name)
		return ExitUsage, true
	case set["config"]:
		o.configGiven = true
	case !set["contract"] && !set["out"]:
		if info, err := os.Stat(config.FileName); err == nil && !info.IsDir() {
			o.config = config.FileName
		}
	}
	if o.config != "" {
		cfg, err := config.LoadFile(o.config)
		if err != nil {
			printProblems(err, o.config, stderr)
			return ExitProblems, true
		}
		o.cfg = cfg
		o.contract, o.out = cfg.Contract, cfg.Root
	}
	return 0, false
}

// printProblems prints a load error: each positioned problem on its own
// line, then a count.
func printProblems(err error, path string, stderr io.Writer) {
	var problems contract.Problems
	if errors.As(err, &problems) {
		fmt.Fprintln(stderr, problems.Error())
		fmt.Fprintf(stderr, "errgen: %d problem%s in %s\n", len(problems), plural(len(problems)), path)
		return
	}
	fmt.Fprintf(stderr, "errgen: %v\n", err)
}

// load reads and validates the contract, printing every problem.
func load(path string, stderr io.Writer) (*contract.Contract, bool) {
	c, err := contract.LoadFile(path)
	if err != nil {
		printProblems(err, path, stderr)
		return nil, false
	}
	return c, true
}

// unit is one contract a run generates: the contract of the single form
// (or of -contract), or one entry of a config's contracts list.
type unit struct {
	entry    *config.Config // nil without a config
	contract string
	c        *contract.Contract
	opts     targets.Options
}

// loadConfigured loads every contract o's config names (o's contract
// without one) and the generation settings the config gives each (the
// defaults without a config). It reports the problems of every contract,
// and fails when any has one.
func loadConfigured(o *options, stderr io.Writer) ([]unit, bool) {
	if o.cfg == nil {
		c, ok := load(o.contract, stderr)
		if !ok {
			return nil, false
		}
		return []unit{{contract: o.contract, c: c, opts: targets.Defaults(c.Name)}}, true
	}
	var units []unit
	ok := true
	for _, e := range o.cfg.Entries() {
		u, loaded := loadEntry(o, e, stderr)
		ok = ok && loaded
		units = append(units, u)
	}
	if ok {
		ok = sharedDirs(o, units, stderr)
	}
	return units, ok
}

// loadEntry loads the contract of one entry of o's config.
func loadEntry(o *options, e *config.Config, stderr io.Writer) (unit, bool) {
	u := unit{entry: e, contract: e.Contract}
	if _, err := os.Stat(e.Contract); errors.Is(err, fs.ErrNotExist) {
		pos := e.ContractPos
		if pos.Line == 0 {
			pos = contract.Pos{Line: 1, Col: 1}
		}
		fmt.Fprintf(stderr, "%s:%d:%d: %scontract: %s does not exist; name the contract file (relative to %s), or run %s init to start one\n",
			o.config, pos.Line, pos.Col, e.Prefix(), e.Contract, o.config, commandName("."))
		return u, false
	}
	c, ok := load(e.Contract, stderr)
	if !ok {
		return u, false
	}
	opts, err := e.Options(c)
	if err != nil {
		printProblems(err, o.config, stderr)
		return u, false
	}
	u.c, u.opts = c, opts
	return u, true
}

// sharedDirs reports every output directory that two entries of a
// contracts list share (a default one, which the config loader cannot see
// before the contracts name their packages), at the later entry's output.
func sharedDirs(o *options, units []unit, stderr io.Writer) bool {
	var problems config.Problems
	taken := map[string]string{}
	for _, u := range units {
		for _, t := range targets.All {
			d := u.opts.Dir(t.Key)
			if d == "" {
				continue
			}
			if other, ok := taken[d]; ok && other != u.entry.Name {
				problems = append(problems, config.Problem{File: o.config, Pos: u.entry.OutputPos(t.Key),
					Message: fmt.Sprintf("%soutputs.%s: its directory %s is also an output's of contracts.%s; give one of them another dir", u.entry.Prefix(), t.Key, d, other)})
			}
			taken[d] = u.entry.Name
		}
	}
	if len(problems) > 0 {
		printProblems(problems, o.config, stderr)
		return false
	}
	return true
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func runValidate(args []string, stdout, stderr io.Writer) int {
	o, code, stop := parse("validate", "Validate the contract and print every problem as file:line:col: message.", args, false, stdout, stderr)
	if stop {
		return code
	}
	units, ok := loadConfigured(o, stderr)
	if !ok {
		return ExitProblems
	}
	for _, u := range units {
		validated(o, u, stdout, stderr)
	}
	return ExitOK
}

// validated reports one validated contract: its warnings, findings worth
// a look that do not make the contract wrong (an odd gRPC code for a
// kind's HTTP status), printed, never failing; and its summary.
func validated(o *options, u unit, stdout, stderr io.Writer) {
	c := u.c
	for _, w := range c.Warnings {
		fmt.Fprintf(stderr, "%s:%d:%d: warning: %s\n", w.File, w.Pos.Line, w.Pos.Col, w.Message)
	}
	if o.verbose && o.cfg != nil {
		fmt.Fprintf(stdout, "%s: %soutputs %s: ok\n", o.config, u.entry.Prefix(), strings.Join(config.Selected(u.opts), ", "))
	}
	if !o.quiet {
		warned := ""
		if n := len(c.Warnings); n > 0 {
			warned = fmt.Sprintf(" (%d warning%s)", n, plural(n))
		}
		fmt.Fprintf(stdout, "errgen: validated %s: contract %s version %s, %d kind%s%s%s: ok\n", u.contract, c.Name, c.VersionLabel(), len(c.Kinds), plural(len(c.Kinds)), importedKinds(c), warned)
	}
}

func runGenerate(args []string, stdout, stderr io.Writer) int {
	o, code, stop := parse("generate", `Write every output from the contract. Nothing is written unless every output
generates; the tree is then either entirely the old one or entirely the new
one, whatever fails; unchanged files are not rewritten; generated files that
are no longer produced are removed. A file is errgen's only when its header
line (the first line; in JSON, the first member) is errgen's header: any
other file at a generated path stops the run unless -take-over is given, and
no other file is ever removed.`, args, true, stdout, stderr)
	if stop {
		return code
	}
	outs, ok := generateOutput(o, stderr)
	if !ok {
		return ExitProblems
	}
	res, err := generate.WriteAll(o.out, outs, generate.Options{TakeOver: o.takeOver, LockTimeout: o.lockTimeout, Waiting: waiting(stderr)})
	if res != nil {
		for _, r := range res.Repaired {
			fmt.Fprintf(stderr, "errgen: %s\n", r)
		}
	}
	var foreign *generate.ForeignError
	if errors.As(err, &foreign) {
		n := len(foreign.Paths)
		whose := "not errgen's (the header line is not errgen's)"
		if len(foreign.Owners) > 0 {
			whose = "not errgen's (the header line is not errgen's) or another config's"
		}
		fmt.Fprintf(stderr, "errgen: nothing was written: %d file%s at generated paths %s %s:\n", n, plural(n), isAre(n), whose)
		for _, p := range foreign.Paths {
			if owner := foreign.Owners[p]; owner != "" {
				fmt.Fprintf(stderr, "  %s (generated from %s: if another config or contract generates it, give one of them another dir; if that was this one's old path, -take-over adopts it)\n", p, owner)
			} else {
				fmt.Fprintf(stderr, "  %s\n", p)
			}
		}
		fmt.Fprintf(stderr, "errgen: move %s away, or run again with -take-over to replace %s with the generated file%s\n", itThem(n), itThem(n), plural(n))
		return ExitProblems
	}
	if err != nil {
		fmt.Fprintf(stderr, "errgen: %v\n", err)
		return ExitProblems
	}
	if o.verbose {
		for _, c := range res.Changes {
			fmt.Fprintf(stdout, "%s %s\n", c.Op, c.Path)
		}
	}
	if !o.quiet {
		n := len(res.Changes)
		if n == 0 {
			fmt.Fprintf(stdout, "errgen: %d generated file%s for %s %s up to date\n", fileCount(outs), plural(fileCount(outs)), o.what(), isAre(fileCount(outs)))
		} else {
			fmt.Fprintf(stdout, "errgen: generated %d file%s for %s (%d changed: %s)\n", fileCount(outs), plural(fileCount(outs)), o.what(), n, generate.Summary(res.Changes))
		}
	}
	return ExitOK
}

// waiting tells the user why errgen pauses.
func waiting(stderr io.Writer) func(lockPath, holder string) {
	return func(lockPath, holder string) {
		if holder != "" {
			holder = " (process " + holder + ")"
		}
		fmt.Fprintf(stderr, "errgen: waiting for another errgen run%s to release %s\n", holder, lockPath)
	}
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func itThem(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// generateOutput loads every contract and runs every emitter over each,
// in memory, and checks the output root: one Output per contract, each
// naming its source (and part).
func generateOutput(o *options, stderr io.Writer) ([]*generate.Output, bool) {
	units, ok := loadConfigured(o, stderr)
	if !ok {
		return nil, false
	}
	if info, err := os.Stat(o.out); err != nil || !info.IsDir() {
		fmt.Fprintf(stderr, "errgen: output root %s is not a directory\n", o.out)
		return nil, false
	}
	var outs []*generate.Output
	for _, u := range units {
		out, ok := generateUnit(o, u, stderr)
		if !ok {
			return nil, false
		}
		outs = append(outs, out)
	}
	return outs, sharedPaths(o, units, outs, stderr)
}

// generateUnit generates one contract and names its source.
func generateUnit(o *options, u unit, stderr io.Writer) (*generate.Output, bool) {
	out, err := generate.Generate(u.c, u.opts)
	if err != nil {
		fmt.Fprintf(stderr, "errgen: %v\n", err)
		var internal *generate.InternalError
		if errors.As(err, &internal) {
			// The stack is what a bug report needs.
			fmt.Fprintf(stderr, "\n%s", internal.Stack)
		}
		return nil, false
	}
	// No output directory may lead outside the root through a symbolic
	// link; a config's problem is reported at its dir.
	check := func(dir string) error { return generate.CheckDir(o.out, dir) }
	if u.entry != nil {
		if err := u.entry.CheckDirs(u.opts, check); err != nil {
			printProblems(err, o.config, stderr)
			return nil, false
		}
	}
	for _, dir := range out.Dirs {
		if err := check(dir); err != nil {
			fmt.Fprintf(stderr, "errgen: output directory %v\n", err)
			return nil, false
		}
	}
	// Every file names the config (or, without one, the contract) it is
	// generated from, and the entry of a contracts list its part: the run
	// owns only the files that name it.
	if o.cfg != nil {
		out.SetSource(generate.SourceOf(o.cfg.Root, o.cfg.File), u.entry.Name)
	} else {
		out.SetSource(generate.SourceOf(o.out, o.contract), "")
	}
	return out, true
}

// sharedPaths reports every file that two entries of a contracts list
// would both generate, at the later entry's name.
func sharedPaths(o *options, units []unit, outs []*generate.Output, stderr io.Writer) bool {
	var problems config.Problems
	first := map[string]int{}
	for i, out := range outs {
		for _, p := range out.Paths() {
			j, ok := first[p]
			if !ok {
				first[p] = i
				continue
			}
			if len(problems) == 0 || problems[len(problems)-1].Pos != units[i].entry.NamePos {
				problems = append(problems, config.Problem{File: o.config, Pos: units[i].entry.NamePos,
					Message: fmt.Sprintf("contracts.%s: generates %s, which contracts.%s generates too; give one of their outputs another dir", units[i].entry.Name, p, units[j].entry.Name)})
			}
		}
	}
	if len(problems) > 0 {
		printProblems(problems, o.config, stderr)
		return false
	}
	return true
}

// fileCount is the number of files outs generate.
func fileCount(outs []*generate.Output) int {
	n := 0
	for _, out := range outs {
		n += len(out.Files)
	}
	return n
}

// what names what a run generates from: the contract, or the config and
// its number of contracts for a contracts list.
func (o *options) what() string {
	if o.cfg != nil && o.cfg.Parts != nil {
		return fmt.Sprintf("%s (%d contract%s)", o.config, len(o.cfg.Parts), plural(len(o.cfg.Parts)))
	}
	return o.contract
}

func runCheck(args []string, stdout, stderr io.Writer) int {
	o, code, stop := parse("check", `Regenerate in memory and compare with the files on disk. Exit 1 with a
unified diff for every stale, missing or extra generated file, naming the
files at generated paths that are not errgen's and what an interrupted
errgen generate left behind.`, args, true, stdout, stderr)
	if stop {
		return code
	}
	outs, ok := generateOutput(o, stderr)
	if !ok {
		return ExitProblems
	}
	changes, interrupted, err := generate.InspectAll(o.out, outs, generate.Options{LockTimeout: o.lockTimeout, Waiting: waiting(stderr)})
	if err != nil {
		fmt.Fprintf(stderr, "errgen: %v\n", err)
		return ExitProblems
	}
	if len(changes) == 0 && len(interrupted) == 0 {
		if !o.quiet {
			fmt.Fprintf(stdout, "errgen: %d generated file%s for %s %s up to date\n", fileCount(outs), plural(fileCount(outs)), o.what(), isAre(fileCount(outs)))
		}
		return ExitOK
	}
	for _, c := range changes {
		fmt.Fprint(stdout, diff.Unified(c.Path, c.Path, c.Old, c.New))
	}
	for _, c := range changes {
		what := map[generate.Op]string{generate.Create: "missing", generate.Update: "stale", generate.Delete: "no longer generated"}[c.Op]
		switch {
		case c.Owner != "":
			what = "generated from " + c.Owner + ", not from this config or contract; generate replaces it only with -take-over (when that was this one's old path)"
		case c.Foreign:
			what = "not errgen's (its header line is not errgen's); generate replaces it only with -take-over"
		}
		fmt.Fprintf(stderr, "%s: %s\n", c.Path, what)
	}
	for _, j := range interrupted {
		if strings.HasSuffix(j, ".done") {
			fmt.Fprintf(stderr, "%s: an errgen generate finished but could not remove its backups; the next generate removes them\n", j)
		} else {
			fmt.Fprintf(stderr, "%s: an errgen generate was interrupted and the outputs may be mixed; the next generate restores them, then generates\n", j)
		}
	}
	if len(changes) > 0 {
		fmt.Fprintf(stderr, "errgen: %d generated file%s out of date (%s); to fix, run:\n  %s\n",
			len(changes), plural(len(changes)), generate.Summary(changes), fixCommand(o))
	} else {
		fmt.Fprintf(stderr, "errgen: to repair, run:\n  %s\n", fixCommand(o))
	}
	if n := len(generate.Foreign(changes)); n > 0 {
		fmt.Fprintf(stderr, "errgen: %d of them %s not errgen's: move %s away first, or add -take-over to replace %s\n", n, isAre(n), itThem(n), itThem(n))
	}
	return ExitProblems
}

// fixCommand is the generate command matching the check that failed.
func fixCommand(o *options) string {
	parts := []string{commandName(".") + " generate"}
	switch {
	case o.configGiven:
		parts = append(parts, "-config "+shellQuote(o.config))
	case o.cfg != nil: // found in the working directory
	default:
		if o.contract != defaultContract {
			parts = append(parts, "-contract "+shellQuote(o.contract))
		}
		if o.out != "." {
			parts = append(parts, "-out "+shellQuote(o.out))
		}
	}
	return strings.Join(parts, " ")
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// importedKinds says how many of c's kinds its imports define: " (61 from
// platform-error)"; nothing for a contract that imports none.
func importedKinds(c *contract.Contract) string {
	if len(c.Imports) == 0 {
		return ""
	}
	var names []string
	count := map[string]int{}
	for _, k := range c.Kinds {
		if k.From == nil {
			continue
		}
		if count[k.From.Name] == 0 {
			names = append(names, k.From.Name)
		}
		count[k.From.Name]++
	}
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%d from %s", count[n], n)
	}
	if len(parts) == 0 {
		return " (none imported)"
	}
	// A long chain of imports: the first few, then a count.
	const shown = 3
	if len(names) > shown+1 {
		rest := 0
		for _, n := range names[shown:] {
			rest += count[n]
		}
		return fmt.Sprintf(" (%s and %d from %d more imported contracts)", strings.Join(parts[:shown], ", "), rest, len(names)-shown)
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
