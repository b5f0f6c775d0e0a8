// Package reference reproduces the field's published values (package
// published, from the project's REFERENCES.md) with chbench's algorithms
// and analyses, and decides PASS or FAIL for each. It is one table of
// checks ([Checks]): each names its published value and source, the
// function that measures ours, and how its tolerance is derived. [Run]
// runs the table at a [Size] and returns its rows; [WriteTable] and
// [WriteCSV] print them, [Verdict] turns failures into an error.
//
// Each row says where its reference value comes from ([Row.Kind]):
// "published" (printed by the field), "formula" (a value chbench computes
// from a law, never called published) or "vector" (an exact test
// vector). Tolerances are of two kinds: exact vectors and hard bounds must
// hold exactly; statistical laws accept the two-sided [Level] bound of the
// sampling law named in each row's basis (binomial, chi-square, Student t,
// the standard error of a sample standard deviation). Every PASS/FAIL row
// has the power to fail for a wrong implementation (reference_test.go
// feeds each kind a deliberately broken variant). Figures that came from
// one published ring are informational rows ([Row.Info]): shown with the
// 99% range of the same statistic over independent rings, without a
// verdict, because that range also holds most broken rings; the ring is
// checked over rings instead.
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
	"github.com/chbench/chbench/algorithms/maglev"
	"github.com/chbench/chbench/algorithms/modulo"
	"github.com/chbench/chbench/algorithms/multiprobe"
	"github.com/chbench/chbench/algorithms/rendezvous"
	"github.com/chbench/chbench/algorithms/ring"
	"github.com/chbench/chbench/algorithms/slots"
	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/analysis/reference/published"
	"github.com/chbench/chbench/internal/numfmt"
	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/schema"
)

// Level is the two-sided level of every tolerance drawn from a sampling
// law: a correct implementation fails one such row with probability 0.1%.
const Level = 0.999

// refZ is the standard normal quantile of Level (3.29).
var refZ = distuv.UnitNormal.Quantile(1 - (1-Level)/2)

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

// Input is what a reference run checks: the published values, and the
// settings of the checks whose expected value is a law rather than a
// published figure.
type Input struct {
	published.Values
	Weights []float64 // weighted rendezvous membership: shares converge to w_i/W
	Noise   []Noise   // runs of the sampling noise floor
}

// Noise is one run of the noise floor check: a perfectly even algorithm
// on Nodes nodes with Keys keys per set (0: ShareKeys below 100 nodes,
// LawKeys from 100 nodes on).
type Noise struct {
	Algo        string
	Nodes, Keys int
}

// DefaultInput returns a fresh copy of the published values
// (published.All) and the default check settings.
func DefaultInput() Input {
	return Input{
		Values:  published.All(),
		Weights: []float64{1, 1, 2, 4},
		Noise:   []Noise{{rendezvous.Name, 10, 0}, {jump.Name, 1000, 0}},
	}
}

// The kinds of reference value (Row.Kind).
const (
	// KindPublished is a figure printed by the field's papers, specs or
	// write-ups, to the precision they print.
	KindPublished = "published"
	// KindFormula is a value chbench computes from a law (1 - min/lcm,
	// ceil(S/n)/(S/n), sqrt((n-1)/K), w_i/W, a Beta probability): our own
	// arithmetic, never called published.
	KindFormula = "formula"
	// KindVector is an exact test vector of a spec or reference
	// implementation.
	KindVector = "vector"
)

// Row is one line of the reference output. A check row (Info false)
// carries a verdict; an informational row (Info true) shows a published
// figure beside our value and range without one (see the package doc).
type Row struct {
	Quantity  string // what is compared, with its size
	Kind      string // KindPublished, KindFormula or KindVector
	Published string // the reference value (see Kind)
	Ours      string // our value (mean [95% CI] where sampled)
	Accept    string // the range the reference value (or ours) must lie in
	Basis     string // where the tolerance comes from
	Pass      bool   // the verdict of a check row; false for informational rows
	Info      bool   // informational: no verdict
}

// Check is one entry of the reference table.
type Check struct {
	Name      string // the published quantity
	Source    string // where it is published
	Tolerance string // how the accepted range is derived
	// Keys returns the number of keys Measure streams at size sz (its share
	// of a progress total); nil when it streams none.
	Keys func(sz Size, in Input) int64
	// Measure measures ours with base options o (seed, workers, progress
	// hook; o's algorithm, configuration and key file are ignored) and
	// returns the check's rows.
	Measure func(o analysis.Options, sz Size, in Input) ([]Row, error)
}

// Checks returns the reference table, in the order of its rows.
func Checks() []Check {
	return []Check{
		{Name: "Redis key slots", Source: "Redis Cluster specification (hash tags included)",
			Tolerance: "exact", Measure: keySlotRows},
		{Name: "CRC-16/XMODEM check value", Source: "Redis src/crc16.c",
			Tolerance: "exact", Measure: crcRows},
		{Name: "jump buckets", Source: "Lamping & Veach 2014; Guava and C++ reference outputs",
			Tolerance: "exact", Measure: jumpRows},
		{Name: "key hash outputs", Source: "Go hash/fnv tests; xxHash64 and MurmurHash3 x86_32 reference outputs",
			Tolerance: "exact", Measure: hashRows},
		{Name: "modulo moved fraction 1 - min/lcm", Source: "analytic (a key stays iff h mod n == h mod m)",
			Tolerance: "binomial: law ± z·sqrt(p(1-p)/N); the law must round to the published figure",
			Keys:      func(sz Size, in Input) int64 { return int64(len(in.ModuloLaw)) * lawKeys(sz) }, Measure: moduloLawRows},
		{Name: "modulo vs ring moved fraction", Source: "the field's write-ups: 10,000 keys averaged over five key sets",
			Tolerance: "modulo: ours ± z·√2·se (both are means of N Bernoulli moves); ring: mean over independent rings against 1/(n+1) ± t·sd/√R; the published single-ring figure is informational, beside the 99% range over rings",
			Keys: func(sz Size, in Input) int64 {
				move := int64(sz.MoveKeys) * int64(sz.MoveSets)
				return int64(len(in.ModuloVsRing)) * (2*move + int64(sz.Replicas)*move)
			}, Measure: moduloVsRingRows},
		{Name: "ring smallest and largest share vs vnodes", Source: "the field's write-ups: 5 servers, 10,000 keys",
			Tolerance: "informational: one published ring, beside the 99% range of the same statistic over independent rings",
			Keys: func(sz Size, in Input) int64 {
				return int64(len(in.RingShares)) * (int64(sz.ShareKeys)*int64(sz.MoveSets) + int64(sz.Replicas)*int64(sz.ShareKeys))
			}, Measure: ringShareRows},
		{Name: "ring share cv 1/sqrt(k) and 99% load interval", Source: "Karger et al. 1997, as tabled by Lamping & Veach 2014",
			Tolerance: "cv: ours ± z·se of a sample sd (Gamma(k) kurtosis); interval: its Beta(k, (n-1)k) mass p (the printed interval is rounded) ± z·sqrt(p(1-p)/n) binomial",
			Measure:   ringCVRows},
		{Name: "fixed slots peak/mean ceil(S/n)/(S/n)", Source: "analytic (16,384 Redis Cluster slots)",
			Tolerance: "exact, against the formula (which must round to the printed figure)", Measure: slotsRows},
		{Name: "maglev shares within 1% (M prime > 100 n)", Source: "Eisenbud et al., NSDI 2016",
			Tolerance: "exact entry counts must meet the bound", Measure: maglevRows},
		{Name: "multi-probe peak/mean 1 + 1/(k-1)", Source: "Appleton & O'Reilly 2015 (21 probes -> 1.05)",
			Tolerance: "mean exact peak/mean over independent memberships ± z·sd/sqrt(S) + half a unit", Measure: multiProbeRows},
		{Name: "bounded loads max load <= ceil(c·m/n)", Source: "Mirrokni, Thorup, Zadimoghaddam 2018",
			Tolerance: "hard bound", Measure: boundedRows},
		{Name: "weighted rendezvous shares w_i/W", Source: "analytic (logarithmic method, score -w/ln(u))",
			Tolerance: "binomial: w_i/W ± z·sqrt(q(1-q)/N)",
			Keys:      func(sz Size, in Input) int64 { return lawKeys(sz) }, Measure: weightRows},
		{Name: "sampling noise floor cv sqrt((n-1)/K)", Source: "analytic (Binomial(K, 1/n) counts)",
			Tolerance: "K·cv² summed over sets ~ chi²(S(n-1))",
			Keys: func(sz Size, in Input) int64 {
				var n int64
				for _, c := range in.Noise {
					n += int64(noiseKeys(c, sz)) * int64(sz.LawSets)
				}
				return n
			}, Measure: noiseRows},
		{Name: "cache fleet example after % 4 -> % 5", Source: "the field's write-ups",
			Tolerance: "from our moved fraction's interval, ± half the published rounding step",
			Keys:      func(sz Size, in Input) int64 { return lawKeys(sz) }, Measure: cacheRows},
	}
}

// Keys returns the number of keys a run of size sz streams: the total of
// its progress line, summed over the table.
func Keys(sz Size, in Input) int64 {
	var n int64
	for _, c := range Checks() {
		if c.Keys != nil {
			n += c.Keys(sz, in)
		}
	}
	return n
}

// Run measures every check of the table at size sz against in, streaming
// keys with base options o (seed, workers, progress hook), and returns the
// rows in table order. It returns the first measurement error.
func Run(o analysis.Options, sz Size, in Input) ([]Row, error) {
	o.Config = catalog.DefaultConfig()
	o.Config.Partitions = bounded.DefaultPartitions // the bound check's m, fixed
	o.Placement = schema.PlacementFixed             // "our default ring" is one exact ring
	var rows []Row
	for _, c := range Checks() {
		r, err := c.Measure(o, sz, in)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Name, err)
		}
		rows = append(rows, r...)
	}
	return rows, nil
}

func lawKeys(sz Size) int64 { return int64(sz.LawKeys) * int64(sz.LawSets) }

// generated returns o with sets sets of keys keys each, generated from
// its seed: the published experiments drew their own keys, never a key
// file.
func generated(o analysis.Options, keys, sets int) (analysis.Options, error) {
	g, err := keyset.NewGenerator(keys, sets, o.Seed)
	o.Keys = g
	return o, err
}

// lawOptions returns o for the analytic laws: LawKeys x LawSets keys.
func lawOptions(o analysis.Options, sz Size, algo string) (analysis.Options, error) {
	o.Algo = algo
	return generated(o, sz.LawKeys, sz.LawSets)
}

func noiseKeys(c Noise, sz Size) int {
	if c.Keys > 0 {
		return c.Keys
	}
	if c.Nodes >= 100 {
		return sz.LawKeys
	}
	return sz.ShareKeys
}

// exact returns the row of an exact vector: PASS iff want == got.
func exact(q, want, got string) Row {
	return Row{Quantity: q, Kind: KindVector, Published: want, Ours: got, Accept: "= published", Basis: "exact vector", Pass: want == got}
}

func keySlotRows(_ analysis.Options, _ Size, in Input) ([]Row, error) {
	return keySlotCheck(in, slots.KeySlot), nil
}

// keySlotCheck evaluates keySlot, the implementation under test, on the
// published key slots.
func keySlotCheck(in Input, keySlot func(string) int) []Row {
	var want, got []string
	for _, s := range in.KeySlots {
		want = append(want, strconv.Itoa(s.Slot))
		got = append(got, strconv.Itoa(keySlot(s.Key)))
	}
	return []Row{exact(fmt.Sprintf("Redis key slots of %d keys (incl. hash tags)", len(in.KeySlots)), strings.Join(want, " "), strings.Join(got, " "))}
}

func crcRows(_ analysis.Options, _ Size, in Input) ([]Row, error) {
	return []Row{exact(`CRC-16/XMODEM("123456789")`, fmt.Sprintf("0x%04X", in.CRC16), fmt.Sprintf("0x%04X", slots.CRC16("123456789")))}, nil
}

// jumpBucket returns jump's bucket of key with n buckets.
func jumpBucket(key uint64, n int) (int, error) {
	nodes, err := algorithms.DefaultNodes(n)
	if err != nil {
		return 0, err
	}
	j, err := jump.New(nodes, algorithms.MustHash(""))
	if err != nil {
		return 0, err
	}
	return j.LocateHash(key), nil
}

func jumpRows(_ analysis.Options, _ Size, in Input) ([]Row, error) {
	return jumpCheck(in, jumpBucket)
}

// jumpCheck evaluates bucket, the implementation under test, on the
// published jump vectors.
func jumpCheck(in Input, jumpBucket func(key uint64, n int) (int, error)) ([]Row, error) {
	var want, got []string
	for k, b := range in.Jump100 {
		g, err := jumpBucket(uint64(k), 100)
		if err != nil {
			return nil, err
		}
		want, got = append(want, strconv.Itoa(b)), append(got, strconv.Itoa(g))
	}
	rows := []Row{exact("jump bucket of keys 0..19, 100 buckets", strings.Join(want, " "), strings.Join(got, " "))}
	want, got = nil, nil
	for n, b := range in.Jump1 {
		g, err := jumpBucket(1, n+1)
		if err != nil {
			return nil, err
		}
		want, got = append(want, strconv.Itoa(b)), append(got, strconv.Itoa(g))
	}
	rows = append(rows, exact(fmt.Sprintf("jump bucket of key 1, 1..%d buckets", len(in.Jump1)), strings.Join(want, " "), strings.Join(got, " ")))
	v := in.JumpLarge
	g, err := jumpBucket(v.Key, v.Buckets)
	if err != nil {
		return nil, err
	}
	return append(rows, exact(fmt.Sprintf("jump bucket of key %d, %d buckets", v.Key, v.Buckets), strconv.Itoa(v.Bucket), strconv.Itoa(g))), nil
}

func hashRows(_ analysis.Options, _ Size, in Input) ([]Row, error) {
	return hashCheck(in, func(name, input string) (uint64, error) {
		hf, err := algorithms.LookupHash(name)
		if err != nil {
			return 0, err
		}
		return hf.Sum(input), nil
	})
}

// hashCheck evaluates sum, the hash registry under test, on the published
// hash vectors.
func hashCheck(in Input, sum func(name, input string) (uint64, error)) ([]Row, error) {
	var rows []Row
	for _, h := range in.Hashes {
		v, err := sum(h.Hash, h.Input)
		if err != nil {
			return nil, err
		}
		rows = append(rows, exact(fmt.Sprintf("%s(%q)", h.Hash, h.Input), fmt.Sprintf("0x%X", h.Sum), fmt.Sprintf("0x%X", v)))
	}
	return rows, nil
}

// moved returns the moved fraction of r with its 95% interval.
func moved(r schema.Move) analysis.Estimate {
	return analysis.EstimateOf(r.MovedFrac, r.MovedFracLo, r.MovedFracHi)
}

// resizeMove measures the moved fraction of o's algorithm from -> to nodes.
func resizeMove(o analysis.Options, from, to int) (schema.Move, error) {
	sc, err := analysis.Resize(from, to)
	if err != nil {
		return schema.Move{}, err
	}
	return analysis.Movement(o, sc)
}

// moduloLawRows: a key stays iff h mod n == h mod m, so the measured
// fraction is a mean of N Bernoulli(p) moves, p = modulo.MovedFraction.
func moduloLawRows(o analysis.Options, sz Size, in Input) ([]Row, error) {
	law, err := lawOptions(o, sz, modulo.Name)
	if err != nil {
		return nil, err
	}
	var rows []Row
	for _, c := range in.ModuloLaw {
		r, err := resizeMove(law, c.From, c.To)
		if err != nil {
			return nil, err
		}
		row, err := moduloLawRow(c, moved(r), sz.LawKeys*sz.LawSets)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// moduloLawRow checks a moved fraction of modulo measured over n keys
// against the law p = 1 - min/lcm (a formula, which must also round to the
// figure REFERENCES.md prints) within refZ binomial standard errors.
func moduloLawRow(c published.ModuloLaw, moved analysis.Estimate, n int) (Row, error) {
	p, err := modulo.MovedFraction(c.From, c.To)
	if err != nil {
		return Row{}, err
	}
	tol := refZ * math.Sqrt(p*(1-p)/float64(n))
	return Row{
		Quantity:  fmt.Sprintf("modulo moved %d->%d (%s keys)", c.From, c.To, count(n)),
		Kind:      KindFormula,
		Published: fmt.Sprintf("1-min/lcm = %.6f (printed %s)", p, pct(c.Moved, c.Digits-2)),
		Ours:      estPct(moved, 2),
		Accept:    rangePct(p-tol, p+tol, 2),
		Basis:     fmt.Sprintf("law ± %.2f·sqrt(p(1-p)/N) binomial", refZ),
		Pass:      math.Abs(moved.Mean-p) <= tol && math.Abs(p-c.Moved) <= halfUnit(c.Digits),
	}, nil
}

// moduloVsRingRows compares the published modulo and ring figures at the
// published size: modulo against ours ± z·√2·se (two means of N Bernoulli
// moves, plus the published rounding), ring against the 99% range of
// independent rings.
func moduloVsRingRows(o analysis.Options, sz Size, in Input) ([]Row, error) {
	mv, err := generated(o, sz.MoveKeys, sz.MoveSets)
	if err != nil {
		return nil, err
	}
	mr, err := ModuloVsRing(mv, in.ModuloVsRing)
	if err != nil {
		return nil, err
	}
	var rows []Row
	for i, p := range in.ModuloVsRing {
		mod, rg := mr[2*i], mr[2*i+1]
		row, err := moduloFigureRow(p, moved(mod), sz.MoveKeys, sz.MoveSets)
		if err != nil {
			return nil, err
		}
		rmv := mv
		rmv.Algo = ring.Name
		reps, err := analysis.MoveReplicas(rmv, p.From, p.To, sz.Replicas)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row, ringJoinRow(p.From, p.To, o.Config.VNodes, reps, sz.MoveKeys*sz.MoveSets), ringRangeRow(
			fmt.Sprintf("ring moved %d->%d, one ring (%s keys x %d sets, %d vnodes)", p.From, p.To, count(sz.MoveKeys), sz.MoveSets, o.Config.VNodes),
			p.Ring, estPct(moved(rg), 2)+" (default ring)", reps))
	}
	return rows, nil
}

// moduloFigureRow checks a published modulo moved fraction of keys x sets
// keys against ours at the same size: both are means of N Bernoulli moves,
// so they differ by at most refZ·√2 standard errors (plus the published
// rounding).
func moduloFigureRow(p published.ModuloVsRing, moved analysis.Estimate, keys, sets int) (Row, error) {
	n := float64(keys * sets)
	pl, err := modulo.MovedFraction(p.From, p.To)
	if err != nil {
		return Row{}, err
	}
	tol := refZ*math.Sqrt2*math.Sqrt(pl*(1-pl)/n) + halfUnit(3)
	return Row{
		Quantity:  fmt.Sprintf("modulo moved %d->%d (%s keys x %d sets)", p.From, p.To, count(keys), sets),
		Kind:      KindPublished,
		Published: pct(p.Modulo, 1), Ours: estPct(moved, 2),
		Accept: rangePct(moved.Mean-tol, moved.Mean+tol, 2),
		Basis:  fmt.Sprintf("ours ± %.2f·√2·se: both are means of N Bernoulli moves", refZ),
		Pass:   math.Abs(p.Modulo-moved.Mean) <= tol,
	}, nil
}

// ringJoinRow checks the mean moved fraction of a ring resize from -> to
// over independent rings (reps, one per ring, each pooled over keys keys)
// against the formula: a joining node's share of the ring is Beta(k, nk)
// with mean exactly 1/(n+1) whatever k (a leaving node's, 1/n), and keys
// sample it without bias. The tolerance is the Student-t Level interval of
// the mean of the replicas (sample sd over sqrt(R)).
func ringJoinRow(from, to, vnodes int, reps []float64, keys int) Row {
	want := float64(max(to-from, from-to)) / float64(max(from, to))
	m, sd := stat.MeanStdDev(reps, nil)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(reps) - 1)}.Quantile(1 - (1-Level)/2)
	tol := t * sd / math.Sqrt(float64(len(reps)))
	return Row{
		Quantity:  fmt.Sprintf("ring moved %d->%d, mean over %d rings (%d vnodes, %s keys each)", from, to, len(reps), vnodes, count(keys)),
		Kind:      KindFormula,
		Published: fmt.Sprintf("ideal %s (the new node's expected share)", pct(want, 2)),
		Ours:      pct(m, 2),
		Accept:    rangePct(want-tol, want+tol, 2),
		Basis:     fmt.Sprintf("ideal ± t(%.1f%%, R-1)·sd/√R over rings", 100*Level),
		Pass:      math.Abs(m-want) <= tol,
	}
}

// ringRangeRow is the informational row of a figure published from one
// ring: pub (a fraction) beside ours and the 99% range of the same
// statistic over the independent rings reps.
func ringRangeRow(quantity string, pub float64, ours string, reps []float64) Row {
	lo, hi := range99(reps)
	inside := "inside"
	if pub < lo || pub > hi {
		inside = "outside"
	}
	return Row{
		Quantity: quantity, Kind: KindPublished, Published: pct(pub, 1), Ours: ours,
		Accept: rangePct(lo, hi, 1),
		Basis:  fmt.Sprintf("99%% range of %d rings: published is %s", len(reps), inside),
		Info:   true,
	}
}

// ringShareRows: the published smallest and largest shares of 5 servers
// came from one ring, so each must lie in the 99% range of the same
// statistic over independent rings.
func ringShareRows(o analysis.Options, sz Size, in Input) ([]Row, error) {
	var rows []Row
	for _, c := range in.RingShares {
		so, err := generated(o, sz.ShareKeys, sz.MoveSets)
		if err != nil {
			return nil, err
		}
		so.Algo, so.Config.VNodes = ring.Name, c.VNodes
		nodes, err := algorithms.DefaultNodes(5)
		if err != nil {
			return nil, err
		}
		sr, err := analysis.Spread(so, nodes)
		if err != nil {
			return nil, err
		}
		reps, err := analysis.SpreadReplicas(so, 5, sz.Replicas)
		if err != nil {
			return nil, err
		}
		var mins, maxs []float64
		for _, b := range reps {
			mins, maxs = append(mins, b.MinShare), append(maxs, b.MaxShare)
		}
		for _, side := range []struct {
			name string
			pub  float64
			ours analysis.Estimate
			reps []float64
		}{{"smallest", c.Min, analysis.EstimateOf(sr.MinShare, sr.MinShareLo, sr.MinShareHi), mins},
			{"largest", c.Max, analysis.EstimateOf(sr.MaxShare, sr.MaxShareLo, sr.MaxShareHi), maxs}} {
			rows = append(rows, ringRangeRow(
				fmt.Sprintf("ring %s share, 5 nodes, %d vnodes, one ring (%s keys)", side.name, c.VNodes, count(sz.ShareKeys)),
				side.pub, estPct(side.ours, 1)+" (default ring)", side.reps))
		}
	}
	return rows, nil
}

// ringCVRows checks one ring of sz.RingNodes nodes with k virtual nodes
// each (exact arcs, RingShares) against Karger et al.'s table (see
// ringCVCheck).
func ringCVRows(_ analysis.Options, sz Size, in Input) ([]Row, error) {
	var rows []Row
	for _, c := range in.RingCV {
		st, err := RingShares(sz.RingNodes, c.K, catalog.DefaultConfig().Hash)
		if err != nil {
			return nil, err
		}
		rows = append(rows, ringCVCheck(c, st)...)
	}
	return rows, nil
}

// ringCVCheck checks the exact shares of one ring against Karger et al.'s
// table as printed by Lamping & Veach: the cv against the tabled 1/sqrt(k)
// (a node's load/mean is about Gamma(k, k): excess kurtosis 6/k, so the
// sample sd of n such values has relative standard error sqrt(2/(n-1) +
// (6/k)/n) / 2), and the fraction of nodes whose load/mean lies in the
// tabled 99% interval against the probability the exact law gives that
// rounded interval: a node's share is Beta(k, (n-1)k) (its k arcs of the
// n·k Dirichlet spacings), so p = F(hi/n) - F(lo/n), and the count inside
// is about Binomial(n, p). (Centring on 99% would ignore the rounding.)
func ringCVCheck(c published.RingCV, st RingShareStat) []Row {
	n := st.Nodes
	rse := math.Sqrt(2/float64(n-1)+6/float64(c.K)/float64(n)) / 2
	tol := refZ*rse*c.CV + halfUnit(4)
	beta := distuv.Beta{Alpha: float64(c.K), Beta: float64((n - 1) * c.K)}
	p := beta.CDF(c.Hi/float64(n)) - beta.CDF(c.Lo/float64(n))
	inside := st.Inside(c.Lo, c.Hi)
	sd := math.Sqrt(p * (1 - p) / float64(n))
	return []Row{{
		Quantity:  fmt.Sprintf("ring share cv, k=%d vnodes, %d nodes (exact arcs)", c.K, n),
		Kind:      KindPublished,
		Published: fmt.Sprintf("%.4g", c.CV), Ours: fmt.Sprintf("%.4f", st.CV),
		Accept: fmt.Sprintf("[%.4f, %.4f]", st.CV-tol, st.CV+tol),
		Basis:  fmt.Sprintf("ours ± %.2f·se of a sample sd (Gamma(k) kurtosis)", refZ),
		Pass:   math.Abs(st.CV-c.CV) <= tol,
	}, {
		Quantity:  fmt.Sprintf("ring nodes inside the published 99%% load/mean (%.2f, %.2f), k=%d", c.Lo, c.Hi, c.K),
		Kind:      KindFormula,
		Published: fmt.Sprintf("%s (Beta(k, (n-1)k) mass of the rounded interval)", pct(p, 2)),
		Ours:      fmt.Sprintf("%s of %d", pct(inside, 2), n),
		Accept:    rangePct(p-refZ*sd, p+refZ*sd, 2),
		Basis:     fmt.Sprintf("p ± %.2f·sqrt(p(1-p)/n) binomial", refZ),
		Pass:      math.Abs(inside-p) <= refZ*sd,
	}}
}

// slotsRows: with S slots over n equal nodes, the exact peak/mean against
// the formula ceil(S/n)/(S/n) (see slotsCheck).
func slotsRows(o analysis.Options, _ Size, in Input) ([]Row, error) {
	var rows []Row
	for _, c := range in.Slots {
		nodes, err := algorithms.DefaultNodes(c.N)
		if err != nil {
			return nil, err
		}
		p, err := catalog.New(slots.Name, nodes, o.Config)
		if err != nil {
			return nil, err
		}
		row, err := slotsCheck(c, p.(algorithms.ExactSharer).ExactShares())
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// slotsCheck checks the exact shares of a slots placement of n =
// len(shares) equal nodes against the formula ceil(S/n)/(S/n) (S =
// 16,384), which must also round to the figure REFERENCES.md prints.
func slotsCheck(c published.SlotsPeak, shares []float64) (Row, error) {
	nodes, err := algorithms.DefaultNodes(len(shares))
	if err != nil {
		return Row{}, err
	}
	b, err := analysis.BalanceOf(shares, nodes)
	if err != nil {
		return Row{}, err
	}
	n, s := float64(len(shares)), float64(slots.NumSlots)
	want := math.Ceil(s/n) / (s / n)
	printed := strconv.FormatFloat(c.PeakToMean, 'f', c.Decimals, 64)
	return Row{
		Quantity:  fmt.Sprintf("slots peak/mean, %d nodes, S=16384 (exact)", len(shares)),
		Kind:      KindFormula,
		Published: fmt.Sprintf("ceil(S/n)/(S/n) = %.6f (printed %s)", want, printed),
		Ours:      fmt.Sprintf("%.6f", b.PeakToMean),
		Accept:    fmt.Sprintf("%.6f", want),
		Basis:     "exact slot counts against the formula",
		Pass:      math.Abs(b.PeakToMean-want) <= 1e-9 && strconv.FormatFloat(want, 'f', c.Decimals, 64) == printed,
	}, nil
}

// maglevRows checks Maglev's 1% promise on its exact entry counts.
func maglevRows(o analysis.Options, _ Size, in Input) ([]Row, error) {
	var rows []Row
	for _, c := range in.Maglev {
		mc := o.Config
		mc.TableSize = c.M
		nodes, err := algorithms.DefaultNodes(c.N)
		if err != nil {
			return nil, err
		}
		b, err := analysis.ExactBalance(maglev.Name, nodes, mc)
		if err != nil {
			return nil, err
		}
		rows = append(rows, maglevCheck(c, *b))
	}
	return rows, nil
}

// maglevCheck checks the exact balance b of a Maglev table of c.N nodes
// against the published promise: every share within c.Within of 1/n.
func maglevCheck(c published.MaglevBalance, b analysis.Balance) Row {
	n := float64(c.N)
	dev := max(b.MaxShare*n-1, 1-b.MinShare*n)
	return Row{
		Quantity:  fmt.Sprintf("maglev largest share deviation, %d nodes, M=%d (exact)", c.N, c.M),
		Kind:      KindPublished,
		Published: "within " + pct(c.Within, 0), Ours: pct(dev, 3),
		Accept: "<= " + pct(c.Within, 0),
		Basis:  "exact entry counts (M > 100 n)",
		Pass:   dev <= c.Within,
	}
}

// multiProbeRows checks multi-probe's 1 + 1/(k-1) on the mean exact
// peak-to-mean of sz.Replicas memberships (node IDs "m<s>-node-<i>"),
// accepted within refZ standard errors of that mean plus half a unit of
// the published precision.
func multiProbeRows(o analysis.Options, sz Size, in Input) ([]Row, error) {
	c := in.MultiProbe
	mc := o.Config
	mc.Probes = c.Probes
	ptms := make([]float64, sz.Replicas)
	for s := range ptms {
		nodes := make([]algorithms.Node, c.Nodes)
		for i := range nodes {
			nodes[i] = algorithms.Node{ID: fmt.Sprintf("m%d-node-%d", s, i), Weight: 1}
		}
		b, err := analysis.ExactBalance(multiprobe.Name, nodes, mc)
		if err != nil {
			return nil, err
		}
		ptms[s] = b.PeakToMean
	}
	return []Row{multiProbeCheck(c, ptms)}, nil
}

// multiProbeCheck checks the mean of the exact peak-to-mean ratios ptms
// of independent multi-probe memberships against the published 1 +
// 1/(k-1), within refZ standard errors of the mean plus half a unit of
// the published precision.
func multiProbeCheck(c published.MultiProbePeak, ptms []float64) Row {
	mean, sd := stat.MeanStdDev(ptms, nil)
	tol := refZ*sd/math.Sqrt(float64(len(ptms))) + halfUnit(c.Decimals)
	return Row{
		Quantity:  fmt.Sprintf("multiprobe peak/mean, %d probes, %d nodes (exact, mean of %d memberships)", c.Probes, c.Nodes, len(ptms)),
		Kind:      KindPublished,
		Published: strconv.FormatFloat(c.PeakToMean, 'f', c.Decimals, 64), Ours: fmt.Sprintf("%.4f", mean),
		Accept: fmt.Sprintf("[%.4f, %.4f]", mean-tol, mean+tol),
		Basis:  fmt.Sprintf("mean ± %.2f·sd/sqrt(S) + half a unit", refZ),
		Pass:   math.Abs(mean-c.PeakToMean) <= tol,
	}
}

func boundedRows(o analysis.Options, sz Size, _ Input) ([]Row, error) {
	r, err := boundedRow(o, sz)
	if err != nil {
		return nil, err
	}
	return []Row{r}, nil
}

// weightRows: weighted rendezvous shares converge to w_i/W; each measured
// share is a mean of N Bernoulli(q) placements.
func weightRows(o analysis.Options, sz Size, in Input) ([]Row, error) {
	wn, err := analysis.WeightedNodes(in.Weights)
	if err != nil {
		return nil, err
	}
	wo, err := lawOptions(o, sz, rendezvous.Name)
	if err != nil {
		return nil, err
	}
	wr, err := analysis.Spread(wo, wn)
	if err != nil {
		return nil, err
	}
	return weightCheck(in.Weights, wr.Shares, sz.LawKeys*sz.LawSets), nil
}

// weightCheck checks measured shares (one per weight, in order) over n
// keys against the formula w_i/W within refZ binomial standard errors.
func weightCheck(weights []float64, shares []schema.Share, n int) []Row {
	var total float64
	for _, w := range weights {
		total += w
	}
	var rows []Row
	for i, s := range shares {
		q := weights[i] / total
		tol := refZ * math.Sqrt(q*(1-q)/float64(n))
		rows = append(rows, Row{
			Quantity:  fmt.Sprintf("rendezvous share, weight %g of %v (%s keys)", weights[i], weights, count(n)),
			Kind:      KindFormula,
			Published: "w_i/W = " + pct(q, 1), Ours: estPct(analysis.EstimateOf(s.Share, s.ShareLo, s.ShareHi), 2),
			Accept: rangePct(q-tol, q+tol, 2),
			Basis:  fmt.Sprintf("w_i/W ± %.2f·sqrt(q(1-q)/N) binomial", refZ),
			Pass:   math.Abs(s.Share-q) <= tol,
		})
	}
	return rows
}

// noiseRows: a perfectly even algorithm's cv is sampling noise. K·cv² is
// Pearson's X² of one set: chi-square with n-1 degrees of freedom; summed
// over S sets, chi-square with S(n-1).
func noiseRows(o analysis.Options, sz Size, in Input) ([]Row, error) {
	var rows []Row
	for _, c := range in.Noise {
		no, err := generated(o, noiseKeys(c, sz), sz.LawSets)
		if err != nil {
			return nil, err
		}
		no.Algo = c.Algo
		nodes, err := algorithms.DefaultNodes(c.Nodes)
		if err != nil {
			return nil, err
		}
		r, err := analysis.Spread(no, nodes)
		if err != nil {
			return nil, err
		}
		rows = append(rows, noiseCheck(c.Algo, c.Nodes, noiseKeys(c, sz), r.Samples))
	}
	return rows, nil
}

// noiseCheck checks the per-set cv samples of an algorithm that should
// place keys like independent uniform draws (k keys per set over n nodes)
// against the sampling-noise law sqrt((n-1)/K) (a formula): k·cv² of one
// set is Pearson's X², chi² with n-1 degrees of freedom, so the sum over S
// sets is chi²(S(n-1)).
func noiseCheck(algo string, nodes, keys int, samples []schema.SpreadSample) Row {
	var ss float64
	for _, b := range samples {
		ss += b.CV * b.CV
	}
	s, k, n := float64(len(samples)), float64(keys), float64(nodes)
	rms := math.Sqrt(ss / s)
	chi := distuv.ChiSquared{K: s * (n - 1)}
	lo := math.Sqrt(chi.Quantile((1-Level)/2) / (s * k))
	hi := math.Sqrt(chi.Quantile(1-(1-Level)/2) / (s * k))
	return Row{
		Quantity:  fmt.Sprintf("noise floor cv, %s, %d nodes (%s keys x %d sets)", algo, nodes, count(keys), len(samples)),
		Kind:      KindFormula,
		Published: fmt.Sprintf("sqrt((n-1)/K) = %.4f", math.Sqrt((n-1)/k)), Ours: fmt.Sprintf("%.4f rms", rms),
		Accept: fmt.Sprintf("[%.4f, %.4f]", lo, hi),
		Basis:  fmt.Sprintf("K·cv² summed over sets ~ chi²(S(n-1)), %.1f%%", 100*Level),
		Pass:   lo <= rms && rms <= hi,
	}
}

// cacheRows measures modulo From -> To of the cache example with the law
// sizes and derives the example from it (see cacheExample).
func cacheRows(o analysis.Options, sz Size, in Input) ([]Row, error) {
	co, err := lawOptions(o, sz, modulo.Name)
	if err != nil {
		return nil, err
	}
	r, err := resizeMove(co, in.Cache.From, in.Cache.To)
	if err != nil {
		return nil, err
	}
	return cacheExample(in.Cache, moved(r)), nil
}

// boundedRow runs churn, shrink and add-many scenarios with bounded loads
// and checks every placement's busiest node (see boundedCheck).
func boundedRow(o analysis.Options, sz Size) (Row, error) {
	steps, err := boundedSteps(o, sz)
	if err != nil {
		return Row{}, err
	}
	return boundedCheck(steps, o.Config.Eps, o.Config.Partitions, sz.BoundedNodes), nil
}

// boundedSteps runs churn, shrink and add-many scenarios with bounded
// loads and returns every placement's busiest node.
func boundedSteps(o analysis.Options, sz Size) ([]analysis.BoundedStep, error) {
	var out []analysis.BoundedStep
	for run := range sz.BoundedRuns {
		for _, op := range []string{schema.OpChurn, schema.OpShrinkRandom, schema.OpAddMany} {
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

// boundedCheck checks every placement's busiest node against
// ceil(c·m/n), the capacity recomputed here from eps, m partitions and n.
func boundedCheck(steps []analysis.BoundedStep, eps float64, m, nodes int) Row {
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
		Kind:      KindPublished,
		Published: "<= 1", Ours: fmt.Sprintf("%.4f (worst)", worst), Accept: "<= 1",
		Basis: fmt.Sprintf("hard bound; churn/shrink/add-many from %d nodes, m=%d", nodes, m), Pass: pass,
	}
}

// cacheExample derives the cache example from the measured moved fraction
// with the miss-storm model right after the change ([analysis.StormModel]
// at t = 0): a key that moved misses, so the new hit ratio is old hit
// ratio · (1 - moved); the database sees reads · (1 - hit ratio). Our
// intervals follow from the moved fraction's; a published "about" figure
// passes if it lies within half its rounding step of our interval (of our
// mean, should the moved fraction have no interval).
func cacheExample(c published.Cache, moved analysis.Estimate) []Row {
	sm := analysis.StormModel{Reads: c.Reads, HitRatio: c.OldHit, WorkingSet: 1} // t = 0: the working set plays no part
	hit := func(m float64) float64 { return sm.HitAt(m, 0) }
	db := func(m float64) float64 { return sm.DBReadsAt(m, 0) }
	old := sm.SteadyDBReads()
	row := func(q string, pub, step float64, f func(float64) float64, fmtV func(float64) string) Row {
		mid, lo, hi := f(moved.Mean), f(moved.Mean), f(moved.Mean)
		ours := fmtV(mid) + " " + numfmt.NoInterval
		if moved.HasInterval() {
			a, b := f(*moved.Lo), f(*moved.Hi)
			lo, hi = min(a, b), max(a, b)
			ours = numfmt.Interval(fmtV(mid), fmtV(lo), fmtV(hi))
		}
		return Row{
			Quantity:  q,
			Kind:      KindPublished,
			Published: "about " + fmtV(pub), Ours: ours,
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
func pct(x float64, d int) string { return numfmt.Percent(x, d) }

func estPct(e analysis.Estimate, d int) string {
	if !e.HasInterval() {
		return pct(e.Mean, d) + " " + numfmt.NoInterval
	}
	return numfmt.Interval(pct(e.Mean, d), strconv.FormatFloat(100**e.Lo, 'f', d, 64), strconv.FormatFloat(100**e.Hi, 'f', d, 64))
}

func rangePct(lo, hi float64, d int) string {
	return fmt.Sprintf("[%s, %s]", pct(lo, d), pct(hi, d))
}

// count formats n with thousands separators: 10,000.
var count = numfmt.Int

var refHeader = []string{"quantity", "kind", "reference value", "ours [95% CI]", "accepted", "basis", "verdict"}

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
			fmt.Fprintln(tw, strings.Join([]string{r.Quantity, r.Kind, r.Published, r.Ours, r.Accept, r.Basis, verdict(r)}, "\t"))
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
			fmt.Fprintln(tw, strings.Join([]string{r.Quantity, r.Kind, r.Published, r.Ours, r.Accept, r.Basis}, "\t"))
		}
	}
	return tw.Flush()
}

// WriteCSV writes rows as CSV with the table's columns; the verdict of an
// informational row is "info".
func WriteCSV(w io.Writer, rows []Row) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"quantity", "kind", "reference", "ours", "accepted", "basis", "verdict"})
	for _, r := range rows {
		cw.Write([]string{r.Quantity, r.Kind, r.Published, r.Ours, r.Accept, r.Basis, verdict(r)})
	}
	cw.Flush()
	return cw.Error()
}

// Notes explains how the rows are compared; printed under the table.
const Notes = `Notes:
  Kind: "published" is a figure printed by the field (papers, specs, write-ups); "formula"
  is a value chbench computes from a law (REFERENCES.md's analytic values); "vector" is an
  exact test vector. Every PASS/FAIL row fails for a deliberately broken implementation
  (analysis/reference/reference_test.go, TestBrokenVariantsFail). Sampled tolerances are
  two-sided 99.9% bounds of the sampling law named in the basis column. Published ring
  figures come from one ring (one hash, one set of node names, one key set, an unstated vnode
  count): such a statistic varies widely from ring to ring, so they are informational, with
  the 99% range of the same statistic over independent rings (node IDs r<i>/node-<j> and keys
  varied); the ring checks are over rings instead. Jump's expected loop count H_n
  (H_1024 = 7.509) is checked in reference_test.go by a counting re-implementation.
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
