package agenterror_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/errgen/errgen/gen/go/agenterror"
)

// The generated decoder reads a document in one pass with its own scanner.
// These fuzz targets hold it to encoding/json: the same documents rejected
// as not JSON, and for every other document the same envelope, or the same
// error, as a decoder built the obvious way on encoding/json (refDecode),
// which follows the policy every decoder of the contract shares (the limits
// of refLimits, integers read by value as refInt reads them).

// refDecode decodes an envelope of this contract's layout the way the
// generated decoder did before it had a scanner of its own: encoding/json
// parses the document into a map of raw members, then every field of the
// layout, in layout order, is taken out of the map and decoded by
// encoding/json into its Go type; what is left goes to Extra. A document
// that is JSON but past a shared limit is rejected first.
func refDecode(data []byte) (agenterror.Envelope, error) {
	var out agenterror.Envelope
	if json.Valid(data) {
		if err := refLimits(data); err != nil {
			return out, err
		}
	}
	root, err := refObject(data, "")
	if err != nil {
		return out, err
	}
	str := func(o refObj, path, key string, required bool, dst *string) error {
		_, err := o.take(path, key, required, "a string", dst)
		return err
	}
	version, err := root.takeInt("", "contract_version", true, "an integer", -agenterror.MaxSafeInteger)
	if err != nil {
		return out, err
	}
	out.ContractVersion = int(*version)
	if err := str(root, "", "kind", true, (*string)(&out.Kind)); err != nil {
		return out, err
	}
	if out.Kind == "" {
		return out, &agenterror.DecodeError{Path: "kind", Problem: "must not be empty", Category: agenterror.DecodeValue}
	}
	if err := str(root, "", "message", true, &out.Message); err != nil {
		return out, err
	}
	if err := str(root, "", "origin", true, (*string)(&out.Origin)); err != nil {
		return out, err
	}
	var recRaw json.RawMessage
	present, err := root.take("", "recovery", true, "an object", &recRaw)
	if err != nil {
		return out, err
	}
	extra := map[string]any{}
	if present {
		rec, err := refObject(recRaw, "recovery")
		if err != nil {
			return out, err
		}
		if err := str(rec, "recovery", "action", true, (*string)(&out.Recovery.Action)); err != nil {
			return out, err
		}
		if err := str(rec, "recovery", "same_arguments", true, (*string)(&out.Recovery.SameArguments)); err != nil {
			return out, err
		}
		if err := str(rec, "recovery", "guidance", true, &out.Recovery.Guidance); err != nil {
			return out, err
		}
		// The first spelling present wins; every spelling is the contract's.
		for _, spelling := range []string{"retry_after_ms", "retryAfterMs"} {
			if out.Recovery.RetryAfterMs == nil {
				if out.Recovery.RetryAfterMs, err = rec.takeInt("recovery", spelling, false, "a non-negative integer", 0); err != nil {
					return out, err
				}
			}
			delete(rec, spelling)
		}
		for k, v := range rec {
			extra["recovery."+k] = v
		}
	}
	if err := str(root, "", "side_effects", true, (*string)(&out.SideEffects)); err != nil {
		return out, err
	}
	for _, f := range []struct {
		key string
		dst *string
	}{{"service", &out.Service}, {"action", &out.Action}, {"tool", &out.Tool}, {"upstream", &out.Upstream},
		{"command", &out.Command}, {"prompt", &out.Prompt}, {"resource", &out.Resource}, {"cause", &out.Cause},
		{"original_kind", &out.OriginalKind}} {
		if err := str(root, "", f.key, false, f.dst); err != nil {
			return out, err
		}
	}
	if _, err := root.take("", "safety", false, "an object", &out.Safety); err != nil {
		return out, err
	}
	if _, err := root.take("", "evidence", false, "an object", &out.Evidence); err != nil {
		return out, err
	}
	if _, err := root.take("", "valid_choices", false, "an array of strings", &out.ValidChoices); err != nil {
		return out, err
	}
	if err := str(root, "", "hint", false, &out.Hint); err != nil {
		return out, err
	}
	if _, err := root.take("", "required_scopes", false, "an array of strings", &out.RequiredScopes); err != nil {
		return out, err
	}
	// The root's members last: a root member "recovery.x" wins over the
	// member "x" of recovery, as both are the Extra key "recovery.x". Such
	// a member is written in recovery, a level deeper than it was read, and
	// the limit counts it there.
	for k, v := range root {
		if strings.HasPrefix(k, "recovery.") && 2+refNesting(v) > agenterror.MaxDepth {
			return out, &agenterror.DecodeError{Problem: refPlacedTooDeep, Category: agenterror.DecodeSyntax}
		}
		extra[k] = v
	}
	if len(extra) > 0 {
		out.Extra = extra
	}
	return out, nil
}

// refPlacedTooDeep is the problem of a member whose name places it in a
// nested object, where it would nest past MaxDepth.
const refPlacedTooDeep = "nests arrays and objects more than 128 levels deep where a member whose name places it in a nested object is written"

// refNesting is how many levels of arrays and objects a JSON value nests
// (0 for a scalar, 1 for [] or {}).
func refNesting(v json.RawMessage) int {
	dec := json.NewDecoder(bytes.NewReader(v))
	depth, deepest := 0, 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return deepest
		}
		if d, ok := tok.(json.Delim); ok {
			if d == '[' || d == '{' {
				depth++
				deepest = max(deepest, depth)
			} else {
				depth--
			}
		}
	}
}

type refObj map[string]json.RawMessage

func refObject(data []byte, path string) (refObj, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			return nil, &agenterror.DecodeError{Path: path, Problem: "is not valid JSON: " + syntax.Error() + " at offset " + strconv.FormatInt(syntax.Offset, 10), Category: agenterror.DecodeSyntax}
		}
		return nil, &agenterror.DecodeError{Path: path, Problem: "must be a JSON object", Category: agenterror.DecodeType}
	}
	if obj == nil {
		return nil, &agenterror.DecodeError{Path: path, Problem: "must be a JSON object, not null", Category: agenterror.DecodeType}
	}
	return obj, nil
}

// take removes key from o and decodes its value into dst with
// encoding/json, reporting whether it was there; null counts as absent.
func (o refObj) take(path, key string, required bool, want string, dst any) (bool, error) {
	if path != "" {
		path += "."
	}
	raw, ok := o[key]
	delete(o, key)
	if !ok || string(raw) == "null" {
		if !required {
			return false, nil
		}
		category := agenterror.DecodeMissing
		if ok {
			category = agenterror.DecodeType
		}
		return false, &agenterror.DecodeError{Path: path + key, Problem: "is required", Category: category}
	}
	var err error
	if m, isMap := dst.(*map[string]any); isMap {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		err = dec.Decode(m)
	} else {
		err = json.Unmarshal(raw, dst)
	}
	if err != nil {
		return false, &agenterror.DecodeError{Path: path + key, Problem: "must be " + want, Category: agenterror.DecodeType}
	}
	return true, nil
}

// takeInt is take for an integer member: a number whose value, as a 64-bit
// float, is whole (else a type error) and from least to MaxSafeInteger
// (else a value error). nil when it is absent.
func (o refObj) takeInt(path, key string, required bool, want string, least int64) (*int64, error) {
	var raw json.RawMessage
	if present, err := o.take(path, key, required, want, &raw); err != nil || !present {
		return nil, err
	}
	if path != "" {
		path += "."
	}
	// A number, not a string holding one (which a json.Number would take).
	var n any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	_ = dec.Decode(&n)
	num, ok := n.(json.Number)
	if !ok {
		return nil, &agenterror.DecodeError{Path: path + key, Problem: "must be " + want, Category: agenterror.DecodeType}
	}
	f, _ := strconv.ParseFloat(string(num), 64)
	if f != math.Trunc(f) {
		return nil, &agenterror.DecodeError{Path: path + key, Problem: "must be " + want, Category: agenterror.DecodeType}
	}
	if f > agenterror.MaxSafeInteger || f < float64(least) {
		return nil, &agenterror.DecodeError{Path: path + key, Problem: fmt.Sprintf("must be an integer from %d to %d", least, agenterror.MaxSafeInteger), Category: agenterror.DecodeValue}
	}
	v := int64(f)
	return &v, nil
}

// refLimits returns the error for a JSON document past a limit every
// decoder of the contract shares: arrays and objects nested deeper than
// MaxDepth, a number past the range of a 64-bit float. The first in
// document order, found by reading the document token by token.
func refLimits(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	depth := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			panic(err) // data is valid JSON
		}
		end := dec.InputOffset()
		switch t := tok.(type) {
		case json.Delim:
			if t == '{' || t == '[' {
				if depth++; depth > agenterror.MaxDepth {
					return &agenterror.DecodeError{Problem: fmt.Sprintf("nests arrays and objects more than %d levels deep at offset %d", agenterror.MaxDepth, end-1), Category: agenterror.DecodeSyntax}
				}
			} else {
				depth--
			}
		case json.Number:
			if f, _ := strconv.ParseFloat(string(t), 64); math.IsInf(f, 0) {
				return &agenterror.DecodeError{Problem: fmt.Sprintf("holds a number past the range of a 64-bit float at offset %d", end-int64(len(t))), Category: agenterror.DecodeSyntax}
			}
		}
	}
}

// seedEnvelopes are valid documents of several kinds and shapes.
func seedEnvelopes() [][]byte {
	var out [][]byte
	add := func(e *agenterror.Envelope) {
		b, err := e.MarshalJSON()
		if err != nil {
			panic(err)
		}
		out = append(out, b)
	}
	add(agenterror.NewRateLimited("upstream github is rate limited").WithRetryAfter(1500 * time.Millisecond).
		WithTool("search_issues").WithUpstream("github").WithService("gateway"))
	add(agenterror.NewUnknownAction("no action \"déploy\"\n\ttab", []string{"deploy", "destroy"}).WithHint("deploy"))
	add(agenterror.New("not_a_kind_we_know", "<b>&amp;</b> \u2028 \U0001F600"))
	add(agenterror.NewInternalError("boom").WithExtra("trace_id", "t-1").WithExtra("recovery.attempt", 2).
		WithExtra("nested", map[string]any{"a": []any{1, 2.5, "x", nil, true}}))
	for _, k := range agenterror.Kinds()[:5] {
		add(agenterror.New(k, "m"))
	}
	return out
}

// addSeeds adds valid envelopes made by this package's constructors; the
// committed corpus in testdata/fuzz adds the documents that take the
// scanner off its fast path: duplicate members and objects, the retry
// hint's spellings, escapes, surrogates and invalid UTF-8 in names and
// values, big and odd numbers, type errors, nesting at and past
// encoding/json's depth limit, and malformed JSON.
func addSeeds(f *testing.F) {
	for _, b := range seedEnvelopes() {
		f.Add(b)
	}
}

// FuzzDecodeAgreesWithEncodingJSON: the generated decoder rejects as not
// JSON exactly what encoding/json rejects, and decodes every other document
// to the same envelope, or fails with the same error (path, problem and
// category), as refDecode: UnmarshalJSONRaw as it is, UnmarshalJSON with the
// contract's sanitized fields (message, cause) sanitized.
func FuzzDecodeAgreesWithEncodingJSON(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		var got, clean agenterror.Envelope
		err := got.UnmarshalJSONRaw(data)
		if cleanErr := clean.UnmarshalJSON(data); (cleanErr == nil) != (err == nil) || err != nil && cleanErr.Error() != err.Error() {
			t.Fatalf("UnmarshalJSON: %v, UnmarshalJSONRaw: %v, for %q", cleanErr, err, data)
		}
		var de *agenterror.DecodeError
		if err != nil && !errors.As(err, &de) {
			t.Fatalf("error %v is not a *DecodeError", err)
		}
		want, wantErr := refDecode(data)
		valid := json.Valid(data)
		// Past a limit as read, or where a member whose name places it in
		// a nested object is written (checked after the layout's fields).
		var refErr *agenterror.DecodeError
		placed := errors.As(wantErr, &refErr) && refErr.Problem == refPlacedTooDeep
		past := valid && (refLimits(data) != nil || placed)
		if syntax := de != nil && de.Category == agenterror.DecodeSyntax; syntax != (!valid || past) {
			t.Fatalf("decoder says syntax error %v, encoding/json says valid %v, past a limit %v, for %q", syntax, valid, past, data)
		}
		if (err == nil) != (wantErr == nil) {
			t.Fatalf("error %v, want %v, for %q", err, wantErr, data)
		}
		if err != nil {
			if *de != *wantErr.(*agenterror.DecodeError) {
				t.Fatalf("error %#v\nwant %#v\nfor %q", *de, wantErr, data)
			}
			return
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("decoded %#v\nwant    %#v\nfor %q", got, want, data)
		}
		want.Message, want.Cause = agenterror.Sanitize(want.Message), agenterror.Sanitize(want.Cause)
		if !reflect.DeepEqual(clean, want) {
			t.Fatalf("UnmarshalJSON decoded %#v\nwant    %#v\nfor %q", clean, want, data)
		}
	})
}

// FuzzDecode: no input makes decoding or encoding panic, and whatever
// decodes encodes again and decodes to the same envelope. The exception is
// by design: an Extra entry whose key lands on a member the contract owns
// (a root member named "recovery.action") is never encoded. (One whose key
// places it in a nested object, a root member "recovery.x", is held to the
// limits where it is written, so it always encodes.)
func FuzzDecode(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		var first agenterror.Envelope
		if first.UnmarshalJSON(data) != nil {
			return
		}
		enc, err := first.MarshalJSON()
		if err != nil {
			t.Fatalf("decoded %q, cannot encode it: %v", data, err)
		}
		if app, _ := first.AppendJSON([]byte("prefix")); string(app) != "prefix"+string(enc) {
			t.Fatalf("AppendJSON %q, MarshalJSON %q", app, enc)
		}
		var second agenterror.Envelope
		if err := second.UnmarshalJSON(enc); err != nil {
			t.Fatalf("decoded %q, encoded %q, which does not decode: %v", data, enc, err)
		}
		for k := range first.Extra {
			if shadowed(k) {
				delete(first.Extra, k)
			}
		}
		if !sameEnvelope(first, second) {
			t.Fatalf("decoded %q\nto  %#v\nencoded %q\nto  %#v", data, first, enc, second)
		}
	})
}

// shadowed reports whether an Extra key lands on a member of this layout
// when encoded: the encoder leaves those out.
func shadowed(k string) bool {
	owned := map[string]bool{"recovery.action": true, "recovery.same_arguments": true, "recovery.guidance": true,
		"recovery.retry_after_ms": true, "recovery.retryAfterMs": true}
	return owned[k]
}

// sameEnvelope compares two envelopes, Extra values by their JSON value:
// encoding a json.RawMessage compacts it (and escapes <, > and &).
func sameEnvelope(a, b agenterror.Envelope) bool {
	ea, eb := a.Extra, b.Extra
	a.Extra, b.Extra = nil, nil
	if !reflect.DeepEqual(a, b) || len(ea) != len(eb) {
		return false
	}
	for k, va := range ea {
		vb, ok := eb[k]
		if !ok || !reflect.DeepEqual(jsonValue(va), jsonValue(vb)) {
			return false
		}
	}
	return true
}

func jsonValue(v any) any {
	raw, _ := json.Marshal(v)
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return err.Error()
	}
	return out
}
