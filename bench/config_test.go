package bench

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/ring"
	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/schema"
)

// analysisOptions are the options the analyses of `make bench` run algo
// with: every command's defaults (catalog.DefaultConfig()), one layout.
func analysisOptions(algo string) analysis.Options {
	g, _ := keyset.NewGenerator(1000, 1, 1) // valid sizes: no error
	return analysis.Options{Algo: algo, Config: catalog.DefaultConfig(), Keys: g, Seed: 1,
		Placement: schema.PlacementFixed}
}

// configNodeCounts are the node counts TestConfigMatchesAnalysis compares
// algorithms at. Bounded's partitions are 16,384 up to 16 nodes and 1,024
// per node above, and Maglev's table grows from 656 nodes on, so 1,000
// nodes tell a fixed setting from an automatic one. Above 100 nodes only
// the algorithms that read a setting of the configuration are compared
// (ketama reads none), and at 10,000 only those whose placement is small
// (smallPlacement): ring and bounded take seconds per build under -race
// and size their tables in proportion to n, as at 1,000.
var configNodeCounts = []int{10, 100, 1000, 10000}

// compared reports whether TestConfigMatchesAnalysis compares algo at n
// nodes (see configNodeCounts).
func compared(t *testing.T, info catalog.Info, n int) bool {
	configured := info.UsesVNodes || info.UsesHash || info.UsesEps || info.UsesPartitions ||
		info.UsesTableSize || info.UsesProbes || info.UsesCapacity
	switch {
	case n <= 100:
		return true
	case n <= 1000:
		return configured
	default:
		return configured && smallPlacement(t, info.Name, n)
	}
}

// smallPlacement reports whether algo's placement of n nodes is estimated
// (catalog.Estimate) at no more than 1 MiB.
func smallPlacement(t *testing.T, algo string, n int) bool {
	nodes, err := algorithms.DefaultNodes(n)
	if err != nil {
		t.Fatal(err)
	}
	c, err := catalog.Estimate(algo, nodes, Config(n))
	if err != nil {
		t.Fatalf("%s on %d nodes: %v", algo, n, err)
	}
	return c.Bytes <= 1<<20
}

// shape returns the size parameters of p that its configuration sets, as
// "partitions=P points=V ...", for those p reports: bounded's partitions,
// the ring points of ring, ketama and bounded, Maglev's table size, the
// capacity of anchor and dx, multi-probe's probes.
func shape(p algorithms.Placer) string {
	var s []string
	if x, ok := p.(interface{ Partitions() int }); ok {
		s = append(s, fmt.Sprintf("partitions=%d", x.Partitions()))
	}
	if x, ok := p.(interface{ Ring() *ring.Ring }); ok {
		s = append(s, fmt.Sprintf("points=%d", x.Ring().Len()))
	}
	if x, ok := p.(interface{ Len() int }); ok {
		s = append(s, fmt.Sprintf("points=%d", x.Len()))
	}
	if x, ok := p.(interface{ TableSize() int }); ok {
		s = append(s, fmt.Sprintf("table=%d", x.TableSize()))
	}
	if x, ok := p.(interface{ Capacity() int }); ok {
		s = append(s, fmt.Sprintf("capacity=%d", x.Capacity()))
	}
	if x, ok := p.(interface{ Probes() int }); ok {
		s = append(s, fmt.Sprintf("probes=%d", x.Probes()))
	}
	return strings.Join(s, " ")
}

// samePlacement fails t unless got (the benchmark's) and want (the
// analysis') have the same nodes, the same shape and the same owner for
// every key of keys.
func samePlacement(t *testing.T, what string, got algorithms.Placer, want algorithms.Locator, keys []string) {
	t.Helper()
	if g, w := len(got.Nodes()), len(want.Nodes()); g != w {
		t.Fatalf("%s: benchmark placement has %d nodes, analysis %d", what, g, w)
	}
	wp, ok := algorithms.PlacerOf(want)
	if !ok {
		t.Fatalf("%s: the analysis' placement has no Placer behind it", what)
	}
	if g, w := shape(got), shape(wp); g != w {
		t.Errorf("%s: benchmark placement has %q, analysis %q", what, g, w)
	}
	owners := make([]int, len(keys))
	if err := want.LocateKeys(keys, owners); err != nil {
		t.Fatal(err)
	}
	differ := 0
	for i, k := range keys {
		if got.Locate(k) != want.Nodes()[owners[i]].ID {
			differ++
		}
	}
	if differ > 0 {
		t.Errorf("%s: %d of %d keys have another owner in the benchmark's placement than in the analysis'", what, differ, len(keys))
	}
}

// TestConfigMatchesAnalysis holds the benchmarks to the placements the
// analyses measure, for every algorithm at the node counts n that
// configNodeCounts selects for it:
//   - the configuration the spread analysis records for n nodes is Config(n)
//     (bounded's partitions resolved for n; 0 for algorithms without);
//   - NewPlacer (Lookup, LookupParallel, Build) builds the placement of the
//     movement analysis' remove-last from n (sized, as spread's, for n
//     nodes): same shape (partitions, ring points, table size, capacity,
//     probes) and the same owner for every key of a sample of the pool;
//   - swapPair (LookupSwap) builds the two placements of its add from n.
func TestConfigMatchesAnalysis(t *testing.T) {
	keys := Pool(t)[:2048]
	for _, algo := range catalog.Names() {
		info, err := catalog.Describe(algo)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range configNodeCounts {
			if !compared(t, info, n) {
				continue
			}
			t.Run(fmt.Sprintf("algo=%s/nodes=%d", algo, n), func(t *testing.T) {
				o := analysisOptions(algo)
				nodes, err := algorithms.DefaultNodes(n)
				if err != nil {
					t.Fatal(err)
				}
				sp, err := analysis.Spread(o, nodes)
				if err != nil {
					t.Fatalf("spread: %v", err)
				}
				want := Config(n)
				if !info.UsesPartitions {
					want.Partitions = 0
				}
				if got := sp.Config; got.VNodes != want.VNodes || got.Eps != want.Eps || got.Partitions != want.Partitions ||
					got.TableSize != want.TableSize || got.Probes != want.Probes || got.Capacity != want.Capacity ||
					got.Hash != want.Hash {
					t.Errorf("spread of %d nodes records vnodes=%d eps=%v partitions=%d table_size=%d probes=%d capacity=%d hash=%s; the benchmarks use vnodes=%d eps=%v partitions=%d table_size=%d probes=%d capacity=%d hash=%s",
						n, got.VNodes, got.Eps, got.Partitions, got.TableSize, got.Probes, got.Capacity, got.Hash,
						want.VNodes, want.Eps, want.Partitions, want.TableSize, want.Probes, want.Capacity, want.Hash)
				}

				shrink, err := analysis.Resize(n, n-1)
				if err != nil {
					t.Fatal(err)
				}
				chain, err := analysis.Placements(o, shrink)
				if err != nil {
					t.Fatalf("movement remove-last from %d: %v", n, err)
				}
				samePlacement(t, fmt.Sprintf("%d nodes", n), NewPlacer(t, algo, n), chain[0], keys)

				grow, err := analysis.Resize(n, n+1)
				if err != nil {
					t.Fatal(err)
				}
				if chain, err = analysis.Placements(o, grow); err != nil {
					t.Fatalf("movement add from %d: %v", n, err)
				}
				small, large := swapPair(t, algo, n)
				samePlacement(t, fmt.Sprintf("swap, %d nodes", n), small, chain[0], keys)
				samePlacement(t, fmt.Sprintf("swap, %d nodes", n+1), large, chain[1], keys)
			})
		}
	}
}

// TestBoundedPartitionsPerNode pins the fidelity rule for the algorithm
// whose configuration depends most on the fleet: at 1,000 and 10,000
// nodes the benchmarks' bounded placements hold 1,024 partitions a node,
// as the analyses' do (a fixed 16,384 would be 1.6 a node at 10,000).
func TestBoundedPartitionsPerNode(t *testing.T) {
	for _, c := range []struct{ nodes, want int }{{10, 16384}, {1000, 1_024_000}, {10000, 10_240_000}} {
		if got := Config(c.nodes).PartitionsFor(c.nodes); got != c.want {
			t.Errorf("Config(%d) resolves %d bounded partitions, want %d", c.nodes, got, c.want)
		}
	}
	p := NewPlacer(t, "bounded", 1000)
	if got := shape(p); !strings.HasPrefix(got, "partitions=1024000 ") {
		t.Errorf("bounded on 1000 nodes: %q, want 1,024,000 partitions", got)
	}
}
