package analysis

import (
	"fmt"
	"strconv"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/keyset"
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

// replicaOptions returns o as replica r with sets key sets: the seed
// ReplicaSeed(o.Seed, r), and keys generated from it, as many per set and
// of the same kind as o's generated keys. It returns an error when o's
// keys are not generated.
func replicaOptions(o Options, r, sets int) (Options, error) {
	g := o.generated()
	if g == nil {
		return o, fmt.Errorf("key source %T: replicas draw generated keys", o.Keys)
	}
	o.Seed = ReplicaSeed(o.Seed, r)
	ng, err := keyset.NewGenerator(g.Keys(), sets, o.Seed)
	if err == nil {
		ng, err = ng.WithKind(g.Kind())
	}
	o.Keys = ng
	return o, err
}

// MoveReplicas returns, for each of replicas independent replicas of the
// algorithm in o (see ReplicaSeed for how they differ), the moved fraction
// (0..1) of the resize from -> to nodes (to > from: nodes join; to < from:
// the last nodes leave), pooled over as many sets of as many generated
// keys as o's: the statistic a write-up reports for one run. It returns an
// error for replicas < 1, from or to < 1 or equal, options whose keys are
// not generated, or invalid options.
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
		ro, err := replicaOptions(o, r, o.sets())
		if err != nil {
			return nil, err
		}
		res, err := Movement(ro, sc)
		if err != nil {
			return nil, fmt.Errorf("replica %d: %w", r, err)
		}
		out[r] = res.MovedFrac // equal set sizes: the pooled fraction
	}
	return out, nil
}

// SpreadReplicas returns, for each of replicas independent replicas of the
// algorithm in o (see ReplicaSeed), the Balance of one set of as many
// generated keys as o's sets have, over n equal-weight nodes: the smallest
// and largest share a write-up reports for one run. It returns an error
// for replicas < 1, n < 1, options whose keys are not generated, or
// invalid options.
func SpreadReplicas(o Options, n, replicas int) ([]Balance, error) {
	if replicas < 1 {
		return nil, fmt.Errorf("replicas %d: need at least 1", replicas)
	}
	if n < 1 {
		return nil, fmt.Errorf("nodes %d: need at least 1 node", n)
	}
	out := make([]Balance, replicas)
	for r := range out {
		ro, err := replicaOptions(o, r, 1)
		if err != nil {
			return nil, err
		}
		src, _, err := ro.prepare()
		if err != nil {
			return nil, err
		}
		nodes := replicaNodes(n, r)
		p, err := catalog.NewLocator(ro.Algo, nodes, ro.Config)
		if err != nil {
			return nil, fmt.Errorf("replica %d: %w", r, err)
		}
		counts, err := CountOwners(src, p, ro.Workers)
		if err != nil {
			return nil, err
		}
		shares := make([]float64, n)
		for i, c := range counts[0] {
			shares[i] = float64(c) / float64(ro.generated().Keys())
		}
		if out[r], err = BalanceOf(shares, p.Nodes()); err != nil {
			return nil, err
		}
	}
	return out, nil
}
