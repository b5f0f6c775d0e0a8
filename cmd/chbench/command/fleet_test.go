package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chbench/chbench/schema"
)

// The weighted join of the issue, named nodes and weights on the command
// line: ring and rendezvous move no key between A and B.
func TestMoveWeightedJoinCLI(t *testing.T) {
	out, _, err := runCLI(t, "move", "-algo", "ring,rendezvous", "-node-ids", "A,B", "-weights", "1,2", "-join", "C,1", "-keys", "5000", "-sets", "2", "-format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := schema.ReadCSV[schema.Move](strings.NewReader(out), "out.csv")
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		if r.Op != "join" || r.CollateralFrac != 0 || r.From != 2 || r.To != 3 {
			t.Errorf("row %d: op %s from %d to %d collateral %v, want join 2 -> 3 with 0", i, r.Op, r.From, r.To, r.CollateralFrac)
		}
	}
}

// move's fleet flags: a members file with a named leave and reweight
// (skipping the unweighted algorithms), seeded fractions and a joining
// count, and every flag conflict named.
func TestMoveFleetFlags(t *testing.T) {
	dir := t.TempDir()
	members := filepath.Join(dir, "fleet.txt")
	os.WriteFile(members, []byte("# three caches\n10.0.1.7:11211,2\n10.0.1.8:11211\n10.0.1.9:11211\n"), 0o644)
	out, stderr, err := runCLI(t, "move", "-members", members, "-leave", "10.0.1.8:11211", "-reweight", "10.0.1.9:11211=2", "-keys", "2000", "-sets", "2")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "leave+reweight") || !strings.Contains(stderr, "skipping modulo, jump") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", out, stderr)
	}
	out, _, err = runCLI(t, "move", "-algo", "rendezvous", "-from", "20", "-weight", "25", "-reweight-frac", "0.05,0.5", "-reweight-to", "75", "-leave-frac", "0.1", "-join-n", "2", "-keys", "2000", "-sets", "2")
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range []string{"reweight-5%-25-to-75", "reweight-50%-25-to-75", "leave-10%", "join-2"} {
		if !strings.Contains(out, op) {
			t.Errorf("output lacks %s:\n%s", op, out)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-from", "4", "-leave", "nobody"}, `"nobody" is not a member`},
		{[]string{"-from", "4", "-reweight", "node-1"}, "want id=weight"},
		{[]string{"-from", "4", "-reweight", "node-1=0"}, "weight 0"},
		{[]string{"-from", "4", "-join", "node-1"}, `duplicate node ID "node-1"`},
		{[]string{"-from", "4", "-reweight-frac", "0.5"}, "go together"},
		{[]string{"-from", "4", "-weight", "2"}, "no membership change"},
		{[]string{"-from", "4", "-join", "x", "-to", "5"}, "-to cannot be combined"},
		{[]string{"-members", members, "-node-ids", "a,b", "-join", "x"}, "not both"},
		{[]string{"-members", filepath.Join(dir, "missing.txt"), "-join", "x"}, "missing.txt"},
		{[]string{"-algo", "jump", "-node-ids", "a,b", "-weights", "1,2", "-join", "c"}, "weights are not supported"},
	} {
		_, _, err := runCLI(t, append([]string{"move", "-keys", "10", "-sets", "1"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err = %v, want %q", c.args, err, c.want)
		}
	}
}

// -to and -op with fleet flags: the error names the fleet flags given
// (move -from 10 -weight 2 -to 11 listed -join, -leave, ... but not
// -weight).
func TestFleetConflictNamesFlagsGiven(t *testing.T) {
	for _, c := range []struct {
		args       []string
		want, nots string
	}{
		{[]string{"move", "-from", "10", "-weight", "2", "-to", "11"}, "-to cannot be combined with -weight:", ""},
		{[]string{"move", "-from", "10", "-leave-frac", "0.1", "-join-n", "2", "-op", "add"}, "-op cannot be combined with -leave-frac, -join-n:", ""},
		{[]string{"move", "-node-ids", "a,b", "-join", "c", "-to", "3"}, "-to cannot be combined with -node-ids, -join:", ""},
		{[]string{"storm", "-from", "4", "-to", "6", "-weight", "2"}, "-to cannot be combined with -weight:", ""},
		{[]string{"storm", "-live", "-node-ids", "a,b", "-to", "3"}, "cannot be combined with -node-ids", "-reweight"},
	} {
		_, code, stderr := exitOf(t, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) || (c.nots != "" && strings.Contains(stderr, c.nots)) {
			t.Errorf("chbench %s: exit %d, %q; want exit 2 and %q", strings.Join(c.args, " "), code, stderr, c.want)
		}
	}
}
