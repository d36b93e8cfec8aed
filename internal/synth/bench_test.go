package synth_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/generate"
	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/synth"
	"github.com/errgen/errgen/internal/targets"
)

// Sizes are the contract sizes of issue 10: 10x steps, so growth is linear
// when each step costs at most ~10x the one before. make test runs every
// benchmark once only to keep it compiling and running, and sets
// ERRGEN_BENCH_SMOKE: then the smallest size alone runs, on the same code
// paths, since the larger ones cost about a minute of CPU that judges
// nothing (make bench runs every size).
var sizes = smoke([]int{100, 1000, 10000})

// generateSizes add 100,000 kinds for BenchmarkGenerate alone (issue 33:
// growth stays linear from 1,000 to 100,000 kinds; about a minute of CPU
// and a few GB, so make bench only).
var generateSizes = smoke([]int{100, 1000, 10000, 100000})

// smoke returns the first size when ERRGEN_BENCH_SMOKE is set, else all.
func smoke(all []int) []int {
	if os.Getenv("ERRGEN_BENCH_SMOKE") != "" {
		return all[:1]
	}
	return all
}

// reportCPU adds the CPU time per operation (all goroutines, garbage
// collection included) to a benchmark's results. On a shared machine ns/op
// moves with everyone else's load; CPU time much less so, and with the
// emitters running in parallel it is also the work the run costs.
func reportCPU(b *testing.B) func() {
	start, ok := cpuTime()
	return func() {
		end, _ := cpuTime()
		if ok && b.N > 0 {
			b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
		}
	}
}

// generateAll loads and validates the contract, then runs every emitter:
// errgen generate without the writes.
func generateAll(b *testing.B, data []byte) *generate.Output {
	c := gentest.LoadData(b, data)
	out, err := generate.Generate(c, targets.Defaults(c.Name))
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// BenchmarkGenerate is `errgen generate` without the writes: load and
// validate the YAML, then run every emitter (Go, schemas, docs, conformance
// vectors, TypeScript, Python).
func BenchmarkGenerate(b *testing.B) {
	bySize(b, generateSizes, func(b *testing.B, data []byte) {
		generateAll(b, data)
	})
}

// bySize runs step on each size's contract, a sub-benchmark per size.
func bySize(b *testing.B, sizes []int, step func(b *testing.B, data []byte)) {
	for _, n := range sizes {
		data := synth.Contract(n)
		b.Run(fmt.Sprintf("kinds=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				step(b, data)
			}
		})
	}
}

// BenchmarkCheck is `errgen check` on an up-to-date tree: load, generate
// everything, and compare with a temporary directory holding the generated
// tree (every file read and compared, every owned directory walked).
func BenchmarkCheck(b *testing.B) {
	for _, n := range sizes {
		data := synth.Contract(n)
		root := b.TempDir()
		changes, err := generate.Plan(root, generateAll(b, data))
		if err != nil {
			b.Fatal(err)
		}
		if err := generate.Apply(root, changes); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("kinds=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				changes, err := generate.Plan(root, generateAll(b, data))
				if err != nil {
					b.Fatal(err)
				}
				if len(changes) != 0 {
					b.Fatalf("check found %d changes in a freshly generated tree", len(changes))
				}
			}
		})
	}
}

// BenchmarkLoad isolates the YAML load and validation, the part of generate
// every emitter depends on.
func BenchmarkLoad(b *testing.B) {
	bySize(b, sizes, func(b *testing.B, data []byte) {
		if _, err := contract.Load("kinds.yaml", data); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkEmitter splits generate by emitter, to show where the time goes.
func BenchmarkEmitter(b *testing.B) {
	for _, n := range sizes {
		c := gentest.LoadData(b, synth.Contract(n))
		for _, e := range generate.Emitters {
			b.Run(fmt.Sprintf("%s/kinds=%d", e.Name, n), func(b *testing.B) {
				b.ReportAllocs()
				defer reportCPU(b)()
				for b.Loop() {
					if _, err := e.Generate(c, targets.Defaults(c.Name)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkGoBuild compiles the generated Go package of a 1,000-kind
// contract (100 under ERRGEN_BENCH_SMOKE) with `go build`, as a consumer's CI does after `go generate`. Each
// iteration changes one comment so the build cache misses for the package
// itself, while the standard library stays cached (as it is on any machine
// that has built Go before). It reports the generated source and the compiled
// archive per kind.
func BenchmarkGoBuild(b *testing.B) {
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goTool); err != nil {
		b.Skipf("no go command: %v", err)
	}
	n := 1000
	if len(sizes) == 1 {
		n = sizes[0]
	}
	c := gentest.LoadData(b, synth.Contract(n))
	out, err := generate.Generate(c, targets.Defaults(c.Name))
	if err != nil {
		b.Fatal(err)
	}
	root := b.TempDir()
	var pkgDir string
	var srcBytes int
	for p, data := range out.Files {
		if !strings.HasPrefix(p, "gen/go/") {
			continue
		}
		gentest.WriteFile(b, root, p, data)
		if strings.HasSuffix(p, ".go") {
			srcBytes += len(data)
			pkgDir = "./" + filepath.ToSlash(filepath.Dir(p))
		}
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/synth\n\ngo 1.22\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	archive := filepath.Join(root, "pkg.a")
	build := func(i int) {
		stamp := fmt.Sprintf("// Code generated by errgen. DO NOT EDIT.\n\npackage %s\n\n// build %d\n", filepath.Base(pkgDir), i)
		if err := os.WriteFile(filepath.Join(root, pkgDir, "zz_stamp.go"), []byte(stamp), 0o644); err != nil {
			b.Fatal(err)
		}
		cmd := exec.Command(goTool, "build", "-o", archive, pkgDir)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("go build: %v\n%s", err, out)
		}
	}
	if len(sizes) > 1 {
		// Warm the cache for the standard library, for the timed builds; under
		// ERRGEN_BENCH_SMOKE nothing is timed, and the one build below
		// compiles the same package.
		build(-1)
	}
	i := 0
	for b.Loop() {
		build(i)
		i++
	}
	b.StopTimer()
	st, err := os.Stat(archive)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(srcBytes)/float64(n), "src-B/kind")
	b.ReportMetric(float64(st.Size())/float64(n), "archive-B/kind")
}
