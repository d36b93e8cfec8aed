package targets

import "sync"

// Shared holds what several emitters of one run derive from the contract
// (its example envelopes, its runtime tables), built once by the first
// emitter that asks and handed to every other: generate sets
// Options.Shared for the run's emitters, which run side by side. What it
// holds is read, never changed, by every emitter (generate's
// TestSharedValuesStayUnchanged compares them after a run with values built
// afresh). Without it (a nil Shared) each asker builds its own.
type Shared struct {
	mu sync.Mutex
	m  map[any]*sharedValue
}

type sharedValue struct {
	once sync.Once
	v    any
}

// NewShared returns an empty Shared.
func NewShared() *Shared { return &Shared{m: map[any]*sharedValue{}} }

// Derive returns the value under key in s, built by build on the first
// call; with a nil s it returns build(). The key names what is built and
// from which contract (a type of the asking package holding the
// contract's pointer), so that a Shared reused for another contract
// cannot answer with the first one's.
func Derive[T any](s *Shared, key any, build func() T) T {
	if s == nil {
		return build()
	}
	s.mu.Lock()
	e := s.m[key]
	if e == nil {
		e = &sharedValue{}
		s.m[key] = e
	}
	s.mu.Unlock()
	e.once.Do(func() { e.v = build() })
	return e.v.(T)
}

// Each calls f with every value s holds.
func (s *Shared) Each(f func(key, v any)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, e := range s.m {
		f(k, e.v)
	}
}
