package genvectors

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/exampleenv"
	"github.com/errgen/errgen/internal/orderedjson"
)

// Every reader of a package (the envelope decoder, ReadHTTP with labby's
// short form and the problem document, the AIP-193 reader, the CLI line)
// holds the whole document it reads to the limits the envelope decoder
// applies (contract.MaxDepth, numbers a 64-bit float holds), and returns
// no envelope that cannot be encoded again. The CLI reader trims JSON's
// white space from a line's ends and nothing else.

// pastLimits is the specification of those limits for a whole JSON
// document with depth levels of arrays and objects around it: whether it
// nests deeper than contract.MaxDepth or holds a number past the range of a
// 64-bit float. Text that is not JSON is not past them (it is not JSON).
func pastLimits(doc []byte, depth int) bool {
	if json.Valid(doc) {
		return validPastLimits(doc, depth)
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) || err != nil {
			return false
		}
		switch t := tok.(type) {
		case json.Delim:
			if t == '[' || t == '{' {
				if depth++; depth > contract.MaxDepth {
					return true
				}
			} else {
				depth--
			}
		case json.Number:
			if f, _ := strconv.ParseFloat(string(t), 64); math.IsInf(f, 0) {
				return true
			}
		}
	}
}

// validPastLimits is pastLimits for a document known to be JSON, read
// byte by byte instead of token by token (the short-form bodies of every
// kind go through it): each [ or { opens a level, each number is read as
// the decoder's tokens give it.
func validPastLimits(doc []byte, depth int) bool {
	for i := 0; i < len(doc); i++ {
		switch c := doc[i]; {
		case c == '"':
			for i++; doc[i] != '"'; i++ {
				if doc[i] == '\\' {
					i++
				}
			}
		case c == '[' || c == '{':
			if depth++; depth > contract.MaxDepth {
				return true
			}
		case c == ']' || c == '}':
			depth--
		case c == '-' || c >= '0' && c <= '9':
			j := i + 1
			for j < len(doc) && strings.IndexByte("0123456789+-.eE", doc[j]) >= 0 {
				j++
			}
			if f, _ := strconv.ParseFloat(string(doc[i:j]), 64); math.IsInf(f, 0) {
				return true
			}
			i = j - 1
		}
	}
	return false
}

// nested returns n arrays nested in one another, the innermost empty, as a
// value.
func nested(n int) any {
	var v any = []any{}
	for i := 1; i < n; i++ {
		v = []any{v}
	}
	return v
}

// CLIReadVec is a line given to every package's CLI reader (Go's ReadCLI,
// TypeScript's readCli, Python's and Rust's read_cli) as text and as UTF-8
// bytes: Envelope is what it reads, compared as a JSON value, or null when
// the line is not a CLI line.
type CLIReadVec struct {
	Name string `json:"name"`
	Line string `json:"line"`
	// Bytes, when set (base64 in the file), is the line instead, as bytes
	// only: they are not UTF-8.
	Bytes    []byte          `json:"bytes,omitempty"`
	Envelope json.RawMessage `json:"envelope"`
}

// cliSpaces are characters at a line's ends that are not JSON's white
// space: some trim functions of some languages take them for white space
// (a byte order mark, the Unicode spaces and line breaks, vertical tab and
// form feed), and every CLI reader must reject a line they surround.
var cliSpaces = []struct{ name, text string }{
	{"a byte order mark", "\ufeff"},
	{"a no-break space", "\u00a0"},
	{"U+0085 (next line)", "\u0085"},
	{"U+2028 (line separator)", "\u2028"},
	{"U+2029 (paragraph separator)", "\u2029"},
	{"U+3000 (ideographic space)", "\u3000"},
	{"U+200B (zero width space)", "\u200b"},
	{"a vertical tab", "\v"},
	{"a form feed", "\f"},
}

// MCPTextVec is the text of an MCP tool result's one text content item,
// given to every package's tool-result reader (Go's FromToolResult,
// TypeScript's fromMcpToolResult, Python's from_mcp_tool_result, Rust's
// Envelope::from_tool_result): Envelope is what it reads, compared as a
// JSON value, or null when the result carries no envelope. The item's
// text is trimmed as a CLI line is: JSON's white space only.
type MCPTextVec struct {
	Name     string          `json:"name"`
	Text     string          `json:"text"`
	Envelope json.RawMessage `json:"envelope"`
}

// mcpTexts are the tool-result reader's vectors: the first example's
// envelope as written, with JSON's white space around it (read) and with
// each of cliSpaces before or after it (not read).
func mcpTexts(exs []exampleenv.Example) ([]MCPTextVec, error) {
	env, err := raw(fromExample(exs[0].Value))
	if err != nil {
		return nil, err
	}
	out := []MCPTextVec{
		{"as written", string(env), env},
		{"JSON's white space at both ends", " \t\r\n" + string(env) + " \t\r\n", env},
	}
	null := json.RawMessage("null")
	for _, s := range cliSpaces {
		out = append(out,
			MCPTextVec{"not an envelope: " + s.name + " before it", s.text + string(env), null},
			MCPTextVec{"not an envelope: " + s.name + " after it", string(env) + s.text, null})
	}
	return out, nil
}

// cliReads are the CLI reader's vectors: the first example's line in both
// CLI forms, with JSON's white space around it (read) and with each of
// cliSpaces before or after it (not read); and wrapped lines at and past
// the limits, the wrapper's object counting as level 0.
func cliReads(c *contract.Contract, exs []exampleenv.Example) ([]CLIReadVec, error) {
	env, err := raw(fromExample(exs[0].Value))
	if err != nil {
		return nil, err
	}
	wrapped := func(command string, more string, e []byte) string {
		return `{"ok":false,"command":` + command + more + `,"error":` + string(e) + "}"
	}
	cmd := string(orderedjson.AppendString(nil, cliCommand, false))
	own, other := string(env), wrapped(cmd, "", env)
	ownForm, otherForm := "the envelope form", "the wrapped form"
	if c.Surfaces.CLI.Form == contract.CLIWrapped {
		own, other = other, own
		ownForm, otherForm = otherForm, ownForm
	}
	var out []CLIReadVec
	add := func(name, line string, want json.RawMessage) {
		if want == nil {
			want = json.RawMessage("null")
		}
		out = append(out, CLIReadVec{Name: name, Line: line, Envelope: want})
	}
	add("as written, in "+ownForm, own+"\n", env)
	add("in "+otherForm, other+"\n", env)
	add("JSON's white space at both ends", " \t\r\n"+own+" \t\r\n", env)
	for _, s := range cliSpaces {
		add("not a CLI line: "+s.name+" before it", s.text+own+"\n", nil)
		add("not a CLI line: "+s.name+" after it", own+s.text, nil)
		add("not a CLI line: "+s.name+" after it, then a newline", own+s.text+"\n", nil)
	}
	// Bytes that are not UTF-8 read as the envelope decoder reads them:
	// each invalid byte is U+FFFD.
	msg := c.Layout.Leaf(contract.SourceMessage).Path
	bad, err := raw(fromExample(exs[0].Value).with(msg, "bytes: @@ end"))
	if err != nil {
		return nil, err
	}
	good, err := raw(fromExample(exs[0].Value).with(msg, "bytes: \ufffd\ufffd end"))
	if err != nil {
		return nil, err
	}
	line := []byte(strings.Replace(string(bad), "@@", "\xff\xfe", 1))
	if c.Surfaces.CLI.Form == contract.CLIWrapped {
		line = []byte(wrapped(cmd, "", line))
	}
	out = append(out, CLIReadVec{Name: "invalid UTF-8 in the message, two bytes", Bytes: append(line, '\n'), Envelope: good})
	add(fmt.Sprintf("wrapped, another member nested %d levels below the line's object", contract.MaxDepth),
		wrapped(cmd, `,"x":`+string(nest(contract.MaxDepth)), env)+"\n", env)
	for _, p := range []struct{ what, text string }{
		{fmt.Sprintf("another member nested %d levels below the line's object", contract.MaxDepth+1), string(nest(contract.MaxDepth + 1))},
		{"1e999 as the command", "1e999"},
		{"an integer of 310 digits as the command", "1" + strings.Repeat("0", 309)},
		// A member given twice whose first copy is past a limit: the text is
		// held to the limits, not the value a parser keeps (the last copy).
		{"the first of two x members is 1e999", `1e999,"x":1`},
	} {
		line := wrapped(cmd, `,"x":`+p.text, env)
		if strings.HasSuffix(p.what, "as the command") {
			line = wrapped(p.text, "", env)
		}
		add("wrapped, past a limit: "+p.what, line+"\n", nil)
	}
	return out, nil
}
