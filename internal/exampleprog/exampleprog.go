// Package exampleprog gives tests the example programs under examples/:
// the Python interpreter that runs them, the C ones compiled, and shell
// commands for an external placement (exec:CMD). Where a tool is missing
// the test is skipped with a message naming it, or failed when the CI
// environment variable is set (.ci/run installs everything).
package exampleprog

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Missing skips tb for a tool that is not installed, naming it and the
// Debian package that provides it, or fails tb under CI.
func Missing(tb testing.TB, tool, pkg string) {
	tb.Helper()
	if os.Getenv("CI") != "" {
		tb.Fatalf("%s is not installed (Debian package %s), and CI is set", tool, pkg)
	}
	tb.Skipf("%s is not installed (Debian package %s; .ci/run installs it)", tool, pkg)
}

// Root returns the directory of the chbench module: the nearest directory
// above the working directory holding its go.mod.
func Root(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(b, []byte("module github.com/chbench/chbench\n")) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("no chbench go.mod above the working directory")
		}
		dir = parent
	}
}

// Path returns the absolute path of rel, a path inside the module.
func Path(tb testing.TB, rel string) string {
	tb.Helper()
	return filepath.Join(Root(tb), filepath.FromSlash(rel))
}

// Python returns a Python 3 interpreter for the standard-library-only
// examples: /usr/bin/python3 (Debian's), else python3 in PATH.
func Python(tb testing.TB) string {
	tb.Helper()
	for _, p := range []string{"/usr/bin/python3", "python3"} {
		if path, err := exec.LookPath(p); err == nil {
			if out, err := exec.Command(path, "-c", "import hashlib, urllib.parse, bisect; print('ok')").Output(); err == nil && strings.TrimSpace(string(out)) == "ok" {
				return path
			}
		}
	}
	Missing(tb, "python3", "python3")
	return ""
}

// BuildC compiles the C program src (a path inside the module) with gcc
// -O2 into a temporary directory and returns the binary's path.
func BuildC(tb testing.TB, src string) string {
	tb.Helper()
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		Missing(tb, "gcc", "gcc")
	}
	bin := filepath.Join(tb.TempDir(), strings.TrimSuffix(filepath.Base(src), ".c"))
	out, err := exec.Command(gcc, "-O2", "-Wall", "-Werror", "-o", bin, Path(tb, src)).CombinedOutput()
	if err != nil {
		tb.Fatalf("gcc %s: %v\n%s", src, err, out)
	}
	return bin
}

// PythonCommand returns the shell command that runs the Python script
// script (a path inside the module): the text after exec:.
func PythonCommand(tb testing.TB, script string) string {
	tb.Helper()
	return Quote(Python(tb)) + " " + Quote(Path(tb, script))
}

// Quote quotes s for sh: in single quotes, each single quote written '\”.
func Quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
