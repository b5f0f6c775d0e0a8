package analysis

import (
	"fmt"
	"strconv"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/schema"
)

// A published single-run statistic (one ring, one hash, one key set) is a
// random variable: with few virtual nodes its spread across rings is wide.
// The replica functions below measure that spread for chbench's own
// algorithm, so a published figure can be checked for lying inside the
// range the algorithm produces, rather than for equality with one run.
//
// Replica r (0 <= r < R) keeps the algorithm, its configuration and the
// hash, and changes what a published run would have had differently:
//   - its node IDs are "r<r>/node-<i>", so the virtual nodes land elsewhere
//     on the ring;
//   - its keys come from the generator seeded with ReplicaSeed(o.Seed, r).
//
// The hash is kept on purpose: a hash that places similar labels close
// together (FNV-1a on "ID#j" labels clusters a ring's points) would widen
// the range until it says nothing about the algorithm.

// ReplicaSeed returns the key-generator seed of replica r for base seed
// seed: Mix64(Mix64(seed) + r + 1), distinct from seed itself for every r.
func ReplicaSeed(seed uint64, r int) uint64 {
	return algorithms.Mix64(algorithms.Mix64(seed) + uint64(r) + 1)
}

// replicaNodes returns n equal-weight nodes r<r>/node-0 ... of replica r.
func replicaNodes(n, r int) []algorithms.Node {
	nodes := make([]algorithms.Node, n)
	for i := range nodes {
		nodes[i] = algorithms.Node{ID: "r" + strconv.Itoa(r) + "/" + algorithms.NodeID(i), Weight: 1}
	}
	return nodes
}

// replicaOptions returns o as replica r: its key seed.
func replicaOptions(o Options, r int) Options {
	o.Seed = ReplicaSeed(o.Seed, r)
	o.KeyFile = ""
	return o
}

// MoveReplicas returns, for each of replicas independent replicas of the
// algorithm in o (see ReplicaSeed for how they differ), the moved fraction
// (0..1) of the resize from -> to nodes (to > from: nodes join; to < from:
// the last nodes leave), pooled over the o.Sets sets of o.Keys generated
// keys: the statistic a write-up reports for one run. o.KeyFile is
// ignored. It returns an error for replicas < 1, from or
// to < 1 or equal, or invalid options.
func MoveReplicas(o Options, from, to, replicas int) ([]float64, error) {
	if replicas < 1 {
		return nil, fmt.Errorf("replicas %d: need at least 1", replicas)
	}
	if from < 1 || to < 1 || from == to {
		return nil, fmt.Errorf("resize %d -> %d: need two different node counts >= 1", from, to)
	}
	out := make([]float64, replicas)
	for r := range out {
		all := replicaNodes(max(from, to), r)
		sc := Scenario{Op: schema.OpAdd, Initial: all[:from], Steps: []Step{{Join: all[from:]}}}
		if to < from {
			sc = Scenario{Op: schema.OpRemoveLast, Initial: all}
			var leave []string
			for _, n := range all[to:] {
				leave = append(leave, n.ID)
			}
			sc.Steps = []Step{{Leave: leave}}
		} else if to > from+1 {
			sc.Op = schema.OpAddMany
		}
		res, err := Movement(replicaOptions(o, r), sc)
		if err != nil {
			return nil, fmt.Errorf("replica %d: %w", r, err)
		}
		out[r] = res.MovedFrac // equal set sizes: the pooled fraction
	}
	return out, nil
}

// SpreadReplicas returns, for each of replicas independent replicas of the
// algorithm in o (see ReplicaSeed), the Balance of one set of o.Keys
// generated keys over n equal-weight nodes: the smallest and largest share
// a write-up reports for one run. o.Sets and o.KeyFile are ignored. It returns an error for replicas < 1, n < 1 or invalid options.
func SpreadReplicas(o Options, n, replicas int) ([]Balance, error) {
	if replicas < 1 {
		return nil, fmt.Errorf("replicas %d: need at least 1", replicas)
	}
	if n < 1 {
		return nil, fmt.Errorf("nodes %d: need at least 1 node", n)
	}
	out := make([]Balance, replicas)
	for r := range out {
		ro := replicaOptions(o, r)
		ro.Sets = 1
		src, _, err := ro.prepare()
		if err != nil {
			return nil, err
		}
		nodes := replicaNodes(n, r)
		p, err := catalog.New(ro.Algo, nodes, ro.Config)
		if err != nil {
			return nil, fmt.Errorf("replica %d: %w", r, err)
		}
		counts, err := CountOwners(src, p, ro.Workers)
		if err != nil {
			return nil, err
		}
		shares := make([]float64, n)
		for i, c := range counts[0] {
			shares[i] = float64(c) / float64(ro.Keys)
		}
		if out[r], err = BalanceOf(shares, p.Nodes()); err != nil {
			return nil, err
		}
	}
	return out, nil
}
