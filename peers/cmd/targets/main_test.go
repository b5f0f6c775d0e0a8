package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/peers"
)

// input writes benchfmt lines for every cell of the default targets:
// chbench lookups take chbench ns and 0 allocs, the key hash 5 ns, the
// peers 100 ns (go-jump 20 ns).
func input(chbench float64) string {
	times := map[string]float64{"chbench": chbench, "hash": 5, "go-jump": 20}
	seen := map[peers.Cell]bool{}
	var b strings.Builder
	b.WriteString("goos: linux\ngoarch: amd64\n")
	for _, t := range peers.DefaultTargets() {
		for _, c := range []peers.Cell{t.Cell, t.Other} {
			if c.Impl == "" || seen[c] {
				continue
			}
			seen[c] = true
			ns, ok := times[c.Impl]
			if !ok {
				ns = 100
			}
			for range 6 {
				fmt.Fprintf(&b, "BenchmarkPeerLookup/%s-2 1000 %g ns/op 0 B/op 0 allocs/op\n", c, ns)
			}
		}
	}
	return b.String()
}

// tally counts the default targets by what Check can do with them: bounded
// targets of catalog algorithms, ratios reported without a bound, and
// targets whose algorithm the catalog does not list (not measured).
func tally() (bounded, reported, skipped int) {
	for _, tg := range peers.DefaultTargets() {
		switch _, err := catalog.Describe(tg.Cell.Algo); {
		case err != nil:
			skipped++
		case tg.Kind == peers.Report:
			reported++
		default:
			bounded++
		}
	}
	return bounded, reported, skipped
}

// summary is WriteReport's last line for met of bounded targets.
func summary(met, bounded, reported, skipped int) string {
	s := fmt.Sprintf("%d of %d targets met", met, bounded)
	if reported > 0 {
		s += fmt.Sprintf(", %d reported without a bound", reported)
	}
	if skipped > 0 {
		s += fmt.Sprintf(", %d not measured (algorithm not in the catalog)", skipped)
	}
	return s
}

func TestRunAllMet(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "peers.txt")
	// 7 ns against the hash's 5 ns is within every bound (1.4 <= 1.5).
	if err := os.WriteFile(in, []byte(input(7)), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "targets.txt")
	var stdout, stderr bytes.Buffer
	if err := run([]string{"-out", out, in}, strings.NewReader(""), &stdout, &stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	bounded, reported, skipped := tally()
	if !strings.HasSuffix(stdout.String(), "\n"+summary(bounded, bounded, reported, skipped)+"\n") {
		t.Errorf("stdout:\n%s", stdout.String())
	}
	// ring at 1000 nodes: groupcache 100 ns / chbench 7 ns.
	if !strings.Contains(stdout.String(), "PASS  ring nodes=1000: chbench >= 3x faster than groupcache") ||
		!strings.Contains(stdout.String(), "measured 14.29x (7.0 ns vs 100.0 ns, n=6/6)") {
		t.Errorf("stdout lacks the ring/groupcache line:\n%s", stdout.String())
	}
	file, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(file, stdout.Bytes()) {
		t.Errorf("-out file differs from stdout:\n%s", file)
	}
}

func TestRunFailsFromStdin(t *testing.T) {
	// chbench at 16 ns: jump is 16/20 = 0.8 of go-jump (met) and ring at 10
	// nodes is 100/16 = 6.25x faster (met), but 16/5 = 3.2 times the hash
	// exceeds every bound against the hash (3, 2, 1.5): those targets of
	// catalog algorithms fail.
	want := 0
	for _, tg := range peers.DefaultTargets() {
		if _, err := catalog.Describe(tg.Cell.Algo); err == nil && tg.Kind == peers.Ratio && tg.Other.Impl == "hash" {
			want++
		}
	}
	var stdout, stderr bytes.Buffer
	err := run(nil, strings.NewReader(input(16)), &stdout, &stderr)
	if !errors.Is(err, errFailed) || !strings.Contains(err.Error(), fmt.Sprintf("%d failed", want)) {
		t.Fatalf("err = %v, want %d targets failed", err, want)
	}
	if got := strings.Count(stdout.String(), "FAIL  "); got != want {
		t.Errorf("%d FAIL lines, want %d:\n%s", got, want, stdout.String())
	}
	if !strings.Contains(stdout.String(), "FAIL  modulo nodes=10: chbench time / hash time <= 3") ||
		!strings.Contains(stdout.String(), "FAIL  jumpback nodes=10000: chbench time / hash time <= 2") {
		t.Errorf("stdout lacks the modulo and jumpback failures:\n%s", stdout.String())
	}
}

func TestRunErrors(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run([]string{"-bogus"}, strings.NewReader(""), &stdout, &stderr); !errors.Is(err, errUsage) {
		t.Errorf("unknown flag: err = %v, want usage error", err)
	}
	missing := filepath.Join(t.TempDir(), "nope.txt")
	if err := run([]string{missing}, strings.NewReader(""), &stdout, &stderr); err == nil || !strings.Contains(err.Error(), "nope.txt") {
		t.Errorf("missing file: err = %v, want one naming nope.txt", err)
	}
	// An empty input meets nothing: every cell is missing.
	stdout.Reset()
	err := run(nil, strings.NewReader(""), &stdout, &stderr)
	bounded, reported, skipped := tally()
	if !errors.Is(err, errFailed) || !strings.Contains(stdout.String(), summary(0, bounded+reported, 0, skipped)) {
		t.Errorf("empty input: err = %v, stdout:\n%s", err, stdout.String())
	}
}
