package catalog

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/external"
	"github.com/chbench/chbench/algorithms/rendezvous"
	"github.com/chbench/chbench/internal/exampleprog"
)

// withRegistry runs f and then removes every placement it registered, so
// that the other tests and examples of this package see the built-in
// catalog only.
func withRegistry(t *testing.T) {
	t.Helper()
	registered.Lock()
	saved := slices.Clone(registered.infos)
	registered.Unlock()
	t.Cleanup(func() {
		registered.Lock()
		registered.infos = saved
		registered.Unlock()
	})
}

func rendezvousBuild(nodes []algorithms.Node, cfg Config) (algorithms.Placer, error) {
	return rendezvous.New(nodes, algorithms.MustHash(cfg.Hash))
}

// A registered placement is listed after the built-in ones and is built,
// checked, estimated and opened by name like them, with the facts it
// declared; the membership is validated before its constructor runs.
func TestRegister(t *testing.T) {
	withRegistry(t)
	calls := 0
	build := func(nodes []algorithms.Node, cfg Config) (algorithms.Placer, error) {
		calls++
		return rendezvousBuild(nodes, cfg)
	}
	if err := Register(Info{Name: "my-hrw", Weighted: true, JoinMinimal: true, LeaveMinimal: true, Build: build}); err != nil {
		t.Fatal(err)
	}
	names := Names()
	if names[len(names)-1] != "my-hrw" || len(names) != len(infos)+1 {
		t.Fatalf("Names() = %v, want the built-in names then my-hrw", names)
	}
	in, err := Describe("my-hrw")
	if err != nil || in.Family != "registered" {
		t.Fatalf("Describe: %+v, %v", in, err)
	}
	if got, err := ParseNames("ring,my-hrw"); err != nil || !slices.Equal(got, []string{"ring", "my-hrw"}) {
		t.Errorf("ParseNames: %v, %v", got, err)
	}
	nodes, _ := algorithms.DefaultNodes(5)
	p, err := New("my-hrw", nodes, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if p.Locate("user:1000") == "" {
		t.Error("no owner")
	}
	if _, err := New("my-hrw", []algorithms.Node{{ID: "a", Weight: 1}, {ID: "a", Weight: 1}}, DefaultConfig()); err == nil ||
		!strings.Contains(err.Error(), `duplicate node ID "a"`) || calls != 1 {
		t.Errorf("duplicate IDs: %v after %d builds, want the validation error before Build runs", err, calls)
	}
	if err := Check("my-hrw", nodes, DefaultConfig()); err != nil {
		t.Errorf("Check: %v", err)
	}
	if c, err := Estimate("my-hrw", nodes, DefaultConfig()); err != nil || c.Bytes != 0 || !strings.Contains(c.How, "not estimated") {
		t.Errorf("Estimate: %+v, %v", c, err)
	}
	b, err := Open(context.Background(), "my-hrw", DefaultConfig(), external.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if f := b.Facts(); !f.Weighted || f.Ordered || f.OnlyLastLeaves || f.Replicas != algorithms.MaxReplicas {
		t.Errorf("facts %+v", f)
	}
	l, err := b.New(nodes)
	if err != nil {
		t.Fatal(err)
	}
	owners := make([]int, 1)
	if err := l.LocateKeys([]string{"user:1000"}, owners); err != nil || nodes[owners[0]].ID != p.Locate("user:1000") {
		t.Errorf("the Builder's Locator places user:1000 on %d (%v), the placer on %s", owners[0], err, p.Locate("user:1000"))
	}
}

// Bad registrations are errors naming what is wrong, and leave the
// catalog as it was.
func TestRegisterErrors(t *testing.T) {
	withRegistry(t)
	if err := Register(Info{Name: "twice", Build: rendezvousBuild}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		in   Info
		want string
	}{
		{Info{Name: "", Build: rendezvousBuild}, `register ""`},
		{Info{Name: "has space", Build: rendezvousBuild}, `register "has space"`},
		{Info{Name: "a,b", Build: rendezvousBuild}, `register "a,b"`},
		{Info{Name: "exec:x", Build: rendezvousBuild}, `register "exec:x"`},
		{Info{Name: "all", Build: rendezvousBuild}, `not "all"`},
		{Info{Name: "ring", Build: rendezvousBuild}, `register "ring": the name is taken`},
		{Info{Name: "twice", Build: rendezvousBuild}, `register "twice": the name is taken`},
		{Info{Name: "nobuild"}, `register "nobuild": Build is nil`},
	} {
		if err := Register(tc.in); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Register(%q): %v, want an error containing %q", tc.in.Name, err, tc.want)
		}
	}
	if n := len(Names()); n != len(infos)+1 {
		t.Errorf("%d names after the bad registrations, want %d", n, len(infos)+1)
	}
	if err := Register(Info{Name: "nil-placer", Build: func([]algorithms.Node, Config) (algorithms.Placer, error) { return nil, nil }}); err != nil {
		t.Fatal(err)
	}
	nodes, _ := algorithms.DefaultNodes(2)
	if _, err := New("nil-placer", nodes, DefaultConfig()); err == nil || !strings.Contains(err.Error(), "nil-placer: Build returned no placement") {
		t.Errorf("a Build returning nil, nil: %v", err)
	}
	if _, err := Open(context.Background(), "nope", DefaultConfig(), external.Config{}); err == nil || !strings.Contains(err.Error(), `unknown algorithm "nope"`) {
		t.Errorf("Open of an unknown name: %v", err)
	}
	if _, err := Open(context.Background(), "exec:", DefaultConfig(), external.Config{}); err == nil || !strings.Contains(err.Error(), "no program") {
		t.Errorf("Open of an empty command: %v", err)
	}
}

// An exec: name opens the program with the template's settings (here a
// working directory, so that a relative script path resolves): its
// Builder has the handshake's name and facts, builds Locators that answer,
// and gives access to the process, which Close stops.
func TestOpenExec(t *testing.T) {
	py := exampleprog.Python(t)
	b, err := Open(context.Background(), "exec:"+exampleprog.Quote(py)+" examples/python/ring.py", DefaultConfig(),
		external.Config{Dir: exampleprog.Root(t), Batch: 7})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if f := b.Facts(); b.Name() != "textbook-ring" || !f.Weighted || f.Ordered || f.OnlyLastLeaves || f.Replicas != 8 {
		t.Errorf("name %q facts %+v", b.Name(), f)
	}
	nodes, _ := algorithms.DefaultNodes(4)
	l, err := b.New(nodes)
	if err != nil {
		t.Fatal(err)
	}
	owners := make([]int, 20)
	if err := l.LocateKeys(placertestKeys(20), owners); err != nil {
		t.Fatal(err)
	}
	p, ok := Process(b)
	if !ok || p.Command() != exampleprog.Quote(py)+" examples/python/ring.py" {
		t.Errorf("Process: %v %v", p, ok)
	}
	if err := b.Close(); err != nil || p.Err() == nil {
		t.Errorf("Close: %v; the process then reports %v", err, p.Err())
	}
}

func placertestKeys(n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = "user:" + strconv.Itoa(i)
	}
	return keys
}
