package contract

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// The call_error section: every problem is reported at its file:line:col.
func TestCallErrorProblems(t *testing.T) {
	data, err := os.ReadFile("../../contract/kinds.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ref := string(data)
	c, err := Load("kinds.yaml", data)
	if err != nil {
		t.Fatalf("reference contract: %v", err)
	}
	ce := c.CallError
	if ce == nil || ce.Origin == nil || ce.Origin.Name != "tool_execution" || len(ce.Canonical) != 3 || ce.Evidence.MaxBlocks != 16 || len(ce.SafetyHints) != 4 {
		t.Fatalf("reference call_error read as %+v", ce)
	}
	lineOf := func(s, sub string) int { return strings.Count(s[:strings.Index(s, sub)], "\n") + 1 }
	for _, tc := range []struct{ from, to, want string }{
		{"  members: [contract_version, kind,", "  members: [kind, contract_version,", `"contract_version" is out of order`},
		{"  members: [contract_version, kind, message,", "  members: [contract_version, kind,", `members must include "message"`},
		{"    server_error: tool_error", "    server_error: tool_eror", `unknown kind "tool_eror" (did you mean "tool_error"?)`},
		{"    server_error: tool_error", "    server_eror: tool_error", `unknown kind "server_eror"`},
		{"    server_error: tool_error", "    server_error: server_error", `maps to itself`},
		{"  origins: [code_mode, tool_execution,", "  origins: [code_mode,", `origins must include "tool_execution"`},
		{"    max_blocks: 16", "    max_blocks: 0", "max_blocks must be from 1 to 1024"},
		{"    binary: [image, audio]", "    binary: [image, text]", `"text" carries text`},
		{"    read_only_hint: readOnlyHint", "    read_only_hint: read only", "must name an MCP tool annotation"},
		{"  default_message: The tool", "  default_mesage: The tool", `unknown key "default_mesage"`},
		{"  tool_result: tool_error\n", "\n", "call_error: needs inbound.tool_result"},
	} {
		if !strings.Contains(ref, tc.from) {
			t.Fatalf("the reference contract lost %q", tc.from)
		}
		src := strings.Replace(ref, tc.from, tc.to, 1)
		_, err := Load("kinds.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want a problem containing %q", tc.to, err, tc.want)
			continue
		}
		// Every problem of the section points into the section, or at its key.
		for _, line := range strings.Split(err.Error(), "\n") {
			if strings.Contains(line, tc.want) && !strings.HasPrefix(line, "kinds.yaml:") {
				t.Errorf("%q: problem without a position: %s", tc.to, line)
			}
		}
		if tc.want == "max_blocks must be from 1 to 1024" && !strings.Contains(err.Error(), "kinds.yaml:"+itoa(lineOf(src, "    max_blocks: 0"))+":17:") {
			t.Errorf("max_blocks reported at the wrong place: %v", err)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
