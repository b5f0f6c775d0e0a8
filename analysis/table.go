package analysis

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"text/tabwriter"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/internal/numfmt"
	"github.com/chbench/chbench/schema"
)

// The aligned text tables of the results, for terminals (the "table"
// format of the commands): fractions in percent, ratios in four decimals,
// 95% intervals in brackets.

func pct(x float64) string { return numfmt.Percent(x, 2) }

func ci(mean float64, lo, hi *float64, f func(float64) string) string {
	return numfmt.Estimate(mean, lo, hi, f)
}

func f4(x float64) string { return numfmt.Fixed(x, 4) }

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// WriteMoveTable writes rs as an aligned text table for terminals:
// fractions in percent with their 95% intervals in brackets.
func WriteMoveTable(w io.Writer, rs []schema.Move) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "algo\top\tfrom\tto\tkeys\tmoved [95% CI]\tideal\tmoved/ideal\tcollateral [95% CI]\tnet moved [95% CI]")
	labels := tableLabels(rs, func(r schema.Move) (schema.Config, string) { return r.Config, r.Label })
	for i, r := range rs {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\n", labels[i], r.Op, r.From, r.To, r.Keys,
			ci(r.MovedFrac, r.MovedFracLo, r.MovedFracHi, pct), pct(r.IdealFrac), f4(r.MovedOverIdeal),
			ci(r.CollateralFrac, r.CollateralFracLo, r.CollateralFracHi, pct), ci(r.NetMovedFrac, r.NetMovedFracLo, r.NetMovedFracHi, pct))
	}
	return tw.Flush()
}

// WriteSpreadTable writes rs as an aligned text table for terminals: shares
// in percent, peak-to-mean and cv as ratios, 95% intervals in brackets, the
// noise floor and the exact values ("-" without exact shares).
func WriteSpreadTable(w io.Writer, rs []schema.Spread) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "algo\tnodes\tmin share [95% CI]\tmax share [95% CI]\tpeak/mean [95% CI]\tcv [95% CI]\tnoise peak/mean\tnoise cv\texact peak/mean\texact cv\tplacements peak/mean [p5, p95]\ttheory peak/mean\ttheory cv\tnoise")
	labels := tableLabels(rs, func(r schema.Spread) (schema.Config, string) { return r.Config, r.Label })
	for i, r := range rs {
		ep, ec, lp, tp, tc := "-", "-", "-", "-", "-"
		if r.ExactPeakToMean != nil {
			ep, ec = f4(*r.ExactPeakToMean), f4(*r.ExactCV)
		}
		if r.Placements != nil {
			lp = fmt.Sprintf("%s [%s, %s] (%d)", f4(*r.PlacementsPeakToMean), f4(*r.PlacementsPeakToMeanP5), f4(*r.PlacementsPeakToMeanP95), *r.Placements)
		}
		if r.TheoryPeakToMean != nil {
			tp, tc = f4(*r.TheoryPeakToMean), f4(*r.TheoryCV)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", labels[i], r.Nodes,
			ci(r.MinShare, r.MinShareLo, r.MinShareHi, pct), ci(r.MaxShare, r.MaxShareLo, r.MaxShareHi, pct),
			ci(r.PeakToMean, r.PeakToMeanLo, r.PeakToMeanHi, f4), ci(r.CV, r.CVLo, r.CVHi, f4),
			f4(r.NoisePeakToMean), f4(r.NoiseCV), ep, ec, lp, tp, tc, r.NoiseMethod)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return writeBytesTable(w, rs, labels)
}

// writeBytesTable writes, for the rows of a trace with sizes, the memory
// each placement's busiest node needs: the trace's object bytes, the
// busiest node (by bytes for its weight), its bytes, and the
// peak-to-mean and cv of bytes; nothing when no row has them.
func writeBytesTable(w io.Writer, rs []schema.Spread, labels []string) error {
	if !slices.ContainsFunc(rs, func(r schema.Spread) bool { return r.ObjectBytes != nil }) {
		return nil
	}
	fmt.Fprintln(w, "\nby bytes (each object once: key + value + overhead bytes, on the given node IDs):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "algo\tnodes\tobject bytes\tbusiest node\tbusiest bytes\tbytes peak/mean\tbytes cv\tsample rate")
	for i, r := range rs {
		if r.ObjectBytes == nil {
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", labels[i], r.Nodes, catalog.HumanBytes(int64(*r.ObjectBytes)), r.BusiestNode,
			catalog.HumanBytes(int64(*r.BusiestBytes)), f4(*r.BytesPeakToMean), f4(*r.BytesCV), numfmt.PercentSig3(*r.BytesSampleRate))
	}
	return tw.Flush()
}

// WriteLoadTable writes rs as an aligned text table: peak-to-mean request
// load with its 95% interval beside the hot-key floor, the busiest node's
// and the hottest key's share of requests in percent, where the hottest
// key lands, the fraction served away from the first choice and the
// largest load / capacity of the bounded forms ("-" for the others); for
// a trace with sizes, the peak-to-mean of bytes and the busiest node's
// share of bytes.
func WriteLoadTable(w io.Writer, rs []schema.Load) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	byBytes := slices.ContainsFunc(rs, func(r schema.Load) bool { return r.BytesPeakToMean != nil })
	head := "algo\tnodes\tzipf\tpeak/mean [95% CI]\thot-key floor\tcv [95% CI]\tbusiest node\thot key\thot key node (busiest)\taway [95% CI]\tmax load/cap"
	if byBytes {
		head += "\tbytes peak/mean [95% CI]\tbusiest node's share of bytes [95% CI]"
	}
	fmt.Fprintln(tw, head)
	for _, r := range rs {
		mc, z := "-", "log"
		if r.MaxLoadOverCap != nil {
			mc = f4(*r.MaxLoadOverCap)
		}
		if r.Zipf != nil {
			z = ftoa(*r.Zipf)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s (%s)\t%s\t%s", r.Algo, r.Nodes, z,
			ci(r.PeakToMean, r.PeakToMeanLo, r.PeakToMeanHi, f4), f4(r.Floor), ci(r.CV, r.CVLo, r.CVHi, f4), pct(r.MaxShare), pct(r.HotShare),
			r.HotKeyNode, pct(r.HotIsBusiest), ci(r.AwayFrac, r.AwayFracLo, r.AwayFracHi, pct), mc)
		switch {
		case r.BytesPeakToMean != nil:
			fmt.Fprintf(tw, "\t%s\t%s", ci(*r.BytesPeakToMean, r.BytesPeakToMeanLo, r.BytesPeakToMeanHi, f4), ci(*r.BytesMaxShare, r.BytesMaxShareLo, r.BytesMaxShareHi, pct))
		case byBytes:
			fmt.Fprint(tw, "\t-\t-")
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// WriteBoundedTable writes rs as an aligned text table: per form, eps and
// Zipf exponent the largest load / capacity ("-" for the plain ring), the
// fraction of requests served away from their first choice, the
// peak-to-mean request load, the moved fractions on one join and one
// leave beside their ideal, moves per unit of capacity and 1/eps^2.
func WriteBoundedTable(w io.Writer, rs []schema.Bounded) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "algo\tnodes\teps\tzipf\tmax load/cap\taway [95% CI]\tpeak/mean\tjoin moved (ideal)\tleave moved (ideal)\tjoin moves/cap\tleave moves/cap\t1/eps^2")
	for _, r := range rs {
		mc, cj, cl := "-", "-", "-"
		if r.MaxLoadOverCap != nil {
			mc = f4(*r.MaxLoadOverCap)
		}
		if r.MovesPerCapJoin != nil {
			cj = ci(*r.MovesPerCapJoin, r.MovesPerCapJoinLo, r.MovesPerCapJoinHi, f4)
			cl = ci(*r.MovesPerCapLeave, r.MovesPerCapLeaveLo, r.MovesPerCapLeaveHi, f4)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s (%s)\t%s (%s)\t%s\t%s\t%s\n", r.Algo, r.Nodes, ftoa(r.Eps), ftoa(r.Zipf), mc,
			ci(r.AwayFrac, r.AwayFracLo, r.AwayFracHi, pct), f4(r.PeakToMean),
			ci(r.MovedJoinFrac, r.MovedJoinFracLo, r.MovedJoinFracHi, pct), pct(r.IdealJoinFrac),
			ci(r.MovedLeaveFrac, r.MovedLeaveFracLo, r.MovedLeaveFracHi, pct), pct(r.IdealLeaveFrac), cj, cl, ftoa(r.BoundOneOverEpsSq))
	}
	return tw.Flush()
}

// WriteReplicationTable writes rs as an aligned text table for terminals:
// fractions in percent, 95% intervals in brackets.
func WriteReplicationTable(w io.Writer, rs []schema.Replication) error {
	if len(rs) > 0 {
		topologyLine(w, rs[0].Config) // replicas spread one per domain
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "algo\tR\top\tfrom\tto\treplicas moved [95% CI]\tideal\tkeys losing all replicas [95% CI]\treplica load peak/mean [95% CI]\tload cv\tdistinct sets (of C(n,R))")
	labels := tableLabels(rs, func(r schema.Replication) (schema.Config, string) { return r.Config, "" })
	for i, r := range rs {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s (of %s)\n", labels[i], r.Replicas, r.Op, r.From, r.To,
			ci(r.PairsMovedFrac, r.PairsMovedFracLo, r.PairsMovedFracHi, pct), pct(r.IdealFrac),
			ci(r.AllLostFrac, r.AllLostFracLo, r.AllLostFracHi, pct), ci(r.LoadPeakToMean, r.LoadPeakToMeanLo, r.LoadPeakToMeanHi, f4), f4(r.LoadCV),
			strconv.FormatFloat(r.DistinctSets, 'f', 0, 64), countOf(r.MaxSets))
	}
	return tw.Flush()
}

// WriteStormTable writes rs as an aligned text table for terminals: the
// fleet, then per row the moved fraction and hit ratio in percent,
// database reads per second and their multiple of the steady state, the
// extra reads until the cache has refilled and the recovery time, with
// 95% intervals in brackets, then for each membership change the floor
// every algorithm faces: the storm of moving exactly the ideal fraction.
func WriteStormTable(w io.Writer, rs []schema.Storm) error {
	if len(rs) > 0 {
		m := ModelOf(rs[0])
		pop := ""
		if m.Zipf > 0 {
			pop = ", Zipf popularity s = " + ftoa(m.Zipf)
		}
		fmt.Fprintf(w, "cache fleet: %s reads/s at %s hit ratio, working set %s keys%s (tau = K/Q = %s s); steady database load %s reads/s\n",
			num(m.Reads), pct(m.HitRatio), num(float64(m.WorkingSet)), pop, strconv.FormatFloat(m.TimeConstant(), 'g', 4, 64), num(m.SteadyDBReads()))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "algo\top\tfrom\tto\tmoved [95%% CI]\thit ratio after\tdb reads/s [95%% CI]\tx steady [95%% CI]\textra db reads\tseconds to <%gx steady\n", StormRecoveryFactor)
	labels := tableLabels(rs, func(r schema.Storm) (schema.Config, string) { return r.Config, "" })
	for i, r := range rs {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", labels[i], r.Op, r.From, r.To,
			ci(r.MovedFrac, r.MovedFracLo, r.MovedFracHi, pct), ci(r.HitAfter, r.HitAfterLo, r.HitAfterHi, pct),
			ci(r.DBReads, r.DBReadsLo, r.DBReadsHi, num), ci(r.DBMultiple, r.DBMultipleLo, r.DBMultipleHi, x1), num(r.ExtraDBReads),
			strconv.FormatFloat(r.RecoveryS, 'f', 1, 64))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var seen []string
	for _, r := range rs {
		if k := fmt.Sprint(r.Op, r.From, r.To); !slices.Contains(seen, k) {
			seen = append(seen, k)
			m := ModelOf(r)
			_, err := fmt.Fprintf(w, "ideal %s %d -> %d (moved = ideal fraction %s): hit ratio %s, %s db reads/s, %s steady\n", r.Op, r.From, r.To,
				pct(r.IdealFrac), pct(m.HitAt(r.IdealFrac, 0)), num(m.DBReadsAt(r.IdealFrac, 0)), x1(m.DBReadsAt(r.IdealFrac, 0)/m.SteadyDBReads()))
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// WriteStormLiveTable writes the rows of a live storm (StormLiveRows) as
// an aligned table, live and simulated side by side; lru tells that the
// steady misses were left to the servers' eviction rather than emulated
// by expiries.
func WriteStormLiveTable(w io.Writer, rows []schema.StormLive, lru bool) error {
	if len(rows) == 0 {
		return nil
	}
	r0 := rows[0]
	m := StormModel{Reads: r0.Reads, HitRatio: r0.HitRatio, WorkingSet: r0.WorkingSet, Zipf: r0.Zipf}
	fmt.Fprintf(w, "live storm: %s %d -> %d, one memcached per node on 127.0.0.1 (-m %d MB), working set %s keys of %d-byte values\n",
		r0.Op, r0.From, r0.To, r0.LiveMemMB, num(float64(m.WorkingSet)), r0.ValueBytes)
	how := "emulated by expiring the key before " + pct(1-m.HitRatio) + " of reads"
	if lru {
		how = "left to memcached's LRU eviction (no expiries)"
	}
	fmt.Fprintf(w, "clock: %s reads/s (read i at i/Q s; tau = K/Q = %s s); model's steady hit %s, live %s; db = Q x miss ratio\n",
		num(m.Reads), strconv.FormatFloat(m.TimeConstant(), 'g', 4, 64), pct(m.HitRatio), how)
	if m.Zipf > 0 {
		fmt.Fprintf(w, "popularity: Zipf s = %s over the working set (seeded draws, model summed over the same law)\n", ftoa(m.Zipf))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "algo\tmoved\twindow\tseconds\treads\thit live\thit sim\tdb reads/s live\tdb reads/s sim")
	for _, r := range rows {
		win := strconv.Itoa(r.Window)
		if r.Window < 0 {
			win = "before"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s..%s\t%s\t%s\t%s\t%s\t%s\n", r.Algo, pct(r.MovedFrac), win,
			strconv.FormatFloat(r.TimeS, 'f', 2, 64), strconv.FormatFloat(r.TimeEndS, 'f', 2, 64), num(float64(r.WindowReads)),
			pct(r.HitLive), pct(r.HitSim), num(r.DBReadsLive), num(r.DBReadsSim))
	}
	return tw.Flush()
}

// num formats x rounded to a whole number with thousands separators.
func num(x float64) string { return numfmt.Thousands(x) }

func x1(x float64) string { return numfmt.Fixed(x, 2) + "x" }

// countOf formats a count held in a float64: exactly with thousands
// separators up to 2^53, past which a float64 no longer holds every whole
// number, in 4 significant digits ("2.665e+22").
func countOf(x float64) string {
	if x > 1<<53 {
		return strconv.FormatFloat(x, 'g', 4, 64)
	}
	return num(x)
}

// tableLabels returns the "algo" cell of each result (whose Config and
// label config extracts) in a table: the algorithm's label (name and
// variant; the name when the label is empty), followed by the hash and the
// virtual-node count when they vary among the results (a sweep) and the
// algorithm uses them (slots hash with CRC-16 whatever the setting; only
// ring and bounded read vnodes).
func tableLabels[R any](rs []R, config func(R) (schema.Config, string)) []string {
	cfgs := make([]schema.Config, len(rs))
	names := make([]string, len(rs))
	for i, r := range rs {
		cfgs[i], names[i] = config(r)
		if names[i] == "" {
			names[i] = cfgs[i].Algo
		}
	}
	hashes, vnodes := map[string]bool{}, map[int]bool{}
	for _, c := range cfgs {
		if catalog.UsesHash(c.Algo) {
			hashes[c.Hash] = true
		}
		if catalog.UsesVNodes(c.Algo) {
			vnodes[c.VNodes] = true
		}
	}
	out := make([]string, len(cfgs))
	for i, c := range cfgs {
		out[i] = names[i]
		if len(hashes) > 1 && catalog.UsesHash(c.Algo) {
			out[i] += " " + c.Hash
		}
		if len(vnodes) > 1 && catalog.UsesVNodes(c.Algo) {
			out[i] += " vnodes=" + strconv.Itoa(c.VNodes)
		}
	}
	return out
}
