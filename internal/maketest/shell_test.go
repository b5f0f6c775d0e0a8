package maketest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every recipe line of the Makefile runs under bash -eu -o pipefail: a
// pipeline fails when any command in it fails (so `chbench ... | tail`
// cannot hide a failed chbench), a failing command ends the line even
// when others follow it, and an unset shell variable is an error. Each
// probe is a recipe added to the real Makefile with --eval; every one of
// them exits 0 under make's default /bin/sh -c.
func TestRecipesFailOnAnyFailure(t *testing.T) {
	dir, args := setup(t)
	for _, recipe := range []string{
		"false | true",
		"false; true",
		"echo $${chbench_unset_variable}",
		"{ false && echo never; } | cat",
	} {
		cmd := exec.Command("make", append(args, "--eval", "probe:\n\t@"+recipe+"\n", "probe")...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err == nil {
			t.Errorf("recipe %q: make exited 0, want a failure\n%s", recipe, out)
		}
	}
	cmd := exec.Command("make", append(args, "--eval", "probe:\n\t@true | cat && echo ok\n", "probe")...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Errorf("a pipeline that succeeds: %v\n%s", err, out)
	}
}

// No recipe of `make bench` pipes chbench's output into another command:
// each part is written by chbench itself (-o or a redirection through
// save) and joined only after every part has succeeded, so a failed part
// can never be published as a complete file.
func TestNoRecipePipesChbench(t *testing.T) {
	dir, args := setup(t)
	cmd := exec.Command("make", append(args, "-n", "bench")...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make -n bench: %v\n%s", err, out)
	}
	piped := regexp.MustCompile(`bin/chbench [^|;&]*\|[^|]`)
	n := 0
	for _, line := range strings.Split(string(out), "\n") {
		if !strings.Contains(line, "bin/chbench ") {
			continue
		}
		n++
		if piped.MatchString(line) {
			t.Errorf("a recipe pipes chbench: %s", line)
		}
	}
	if n < 10 {
		t.Fatalf("make -n bench ran chbench %d times; the test reads the wrong output:\n%s", n, out)
	}
}

// make publish fails, and says so, when a move fails: a staged plot that
// cannot replace the one in results/ (a non-empty directory of the same
// name is in the way) must not leave publish announcing the results.
func TestPublishReportsAFailedMove(t *testing.T) {
	dir, args := setup(t)
	writeFiles(t, dir, map[string]string{
		"res/.tmp-run/.complete":         "",
		"res/.tmp-run/movement.csv":      "new",
		"res/.tmp-run/plots/x.png/a":     "new",
		"res/plots/x.png/still-here.txt": "old",
	})
	cmd := exec.Command("make", append(args, "publish")...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err == nil || strings.Contains(string(out), "results in res/") {
		t.Errorf("make publish with a failing mv: %v, want a failure without the announcement\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "res/.tmp-run")); err != nil {
		t.Errorf("the staging directory was removed after a failed move: %v", err)
	}
}
