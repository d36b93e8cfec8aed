package gents

import (
	"bytes"
	"strings"

	"github.com/errgen/errgen/internal/tscompile"
)

// The declarations of the contract's two modules, dist/contract.d.ts and
// dist/constructors.d.ts, are tsdecl's, made from less than the whole
// module: most of a large contract's text is data tables and one
// constructor per kind, whose declarations tsdecl would only cut out again.
// TestContractModulesMatchCompilation compares both with tsdecl's of the
// whole modules on every test contract and a large synthetic one.

// withoutTables is src/contract.ts for its declarations alone: each of the
// data tables that grow with the contract, which are most of the module,
// replaced by null. A declaration of a const with a type never reads its
// initializer, so the declarations are the same, and tsdecl tokenizes a
// fraction of the text. The tables are found in the
// template's order, each as `deepFreeze(<table>);`; one not found (the
// template changed) is left in place, which costs only time.
func withoutTables(src []byte, v *view) []byte {
	const call = "deepFreeze("
	type span struct{ start, end int }
	var cuts []span
	size, from := len(src), 0
	for _, table := range []string{v.Classifications, v.Fields, v.HTTPKinds, v.MCPKindErrorCodes, v.AIPReasons} {
		if len(table) < 1024 {
			continue
		}
		head := []byte(call + table[:64])
		for off := from; ; {
			j := bytes.Index(src[off:], head)
			if j < 0 {
				break
			}
			start := off + j + len(call)
			if end := start + len(table); end+2 <= len(src) && string(src[start:end]) == table && string(src[end:end+2]) == ");" {
				cuts = append(cuts, span{start, end})
				size -= len(table) - len("null")
				from = end
				break
			}
			off += j + 1
		}
	}
	out := make([]byte, 0, size)
	from = 0
	for _, c := range cuts {
		out = append(append(out, src[from:c.start]...), "null"...)
		from = c.end
	}
	return append(out, src[from:]...)
}

// constructorDeclarations is dist/constructors.d.ts. tsdecl reads the
// module with its run of per-kind constructors replaced by one placeholder
// function that names every type they use from other modules (so the
// imports tsdecl keeps are the same); the placeholder's declaration is then
// replaced by the constructors', each its documentation line and its
// signature as the module has them. A module not laid out as the template
// lays it out (see constructorRun) is read whole.
func constructorDeclarations(v *view, src []byte) ([]byte, error) {
	start, end, decls := constructorRun(v, src)
	if decls == nil {
		return tscompile.Declarations(v.Header, "constructors", src)
	}
	const name = "__errgenConstructors"
	placeholder := "export function " + name + "(): void {}\n"
	if len(v.ConstructorTypes) > 0 {
		placeholder = "export function " + name + "(_: " + strings.Join(v.ConstructorTypes, " | ") + "): void {}\n"
	}
	cut := make([]byte, 0, start+len(placeholder)+len(src)-end)
	cut = append(append(append(cut, src[:start]...), placeholder...), src[end:]...)
	dts, err := tscompile.Declarations(v.Header, "constructors", cut)
	if err != nil {
		return nil, err
	}
	at := bytes.Index(dts, []byte("export declare function "+name+"("))
	if at < 0 {
		return tscompile.Declarations(v.Header, "constructors", src)
	}
	after := at + bytes.IndexByte(dts[at:], '\n') + 1
	out := make([]byte, 0, len(dts)+len(decls))
	return append(append(append(out, dts[:at]...), decls...), dts[after:]...), nil
}

// constructorRun finds the per-kind constructors in src, src[start:end],
// and returns their declarations as tsdecl writes them: for each, a blank
// line, its documentation line, and "export declare function" with its
// signature. decls is nil when the constructors are not where and as the
// template writes them: each a documentation line, "export function
// new<Type>(...): ... {", a body, and "}" alone on a line, one blank line
// apart, in the contract's order.
func constructorRun(v *view, src []byte) (start, end int, decls []byte) {
	if len(v.Kinds) == 0 {
		return 0, 0, nil
	}
	after := bytes.Index(src, []byte("\nexport function newEnvelope("))
	if after < 0 {
		return 0, 0, nil
	}
	first := bytes.Index(src[after:], []byte("\n\n/** new"+v.Kinds[0].Type+" "))
	if first < 0 {
		return 0, 0, nil
	}
	start = after + first + 2
	decls = make([]byte, 0, len(src)/2)
	pos := start
	line := func() []byte {
		i := bytes.IndexByte(src[pos:], '\n')
		if i < 0 {
			return nil
		}
		l := src[pos : pos+i]
		pos += i + 1
		return l
	}
	for k, kind := range v.Kinds {
		if k > 0 && len(line()) != 0 {
			return 0, 0, nil
		}
		doc, sig := line(), line()
		fn, ok := cutPrefix(sig, "export function new", kind.Type, "(")
		if _, isDoc := cutPrefix(doc, "/** new", kind.Type, " "); !isDoc || !bytes.HasSuffix(doc, []byte("*/")) || !ok || !bytes.HasSuffix(fn, []byte(" {")) {
			return 0, 0, nil
		}
		for {
			l := line()
			if l == nil {
				return 0, 0, nil
			}
			if string(l) == "}" {
				break
			}
			if !bytes.HasPrefix(l, []byte("  ")) {
				return 0, 0, nil
			}
		}
		decls = append(append(append(decls, '\n'), doc...), '\n')
		decls = append(append(append(decls, "export declare function new"...), kind.Type...), '(')
		decls = append(append(decls, fn[:len(fn)-2]...), ";\n"...)
	}
	return start, pos, decls
}

// cutPrefix is bytes.CutPrefix with the prefix given in parts, which are
// not joined: it runs for every kind.
func cutPrefix(b []byte, parts ...string) ([]byte, bool) {
	for _, p := range parts {
		if len(b) < len(p) || string(b[:len(p)]) != p {
			return nil, false
		}
		b = b[len(p):]
	}
	return b, true
}
