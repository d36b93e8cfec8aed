package contract

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestReason(t *testing.T) {
	cases := map[string]string{
		"rate_limited":                  "RATE_LIMITED",
		"RATE_LIMITED":                  "RATE_LIMITED",
		"AlreadyExists":                 "ALREADY_EXISTS",
		"HTTPError":                     "HTTP_ERROR",
		"http2_error":                   "HTTP2_ERROR",
		"auth-v2Failed":                 "AUTH_V2_FAILED",
		"ok":                            "KIND_OK",
		"7":                             "KIND_7",
		"9lives":                        "KIND_9LIVES",
		"":                              "KIND",
		"--":                            "KIND",
		"a.b c":                         "A_B_C",
		"über_error":                    "BER_ERROR",
		strings.Repeat("ab_", 40) + "z": strings.TrimRight(strings.Repeat("AB_", 21), "_"),
	}
	re := regexp.MustCompile(ReasonPattern)
	for kind, want := range cases {
		got := Reason(kind)
		if got != want {
			t.Errorf("Reason(%q) = %q, want %q", kind, got, want)
		}
		if !re.MatchString(got) || len(got) > ReasonMaxLength {
			t.Errorf("Reason(%q) = %q breaks AIP-193's pattern or length", kind, got)
		}
	}
}

func TestGRPCDefaults(t *testing.T) {
	for status := 400; status <= 599; status++ {
		code := DefaultGRPCCode(status)
		if code == nil {
			t.Fatalf("no default for %d", status)
		}
		if GRPCOdd(code, status) {
			t.Errorf("the default %s of %d is odd", code.Name, status)
		}
		if code.HTTP/100 != status/100 {
			t.Errorf("the default %s (HTTP %d) of %d crosses classes", code.Name, code.HTTP, status)
		}
		if documentedStatus(status) && code.HTTP != status {
			t.Errorf("the default %s of documented status %d is documented for %d", code.Name, status, code.HTTP)
		}
	}
	for _, tc := range []struct {
		code   string
		status int
		odd    bool
	}{
		{"ALREADY_EXISTS", 409, false}, {"FAILED_PRECONDITION", 400, false}, {"DATA_LOSS", 500, false},
		{"CANCELLED", 504, true}, {"NOT_FOUND", 400, true}, {"INVALID_ARGUMENT", 413, false},
		{"UNKNOWN", 502, false}, {"INVALID_ARGUMENT", 502, true}, {"DEADLINE_EXCEEDED", 408, true},
	} {
		if got := GRPCOdd(GRPCCodeNamed(tc.code), tc.status); got != tc.odd {
			t.Errorf("GRPCOdd(%s, %d) = %v, want %v", tc.code, tc.status, got, tc.odd)
		}
	}
}

func TestOddGRPCWarns(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "invalid", "unknown_kind_key", "kinds.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(data), "    orgin: upstream\n    http: 504\n", "    origin: upstream\n    http: 504\n    grpc: CANCELLED\n", 1)
	src = strings.Replace(src, "    http: 500\n", "    http: 500\n    grpc: DATA_LOSS\n", 1)
	c, err := Load("kinds.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0].String(), `kind "timeout": gRPC code CANCELLED is documented for HTTP 499, not the 504 this has`) {
		t.Fatalf("warnings = %v, want one for timeout's CANCELLED", c.Warnings)
	}
	if k := c.Kind("timeout"); k.GRPC.Name != "CANCELLED" || k.Reason != "TIMEOUT" {
		t.Errorf("timeout: %s %s", k.GRPC.Name, k.Reason)
	}
	if k := c.Kind("internal_error"); k.GRPC.Name != "DATA_LOSS" {
		t.Errorf("internal_error: %s", k.GRPC.Name)
	}
	if c.Fallback.GRPC == nil || c.AIP193.Domain != c.Name {
		t.Errorf("fallback code %v, domain %q", c.Fallback.GRPC, c.AIP193.Domain)
	}
}
