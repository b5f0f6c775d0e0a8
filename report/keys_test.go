package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/chbench/chbench/schema"
)

// setCells returns an edit for copyRun that sets column col of every row
// of the files named to v.
func setCells(files []string, cols map[string]string) func(string, [][]string) {
	return func(f string, recs [][]string) {
		if !slices.Contains(files, f) {
			return
		}
		for col, v := range cols {
			c := slices.Index(recs[0], col)
			if c < 0 {
				continue
			}
			for _, r := range recs[1:] {
				r[c] = v
			}
		}
	}
}

// With a key file, the keys column is the file's total, dealt into the
// sets: 3,000 keys in 3 sets is 1,000 keys per set, never "3,000 keys per
// set x 3 sets".
func TestKeyCountsOfAKeyFile(t *testing.T) {
	dir := copyRun(t, setCells([]string{schema.MovementFile.Name, schema.SpreadFile.Name},
		map[string]string{"keys": "3000", "sets": "3", "key_file": "keys.txt"}))
	rep := render(t, dir, DefaultProfile())
	for _, want := range []string{"movement.csv 3,000 keys of keys.txt in 3 sets of 1,000", "spread.csv 3,000 keys of keys.txt in 3 sets of 1,000"} {
		if !strings.Contains(rep, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(rep, "3,000 keys per set") {
		t.Errorf("report reads the key file's total as keys per set:\n%s", keysLine(rep))
	}
	// Generated keys: the keys column is per set (spread.csv of the run
	// holds 1,000,000 keys in each of 5 sets).
	if rep := render(t, runDir, DefaultProfile()); !strings.Contains(keysLine(rep), "spread.csv 1,000,000 keys per set x 5 sets") {
		t.Errorf("generated keys: %s", keysLine(rep))
	}
}

func keysLine(rep string) string {
	for l := range strings.SplitSeq(rep, "\n") {
		if strings.HasPrefix(l, "- **Keys**") {
			return l
		}
	}
	return ""
}

// The key-file warning compares the profile's key file with each result
// file's: it names the files made on it and those made on other keys with
// what they were made on, reads "./keys.txt" and "keys.txt" as one file,
// and says nothing when every file was made on it.
func TestKeyFileWarningPerFile(t *testing.T) {
	onFile := []string{schema.MovementFile.Name, schema.SpreadFile.Name, schema.StormFile.Name, schema.ReplicationFile.Name}
	dir := copyRun(t, setCells(onFile, map[string]string{"key_file": "keys.txt"}))
	p := DefaultProfile()
	p.KeyFile = "./keys.txt"
	rep := render(t, dir, p)
	want := "the profile names key file `./keys.txt`; made on it: movement.csv, spread.csv, load.csv"
	if strings.Contains(rep, want) {
		t.Errorf("load.csv, made on generated keys, is listed as made on the key file")
	}
	for _, want := range []string{
		"made on it: movement.csv, spread.csv, storm.csv, replication.csv; made on other keys: load.csv (generated keys)",
	} {
		if !strings.Contains(rep, want) {
			t.Errorf("report lacks %q:\n%s", want, warnings(rep))
		}
	}
	if strings.Contains(rep, "were made with keys.txt, generated") {
		t.Errorf("the warning lists the union of key sources as if the profile's file were not among them:\n%s", warnings(rep))
	}
	all := copyRun(t, setCells(append(onFile, schema.LoadFile.Name, schema.SwitchingFile.Name), map[string]string{"key_file": "keys.txt"}))
	if w := warnings(render(t, all, p)); strings.Contains(w, "key file") {
		t.Errorf("every file was made on keys.txt, yet the report warns about the key file:\n%s", w)
	}
}

func warnings(rep string) string {
	var out []string
	for l := range strings.SplitSeq(rep, "\n") {
		if strings.HasPrefix(l, "- **Warning**") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// A movement point the plots leave out (fewer than 1,000 expected moved
// keys per key set) is not quoted in the table or the takeaway: the report
// reads the nearest size that is drawn, and when none is, says which
// points it left out.
func TestMovementCellsAreDrawnPoints(t *testing.T) {
	d, err := Load(runDir, DefaultProfile())
	if err != nil {
		t.Fatal(err)
	}
	n := count(d.moveN)
	// Every row at the size the report reads now expects 999 moves.
	from := strings.ReplaceAll(n, ",", "")
	dir := copyRun(t, func(f string, recs [][]string) {
		if f != schema.MovementFile.Name {
			return
		}
		c, fc := slices.Index(recs[0], "expected_moves"), slices.Index(recs[0], "from")
		for _, r := range recs[1:] {
			if r[fc] == from {
				r[c] = "999"
			}
		}
	})
	rep := render(t, dir, DefaultProfile())
	if strings.Contains(rep, "join moved/ideal @"+n+" ") || strings.Contains(rep, "when one node joins "+n+" nodes") {
		t.Errorf("the report quotes movement at %s nodes, a point the plots leave out", n)
	}
	if d2, err := Load(dir, DefaultProfile()); err != nil || d2.moveN == d.moveN || d2.moveN == 0 {
		t.Errorf("with %s nodes left out the report reads movement from %v nodes (%v), want another drawn size", n, d2.moveN, err)
	}
	// With no point drawn at all, no movement is quoted and the report says why.
	none := copyRun(t, setCells([]string{schema.MovementFile.Name}, map[string]string{"expected_moves": "90.9"}))
	rep = render(t, none, DefaultProfile())
	if !strings.Contains(rep, "Movement: no point of movement.csv is quoted.") || !strings.Contains(rep, "add from 95 nodes (90.9 expected moved keys per key set)") {
		t.Errorf("no drawn movement point, and the report does not say so, naming the points")
	}
	if strings.Contains(rep, "join moved/ideal @") {
		t.Errorf("no drawn movement point, yet the table has a movement column at a node count")
	}
}

// The layouts item says what the placement mode means for the numbers,
// not only its name: per-set covers random layouts like the nodes', fixed
// is the exact layout of the given IDs.
func TestLayoutsAreExplained(t *testing.T) {
	if !strings.Contains(render(t, runDir, DefaultProfile()), "**Ring and bounded layouts**: per-set (each key set on its own random layout") {
		t.Errorf("per-set is not explained")
	}
	dir := copyRun(t, setCells([]string{schema.MovementFile.Name, schema.SpreadFile.Name, schema.ReplicationFile.Name}, map[string]string{"placement": "fixed"}))
	if !strings.Contains(render(t, dir, DefaultProfile()), "**Ring and bounded layouts**: fixed (every key set on the node IDs as given, unsalted)") {
		t.Errorf("fixed is not explained")
	}
}

// A value read far from the profile's is named with the knob that sets
// it, so the reader knows what to change, and the warning points at the
// fleet profile that runs every analysis at the fleet's own sizes.
func TestOffProfileNamesTheKnobs(t *testing.T) {
	p := DefaultProfile()
	p.Nodes, p.MaxNodes, p.Replicas = 40, 40, 4
	w := warnings(render(t, runDir, p))
	for _, want := range []string{"request load at 100 nodes (asked 40; LOAD_NODES)", "spread at 100 nodes (asked 40; SPREAD_NODES)",
		"replication at R = 3 (asked 4; REPL_R)", "`make bench PROFILE=...`"} {
		if !strings.Contains(w, want) {
			t.Errorf("warning lacks %q:\n%s", want, w)
		}
	}
}
