package agenterror_test

import (
	"encoding/json"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/errgen/errgen/tests/go/hostile"
)

// The decoders' memory benchmark (issue 28): each hostile document of
// package hostile (64 MiB in make bench; ERRGEN_DECODE_MEM_SIZE=<bytes>
// sets the size, and make test's ERRGEN_BENCH_SMOKE runs 64 KiB) decoded by
// DecodeOptions{MaxBytes: -1}.Unmarshal (UnmarshalJSON with no size
// limit), reported as multiples of the input:
//
//   - peak-x: the most heap the decode held at once, above what was live
//     before it (the heap's object bytes, sampled every 200 µs while it runs,
//     and once at its end with the envelope alive);
//   - alloc-x: every byte it allocated (B/op over the input);
//   - kept-x: what the decoded envelope keeps alive after a collection.
//
// impl=encoding_json decodes the same document into a map[string]any with
// encoding/json, the baseline. Nothing asserts on a number;
// docs/benchmarks.md records a run.

// hostileSize is the size of the benchmark's documents.
func hostileSize(b *testing.B) int {
	if s := os.Getenv("ERRGEN_DECODE_MEM_SIZE"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			b.Fatalf("ERRGEN_DECODE_MEM_SIZE=%q: want a size in bytes", s)
		}
		return n
	}
	if os.Getenv("ERRGEN_BENCH_SMOKE") != "" {
		return 64 << 10
	}
	return 64 << 20
}

// heapObjects reads the bytes of the heap's objects, live or not yet swept.
func heapObjects(s []metrics.Sample) uint64 {
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func BenchmarkDecodeHostile(b *testing.B) {
	size := hostileSize(b)
	for i, s := range hostile.Shapes {
		data := hostile.Build(i, size)
		b.Run("shape="+s.Name+"/impl=errgen", func(b *testing.B) {
			measurePeak(b, data, func() any {
				e, err := noLimit.Unmarshal(data)
				if err != nil {
					b.Fatal(err)
				}
				if e.Tool != "t" || len(e.Extra) == 0 {
					b.Fatalf("decoded tool %q and %d extra members", e.Tool, len(e.Extra))
				}
				return e
			})
		})
		b.Run("shape="+s.Name+"/impl=encoding_json", func(b *testing.B) {
			measurePeak(b, data, func() any {
				var m map[string]any
				if err := json.Unmarshal(data, &m); err != nil {
					b.Fatal(err)
				}
				return m
			})
		})
	}
}

// measurePeak runs decode, which returns what it decoded, in b's loop and
// reports peak-x and kept-x.
func measurePeak(b *testing.B, data []byte, decode func() any) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak, kept uint64
	for b.Loop() {
		runtime.GC()
		base := heapObjects(sample)
		var high atomic.Uint64
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			own := []metrics.Sample{{Name: sample[0].Name}}
			t := time.NewTicker(200 * time.Microsecond)
			defer t.Stop()
			for {
				if h := heapObjects(own); h > high.Load() {
					high.Store(h)
				}
				select {
				case <-stop:
					return
				case <-t.C:
				}
			}
		}()
		v := decode()
		if h := heapObjects(sample); h > high.Load() {
			high.Store(h)
		}
		close(stop)
		<-done
		peak = max(peak, high.Load()-min(base, high.Load()))
		runtime.GC()
		now := heapObjects(sample)
		kept = now - min(base, now)
		runtime.KeepAlive(v)
	}
	b.ReportMetric(float64(peak)/float64(len(data)), "peak-x")
	b.ReportMetric(float64(kept)/float64(len(data)), "kept-x")
}
