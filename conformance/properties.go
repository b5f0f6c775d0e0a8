package conformance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/dump"
)

// oddKeys are the keys with unusual bytes the determinism check adds: a
// placement must place each the same way every time, which it cannot if
// they do not reach it intact.
var oddKeys = []string{"", " ", "%", "%25", "a b", "tab\tkey", "line\nbreak", "cr\r", "\x00", "\xff\xfe", "é", "日本",
	strings.Repeat("long key ", 1200)}

// run is one Run: the placement, the configuration and the shared keys.
type run struct {
	ctx   context.Context
	open  Opener
	cfg   Config
	facts algorithms.Facts
	nodes []algorithms.Node // cfg.IDs, weight 1
	keys  []string
}

// The Check names of the results.
const (
	checkDiffering  = "fraction of keys whose owner differs"
	checkCV         = "cv of the shares"
	checkWeightCV   = "cv of the loads relative to weight"
	checkCollateral = "fraction moved between other nodes"
	checkMoved      = "fraction of keys moved"
	checkBadReplica = "fraction of keys with bad replicas"
	checkSteps      = "steps not completed"
	checkAgreement  = "fraction of keys placed otherwise"
)

func failed(property, check string, err error) Result {
	return Result{Property: property, Check: check, Verdict: Fail, Detail: "could not run: " + err.Error()}
}

func notApplicable(property, check, why string) Result {
	return Result{Property: property, Check: check, Verdict: NotApplicable, Detail: why}
}

// measured returns the Result of a check whose value must not exceed bound.
func measured(property, check string, value, bound float64, detail string) Result {
	v := Pass
	if value > bound {
		v = Fail
	}
	return Result{Property: property, Check: check, Value: value, Threshold: bound, Measured: true, Verdict: v, Detail: detail}
}

// closeLocator releases a Locator that holds something (an external
// membership).
func closeLocator(l algorithms.Locator) {
	if c, ok := l.(io.Closer); ok {
		c.Close()
	}
}

// ownerIDs returns the IDs of the owners l gives keys.
func ownerIDs(l algorithms.Locator, keys []string) ([]string, error) {
	idx := make([]int, len(keys))
	if err := l.LocateKeys(keys, idx); err != nil {
		return nil, err
	}
	nodes := l.Nodes()
	out := make([]string, len(keys))
	for i, x := range idx {
		if x < 0 || x >= len(nodes) {
			return nil, fmt.Errorf("owner index %d of key %q outside the %d nodes", x, keys[i], len(nodes))
		}
		out[i] = nodes[x].ID
	}
	return out, nil
}

// counts returns how many keys each node of l owns, indexed like
// l.Nodes().
func counts(l algorithms.Locator, keys []string) ([]float64, error) {
	idx := make([]int, len(keys))
	if err := l.LocateKeys(keys, idx); err != nil {
		return nil, err
	}
	c := make([]float64, len(l.Nodes()))
	for i, x := range idx {
		if x < 0 || x >= len(c) {
			return nil, fmt.Errorf("owner index %d of key %q outside the %d nodes", x, keys[i], len(c))
		}
		c[x]++
	}
	return c, nil
}

// placement opens an instance and builds nodes on it; close releases both.
func (r *run) placement(nodes []algorithms.Node) (b catalog.Builder, l algorithms.Locator, close func(), err error) {
	b, err = r.open()
	if err == nil && b == nil {
		err = errors.New("the Opener returned no placement and no error")
	}
	if err != nil {
		return nil, nil, nil, err
	}
	l, err = b.New(nodes)
	if err != nil {
		b.Close()
		return nil, nil, nil, err
	}
	return b, l, func() { closeLocator(l); b.Close() }, nil
}

func (r *run) rng(salt uint64) *rand.Rand { return rand.New(rand.NewPCG(r.cfg.Seed, salt)) }

func (r *run) determinism() []Result {
	keys := append(slices.Clone(r.keys), oddKeys...)
	b, l, done, err := r.placement(r.nodes)
	if err != nil {
		return []Result{failed(Determinism, checkDiffering, err)}
	}
	defer done()
	var runs [4][]string
	if runs[0], err = ownerIDs(l, keys); err == nil {
		runs[1], err = ownerIDs(l, keys)
	}
	if err == nil {
		var again algorithms.Locator
		if again, err = b.New(r.nodes); err == nil {
			runs[2], err = ownerIDs(again, keys)
			closeLocator(again)
		}
	}
	if err == nil {
		var restart func()
		var other algorithms.Locator
		if _, other, restart, err = r.placement(r.nodes); err == nil {
			runs[3], err = ownerIDs(other, keys)
			restart()
		}
	}
	if err != nil {
		return []Result{failed(Determinism, checkDiffering, err)}
	}
	differ, first := 0, -1
	for i := range keys {
		if runs[1][i] != runs[0][i] || runs[2][i] != runs[0][i] || runs[3][i] != runs[0][i] {
			differ++
			if first < 0 {
				first = i
			}
		}
	}
	detail := fmt.Sprintf("%d keys (%d with unusual bytes) looked up twice, on a second placement of the membership and in a restarted instance",
		len(keys), len(oddKeys))
	if first >= 0 {
		detail += fmt.Sprintf("; key %q: owners %q, %q, %q, %q", shortKey(keys[first]), runs[0][first], runs[1][first], runs[2][first], runs[3][first])
	}
	return []Result{measured(Determinism, checkDiffering, frac(differ, len(keys)), 0, detail)}
}

func (r *run) order() []Result {
	if r.facts.Ordered {
		return []Result{notApplicable(Order, checkDiffering, "declared ordered: owners follow the order of the node list")}
	}
	reversed := slices.Clone(r.nodes)
	slices.Reverse(reversed)
	shuffled := slices.Clone(r.nodes)
	rng := r.rng(0x6f72646572) // "order"
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	b, l, done, err := r.placement(r.nodes)
	if err != nil {
		return []Result{failed(Order, checkDiffering, err)}
	}
	defer done()
	var runs [3][]string
	runs[0], err = ownerIDs(l, r.keys)
	for i, nodes := range [][]algorithms.Node{reversed, shuffled} {
		if err != nil {
			break
		}
		var other algorithms.Locator
		if other, err = b.New(nodes); err == nil {
			runs[i+1], err = ownerIDs(other, r.keys)
			closeLocator(other)
		}
	}
	if err != nil {
		return []Result{failed(Order, checkDiffering, err)}
	}
	differ, first := 0, -1
	for i := range r.keys {
		if runs[1][i] != runs[0][i] || runs[2][i] != runs[0][i] {
			differ++
			if first < 0 {
				first = i
			}
		}
	}
	detail := "the membership listed as given, reversed and shuffled"
	if first >= 0 {
		detail += fmt.Sprintf("; key %q: owners %q, %q, %q", shortKey(r.keys[first]), runs[0][first], runs[1][first], runs[2][first])
	}
	return []Result{measured(Order, checkDiffering, frac(differ, len(r.keys)), 0, detail)}
}

// shares checks the counts of K keys on nodes against the expected shares,
// for the balance and weights properties (see shareTest).
func (r *run) shares(property, check string, nodes []algorithms.Node, expected []float64) Result {
	_, l, done, err := r.placement(nodes)
	if err != nil {
		return failed(property, check, err)
	}
	defer done()
	c, err := counts(l, r.keys)
	if err != nil {
		return failed(property, check, err)
	}
	k := float64(len(r.keys))
	var x2 float64
	worst, worstDev := 0, 0.0
	for i, ci := range c {
		want := k * expected[i]
		d := ci - want
		x2 += d * d / want
		if dev := math.Abs(ci/want - 1); dev > worstDev {
			worst, worstDev = i, dev
		}
	}
	st := shareTest{df: float64(len(nodes) - 1), keys: k, cv0: r.cfg.CV, alpha: r.cfg.Alpha}
	cv := math.Sqrt(x2 / k)
	detail := fmt.Sprintf("%d keys on %d nodes, sampling noise alone %.3g; node %q holds %.4g of the keys for an expected %.4g; the threshold is what a placement with cv %g shows at alpha %g (power %.3f against cv %.3g)",
		len(r.keys), len(nodes), math.Sqrt(st.df/k), nodes[worst].ID, c[worst]/k, expected[worst], r.cfg.CV, r.cfg.Alpha, st.power(1.5*r.cfg.CV), 1.5*r.cfg.CV)
	return measured(property, check, cv, st.cvBound(), detail)
}

func (r *run) balance() []Result {
	expected := make([]float64, len(r.nodes))
	for i := range expected {
		expected[i] = 1 / float64(len(r.nodes))
	}
	return []Result{r.shares(Balance, checkCV, r.nodes, expected)}
}

func (r *run) weights() []Result {
	if !r.facts.Weighted {
		return []Result{notApplicable(Weights, checkWeightCV, "declared unweighted")}
	}
	nodes := slices.Clone(r.nodes)
	var total float64
	for i := range nodes {
		nodes[i].Weight = float64(1 + i%4)
		total += nodes[i].Weight
	}
	expected := make([]float64, len(nodes))
	for i, n := range nodes {
		expected[i] = n.Weight / total
	}
	res := r.shares(Weights, checkWeightCV, nodes, expected)
	if res.Measured {
		res.Detail = "weights 1, 2, 3, 4, 1, 2, ...: " + res.Detail
	}
	return []Result{res}
}

// joiner returns an ID that is not in the membership, for the node that
// joins.
func (r *run) joiner() string {
	id := algorithms.NodeID(len(r.nodes))
	for k := 1; algorithms.IndexOf(r.nodes, id) >= 0; k++ {
		id = fmt.Sprintf("joiner-%d", k)
	}
	return id
}

// change builds the membership, rebalances it to next and returns the
// owner IDs of every key before and after.
func (r *run) change(next []algorithms.Node) (before, after []string, err error) {
	_, l, done, err := r.placement(r.nodes)
	if err != nil {
		return nil, nil, err
	}
	defer done()
	l2, err := l.Rebalance(next)
	if err != nil {
		return nil, nil, err
	}
	defer closeLocator(l2)
	if before, err = ownerIDs(l, r.keys); err != nil {
		return nil, nil, err
	}
	after, err = ownerIDs(l2, r.keys)
	return before, after, err
}

func (r *run) join() []Result {
	id := r.joiner()
	before, after, err := r.change(append(slices.Clone(r.nodes), algorithms.Node{ID: id, Weight: 1}))
	if err != nil {
		return []Result{failed(Join, checkCollateral, err), failed(Join, checkMoved, err)}
	}
	moved, collateral, first := 0, 0, -1
	for i := range r.keys {
		if before[i] == after[i] {
			continue
		}
		moved++
		if after[i] != id {
			collateral++
			if first < 0 {
				first = i
			}
		}
	}
	n := float64(len(r.nodes))
	k := float64(len(r.keys))
	ideal := 1 / (n + 1)
	z := zAlpha(r.cfg.Alpha)
	bound := ideal*(1+z*r.cfg.CV) + z*math.Sqrt(ideal*(1-ideal)/k)
	detail := fmt.Sprintf("%q joined %d nodes", id, len(r.nodes))
	cdetail := detail
	if first >= 0 {
		cdetail += fmt.Sprintf("; key %q moved from %q to %q", shortKey(r.keys[first]), before[first], after[first])
	}
	mdetail := fmt.Sprintf("%s; ideal 1/(n+1) = %.4g, allowed %.4g: the ideal times 1 + z*cv (%.3g, z = %.3g at alpha %g) plus z binomial standard errors",
		detail, ideal, bound, 1+z*r.cfg.CV, z, r.cfg.Alpha)
	return []Result{
		measured(Join, checkCollateral, frac(collateral, len(r.keys)), 0, cdetail),
		measured(Join, checkMoved, frac(moved, len(r.keys)), bound, mdetail),
	}
}

func (r *run) leave() []Result {
	i, which := len(r.nodes)-1, "the last, as the placement declares only the last leaves"
	if !r.facts.OnlyLastLeaves {
		i, which = r.rng(0x6c65617665).IntN(len(r.nodes)-1), "a random node but the last" // "leave"
	}
	id := r.nodes[i].ID
	before, after, err := r.change(slices.Delete(slices.Clone(r.nodes), i, i+1))
	if err != nil {
		return []Result{failed(Leave, checkCollateral, err)}
	}
	collateral, first := 0, -1
	for j := range r.keys {
		if before[j] != after[j] && before[j] != id {
			collateral++
			if first < 0 {
				first = j
			}
		}
	}
	detail := fmt.Sprintf("%q left %d nodes (%s)", id, len(r.nodes), which)
	if first >= 0 {
		detail += fmt.Sprintf("; key %q moved from %q to %q", shortKey(r.keys[first]), before[first], after[first])
	}
	return []Result{measured(Leave, checkCollateral, frac(collateral, len(r.keys)), 0, detail)}
}

func (r *run) replicas() []Result {
	if r.facts.Replicas < 2 {
		return []Result{notApplicable(Replicas, checkBadReplica, "declares no replicas (replicas=1)")}
	}
	rf := min(r.cfg.Replicas, r.facts.Replicas, len(r.nodes))
	_, l, done, err := r.placement(r.nodes)
	if err != nil {
		return []Result{failed(Replicas, checkBadReplica, err)}
	}
	defer done()
	reps := make([]int, rf*len(r.keys))
	owners := make([]int, len(r.keys))
	if err := l.ReplicateKeys(r.keys, rf, reps); err != nil {
		return []Result{failed(Replicas, checkBadReplica, err)}
	}
	if err := l.LocateKeys(r.keys, owners); err != nil {
		return []Result{failed(Replicas, checkBadReplica, err)}
	}
	bad, first := 0, -1
	for i := range r.keys {
		set := reps[i*rf : (i+1)*rf]
		ok := set[0] == owners[i]
		for j := 1; ok && j < rf; j++ {
			ok = !slices.Contains(set[:j], set[j])
		}
		if !ok {
			bad++
			if first < 0 {
				first = i
			}
		}
	}
	detail := fmt.Sprintf("R = %d replicas of each key must be distinct nodes, the first its owner", rf)
	if first >= 0 {
		ids := make([]string, rf)
		for j, x := range reps[first*rf : (first+1)*rf] {
			ids[j] = l.Nodes()[x].ID
		}
		detail += fmt.Sprintf("; key %q: replicas %q, owner %q", shortKey(r.keys[first]), ids, l.Nodes()[owners[first]].ID)
	}
	return []Result{measured(Replicas, checkBadReplica, frac(bad, len(r.keys)), 0, detail)}
}

func (r *run) churn() []Result {
	steps := r.cfg.ChurnSteps
	_, l, done, err := r.placement(r.nodes)
	if err != nil {
		return []Result{failed(Churn, checkSteps, err)}
	}
	defer done()
	rng := r.rng(0x636875726e) // "churn"
	lo, hi := max(2, len(r.nodes)/2), 2*len(r.nodes)
	cur := slices.Clone(r.nodes)
	var gone []algorithms.Node
	joins, returns, fresh := 0, 0, 0
	owners := make([]int, r.cfg.ChurnKeys)
	keys := make([]string, r.cfg.ChurnKeys)
	describe := func() string {
		return fmt.Sprintf("%d random joins and leaves between %d and %d nodes (%d joins, %d of them of nodes that had left), %d keys located after each",
			steps, lo, hi, joins, returns, r.cfg.ChurnKeys)
	}
	for step := 1; step <= steps; step++ {
		if err := r.ctx.Err(); err != nil {
			return []Result{failed(Churn, checkSteps, err)}
		}
		next := slices.Clone(cur)
		var what string
		if len(cur) <= lo || (len(cur) < hi && rng.IntN(2) == 0) {
			var nd algorithms.Node
			if len(gone) > 0 && rng.IntN(2) == 0 {
				j := rng.IntN(len(gone))
				nd = gone[j]
				gone = slices.Delete(gone, j, j+1)
				returns++
			} else {
				nd = algorithms.Node{ID: fmt.Sprintf("churn-%d", fresh), Weight: 1}
				fresh++
			}
			joins++
			next = append(next, nd)
			what = fmt.Sprintf("%q joining %d nodes", nd.ID, len(cur))
		} else {
			i := len(cur) - 1
			if !r.facts.OnlyLastLeaves {
				i = rng.IntN(len(cur))
			}
			gone = append(gone, cur[i])
			what = fmt.Sprintf("%q leaving %d nodes", cur[i].ID, len(cur))
			next = slices.Delete(next, i, i+1)
		}
		l2, err := l.Rebalance(next)
		if err == nil {
			for j := range keys {
				keys[j] = r.keys[((step-1)*len(keys)+j)%len(r.keys)]
			}
			err = l2.LocateKeys(keys, owners)
		}
		if err != nil {
			if l2 != nil {
				closeLocator(l2)
			}
			return []Result{measured(Churn, checkSteps, float64(steps-step+1), 0,
				fmt.Sprintf("%s; step %d (%s) failed: %v", describe(), step, what, err))}
		}
		closeLocator(l)
		l, cur = l2, next
	}
	return []Result{measured(Churn, checkSteps, 0, 0, describe())}
}

func (r *run) reference() []Result {
	ref := r.cfg.Reference
	if ref == nil {
		return []Result{notApplicable(Reference, checkAgreement, "no reference given")}
	}
	if ref.Vectors != "" {
		return []Result{r.vectors(ref)}
	}
	_, l, done, err := r.placement(r.nodes)
	if err != nil {
		return []Result{failed(Reference, checkAgreement, err)}
	}
	defer done()
	rb, err := ref.Open()
	if err != nil {
		return []Result{failed(Reference, checkAgreement, fmt.Errorf("reference %s: %w", ref.Name, err))}
	}
	defer rb.Close()
	rl, err := rb.New(r.nodes)
	if err != nil {
		return []Result{failed(Reference, checkAgreement, fmt.Errorf("reference %s: %w", ref.Name, err))}
	}
	defer closeLocator(rl)
	rf := min(r.cfg.Replicas, r.facts.Replicas, rb.Facts().Replicas, len(r.nodes))
	if rf < 2 {
		rf = 1
	}
	got, err := replicaIDs(l, r.keys, rf)
	if err != nil {
		return []Result{failed(Reference, checkAgreement, err)}
	}
	want, err := replicaIDs(rl, r.keys, rf)
	if err != nil {
		return []Result{failed(Reference, checkAgreement, fmt.Errorf("reference %s: %w", ref.Name, err))}
	}
	differ, first := 0, -1
	for i := range r.keys {
		if !slices.Equal(got[i*rf:(i+1)*rf], want[i*rf:(i+1)*rf]) {
			differ++
			if first < 0 {
				first = i
			}
		}
	}
	detail := fmt.Sprintf("owners compared with %s on the same membership", ref.Name)
	if rf > 1 {
		detail = fmt.Sprintf("owners and R = %d replicas compared with %s on the same membership", rf, ref.Name)
	}
	if first >= 0 {
		detail += fmt.Sprintf("; key %q: %q, the reference %q", shortKey(r.keys[first]), got[first*rf:(first+1)*rf], want[first*rf:(first+1)*rf])
	}
	return []Result{measured(Reference, checkAgreement, frac(differ, len(r.keys)), 0, detail)}
}

// replicaIDs returns the IDs of the r replicas (r = 1: the owner) of every
// key on l, key after key.
func replicaIDs(l algorithms.Locator, keys []string, r int) ([]string, error) {
	idx := make([]int, r*len(keys))
	var err error
	if r == 1 {
		err = l.LocateKeys(keys, idx)
	} else {
		err = l.ReplicateKeys(keys, r, idx)
	}
	if err != nil {
		return nil, err
	}
	out := make([]string, len(idx))
	for i, x := range idx {
		out[i] = l.Nodes()[x].ID
	}
	return out, nil
}

// vectors compares the placement with a vector file, chunk by chunk.
func (r *run) vectors(ref *Ref) Result {
	f, err := os.Open(ref.Vectors)
	if err != nil {
		return failed(Reference, checkAgreement, err)
	}
	defer f.Close()
	_, l, done, err := r.placement(r.nodes)
	if err != nil {
		return failed(Reference, checkAgreement, err)
	}
	defer done()
	name := ref.Name
	if name == "" {
		name = ref.Vectors
	}
	rd := dump.NewReader(f, ref.Vectors)
	const chunk = 4096
	var recs []dump.Record
	keys := make([]string, 0, chunk)
	idx := make([]int, chunk)
	total, differ := 0, 0
	var example string
	flush := func() error {
		if len(recs) == 0 {
			return nil
		}
		keys = keys[:0]
		for _, rec := range recs {
			keys = append(keys, rec.Key)
		}
		if err := l.LocateKeys(keys, idx); err != nil {
			return err
		}
		for i, rec := range recs {
			if got := l.Nodes()[idx[i]].ID; got != rec.Server {
				differ++
				if example == "" {
					example = fmt.Sprintf("; line %d, key %q: %q, the vector %q", rec.Line, shortKey(rec.Key), got, rec.Server)
					if algorithms.IndexOf(r.nodes, rec.Server) < 0 {
						example += " (not a member of the checks' membership: set Config.IDs to the vector file's nodes)"
					}
				}
			}
		}
		total += len(recs)
		recs = recs[:0]
		return nil
	}
	for rd.Scan() {
		recs = append(recs, rd.Record())
		if len(recs) == chunk {
			if err := flush(); err != nil {
				return failed(Reference, checkAgreement, err)
			}
		}
	}
	if err := rd.Err(); err != nil {
		return failed(Reference, checkAgreement, err)
	}
	if err := flush(); err != nil {
		return failed(Reference, checkAgreement, err)
	}
	if total == 0 {
		return failed(Reference, checkAgreement, fmt.Errorf("vector file %s holds no vectors", ref.Vectors))
	}
	return measured(Reference, checkAgreement, frac(differ, total), 0, fmt.Sprintf("%d vectors of %s%s", total, name, example))
}

func frac(a, b int) float64 { return float64(a) / float64(b) }

// shortKey cuts a key to 40 bytes for a Detail.
func shortKey(k string) string {
	if len(k) > 40 {
		return k[:40] + "..."
	}
	return k
}
