package command

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/chbench/chbench/analysis/reference/published"
)

// When CHBENCH_MAIN is set the test binary acts as the chbench command, so
// tests can run it as a separate process. It then has one command more
// than chbench, test-crash, which panics in a goroutine of its own (no
// recover reaches it: the Go runtime ends the process), for the test of
// the crash status.
func TestMain(m *testing.M) {
	if os.Getenv("CHBENCH_MAIN") == "1" {
		commands["test-crash"] = command{"panics in a goroutine", plain(func([]string, io.Writer, io.Writer) error {
			done := make(chan bool)
			go func() { panic("test-crash") }()
			<-done
			return nil
		})}
		os.Exit(Main(os.Args[1:]))
	}
	os.Exit(m.Run())
}

func runCLI(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(args, &out, &errOut)
	return out.String(), errOut.String(), err
}

// Redis Cluster key slots (the published vectors): one "KEY<TAB>SLOT" line
// per argument, in order.
func TestSlotGolden(t *testing.T) {
	args, want := []string{"slot"}, ""
	for _, v := range published.All().KeySlots {
		args = append(args, v.Key)
		want += v.Key + "\t" + strconv.Itoa(v.Slot) + "\n"
	}
	out, _, err := runCLI(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// Jump's owners follow from the reference jump function; the key hash here
// is xxhash, so the golden values pin both.
func TestLocateFormat(t *testing.T) {
	out, _, err := runCLI(t, "locate", "-algo", "modulo", "-nodes", "1", "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	if want := "a\tnode-0\nb\tnode-0\n"; out != want {
		t.Errorf("got %q, want %q", out, want)
	}
}

// The same membership and key give the same owner in two separate
// processes, and for order-independent algorithms whatever order the nodes
// were listed in.
func TestLocateAcrossProcessesAndOrders(t *testing.T) {
	keys := []string{"user:1", "user:2", "session:abc", "x", "{tag}y", "", "longer-key-with-more-bytes-than-a-cache-line-0123456789abcdef"}
	locate := func(algo, ids string) string {
		cmd := exec.Command(os.Args[0], append([]string{"locate", "-algo", algo, "-node-ids", ids}, keys...)...)
		cmd.Env = append(os.Environ(), "CHBENCH_MAIN=1")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", algo, err)
		}
		return string(out)
	}
	for _, algo := range []string{"modulo", "ring", "rendezvous", "jump", "slots", "bounded"} {
		a := locate(algo, "a,b,c,d,e")
		if b := locate(algo, "a,b,c,d,e"); a != b {
			t.Errorf("%s: two processes disagree:\n%s\n%s", algo, a, b)
		}
		if strings.Count(a, "\n") != len(keys) {
			t.Errorf("%s: output %q", algo, a)
		}
		switch algo {
		case "ring", "rendezvous", "bounded":
			if c := locate(algo, "e,d,c,b,a"); a != c {
				t.Errorf("%s: node order changed owners:\n%s\n%s", algo, a, c)
			}
		}
	}
}

// Bad input to every command is a usage error whose message names the bad
// value.
func TestBadInput(t *testing.T) {
	cases := []struct {
		args []string
		want string // part of the error that names the bad value
	}{
		{[]string{"nope"}, `"nope"`},
		{[]string{"locate", "-algo", "ring", "-nodes", "0", "k"}, "nodes 0"},
		{[]string{"locate", "-algo", "ring", "-nodes", "3", "-vnodes", "0", "k"}, "vnodes 0"},
		{[]string{"locate", "-algo", "ring", "-nodes", "2", "-weights", "1,NaN", "k"}, "NaN"},
		{[]string{"locate", "-algo", "ring", "-nodes", "2", "-weights", "1,-2", "k"}, "-2"},
		{[]string{"locate", "-algo", "ring", "-nodes", "2", "-weights", "1,+Inf", "k"}, "Inf"},
		{[]string{"locate", "-algo", "ring", "-nodes", "2", "-weights", "1", "k"}, "1 entries for 2 nodes"},
		{[]string{"locate", "-algo", "ring", "-node-ids", "a,b,a", "k"}, `"a"`},
		{[]string{"locate", "-algo", "ring", "-nodes", "2", "-hash", "sha1", "k"}, `"sha1"`},
		{[]string{"locate", "-algo", "maglev", "-nodes", "2", "-table-size", "65536", "k"}, "65536"},
		{[]string{"locate", "-algo", "multiprobe", "-nodes", "2", "-probes", "0", "k"}, "probes 0"},
		{[]string{"locate", "-algo", "anchor", "-nodes", "3", "-capacity", "2", "k"}, "capacity 2 for 3 nodes"},
		{[]string{"locate", "-algo", "dx", "-nodes", "2", "-capacity", "-1", "k"}, "capacity -1"},
		{[]string{"locate", "-algo", "bounded", "-nodes", "2", "-eps", "0", "k"}, "eps 0"},
		{[]string{"locate", "-algo", "bounded", "-nodes", "2", "-eps", "-1", "k"}, "eps -1"},
		{[]string{"locate", "-algo", "bounded", "-nodes", "20", "-partitions", "10", "k"}, "20"},
		{[]string{"locate", "-algo", "slots", "-nodes", "20000", "k"}, "20000"},
		{[]string{"locate", "-algo", "ring", "-nodes", "2"}, "no keys"},
		{[]string{"locate", "-nodes", "2", "k"}, "-algo"},
		{[]string{"slot"}, "no keys"},
	}
	for _, c := range cases {
		_, _, err := runCLI(t, c.args...)
		if err == nil {
			t.Errorf("%v: no error", c.args)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %q does not name %q", c.args, err, c.want)
		}
	}
}

// -h prints the command's usage on stderr and returns flag.ErrHelp.
func TestHelp(t *testing.T) {
	for _, cmd := range []string{"locate", "slot", "move", "spread", "plot"} {
		_, stderr, err := runCLI(t, cmd, "-h")
		if !errors.Is(err, flag.ErrHelp) {
			t.Errorf("%s -h: %v", cmd, err)
		}
		if !strings.Contains(stderr, "usage: chbench "+cmd) {
			t.Errorf("%s -h printed %q", cmd, stderr)
		}
	}
}

// Every movement and spread result says which placement mode produced it
// (per-set by default, fixed on request) and names variants: jump's
// removal policy where a random node leaves, bounded's partitions. With
// -min-moves a point that cannot reach it within -max-keys is left out
// and listed on stderr.
func TestPlacementAndLabels(t *testing.T) {
	out, _, err := runCLI(t, "move", "-algo", "jump,bounded", "-from", "10", "-op", "add,remove-random", "-keys", "2000", "-sets", "2", "-format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{",per-set,jump,", ",per-set,jump (swap-last),", ",per-set,bounded (partitions),"} {
		if !strings.Contains(out, want) {
			t.Errorf("move csv lacks %q:\n%s", want, out)
		}
	}
	out, _, err = runCLI(t, "spread", "-algo", "ring", "-nodes", "5", "-keys", "2000", "-sets", "2", "-placement", "fixed", "-draws", "3", "-format", "json")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"placement": "fixed"`, `"placements": 3`, `"theory_peak_to_mean"`} {
		if !strings.Contains(out, want) {
			t.Errorf("spread json lacks %s", want)
		}
	}
	out, errOut, err := runCLI(t, "move", "-algo", "ring", "-from", "10,200", "-keys", "1000", "-sets", "2", "-max-keys", "20000", "-format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(out, "\n") != 2 || !strings.Contains(errOut, "left out") || !strings.Contains(errOut, "201000 keys per set") {
		t.Errorf("n = 200 needs 201,000 keys > 20,000: stdout\n%s\nstderr %q; want one row and a note", out, errOut)
	}
}
