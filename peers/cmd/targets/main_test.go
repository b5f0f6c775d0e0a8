package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

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

func TestRunAllMet(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "peers.txt")
	if err := os.WriteFile(in, []byte(input(10)), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "targets.txt")
	var stdout, stderr bytes.Buffer
	if err := run([]string{"-out", out, in}, strings.NewReader(""), &stdout, &stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	n := len(peers.DefaultTargets())
	if !strings.HasSuffix(stdout.String(), fmt.Sprintf("\n%d of %d targets met\n", n, n)) {
		t.Errorf("stdout:\n%s", stdout.String())
	}
	// ring at 1000 nodes: groupcache 100 ns / chbench 10 ns.
	if !strings.Contains(stdout.String(), "PASS  ring nodes=1000: chbench >= 3x faster than groupcache") ||
		!strings.Contains(stdout.String(), "measured 10.00x (10.0 ns vs 100.0 ns, n=6/6)") {
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
	// chbench at 16 ns: jump is 16/20 = 0.8 of go-jump (met), but 16/5 =
	// 3.2 times the hash (not met, 15 targets) and ring at 10 nodes is
	// 100/16 = 6.25x faster (met).
	var stdout, stderr bytes.Buffer
	err := run(nil, strings.NewReader(input(16)), &stdout, &stderr)
	if !errors.Is(err, errFailed) || !strings.Contains(err.Error(), "15 failed") {
		t.Fatalf("err = %v, want 15 targets failed", err)
	}
	if got := strings.Count(stdout.String(), "FAIL  "); got != 15 {
		t.Errorf("%d FAIL lines, want 15:\n%s", got, stdout.String())
	}
	if !strings.Contains(stdout.String(), "FAIL  modulo nodes=10: chbench time / hash time <= 3") {
		t.Errorf("stdout lacks the modulo/hash failure:\n%s", stdout.String())
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
	n := len(peers.DefaultTargets())
	if !errors.Is(err, errFailed) || !strings.Contains(stdout.String(), fmt.Sprintf("0 of %d targets met", n)) {
		t.Errorf("empty input: err = %v, stdout:\n%s", err, stdout.String())
	}
}
