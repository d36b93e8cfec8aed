package gendocs

import (
	"fmt"
	"log/slog"
	"net/http"
	"sort"
	"strings"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/examples"
	"github.com/errgen/errgen/internal/genschema"
)

// view is what the templates read. Strings are raw; templates escape them
// with md, cell or code where they print them.
type view struct {
	Header      string
	C           *contract.Contract
	Wire        contract.Wire
	Envelope    []fieldRow
	Groups      []groupView
	Kinds       []kindView
	HTTP        []statusRow
	Retired     []retiredRow
	Fallback    classification
	Unknown     string // example JSON
	UnknownKind string
	Maximal     string // example JSON
	Producer    schemaRef
	Consumer    schemaRef
	Steps       []stepRow
}

type fieldRow struct {
	Name, Type string
	Doc        string // Markdown, already escaped
	Required   string // "yes", "no", or which kinds need it
}

type schemaRef struct{ File, ID string }

type classification struct {
	Origin, SideEffects, Action, SameArguments, Guidance string
	HTTP                                                 int
	Log                                                  string
	Breaker, Retryable                                   bool
}

type kindView struct {
	Name, Anchor, Description string
	Group                     string
	classification
	Fields  []fieldRow
	Example string
}

type groupView struct {
	Title, Description string
	Kinds              []kindView
}

type statusRow struct {
	Status int
	Text   string
	Kinds  []kindView
}

type retiredRow struct {
	Name, Reason       string
	ReplacedBy, Anchor string
}

// stepRow documents what an agent does for one step, with the contract's
// actions that map to it.
type stepRow struct {
	Step    string
	Actions []string
	Do      string
}

var logNames = map[slog.Level]string{slog.LevelDebug: "debug", slog.LevelInfo: "info", slog.LevelWarn: "warn", slog.LevelError: "error"}

func classify(cl *contract.Classification) classification {
	return classification{
		Origin: cl.Origin.Name, SideEffects: cl.SideEffects.Name,
		Action: cl.Recovery.Action.Name, SameArguments: cl.Recovery.SameArguments.Name,
		Guidance: cl.Recovery.Guidance, HTTP: cl.HTTP, Log: logNames[cl.Log],
		Breaker: cl.Breaker, Retryable: cl.Retryable(),
	}
}

func typeName(f *contract.Field) string {
	if f.Type == contract.TypeArray {
		return "array of " + string(f.Items)
	}
	return string(f.Type)
}

// stepAdvice is what the agent-facing page says for each step. It is the
// specification the generated decision code (NextStep) implements.
var stepAdvice = map[contract.Step]string{
	contract.StepRetry:           "Wait, then repeat the call: at least `retry_after_ms` when the envelope carries it, otherwise exponential backoff with jitter. Only when `same_arguments` permits an identical retry and attempts remain; otherwise escalate.",
	contract.StepRevise:          "Change the arguments as the message and guidance say, then call again. Never repeat the identical call unless `same_arguments` permits it.",
	contract.StepReauthenticate:  "Obtain fresh credentials or complete the authorization flow the guidance names, then call again once.",
	contract.StepConfirm:         "Show the user what the call will do, get explicit approval, then repeat it with the confirmation.",
	contract.StepRediscover:      "List what exists now (actions, tools, upstreams, resources), choose again, then call with the new choice.",
	contract.StepReduceWork:      "Ask for less: fewer items, a smaller payload, a narrower scope; or wait for the budget to reset.",
	contract.StepStartDependency: "Start or reconnect the dependency the guidance names, then call again.",
	contract.StepEscalate:        "Stop retrying. Hand the message, kind and context to an operator or the user.",
	contract.StepStop:            "Report the failure and do not repeat the call.",
}

func newView(c *contract.Contract) *view {
	w := c.Wire
	v := &view{Header: Header, C: c, Wire: w, Fallback: classify(&c.Fallback.Classification)}
	v.Producer = schemaRef{genschema.FileName(c, genschema.Producer), genschema.ID(c, genschema.Producer)}
	v.Consumer = schemaRef{genschema.FileName(c, genschema.Consumer), genschema.ID(c, genschema.Consumer)}

	v.Envelope = []fieldRow{
		{w.ContractVersion, "integer", fmt.Sprintf("The contract version, `%d`. Additive changes keep it; a semantic change bumps it.", c.Version), "yes"},
		{w.Kind, "string", "The stable machine-readable tag of the failure. Branch on it, never on the message. The set is open: see [unknown kinds](#unknown-kinds).", "yes"},
		{w.Message, "string", "A diagnosis for people and models that stays useful when every other field is discarded.", "yes"},
		{w.Origin, "string", "Where the failure arose; one of the [origins](#origins).", "yes"},
		{w.Recovery, "object", "What the caller should do next: the four fields below.", "yes"},
		{w.Recovery + "." + w.Action, "string", "One of the [recovery actions](#recovery-actions).", "yes"},
		{w.Recovery + "." + w.SameArguments, "string", "Whether repeating the identical call is safe; one of the [same_arguments values](#same-arguments).", "yes"},
		{w.Recovery + "." + w.Guidance, "string", "Free text for the caller: what exactly to do next.", "yes"},
		{w.Recovery + "." + w.RetryAfterMs, "integer ≥ 0", "The minimum wait before a retry, in milliseconds. Consumers also accept " + codes(w.RetryAfterMsAliases) + " as a fallback spelling.", "no"},
		{w.SideEffects, "string", "Whether work may already have happened; one of the [side_effects values](#side-effects).", "yes"},
	}
	for _, f := range c.ContextFields {
		v.Envelope = append(v.Envelope, fieldRow{f.Name, typeName(f), Text(f.Description), "no"})
	}
	kindsOf := map[string][]string{}
	for _, k := range c.Kinds {
		for _, f := range k.Fields {
			if f.Required {
				kindsOf[f.Name] = append(kindsOf[f.Name], k.Name)
			}
		}
	}
	for _, f := range c.KindFields {
		req := "no"
		if ks := kindsOf[f.Name]; len(ks) > 0 {
			req = "for " + strings.Join(ks, ", ")
		}
		v.Envelope = append(v.Envelope, fieldRow{f.Name, typeName(f), Text(f.Description), req})
	}

	byGroup := map[*contract.Group][]kindView{}
	byStatus := map[int][]kindView{}
	for _, k := range c.Kinds {
		kv := kindView{Name: k.Name, Anchor: Slug(k.Name), Description: k.Description, Group: k.Group.Title, classification: classify(&k.Classification),
			Example: string(examples.ForKind(c, k).JSON())}
		for _, f := range k.Fields {
			req := "no"
			if f.Required {
				req = "yes"
			}
			kv.Fields = append(kv.Fields, fieldRow{f.Name, typeName(f), Text(f.Description), req})
		}
		v.Kinds = append(v.Kinds, kv)
		byGroup[k.Group] = append(byGroup[k.Group], kv)
		byStatus[k.HTTP] = append(byStatus[k.HTTP], kv)
	}
	for _, g := range c.Groups {
		if len(byGroup[g]) > 0 {
			v.Groups = append(v.Groups, groupView{Title: g.Title, Description: g.Description, Kinds: byGroup[g]})
		}
	}
	statuses := make([]int, 0, len(byStatus))
	for s := range byStatus {
		statuses = append(statuses, s)
	}
	sort.Ints(statuses)
	for _, s := range statuses {
		v.HTTP = append(v.HTTP, statusRow{Status: s, Text: http.StatusText(s), Kinds: byStatus[s]})
	}
	for _, r := range c.Retired {
		row := retiredRow{Name: r.Name, Reason: r.Reason}
		if r.ReplacedBy != nil {
			row.ReplacedBy, row.Anchor = r.ReplacedBy.Name, Slug(r.ReplacedBy.Name)
		}
		v.Retired = append(v.Retired, row)
	}
	v.Unknown = string(examples.Unknown(c).JSON())
	v.UnknownKind = examples.UnknownKindName(c)
	v.Maximal = string(examples.Maximal(c).JSON())
	for _, s := range contract.Steps {
		row := stepRow{Step: string(s), Do: stepAdvice[s]}
		for _, a := range c.Actions {
			if a.Step == s {
				row.Actions = append(row.Actions, a.Name)
			}
		}
		v.Steps = append(v.Steps, row)
	}
	return v
}

func codes(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = Code(n)
	}
	return strings.Join(out, ", ")
}
