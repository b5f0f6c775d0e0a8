package command

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chbench/chbench/cmd/internal/cli"
	"github.com/chbench/chbench/schema"
)

// fuzzCommands are the commands FuzzCLI drives: those that measure, so
// take a key file, a membership and a memory budget.
var fuzzCommands = []string{"move", "spread", "storm", "load", "bounded", "replication"}

// fuzzFlags are the flags FuzzCLI draws from, each with values a user
// might give: ordinary ones, edges and hostile ones (huge, negative,
// non-finite). No value makes a valid run slow: every size that is
// accepted stays small (keys and requests at most a few thousand), and
// the huge ones are refused by a limit or by the memory budget. KEYFILE
// and DIR are replaced by the run's key file and output directory.
var fuzzFlags = []struct {
	name   string
	values []string
}{
	{"algo", []string{"ring", "jump", "modulo", "bounded", "ring,jump", "rendezvous", "nosuch", ""}},
	{"nodes", []string{"3", "1", "0", "-1", "100000000"}},
	{"from", []string{"2", "1,2", "0", "3"}},
	{"to", []string{"3", "1", "0"}},
	{"op", []string{"add", "remove", "bogus", "shrink"}},
	{"keys", []string{"20", "1", "0", "9223372036854775807", "1e3"}},
	{"sets", []string{"2", "1", "0", "-3"}},
	{"vnodes", []string{"1", "0", "100000000"}},
	{"keyfile", []string{"KEYFILE", "DIR/nosuch"}},
	{"format", []string{"csv", "json", "bench", "table", "csv,json"}},
	{"o", []string{"DIR/out", "KEYFILE", "DIR/keys"}},
	{"mem", []string{"1MiB", "16MiB", "0", "-5"}},
	{"inflight", []string{"9223372036854775807", "100000000000", "1", "0"}},
	{"requests", []string{"30", "1", "0", "-5"}},
	{"zipf", []string{"0", "0.99", "-1", "NaN", "1e308"}},
	{"eps", []string{"0.1", "0", "-1", "Inf"}},
	{"partitions", []string{"9", "0", "1000000000"}},
	{"reads", []string{"1e-300", "50000", "0", "Inf"}},
	{"hit", []string{"0.95", "2", "-0.1"}},
	{"timeline", []string{"true", "false"}},
	{"points", []string{"5", "0", "1000000000"}},
	{"span", []string{"3", "0", "1e308"}},
	{"replicas", []string{"2", "0", "100"}},
	{"min-moves", []string{"0", "10"}},
	{"members", []string{"KEYFILE"}},
	{"leave", []string{"a", "node-0"}},
}

// nonFinite matches a number that is not finite as Go's formatting and
// encoding/csv would write it.
var nonFinite = regexp.MustCompile(`(?i)(^|[^a-z])([+-]?inf|nan)([^a-z]|$)`)

// FuzzCLI drives the whole command line, run(args), with flag sets drawn
// from fuzzFlags by the fuzzer's bytes (two bytes per flag: which flag,
// which value) and a key file of the fuzzer's text, under a memory
// budget of at most 64 MiB (-mem 64MiB first; a -mem drawn later may only
// lower it). It asserts what chbench promises for any input:
//   - no panic: run recovers one into an internal error, which fails;
//   - the exit status is 0, 1 or 2, and 2 (a usage error) comes before any
//     work: nothing on standard output and no file written;
//   - the heap stays within twice the budget plus 64 MiB, sampled every
//     millisecond (garbage the collector has not yet reclaimed may reach
//     the budget again; 64 MiB is the runtime's and the test's own);
//   - every number written is finite, and a CSV result reads back through
//     schema's readers, which check every column's domain and the
//     relations between columns (lo <= value <= hi);
//   - the key file, an input, is never written.
func FuzzCLI(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0, 5, 0, 6, 0, 9, 0}, "a\nb\nc\n")
	f.Add([]byte{2, 0, 0, 0, 5, 0, 6, 0, 20, 0, 18, 0, 9, 0}, "k1\nk2\n")
	f.Add([]byte{4, 0, 1, 0, 5, 0, 6, 0, 12, 0, 13, 0}, "x\n")
	f.Add([]byte{0, 0, 8, 0, 6, 0, 10, 1, 9, 0}, "\ufeffa\r\nb # c\n")
	f.Add([]byte{1, 0, 1, 0, 5, 4, 6, 0, 7, 1}, "")
	f.Fuzz(func(t *testing.T, pick []byte, keys string) {
		if len(pick) == 0 || len(pick) > 24 || len(keys) > 4096 {
			return
		}
		dir := t.TempDir()
		keyfile := filepath.Join(dir, "keys.txt")
		if err := os.WriteFile(keyfile, []byte(keys), 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{fuzzCommands[int(pick[0])%len(fuzzCommands)], "-mem", "64MiB"}
		for i := 1; i+1 < len(pick); i += 2 {
			fl := fuzzFlags[int(pick[i])%len(fuzzFlags)]
			v := fl.values[int(pick[i+1])%len(fl.values)]
			v = strings.ReplaceAll(strings.ReplaceAll(v, "KEYFILE", keyfile), "DIR", dir)
			args = append(args, "-"+fl.name, v)
		}
		if !slices.Contains(args, "-keyfile") && !slices.Contains(args, "-keys") {
			args = append(args, "-keys", "200") // the default 100,000 keys is slow
		}
		if args[0] == "load" || args[0] == "bounded" {
			if !slices.Contains(args, "-requests") {
				args = append(args, "-requests", "500")
			}
		}

		var base runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&base)
		var peak uint64
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			tick := time.NewTicker(time.Millisecond)
			defer tick.Stop()
			var m runtime.MemStats
			for {
				select {
				case <-stop:
					return
				case <-tick.C:
					runtime.ReadMemStats(&m)
					peak = max(peak, m.HeapAlloc)
				}
			}
		}()
		var out, errOut bytes.Buffer
		err := run(args, &out, &errOut)
		close(stop)
		wg.Wait()

		line := strings.Join(args, " ")
		if cli.IsInternal(err) {
			t.Fatalf("chbench %s: internal error: %v", line, err)
		}
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		var msg bytes.Buffer
		code := cli.ExitCode(err, &msg)
		if code < 0 || code > 2 {
			t.Fatalf("chbench %s: exit status %d", line, code)
		}
		if after, _ := os.ReadFile(keyfile); string(after) != keys {
			t.Fatalf("chbench %s: the key file, an input, was written", line)
		}
		entries, _ := os.ReadDir(dir)
		if code == 2 {
			if out.Len() != 0 || len(entries) != 1 {
				t.Fatalf("chbench %s: a usage error (%v) after work: %d bytes out, %d files in the directory", line, err, out.Len(), len(entries))
			}
		}
		if limit := uint64(2*64<<20 + 64<<20); peak > base.HeapAlloc+limit {
			t.Fatalf("chbench %s: heap reached %d MiB over the %d MiB before, past twice the 64 MiB budget plus 64 MiB", line, (peak-base.HeapAlloc)>>20, base.HeapAlloc>>20)
		}
		written := [][]byte{out.Bytes()}
		for _, e := range entries {
			if b, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil && e.Name() != "keys.txt" {
				written = append(written, b)
			}
		}
		for _, b := range written {
			for _, l := range strings.Split(string(b), "\n") {
				if strings.Contains(l, dir) { // a key_file cell names the file
					l = strings.ReplaceAll(l, dir, "")
				}
				if nonFinite.MatchString(l) {
					t.Fatalf("chbench %s: a number that is not finite: %q", line, l)
				}
			}
		}
		if code == 0 && out.Len() > 0 && argValue(args, "-format") == "csv" && !slices.Contains(args, "-o") {
			if err := readBack(args[0], slices.Contains(args, "-timeline"), out.Bytes()); err != nil {
				t.Fatalf("chbench %s: its CSV does not read back: %v\n%s", line, err, out.String())
			}
		}
	})
}

// readBack reads a command's CSV output with schema's reader of its row
// type, which checks every row (schema.Check).
func readBack(cmd string, timeline bool, b []byte) error {
	r := bytes.NewReader(b)
	var err error
	switch {
	case cmd == "move":
		_, err = schema.ReadCSV[schema.Move](r, "stdout")
	case cmd == "spread":
		_, err = schema.ReadCSV[schema.Spread](r, "stdout")
	case cmd == "storm" && timeline:
		_, err = schema.ReadCSV[schema.StormPoint](r, "stdout")
	case cmd == "storm":
		_, err = schema.ReadCSV[schema.Storm](r, "stdout")
	case cmd == "load":
		_, err = schema.ReadCSV[schema.Load](r, "stdout")
	case cmd == "bounded":
		_, err = schema.ReadCSV[schema.Bounded](r, "stdout")
	case cmd == "replication":
		_, err = schema.ReadCSV[schema.Replication](r, "stdout")
	}
	return err
}

// argValue returns the value of the last flag name in args.
func argValue(args []string, name string) string {
	v := ""
	for i := 0; i+1 < len(args); i++ {
		if args[i] == name {
			v = args[i+1]
		}
	}
	return v
}
