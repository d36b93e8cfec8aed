package contract

import "sort"

// This file holds values the loader resolves once from what a contract
// writes, so that every emitter prints the same answer instead of deriving
// it again in its own words: log level names, the kinds by HTTP status, the
// envelope's whole field list. (A rule's breaker is resolved in
// Rule.Breaker, a kind's in Classification.Breaker.) A guard test
// (resolved_guard_test.go) fails when a package outside this one derives
// them again.

// LogLevel is the level a failure is logged at, as the contract writes it.
// The name is what the docs, the conformance vectors and the TypeScript and
// Python packages print; the Go package maps it to log/slog's level of the
// same name (Level + Idents().Go: slog.LevelWarn).
type LogLevel string

const (
	LogDebug LogLevel = "debug"
	LogInfo  LogLevel = "info"
	LogWarn  LogLevel = "warn"
	LogError LogLevel = "error"
)

// LogLevels lists every log level in documentation order.
var LogLevels = []LogLevel{LogDebug, LogInfo, LogWarn, LogError}

// Idents are the identifiers the log level becomes in each language.
func (l LogLevel) Idents() Idents { return identsFor(string(l)) }

// StatusKinds is one HTTP status and the kinds that have it, in contract
// order.
type StatusKinds struct {
	Status int
	Kinds  []*Kind
}

// resolveStatuses builds Statuses and HTTPKinds from the kinds.
func (c *Contract) resolveStatuses() {
	byStatus := map[int]*StatusKinds{}
	c.Statuses, c.HTTPKinds = nil, nil
	for _, k := range c.Kinds {
		s := byStatus[k.HTTP]
		if s == nil {
			s = &StatusKinds{Status: k.HTTP}
			byStatus[k.HTTP] = s
			c.Statuses = append(c.Statuses, s)
		}
		s.Kinds = append(s.Kinds, k)
	}
	sort.Slice(c.Statuses, func(i, j int) bool { return c.Statuses[i].Status < c.Statuses[j].Status })
	for _, s := range c.Statuses {
		if len(s.Kinds) == 1 {
			c.HTTPKinds = append(c.HTTPKinds, s.Kinds[0])
		}
	}
}

// EnvelopeField returns the context or kind-specific field named name, or
// nil: the field sanitize.fields and the layout refer to by name.
func (c *Contract) EnvelopeField(name string) *Field {
	for _, f := range c.EnvelopeFields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// FieldsOf lists the fields an envelope of kind k can carry: the context
// fields, then the kind's own (EnvelopeFields holds every kind's).
func (c *Contract) FieldsOf(k *Kind) []*Field {
	return append(append([]*Field(nil), c.ContextFields...), k.Fields...)
}
