package live

import (
	"bufio"
	"os"
	"strings"
	"testing"
	"time"
)

// wordList is Debian's wamerican word list, a key set nobody here wrote.
const wordList = "/usr/share/dict/words"

// unavailable skips the test locally, or fails it when the CI environment
// variable is set (CI installs everything, so a missing piece is a bug).
func unavailable(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("CI: %s", why)
	}
	t.Skipf("skipped: %s (install the package, or run .ci/run)", why)
}

// need checks that every binary is installed.
func need(t *testing.T, bins ...string) {
	t.Helper()
	var missing []string
	for _, b := range bins {
		if _, err := LookBinary(b); err != nil {
			missing = append(missing, err.Error())
		}
	}
	if len(missing) > 0 {
		unavailable(t, strings.Join(missing, "; "))
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	p, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// started registers the stop of a process started by start (also when the
// test fails) and fails the test when it did not start.
func started(t *testing.T, start func() (*Process, error)) *Process {
	t.Helper()
	p, err := start()
	if err != nil {
		if IsMissing(err) {
			unavailable(t, err.Error())
		}
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := p.Stop(); err != nil {
			t.Error(err)
		}
	})
	return p
}

// words returns the word list's lines that are valid memcached keys (all
// of wamerican's).
func words(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(wordList)
	if err != nil {
		unavailable(t, wordList+" missing (Debian package wamerican)")
	}
	defer f.Close()
	var keys []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k := sc.Text(); ValidKey(k) {
			keys = append(keys, k)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(keys) < 1000 {
		t.Fatalf("%s: only %d keys", wordList, len(keys))
	}
	return keys
}

// deadline is the bound of one network exchange (a whole pipeline).
const deadline = 30 * time.Second
