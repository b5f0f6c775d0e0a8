package cli

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms/external"
)

// An -algo list is catalog names first, then programs; a program's
// command keeps its commas and spaces up to the next ",exec:", and an
// empty command, an unknown name or a repeated entry is an error naming
// it.
func TestParseAlgos(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"ring,jump", []string{"ring", "jump"}},
		{"exec:python3 ring.py", []string{"exec:python3 ring.py"}},
		{"ring, exec:sort -t, -k2 x,exec:./jump", []string{"ring", "exec:sort -t, -k2 x", "exec:./jump"}},
		{"ring,jump,exec:a,b,c", []string{"ring", "jump", "exec:a,b,c"}},
	} {
		got, err := ParseAlgos(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("ParseAlgos(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for in, want := range map[string]string{
		"ring,exec:":          "exec: needs a command",
		"nope,exec:x":         `unknown algorithm "nope"`,
		"exec:x,exec:x":       `algo "exec:x": listed twice`,
		"ring,ring,exec:true": `algo "ring": listed twice`,
	} {
		if _, err := ParseAlgos(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseAlgos(%q): %v, want an error saying %q", in, err, want)
		}
	}
	if got, err := ParseAlgos("all,exec:./mine"); err != nil || len(got) < 2 || got[len(got)-1] != "exec:./mine" || got[0] != "modulo" {
		t.Errorf(`ParseAlgos("all,exec:./mine") = %q, %v; want every catalog name, then the program`, got, err)
	}
}

// hello is a shell command speaking the handshake only: it names itself
// name and then reads its input to the end (closing it ends it).
func hello(name string) string {
	return external.Prefix + "read l; echo 'ok 1 " + name + " weighted=no leave=any ordered=no'; cat >/dev/null"
}

// OpenPrograms names each program by its handshake, keeps catalog names
// where they were, and refuses a name that would mix rows up (a catalog
// name, one used twice) or cannot label them, naming the command; every
// program started is stopped then.
func TestOpenPrograms(t *testing.T) {
	ctx := context.Background()
	got, ps, err := OpenPrograms(ctx, []string{"ring", hello("mine"), hello("theirs")}, external.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []string{"ring", "mine", "theirs"}) || len(ps.Opened) != 2 || ps.Opened["mine"] == nil {
		t.Errorf("OpenPrograms: %q, %v", got, ps.Opened)
	}
	if err := ps.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := ps.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	for _, c := range []struct {
		algos []string
		want  string
	}{
		{[]string{hello("ring")}, `its handshake names it "ring", a catalog name`},
		{[]string{hello("mine"), hello("mine")}, `names it "mine", as another program of -algo does`},
		{[]string{hello("my%2Fring")}, `its handshake names it "my/ring", which cannot label results`},
		{[]string{hello("mine"), external.Prefix + "exit 4"}, "-algo exec:exit 4: external exit 4: hello"},
	} {
		_, ps, err := OpenPrograms(ctx, c.algos, external.Config{})
		if err == nil || !strings.Contains(err.Error(), c.want) || ps != nil {
			t.Errorf("OpenPrograms(%q): %v, want an error saying %q and no programs", c.algos, err, c.want)
		}
	}
}
