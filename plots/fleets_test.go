package plots

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chbench/chbench/schema"
)

const reweightCSV = `algo,hash,vnodes,op,from,to,keys,sets,seed,moved_frac,moved_frac_lo,moved_frac_hi,ideal_frac,moved_over_ideal,collateral_frac,collateral_frac_lo,collateral_frac_hi
ring,xxhash,160,join,2,3,100,2,1,0.26,0.25,0.27,0.25,1.04,0,0,0
rendezvous,xxhash,160,join,2,3,100,2,1,0.25,0.24,0.26,0.25,1.0,0,0,0
ring,xxhash,10,reweight-5%-1-to-127,500,500,100,2,1,0.86,0.85,0.87,0.82,1.048780487804878,0.04,0.03,0.05
rendezvous,xxhash,10,reweight-5%-1-to-127,500,500,100,2,1,0.82,0.81,0.83,0.82,1.0,0,0,0
`

const replicationCSV = `algo,hash,vnodes,replicas,op,from,to,keys,sets,seed,pairs_moved_frac,pairs_moved_frac_lo,pairs_moved_frac_hi,all_lost_frac,all_lost_frac_lo,all_lost_frac_hi,ideal_frac
modulo,xxhash,160,1,remove-random,10,9,100,2,1,0.9,0.89,0.91,0.9,0.89,0.91,0.1
modulo,xxhash,160,3,remove-random,10,9,100,2,1,0.7,0.69,0.71,0.29,0.28,0.3,0.1
ring,xxhash,160,1,remove-random,10,9,100,2,1,0.1,0.09,0.11,0.1,0.09,0.11,0.1
ring,xxhash,160,3,remove-random,10,9,100,2,1,0.1,0.09,0.11,0,0,0,0.1
ring,xxhash,160,3,add,10,11,100,2,1,0.09,0.08,0.1,0,0,0,0.0909
`

// reweight.csv and replication.csv give the fleet-change, reweight and
// replication figures, with their ideal marks and captions.
func TestFleetFigures(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, schema.ReweightFile.Name), []byte(complete[schema.Move](t, reweightCSV)), 0o644)
	os.WriteFile(filepath.Join(dir, schema.ReplicationFile.Name), []byte(complete[schema.Replication](t, replicationCSV)), 0o644)
	files, err := RenderAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		if filepath.Ext(f) == ".png" {
			names = append(names, strings.TrimSuffix(filepath.Base(f), ".png"))
		}
	}
	want := []string{"fleet-changes", "fleet-changes-collateral", "reweight", "reweight-collateral",
		"replication-remove-random-n10", "replication-lost-remove-random-n10", "replication-add-n10"}
	if !slices.Equal(names, want) {
		t.Errorf("plots %v, want %v", names, want)
	}
	svg := func(name string) string {
		b, _ := os.ReadFile(filepath.Join(dir, schema.PlotsDir, name+".svg"))
		return string(b)
	}
	if s := svg("reweight"); !strings.Contains(s, "5%: 1 -&gt; 127") || !strings.Contains(s, "fraction of the 500 nodes reweighted") {
		t.Error("reweight.svg lacks its group label or axis label")
	}
	if s := svg("replication-lost-remove-random-n10"); !strings.Contains(s, ">modulo<") || strings.Contains(s, "omitted") || !strings.Contains(s, "Keys re-homed entirely") {
		t.Error("replication-lost: want modulo drawn on the log axis, not omitted, and the title naming keys re-homed entirely")
	}
	if got := changeLabel("reweight-50%-to-75", 40, 40); got != "50%: -> 75" {
		t.Errorf("changeLabel = %q", got)
	}
	// A duplicate bar is an error naming the plot, the algorithm and the bar.
	os.WriteFile(filepath.Join(dir, schema.ReplicationFile.Name), []byte(complete[schema.Replication](t, replicationCSV+"ring,xxhash,160,3,add,10,11,100,2,1,0.09,0.08,0.1,0,0,0,0.0909\n")), 0o644)
	if _, err := RenderAll(dir); err == nil || !strings.Contains(err.Error(), "replication-add-n10: two rows give ring for R = 3") {
		t.Errorf("duplicate row: err = %v", err)
	}
}
