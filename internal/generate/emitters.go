package generate

import (
	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/gendocs"
	"github.com/errgen/errgen/internal/gengo"
	"github.com/errgen/errgen/internal/genopenapi"
	"github.com/errgen/errgen/internal/genpy"
	"github.com/errgen/errgen/internal/genrust"
	"github.com/errgen/errgen/internal/genschema"
	"github.com/errgen/errgen/internal/gents"
	"github.com/errgen/errgen/internal/genvectors"
	"github.com/errgen/errgen/internal/targets"
)

// emitters binds each target of internal/targets (by its key) to its
// emitter: the one thing about a target that internal/targets cannot hold,
// since the emitters import the packages that import it.
var emitters = map[string]Emitter{
	targets.Go:          {Generate: gengo.Generate},
	targets.TypeScript:  {Generate: gents.Generate, Scratch: gents.Scratch},
	targets.Python:      {Generate: genpy.Generate, Scratch: genpy.Scratch},
	targets.Rust:        {Generate: genrust.Generate, Scratch: genrust.Scratch},
	targets.Schemas:     {Generate: genschema.Generate},
	targets.Docs:        {Generate: gendocs.Generate},
	targets.Conformance: {Generate: genvectors.Generate, First: true},
	targets.OpenAPI:     {Generate: genopenapi.Generate},
}

// Emitter is one output: its target, and the function from the contract
// and the generation settings to files inside the target's directory.
type Emitter struct {
	Name string // the target's ID: its name in the manifest and in messages
	Key  string // the target's key in errgen.yaml and in targets.Options.Dirs
	// Generate returns the output's files by slash-separated path from the
	// output root, every one below o.Dir(Key); it writes nothing.
	Generate func(c *contract.Contract, o targets.Options) (map[string][]byte, error)
	// Scratch names what build tools write inside the directory
	// (node_modules/, *.egg-info/): never errgen's to report or prune. See
	// scratch.go.
	Scratch []string
	// First starts the emitter before the others: the largest output at
	// every contract size (the conformance vectors), so that run's workers
	// are not left waiting on it at the end.
	First bool
}

// Dir is the emitter's directory under o, "" when it is not generated.
func (e Emitter) Dir(o targets.Options) string { return o.Dir(e.Key) }

// Emitters is every output errgen produces, in targets.All's order.
var Emitters = func() []Emitter {
	out := make([]Emitter, 0, len(targets.All))
	for _, t := range targets.All {
		e, ok := emitters[t.Key]
		if !ok {
			continue // TestEveryTargetIsComplete fails until it has one
		}
		e.Name, e.Key = t.ID(), t.Key
		out = append(out, e)
	}
	return out
}()
