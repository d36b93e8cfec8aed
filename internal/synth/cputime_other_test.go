//go:build !unix

package synth_test

import "time"

func cpuTime() (time.Duration, bool) { return 0, false }
