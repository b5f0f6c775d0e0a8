package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/chbench/chbench/algorithms"
)

// MaxZipfKeys bounds N, the number of keys a [Zipf] law spans (its table
// holds one float64 per key: 512 MiB at the bound).
const MaxZipfKeys = 1 << 26

// Zipf is the Zipf popularity law over N keys with exponent s >= 0: the
// key of rank i (0-based, rank 0 the hottest) is requested with
// probability (i+1)^-s / H(N, s), where H(N, s) = sum_{k=1}^{N} k^-s is the
// generalised harmonic number. s = 0 is the uniform law; web caches see s
// between about 0.6 and 1.2.
//
// Sampling inverts the exact cumulative distribution: the table holds
// cdf[i] = P(rank <= i) for every rank, and a uniform u in [0, 1) from the
// caller's generator maps to the smallest i with u < cdf[i]. A guide
// table (Chen and Asau 1974) of N entries, guide[j] = the rank of u =
// j/N, starts the search next to the answer, so a draw costs O(1)
// expected steps (12 bytes per key in all); the result is the same rank a
// binary search over cdf gives. The standard library's
// rand.Zipf is not used because it requires s > 1 (its rejection method
// needs a convergent tail), and the exponents that matter for caches,
// including the sweep 0, 0.8, 0.99, are s <= 1; gonum's distuv has
// no Zipf law. An exact table also makes every probability available to
// the tests and to the hot-key floor.
type Zipf struct {
	s     float64
	h     float64   // H(N, s)
	cdf   []float64 // cdf[i] = P(rank <= i); cdf[N-1] = 1
	guide []int32   // guide[j] = smallest i with cdf[i] > j/N
}

// NewZipf returns the Zipf law over n keys with exponent s. It returns an
// error naming the bad value when n < 1 or n > MaxZipfKeys, or s is
// negative, NaN or infinite.
func NewZipf(n int, s float64) (*Zipf, error) {
	h, err := HarmonicNumber(n, s)
	if err != nil {
		return nil, err
	}
	cdf := make([]float64, n)
	var sum, comp float64 // Kahan-compensated running sum
	for i := range cdf {
		y := math.Pow(float64(i+1), -s) - comp
		t := sum + y
		comp = (t - sum) - y
		sum = t
		cdf[i] = sum
	}
	for i := range cdf {
		cdf[i] /= sum
	}
	cdf[n-1] = 1
	z := &Zipf{s: s, h: h, cdf: cdf, guide: make([]int32, n)}
	i := 0
	for j := range z.guide {
		u := float64(j) / float64(n)
		for cdf[i] <= u && i < n-1 {
			i++
		}
		z.guide[j] = int32(i)
	}
	return z, nil
}

// HarmonicNumber returns H(n, s) = sum_{k=1}^{n} k^-s, summed from the
// smallest term up so that rounding stays near one ulp per term. It
// returns an error when n < 1 or n > MaxZipfKeys, or s is negative, NaN or
// infinite.
func HarmonicNumber(n int, s float64) (float64, error) {
	if n < 1 || n > MaxZipfKeys {
		return 0, fmt.Errorf("zipf keys %d: need 1 to %d keys", n, MaxZipfKeys)
	}
	if math.IsNaN(s) || math.IsInf(s, 0) || s < 0 {
		return 0, fmt.Errorf("zipf exponent %v: must be a finite number >= 0 (0 = uniform)", s)
	}
	var h float64
	for k := n; k >= 1; k-- {
		h += math.Pow(float64(k), -s)
	}
	return h, nil
}

// N returns the number of keys.
func (z *Zipf) N() int { return len(z.cdf) }

// S returns the exponent s.
func (z *Zipf) S() float64 { return z.s }

// H returns H(N, s), the normalising constant.
func (z *Zipf) H() float64 { return z.h }

// Prob returns the probability of rank i (0 <= i < N): (i+1)^-s / H(N, s).
func (z *Zipf) Prob(i int) float64 { return math.Pow(float64(i+1), -z.s) / z.h }

// HotShare returns the hottest key's share of requests, Prob(0) = 1/H(N, s).
func (z *Zipf) HotShare() float64 { return 1 / z.h }

// Rank returns the rank whose cumulative interval holds u: the smallest i
// with u < cdf[i]. u must lie in [0, 1) (u >= 1 gives N-1).
func (z *Zipf) Rank(u float64) int {
	n := len(z.cdf)
	j := int(u * float64(n)) // j/N <= u, so the answer is >= guide[j]
	if j >= n || j < 0 {
		return n - 1
	}
	i := int(z.guide[j])
	for i < n-1 && z.cdf[i] <= u {
		i++
	}
	return i
}

// rankBySearch is Rank by binary search over the whole table, the
// reference the guide table must agree with (tests).
func (z *Zipf) rankBySearch(u float64) int {
	i := sort.SearchFloat64s(z.cdf, u) // smallest i with cdf[i] >= u
	for i < len(z.cdf)-1 && z.cdf[i] <= u {
		i++ // u == cdf[i] belongs to the next rank's interval
	}
	return min(i, len(z.cdf)-1)
}

// Sample draws one rank with r.Float64().
func (z *Zipf) Sample(r *rand.Rand) int { return z.Rank(r.Float64()) }

// RequestRand returns the generator of request stream stream: math/rand/v2's
// PCG seeded with (Mix64(seed ^ requestSalt), Mix64(stream)), so request
// streams are independent of each other and of the key generator's
// streams, and stream i is the same on every machine.
func RequestRand(seed uint64, stream int) *rand.Rand {
	const requestSalt = 0x7a697066 // "zipf": keeps request streams apart from key chunks
	return rand.New(rand.NewPCG(algorithms.Mix64(seed^requestSalt), algorithms.Mix64(uint64(stream))))
}

// HotKeyFloor returns the lowest peak-to-mean request load any placement
// that puts each key on one node can reach when the hottest key carries
// hotShare (0..1) of the requests: the node holding that key gets at least
// hotShare of the requests against its weight share w/W, and no node can
// be below the mean everywhere, so the floor is max(1, hotShare * W /
// w_max), which is max(1, n * hotShare) for n equal nodes. For a Zipf law,
// hotShare = 1/H(N, s) (s = 1, N = 10^6: 1/14.39 = 6.95%, so 100 nodes
// cannot do better than 6.95). It returns an error for an invalid
// membership or a share outside 0..1.
func HotKeyFloor(hotShare float64, nodes []algorithms.Node) (float64, error) {
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return 0, err
	}
	return hotKeyFloor(hotShare, nodes)
}

// hotKeyFloor is HotKeyFloor for a membership already validated (a load
// run's, checked once where it entered).
func hotKeyFloor(hotShare float64, nodes []algorithms.Node) (float64, error) {
	if math.IsNaN(hotShare) || hotShare < 0 || hotShare > 1 {
		return 0, fmt.Errorf("hot-key share %v: must be a fraction in 0..1", hotShare)
	}
	wmax := 0.0
	for _, n := range nodes {
		wmax = max(wmax, n.Weight)
	}
	return max(1, hotShare*algorithms.TotalWeight(nodes)/wmax), nil
}
