package external

import (
	"context"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/chbench/chbench/internal/exampleprog"
)

// cpuTime returns the CPU time this process (chbench's side, not the
// program's) has used so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchLocate measures LocateKeys of 16,384 keys on 10 nodes through the
// program of cfg. It reports ns/key (wall time per key, the program's work
// included) and cpu-ns/key (the CPU time of chbench's own process per key:
// escaping, writing, reading and parsing, the protocol's overhead).
func benchLocate(b *testing.B, cfg Config) {
	p, err := Start(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	nodes := defaultNodes(b, 10)
	l, err := p.New(nodes)
	if err != nil {
		b.Fatal(err)
	}
	ks := keys(b, 16384, 1)
	owners := make([]int, len(ks))
	b.ReportAllocs()
	cpu0 := cpuTime(b)
	for b.Loop() {
		if err := l.LocateKeys(ks, owners); err != nil {
			b.Fatal(err)
		}
	}
	perKey := float64(b.N) * float64(len(ks))
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/perKey, "ns/key")
	b.ReportMetric(float64((cpuTime(b)-cpu0).Nanoseconds())/perKey, "cpu-ns/key")
}

// BenchmarkLocateKeys is chbench's cost per key of a placement in another
// process: against a trivial responder (the test binary answering the
// first node for every key) at several batch sizes, so that cpu-ns/key is
// the protocol's overhead alone, and against the shipped examples, whose
// ns/key is a lookup in C and in Python for comparison.
func BenchmarkLocateKeys(b *testing.B) {
	for _, batch := range []int{16, 64, 256, 1024, 4096, 16384} {
		b.Run("responder=go-node0/batch="+strconv.Itoa(batch), func(b *testing.B) {
			cfg := helper(b, "node0")
			cfg.Batch = batch
			benchLocate(b, cfg)
		})
	}
	b.Run("responder=c-jump/batch=4096", func(b *testing.B) {
		benchLocate(b, Config{Args: []string{exampleprog.BuildC(b, "examples/c/jump.c")}})
	})
	b.Run("responder=python-ring/batch=4096", func(b *testing.B) {
		benchLocate(b, Config{Args: []string{exampleprog.Python(b), exampleprog.Path(b, "examples/python/ring.py")}})
	})
}
