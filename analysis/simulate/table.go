package simulate

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/internal/numfmt"
	"github.com/chbench/chbench/schema"
)

// WriteTable writes a run's rows as aligned text tables for terminals:
// per placement its hit ratio, database reads, evictions and the most
// bytes a node held; then per placement and membership change (the events
// at one time, which share one storm) the baseline and peak database
// reads per second, the peak's multiple of the baseline, the lowest
// window hit ratio, the extra database reads up to the refill, the refill
// time and the extra database reads to the next event or the end ("-"
// where a value is missing).
func WriteTable(w io.Writer, rs Rows) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "algo\tnodes\trequests\thit ratio\tdb reads\tevictions\texpired\ttoo large\tpeak node bytes")
	for _, s := range rs.Summary {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", s.Algo, s.Nodes, numfmt.Int(s.Requests), pctOf(s.HitRatio), numfmt.Int(s.DBReads),
			numfmt.Int(s.Evictions), numfmt.Int(s.Expired), numfmt.Int(s.TooLarge), catalog.HumanBytes(int64(s.PeakNodeBytes)))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	groups := schema.SimEventGroups(rs.Events)
	if len(groups) == 0 {
		return nil
	}
	fmt.Fprintln(w, "\nstorms (events at one time share one; refill: the miss ratio back within 1.1x the baseline):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "algo\tat\tchange\tbaseline db reads/s\tpeak db reads/s\tx baseline\tmin hit ratio\textra db reads to refill\trefilled after\textra db reads to the end")
	for _, g := range groups {
		e := g.First
		if !e.Reached {
			fmt.Fprintf(tw, "%s\t%ss\t%s\tnot reached: the trace ended first\t\t\t\t\t\t\n", e.Algo, ftoa(e.AtS), g.Change)
			continue
		}
		refill := "not refilled"
		if e.RefillS != nil {
			refill = ftoa(*e.RefillS) + "s"
		}
		fmt.Fprintf(tw, "%s\t%ss\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e.Algo, ftoa(e.AtS), g.Change, num(e.BaselineDBReadsS), num(e.PeakDBReadsS),
			multiple(e.PeakMultiple), pctOf(e.MinHitRatio), num(e.ExtraToRefill), refill, num(e.ExtraDBReads))
	}
	return tw.Flush()
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func pctOf(x *float64) string {
	if x == nil {
		return "-"
	}
	return numfmt.Percent(*x, 2)
}

func num(x *float64) string {
	if x == nil {
		return "-"
	}
	return numfmt.Thousands(*x)
}

func multiple(x *float64) string {
	if x == nil {
		return "-"
	}
	return numfmt.Fixed(*x, 2) + "x"
}
