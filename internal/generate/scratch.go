package generate

import (
	"path"
	"strings"

	"github.com/errgen/errgen/internal/targets"
)

// Build tools write into the package directories errgen owns: pip with
// setuptools leaves build/ and *.egg-info/, npm install node_modules/, npm
// pack a *.tgz, Python __pycache__/. Their copies of generated files carry
// errgen's header line, so without a rule the drift gate reports them as
// stale and generate deletes them. Each emitter therefore declares its
// directory's scratch (Emitter.Scratch): patterns in path.Match syntax,
// each matched against one path element at any depth below the emitter's
// directory, like a .gitignore line without a slash; a trailing "/" matches
// directories only. What matches is never errgen's to report, prune or
// walk, except a directory that holds a generated file: the package's own
// folder is errgen's even when its name is a pattern's (an import name
// "build"). The lists are per emitter because one language's scratch is
// another's output: TypeScript ships dist/, Python builds into it.

// scratchOf collects the scratch patterns of the emitters that run under o,
// by directory.
func scratchOf(o targets.Options, emitters []Emitter) map[string][]string {
	scratch := map[string][]string{}
	for _, e := range emitters {
		if dir := e.Dir(o); dir != "" && len(e.Scratch) > 0 {
			scratch[dir] = append(scratch[dir], e.Scratch...)
		}
	}
	return scratch
}

// isScratch reports whether rel, a slash-separated path relative to the
// root (a directory when dir is set), matches a scratch pattern of an owned
// directory it lies below (scratch holds the patterns by directory: an
// Output's Scratch, and the manifest's for the directories a run no longer
// generates into). Plan walks every directory before its contents and skips
// the ones that match, so only the last element needs checking.
func isScratch(scratch map[string][]string, rel string, dir bool) bool {
	name := path.Base(rel)
	for owned, patterns := range scratch {
		if !strings.HasPrefix(rel, owned+"/") {
			continue
		}
		for _, p := range patterns {
			p, dirOnly := strings.CutSuffix(p, "/")
			if dirOnly && !dir {
				continue
			}
			if ok, _ := path.Match(p, name); ok {
				return true
			}
		}
	}
	return false
}

// holdsGenerated reports whether a generated file lies below the directory
// rel.
func (o *Output) holdsGenerated(rel string) bool {
	for p := range o.Files {
		if strings.HasPrefix(p, rel+"/") {
			return true
		}
	}
	return false
}
