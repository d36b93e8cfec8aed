package agenterror_test

import (
	"strings"
	"testing"

	"github.com/errgen/errgen/gen/go/agenterror"
)

// labbyRow is labby's classification of a kind (reference/labby.md): origin,
// recovery action and same_arguments, side effects from the origin.
type labbyRow struct{ origin, action, same string }

// labbyTable is labby's classification table, row by row.
var labbyTable = func() map[agenterror.Kind]labbyRow {
	m := map[agenterror.Kind]labbyRow{}
	add := func(kinds string, r labbyRow) {
		for _, k := range strings.Fields(kinds) {
			m[agenterror.Kind(k)] = r
		}
	}
	add("missing_param invalid_param validation_failed invalid_hint conflict", labbyRow{"validation", "revise_and_retry", "discouraged"})
	add("path_traversal symlink_rejected invalid_encoding ssrf_blocked relay_invalid_target", labbyRow{"validation", "inspect_and_escalate", "discouraged"})
	add("content_too_large", labbyRow{"validation", "reduce_work", "never"})
	add("invalid_code_mode_id", labbyRow{"validation", "rediscover", "never"})
	add("forbidden permission_denied", labbyRow{"policy", "do_not_retry", "never"})
	add("confirmation_required", labbyRow{"policy", "confirm", "never"})
	add("auth_failed auth_required oauth_needs_reauth", labbyRow{"policy", "reauthenticate", "never"})
	add("rate_limited queue_saturated", labbyRow{"budget", "retry_later", "conditional"})
	add("quota_exceeded budget_exceeded call_budget_exceeded result_too_large artifact_too_large snippet_budget_exceeded snippet_resolve_limit", labbyRow{"budget", "reduce_work", "never"})
	add("unknown_action unknown_tool unknown_upstream unknown_instance ambiguous_tool not_found snippet_not_found", labbyRow{"discovery", "rediscover", "never"})
	add("tool_error", labbyRow{"tool_execution", "revise_and_retry", "discouraged"})
	add("upstream_error network_error timeout bad_gateway service_unavailable provider_unavailable provider_timeout not_connected connection_error relay_forwarder_init_failed", labbyRow{"upstream_transport", "retry_later", "conditional"})
	add("bridge_transport_error", labbyRow{"bridge", "start_dependency", "conditional"})
	add("internal_error server_error decode_error invalid_provider_output", labbyRow{"runtime", "inspect_and_escalate", "discouraged"})
	add("cancelled", labbyRow{"runtime", "do_not_retry", "never"})
	return m
}()

// labbySideEffects is the side effects labby derives from an origin.
var labbySideEffects = map[string]string{
	"validation": "none_expected", "policy": "none_expected", "budget": "none_expected", "discovery": "none_expected",
	"tool_execution": "possible", "upstream_transport": "possible",
	"runtime": "unknown", "code_mode": "unknown", "bridge": "unknown",
}

// labbyHTTP is labby's broad HTTP mapping (seed 000) applied to the kinds
// each rule covers.
var labbyHTTP = func() map[agenterror.Kind]int {
	m := map[agenterror.Kind]int{}
	add := func(status int, kinds string) {
		for _, k := range strings.Fields(kinds) {
			m[agenterror.Kind(k)] = status
		}
	}
	add(401, "auth_failed auth_required oauth_needs_reauth oauth_state_invalid oauth_resource_mismatch oauth_issuer_mismatch oauth_unsupported_method") // authentication failure
	add(403, "forbidden permission_denied")                                                                                                             // forbidden scope/action
	add(404, "unknown_action unknown_instance not_found unknown_upstream unknown_tool snippet_not_found")                                               // unknown resource
	add(409, "conflict restart_required stale_suggestion merge_write_conflict")                                                                         // conflict/restart/stale state
	add(422, "missing_param invalid_param validation_failed invalid_hint confirmation_required ssrf_blocked path_traversal symlink_rejected invalid_encoding relay_invalid_target invalid_code_mode_id")
	add(413, "content_too_large response_too_large artifact_too_large result_too_large") // payload limits
	add(429, "rate_limited queue_saturated")                                             // rate/queue limits
	add(502, "upstream_error bad_gateway network_error not_connected connection_error unexpected_response dns_error connection_refused cancelled")
	add(503, "service_unavailable provider_unavailable bridge_transport_error relay_forwarder_init_failed")
	add(504, "timeout provider_timeout")
	add(500, "internal_error decode_error server_error invalid_provider_output") // unknown/internal kind
	return m
}()

// listedHTTP are the statuses docs/differences.md lists as differences.
var listedHTTP = map[agenterror.Kind]int{
	"server_error": 502, "invalid_provider_output": 502,
	"oauth_state_invalid":     400,
	"oauth_resource_mismatch": 502, "oauth_issuer_mismatch": 502, "oauth_unsupported_method": 502,
}

// seedSilentHTTP are kinds none of labby's broad rules names: a budget, a
// quota, an ambiguous name, a missing workspace, a completed tool error.
var seedSilentHTTP = map[agenterror.Kind]bool{
	"ambiguous_tool": true, "workspace_not_configured": true, "tool_error": true, "quota_exceeded": true, "budget_exceeded": true,
	"call_budget_exceeded": true, "snippet_budget_exceeded": true, "snippet_resolve_limit": true,
}

// TestLabbyTableAndListedDifferences: every kind of the reference contract
// classifies as labby's table says (kinds outside it as labby's catch-all),
// with the side effects its origin gives and the status labby's HTTP rules
// give, except the differences docs/differences.md lists with their reasons.
// A new difference fails here until it is listed there too.
func TestLabbyTableAndListedDifferences(t *testing.T) {
	catchAll := labbyRow{"runtime", "inspect_and_escalate", "discouraged"}
	// The kinds docs/differences.md lists, and what errgen gives each.
	classified := map[agenterror.Kind]labbyRow{
		"oauth_state_invalid":      {"policy", "reauthenticate", "never"},
		"oauth_resource_mismatch":  {"policy", "inspect_and_escalate", "never"},
		"oauth_issuer_mismatch":    {"policy", "inspect_and_escalate", "never"},
		"oauth_unsupported_method": {"policy", "inspect_and_escalate", "never"},
		"restart_required":         {"validation", "start_dependency", "conditional"},
		"stale_suggestion":         {"validation", "rediscover", "never"},
		"merge_write_conflict":     {"validation", "revise_and_retry", "never"},
		"workspace_not_configured": {"validation", "inspect_and_escalate", "conditional"},
		"response_too_large":       {"budget", "reduce_work", "never"},
		"unexpected_response":      {"upstream_transport", "inspect_and_escalate", "discouraged"},
		"dns_error":                {"upstream_transport", "retry_later", "conditional"},
		"connection_refused":       {"upstream_transport", "retry_later", "conditional"},
	}
	sideEffects := map[agenterror.Kind]string{
		"relay_forwarder_init_failed": "none_expected",
		"call_budget_exceeded":        "possible", "snippet_budget_exceeded": "possible",
		"snippet_resolve_limit": "possible", "artifact_too_large": "possible",
		// labby's newer revisions: result_too_large and budget_exceeded are possible.
		"result_too_large": "possible", "budget_exceeded": "possible",
		"dns_error": "none_expected", "connection_refused": "none_expected",
		"response_too_large": "possible",
	}
	for _, k := range agenterror.Kinds() {
		c := agenterror.Lookup(k)
		want, inTable := labbyTable[k]
		if !inTable {
			want = catchAll
		}
		if w, ok := classified[k]; ok {
			if inTable {
				t.Errorf("%s is in labby's table; the listed difference is stale", k)
			}
			want = w
		}
		if got := (labbyRow{string(c.Origin), string(c.Action), string(c.SameArguments)}); got != want {
			t.Errorf("%s classifies as %v; labby (with the listed differences) says %v: list the difference in docs/differences.md", k, got, want)
		}
		se := labbySideEffects[want.origin]
		if w, ok := sideEffects[k]; ok {
			se = w
		}
		if string(c.SideEffects) != se {
			t.Errorf("%s: side effects %s, want %s: list the difference in docs/differences.md", k, c.SideEffects, se)
		}
		status, covered := labbyHTTP[k]
		if w, ok := listedHTTP[k]; ok {
			status, covered = w, true
		}
		if _, silent := seedSilentHTTP[k]; !covered && !silent {
			t.Errorf("%s is under none of labby's HTTP rules: add it to labbyHTTP, listedHTTP (and docs/differences.md) or seedSilentHTTP", k)
		}
		if covered && c.HTTPStatus != status {
			t.Errorf("%s answers %d; labby's rule (with the listed differences) says %d: list the difference in docs/differences.md", k, c.HTTPStatus, status)
		}
	}
	if c := agenterror.Lookup("no_such_kind"); (labbyRow{string(c.Origin), string(c.Action), string(c.SameArguments)}) != catchAll || c.SideEffects != "unknown" || c.HTTPStatus != 500 {
		t.Errorf("the catch-all: %+v", c)
	}
	// The breaker view: labby's six kinds, and rate_limited for a 429 (listed).
	breakerKinds := map[agenterror.Kind]bool{"auth_failed": true, "auth_required": true, "timeout": true, "dns_error": true, "connection_refused": true, "connection_error": true}
	for status := 100; status <= 599; status++ {
		got := agenterror.ClassifyBreaker(agenterror.Upstream{Status: status})
		if !breakerKinds[got.Kind] && !(status == 429 && got.Kind == agenterror.KindRateLimited) {
			t.Errorf("the breaker view gives %s for %d, not one of labby's six kinds", got.Kind, status)
		}
	}
	for _, f := range []agenterror.Failure{"timeout", "dns", "connection_refused", "connection_reset", "tls", "redirect_blocked", "cancelled", "response_too_large", "malformed_response"} {
		if got := agenterror.ClassifyBreaker(agenterror.Upstream{Failure: f}); !breakerKinds[got.Kind] {
			t.Errorf("the breaker view gives %s for %s, not one of labby's six kinds", got.Kind, f)
		}
	}
}
