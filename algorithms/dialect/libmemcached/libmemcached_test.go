package libmemcached

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/dialect"
	"github.com/chbench/chbench/algorithms/dialect/dialecttest"
	"github.com/chbench/chbench/algorithms/placertest"
)

func builders(t *testing.T) map[string]func([]algorithms.Node) (algorithms.Placer, error) {
	b := map[string]func([]algorithms.Node) (algorithms.Placer, error){KetamaWeightedName: KetamaWeighted, KetamaName: Ketama}
	for _, h := range Hashes {
		m, err := Modula(h.Name)
		if err != nil {
			t.Fatal(err)
		}
		b[ModulaName(h.Name)] = m
	}
	return b
}

// The vectors were recorded from pylibmc on Debian's libmemcached 1.1.4
// (live.TestDialectVectors re-checks them against it).
func TestVectors(t *testing.T) {
	dialecttest.Check(t, "testdata/vectors.tsv", 300, builders(t))
}

func TestLookupContract(t *testing.T) {
	keys := placertest.Keys(500, 1)
	for name, b := range builders(t) {
		p, err := b(dialecttest.Fleet(dialecttest.Equal))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		dialecttest.CheckPlacer(t, p, keys)
	}
}

// Labels drop the port 11211 only.
func TestLabel(t *testing.T) {
	for _, c := range []struct {
		hp   dialect.HostPort
		i    int
		want string
	}{
		{dialect.HostPort{Host: "127.0.0.2", Port: 11211}, 0, "127.0.0.2-0"},
		{dialect.HostPort{Host: "127.0.0.3", Port: 11212}, 39, "127.0.0.3:11212-39"},
		{dialect.HostPort{Host: "cache-a", Port: 1}, 7, "cache-a:1-7"},
	} {
		if got := Label(c.hp, c.i); got != c.want {
			t.Errorf("Label(%v, %d) = %q, want %q", c.hp, c.i, got, c.want)
		}
	}
}

// Point counts: weighted ketama rounds in float32 (156 at 25 equal
// servers), unweighted ketama has 100 per server.
func TestPointCounts(t *testing.T) {
	nodes := make([]algorithms.Node, 25)
	for i := range nodes {
		nodes[i] = algorithms.Node{ID: fmt.Sprintf("10.0.0.%d:11212", i+1), Weight: 1}
	}
	w, err := KetamaWeighted(nodes)
	if err != nil {
		t.Fatal(err)
	}
	if n := w.(*dialect.Ring).C.Len(); n != 25*156 {
		t.Errorf("weighted ketama, 25 servers: %d points, want %d", n, 25*156)
	}
	u, err := Ketama(nodes)
	if err != nil {
		t.Fatal(err)
	}
	if n := u.(*dialect.Ring).C.Len(); n != 25*PointsPerServer {
		t.Errorf("ketama, 25 servers: %d points, want %d", n, 25*PointsPerServer)
	}
}

func TestBadInput(t *testing.T) {
	many := make([]algorithms.Node, MaxContinuumServers+1)
	for i := range many {
		many[i] = algorithms.Node{ID: fmt.Sprintf("10.0.%d.%d:11211", i/200, i%200), Weight: 1}
	}
	for _, c := range []struct {
		build func([]algorithms.Node) (algorithms.Placer, error)
		nodes []algorithms.Node
		want  string
	}{
		{KetamaWeighted, many, "101 servers"},
		{Ketama, many, "at most 100"},
		{Ketama, []algorithms.Node{{ID: "10.0.0.1:11211", Weight: 2}}, "weight 2"},
		{KetamaWeighted, []algorithms.Node{{ID: "cache-a", Weight: 1}}, `"cache-a": want host:port`},
		{KetamaWeighted, nil, "empty"},
	} {
		if _, err := c.build(c.nodes); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one containing %q", err, c.want)
		}
	}
	if _, err := Modula("hsieh"); err == nil || !strings.Contains(err.Error(), `"hsieh"`) {
		t.Errorf("Modula(hsieh) error %v", err)
	}
	if m, _ := Modula("default"); m != nil {
		if _, err := m(many); err != nil {
			t.Errorf("modula takes %d servers: %v", len(many), err)
		}
	}
}
