package genvectors

import (
	"strings"
	"testing"
)

func TestFoldQuick(t *testing.T) {
	texts := []string{"", "a", "A", "Bearer xyz", "abcABCabc", "x://y", "aaaab", "AaAaB", "token=1", "TOKEN", "tok", "ghp_", "GHP_x", "xGhP_"}
	for _, s := range texts {
		for _, sub := range texts {
			want := strings.Contains(strings.ToLower(s), strings.ToLower(sub))
			if got := containsASCIIFold(s, sub); got != want {
				t.Errorf("%q %q: %v want %v", s, sub, got, want)
			}
		}
	}
}
