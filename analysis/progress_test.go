package analysis

import (
	"bytes"
	"sync/atomic"
	"testing"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/schema"
)

// The hook sees every key of a run exactly once, and the results are the
// same bytes with and without it.
func TestProgressHookCountsKeys(t *testing.T) {
	g, err := keyset.NewGenerator(5000, 3, 7)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Algo: "ring", Config: catalog.DefaultConfig(), Keys: g, Seed: 7}
	sc, err := Resize(4, 5)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := Movement(o, sc)
	if err != nil {
		t.Fatal(err)
	}
	var done atomic.Int64
	o.Progress = func(keys int64) { done.Add(keys) }
	hooked, err := Movement(o, sc)
	if err != nil {
		t.Fatal(err)
	}
	if got := done.Load(); got != 15000 {
		t.Errorf("hook counted %d keys, want 15000", got)
	}
	var x, y bytes.Buffer
	if err := schema.WriteCSV(&x, []schema.Move{plain}); err != nil {
		t.Fatal(err)
	}
	if err := schema.WriteCSV(&y, []schema.Move{hooked}); err != nil {
		t.Fatal(err)
	}
	if x.String() != y.String() {
		t.Errorf("hook changed results:\n%s\n%s", x.String(), y.String())
	}
	if n := SweepKeys(o, Sweep{Algos: []string{"ring", "jump"}, VNodes: []int{10, 20}, Nodes: []int{3, 4, 5, 6}}); n != 3*4*15000 {
		t.Errorf("SweepKeys = %d, want %d (3 configs x 4 runs x 15000 keys)", n, 3*4*15000)
	}
}
