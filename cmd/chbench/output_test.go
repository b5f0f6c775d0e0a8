package main

import (
	"os"
	"path/filepath"
	"strings"
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
