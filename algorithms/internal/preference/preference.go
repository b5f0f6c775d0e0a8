// Package preference walks an owner table the way Dynamo-style rings pick
// replicas (the "preference list"): from a key's entry onward, wrapping
// past the end, taking each entry's owner unless it is already chosen. The
// ring (points), bounded (partitions) and slots (hash slots) placers share
// it for [algorithms.Replicator].
package preference

import (
	"slices"

	"github.com/chbench/chbench/algorithms"
)

// Owner is the integer type of an owner table entry: an index into the
// placer's nodes.
type Owner interface{ ~int32 | ~uint16 }

// List returns, in dst[:0], the distinct owners met walking owner from
// index start (owner[start], owner[start+1], ..., wrapping past the end),
// in the order met, stopping after min(len(dst), nodes,
// algorithms.MaxReplicas) of them or after one lap. nodes is the number of
// nodes; start must index owner. It does not allocate when dst has room.
// Cost: O(R^2) for R replicas plus the entries skipped, at most one lap.
func List[O Owner](owner []O, start, nodes int, dst []int) []int {
	want := min(len(dst), nodes, algorithms.MaxReplicas)
	out := dst[:0]
	if want == 0 {
		return out
	}
	i := start
	for range len(owner) {
		if o := int(owner[i]); !slices.Contains(out, o) {
			if out = append(out, o); len(out) == want {
				break
			}
		}
		if i++; i == len(owner) {
			i = 0
		}
	}
	return out
}
