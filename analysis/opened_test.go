package analysis

import (
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/schema"
)

// openedJump is a placement opened by the caller (Options.Opened) the way
// an external program is: a Builder whose Locators must be closed. It
// places keys with chbench's jump, so every measure must give exactly
// jump's numbers; it counts the Locators alive, and fails every lookup
// after failAfter of them (0: never), as a program that dies mid-run.
type openedJump struct {
	mu        sync.Mutex
	alive     int
	maxAlive  int
	built     int
	lookups   int
	failAfter int
}

var errDied = errors.New("the program died")

func (b *openedJump) Name() string { return "my-jump" }
func (b *openedJump) Facts() algorithms.Facts {
	return algorithms.Facts{Ordered: true, OnlyLastLeaves: true, Replicas: algorithms.MaxReplicas}
}
func (b *openedJump) Close() error { return nil }

func (b *openedJump) New(nodes []algorithms.Node) (algorithms.Locator, error) {
	l, err := catalog.NewLocator("jump", nodes, catalog.DefaultConfig())
	if err != nil {
		return nil, err
	}
	return b.wrap(l), nil
}

func (b *openedJump) wrap(l algorithms.Locator) *closingLocator {
	b.mu.Lock()
	b.alive++
	b.maxAlive = max(b.maxAlive, b.alive)
	b.built++
	b.mu.Unlock()
	return &closingLocator{Locator: l, b: b}
}

func (b *openedJump) counts() (alive, built int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.alive, b.built
}

type closingLocator struct {
	algorithms.Locator
	b      *openedJump
	closed bool
}

func (l *closingLocator) Algorithm() string { return "my-jump" }

func (l *closingLocator) fail() error {
	l.b.mu.Lock()
	defer l.b.mu.Unlock()
	if l.closed {
		return errors.New("membership is closed")
	}
	l.b.lookups++
	if l.b.failAfter > 0 && l.b.lookups > l.b.failAfter {
		return errDied
	}
	return nil
}

func (l *closingLocator) LocateKeys(keys []string, owners []int) error {
	if err := l.fail(); err != nil {
		return err
	}
	return l.Locator.LocateKeys(keys, owners)
}

func (l *closingLocator) ReplicateKeys(keys []string, r int, owners []int) error {
	if err := l.fail(); err != nil {
		return err
	}
	return l.Locator.ReplicateKeys(keys, r, owners)
}

func (l *closingLocator) Rebalance(nodes []algorithms.Node) (algorithms.Locator, error) {
	next, err := l.Locator.Rebalance(nodes)
	if err != nil {
		return nil, err
	}
	return l.b.wrap(next), nil
}

func (l *closingLocator) Close() error {
	l.b.mu.Lock()
	defer l.b.mu.Unlock()
	if !l.closed {
		l.closed = true
		l.b.alive--
	}
	return nil
}

// withOpened returns o running the opened placement b under its name.
func withOpened(o Options, b catalog.Builder) Options {
	o.Algo = b.Name()
	o.Opened = map[string]catalog.Builder{b.Name(): b}
	return o
}

// An opened placement runs through movement (a churn of 20 steps, streamed in
// windows of a few placements by a small budget), spread, replication and
// load exactly as the catalog algorithm it wraps: the same samples to the
// last bit, since the keys and memberships are the same and owners are
// compared by ID. Its rows carry its own name, and every Locator the
// measures built is closed when they return.
func TestOpenedPlacementMatchesCatalog(t *testing.T) {
	const keys, sets = 4000, 3
	base := opts("jump", keys, sets)
	b := &openedJump{}
	ext := withOpened(base, b)

	sc, err := NewScenario(schema.OpChurn, 20, base.Seed)
	if err != nil {
		t.Fatal(err)
	}
	// The opened placement's budget leaves room for windows of two or three
	// of its placements (chbench's side of one is about 3.4 KiB here), so
	// the churn streams in many windows; jump's own run in one.
	ext.Config.MemoryBudget = 16 << 10
	want, err := Movement(base, sc)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Movement(ext, sc)
	if err != nil {
		t.Fatal(err)
	}
	if got.Algo != "my-jump" || got.Label != "my-jump" {
		t.Errorf("movement row algo %q label %q, want my-jump", got.Algo, got.Label)
	}
	if !slices.Equal(got.Samples, want.Samples) {
		t.Errorf("movement samples %v, want jump's %v", got.Samples, want.Samples)
	}
	if alive, built := b.counts(); alive != 0 || built < len(sc.Steps)+1 {
		t.Errorf("after movement: %d of %d Locators still open (want 0 of at least %d)", alive, built, len(sc.Steps)+1)
	}
	if b.maxAlive > len(sc.Steps)/2 {
		t.Errorf("%d Locators open at once in a %d-step churn streamed in windows: the windows left behind were not closed", b.maxAlive, len(sc.Steps))
	}
	ext.Config.MemoryBudget = 0

	nodes, _ := algorithms.DefaultNodes(7)
	ws, err := Spread(base, nodes)
	if err != nil {
		t.Fatal(err)
	}
	gs, err := Spread(ext, nodes)
	if err != nil {
		t.Fatal(err)
	}
	if gs.Algo != "my-jump" || !slices.Equal(gs.Samples, ws.Samples) {
		t.Errorf("spread row %q samples %v, want my-jump with jump's %v", gs.Algo, gs.Samples, ws.Samples)
	}

	leave, err := NewScenario(schema.OpRemoveRandom, 10, base.Seed)
	if err != nil {
		t.Fatal(err)
	}
	wr, err := Replication(base, []Scenario{leave}, 3)
	if err != nil {
		t.Fatal(err)
	}
	gr, err := Replication(ext, []Scenario{leave}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if gr.Algo != "my-jump" || !slices.Equal(gr.Samples, wr.Samples) {
		t.Errorf("replication row %q samples %v, want my-jump with jump's %v", gr.Algo, gr.Samples, wr.Samples)
	}

	lo := LoadOptions{Options: ext, Requests: 20000, Zipfs: []float64{0.99}}
	lo.Keys = genKeys(2000, 2, 7)
	loads, err := Load(lo, []string{"jump", "my-jump"}, nodes)
	if err != nil {
		t.Fatal(err)
	}
	if len(loads) != 2 || loads[1].Algo != "my-jump" || !slices.Equal(loads[0].Samples, loads[1].Samples) {
		t.Errorf("load rows %v, want jump and my-jump with the same samples", loads)
	}
	if alive, _ := b.counts(); alive != 0 {
		t.Errorf("%d Locators still open after spread, replication and load", alive)
	}
}

// An opened placement that fails mid-run (a program that dies after a few
// batches) ends the measure with its error, and every Locator built until
// then is closed.
func TestOpenedPlacementFailureClosesLocators(t *testing.T) {
	sc, err := NewScenario(schema.OpChurn, 20, 1)
	if err != nil {
		t.Fatal(err)
	}
	b := &openedJump{failAfter: 30}
	o := withOpened(opts("jump", 4000, 3), b)
	o.Config.MemoryBudget = 16 << 10
	if _, err := Movement(o, sc); !errors.Is(err, errDied) {
		t.Fatalf("movement: %v, want the placement's error", err)
	}
	if alive, built := b.counts(); alive != 0 || built == 0 {
		t.Errorf("after the failure: %d of %d Locators still open, want 0", alive, built)
	}
	b.failAfter, b.lookups = 1, 0
	nodes, _ := algorithms.DefaultNodes(5)
	if _, err := Spread(o, nodes); !errors.Is(err, errDied) {
		t.Fatalf("spread: %v, want the placement's error", err)
	}
	if alive, _ := b.counts(); alive != 0 {
		t.Errorf("after the spread failure: %d Locators still open", alive)
	}
}

// An opened placement runs once in a sweep of hashes and vnodes (it reads
// neither), and replicas beyond what it declared are refused before any
// key is streamed, naming the declared maximum.
func TestOpenedPlacementSweepAndReplicas(t *testing.T) {
	b := &openedJump{}
	o := withOpened(opts("jump", 2000, 2), b)
	sw := Sweep{Algos: []string{"ring", "my-jump"}, Hashes: []string{"xxhash", "fnv1a64"}, VNodes: []int{10, 20}, Nodes: []int{5}}
	rows, err := SweepSpread(o, sw)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range rows {
		names = append(names, r.Algo)
	}
	if want := []string{"ring", "ring", "ring", "ring", "my-jump"}; !slices.Equal(names, want) {
		t.Errorf("sweep rows %v, want %v", names, want)
	}
	few := &fewReplicas{openedJump: b}
	ro := withOpened(opts("jump", 2000, 2), few)
	leave, _ := NewScenario(schema.OpRemoveRandom, 10, 1)
	if err := CheckReplication(ro, []Scenario{leave}, 3); err == nil || err.Error() != "replicas 3: my-jump serves at most 2 replicas per key (its handshake declared replicas=2)" {
		t.Errorf("R = 3 on a placement declaring 2: %v", err)
	}
}

type fewReplicas struct{ *openedJump }

func (f *fewReplicas) Facts() algorithms.Facts {
	fs := f.openedJump.Facts()
	fs.Replicas = 2
	return fs
}
