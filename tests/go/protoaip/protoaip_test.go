package protoaip_test

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/errgen/errgen/examples/agento/gen/go/agento"
	"github.com/errgen/errgen/examples/ovstorage/gen/go/ovstorage"
	"github.com/errgen/errgen/gen/go/agenterror"
	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/tests/go/protoaip"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/protobuf/encoding/protojson"
)

var loaded = sync.OnceValues(func() ([]protoaip.Contract, error) { return protoaip.Load("../../..") })

func load(t *testing.T) []protoaip.Contract {
	t.Helper()
	cs, err := loaded()
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) < 6 {
		t.Fatalf("%d contracts", len(cs))
	}
	return cs
}

// committed are the committed vector files by contract.
var committed = map[string]string{
	agenterror.ContractName: "../../../conformance/agent-error.vectors.json",
	agento.ContractName:     "../../../examples/agento/conformance/agento.vectors.json",
	ovstorage.ContractName:  "../../../examples/ovstorage/conformance/ovstorage.vectors.json",
}

// TestProtojsonReadsTheWrites: the other AIP-193 answers the vectors hold,
// the writes section's (text that is not well-formed, written as U+FFFD),
// protojson reads too, with the kind's reason and code and the contract's
// domain.
func TestProtojsonReadsTheWrites(t *testing.T) {
	n := 0
	for _, c := range load(t) {
		path, ok := committed[c.C.Name]
		if !ok {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			Writes []struct {
				Name     string          `json:"name"`
				Envelope json.RawMessage `json:"envelope"`
				AIP193   *string         `json:"aip193"`
			} `json:"writes"`
		}
		if err := json.Unmarshal(data, &f); err != nil {
			t.Fatal(err)
		}
		for _, w := range f.Writes {
			if w.AIP193 == nil {
				continue
			}
			n++
			st, name, err := protoaip.Parse([]byte(*w.AIP193))
			if err != nil {
				t.Errorf("%s: %s: protojson: %v", c.C.Name, w.Name, err)
				continue
			}
			var env map[string]any
			if err := json.Unmarshal(w.Envelope, &env); err != nil {
				t.Fatal(err)
			}
			kind, _ := protoaip.At(env, c.C.Layout.Leaf(contract.SourceKind).Path).(string)
			k := c.C.Kind(kind)
			var info errdetails.ErrorInfo
			if k == nil || len(st.Details) == 0 || st.Details[0].UnmarshalTo(&info) != nil {
				t.Errorf("%s: %s: kind %q, details %v", c.C.Name, w.Name, kind, st.Details)
				continue
			}
			if int(st.Code) != k.HTTP || name != k.GRPC.Name || info.Reason != k.Reason || info.Domain != c.C.AIP193.Domain || info.Metadata[contract.MetaKind] != kind {
				t.Errorf("%s: %s: protojson reads code %d status %s %v", c.C.Name, w.Name, st.Code, name, &info)
			}
		}
	}
	if n == 0 {
		t.Error("no AIP-193 answer in any writes section")
	}
}

// TestTheVectorsAreTheCommittedOnes: the aip193 sections Load computes are
// those of the committed vector files (which errgen check holds to the
// contracts), for each contract that has one.
func TestTheVectorsAreTheCommittedOnes(t *testing.T) {
	type sections struct {
		Domain string            `json:"aip193_domain"`
		Encode []json.RawMessage `json:"aip193_encode"`
		Decode []json.RawMessage `json:"aip193_decode"`
	}
	done := 0
	for _, c := range load(t) {
		path, ok := committed[c.C.Name]
		if !ok {
			continue
		}
		done++
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var have sections
		if err := json.Unmarshal(data, &have); err != nil {
			t.Fatal(err)
		}
		mine, _ := json.Marshal(c.V)
		var computed sections
		if err := json.Unmarshal(mine, &computed); err != nil {
			t.Fatal(err)
		}
		a, _ := json.Marshal(have)
		b, _ := json.Marshal(computed)
		if !protoaip.SameJSON(a, b) || len(computed.Encode) == 0 {
			t.Errorf("%s: the aip193 sections computed differ from %s", c.C.Name, path)
		}
	}
	if done != len(committed) {
		t.Errorf("%d of %d contracts with committed vectors found", done, len(committed))
	}
}

// TestProtojsonReadsEveryAnswer: protojson reads every AIP-193 answer of
// every contract's aip193_encode vectors into a google.rpc.Status holding
// the kind's HTTP status and message, an ErrorInfo with the kind's reason,
// the contract's domain and the metadata the answer carries, and a
// RetryInfo with the envelope's retry hint; the status member names the
// kind's canonical code. Every kind of every contract is among them.
func TestProtojsonReadsEveryAnswer(t *testing.T) {
	for _, c := range load(t) {
		seen := map[string]bool{}
		for _, v := range c.V.AIPEncode {
			got, name, err := protoaip.Parse([]byte(v.AIP193))
			if err != nil {
				t.Errorf("%s: %s: protojson: %v\n%s", c.C.Name, v.Name, err, v.AIP193)
				continue
			}
			want, wantName, err := protoaip.Want(c.C, v)
			if err != nil {
				t.Fatalf("%s: %s: %v", c.C.Name, v.Name, err)
			}
			if d := protoaip.Diff(got, want); d != "" || name != wantName {
				t.Errorf("%s: %s: protojson reads %s, status %q (want %q)\n%s", c.C.Name, v.Name, d, name, wantName, v.AIP193)
			}
			var info errdetails.ErrorInfo
			if err := got.Details[0].UnmarshalTo(&info); err != nil {
				t.Errorf("%s: %s: the first detail: %v", c.C.Name, v.Name, err)
			}
			seen[info.Metadata[contract.MetaKind]] = true
		}
		for _, k := range c.C.Kinds {
			if !seen[k.Name] {
				t.Errorf("%s: no answer of kind %s", c.C.Name, k.Name)
			}
		}
	}
}

// TestProtojsonAgreesOnForeignAnswers: of the aip193_decode vectors (AIP-193
// answers no errgen package wrote), each that protojson reads and errgen's
// readers read too gives the same retry hint (RetryInfo's delay in whole
// milliseconds, rounded up, at most the contract's longest; none for a
// negative delay) and, for an ErrorInfo of a kind's reason in the
// contract's domain, that kind; what errgen's readers refuse protojson does
// not read either.
func TestProtojsonAgreesOnForeignAnswers(t *testing.T) {
	for _, c := range load(t) {
		kindLeaf := c.C.Layout.Leaf(contract.SourceKind).Path
		hint := c.C.Layout.Leaf(contract.SourceRetryAfterMs)
		read := 0
		for _, v := range c.V.AIPDecode {
			st, _, err := protoaip.Parse([]byte(v.AIP193))
			if bytes.Equal(v.Envelope, []byte("null")) || len(v.Envelope) == 0 {
				if err == nil {
					t.Errorf("%s: %s: protojson reads what errgen's readers refuse: %v", c.C.Name, v.Name, st)
				}
				continue
			}
			if err != nil {
				continue
			}
			read++
			var env map[string]any
			d := json.NewDecoder(bytes.NewReader(v.Envelope))
			d.UseNumber()
			if err := d.Decode(&env); err != nil {
				t.Fatal(err)
			}
			var info *errdetails.ErrorInfo
			var retry *errdetails.RetryInfo
			for _, a := range st.Details {
				m, err := a.UnmarshalNew()
				if err != nil {
					continue
				}
				switch m := m.(type) {
				case *errdetails.ErrorInfo:
					if info == nil {
						info = m
					}
				case *errdetails.RetryInfo:
					if retry == nil {
						retry = m
					}
				}
			}
			if info != nil && info.Domain == c.C.AIP193.Domain {
				for _, k := range c.C.Kinds {
					if k.Reason == info.Reason && protoaip.At(env, kindLeaf) != k.Name {
						t.Errorf("%s: %s: ErrorInfo's reason %s is kind %s, the reader's kind %v", c.C.Name, v.Name, info.Reason, k.Name, protoaip.At(env, kindLeaf))
					}
				}
			}
			if hint == nil {
				continue
			}
			want := "<nil>"
			if rd := retry.GetRetryDelay(); rd != nil && rd.CheckValid() == nil && rd.AsDuration() >= 0 {
				ms := int64(math.Ceil(float64(rd.GetSeconds())*1000 + float64(rd.GetNanos())/1e6))
				want = strconv.FormatInt(min(ms, c.C.Retry.MaxHintMs), 10)
			}
			got := "<nil>"
			if n, ok := protoaip.At(env, hint.Path).(json.Number); ok {
				got = string(n)
			}
			if got != want {
				t.Errorf("%s: %s: the reader's retry hint %s, protojson's RetryInfo %v (%s ms)", c.C.Name, v.Name, got, retry, want)
			}
		}
		if read < 10 {
			t.Errorf("%s: protojson read only %d foreign answers", c.C.Name, read)
		}
	}
}

// readers are the Go packages' AIP-193 readers by contract: the reference
// package and the examples' (internal/gengo/testdata's have none that
// compiles here).
var readers = map[string]func([]byte) (any, error){
	agenterror.ContractName: func(b []byte) (any, error) { return agenterror.FromAIP193(b) },
	agento.ContractName:     func(b []byte) (any, error) { return agento.FromAIP193(b) },
	ovstorage.ContractName:  func(b []byte) (any, error) { return ovstorage.FromAIP193(b) },
}

// TestGoReadersReadProtojsonAnswers: every Go package's AIP-193 reader
// reads each answer protojson wrote (compact, indented, with proto names) back into its
// envelope.
func TestGoReadersReadProtojsonAnswers(t *testing.T) {
	done := 0
	for _, c := range load(t) {
		read, ok := readers[c.C.Name]
		if !ok {
			continue
		}
		done++
		answers, err := protoaip.Answers(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range answers {
			e, err := read([]byte(a.AIP193))
			if err != nil {
				t.Errorf("%s: %s: %v\n%s", c.C.Name, a.Name, err, a.AIP193)
				continue
			}
			got, err := json.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			if !protoaip.SameJSON(got, a.Envelope) {
				t.Errorf("%s: %s:\ngot  %s\nwant %s\nfrom %s", c.C.Name, a.Name, got, a.Envelope, a.AIP193)
			}
		}
	}
	if done != len(readers) {
		t.Errorf("%d of %d Go packages' contracts found", done, len(readers))
	}
}

// TestWriteWrapsProtojson: Write's answer is protojson's text of the
// Status inside {"error": ...} with the status member, and Parse reads it
// back.
func TestWriteWrapsProtojson(t *testing.T) {
	c := load(t)[0]
	st, name, err := protoaip.Want(c.C, c.V.AIPEncode[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range protoaip.Styles {
		text, err := protoaip.Write(s.Opts, st, name)
		if err != nil {
			t.Fatal(err)
		}
		if !json.Valid(text) {
			t.Fatalf("%s: not JSON: %s", s.Name, text)
		}
		back, gotName, err := protoaip.Parse(text)
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		if d := protoaip.Diff(back, st); d != "" || gotName != name {
			t.Errorf("%s: %s, status %q", s.Name, d, gotName)
		}
		pj, _ := protojson.Marshal(st)
		if !bytes.Contains(text, bytes.TrimSpace(pj)[1:]) && s.Name == "protojson" {
			t.Errorf("%s: protojson's text is not in %s", s.Name, text)
		}
	}
}
