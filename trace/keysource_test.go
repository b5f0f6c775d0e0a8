package trace_test

import (
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/chbench/chbench/trace"
)

// A trace's keys stream as key sets: every request's key (Count times)
// dealt round robin to the sets, or each distinct key once at its first
// appearance; the same keys whatever the number of workers, and again on
// a second pass.
func TestKeySource(t *testing.T) {
	open := func() (trace.Reader, error) { return trace.Open("testdata/key-count.txt", trace.Options{}) }
	var want, distinct []string
	seen := map[string]bool{}
	f, _ := open()
	for f.Scan() {
		q := f.Record().(*trace.Request)
		for range q.Count {
			want = append(want, string(q.Key))
		}
		if !seen[string(q.Key)] {
			seen[string(q.Key)] = true
			distinct = append(distinct, string(q.Key))
		}
	}
	for _, c := range []struct {
		distinct bool
		want     []string
	}{{false, want}, {true, distinct}} {
		for _, workers := range []int{1, 3} {
			ks := &trace.KeySource{Open: open, SetCount: 3, Distinct: c.distinct}
			for pass := range 2 {
				var mu sync.Mutex
				got := make([][]string, 3)
				if err := ks.Each(workers, func(_, set int, keys []string) {
					mu.Lock()
					defer mu.Unlock()
					for _, k := range keys {
						got[set] = append(got[set], k)
					}
				}); err != nil {
					t.Fatal(err)
				}
				for s := range 3 {
					var exp []string
					for i := s; i < len(c.want); i += 3 {
						exp = append(exp, c.want[i])
					}
					if !slices.Equal(got[s], exp) {
						t.Fatalf("distinct %v, %d workers, pass %d, set %d: %d keys, want %d", c.distinct, workers, pass, s, len(got[s]), len(exp))
					}
				}
			}
		}
	}
	ks := &trace.KeySource{Open: open, SetCount: 1, Distinct: true, MaxDistinct: 10}
	if err := ks.Each(1, func(int, int, []string) {}); err == nil {
		t.Error("more distinct keys than MaxDistinct: no error")
	}
	if _, err := os.Stat("testdata/key-count.txt"); err != nil {
		t.Fatal(err)
	}
}
