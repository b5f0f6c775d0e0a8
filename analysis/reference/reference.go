package reference

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/bounded"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/jump"
	"github.com/chbench/chbench/algorithms/ring"
	"github.com/chbench/chbench/algorithms/slots"
	"github.com/chbench/chbench/analysis"
)

// refLevel is the two-sided level of every tolerance drawn from a sampling
// law: a correct implementation fails one such row with probability 0.1%.
const refLevel = 0.999

// refZ is the standard normal quantile of refLevel (3.29).
var refZ = distuv.UnitNormal.Quantile(1 - (1-refLevel)/2)

// Size holds the sizes of a reference run.
type Size struct {
	MoveKeys, MoveSets int // modulo vs ring: the published 10,000 keys x 5 sets
	ShareKeys          int // ring shares vs vnodes: the published 10,000 keys (5 servers)
	Replicas           int // independent rings behind each 99% range
	LawKeys, LawSets   int // analytic laws (modulo lcm, weights, noise floor, cache example)
	RingNodes          int // nodes of the ring behind 1/sqrt(k)
	BoundedRuns        int // seeds of each bounded-loads scenario (churn, shrink, add-many)
	BoundedNodes       int // initial nodes of the bounded-loads scenarios
}

var (
	// Default keeps the published sizes where there are any.
	Default = Size{MoveKeys: 10000, MoveSets: 5, ShareKeys: 10000, Replicas: 200,
		LawKeys: 100000, LawSets: 5, RingNodes: 1000, BoundedRuns: 3, BoundedNodes: 50}
	// Full grows what is a statistical law (keys, sets, rings, nodes),
	// never the published experiments' own sizes.
	Full = Size{MoveKeys: 10000, MoveSets: 5, ShareKeys: 10000, Replicas: 1000,
		LawKeys: 1000000, LawSets: 10, RingNodes: 10000, BoundedRuns: 10, BoundedNodes: 100}
)

// Published holds the values of REFERENCES.md a reference run checks.
type Published struct {
	ModuloVsRing []ModuloRingFigure
	ModuloLaw    []refLaw
	RingShares   []refShares
	RingCV       []refCV
	Slots        []refSlots
	Weights      []float64
	Noise        []refNoise
	Cache        refCache
	Slot         []refSlot
	Jump100      []int // keys 0..19 with 100 buckets
	Jump1        []int // key 1 with 1..19 buckets
	Hashes       []refHash
}

type refLaw struct {
	From, To int
	Moved    float64 // published 1 - min/lcm, rounded to Digits decimals (fraction)
	Digits   int
}

type refShares struct {
	VNodes   int
	Min, Max float64 // fraction
}

type refCV struct {
	K          int
	CV, Lo, Hi float64
}

type refSlots struct {
	N          int
	PeakToMean float64
	Decimals   int
}

type refNoise struct {
	Algo       string
	Nodes, Key int // nodes, keys per set (0: the run's ShareKeys)
}

// refCache is the cache fleet example: hash % 4 -> % 5 in front of a
// database.
type refCache struct {
	From, To   int
	Reads      float64 // reads per second reaching the cache fleet
	OldHit     float64 // hit ratio before the resize
	NewHit     float64 // published "about 20%"
	NewHitStep float64 // rounding step of the published figure
	DBLoad     float64 // published "about 40,000" qps
	DBLoadStep float64
	Factor     float64 // published 16x
	FactorStep float64
}

type refSlot struct {
	Key  string
	Slot int
}

type refHash struct {
	Hash, Input string
	Sum         uint64
}

// publishedValues returns the values of ../shared/REFERENCES.md.
func PublishedValues() Published {
	return Published{
		ModuloVsRing: PublishedModuloVsRing(),
		ModuloLaw: []refLaw{{3, 4, 0.75, 2}, {4, 5, 0.80, 2}, {9, 10, 0.90, 2},
			{10, 11, 0.909, 3}, {1000, 1010, 0.9901, 4}},
		RingShares: []refShares{{1, 0.017, 0.357}, {10, 0.133, 0.265}, {50, 0.188, 0.215},
			{100, 0.184, 0.211}, {200, 0.169, 0.221}},
		RingCV:  []refCV{{10, 0.315, 0.37, 1.98}, {100, 0.0997, 0.76, 1.28}, {1000, 0.0316, 0.92, 1.09}},
		Slots:   []refSlots{{10, 1.0004, 4}, {1000, 1.0376, 4}, {10000, 1.22, 2}},
		Weights: []float64{1, 1, 2, 4},
		Noise:   []refNoise{{"rendezvous", 10, 0}, {"jump", 1000, 0}},
		Cache: refCache{From: 4, To: 5, Reads: 50000, OldHit: 0.95, NewHit: 0.20, NewHitStep: 0.05,
			DBLoad: 40000, DBLoadStep: 5000, Factor: 16, FactorStep: 1},
		Slot: []refSlot{{"123456789", 12739}, {"foo", 12182}, {"bar", 5061}, {"hello", 866},
			{"user:1000", 1649}, {"", 0}, {"foo{bar}zap", 5061}, {"{bar}zap", 5061},
			{"foo{bar}{zap}", 5061}, {"foo{{bar}}zap", 4015}, {"foo{}{bar}", 8363},
			{"{user1000}.following", 3443}, {"{user1000}.followers", 3443}},
		Jump100: []int{0, 55, 62, 8, 45, 59, 86, 97, 82, 59, 73, 37, 17, 56, 86, 21, 90, 37, 38, 83},
		Jump1:   []int{0, 0, 0, 0, 0, 0, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 17, 17},
		Hashes: []refHash{{"fnv1a32", "a", 0xE40C292C}, {"fnv1a64", "a", 0xAF63DC4C8601EC8C},
			{"xxhash", "", 0xEF46DB3751D8E999}, {"xxhash", "abc", 0x44BC2CF5AD770999},
			{"murmur3", "hello", 0x248BFA47}, {"murmur3", "", 0}},
	}
}

// The sources of a reference value (Row.Source).
const (
	// SourcePublished is a figure from the field's write-ups, papers or
	// tables (REFERENCES.md), given to the precision they print.
	SourcePublished = "published"
	// SourceFormula is an analytic value chbench computes from a law (1 -
	// min/lcm, ceil(S/n)/(S/n), sqrt((n-1)/K), a Beta or Gamma
	// distribution): our own arithmetic, never called published.
	SourceFormula = "formula"
	// SourceVector is an exact test vector of a spec or reference
	// implementation.
	SourceVector = "vector"
)

// Row is one line of the reference output. A check row (Info false) has
// the power to fail for a wrong implementation (reference_test.go feeds
// each kind a deliberately broken variant) and carries a verdict; an
// informational row (Info true) shows a published figure beside our value
// and range without a verdict, because the comparison cannot tell a
// wrong implementation from a right one (a published single-ring figure
// is one draw from a range that also holds most broken rings).
type Row struct {
	Quantity  string // what is compared, with its size
	Source    string // SourcePublished, SourceFormula or SourceVector
	Published string // the reference value (see Source)
	Ours      string // our value (mean [95% CI] where sampled)
	Accept    string // the range the reference value (or ours) must lie in
	Basis     string // where the tolerance comes from
	Pass      bool   // the verdict of a check row (false for informational rows)
	Info      bool   // informational: no verdict
}

// refKeys returns the number of keys a run of size sz streams (the total
// of its progress line).
func Keys(sz Size, pub Published) int64 {
	move := int64(sz.MoveKeys) * int64(sz.MoveSets)
	law := int64(sz.LawKeys) * int64(sz.LawSets)
	n := int64(len(pub.ModuloLaw)) * law
	n += int64(len(pub.ModuloVsRing)) * (2*move + int64(sz.Replicas)*move)
	n += int64(len(pub.RingShares)) * (int64(sz.ShareKeys)*int64(sz.MoveSets) + int64(sz.Replicas)*int64(sz.ShareKeys))
	n += law // weights
	for _, c := range pub.Noise {
		n += int64(noiseKeys(c, sz)) * int64(sz.LawSets)
	}
	return n
}

func noiseKeys(c refNoise, sz Size) int {
	if c.Key > 0 {
		return c.Key
	}
	if c.Nodes >= 100 {
		return sz.LawKeys
	}
	return sz.ShareKeys
}

// Run computes every row for size sz against the published values pub,
// streaming keys with base options o (seed, workers, progress hook).
// Placements are fixed (one exact layout per measurement: "our default
// ring" rows are that ring), and bounded loads use 16,384 partitions.
func Run(o analysis.Options, sz Size, pub Published) ([]Row, error) {
	var rows []Row
	add := func(r ...Row) { rows = append(rows, r...) }
	o.Config = catalog.DefaultConfig()
	o.Config.Partitions = bounded.DefaultPartitions // the bound check's m, fixed
	o.Placement = analysis.PlacementFixed           // "our default ring" is one exact ring
	o.KeyFile = ""

	add(exactVectorRows(pub, DefaultVectors())...)

	// Modulo: a key stays iff h mod n == h mod m.
	law := o
	law.Keys, law.Sets = sz.LawKeys, sz.LawSets
	law.Algo = "modulo"
	var cacheMove *analysis.MoveResult
	for _, c := range pub.ModuloLaw {
		r, err := resizeMove(law, c.From, c.To)
		if err != nil {
			return nil, err
		}
		if c.From == pub.Cache.From && c.To == pub.Cache.To {
			cacheMove = r
		}
		add(moduloLawRow(c, r.Moved, sz.LawKeys*sz.LawSets))
	}

	// Modulo vs ring at the published size.
	mv := o
	mv.Keys, mv.Sets = sz.MoveKeys, sz.MoveSets
	mr, err := ModuloVsRing(mv)
	if err != nil {
		return nil, err
	}
	for i, p := range pub.ModuloVsRing {
		mod, rg := mr[2*i], mr[2*i+1]
		add(moduloFigureRow(p, mod.Moved, sz.MoveKeys, sz.MoveSets))
		rmv := mv
		rmv.Algo = ring.Name
		reps, err := analysis.MoveReplicas(rmv, p.From, p.To, sz.Replicas)
		if err != nil {
			return nil, err
		}
		add(ringJoinRow(p.From, p.To, o.Config.VNodes, reps, sz.MoveKeys*sz.MoveSets))
		add(ringFigureRow(p, rg, reps, sz, o.Config.VNodes))
	}

	// Ring smallest / largest share against vnodes, 5 servers: published
	// single-ring figures, informational.
	for _, c := range pub.RingShares {
		so := o
		so.Algo, so.Config.VNodes, so.Keys, so.Sets = ring.Name, c.VNodes, sz.ShareKeys, sz.MoveSets
		nodes, _ := algorithms.DefaultNodes(5)
		sr, err := analysis.Spread(so, nodes)
		if err != nil {
			return nil, err
		}
		reps, err := analysis.SpreadReplicas(so, 5, sz.Replicas)
		if err != nil {
			return nil, err
		}
		add(ringShareRows(c, sr, reps, sz)...)
	}

	// Ring per-node share spread with k points per node (exact shares).
	for _, c := range pub.RingCV {
		shares, err := ringShares(sz.RingNodes, c.K)
		if err != nil {
			return nil, err
		}
		add(ringCVRows(c, shares)...)
	}

	// Fixed slots: exact peak/mean against the formula.
	for _, c := range pub.Slots {
		nodes, err := algorithms.DefaultNodes(c.N)
		if err != nil {
			return nil, err
		}
		p, err := catalog.New(slots.Name, nodes, o.Config)
		if err != nil {
			return nil, err
		}
		add(slotsRow(c, p.(algorithms.ExactSharer).ExactShares()))
	}

	// Bounded loads never exceed ceil(c*m/n).
	steps, err := boundedSteps(o, sz)
	if err != nil {
		return nil, err
	}
	add(boundedRow(steps, o.Config.Eps, o.Config.Partitions, sz.BoundedNodes))

	// Weighted rendezvous shares converge to w_i/W.
	wo := law
	wo.Algo = "rendezvous"
	wn, err := analysis.WeightedNodes(pub.Weights)
	if err != nil {
		return nil, err
	}
	wr, err := analysis.Spread(wo, wn)
	if err != nil {
		return nil, err
	}
	add(weightRows(pub.Weights, wr.Shares, sz.LawKeys*sz.LawSets)...)

	// Sampling noise floor: a perfectly even algorithm's cv.
	for _, c := range pub.Noise {
		no := law
		no.Algo, no.Keys = c.Algo, noiseKeys(c, sz)
		nodes, err := algorithms.DefaultNodes(c.Nodes)
		if err != nil {
			return nil, err
		}
		r, err := analysis.Spread(no, nodes)
		if err != nil {
			return nil, err
		}
		add(noiseRow(c.Algo, c.Nodes, no.Keys, r.Samples))
	}

	// The cache fleet example, from our measured modulo 4 -> 5.
	if cacheMove == nil {
		return nil, fmt.Errorf("cache example %d->%d: no modulo law row for it", pub.Cache.From, pub.Cache.To)
	}
	add(cacheRows(pub.Cache, cacheMove.Moved)...)
	return rows, nil
}

// resizeMove measures the moved fraction of o's algorithm from -> to nodes.
func resizeMove(o analysis.Options, from, to int) (*analysis.MoveResult, error) {
	sc, err := analysis.Resize(from, to)
	if err != nil {
		return nil, err
	}
	return analysis.Movement(o, sc)
}

// moduloLaw returns 1 - min(n,m)/lcm(n,m).
func moduloLaw(n, m int) float64 {
	a, b := n, m
	for b != 0 {
		a, b = b, a%b
	}
	lcm := n / a * m
	return 1 - float64(min(n, m))/float64(lcm)
}

// moduloLawRow checks a measured moved fraction of modulo over n keys
// against the law 1 - min/lcm (a formula; REFERENCES.md prints it rounded,
// which must agree to its digits) within refZ binomial standard errors.
func moduloLawRow(c refLaw, moved analysis.Estimate, n int) Row {
	p := moduloLaw(c.From, c.To)
	tol := refZ * math.Sqrt(p*(1-p)/float64(n))
	return Row{
		Quantity:  fmt.Sprintf("modulo moved %d->%d (%s keys)", c.From, c.To, count(n)),
		Source:    SourceFormula,
		Published: fmt.Sprintf("1-min/lcm = %.6f (printed %s)", p, pct(c.Moved, c.Digits-2)),
		Ours:      estPct(moved, 2),
		Accept:    rangePct(p-tol, p+tol, 2),
		Basis:     fmt.Sprintf("law ± %.2f·sqrt(p(1-p)/N) binomial", refZ),
		Pass:      math.Abs(moved.Mean-p) <= tol && math.Abs(p-c.Moved) <= halfUnit(c.Digits),
	}
}

// moduloFigureRow checks the published modulo moved fraction of a
// 10,000-key x 5-set experiment against ours at the same size: both are
// means of N Bernoulli moves, so they differ by at most refZ·√2 standard
// errors (plus the published rounding).
func moduloFigureRow(p ModuloRingFigure, moved analysis.Estimate, keys, sets int) Row {
	n := float64(keys * sets)
	pl := moduloLaw(p.From, p.To)
	tol := refZ*math.Sqrt2*math.Sqrt(pl*(1-pl)/n) + halfUnit(3)
	return Row{
		Quantity:  fmt.Sprintf("modulo moved %d->%d (%s keys x %d sets)", p.From, p.To, count(keys), sets),
		Source:    SourcePublished,
		Published: pct(p.Modulo, 1), Ours: estPct(moved, 2),
		Accept: rangePct(moved.Mean-tol, moved.Mean+tol, 2),
		Basis:  fmt.Sprintf("ours ± %.2f·√2·se: both are means of N Bernoulli moves", refZ),
		Pass:   math.Abs(p.Modulo-moved.Mean) <= tol,
	}
}

// ringJoinRow checks the mean moved fraction of a ring join from -> from+1
// over independent rings (reps, one per ring, each pooled over keys keys)
// against the formula: the new node's share of the ring is Beta(k, nk)
// with mean exactly 1/(n+1), whatever k, and keys sample it without bias.
// The tolerance is the Student-t 99.9% interval of the mean of the
// replicas (sample sd over sqrt(R)).
func ringJoinRow(from, to, vnodes int, reps []float64, keys int) Row {
	want := float64(to-from) / float64(max(from, to))
	m, sd := stat.MeanStdDev(reps, nil)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(reps) - 1)}.Quantile(1 - (1-refLevel)/2)
	tol := t * sd / math.Sqrt(float64(len(reps)))
	return Row{
		Quantity:  fmt.Sprintf("ring moved %d->%d, mean over %d rings (%d vnodes, %s keys each)", from, to, len(reps), vnodes, count(keys)),
		Source:    SourceFormula,
		Published: fmt.Sprintf("ideal %s (the new node's expected share)", pct(want, 2)),
		Ours:      pct(m, 2),
		Accept:    rangePct(want-tol, want+tol, 2),
		Basis:     fmt.Sprintf("ideal ± t(%.1f%%, R-1)·sd/√R over rings", 100*refLevel),
		Pass:      math.Abs(m-want) <= tol,
	}
}

// ringFigureRow shows a published single-ring moved fraction beside our
// default ring's and the 99% range over independent rings: informational.
func ringFigureRow(p ModuloRingFigure, rg *analysis.MoveResult, reps []float64, sz Size, vnodes int) Row {
	lo, hi := range99(reps)
	inside := "inside"
	if p.Ring < lo || p.Ring > hi {
		inside = "outside"
	}
	return Row{
		Quantity:  fmt.Sprintf("ring moved %d->%d, one ring (%s keys x %d sets, %d vnodes)", p.From, p.To, count(sz.MoveKeys), sz.MoveSets, vnodes),
		Source:    SourcePublished,
		Published: pct(p.Ring, 1), Ours: estPct(rg.Moved, 2) + " (default ring)",
		Accept: rangePct(lo, hi, 1),
		Basis:  fmt.Sprintf("99%% range of %d rings: published is %s", len(reps), inside),
		Info:   true,
	}
}

// ringShareRows show the published smallest and largest share of one
// 5-node ring beside our default ring's and the 99% range over independent
// rings: informational.
func ringShareRows(c refShares, sr *analysis.SpreadResult, reps []analysis.Balance, sz Size) []Row {
	var mins, maxs []float64
	for _, b := range reps {
		mins, maxs = append(mins, b.MinShare), append(maxs, b.MaxShare)
	}
	var out []Row
	for _, side := range []struct {
		name string
		pub  float64
		ours analysis.Estimate
		reps []float64
	}{{"smallest", c.Min, sr.MinShare, mins}, {"largest", c.Max, sr.MaxShare, maxs}} {
		lo, hi := range99(side.reps)
		inside := "inside"
		if side.pub < lo || side.pub > hi {
			inside = "outside"
		}
		out = append(out, Row{
			Quantity:  fmt.Sprintf("ring %s share, 5 nodes, %d vnodes, one ring (%s keys)", side.name, c.VNodes, count(sz.ShareKeys)),
			Source:    SourcePublished,
			Published: pct(side.pub, 1), Ours: estPct(side.ours, 1) + " (default ring)",
			Accept: rangePct(lo, hi, 1),
			Basis:  fmt.Sprintf("99%% range of %d rings: published is %s", len(side.reps), inside),
			Info:   true,
		})
	}
	return out
}

// ringShares returns the exact shares of the default ring of n nodes with
// k virtual nodes each.
func ringShares(n, k int) ([]float64, error) {
	nodes, err := algorithms.DefaultNodes(n)
	if err != nil {
		return nil, err
	}
	cfg := catalog.DefaultConfig()
	cfg.VNodes = k
	p, err := catalog.New(ring.Name, nodes, cfg)
	if err != nil {
		return nil, err
	}
	return p.(algorithms.ExactSharer).ExactShares(), nil
}

// ringCVRows checks the exact shares of one ring of n = len(shares) nodes
// with c.K virtual nodes each against Karger et al.'s table (as printed by
// Lamping & Veach): the cv against the tabled 1/sqrt(k), and the fraction
// of nodes whose load/mean lies in the tabled 99% interval against the
// probability the exact law gives that rounded interval.
func ringCVRows(c refCV, shares []float64) []Row {
	n := len(shares)
	nodes := mustNodes(n)
	b, err := analysis.BalanceOf(shares, nodes)
	if err != nil {
		panic(err) // shares of a ring of n equal nodes
	}
	// A node's load/mean is about Gamma(k, k): excess kurtosis 6/k. The
	// sample sd of n such values has relative standard error
	// sqrt(2/(n-1) + (6/k)/n) / 2.
	rse := math.Sqrt(2/float64(n-1)+6/float64(c.K)/float64(n)) / 2
	tol := refZ*rse*c.CV + halfUnit(4)
	rows := []Row{{
		Quantity:  fmt.Sprintf("ring share cv, k=%d vnodes, %d nodes (exact arcs)", c.K, n),
		Source:    SourcePublished,
		Published: fmt.Sprintf("%.4g", c.CV), Ours: fmt.Sprintf("%.4f", b.CV),
		Accept: fmt.Sprintf("[%.4f, %.4f]", b.CV-tol, b.CV+tol),
		Basis:  fmt.Sprintf("ours ± %.2f·se of a sample sd (Gamma(k) kurtosis)", refZ),
		Pass:   math.Abs(b.CV-c.CV) <= tol,
	}}
	// The published interval is rounded, so it holds not exactly 99% of
	// nodes: a node's share is Beta(k, (n-1)k) (its k arcs of the n·k
	// Dirichlet spacings), so the expected fraction inside is
	// p = F(hi/n) - F(lo/n), and the count inside is about Binomial(n, p).
	beta := distuv.Beta{Alpha: float64(c.K), Beta: float64((n - 1) * c.K)}
	p := beta.CDF(c.Hi/float64(n)) - beta.CDF(c.Lo/float64(n))
	in := 0
	for _, s := range shares {
		if l := s * float64(n); c.Lo <= l && l <= c.Hi {
			in++
		}
	}
	frac := float64(in) / float64(n)
	sd := math.Sqrt(p * (1 - p) / float64(n))
	rows = append(rows, Row{
		Quantity:  fmt.Sprintf("ring nodes inside the published 99%% load/mean (%.2f, %.2f), k=%d", c.Lo, c.Hi, c.K),
		Source:    SourceFormula,
		Published: fmt.Sprintf("%s (Beta(k, (n-1)k) mass of the rounded interval)", pct(p, 2)),
		Ours:      fmt.Sprintf("%s of %d", pct(frac, 2), n),
		Accept:    rangePct(p-refZ*sd, p+refZ*sd, 2),
		Basis:     fmt.Sprintf("p ± %.2f·sqrt(p(1-p)/n) binomial", refZ),
		Pass:      math.Abs(frac-p) <= refZ*sd,
	})
	return rows
}

// slotsRow checks the exact shares of n fixed slots placements against
// the formula ceil(S/n)/(S/n) (S = 16,384), which must also round to the
// figure REFERENCES.md prints.
func slotsRow(c refSlots, shares []float64) Row {
	n := float64(len(shares))
	b, err := analysis.BalanceOf(shares, mustNodes(len(shares)))
	if err != nil {
		panic(err) // shares of n equal nodes
	}
	const s = slots.NumSlots
	want := math.Ceil(s/n) / (s / n)
	printed := strconv.FormatFloat(c.PeakToMean, 'f', c.Decimals, 64)
	return Row{
		Quantity:  fmt.Sprintf("slots peak/mean, %d nodes, S=16384 (exact)", len(shares)),
		Source:    SourceFormula,
		Published: fmt.Sprintf("ceil(S/n)/(S/n) = %.6f (printed %s)", want, printed),
		Ours:      fmt.Sprintf("%.6f", b.PeakToMean),
		Accept:    fmt.Sprintf("%.6f", want),
		Basis:     "exact slot counts against the formula",
		Pass:      math.Abs(b.PeakToMean-want) <= 1e-9 && strconv.FormatFloat(want, 'f', c.Decimals, 64) == printed,
	}
}

// boundedSteps runs churn, shrink and add-many scenarios with bounded
// loads and returns every placement's busiest node.
func boundedSteps(o analysis.Options, sz Size) ([]analysis.BoundedStep, error) {
	var out []analysis.BoundedStep
	for run := range sz.BoundedRuns {
		for _, op := range []string{analysis.OpChurn, analysis.OpShrinkRandom, analysis.OpAddMany} {
			sc, err := analysis.NewScenario(op, sz.BoundedNodes, o.Seed+uint64(run))
			if err != nil {
				return nil, err
			}
			steps, err := analysis.BoundedLoads(o, sc)
			if err != nil {
				return nil, err
			}
			out = append(out, steps...)
		}
	}
	return out, nil
}

// boundedRow checks every placement's busiest node against ceil(c*m/n),
// the capacity recomputed here from eps, m partitions and n.
func boundedRow(steps []analysis.BoundedStep, eps float64, m, nodes int) Row {
	worst := 0.0
	pass := len(steps) > 0
	for _, st := range steps {
		capacity := int(math.Ceil((1 + eps) * float64(m) / float64(st.Nodes)))
		capacity = min(capacity, m)
		if st.MaxLoad > capacity || st.Capacity != capacity {
			pass = false
		}
		worst = max(worst, float64(st.MaxLoad)/float64(capacity))
	}
	return Row{
		Quantity:  fmt.Sprintf("bounded max load / ceil(c·m/n), eps=%g, %d placements", eps, len(steps)),
		Source:    SourcePublished,
		Published: "<= 1", Ours: fmt.Sprintf("%.4f (worst)", worst), Accept: "<= 1",
		Basis: fmt.Sprintf("hard bound; churn/shrink/add-many from %d nodes, m=%d", nodes, m), Pass: pass,
	}
}

// weightRows check measured shares (one per node of weights) over n keys
// against w_i/W within refZ binomial standard errors.
func weightRows(weights []float64, shares []analysis.NodeShare, n int) []Row {
	var total float64
	for _, w := range weights {
		total += w
	}
	var out []Row
	for i, s := range shares {
		q := weights[i] / total
		tol := refZ * math.Sqrt(q*(1-q)/float64(n))
		out = append(out, Row{
			Quantity:  fmt.Sprintf("rendezvous share, weight %g of %v (%s keys)", weights[i], weights, count(n)),
			Source:    SourceFormula,
			Published: "w_i/W = " + pct(q, 1), Ours: estPct(s.Share, 2),
			Accept: rangePct(q-tol, q+tol, 2),
			Basis:  fmt.Sprintf("w_i/W ± %.2f·sqrt(q(1-q)/N) binomial", refZ),
			Pass:   math.Abs(s.Share.Mean-q) <= tol,
		})
	}
	return out
}

// noiseRow checks the per-set cv samples of an algorithm that should
// place keys like independent uniform draws (k keys per set over n nodes)
// against the sampling-noise law: k·cv² of one set is Pearson's X², chi²
// with n-1 degrees of freedom, so the sum over S sets is chi²(S(n-1)).
func noiseRow(algo string, n, k int, samples []analysis.Balance) Row {
	var ss float64
	for _, b := range samples {
		ss += b.CV * b.CV
	}
	s, kf, nf := float64(len(samples)), float64(k), float64(n)
	rms := math.Sqrt(ss / s)
	chi := distuv.ChiSquared{K: s * (nf - 1)}
	lo := math.Sqrt(chi.Quantile((1-refLevel)/2) / (s * kf))
	hi := math.Sqrt(chi.Quantile(1-(1-refLevel)/2) / (s * kf))
	return Row{
		Quantity:  fmt.Sprintf("noise floor cv, %s, %d nodes (%s keys x %d sets)", algo, n, count(k), len(samples)),
		Source:    SourceFormula,
		Published: fmt.Sprintf("sqrt((n-1)/K) = %.4f", math.Sqrt((nf-1)/kf)),
		Ours:      fmt.Sprintf("%.4f rms", rms),
		Accept:    fmt.Sprintf("[%.4f, %.4f]", lo, hi),
		Basis:     fmt.Sprintf("K·cv² summed over sets ~ chi²(S(n-1)), %.1f%%", 100*refLevel),
		Pass:      lo <= rms && rms <= hi,
	}
}

// cacheRows derives the cache example from the measured moved fraction:
// a key that moved misses, so the new hit ratio is old hit ratio · (1 -
// moved); the database sees reads · (1 - hit ratio). Our intervals follow
// from the moved fraction's; a published "about" figure passes if it lies
// within half its rounding step of our interval.
func cacheRows(c refCache, moved analysis.Estimate) []Row {
	hit := func(m float64) float64 { return c.OldHit * (1 - m) }
	db := func(m float64) float64 { return c.Reads * (1 - hit(m)) }
	old := c.Reads * (1 - c.OldHit)
	row := func(q string, pub, step float64, f func(float64) float64, fmtV func(float64) string) Row {
		mid, a, b := f(moved.Mean), f(moved.Lo), f(moved.Hi)
		lo, hi := min(a, b), max(a, b)
		return Row{
			Quantity:  q,
			Source:    SourcePublished,
			Published: "about " + fmtV(pub), Ours: fmt.Sprintf("%s [%s, %s]", fmtV(mid), fmtV(lo), fmtV(hi)),
			Accept: fmt.Sprintf("[%s, %s]", fmtV(lo-step/2), fmtV(hi+step/2)),
			Basis:  "from measured moved fraction; ± half the published rounding " + fmtV(step),
			Pass:   lo-step/2 <= pub && pub <= hi+step/2,
		}
	}
	return []Row{
		row(fmt.Sprintf("cache hit ratio after %%%d -> %%%d (was %s)", c.From, c.To, pct(c.OldHit, 0)),
			c.NewHit, c.NewHitStep, hit, func(x float64) string { return pct(x, 1) }),
		row(fmt.Sprintf("database load after %%%d -> %%%d (%s reads/s, was %s qps)", c.From, c.To, count(int(c.Reads)), count(int(old))),
			c.DBLoad, c.DBLoadStep, db, func(x float64) string { return count(int(math.Round(x))) + " qps" }),
		row("database load / its sizing", c.Factor, c.FactorStep,
			func(m float64) float64 { return db(m) / old }, func(x float64) string { return fmt.Sprintf("%.1fx", x) }),
	}
}

// Vectors are the functions the exact-vector rows evaluate: the
// implementation under test.
type Vectors struct {
	KeySlot func(key string) int              // Redis Cluster key slot
	CRC16   func(s string) uint16             // CRC-16/XMODEM
	Jump    func(key uint64, buckets int) int // jump consistent hash bucket
	Hash    func(name, input string) uint64   // the hash registry
}

// DefaultVectors returns chbench's implementations.
func DefaultVectors() Vectors {
	return Vectors{
		KeySlot: slots.KeySlot,
		CRC16:   slots.CRC16,
		Jump: func(key uint64, n int) int {
			j, _ := jump.New(mustNodes(n), algorithms.MustHash(""))
			return j.LocateHash(key)
		},
		Hash: func(name, in string) uint64 { return algorithms.MustHash(name).Sum(in) },
	}
}

// exactVectorRows checks the exact reference vectors: Redis key slots,
// jump hash outputs and hash function values, computed by v.
func exactVectorRows(pub Published, v Vectors) []Row {
	var rows []Row
	exact := func(q, want, got string) {
		rows = append(rows, Row{Quantity: q, Source: SourceVector, Published: want, Ours: got, Accept: "= published", Basis: "exact vector", Pass: want == got})
	}
	var want, got []string
	for _, s := range pub.Slot {
		want = append(want, strconv.Itoa(s.Slot))
		got = append(got, strconv.Itoa(v.KeySlot(s.Key)))
	}
	exact(fmt.Sprintf("Redis key slots of %d keys (incl. hash tags)", len(pub.Slot)), strings.Join(want, " "), strings.Join(got, " "))
	exact(`CRC-16/XMODEM("123456789")`, "0x31C3", fmt.Sprintf("0x%04X", v.CRC16("123456789")))
	want, got = nil, nil
	for k, b := range pub.Jump100 {
		want = append(want, strconv.Itoa(b))
		got = append(got, strconv.Itoa(v.Jump(uint64(k), 100)))
	}
	exact("jump bucket of keys 0..19, 100 buckets", strings.Join(want, " "), strings.Join(got, " "))
	want, got = nil, nil
	for n, b := range pub.Jump1 {
		want = append(want, strconv.Itoa(b))
		got = append(got, strconv.Itoa(v.Jump(1, n+1)))
	}
	exact(fmt.Sprintf("jump bucket of key 1, 1..%d buckets", len(pub.Jump1)), strings.Join(want, " "), strings.Join(got, " "))
	exact("jump bucket of key 256, 1024 buckets", "520", strconv.Itoa(v.Jump(256, 1024)))
	for _, h := range pub.Hashes {
		exact(fmt.Sprintf("%s(%q)", h.Hash, h.Input), fmt.Sprintf("0x%X", h.Sum), fmt.Sprintf("0x%X", v.Hash(h.Hash, h.Input)))
	}
	return rows
}

func mustNodes(n int) []algorithms.Node {
	nodes, err := algorithms.DefaultNodes(n)
	if err != nil {
		panic(err) // callers pass n >= 1
	}
	return nodes
}

// range99 returns the 0.5% and 99.5% empirical quantiles of xs.
func range99(xs []float64) (lo, hi float64) {
	s := slices.Clone(xs)
	slices.Sort(s)
	return stat.Quantile(0.005, stat.Empirical, s, nil), stat.Quantile(0.995, stat.Empirical, s, nil)
}

// halfUnit returns half a unit of the digits-th decimal: the rounding
// error of a published figure given to that many decimals.
func halfUnit(digits int) float64 { return 0.5 * math.Pow(10, -float64(digits)) }

// pct formats a fraction as a percentage with d decimals.
func pct(x float64, d int) string { return strconv.FormatFloat(100*x, 'f', d, 64) + "%" }

func estPct(e analysis.Estimate, d int) string {
	return fmt.Sprintf("%s [%s, %s]", pct(e.Mean, d), strconv.FormatFloat(100*e.Lo, 'f', d, 64), strconv.FormatFloat(100*e.Hi, 'f', d, 64))
}

func rangePct(lo, hi float64, d int) string {
	return fmt.Sprintf("[%s, %s]", pct(lo, d), pct(hi, d))
}

// count formats n with thousands separators: 10,000.
func count(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

var refHeader = []string{"quantity", "source", "reference value", "ours [95% CI]", "accepted", "basis", "verdict"}

func verdict(r Row) string {
	switch {
	case r.Info:
		return "info"
	case r.Pass:
		return "PASS"
	}
	return "FAIL"
}

// WriteTable writes the check rows as an aligned table with their
// verdicts, then the informational rows under their own heading.
func WriteTable(w io.Writer, rows []Row) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(refHeader, "\t"))
	for _, r := range rows {
		if !r.Info {
			fmt.Fprintln(tw, strings.Join([]string{r.Quantity, r.Source, r.Published, r.Ours, r.Accept, r.Basis, verdict(r)}, "\t"))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if !slices.ContainsFunc(rows, func(r Row) bool { return r.Info }) {
		return nil
	}
	fmt.Fprint(w, "\nInformational (no verdict: a published single-ring figure is one draw from a range that also\nholds wrong implementations; shown beside our default ring and the 99% range over rings):\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(refHeader[:6], "\t"))
	for _, r := range rows {
		if r.Info {
			fmt.Fprintln(tw, strings.Join([]string{r.Quantity, r.Source, r.Published, r.Ours, r.Accept, r.Basis}, "\t"))
		}
	}
	return tw.Flush()
}

// WriteCSV writes rows as CSV with the table's columns; the verdict of an
// informational row is "info".
func WriteCSV(w io.Writer, rows []Row) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"quantity", "source", "reference", "ours", "accepted", "basis", "verdict"})
	for _, r := range rows {
		cw.Write([]string{r.Quantity, r.Source, r.Published, r.Ours, r.Accept, r.Basis, verdict(r)})
	}
	cw.Flush()
	return cw.Error()
}

// Notes explains how the rows are compared; printed under the table.
const Notes = `Notes:
  Source: "published" is a figure printed by the field (papers, specs, write-ups); "formula"
  is a value chbench computes from a law (REFERENCES.md's analytic values); "vector" is an
  exact test vector. Every PASS/FAIL row fails for a deliberately broken implementation
  (analysis/reference/reference_test.go, TestBrokenVariantsFail). Sampled tolerances are
  two-sided 99.9% bounds of the sampling law named in the basis column. Published ring
  figures come from one ring (one hash, one set of node names, one key set, an unstated vnode
  count): such a statistic varies widely from ring to ring, so they are listed as
  informational, with the 99% range of the same statistic over independent rings (node IDs
  r<i>/node-<j> and keys varied); the ring checks are over rings instead. Jump's expected
  loop count H_n (H_1024 = 7.509) is checked in reference_test.go by a counting
  re-implementation that agrees with jump.
`

// Verdict returns an error naming the failed check rows, or nil;
// informational rows never fail.
func Verdict(rows []Row) error {
	var failed []string
	checks := 0
	for _, r := range rows {
		if r.Info {
			continue
		}
		checks++
		if !r.Pass {
			failed = append(failed, r.Quantity)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d reference checks failed: %s", len(failed), checks, strings.Join(failed, "; "))
	}
	return nil
}
