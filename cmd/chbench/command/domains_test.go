package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms/external"
	"github.com/chbench/chbench/cmd/internal/cli"
	"github.com/chbench/chbench/internal/exampleprog"
	"github.com/chbench/chbench/schema"
)

// Bad failure-domain input is a usage error naming the bad value, before
// any work; a missing topology file is an error while running, as a
// missing -keyfile is.
func TestDomainsBadInput(t *testing.T) {
	for _, c := range []struct {
		args  []string
		parts []string
	}{
		{[]string{"domains", "-nodes", "12"}, []string{"topology"}},
		{[]string{"domains", "-nodes", "12", "-racks", "4", "-domain", "zone"}, []string{`no level "zone"`, "rack"}},
		{[]string{"domains", "-nodes", "12", "-racks", "4,x"}, []string{`"4,x"`, `"x"`}},
		{[]string{"domains", "-nodes", "3", "-racks", "4"}, []string{"-racks 4: 4 racks for 3 nodes"}},
		{[]string{"domains", "-nodes", "12", "-racks", "4", "-replicas", "9"}, []string{"replicas 9"}},
		{[]string{"domains", "-nodes", "12", "-racks", "4", "-ranks", "-changes"}, []string{"-ranks and -changes"}},
		{[]string{"domains", "-nodes", "12", "-racks", "4", "-ranks", "-replicas", "2,3"}, []string{"one replication factor"}},
		{[]string{"domains", "-nodes", "12", "-racks", "4", "-changes", "-events", "rack:rack-9"}, []string{`"rack-9"`}},
		{[]string{"domains", "-nodes", "12", "-racks", "4", "-events", "node"}, []string{"-events needs -changes"}},
		{[]string{"domains", "-nodes", "12", "-changes"}, []string{"failure domains"}},
		{[]string{"domains", "-racks", "4"}, []string{"-nodes is required"}},
		{[]string{"domains", "-nodes", "12", "-racks", "4", "-format", "bench"}, []string{"format bench"}},
		{[]string{"replication", "-from", "12", "-racks", "4", "-topology", "x.toml"}, []string{"not both"}},
		{[]string{"spread", "-nodes", "12", "-domain", "rack"}, []string{"-domain", "needs a topology"}},
		{[]string{"move", "-algo", "crush", "-from", "2", "-to", "3", "-racks", "3"}, []string{"-racks 3: 3 racks for 2 nodes"}},
	} {
		wantCLIError(t, c.args, c.parts...)
		if _, _, err := runCLI(t, c.args...); err != nil && !cli.IsUsage(err) {
			t.Errorf("chbench %s: %v is not a usage error", strings.Join(c.args, " "), err)
		}
	}
	_, _, err := runCLI(t, "domains", "-topology", filepath.Join(t.TempDir(), "none.toml"))
	if err == nil || cli.IsUsage(err) || !strings.Contains(err.Error(), "none.toml") {
		t.Errorf("missing topology file: %v, want an error while running naming it", err)
	}
}

// Counts of racks and zones that leave a domain empty are a usage error
// naming the flag, its value and both numbers, whatever the command and
// whether or not its algorithms read the topology (ring does not: spread
// and move ran and ignored -racks 5 on 3 nodes).
func TestTopologyCountsFitTheNodes(t *testing.T) {
	const racks5 = "-racks 5: 5 racks for 3 nodes: at most one per node, or a rack would be empty"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"spread", "-algo", "ring", "-nodes", "3", "-racks", "5", "-keys", "1000", "-sets", "2"}, racks5},
		{[]string{"spread", "-algo", "ring", "-nodes", "10,3", "-racks", "5", "-keys", "1000", "-sets", "2"}, racks5},
		{[]string{"spread", "-algo", "ring", "-node-ids", "a,b,c", "-racks", "5", "-keys", "1000", "-sets", "2"}, racks5},
		{[]string{"move", "-algo", "ring", "-from", "3", "-to", "4", "-racks", "5", "-keys", "1000", "-sets", "2"}, racks5},
		{[]string{"move", "-algo", "ring", "-from", "3", "-op", "add,remove-last", "-racks", "5", "-keys", "1000", "-sets", "2"}, racks5},
		{[]string{"replication", "-algo", "ring", "-replicas", "2", "-from", "3", "-to", "4", "-racks", "5", "-keys", "1000", "-sets", "2"}, racks5},
		{[]string{"domains", "-algo", "ring", "-nodes", "3", "-racks", "5", "-keys", "1000", "-sets", "2"}, racks5},
		{[]string{"domains", "-algo", "ring", "-nodes", "6", "-racks", "3", "-zones", "4"}, "-zones 4: 4 zones for 3 racks: at most one per rack, or a zone would be empty"},
		{[]string{"domains", "-algo", "ring", "-nodes", "3", "-zones", "4"}, "-zones 4: 4 zones for 3 nodes: at most one per node, or a zone would be empty"},
		{[]string{"spread", "-algo", "ring", "-nodes", "6", "-racks", "2,2,1"}, "-racks 2,2,1: 3 racks of 5 nodes in all, for 6 nodes"},
		{[]string{"domains", "-algo", "ring", "-nodes", "6", "-racks", "3", "-zones", "1,1"}, "-zones 1,1: 2 zones of 2 racks in all, for 3 racks"},
	} {
		_, _, err := runCLI(t, c.args...)
		if err == nil || !cli.IsUsage(err) || err.Error() != c.want {
			t.Errorf("chbench %s:\n error %v (usage error: %v)\n want the usage error %q", strings.Join(c.args, " "), err, cli.IsUsage(err), c.want)
		}
	}
	// As many racks as nodes, and as many zones as racks, fit.
	for _, args := range [][]string{
		{"spread", "-algo", "ring", "-nodes", "5", "-racks", "5", "-keys", "1000", "-sets", "2", "-draws", "0"},
		{"domains", "-algo", "ring", "-nodes", "6", "-racks", "3", "-zones", "3", "-keys", "1000", "-sets", "2"},
	} {
		if _, _, err := runCLI(t, args...); err != nil {
			t.Errorf("chbench %s: %v", strings.Join(args, " "), err)
		}
	}
}

// A topology file gives the fleet itself: its nodes, weights and
// domains, and its own level names.
func TestDomainsTopologyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fleet.toml")
	var b strings.Builder
	b.WriteString("levels = [\"zone\", \"rack\"]\n")
	for i, d := range []string{"a/r1", "a/r1", "a/r2", "b/r3", "b/r3", "b/r4"} {
		z, r, _ := strings.Cut(d, "/")
		b.WriteString("[[node]]\nid = \"cache-" + string(rune('a'+i)) + "\"\ndomains = { zone = \"" + z + "\", rack = \"" + r + "\" }\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "domains", "-algo", "rendezvous", "-topology", path, "-domain", "zone", "-replicas", "2", "-keys", "500", "-sets", "2", "-format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := schema.ReadCSV[schema.DomainViolation](strings.NewReader(out), "out.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Nodes != 6 || rows[0].Domains != 2 || rows[0].Topology != "file="+path || rows[1].KeysSharedFrac != 0 {
		t.Errorf("rows %+v", rows)
	}
}

// An external placement (the Python example ring, exec:) runs in the
// domain measures with its own replicas: its rows are scheme plain beside
// chbench's ring, its one-replica-per-domain scheme is refused with a
// note on stderr naming it, and it follows a rack's loss and a rack added
// through its own membership changes. The program is deterministic, so
// the rows are byte for byte the golden files'.
func TestDomainsExternal(t *testing.T) {
	py := external.Prefix + exampleprog.PythonCommand(t, "examples/python/ring.py")
	common := []string{"-nodes", "12", "-racks", "4", "-replicas", "3", "-keys", "2000", "-sets", "2", "-commit", "golden"}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"domains-exec-table", []string{"domains", "-algo", "ring," + py}},
		{"domains-exec-changes-csv", []string{"domains", "-algo", "ring," + py, "-changes", "-events", "rack,+rack", "-format", "csv"}},
		{"domains-exec-ranks-table", []string{"domains", "-algo", py, "-ranks"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			stdout := golden(t, c.name, append(c.args, common...)...)
			plain, aware := 0, 0
			for _, line := range strings.Split(string(stdout), "\n") {
				if !strings.HasPrefix(line, "textbook-ring") {
					continue
				}
				if strings.Contains(line, schema.SchemeAware) {
					aware++
				} else if strings.Contains(line, schema.SchemePlain) {
					plain++
				}
			}
			if plain == 0 || aware > 0 {
				t.Errorf("%s: %d textbook-ring rows of scheme plain and %d of aware; want some plain, no aware", c.name, plain, aware)
			}
		})
	}
}
