package contract

// This file is the specification of a classifier: what every generated
// Classify<Name> (Go, TypeScript, Python) computes. internal/genvectors
// writes the conformance vectors with it, and the loader runs it to check
// that classifiers keep the agreements the contract declares.

// Upstream is a classifier's input: the HTTP status (0 for none), the
// transport failure ("" for none) and the upstream's error text.
type Upstream struct {
	Status  int
	Failure string
	Text    string
}

// Classified is a classifier's answer.
type Classified struct {
	Kind    string
	Breaker bool
	Rule    int // from 1; 0 for the default
}

// Classify is the first rule whose conditions all hold, else the default.
// Text matches whole words, ignoring ASCII case.
func (cl *Classifier) Classify(u Upstream) Classified {
	lower := []byte(u.Text)
	for i, c := range lower {
		if c >= 'A' && c <= 'Z' {
			lower[i] = c + 'a' - 'A'
		}
	}
	for i, r := range cl.Rules {
		if r.matches(u.Status, u.Failure, string(lower)) {
			return Classified{r.Kind.Name, r.Breaker, i + 1}
		}
	}
	return Classified{cl.Default.Name, cl.Default.Breaker, 0}
}

func (r *Rule) matches(status int, failure, lower string) bool {
	if len(r.Statuses) > 0 {
		ok := false
		for _, s := range r.Statuses {
			ok = ok || (status >= s.From && status <= s.To)
		}
		if !ok {
			return false
		}
	}
	if r.AnyFailure && failure == "" {
		return false
	}
	if len(r.Failures) > 0 {
		ok := false
		for _, f := range r.Failures {
			ok = ok || string(f) == failure
		}
		if !ok {
			return false
		}
	}
	if len(r.Text) > 0 {
		ok := false
		for _, w := range r.Text {
			ok = ok || wordIn(lower, w)
		}
		if !ok {
			return false
		}
	}
	return true
}

func wordIn(lower, w string) bool {
	word := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' }
	for i := 0; i+len(w) <= len(lower); i++ {
		if lower[i:i+len(w)] == w && (i == 0 || !word(lower[i-1])) && (i+len(w) == len(lower) || !word(lower[i+len(w)])) {
			return true
		}
	}
	return false
}
