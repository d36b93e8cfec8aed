package contract

import (
	"fmt"
	"strings"

	"github.com/errgen/errgen/internal/naming"
)

// reservedNames reports each name whose generated identifiers would land on
// a name a target language or the generated package reserves, where no
// escape can help: a kind's constructor, a classifier's function and a
// value's constant are public API with a fixed spelling, and a member that
// every JavaScript object inherits breaks the generated TypeScript types.
// (Keywords and builtins are escaped by the identifier forms themselves, and
// the emitters pick a free name for the types they name after fields.) What
// the loader accepts, every emitter must generate and compile; the table is
// internal/naming's.
func (l *loader) reservedNames(c *Contract) {
	for i, k := range c.Kinds {
		// The kinds read side by side were checked there.
		if i < len(l.kindsReserved) && l.kindsReserved[i].kind == k {
			l.problems = append(l.problems, l.kindsReserved[i].problems...)
			continue
		}
		l.reservedKind(k)
	}
	for _, s := range []struct {
		what, prefix string
		values       []*Value
	}{
		{"origin", "Origin", Values(c.Origins)},
		{"recovery action", "RecoveryAction", Values(c.Actions)},
		{"same_arguments value", "SameArguments", Values(c.SameArguments)},
		{"side_effects value", "SideEffects", Values(c.SideEffects)},
		{"group", "Group", Values(c.Groups)},
	} {
		for _, v := range s.values {
			if !l.objectMember(s.what, v.Name, v.Idents.TSLocal, v.Pos) {
				l.taken(s.what, v.Name, v.Pos, goName("constant", s.prefix, v.Idents))
				l.variant(s.what, v.Name, v.Idents, v.Pos)
			}
		}
	}
	if c.Inbound != nil {
		for _, cl := range c.Inbound.Classifiers {
			if !l.objectMember("classifier", cl.Name, cl.Idents.TSLocal, cl.Pos) {
				l.taken("classifier", cl.Name, cl.Pos, goName("function", "Classify", cl.Idents), tsName("function", "classify", cl.Idents),
					pyName("function", "classify_", cl.Idents), rustName("function", "classify_", cl.Idents))
			}
		}
	}
	var fields func(what string, fs []*Field)
	fields = func(what string, fs []*Field) {
		for _, f := range fs {
			l.objectMember(what, f.Name, f.Idents.TSLocal, f.Pos)
			if len(f.Properties) > 0 {
				fields(fmt.Sprintf("%s %q: property", what, f.Name), f.Properties)
			}
		}
	}
	fields("context field", c.ContextFields)
	for _, k := range c.Kinds {
		if len(k.Fields) > 0 {
			fields(fmt.Sprintf("kind %q: field", k.Name), k.Fields)
		}
	}
}

// reservedKind checks the names a kind's identifiers become.
func (l *loader) reservedKind(k *Kind) {
	if !l.objectMember("kind", k.Name, k.Idents.TSLocal, k.Pos) {
		l.taken("kind", k.Name, k.Pos, goName("constant", "Kind", k.Idents), goName("constructor", "New", k.Idents),
			goName("method", "init", k.Idents), tsName("constructor", "new", k.Idents), pyName("constructor", "new_", k.Idents),
			rustName("constructor", "new_", k.Idents))
		l.variant("kind", k.Name, k.Idents, k.Pos)
	}
}

// kindReserved is what reservedKind found for a kind read side by side.
type kindReserved struct {
	kind     *Kind
	problems Problems
}

// objectMember reports a name that becomes a member or key of generated
// TypeScript objects that every object inherits.
func (l *loader) objectMember(what string, name, member string, pos Pos) bool {
	for _, id := range [2]string{name, member} {
		if naming.Is(naming.TypeScript, naming.ObjectMember, id) {
			l.errorf(l.at(pos), "%s %q becomes %s in the generated TypeScript (a member of its types, a key of its tables), which every JavaScript object inherits from Object.prototype: tsc rejects the types and a lookup finds the inherited member; rename it", what, name, id)
			return true
		}
	}
	return false
}

// A form is the identifier prefix+id of a name in a language, joined only
// for a message: the check runs for every kind.
type form struct{ lang, noun, prefix, id string }

func goName(noun, prefix string, i Idents) form { return form{string(naming.Go), noun, prefix, i.Go} }

func tsName(noun, prefix string, i Idents) form {
	return form{string(naming.TypeScript), noun, prefix, i.TSType}
}

func pyName(noun, prefix string, i Idents) form {
	// new_type_ is new_type: no keyword to avoid after the prefix.
	return form{string(naming.Python), noun, prefix, strings.TrimSuffix(i.PythonLocal, "_")}
}

func rustName(noun, prefix string, i Idents) form {
	// new_type_ is new_type, as in Python.
	return form{string(naming.Rust), noun, prefix, strings.TrimSuffix(i.RustLocal, "_")}
}

// taken reports the forms of a name that land on functions or constants
// the generated packages declare.
func (l *loader) taken(what, name string, pos Pos, forms ...form) {
	var hits []string
	for _, f := range forms {
		if f.prefix == "New" && f.id == GoTrustedSuffix {
			continue // reported by kinds with what NewTrusted does
		}
		if naming.IsJoined(naming.Lang(f.lang), naming.Package, f.prefix, f.id) {
			hits = append(hits, fmt.Sprintf("%s %s %s", f.lang, f.noun, f.prefix+f.id))
		}
	}
	switch len(hits) {
	case 0:
	case 1:
		l.errorf(l.at(pos), "%s %q: its %s is a name the generated package already declares; rename the %s", what, name, hits[0], what)
	default:
		l.errorf(l.at(pos), "%s %q: its %s are names the generated packages already declare; rename the %s", what, name, strings.Join(hits[:len(hits)-1], ", ")+" and "+hits[len(hits)-1], what)
	}
}

// variant reports a value whose Rust variant is the one an open enum keeps
// unknown values in, which would make two variants of one name.
func (l *loader) variant(what, name string, i Idents, pos Pos) {
	if naming.Is(naming.Rust, naming.Variant, i.RustType) {
		l.errorf(l.at(pos), "%s %q becomes the Rust variant %s, which the generated open enum keeps unknown values in; rename the %s", what, name, i.RustType, what)
	}
}
