package command

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/chbench/chbench/cmd/internal/cli"
	"github.com/chbench/chbench/internal/tempfile"
	"github.com/chbench/chbench/schema"
)

// One run with -format csv,json,bench,table -o PREFIX writes each format
// to its file, byte for byte what a run of that format alone prints, and
// lists the files on stdout.
func TestOutputPrefix(t *testing.T) {
	for _, cmd := range [][]string{
		{"move", "-algo", "ring,jump", "-from", "4", "-op", "add,remove-last", "-keys", "500", "-sets", "2", "-commit", "x"},
		{"spread", "-algo", "ring,rendezvous", "-nodes", "5", "-keys", "500", "-sets", "2", "-commit", "x"},
	} {
		prefix := filepath.Join(t.TempDir(), "out")
		formats := []string{"csv", "json", "bench", "table"}
		out, _, err := runCLI(t, append(cmd, "-format", strings.Join(formats, ","), "-o", prefix)...)
		if err != nil {
			t.Fatal(err)
		}
		var listed []string
		for _, f := range formats {
			path := prefix + schema.Ext(f)
			listed = append(listed, path)
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want, _, err := runCLI(t, append(cmd, "-format", f)...)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != want {
				t.Errorf("%s -format %s: file %s differs from stdout:\n%s\nwant\n%s", cmd[0], f, path, got, want)
			}
		}
		if want := strings.Join(listed, "\n") + "\n"; out != want {
			t.Errorf("%s: stdout %q, want the paths %q", cmd[0], out, want)
		}
	}
	// -shares changes only the CSV file.
	prefix := filepath.Join(t.TempDir(), "w")
	args := []string{"spread", "-algo", "ring", "-nodes", "4", "-weights", "1,1,2,4", "-keys", "500", "-sets", "2", "-commit", "x", "-shares"}
	if _, _, err := runCLI(t, append(args, "-format", "csv,bench", "-o", prefix)...); err != nil {
		t.Fatal(err)
	}
	want, _, err := runCLI(t, append(args, "-format", "csv")...)
	if got, _ := os.ReadFile(prefix + ".csv"); err != nil || string(got) != want {
		t.Errorf("-shares csv file differs from stdout (%v)", err)
	}
	if _, _, err := runCLI(t, "move", "-algo", "ring", "-from", "3", "-format", "csv,csv", "-o", prefix); err == nil || !strings.Contains(err.Error(), `format "csv"`) {
		t.Errorf("repeated format: %v", err)
	}
}

// An -o prefix that names no file (a directory, a device, a FIFO, a
// trailing separator) or whose output would replace something that is not
// a file is refused before any work (10^9 keys per set would not finish)
// with exit status 2, and an earlier run's files stay as they were; a
// missing directory is an error while running (1), also before any work.
// -o /dev/null must not write /dev/null.table (as root, into /dev).
func TestOutPrefixRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	old := filepath.Join(dir, "old")
	for _, ext := range []string{".csv", ".txt"} {
		if err := os.WriteFile(old+ext, []byte("earlier run"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(old+".json", 0o755); err != nil { // in the way of -format json
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		prefix string
		code   int
		want   string
	}{
		{sub, 2, fmt.Sprintf("-o %q: is a directory, not a file name prefix", sub)},
		{sub + "/", 2, "names a directory"},
		{sub + "/..", 2, "names a directory"},
		{fifo, 2, "is a named pipe (FIFO), not a file name prefix"},
		{old, 2, old + ".json exists and is a directory, which the output must not replace"},
		{filepath.Join(dir, "missing", "x"), 2, "no such file or directory"},
	} {
		for _, cmd := range [][]string{
			{"move", "-algo", "ring", "-from", "10", "-keys", "1000000000"},
			{"spread", "-algo", "ring", "-nodes", "10", "-keys", "1000000000"},
			{"load", "-nodes", "10", "-keys", "1000000000", "-requests", "1000000000"},
			{"bounded", "-nodes", "10", "-keys", "1000000000", "-requests", "1000000000"},
		} {
			args := append(cmd, "-format", "csv,bench,json", "-o", c.prefix)
			out, _, err := runCLI(t, args...)
			var stderr strings.Builder
			if code := cli.ExitCode(err, &stderr); code != c.code || !strings.Contains(stderr.String(), c.want) || out != "" {
				t.Errorf("chbench %s: exit %d, stdout %q, stderr %q; want exit %d and %q", strings.Join(args, " "), code, out, stderr.String(), c.code, c.want)
			}
		}
	}
	for _, ext := range []string{".csv", ".txt"} {
		if b, err := os.ReadFile(old + ext); err != nil || string(b) != "earlier run" {
			t.Errorf("%s: %q (%v), want the earlier run's file untouched", old+ext, b, err)
		}
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 5 { // fifo, old.csv, old.txt, old.json, sub
		t.Errorf("%d entries in the directory, want 5 (no temporary file left)", len(ents))
	}
	// report -o: a target that is not a file is refused before reading
	// anything; its default DIR/REPORT.md too.
	run := copyRun(t)
	if err := os.Mkdir(filepath.Join(run, "REPORT.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"report", "-dir", run, "-o", fifo}, {"report", "-dir", run}} {
		_, _, err := runCLI(t, args...)
		var stderr strings.Builder
		if code := cli.ExitCode(err, &stderr); code != 2 || !strings.Contains(stderr.String(), "which the output must not replace") {
			t.Errorf("chbench %s: exit %d, stderr %q; want exit 2, refused", strings.Join(args, " "), code, stderr.String())
		}
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("report -o FIFO replaced the FIFO: %v %v", fi, err)
	}
}

// exitOf runs chbench args in-process and returns its stdout, exit status
// and stderr as main would print them.
func exitOf(t *testing.T, args ...string) (string, int, string) {
	t.Helper()
	out, _, err := runCLI(t, args...)
	var stderr strings.Builder
	code := cli.ExitCode(err, &stderr)
	return out, code, stderr.String()
}

// -o - for a PREFIX command is refused (it wrote a file named -.csv,
// while report's -o - means standard output), and so is a final name that
// is a symbolic link: the rename replaced the link itself (as root, -o
// /dev/stdout would have replaced the link in /dev). report -o follows the
// same rules.
func TestOutDashAndSymlinkRefused(t *testing.T) {
	run := copyRun(t)
	dir := t.TempDir()
	t.Chdir(dir)
	for _, cmd := range [][]string{
		{"move", "-algo", "ring", "-from", "3", "-keys", "10", "-sets", "2"},
		{"spread", "-algo", "ring", "-nodes", "3", "-keys", "10", "-sets", "2"},
		{"load", "-nodes", "3", "-keys", "10", "-requests", "10", "-sets", "2"},
		{"bounded", "-nodes", "3", "-eps", "1", "-keys", "10", "-requests", "10", "-sets", "2"},
	} {
		args := append(cmd, "-format", "csv", "-o", "-")
		if out, code, stderr := exitOf(t, args...); code != 2 || out != "" || !strings.Contains(stderr, "omit -o to write to standard output") {
			t.Errorf("chbench %s: exit %d, stdout %q, stderr %q; want exit 2, refused", strings.Join(args, " "), code, out, stderr)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("-o - wrote %v", ents)
	}

	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("theirs"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	for _, l := range []string{link + ".csv", link + ".md"} {
		if err := os.Symlink(target, l); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), dangling+".csv"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		link string
	}{
		{[]string{"move", "-algo", "ring", "-from", "3", "-keys", "10", "-sets", "2", "-format", "csv", "-o", link}, link + ".csv"},
		{[]string{"spread", "-algo", "ring", "-nodes", "3", "-keys", "10", "-sets", "2", "-format", "table,csv", "-o", link}, link + ".csv"},
		{[]string{"load", "-nodes", "3", "-keys", "10", "-requests", "10", "-sets", "2", "-format", "csv", "-o", dangling}, dangling + ".csv"},
		{[]string{"report", "-dir", run, "-o", link + ".md"}, link + ".md"},
	} {
		out, code, stderr := exitOf(t, c.args...)
		if code != 2 || out != "" || !strings.Contains(stderr, c.link+" is a symbolic link") {
			t.Errorf("chbench %s: exit %d, stdout %q, stderr %q; want exit 2 naming %s", strings.Join(c.args, " "), code, out, stderr, c.link)
		}
		if fi, err := os.Lstat(c.link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a symbolic link (%v)", c.link, err)
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "theirs" {
		t.Errorf("the link's target was written: %q", b)
	}
}

// An -o whose files, or their temporary names .NAME.NNNNNNNNNN.tmp, are
// too long for the file system is a usage error found before any work,
// not a "file name too long" after the run; a name just short enough is
// written.
func TestOutNameTooLong(t *testing.T) {
	dir := t.TempDir()
	// Only where the limit is the usual 255 bytes a name.
	if f, err := os.Create(filepath.Join(dir, strings.Repeat("y", 255))); err != nil {
		t.Skip("no 255-byte file names here:", err)
	} else {
		f.Close()
		os.Remove(f.Name())
	}
	if _, err := os.Create(filepath.Join(dir, strings.Repeat("y", 256))); !errors.Is(err, syscall.ENAMETOOLONG) {
		t.Skip("file names longer than 255 bytes allowed here:", err)
	}
	long := func(n int) string { return filepath.Join(dir, strings.Repeat("x", n)) }
	for _, c := range []struct {
		args []string
		want string
	}{
		// The final name .table is too long itself.
		{[]string{"move", "-algo", "ring", "-from", "3", "-keys", "10", "-sets", "2", "-format", "csv,table", "-o", long(250)}, long(250) + ".table is written through the temporary file"},
		// The final names fit; the temporary names (16 bytes longer) do not.
		{[]string{"spread", "-algo", "ring", "-nodes", "3", "-keys", "10", "-sets", "2", "-format", "csv", "-o", long(240)}, "a name of 260 bytes, too long for " + dir},
		{[]string{"report", "-dir", copyRun(t), "-o", long(245)}, "a name of 261 bytes, too long for " + dir},
	} {
		out, code, stderr := exitOf(t, c.args...)
		if code != 2 || out != "" || !strings.Contains(stderr, c.want) || !strings.Contains(stderr, "shorten the -o value") {
			t.Errorf("chbench %s: exit %d, stdout %q, stderr %q; want exit 2 and %q", strings.Join(c.args, " "), code, out, stderr, c.want)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("files left in %s: %v", dir, ents)
	}
	// A name just short enough works.
	if _, code, stderr := exitOf(t, "move", "-algo", "ring", "-from", "3", "-keys", "10", "-sets", "2", "-format", "csv,table", "-o", long(255-len(tempfile.Longest(""))-len(".table"))); code != 0 {
		t.Errorf("longest name that fits: exit %d, %s", code, stderr)
	}
}

// report -o follows the -o PREFIX checks before any work: a value ending
// in / names a directory and a missing directory is no place to write
// (both exit 2), naming the value given, never the temporary file's
// random name.
func TestReportOutChecked(t *testing.T) {
	run := copyRun(t)
	missing := filepath.Join(t.TempDir(), "nonexist", "dir", "x.md")
	for _, c := range []struct {
		o    string
		code int
		want string
	}{
		{"nonexist/", 2, `-o "nonexist/": names a directory, not a file`},
		{filepath.Join(run, "REPORT.md") + "/", 2, "names a directory, not a file"},
		{missing, 2, fmt.Sprintf("-o %q: stat %s: no such file or directory", missing, filepath.Dir(missing))},
		{filepath.Join(run, "movement.csv", "x.md"), 2, "movement.csv is a regular file, not a directory"},
	} {
		out, code, stderr := exitOf(t, "report", "-dir", run, "-o", c.o)
		if code != c.code || out != "" || !strings.Contains(stderr, c.want) || strings.Contains(stderr, ".tmp") {
			t.Errorf("report -o %s: exit %d, stdout %q, stderr %q; want exit %d and %q", c.o, code, out, stderr, c.code, c.want)
		}
	}
}

// report -o onto a file of its results directory that it reads, links
// or describes (a result file, the plot index, a figure it embeds) is a
// usage error before any work, naming the file, and leaves it as it was.
func TestReportOutNotOntoItsResults(t *testing.T) {
	run := copyRun(t)
	plots := filepath.Join(run, "plots")
	if err := os.MkdirAll(plots, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"index.txt", "spread-peak-to-mean.png", "spread-peak-to-mean.svg"} {
		if err := os.WriteFile(filepath.Join(plots, name), []byte("spread-peak-to-mean\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"storm.txt", "sim.table"} {
		if err := os.WriteFile(filepath.Join(run, name), []byte("a table\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"plots/index.txt", "plots/spread-peak-to-mean.png", "plots/spread-peak-to-mean.svg", "storm.txt", "sim.table", "spread.csv"} {
		p := filepath.Join(run, name)
		before, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out, code, stderr := exitOf(t, "report", "-dir", run, "-o", p)
		if code != 2 || out != "" || !strings.Contains(stderr, p+" is an input of this command") {
			t.Errorf("report -o %s: exit %d, stdout %q, stderr %q; want exit 2 naming it as an input", name, code, out, stderr)
		}
		if after, _ := os.ReadFile(p); string(after) != string(before) {
			t.Errorf("report -o %s replaced it", name)
		}
	}
}

// report -compare writes the comparison to -o FILE, and to standard
// output without -o or with -o -, and never writes REPORT.md.
func TestReportCompareOut(t *testing.T) {
	run := copyRun(t)
	want, _, err := runCLI(t, "report", "-dir", run, "-compare", run)
	if err != nil || !strings.Contains(want, "\n0 cells differ,") {
		t.Fatalf("-compare to stdout: %v\n%s", err, want)
	}
	if got, _, err := runCLI(t, "report", "-dir", run, "-compare", run, "-o", "-"); err != nil || got != want {
		t.Errorf("-compare -o -: %v, output differs from stdout's", err)
	}
	path := filepath.Join(t.TempDir(), "cmp.md")
	out, _, err := runCLI(t, "report", "-dir", run, "-compare", run, "-o", path)
	if err != nil || out != path+"\n" {
		t.Fatalf("-compare -o FILE: stdout %q, %v; want the path", out, err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != want {
		t.Errorf("%s: %q (%v), want the comparison", path, b, err)
	}
	if _, err := os.Stat(filepath.Join(run, "REPORT.md")); err == nil {
		t.Error("-compare wrote REPORT.md")
	}
}
