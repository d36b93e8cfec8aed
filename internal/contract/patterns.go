package contract

import "regexp"

// The grammar's patterns. The loader compiles them, and internal/genschema
// writes the same strings into the contract file's JSON Schema, so an
// editor's check and the loader's cannot drift apart. They are anchored and
// ASCII-only, in syntax that RE2, ECMA-262 and Python's re read alike.
const (
	// ContractNamePattern is a contract's name.
	ContractNamePattern = `^[a-z][a-z0-9]*([-_][a-z0-9]+)*$`
	// ValueNamePattern is the name of an origin, a recovery action, a
	// same_arguments or side_effects value, a group or a field (the
	// snake_case alternative for field names is a subset of it), so every
	// reference to a declared name matches it too.
	ValueNamePattern = `^[A-Za-z][A-Za-z0-9]*([-_][A-Za-z0-9]+)*$`
	// WireNamePattern is what a JSON member name of a layout may be:
	// identifier-like, so every language can address it. It is the one pattern left unanchored, so that a
	// layout path's pattern (names joined by dots) can be built from it.
	WireNamePattern = `[A-Za-z_$][A-Za-z0-9_$-]*`
	// StatusPattern is a rule's status written as a string: a code (401), a
	// class (4xx) or a range (500-599). That a range does not run backwards
	// the loader checks.
	StatusPattern = `^[1-5]([0-9][0-9]|xx|[0-9][0-9]-[1-5][0-9][0-9])$`
	// TextPattern is a rule's text, a word or phrase. The loader matches the
	// lower-cased phrase, which is what rules compare.
	TextPattern = `^[A-Za-z0-9_]([A-Za-z0-9_ .:/-]*[A-Za-z0-9_])?$`
	// AbsoluteURIPattern is problem_type_base: a URI scheme, a colon, then
	// no white space (RE2's \S, written out for the other engines).
	AbsoluteURIPattern = `^[a-zA-Z][a-zA-Z0-9+.-]*:[^\t\n\f\r ]*$`
	// SecretPrefixPattern is a prefix of a contract-declared secret shape.
	SecretPrefixPattern = `^[A-Za-z0-9_-]{2,32}$`
)

// namingPatterns and namingExamples are, per naming, the pattern every kind
// name matches and a name that does.
var (
	namingPatterns = map[Naming]string{
		SnakeCase:          `^[a-z][a-z0-9]*(_[a-z0-9]+)*$`,
		ScreamingSnakeCase: `^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$`,
		PascalCase:         `^[A-Z][a-zA-Z0-9]*$`,
		KebabCase:          `^[a-z][a-z0-9]*(-[a-z0-9]+)*$`,
	}
	namingExamples = map[Naming]string{
		SnakeCase: "auth_failed", ScreamingSnakeCase: "AUTH_FAILED", PascalCase: "AuthFailed", KebabCase: "auth-failed",
	}
)

// Pattern is the pattern every name in the naming n matches; empty for a
// naming errgen does not know.
func (n Naming) Pattern() string { return namingPatterns[n] }

// Example is a kind name in the naming n.
func (n Naming) Example() string { return namingExamples[n] }

var (
	contractNameRe = regexp.MustCompile(ContractNamePattern)
	valueNameRe    = regexp.MustCompile(ValueNamePattern)
	wireNameRe     = regexp.MustCompile("^" + WireNamePattern + "$")
	statusRe       = regexp.MustCompile(StatusPattern)
	textRe         = regexp.MustCompile(TextPattern)
	absoluteURIRe  = regexp.MustCompile(AbsoluteURIPattern)
	secretPrefixRe = regexp.MustCompile(SecretPrefixPattern)
	namingRes      = map[Naming]*regexp.Regexp{}
)

func init() {
	for n, p := range namingPatterns {
		namingRes[n] = regexp.MustCompile(p)
	}
}

// namingMatch is namingRes[n].MatchString(name) without the regular
// expression engine: every kind's name is checked. A name of the naming
// starts with a letter of its case and goes on with letters of the
// naming's cases and digits, in runs its separator (if any) joins one at
// a time; TestNamingMatchIsThePattern holds it to the patterns.
func namingMatch(n Naming, name string) bool {
	var sep byte
	lower, upper := false, false
	switch n {
	case SnakeCase:
		sep, lower = '_', true
	case KebabCase:
		sep, lower = '-', true
	case ScreamingSnakeCase:
		sep, upper = '_', true
	case PascalCase:
		lower, upper = true, true
	default:
		return namingRes[n].MatchString(name)
	}
	if name == "" {
		return false
	}
	first := name[0]
	if n == PascalCase || n == ScreamingSnakeCase {
		if first < 'A' || first > 'Z' {
			return false
		}
	} else if first < 'a' || first > 'z' {
		return false
	}
	for i := 1; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= '0' && c <= '9', lower && c >= 'a' && c <= 'z', upper && c >= 'A' && c <= 'Z':
		case sep != 0 && c == sep && name[i-1] != sep && i+1 < len(name):
		default:
			return false
		}
	}
	return true
}
