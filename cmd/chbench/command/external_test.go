package command

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chbench/chbench/algorithms/external"
	"github.com/chbench/chbench/cmd/internal/cli"
	"github.com/chbench/chbench/internal/exampleprog"
)

// examplePlacements returns the -algo entries of the two shipped example
// programs: the Python textbook ring and the C jump hash (compiled here).
func examplePlacements(t *testing.T) string {
	t.Helper()
	py := exampleprog.PythonCommand(t, "examples/python/ring.py")
	c := exampleprog.Quote(exampleprog.BuildC(t, "examples/c/jump.c"))
	return external.Prefix + py + "," + external.Prefix + c
}

// The example programs run under every analysis beside chbench's own
// algorithms, their rows labelled by the names their handshakes give
// (textbook-ring, c-jump; c-jump's rows where a node other than the last
// leaves say it declared leave=last), byte for byte as the golden files
// hold: the programs are deterministic and chbench sends them the same
// requests in every run.
func TestGoldenExternal(t *testing.T) {
	progs := examplePlacements(t)
	common := []string{"-sets", "2", "-seed", "5", "-commit", "golden"}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"move-exec-table", []string{"move", "-algo", "ring,jump," + progs, "-from", "10", "-op", "add,remove-random", "-keys", "3000", "-min-moves", "0"}},
		{"move-exec-csv", []string{"move", "-algo", "jump," + progs, "-from", "5", "-to", "6", "-keys", "3000", "-format", "csv"}},
		{"spread-exec-table", []string{"spread", "-algo", "ring," + progs, "-nodes", "10", "-keys", "5000", "-draws", "0"}},
		{"replication-exec-table", []string{"replication", "-algo", "ring," + progs, "-from", "10", "-op", "remove-random", "-replicas", "3", "-keys", "2000"}},
		{"storm-exec-table", []string{"storm", "-algo", "ring," + progs, "-from", "4", "-to", "5", "-keys", "3000"}},
		{"load-exec-table", []string{"load", "-algo", "ring," + progs, "-nodes", "10", "-keys", "2000", "-requests", "10000", "-zipf", "0.99"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			stdout := golden(t, c.name, append(c.args, common...)...)
			if !bytes.Contains(stdout, []byte("textbook-ring")) || !bytes.Contains(stdout, []byte("c-jump")) {
				t.Errorf("%s: no rows of textbook-ring and c-jump", c.name)
			}
		})
	}
}

// A program that dies in the middle of a run ends the command with an
// error naming the program, the request, the batch and its keys, how the
// program ended and the end of its standard error; the results file of
// an earlier run stays as it was.
func TestExternalFailureKeepsEarlierResults(t *testing.T) {
	dies := external.Prefix + exampleprog.PythonCommand(t, "cmd/chbench/command/testdata/dies.py")
	prefix := filepath.Join(t.TempDir(), "movement")
	if err := os.WriteFile(prefix+".csv", []byte("earlier results\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err := run([]string{"move", "-algo", "ring," + dies, "-from", "3", "-to", "4", "-keys", "2000", "-sets", "2", "-format", "csv", "-o", prefix}, &stdout, &stderr)
	if !errors.Is(err, external.ErrExited) {
		t.Fatalf("move with a program that dies: %v, want an error wrapping external.ErrExited", err)
	}
	for _, want := range []string{"external dies: locate batch 1 of 1 (keys 0 to ", "of membership 2", "the program exited (exit status 3)", "dies.py: giving up after two keys"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if b, _ := os.ReadFile(prefix + ".csv"); string(b) != "earlier results\n" {
		t.Errorf("the earlier results file now holds %q", b)
	}
}

// The end of the context (the command line's interrupt) stops a program
// that has stopped answering: the command returns an error wrapping
// external.ErrInterrupted long before the program's 10-second reply
// deadline, instead of hanging.
func TestExternalInterrupt(t *testing.T) {
	hangs := external.Prefix + exampleprog.PythonCommand(t, "cmd/chbench/command/testdata/dies.py") + " hang"
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		var stdout, stderr bytes.Buffer
		// Membership 1 is answered; the first lookup of membership 2 hangs.
		done <- Run(ctx, []string{"move", "-algo", hangs, "-from", "3", "-to", "4", "-keys", "2000", "-sets", "2"}, &stdout, &stderr)
	}()
	time.Sleep(500 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, external.ErrInterrupted) {
			t.Fatalf("interrupted move: %v, want an error wrapping external.ErrInterrupted", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the interrupted move did not return within 5 s of the interrupt")
	}
}

// chbench conformance gives the example programs and a catalog algorithm
// their verdicts, byte for byte as the golden files hold (every check is
// seeded): the Python ring passes what it promises, the C jump agrees key
// for key with chbench's jump under FNV-1a 64 (rows in CSV), ring passes
// as JSON, and a broken example fails exactly its property, which ends
// the command with an error (exit status 1) listing the failed checks,
// after the report.
func TestGoldenConformance(t *testing.T) {
	py := external.Prefix + exampleprog.PythonCommand(t, "examples/python/ring.py")
	c := external.Prefix + exampleprog.Quote(exampleprog.BuildC(t, "examples/c/jump.c"))
	broken := external.Prefix + exampleprog.PythonCommand(t, "examples/broken/join_capped.py")
	small := []string{"-keys", "5000", "-churn", "100", "-churn-keys", "20", "-commit", "golden"}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"conformance-python-table", []string{"conformance", "-algo", py}},
		{"conformance-c-csv", []string{"conformance", "-algo", c, "-reference", "jump", "-reference-hash", "fnv1a64", "-format", "csv"}},
		{"conformance-ring-json", []string{"conformance", "-algo", "ring", "-vnodes", "100", "-only", "balance,join,leave", "-format", "json"}},
		{"conformance-broken-table", []string{"conformance", "-algo", broken, "-only", "join,leave"}},
	} {
		t.Run(tc.name, func(t *testing.T) { golden(t, tc.name, append(tc.args, small...)...) })
	}
}

// Bad conformance flags are usage errors naming the flag, found before any
// program starts; a missing vector file is an error while running, as a
// missing key file is.
func TestConformanceFlags(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "vectors.tsv")
	for _, c := range []struct {
		args  []string
		usage bool
		want  string
	}{
		{[]string{"conformance"}, true, "-algo is required"},
		{[]string{"conformance", "-algo", "ring", "-reference", "jump", "-vectors", missing}, true, "give one reference"},
		{[]string{"conformance", "-algo", "ring", "-reference-hash", "fnv1a64"}, true, "-reference-hash needs a catalog -reference"},
		{[]string{"conformance", "-algo", "ring", "-reference", "nope"}, true, `-reference: unknown algorithm "nope"`},
		{[]string{"conformance", "-algo", "ring", "-only", "speed"}, true, `unknown property "speed"`},
		{[]string{"conformance", "-algo", "ring", "-keys", "10"}, true, "keys 10: need 1000 to 100000000"},
		{[]string{"conformance", "-algo", "ring", "-format", "bench"}, true, "format bench: this command writes table, csv, json"},
		{[]string{"conformance", "-algo", "ring", "-exec-batch", "0"}, true, "-exec-batch 0: need 1 to 65536"},
		{[]string{"conformance", "-algo", "ring", "-vectors", missing}, false, "no such file or directory"},
	} {
		var stdout, stderr bytes.Buffer
		err := run(c.args, &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error(), c.want) || cli.IsUsage(err) != c.usage {
			t.Errorf("chbench %s: %v (usage error: %v), want an error saying %q (usage error: %v)", strings.Join(c.args, " "), err, cli.IsUsage(err), c.want, c.usage)
		}
	}
}

// chbench dump-diff compares a dump written by ketama on cache-a:11211,
// cache-b:11211 and cache-c:11211 that names its servers without the port
// (testdata/dump-ketama.tsv, 1,500 keys; dump-rendezvous.tsv: the same keys
// by rendezvous on cache-a ... cache-c), byte for byte as the golden files
// hold: with ketama compared as host:11211 every key agrees, as given the
// labels differ and a third agree by chance; two dumps of different
// placements agree on about a third; -guess ranks ketama with labels
// host:11211 first at agreement 1; the rows come out through schema, and
// the C jump runs through the protocol like any placement.
func TestGoldenDumpDiff(t *testing.T) {
	const a, b = "testdata/dump-ketama.tsv", "testdata/dump-rendezvous.tsv"
	c := external.Prefix + exampleprog.Quote(exampleprog.BuildC(t, "examples/c/jump.c"))
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"dump-diff-labels-table", []string{"dump-diff", "-algo", "ketama", "-labels", "host:11211", a}},
		{"dump-diff-given-csv", []string{"dump-diff", "-algo", "ketama", "-format", "csv", a}},
		{"dump-diff-dumps-table", []string{"dump-diff", "-against", b, "-mismatches", "3", a}},
		{"dump-diff-dumps-mismatches-csv", []string{"dump-diff", "-against", b, "-mismatches", "3", "-format", "csv", "-rows", "mismatches", a}},
		{"dump-diff-guess-table", []string{"dump-diff", "-guess", "-top", "5", a}},
		{"dump-diff-guess-json", []string{"dump-diff", "-guess", "-top", "2", "-format", "json", a}},
		{"dump-diff-exec-matrix-csv", []string{"dump-diff", "-algo", c, "-format", "csv", "-rows", "matrix", a}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			golden(t, tc.name, append(tc.args[:1], append([]string{"-commit", "golden"}, tc.args[1:]...)...)...)
		})
	}
}

// Bad dump-diff flags are usage errors naming what is wrong; a missing
// dump is an error while running.
func TestDumpDiffFlags(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "dump.tsv")
	for _, c := range []struct {
		args  []string
		usage bool
		want  string
	}{
		{[]string{"dump-diff", "testdata/dump-ketama.tsv"}, true, "give one of -algo NAME"},
		{[]string{"dump-diff", "-algo", "ring", "-guess", "testdata/dump-ketama.tsv"}, true, "give one of -algo NAME"},
		{[]string{"dump-diff", "-algo", "ring"}, true, "want one dump file"},
		{[]string{"dump-diff", "-algo", "ring", "-labels", "port", "testdata/dump-ketama.tsv"}, true, `-labels "port": want one of`},
		{[]string{"dump-diff", "-guess", "-labels", "host", "testdata/dump-ketama.tsv"}, true, "describe the placement of -algo"},
		{[]string{"dump-diff", "-algo", "ring,jump", "testdata/dump-ketama.tsv"}, true, "compares with one placement"},
		{[]string{"dump-diff", "-algo", "ring", "-rows", "all", "testdata/dump-ketama.tsv"}, true, `-rows "all"`},
		{[]string{"dump-diff", "-algo", "ring", "-node-ids", "a,a", "testdata/dump-ketama.tsv"}, true, `duplicate node ID "a"`},
		{[]string{"dump-diff", "-algo", "ring", missing}, false, "no such file or directory"},
	} {
		var stdout, stderr bytes.Buffer
		err := run(c.args, &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error(), c.want) || cli.IsUsage(err) != c.usage {
			t.Errorf("chbench %s: %v (usage error: %v), want an error saying %q (usage error: %v)", strings.Join(c.args, " "), err, cli.IsUsage(err), c.want, c.usage)
		}
	}
}
