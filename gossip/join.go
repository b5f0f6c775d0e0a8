// Package gossip measures how fast a join spreads through real gossip:
// hashicorp/memberlist members on 127.0.0.1, all inside this process, a
// new member joining through one of them, and the moment each existing
// member is told of it. [Compare] sets the measured delays beside
// chbench's gossip model (propagate.Gossip) with memberlist's own
// parameters, and [Measurement.Empirical] turns them into a
// propagate.Empirical model for the replay.
//
// It is a module of its own, like peers/, so that memberlist and its
// dependencies (go-metrics, go-msgpack, miekg/dns, ...) stay out of
// chbench's main module, whose dependencies the design card keeps to the
// placement, statistics and plotting libraries.
package gossip

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"github.com/chbench/chbench/analysis/propagate"
	"github.com/hashicorp/memberlist"
)

// Config is one measurement (see [Measure]).
type Config struct {
	Members int // C: members before the first join, 2..MaxMembers
	Joins   int // joins measured one after another, 1..64 (each joiner stays a member)
	// The memberlist settings (memberlist.Config fields of the same names).
	// Push/pull anti-entropy is off, so a join spreads by gossip alone (and
	// by the probes, which carry gossip too).
	GossipInterval time.Duration // p, > 0
	GossipNodes    int           // k, >= 1
	RetransmitMult int           // each member sends a message RetransmitMult * ceil(log10(n+1)) times, >= 1
	ProbeInterval  time.Duration // > 0
	ProbeTimeout   time.Duration // > 0, < ProbeInterval
	Wait           time.Duration // per join: the longest wait for every member to learn, > 0
	Seed           uint64        // seed of the contacted members
}

// MaxMembers bounds the members started (each is a UDP and a TCP socket
// and a few goroutines).
const MaxMembers = 256

// DefaultConfig returns memberlist's LAN configuration
// (memberlist.DefaultLANConfig, v0.7.0: gossip every 200 ms to 3 members,
// RetransmitMult 4, probes every 1 s with a 500 ms timeout) on 32 members
// and 8 joins, each waited for up to 5 s. (With every interval divided by
// 4 the measurement would be faster, but on a loaded machine the
// scheduling delay of each hop, a few milliseconds, is then a large share
// of a 50 ms period.)
func DefaultConfig() Config {
	return Config{Members: 32, Joins: 8, GossipInterval: 200 * time.Millisecond, GossipNodes: 3, RetransmitMult: 4,
		ProbeInterval: time.Second, ProbeTimeout: 500 * time.Millisecond, Wait: 5 * time.Second, Seed: 1}
}

// Validate returns an error naming the first bad field.
func (c Config) Validate() error {
	switch {
	case c.Members < 2 || c.Members+c.Joins > MaxMembers:
		return fmt.Errorf("gossip: %d members and %d joins: need at least 2 members and at most %d in all", c.Members, c.Joins, MaxMembers)
	case c.Joins < 1 || c.Joins > 64:
		return fmt.Errorf("gossip: joins %d: need 1 to 64", c.Joins)
	case c.GossipInterval <= 0 || c.GossipNodes < 1 || c.RetransmitMult < 1:
		return fmt.Errorf("gossip: interval %v, nodes %d, retransmit mult %d: need > 0, >= 1, >= 1", c.GossipInterval, c.GossipNodes, c.RetransmitMult)
	case c.ProbeInterval <= 0 || c.ProbeTimeout <= 0 || c.ProbeTimeout >= c.ProbeInterval:
		return fmt.Errorf("gossip: probe interval %v, timeout %v: need 0 < timeout < interval", c.ProbeInterval, c.ProbeTimeout)
	case c.Wait <= 0:
		return fmt.Errorf("gossip: wait %v: need > 0", c.Wait)
	}
	return nil
}

// Join is one measured join.
type Join struct {
	Members   int // members before the join: the ones that could learn it
	Contacted int // the member the joiner contacted (index into Delays)
	// Delays[i] is the time (seconds) from the joiner's Join call until
	// member i was told of the new member (its NotifyJoin), +Inf if it
	// was not told within Config.Wait.
	Delays []float64
	// Transmits is memberlist's retransmit limit after the join:
	// RetransmitMult * ceil(log10(Members + 2)).
	Transmits int
}

// Measurement is the outcome of [Measure].
type Measurement struct {
	Config Config
	Joins  []Join
}

// recorder records when each member is told of the member being watched.
type recorder struct {
	mu    sync.Mutex
	watch string
	began time.Time
	at    []float64
	left  int
	all   chan struct{}
}

type events struct {
	i int
	r *recorder
}

func (e events) NotifyJoin(n *memberlist.Node) {
	r := e.r
	r.mu.Lock()
	defer r.mu.Unlock()
	if n.Name != r.watch || e.i >= len(r.at) || !math.IsInf(r.at[e.i], 1) {
		return
	}
	r.at[e.i] = time.Since(r.began).Seconds()
	if r.left--; r.left == 0 {
		close(r.all)
	}
}
func (events) NotifyLeave(*memberlist.Node)  {}
func (events) NotifyUpdate(*memberlist.Node) {}

// Measure starts c.Members memberlist members on 127.0.0.1 (ports chosen
// by the kernel), each after a random fraction of a gossip period (a
// member gossips at the phase its ticker started with, and members of a
// real cluster start at unrelated times), joins them into one cluster and
// waits until each knows all; then, c.Joins times, starts a new member,
// has it join through a member drawn at random (seeded) and records when
// every existing member learns of it, up to c.Wait; the new member stays
// for the next join. Every member is shut down before Measure returns,
// also on error and when ctx ends.
func Measure(ctx context.Context, c Config) (*Measurement, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	cl := &cluster{c: c, rec: &recorder{}}
	defer cl.shutdown()
	rng := rand.New(rand.NewPCG(c.Seed, 0x676f73736970)) // "gossip"
	if err := cl.startAll(ctx, rng); err != nil {
		return nil, err
	}
	meas := &Measurement{Config: c}
	for j := range c.Joins {
		join, err := cl.join(ctx, "j-"+strconv.Itoa(j), rng.IntN(len(cl.members)))
		if err != nil {
			return nil, fmt.Errorf("gossip: join %d: %w", j, err)
		}
		meas.Joins = append(meas.Joins, join)
		// Let the join's last retransmissions go out before the next one.
		if err := sleep(ctx, 2*c.GossipInterval); err != nil {
			return nil, err
		}
	}
	return meas, nil
}

// cluster is the members of one measurement.
type cluster struct {
	c       Config
	rec     *recorder
	mu      sync.Mutex
	members []*memberlist.Memberlist
}

// create starts member number i (its index in the recorder) named name.
func (cl *cluster) create(name string, i int) (*memberlist.Memberlist, error) {
	c := cl.c
	conf := memberlist.DefaultLANConfig()
	conf.Name = name
	conf.BindAddr, conf.BindPort = "127.0.0.1", 0
	conf.AdvertiseAddr, conf.AdvertisePort = "", 0
	conf.GossipInterval, conf.GossipNodes, conf.RetransmitMult = c.GossipInterval, c.GossipNodes, c.RetransmitMult
	conf.ProbeInterval, conf.ProbeTimeout = c.ProbeInterval, c.ProbeTimeout
	conf.PushPullInterval = 0
	conf.LogOutput = io.Discard
	conf.Events = events{i: i, r: cl.rec}
	m, err := memberlist.Create(conf)
	if err != nil {
		return nil, fmt.Errorf("gossip: start member %s: %w", name, err)
	}
	return m, nil
}

// startAll starts the first c.Members members concurrently, each after its
// own random delay in [0, GossipInterval), and joins them to member 0.
func (cl *cluster) startAll(ctx context.Context, rng *rand.Rand) error {
	n := cl.c.Members
	cl.members = make([]*memberlist.Memberlist, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		delay := time.Duration(rng.Float64() * float64(cl.c.GossipInterval))
		wg.Add(1)
		go func() {
			defer wg.Done()
			if errs[i] = sleep(ctx, delay); errs[i] == nil {
				m, err := cl.create("m-"+strconv.Itoa(i), i)
				cl.mu.Lock()
				cl.members[i], errs[i] = m, err
				cl.mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	seed := cl.members[0].LocalNode().FullAddress().Addr
	for i, m := range cl.members[1:] {
		if _, err := m.Join([]string{seed}); err != nil {
			return fmt.Errorf("gossip: member %d joins: %w", i+1, err)
		}
	}
	// A member that joined early hears of later ones only by gossip, which
	// the retransmit limit can leave incomplete with push/pull off; a
	// second exchange of state with member 0, which every member joined
	// through and so knows all, completes each member's view.
	for i, m := range cl.members[1:] {
		if _, err := m.Join([]string{seed}); err != nil {
			return fmt.Errorf("gossip: member %d syncs with member 0: %w", i+1, err)
		}
	}
	return converge(ctx, cl.members, 10*time.Second)
}

// join starts a member named name, has it join through member contacted
// and waits until every existing member has been told of it (or Wait
// passes); the new member stays.
func (cl *cluster) join(ctx context.Context, name string, contacted int) (Join, error) {
	n := len(cl.members)
	rec := cl.rec
	rec.mu.Lock()
	rec.watch, rec.at, rec.left, rec.all = name, make([]float64, n), n, make(chan struct{})
	for i := range rec.at {
		rec.at[i] = math.Inf(1)
	}
	rec.mu.Unlock()
	joiner, err := cl.create(name, n)
	if err != nil {
		return Join{}, err
	}
	cl.mu.Lock()
	cl.members = append(cl.members, joiner)
	cl.mu.Unlock()
	rec.mu.Lock()
	rec.began = time.Now()
	rec.mu.Unlock()
	if _, err := joiner.Join([]string{cl.members[contacted].LocalNode().FullAddress().Addr}); err != nil {
		return Join{}, err
	}
	select {
	case <-rec.all:
	case <-time.After(cl.c.Wait):
	case <-ctx.Done():
		return Join{}, ctx.Err()
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.watch = ""
	return Join{Members: n, Contacted: contacted, Delays: append([]float64(nil), rec.at...),
		Transmits: cl.c.RetransmitMult * int(math.Ceil(math.Log10(float64(n+2))))}, nil
}

// shutdown stops every member started.
func (cl *cluster) shutdown() {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	for _, m := range cl.members {
		if m != nil {
			m.Shutdown()
		}
	}
}

// converge waits until every member knows all of them, bounded by ctx and
// timeout.
func converge(ctx context.Context, members []*memberlist.Memberlist, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		ok := true
		for _, m := range members {
			if m.NumMembers() != len(members) {
				ok = false
				break
			}
		}
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("gossip: %d members do not all know each other after %v", len(members), timeout)
		}
		if err := sleep(ctx, 10*time.Millisecond); err != nil {
			return err
		}
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-time.After(d):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Empirical returns the measured delays of every join, pooled, as a
// propagate.Empirical model (a client's delay is one of them, drawn at
// random), or an error when no delay was measured.
func (m *Measurement) Empirical() (propagate.Empirical, error) {
	var all []float64
	for _, j := range m.Joins {
		all = append(all, j.Delays...)
	}
	e := propagate.Empirical{Delays: all}
	if err := e.Validate(); err != nil {
		return e, errors.New("gossip: no measured delays")
	}
	return e, nil
}
