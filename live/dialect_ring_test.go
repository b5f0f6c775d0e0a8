package live

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/dialect/hashringjs"
	"github.com/chbench/chbench/algorithms/dialect/uhashring"
)

// orderedWeights is a JSON object of node -> weight that keeps the nodes'
// order (uhashring and hashring build their rings in insertion order).
type orderedWeights []algorithms.Node

func (o orderedWeights) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, n := range o {
		if i > 0 {
			b = append(b, ',')
		}
		k, err := json.Marshal(n.ID)
		if err != nil {
			return nil, err
		}
		b = append(append(b, k...), ':')
		b = append(b, fmt.Sprint(int(n.Weight))...)
	}
	return append(b, '}'), nil
}

// ringReply is the reply of the ring scripts: each key's node, and the
// first r distinct nodes of every tenth key.
type ringReply struct {
	Nodes  []string
	Ranges [][]string
}

// checkRing compares a ring library's answers (ask) with a dialect at
// 10 weighted, 25 and 300 nodes, after a leave, and its replica order with
// the library's range.
func checkRing(t *testing.T, what string, build func([]algorithms.Node) (algorithms.Placer, error), ids []string, keys []string,
	ask func(nodes []algorithms.Node) ringReply) {
	t.Helper()
	const r = 3
	weights10 := []float64{1, 2, 1, 3, 1, 1, 2, 1, 1, 5}
	for _, n := range fleetSizes {
		var w []float64
		if n == 10 {
			w = weights10
		}
		c := dialectCase{nodesOf(ids[:n], w), build}
		var first ringReply
		calls := 0
		checkFleet(t, what, c, keys, func(nodes []algorithms.Node) []string {
			rep := ask(nodes)
			if calls++; calls == 1 {
				first = rep
			}
			return rep.Nodes
		})
		p, err := build(c.nodes)
		if err != nil {
			t.Fatal(err)
		}
		checked := 0
		for i, rng := range first.Ranges {
			k := keys[10*i]
			want := p.(algorithms.Replicator).Replicas(p.HashKey(k), make([]int, r))
			if len(rng) != len(want) {
				t.Fatalf("%s: key %q: range of %d nodes, dialect %d", what, k, len(rng), len(want))
			}
			for j, s := range rng {
				if got := p.Nodes()[want[j]].ID; got != s {
					t.Errorf("%s, %d nodes: key %q: replica %d is %s in the library, %s in the dialect", what, n, k, j, s, got)
				}
				checked++
			}
		}
		t.Logf("%s, %d nodes: %d replicas of %d keys in the library's range order", what, n, checked, len(first.Ranges))
	}
}

// uhashring (python3-uhashring 2.1), default ring and ketama mode, picks
// for every key the node the uhashring dialects name (get_node), at 10
// nodes of weights 1..5, 25 and 300 and after one leaves, and its range()
// lists the dialects' replicas in order.
func TestDialectUhashring(t *testing.T) {
	t.Parallel()
	py := startPython(t, "uhashring_route.py", "uhashring", "python3-uhashring")
	keys := dialectKeys(t)
	ids := make([]string, fleetSizes[len(fleetSizes)-1])
	for i := range ids {
		ids[i] = fmt.Sprintf("127.0.0.1:%d", 21000+i)
	}
	for _, ketama := range []bool{false, true} {
		build, what := uhashring.NewMeta, "uhashring"
		if ketama {
			build, what = uhashring.Ketama, "uhashring ketama"
		}
		checkRing(t, what, build, ids, keys, func(nodes []algorithms.Node) ringReply {
			var rep ringReply
			if err := py.Call(map[string]any{"nodes": orderedWeights(nodes), "ketama": ketama, "keys": keys, "r": 3}, &rep, scriptTimeout); err != nil {
				t.Fatal(err)
			}
			return rep
		})
	}
}

// hashringVersion is the npm package version the hashring-js dialect follows.
const hashringVersion = "3.2.0"

// hashringModules returns a node_modules directory holding hashring
// 3.2.0: under $CHBENCH_NPM_PREFIX, else the user cache directory's
// chbench/npm (where .ci/run installs it); when it is not there and npm
// is installed, it is installed there from the npm registry first (at
// most 3 minutes).
func hashringModules(t *testing.T) string {
	t.Helper()
	prefix := os.Getenv("CHBENCH_NPM_PREFIX")
	if prefix == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			unavailable(t, "no user cache directory for npm packages: "+err.Error())
		}
		prefix = filepath.Join(cache, "chbench", "npm")
	}
	mods := filepath.Join(prefix, "node_modules")
	pkg := filepath.Join(mods, "hashring", "package.json")
	var meta struct{ Version string }
	if b, err := os.ReadFile(pkg); err == nil && json.Unmarshal(b, &meta) == nil && meta.Version == hashringVersion {
		return mods
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		unavailable(t, "npm hashring@"+hashringVersion+" not in "+mods+" and npm missing (Debian package npm)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "install", "--no-audit", "--no-fund", "--prefix", prefix, "hashring@"+hashringVersion)
	if out, err := cmd.CombinedOutput(); err != nil {
		unavailable(t, fmt.Sprintf("npm install hashring@%s into %s: %v: %s", hashringVersion, prefix, err, out))
	}
	return mods
}

// startHashringJS starts testdata/dialects/hashring_route.js under node
// with hashring 3.2.0 on its module path.
func startHashringJS(t *testing.T) *Script {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		unavailable(t, "node missing (Debian package nodejs)")
	}
	mods := hashringModules(t)
	js, err := filepath.Abs("testdata/dialects/hashring_route.js")
	if err != nil {
		t.Fatal(err)
	}
	s, err := StartScript(node, []string{js}, "", "NODE_PATH="+mods)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Stop(); err != nil {
			t.Error(err)
		}
	})
	return s
}

// The npm package hashring 3.2.0 under Node.js picks for every key the
// server the hashring-js dialect names (HashRing#get), at 10 servers of
// weights 1..5, 25 and 300 and after one leaves, and its range() lists
// the dialect's replicas in order.
func TestDialectHashringJS(t *testing.T) {
	t.Parallel()
	s := startHashringJS(t)
	keys := dialectKeys(t)
	ids := make([]string, fleetSizes[len(fleetSizes)-1])
	for i := range ids {
		ids[i] = fmt.Sprintf("127.0.0.1:%d", 22000+i)
	}
	checkRing(t, "npm hashring", hashringjs.New, ids, keys, func(nodes []algorithms.Node) ringReply {
		var rep ringReply
		if err := s.Call(map[string]any{"servers": orderedWeights(nodes), "keys": keys, "r": 3}, &rep, scriptTimeout); err != nil {
			t.Fatal(err)
		}
		return rep
	})
}
