package command

import (
	"strings"
	"testing"

	"github.com/chbench/chbench/schema"
)

// The default storm is the field's headline: modulo 4 -> 5 at 50,000
// reads/s and 95% hit leaves about 19% hits and 16x the database load.
func TestStormDefaults(t *testing.T) {
	out, _, err := runCLI(t, "storm", "-algo", "modulo,ring", "-keys", "20000", "-sets", "2")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"50,000 reads/s at 95.00% hit ratio", "steady database load 2,500 reads/s", "modulo  add  4     5", "ideal add 4 -> 5"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	var line string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "modulo") {
			line = l
		}
	}
	if !strings.Contains(line, "  16.") || !strings.Contains(line, "  19.") && !strings.Contains(line, "  18.") {
		t.Errorf("modulo row %q: want ~19%% hit and ~16x", line)
	}
	csv, _, err := runCLI(t, "storm", "-algo", "ring", "-keys", "1000", "-sets", "2", "-format", "csv", "-timeline", "-points", "4")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(csv, "\n"); n != 1+5 {
		t.Errorf("timeline with 4 steps: %d lines, want 6:\n%s", n, csv)
	}
}

// Bad storm flags are usage errors naming the value, before any work.
func TestStormBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-hit", "1"}, "hit ratio 1"},
		{[]string{"-reads", "-5"}, "reads -5"},
		{[]string{"-working-set", "0"}, "working set 0"},
		{[]string{"-from", "4", "-to", "4"}, "from 4 to 4"},
		{[]string{"-timeline"}, "-timeline needs -format csv"},
		{[]string{"-format", "bench"}, "format bench"},
		{[]string{"-span", "0", "-format", "csv", "-timeline"}, "span 0"},
		{[]string{"-zipf", "-1"}, "zipf exponent -1"},
		{[]string{"-zipf", "NaN"}, `-zipf "NaN": not a decimal number`}, // not decimal: refused by parse
	} {
		_, _, err := runCLI(t, append([]string{"storm", "-keys", "10", "-sets", "1"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err = %v, want %q", c.args, err, c.want)
		}
	}
}

// A named node of a named fleet leaves at peak.
func TestStormNamedLeave(t *testing.T) {
	out, _, err := runCLI(t, "storm", "-algo", "modulo,rendezvous", "-node-ids", "a:11211,b:11211,c:11211,d:11211,e:11211", "-leave", "c:11211", "-keys", "5000", "-sets", "2")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "rendezvous  leave  5     4") || !strings.Contains(out, "ideal leave 5 -> 4") {
		t.Errorf("output:\n%s", out)
	}
	if _, _, err := runCLI(t, "storm", "-from", "4", "-to", "6", "-leave", "node-1"); err == nil || !strings.Contains(err.Error(), "-to cannot be combined") {
		t.Errorf("-to with -leave: err = %v", err)
	}
}

// storm -zipf: the values at the change and the total extra reads are
// those of uniform reads (S(0) = 1, every moved key is read once); the
// recovery takes longer (the long tail refills slowly) and the table and
// CSV name the exponent.
func TestStormZipfFlag(t *testing.T) {
	args := []string{"storm", "-algo", "modulo", "-keys", "2000", "-sets", "2", "-working-set", "20000", "-format", "csv"}
	uni, _, err := runCLI(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	zipf, _, err := runCLI(t, append(args, "-zipf", "0.99")...)
	if err != nil {
		t.Fatal(err)
	}
	us, err := schema.ReadCSV[schema.Storm](strings.NewReader(uni), "storm.csv")
	if err != nil {
		t.Fatal(err)
	}
	zs, err := schema.ReadCSV[schema.Storm](strings.NewReader(zipf), "storm.csv")
	if err != nil {
		t.Fatal(err)
	}
	u, z := us[0], zs[0]
	if u.Zipf != 0 || z.Zipf != 0.99 {
		t.Errorf("zipf columns %v, %v; want 0 and 0.99", u.Zipf, z.Zipf)
	}
	for _, c := range []struct {
		col  string
		u, z float64
	}{{"hit_after", u.HitAfter, z.HitAfter}, {"db_reads", u.DBReads, z.DBReads}, {"db_multiple", u.DBMultiple, z.DBMultiple}, {"extra_db_reads", u.ExtraDBReads, z.ExtraDBReads}} {
		if c.u != c.z {
			t.Errorf("%s: uniform %v, Zipf %v; want equal", c.col, c.u, c.z)
		}
	}
	ru, rz := u.RecoveryS, z.RecoveryS
	if !(rz > ru) {
		t.Errorf("recovery: Zipf %v s, uniform %v s; want the Zipf tail slower", rz, ru)
	}
	out, _, err := runCLI(t, "storm", "-algo", "modulo", "-keys", "2000", "-sets", "2", "-working-set", "20000", "-zipf", "0.99")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "Zipf popularity s = 0.99") {
		t.Errorf("table does not name the popularity:\n%s", out)
	}
}
