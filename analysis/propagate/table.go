package propagate

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/chbench/chbench/internal/numfmt"
	"github.com/chbench/chbench/schema"
)

// WriteTable writes the whole-span rows (window -1) of rows as aligned
// text tables for terminals, one per scenario: requests per replay
// (mean, 95% interval in brackets) beside the model's expectation, and
// the cache-aside counts when the run has them. The per-window rows are in
// the csv and json formats.
func WriteTable(w io.Writer, rows []schema.Propagate) error {
	var tw *tabwriter.Writer
	var last string
	for _, r := range rows {
		if r.Window != -1 {
			continue
		}
		scenario := fmt.Sprintf("%s %d -> %d nodes, %d change(s) at %s s; model %s to %d clients; %s requests/s on %s keys (zipf %s, writes %s); %d replays, seed %d; span %s..%s s",
			r.Op, r.From, r.To, r.Changes, r.At, r.Model, r.Clients, numfmt.Thousands(r.Rate), numfmt.Int(r.Keys),
			number(r.Zipf), number(r.Writes), r.Replays, r.Seed, number(r.StartS), number(r.EndS))
		if r.KeyFile != "" {
			scenario = fmt.Sprintf("%s %d -> %d nodes, %d change(s) at %s s; model %s to %d clients; trace %s: %s requests/s on %s distinct keys (writes %s); %d replays, seed %d; span %s..%s s",
				r.Op, r.From, r.To, r.Changes, r.At, r.Model, r.Clients, r.KeyFile, numfmt.Thousands(r.Rate), numfmt.Int(r.Keys),
				number(r.Writes), r.Replays, r.Seed, number(r.StartS), number(r.EndS))
		}
		if scenario != last {
			if tw != nil {
				if err := tw.Flush(); err != nil {
					return err
				}
				fmt.Fprintln(w)
			}
			last = scenario
			fmt.Fprintln(w, scenario)
			tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			head := "algo\tmoved\trequests\tstale [95% CI]\tstale model\tastray [95% CI]\tastray model\tnot yet [95% CI]\tnot yet model\tany more [95% CI]\tany more model"
			if r.Misses != nil {
				head += "\tmisses [95% CI]\tsplit misses [95% CI]\tdouble-cached [95% CI]\tstale reads [95% CI]"
			}
			fmt.Fprintln(tw, head)
		}
		line := fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s", r.Label, numfmt.Percent(r.MovedFrac, 3), numfmt.Thousands(r.Requests),
			est(r.Stale, r.StaleLo, r.StaleHi), numfmt.Thousands(r.StaleExpected),
			est(r.Misrouted, r.MisroutedLo, r.MisroutedHi), numfmt.Thousands(r.MisroutedExpected),
			est(r.NotYet, r.NotYetLo, r.NotYetHi), numfmt.Thousands(r.NotYetExpected),
			est(r.AnyMore, r.AnyMoreLo, r.AnyMoreHi), numfmt.Thousands(r.AnyMoreExpected))
		if r.Misses != nil {
			line += fmt.Sprintf("\t%s\t%s\t%s\t%s", est(*r.Misses, r.MissesLo, r.MissesHi), est(*r.SplitMisses, r.SplitMissesLo, r.SplitMissesHi),
				est(*r.DoubleCached, r.DoubleCachedLo, r.DoubleCachedHi), est(*r.StaleReads, r.StaleReadsLo, r.StaleReadsHi))
		}
		fmt.Fprintln(tw, line)
	}
	if tw == nil {
		return nil
	}
	return tw.Flush()
}

// WriteRedirectTable writes redirect rows as an aligned text table: per
// window the requests, the ASK redirects observed beside the model, its
// bracket widened by 4 binomial standard deviations, and the MOVED
// redirects beside the model's bounds; the whole run last.
func WriteRedirectTable(w io.Writer, rows []schema.Redirect) error {
	if len(rows) == 0 {
		return nil
	}
	r0 := rows[0]
	fmt.Fprintf(w, "live Redis Cluster resharding (redis %s): %d slots x %s keys moved from the first master to the second, %d key(s) per MIGRATE, %.2f..%.2f s; %d slot(s) that stay\n",
		r0.RedisVersion, r0.Slots, numfmt.Int(r0.KeysPerSlot), r0.Pipeline, r0.MigrationStartS, r0.MigrationEndS, r0.ControlSlots)
	fmt.Fprintf(w, "client: at most %s requests/s, %s writes, seed %d; round trip p50 %.3f ms, p99.9 %.3f ms; slack %.3f ms\n",
		numfmt.Thousands(r0.Rate), numfmt.Percent(r0.Writes, 0), r0.Seed, 1e3*r0.RoundTripP50S, 1e3*r0.RoundTripP999S, 1e3*r0.SlackS)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "seconds\trequests\tASK\tASK model\tbracket ± 4 sd\tMOVED\tMOVED model\t")
	for _, r := range rows {
		span := fmt.Sprintf("%.2f..%.2f", r.StartS, r.EndS)
		if r.Window == -1 {
			span = "all " + span
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f\t%.1f..%.1f\t%d\t%d..%d\t\n", span, r.Requests, r.Ask, r.AskModel,
			max(0, r.AskModelLo-4*r.AskSD), r.AskModelHi+4*r.AskSD, r.Moved, r.MovedModelLo, r.MovedModelHi)
	}
	return tw.Flush()
}

func est(mean float64, lo, hi *float64) string {
	return numfmt.Estimate(mean, lo, hi, numfmt.Thousands)
}
