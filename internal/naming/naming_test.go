package naming

import "testing"

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
		"invalid_code_mode_id", "type", "string", "class", "none", "None", "true", "2fa_required", "", "_", "a.b c", "HTTPServerError", "x9_y"} {
		got := All(name)
		want := Forms{GoExported(name), GoLocal(name), TSType(name), TSLocal(name), TSConst(name), PythonLocal(name), PythonConst(name)}
		if got != want {
			t.Errorf("All(%q) = %+v, want %+v", name, got, want)
		}
	}
}
