// Package naming turns contract names into identifiers for every target
// language. It is the only package that imports strcase: identifier rules are
// settled here, once, so the model can detect collisions before any emitter
// runs and emitters never invent names of their own.
package naming

import (
	"strings"

	"github.com/iancoleman/strcase"
)

// Words splits a contract name written in any supported style (snake_case,
// SCREAMING_SNAKE_CASE, kebab-case, PascalCase, camelCase) into lower-case
// words. Two names with the same words produce the same identifier in every
// language, which is exactly the collision the validator reports.
func Words(name string) []string {
	words := strings.FieldsFunc(strcase.ToSnake(name), isSeparator)
	if len(words) == 0 {
		return nil
	}
	for i, w := range words {
		words[i] = strings.ToLower(w)
	}
	return words
}

func isSeparator(r rune) bool { return r == '_' || r == '-' || r == '.' || r == ' ' }

// goInitialisms follows the Go convention (as in golint) of writing well-known
// abbreviations in one case, so a kind named http_error becomes HTTPError.
var goInitialisms = map[string]string{
	"acl": "ACL", "api": "API", "ascii": "ASCII", "cpu": "CPU", "css": "CSS", "dns": "DNS",
	"eof": "EOF", "guid": "GUID", "html": "HTML", "http": "HTTP", "https": "HTTPS", "id": "ID",
	"ip": "IP", "json": "JSON", "lhs": "LHS", "mcp": "MCP", "qps": "QPS", "ram": "RAM", "rhs": "RHS",
	"rpc": "RPC", "sla": "SLA", "smtp": "SMTP", "sql": "SQL", "ssh": "SSH", "tcp": "TCP",
	"tls": "TLS", "ttl": "TTL", "udp": "UDP", "ui": "UI", "uid": "UID", "uri": "URI",
	"url": "URL", "utf8": "UTF8", "uuid": "UUID", "vm": "VM", "xml": "XML", "xmpp": "XMPP",
	"xsrf": "XSRF", "xss": "XSS", "ssrf": "SSRF",
}

func title(w string) string {
	if w == "" {
		return w
	}
	return strings.ToUpper(w[:1]) + w[1:]
}

// Forms holds every identifier form of one name (the model's
// contract.Idents). A language adds its forms here and in All.
type Forms struct {
	Go          string // exported Go name, without any type prefix: AuthFailed
	GoLocal     string // Go parameter name: authFailed
	TSType      string // AuthFailed
	TSLocal     string // authFailed
	TSConst     string // AUTH_FAILED
	PythonLocal string // auth_failed
	PythonConst string // AUTH_FAILED
	RustType    string // AuthFailed
	RustLocal   string // auth_failed
	RustConst   string // AUTH_FAILED
}

// All returns every identifier form of name, equal to calling GoExported,
// GoLocal, TSType, TSLocal, TSConst, PythonLocal, PythonConst, RustType,
// RustLocal and RustConst, but
// splitting name into words once: the split (strcase) is most of the cost,
// and loading a contract derives the forms of every name it declares. The
// forms are written into one buffer and cut from one string (a form that
// equals another shares its bytes), so a name costs two or three
// allocations instead of a dozen: a contract of 10,000 kinds derives them
// 10,000 times.
func All(name string) Forms {
	var stack [8]string
	words := appendWords(stack[:0], name)
	b := make([]byte, 0, 6*len(name)+8)
	var at [6][2]int
	add := func(form int, start int) {
		// A form equal to one written before it shares that one's bytes.
		for prev := range form {
			if p := at[prev]; p[1]-p[0] == len(b)-start && string(b[p[0]:p[1]]) == string(b[start:]) {
				b, at[form] = b[:start], p
				return
			}
		}
		at[form] = [2]int{start, len(b)}
	}
	// The six spellings the ten forms are made of, before escapes.
	start := len(b)
	b = appendLeadingDigit(b, "X", func(b []byte) []byte { return appendRunTogether(b, words, true, false) })
	add(0, start) // Go
	start = len(b)
	b = appendLeadingDigit(b, "x", func(b []byte) []byte { return appendRunTogether(b, words, true, true) })
	add(1, start) // GoLocal
	start = len(b)
	b = appendLeadingDigit(b, "X", func(b []byte) []byte { return appendRunTogether(b, words, false, false) })
	add(2, start) // TSType, RustType
	start = len(b)
	b = appendLeadingDigit(b, "x", func(b []byte) []byte { return appendRunTogether(b, words, false, true) })
	add(3, start) // TSLocal
	start = len(b)
	b = appendLeadingDigit(b, "X_", func(b []byte) []byte { return appendJoined(b, words, true) })
	add(4, start) // the constants
	start = len(b)
	b = appendLeadingDigit(b, "x_", func(b []byte) []byte { return appendJoined(b, words, false) })
	add(5, start) // PythonLocal, RustLocal
	s := string(b)
	form := func(i int) string { return s[at[i][0]:at[i][1]] }
	goExp, goLoc, tsTy, tsLoc, consts, snake := form(0), form(1), form(2), form(3), form(4), form(5)
	f := Forms{Go: goExp, GoLocal: goLoc, TSType: tsTy, TSLocal: tsLoc, TSConst: consts, PythonLocal: snake,
		PythonConst: consts, RustType: tsTy, RustLocal: snake, RustConst: consts}
	// The escapes, as the single-form functions apply them.
	if escaped(Go, goLoc) {
		f.GoLocal += "_"
	}
	if Is(TypeScript, Keyword, tsLoc) {
		f.TSLocal += "_"
	}
	if pythonEscaped(snake) {
		f.PythonLocal += "_"
	}
	if pythonEscaped(consts) {
		f.PythonConst += "_"
	}
	if Is(Rust, Keyword, tsTy) {
		f.RustType += "_"
	}
	if Is(Rust, Keyword, snake) || Is(Rust, Local, snake) {
		f.RustLocal += "_"
	}
	return f
}

// appendWords appends the words of name to words: Words, without its
// allocations when name is written in lower-case ASCII letters, digits and
// separators (snake_case, kebab-case), which strcase splits where a letter
// meets a digit and at each separator.
func appendWords(words []string, name string) []string {
	for i := 0; i < len(name); i++ {
		if c := name[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || isSeparator(rune(c))) {
			return append(words, Words(name)...)
		}
	}
	start := -1
	for i := 0; i <= len(name); i++ {
		if start >= 0 && (i == len(name) || isSeparator(rune(name[i])) || isDigit(name[i]) != isDigit(name[start])) {
			words = append(words, name[start:i])
			start = -1
		}
		if start < 0 && i < len(name) && !isSeparator(rune(name[i])) {
			start = i
		}
	}
	return words
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// appendLeadingDigit is leadingDigit over what write appends to b.
func appendLeadingDigit(b []byte, prefix string, write func([]byte) []byte) []byte {
	start := len(b)
	b = write(b)
	if len(b) > start && isDigit(b[start]) {
		b = append(b, prefix...)
		copy(b[start+len(prefix):], b[start:len(b)-len(prefix)])
		copy(b[start:], prefix)
	}
	return b
}

// appendRunTogether is runTogether appending to b, each word as goWord
// writes it when initialisms is set, else as title does.
func appendRunTogether(b []byte, words []string, initialisms, camel bool) []byte {
	for i, w := range words {
		switch {
		case i == 0 && camel:
			b = append(b, w...)
		case initialisms && goInitialisms[w] != "":
			b = append(b, goInitialisms[w]...)
		default:
			b = appendTitle(b, w)
		}
	}
	return b
}

// appendTitle appends title(w).
func appendTitle(b []byte, w string) []byte {
	if w == "" {
		return b
	}
	if c := w[0]; c >= 'a' && c <= 'z' {
		return append(append(b, c-'a'+'A'), w[1:]...)
	}
	return append(b, title(w)...)
}

// appendJoined appends the words joined with underscores, upper-cased when
// upper is set (strings.ToUpper of the joined words).
func appendJoined(b []byte, words []string, upper bool) []byte {
	start := len(b)
	for i, w := range words {
		if i > 0 {
			b = append(b, '_')
		}
		b = append(b, w...)
	}
	if !upper {
		return b
	}
	for i := start; i < len(b); i++ {
		if b[i] >= 0x80 {
			// Not ASCII: strings.ToUpper's rules, on the joined words.
			return append(b[:start], strings.ToUpper(string(b[start:]))...)
		}
		if c := b[i]; c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return b
}

// GoExported is the exported Go identifier for name: http_status -> HTTPStatus.
func GoExported(name string) string { return goExported(Words(name)) }

func goExported(words []string) string { return leadingDigit(runTogether(words, goWord, false), "X") }

// goWord is a word inside a Go identifier: an initialism (HTTP, ID) in
// capitals, any other word title-cased.
func goWord(w string) string {
	if ini, ok := goInitialisms[w]; ok {
		return ini
	}
	return title(w)
}

// runTogether writes words as one identifier, each as word writes it;
// camel keeps the first word as it is (camelCase rather than PascalCase).
func runTogether(words []string, word func(string) string, camel bool) string {
	var b strings.Builder
	for i, w := range words {
		if i == 0 && camel {
			b.WriteString(w)
		} else {
			b.WriteString(word(w))
		}
	}
	return b.String()
}

// GoLocal is an unexported Go identifier for name, safe to use as a parameter:
// keywords and predeclared identifiers get a trailing underscore so a field
// called "type" or "string" cannot break or shadow anything in generated code.
func GoLocal(name string) string { return goLocal(Words(name)) }

func goLocal(words []string) string {
	id := leadingDigit(runTogether(words, goWord, true), "x")
	if escaped(Go, id) {
		id += "_"
	}
	return id
}

// GoPackage is the Go package name for a contract name: agent-error -> agenterror.
// Go package names are lower case without separators by convention.
func GoPackage(name string) string {
	id := leadingDigit(strings.Join(Words(name), ""), "x")
	if escaped(Go, id) {
		id += "_"
	}
	return id
}

// TSType is a TypeScript type or class name: auth_failed -> AuthFailed.
func TSType(name string) string { return tsType(Words(name)) }

func tsType(words []string) string { return leadingDigit(runTogether(words, title, false), "X") }

// TSLocal is a TypeScript variable or function name (camelCase), escaped when
// it is a reserved word.
func TSLocal(name string) string { return tsLocal(Words(name)) }

func tsLocal(words []string) string {
	id := leadingDigit(runTogether(words, title, true), "x")
	if Is(TypeScript, Keyword, id) {
		id += "_"
	}
	return id
}

// TSParam is the parameter name of a generated TypeScript constructor for a
// field whose member is local (TSLocal): a name the constructor's body uses
// itself (newEnvelope, opts) gets a trailing underscore, so the parameter
// cannot shadow it. The member keeps its name; only the parameter differs.
func TSParam(local string) string {
	if Is(TypeScript, Local, local) {
		return local + "_"
	}
	return local
}

// upperSnake is the words upper-cased and joined with underscores, the
// base of the constant forms.
func upperSnake(words []string) string {
	return strings.ToUpper(strings.Join(words, "_"))
}

// TSConst is a TypeScript constant name: auth_failed -> AUTH_FAILED.
func TSConst(name string) string { return tsConst(upperSnake(Words(name))) }

func tsConst(upperSnake string) string { return leadingDigit(upperSnake, "X_") }

// NPMPackage is the npm package name for a contract name: kebab case.
func NPMPackage(name string) string {
	return strings.Join(Words(name), "-")
}

// PythonLocal is a Python attribute, function or module name (snake_case),
// with a trailing underscore on keywords and builtins as PEP 8 recommends:
// an attribute named like a builtin (classmethod, str) shadows it in the
// class body of the generated dataclass, a parameter in the function body.
func PythonLocal(name string) string { return pythonLocal(Words(name)) }

func pythonLocal(words []string) string {
	id := leadingDigit(strings.Join(words, "_"), "x_")
	if pythonEscaped(id) {
		id += "_"
	}
	return id
}

// PythonConst is a Python constant or Enum member name: auth_failed -> AUTH_FAILED.
func PythonConst(name string) string { return pythonConst(upperSnake(Words(name))) }

func pythonConst(upperSnake string) string {
	id := leadingDigit(upperSnake, "X_")
	if pythonEscaped(id) { // None, True and False are the only keywords with capitals
		id += "_"
	}
	return id
}

// PythonClass is a Python class name: auth_failed -> AuthFailed.
func PythonClass(name string) string {
	id := TSType(name)
	if pythonEscaped(id) {
		id += "_"
	}
	return id
}

// leadingDigit keeps identifiers valid when a name starts with a digit
// (a kind such as "2fa_required" is legal YAML but not a legal identifier).
func leadingDigit(id, prefix string) string {
	if id != "" && id[0] >= '0' && id[0] <= '9' {
		return prefix + id
	}
	return id
}

// pythonEscaped reports whether a Python identifier form must not be id as
// it is.
func pythonEscaped(id string) bool {
	return Is(Python, Keyword, id) || Is(Python, Builtin, id)
}

// RustType is a Rust type or enum variant name (UpperCamelCase):
// auth_failed -> AuthFailed. Self, the one keyword with a capital, gets a
// trailing underscore (rustc's naming lints ignore it).
func RustType(name string) string { return rustType(Words(name)) }

func rustType(words []string) string {
	id := tsType(words)
	if Is(Rust, Keyword, id) {
		id += "_"
	}
	return id
}

// RustLocal is a Rust field, function, method or parameter name
// (snake_case). A keyword or a name the generated constructors use in their
// bodies gets a trailing underscore rather than a raw identifier: r#self,
// r#super, r#crate and r#Self do not exist, and one rule for every keyword
// keeps the setters (with_type) and constructors (new_type) regular.
func RustLocal(name string) string { return rustLocal(Words(name)) }

func rustLocal(words []string) string {
	id := leadingDigit(strings.Join(words, "_"), "x_")
	if Is(Rust, Keyword, id) || Is(Rust, Local, id) {
		id += "_"
	}
	return id
}

// RustConst is a Rust constant name: auth_failed -> AUTH_FAILED.
func RustConst(name string) string { return rustConst(upperSnake(Words(name))) }

func rustConst(upperSnake string) string { return leadingDigit(upperSnake, "X_") }

// CargoPackage is the Cargo package name for a contract name: kebab case,
// as the npm and PyPI names; the crate's library name is its snake_case
// form (agent-error is imported as agent_error).
func CargoPackage(name string) string { return NPMPackage(name) }
