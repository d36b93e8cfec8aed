package generate

import (
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/errgen/errgen/internal/marker"
)

// A run remembers where it generated: SetSource adds a manifest to the
// output, a generated JSON file that lists the run's output directories
// by output (their build tools' scratch is the output's), named after the
// source and
// kept beside it ("errgen.outputs.json" beside errgen.yaml,
// "contract/kinds.outputs.json" beside a contract generated without a
// config). The next run's Plan walks the directories the manifest on disk
// lists as well as its own, so a file of a directory that is no longer an
// output (the Go package renamed, openapi dropped from the config) is
// deleted by generate and reported by check, like a file no longer
// generated in a directory that still is: one rule for every output. Only
// the run's own files are pruned there, by the same rule as everywhere
// (source.go): a file that names another config or contract, or is not
// errgen's, stays. A manifest that is not the run's own, or cannot be read,
// adds no directory: the safe direction.

// manifestAbout is the manifest's explanation of itself.
const manifestAbout = "The output directories errgen generated into from this source: the next errgen generate removes its files from any directory it no longer generates into, and errgen check reports them."

type manifest struct {
	Comment string            `json:"$comment"`
	About   string            `json:"about"`
	Outputs map[string]string `json:"outputs"` // the directory by emitter name
}

// ManifestPath is the path, relative to the root, of the manifest of a run
// whose source and part are those SetSource was given: beside the source
// when it lies inside the root, else in the root; named after the source
// (and part) with every byte outside [A-Za-z0-9._-] as "_".
func ManifestPath(source, part string) string {
	source = path.Clean(source)
	dir, base := path.Split(source)
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" || dir == ".." || strings.HasPrefix(dir, "../") || strings.HasPrefix(dir, "/") || strings.IndexFunc(dir, func(r rune) bool { return !safeNameRune(r) && r != '/' }) >= 0 {
		dir = "."
	}
	stem := strings.TrimSuffix(base, path.Ext(base))
	if part != "" {
		stem += "." + part
	}
	stem = strings.Map(func(r rune) rune {
		if safeNameRune(r) {
			return r
		}
		return '_'
	}, stem)
	if strings.Trim(stem, ".") == "" {
		stem = "errgen"
	}
	return path.Join(dir, stem+".outputs.json")
}

func safeNameRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-'
}

// addManifest adds the manifest of o's directories to o.Files, with the
// bare header that SetSource then stamps.
func (o *Output) addManifest() {
	m := manifest{Comment: marker.Text, About: manifestAbout, Outputs: o.Outputs}
	if m.Outputs == nil {
		m.Outputs = map[string]string{}
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		panic(err) // strings only
	}
	o.Files[ManifestPath(o.Source, o.Part)] = append(data, '\n')
}

// previousDirs are the directories the manifests on disk list that o does
// not generate into any more, with their scratch patterns: the run's own
// manifest and, for a part, its config's single-form manifest (see
// bareManifest). A manifest adds nothing when it is not there, not o's
// own (another source's, or not errgen's), or cannot be read.
func previousDirs(root string, out *Output, owned *owners) (dirs []string, scratch map[string][]string) {
	if out.Source == "" {
		return nil, nil
	}
	scratch = map[string][]string{}
	rels := []string{ManifestPath(out.Source, out.Part)}
	if out.Part != "" {
		rels = append(rels, ManifestPath(out.Source, ""))
	}
	for _, rel := range rels {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil || !IsGenerated(rel, data) || owned.other(rel, data, true) != "" {
			continue
		}
		var m manifest
		if json.Unmarshal(data, &m) != nil {
			continue
		}
		for name, d := range m.Outputs {
			if !fs.ValidPath(d) || d == "." || slices.Contains(out.Dirs, d) {
				continue
			}
			if !slices.Contains(dirs, d) {
				dirs = append(dirs, d)
			}
			for _, e := range Emitters {
				if e.Name == name {
					scratch[d] = append(scratch[d], e.Scratch...)
				}
			}
		}
	}
	slices.Sort(dirs)
	return dirs, scratch
}

// bareManifest is the Delete of the manifest of o's config's single form,
// which a part adopts (source.go) and no run writes any more once the
// config is a contracts list; nil when there is none, or it is not o's.
func bareManifest(root string, out *Output, owned *owners) *Change {
	if out.Source == "" || out.Part == "" {
		return nil
	}
	rel := ManifestPath(out.Source, "")
	if _, generated := out.Files[rel]; generated {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil || !IsGenerated(rel, data) || owned.other(rel, data, true) != "" {
		return nil
	}
	return &Change{Path: rel, Op: Delete, Old: data}
}
