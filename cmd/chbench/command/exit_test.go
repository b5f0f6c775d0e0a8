package command

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The exit status follows benchstat: 2 for a usage error, 1 for an error
// while running, 0 for success and for -h. Each case runs the real
// command in a child process.
func TestExitStatus(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-keys.txt")
	for _, c := range []struct {
		code int
		args []string
	}{
		{0, []string{"slot", "a"}},
		{0, []string{"move", "-h"}},
		{0, []string{"-h"}},
		{2, nil}, // no command
		{2, []string{"bogus"}},
		{2, []string{"move", "-bogus"}},
		{2, []string{"move", "-algo", "ring", "-from", "x"}},
		{2, []string{"move", "-algo", "nope", "-from", "3"}},
		{2, []string{"move", "-algo", "ring"}}, // -from missing
		{2, []string{"spread", "-nodes", "3", "-format", "csv,bench"}},
		{2, []string{"spread", "-nodes", "3", "extra"}},
		{2, []string{"locate", "-algo", "ring", "-nodes", "3"}}, // no keys
		{2, []string{"locate", "-algo", "ring", "-nodes", "3", "-vnodes", "0", "k"}},
		{2, []string{"slot"}},
		{2, []string{"reference", "-format", "json"}},
		{2, []string{"plot", "extra"}},
		// More key sets than the key generator allows is a usage error too.
		{2, []string{"spread", "-algo", "ring", "-nodes", "3", "-keys", "10", "-sets", "1000000000"}},
		{2, []string{"load", "-nodes", "3", "-keys", "10", "-requests", "10", "-sets", "1000000000"}},
		{2, []string{"bounded", "-nodes", "3", "-keys", "10", "-requests", "10", "-sets", "1000000000"}},
		{2, []string{"move", "-algo", "ring", "-from", "3", "-keys", "10", "-sets", "1000000000"}},
		// Out-of-range values the analysis would find are usage errors too.
		{2, []string{"load", "-nodes", "3", "-keys", "10", "-requests", "9223372036854775807"}},
		{2, []string{"bounded", "-nodes", "3", "-keys", "10", "-requests", "10", "-eps", "0.1,1e-300"}},
		{2, []string{"locate", "-algo", "bounded", "-nodes", "3", "-eps", "1e-300", "k"}},
		{2, []string{"replication", "-algo", "ring", "-from", "2", "-replicas", "3", "-keys", "10"}},
		{1, []string{"move", "-algo", "ring", "-from", "3", "-keyfile", missing}},
		// A weighted change of an algorithm that takes no weights is a
		// usage error in move as in storm, replication and propagate.
		{2, []string{"move", "-algo", "ring,jump", "-from", "10", "-join-n", "2", "-join-weight", "2", "-keys", "100", "-sets", "1"}},
		{2, []string{"move", "-algo", "modulo", "-from", "10", "-reweight", "node-1=2", "-keys", "100", "-sets", "1"}},
		{2, []string{"storm", "-algo", "ring,jump", "-from", "10", "-join-n", "2", "-join-weight", "2", "-keys", "100", "-sets", "1"}},
		{2, []string{"propagate", "-algo", "ring,jump", "-from", "10", "-join-n", "2", "-join-weight", "2", "-keys", "100"}},
		// Every input file that is missing is an error while running, as
		// -keyfile is, though found before any work.
		{1, []string{"report", "-profile", missing}},
		{1, []string{"move", "-algo", "ring", "-members", missing, "-leave", "node-0"}},
		{1, []string{"load", "-nodes", "3", "-requestlog", missing}},
		// An -o whose directory is missing names no place to write: a
		// usage error, as every other bad -o.
		{2, []string{"spread", "-algo", "ring", "-nodes", "3", "-keys", "10", "-sets", "2", "-format", "csv", "-o", filepath.Join(missing, "x")}},
		{2, []string{"move", "-algo", "ring", "-from", "3", "-keys", "10", "-sets", "2", "-format", "csv", "-o", filepath.Join(missing, "x")}},
		{2, []string{"report", "-o", filepath.Join(missing, "x.md")}},
		{1, []string{"plot", "-dir", missing}},
	} {
		cmd := exec.Command(os.Args[0], c.args...)
		cmd.Env = append(os.Environ(), "CHBENCH_MAIN=1")
		out, err := cmd.CombinedOutput()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("chbench %s: %v", strings.Join(c.args, " "), err)
		}
		if code != c.code {
			t.Errorf("chbench %s: exit status %d, want %d\n%s", strings.Join(c.args, " "), code, c.code, out)
		}
		if code != 0 && !strings.Contains(string(out), "chbench: ") {
			t.Errorf("chbench %s: exit %d without an error message:\n%s", strings.Join(c.args, " "), code, out)
		}
	}
}

// The refusal of a reweight by an algorithm that takes no weights names
// the reweighted node and its new weight, not a node of the first
// node's weight.
func TestWeightedChangeNamesTheReweightedNode(t *testing.T) {
	_, _, err := runCLI(t, "move", "-algo", "jump", "-from", "10", "-reweight", "node-1=2", "-keys", "100", "-sets", "1")
	want := `jump: weights are not supported (node "node-0" has weight 1, node "node-1" 2)`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("move -reweight node-1=2: %v, want an error containing %q", err, want)
	}
}
