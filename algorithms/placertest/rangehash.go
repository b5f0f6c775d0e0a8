package placertest

import (
	"errors"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/chbench/chbench/algorithms"
)

// Z is the bound, in standard errors, of the statistical checks here: the
// two-sided normal tail beyond 5 standard errors is 5.7e-7, so a correct
// algorithm fails a fixed-seed check with about that probability.
const Z = 5

// CheckGrowth builds the placement of n nodes with build, lets node "new"
// join, and asserts for each n in ns that keys moved only to "new" and that
// the moved fraction is within [Z] binomial standard errors of the ideal
// 1/(n+1) (the moved count of a consistent range hash is Binomial(K,
// 1/(n+1)) over K independent keys). It returns the moved fractions.
func CheckGrowth(t *testing.T, build func(n int) algorithms.Placer, keys []string, ns []int) []float64 {
	t.Helper()
	out := make([]float64, len(ns))
	for i, n := range ns {
		before := build(n)
		after, err := algorithms.Join(before, algorithms.Node{ID: "new", Weight: 1})
		if err != nil {
			t.Fatal(err)
		}
		got := CheckJoin(t, before, after, keys, "new")
		p := 1 / float64(n+1)
		if se := math.Sqrt(p * (1 - p) / float64(len(keys))); math.Abs(got-p) > Z*se {
			t.Errorf("%s n=%d -> %d: moved %.5f, want %.5f +- %.5f (%g binomial standard errors)",
				before.Algorithm(), n, n+1, got, p, Z*se, float64(Z))
		}
		out[i] = got
	}
	return out
}

// CheckUniform asserts that the keys spread over p's nodes as evenly as
// independent uniform draws would; it is [CheckShares] with every share
// 1/n.
func CheckUniform(t *testing.T, p algorithms.Placer, keys []string, alpha float64) (x2, bound float64) {
	t.Helper()
	n := len(p.Nodes())
	shares := make([]float64, n)
	for i := range shares {
		shares[i] = 1 / float64(n)
	}
	return CheckShares(t, p, keys, shares, alpha)
}

// CheckShares asserts that the keys spread over p's nodes as independent
// draws from the given shares (one per node, indexed like p.Nodes(),
// summing to 1) would: Pearson's statistic X^2 = sum (c_i - K s_i)^2 / (K
// s_i) over the per-node counts c_i of K keys must stay below the 1-alpha
// quantile of the chi-square distribution with n-1 degrees of freedom (its
// law when the shares are exact). It returns X^2 and that bound.
func CheckShares(t *testing.T, p algorithms.Placer, keys []string, shares []float64, alpha float64) (x2, bound float64) {
	t.Helper()
	counts := Counts(p, keys)
	n := len(counts)
	if n < 2 || len(shares) != n {
		t.Fatalf("%s: %d nodes, %d shares: need at least 2 nodes and one share each", p.Algorithm(), n, len(shares))
	}
	for i, c := range counts {
		want := shares[i] * float64(len(keys))
		d := float64(c) - want
		x2 += d * d / want
	}
	bound = distuv.ChiSquared{K: float64(n - 1)}.Quantile(1 - alpha)
	if x2 > bound {
		t.Errorf("%s, %d nodes, %d keys: chi-square %.1f exceeds %.1f (p = %g, %d degrees of freedom)",
			p.Algorithm(), n, len(keys), x2, bound, alpha, n-1)
	}
	return x2, bound
}

// CheckMonotone asserts the defining property of a consistent range hash
// on bucket, a function from a key hash and a bucket count n >= 1 to a
// bucket in 0..n-1: for every hash, growing the count from 1 to maxN changes
// a key's bucket only to the newest bucket n-1.
func CheckMonotone(t *testing.T, bucket func(h uint64, n int) int, hashes []uint64, maxN int) {
	t.Helper()
	for _, h := range hashes {
		prev := bucket(h, 1)
		if prev != 0 {
			t.Fatalf("hash %#x, 1 bucket: bucket %d", h, prev)
		}
		for n := 2; n <= maxN; n++ {
			b := bucket(h, n)
			if b != prev && b != n-1 {
				t.Fatalf("hash %#x: bucket %d at n=%d, %d at n=%d (may only stay or move to %d)", h, prev, n-1, b, n, n-1)
			}
			if b < 0 || b >= n {
				t.Fatalf("hash %#x, %d buckets: bucket %d out of range", h, n, b)
			}
			prev = b
		}
	}
}

// Hashes returns k deterministic pseudo-random 64-bit key hashes drawn with
// the given seed.
func Hashes(k int, seed uint64) []uint64 {
	keys := Keys(k, seed)
	hs := make([]uint64, k)
	for i, key := range keys {
		hs[i] = algorithms.MustHash("xxhash").Sum(key)
	}
	return hs
}

// Vector is one reference output of a range hash: the bucket of a 64-bit
// key hash among N buckets.
type Vector struct {
	Hash, N, Bucket uint64
}

// ReadVectors reads reference outputs from a text file of lines "HASH N
// BUCKET" (hash in hex, N and bucket in decimal); lines starting with '#'
// are comments. It fails t on a missing file or a malformed line, naming it.
func ReadVectors(t *testing.T, path string) []Vector {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var vs []Vector
	for i, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Fields(line)
		if len(fs) != 3 {
			t.Fatalf("%s:%d: %q: want HASH N BUCKET", path, i+1, line)
		}
		h, err1 := strconv.ParseUint(fs[0], 16, 64)
		n, err2 := strconv.ParseUint(fs[1], 10, 64)
		b, err3 := strconv.ParseUint(fs[2], 10, 64)
		if err := errors.Join(err1, err2, err3); err != nil || n < 1 || b >= n {
			t.Fatalf("%s:%d: %q: bad vector (%v)", path, i+1, line, err)
		}
		vs = append(vs, Vector{h, n, b})
	}
	return vs
}

// MoveStats returns the mean and sample variance, over hashes, of the
// number of times a key's bucket changes as the bucket count grows from 1
// to maxN.
func MoveStats(bucket func(h uint64, n int) int, hashes []uint64, maxN int) (mean, variance float64) {
	moves := make([]float64, len(hashes))
	for i, h := range hashes {
		prev := 0
		for n := 2; n <= maxN; n++ {
			if b := bucket(h, n); b != prev {
				moves[i]++
				prev = b
			}
		}
	}
	return stat.MeanVariance(moves, nil)
}

// JumpLaw returns the mean, variance and fourth cumulant of the number of
// moves of one key under jump's law as the bucket count grows from 1 to
// maxN: at step n-1 -> n a key moves with probability 1/n independently of
// its history, so the count is a sum of independent Bernoulli(1/n) and its
// cumulants are sums.
func JumpLaw(maxN int) (mean, variance, k4 float64) {
	for n := 2; n <= maxN; n++ {
		p := 1 / float64(n)
		q := p * (1 - p)
		mean += p
		variance += q
		k4 += q * (1 - 6*q)
	}
	return mean, variance, k4
}

// CheckVectors reads the reference outputs in the file at path (see
// [ReadVectors]) and asserts that bucket(hash, N) is each one's bucket and
// that the file holds at least min of them; source names the reference
// implementation in the failure messages.
func CheckVectors(t *testing.T, path, source string, min int, bucket func(h, n uint64) uint64) {
	t.Helper()
	vs := ReadVectors(t, path)
	for _, v := range vs {
		if got := bucket(v.Hash, v.N); got != v.Bucket {
			t.Errorf("hash %#x, %d buckets: %d, %s %d", v.Hash, v.N, got, source, v.Bucket)
		}
	}
	if len(vs) < min {
		t.Fatalf("%s: only %d vectors, want at least %d", path, len(vs), min)
	}
}

// CheckDeterministic asserts that two placers built by build from the same
// input give every key the same owner.
func CheckDeterministic(t *testing.T, build func() algorithms.Placer, keys []string) {
	t.Helper()
	a, b := build(), build()
	for _, k := range keys {
		if a.Locate(k) != b.Locate(k) {
			t.Fatalf("%s: key %q: %q then %q", a.Algorithm(), k, a.Locate(k), b.Locate(k))
		}
	}
}

// CheckSwapLast asserts the swap-last removal of the range hashes (see
// [algorithms.SwapLast]) when node id leaves p: the former last node takes
// the leaving node's index (its bucket), every key of the leaving node goes
// to it, and only the former last node's keys move between survivors.
func CheckSwapLast(t *testing.T, p algorithms.Placer, keys []string, id string) {
	t.Helper()
	before := p.Nodes()
	i := algorithms.IndexOf(before, id)
	if i < 0 {
		t.Fatalf("%s: node %q is not a member", p.Algorithm(), id)
	}
	last := before[len(before)-1].ID
	after := Leave(t, p, id)
	if nodes := after.Nodes(); len(nodes) != len(before)-1 || (i < len(nodes) && nodes[i].ID != last) {
		t.Fatalf("%s: bucket order after removing %s: %v, want %s in bucket %d", p.Algorithm(), id, nodes, last, i)
	}
	for _, k := range keys {
		a, b := p.Locate(k), after.Locate(k)
		switch {
		case a == id && b != last:
			t.Fatalf("%s: key %q of %s went to %q, want %s", p.Algorithm(), k, id, b, last)
		case a != id && a != last && a != b:
			t.Fatalf("%s: key %q moved from %q to %q", p.Algorithm(), k, a, b)
		}
	}
}

// CheckEqualWeightErrors asserts the errors of a placer that takes equal
// weights only, built by build (a package's New): an empty membership is
// an error wrapping [algorithms.ErrNoNodes], unequal weights an error
// containing want (the algorithm's name, or the nodes it names), and a
// Rebalance to a membership with a duplicate ID an error.
func CheckEqualWeightErrors[P algorithms.Placer](t *testing.T, build func([]algorithms.Node, algorithms.Hash) (P, error), want string) {
	t.Helper()
	h := algorithms.MustHash("xxhash")
	if _, err := build(nil, h); !errors.Is(err, algorithms.ErrNoNodes) {
		t.Errorf("empty membership: err = %v, want %v", err, algorithms.ErrNoNodes)
	}
	if _, err := build([]algorithms.Node{{ID: "a", Weight: 1}, {ID: "b", Weight: 2}}, h); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("unequal weights: err = %v, want one naming %q", err, want)
	}
	if _, err := Build(t, 3, build).Rebalance([]algorithms.Node{{ID: "a", Weight: 1}, {ID: "a", Weight: 1}}); err == nil {
		t.Error("duplicate IDs accepted")
	}
}
