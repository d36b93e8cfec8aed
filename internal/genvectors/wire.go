package genvectors

import (
	"encoding/json"
	"strings"
	"sync"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/orderedjson"
)

// object is the examples' ordered JSON object with the path operations the
// vectors need (get, with, without), so vectors show envelopes in wire
// order and marshal exactly as the examples do.
type object orderedjson.Object

// MarshalJSON writes the members in order, as the examples do.
func (o object) MarshalJSON() ([]byte, error) {
	return orderedjson.Object(o).MarshalJSON()
}

// AsObject lets orderedjson write o directly.
func (o object) AsObject() orderedjson.Object { return orderedjson.Object(o) }

// raw is v as compact JSON, written as orderedjson.Marshal writes it.
func raw(v any) (json.RawMessage, error) {
	// Written into a reused scratch buffer and copied out at its size: a
	// fresh 1 KiB buffer for each of the hundreds of thousands of values a
	// large contract's vectors hold was 140 MB at 10,000 kinds.
	scratch := rawScratch.Get().(*[]byte)
	defer rawScratch.Put(scratch)
	b, err := orderedjson.AppendCompact((*scratch)[:0], v)
	*scratch = b
	if err != nil {
		return nil, err
	}
	return json.RawMessage(append(make([]byte, 0, len(b)), b...)), nil
}

// rawString is v as compact JSON text: raw's bytes copied once, into the
// string.
func rawString(v any) (string, error) {
	scratch := rawScratch.Get().(*[]byte)
	defer rawScratch.Put(scratch)
	b, err := orderedjson.AppendCompact((*scratch)[:0], v)
	*scratch = b
	if err != nil {
		return "", err
	}
	return string(b), nil
}

var rawScratch = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// fromExample is an example's wire tree as an object, its nested objects
// objects too. A tree already converted (Build converts each example once,
// for all of its sections) is returned as it is: nothing changes an object
// once made (see with), so the sections can share it.
func fromExample(o orderedjson.Object) object {
	if converted(object(o)) {
		return object(o)
	}
	return clone(o).(object)
}

// converted reports whether v holds no orderedjson.Object, however deep.
func converted(v any) bool {
	switch v := v.(type) {
	case orderedjson.Object:
		return false
	case object:
		for _, m := range v {
			if !converted(m.Value) {
				return false
			}
		}
	case []any:
		for _, x := range v {
			if !converted(x) {
				return false
			}
		}
	}
	return true
}

// clone deep-copies a value, turning orderedjson.Object into object.
func clone(v any) any {
	switch v := v.(type) {
	case orderedjson.Object:
		return clone(object(v))
	case object:
		out := make(object, len(v))
		for i, m := range v {
			out[i] = orderedjson.Member{Key: m.Key, Value: clone(m.Value)}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = clone(x)
		}
		return out
	}
	return v
}

// segments splits a layout path; layout member names hold no dots.
func segments(path string) []string {
	if path == "" {
		return nil
	}
	return strings.Split(path, ".")
}

// get returns the value at path and whether it is there. Like with and
// without, it reads an example's nested orderedjson.Object as an object.
func (o object) get(path string) (any, bool) {
	if path == "" {
		return o, true
	}
	obj := o
	for {
		s, rest, more := strings.Cut(path, ".")
		var cur any
		found := false
		for _, m := range obj {
			if m.Key == s {
				cur, found = m.Value, true
				break
			}
		}
		if !found {
			return nil, false
		}
		if !more {
			return cur, true
		}
		switch cur.(type) {
		case object, orderedjson.Object:
			obj = objectOf(cur)
		default:
			return nil, false
		}
		path = rest
	}
}

// with returns a copy of o with v at path, creating the objects on the way
// and appending members that were not there.
//
// Only the objects on the path are copied; the rest is shared with o.
// Nothing here changes an object once made (with and without copy what
// they change), so sharing is safe, and a large contract's vectors do not
// copy every example's whole tree for each change.
func (o object) with(path string, v any) object {
	seg, rest, more := strings.Cut(path, ".")
	out := make(object, len(o), len(o)+1)
	copy(out, o)
	for i, m := range out {
		if m.Key != seg {
			continue
		}
		if !more {
			out[i].Value = v
		} else {
			out[i].Value = objectOf(m.Value).with(rest, v)
		}
		return out
	}
	if !more {
		return append(out, orderedjson.Member{Key: seg, Value: v})
	}
	return append(out, orderedjson.Member{Key: seg, Value: object{}.with(rest, v)})
}

// objectOf is v as an object: an orderedjson.Object (an example's nested
// objects, until fromExample converts them) is one too; any other value is
// none.
func objectOf(v any) object {
	switch v := v.(type) {
	case object:
		return v
	case orderedjson.Object:
		return object(v)
	}
	return nil
}

// without returns a copy of o without the member at path (the objects on
// the path copied, as with copies them).
func (o object) without(path string) object {
	seg, rest, more := strings.Cut(path, ".")
	for i, m := range o {
		if m.Key != seg {
			continue
		}
		if !more {
			return append(o[:i:i], o[i+1:]...)
		}
		out := append(object(nil), o...)
		switch m.Value.(type) {
		case object, orderedjson.Object:
			out[i].Value = objectOf(m.Value).without(rest)
		}
		return out
	}
	return append(object(nil), o...)
}

// Decoded is what a decoded envelope answers that the decisions depend on,
// read from the wire by the layout: values the layout carries come from the
// wire, the others from the kind's classification (the fallback for a kind
// the contract does not define). A derived flag received on the wire is
// kept and wins over the computed one.
type Decoded struct {
	Kind          string
	Known         bool
	Action        string
	SameArguments string
	SideEffects   string
	RetryAfterMs  *int64
	// Retryable and MayHaveRun are the derived flags as received; nil when
	// the wire does not carry them.
	Retryable  *bool
	MayHaveRun *bool
}

// classificationOf is the classification of a kind: its own, or the fallback
// for a kind the contract does not define.
func classificationOf(c *contract.Contract, kind string) *contract.Classification {
	if k := c.Kind(kind); k != nil {
		return &k.Classification
	}
	return &c.Fallback.Classification
}

// wireAndDecoded is an envelope's tree as a vector's wire bytes and as
// every decoder reads it.
func wireAndDecoded(c *contract.Contract, n named) (json.RawMessage, Decoded, error) {
	env, err := n.wire()
	return env, decode(c, n.o), err
}

// decode reads an envelope the way a generated decoder does. It assumes a
// valid envelope.
func decode(c *contract.Contract, o object) Decoded {
	var d Decoded
	str := func(s contract.Source, fallback string) string {
		if lf := c.Layout.Leaf(s); lf != nil {
			v, _ := o.get(lf.Path)
			s, _ := v.(string)
			return s
		}
		return fallback
	}
	flag := func(s contract.Source) *bool {
		if lf := c.Layout.Leaf(s); lf != nil {
			if v, ok := o.get(lf.Path); ok && v != nil {
				b := v.(bool)
				return &b
			}
		}
		return nil
	}
	d.Kind = str(contract.SourceKind, "")
	cl := &c.Fallback.Classification
	if k := c.Kind(d.Kind); k != nil {
		d.Known, cl = true, &k.Classification
	}
	d.Action = str(contract.SourceAction, cl.Recovery.Action.Name)
	d.SameArguments = str(contract.SourceSameArguments, cl.Recovery.SameArguments.Name)
	d.SideEffects = str(contract.SourceSideEffects, cl.SideEffects.Name)
	if lf := c.Layout.Leaf(contract.SourceRetryAfterMs); lf != nil {
		// The first spelling present wins.
		for i := -1; i < len(lf.Aliases); i++ {
			name := lf.Name
			if i >= 0 {
				name = lf.Aliases[i]
			}
			p := name
			if lf.Object.Path != "" {
				p = lf.Object.Path + "." + name
			}
			if v, ok := o.get(p); ok && v != nil {
				ms := toInt64(v)
				d.RetryAfterMs = &ms
				break
			}
		}
	}
	d.Retryable = flag(contract.SourceRetryable)
	d.MayHaveRun = flag(contract.SourceMayHaveRun)
	return d
}

func toInt64(v any) int64 {
	switch v := v.(type) {
	case int:
		return int64(v)
	case int64:
		return v
	case float64:
		return int64(v)
	}
	panic("genvectors: not an integer")
}

// IsRetryable is the decoded envelope's IsRetryable.
func (d Decoded) IsRetryable(c *contract.Contract) bool {
	if d.Retryable != nil {
		return *d.Retryable
	}
	return Retryable(c, d.Action, d.SameArguments)
}

// WorkMayHaveRun is the decoded envelope's WorkMayHaveRun.
func (d Decoded) WorkMayHaveRun(c *contract.Contract) bool {
	if d.MayHaveRun != nil {
		return *d.MayHaveRun
	}
	return MayHaveRun(c, d.SideEffects)
}
