package command

import (
	"strings"
	"testing"

	"github.com/chbench/chbench/cmd/internal/cli"
)

// Arguments a command does not take are a usage error that names every
// one of them, quoted, and says when a flag came after an argument.
func TestUnexpectedArgumentsAreNamed(t *testing.T) {
	for name := range commands {
		switch name {
		case "locate", "slot": // their arguments are keys
			continue
		case "dump-diff": // one dump file: below
			continue
		}
		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{"a"}, `unexpected argument "a"`},
			{[]string{"a", "b c"}, `unexpected arguments "a" "b c"`},
			{[]string{"a", "-o", "x"}, `unexpected arguments "a" "-o" "x" ("-o" is read as an argument: flags go before the first argument)`},
		} {
			args := append([]string{name}, c.args...)
			_, _, err := runCLI(t, args...)
			if err == nil || !cli.IsUsage(err) || err.Error() != c.want {
				t.Errorf("chbench %s: error %v (usage error: %v), want the usage error %q", strings.Join(args, " "), err, cli.IsUsage(err), c.want)
			}
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "want one dump file (KEY<TAB>SERVER lines), got none"},
		{[]string{"a", "b", "c"}, `want one dump file (KEY<TAB>SERVER lines), got 3 arguments: "a" "b" "c"`},
		{[]string{"a", "b"}, `want one dump file (KEY<TAB>SERVER lines), got 2 arguments: "a" "b"`},
	} {
		args := append([]string{"dump-diff"}, c.args...)
		_, _, err := runCLI(t, args...)
		if err == nil || !cli.IsUsage(err) || err.Error() != c.want {
			t.Errorf("chbench %s: error %v (usage error: %v), want the usage error %q", strings.Join(args, " "), err, cli.IsUsage(err), c.want)
		}
	}
}
