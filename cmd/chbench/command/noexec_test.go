package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chbench/chbench/cmd/internal/cli"
)

// A command that does not take exec: placements says so for an exec:
// entry, with why and which commands do, as a usage error: not as an
// unknown algorithm followed by every catalog name. Nothing is started.
func TestExecRefusedWhereNotTaken(t *testing.T) {
	profile := filepath.Join(t.TempDir(), "fleet.toml")
	if err := os.WriteFile(profile, []byte("nodes = 4\nclient = \"ketama\"\n[[change]]\nname = \"grow-5\"\ngrow_to = 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const takers = "; move, spread, replication, domains, storm, load, simulate, conformance and dump-diff take them"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"propagate", "-algo", "exec:python3 x"},
			`propagate does not take exec: placements (-algo "exec:python3 x"): it builds every placement in process, once per membership version its clients hold` + takers},
		{[]string{"propagate", "-algo", "ring,exec:python3 x"},
			`propagate does not take exec: placements (-algo "ring,exec:python3 x"): it builds every placement in process, once per membership version its clients hold` + takers},
		{[]string{"switch", "-from", "ring", "-to", "exec:python3 x", "-nodes", "4"},
			`switch does not take exec: placements (-to "exec:python3 x"): it builds both placements of each switch in process, on the fleet's layout` + takers},
		{[]string{"switch", "-from", "exec:python3 x", "-to", "ring", "-nodes", "4"},
			`switch does not take exec: placements (-from "exec:python3 x"): it builds both placements of each switch in process, on the fleet's layout` + takers},
		{[]string{"locate", "-algo", "exec:python3 x", "-nodes", "4", "k"},
			`locate does not take exec: placements (-algo "exec:python3 x"): it builds the placement in process` + takers},
		{[]string{"fleet", "-profile", profile, "-algo", "ring,exec:python3 x", "-switching"},
			`fleet -switching does not take exec: placements (-algo "ring,exec:python3 x"): it builds both placements of each switch in process, on the fleet's layout (chbench switch)` + takers},
		{[]string{"fleet", "-profile", profile, "-algo", "exec:python3 x", "-lookup-args"},
			`fleet -lookup-args does not take exec: placements (-algo "exec:python3 x"): the lookup benchmarks (go test) build every placement in process` + takers},
	} {
		_, _, err := runCLI(t, c.args...)
		if err == nil || !cli.IsUsage(err) || err.Error() != c.want {
			t.Errorf("chbench %s:\n error %v (usage error: %v)\n want the usage error %q", strings.Join(c.args, " "), err, cli.IsUsage(err), c.want)
		}
	}
}
