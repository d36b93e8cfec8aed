// Package protoaip holds errgen's AIP-193 answers as the real protobuf
// library reads and writes them (issue 29): protojson
// (google.golang.org/protobuf/encoding/protojson) into and out of a
// google.rpc.Status (google.golang.org/genproto/googleapis/rpc/status) whose
// details are google.rpc.ErrorInfo and RetryInfo (errdetails, imported so
// that protojson resolves the Any's type URLs).
//
// An AIP-193 answer over HTTP is not a bare Status: it is
// {"error": {...}} whose object is a Status (code holding the HTTP status)
// plus a "status" member, the canonical code's name, which Status does not
// have. Parse and Write handle that wrapper and nothing else; the rest is
// protojson's own.
//
// The tests (protoaip_test.go) check that protojson reads every answer the
// conformance vectors of every contract hold, with the ErrorInfo and
// RetryInfo the contract says, and that the Go packages read what protojson
// writes. Command protojsonaip193 writes those protojson-written answers to
// a file for the TypeScript, Python and Rust tests (make protojson-aip193).
package protoaip

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/genvectors"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/durationpb"
)

// ContractFiles lists every contract of the repository at repo: the
// reference contract, each example's and each of internal/gengo/testdata's.
func ContractFiles(repo string) ([]string, error) {
	files := []string{filepath.Join(repo, "contract", "kinds.yaml")}
	for _, glob := range []string{"examples/*/kinds.yaml", "internal/gengo/testdata/*/kinds.yaml"} {
		m, err := filepath.Glob(filepath.Join(repo, glob))
		if err != nil {
			return nil, err
		}
		sort.Strings(m)
		files = append(files, m...)
	}
	return files, nil
}

// Contract is one contract with the google.rpc mapping's sections of its
// conformance vectors, computed as errgen writes them.
type Contract struct {
	C *contract.Contract
	V *genvectors.File
}

// Load loads every contract of the repository at repo and computes the
// google.rpc mapping's sections of its vectors.
func Load(repo string) ([]Contract, error) {
	files, err := ContractFiles(repo)
	if err != nil {
		return nil, err
	}
	var out []Contract
	for _, f := range files {
		c, err := contract.LoadFile(f)
		if err != nil {
			return nil, err
		}
		v, err := genvectors.BuildAIP193(c)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		out = append(out, Contract{c, v})
	}
	return out, nil
}

// Parse reads an AIP-193 answer with protojson, strictly (a member Status
// does not have is an error): the Status and the "status" member's value
// ("" when there is none).
func Parse(text []byte) (*spb.Status, string, error) {
	outer, err := members(text)
	if err != nil {
		return nil, "", err
	}
	if len(outer) != 1 || outer[0].key != "error" {
		return nil, "", fmt.Errorf("not an AIP-193 answer: want one member, error")
	}
	inner, err := members(outer[0].value)
	if err != nil {
		return nil, "", fmt.Errorf("error: %w", err)
	}
	// The members but status, each as it was (a repeated one too, which
	// protojson refuses), for protojson.
	var name string
	rest := []byte{'{'}
	for _, m := range inner {
		if m.key == "status" {
			if err := json.Unmarshal(m.value, &name); err != nil {
				return nil, "", fmt.Errorf("status: %w", err)
			}
			continue
		}
		if len(rest) > 1 {
			rest = append(rest, ',')
		}
		k, _ := json.Marshal(m.key)
		rest = append(append(append(rest, k...), ':'), m.value...)
	}
	rest = append(rest, '}')
	var st spb.Status
	if err := protojson.Unmarshal(rest, &st); err != nil {
		return nil, "", err
	}
	return &st, name, nil
}

type member struct {
	key   string
	value json.RawMessage
}

// members are a JSON object's members in order, repeated names kept.
func members(text []byte) ([]member, error) {
	d := json.NewDecoder(bytes.NewReader(text))
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object")
	}
	var out []member
	for d.More() {
		tok, err := d.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, member{tok.(string), v})
	}
	if _, err := d.Token(); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, fmt.Errorf("text after the object")
	}
	return out, nil
}

// Write writes a Status with protojson as an AIP-193 answer: protojson's
// text of the Status, with the "status" member put first in it, inside
// {"error": ...}.
func Write(opts protojson.MarshalOptions, st *spb.Status, name string) ([]byte, error) {
	text, err := opts.Marshal(st)
	if err != nil {
		return nil, err
	}
	text = bytes.TrimSpace(text)
	if len(text) < 2 || text[0] != '{' {
		return nil, fmt.Errorf("protojson wrote %q", text)
	}
	q, _ := json.Marshal(name)
	var b bytes.Buffer
	b.WriteString(`{"error":{"status":`)
	b.Write(q)
	if body := bytes.TrimSpace(text[1 : len(text)-1]); len(body) > 0 {
		b.WriteByte(',')
		b.Write(text[1:])
	} else {
		b.WriteByte('}')
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Want is the Status an encode vector's answer must hold, and its status
// name, built from the contract and the vector's envelope without protojson:
// code, status name and reason are the kind's (the fallback's for a kind the
// contract does not define, with the reason computed from its name), the
// domain the contract's, the message and the retry hint the envelope's (at
// most the longest a Duration holds), and the metadata what the answer's
// text carries (compared value by value through encoding/json).
func Want(c *contract.Contract, v genvectors.AIPEncodeVec) (*spb.Status, string, error) {
	var env map[string]any
	d := json.NewDecoder(strings.NewReader(string(v.Envelope)))
	d.UseNumber()
	if err := d.Decode(&env); err != nil {
		return nil, "", err
	}
	kind, _ := At(env, c.Layout.Leaf(contract.SourceKind).Path).(string)
	message, _ := At(env, c.Layout.Leaf(contract.SourceMessage).Path).(string)
	http, name, reason := c.Fallback.Classification.HTTP, c.Fallback.Classification.GRPC.Name, contract.Reason(kind)
	if k := c.Kind(kind); k != nil {
		http, name, reason = k.HTTP, k.GRPC.Name, k.Reason
	}
	var text struct {
		Error struct {
			Details []struct {
				Type     string            `json:"@type"`
				Metadata map[string]string `json:"metadata"`
			} `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(v.AIP193), &text); err != nil {
		return nil, "", err
	}
	var meta map[string]string
	for _, d := range text.Error.Details {
		if d.Type == "type.googleapis.com/google.rpc.ErrorInfo" {
			meta = d.Metadata
		}
	}
	if meta[contract.MetaKind] != kind {
		return nil, "", fmt.Errorf("the answer's metadata names kind %q, the envelope %q", meta[contract.MetaKind], kind)
	}
	info, err := anypb.New(&errdetails.ErrorInfo{Reason: reason, Domain: c.AIP193.Domain, Metadata: meta})
	if err != nil {
		return nil, "", err
	}
	st := &spb.Status{Code: int32(http), Message: message, Details: []*anypb.Any{info}}
	if leaf := c.Layout.Leaf(contract.SourceRetryAfterMs); leaf != nil {
		if n, ok := At(env, leaf.Path).(json.Number); ok {
			ms, err := strconv.ParseInt(string(n), 10, 64)
			if err != nil {
				return nil, "", err
			}
			if ms >= 0 {
				ms = min(ms, contract.MaxRetryDelayMs)
				retry, err := anypb.New(&errdetails.RetryInfo{RetryDelay: &durationpb.Duration{Seconds: ms / 1000, Nanos: int32(ms%1000) * 1_000_000}})
				if err != nil {
					return nil, "", err
				}
				st.Details = append(st.Details, retry)
			}
		}
	}
	return st, name, nil
}

// At is the value at a dotted path of a decoded JSON object (nil when
// there is none).
func At(v any, path string) any {
	for _, p := range strings.Split(path, ".") {
		o, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = o[p]
	}
	return v
}

// Diff says how two statuses differ ("" when they do not): code, message,
// and each detail unpacked into its message (Any's bytes are not compared:
// a map's wire order is not fixed).
func Diff(got, want *spb.Status) string {
	if got.GetCode() != want.GetCode() || got.GetMessage() != want.GetMessage() {
		return fmt.Sprintf("code and message %d %q, want %d %q", got.GetCode(), got.GetMessage(), want.GetCode(), want.GetMessage())
	}
	if len(got.GetDetails()) != len(want.GetDetails()) {
		return fmt.Sprintf("%d details, want %d", len(got.GetDetails()), len(want.GetDetails()))
	}
	for i := range want.GetDetails() {
		g, err := got.Details[i].UnmarshalNew()
		if err != nil {
			return fmt.Sprintf("detail %d: %v", i, err)
		}
		w, err := want.Details[i].UnmarshalNew()
		if err != nil {
			return fmt.Sprintf("want detail %d: %v", i, err)
		}
		if !proto.Equal(g, w) {
			return fmt.Sprintf("detail %d: %v, want %v", i, g, w)
		}
	}
	return ""
}

// Answer is an encode vector's envelope as protojson writes its AIP-193
// answer: what every AIP-193 reader must read back into the envelope.
type Answer struct {
	Name     string          `json:"name"`
	AIP193   string          `json:"aip193"`
	Envelope json.RawMessage `json:"envelope"`
}

// Styles are the protojson options the answers are written with: compact,
// indented as an HTTP server pretty-prints them, and with the fields' proto
// names (retry_delay), which protobuf's JSON readers accept as well.
var Styles = []struct {
	Name string
	Opts protojson.MarshalOptions
}{
	{"protojson", protojson.MarshalOptions{}},
	{"protojson multiline", protojson.MarshalOptions{Multiline: true, Indent: "  "}},
	{"protojson proto names", protojson.MarshalOptions{UseProtoNames: true}},
}

// Answers are a contract's encode vectors as protojson writes them, each
// Status built by Want, in every style.
func Answers(c Contract) ([]Answer, error) {
	var out []Answer
	for _, v := range c.V.AIPEncode {
		st, name, err := Want(c.C, v)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", c.C.Name, v.Name, err)
		}
		for _, s := range Styles {
			if s.Opts.UseProtoNames && len(st.Details) < 2 {
				// Only RetryInfo's retry_delay has a proto name that is
				// not its JSON name: without it the text is the same.
				continue
			}
			text, err := Write(s.Opts, st, name)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", c.C.Name, v.Name, err)
			}
			out = append(out, Answer{v.Name + " (" + s.Name + ")", string(text), v.Envelope})
		}
	}
	return out, nil
}

// File is what command protojsonaip193 writes: each contract's answers by
// its name.
type File struct {
	Comment   string              `json:"$comment"`
	Contracts map[string][]Answer `json:"contracts"`
}

// Build is the File of the given contracts.
func Build(cs []Contract) (*File, error) {
	f := &File{
		Comment:   "Written by tests/go/cmd/protojsonaip193 (make protojson-aip193): every encode vector's envelope of every contract as an AIP-193 answer that protojson wrote from a google.rpc.Status with its ErrorInfo and RetryInfo; every AIP-193 reader must read each back into its envelope.",
		Contracts: map[string][]Answer{},
	}
	for _, c := range cs {
		a, err := Answers(c)
		if err != nil {
			return nil, err
		}
		if _, dup := f.Contracts[c.C.Name]; dup {
			return nil, fmt.Errorf("two contracts named %s", c.C.Name)
		}
		f.Contracts[c.C.Name] = a
	}
	return f, nil
}

// SameJSON reports whether a and b are the same JSON value, members in any
// order; false when either is not JSON.
func SameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	p, _ := json.Marshal(x)
	q, _ := json.Marshal(y)
	return bytes.Equal(p, q)
}
