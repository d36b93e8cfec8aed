package readerdiff

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/errgen/errgen/gen/go/agenterror"
	"github.com/errgen/errgen/gen/go/agenterror/grpcstatus"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// Answer is what a reader made of a case.
type Answer struct {
	OK bool
	// Category is the DecodeError's category of a rejected input; CategoryOther
	// when the reader failed with an error of another type, CategoryHost when
	// the host's JSON parser refused the tool result before the reader saw it.
	Category string
	// Value is the accepted envelope encoded again by the package (AppendJSON):
	// the decoded value the languages compare, as a JSON value.
	Value json.RawMessage
	// EncodeError is set when an accepted envelope does not encode again, and
	// WriteError when WriteHTTP does not send it as AppendJSON encodes it or
	// AIP193 fails:
	// both break the rule that a decoded envelope can always be sent on.
	EncodeError, WriteError string
	// GRPCError is set when the envelope does not come back whole through
	// the gRPC surface, Go's alone: grpcstatus.Status, the status's proto
	// bytes and grpcstatus.FromStatus.
	GRPCError string
	// IllFormed is set when the encoding is not valid UTF-8 (Value then
	// holds it with each ill-formed byte read as U+FFFD, as every decoder
	// reads it): every output must be valid UTF-8.
	IllFormed bool
}

// The categories of a rejection that is not a DecodeError.
const (
	CategoryOther = "other"
	CategoryHost  = "host"
)

// Read runs a case through the Go package's reader.
func Read(c Case) Answer {
	var e *agenterror.Envelope
	var err error
	switch c.Reader {
	case ReaderEnvelope:
		e = new(agenterror.Envelope)
		if err = e.UnmarshalJSON(c.Input); err != nil {
			e = nil
		}
	case ReaderHTTP:
		resp := &http.Response{StatusCode: c.Status, Header: http.Header{}, Body: io.NopCloser(bytes.NewReader(c.Input))}
		for _, h := range c.Headers {
			resp.Header.Add(h.Name, h.Value)
		}
		e, err = agenterror.ReadHTTP(resp)
	case ReaderAIP193:
		e, err = agenterror.FromAIP193(c.Input)
	case ReaderCLI:
		e, err = agenterror.ReadCLI(c.Input)
	case ReaderMCP:
		var tr agenterror.ToolResult
		if jerr := json.Unmarshal(c.Input, &tr); jerr != nil {
			return Answer{Category: CategoryHost}
		}
		e, err = agenterror.FromToolResult(tr)
	default:
		panic("readerdiff: no reader " + c.Reader)
	}
	if err != nil {
		var de *agenterror.DecodeError
		if errors.As(err, &de) {
			return Answer{Category: string(de.Category)}
		}
		return Answer{Category: CategoryOther}
	}
	a := Answer{OK: true}
	b, err := e.AppendJSON(nil)
	if err != nil {
		a.EncodeError = err.Error()
		return a
	}
	a.Value = b
	if !utf8.Valid(b) || loneSurrogate(b) {
		a.IllFormed = true
		a.Value = replaceIllFormed(b)
	}
	rec := httptest.NewRecorder()
	e.WriteHTTP(rec, nil)
	if got := rec.Body.Bytes(); !bytes.Equal(got, b) {
		a.WriteError = fmt.Sprintf("WriteHTTP sent %d bytes (status %d) instead of the %d AppendJSON encodes", len(got), rec.Code, len(b))
	} else if _, err := e.AIP193(); err != nil {
		a.WriteError = "AIP193: " + err.Error()
	}
	a.GRPCError = throughGRPC(e, b)
	return a
}

// throughGRPC sends the envelope through the gRPC surface, which only Go
// has (grpcstatus): its status, the status's proto bytes, and the reader
// grpcstatus.FromStatus of those. It returns what went wrong, or "" when the
// envelope comes back as enc (its AppendJSON), compared as a JSON value.
func throughGRPC(e *agenterror.Envelope, enc []byte) string {
	st, err := grpcstatus.Status(e)
	if err != nil {
		return "grpcstatus.Status: " + err.Error()
	}
	wire, err := proto.Marshal(st.Proto())
	if err != nil {
		return "the status's proto bytes: " + err.Error()
	}
	var back spb.Status
	if err := proto.Unmarshal(wire, &back); err != nil {
		return "the status's proto bytes: " + err.Error()
	}
	got, err := grpcstatus.FromStatus(status.FromProto(&back)).AppendJSON(nil)
	if err != nil {
		return "grpcstatus.FromStatus reads an envelope AppendJSON refuses: " + err.Error()
	}
	var x, y any
	if json.Unmarshal(got, &x) != nil || json.Unmarshal(replaceIllFormed(enc), &y) != nil || !reflect.DeepEqual(x, y) {
		return fmt.Sprintf("grpcstatus.FromStatus reads back %.300s", got)
	}
	return ""
}

// Counts sums answers.
type Counts struct {
	Cases, Accepted, Rejected int
	ByReader                  map[string][2]int // accepted, rejected
}

// Count sums the answers of cases.
func Count(cases []Case, answers []Answer) Counts {
	n := Counts{ByReader: map[string][2]int{}}
	for i, a := range answers {
		n.Cases++
		ar := n.ByReader[cases[i].Reader]
		if a.OK {
			n.Accepted++
			ar[0]++
		} else {
			n.Rejected++
			ar[1]++
		}
		n.ByReader[cases[i].Reader] = ar
	}
	return n
}

func (n Counts) String() string {
	var parts []string
	for _, r := range Readers {
		parts = append(parts, fmt.Sprintf("%s %d/%d", r, n.ByReader[r][0], n.ByReader[r][1]))
	}
	return fmt.Sprintf("%d cases, %d accepted, %d rejected (accepted/rejected: %s)", n.Cases, n.Accepted, n.Rejected, strings.Join(parts, ", "))
}

func bytesValid(b []byte) bool { return utf8.Valid(b) }

// replaceIllFormed replaces each byte of the JSON text b that is not part
// of a well-formed UTF-8 sequence, and each lone surrogate escape, with
// U+FFFD, as every decoder of the contract reads them.
func replaceIllFormed(b []byte) []byte {
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); {
		if b[i] == '\\' && i+1 < len(b) {
			lone, n := surrogateEscape(b, i)
			if lone {
				out = append(out, "\uFFFD"...)
			} else {
				out = append(out, b[i:i+n]...)
			}
			i += n
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			out = append(out, "\uFFFD"...)
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}

// loneSurrogate reports whether the JSON text b holds a \uXXXX escape of a
// surrogate that is not half of a pair.
func loneSurrogate(b []byte) bool {
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' && i+1 < len(b) {
			lone, n := surrogateEscape(b, i)
			if lone {
				return true
			}
			i += n - 1
		}
	}
	return false
}

// surrogateEscape reads the escape at b[i] (a backslash): lone is true for
// the escape of a surrogate that is not half of a pair, and n is how many
// bytes the escape (both halves of a pair) takes.
func surrogateEscape(b []byte, i int) (lone bool, n int) {
	hex4 := func(j int) (rune, bool) {
		if j+6 > len(b) || b[j] != '\\' || b[j+1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(string(b[j+2:j+6]), 16, 16)
		return rune(v), err == nil
	}
	r, ok := hex4(i)
	if !ok {
		return false, min(2, len(b)-i)
	}
	switch {
	case r >= 0xD800 && r < 0xDC00:
		if lo, ok := hex4(i + 6); ok && lo >= 0xDC00 && lo < 0xE000 {
			return false, 12
		}
		return true, 6
	case r >= 0xDC00 && r < 0xE000:
		return true, 6
	}
	return false, 6
}

// Write writes the file: the cases with the Go package's answers, one case
// a line.
func Write(w io.Writer, cfg Config, contract string, cases []Case, answers []Answer) error {
	var b bytes.Buffer
	about := []string{
		fmt.Sprintf("Differential reader vectors written by go run ./cmd/readerdiff -seed %d -n %d in tests/go (make reader-diff). Do not edit; do not commit.", cfg.Seed, cfg.N),
		"Each case is an input for one reader (envelope, http, aip193, cli, mcp), as text (valid UTF-8) or base64, with the Go package's answer: ok, the DecodeError category of a rejection (other: an error of another type; host: the host's JSON parser refused the tool result), and value, the accepted envelope encoded again, normalised (members sorted, numbers as 64-bit floats) and compared as a JSON value (objects unordered, numbers as 64-bit floats, -0 as 0).",
		"mcp: the tool result is parsed by the host's own JSON parser before the reader sees it (Go: encoding/json into ToolResult, structuredContent kept raw; JSON.parse; json.loads; serde_json); structuredContent therefore never holds a member given twice, which the hosts read differently (text items do).",
		"grpc: Go alone has a gRPC status reader (grpcstatus.FromStatus, which builds the RPCStatus FromAIP193 builds and calls the same FromRPCStatus); the other languages have none, and their from-RpcStatus readers are compared through the aip193 cases. Every envelope Go accepts goes through grpcstatus.Status, the status's proto bytes and grpcstatus.FromStatus and must come back as it was (grpc_error says what went wrong).",
		"encode_error or write_error mark an accepted envelope Go could not encode again or send through WriteHTTP or AIP193, ill_formed one Go encoded as ill-formed UTF-8 (value then reads each such byte as U+FFFD): failures of the rules that a decoded envelope can always be sent on, as valid UTF-8.",
	}
	b.WriteString("{\n  \"about\": [\n")
	for i, s := range about {
		b.WriteString("    ")
		b.Write(quote(s))
		if i < len(about)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "  ],\n  \"contract\": %s,\n  \"seed\": %d,\n  \"seeded\": %d,\n  \"cases\": [\n", quote(contract), cfg.Seed, cfg.N)
	for i, c := range cases {
		a := answers[i]
		b.WriteString("    {\"name\": ")
		b.Write(quote(c.Name))
		b.WriteString(", \"reader\": ")
		b.Write(quote(c.Reader))
		if c.Reader == ReaderHTTP {
			fmt.Fprintf(&b, ", \"status\": %d, \"headers\": [", c.Status)
			for j, h := range c.Headers {
				if j > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "[%s, %s]", quote(h.Name), quote(h.Value))
			}
			b.WriteByte(']')
		}
		field, v := bytesField(c.Input)
		vb, err := json.Marshal(v)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, ", %q: %s, \"ok\": %t", field, vb, a.OK)
		if !a.OK {
			fmt.Fprintf(&b, ", \"category\": %s", quote(a.Category))
		}
		if a.Value != nil {
			// The value as a normalised JSON value: numbers as 64-bit floats in
			// Go's shortest form (which every language's JSON parser reads;
			// serde_json refuses some texts of the largest float), members
			// sorted.
			var v any
			if err := json.Unmarshal(a.Value, &v); err != nil {
				return fmt.Errorf("readerdiff: case %q: Go's encoding is not JSON: %w", c.Name, err)
			}
			var norm bytes.Buffer
			enc := json.NewEncoder(&norm)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(v); err != nil {
				return fmt.Errorf("readerdiff: case %q: %w", c.Name, err)
			}
			b.WriteString(", \"value\": ")
			b.Write(bytes.TrimRight(norm.Bytes(), "\n"))
		}
		if a.EncodeError != "" {
			b.WriteString(", \"encode_error\": ")
			b.Write(quote(a.EncodeError))
		}
		if a.WriteError != "" {
			b.WriteString(", \"write_error\": ")
			b.Write(quote(a.WriteError))
		}
		if a.IllFormed {
			b.WriteString(", \"ill_formed\": true")
		}
		if a.GRPCError != "" {
			b.WriteString(", \"grpc_error\": ")
			b.Write(quote(a.GRPCError))
		}
		b.WriteByte('}')
		if i < len(cases)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
		if b.Len() > 1<<20 {
			if _, err := w.Write(b.Bytes()); err != nil {
				return err
			}
			b.Reset()
		}
	}
	b.WriteString("  ]\n}\n")
	_, err := w.Write(b.Bytes())
	return err
}
