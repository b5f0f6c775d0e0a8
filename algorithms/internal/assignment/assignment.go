// Package assignment holds the bookkeeping that the bucket-array placers
// AnchorHash, DxHash and MementoHash share: which node holds which bucket,
// the owner table a lookup reads, and how a membership change reassigns
// buckets by node ID (departed nodes' buckets are released in the old
// order, then each joining node takes a bucket from the algorithm's own
// rule, in the new order). The algorithm-specific part, which bucket is
// released or taken next, stays in each package as the remove and add
// functions it passes in.
package assignment

import (
	"fmt"

	"github.com/chbench/chbench/algorithms"
)

// Bucket is a bucket number as the packages store it.
type Bucket interface{ ~int32 | ~uint32 }

// Validate checks a membership for an algorithm that takes equal weights
// only: [algorithms.ValidateNodes] and equal weights. Errors are prefixed
// with name and name the offending nodes.
func Validate(name string, nodes []algorithms.Node) error {
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return algorithms.CheckUniform(name, nodes)
}

// ValidateCapacity checks a bucket array of a buckets for n nodes: n <= a
// <= max. The error names a and n.
func ValidateCapacity(a, n, max int) error {
	if a < n || a > max {
		return fmt.Errorf("capacity %d for %d nodes: need %d <= capacity <= %d", a, n, n, max)
	}
	return nil
}

// Identity returns the first assignment of n nodes: node i holds bucket i.
func Identity[B Bucket](n int) []B {
	bucket := make([]B, n)
	for i := range bucket {
		bucket[i] = B(i)
	}
	return bucket
}

// Owners returns the owner table of an array of size buckets: owner[b] is
// the index of the node holding bucket b (bucket[i] == b), or -1 when no
// node holds it. Every bucket[i] must be below size.
func Owners[B Bucket](bucket []B, size int) []int32 {
	owner := make([]int32, size)
	for b := range owner {
		owner[b] = -1
	}
	for i, b := range bucket {
		owner[b] = int32(i)
	}
	return owner
}

// Reassign returns the buckets of the membership nodes, matching nodes by
// ID against old, whose node i held oldBucket[i]: first remove is called
// with the bucket of each node of old that is not in nodes, in the order of
// old; then each node of nodes keeps its bucket if it is in old and
// otherwise takes add(), in the order of nodes. old and oldBucket are not
// changed.
func Reassign[B Bucket](old []algorithms.Node, oldBucket []B, nodes []algorithms.Node, remove func(B), add func() B) []B {
	held := make(map[string]B, len(old))
	for i, nd := range old {
		held[nd.ID] = oldBucket[i]
	}
	staying := make(map[string]bool, len(nodes))
	for _, nd := range nodes {
		staying[nd.ID] = true
	}
	for i, nd := range old {
		if !staying[nd.ID] {
			remove(oldBucket[i])
		}
	}
	bucket := make([]B, len(nodes))
	for i, nd := range nodes {
		if b, ok := held[nd.ID]; ok {
			bucket[i] = b
		} else {
			bucket[i] = add()
		}
	}
	return bucket
}
