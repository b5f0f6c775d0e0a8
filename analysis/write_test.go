package analysis

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/chbench/chbench/schema"
)

// The first columns of the movement and spread files, spelled out here
// independently of package schema's column lists: the headers readers of
// older files (and people's scripts) find first.
const (
	moveContract   = "algo,hash,vnodes,op,from,to,keys,sets,seed,moved_frac,moved_frac_lo,moved_frac_hi,ideal_frac,moved_over_ideal,collateral_frac,collateral_frac_lo,collateral_frac_hi"
	spreadContract = "algo,hash,vnodes,nodes,keys,sets,seed,min_share,min_share_lo,min_share_hi,max_share,max_share_lo,max_share_hi,peak_to_mean,peak_to_mean_lo,peak_to_mean_hi,cv,cv_lo,cv_hi,noise_peak_to_mean,noise_cv,exact_peak_to_mean,exact_cv"
)

func sampleResults(t *testing.T, seed uint64, hash string) ([]schema.Move, []schema.Spread) {
	t.Helper()
	var ms []schema.Move
	var ss []schema.Spread
	for _, algo := range []string{"ring", "rendezvous"} {
		o := opts(algo, 2000, 6)
		o.Seed, o.Config.Hash, o.Commit = seed, hash, "abc123"
		sc, err := NewScenario(schema.OpAdd, 5, seed)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Movement(o, sc)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Spread(o, mustNodes(t, 5))
		if err != nil {
			t.Fatal(err)
		}
		ms, ss = append(ms, m), append(ss, s)
	}
	return ms, ss
}

// Movement and spread CSV start with the columns the plots and report
// rely on (the contract), one row per result with every schema column.
func TestCSV(t *testing.T) {
	ms, ss := sampleResults(t, 1, "")
	var mb, sb bytes.Buffer
	if err := schema.WriteCSV(&mb, ms); err != nil {
		t.Fatal(err)
	}
	if err := schema.WriteCSV(&sb, ss); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		out, contract string
		cols          int
	}{{mb.String(), moveContract, len(schema.Columns[schema.Move]())}, {sb.String(), spreadContract, len(schema.Columns[schema.Spread]())}} {
		if !strings.HasPrefix(c.out, c.contract+",") {
			t.Errorf("CSV header does not start with the contract:\n%s", strings.SplitN(c.out, "\n", 2)[0])
		}
		recs, err := csv.NewReader(strings.NewReader(c.out)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != 3 {
			t.Fatalf("%d CSV records, want header + 2", len(recs))
		}
		for _, r := range recs {
			if len(r) != c.cols {
				t.Errorf("row of %d fields, want %d", len(r), c.cols)
			}
		}
		if strings.Contains(c.out, "NaN") || strings.Contains(c.out, "Inf") {
			t.Errorf("CSV holds NaN or Inf:\n%s", c.out)
		}
	}
	recs, _ := csv.NewReader(&sb).ReadAll()
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	ring, rdv := recs[1], recs[2]
	if ring[col["algo"]] != "ring" || ring[col["exact_peak_to_mean"]] == "" || ring[col["exact_cv"]] == "" {
		t.Errorf("ring row lacks exact values: %q", ring)
	}
	if rdv[col["exact_peak_to_mean"]] != "" || rdv[col["exact_cv"]] != "" {
		t.Errorf("rendezvous row has exact values: %q", rdv)
	}
	if ring[col["hash"]] != "xxhash" || ring[col["keys"]] != "2000" || ring[col["sets"]] != "6" || ring[col["seed"]] != "1" {
		t.Errorf("ring row config: %q", ring)
	}
	var shb bytes.Buffer
	if err := schema.WriteCSV(&shb, schema.SharesOf(ss)); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(shb.String(), "\n"); n != 1+2*5 {
		t.Errorf("shares CSV has %d lines, want 11", n)
	}
}

// Movement and spread JSON is an array of objects with the schema's
// fields, the configuration nested under config.
func TestJSON(t *testing.T) {
	ms, ss := sampleResults(t, 1, "")
	var mb, sb bytes.Buffer
	if err := schema.WriteJSON(&mb, ms); err != nil {
		t.Fatal(err)
	}
	if err := schema.WriteJSON(&sb, ss); err != nil {
		t.Fatal(err)
	}
	var mv, sv []map[string]any
	if err := json.Unmarshal(mb.Bytes(), &mv); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(sb.Bytes(), &sv); err != nil {
		t.Fatal(err)
	}
	for _, k := range strings.Split(moveContract, ",") {
		if _, ok := mv[0][k]; !ok {
			t.Errorf("movement JSON lacks %q", k)
		}
	}
	for _, k := range strings.Split(spreadContract, ",") {
		if _, ok := sv[0][k]; !ok {
			t.Errorf("spread JSON lacks %q", k)
		}
	}
	if mv[0]["op"] != "add" || mv[0]["from"] != 5.0 || mv[0]["to"] != 6.0 || mv[0]["moved_frac"] != ms[0].MovedFrac {
		t.Errorf("movement JSON values: %v", mv[0])
	}
	cfg := mv[0]["config"].(map[string]any)
	if cfg["commit"] != "abc123" || cfg["go_version"] == "" {
		t.Errorf("movement JSON config: %v", cfg)
	}
	if sv[1]["exact_cv"] != nil || sv[0]["exact_cv"] == nil {
		t.Errorf("exact_cv: ring %v, rendezvous %v; want a number and null", sv[0]["exact_cv"], sv[1]["exact_cv"])
	}
	if len(sv[0]["samples"].([]any)) != 6 || len(sv[0]["shares"].([]any)) != 5 {
		t.Errorf("spread JSON: %d samples, %d shares; want 6, 5", len(sv[0]["samples"].([]any)), len(sv[0]["shares"].([]any)))
	}
}

// The terminal tables: one line per result, fractions in percent (16.67%
// is 1/6 of 5 -> 6), a dash for a value the run does not have.
func TestTable(t *testing.T) {
	ms, ss := sampleResults(t, 1, "")
	var b bytes.Buffer
	if err := WriteMoveTable(&b, ms); err != nil {
		t.Fatal(err)
	}
	if err := WriteSpreadTable(&b, ss); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 6 || !strings.HasPrefix(lines[1], "ring ") || !strings.Contains(lines[1], "16.67%") {
		// 16.67% is the ideal fraction 1/6 of 5 -> 6.
		t.Errorf("tables:\n%s", b.String())
	}
	if !strings.Contains(lines[5], " - ") {
		t.Errorf("rendezvous spread row should show - for exact values: %q", lines[5])
	}
}

// readBench parses a benchfmt file and returns its results and units.
func readBench(t *testing.T, data []byte) ([]*benchfmt.Result, benchfmt.UnitMetadataMap) {
	t.Helper()
	r := benchfmt.NewReader(bytes.NewReader(data), "test.txt")
	var out []*benchfmt.Result
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.Result:
			out = append(out, rec.Clone())
		case *benchfmt.SyntaxError:
			t.Errorf("syntax error: %v", rec)
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return out, r.Units()
}

// Benchmark-format rows: one line per key set named by the configuration,
// the deterministic units marked assume=exact.
func TestBench(t *testing.T) {
	ms, ss := sampleResults(t, 1, "")
	var mb, sb bytes.Buffer
	if err := schema.WriteBench(&mb, ms); err != nil {
		t.Fatal(err)
	}
	if err := schema.WriteBench(&sb, ss); err != nil {
		t.Fatal(err)
	}
	res, units := readBench(t, mb.Bytes())
	if len(res) != 2*6 {
		t.Fatalf("%d movement results, want 12 (one per key set)", len(res))
	}
	if got := res[0].Name.String(); got != "Move/algo=ring/op=add/from=5/to=6" {
		t.Errorf("name %q", got)
	}
	if v, ok := res[0].Value("moved-frac"); !ok || v != ms[0].Samples[0].Moved {
		t.Errorf("moved-frac %v, %v; want %v", v, ok, ms[0].Samples[0].Moved)
	}
	if res[0].GetConfig("hash") != "xxhash" || res[0].GetConfig("commit") != "abc123" || res[0].GetConfig("keys") != "2000" {
		t.Errorf("config %q %q %q", res[0].GetConfig("hash"), res[0].GetConfig("commit"), res[0].GetConfig("keys"))
	}
	if units.Get("ideal-frac", "assume") == nil || units.Get("moved-frac", "assume") != nil {
		t.Error("ideal-frac should be declared exact, moved-frac not")
	}
	res, units = readBench(t, sb.Bytes())
	if len(res) != 12 || res[0].Name.String() != "Spread/algo=ring/nodes=5/vnodes=160" || res[6].Name.String() != "Spread/algo=rendezvous/nodes=5" {
		t.Fatalf("spread results: %d, first %q", len(res), res[0].Name)
	}
	if _, ok := res[6].Value("exact-cv"); ok {
		t.Error("rendezvous has an exact-cv metric")
	}
	if units.Get("exact-peak/mean", "assume") == nil || units.Get("peak/mean", "assume") != nil {
		t.Error("exact-peak/mean should be declared exact, peak/mean not")
	}
}

// TestBenchstat runs `go tool benchstat` (declared in go.mod) on two runs
// that differ in the key seed, and on two that differ in the hash, and
// checks that benchstat puts the two side by side in one table.
func TestBenchstat(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, seed uint64, hash string) string {
		ms, _ := sampleResults(t, seed, hash)
		var b bytes.Buffer
		if err := schema.WriteBench(&b, ms); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b, c := write("a.txt", 1, ""), write("b.txt", 2, ""), write("c.txt", 1, "fnv1a64")
	for _, args := range [][]string{{a, b}, {"-col", "hash", a, c}} {
		out, err := exec.Command("go", append([]string{"tool", "benchstat"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("benchstat %v: %v\n%s", args, err, out)
		}
		s := string(out)
		// One table per unit, each with a vs column and both algorithms.
		if strings.Count(s, "moved-frac") < 1 || !strings.Contains(s, "vs base") || !strings.Contains(s, "Move/algo=rendezvous/op=add/from=5/to=6") {
			t.Errorf("benchstat %v did not compare the runs:\n%s", args, s)
		}
		if strings.Contains(s, "need >= 6 samples") {
			t.Errorf("benchstat %v lacks samples:\n%s", args, s)
		}
		t.Logf("benchstat %v:\n%s", args, s)
	}
}
