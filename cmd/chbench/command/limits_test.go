package command

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chbench/chbench/cmd/internal/cli"
)

// wantCLIError runs chbench in-process and checks that it fails with an
// error containing every part, without writing results.
func wantCLIError(t *testing.T, args []string, parts ...string) {
	t.Helper()
	out, _, err := runCLI(t, args...)
	if err == nil {
		t.Errorf("chbench %s: no error, want one naming %q", strings.Join(args, " "), parts)
		return
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("chbench %s: error %q does not name %q", strings.Join(args, " "), err, p)
		}
	}
	if out != "" {
		t.Errorf("chbench %s: wrote %q before failing", strings.Join(args, " "), out)
	}
}

// Weights whose total overflows or whose share underflows are refused by
// every algorithm the same way, naming the weight, as a usage error and
// not a panic in the analysis.
func TestWeightsOutOfRangeRefused(t *testing.T) {
	for _, algo := range []string{"modulo", "jump", "rendezvous", "ring", "slots", "bounded"} {
		wantCLIError(t, []string{"spread", "-algo", algo, "-nodes", "2", "-weights", "1e308,1e308", "-keys", "10", "-sets", "1"},
			"weights sum to +Inf", "1e+308")
	}
	wantCLIError(t, []string{"spread", "-algo", "rendezvous", "-nodes", "3", "-weights", "5e-324,1,1", "-keys", "10", "-sets", "1"},
		"weight 5e-324", "2^-53")
	wantCLIError(t, []string{"locate", "-algo", "rendezvous", "-weights", "1e308,1e308", "-nodes", "2", "k"}, "1e+308")
}

// Structures that cannot fit (a ring of 10^6 nodes; one node with 2^28
// virtual nodes) are refused against the memory budget (-mem, default 2
// GiB) before anything is allocated: their memory is estimated from the
// bytes the code allocates per point, entry and counter, and the error
// states them.
func TestMemoryBudgetRefusesUpFront(t *testing.T) {
	wantCLIError(t, []string{"locate", "-algo", "ring", "-nodes", "1000000", "k"}, "160000000 virtual nodes", "memory budget of 2 GiB", "-mem")
	wantCLIError(t, []string{"locate", "-algo", "ring", "-nodes", "1", "-vnodes", "268435456", "k"}, "268435456 virtual nodes", "2 GiB")
	wantCLIError(t, []string{"spread", "-algo", "ring", "-nodes", "1048576", "-keys", "10", "-sets", "1"}, "ring on 1048576 nodes", "2 GiB")
	// The budget is the user's: a smaller one refuses a smaller ring, naming it.
	wantCLIError(t, []string{"locate", "-algo", "ring", "-nodes", "10000", "-mem", "16MiB", "k"}, "16 MiB")
	for _, bad := range []string{"", "0", "-1GiB", "2GB", "1KiB", "NaN"} {
		wantCLIError(t, []string{"locate", "-algo", "ring", "-nodes", "3", "-mem", bad, "k"}, "-mem")
	}
	out, _, err := runCLI(t, "locate", "-algo", "ring", "-nodes", "10000", "-vnodes", "200", "-mem", "4GiB", "k")
	if err != nil || !strings.HasPrefix(out, "k\tnode-") {
		t.Errorf("locate with -mem 4GiB: %q, %v", out, err)
	}
}

// A long scenario's chain of placements is streamed within the budget: a
// 1,000-node shrink in 4 MiB, far below the ~100 MiB its chain takes held
// at once, gives the same output as with the default budget.
func TestScenarioChainStreamsWithinBudget(t *testing.T) {
	args := []string{"move", "-algo", "modulo", "-from", "1000", "-op", "shrink-lifo", "-keys", "300", "-sets", "2", "-format", "csv", "-commit", "x"}
	want, _, err := runCLI(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := runCLI(t, append(args, "-mem", "4MiB")...)
	if err != nil || got != want {
		t.Errorf("shrink-lifo in 4 MiB: %v\n%s\nwant\n%s", err, got, want)
	}
}

// Standard input as the key file, as /dev/stdin or "-" (a stream that
// can be read once), gives the same result as the same keys in a regular
// file: the stream is copied once and every pass reads the copy.
func TestKeyFileFromStandardInput(t *testing.T) {
	var keys strings.Builder
	for i := 1; i <= 10000; i++ {
		fmt.Fprintf(&keys, "%d\n", i)
	}
	path := filepath.Join(t.TempDir(), "keys.txt")
	if err := os.WriteFile(path, []byte(keys.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	args := func(kf string) []string {
		return []string{"move", "-algo", "ring", "-from", "10", "-to", "11", "-keyfile", kf, "-sets", "2", "-format", "csv", "-commit", "x"}
	}
	want, _, err := runCLI(t, args(path)...)
	if err != nil {
		t.Fatal(err)
	}
	want = strings.ReplaceAll(want, ","+path+",", ",KEYFILE,")
	for _, kf := range []string{"/dev/stdin", "-"} {
		cmd := exec.Command(os.Args[0], args(kf)...)
		cmd.Env = append(os.Environ(), "CHBENCH_MAIN=1")
		cmd.Stdin = strings.NewReader(keys.String())
		out, err := cmd.Output()
		if got := strings.ReplaceAll(string(out), ","+kf+",", ",KEYFILE,"); err != nil || got != want || !strings.Contains(want, ",KEYFILE,") {
			t.Errorf("-keyfile %s from a pipe: %v\n%s\nwant\n%s", kf, err, got, want)
		}
	}
}

// An explicit empty value is refused by every flag of every command,
// naming the flag: -hash "" must not mean the default hash, -weights ""
// all 1, or -op "" add; leaving a flag out is how to ask for its default.
func TestExplicitEmptyValuesRefused(t *testing.T) {
	for _, c := range [][]string{
		{"locate", "-algo", "ring", "-nodes", "3", "-hash", "", "k"},
		{"locate", "-algo", "ring", "-nodes", "3", "-weights", "", "k"},
		{"locate", "-algo", "ring", "-nodes", "3", "-node-ids", " ", "k"},
		{"locate", "-algo", "", "-nodes", "3", "k"},
		{"move", "-algo", "ring", "-from", "10", "-op", ""},
		{"move", "-algo", "ring", "-from", "10", "-hash", ""},
		{"move", "-algo", "ring", "-from", ""},
		{"move", "-algo", "ring", "-from", "10", "-keyfile", ""},
		{"move", "-algo", "ring", "-from", "10", "-commit", ""},
		{"move", "-algo", "ring", "-from", "10", "-format", ""},
		{"move", "-algo", "ring", "-from", "10", "-o", ""},
		{"move", "-algo", "", "-from", "10"},
		{"spread", "-algo", "ring", "-nodes", "3", "-weights", ""},
		{"spread", "-algo", "ring", "-nodes", "", "-keys", "10"},
		{"spread", "-algo", "ring", "-nodes", "3", "-vnodes", ""},
		{"plot", "-dir", ""},
	} {
		var name string
		for i, a := range c {
			if strings.TrimSpace(a) == "" {
				name = c[i-1]
			}
		}
		out, _, err := runCLI(t, c...)
		if err == nil || !strings.Contains(err.Error(), name+" ") || !strings.Contains(err.Error(), "empty value") {
			t.Errorf("chbench %q: error %v, want one naming %s as empty", c, err, name)
		}
		if code := cli.ExitCode(err, io.Discard); code != 2 {
			t.Errorf("chbench %q: exit status %d, want 2 (usage)", c, code)
		}
		if out != "" {
			t.Errorf("chbench %q wrote %q", c, out)
		}
	}
}

// The noise floor of a spread over many nodes is computed, not simulated
// (from 1,000 equal-weight nodes on: analysis.AnalyticNoiseNodes), so
// `spread -algo modulo -nodes 1048576 -keys 10 -sets 1` is quick, and the
// output says which method gave it.
func TestNoiseMethodInOutput(t *testing.T) {
	out, _, err := runCLI(t, "spread", "-algo", "modulo", "-nodes", "1000", "-keys", "10", "-sets", "1", "-format", "csv", "-commit", "x")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	col := slices.Index(strings.Split(lines[0], ","), "noise_method")
	if len(lines) != 2 || col < 0 || strings.Split(lines[1], ",")[col] != "analytic" {
		t.Errorf("spread on 1000 nodes:\n%s\nwant a noise_method column saying analytic", out)
	}
	out, _, err = runCLI(t, "spread", "-algo", "modulo", "-nodes", "10", "-keys", "100", "-sets", "1", "-commit", "x")
	if err != nil || !strings.Contains(out, "simulated") {
		t.Errorf("spread on 10 nodes, table:\n%s\n%v; want it to say simulated", out, err)
	}
}

// Every value written into an output format must be valid in it: a newline
// in -commit passed a forged result line into -format bench, and a key
// with a newline or tab broke locate's and slot's one line per key.
func TestValuesValidInOutputFormat(t *testing.T) {
	forged := "abc\nBenchmarkFake/algo=x/nodes=1 1 99 moved-frac"
	wantCLIError(t, []string{"move", "-algo", "ring", "-from", "3", "-to", "4", "-keys", "10", "-sets", "1", "-format", "bench", "-commit", forged}, "commit", "control character")
	wantCLIError(t, []string{"spread", "-algo", "ring", "-nodes", "3", "-keys", "10", "-sets", "1", "-commit", "a\tb"}, "control character")
	wantCLIError(t, []string{"locate", "-algo", "ring", "-nodes", "3", "ok", "a\nb"}, `"a\nb"`, "key 2")
	wantCLIError(t, []string{"slot", "a\tb"}, `"a\tb"`, "key 1")
}
