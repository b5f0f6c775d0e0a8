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
		{[]string{"domains", "-nodes", "3", "-racks", "4"}, []string{"4 domains for 3 units"}},
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
		{[]string{"move", "-algo", "crush", "-from", "2", "-to", "3", "-racks", "3"}, []string{"3 domains for 2 units"}},
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
