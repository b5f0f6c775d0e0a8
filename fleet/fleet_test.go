package fleet

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chbench/chbench/schema"
)

// The example profile of examples/fleet reads as the fleet it describes:
// 40 named members, the first eight of twice the memory (weight 2, the
// others 1), four racks of ten, twemproxy's ketama as the client, the
// traffic as given with the key dump's path resolved next to the profile,
// and four changes: staged growth to 60 one node at a time (cache-41 ..
// cache-60 of the smaller memory), a failure, the loss of rack r1 (its ten
// members) and a reweight.
func TestExampleProfile(t *testing.T) {
	path := filepath.Join("..", "examples", "fleet", "cache-40-60.toml")
	p, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Nodes) != 40 || p.Nodes[0].ID != "cache-01:11211" || p.Nodes[7].Weight != 2 || p.Nodes[8].Weight != 1 || p.Memory[0] != 32<<30 || !p.Named {
		t.Fatalf("members: %d, first %v, 8th %v, 9th %v, memory %v", len(p.Nodes), p.Nodes[0], p.Nodes[7], p.Nodes[8], p.Memory[:1])
	}
	if p.Client != "twemproxy-ketama-fnv1a-64" || p.Replicas != 1 || p.Placement != schema.PlacementFixed || p.Topology == nil {
		t.Errorf("client %q, replicas %d, placement %q, topology %v", p.Client, p.Replicas, p.Placement, p.Topology)
	}
	tr := p.Traffic
	if tr.Reads != 200000 || tr.HitRatio != 0.98 || tr.Zipf != 1.2 || tr.WorkingSet != 300000 || tr.KeyFile != filepath.Join("..", "examples", "fleet", "cache-keys.txt") {
		t.Errorf("traffic %+v", tr)
	}
	if len(p.Changes) != 4 || p.MaxNodes() != 60 {
		t.Fatalf("%d changes, at most %d nodes; want 4 and 60", len(p.Changes), p.MaxNodes())
	}
	grow := p.Changes[0]
	if grow.Kind() != "staged join" || grow.Step != 1 || len(grow.Join) != 20 || grow.Join[0].ID != "cache-41:11211" || grow.Join[19].ID != "cache-60:11211" || grow.Join[0].Weight != 1 || grow.JoinMemory[0] != 16<<30 {
		t.Errorf("growth: %s step %d, %d joins %v .. %v, memory %v", grow.Kind(), grow.Step, len(grow.Join), grow.Join[0], grow.Join[len(grow.Join)-1], grow.JoinMemory[:1])
	}
	if c := p.Changes[1]; c.Kind() != "failure" || len(c.Leave) != 1 || c.Leave[0] != "cache-17:11211" {
		t.Errorf("failure: %+v", c)
	}
	rack := p.Changes[2]
	if rack.Kind() != "domain loss" || rack.DomainLevel != "rack" || rack.DomainName != "r1" || len(rack.Leave) != 10 || rack.Leave[0] != "cache-01:11211" || rack.Leave[1] != "cache-05:11211" {
		t.Errorf("rack loss: %+v", rack)
	}
	if c := p.Changes[3]; c.Kind() != "reweight" || c.Reweight[0].ID != "cache-09:11211" || c.Reweight[0].Weight != 2 {
		t.Errorf("reweight: %+v", c)
	}
	if after := p.After(grow); len(after) != 60 || after[59].ID != "cache-60:11211" {
		t.Errorf("after the growth: %d nodes", len(after))
	}
}

// A bad value is an error naming the file, the line and the value, so the
// user finds it; the TOML decoder's own errors (syntax, types, unknown
// keys) name the line too.
func TestProfileErrors(t *testing.T) {
	const members = "[[node]]\nid = \"a\"\n[[node]]\nid = \"b\"\nweight = 2\n"
	for _, c := range []struct{ in, want string }{
		{"replicas = 9\n" + members, "p.toml:1: replicas = 9: want a replication factor 1..5"},
		{members + "[[node]]\nid = \"c\"\nweight = -1\n", "p.toml:6: node 2 (\"c\"): weight -1: must be a finite number > 0"},
		{members + "[[node]]\nid = \"a\"\n", "p.toml:6: node 2 (\"a\"): id given twice (also node 0)"},
		{"[[node]]\nid = \"a\"\nmemory = \"8GiB\"\n[[node]]\nid = \"b\"\nweight = 1\n", "p.toml:4: node 1 (\"b\"): no memory, but earlier nodes have memory sizes"},
		{"[[node]]\nid = \"a\"\nmemory = \"8 parsecs\"\n", "p.toml:1: node 0 (\"a\"): memory = \"8 parsecs\": \"8 parsecs\": want a number and a unit"},
		{members + "[traffic]\nzipf = -1\n", "p.toml:7: zipf = -1: want a finite Zipf exponent s >= 0"},
		{members + "[traffic]\nhit_ratio = 1\n", "p.toml:7: hit_ratio = 1: want 0 <= h < 1"},
		{members + "[traffic]\nzipff = 1\n", "p.toml:7: unknown key \"traffic.zipff\""},
		{"client = \"nonesuch\"\n" + members, "p.toml:1: client = \"nonesuch\": unknown algorithm \"nonesuch\""},
		{"client = \"exec:python3 x\"\n" + members, "p.toml:1: client = \"exec:python3 x\": a profile's client is a dialect or an algorithm of the catalog, not an exec: program: the fleet's switches and lookups build it in process"},
		{members + "[[change]]\nname = \"x\"\nleave = [\"z\"]\n", "p.toml:8: change 0: leave 0 (\"z\"): not a member"},
		{members + "[[change]]\nname = \"add\"\nleave = [\"a\"]\n", "p.toml:7: change 0 (\"add\"): name: want a label"},
		{members + "[[change]]\nname = \"g\"\ngrow_to = 2\n", "p.toml:8: change 0 (\"g\"): grow_to = 2: want more than the 2 nodes"},
		{members + "[[change]]\nname = \"g\"\ngrow_to = 4\n", "grow_to names its new nodes with id_format"},
		{members + "[[change]]\nname = \"r\"\nreweight = [{ id = \"b\", weight = 2 }]\n", "the change moves nothing"},
		{members + "[[change]]\nname = \"d\"\ndomain = { rack = \"r1\" }\n", "domain needs failure domains"},
		{members + "[[change]]\nname = \"x\"\nafter = \"y\"\nfail = [\"a\"]\n", "p.toml:8: change 0 (\"x\"): after = \"y\": not the name of an earlier change"},
		{members + "[[change]]\nname = \"x\"\nfail = [\"a\"]\nleave = [\"b\"]\n", "want exactly one of join, grow_to, leave, fail, reweight and domain (got 2)"},
		{"node = [\n  { id = \"a\" },\n  { id = \"b\", weight = -1 },\n]\n", "p.toml:3: node 1 (\"b\"): weight -1"},
		{"nodes = 3\n" + members, "members given twice"},
		{"name = \"x\"\n", "no members"},
		{"replicas = \n", "p.toml:1:"},
		{"nodes = 100..10000\nreplicas = 3\n", "the former \"key = value\" profile, replaced by the TOML fleet profile"},
	} {
		_, err := Parse(strings.NewReader(c.in), "p.toml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q:\n err  %v\n want %q", c.in, err, c.want)
		}
	}
}

// Memory sizes read in binary and decimal units, and bad ones are errors
// naming the text.
func TestParseSize(t *testing.T) {
	for s, want := range map[string]int64{"16GiB": 16 << 30, "1.5 GiB": 3 << 29, "512MiB": 512 << 20, "8GB": 8e9, "100 B": 100, " 2 TiB ": 2 << 40} {
		if got, err := ParseSize(s); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"16", "GiB", "-1GiB", "0B", "0.1B", "1e300TB", "NaNGiB", "16 gib"} {
		if _, err := ParseSize(s); err == nil || !strings.Contains(err.Error(), s) {
			t.Errorf("ParseSize(%q): err %v, want one quoting it", s, err)
		}
	}
}
