package analysis

import (
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
)

// On one node every placement with exact shares gives it the whole hash
// space: share 1 and a peak-to-mean ratio of exactly 1, for every hash
// (modulo's 64-bit count of 2^64 values wrapped to 0, the ring's float sum
// of its arcs ended at 1 - 2^-52).
func TestExactBalanceOneNode(t *testing.T) {
	nodes := []algorithms.Node{{ID: "node-0", Weight: 1}}
	for _, algo := range append(catalog.Names(), catalog.Dialects()...) {
		for _, h := range []string{"xxhash", "fnv1a32", "murmur3", "md5"} {
			cfg := catalog.DefaultConfig()
			cfg.Hash = h
			b, err := ExactBalance(algo, nodes, cfg)
			if err != nil || b == nil {
				continue // no exact shares, or not on one node
			}
			if b.PeakToMean != 1 || b.MinShare != 1 || b.MaxShare != 1 || b.CV != 0 {
				t.Errorf("%s hash=%s on one node: %+v, want shares 1, peak-to-mean 1, cv 0", algo, h, *b)
			}
		}
	}
}
