package dump

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/chbench/chbench/internal/exampleprog"
)

func sprintServers(n int, format string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf(format, i+1)
	}
	return out
}

// The guess finds the placement that wrote a dump, with the right label
// strings and order: jump under FNV-1a 64 on servers listed in sorted
// order, and ketama hashing "host:11211" for servers the dump names by
// host alone, each agreeing on every key and ranked first.
func TestGuess(t *testing.T) {
	keys := testKeys(1000)
	for _, tc := range []struct {
		name, hash string
		servers    []string
		rename     func(string) string
		want       Candidate
	}{
		{"jump", "fnv1a64", sprintServers(8, "cache-%d"), nil, Candidate{Algorithm: "jump", Hash: "fnv1a64", Labels: "as given", Order: "sorted"}},
		{"ketama", "", sprintServers(5, "10.0.0.%d:11211"), func(s string) string { return strings.TrimSuffix(s, ":11211") },
			Candidate{Algorithm: "ketama", Labels: "host:11211"}},
	} {
		dump := dumpOf(t, locator(t, tc.name, tc.hash, tc.servers...), keys, tc.rename, nil)
		g, err := Guess(NewReader(strings.NewReader(dump), tc.name+".tsv"), GuessOptions{Top: 3})
		if err != nil {
			t.Fatal(err)
		}
		best := g.Best[0]
		if best.Algorithm != tc.want.Algorithm || best.Hash != tc.want.Hash || best.Labels != tc.want.Labels || best.Order != tc.want.Order || best.Agree != len(keys) {
			var b strings.Builder
			g.WriteText(&b)
			t.Errorf("%s: best guess %+v, want %+v on all %d keys\n%s", tc.name, best, tc.want, len(keys), b.String())
		}
		if g.Keys != len(keys) || len(g.Servers) != len(tc.servers) {
			t.Errorf("%s: %d keys and servers %v", tc.name, g.Keys, g.Servers)
		}
	}
}

// A dump written by a client library nobody here wrote, uhashring's
// ketama ring (Debian's python3-uhashring), is recognised as chbench's
// ketama on the server names as given: libketama's layout of 160 MD5
// points per server, which uhashring and twemproxy share, places every
// key alike.
func TestGuessUhashring(t *testing.T) {
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import uhashring").Run(); err != nil {
		exampleprog.Missing(t, "the uhashring module of /usr/bin/python3", "python3-uhashring")
	}
	script := `
import sys
from urllib.parse import quote_from_bytes
from uhashring import HashRing
ring = HashRing(nodes=["10.0.0.%d:11211" % i for i in range(1, 7)], hash_fn="ketama")
for i in range(1000):
    key = "user:%d" % i
    print(quote_from_bytes(key.encode(), safe="!\"#$&'()*+,/:;<=>?@[\\]^` + "`" + `{|}~") + "\t" + ring.get_node(key))
`
	out, err := exec.Command(py, "-c", script).Output()
	if err != nil {
		t.Fatalf("uhashring: %v", err)
	}
	g, err := Guess(NewReader(strings.NewReader(string(out)), "uhashring.tsv"), GuessOptions{Top: 3})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	g.WriteText(&b)
	if best := g.Best[0]; best.Algorithm != "ketama" || best.Labels != "as given" || best.Agree != 1000 {
		t.Errorf("best guess %+v, want ketama on the names as given, every key agreeing\n%s", best, b.String())
	}
	t.Log("\n" + b.String())
}
