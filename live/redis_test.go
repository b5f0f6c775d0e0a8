package live

import (
	"context"
	"fmt"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/slots"
)

// braceKeys returns every string of 1 to 6 characters over '{', '}', 'a'
// and 'b' (5,460 keys): braces at every position, empty tags "{}",
// unclosed and nested tags, tags at the start and at the end.
func braceKeys() []string {
	keys := []string{}
	cur := []string{""}
	for n := 1; n <= 6; n++ {
		var next []string
		for _, p := range cur {
			for _, c := range []string{"{", "}", "a", "b"} {
				next = append(next, p+c)
			}
		}
		keys = append(keys, next...)
		cur = next
	}
	return keys
}

// redisCLI runs redis-cli with args (bounded to 60 s) and returns its
// output.
func redisCLI(t *testing.T, args ...string) string {
	t.Helper()
	path, err := LookBinary("redis-cli")
	if err != nil {
		unavailable(t, err.Error())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("redis-cli %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func dialRedis(t *testing.T, addr string) *Redis {
	t.Helper()
	c, err := DialRedis(addr, deadline)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func do(t *testing.T, c *Redis, args ...string) Reply {
	t.Helper()
	r, err := c.Do(args...)
	if err != nil {
		t.Fatal(err)
	}
	if r.Kind == '-' {
		t.Fatalf("%s: %s", strings.Join(args, " "), r.Str)
	}
	return r
}

// slotTable reads CLUSTER SLOTS from c: the address of each slot's master
// ("" if unassigned).
func slotTable(t *testing.T, c *Redis) []string {
	t.Helper()
	r := do(t, c, "CLUSTER", "SLOTS")
	table := make([]string, slots.NumSlots)
	for _, rng := range r.Array {
		if len(rng.Array) < 3 || len(rng.Array[2].Array) < 2 {
			t.Fatalf("CLUSTER SLOTS: malformed range %+v", rng)
		}
		lo, hi := rng.Array[0].Int, rng.Array[1].Int
		master := rng.Array[2].Array
		addr := master[0].Str + ":" + strconv.FormatInt(master[1].Int, 10)
		for s := lo; s <= hi; s++ {
			table[s] = addr
		}
	}
	return table
}

// waitCluster polls every node until each reports cluster_state:ok, knows
// all the nodes, and returns the same slot table; it returns that table.
func waitCluster(t *testing.T, conns []*Redis) []string {
	t.Helper()
	stop := time.Now().Add(30 * time.Second)
	for {
		ok := true
		var first []string
		for _, c := range conns {
			info := do(t, c, "CLUSTER", "INFO").Str
			if !strings.Contains(info, "cluster_state:ok") ||
				!strings.Contains(info, fmt.Sprintf("cluster_known_nodes:%d\r\n", len(conns))) {
				ok = false
				break
			}
			tab := slotTable(t, c)
			if first == nil {
				first = tab
			} else if !slices.Equal(first, tab) {
				ok = false
				break
			}
		}
		if ok {
			return first
		}
		if time.Now().After(stop) {
			t.Fatalf("cluster of %d nodes not consistent after 30 s", len(conns))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// chbenchSlots builds chbench's slots placement over the nodes (IDs =
// addresses) with the cluster's slot table.
func chbenchSlots(t *testing.T, addrs []string, table []string) *slots.Slots {
	t.Helper()
	nodes := make([]algorithms.Node, len(addrs))
	for i, a := range addrs {
		nodes[i] = algorithms.Node{ID: a, Weight: 1}
	}
	owner := make([]int, slots.NumSlots)
	for s, a := range table {
		owner[s] = slices.Index(addrs, a)
	}
	p, err := slots.FromTable(nodes, owner)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// checkRouting sends EXISTS for each key to one node (key i to node i mod
// n) and checks the cluster's answer: that node serves the key, or answers
// MOVED with the key's slot and the address of the node that does; either
// way that node must be the one chbench names.
func checkRouting(t *testing.T, conns []*Redis, addrs []string, p *slots.Slots, keys []string) {
	t.Helper()
	bad := 0
	for n, c := range conns {
		var idx []int
		var cmds [][]string
		for i := n; i < len(keys); i += len(conns) {
			idx = append(idx, i)
			cmds = append(cmds, []string{"EXISTS", keys[i]})
		}
		replies, err := c.Pipeline(cmds)
		if err != nil {
			t.Fatal(err)
		}
		for j, r := range replies {
			key := keys[idx[j]]
			var got string
			switch {
			case r.Kind == ':':
				got = addrs[n]
			case r.Kind == '-' && strings.HasPrefix(r.Str, "MOVED "):
				f := strings.Fields(r.Str)
				if len(f) != 3 || f[1] != strconv.Itoa(slots.KeySlot(key)) {
					t.Fatalf("key %q: %s, chbench slot %d", key, r.Str, slots.KeySlot(key))
				}
				got = f[2]
			default:
				t.Fatalf("EXISTS %q on %s: %+v", key, addrs[n], r)
			}
			if want := p.Locate(key); got != want {
				if bad++; bad <= 5 {
					t.Errorf("key %q: %s routes it to %s, chbench slots to %s", key, addrs[n], got, want)
				}
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d keys routed elsewhere than chbench's slots names", bad, len(keys))
	}
}

// counts returns the number of slots per address.
func counts(table []string, addrs []string) []int {
	c := make([]int, len(addrs))
	for _, a := range table {
		if i := slices.Index(addrs, a); i >= 0 {
			c[i]++
		}
	}
	return c
}

// A real Redis Cluster against chbench's slots: key slots, routing on a
// 3-master cluster made by redis-cli, and the slots moved when a fourth
// master joins and redis-cli rebalances.
func TestRedisCluster(t *testing.T) {
	t.Parallel()
	need(t, "redis-server", "redis-cli")
	keys := append(words(t), braceKeys()...)
	dir := t.TempDir()
	addrs := make([]string, 4)
	conns := make([]*Redis, 4)
	for i := range addrs {
		port, bus := freePort(t), freePort(t)
		p := started(t, func() (*Process, error) { return StartRedisClusterNode(dir, port, bus) })
		addrs[i] = p.Addr
		conns[i] = dialRedis(t, p.Addr)
	}

	// Every key's slot equals CLUSTER KEYSLOT.
	cmds := make([][]string, len(keys))
	for i, k := range keys {
		cmds[i] = []string{"CLUSTER", "KEYSLOT", k}
	}
	replies, err := conns[0].Pipeline(cmds)
	if err != nil {
		t.Fatal(err)
	}
	bad := 0
	for i, r := range replies {
		if want := slots.KeySlot(keys[i]); r.Kind != ':' || r.Int != int64(want) {
			if bad++; bad <= 5 {
				t.Errorf("CLUSTER KEYSLOT %q = %+v, chbench %d", keys[i], r, want)
			}
		}
	}
	t.Logf("CLUSTER KEYSLOT = chbench slot for %d of %d keys (%d words, %d brace keys)",
		len(keys)-bad, len(keys), len(keys)-len(braceKeys()), len(braceKeys()))

	// Three masters.
	redisCLI(t, append(append([]string{"--cluster", "create"}, addrs[:3]...), "--cluster-replicas", "0", "--cluster-yes")...)
	before := waitCluster(t, conns[:3])
	p3 := chbenchSlots(t, addrs[:3], before)
	checkRouting(t, conns[:3], addrs[:3], p3, keys)
	t.Logf("3 masters (redis-cli --cluster create): slots per master %v; each of %d keys routed (served or MOVED) to the master chbench's slots names",
		counts(before, addrs[:3]), len(keys))

	// A fourth master joins, and redis-cli rebalances onto it.
	redisCLI(t, "--cluster", "add-node", addrs[3], addrs[0])
	waitKnown(t, conns)
	redisCLI(t, "--cluster", "rebalance", addrs[0], "--cluster-use-empty-masters")
	after := waitCluster(t, conns)
	redisMoved := 0
	var ranges []string // the moved slots as ranges "lo-hi"
	for s := range after {
		if after[s] == before[s] {
			continue
		}
		redisMoved++
		if s == 0 || after[s-1] == before[s-1] {
			ranges = append(ranges, strconv.Itoa(s))
		}
		if s == len(after)-1 || after[s+1] == before[s+1] {
			ranges[len(ranges)-1] += "-" + strconv.Itoa(s)
		}
	}
	p4, err := p3.Rebalance(append(slices.Clone(p3.Nodes()), algorithms.Node{ID: addrs[3], Weight: 1}))
	if err != nil {
		t.Fatal(err)
	}
	chbMoved, common := 0, 0
	for s := 0; s < slots.NumSlots; s++ {
		if p3.LocateHash(uint64(s)) != p4.LocateHash(uint64(s)) {
			chbMoved++
			if after[s] != before[s] {
				common++
			}
		}
	}
	redisCounts := counts(after, addrs)
	chbCounts := make([]int, 4)
	for i := range chbCounts {
		chbCounts[i] = p4.(*slots.Slots).SlotCount(i)
	}
	t.Logf("4th master + redis-cli --cluster rebalance: Redis moved %d slots (%s), chbench's minimum migration %d (%d slots moved by both); slots per master: Redis %v, chbench %v",
		redisMoved, strings.Join(ranges, ", "), chbMoved, common, redisCounts, chbCounts)
	if redisMoved < chbMoved {
		t.Errorf("Redis moved %d slots, fewer than chbench's minimum %d", redisMoved, chbMoved)
	}
	if !slices.Equal(redisCounts, chbCounts) {
		t.Errorf("slots per master after rebalance: Redis %v, chbench %v", redisCounts, chbCounts)
	}
	// Routing on the rebalanced cluster, with its own table.
	checkRouting(t, conns, addrs, chbenchSlots(t, addrs, after), keys)
}

// waitKnown polls until every node knows all the others as connected
// masters (CLUSTER NODES), bounded to 30 s.
func waitKnown(t *testing.T, conns []*Redis) {
	t.Helper()
	stop := time.Now().Add(30 * time.Second)
	for {
		ok := true
		for _, c := range conns {
			nodes := do(t, c, "CLUSTER", "NODES").Str
			lines := strings.Split(strings.TrimSpace(nodes), "\n")
			if len(lines) != len(conns) {
				ok = false
				break
			}
			for _, l := range lines {
				if !strings.Contains(l, " connected") || strings.Contains(l, "handshake") {
					ok = false
				}
			}
		}
		if ok {
			return
		}
		if time.Now().After(stop) {
			t.Fatalf("%d nodes do not all know each other after 30 s", len(conns))
		}
		time.Sleep(100 * time.Millisecond)
	}
}
