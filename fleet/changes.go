package fleet

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/schema"
)

// change validates the i-th [[change]] table and appends it to the
// profile.
func (rd *reader) change(i int) error {
	fc, p := rd.f.Change[i], &rd.p
	at := func(key, value string) int { return rd.loc.in("change", i, key, value) }
	bad := func(line int, format string, args ...any) error {
		return rd.loc.errAt(line, "change %d (%q): %s", i, fc.Name, fmt.Sprintf(format, args...))
	}
	if !schema.IsLabel(fc.Name) || slices.Contains(schema.Ops(), fc.Name) || strings.HasSuffix(fc.Name, "-step") || fc.Name == schema.OpGrow || fc.Name == schema.OpShrink {
		return bad(at("name", ""), "name: want a label of letters, digits and . _ + %% - (not starting with one of those), other than a scenario op (%s, grow, shrink) and not ending in -step: it names result rows and plots", strings.Join(schema.Ops(), ", "))
	}
	if slices.ContainsFunc(p.Changes, func(c Change) bool { return c.Name == fc.Name }) {
		return bad(at("name", ""), "name given to two changes")
	}
	c := Change{Name: fc.Name, After: fc.After}
	if fc.After != "" && !slices.ContainsFunc(p.Changes, func(c Change) bool { return c.Name == fc.After }) {
		return bad(at("after", fc.After), "after = %q: not the name of an earlier change", fc.After)
	}
	before := p.Before(c)
	kinds := 0
	for _, set := range []bool{len(fc.Join) > 0, fc.GrowTo != nil, len(fc.Leave) > 0, len(fc.Fail) > 0, len(fc.Reweight) > 0, len(fc.Domain) > 0} {
		if set {
			kinds++
		}
	}
	if kinds != 1 {
		return bad(rd.loc.section("change", i), "want exactly one of join, grow_to, leave, fail, reweight and domain (got %d)", kinds)
	}
	if (fc.IDFormat != "" || fc.Weight != nil || fc.Memory != "") && fc.GrowTo == nil {
		return bad(at("id_format", ""), "id_format, weight and memory describe the nodes of grow_to")
	}
	var err error
	switch {
	case len(fc.Join) > 0:
		c.Join, c.JoinMemory, err = rd.joins(i, fc.Join, before)
	case fc.GrowTo != nil:
		c.Join, c.JoinMemory, err = rd.grow(i, fc, before)
	case len(fc.Leave) > 0:
		c.Leave, err = rd.leaves(i, "leave", fc.Leave, before)
	case len(fc.Fail) > 0:
		c.Leave, err = rd.leaves(i, "fail", fc.Fail, before)
		c.Fail = true
	case len(fc.Reweight) > 0:
		c.Reweight, err = rd.reweights(i, fc.Reweight, before)
	default:
		c.DomainLevel, c.DomainName, c.Leave, err = rd.domain(i, fc.Domain, before)
		c.Fail = true
	}
	if err != nil {
		return err
	}
	if fc.Step != nil {
		if *fc.Step < 1 {
			return bad(at("step", ""), "step = %d: want at least 1 node a step", *fc.Step)
		}
		if len(c.Join) == 0 && (len(c.Leave) == 0 || c.DomainLevel != "") {
			return bad(at("step", ""), "step stages joins (join, grow_to) or leaves (leave, fail)")
		}
		c.Step = *fc.Step
	}
	p.Changes = append(p.Changes, c)
	return nil
}

// joins reads the nodes of a join list: node tables as the members'
// (weights, or memory sizes when the members have them), none already a
// member of before.
func (rd *reader) joins(i int, ns []fileNode, before []algorithms.Node) ([]algorithms.Node, []int64, error) {
	p := &rd.p
	for j, n := range ns {
		if (n.Memory != "") != (p.Memory != nil) {
			return nil, nil, rd.loc.errAt(rd.loc.in("change", i, "id", n.ID), "change %d: join %d (%q): give it a %s, as the members have", i, j, n.ID, map[bool]string{true: "memory size", false: "weight"}[p.Memory != nil])
		}
		if len(n.Domains) > 0 && p.Topology == nil {
			return nil, nil, rd.loc.errAt(rd.loc.in("change", i, "id", n.ID), "change %d: join %d (%q): domains without levels", i, j, n.ID)
		}
	}
	nodes, mem, err := rd.nodes(ns, func(j int) (int, string) {
		return rd.loc.in("change", i, "id", ns[j].ID), fmt.Sprintf("change %d: join", i)
	})
	if err != nil {
		return nil, nil, err
	}
	if mem != nil { // weights relative to the members' smallest memory
		smallest := slices.Min(p.Memory)
		for j := range nodes {
			nodes[j].Weight = weightOf(mem[j], smallest)
		}
	}
	for j, n := range nodes {
		if algorithms.IndexOf(before, n.ID) >= 0 {
			return nil, nil, rd.loc.errAt(rd.loc.in("change", i, "id", n.ID), "change %d: join %d (%q): already a member", i, j, n.ID)
		}
	}
	return nodes, mem, algorithms.ValidateShares(append(slices.Clone(before), nodes...))
}

// grow reads grow_to: the nodes numbered len(before)+1 .. grow_to join,
// named by id_format (a fmt verb for the number, "cache-%02d:11211"; the
// default node-<i-1> for unnamed fleets), each of the weight or memory
// given (default: weight 1, or the smallest member's memory).
func (rd *reader) grow(i int, fc fileChange, before []algorithms.Node) ([]algorithms.Node, []int64, error) {
	p := &rd.p
	at := func(key string) int { return rd.loc.in("change", i, key, "") }
	to := *fc.GrowTo
	if to <= len(before) || to > algorithms.MaxNodes {
		return nil, nil, rd.loc.errAt(at("grow_to"), "change %d (%q): grow_to = %d: want more than the %d nodes it starts from, at most %d", i, fc.Name, to, len(before), algorithms.MaxNodes)
	}
	if p.Named && fc.IDFormat == "" {
		return nil, nil, rd.loc.errAt(at("grow_to"), "change %d (%q): grow_to names its new nodes with id_format = \"...\" (a fmt verb for the number, e.g. \"cache-%%02d:11211\")", i, fc.Name)
	}
	if fc.IDFormat != "" && (strings.Count(fc.IDFormat, "%")-2*strings.Count(fc.IDFormat, "%%") != 1 || !strings.Contains(fc.IDFormat, "d")) {
		return nil, nil, rd.loc.errAt(at("id_format"), "change %d (%q): id_format = %q: want one integer verb (%%d, %%02d, ...) for the node's number", i, fc.Name, fc.IDFormat)
	}
	w, mem := 1.0, int64(0)
	switch {
	case fc.Weight != nil && fc.Memory != "":
		return nil, nil, rd.loc.errAt(at("weight"), "change %d (%q): weight and memory: give one", i, fc.Name)
	case fc.Memory != "" && p.Memory == nil:
		return nil, nil, rd.loc.errAt(at("memory"), "change %d (%q): memory = %q, but the members have weights: give weight", i, fc.Name, fc.Memory)
	case fc.Weight != nil && p.Memory != nil:
		return nil, nil, rd.loc.errAt(at("weight"), "change %d (%q): weight, but the members have memory sizes: give memory", i, fc.Name)
	case fc.Memory != "":
		b, err := ParseSize(fc.Memory)
		if err != nil {
			return nil, nil, rd.loc.errAt(at("memory"), "change %d (%q): memory = %v", i, fc.Name, err)
		}
		mem = b
	case p.Memory != nil:
		mem = slices.Min(p.Memory)
	case fc.Weight != nil:
		w = *fc.Weight
		if err := checkWeight(w); err != nil {
			return nil, nil, rd.loc.errAt(at("weight"), "change %d (%q): %v", i, fc.Name, err)
		}
	}
	if mem > 0 {
		w = weightOf(mem, slices.Min(p.Memory))
	}
	var nodes []algorithms.Node
	var mems []int64
	for k := len(before) + 1; k <= to; k++ {
		id := algorithms.NodeID(k - 1)
		if fc.IDFormat != "" {
			id = fmt.Sprintf(fc.IDFormat, k)
		}
		if algorithms.IndexOf(before, id) >= 0 || algorithms.IndexOf(nodes, id) >= 0 {
			return nil, nil, rd.loc.errAt(at("id_format"), "change %d (%q): new node %q is already a member", i, fc.Name, id)
		}
		if err := plain(id); err != nil {
			return nil, nil, rd.loc.errAt(at("id_format"), "change %d (%q): new node %q: %v", i, fc.Name, id, err)
		}
		nodes = append(nodes, algorithms.Node{ID: id, Weight: w})
		if mem > 0 {
			mems = append(mems, mem)
		}
	}
	return nodes, mems, algorithms.ValidateShares(append(slices.Clone(before), nodes...))
}

// leaves reads a leave or fail list: members of before, each once, not
// all of them.
func (rd *reader) leaves(i int, key string, ids []string, before []algorithms.Node) ([]string, error) {
	for j, id := range ids {
		line := rd.loc.in("change", i, key, id)
		switch {
		case algorithms.IndexOf(before, id) < 0:
			return nil, rd.loc.errAt(line, "change %d: %s %d (%q): not a member", i, key, j, id)
		case slices.Index(ids, id) != j:
			return nil, rd.loc.errAt(line, "change %d: %s %d (%q): named twice", i, key, j, id)
		}
	}
	if len(ids) == len(before) {
		return nil, rd.loc.errAt(rd.loc.in("change", i, key, ""), "change %d: every one of the %d nodes would %s: no node would remain", i, len(before), key)
	}
	return slices.Clone(ids), nil
}

// reweights reads a reweight list: members of before with a new weight
// (or memory size, when the members have them), one at least different
// from its weight before.
func (rd *reader) reweights(i int, ns []fileNode, before []algorithms.Node) ([]algorithms.Node, error) {
	p := &rd.p
	var out []algorithms.Node
	changed := false
	for j, n := range ns {
		line := rd.loc.in("change", i, "id", n.ID)
		k := algorithms.IndexOf(before, n.ID)
		if k < 0 {
			return nil, rd.loc.errAt(line, "change %d: reweight %d (%q): not a member", i, j, n.ID)
		}
		if slices.IndexFunc(out, func(o algorithms.Node) bool { return o.ID == n.ID }) >= 0 {
			return nil, rd.loc.errAt(line, "change %d: reweight %d (%q): named twice", i, j, n.ID)
		}
		var w float64
		switch {
		case p.Memory != nil && n.Memory != "" && n.Weight == nil:
			b, err := ParseSize(n.Memory)
			if err != nil {
				return nil, rd.loc.errAt(line, "change %d: reweight %d (%q): memory = %v", i, j, n.ID, err)
			}
			w = weightOf(b, slices.Min(p.Memory))
		case p.Memory == nil && n.Weight != nil && n.Memory == "":
			w = *n.Weight
			if err := checkWeight(w); err != nil {
				return nil, rd.loc.errAt(line, "change %d: reweight %d (%q): %v", i, j, n.ID, err)
			}
		default:
			return nil, rd.loc.errAt(line, "change %d: reweight %d (%q): give its new %s, as the members have", i, j, n.ID, map[bool]string{true: "memory", false: "weight"}[p.Memory != nil])
		}
		changed = changed || w != before[k].Weight
		out = append(out, algorithms.Node{ID: n.ID, Weight: w})
	}
	if !changed {
		return nil, rd.loc.errAt(rd.loc.section("change", i), "change %d: every reweighted node keeps its weight: the change moves nothing", i)
	}
	return out, nil
}

// domain reads a domain loss: domain = { level = "name" }, one level of
// the profile's topology and one of its domains; the members of before in
// that domain fail (nodes that joined in an earlier change have no
// domain and stay).
func (rd *reader) domain(i int, d map[string]string, before []algorithms.Node) (level, name string, ids []string, err error) {
	line := rd.loc.in("change", i, "domain", "")
	t := rd.p.Topology
	if t == nil {
		return "", "", nil, rd.loc.errAt(line, "change %d: domain needs failure domains: levels = [...] and domains in the [[node]] tables, or topology = FILE", i)
	}
	if len(d) != 1 {
		return "", "", nil, rd.loc.errAt(line, "change %d: domain = %v: want one level and one domain, e.g. { rack = \"r3\" }", i, d)
	}
	level = slices.Collect(maps.Keys(d))[0]
	name = d[level]
	l, err := t.Level(level)
	if err != nil {
		return "", "", nil, rd.loc.errAt(line, "change %d: domain level %q: %v", i, level, err)
	}
	di := slices.Index(t.Domains(l), name)
	if di < 0 {
		return "", "", nil, rd.loc.errAt(line, "change %d: no %s called %q (%s: %s)", i, level, name, level, strings.Join(t.Domains(l), ", "))
	}
	for k, n := range t.Nodes() {
		if int(t.DomainOf(l)[k]) == di && algorithms.IndexOf(before, n.ID) >= 0 {
			ids = append(ids, n.ID)
		}
	}
	if len(ids) == 0 || len(ids) == len(before) {
		return "", "", nil, rd.loc.errAt(line, "change %d: %s %q holds %d of the %d nodes: losing it must leave some and take some", i, level, name, len(ids), len(before))
	}
	return level, name, ids, nil
}
