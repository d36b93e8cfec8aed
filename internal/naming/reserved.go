package naming

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// goReserved holds Go keywords and predeclared identifiers. Predeclared names
// are legal parameter names but shadow the type or builtin inside the body of
// a generated function, so they are escaped as well.
var goReserved = set(
	"break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough",
	"for", "func", "go", "goto", "if", "import", "interface", "map", "package", "range",
	"return", "select", "struct", "switch", "type", "var",
	"any", "append", "bool", "byte", "cap", "clear", "close", "comparable", "complex",
	"complex64", "complex128", "copy", "delete", "error", "false", "float32", "float64",
	"imag", "int", "int8", "int16", "int32", "int64", "iota", "len", "make", "max", "min",
	"new", "nil", "panic", "print", "println", "real", "recover", "rune", "string", "true",
	"uint", "uint8", "uint16", "uint32", "uint64", "uintptr",
	// Names the generated Go code uses for its own locals and imports.
	"e", "json", "slog", "strconv", "time", "errors", "fmt", "message", "kind",
)

// tsReserved holds ECMAScript reserved words, strict-mode reserved words and
// TypeScript's own reserved type names.
var tsReserved = set(
	"break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete",
	"do", "else", "enum", "export", "extends", "false", "finally", "for", "function", "if",
	"import", "in", "instanceof", "new", "null", "return", "super", "switch", "this", "throw",
	"true", "try", "typeof", "var", "void", "while", "with", "implements", "interface", "let",
	"package", "private", "protected", "public", "static", "yield", "await", "arguments",
	"eval", "any", "boolean", "number", "string", "symbol", "never", "unknown", "object",
	"undefined",
)

// pyReserved holds Python keywords, soft keywords and the builtins a generated
// module must not shadow.
var pyReserved = set(
	"False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
	"continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global",
	"if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return",
	"try", "while", "with", "yield", "match", "case", "type",
	"bool", "bytes", "dict", "float", "id", "int", "list", "object", "str", "tuple", "set",
	"print", "format", "hash", "input", "len", "max", "min", "next", "iter", "filter", "map",
)
