package conformance

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/chbench/chbench/internal/exampleprog"
)

// The example module examples/goplacer, a placement written outside
// chbench in its own module, builds against this checkout (its replace
// directive), its own go test runs chbench's conformance suite and
// placertest's checks on it, and its main, which registers it in the
// catalog and hands the command line to chbench's (command.Main), runs
// chbench conformance on it with no FAIL and chbench move with its rows
// beside ring's. The module's go.mod and go.sum are complete: testing it
// changes neither.
func TestGoModuleExample(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and tests another module (-short)")
	}
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	dir := exampleprog.Path(t, "examples/goplacer")
	flags := []string{"-count=1"}
	if raceEnabled {
		flags = append(flags, "-race", "-gcflags=github.com/spaolacci/murmur3=-d=checkptr=0")
	}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	mod, sum := read("go.mod"), read("go.sum")
	run := func(name string, args ...string) string {
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s in examples/goplacer: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	if out := run(goTool, append([]string{"test"}, append(flags, "./...")...)...); !strings.Contains(out, "ok  \texample.com/goplacer") {
		t.Errorf("go test: %s", out)
	}
	bin := filepath.Join(t.TempDir(), "chbench-straw")
	run(goTool, append(append([]string{"build"}, flags[1:]...), "-o", bin, "./cmd/chbench-straw")...)
	out := run(bin, "conformance", "-algo", "straw", "-keys", "5000", "-churn", "50")
	if !strings.HasPrefix(out, "conformance of straw (weighted, any node leaves, unordered, replicas 8)") || strings.Contains(out, "FAIL") {
		t.Errorf("chbench-straw conformance printed:\n%s", out)
	}
	out = run(bin, "move", "-algo", "ring,straw", "-from", "10", "-to", "11", "-keys", "5000", "-sets", "2", "-format", "csv")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 3 || !strings.HasPrefix(lines[1], "ring,") || !strings.HasPrefix(lines[2], "straw,") {
		t.Errorf("chbench-straw move printed:\n%s", out)
	}
	if !bytes.Equal(read("go.mod"), mod) || !bytes.Equal(read("go.sum"), sum) {
		t.Error("testing the example module changed its go.mod or go.sum: run go mod tidy there and commit them")
	}
}
