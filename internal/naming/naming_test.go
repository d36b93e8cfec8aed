package naming

import (
	"strings"
	"testing"
)

func TestIdentifiers(t *testing.T) {
	tests := []struct {
		name                                   string
		goExp, goLocal, tsType, tsLocal, pyLoc string
		pyConst                                string
	}{
		{"auth_failed", "AuthFailed", "authFailed", "AuthFailed", "authFailed", "auth_failed", "AUTH_FAILED"},
		{"auth-failed", "AuthFailed", "authFailed", "AuthFailed", "authFailed", "auth_failed", "AUTH_FAILED"},
		{"TOOL_RATE_LIMITED", "ToolRateLimited", "toolRateLimited", "ToolRateLimited", "toolRateLimited", "tool_rate_limited", "TOOL_RATE_LIMITED"},
		{"NotFound", "NotFound", "notFound", "NotFound", "notFound", "not_found", "NOT_FOUND"},
		{"http_status", "HTTPStatus", "httpStatus", "HttpStatus", "httpStatus", "http_status", "HTTP_STATUS"},
		{"dns_error", "DNSError", "dnsError", "DnsError", "dnsError", "dns_error", "DNS_ERROR"},
		{"invalid_code_mode_id", "InvalidCodeModeID", "invalidCodeModeID", "InvalidCodeModeId", "invalidCodeModeId", "invalid_code_mode_id", "INVALID_CODE_MODE_ID"},
		{"type", "Type", "type_", "Type", "type", "type_", "TYPE"},
		{"string", "String", "string_", "String", "string_", "string", "STRING"},
		{"class", "Class", "class", "Class", "class_", "class_", "CLASS"},
		{"none", "None", "none", "None", "none", "none", "NONE"},
		{"2fa_required", "X2FaRequired", "x2FaRequired", "X2FaRequired", "x2FaRequired", "x_2_fa_required", "X_2_FA_REQUIRED"},
	}
	for _, tt := range tests {
		got := []string{GoExported(tt.name), GoLocal(tt.name), TSType(tt.name), TSLocal(tt.name), PythonLocal(tt.name), PythonConst(tt.name)}
		want := []string{tt.goExp, tt.goLocal, tt.tsType, tt.tsLocal, tt.pyLoc, tt.pyConst}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%q: identifier %d = %q, want %q", tt.name, i, got[i], want[i])
			}
		}
	}
}

func TestPackageNames(t *testing.T) {
	for _, tt := range []struct{ in, goPkg, npm, py string }{
		{"agent-error", "agenterror", "agent-error", "agent_error"},
		{"AGENTO", "agento", "agento", "agento"},
		{"ovstorage_errors", "ovstorageerrors", "ovstorage-errors", "ovstorage_errors"},
	} {
		if got := GoPackage(tt.in); got != tt.goPkg {
			t.Errorf("GoPackage(%q) = %q, want %q", tt.in, got, tt.goPkg)
		}
		if got := NPMPackage(tt.in); got != tt.npm {
			t.Errorf("NPMPackage(%q) = %q, want %q", tt.in, got, tt.npm)
		}
		if got := PythonLocal(tt.in); got != tt.py {
			t.Errorf("PythonLocal(%q) = %q, want %q", tt.in, got, tt.py)
		}
	}
}

// All must agree with the single-form functions it stands in for.
func TestAllMatchesForms(t *testing.T) {
	for _, name := range []string{"auth_failed", "auth-failed", "TOOL_RATE_LIMITED", "NotFound", "http_status",
		"invalid_code_mode_id", "type", "string", "class", "none", "None", "true", "2fa_required", "", "_", "a.b c", "HTTPServerError", "x9_y", "self", "crate",
		"utf8_id", "a1b2", "9lives", "__a__b", "a..b", " a b ", "x-", "élan_vital", "ßtraße", "tool_http_2", "2", "e", "message", "str"} {
		got := All(name)
		want := Forms{GoExported(name), GoLocal(name), TSType(name), TSLocal(name), TSConst(name), PythonLocal(name), PythonConst(name),
			RustType(name), RustLocal(name), RustConst(name)}
		if got != want {
			t.Errorf("All(%q) = %+v, want %+v", name, got, want)
		}
	}
}

// FuzzAll holds All to the single-form functions on any name (make fuzz;
// make test runs the seeds).
func FuzzAll(f *testing.F) {
	for _, s := range []string{"auth_failed", "HTTPServerError", "2fa_required", "a1b2", "élan", "self", "type", "x__y-z.w v"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		got := All(name)
		want := Forms{GoExported(name), GoLocal(name), TSType(name), TSLocal(name), TSConst(name), PythonLocal(name), PythonConst(name),
			RustType(name), RustLocal(name), RustConst(name)}
		if got != want {
			t.Errorf("All(%q) = %+v, want %+v", name, got, want)
		}
	})
}

// All writes the forms of a snake_case name into one string: loading a
// contract derives them for every name it declares.
func TestAllAllocations(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { All("request_rejected_12") }); n > 2 {
		t.Errorf("All allocates %v times a name, want at most 2", n)
	}
}

// The escapes the table drives (issue 15): every Python builtin, not a
// handful, and TypeScript parameters named like what a constructor's body
// calls.
func TestReservedEscapes(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{PythonLocal("classmethod"), "classmethod_"}, // shadowed @classmethod in the Envelope dataclass
		{RustLocal("type"), "type_"},                 // a keyword: no raw identifier, r#self would not exist
		{RustLocal("self"), "self_"},
		{RustLocal("message"), "message_"}, // the constructors' own parameter
		{RustType("self"), "Self_"},
		{RustType("string"), "String"}, // a type name: emitters pick a free name for structs
		{RustLocal("2fa"), "x_2_fa"},
		{PythonLocal("all"), "all_"},
		{PythonLocal("str"), "str_"},
		{PythonLocal("match"), "match_"},
		{PythonLocal("message"), "message"}, // a constructor local: the loader rejects the field instead
		{TSLocal("opts"), "opts"},           // the member keeps its name...
		{TSParam(TSLocal("opts")), "opts_"}, // ...the parameter does not
		{TSParam(TSLocal("new_envelope")), "newEnvelope_"},
		{TSParam(TSLocal("default")), "default_"},
		{TSLocal("to_string"), "toString"}, // an Object.prototype member: the loader rejects it
		{GoLocal("e"), "e_"},
		{GoLocal("clear"), "clear_"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestFreeName(t *testing.T) {
	taken := map[string]bool{"Lookup": true, "LookupFields": true, "LookupFields2": true}
	for _, tt := range []struct{ base, suffix, want string }{
		{"Limits", "Fields", "Limits"},
		{"Lookup", "Fields", "LookupFields3"},
		{"Lookup", "", "Lookup2"},
	} {
		if got := FreeName(tt.base, tt.suffix, func(s string) bool { return taken[s] }); got != tt.want {
			t.Errorf("FreeName(%q, %q) = %q, want %q", tt.base, tt.suffix, got, tt.want)
		}
	}
}

// Each row lists a word once, and the classes mean one thing per language.
func TestTableRows(t *testing.T) {
	for _, r := range append(reserved, packageNames...) {
		seen := map[string]bool{}
		for _, w := range strings.Fields(r.words) {
			if seen[w] {
				t.Errorf("%s %s lists %q twice", r.lang, r.class, w)
			}
			seen[w] = true
		}
		if len(seen) == 0 {
			t.Errorf("%s %s is empty", r.lang, r.class)
		}
	}
	if !Is(TypeScript, ObjectMember, "constructor") || Is(Go, ObjectMember, "constructor") || !Is(Python, Package, "new_envelope") {
		t.Error("Is does not read the table")
	}
	for _, w := range []struct{ prefix, id string }{{"new_", "envelope"}, {"new", "_envelope"}, {"", "new_envelope"}, {"new_", "envelopes"}, {"x", "y"}} {
		if IsJoined(Python, Package, w.prefix, w.id) != Is(Python, Package, w.prefix+w.id) {
			t.Errorf("IsJoined(%q, %q) is not Is of the joined word", w.prefix, w.id)
		}
	}
}
