// Package imports checks, on the wire, what issue 32 promises a service
// contract that imports a base: the base's Go package (agent-error) reads
// every envelope of the service (examples/billing, which imports it) of a
// base kind exactly and classifies it as the service does, reads the
// service's own kinds through its fallback, and the service's package reads
// every base envelope exactly. The envelopes are the generated conformance
// vectors of both contracts, so every kind is covered, not a chosen few.
package imports

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	agenterror "github.com/errgen/errgen/gen/go/agenterror"

	"github.com/errgen/errgen/examples/billing/gen/go/billing"
)

type vectors struct {
	Envelopes []struct {
		Name     string          `json:"name"`
		Envelope json.RawMessage `json:"envelope"`
	} `json:"envelopes"`
	Lookup []struct {
		Kind string `json:"kind"`
	} `json:"lookup"`
}

func read(t *testing.T, path string) vectors {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v vectors
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Envelopes) == 0 || len(v.Lookup) == 0 {
		t.Fatalf("%s has no envelopes or kinds", path)
	}
	return v
}

const (
	serviceVectors = "../../../examples/billing/conformance/billing.vectors.json"
	baseVectors    = "../../../conformance/agent-error.vectors.json"
)

// compact is the JSON text without insignificant space, member order kept:
// "exactly" means the same members in the same order with the same values.
func compact(t *testing.T, b []byte) string {
	t.Helper()
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestBaseReadsServiceEnvelopes(t *testing.T) {
	v := read(t, serviceVectors)
	own := 0
	for _, vec := range v.Envelopes {
		var base agenterror.Envelope
		var svc billing.Envelope
		if err := json.Unmarshal(vec.Envelope, &base); err != nil {
			t.Errorf("%s: agent-error rejects billing's envelope: %v", vec.Name, err)
			continue
		}
		if err := json.Unmarshal(vec.Envelope, &svc); err != nil {
			t.Fatalf("%s: billing rejects its own envelope: %v", vec.Name, err)
		}
		got, err := json.Marshal(&base)
		if err != nil {
			t.Fatalf("%s: %v", vec.Name, err)
		}
		if compact(t, got) != compact(t, vec.Envelope) {
			t.Errorf("%s: agent-error does not read billing's envelope exactly:\n got %s\nwant %s", vec.Name, got, vec.Envelope)
		}
		for attempt := 1; attempt <= 3; attempt++ {
			b, s := agenterror.NextStep(&base, attempt), billing.NextStep(&svc, attempt)
			if string(b.Step) != string(s.Step) || b.DelayMin != s.DelayMin || b.DelayMax != s.DelayMax ||
				b.CheckStateFirst != s.CheckStateFirst || b.Exhausted != s.Exhausted {
				t.Errorf("%s, attempt %d: agent-error decides %+v, billing %+v", vec.Name, attempt, b, s)
			}
		}
		if !agenterror.Lookup(agenterror.Kind(svc.Kind)).Known {
			own++
		}
	}
	if own == 0 {
		t.Error("no envelope of billing's own kinds: the fallback path went untested")
	}
}

// Every kind billing knows: a base kind is classified alike by both
// packages, field by field; billing's own kinds get agent-error's fallback.
func TestBaseClassifiesServiceKinds(t *testing.T) {
	v := read(t, serviceVectors)
	base, own := 0, 0
	for _, row := range v.Lookup {
		b := agenterror.Lookup(agenterror.Kind(row.Kind))
		s := billing.Lookup(billing.Kind(row.Kind))
		if !s.Known {
			// The vectors' kind from a newer contract: unknown to both.
			if b.Known {
				t.Errorf("%s: agent-error knows a kind billing, which imports it, does not", row.Kind)
			}
			continue
		}
		if !b.Known {
			own++
			f := agenterror.Fallback()
			if b.Action != f.Action || b.SameArguments != f.SameArguments || b.HTTPStatus != f.HTTPStatus || b.Origin != f.Origin {
				t.Errorf("%s: agent-error's reading %+v is not its fallback %+v", row.Kind, b, f)
			}
			continue
		}
		base++
		bj, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		sj, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if string(bj) != string(sj) {
			t.Errorf("%s: the packages classify a base kind differently:\nagent-error %s\nbilling     %s", row.Kind, bj, sj)
		}
	}
	if base != len(agenterror.Kinds()) || own != 3 {
		t.Errorf("billing lists %d of agent-error's %d kinds and %d of its own; want all and 3", base, len(agenterror.Kinds()), own)
	}
}

// The other way: the service's package reads every base envelope exactly.
func TestServiceReadsBaseEnvelopes(t *testing.T) {
	v := read(t, baseVectors)
	for _, vec := range v.Envelopes {
		var svc billing.Envelope
		if err := json.Unmarshal(vec.Envelope, &svc); err != nil {
			t.Errorf("%s: billing rejects agent-error's envelope: %v", vec.Name, err)
			continue
		}
		got, err := json.Marshal(&svc)
		if err != nil {
			t.Fatalf("%s: %v", vec.Name, err)
		}
		if compact(t, got) != compact(t, vec.Envelope) {
			t.Errorf("%s: billing does not read agent-error's envelope exactly:\n got %s\nwant %s", vec.Name, got, vec.Envelope)
		}
		if !billing.Lookup(billing.Kind(svc.Kind)).Known && agenterror.Lookup(agenterror.Kind(svc.Kind)).Known {
			t.Errorf("%s: billing does not know base kind %s", vec.Name, svc.Kind)
		}
	}
}

// The google.rpc mapping too: agent-error reads billing's google.rpc.Status
// (AIP-193 JSON) of a base kind back as the very envelope, which needs
// billing's ErrorInfo domain to be agent-error's (a reader takes an
// ErrorInfo of another domain as a foreign error).
func TestBaseReadsServiceAIP193(t *testing.T) {
	v := read(t, serviceVectors)
	n := 0
	for _, vec := range v.Envelopes {
		var svc billing.Envelope
		if err := json.Unmarshal(vec.Envelope, &svc); err != nil {
			t.Fatalf("%s: billing rejects its own envelope: %v", vec.Name, err)
		}
		if !agenterror.Lookup(agenterror.Kind(svc.Kind)).Known {
			continue
		}
		status, err := svc.AIP193()
		if err != nil {
			t.Fatalf("%s: %v", vec.Name, err)
		}
		base, err := agenterror.FromAIP193(status)
		if err != nil {
			t.Errorf("%s: agent-error cannot read billing's AIP-193 status: %v", vec.Name, err)
			continue
		}
		got, err := json.Marshal(base)
		if err != nil {
			t.Fatalf("%s: %v", vec.Name, err)
		}
		if compact(t, got) != compact(t, vec.Envelope) {
			t.Errorf("%s: agent-error does not read billing's AIP-193 status back exactly:\n got %s\nwant %s", vec.Name, got, vec.Envelope)
		}
		n++
	}
	if n == 0 {
		t.Error("no envelope of a base kind")
	}
}
