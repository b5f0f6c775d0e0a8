package live

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/slots"
	"github.com/chbench/chbench/analysis/propagate"
	"github.com/chbench/chbench/internal/procgroup"
)

// MaxClusterRequests bounds the requests one [RunReshard] client sends.
const MaxClusterRequests = 1 << 22

// ReshardConfig is one live resharding (see [RunReshard]).
type ReshardConfig struct {
	// Slots is N, the number of slots redis-cli moves from the first
	// master (slots 0-5460 after --cluster create) to the second: its
	// lowest N slots, 0..N-1. 1 <= N, N + ControlSlots <= 5461.
	Slots int
	// ControlSlots is the number of slots after them (N..N+ControlSlots-1,
	// staying on the first master) that hold keys too, >= 0: requests
	// there must never be redirected.
	ControlSlots int
	KeysPerSlot  int     // keys loaded into each of those slots (hash tags), 1..100,000
	Pipeline     int     // keys per MIGRATE, redis-cli --cluster-pipeline, >= 1
	Rate         float64 // most requests per second the client sends, finite and > 0
	Writes       float64 // fraction of requests that are SETs (else GETs), 0..1
	// Lead and Tail are how long the client runs before redis-cli starts
	// and after it exits, >= 0.
	Lead, Tail time.Duration
	Seed       uint64        // seed of the request sequence
	Timeout    time.Duration // bound of the whole run, > 0
	// Started, if not nil, is called with the address of every server once
	// it listens (to check that each is stopped again).
	Started func(addr string)
}

// Validate returns an error naming the first bad field.
func (c ReshardConfig) Validate() error {
	switch {
	case c.Slots < 1 || c.Slots+c.ControlSlots > 5461 || c.ControlSlots < 0:
		return fmt.Errorf("live reshard: %d slots and %d control slots: need N >= 1, control >= 0, N + control <= 5461 (the first master's slots)", c.Slots, c.ControlSlots)
	case c.KeysPerSlot < 1 || c.KeysPerSlot > 100000:
		return fmt.Errorf("live reshard: keys per slot %d: need 1 to 100,000", c.KeysPerSlot)
	case c.Pipeline < 1:
		return fmt.Errorf("live reshard: pipeline %d: need at least 1 key per MIGRATE", c.Pipeline)
	case !(c.Rate > 0) || math.IsInf(c.Rate, 0):
		return fmt.Errorf("live reshard: rate %v: need a finite number of requests per second > 0", c.Rate)
	case !(c.Writes >= 0 && c.Writes <= 1):
		return fmt.Errorf("live reshard: write fraction %v: need 0..1", c.Writes)
	case c.Lead < 0 || c.Tail < 0:
		return fmt.Errorf("live reshard: lead %v, tail %v: need >= 0", c.Lead, c.Tail)
	case c.Timeout <= 0:
		return fmt.Errorf("live reshard: timeout %v: need > 0", c.Timeout)
	}
	return nil
}

// SlotMove is the observed migration of one slot; times are seconds from
// the start of the client's requests.
type SlotMove struct {
	Slot int
	Keys int // keys the slot held when its migration began
	// Start is when redis-cli announced the slot ("Moving slot N from
	// ..."), which it writes and flushes before it sets the slot importing
	// on the target and migrating on the source.
	Start float64
	// Moved holds, for every key moved, when its dot arrived: redis-cli
	// prints one dot per key after each MIGRATE returns (the keys are then
	// gone from the source).
	Moved []float64
	// End is when the next slot was announced (for the last slot, when
	// redis-cli exited): by then redis-cli had set the slot's owner on the
	// target, the source and every other master.
	End float64
}

// ClusterRequest is one request of the client: a GET or SET (Write) of a
// key in Slot, sent at Sent and answered at Done (seconds from the start),
// after Moved MOVED and Asked ASK redirects.
type ClusterRequest struct {
	Slot         int
	Write        bool
	Sent, Done   float64
	Moved, Asked int
}

// ReshardRun is the outcome of [RunReshard].
type ReshardRun struct {
	Source, Target string // addresses of the two masters
	Version        string // redis-server's version (INFO server redis_version)
	Moves          []SlotMove
	Requests       []ClusterRequest
	Output         string // the end of redis-cli's output
}

// RunReshard runs a resharding of a live Redis Cluster while a client
// reads and writes: it starts three redis-server cluster nodes on
// 127.0.0.1 and makes them a cluster of three masters (redis-cli --cluster
// create), loads KeysPerSlot keys ("{tag}:i", the tag chosen so that the
// key's slot is the one wanted) into slots 0..N+ControlSlots-1 of the
// first master, starts a [ClusterClient] that sends GETs and SETs on keys
// drawn uniformly from them (seeded) at up to Rate per second, and after
// Lead runs
//
//	redis-cli --cluster reshard <source> --cluster-from <source id> --cluster-to <target id>
//	    --cluster-slots N --cluster-yes --cluster-pipeline P
//
// reading its output as it comes to time each slot's migration; the client
// goes on for Tail after redis-cli exits. Every GET must return the value
// of the last SET of its key (or the loaded one), else RunReshard fails:
// the client lost a write. Every server and redis-cli are killed (their
// process groups) before RunReshard returns, also on error and when ctx
// is cancelled or Timeout passes.
func RunReshard(ctx context.Context, c ReshardConfig) (run *ReshardRun, err error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	dir, err := os.MkdirTemp("", "chbench-reshard-")
	if err != nil {
		return nil, fmt.Errorf("live reshard: %w", err)
	}
	defer os.RemoveAll(dir)
	var procs []*Process
	defer func() {
		for _, p := range procs {
			if serr := p.Stop(); serr != nil && err == nil {
				err = serr
			}
		}
	}()
	addrs, err := startCluster(ctx, dir, 3, c.Started, func(p *Process) { procs = append(procs, p) })
	if err != nil {
		return nil, err
	}
	client, err := DialCluster(addrs[0], 10*time.Second)
	if err != nil {
		return nil, err
	}
	defer client.Close()
	source, target := client.Master(0), client.Master(slots.NumSlots/2)
	keys, err := loadKeys(client, c.Slots+c.ControlSlots, c.KeysPerSlot)
	if err != nil {
		return nil, err
	}
	from, err := nodeID(source)
	if err != nil {
		return nil, err
	}
	to, err := nodeID(target)
	if err != nil {
		return nil, err
	}
	version, err := serverVersion(source)
	if err != nil {
		return nil, err
	}
	run = &ReshardRun{Source: source, Target: target, Version: version}
	cl := &reshardClient{c: c, client: client, keys: keys, began: time.Now(), stop: make(chan struct{}), done: make(chan error, 1)}
	go cl.loop(ctx)
	clientErr := func() error { close(cl.stop); return <-cl.done }
	if err := sleepCtx(ctx, c.Lead); err != nil {
		clientErr()
		return nil, err
	}
	moves, out, rerr := reshard(ctx, cl.began, source, from, to, c.Slots, c.Pipeline)
	run.Output = out
	if rerr == nil {
		rerr = sleepCtx(ctx, c.Tail)
	}
	cerr := clientErr()
	if err := errors.Join(rerr, cerr); err != nil {
		return nil, err
	}
	for i := range moves {
		moves[i].Keys = c.KeysPerSlot
		if moves[i].Slot >= c.Slots {
			return nil, fmt.Errorf("live reshard: redis-cli moved slot %d, expected the lowest %d slots of %s", moves[i].Slot, c.Slots, source)
		}
	}
	if len(moves) != c.Slots {
		return nil, fmt.Errorf("live reshard: redis-cli announced %d slot moves, want %d; its output: %s", len(moves), c.Slots, out)
	}
	run.Moves, run.Requests = moves, cl.reqs
	return run, nil
}

// startCluster starts n redis-server cluster nodes in dir (each reported
// to keep, and to started when not nil), makes them n masters with
// redis-cli --cluster create and waits until the cluster is consistent.
func startCluster(ctx context.Context, dir string, n int, started func(string), keep func(*Process)) ([]string, error) {
	addrs := make([]string, n)
	for i := range addrs {
		port, err := FreePort()
		if err != nil {
			return nil, err
		}
		bus, err := FreePort()
		if err != nil {
			return nil, err
		}
		p, err := StartRedisClusterNode(dir, port, bus)
		if err != nil {
			return nil, err
		}
		keep(p)
		if started != nil {
			started(p.Addr)
		}
		addrs[i] = p.Addr
	}
	if _, err := runCLI(ctx, append(append([]string{"--cluster", "create"}, addrs...), "--cluster-replicas", "0", "--cluster-yes")...); err != nil {
		return nil, err
	}
	return addrs, waitConsistent(ctx, addrs)
}

// nodeID returns the cluster node ID of the node at addr (CLUSTER MYID).
func nodeID(addr string) (string, error) {
	r, err := DialRedis(addr, 10*time.Second)
	if err != nil {
		return "", err
	}
	defer r.Close()
	rep, err := r.Do("CLUSTER", "MYID")
	if err != nil {
		return "", err
	}
	if rep.Kind != '$' || rep.Str == "" {
		return "", fmt.Errorf("live: CLUSTER MYID on %s: %+v", addr, rep)
	}
	return rep.Str, nil
}

// serverVersion returns the redis_version field of INFO server on the
// node at addr.
func serverVersion(addr string) (string, error) {
	r, err := DialRedis(addr, 10*time.Second)
	if err != nil {
		return "", err
	}
	defer r.Close()
	rep, err := r.Do("INFO", "server")
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(rep.Str, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "redis_version:"); ok && v != "" {
			return v, nil
		}
	}
	return "", fmt.Errorf("live: INFO server on %s names no redis_version", addr)
}

// Migrations returns the run's slot moves as the redirect model's input
// (propagate.ExpectRedirects).
func (r *ReshardRun) Migrations() []propagate.SlotMigration {
	migs := make([]propagate.SlotMigration, len(r.Moves))
	for i, m := range r.Moves {
		migs[i] = propagate.SlotMigration{Slot: m.Slot, Keys: m.Keys, Start: m.Start, Moved: m.Moved, End: m.End}
	}
	return migs
}

// SlotRequests returns the client's requests as the redirect model's
// input (propagate.ExpectRedirects).
func (r *ReshardRun) SlotRequests() []propagate.SlotRequest {
	reqs := make([]propagate.SlotRequest, len(r.Requests))
	for i, q := range r.Requests {
		reqs[i] = propagate.SlotRequest{Slot: q.Slot, Sent: q.Sent, Done: q.Done, Moved: q.Moved, Asked: q.Asked}
	}
	return reqs
}

// loadKeys finds a hash tag for each of the slots 0..n-1, sets perSlot
// keys "{tag}:i" in each to "v0" on the slot's master, and returns the keys.
func loadKeys(c *ClusterClient, n, perSlot int) ([]string, error) {
	tags := make([]string, n)
	for i, found := 0, 0; found < n; i++ {
		tag := "t" + strconv.Itoa(i)
		if s := slots.KeySlot(tag); s < n && tags[s] == "" {
			tags[s] = tag
			found++
		}
	}
	var keys []string
	byMaster := map[string][][]string{}
	for s, tag := range tags {
		for i := range perSlot {
			k := "{" + tag + "}:" + strconv.Itoa(i)
			keys = append(keys, k)
			m := c.Master(s)
			byMaster[m] = append(byMaster[m], []string{"SET", k, "v0"})
		}
	}
	for m, cmds := range byMaster {
		conn, err := c.conn(m)
		if err != nil {
			return nil, err
		}
		rs, err := conn.Pipeline(cmds)
		if err != nil {
			return nil, err
		}
		for i, r := range rs {
			if r.Kind != '+' {
				return nil, fmt.Errorf("live reshard: %s on %s: %s", strings.Join(cmds[i], " "), m, r.Str)
			}
		}
	}
	return keys, nil
}

// reshardClient sends the requests of a resharding run from its own
// goroutine.
type reshardClient struct {
	c      ReshardConfig
	client *ClusterClient
	keys   []string
	began  time.Time
	stop   chan struct{}
	done   chan error
	reqs   []ClusterRequest
}

func (r *reshardClient) loop(ctx context.Context) {
	rng := rand.New(rand.NewPCG(algorithms.Mix64(r.c.Seed), 0x7265736861726400)) // "reshard"
	value := make(map[string]string, len(r.keys))
	for _, k := range r.keys {
		value[k] = "v0"
	}
	interval := time.Duration(float64(time.Second) / r.c.Rate)
	next := r.began
	for i := 0; ; i++ {
		select {
		case <-r.stop:
			r.done <- nil
			return
		case <-ctx.Done():
			r.done <- ctx.Err()
			return
		default:
		}
		if i >= MaxClusterRequests {
			r.done <- fmt.Errorf("live reshard: client reached %d requests", MaxClusterRequests)
			return
		}
		if d := time.Until(next); d > 0 {
			time.Sleep(d)
		}
		next = next.Add(interval)
		k := r.keys[rng.IntN(len(r.keys))]
		write := rng.Float64() < r.c.Writes
		args := []string{"GET", k}
		if write {
			args = []string{"SET", k, "w" + strconv.Itoa(i)}
		}
		sent := time.Since(r.began).Seconds()
		rep, hops, err := r.client.Do(k, args...)
		done := time.Since(r.began).Seconds()
		if err != nil {
			r.done <- fmt.Errorf("live reshard: request %d (%s %s): %w", i, args[0], k, err)
			return
		}
		switch {
		case write && rep.Kind != '+':
			r.done <- fmt.Errorf("live reshard: request %d: SET %s: %+v", i, k, rep)
			return
		case write:
			value[k] = args[2]
		case rep.Kind != '$' || rep.Nil || rep.Str != value[k]:
			r.done <- fmt.Errorf("live reshard: request %d: GET %s returned %+v, last SET %q", i, k, rep, value[k])
			return
		}
		r.reqs = append(r.reqs, ClusterRequest{Slot: slots.KeySlot(k), Write: write, Sent: sent, Done: done, Moved: hops.Moved, Asked: hops.Asked})
	}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	select {
	case <-time.After(d):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// runCLI runs redis-cli with args in its own process group, killed when
// ctx ends, and returns its combined output.
func runCLI(ctx context.Context, args ...string) (string, error) {
	path, err := LookBinary("redis-cli")
	if err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, path, args...)
	procgroup.Set(cmd)
	cmd.Cancel = func() error { procgroup.Kill(cmd); return nil }
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("live: redis-cli %s: %w: %s", strings.Join(args, " "), err, out)
	}
	return string(out), nil
}

// moveHeader is the line redis-cli writes (and flushes) before it moves a
// slot (redis-cli.c clusterManagerMoveSlot, Redis 7.0); the plan it prints
// first is indented and names node IDs, so it does not match.
var moveHeader = regexp.MustCompile(`^Moving slot (\d+) from \S+ to \S+: $`)

// reshard runs redis-cli --cluster reshard and times each slot's
// migration from its output, read as it arrives (redis-cli flushes the
// announcement of each slot and the dots of each MIGRATE batch).
func reshard(ctx context.Context, began time.Time, seed, from, to string, n, pipeline int) ([]SlotMove, string, error) {
	path, err := LookBinary("redis-cli")
	if err != nil {
		return nil, "", err
	}
	args := []string{"--cluster", "reshard", seed, "--cluster-from", from, "--cluster-to", to,
		"--cluster-slots", strconv.Itoa(n), "--cluster-yes", "--cluster-pipeline", strconv.Itoa(pipeline)}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, "", fmt.Errorf("live reshard: %w", err)
	}
	defer pr.Close()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Stdout, cmd.Stderr = pw, pw
	procgroup.Set(cmd)
	cmd.Cancel = func() error { procgroup.Kill(cmd); return nil }
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		pw.Close()
		return nil, "", fmt.Errorf("live reshard: start redis-cli: %w", err)
	}
	pw.Close()
	var prog progress
	out := &procgroup.Tail{Max: 16 << 10}
	buf := make([]byte, 4096)
	for {
		k, rerr := pr.Read(buf)
		out.Write(buf[:k])
		prog.feed(buf[:k], time.Since(began).Seconds())
		if rerr != nil {
			break
		}
	}
	werr := cmd.Wait()
	prog.exit(time.Since(began).Seconds())
	if werr != nil {
		return nil, out.String(), fmt.Errorf("live reshard: redis-cli %s: %w: %s", strings.Join(args, " "), werr, out)
	}
	return prog.moves, out.String(), nil
}

// progress times slot migrations from redis-cli's output as it arrives:
// an announcement starts a slot (and ends the one before), each dot after
// it is one key moved, the exit ends the last slot.
type progress struct {
	moves  []SlotMove
	line   []byte
	inDots bool
}

// feed reads output bytes that arrived at time at (seconds).
func (p *progress) feed(b []byte, at float64) {
	for _, c := range b {
		switch {
		case c == '\n':
			p.line, p.inDots = p.line[:0], false
		case p.inDots && c == '.':
			m := &p.moves[len(p.moves)-1]
			m.Moved = append(m.Moved, at)
		default:
			p.line = append(p.line, c)
			if c != ' ' || p.inDots {
				continue
			}
			if h := moveHeader.FindSubmatch(p.line); h != nil {
				slot, _ := strconv.Atoi(string(h[1]))
				if len(p.moves) > 0 {
					p.moves[len(p.moves)-1].End = at
				}
				p.moves = append(p.moves, SlotMove{Slot: slot, Start: at})
				p.inDots = true
			}
		}
	}
}

// exit ends the last slot at time at.
func (p *progress) exit(at float64) {
	if len(p.moves) > 0 {
		p.moves[len(p.moves)-1].End = at
	}
}

// waitConsistent polls every node until each reports cluster_state:ok,
// knows all the others and returns the same CLUSTER SLOTS table, bounded
// by ctx and 30 s.
func waitConsistent(ctx context.Context, addrs []string) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	conns := make([]*Redis, len(addrs))
	for i, a := range addrs {
		r, err := DialRedis(a, 5*time.Second)
		if err != nil {
			return err
		}
		defer r.Close()
		conns[i] = r
	}
	for {
		ok, err := consistent(conns)
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		if err := sleepCtx(ctx, 50*time.Millisecond); err != nil {
			return fmt.Errorf("live: cluster of %d nodes not consistent: %w", len(addrs), err)
		}
	}
}

func consistent(conns []*Redis) (bool, error) {
	var first []string
	for _, c := range conns {
		info, err := c.Do("CLUSTER", "INFO")
		if err != nil {
			return false, err
		}
		if !strings.Contains(info.Str, "cluster_state:ok") ||
			!strings.Contains(info.Str, fmt.Sprintf("cluster_known_nodes:%d\r\n", len(conns))) {
			return false, nil
		}
		tab, err := c.Do("CLUSTER", "SLOTS")
		if err != nil {
			return false, err
		}
		// Each range as "lo-hi host:port", sorted.
		var ranges []string
		for _, rng := range tab.Array {
			if len(rng.Array) < 3 || len(rng.Array[2].Array) < 2 {
				return false, fmt.Errorf("live: CLUSTER SLOTS: malformed range %+v", rng)
			}
			m := rng.Array[2].Array
			ranges = append(ranges, fmt.Sprintf("%05d-%05d %s:%d", rng.Array[0].Int, rng.Array[1].Int, m[0].Str, m[1].Int))
		}
		slices.Sort(ranges)
		if first == nil {
			first = ranges
		} else if !slices.Equal(first, ranges) {
			return false, nil
		}
	}
	return true, nil
}
