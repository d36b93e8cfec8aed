//go:build ignore

// The Go checker of tests/e2e/imports.sh, copied into its consumer module
// (without the build line above) beside a main.go that registers the
// generated packages it requires by version:
//
//	func init() { readers["orders"] = newReader(orders.Envelope{}, orders.Lookup, orders.NextStep) }
//
// It reads the expectation files of imports/expect.py given as arguments
// and holds each reader's package to them: every envelope decoded, encoded
// back to the same text, with the expected kind, known, retryable,
// HTTP status and classification, and every next-step case decided the
// same. It prints a line per file and exits 1 on any difference.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"time"
)

type reader struct {
	env      reflect.Type  // Envelope
	lookup   reflect.Value // func(kind) Classification
	nextStep reflect.Value // func(*Envelope, int) Decision
}

var readers = map[string]reader{}

func newReader(env, lookup, nextStep any) reader {
	return reader{reflect.TypeOf(env), reflect.ValueOf(lookup), reflect.ValueOf(nextStep)}
}

type expectation struct {
	Reader    string `json:"reader"`
	Source    string `json:"source"`
	Envelopes []struct {
		Name       string         `json:"name"`
		Text       string         `json:"text"`
		Kind       string         `json:"kind"`
		Known      bool           `json:"known"`
		Retryable  bool           `json:"retryable"`
		HTTPStatus int            `json:"http_status"`
		Lookup     map[string]any `json:"lookup"`
	} `json:"envelopes"`
	NextStep []struct {
		Name     string     `json:"name"`
		Text     string     `json:"text"`
		Attempts []decision `json:"attempts"`
	} `json:"next_step"`
}

type decision struct {
	Attempt         int    `json:"attempt"`
	Step            string `json:"step"`
	DelayMinMs      int64  `json:"delay_min_ms"`
	DelayMaxMs      int64  `json:"delay_max_ms"`
	CheckStateFirst bool   `json:"check_state_first"`
	Exhausted       bool   `json:"exhausted"`
}

func (r reader) decode(text string) (reflect.Value, error) {
	e := reflect.New(r.env)
	return e, json.Unmarshal([]byte(text), e.Interface())
}

// encode is the envelope's own MarshalJSON: json.Marshal would escape <,
// > and & in it.
func encode(e reflect.Value) ([]byte, error) {
	out := e.MethodByName("MarshalJSON").Call(nil)
	err, _ := out[1].Interface().(error)
	return out[0].Bytes(), err
}

// classification is the reader's Lookup(kind) under the vectors' member names.
func (r reader) classification(kind string) map[string]any {
	c := r.lookup.Call([]reflect.Value{reflect.ValueOf(kind).Convert(r.lookup.Type().In(0))})[0]
	got := map[string]any{}
	for name, field := range map[string]string{
		"kind": "Kind", "known": "Known", "group": "Group", "origin": "Origin", "action": "Action",
		"same_arguments": "SameArguments", "guidance": "Guidance", "side_effects": "SideEffects",
		"http_status": "HTTPStatus", "log_level": "LogLevel", "breaker": "Breaker", "retryable": "Retryable",
		"startup": "Startup", "number": "Number", "grpc_code": "GRPCCode", "grpc_status": "GRPCStatus", "reason": "Reason",
	} {
		f := c.FieldByName(field)
		switch {
		case name == "log_level":
			got[name] = strings.ToLower(f.MethodByName("String").Call(nil)[0].String())
		case f.Kind() == reflect.Bool:
			got[name] = f.Bool()
		case f.CanInt():
			got[name] = float64(f.Int())
		default:
			got[name] = f.String()
		}
	}
	return got
}

func (r reader) check(x *expectation) (problems []string) {
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	for _, v := range x.Envelopes {
		e, err := r.decode(v.Text)
		if err != nil {
			bad("%s: %v", v.Name, err)
			continue
		}
		if back, err := encode(e); err != nil || string(back) != v.Text {
			bad("%s: decoded and encoded again (%v):\n got %s\nwant %s", v.Name, err, back, v.Text)
		}
		kind := e.Elem().FieldByName("Kind").String()
		c := r.classification(kind)
		answers := "kind %s, known %v, retryable %v, HTTP status %d"
		got := fmt.Sprintf(answers, kind, c["known"], e.MethodByName("IsRetryable").Call(nil)[0].Bool(), e.MethodByName("HTTPStatus").Call(nil)[0].Int())
		if want := fmt.Sprintf(answers, v.Kind, v.Known, v.Retryable, v.HTTPStatus); got != want {
			bad("%s: %s, want %s", v.Name, got, want)
		}
		for name, want := range v.Lookup {
			if !reflect.DeepEqual(c[name], want) {
				bad("%s: Lookup(%q).%s = %v, want %v", v.Name, kind, name, c[name], want)
			}
		}
	}
	for _, v := range x.NextStep {
		e, err := r.decode(v.Text)
		if err != nil {
			bad("next step %s: %v", v.Name, err)
			continue
		}
		for _, want := range v.Attempts {
			d := r.nextStep.Call([]reflect.Value{e, reflect.ValueOf(want.Attempt)})[0]
			got := decision{Attempt: want.Attempt, Step: d.FieldByName("Step").String(),
				DelayMinMs:      int64(time.Duration(d.FieldByName("DelayMin").Int()) / time.Millisecond),
				DelayMaxMs:      int64(time.Duration(d.FieldByName("DelayMax").Int()) / time.Millisecond),
				CheckStateFirst: d.FieldByName("CheckStateFirst").Bool(), Exhausted: d.FieldByName("Exhausted").Bool()}
			if got != want {
				bad("next step %s: %+v, want %+v", v.Name, got, want)
			}
		}
	}
	return problems
}

func main() {
	failed := false
	for _, path := range os.Args[1:] {
		data, err := os.ReadFile(path)
		var x expectation
		if err == nil {
			err = json.Unmarshal(data, &x)
		}
		r, ok := readers[x.Reader]
		if err != nil || !ok {
			fmt.Fprintf(os.Stderr, "%s: %v (reader %q registered: %v)\n", path, err, x.Reader, ok)
			os.Exit(1)
		}
		problems := r.check(&x)
		for _, p := range problems {
			fmt.Fprintf(os.Stderr, "go: %s reading %s: %s\n", x.Reader, x.Source, p)
		}
		failed = failed || len(problems) > 0
		fmt.Printf("go: %s reads %s's %d envelopes and %d next-step cases: %d differences\n", x.Reader, x.Source, len(x.Envelopes), len(x.NextStep), len(problems))
	}
	if failed {
		os.Exit(1)
	}
}
