package command

import (
	"bytes"
	"encoding/csv"
	"errors"
	"github.com/chbench/chbench/cmd/internal/cli"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// chbenchProc runs the chbench command (this test binary as main) in a
// child process with args, the extra environment env and stdin, and
// returns its exit status and output.
func chbenchProc(t *testing.T, env []string, stdin string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), "CHBENCH_MAIN=1"), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
}

// writeTemp writes content to name in a new temporary directory and
// returns its path.
func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// No command writes onto a file it reads: an -o that is (by os.SameFile,
// so also through a hard link or another spelling) a key file, members
// file, request log, profile or one of the result files the report reads
// is a usage error before any work, naming both, and the input is left as
// it was.
func TestNoOutputOverwritesAnInput(t *testing.T) {
	keys := writeTemp(t, "keys.csv", "a\nb\nc\nd\n")
	members := writeTemp(t, "m.csv", "a\nb\nc\n")
	log := writeTemp(t, "log.txt", "a\nb\nc\nd\n")
	link := filepath.Join(filepath.Dir(keys), "link.csv")
	if err := os.Link(keys, link); err != nil {
		t.Fatal(err)
	}
	res := t.TempDir()
	movement := filepath.Join(res, "movement.csv")
	copyFile(t, filepath.Join(reportRunDir, "movement.csv"), movement)
	profile := writeTemp(t, "p.txt", "name = p\n")
	strip := func(p string) string { return strings.TrimSuffix(p, filepath.Ext(p)) }
	// A trace and a dump named as -o's table file: -trace and the
	// positional dump are inputs like -keyfile.
	traceTable := filepath.Join(t.TempDir(), "t.table")
	copyFile(t, "../../../trace/testdata/twitter.csv", traceTable)
	dumpTable := filepath.Join(t.TempDir(), "d.table")
	copyFile(t, "testdata/dump-ketama.tsv", dumpTable)
	for _, c := range []struct {
		input string
		args  []string
	}{
		{keys, []string{"spread", "-algo", "ring", "-nodes", "3", "-keyfile", keys, "-sets", "2", "-format", "csv", "-o", strip(keys)}},
		{keys, []string{"spread", "-algo", "ring", "-nodes", "3", "-keyfile", keys, "-sets", "2", "-format", "csv", "-o", filepath.Dir(link) + "/./" + filepath.Base(strip(link))}},
		{members, []string{"move", "-algo", "ring", "-members", members, "-leave", "a", "-format", "csv", "-o", strip(members)}},
		{log, []string{"load", "-algo", "ring", "-nodes", "3", "-requestlog", log, "-sets", "2", "-format", "bench", "-o", strip(log)}},
		{movement, []string{"report", "-dir", res, "-o", movement}},
		{movement, []string{"report", "-dir", reportRunDir, "-compare", res, "-o", movement}},
		{profile, []string{"report", "-dir", res, "-profile", profile, "-o", profile}},
		{traceTable, []string{"switch", "-from", "ketama", "-to", "ring", "-nodes", "3", "-sets", "1", "-trace", traceTable, "-trace-format", "twitter", "-o", strip(traceTable)}},
		{traceTable, []string{"simulate", "-algo", "ring", "-nodes", "3", "-trace", traceTable, "-trace-format", "twitter", "-o", strip(traceTable)}},
		{dumpTable, []string{"dump-diff", "-algo", "ring", "-node-ids", "a,b", "-o", strip(dumpTable), dumpTable}},
	} {
		before, _ := os.ReadFile(c.input)
		code, _, stderr := chbenchProc(t, nil, "", c.args...)
		after, _ := os.ReadFile(c.input)
		if code != 2 || !strings.Contains(stderr, "writing it would replace what") {
			t.Errorf("chbench %s: exit %d, want 2 and the input named:\n%s", strings.Join(c.args, " "), code, stderr)
		}
		if !bytes.Equal(before, after) {
			t.Errorf("chbench %s: the input %s was changed", strings.Join(c.args, " "), c.input)
		}
	}
	// Standard input is an input too: a key file given as "-" from a
	// redirected file.
	cmd := exec.Command(os.Args[0], "spread", "-algo", "ring", "-nodes", "3", "-keyfile", "-", "-sets", "2", "-format", "csv", "-o", strip(keys))
	cmd.Env = append(os.Environ(), "CHBENCH_MAIN=1")
	f, err := os.Open(keys)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd.Stdin = f
	out, _ := cmd.CombinedOutput()
	if cmd.ProcessState.ExitCode() != 2 || !strings.Contains(string(out), "is the input standard input") {
		t.Errorf("-keyfile - < keys.csv -o keys: exit %d:\n%s", cmd.ProcessState.ExitCode(), out)
	}
}

// reportRunDir holds real results (the report's test data).
const reportRunDir = "../../../report/testdata/run"

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// The copy of a streamed key file has no name: a chbench killed by
// SIGKILL while it copies standard input leaves nothing in $TMPDIR.
func TestKilledStreamCopyLeavesNothing(t *testing.T) {
	tmp := t.TempDir()
	cmd := exec.Command(os.Args[0], "spread", "-algo", "ring", "-nodes", "3", "-keyfile", "-", "-sets", "2")
	cmd.Env = append(os.Environ(), "CHBENCH_MAIN=1", "TMPDIR="+tmp)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	line := []byte(strings.Repeat("k", 100) + "\n")
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) { // about 1 s of keys, then the kill mid-copy
		if _, err := in.Write(line); err != nil {
			break
		}
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Wait()
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		var names []string
		for _, e := range left {
			names = append(names, e.Name())
		}
		t.Errorf("SIGKILL during the copy of standard input left %v in $TMPDIR", names)
	}
}

// Two key sets of 20 keys give Student-t intervals (t(0.975, 1) = 12.7)
// far wider than the domain of a fraction: every interval written is
// clipped to it (a moved fraction of one step, shares and hit ratios in
// [0, 1], database reads at most the read rate, a peak-to-mean ratio of
// two equal nodes at most 2: one node holding everything), and the run
// still succeeds. Checked on the CSV cells by column name.
func TestIntervalsInsideTheirDomain(t *testing.T) {
	for _, c := range []struct {
		args []string
		max  map[string]float64 // column -> its domain's top
	}{
		{[]string{"move", "-algo", "ring", "-from", "1,2", "-op", "add", "-keys", "20", "-sets", "2", "-min-moves", "0", "-vnodes", "1", "-format", "csv"},
			map[string]float64{"moved_frac_hi": 1, "net_moved_frac_hi": 1}},
		{[]string{"storm", "-algo", "ring", "-from", "2", "-to", "3", "-keys", "20", "-sets", "2", "-vnodes", "1", "-format", "csv"},
			map[string]float64{"moved_frac_hi": 1, "hit_after_hi": 0.95, "db_reads_hi": 50000}},
		{[]string{"spread", "-algo", "ring", "-nodes", "2", "-keys", "20", "-sets", "2", "-vnodes", "1", "-format", "csv"},
			map[string]float64{"max_share_hi": 1, "min_share_hi": 1, "cv_hi": 1, "peak_to_mean_hi": 2}}, // cv of 2 loads: at most sqrt(2-1), peak-to-mean at most 2
		{[]string{"load", "-algo", "all", "-nodes", "2", "-keys", "20", "-requests", "30", "-sets", "2", "-zipf", "0", "-format", "csv"},
			map[string]float64{"max_share_hi": 1, "hot_share_hi": 1, "cv_hi": 1, "peak_to_mean_hi": 2}},
		{[]string{"bounded", "-nodes", "2", "-keys", "20", "-requests", "30", "-sets", "2", "-eps", "0.1", "-format", "csv"},
			map[string]float64{"moved_leave_frac_hi": 1, "away_frac_hi": 1, "moved_join_frac_hi": 1, "peak_to_mean_hi": 2}},
	} {
		out, stderr, err := runCLI(t, c.args...)
		if err != nil {
			t.Errorf("chbench %s: %v\n%s", strings.Join(c.args, " "), err, stderr)
			continue
		}
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil || len(recs) < 2 {
			t.Fatalf("chbench %s: %v\n%s", strings.Join(c.args, " "), err, out)
		}
		for j, name := range recs[0] {
			top, ok := c.max[name]
			lo := strings.HasSuffix(name, "_lo")
			if !ok && !lo {
				continue
			}
			for _, rec := range recs[1:] {
				if rec[j] == "" {
					continue
				}
				x, err := strconv.ParseFloat(rec[j], 64)
				if err != nil {
					t.Fatalf("%s %s: %v", c.args[0], name, err)
				}
				if (ok && x > top) || (lo && x < 0) {
					t.Errorf("chbench %s: %s = %v, outside [0, %v]", c.args[0], name, x, top)
				}
			}
		}
	}
}

// A flag the chosen mode does not consume is a usage error naming it,
// before any work, never silently ignored; and a -live rate at which the
// reads cannot end within -live-timeout is refused before any server
// starts (memcached is not needed to see it).
func TestUnusedFlagsAreRefused(t *testing.T) {
	keys := writeTemp(t, "keys.txt", "a\nb\nc\nd\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"storm", "-algo", "ring", "-keys", "100", "-sets", "2", "-points", "5"}, "-points is not used without -timeline"},
		{[]string{"storm", "-algo", "ring", "-keys", "100", "-sets", "2", "-span", "3"}, "-span is not used without -timeline or -live"},
		{[]string{"storm", "-algo", "ring", "-keys", "100", "-sets", "2", "-live-rate", "1"}, "-live-rate is not used without -live"},
		{[]string{"storm", "-live", "-algo", "ring", "-working-set", "2000", "-live-reads", "4000", "-live-rate", "1e-10"}, "over -live-timeout"},
		{[]string{"move", "-algo", "ring", "-from", "3", "-to", "4", "-keyfile", keys, "-sets", "2", "-keys", "7"}, "-keys is not used with -keyfile"},
		{[]string{"spread", "-algo", "ring", "-nodes", "3", "-keyfile", keys, "-sets", "2", "-keys-kind", "uuid"}, "-keys-kind is not used with -keyfile"},
		{[]string{"load", "-algo", "ring", "-nodes", "3", "-requestlog", keys, "-sets", "2", "-zipf", "3"}, "-zipf is not used with -requestlog"},
		{[]string{"load", "-algo", "ring", "-nodes", "3", "-keys", "100", "-requests", "100", "-sets", "2", "-inflight", "5"}, "-inflight is not used without the bounded-request placement"},
		{[]string{"load", "-algo", "ring", "-nodes", "3", "-keys", "100", "-requests", "100", "-sets", "2", "-eps", "3"}, "-eps is not used with -algo ring: none of them bounds loads"},
		// spread's layout flags: jump places no virtual nodes and has no
		// random layout; crush and modulo neither.
		{[]string{"spread", "-algo", "jump", "-nodes", "3", "-keys", "100", "-sets", "2", "-vnodes", "7"}, "-vnodes is not used with -algo jump: none of them places virtual nodes"},
		{[]string{"spread", "-algo", "jump,modulo", "-nodes", "3", "-keys", "100", "-sets", "2", "-placement", "fixed"}, "-placement is not used with -algo jump,modulo: none of them has a random layout"},
		{[]string{"spread", "-algo", "crush", "-nodes", "3", "-keys", "100", "-sets", "2", "-draws", "9"}, "-draws is not used with -algo crush: none of them has a random layout"},
		// The same rule for every command with an algorithm list: a
		// configuration flag none of the chosen algorithms reads.
		{[]string{"move", "-algo", "ring", "-from", "10", "-to", "11", "-keys", "100", "-min-moves", "0", "-sets", "2", "-eps", "0.5"}, "-eps is not used with -algo ring: none of them bounds loads (c = 1 + eps) (those that do: bounded)"},
		{[]string{"move", "-algo", "jump", "-from", "10", "-to", "11", "-keys", "100", "-min-moves", "0", "-sets", "2", "-vnodes", "10"}, "-vnodes is not used with -algo jump: none of them places virtual nodes (those that do: ring, bounded)"},
		{[]string{"move", "-algo", "ring", "-from", "10", "-to", "11", "-keys", "100", "-min-moves", "0", "-sets", "2", "-probes", "5"}, "-probes is not used with -algo ring: none of them probes (those that do: multiprobe)"},
		{[]string{"move", "-algo", "crush", "-from", "10", "-to", "11", "-keys", "100", "-min-moves", "0", "-sets", "2", "-placement", "fixed"}, "-placement is not used with -algo crush: none of them has a random layout"},
		{[]string{"storm", "-algo", "jump", "-keys", "100", "-sets", "2", "-vnodes", "10"}, "-vnodes is not used with -algo jump"},
		{[]string{"replication", "-algo", "jump", "-from", "10", "-keys", "100", "-sets", "2", "-eps", "3"}, "-eps is not used with -algo jump"},
		{[]string{"domains", "-algo", "jump", "-nodes", "6", "-racks", "3", "-keys", "100", "-sets", "2", "-capacity", "40"}, "-capacity is not used with -algo jump: none of them has a fixed number of buckets (those that do: anchor, dx)"},
		{[]string{"propagate", "-algo", "jump", "-keys", "100", "-table-size", "101"}, "-table-size is not used with -algo jump: none of them builds a lookup table (those that do: maglev)"},
		{[]string{"switch", "-from", "jump", "-to", "modulo", "-nodes", "4", "-keys", "100", "-vnodes", "3"}, "-vnodes is not used with -from/-to jump,modulo"},
		{[]string{"locate", "-algo", "slots", "-nodes", "3", "-hash", "md5", "k"}, "-hash is not used with -algo slots: none of them hashes keys with -hash"},
		{[]string{"simulate", "-algo", "jump", "-nodes", "3", "-partitions", "64"}, "-partitions is not used with -algo jump: none of them places fixed partitions"},
		// A 0 the libraries read as their default is out of the flag's
		// range when a user gives it.
		{[]string{"conformance", "-algo", "ring", "-keys", "0"}, "-keys 0: need 1000 to 100000000"},
		{[]string{"workload", "-clients", "0", "-requests", "10"}, "-clients 0: need 1 to 1048576"},
	} {
		_, _, err := runCLI(t, c.args...)
		if !cli.IsUsage(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("chbench %s: %v, want a usage error containing %q", strings.Join(c.args, " "), err, c.want)
		}
	}
}

// With one key set (one replay) a Student-t interval cannot be computed:
// every command writes its interval columns as missing (empty CSV cells,
// JSON null) and its tables say "[no interval]", never a zero-width
// [mean, mean]; the means are still written. Checked on every _lo and _hi
// column of each command's CSV.
func TestOneKeySetHasNoInterval(t *testing.T) {
	for _, args := range [][]string{
		{"move", "-algo", "ring", "-from", "4", "-op", "add", "-keys", "200", "-sets", "1"},
		{"storm", "-algo", "ring", "-from", "4", "-to", "5", "-keys", "200", "-sets", "1"},
		{"storm", "-algo", "ring", "-from", "4", "-to", "5", "-keys", "200", "-sets", "1", "-timeline"},
		{"spread", "-algo", "ring", "-nodes", "4", "-keys", "200", "-sets", "1"},
		{"load", "-algo", "ring", "-nodes", "4", "-keys", "200", "-requests", "300", "-sets", "1"},
		{"bounded", "-nodes", "4", "-keys", "200", "-requests", "300", "-sets", "1"},
		{"replication", "-algo", "ring", "-replicas", "2", "-from", "5", "-op", "add", "-keys", "200", "-sets", "1"},
		{"switch", "-from", "ring", "-to", "jump", "-nodes", "5", "-keys", "200", "-sets", "1"},
		{"domains", "-algo", "ring", "-nodes", "6", "-racks", "3", "-replicas", "2", "-keys", "200", "-sets", "1"},
		{"domains", "-algo", "ring", "-nodes", "6", "-racks", "3", "-replicas", "2", "-keys", "200", "-sets", "1", "-changes"},
		{"domains", "-algo", "ring", "-nodes", "6", "-racks", "3", "-replicas", "2", "-keys", "200", "-sets", "1", "-ranks"},
		{"domains", "-algo", "ring", "-nodes", "12", "-racks", "6", "-zones", "3", "-replicas", "2", "-keys", "200", "-sets", "1", "-changes"}, // copies across zones too
		{"propagate", "-algo", "ring", "-from", "5", "-op", "add", "-keys", "200", "-replays", "1"},
		{"propagate", "-algo", "ring", "-from", "5", "-op", "add", "-keys", "200", "-replays", "1", "-cache"},
	} {
		name := strings.Join(args, " ")
		out, stderr, err := runCLI(t, append(args, "-format", "csv")...)
		if err != nil {
			t.Errorf("chbench %s: %v\n%s", name, err, stderr)
			continue
		}
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil || len(recs) < 2 {
			t.Fatalf("chbench %s: %v\n%s", name, err, out)
		}
		bounds := 0
		for j, col := range recs[0] {
			if !strings.HasSuffix(col, "_lo") && !strings.HasSuffix(col, "_hi") {
				continue
			}
			bounds++
			for _, rec := range recs[1:] {
				if rec[j] != "" {
					t.Errorf("chbench %s: %s = %q with one key set, want it missing (empty)", name, col, rec[j])
					break
				}
			}
		}
		if bounds == 0 {
			t.Errorf("chbench %s: no interval columns in %q", name, recs[0])
		}
		if slices.Contains(args, "-timeline") { // a CSV-only output
			continue
		}
		table, stderr, err := runCLI(t, args...)
		if err != nil {
			t.Errorf("chbench %s (table): %v\n%s", name, err, stderr)
		} else if !strings.Contains(table, "[no interval]") {
			t.Errorf("chbench %s: the table does not say [no interval]:\n%s", name, table)
		}
	}
	js, stderr, err := runCLI(t, "move", "-algo", "ring", "-from", "4", "-op", "add", "-keys", "200", "-sets", "1", "-format", "json")
	if err != nil || !strings.Contains(js, `"moved_frac_lo": null`) || !strings.Contains(js, `"moved_frac_hi": null`) {
		t.Errorf("move -format json with one set: %v %s\n%s", err, stderr, js)
	}
}

// A report of one-key-set results says so once in "The run", and its
// takeaways and picks weigh no interval: no "contains the ideal" count,
// no "clearly above" from values without intervals.
func TestReportOfOneKeySet(t *testing.T) {
	dir := t.TempDir()
	if _, stderr, err := runCLI(t, "move", "-algo", "all", "-from", "10", "-op", "add,remove-random", "-keys", "2000", "-sets", "1",
		"-format", "csv", "-o", filepath.Join(dir, "movement")); err != nil {
		t.Fatalf("move: %v\n%s", err, stderr)
	}
	md := reportOf(t, dir)
	for _, want := range []string{"- **Warning**: no 95% intervals in `movement.csv`", "(one key set: no 95% intervals)"} {
		if !strings.Contains(md, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	for _, bad := range []string{"the 95% interval contains the ideal", "clearly above the lowest"} {
		if strings.Contains(md, bad) {
			t.Errorf("the report says %q of values without intervals", bad)
		}
	}
	// Rules that take a node count from a file the run lacks say so.
	for _, bad := range []string{"a random node of 0 fails", "at 0 nodes"} {
		if strings.Contains(md, bad) {
			t.Errorf("the report says %q, a node count of a file not in the run", bad)
		}
	}
}

// A plot drawn from result files since replaced is stale: the report
// embeds it while spread.csv is the one it was drawn from, and none once
// spread.csv is rewritten, saying which file changed; plotting again
// makes it current.
func TestReportRefusesPlotsOfReplacedResults(t *testing.T) {
	dir := t.TempDir()
	spread := func(nodes string) {
		t.Helper()
		if _, stderr, err := runCLI(t, "spread", "-algo", "ring,jump", "-nodes", nodes, "-keys", "2000", "-sets", "2", "-draws", "0",
			"-format", "csv", "-o", filepath.Join(dir, "spread")); err != nil {
			t.Fatalf("spread: %v\n%s", err, stderr)
		}
	}
	report := func() string { return reportOf(t, dir) }
	plot := func() {
		t.Helper()
		if _, stderr, err := runCLI(t, "plot", "-dir", dir); err != nil {
			t.Fatalf("plot: %v\n%s", err, stderr)
		}
	}
	const embed = "![spread-peak-to-mean](plots/spread-peak-to-mean.png)"
	spread("10")
	plot()
	if md := report(); !strings.Contains(md, embed) {
		t.Fatalf("the report of freshly plotted results does not embed the spread plot")
	}
	spread("50")
	md := report()
	if strings.Contains(md, embed) || !strings.Contains(md, "spread.csv changed since `chbench plot` ran") {
		t.Errorf("after spread.csv was rewritten the report still embeds its old plot, or does not say why not")
	}
	plot()
	if md := report(); !strings.Contains(md, embed) {
		t.Errorf("after plotting again the report does not embed the spread plot")
	}
}

// reportOf runs chbench report on dir, writing dir/REPORT.md, and returns
// it.
func reportOf(t *testing.T, dir string) string {
	t.Helper()
	out := filepath.Join(dir, "REPORT.md")
	if _, stderr, err := runCLI(t, "report", "-dir", dir, "-o", out); err != nil {
		t.Fatalf("report: %v\n%s", err, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
