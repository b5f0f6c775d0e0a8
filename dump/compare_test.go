package dump

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
)

// locator returns chbench's placement name on the given server IDs.
func locator(t *testing.T, name, hash string, ids ...string) algorithms.Locator {
	t.Helper()
	nodes := make([]algorithms.Node, len(ids))
	for i, id := range ids {
		nodes[i] = algorithms.Node{ID: id, Weight: 1}
	}
	cfg := catalog.DefaultConfig()
	if hash != "" {
		cfg.Hash = hash
	}
	p, err := catalog.New(name, nodes, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return algorithms.AsLocator(p, algorithms.MustHash(cfg.Hash).Bits())
}

// dumpOf writes the dump loc gives keys, with the server of the keys at
// the indexes in change replaced by to.
func dumpOf(t *testing.T, loc algorithms.Locator, keys []string, rename func(string) string, change map[int]string) string {
	t.Helper()
	owners := make([]int, len(keys))
	if err := loc.LocateKeys(keys, owners); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i, k := range keys {
		s := loc.Nodes()[owners[i]].ID
		if rename != nil {
			s = rename(s)
		}
		if to, ok := change[i]; ok {
			s = to
		}
		b.WriteString(Format(k, s) + "\n")
	}
	return b.String()
}

func testKeys(n int) []string {
	keys := []string{"", "a b", "%41", "\xff"}
	for i := len(keys); i < n; i++ {
		keys = append(keys, fmt.Sprintf("user:%d", i))
	}
	return keys
}

// A dump is compared with a placement key by key: the dump the placement
// wrote agrees on every key (interval [lo, 1] with lo the Clopper-Pearson
// bound (0.025)^(1/K)), and with two keys changed the comparison counts
// them, keeps them in dump order with their line and hashes, and tallies
// the from -> to matrix.
func TestCompare(t *testing.T) {
	servers := []string{"cache-a", "cache-b", "cache-c"}
	loc := locator(t, "ring", "", servers...)
	keys := testKeys(2000)
	c, err := Compare(NewReader(strings.NewReader(dumpOf(t, loc, keys, nil, nil)), "d"), loc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Keys != 2000 || c.Agree != 2000 || c.Agreement != 1 || c.Hi != 1 || len(c.Mismatches) != 0 {
		t.Fatalf("self comparison: %+v", c)
	}
	if want := math.Pow(0.025, 1.0/2000); math.Abs(c.Lo-want) > 1e-9 {
		t.Errorf("interval low end %v, want %v", c.Lo, want)
	}
	c, err = Compare(NewReader(strings.NewReader(dumpOf(t, loc, keys, nil, map[int]string{1: "cache-x", 700: "cache-a"})), "d"), loc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	owner := func(k string) string {
		o := make([]int, 1)
		loc.LocateKeys([]string{k}, o)
		return servers[o[0]]
	}
	wantAgree := 1999
	if owner(keys[700]) != "cache-a" {
		wantAgree = 1998
	}
	if c.Agree != wantAgree || len(c.Mismatches) != 2000-wantAgree {
		t.Fatalf("%d agree, %d mismatches; want %d", c.Agree, len(c.Mismatches), wantAgree)
	}
	m := c.Mismatches[0]
	if m.Line != 2 || m.Key != "a b" || m.A != "cache-x" || m.B != owner("a b") {
		t.Errorf("first mismatch %+v", m)
	}
	if m.Hashes[0].Name != "fnv1a32" || m.Hashes[0].Value != algorithms.MustHash("fnv1a32").Sum("a b") || m.Hashes[len(m.Hashes)-1].Name != "slot" {
		t.Errorf("hashes %+v", m.Hashes)
	}
	total := 0
	for i, cell := range c.Matrix {
		total += cell.Keys
		if i > 0 && (c.Matrix[i-1].From > cell.From || c.Matrix[i-1].From == cell.From && c.Matrix[i-1].To >= cell.To) {
			t.Errorf("matrix not sorted at %d: %+v", i, c.Matrix)
		}
		if cell.From == "cache-x" && (cell.To != owner("a b") || cell.Keys != 1) {
			t.Errorf("cell %+v", cell)
		}
	}
	if total != 2000 {
		t.Errorf("matrix holds %d keys", total)
	}
	var b strings.Builder
	c.WriteText(&b)
	if !strings.Contains(b.String(), fmt.Sprintf("%d of 2000 keys on the same server", wantAgree)) || !strings.Contains(b.String(), `line 2: key "a b" on "cache-x"`) {
		t.Errorf("text:\n%s", b.String())
	}
}

// The Clopper-Pearson interval is the exact one: at each end the binomial
// tail beyond the observed count is 2.5% (checked with gonum's binomial
// CDF).
func TestClopperPearson(t *testing.T) {
	for _, tc := range []struct{ x, n int }{{0, 10}, {3, 10}, {10, 10}, {950, 1000}, {1, 100000}} {
		lo, hi := ClopperPearson(tc.x, tc.n, 0.95)
		if tc.x > 0 {
			// P(X >= x | lo) = 0.025
			if p := 1 - (distuv.Binomial{N: float64(tc.n), P: lo}).CDF(float64(tc.x-1)); math.Abs(p-0.025) > 1e-6 {
				t.Errorf("x=%d n=%d: P(X >= x) at lo %v is %v", tc.x, tc.n, lo, p)
			}
		} else if lo != 0 {
			t.Errorf("x=0: lo %v", lo)
		}
		if tc.x < tc.n {
			if p := (distuv.Binomial{N: float64(tc.n), P: hi}).CDF(float64(tc.x)); math.Abs(p-0.025) > 1e-6 {
				t.Errorf("x=%d n=%d: P(X <= x) at hi %v is %v", tc.x, tc.n, hi, p)
			}
		} else if hi != 1 {
			t.Errorf("x=n: hi %v", hi)
		}
	}
}

// Two dumps in the same order compare line by line; two sorted dumps with
// keys missing on either side merge, counting those; dumps that part ways
// without being sorted, and a repeated key, are errors naming the file and
// line.
func TestCompareDumps(t *testing.T) {
	a := "k1\ts1\nk3\ts2\nk2\ts1\n"
	c, err := CompareDumps(NewReader(strings.NewReader(a), "a"), NewReader(strings.NewReader("k1\ts1\nk3\ts1\nk2\ts1\n"), "b"), Options{})
	if err != nil || c.Keys != 3 || c.Agree != 2 || c.OnlyA+c.OnlyB != 0 || c.Mismatches[0].Key != "k3" {
		t.Fatalf("same order: %+v, %v", c, err)
	}
	c, err = CompareDumps(NewReader(strings.NewReader("a\tx\nb\tx\nd\ty\ne\ty\n"), "a"), NewReader(strings.NewReader("b\tx\nc\tz\nd\tx\nf\ty\n"), "b"), Options{})
	if err != nil || c.Keys != 2 || c.Agree != 1 || c.OnlyA != 2 || c.OnlyB != 2 {
		t.Fatalf("sorted merge: %+v, %v", c, err)
	}
	for _, tc := range []struct{ a, b, want string }{
		{"k1\ts\nk3\ts\nk2\ts\n", "k1\ts\nk2\ts\nk3\ts\n", `a:3: key "k2" comes after "k3" (line 2)`},
		{"k2\ts\nk1\ts\nk3\ts\n", "k2\ts\nk1\ts\nk4\ts\n", "a:2: keys out of sorted order"},
		{"a\ts\nb\ts\nc\ts\n", "a\ts\nc\ts\nb\ts\n", "b:3: key \"b\" comes after \"c\""},
		{"a\ts\na\ts\n", "a\ts\n", `a:2: key "a" repeats line 1`},
		{"", "", "no key to compare"},
		{"a\ts\n", "a s\n", "b:1: no tab"},
	} {
		_, err := CompareDumps(NewReader(strings.NewReader(tc.a), "a"), NewReader(strings.NewReader(tc.b), "b"), Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q vs %q: %v, want %q", tc.a, tc.b, err, tc.want)
		}
	}
}

// generated is a dump of n lines made on the fly, so that the comparison
// of a large dump can be measured without holding it.
type generated struct {
	n, i int
	loc  algorithms.Locator
	buf  []byte
}

func (g *generated) Read(p []byte) (int, error) {
	for len(g.buf) < len(p) && g.i < g.n {
		g.buf = fmt.Appendf(g.buf, "user:%012d\tnode-%d\n", g.i, g.i%7)
		g.i++
	}
	if len(g.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, g.buf)
	g.buf = g.buf[n:]
	return n, nil
}

// Comparing a dump streams it: 200,000 lines (5.6 MB, and more than 15
// MB as records) leave the heap within 4 MB of where it started.
func TestCompareMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 200,000 lines (-short)")
	}
	loc := locator(t, "jump", "", "node-0", "node-1", "node-2", "node-3", "node-4", "node-5", "node-6")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	c, err := Compare(NewReader(&generated{n: 200000}, "big"), loc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if c.Keys != 200000 {
		t.Fatalf("%d keys", c.Keys)
	}
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 4<<20 {
		t.Errorf("the heap grew by %d bytes over the comparison", grew)
	}
}

// With a label form, the dump's servers are compared in that form with
// the placement's node IDs ("10.0.0.1" in the dump is node
// "10.0.0.1:11211"), while the matrix names them as the dump does; an
// unknown form is an error naming it.
func TestCompareLabels(t *testing.T) {
	nodes := []algorithms.Node{{ID: "10.0.0.1:11211", Weight: 1}, {ID: "10.0.0.2:11211", Weight: 1}}
	loc, err := catalog.NewLocator("ketama", nodes, catalog.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{"a", "b", "c", "d", "e", "f"}
	owners := make([]int, len(keys))
	if err := loc.LocateKeys(keys, owners); err != nil {
		t.Fatal(err)
	}
	var dumpText strings.Builder
	for i, k := range keys {
		dumpText.WriteString(Format(k, strings.TrimSuffix(nodes[owners[i]].ID, ":11211")) + "\n")
	}
	c, err := Compare(NewReader(strings.NewReader(dumpText.String()), "d"), loc, Options{Labels: "host:11211"})
	if err != nil || c.Agree != len(keys) {
		t.Fatalf("with labels host:11211: %+v, %v; want all %d keys to agree", c, err, len(keys))
	}
	for _, cell := range c.Matrix {
		if strings.HasSuffix(cell.From, ":11211") {
			t.Errorf("matrix cell %+v: the dump's servers are shown as the dump names them", cell)
		}
	}
	if c, err := Compare(NewReader(strings.NewReader(dumpText.String()), "d"), loc, Options{}); err != nil || c.Agree != 0 {
		t.Errorf("without labels: %+v, %v; want no key to agree", c, err)
	}
	if _, err := Compare(NewReader(strings.NewReader(dumpText.String()), "d"), loc, Options{Labels: "port"}); err == nil || !strings.Contains(err.Error(), `label form "port"`) {
		t.Errorf("unknown label form: %v", err)
	}
}
