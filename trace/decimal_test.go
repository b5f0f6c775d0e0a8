package trace

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// appendDecimal writes what strconv.AppendUint writes: at every power of
// ten and its neighbours, at the edges of the 8-digit groups, at 0 and
// the maximum, and at 10^6 random values of every length.
func TestAppendDecimal(t *testing.T) {
	check := func(x uint64) {
		if got, want := string(appendDecimal([]byte("k"), x)), "k"+strconv.FormatUint(x, 10); got != want {
			t.Fatalf("appendDecimal(%d) = %q, want %q", x, got, want)
		}
	}
	check(0)
	check(math.MaxUint64)
	for p := uint64(1); p <= 1e19; p *= 10 {
		check(p - 1)
		check(p)
		check(p + 1)
		if p > math.MaxUint64/10 {
			break
		}
	}
	for _, x := range []uint64{99999999, 100000000, 9999999999999999, 10000000000000000, 43698, 178} {
		check(x)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000000 {
		x := r.Uint64()
		check(x >> r.UintN(64))
	}
}

func BenchmarkAppendDecimal(b *testing.B) {
	buf := make([]byte, 0, 24)
	x := uint64(16568753300940875986)
	for b.Loop() {
		x = x*6364136223846793005 + 1
		buf = appendDecimal(buf[:0], x)
	}
	benchSink = buf
}

func BenchmarkAppendUint(b *testing.B) {
	buf := make([]byte, 0, 24)
	x := uint64(16568753300940875986)
	for b.Loop() {
		x = x*6364136223846793005 + 1
		buf = strconv.AppendUint(buf[:0], x, 10)
	}
	benchSink = buf
}

var benchSink []byte
