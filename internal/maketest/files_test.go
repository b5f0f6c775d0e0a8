package maketest

import (
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chbench/chbench/schema"
)

// The Makefile writes exactly the result files package schema lists
// (schema.Files), no more and no fewer: `make -n bench` prints every
// command of the run, and each file is named there as a path in the
// staging directory, as an -o prefix (relative, or absolute and quoted
// for a command run elsewhere) with its -format list (chbench
// simulate writes PREFIX-KIND.EXT per kind of row), or (REPORT.md
// and the plots) by the command that writes it into -dir.
func TestMakefileWritesTheSchemaFiles(t *testing.T) {
	dir, args := setup(t)
	cmd := exec.Command("make", append(args, "-n", "bench")...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make -n bench: %v\n%s", err, out)
	}
	const stage = "res/.tmp-run/"
	ext := map[string]string{"csv": ".csv", "bench": ".txt", "json": ".json", "table": ".table"}
	path := regexp.MustCompile(regexp.QuoteMeta(stage) + `([A-Za-z0-9][A-Za-z0-9._-]*)`)
	// A command run in another directory names the staging directory by
	// its absolute path, quoted.
	prefix := regexp.MustCompile(`-o "?(?:/[^ "]*/)?` + regexp.QuoteMeta(stage) + `([A-Za-z0-9._-]+)`)
	format := regexp.MustCompile(`-format ([a-z,]+)`)
	var got []string
	add := func(name string) {
		if !slices.Contains(got, name) {
			got = append(got, name)
		}
	}
	for _, line := range strings.Split(string(out), "\n") {
		if m := prefix.FindStringSubmatch(line); m != nil && !strings.HasPrefix(m[1], ".") {
			f := format.FindStringSubmatch(line)
			if f == nil {
				t.Fatalf("-o without -format: %s", line)
			}
			for _, x := range strings.Split(f[1], ",") {
				if strings.Contains(line, " simulate ") && x != "table" { // one file per kind of row
					for _, kind := range []string{"window", "node", "event", "summary", "trace"} {
						add(m[1] + "-" + kind + ext[x])
					}
					continue
				}
				add(m[1] + ext[x])
			}
			continue
		}
		for _, m := range path.FindAllStringSubmatch(line, -1) {
			if name := m[1]; !strings.HasSuffix(name, ".tmp") && name != "plots" {
				add(name)
			}
		}
		switch {
		case strings.Contains(line, " report -dir "+strings.TrimSuffix(stage, "/")) && !strings.Contains(line, " -o "):
			add(schema.ReportFile)
		case strings.Contains(line, " plot -dir "+strings.TrimSuffix(stage, "/")):
			add(schema.PlotsDir + "/*.png")
		}
	}
	var want []string
	for _, e := range schema.Files() {
		want = append(want, e.Name)
	}
	slices.Sort(got)
	slices.Sort(want)
	for _, n := range got {
		if !slices.Contains(want, n) {
			t.Errorf("the Makefile writes %s, which schema.Files does not list", n)
		}
	}
	for _, n := range want {
		if !slices.Contains(got, n) {
			t.Errorf("schema.Files lists %s, which make bench does not write", n)
		}
	}
}
