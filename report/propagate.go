package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/internal/numfmt"
	"github.com/chbench/chbench/schema"
)

// propagation is what "While the change propagates" reads: the whole-span
// rows (window -1) of one scenario of propagate.csv (the headline) and of
// propagate-cache.csv, in catalog order, and the whole run of
// propagate-redis.csv.
type propagation struct {
	headline []schema.Propagate
	cache    []schema.Propagate
	redis    *schema.Redirect
}

// wholeSpan returns the window -1 rows of the first scenario of rows (the
// one propagate.csv's headline is, when the file holds a sweep), in
// catalog order; a second whole-span row for one algorithm of that
// scenario is an error.
func wholeSpan(rows []schema.Propagate) ([]schema.Propagate, error) {
	var out []schema.Propagate
	var first *schema.Propagate
	for i, r := range rows {
		if r.Window != -1 {
			continue
		}
		if first == nil {
			first = &rows[i]
		}
		if r.Op != first.Op || r.From != first.From || r.To != first.To || r.At != first.At || r.Model != first.Model ||
			r.Clients != first.Clients || r.Rate != first.Rate || r.Keys != first.Keys || r.Zipf != first.Zipf || r.Writes != first.Writes {
			continue
		}
		if slices.ContainsFunc(out, func(o schema.Propagate) bool { return o.Algo == r.Algo && o.Config == r.Config }) {
			return nil, fmt.Errorf("two whole-span rows for %s in one scenario: the report needs one configuration per algorithm", r.Algo)
		}
		out = append(out, r)
	}
	names := catalog.Names()
	slices.SortStableFunc(out, func(a, b schema.Propagate) int {
		return cmp.Compare(slices.Index(names, a.Algo), slices.Index(names, b.Algo))
	})
	return out, nil
}

// propagate reads propagate.csv.
func (ld *loader) propagate(rows []schema.Propagate) error {
	if err := ld.propagateMeta(rows); err != nil {
		return err
	}
	var err error
	ld.d.prop.headline, err = wholeSpan(rows)
	return err
}

// propagateCache reads propagate-cache.csv.
func (ld *loader) propagateCache(rows []schema.Propagate) error {
	if err := ld.propagateMeta(rows); err != nil {
		return err
	}
	var err error
	ld.d.prop.cache, err = wholeSpan(rows)
	return err
}

// propagateMeta adds the rows' run to the run's description and refuses
// text the report cannot show.
func (ld *loader) propagateMeta(rows []schema.Propagate) error {
	for i, r := range rows {
		for _, c := range []struct{ name, v string }{{"model", r.Model}, {"op", r.Op}, {"label", r.Label}} {
			if err := plainText(i, c.name, c.v); err != nil {
				return err
			}
		}
	}
	return ld.meta(runsOf(rows))
}

// redirects reads propagate-redis.csv: its whole run (window -1).
func (ld *loader) redirects(rows []schema.Redirect) error {
	for i, r := range rows {
		if err := plainText(i, "redis version", r.RedisVersion); err != nil {
			return err
		}
		if r.Window != -1 {
			continue
		}
		if ld.d.prop.redis != nil {
			return fmt.Errorf("two whole-run rows (window -1): the report needs one resharding")
		}
		ld.d.prop.redis = &rows[i]
	}
	addOnce(&ld.d.goVersions, rows[0].GoVersion)
	addOnce(&ld.d.commits, rows[0].Commit)
	return nil
}

// propagationSection is "While the change propagates": requests sent
// astray while one change rolls out, per algorithm, simulated beside the
// model; what the cache-aside and store workloads see under gossip; the
// live Redis resharding against its model.
func propagationSection(d *Data) section {
	s := section{title: "While the change propagates", plots: []string{"propagate", "propagate-cache", "propagate-redis"}}
	h := d.prop.headline
	if len(h) == 0 {
		s.text = append(s.text, notIn("Requests routed by stale views", schema.PropagateFile.Name+"; `chbench propagate` writes it"))
	} else {
		s.text = append(s.text, headlineText(h), headlineTable(h))
	}
	if c := d.prop.cache; len(c) > 0 {
		s.text = append(s.text, cacheText(c))
	}
	if r := d.prop.redis; r != nil {
		s.text = append(s.text, redisText(r))
	} else {
		s.text = append(s.text, notIn("The live Redis resharding", schema.PropagateRedisFile.Name+"; `chbench propagate -live` writes it when redis-server and redis-cli are installed, and `make test` runs the same check, live.TestRedisReshardRedirects"))
	}
	return s
}

// scenarioPhrase describes the scenario of r: "a 30-second rollout
// (`linear:T=30s`) of one join at 100 nodes to 100 clients", or, for
// another model or span, "the 5 s after ...".
func scenarioPhrase(r schema.Propagate) string {
	span := strconv.FormatFloat(r.EndS-r.StartS, 'g', -1, 64)
	change := fmt.Sprintf("%s (%s -> %s nodes, %d changes at %s s)", "`"+r.Op+"`", count(float64(r.From)), count(float64(r.To)), r.Changes, r.At)
	switch {
	case r.Changes == 1 && r.Op == schema.OpAdd:
		change = "one join at " + count(float64(r.From)) + " nodes"
	case r.Changes == 1 && r.Op == schema.OpRemoveRandom:
		change = "one leave at " + count(float64(r.From)) + " nodes"
	}
	if t, ok := strings.CutPrefix(r.Model, "linear:T="); ok && strings.TrimSuffix(t, "s") == span && r.StartS == 0 && r.At == "0" {
		return fmt.Sprintf("a %s-second rollout (`%s`) of %s to %s clients", span, r.Model, change, count(float64(r.Clients)))
	}
	return fmt.Sprintf("the %s s from %s s on, while %s reaches %s clients by `%s`,", span, strconv.FormatFloat(r.StartS, 'g', -1, 64), change, count(float64(r.Clients)), r.Model)
}

// headlineText is the takeaway of the headline rows: the stale requests
// every algorithm shares, the astray ones per algorithm most first, the
// multiple of the fewest, and how many lie within their interval of the
// model.
func headlineText(h []schema.Propagate) string {
	r0 := h[0]
	byAstray := slices.Clone(h)
	slices.SortStableFunc(byAstray, func(a, b schema.Propagate) int { return cmp.Compare(b.Misrouted, a.Misrouted) })
	astray := func(r schema.Propagate) string {
		return fmt.Sprintf("`%s` %s (model %s)", r.Label, count(math.Round(r.Misrouted)), count(math.Round(r.MisroutedExpected)))
	}
	var parts []string
	for _, r := range byAstray[:min(top, len(byAstray))] {
		parts = append(parts, astray(r))
	}
	fewest, most := byAstray[len(byAstray)-1], byAstray[0]
	list := strings.Join(parts, ", ")
	if len(byAstray) > top {
		list += ", down to " + astray(fewest)
	}
	t := fmt.Sprintf("**Takeaway:** during %s sending %s requests/s together (%s requests), %s are routed by a stale view whatever the algorithm (model %s): the change has not reached their client yet. How many of those go astray, to a server other than the one the new membership names, is the algorithm's moved fraction at work: %s (every algorithm in the table below).",
		scenarioPhrase(r0), count(r0.Rate), count(math.Round(r0.Requests)), count(math.Round(r0.Stale)), count(math.Round(r0.StaleExpected)), list)
	if fewest.Misrouted > 0 && most.Algo != fewest.Algo {
		t += fmt.Sprintf(" `%s` sends %sx as many astray as the fewest, `%s`.", most.Label, sig3(most.Misrouted/fewest.Misrouted), fewest.Label)
	}
	in, withCI := 0, 0
	for _, r := range h {
		v := est(r.Misrouted, r.MisroutedLo, r.MisroutedHi)
		if v.CI {
			withCI++
		}
		if v.CI && v.Lo <= r.MisroutedExpected && r.MisroutedExpected <= v.Hi {
			in++
		}
	}
	if withCI == 0 {
		t += fmt.Sprintf(" With %d replay the simulation has no 95%% interval to hold the model (moved fraction x the stale requests, integrated over the rollout) against.", r0.Replays)
	} else {
		t += fmt.Sprintf(" The model (moved fraction x the stale requests, integrated over the rollout) lies inside the simulated 95%% interval (over %d replays) for %d of %d algorithms.", r0.Replays, in, withCI)
	}
	return t
}

// headlineTable is the headline rows as a table: moved fraction, requests
// astray simulated with their interval, and the model.
func headlineTable(h []schema.Propagate) string {
	var b strings.Builder
	b.WriteString("| algorithm | moved | astray, simulated [95% CI] | astray, model |\n|---|---:|---:|---:|\n")
	for _, r := range h {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", r.Label, numfmt.Percent(r.MovedFrac, 3),
			interval(est(r.Misrouted, r.MisroutedLo, r.MisroutedHi), func(x float64) string { return count(math.Round(x)) }, ""), count(math.Round(r.MisroutedExpected)))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// cacheText is the cache-aside and store takeaway of the rows of
// propagate-cache.csv: for each count, the most and the fewest.
func cacheText(c []schema.Propagate) string {
	r0 := c[0]
	pop := "uniform keys"
	if r0.Zipf > 0 {
		pop = "keys with Zipf popularity s = " + strconv.FormatFloat(r0.Zipf, 'g', -1, 64)
	}
	t := fmt.Sprintf("In %s a cache-aside fleet (%s writes, %s %s; a write deletes the key on the writer's server only)",
		scenarioPhrase(r0), numfmt.Percent(r0.Writes, 0), count(float64(r0.Keys)), pop)
	type measure struct {
		what string
		get  func(schema.Propagate) (float64, bool)
	}
	ptr := func(p func(schema.Propagate) *float64) func(schema.Propagate) (float64, bool) {
		return func(r schema.Propagate) (float64, bool) {
			if v := p(r); v != nil {
				return *v, true
			}
			return 0, false
		}
	}
	var ms []string
	for _, m := range []measure{
		{"stale reads (a hit returning a value an invalidation should have removed)", ptr(func(r schema.Propagate) *float64 { return r.StaleReads })},
		{"keys cached on two servers that views in use name", ptr(func(r schema.Propagate) *float64 { return r.DoubleCached })},
		{"split misses (the key is cached under the other view)", ptr(func(r schema.Propagate) *float64 { return r.SplitMisses })},
		{fmt.Sprintf("store reads sent to a node that does not own the key yet (its data moves %s s after the change)", strconv.FormatFloat(r0.HandoffS, 'g', -1, 64)),
			func(r schema.Propagate) (float64, bool) { return r.NotYet, true }},
		{"store reads sent to a node that no longer owns it", func(r schema.Propagate) (float64, bool) { return r.AnyMore, true }},
	} {
		var vals []named
		for _, r := range c {
			if v, ok := m.get(r); ok {
				vals = append(vals, named{Name: r.Label, V: v})
			}
		}
		if len(vals) == 0 {
			continue
		}
		slices.SortStableFunc(vals, func(a, b named) int { return cmp.Compare(b.V, a.V) })
		ms = append(ms, m.what+": "+mostAndRest(vals))
	}
	if len(ms) == 0 {
		return t + " was not measured (no cache-aside columns)."
	}
	return t + " sees, per replay: " + strings.Join(ms, "; ") + "."
}

// mostAndRest describes vals (sorted, most first, as rounded to whole
// requests): the most, then the range of the others, "most `modulo` 436;
// the other 15 from 0 (6 of them) to 22 (`maglev`)", or "the other 15
// all 0" when they round alike.
func mostAndRest(vals []named) string {
	round := func(n named) string { return count(math.Round(n.V)) }
	out := fmt.Sprintf("most `%s` %s", vals[0].Name, round(vals[0]))
	rest := vals[1:]
	switch len(rest) {
	case 0:
		return out
	case 1:
		return out + fmt.Sprintf(", `%s` %s", rest[0].Name, round(rest[0]))
	}
	lo, hi := rest[len(rest)-1], rest[0]
	if round(lo) == round(hi) {
		return out + fmt.Sprintf("; the other %d all %s", len(rest), round(lo))
	}
	atLo := countIf(rest, func(n named) bool { return round(n) == round(lo) })
	low := fmt.Sprintf("%s (`%s`)", round(lo), lo.Name)
	if atLo > 1 {
		low = fmt.Sprintf("%s (%d of them)", round(lo), atLo)
	}
	return out + fmt.Sprintf("; the other %d from %s to %s (`%s`)", len(rest), low, round(hi), hi.Name)
}

// redisText is the live resharding's counts against the model: the ASK
// count within the bracket +- 4 binomial sd, MOVED within its bounds.
func redisText(r *schema.Redirect) string {
	lo, hi := math.Max(0, r.AskModelLo-4*r.AskSD), r.AskModelHi+4*r.AskSD
	askOK := float64(r.Ask) >= lo && float64(r.Ask) <= hi
	movedOK := r.Moved >= r.MovedModelLo && r.Moved <= r.MovedModelHi
	verdict := map[bool]string{true: "agrees", false: "DISAGREES"}
	return fmt.Sprintf("**Live check** (`%s`, redis %s): while `redis-cli --cluster reshard` moved %s slots of %s keys each (%d per MIGRATE) between two masters, a client that caches the slot map met %s ASK redirects against the model's %s (bracket ± 4 sd: %s..%s; it %s) and %s MOVED against %s..%s (it %s), in %s requests.",
		schema.PropagateRedisFile.Name, r.RedisVersion, count(float64(r.Slots)), count(float64(r.KeysPerSlot)), r.Pipeline,
		count(float64(r.Ask)), numfmt.Fixed(r.AskModel, 1), numfmt.Fixed(lo, 1), numfmt.Fixed(hi, 1), verdict[askOK],
		count(float64(r.Moved)), count(float64(r.MovedModelLo)), count(float64(r.MovedModelHi)), verdict[movedOK], count(float64(r.Requests)))
}
