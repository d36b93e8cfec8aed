package tscompile

import (
	"bytes"
	"strings"
	"testing"

	"github.com/errgen/errgen/runtime"
)

// A runtime module compiles to the same bytes whether it comes from the
// cache or from esbuild and tsdecl run again, and compiled as a contract
// module (never cached); every file starts with the header line and ends
// with exactly one newline.
func TestDistCachedAndAgain(t *testing.T) {
	const header = "// header"
	var srcs, uncached []Source
	for _, name := range runtime.TS.Names() {
		text, err := runtime.TS.Stamped(name, header)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, Source{Name: strings.TrimSuffix(name, ".ts"), Text: text, Runtime: true})
		uncached = append(uncached, Source{Name: strings.TrimSuffix(name, ".ts"), Text: text})
	}
	first, err := Dist(header, srcs)
	if err != nil {
		t.Fatal(err)
	}
	cached, err := Dist(header, srcs)
	if err != nil {
		t.Fatal(err)
	}
	distCache.mu.Lock()
	clear(distCache.m)
	distCache.mu.Unlock()
	again, err := Dist(header, uncached)
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != 2*len(srcs) || len(srcs) == 0 {
		t.Fatalf("%d files for %d modules", len(first), len(srcs))
	}
	for name, data := range first {
		if !bytes.Equal(data, cached[name]) || !bytes.Equal(data, again[name]) {
			t.Errorf("%s differs between compilations", name)
		}
		if !bytes.HasPrefix(data, []byte(header+"\n")) || !bytes.HasSuffix(data, []byte("\n")) || bytes.HasSuffix(data, []byte("\n\n")) {
			t.Errorf("%s does not start with the header line or end with exactly one newline", name)
		}
	}
	// Readable, not minified: the JavaScript keeps the source's names and
	// one statement a line.
	if js := string(first["dist/codec.js"]); !strings.Contains(js, "function parseEnvelope(input, opts) {") {
		t.Errorf("dist/codec.js lacks parseEnvelope:\n%.400s", js)
	}
}

// A source esbuild rejects is an error naming the file and position.
func TestDistError(t *testing.T) {
	_, err := Dist("// h", []Source{{Name: "broken", Text: []byte("export const x: = 1;\n")}})
	if err == nil || !strings.Contains(err.Error(), "src/broken.ts:1:") {
		t.Errorf("got %v", err)
	}
}
