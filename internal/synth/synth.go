// Package synth builds synthetic error contracts of any size from a template,
// for measuring how errgen scales with the number of kinds. The contracts are
// valid, deterministic and shaped like the reference contract: every section
// is present, every part grows in proportion to the number of kinds (groups,
// retired names, kinds with kind-specific fields), and every kind-specific
// field comes from a fixed pool shared across kinds, as in real contracts.
package synth

import (
	"bytes"
	"fmt"
	"text/template"
)

// KindsPerGroup is how many kinds share a documentation group.
const KindsPerGroup = 50

// Contract returns the YAML of a valid contract with n live kinds (n ≥ 1).
func Contract(n int) []byte {
	if n < 1 {
		panic("synth: a contract needs at least one kind")
	}
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, view(n)); err != nil {
		panic(err) // the template and its view are fixed; a failure is a bug here
	}
	return buf.Bytes()
}

// KindName is the name of the i-th kind (0-based) of every synthetic contract.
func KindName(i int) string {
	return fmt.Sprintf("%s_%s_%d", subjects[i%len(subjects)], failures[(i/len(subjects))%len(failures)], i)
}

var (
	subjects = []string{"request", "upstream", "session", "payload", "tool", "quota", "token", "resource", "sandbox", "index"}
	failures = []string{"rejected", "unavailable", "expired", "too_large", "failed", "exhausted", "missing", "conflict", "timeout", "corrupt"}
)

type origin struct {
	Name, SideEffects, Log string
	Breaker                bool
}

// origins and the recovery a kind of each gets; kinds cycle through them.
var origins = []origin{
	{"validation", "none_expected", "warn", false},
	{"policy", "none_expected", "warn", false},
	{"budget", "none_expected", "warn", false},
	{"upstream_transport", "possible", "warn", true},
	{"runtime", "unknown", "error", false},
}

type recovery struct{ Action, Same string }

var recoveries = map[string][]recovery{
	"validation":         {{"revise_and_retry", "discouraged"}, {"do_not_retry", "never"}},
	"policy":             {{"reauthenticate", "conditional"}, {"confirm", "conditional"}, {"do_not_retry", "never"}},
	"budget":             {{"retry_later", "conditional"}, {"reduce_work", "discouraged"}},
	"upstream_transport": {{"retry_later", "safe"}, {"start_dependency", "conditional"}, {"rediscover", "never"}},
	"runtime":            {{"inspect_and_escalate", "discouraged"}},
}

var statuses = map[string][]int{
	"validation":         {400, 422},
	"policy":             {401, 403, 409},
	"budget":             {413, 429},
	"upstream_transport": {502, 503, 504},
	"runtime":            {500},
}

// fields is the pool kind-specific fields come from: one in four kinds
// carries one, one in twelve a second.
var fields = []struct{ Name, Def string }{
	{"param", "{type: string, required: true, description: The offending parameter.}"},
	{"valid_choices", "{type: array, items: string, description: The values accepted.}"},
	{"limit", "{type: integer, description: The limit that was reached.}"},
	{"used", "{type: number, description: How much of the limit was used.}"},
	{"required_scopes", "{type: array, items: string, required: true, description: The scopes the action requires.}"},
	{"partial", "{type: boolean, description: Whether part of the work completed.}"},
	{"details", "{type: object, description: Structured details of the failure.}"},
	{"hint", "{type: string, description: The closest valid alternative.}"},
}

type kindView struct {
	Name, Group, Origin, Action, Same string
	Index, HTTP                       int
	Fields                            []string
}

type retiredView struct{ Name, ReplacedBy string }

type contractView struct {
	N       int
	Groups  []int
	Kinds   []kindView
	Retired []retiredView
	// Inbound rules map statuses to the first kinds of matching origins.
	Inbound []string
	// ToolResult is the kind a completed tool result with isError maps to.
	ToolResult, Default string
}

func view(n int) contractView {
	v := contractView{N: n}
	for g := 0; g*KindsPerGroup < n; g++ {
		v.Groups = append(v.Groups, g)
	}
	firstByStatus := map[int]string{}
	var statusOrder []int
	for i := 0; i < n; i++ {
		o := origins[i%len(origins)]
		rs := recoveries[o.Name]
		r := rs[(i/len(origins))%len(rs)]
		ss := statuses[o.Name]
		k := kindView{
			Name: KindName(i), Index: i, Group: fmt.Sprintf("group_%d", i/KindsPerGroup),
			Origin: o.Name, Action: r.Action, Same: r.Same, HTTP: ss[(i/len(origins))%len(ss)],
		}
		if i%4 == 1 {
			k.Fields = append(k.Fields, fields[(i/4)%len(fields)].Name+": "+fields[(i/4)%len(fields)].Def)
		}
		if i%12 == 3 {
			f := fields[(i/12+3)%len(fields)]
			k.Fields = append(k.Fields, f.Name+": "+f.Def)
		}
		if len(k.Fields) == 2 && k.Fields[0] == k.Fields[1] {
			k.Fields = k.Fields[:1]
		}
		if _, ok := firstByStatus[k.HTTP]; !ok {
			firstByStatus[k.HTTP] = k.Name
			statusOrder = append(statusOrder, k.HTTP)
		}
		if v.ToolResult == "" && o.Name == "upstream_transport" {
			v.ToolResult = k.Name
		}
		if v.Default == "" && o.Name == "runtime" {
			v.Default = k.Name
		}
		v.Kinds = append(v.Kinds, k)
	}
	if v.ToolResult == "" {
		v.ToolResult = v.Kinds[0].Name
	}
	if v.Default == "" {
		v.Default = v.Kinds[0].Name
	}
	for _, s := range statusOrder {
		v.Inbound = append(v.Inbound, fmt.Sprintf("{status: %d, kind: %s}", s, firstByStatus[s]))
	}
	for i := 0; i*100 < n; i++ {
		v.Retired = append(v.Retired, retiredView{Name: fmt.Sprintf("legacy_failure_%d", i), ReplacedBy: KindName(i * 100)})
	}
	return v
}

var tmpl = template.Must(template.New("contract").Parse(`# A synthetic contract of {{.N}} kinds, built by internal/synth.
contract:
  name: synth-error
  version: 1
  naming: snake_case
  description: >-
    A synthetic contract of {{.N}} kinds for measuring how errgen scales. Every
    section of the reference contract is present and grows with the kinds.

origins:
  validation:
    description: The request itself was rejected before any work started.
    side_effects: none_expected
    log: warn
  policy:
    description: A rule about who may do what stopped the call before it ran.
    side_effects: none_expected
    log: warn
  budget:
    description: A limit on rate, size, quota or cost was reached.
    side_effects: none_expected
    log: warn
  upstream_transport:
    description: No complete answer came back from an upstream service.
    side_effects: possible
    log: warn
    breaker: true
  runtime:
    description: Something inside the serving process went wrong.
    side_effects: unknown
    log: error

recovery_actions:
  revise_and_retry:
    description: Change the arguments according to the message and call again.
    step: revise
  retry_later:
    description: Wait (at least retry_after_ms when present) and try again.
    step: retry
  reauthenticate:
    description: Obtain fresh credentials, then call again.
    step: reauthenticate
  confirm:
    description: Ask the user to approve the action, then call again.
    step: confirm
  rediscover:
    description: List what exists now and choose again.
    step: rediscover
  reduce_work:
    description: Ask for less or wait for the budget to reset.
    step: reduce_work
  start_dependency:
    description: Start the service this call depends on, then call again.
    step: start_dependency
  inspect_and_escalate:
    description: Stop retrying blindly and hand the problem to an operator.
    step: escalate
  do_not_retry:
    description: The call cannot succeed as requested.
    step: stop

same_arguments:
  safe:
    description: Repeating the identical call cannot cause harm and may succeed.
    retry: true
  conditional:
    description: Repeating the identical call may succeed once the condition in the guidance changes.
    retry: true
  discouraged:
    description: Repeating the identical call is unlikely to help; change something first.
    retry: false
    upgrade_to: conditional
  never:
    description: Repeating the identical call will fail the same way or cause harm.
    retry: false

side_effects:
  none_expected:
    description: The failure happened before anything was changed.
  possible:
    description: Work may have happened before the failure.
  unknown:
    description: Nothing can be said about what happened.

groups:
{{- range .Groups}}
  group_{{.}}:
    title: Group {{.}}
    description: Synthetic documentation group number {{.}}.
{{- end}}

context_fields:
  service:
    type: string
    description: The service that reported the failure.
  tool:
    type: string
    description: The tool whose call failed.
  upstream:
    type: string
    description: The upstream server the call was routed to.
  cause:
    type: string
    description: A sanitized, bounded account of the underlying cause.
  evidence:
    type: object
    description: Structured observations that support the diagnosis.

kinds:
{{- range .Kinds}}
  {{.Name}}:
    group: {{.Group}}
    description: Synthetic failure number {{.Index}}, raised when the {{.Origin}} layer rejects a call.
    origin: {{.Origin}}
    http: {{.HTTP}}
    recovery:
      action: {{.Action}}
      same_arguments: {{.Same}}
      guidance: Read the message of failure {{.Index}}, then follow the {{.Action}} advice before calling again.
{{- if .Fields}}
    fields:
{{- range .Fields}}
      {{.}}
{{- end}}
{{- end}}
{{- end}}

fallback:
  origin: runtime
  side_effects: unknown
  http: 500
  log: error
  recovery:
    action: inspect_and_escalate
    same_arguments: discouraged
    guidance: This kind is not in the contract you know; read the message and escalate if it persists.

retired:
{{- range .Retired}}
  {{.Name}}:
    replaced_by: {{.ReplacedBy}}
    reason: Merged into {{.ReplacedBy}}.
{{- end}}

inbound:
  tool_result: {{.ToolResult}}
  classifiers:
    model:
      description: The model-facing view of upstream failures.
      default: {{.Default}}
      rules:
{{- range .Inbound}}
        - {{.}}
{{- end}}

retry:
  initial_ms: 100
  max_ms: 30000
  multiplier: 2
  jitter: 0.2
  max_attempts: 5
`))
