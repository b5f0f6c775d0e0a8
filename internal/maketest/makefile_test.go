package maketest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fakeGo stands in for the go command: "build -o P" writes a fake binary
// at P (which prints "fake" and its arguments and writes -out files),
// "test" is a slow benchmark run, "tool benchstat" prints "table" and its
// arguments.
const fakeGo = `#!/bin/sh
case "$1" in
build)
  out=""; while [ $# -gt 0 ]; do [ "$1" = "-o" ] && out=$2; shift; done
  mkdir -p "$(dirname "$out")"
  printf '#!/bin/sh\necho fake "$@"\nwhile [ $# -gt 0 ]; do [ "$1" = "-out" ] && echo fake > "$2"; shift; done\n' > "$out"
  chmod +x "$out";;
test) sleep 0.3; echo "BenchmarkFake 1 1 ns/op";;
*) echo table "$@";;
esac
`

// setup copies the Makefile into a temporary directory with the fake go
// and returns the directory and the make arguments.
func setup(t *testing.T) (string, []string) {
	t.Helper()
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make not installed")
	}
	dir := t.TempDir()
	mf, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Makefile"), mf, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "peers"), 0o755); err != nil {
		t.Fatal(err)
	}
	goPath := filepath.Join(dir, "fakego")
	if err := os.WriteFile(goPath, []byte(fakeGo), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, []string{"--no-print-directory", "GO=" + goPath, "RESULTS=res"}
}

// interrupt starts make target in dir, sends SIGINT to the top make process
// alone once the staged run has started, and waits until every process
// make started has ended.
func interrupt(t *testing.T, dir string, args []string) error {
	t.Helper()
	cmd := exec.Command("make", args...)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pgid := cmd.Process.Pid
	defer syscall.Kill(-pgid, syscall.SIGKILL)
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(dir, "res/.tmp-run/lookup.txt.tmp")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the staged run did not start")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	for syscall.Kill(-pgid, 0) == nil { // sub-makes that outlive the top make
		if time.Now().After(deadline) {
			t.Fatal("sub-makes still running")
		}
		time.Sleep(10 * time.Millisecond)
	}
	return err
}

// A SIGINT to the top make process alone publishes nothing: publishing is
// a line of the top make's own recipe, which an interrupted make never
// reaches, even when the sub-makes it waits for finish.
func TestInterruptedMakeDoesNotPublish(t *testing.T) {
	for _, target := range []string{"quick", "bench"} {
		dir, args := setup(t)
		err := interrupt(t, dir, append(args, target))
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Errorf("make %s: ended with %v, want an interrupt", target, err)
		}
		if entries, _ := os.ReadDir(filepath.Join(dir, "res")); len(entries) != 1 || entries[0].Name() != ".tmp-run" {
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			t.Errorf("make %s interrupted: res/ holds %s, want only the staging directory .tmp-run", target, strings.Join(names, " "))
		}
	}
}

// publish refuses a staging directory that holds no complete run.
func TestPublishRefusesIncompleteRun(t *testing.T) {
	dir, args := setup(t)
	if err := os.MkdirAll(filepath.Join(dir, "res/.tmp-run"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "res/.tmp-run/lookup.txt"), []byte("partial"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("make", append(args, "publish")...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "no complete run") {
		t.Errorf("make publish of an incomplete run: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "res/lookup.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the partial lookup.txt was published")
	}
}

// runMake runs make with args in dir and returns its combined output,
// failing t if make fails.
func runMake(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("make", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// writeFiles writes each file (path relative to dir) with its content,
// creating directories.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// make compare warns, in one line, when the two runs' benchmarks ran on
// different machines, and has benchstat ignore the machine lines (and the
// commit and Go version) so that it prints one table with deltas.
func TestCompareAcrossMachines(t *testing.T) {
	const warning = "warning: different machines: lookup and build differences include hardware"
	for _, c := range []struct {
		newCPU string
		warn   bool
	}{{"cpu: AMD EPYC", false}, {"cpu: Intel(R) Xeon(R) Processor", true}} {
		dir, args := setup(t)
		head := "goos: linux\ngoarch: amd64\npkg: github.com/chbench/chbench/bench\n"
		writeFiles(t, dir, map[string]string{
			"old/lookup.txt": head + "cpu: AMD EPYC\nBenchmarkLookup 1 1 ns/op\n",
			"new/lookup.txt": head + c.newCPU + "\nBenchmarkLookup 1 1 ns/op\n",
		})
		out := runMake(t, dir, append(args, "compare", "OLD=old", "NEW=new")...)
		if got := strings.Count(out, warning); got != map[bool]int{false: 0, true: 1}[c.warn] {
			t.Errorf("new run on %q: %d warnings, want warn=%v:\n%s", c.newCPU, got, c.warn, out)
		}
		if c.warn && !strings.Contains(out, warning+" (old cpu: AMD EPYC; new cpu: Intel(R) Xeon(R) Processor)") {
			t.Errorf("the warning does not name both CPUs:\n%s", out)
		}
		if !strings.Contains(out, "table tool benchstat -ignore commit,go,goos,goarch,cpu old=old/lookup.txt new=new/lookup.txt") {
			t.Errorf("benchstat not run on lookup.txt ignoring commit, go and the machine lines:\n%s", out)
		}
		if !strings.Contains(out, "## movement.txt: not in both runs") {
			t.Errorf("a file not in both runs is not reported:\n%s", out)
		}
	}
}

// make report writes REPORT.md without a profile, and REPORT-<profile
// name without extension>.md with one, so that a profile never overwrites
// the committed REPORT.md.
func TestReportProfileFile(t *testing.T) {
	dir, args := setup(t)
	writeFiles(t, dir, map[string]string{"profiles/payments.v2.toml": "nodes = 50\n"})
	out := runMake(t, dir, append(args, "report", "OUT=res")...)
	if !strings.Contains(out, "fake report -dir res\n") {
		t.Errorf("make report without PROFILE: want chbench report -dir res and no -o:\n%s", out)
	}
	out = runMake(t, dir, append(args, "report", "OUT=res", "PROFILE=profiles/payments.v2.toml")...)
	if !strings.Contains(out, "fake report -dir res -profile profiles/payments.v2.toml -o res/REPORT-payments.v2.md\n") {
		t.Errorf("make report PROFILE=profiles/payments.v2.toml: want -o res/REPORT-payments.v2.md:\n%s", out)
	}
}
