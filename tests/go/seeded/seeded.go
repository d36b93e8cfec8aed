// Package seeded is the random stream of the differential generators
// (sanitizediff, readerdiff): a PCG-style generator written out here, so
// that the cases of a seed never change with the Go release, and each
// generator salts the seed to keep a stream of its own.
package seeded

// RNG is a seeded stream of pseudo-random numbers.
type RNG struct{ state, inc uint64 }

// New returns the stream of seed under salt.
func New(seed, salt uint64) *RNG {
	r := &RNG{inc: seed<<1 | 1}
	r.next()
	r.state += seed ^ salt
	r.next()
	return r
}

func (r *RNG) next() uint32 {
	old := r.state
	r.state = old*6364136223846793005 + r.inc
	x := uint32(((old >> 18) ^ old) >> 27)
	rot := uint32(old >> 59)
	return x>>rot | x<<((-rot)&31)
}

// Intn returns 0..n-1 (n >= 1).
func (r *RNG) Intn(n int) int {
	v := uint64(r.next())<<32 | uint64(r.next())
	return int(v % uint64(n))
}

// Between returns lo..hi inclusive.
func (r *RNG) Between(lo, hi int) int { return lo + r.Intn(hi-lo+1) }

// Chance reports true percent times in a hundred.
func (r *RNG) Chance(percent int) bool { return r.Intn(100) < percent }

// Pick returns an element of list (not empty).
func Pick[T any](r *RNG, list []T) T { return list[r.Intn(len(list))] }
