package fleet

import (
	"errors"
	"fmt"
	"github.com/chbench/chbench/internal/inputs"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/BurntSushi/toml"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/external"
	"github.com/chbench/chbench/schema"
	"github.com/chbench/chbench/topology"
	"github.com/chbench/chbench/trace"
)

// MaxFileBytes bounds a profile file (64 MiB: a million nodes).
const MaxFileBytes = 64 << 20

// fileNode is a [[node]] table, a join entry or a reweight entry.
type fileNode struct {
	ID      string            `toml:"id"`
	Weight  *float64          `toml:"weight"`
	Memory  string            `toml:"memory"`
	Domains map[string]string `toml:"domains"`
}

// fileTraffic is the [traffic] table.
type fileTraffic struct {
	Reads       *float64 `toml:"reads_per_second"`
	HitRatio    *float64 `toml:"hit_ratio"`
	WorkingSet  *int     `toml:"working_set"`
	Zipf        *float64 `toml:"zipf"`
	KeyFile     string   `toml:"key_file"`
	Trace       string   `toml:"trace"`
	TraceFormat string   `toml:"trace_format"`
	Keys        *int     `toml:"keys"`
	Requests    *int     `toml:"requests"`
}

// fileChange is a [[change]] table.
type fileChange struct {
	Name     string            `toml:"name"`
	After    string            `toml:"after"`
	Join     []fileNode        `toml:"join"`
	GrowTo   *int              `toml:"grow_to"`
	IDFormat string            `toml:"id_format"`
	Weight   *float64          `toml:"weight"`
	Memory   string            `toml:"memory"`
	Leave    []string          `toml:"leave"`
	Fail     []string          `toml:"fail"`
	Reweight []fileNode        `toml:"reweight"`
	Domain   map[string]string `toml:"domain"`
	Step     *int              `toml:"step"`
}

// file is the TOML form of a profile.
type file struct {
	Name      string       `toml:"name"`
	Client    string       `toml:"client"`
	Replicas  *int         `toml:"replicas"`
	Placement string       `toml:"placement"`
	Nodes     *int         `toml:"nodes"`
	Members   string       `toml:"members"`
	Topology  string       `toml:"topology"`
	Levels    []string     `toml:"levels"`
	Node      []fileNode   `toml:"node"`
	Traffic   fileTraffic  `toml:"traffic"`
	Change    []fileChange `toml:"change"`
}

// Read reads and validates the profile at path (see the package doc),
// registered as an input of the command (internal/inputs), so no output
// may replace it.
func Read(path string) (*Profile, error) {
	f, err := inputs.Open(path)
	if err != nil {
		return nil, err // *fs.PathError: names the file
	}
	defer f.Close()
	return Parse(f, path)
}

// Parse reads and validates a profile from r; path names it in errors and
// is the directory relative paths in it are resolved against. It returns
// an error naming the file, the line and the bad value for a TOML syntax
// error, a key the format does not have, a value of the wrong type or out
// of range, an unknown client, a node ID that is empty, repeated or not a
// member where one is needed, inconsistent weights and memory sizes, and a
// change that changes nothing or names an unknown change as after. A file
// in the old "key = value" form is an error saying how to convert it.
func Parse(r io.Reader, path string) (*Profile, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, MaxFileBytes)
	}
	text := strings.TrimPrefix(string(data), "\ufeff") // a byte-order mark is not a key
	var f file
	md, err := toml.Decode(text, &f)
	if err != nil {
		if old := oldFormat(text); old != "" {
			return nil, fmt.Errorf("%s: %s", path, old)
		}
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s:%d: %s", path, pe.Position.Line, pe.Message)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	loc := newLocator(path, text)
	if und := md.Undecoded(); len(und) > 0 {
		k := und[0]
		return nil, loc.errAt(loc.key(k), "unknown key %q (see docs/fleet-profile.md for the keys of a profile)", k.String())
	}
	rd := reader{f: &f, loc: loc, dir: filepath.Dir(path)}
	return rd.profile()
}

// oldFormat returns how to convert a file in the report's former "key =
// value" profile form, or "" when text is not one.
func oldFormat(text string) string {
	for l := range strings.SplitSeq(text, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		key, val, ok := strings.Cut(l, "=")
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if !ok || !slices.Contains([]string{"name", "nodes", "replicas", "zipf", "keyfile"}, key) {
			return ""
		}
		if key == "nodes" && strings.Contains(val, "..") || key == "keyfile" || key == "name" && !strings.HasPrefix(val, `"`) {
			return `this is the former "key = value" profile, replaced by the TOML fleet profile (docs/fleet-profile.md): write name = "...", nodes = N (or the [[node]] tables of your fleet), replicas = R, [traffic] zipf = s and key_file = "...", and for a largest size a [[change]] with name = "growth" and grow_to = MAX`
		}
	}
	return ""
}

// reader validates one decoded profile.
type reader struct {
	f   *file
	loc *locator
	dir string
	p   Profile
}

func (rd *reader) profile() (*Profile, error) {
	f, p := rd.f, &rd.p
	p.Path = rd.loc.path
	if err := plain(f.Name); err != nil {
		return nil, rd.loc.errAt(rd.loc.top("name"), "name %q: %v", f.Name, err)
	}
	p.Name = f.Name
	p.Replicas = 1
	if f.Replicas != nil {
		if *f.Replicas < 1 || *f.Replicas > MaxReplicas {
			return nil, rd.loc.errAt(rd.loc.top("replicas"), "replicas = %d: want a replication factor 1..%d", *f.Replicas, MaxReplicas)
		}
		p.Replicas = *f.Replicas
	}
	if err := rd.members(); err != nil {
		return nil, err
	}
	if err := rd.placement(); err != nil {
		return nil, err
	}
	if err := rd.client(); err != nil {
		return nil, err
	}
	if err := rd.traffic(); err != nil {
		return nil, err
	}
	for i := range f.Change {
		if err := rd.change(i); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// placement checks the placement mode: fixed by default for named nodes
// (the user's own layout), per-set by default for nodes = N.
func (rd *reader) placement() error {
	p, f := &rd.p, rd.f
	switch f.Placement {
	case "":
		p.Placement = schema.PlacementFixed
		if !p.Named {
			p.Placement = schema.PlacementPerSet
		}
	case schema.PlacementFixed, schema.PlacementPerSet:
		p.Placement = f.Placement
	default:
		return rd.loc.errAt(rd.loc.top("placement"), "placement = %q: want %s", f.Placement, strings.Join(schema.PlacementModes(), " or "))
	}
	return nil
}

// client checks that the client is a catalog dialect or algorithm that
// can place today's fleet.
func (rd *reader) client() error {
	c := rd.f.Client
	if c == "" {
		return nil
	}
	line := rd.loc.top("client")
	if strings.HasPrefix(strings.TrimSpace(c), external.Prefix) {
		return rd.loc.errAt(line, "client = %q: a profile's client is a dialect or an algorithm of the catalog, not an %s program: the fleet's switches and lookups build it in process", c, external.Prefix)
	}
	if _, err := catalog.Describe(c); err != nil {
		return rd.loc.errAt(line, "client = %q: %v", c, err)
	}
	cfg := catalog.DefaultConfig()
	if err := catalog.Check(c, rd.p.Nodes, cfg); err != nil {
		return rd.loc.errAt(line, "client = %q cannot place these nodes: %v", c, err)
	}
	rd.p.Client = c
	return nil
}

// traffic checks [traffic] and fills its defaults.
func (rd *reader) traffic() error {
	t, p := rd.f.Traffic, &rd.p
	at := func(key string) int { return rd.loc.in("traffic", 0, key, "") }
	p.Traffic = Traffic{Reads: DefaultReads, HitRatio: DefaultHitRatio, Zipf: DefaultZipf, Keys: DefaultKeys, Requests: DefaultRequests}
	tr := &p.Traffic
	if t.Reads != nil {
		if !(*t.Reads > 0) || math.IsInf(*t.Reads, 0) {
			return rd.loc.errAt(at("reads_per_second"), "reads_per_second = %v: want a finite number > 0", *t.Reads)
		}
		tr.Reads = *t.Reads
	}
	if t.HitRatio != nil {
		if !(*t.HitRatio >= 0 && *t.HitRatio < 1) {
			return rd.loc.errAt(at("hit_ratio"), "hit_ratio = %v: want 0 <= h < 1", *t.HitRatio)
		}
		tr.HitRatio = *t.HitRatio
	}
	if t.Zipf != nil {
		if !(*t.Zipf >= 0) || math.IsInf(*t.Zipf, 0) {
			return rd.loc.errAt(at("zipf"), "zipf = %v: want a finite Zipf exponent s >= 0", *t.Zipf)
		}
		tr.Zipf = *t.Zipf
	}
	if t.Requests != nil {
		if *t.Requests < 1 || *t.Requests > math.MaxInt32 {
			return rd.loc.errAt(at("requests"), "requests = %d: want 1 to %d requests per stream", *t.Requests, math.MaxInt32)
		}
		tr.Requests = *t.Requests
	}
	if t.Keys != nil {
		if *t.Keys < 1 || *t.Keys > math.MaxInt32 {
			return rd.loc.errAt(at("keys"), "keys = %d: want 1 to %d generated keys", *t.Keys, math.MaxInt32)
		}
		tr.Keys = *t.Keys
	}
	if t.KeyFile != "" && t.Trace != "" {
		return rd.loc.errAt(at("trace"), "key_file = %q and trace = %q: give one source of keys", t.KeyFile, t.Trace)
	}
	if t.KeyFile != "" {
		if t.Keys != nil {
			return rd.loc.errAt(at("keys"), "keys = %d with key_file = %q: the file's keys are the keys", *t.Keys, t.KeyFile)
		}
		if err := plain(t.KeyFile); err != nil {
			return rd.loc.errAt(at("key_file"), "key_file = %q: %v", t.KeyFile, err)
		}
		tr.KeyFile = rd.path(t.KeyFile)
	}
	if t.Trace != "" {
		if err := plain(t.Trace); err != nil {
			return rd.loc.errAt(at("trace"), "trace = %q: %v", t.Trace, err)
		}
		tr.Trace = rd.path(t.Trace)
	}
	if t.TraceFormat != "" {
		if t.Trace == "" {
			return rd.loc.errAt(at("trace_format"), "trace_format = %q without a trace", t.TraceFormat)
		}
		if _, err := trace.LookupFormat(t.TraceFormat); err != nil {
			return rd.loc.errAt(at("trace_format"), "trace_format = %q: %v", t.TraceFormat, err)
		}
		tr.TraceFormat = t.TraceFormat
	}
	tr.WorkingSet = tr.Keys
	if tr.Trace != "" {
		tr.WorkingSet = 0 // the trace's distinct keys, counted where it is read
	}
	if t.WorkingSet != nil {
		if *t.WorkingSet < 1 {
			return rd.loc.errAt(at("working_set"), "working_set = %d: want at least 1 key", *t.WorkingSet)
		}
		tr.WorkingSet = *t.WorkingSet
	}
	return nil
}

// path resolves a path of the profile against its directory.
func (rd *reader) path(s string) string {
	if filepath.IsAbs(s) || s == "-" {
		return s
	}
	return filepath.Join(rd.dir, s)
}

// plain returns an error for text that cannot go into a result file or
// the report's Markdown: control characters, backquotes, table bars.
func plain(s string) error {
	if strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) || r == '`' || r == '|' }) {
		return errors.New(`control characters, backquotes and "|" are not allowed`)
	}
	return nil
}

// members reads the membership: [[node]] tables (with levels), a members
// file, a topology file, or nodes = N.
func (rd *reader) members() error {
	f, p := rd.f, &rd.p
	given := 0
	for _, ok := range []bool{len(f.Node) > 0, f.Members != "", f.Topology != "", f.Nodes != nil} {
		if ok {
			given++
		}
	}
	switch {
	case given == 0:
		return rd.loc.errAt(1, "no members: give [[node]] tables, members = FILE, topology = FILE or nodes = N")
	case given > 1:
		return rd.loc.errAt(1, "members given twice: give one of [[node]] tables, members = FILE, topology = FILE and nodes = N")
	case f.Nodes != nil:
		if *f.Nodes < 1 || *f.Nodes > algorithms.MaxNodes {
			return rd.loc.errAt(rd.loc.top("nodes"), "nodes = %d: want 1 to %d", *f.Nodes, algorithms.MaxNodes)
		}
		p.Nodes, _ = algorithms.DefaultNodes(*f.Nodes)
		return rd.noLevels("nodes")
	case f.Members != "":
		nodes, err := ReadMembership(rd.path(f.Members), nil) // the default memory budget
		if err != nil {
			return rd.loc.errAt(rd.loc.top("members"), "members = %q: %v", f.Members, err)
		}
		p.Nodes, p.Named = nodes, true
		return rd.noLevels("members")
	case f.Topology != "":
		t, err := topology.ReadFile(rd.path(f.Topology))
		if err != nil {
			return rd.loc.errAt(rd.loc.top("topology"), "topology = %q: %v", f.Topology, err)
		}
		p.Nodes, p.Named, p.Topology = t.Nodes(), true, t
		return rd.noLevels("topology")
	}
	nodes, mem, err := rd.nodes(f.Node, func(i int) (int, string) { return rd.loc.entry("node", i, f.Node[i].ID), "node" })
	if err != nil {
		return err
	}
	p.Nodes, p.Memory, p.Named = nodes, mem, true
	if f.Levels != nil {
		tf := topology.File{Levels: f.Levels}
		for i, n := range nodes {
			tf.Nodes = append(tf.Nodes, topology.FileNode{ID: n.ID, Weight: &nodes[i].Weight, Domains: f.Node[i].Domains})
		}
		t, err := tf.Topology()
		if err != nil {
			return rd.loc.errAt(rd.loc.top("levels"), "%v", err)
		}
		p.Topology = t
	} else {
		for i, n := range f.Node {
			if len(n.Domains) > 0 {
				return rd.loc.errAt(rd.loc.entry("node", i, n.ID), "node %d (%q): domains without levels = [...] naming the levels", i, n.ID)
			}
		}
	}
	return nil
}

// noLevels refuses levels and domains beside a membership given by key.
func (rd *reader) noLevels(key string) error {
	if rd.f.Levels != nil {
		return rd.loc.errAt(rd.loc.top("levels"), "levels with %s: failure domains go in [[node]] tables (or in the topology file)", key)
	}
	return nil
}

// nodes reads node tables (the members, joins or reweights): IDs
// non-empty and unique, and each with a weight or a memory size, all of
// one kind; weights from memory are each node's memory over the
// smallest. at gives the line and what an entry is called in errors.
func (rd *reader) nodes(ns []fileNode, at func(i int) (int, string)) ([]algorithms.Node, []int64, error) {
	var nodes []algorithms.Node
	var mem []int64
	for i, n := range ns {
		line, what := at(i)
		bad := func(format string, args ...any) error {
			return rd.loc.errAt(line, "%s %d (%q): %s", what, i, n.ID, fmt.Sprintf(format, args...))
		}
		if err := plain(n.ID); err != nil || strings.TrimSpace(n.ID) == "" {
			return nil, nil, bad("id: want a node ID without control characters, backquotes or \"|\"")
		}
		if j := slices.IndexFunc(nodes, func(o algorithms.Node) bool { return o.ID == n.ID }); j >= 0 {
			return nil, nil, bad("id given twice (also %s %d)", what, j)
		}
		switch {
		case n.Weight != nil && n.Memory != "":
			return nil, nil, bad("weight = %v and memory = %q: give one", *n.Weight, n.Memory)
		case n.Memory != "":
			if i > 0 && mem == nil {
				return nil, nil, bad("memory = %q, but earlier nodes have weights: give every node a memory size, or every node a weight", n.Memory)
			}
			b, err := ParseSize(n.Memory)
			if err != nil {
				return nil, nil, bad("memory = %q: %v", n.Memory, err)
			}
			mem = append(mem, b)
		default:
			if mem != nil {
				return nil, nil, bad("no memory, but earlier nodes have memory sizes: give every node a memory size, or every node a weight")
			}
			w := 1.0
			if n.Weight != nil {
				w = *n.Weight
			}
			if err := checkWeight(w); err != nil {
				return nil, nil, bad("%v", err)
			}
			nodes = append(nodes, algorithms.Node{ID: n.ID, Weight: w})
			continue
		}
		nodes = append(nodes, algorithms.Node{ID: n.ID})
	}
	if mem != nil {
		smallest := slices.Min(mem)
		for i := range nodes {
			nodes[i].Weight = weightOf(mem[i], smallest)
		}
	}
	if err := algorithms.ValidateShares(nodes); err != nil && len(nodes) > 0 {
		line, _ := at(0)
		return nil, nil, rd.loc.errAt(line, "%v", err)
	}
	return nodes, mem, nil
}
