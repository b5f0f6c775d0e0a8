package plots

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/internal/numfmt"
	"github.com/chbench/chbench/schema"
)

// runsOf returns the Run of every row, for captions.
func runsOf[R schema.Row](rows []R) []schema.Run {
	out := make([]schema.Run, len(rows))
	for i, r := range rows {
		out[i] = schema.RunOf(r)
	}
	return out
}

// runCaption summarises where the rows' numbers came from, e.g.
// "100,000 keys x 5 sets, xxhash, seed 1, ring vnodes 160, bounded eps 0.25; go1.26.8, commit 65ea173".
// A field with several values lists them joined by "/", or is left out
// when it has more than three (it is then what the plot varies); empty
// fields are left out. The hash is shown only with rows of algorithms that
// read it (catalog.UsesHash: not slots, ketama or a dialect, which hash as
// their specification does), vnodes only with rows of algorithms that
// use virtual nodes, eps only with rows of algorithms that use it
// (catalog.Info.UsesVNodes, UsesEps); likewise the table size, probes and
// capacity (UsesTableSize, UsesProbes, UsesCapacity), capacity only when set
// (0 is the default, twice the initial nodes).
func runCaption(infos []schema.Run) string {
	all := func(string) bool { return true }
	usesEps := func(a string) bool { in, _ := catalog.Describe(a); return in.UsesEps }
	distinct := func(get func(schema.Run) string, only func(algo string) bool) string {
		var vs []string
		for _, in := range infos {
			if !only(in.Algo) {
				continue
			}
			if v := get(in); v != "" && !slices.Contains(vs, v) {
				vs = append(vs, v)
			}
		}
		if len(vs) > 3 {
			return ""
		}
		return strings.Join(vs, "/")
	}
	var parts []string
	keys, sets := distinct(func(r schema.Run) string { return r.Keys }, all), distinct(func(r schema.Run) string { return r.Sets }, all)
	if keys == "" {
		keys = keyRange(infos)
	}
	switch {
	case keys != "" && sets != "":
		parts = append(parts, thousands(keys)+" keys x "+sets+" sets")
	case keys != "":
		parts = append(parts, thousands(keys)+" keys")
	}
	if h := distinct(func(r schema.Run) string { return r.Hash }, catalog.UsesHash); h != "" {
		parts = append(parts, h)
	}
	if s := distinct(func(r schema.Run) string { return r.Seed }, all); s != "" {
		parts = append(parts, "seed "+s)
	}
	if v := distinct(func(r schema.Run) string { return r.VNodes }, catalog.UsesVNodes); v != "" {
		parts = append(parts, "ring vnodes "+v)
	}
	if e := distinct(func(r schema.Run) string { return r.Eps }, usesEps); e != "" {
		parts = append(parts, "bounded eps "+e)
	}
	uses := func(f func(catalog.Info) bool) func(string) bool {
		return func(a string) bool { in, err := catalog.Describe(a); return err == nil && f(in) }
	}
	if m := distinct(func(r schema.Run) string { return r.TableSize }, uses(func(i catalog.Info) bool { return i.UsesTableSize })); m != "" {
		parts = append(parts, "table size "+m)
	}
	if k := distinct(func(r schema.Run) string { return r.Probes }, uses(func(i catalog.Info) bool { return i.UsesProbes })); k != "" {
		parts = append(parts, "probes "+k)
	}
	if c := distinct(func(r schema.Run) string { return r.Capacity }, uses(func(i catalog.Info) bool { return i.UsesCapacity })); c != "" && c != "0" {
		parts = append(parts, "capacity "+c)
	}
	if pl := distinct(func(r schema.Run) string { return r.Placement }, uses(func(i catalog.Info) bool { return i.RandomLayout })); pl != "" {
		parts = append(parts, "placement "+pl)
	}
	out := strings.Join(parts, ", ")
	var build []string
	if g := distinct(func(r schema.Run) string { return r.GoVersion }, all); g != "" {
		build = append(build, g)
	}
	if c := distinct(func(r schema.Run) string { return r.Commit }, all); c != "" {
		build = append(build, "commit "+c)
	}
	if len(build) > 0 {
		if out != "" {
			out += "; "
		}
		out += strings.Join(build, ", ")
	}
	return out
}

// keyRange returns "lo-hi" for the keys column of infos when it holds
// several whole numbers (keys scaled per grid point), or "".
func keyRange(infos []schema.Run) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, in := range infos {
		k, err := strconv.ParseFloat(in.Keys, 64)
		if err != nil {
			return ""
		}
		lo, hi = math.Min(lo, k), math.Max(hi, k)
	}
	if lo > hi {
		return ""
	}
	return strconv.FormatFloat(lo, 'f', -1, 64) + "-" + strconv.FormatFloat(hi, 'f', -1, 64)
}

// thousands puts commas between groups of three digits of a whole number
// written in s ("100000" -> "100,000"); other text is returned unchanged,
// and each "/"-separated part is handled on its own.
func thousands(s string) string {
	if a, b, ok := strings.Cut(s, "-"); ok && !strings.Contains(s, "/") {
		return thousands(a) + "-" + thousands(b)
	}
	parts := strings.Split(s, "/")
	for i, p := range parts {
		if strings.Trim(p, "0123456789") == "" {
			parts[i] = numfmt.Group(p)
		}
	}
	return strings.Join(parts, "/")
}
