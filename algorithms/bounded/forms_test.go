package bounded

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/ring"
)

// epsGrid is the load factors the bounded command sweeps by default.
var epsGrid = []float64{0.05, 0.1, 0.25, 0.5, 1}

// keyHashes returns m uniform 64-bit key hashes from seed: what hashing m
// distinct keys gives the forms, without the keys.
func keyHashes(m int, seed uint64) []uint64 {
	r := rand.New(rand.NewPCG(seed, 1))
	hs := make([]uint64, m)
	for i := range hs {
		hs[i] = r.Uint64()
	}
	return hs
}

// uniformRequests returns n requests for keys drawn uniformly from m.
func uniformRequests(m, n int, seed uint64) []int32 {
	r := rand.New(rand.NewPCG(seed, 2))
	reqs := make([]int32, n)
	for i := range reqs {
		reqs[i] = int32(r.IntN(m))
	}
	return reqs
}

// zipfRequests returns n requests for keys 0..m-1 with probability
// proportional to (k+1)^-s, by inverting the cumulative law.
func zipfRequests(m, n int, s float64, seed uint64) []int32 {
	cdf := make([]float64, m)
	sum := 0.0
	for k := range cdf {
		sum += math.Pow(float64(k+1), -s)
		cdf[k] = sum
	}
	r := rand.New(rand.NewPCG(seed, 3))
	reqs := make([]int32, n)
	for i := range reqs {
		k, _ := slices.BinarySearch(cdf, r.Float64()*sum)
		reqs[i] = int32(min(k, m-1))
	}
	return reqs
}

// replay serves reqs with a fresh RequestBalancer on r and returns the
// fraction of requests served away from their first choice, the
// peak-to-mean request load over the (equal-weight) nodes and the largest
// load / cap.
func replay(t *testing.T, r *ring.Ring, eps float64, k int, hashes []uint64, reqs []int32) (away, peakToMean, ratio float64) {
	t.Helper()
	b, err := NewRequestBalancer(r, eps, k)
	if err != nil {
		t.Fatal(err)
	}
	counts := make([]int, len(r.Nodes()))
	n := 0
	for _, q := range reqs {
		o, f := b.Serve(hashes[q])
		if o != f {
			n++
		}
		counts[o]++
	}
	mean := float64(len(reqs)) / float64(len(counts))
	return float64(n) / float64(len(reqs)), float64(slices.Max(counts)) / mean, b.MaxLoadOverCap()
}

// TestKeyCapacities checks capacities computed by hand: ceil(c*m*w_i/W),
// never above m, every cap >= 1 and the total >= m.
func TestKeyCapacities(t *testing.T) {
	cases := []struct {
		name    string
		weights []float64
		m       int
		eps     float64
		want    []int
	}{
		// 1.25*10*1/101 = 0.124 -> 1; 1.25*10*100/101 = 12.38 -> 13, but a
		// node cannot hold more than the 10 partitions there are.
		{"weights 1,100, 10 partitions, c=1.25", []float64{1, 100}, 10, 0.25, []int{1, 10}},
		// 1.25*4/3 = 1.67 -> 2 each: 6 >= 4.
		{"three equal nodes, four units, c=1.25", []float64{1, 1, 1}, 4, 0.25, []int{2, 2, 2}},
		// c*m/n an integer: exactly c*m/n, no rounding up (1.25*40/5 = 10).
		{"five equal nodes, 40 keys, c=1.25", []float64{1, 1, 1, 1, 1}, 40, 0.25, []int{10, 10, 10, 10, 10}},
		// One unit over many nodes: every cap is 1.
		{"one unit, 7 nodes", []float64{1, 1, 1, 1, 1, 1, 1}, 1, 0.05, []int{1, 1, 1, 1, 1, 1, 1}},
		// 2*100*w/10: 20, 20, 40, 120 -> capped at 100.
		{"weights 1,1,2,6, c=2", []float64{1, 1, 2, 6}, 100, 1, []int{20, 20, 40, 100}},
	}
	for _, c := range cases {
		ns := make([]algorithms.Node, len(c.weights))
		for i, w := range c.weights {
			ns[i] = algorithms.Node{ID: algorithms.NodeID(i), Weight: w}
		}
		caps, err := keyCapacities(ns, c.m, c.eps)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !slices.Equal(caps, c.want) {
			t.Errorf("%s: caps %v, want %v", c.name, caps, c.want)
		}
		sum := 0
		for i, x := range caps {
			if x < 1 {
				t.Errorf("%s: node %d cap %d < 1", c.name, i, x)
			}
			sum += x
		}
		if sum < c.m {
			t.Errorf("%s: total capacity %d < load %d", c.name, sum, c.m)
		}
	}
	for _, eps := range []float64{0, -0.1, math.NaN(), math.Inf(1), 1e-17} {
		if _, err := keyCapacities(nodes(3), 4, eps); err == nil {
			t.Errorf("eps %v accepted", eps)
		}
	}
	if _, err := keyCapacities(nodes(3), 0, 0.25); err == nil {
		t.Error("0 units accepted")
	}
}

// churn returns a seeded sequence of memberships: start nodes of weight in
// [1, 4], then steps joins and leaves (never below 2 nodes).
func churn(start, steps int, seed uint64) [][]algorithms.Node {
	r := rand.New(rand.NewPCG(seed, 7))
	var cur []algorithms.Node
	next := 0
	add := func() {
		cur = append(cur, algorithms.Node{ID: algorithms.NodeID(next), Weight: float64(1 + r.IntN(4))})
		next++
	}
	for range start {
		add()
	}
	out := [][]algorithms.Node{slices.Clone(cur)}
	for range steps {
		if len(cur) > 2 && r.IntN(2) == 0 {
			i := r.IntN(len(cur))
			cur = slices.Delete(cur, i, i+1)
		} else {
			add()
		}
		out = append(out, slices.Clone(cur))
	}
	return out
}

// TestFormsNeverOverCap walks a long seeded join/leave sequence with
// weighted nodes and checks, at every step and for every node, load <=
// capacity for the key form (recomputed per membership) and the partition
// form (rebalanced from its previous state), and for the request form
// every node's in-flight count against the cap at every request.
func TestFormsNeverOverCap(t *testing.T) {
	steps := 200
	if testing.Short() {
		steps = 40
	}
	hashes := keyHashes(3000, 11)
	reqs := zipfRequests(len(hashes), 3000, 1.1, 11)
	for _, eps := range []float64{0.05, 0.25, 1} {
		seq := churn(8, steps, 3)
		part := mustNew(t, seq[0], 20, eps, 1024, xxh)
		for step, ns := range seq {
			if step > 0 {
				p, err := part.Rebalance(ns)
				if err != nil {
					t.Fatalf("eps %v step %d: %v", eps, step, err)
				}
				part = p.(*Bounded)
			}
			for i := range ns {
				if part.Load(i) > part.Cap(i) {
					t.Fatalf("partition form, eps %v step %d: node %s holds %d > cap %d", eps, step, ns[i].ID, part.Load(i), part.Cap(i))
				}
			}
			r, err := ring.New(ns, 20, xxh)
			if err != nil {
				t.Fatal(err)
			}
			kp, err := PlaceKeys(r, hashes, eps)
			if err != nil {
				t.Fatal(err)
			}
			sum := 0
			for i, l := range kp.Loads {
				if l > kp.Caps[i] {
					t.Fatalf("key form, eps %v step %d: node %s holds %d > cap %d", eps, step, ns[i].ID, l, kp.Caps[i])
				}
				sum += l
			}
			if sum != len(hashes) || kp.MaxLoadOverCap() > 1 {
				t.Fatalf("key form, eps %v step %d: %d keys placed of %d, max load/cap %v", eps, step, sum, len(hashes), kp.MaxLoadOverCap())
			}
			if step%25 != 0 { // the request form checks every node at every request: sample the steps
				continue
			}
			rb, err := NewRequestBalancer(r, eps, 4*len(ns))
			if err != nil {
				t.Fatal(err)
			}
			total := algorithms.TotalWeight(ns)
			for j, q := range reqs {
				rb.Serve(hashes[q])
				inFlight := min(j+1, 4*len(ns))
				for i, nd := range ns {
					if c := Capacity(eps, inFlight, nd.Weight, total); rb.InFlight(i) > c {
						t.Fatalf("request form, eps %v step %d request %d: node %s has %d in flight > cap %d", eps, step, j, nd.ID, rb.InFlight(i), c)
					}
				}
			}
			if m := rb.MaxLoadOverCap(); m > 1 || m <= 0 {
				t.Fatalf("request form: max load/cap %v", m)
			}
		}
	}
}

// TestRequestFormAwayExact checks the request form's fraction served away
// from the first choice against its exact value in a case theory solves:
// K = 2 requests in flight on n = 10 equal nodes at c = 1.25, so every cap
// is ceil(1.25*2/10) = 1 and only the node serving the previous request
// is full when a request arrives. With requests for uniformly random keys
// the serving node is then a Markov chain: from state j a request whose
// first choice is i != j goes to i, and one whose first choice is j goes to
// alt(key), the first node clockwise from the key that is not j. Its
// stationary distribution pi gives the away fraction sum_j pi_j q_j, q_j
// the fraction of keys whose first choice is j. The measured fraction over
// R requests must be within 5 standard errors (binomial, doubled for the
// chain's correlation).
func TestRequestFormAwayExact(t *testing.T) {
	const n, m, R = 10, 20000, 1_000_000
	r, err := ring.New(nodes(n), 4, xxh) // few vnodes: uneven shares, far from the naive 1/n
	if err != nil {
		t.Fatal(err)
	}
	hashes := keyHashes(m, 5)
	first := make([]int, m)
	alt := make([]int, m)
	q := make([]float64, n)
	for k, h := range hashes {
		i := r.Search(h)
		first[k] = r.At(i).Owner
		for r.At(i).Owner == first[k] {
			i = (i + 1) % r.Len()
		}
		alt[k] = r.At(i).Owner
		q[first[k]] += 1.0 / m
	}
	// Transition matrix P[j][i] and its stationary distribution by power
	// iteration (the chain is irreducible and aperiodic: P[j][i] > 0 for i != j).
	P := make([][]float64, n)
	for j := range P {
		P[j] = make([]float64, n)
		for k := range hashes {
			if first[k] != j {
				P[j][first[k]] += 1.0 / m
			} else {
				P[j][alt[k]] += 1.0 / m
			}
		}
	}
	pi := make([]float64, n)
	for i := range pi {
		pi[i] = 1.0 / n
	}
	for range 1000 {
		next := make([]float64, n)
		for j := range P {
			for i := range P[j] {
				next[i] += pi[j] * P[j][i]
			}
		}
		pi = next
	}
	want := 0.0
	for j := range pi {
		want += pi[j] * q[j]
	}
	reqs := uniformRequests(m, R, 5)
	away, _, ratio := replay(t, r, 0.25, 2, hashes, reqs)
	tol := 5 * 2 * math.Sqrt(want*(1-want)/R)
	t.Logf("away %.5f, exact %.5f ± %.5f (1/n = %.3f)", away, want, tol, 1.0/n)
	if math.Abs(away-want) > tol {
		t.Errorf("away fraction %.5f, exact %.5f ± %.5f", away, want, tol)
	}
	if ratio != 1 {
		t.Errorf("max load/cap %v, want 1 (every cap is 1)", ratio)
	}
	// K = 1: every node is empty when a request arrives, nothing goes away.
	if away, _, _ := replay(t, r, 0.25, 1, hashes, reqs); away != 0 {
		t.Errorf("K = 1: away %v, want 0", away)
	}
}

// TestRequestFormBounds checks the request form with uniform keys against
// bounds that hold for any stream. Every request stays in flight for
// exactly K arrivals (FIFO), and a node never has more than its cap C in
// flight, so over R requests it serves at most R*C/K + K (Little's law):
// peak-to-mean request load <= n*C/K + n*K/R, which is about c. And
// requests whose first choice is node i beyond what i can serve must go
// elsewhere: away >= sum_i max(0, f_i - C/K - K/R), f_i the fraction of
// requests whose first choice is i. When K <= C the bound never binds, so
// nothing goes away; and more room never sends more away.
func TestRequestFormBounds(t *testing.T) {
	const n, m, R = 10, 20000, 100_000
	r, err := ring.New(nodes(n), 4, xxh) // few vnodes: uneven first choices, so the lower bound binds
	if err != nil {
		t.Fatal(err)
	}
	hashes := keyHashes(m, 9)
	reqs := uniformRequests(m, R, 9)
	f := make([]float64, n)
	for _, x := range reqs {
		f[r.LocateHash(hashes[x])] += 1.0 / R
	}
	K := 32 * n
	prev := 1.0
	for _, eps := range epsGrid {
		away, peak, ratio := replay(t, r, eps, K, hashes, reqs)
		C := float64(Capacity(eps, K, 1, n))
		if limit := n*C/float64(K) + n*float64(K)/R; peak > limit {
			t.Errorf("eps %v: peak-to-mean %.4f > n*C/K + n*K/R = %.4f", eps, peak, limit)
		}
		lower := 0.0
		for _, fi := range f {
			lower += max(0, fi-C/float64(K)-float64(K)/R)
		}
		if away < lower {
			t.Errorf("eps %v: away %.4f below the %.4f that cannot fit", eps, away, lower)
		}
		if away > prev {
			t.Errorf("eps %v: away %.4f above %.4f at the smaller eps", eps, away, prev)
		}
		if ratio > 1 {
			t.Errorf("eps %v: max load/cap %v > 1", eps, ratio)
		}
		prev = away
		t.Logf("eps %v: away %.4f (>= %.4f), peak-to-mean %.4f (<= %.4f)", eps, away, lower, peak, n*C/float64(K)+n*float64(K)/R)
	}
	// c*K/n >= K: every cap is K, nothing is ever away.
	if away, _, _ := replay(t, r, 9, K, hashes, reqs); away != 0 {
		t.Errorf("c = n: away %v, want 0", away)
	}
}

// TestKeyFormAway checks the key form's fraction of keys away from their
// first choice against what counting allows: node i takes at most its cap
// C_i of the f_i keys whose first choice it is, so at least sum_i max(0,
// f_i - C_i) keys are away; and a key is away only if its first choice was
// full, so at most the keys whose first choice ends full.
func TestKeyFormAway(t *testing.T) {
	r, err := ring.New(nodes(10), 4, xxh)
	if err != nil {
		t.Fatal(err)
	}
	hashes := keyHashes(20000, 4)
	for _, eps := range epsGrid {
		kp, err := PlaceKeys(r, hashes, eps)
		if err != nil {
			t.Fatal(err)
		}
		firsts := make([]int, len(r.Nodes()))
		away := 0
		for k := range hashes {
			firsts[kp.First[k]]++
			if kp.First[k] != kp.Owner[k] {
				away++
			}
		}
		lower, upper := 0, 0
		for i, fi := range firsts {
			lower += max(0, fi-kp.Caps[i])
			if kp.Loads[i] == kp.Caps[i] {
				upper += fi
			}
		}
		if away < lower || away > upper {
			t.Errorf("eps %v: %d keys away, want %d..%d", eps, away, lower, upper)
		}
	}
}

// The request balancer's queue holds at most the requests served so far:
// a K far above the requests (math.MaxInt) allocates nothing per request
// in flight at construction, and serves every request exactly as K =
// requests does (the oldest request never completes before the last one
// arrives in either), since the FIFO is the same until K requests arrive.
func TestRequestBalancerQueueGrowsWithRequests(t *testing.T) {
	r, err := ring.New(nodes(10), 40, xxh)
	if err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(10, func() {
		if _, err := NewRequestBalancer(r, 0.25, math.MaxInt); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 8 {
		t.Errorf("NewRequestBalancer(K = MaxInt): %v allocations, want a handful (per node, not per K)", allocs)
	}
	const requests = 5000
	hashes := keyHashes(requests, 3)
	serve := func(k int) []int {
		b, err := NewRequestBalancer(r, 0.25, k)
		if err != nil {
			t.Fatal(err)
		}
		out := make([]int, requests)
		for i, h := range hashes {
			out[i], _ = b.Serve(h)
		}
		if len(b.queue) > min(k, requests) {
			t.Errorf("K = %d: the queue holds %d entries after %d requests", k, len(b.queue), requests)
		}
		return out
	}
	if a, b := serve(requests), serve(math.MaxInt); !slices.Equal(a, b) {
		t.Errorf("K = requests and K = MaxInt serve the requests differently")
	}
	serve(100) // a K below the requests wraps the queue at K entries
}
