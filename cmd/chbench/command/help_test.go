package command

import (
	"errors"
	"flag"
	"strings"
	"testing"
)

// -h lists only what a command accepts: replication and storm write one
// format to standard output, so they have no -o and no bench format (their
// -h offered both, and using them was then refused); move, spread, load
// and bounded have both.
func TestHelpOffersOnlyAcceptedOutput(t *testing.T) {
	for _, c := range []struct {
		cmd    string
		prefix bool
	}{{"replication", false}, {"storm", false}, {"move", true}, {"spread", true}, {"load", true}, {"bounded", true}} {
		_, stderr, err := runCLI(t, c.cmd, "-h")
		if !errors.Is(err, flag.ErrHelp) {
			t.Fatalf("%s -h: %v", c.cmd, err)
		}
		hasO := strings.Contains(stderr, "\n  -o PREFIX\n")
		var format string
		if i := strings.Index(stderr, "\n  -format string\n"); i >= 0 {
			format, _, _ = strings.Cut(stderr[i+len("\n  -format string\n"):], "\n")
		}
		if hasO != c.prefix || strings.Contains(format, "bench") != c.prefix || format == "" {
			t.Errorf("%s -h: -o listed %v, -format %q; want -o and bench both %v", c.cmd, hasO, format, c.prefix)
		}
		if c.prefix {
			continue
		}
		for _, args := range [][]string{{"-o", "x"}, {"-format", "bench"}, {"-format", "csv,json"}} {
			_, code, stderr := exitOf(t, append([]string{c.cmd}, args...)...)
			if code != 2 || (!strings.Contains(stderr, "flag provided but not defined: -o") && !strings.Contains(stderr, "writes")) {
				t.Errorf("%s %s: exit %d, %q; want exit 2, refused", c.cmd, strings.Join(args, " "), code, stderr)
			}
		}
	}
}

// -format " csv" is csv for storm and replication as for the other
// commands (surrounding spaces trimmed); it printed the table.
func TestStdoutOnlyFormatTrimmed(t *testing.T) {
	for _, cmd := range [][]string{
		{"storm", "-algo", "ring", "-keys", "100", "-sets", "2"},
		{"replication", "-algo", "ring", "-replicas", "2", "-from", "3", "-keys", "100", "-sets", "2"},
	} {
		out, _, err := runCLI(t, append(cmd, "-format", " csv ")...)
		if err != nil || !strings.HasPrefix(out, "algo,hash,vnodes,") {
			t.Errorf("%s -format \" csv \": %v, output %.80q; want CSV", cmd[0], err, out)
		}
	}
}
