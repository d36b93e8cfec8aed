// Package render writes the files of a generated package that its
// language's emitter does not compute itself: templates rendered with the
// emitter's view and tidied, and the runtime's files stamped with the
// header line. gents, genpy and genrust share it (gendocs tidies Markdown,
// code fences included, its own way).
package render

import (
	"bytes"
	"fmt"
	"io"
	"path"

	"github.com/errgen/errgen/runtime"
)

// Files renders each of the files (slash-separated paths relative to dir)
// from the template named after its base name (src/contract.ts from
// contract.ts.tmpl) with data into out, at dir/<file>, tidied to at most
// maxBlank blank lines in a row. t is a *template.Template or, compiled, a
// *Templates (the same bytes at a fraction of the cost).
func Files(out map[string][]byte, t Executor, data any, maxBlank int, dir string, files []string) error {
	return FilesSized(out, t, data, maxBlank, dir, files, "", 0)
}

// FilesSized is Files with the size of the largest file, large, foreseen,
// about: the buffer the files are rendered into is allocated at that size
// once rather than grown by doubling (a large contract's module is
// megabytes).
func FilesSized(out map[string][]byte, t Executor, data any, maxBlank int, dir string, files []string, large string, size int) error {
	// One buffer for every file: Tidy copies each out, and the buffer then
	// only grows to the largest file instead of growing again for each. The
	// large file goes last and keeps the buffer, tidied where it is, instead
	// of a copy of its megabytes.
	var buf bytes.Buffer
	buf.Grow(size)
	if d, ok := data.(interface{ SetOut(io.Writer) }); ok {
		d.SetOut(&buf)
		defer d.SetOut(nil)
	}
	render := func(f string) error {
		buf.Reset()
		if err := t.ExecuteTemplate(&buf, path.Base(f)+".tmpl", data); err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		if f == large {
			out[path.Join(dir, f)] = tidyInto(buf.Bytes()[:0], buf.Bytes(), maxBlank)
			return nil
		}
		out[path.Join(dir, f)] = Tidy(buf.Bytes(), maxBlank)
		return nil
	}
	for _, f := range files {
		if f != large {
			if err := render(f); err != nil {
				return err
			}
		}
	}
	for _, f := range files {
		if f == large {
			return render(f)
		}
	}
	return nil
}

// Direct, embedded in a view, lets the view's templates write a long text
// straight into the file being rendered, {{.Raw .Classifications}}, where
// {{.Classifications}} would go through fmt, which copies every text it
// prints into a buffer of its own first (a large contract's printed tables
// are megabytes). Files and FilesSized point it at their buffer.
type Direct struct{ w io.Writer }

// SetOut points Raw at w.
func (d *Direct) SetOut(w io.Writer) { d.w = w }

// Raw writes s where the template is, and prints nothing itself.
func (d *Direct) Raw(s string) (string, error) {
	if d.w == nil {
		return s, nil // rendered by other means: printed as usual
	}
	_, err := io.WriteString(d.w, s)
	return "", err
}

// Runtime puts each of the language's runtime files into out, at
// dir/<name>, stamped with the header line.
func Runtime(out map[string][]byte, lang runtime.Lang, dir, header string) error {
	for _, name := range lang.Names() {
		src, err := lang.Stamped(name, header)
		if err != nil {
			return err
		}
		out[path.Join(dir, name)] = src
	}
	return nil
}

// Tidy drops trailing white space, collapses the runs of blank lines that
// template actions leave behind to at most maxBlank (Python keeps the two
// PEP 8 puts between top-level definitions, TypeScript one) and ends the
// file with exactly one newline. It works on the bytes in one pass (the
// output is never longer than the trimmed input plus the final newline).
func Tidy(b []byte, maxBlank int) []byte {
	return tidyInto(make([]byte, 0, len(bytes.TrimSpace(b))+1), b, maxBlank)
}

// tidyInto appends Tidy(b) to out, which may be b[:0]: each line is
// written at or before where it was read, so Tidy works in place.
func tidyInto(out, b []byte, maxBlank int) []byte {
	rest := bytes.TrimSpace(b)
	blank := 0
	for {
		line, more := rest, false
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest, more = rest[:i], rest[i+1:], true
		}
		line = bytes.TrimRight(line, " \t")
		if len(line) == 0 {
			blank++
		} else {
			blank = 0
		}
		if blank <= maxBlank {
			out = append(out, line...)
			out = append(out, '\n')
		}
		if !more {
			return out
		}
	}
}
