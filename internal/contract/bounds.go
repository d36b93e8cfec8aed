package contract

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"unicode/utf8"
)

// MaxSize is the largest contract errgen reads: 64 MiB, room for 100,000
// kinds (40 MB in internal/synth's form, which make bench generates).
// Reading stops past it, so a path that never ends (a device, a pipe) fails
// at once instead of exhausting memory; the contract's size also bounds
// what it can make errgen generate (internal/generate's output limit).
const MaxSize = 64 << 20

// LoadFile reads and validates the contract at path. Problems in the file are
// returned as Problems; an unreadable file as a plain error.
func LoadFile(path string) (*Contract, error) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	return LoadWith(path, data, NewFiles(path))
}

// ReadFile reads a contract file, stopping one byte past MaxSize: that byte
// tells a file of exactly MaxSize bytes from a longer one, which Load then
// reports at the position where the limit was crossed.
func ReadFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, MaxSize+1))
}

// checkInput reports a contract that is too long or not UTF-8 text, the two
// things to know before the YAML parser sees it: the parser's own messages
// for them give no position.
func (l *loader) checkInput(data []byte) bool {
	if len(data) > MaxSize {
		l.problems = append(l.problems, Problem{File: l.file, Pos: posAt(data, MaxSize),
			Message: fmt.Sprintf("the contract is larger than %d MiB (%d bytes), errgen's limit; reading stopped here", MaxSize>>20, MaxSize)})
		return false
	}
	if bytes.HasPrefix(data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(data, []byte{0xFE, 0xFF}) {
		l.problems = append(l.problems, Problem{File: l.file, Pos: Pos{Line: 1, Col: 1},
			Message: "the file is UTF-16 (it starts with a UTF-16 byte order mark); errgen reads contracts as UTF-8 only, so save the file as UTF-8"})
		return false
	}
	if utf8.Valid(data) {
		return true
	}
	// One problem per line, at its first invalid byte: a file saved in
	// another encoding has many, and the lines are what the owner fixes.
	const most = 20
	lines := 0
	for start := 0; start < len(data); {
		end := bytes.IndexByte(data[start:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += start
		}
		line := data[start:end]
		if !utf8.Valid(line) {
			lines++
			if lines <= most {
				i := invalidAt(line)
				l.problems = append(l.problems, Problem{File: l.file, Pos: posAt(data, start+i),
					Message: fmt.Sprintf("not UTF-8: byte %#02x cannot be part of a character here; errgen reads contracts as UTF-8 only, so save the file as UTF-8", line[i])})
			}
		}
		start = end + 1
	}
	if lines > most {
		last := l.problems[len(l.problems)-1]
		l.problems = append(l.problems, Problem{File: l.file, Pos: last.Pos,
			Message: fmt.Sprintf("and %d more lines that are not UTF-8", lines-most)})
	}
	return false
}

// invalidAt is the offset of the first byte of b that is not part of a
// valid UTF-8 sequence.
func invalidAt(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(b)
}

// posAt is the line and column of data[offset], the column counted in
// characters as the YAML parser counts them.
func posAt(data []byte, offset int) Pos {
	lineStart := bytes.LastIndexByte(data[:offset], '\n') + 1
	return Pos{Line: 1 + bytes.Count(data[:offset], []byte("\n")), Col: 1 + utf8.RuneCount(data[lineStart:offset])}
}
