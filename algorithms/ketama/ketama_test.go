package ketama

import (
	"bufio"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/placertest"
)

func mustNew(t *testing.T, nodes []algorithms.Node) *Ketama {
	t.Helper()
	k, err := New(nodes)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func equalNodes(t *testing.T, n int) []algorithms.Node {
	t.Helper()
	nodes, err := algorithms.DefaultNodes(n)
	if err != nil {
		t.Fatal(err)
	}
	return nodes
}

// Point counts from twemproxy's ketama_update formula, evaluated by the C
// expression itself (gcc, x86-64, float32 arithmetic):
// floor(float(float(w)/float(W) * 160 / 4 * float(n))) * 4.
func TestPointCountsMatchTwemproxy(t *testing.T) {
	cases := []struct {
		weights []float64
		want    []int // points per server
	}{
		{[]float64{1, 1}, []int{160, 160}},
		{[]float64{1, 2}, []int{104, 212}},
		{[]float64{1, 2, 3}, []int{80, 160, 240}},
		{[]float64{1, 2, 3, 5}, []int{56, 116, 172, 288}},
		{[]float64{1, 2, 3, 5, 8}, []int{40, 84, 124, 208, 336}},
		// libketama's ketama.servers (memory in MB as weights).
		{[]float64{600, 300, 200, 350, 1000, 800, 950, 100}, []int{176, 88, 56, 104, 296, 236, 280, 28}},
	}
	for _, c := range cases {
		total := 0.0
		for _, w := range c.weights {
			total += w
		}
		for i, w := range c.weights {
			if got := PointsPerDigest * Digests(w, total, len(c.weights)); got != c.want[i] {
				t.Errorf("weights %v: server %d gets %d points, twemproxy %d", c.weights, i, got, c.want[i])
			}
		}
	}
	// Equal weights: the float32 product falls just below 40 for 2,200 of
	// n = 1..20,000, which then get 156 points; the first of them:
	want156 := []int{25, 47, 50, 55, 61, 71, 94, 100, 107, 109, 110, 115, 122, 142, 159, 163, 188, 193, 200, 209}
	var got156 []int
	n156 := 0
	for n := 1; n <= 20000; n++ {
		switch p := PointsPerDigest * Digests(1, float64(n), n); p {
		case 160:
		case 156:
			n156++
			if len(got156) < len(want156) {
				got156 = append(got156, n)
			}
		default:
			t.Fatalf("%d equal servers get %d points each", n, p)
		}
	}
	if n156 != 2200 || fmt.Sprint(got156) != fmt.Sprint(want156) {
		t.Errorf("156-point counts: %d of 1..20000, first %v; twemproxy 2200, first %v", n156, got156, want156)
	}
	if k := mustNew(t, equalNodes(t, 25)); k.Len() != 25*156 {
		t.Errorf("25 equal servers: %d points, want %d", k.Len(), 25*156)
	}
}

// Labels and their four points. The digests are checkable with md5sum:
// printf %s 10.0.1.1:11211-0 | md5sum = 1387ed90033bcef5a68603067d362ba2.
func TestLabelPoints(t *testing.T) {
	cases := []struct {
		id     string
		i      int
		digest string
		points [4]uint32
	}{
		{"10.0.1.1:11211", 0, "1387ed90033bcef5a68603067d362ba2", [4]uint32{0x90ED8713, 0xF5CE3B03, 0x060386A6, 0xA22B367D}},
		{"10.0.1.2:11211", 0, "5a62dc4e62bff562a9040f77301003b1", [4]uint32{0x4EDC625A, 0x62F5BF62, 0x770F04A9, 0xB1031030}},
		{"10.0.1.1:11211", 39, "1a3ceaaad546d27f57b63315ba1b261e", [4]uint32{0xAAEA3C1A, 0x7FD246D5, 0x1533B657, 0x1E261BBA}},
	}
	for _, c := range cases {
		l := Label(c.id, c.i)
		if want := c.id + "-" + strconv.Itoa(c.i); l != want {
			t.Errorf("Label(%q, %d) = %q, want %q", c.id, c.i, l, want)
		}
		d := md5.Sum([]byte(l))
		if hex.EncodeToString(d[:]) != c.digest {
			t.Errorf("md5(%q) = %x, want %s", l, d, c.digest)
		}
		if got := algorithms.MD5Words(l); got != c.points {
			t.Errorf("points of %q = %#x, want %#x", l, got, c.points)
		}
	}
	long := strings.Repeat("h", 300)
	if l := Label(long, 7); len(l) != MaxLabel || l != long[:MaxLabel] {
		t.Errorf("label of a 300-byte name has %d bytes, want the first %d of the name", len(l), MaxLabel)
	}
}

// A two-server continuum, derived by hand from nc_ketama.c with Python's
// hashlib (independently of this package): 2 x 40 digests = 320 points.
func TestTwoServerContinuum(t *testing.T) {
	k := mustNew(t, []algorithms.Node{{ID: "10.0.1.1:11211", Weight: 1}, {ID: "10.0.1.2:11211", Weight: 1}})
	if k.Len() != 320 {
		t.Fatalf("%d points, want 320", k.Len())
	}
	first := []Point{{0x0049A61E, 1}, {0x009B3612, 0}, {0x017D56AB, 1}, {0x018E9750, 1}, {0x02712A2C, 1}, {0x02A19AB6, 0}}
	last := []Point{{0xFE1D2A48, 0}, {0xFEC67AFB, 1}, {0xFF5C3847, 1}}
	for i, p := range first {
		if got := k.At(i); got != p {
			t.Errorf("point %d = {%#x %d}, want {%#x %d}", i, got.Pos, got.Owner, p.Pos, p.Owner)
		}
	}
	for i, p := range last {
		if got := k.At(k.Len() - len(last) + i); got != p {
			t.Errorf("point %d = {%#x %d}, want {%#x %d}", k.Len()-len(last)+i, got.Pos, got.Owner, p.Pos, p.Owner)
		}
	}
	keys := []struct {
		key   string
		hash  uint64
		owner string
	}{
		{"foo", 0xDB18BDAC, "10.0.1.2:11211"},
		{"bar", 0x191DB537, "10.0.1.1:11211"},
		{"user:1000", 0x2E986207, "10.0.1.2:11211"},
		{"session:42", 0xCC2EBF45, "10.0.1.1:11211"},
		{"hello", 0x2A40415D, "10.0.1.1:11211"},
	}
	for _, c := range keys {
		if h := k.HashKey(c.key); h != c.hash {
			t.Errorf("HashKey(%q) = %#x, want %#x", c.key, h, c.hash)
		}
		if got := k.Locate(c.key); got != c.owner {
			t.Errorf("Locate(%q) = %q, want %q", c.key, got, c.owner)
		}
	}
	// Exact arcs: 2,200,543,140 and 2,094,424,156 of 2^32.
	sh := k.ExactShares()
	if want := []float64{2200543140.0 / (1 << 32), 2094424156.0 / (1 << 32)}; sh[0] != want[0] || sh[1] != want[1] {
		t.Errorf("ExactShares = %v, want %v", sh, want)
	}
}

// libketama's own regression test (libketama/test.sh in RJ/ketama): with
// ketama.servers (8 servers, weights = memory 600..100 MB), the output of
// ketama_test (an empty error line, then "hash point server" for keys
// "0".."999999") has MD5 5672b131391f5aa2b280936aec1eea74.
func TestLibketamaRegression(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("1,000,000 keys; run without -short")
	}
	servers := []algorithms.Node{
		{ID: "10.0.1.1:11211", Weight: 600}, {ID: "10.0.1.2:11211", Weight: 300},
		{ID: "10.0.1.3:11211", Weight: 200}, {ID: "10.0.1.4:11211", Weight: 350},
		{ID: "10.0.1.5:11211", Weight: 1000}, {ID: "10.0.1.6:11211", Weight: 800},
		{ID: "10.0.1.7:11211", Weight: 950}, {ID: "10.0.1.8:11211", Weight: 100},
	}
	k := mustNew(t, servers)
	sum := md5.New()
	w := bufio.NewWriter(sum)
	w.WriteString("\n")
	var line []byte
	for i := 0; i < 1000000; i++ {
		key := strconv.Itoa(i)
		h := k.HashKey(key)
		p := k.At(k.Search(h))
		line = strconv.AppendUint(line[:0], h, 10)
		line = append(line, ' ')
		line = strconv.AppendUint(line, uint64(p.Pos), 10)
		line = append(line, ' ')
		line = append(line, servers[p.Owner].ID...)
		line = append(line, '\n')
		w.Write(line)
	}
	w.Flush()
	if got := hex.EncodeToString(sum.Sum(nil)); got != "5672b131391f5aa2b280936aec1eea74" {
		t.Errorf("libketama test output MD5 = %s, want 5672b131391f5aa2b280936aec1eea74", got)
	}
}

// Search agrees with a binary search for the first point >= h (wrapping),
// at random hashes, at every point, one either side, and at both ends.
func TestSearchMatchesBinarySearch(t *testing.T) {
	for _, n := range []int{1, 3, 37} {
		k := mustNew(t, equalNodes(t, n))
		ref := func(h uint64) int {
			i := sort.Search(len(k.pos), func(i int) bool { return uint64(k.pos[i]) >= h })
			if i == len(k.pos) {
				return 0
			}
			return i
		}
		rng := rand.New(rand.NewPCG(1, 2))
		probes := []uint64{0, math.MaxUint32}
		for i := 0; i < 20000; i++ {
			probes = append(probes, uint64(rng.Uint32()))
		}
		for _, p := range k.pos {
			probes = append(probes, uint64(p), uint64(p+1), uint64(p-1))
		}
		for _, h := range probes {
			if got, want := k.Search(h), ref(h); got != want {
				t.Fatalf("n=%d: Search(%#x) = %d, want %d", n, h, got, want)
			}
		}
	}
}

// Ties keep twemproxy's build order: the server whose name sorts first
// (shorter, then bytewise) owns a shared position. 2,000 servers make
// 320,000 points, about 12 coinciding pairs.
func TestTiesGoToTheFirstName(t *testing.T) {
	t.Parallel()
	nodes := make([]algorithms.Node, 2000)
	for i := range nodes {
		nodes[i] = algorithms.Node{ID: "s" + strconv.Itoa(len(nodes)-1-i), Weight: 1}
	}
	k := mustNew(t, nodes)
	ties := 0
	for i := 1; i < k.Len(); i++ {
		a, b := k.At(i-1), k.At(i)
		if a.Pos != b.Pos {
			continue
		}
		ties++
		if a.Owner != b.Owner && nameCompare(nodes[a.Owner].ID, nodes[b.Owner].ID) > 0 {
			t.Errorf("position %#x: %q before %q", a.Pos, nodes[a.Owner].ID, nodes[b.Owner].ID)
		}
		if got := k.LocateHash(uint64(b.Pos)); got != a.Owner {
			t.Errorf("position %#x belongs to %q, want the first, %q", b.Pos, nodes[got].ID, nodes[a.Owner].ID)
		}
	}
	if ties == 0 {
		t.Fatal("no coinciding points among 320,000; the tie rule went untested")
	}
	t.Logf("%d coinciding points", ties)
}

// ketama allocates nothing on lookup, is safe for concurrent use, does not
// depend on the order servers are listed in, and at equal weights (160
// points before and after) a join or leave moves only its own keys.
func TestPlacerProperties(t *testing.T) {
	keys := placertest.Keys(20000, 7)
	k := mustNew(t, equalNodes(t, 10))
	placertest.CheckNoAllocs(t, k)
	placertest.CheckConcurrent(t, k, keys[:2000])
	// Order independence: the same set listed backwards.
	rev := equalNodes(t, 10)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	placertest.CheckOrderIndependent(t, k, mustNew(t, rev), keys)
	// Equal weights, 160 points before and after: joins and leaves move
	// only the keys of the node that changed.
	joined, err := algorithms.Join(k, algorithms.Node{ID: "node-10", Weight: 1})
	if err != nil {
		t.Fatal(err)
	}
	placertest.CheckJoin(t, k, joined, keys, "node-10")
	left, err := algorithms.Leave(k, "node-3")
	if err != nil {
		t.Fatal(err)
	}
	placertest.CheckLeave(t, k, left, keys, "node-3")
	// Exact shares sum to 1.
	sum := 0.0
	for _, s := range k.ExactShares() {
		sum += s
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("exact shares sum to %v", sum)
	}
}

// 24 -> 25 equal servers: every server drops from 160 to 156 points
// (twemproxy's float32 count), so keys also move between servers that
// stay; chbench must show that, as twemproxy does.
func TestJoinTo25MovesBetweenStayingServers(t *testing.T) {
	k := mustNew(t, equalNodes(t, 24))
	j, err := algorithms.Join(k, algorithms.Node{ID: "node-24", Weight: 1})
	if err != nil {
		t.Fatal(err)
	}
	collateral := 0
	keys := placertest.Keys(20000, 3)
	for _, key := range keys {
		a, b := k.Locate(key), j.Locate(key)
		if a != b && b != "node-24" {
			collateral++
		}
	}
	// Each server loses one digest (4 of 160 points, 2.5% of its arcs);
	// the keys on those arcs move to other servers: about 2.5% of keys.
	if f := float64(collateral) / float64(len(keys)); f < 0.01 || f > 0.05 {
		t.Errorf("24 -> 25 servers: %.4f of keys moved between staying servers, want about 0.025", f)
	}
}

// Memberships ketama cannot build (empty, duplicate, NaN, a share too
// small for one point, weights beyond float32's range) are errors naming
// the node.
func TestBadInput(t *testing.T) {
	cases := []struct {
		nodes []algorithms.Node
		want  string
	}{
		{nil, "empty"},
		{[]algorithms.Node{{ID: "a", Weight: 1}, {ID: "a", Weight: 1}}, `"a"`},
		{[]algorithms.Node{{ID: "a", Weight: math.NaN()}}, "NaN"},
		{[]algorithms.Node{{ID: "a", Weight: 1}, {ID: "tiny", Weight: 1e-3}}, `"tiny"`},
		// Beyond float32: 1e39 is +Inf there, 1e-46 is 0.
		{[]algorithms.Node{{ID: "huge", Weight: 1e39}, {ID: "b", Weight: 1e39}}, `"huge"`},
		{[]algorithms.Node{{ID: "a", Weight: 1}, {ID: "subnormal", Weight: 1e-46}}, `"subnormal"`},
	}
	for _, c := range cases {
		k, err := New(c.nodes)
		if err == nil || k != nil {
			t.Errorf("New(%v) = %v, %v; want an error", c.nodes, k, err)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("New(%v): error %q does not name %s", c.nodes, err, c.want)
		}
	}
}
