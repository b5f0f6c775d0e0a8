package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/schema"
)

// runStorm derives the cache miss storm of a resize from the measured
// moved fraction of every algorithm (see analysis.StormModel).
func runStorm(args []string, stdout, stderr io.Writer) (err error) {
	usage := true // errors before the work starts are usage errors (exit status 2)
	defer func() {
		if usage {
			err = badUsage(err)
		}
	}()
	var a analysisFlags
	fs := newFlagSet("storm", "-algo A[,B...] -from N (-to M | -leave ID | -join ID[,W] | ...) [-reads Q] [-hit H] [-working-set K] [-zipf S] [flags]", stderr)
	a.register(fs)
	def := analysis.DefaultStormModel()
	from := fs.Int("from", 4, "cache nodes before the change")
	to := fs.Int("to", 5, "cache nodes after the change (node-N... join, or the last nodes leave)")
	reads := fs.Float64("reads", def.Reads, "reads per second reaching the cache fleet, Q > 0")
	hit := fs.Float64("hit", def.HitRatio, "steady hit ratio before the change, 0 <= h < 1")
	ws := fs.Int("working-set", def.WorkingSet, "distinct keys the fleet serves, K >= 1 (refill time constant K/Q; the moved fraction is measured on -keys x -sets sample keys)")
	zipf := fs.Float64("zipf", 0, "Zipf exponent s of the key popularity, >= 0: key i of the working set is read with probability (i+1)^-s / H(K, s); 0 = uniform (the warm-up then decays as one exponential)")
	timeline := fs.Bool("timeline", false, "with -format csv: the warm-up curve, one row per algorithm and time point, instead of one row per algorithm")
	points := fs.Int("points", 120, "timeline: time steps from 0 to -span time constants")
	span := fs.Float64("span", 6, "timeline: time covered, in time constants K/Q (> 0)")
	var ff fleetFlags
	ff.register(fs)
	var lf liveFlags
	lf.register(fs)
	set, err := parse(fs, args)
	if err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err := a.tableCSVOrJSON("storm"); err != nil {
		return err
	}
	if *timeline && a.format != "csv" {
		return fmt.Errorf("-timeline needs -format csv, got -format %s", a.format)
	}
	m := analysis.StormModel{Reads: *reads, HitRatio: *hit, WorkingSet: *ws, Zipf: *zipf}
	if err := m.Validate(); err != nil {
		return err
	}
	if lf.on {
		if ff.used(set) {
			return fmt.Errorf("-live runs a -from N -to M resize; it cannot be combined with %s", strings.Join(ff.given(set), ", "))
		}
		if math.IsNaN(*span) || math.IsInf(*span, 0) || *span <= 0 {
			return fmt.Errorf("span %v: need a finite number of time constants > 0", *span)
		}
		usage = false // runStormLive marks its own usage errors
		return runStormLive(&a, set, lf, *from, *to, m, *span, stdout, stderr)
	}
	ts, err := analysis.StormTimes(m, *points, *span)
	if err != nil {
		return err
	}
	o, sw, err := a.options()
	if err != nil {
		return err
	}
	var scs []analysis.Scenario
	if ff.used(set) {
		// A named or seeded change of one membership.
		if set["to"] {
			return ff.conflict("to", set)
		}
		fromArg := ""
		if set["from"] || (ff.members == "" && ff.nodeIDs == "" && ff.weights == "") {
			fromArg = strconv.Itoa(*from)
		}
		if scs, err = ff.scenarios(fromArg, set, o.Seed); err != nil {
			return err
		}
		skipUnweighted(&a, &o, &sw, scs, stderr)
	} else {
		sc, err := analysis.Resize(*from, *to)
		if err != nil {
			return err
		}
		scs = []analysis.Scenario{sc}
	}
	usage = false
	closeKeys, err := a.openKeys(&o)
	if err != nil {
		return err
	}
	defer closeKeys()
	bar := startProgress(stderr, &o, sweepKeys(o, sw, len(scs))) // stderr terminals only
	defer bar.stop()
	var results []schema.Storm
	err = sw.EachConfig(o, func(o analysis.Options) error {
		for _, sc := range scs {
			r, err := analysis.Storm(o, sc, m)
			if err != nil {
				return fmt.Errorf("%s from %d nodes: %w", sc.Op, len(sc.Initial), err)
			}
			results = append(results, r)
		}
		return nil
	})
	if err != nil {
		return err
	}
	bar.stop()
	switch {
	case a.format == "csv" && *timeline:
		return schema.WriteCSV(stdout, analysis.StormTimeline(results, ts))
	case a.format == "csv":
		return schema.WriteCSV(stdout, results)
	case a.format == "json":
		return schema.WriteJSON(stdout, results)
	}
	return analysis.WriteStormTable(stdout, results)
}
