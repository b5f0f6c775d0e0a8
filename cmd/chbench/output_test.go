package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
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
			path := prefix + formatExt[f]
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
// -o /dev/null used to write /dev/null.table (as root, into /dev).
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
		{filepath.Join(dir, "missing", "x"), 1, "no such file or directory"},
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
			if code := exitCode(err, &stderr); code != c.code || !strings.Contains(stderr.String(), c.want) || out != "" {
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
		if code := exitCode(err, &stderr); code != 2 || !strings.Contains(stderr.String(), "which the output must not replace") {
			t.Errorf("chbench %s: exit %d, stderr %q; want exit 2, refused", strings.Join(args, " "), code, stderr.String())
		}
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("report -o FIFO replaced the FIFO: %v %v", fi, err)
	}
}
