// Package tscompile compiles the generated TypeScript package's modules
// into the dist/ it ships: esbuild for the JavaScript, tsdecl for the
// declarations. It knows nothing of contracts (gents hands it the sources),
// and it is errgen's one importer of esbuild. It also holds the part of
// esbuild's printer with which gents writes the JavaScript of the
// contract's own modules without compiling them (js.go).
package tscompile

import (
	"bytes"
	"fmt"
	"path"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/errgen/errgen/internal/tsdecl"
)

// The package ships compiled: dist/<module>.js and dist/<module>.d.ts for
// every src/<module>.ts, generated here in Go and committed like the
// sources, so `npm install` of the directory, of a git URL or of a
// tarball gives an importable, typed package with no build step. (A
// prepare script would need the consumer to have TypeScript: npm links a
// directory dependency without installing its devDependencies, so tsc is
// missing exactly where it would run. And nothing is built inside the
// package directory, so building never dirties errgen's drift gate.)
//
// The JavaScript is esbuild's TypeScript transform: types removed, one
// module per source, import specifiers ("./codec.js") as written, ES2022
// like the tsconfig's target, not minified. The declarations come from
// tsdecl, which cuts them out of the sources; the templates follow
// isolatedDeclarations (explicit types on every export), which the
// generated tsconfig.json turns on so tsc checks it. tests/ts proves the
// result: the type-level tests compile against dist/*.d.ts, the runtime
// tests run dist/*.js, and the shipped declarations must agree, export by
// export, with tsc's own declarations of the sources.

// Target is the tsconfig's "target" (templates/ts/tsconfig.json.tmpl; a
// test in gents holds the two equal).
const Target = api.ES2022

// tsconfigRaw is what esbuild reads of the sources' compiler options:
// verbatimModuleSyntax keeps every import that is not marked type, as tsc
// does under the same option, and class fields are defined as ES2022 does.
const tsconfigRaw = `{"compilerOptions":{"verbatimModuleSyntax":true,"useDefineForClassFields":true}}`

// Source is the module src/<Name>.ts; Runtime says it is a runtime module,
// the same text for every contract, whose compilation is cached. JS and
// DTS, when set, are its dist/ files already (the header line on top),
// made by the caller as esbuild and tsdecl would make them from the module
// (see js.go), and Text is not read.
type Source struct {
	Name    string
	Text    []byte
	Runtime bool
	JS, DTS []byte
}

// Dist compiles the modules and returns dist/<name>.js and
// dist/<name>.d.ts of each, each with the header line on top.
func Dist(header string, srcs []Source) (map[string][]byte, error) {
	type result struct {
		js, dts []byte
		err     error
	}
	// The modules compile independently; the data module and the
	// constructors of a large contract take most of the time, so they
	// compile at the same time.
	results := make([]result, len(srcs))
	var wg sync.WaitGroup
	for i, s := range srcs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if s.JS != nil && s.DTS != nil {
				results[i].js, results[i].dts = s.JS, s.DTS
				return
			}
			results[i].js, results[i].dts, results[i].err = distFiles(header, s.Name, s.Text, s.Runtime)
		}()
	}
	wg.Wait()
	out := make(map[string][]byte, 2*len(srcs))
	for i, s := range srcs {
		if results[i].err != nil {
			return nil, fmt.Errorf("compiling src/%s.ts: %w", s.Name, results[i].err)
		}
		out[path.Join("dist", s.Name+".js")], out[path.Join("dist", s.Name+".d.ts")] = results[i].js, results[i].dts
	}
	return out, nil
}

// distFiles returns the dist/ files of the source module src/<name>.ts;
// cache says the source is a runtime module, the same for every contract.
func distFiles(header, name string, src []byte, cache bool) (js, dts []byte, err error) {
	if !cache {
		return compile(header, name, src)
	}
	if c, ok := distCache.get(name, src); ok {
		return bytes.Clone(c.js), bytes.Clone(c.dts), nil
	}
	js, dts, err = compile(header, name, src)
	if err != nil {
		return nil, nil, err
	}
	distCache.put(name, src, compiled{bytes.Clone(js), bytes.Clone(dts)})
	return js, dts, nil
}

// compile runs esbuild and tsdecl on one module.
func compile(header, name string, src []byte) (js, dts []byte, err error) {
	file := "src/" + name + ".ts"
	r := api.Transform(string(src), api.TransformOptions{
		Loader:      api.LoaderTS,
		Format:      api.FormatESModule,
		Target:      Target,
		Charset:     api.CharsetUTF8, // the contract's text as written, like the sources
		Sourcefile:  file,
		TsconfigRaw: tsconfigRaw,
		LogLevel:    api.LogLevelSilent,
	})
	if len(r.Errors) > 0 {
		var msgs []string
		for _, m := range r.Errors {
			if l := m.Location; l != nil {
				msgs = append(msgs, fmt.Sprintf("%s:%d:%d: %s", l.File, l.Line, l.Column+1, m.Text))
			} else {
				msgs = append(msgs, m.Text)
			}
		}
		return nil, nil, fmt.Errorf("esbuild: %s", strings.Join(msgs, "; "))
	}
	dts, err = Declarations(header, name, src)
	if err != nil {
		return nil, nil, err
	}
	// esbuild drops ordinary comments, the header line among them.
	js = append([]byte(header+"\n"), r.Code...)
	return js, dts, nil
}

// Declarations is dist/<name>.d.ts: tsdecl's declarations of the module
// src/<name>.ts, the header line on top.
func Declarations(header, name string, src []byte) ([]byte, error) {
	decl, err := tsdecl.Emit("src/"+name+".ts", string(src))
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(header)+1+len(decl))
	return append(append(append(out, header...), '\n'), decl...), nil
}

type compiled struct{ js, dts []byte }

// distCache keeps the last compilation of each runtime module. Those are
// the same text for every contract, so a process that generates many
// contracts (the tests, the fuzzer) compiles them once; one entry per
// module name keeps it small, and the text is compared on every use.
var distCache = &moduleCache{m: map[string]cacheEntry{}}

type cacheEntry struct {
	src string
	out compiled
}

type moduleCache struct {
	mu sync.Mutex
	m  map[string]cacheEntry
}

func (c *moduleCache) get(name string, src []byte) (compiled, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[name]
	if !ok || e.src != string(src) {
		return compiled{}, false
	}
	return e.out, true
}

func (c *moduleCache) put(name string, src []byte, out compiled) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[name] = cacheEntry{string(src), out}
}

// Esbuild is the JavaScript esbuild compiles src/<name>.ts to, the header
// line on top: what the JavaScript a caller writes itself (Source.JS) must
// equal, for its tests.
func Esbuild(header, name string, src []byte) ([]byte, error) {
	js, _, err := compile(header, name, src)
	return js, err
}
