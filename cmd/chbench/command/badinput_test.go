package command

import (
	"errors"
	"flag"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/chbench/chbench/cmd/internal/cli"
)

// Each case is a hostile command line that must fail before any work
// (keys are 10^9 per set, so a run that started would not finish) with an
// error naming the bad value, and without output.
func TestBadFlagsFailBeforeWork(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"move", "-algo", "ring", "-from", "10", "-workers", "-3"}, "workers -3"},
		{[]string{"spread", "-algo", "ring", "-nodes", "10", "-workers", "-1"}, "workers -1"},
		{[]string{"reference", "-workers", "-2"}, "workers -2"},
		{[]string{"move", "-algo", "ring", "-from", "10", "-workers", "100000000"}, "workers 100000000"},
		// A bad op after a good one fails before the good one runs.
		{[]string{"move", "-algo", "all", "-from", "grid", "-op", "add,bogus"}, `"bogus"`},
		{[]string{"move", "-algo", "ring", "-from", "10", "-op", "add,,churn"}, `op ""`},
		{[]string{"move", "-algo", "ring", "-from", "10", "-op", "add,add"}, `op "add"`},
		// -shares without csv is refused before the run.
		{[]string{"spread", "-algo", "all", "-nodes", "grid", "-shares"}, "-format table"},
		// Repeated entries ran and wrote each configuration twice.
		{[]string{"move", "-algo", "ring,ring", "-from", "10"}, `algo "ring"`},
		{[]string{"spread", "-algo", "ring", "-nodes", "10,10"}, "nodes 10"},
		{[]string{"move", "-algo", "ring", "-from", "10", "-hash", "xxhash,xxhash"}, `hash "xxhash"`},
		{[]string{"spread", "-algo", "ring", "-nodes", "10", "-vnodes", "10,10"}, "vnodes 10"},
		// An empty hash entry silently meant the default hash.
		{[]string{"spread", "-algo", "ring", "-nodes", "10", "-hash", "fnv1a64,"}, `hash "fnv1a64,"`},
		{[]string{"spread", "-algo", "ring", "-nodes", "10", "-hash", ""}, `hash ""`},
		// Placement mode, layout draws and the movement key scaling.
		{[]string{"spread", "-algo", "ring", "-nodes", "10", "-placement", "sometimes"}, `placement "sometimes"`},
		{[]string{"spread", "-algo", "ring", "-nodes", "10", "-draws", "-1"}, "draws -1"},
		{[]string{"move", "-algo", "ring", "-from", "10", "-min-moves", "-5"}, "min-moves -5"},
		{[]string{"move", "-algo", "ring", "-from", "10", "-max-keys", "0"}, "max-keys 0"},
		{[]string{"spread", "-algo", "bounded", "-nodes", "10", "-partitions", "-4"}, "partitions -4"},
		// A node named twice to leave is refused, not counted once.
		{[]string{"move", "-algo", "ring", "-from", "10", "-leave", "node-1", "-leave", "node-1"}, `"node-1": named twice`},
		{[]string{"storm", "-algo", "ring", "-from", "10", "-leave", "node-1", "-leave", "node-1"}, `"node-1": named twice`},
	} {
		args := append(c.args, "-keys", "1000000000")
		if c.args[0] == "reference" {
			args = c.args
		}
		out, _, err := runCLI(t, args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("chbench %s: error %v, want one naming %s", strings.Join(c.args, " "), err, c.want)
		}
		if out != "" {
			t.Errorf("chbench %s: wrote %q before failing", strings.Join(c.args, " "), out)
		}
	}
}

// helpFlags returns, for every command in name order, the flags its -h
// text lists with a type matching kind ("-name TYPE" lines): {command,
// flag} pairs.
func helpFlags(t *testing.T, kind string) [][2]string {
	t.Helper()
	re := regexp.MustCompile(`(?m)^  -(\S+) (` + kind + `)$`)
	names := make([]string, 0, len(commands))
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	var out [][2]string
	for _, cmd := range names {
		_, help, err := runCLI(t, cmd, "-h")
		if !errors.Is(err, flag.ErrHelp) {
			t.Fatalf("%s -h: %v", cmd, err)
		}
		for _, m := range re.FindAllStringSubmatch(help, -1) {
			out = append(out, [2]string{cmd, m[1]})
		}
	}
	return out
}

// Every integer flag of every command (found in its -h text: "-name int"
// or "-name uint") reads plain decimal, the syntax of the comma-separated
// list flags, where the flag package's base 0 would read -nodes 0x10 as
// 16, 1_000 as 1000 and 010 as 8. Other syntax is a usage error naming
// the flag and the value.
func TestIntegerFlagsAreDecimal(t *testing.T) {
	ints := helpFlags(t, "int|uint")
	for _, cf := range ints {
		cmd, name := cf[0], cf[1]
		for _, v := range []string{"0x10", "1_000", "0o7", "0b1", "1e3", "2.0"} {
			// -no-such-flag ends a command line whose integer was
			// accepted before any work starts.
			for _, args := range [][]string{{cmd, "-" + name, v, "-no-such-flag"}, {cmd, "-" + name + "=" + v, "-no-such-flag"}} {
				_, _, err := runCLI(t, args...)
				var stderr strings.Builder
				if code := cli.ExitCode(err, &stderr); code != 2 || !strings.Contains(stderr.String(), fmt.Sprintf("-%s %q: not a decimal integer", name, v)) {
					t.Errorf("chbench %s: exit %d, %q; want exit 2 naming -%s %q", strings.Join(args, " "), code, stderr.String(), name, v)
				}
			}
		}
	}
	if found := len(ints); found < 70 {
		t.Errorf("found %d integer flags in the commands' help, want 70 or more (did the help format change?)", found)
	}
	// A leading zero is decimal too, as in the lists: 010 nodes are 10.
	ten, _, err := runCLI(t, "locate", "-algo", "modulo", "-nodes", "10", "a", "b", "c", "d")
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"-nodes", "010"}, {"-nodes=010"}, {"-nodes", " 10 "}, {"-nodes", "+10"}} {
		out, _, err := runCLI(t, append(append([]string{"locate", "-algo", "modulo"}, args...), "a", "b", "c", "d")...)
		if err != nil || out != ten {
			t.Errorf("locate %v: %q (%v), want the owners of -nodes 10 %q", args, out, err, ten)
		}
	}
	if _, _, err := runCLI(t, "spread", "-algo", "ring", "-nodes", "3", "-seed", "-1"); err == nil || !strings.Contains(err.Error(), `-seed "-1": not a decimal integer >= 0`) {
		t.Errorf("-seed -1: error %v", err)
	}
	if _, _, err := runCLI(t, "spread", "-algo", "ring", "-nodes", "3", "-keys", "99999999999999999999"); err == nil || !strings.Contains(err.Error(), `-keys "99999999999999999999": out of range`) {
		t.Errorf("-keys 10^20: error %v", err)
	}
}

// Every float flag of every command (found in its -h text: "-name float")
// reads plain decimal or exponent notation only, as the integer flags
// read plain decimal, where strconv.ParseFloat would take Go literals
// (storm -hit 1_0 a hit ratio of 10, -hit 0x1p-1 one of 0.5). Other syntax is a
// usage error naming the flag and the value as typed.
func TestFloatFlagsAreDecimal(t *testing.T) {
	floats := helpFlags(t, "float")
	for _, cf := range floats {
		cmd, name := cf[0], cf[1]
		for _, v := range []string{"1_0", "0x1p-1", "0X10", "Inf", "NaN", "-infinity", "1e", ".", "1.5.2"} {
			for _, args := range [][]string{{cmd, "-" + name, v, "-no-such-flag"}, {cmd, "-" + name + "=" + v, "-no-such-flag"}} {
				_, code, stderr := exitOf(t, args...)
				if code != 2 || !strings.Contains(stderr, fmt.Sprintf("-%s %q: not a decimal number", name, v)) {
					t.Errorf("chbench %s: exit %d, %q; want exit 2 naming -%s %q", strings.Join(args, " "), code, stderr, name, v)
				}
			}
		}
		// Plain decimal and exponent forms get past the syntax check
		// (to -no-such-flag, or to the flag's own range check).
		for _, v := range []string{"0.95", "1e-3", "2", "+.5", "5.", "1E+2", " 0.25 "} {
			_, _, stderr := exitOf(t, cmd, "-"+name, v, "-no-such-flag")
			if strings.Contains(stderr, "not a decimal number") {
				t.Errorf("chbench %s -%s %q: %q, want the value accepted", cmd, name, v, stderr)
			}
		}
	}
	if found := len(floats); found < 12 {
		t.Errorf("found %d float flags in the commands' help, want 12 or more (did the help format change?)", found)
	}
	// The value reaches the command as the number typed: -hit 0.9 and
	// -hit " 9e-1 " are the same run.
	want, _, err := runCLI(t, "storm", "-algo", "ring", "-keys", "100", "-sets", "2", "-hit", "0.9")
	if err != nil {
		t.Fatal(err)
	}
	if got, _, err := runCLI(t, "storm", "-algo", "ring", "-keys", "100", "-sets", "2", "-hit", " 9e-1 "); err != nil || got != want {
		t.Errorf("-hit \" 9e-1 \": %v, output differs from -hit 0.9's", err)
	}
	// The float lists take the same syntax.
	for _, args := range [][]string{
		{"load", "-zipf", "0.5,1_0"},
		{"bounded", "-eps", "0x1p-2"},
		{"move", "-from", "10", "-leave-frac", "1_0"},
		{"replication", "-from", "10", "-reweight-frac", "0x1p-1", "-reweight-to", "2"},
	} {
		if _, code, stderr := exitOf(t, args...); code != 2 || !strings.Contains(stderr, ": not a decimal number") {
			t.Errorf("chbench %s: exit %d, %q; want exit 2, not a decimal number", strings.Join(args, " "), code, stderr)
		}
	}
}

// A fraction listed twice in -leave-frac or -reweight-frac is refused, as
// a repeated entry of every other list flag is: it printed the same rows
// twice.
func TestFleetFractionsListedTwice(t *testing.T) {
	for _, cmd := range []string{"move", "replication"} {
		for _, args := range [][]string{
			{"-leave-frac", "0.1,0.1"},
			{"-leave-frac", "0.1,0.2,0.10"},
			{"-reweight-frac", "0.1,0.1", "-reweight-to", "2"},
		} {
			full := append([]string{cmd, "-algo", "ring", "-from", "10", "-keys", "10", "-sets", "2"}, args...)
			out, code, stderr := exitOf(t, full...)
			if code != 2 || out != "" || !strings.Contains(stderr, "listed twice") || !strings.Contains(stderr, args[0][1:]) {
				t.Errorf("chbench %s: exit %d, stdout %q, stderr %q; want exit 2, listed twice", strings.Join(full, " "), code, out, stderr)
			}
		}
	}
}
