package analysis

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/chbench/chbench/algorithms/catalog"
)

func pct(x float64) string { return strconv.FormatFloat(100*x, 'f', 2, 64) + "%" }

func ci(e Estimate, f func(float64) string) string {
	return f(e.Mean) + " [" + f(e.Lo) + ", " + f(e.Hi) + "]"
}

func f4(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }

// WriteMoveTable writes rs as an aligned text table for terminals:
// fractions in percent with their 95% intervals in brackets.
func WriteMoveTable(w io.Writer, rs []*MoveResult) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "algo\top\tfrom\tto\tkeys\tmoved [95% CI]\tideal\tmoved/ideal\tcollateral [95% CI]\tnet moved [95% CI]")
	labels := tableLabels(rs, func(r *MoveResult) (RunConfig, string) { return r.Config, r.Label })
	for i, r := range rs {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\n", labels[i], r.Op, r.From, r.To, r.Config.Keys,
			ci(r.Moved, pct), pct(r.Ideal), f4(r.MovedOverIdeal), ci(r.Collateral, pct), ci(r.Net, pct))
	}
	return tw.Flush()
}

// WriteSpreadTable writes rs as an aligned text table for terminals: shares
// in percent, peak-to-mean and cv as ratios, 95% intervals in brackets, the
// noise floor and the exact values ("-" without exact shares).
func WriteSpreadTable(w io.Writer, rs []*SpreadResult) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "algo\tnodes\tmin share [95% CI]\tmax share [95% CI]\tpeak/mean [95% CI]\tcv [95% CI]\tnoise peak/mean\tnoise cv\texact peak/mean\texact cv\tplacements peak/mean [p5, p95]\ttheory peak/mean\ttheory cv\tnoise")
	labels := tableLabels(rs, func(r *SpreadResult) (RunConfig, string) { return r.Config, r.Label })
	for i, r := range rs {
		ep, ec, lp, tp, tc := "-", "-", "-", "-", "-"
		if r.Exact != nil {
			ep, ec = f4(r.Exact.PeakToMean), f4(r.Exact.CV)
		}
		if l := r.Layouts; l != nil {
			lp = fmt.Sprintf("%s [%s, %s] (%d)", f4(l.PeakToMean.Mean), f4(l.PeakToMean.P5), f4(l.PeakToMean.P95), l.Draws)
		}
		if r.TheoryPeakToMean != nil {
			tp, tc = f4(*r.TheoryPeakToMean), f4(*r.TheoryCV)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", labels[i], r.Nodes,
			ci(r.MinShare, pct), ci(r.MaxShare, pct), ci(r.PeakToMean, f4), ci(r.CV, f4),
			f4(r.NoisePeakToMean), f4(r.NoiseCV), ep, ec, lp, tp, tc, r.NoiseMethod)
	}
	return tw.Flush()
}

// tableLabels returns the "algo" cell of each result (whose RunConfig and
// label config extracts) in a table: the algorithm's label (name and
// variant; the name when the label is empty), followed by the hash and the virtual-node count when they
// vary among the results (a sweep) and the algorithm uses them (slots hash
// with CRC-16 whatever the setting; only ring and bounded read vnodes).
func tableLabels[R any](rs []R, config func(R) (RunConfig, string)) []string {
	cfgs := make([]RunConfig, len(rs))
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
