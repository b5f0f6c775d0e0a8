package analysis

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"text/tabwriter"

	"github.com/chbench/chbench/schema"
)

func zipfPtr(s float64) *float64 {
	if math.IsNaN(s) {
		return nil
	}
	return &s
}

// nanNull returns nil for NaN (not applicable), else a pointer to x.
func nanNull(x float64) *float64 {
	if math.IsNaN(x) {
		return nil
	}
	return &x
}

// LoadRows returns the results schema rows of rs, in order: zipf is nil
// for a request log.
func LoadRows(rs []*LoadResult) []schema.Load {
	out := make([]schema.Load, 0, len(rs))
	for _, r := range rs {
		c := r.Config
		out = append(out, schema.Load{
			Algo: r.Placement, Hash: c.Hash, VNodes: c.VNodes, Nodes: r.Nodes, Zipf: zipfPtr(r.Zipf), Keys: c.Keys,
			Requests: r.Requests, Sets: c.Sets, Seed: c.Seed,
			PeakToMean: r.PeakToMean.Mean, PeakToMeanLo: r.PeakToMean.Lo, PeakToMeanHi: r.PeakToMean.Hi,
			CV: r.CV.Mean, CVLo: r.CV.Lo, CVHi: r.CV.Hi,
			MaxShare: r.MaxShare.Mean, MaxShareLo: r.MaxShare.Lo, MaxShareHi: r.MaxShare.Hi,
			HotShare: r.HotShare.Mean, HotShareLo: r.HotShare.Lo, HotShareHi: r.HotShare.Hi,
			Floor: r.Floor, HotKeyNode: r.HotNode, HotIsBusiest: r.HotIsBusiest,
			AwayFrac: r.Away.Mean, AwayFracLo: r.Away.Lo, AwayFracHi: r.Away.Hi,
			MaxLoadOverCap: r.MaxLoadOverCap, InFlight: r.InFlight, Config: c, Samples: r.Samples,
		})
	}
	return out
}

// estPtrs returns the mean, lo and hi of e, or three nils for a nil e.
func estPtrs(e *Estimate) (m, lo, hi *float64) {
	if e == nil {
		return nil, nil, nil
	}
	x := *e
	return &x.Mean, &x.Lo, &x.Hi
}

// BoundedRows returns the results schema rows of rs, in order:
// max_load_over_cap is nil for the plain ring, moves_per_cap_* nil where
// the variant has no capacity.
func BoundedRows(rs []*BoundedResult) []schema.Bounded {
	out := make([]schema.Bounded, 0, len(rs))
	for _, r := range rs {
		c := r.Config
		b := schema.Bounded{
			Algo: r.Variant, Hash: c.Hash, VNodes: c.VNodes, Nodes: r.Nodes, Eps: c.Eps, Zipf: r.Zipf, Keys: c.Keys,
			Requests: r.Requests, Sets: c.Sets, Seed: c.Seed, MaxLoadOverCap: nanNull(r.MaxLoadOverCap),
			AwayFrac: r.Away.Mean, AwayFracLo: r.Away.Lo, AwayFracHi: r.Away.Hi,
			PeakToMean: r.PeakToMean.Mean, PeakToMeanLo: r.PeakToMean.Lo, PeakToMeanHi: r.PeakToMean.Hi,
			MovedJoinFrac: r.MovedJoin.Mean, MovedJoinFracLo: r.MovedJoin.Lo, MovedJoinFracHi: r.MovedJoin.Hi, IdealJoinFrac: r.IdealJoin,
			MovedLeaveFrac: r.MovedLeave.Mean, MovedLeaveFracLo: r.MovedLeave.Lo, MovedLeaveFracHi: r.MovedLeave.Hi, IdealLeaveFrac: r.IdealLeave.Mean,
			BoundOneOverEpsSq: r.Bound, InFlight: r.InFlight, Config: c,
		}
		b.MovesPerCapJoin, b.MovesPerCapJoinLo, b.MovesPerCapJoinHi = estPtrs(r.MovesPerCapJoin)
		b.MovesPerCapLeave, b.MovesPerCapLeaveLo, b.MovesPerCapLeaveHi = estPtrs(r.MovesPerCapLeave)
		for _, s := range r.Samples {
			b.Samples = append(b.Samples, schema.BoundedSample{
				MaxLoadOverCap: nanNull(s.MaxLoadOverCap), Away: s.Away, PeakToMean: s.PeakToMean,
				MovedJoin: s.MovedJoin, MovedLeave: s.MovedLeave, IdealLeave: s.IdealLeave,
				MovesCapJoin: s.MovesCapJoin, MovesCapLeave: s.MovesCapLeave,
			})
		}
		out = append(out, b)
	}
	return out
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func zipfCell(s float64) string {
	if math.IsNaN(s) {
		return "log"
	}
	return ftoa(s)
}

// WriteLoadTable writes rs as an aligned text table: peak-to-mean request
// load with its 95% interval beside the hot-key floor, the busiest node's
// and the hottest key's share of requests in percent, where the hottest
// key lands, the fraction served away from the first choice and the
// largest load / capacity of the bounded forms ("-" for the others).
func WriteLoadTable(w io.Writer, rs []*LoadResult) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "algo\tnodes\tzipf\tpeak/mean [95% CI]\thot-key floor\tcv [95% CI]\tbusiest node\thot key\thot key node (busiest)\taway [95% CI]\tmax load/cap")
	for _, r := range rs {
		mc := "-"
		if r.MaxLoadOverCap != nil {
			mc = f4(*r.MaxLoadOverCap)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s (%s)\t%s\t%s\n", r.Placement, r.Nodes, zipfCell(r.Zipf),
			ci(r.PeakToMean, f4), f4(r.Floor), ci(r.CV, f4), pct(r.MaxShare.Mean), pct(r.HotShare.Mean),
			r.HotNode, pct(r.HotIsBusiest), ci(r.Away, pct), mc)
	}
	return tw.Flush()
}

// WriteBoundedTable writes rs as an aligned text table: per variant, eps
// and Zipf exponent the largest load / capacity ("-" for the plain ring),
// the fraction of requests served away from their first choice, the
// peak-to-mean request load, the moved fractions on one join and one
// leave beside their ideal, moves per unit of capacity and 1/eps^2.
func WriteBoundedTable(w io.Writer, rs []*BoundedResult) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "algo\tnodes\teps\tzipf\tmax load/cap\taway [95% CI]\tpeak/mean\tjoin moved (ideal)\tleave moved (ideal)\tjoin moves/cap\tleave moves/cap\t1/eps^2")
	for _, r := range rs {
		mc := "-"
		if !math.IsNaN(r.MaxLoadOverCap) {
			mc = f4(r.MaxLoadOverCap)
		}
		cj, cl := "-", "-"
		if r.MovesPerCapJoin != nil {
			cj, cl = ci(*r.MovesPerCapJoin, f4), ci(*r.MovesPerCapLeave, f4)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s (%s)\t%s (%s)\t%s\t%s\t%s\n", r.Variant, r.Nodes, ftoa(r.Config.Eps), ftoa(r.Zipf), mc,
			ci(r.Away, pct), f4(r.PeakToMean.Mean), ci(r.MovedJoin, pct), pct(r.IdealJoin), ci(r.MovedLeave, pct), pct(r.IdealLeave.Mean), cj, cl, ftoa(r.Bound))
	}
	return tw.Flush()
}
