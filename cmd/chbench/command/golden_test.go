package command

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/chbench/chbench/analysis/reference"
)

// Golden-output tests: each case runs the real command line in-process
// through run and compares its standard output and standard error, byte
// for byte, with testdata/NAME.stdout and testdata/NAME.stderr (a missing
// file means empty output). After an intended change to the output,
// regenerate them with
//
//	go test ./cmd/chbench -run Golden -update
//
// and review the diff. The layout follows golang.org/x/perf's
// cmd/benchstat/main_test.go.
//
// What varies by machine is controlled or normalised explicitly:
//   - the source revision: every move, spread, load and bounded case passes
//     -commit golden
//     (otherwise the binary's VCS revision, or "unknown", is written);
//   - the Go version (go_version in CSV and JSON, "go:" in bench format)
//     comes from runtime.Version() and cannot be set by a flag: normalise
//     replaces it with the placeholder GOVERSION (see goVersionCases for
//     the cases that must contain it);
//   - the progress bar is drawn only when stderr is a terminal, and here it
//     is a buffer, so it never appears;
//   - -workers is left at its default (one per core): results do not depend
//     on it (checked with 1 and 3 workers), so a machine with a different
//     core count writes the same bytes;
//   - not controlled: the last digits of floating-point columns on an
//     architecture where the Go compiler fuses multiply-adds (arm64,
//     ppc64le, s390x) may differ from these files, written on amd64.
//
// Every algorithm list is spelled out rather than "all", so an algorithm
// registered later adds no rows to these files.

var update = flag.Bool("update", false, "rewrite testdata/*.stdout and testdata/*.stderr from the current output")

// goVersionPlaceholder replaces runtime.Version() in golden output.
const goVersionPlaceholder = "GOVERSION"

// six names the algorithms present when the golden files were written.
const six = "modulo,ring,rendezvous,jump,slots,bounded"

// trickyKeys are keys every locate and slot case places: the Redis Cluster
// spec's examples, hash tags (empty, nested, several, unclosed), the empty
// key, spaces, UTF-8 and a key longer than a cache line.
var trickyKeys = []string{
	"123456789", "foo", "user:1000", "", " ", "{}", "{", "}", "}{", "{user1000}.following",
	"foo{bar}zap", "foo{}{bar}", "foo{{bar}}zap", "foo{bar}{zap}", "{bar", "日本語{キー}",
	"key with spaces", "longer-key-with-more-bytes-than-a-cache-line-0123456789abcdefghijklmnopqrstuvwxyz",
}

// sample returns the path of a committed trace sample of package trace.
func sample(name string) string { return filepath.Join("..", "..", "..", "trace", "testdata", name) }

type goldenCase struct {
	name string
	args []string
}

func goldenCases() []goldenCase {
	keys := func(args ...string) []string { return append(args, trickyKeys...) }
	cases := []goldenCase{
		{"slot", keys("slot")},
		{"slot-help", []string{"slot", "-h"}},
		{"locate-weighted", keys("locate", "-algo", "ring", "-node-ids", "a,b,c", "-weights", "1,2,4", "-vnodes", "40", "-hash", "murmur3")},
		{"locate-bounded-eps", keys("locate", "-algo", "bounded", "-nodes", "7", "-eps", "0.1", "-partitions", "64", "-vnodes", "8", "-hash", "fnv1a64")},
		{"locate-nodes-0", []string{"locate", "-algo", "ring", "-nodes", "0", "k"}},

		{"move-table", []string{"move", "-algo", six, "-from", "4", "-to", "5", "-keys", "3000", "-sets", "2", "-commit", "golden"}},
		{"move-ops-table", []string{"move", "-algo", six, "-from", "6", "-op", "add,add-many,remove-last,remove-random,restore,shrink-random,shrink-lifo,churn", "-keys", "1000", "-sets", "2", "-seed", "7", "-commit", "golden"}},
		{"move-csv", []string{"move", "-algo", "ring,jump", "-from", "3,8", "-op", "add,remove-random", "-keys", "2000", "-sets", "2", "-commit", "golden", "-format", "csv"}},
		{"move-json", []string{"move", "-algo", "rendezvous,slots", "-from", "5", "-to", "3", "-keys", "2000", "-sets", "2", "-commit", "golden", "-format", "json"}},
		{"move-bench", []string{"move", "-algo", "modulo,bounded", "-from", "4", "-op", "add,restore", "-keys", "2000", "-sets", "2", "-commit", "golden", "-format", "bench"}},
		{"move-keys-0", []string{"move", "-algo", "ring", "-from", "4", "-to", "5", "-keys", "0", "-commit", "golden"}},

		{"spread-table", []string{"spread", "-algo", six, "-nodes", "3,5", "-keys", "3000", "-sets", "2", "-commit", "golden"}},
		{"spread-csv", []string{"spread", "-algo", "ring,jump", "-nodes", "3,10", "-vnodes", "10,100", "-hash", "xxhash,fnv1a64", "-keys", "2000", "-sets", "2", "-commit", "golden", "-format", "csv"}},
		{"spread-json", []string{"spread", "-algo", "ring,slots", "-nodes", "3", "-keys", "2000", "-sets", "2", "-commit", "golden", "-format", "json"}},
		{"spread-bench", []string{"spread", "-algo", "bounded,modulo", "-nodes", "4", "-keys", "2000", "-sets", "2", "-commit", "golden", "-format", "bench"}},
		{"spread-shares-csv", []string{"spread", "-algo", "ring,rendezvous,slots,bounded", "-nodes", "4", "-weights", "1,1,2,4", "-keys", "3000", "-sets", "2", "-commit", "golden", "-format", "csv", "-shares"}},
		{"spread-keyfile-table", []string{"spread", "-algo", six, "-node-ids", "alpha,beta,gamma", "-keyfile", "testdata/keys.txt", "-sets", "2", "-commit", "golden"}},
		{"spread-keyfile-json", []string{"spread", "-algo", "jump", "-nodes", "3", "-keyfile", "testdata/keys.txt", "-sets", "2", "-commit", "golden", "-format", "json"}},
		{"spread-sequential-bench", []string{"spread", "-algo", "ring,jump", "-nodes", "3", "-keys-kind", "sequential", "-keys", "2000", "-sets", "2", "-commit", "golden", "-format", "bench"}},

		{"load-table", []string{"load", "-algo", "ring,jump,bounded-partition,bounded-key,bounded-request", "-nodes", "5", "-keys", "500", "-requests", "3000", "-sets", "2", "-zipf", "0,1.1", "-commit", "golden"}},
		{"load-csv", []string{"load", "-algo", "ring,slots,bounded-request", "-nodes", "4", "-keys", "300", "-requests", "2000", "-sets", "2", "-zipf", "0.99", "-keys-kind", "uuid", "-commit", "golden", "-format", "csv"}},
		{"load-log-bench", []string{"load", "-algo", "modulo,bounded", "-nodes", "3", "-requestlog", "testdata/keys.txt", "-sets", "2", "-commit", "golden", "-format", "bench"}},
		{"load-zipf-bad", []string{"load", "-zipf", "0,-1", "-commit", "golden"}},
		{"bounded-table", []string{"bounded", "-nodes", "5", "-keys", "500", "-requests", "2000", "-sets", "2", "-eps", "0.25,1", "-zipf", "0,0.99", "-commit", "golden"}},
		{"bounded-json", []string{"bounded", "-nodes", "4", "-keys", "300", "-requests", "1000", "-sets", "2", "-eps", "0.5", "-commit", "golden", "-format", "json"}},
		{"bounded-bench", []string{"bounded", "-nodes", "4", "-keys", "300", "-requests", "1000", "-sets", "2", "-eps", "0.5", "-zipf", "1.2", "-commit", "golden", "-format", "bench"}},

		{"propagate-table", []string{"propagate", "-algo", six, "-from", "20", "-model", "linear:T=4s", "-rate", "500", "-keys", "2000", "-replays", "2", "-windows", "4", "-commit", "golden"}},
		{"propagate-csv", []string{"propagate", "-algo", "ring,jump", "-from", "10", "-op", "add,remove-random", "-model", "push:dist=exp,mean=0.5s", "-clients", "20", "-rate", "300", "-keys", "1000", "-replays", "2", "-windows", "3", "-commit", "golden", "-format", "csv"}},
		{"propagate-json", []string{"propagate", "-algo", "rendezvous,slots", "-from", "8", "-to", "10", "-model", "gossip:k=2,p=100ms", "-clients", "30", "-rate", "400", "-keys", "500", "-zipf", "0.9", "-writes", "0.1", "-cache", "-handoff", "0.2", "-replays", "2", "-windows", "2", "-commit", "golden", "-format", "json"}},
		{"propagate-fleet-table", []string{"propagate", "-algo", "ring,rendezvous,slots", "-node-ids", "a,b,c,d", "-join", "e", "-leave", "b", "-at", "1", "-model", "linear:T=2s", "-span", "0,4", "-clients", "10", "-rate", "500", "-keys", "1000", "-replays", "3", "-cache", "-commit", "golden"}},
		{"propagate-steps-table", []string{"propagate", "-algo", "jump,modulo", "-from", "6", "-op", "shrink-lifo", "-at", "1", "-every", "2", "-model", "instant", "-rate", "200", "-keys", "300", "-replays", "2", "-commit", "golden"}},
		// A trace's requests on its own clock: 200 MONITOR lines 0.1 s apart, rolled out over their 20 s.
		{"propagate-trace-table", []string{"propagate", "-algo", "ring,jump,modulo", "-from", "4", "-to", "5", "-model", "linear:T=20s", "-clients", "10", "-trace", sample("redis-monitor.txt"), "-cache", "-replays", "3", "-windows", "4", "-commit", "golden"}},
		{"propagate-trace-rate-bad", []string{"propagate", "-algo", "ring", "-trace", sample("redis-monitor.txt"), "-rate", "5", "-commit", "golden"}},
		{"propagate-headline-bad", []string{"propagate", "-headline", "-rate", "5", "-commit", "golden"}},
		{"propagate-help", []string{"propagate", "-h"}},
		{"domains-table", []string{"domains", "-algo", "ring,rendezvous,slots,crush", "-nodes", "12", "-racks", "6", "-zones", "3", "-replicas", "2,3", "-keys", "2000", "-sets", "2", "-commit", "golden"}},
		{"domains-uneven-csv", []string{"domains", "-algo", "jump,crush", "-nodes", "9", "-zones", "2,2,2,3", "-replicas", "2", "-keys", "2000", "-sets", "2", "-commit", "golden", "-format", "csv"}},
		{"domains-ranks-csv", []string{"domains", "-ranks", "-algo", "rendezvous,crush", "-weights", "3,3,3,1", "-keys", "2000", "-sets", "2", "-commit", "golden", "-format", "csv"}},
		{"domains-ranks-racks-table", []string{"domains", "-ranks", "-algo", "ring", "-nodes", "10", "-racks", "4,4,2", "-keys", "2000", "-sets", "2", "-commit", "golden"}},
		{"domains-changes-table", []string{"domains", "-changes", "-algo", "rendezvous,crush", "-nodes", "12", "-racks", "6", "-zones", "3", "-keys", "2000", "-sets", "2", "-commit", "golden"}},
		{"domains-changes-json", []string{"domains", "-changes", "-algo", "ring", "-nodes", "6", "-racks", "3", "-events", "rack:rack-0,+rack", "-keys", "1000", "-sets", "2", "-commit", "golden", "-format", "json"}},
		{"replication-racks-table", []string{"replication", "-algo", "ring,crush", "-from", "12", "-op", "remove-random", "-replicas", "3", "-racks", "4", "-keys", "2000", "-sets", "2", "-commit", "golden"}},
		// Traces: the committed samples of package trace, one per format.
		{"move-trace-table", []string{"move", "-algo", "ring,jump", "-from", "4", "-to", "5", "-trace", sample("twitter.csv.zst"), "-sets", "2", "-commit", "golden"}},
		{"spread-trace-csv", []string{"spread", "-algo", "ring,modulo", "-nodes", "4", "-trace", sample("twitter.csv"), "-sets", "2", "-draws", "0", "-commit", "golden", "-format", "csv"}},
		{"spread-trace-table", []string{"spread", "-algo", "ring,jump", "-nodes", "3", "-trace", sample("oracle-general.bin"), "-trace-keys", "requests", "-overhead", "50", "-sets", "2", "-draws", "0", "-commit", "golden"}},
		{"replication-trace-table", []string{"replication", "-algo", "ring,rendezvous", "-replicas", "2", "-from", "4", "-op", "add", "-trace", sample("redis-scan.txt"), "-trace-format", "redis-scan", "-sets", "2", "-commit", "golden"}},
		{"load-trace-table", []string{"load", "-algo", "ring,jump,bounded-request", "-nodes", "4", "-trace", sample("meta-kv-202401.csv"), "-sets", "2", "-commit", "golden"}},
		{"storm-trace-table", []string{"storm", "-algo", "ring,modulo", "-from", "4", "-to", "5", "-trace", sample("metadump.txt"), "-sets", "2", "-commit", "golden"}},
		{"spread-trace-ambiguous", []string{"spread", "-algo", "ring", "-nodes", "3", "-trace", "testdata/unknown-layout.csv", "-commit", "golden"}},
		{"spread-trace-format-alone", []string{"spread", "-algo", "ring", "-nodes", "3", "-trace-format", "twitter", "-commit", "golden"}},

		// The fleet simulation, a generated workload and the trace tools.
		{"simulate-table", []string{"simulate", "-algo", "ring,modulo,jump", "-nodes", "6", "-keys", "3000", "-requests", "30000", "-rate", "1000", "-clients", "4",
			"-memory", "128KiB", "-node-memory", "node-0=256KiB", "-join-n", "2", "-window", "5s", "-baseline", "2", "-commit", "golden"}},
		{"simulate-event-csv", []string{"simulate", "-algo", "ring,rendezvous", "-nodes", "4", "-keys", "2000", "-requests", "20000", "-rate", "500", "-clients", "3",
			"-memory", "96KiB", "-event", "10s fail node-1 detect=2s", "-event", "25s join node-9 weight=2", "-window", "5s", "-commit", "golden", "-format", "csv", "-rows", "event"}},
		{"simulate-trace-table", []string{"simulate", "-algo", "ring,jump", "-nodes", "3", "-trace", sample("twitter.csv"), "-memory", "6KiB", "-join-n", "1", "-join-at", "10s", "-window", "2s", "-baseline", "2", "-commit", "golden"}},
		{"simulate-join-at-trace", []string{"simulate", "-algo", "ring", "-nodes", "3", "-trace", sample("twitter.csv"), "-join-n", "1", "-commit", "golden"}},
		{"simulate-memory-0", []string{"simulate", "-algo", "ring", "-nodes", "3", "-memory", "0", "-commit", "golden"}},
		{"workload-twitter", []string{"workload", "-keys", "10", "-requests", "12", "-rate", "4", "-clients", "2", "-ops", "get=0.5,set=0.5", "-ttl", "0=0.5,30s=0.5"}},
		{"workload-redis-monitor", []string{"workload", "-keys", "10", "-requests", "6", "-rate", "4", "-trace-format", "redis-monitor", "-value-size", "fixed:3", "-ops", "get=0.5,set=0.5"}},
		{"trace-table", []string{"trace", "-trace", sample("meta-kv-202206.csv")}},
		{"trace-csv", []string{"trace", "-trace", sample("oracle-general.bin.zst"), "-format", "csv"}},

		{"move-dialect-table", []string{"move", "-algo", "twemproxy-ketama-md5,libmemcached-ketama-weighted,ketama", "-from", "5", "-op", "add,remove-random", "-keys", "2000", "-sets", "2", "-min-moves", "0", "-commit", "golden"}},
		{"switch-table", []string{"switch", "-from", "libmemcached-ketama-weighted", "-to", "twemproxy-ketama-md5,twemproxy-ketama-fnv1a-64", "-nodes", "5", "-keys", "2000", "-sets", "2", "-first", "3", "-commit", "golden"}},
		{"switch-members-table", []string{"switch", "-from", "python-memcached", "-to", "nginx-hash-consistent", "-members", "testdata/switch-fleet.txt", "-keyfile", "testdata/keys.txt", "-sets", "2", "-reads", "20000", "-hit", "0.9", "-working-set", "50000", "-commit", "golden"}},
		{"switch-csv", []string{"switch", "-from", "gomemcache,nginx-hash,ring", "-to", "gomemcache,nginx-hash,ring", "-nodes", "4", "-keys", "1000", "-sets", "2", "-format", "csv", "-commit", "golden"}},
		{"switch-json", []string{"switch", "-from", "haproxy-consistent", "-to", "haproxy-map-based", "-node-ids", "10.0.0.1:80,10.0.0.2:80,10.0.0.3:80", "-keys", "1000", "-sets", "2", "-first", "2", "-format", "json", "-commit", "golden"}},
		{"switch-unknown", []string{"switch", "-from", "nutcracker", "-to", "twemproxy-ketama-md5", "-commit", "golden"}},
	}
	for _, a := range strings.Split(six, ",") {
		cases = append(cases, goldenCase{"locate-" + a, keys("locate", "-algo", a, "-nodes", "5")})
	}
	return cases
}

// goVersionCases write the Go version (CSV, JSON and bench output of move,
// spread, load and bounded); normalise must find it there, or the placeholder would
// silently stop standing for anything.
func goVersionCases(name string) bool {
	for _, f := range []string{"-csv", "-json", "-bench"} {
		if strings.HasSuffix(name, f) && !strings.Contains(name, "shares") {
			return true
		}
	}
	return false
}

// Every golden case's output equals its file in testdata byte for byte,
// and runs that record the Go version do.
func TestGolden(t *testing.T) {
	for _, c := range goldenCases() {
		t.Run(c.name, func(t *testing.T) {
			stdout := golden(t, c.name, c.args...)
			if goVersionCases(c.name) && !bytes.Contains(stdout, []byte(goVersionPlaceholder)) {
				t.Errorf("output of %s does not record the Go version", c.name)
			}
		})
	}
}

// refGolden is the size of the reference golden runs: smaller than
// refSmall (reference_test.go) so that two runs stay fast under -race.
// The published values and the code paths are those of the default size;
// only the sampled rows' sizes, and so their tolerances, shrink.
var refGolden = reference.Size{MoveKeys: 1000, MoveSets: 2, ShareKeys: 2000, Replicas: 40,
	LawKeys: 5000, LawSets: 2, RingNodes: 100, BoundedRuns: 1, BoundedNodes: 10}

// TestGoldenReference runs chbench reference (table and CSV) at size
// refGolden instead of the default one, which takes seconds without -race
// and a minute with it.
func TestGoldenReference(t *testing.T) {
	saved := reference.Default
	reference.Default = refGolden
	t.Cleanup(func() { reference.Default = saved })
	golden(t, "reference-table", "reference")
	golden(t, "reference-csv", "reference", "-format", "csv", "-seed", "3")
}

// golden runs chbench with args, normalises its output and compares it
// with testdata/name.stdout and testdata/name.stderr, or rewrites them with
// -update. The error run returns is written to stderr the way main prints
// it. It returns the normalised stdout.
func golden(t *testing.T, name string, args ...string) []byte {
	t.Helper()
	t.Logf("chbench %s", strings.Join(args, " "))
	var stdout, stderr bytes.Buffer
	if err := run(args, &stdout, &stderr); err != nil && !errors.Is(err, flag.ErrHelp) {
		stderr.WriteString("chbench: " + err.Error() + "\n")
	}
	out, errOut := normalise(stdout.Bytes()), normalise(stderr.Bytes())
	compareGolden(t, name+".stdout", out)
	compareGolden(t, name+".stderr", errOut)
	return out
}

// normalise replaces the Go version, the one machine-dependent field that
// no flag controls, with goVersionPlaceholder.
func normalise(b []byte) []byte {
	return bytes.ReplaceAll(b, []byte(runtime.Version()), []byte(goVersionPlaceholder))
}

// compareGolden compares got with testdata/file (missing = empty), or with
// -update writes it (removing the file when got is empty).
func compareGolden(t *testing.T, file string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", file)
	if *update {
		var err error
		if len(got) == 0 {
			err = os.Remove(path)
			if errors.Is(err, os.ErrNotExist) {
				err = nil
			}
		} else {
			err = os.WriteFile(path, got, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	if bytes.Equal(want, got) {
		return
	}
	t.Errorf("%s differs from the output (run with -update to accept it):\n%s", path, lineDiff(want, got))
}

// lineDiff reports the first differing line of want and got, with the line
// counts, enough to find the change without a diff tool.
func lineDiff(want, got []byte) string {
	w := strings.Split(string(want), "\n")
	g := strings.Split(string(got), "\n")
	line := func(l []string, i int) string {
		if i < len(l) {
			return strconv.Quote(l[i])
		}
		return "(no line)"
	}
	for i := 0; i < len(w) || i < len(g); i++ {
		if i >= len(w) || i >= len(g) || w[i] != g[i] {
			return fmt.Sprintf("first difference at line %d:\n  want %s\n  got  %s\n(%d lines wanted, %d got)",
				i+1, line(w, i), line(g, i), len(w), len(g))
		}
	}
	return "(same lines, different bytes)"
}
