package live

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/analysis/simulate"
	"github.com/chbench/chbench/trace"
	"github.com/chbench/chbench/workload"
)

// metadumpOverhead is what memcached 1.6.18 adds to key and value in a
// metadump's size= (ITEM_ntotal, memcached.h): the item header (48 bytes
// on a 64-bit build: three pointers, three 4-byte fields, two 2-byte and
// two 1-byte fields, padded to the 8-byte CAS union), the key's NUL
// terminator, the value's CRLF and the 8-byte CAS.
const metadumpOverhead = 48 + 1 + 2 + 8

// readTrace reads b in format, failing on any syntax error.
func readTrace(t *testing.T, b []byte, format string) ([]trace.Request, *trace.Stats) {
	t.Helper()
	r, err := trace.NewReader(bytes.NewReader(b), trace.Options{Format: format})
	if err != nil {
		t.Fatal(err)
	}
	var out []trace.Request
	for r.Scan() {
		switch rec := r.Record().(type) {
		case *trace.Request:
			q := *rec
			q.Key, q.Client = bytes.Clone(q.Key), bytes.Clone(q.Client)
			out = append(out, q)
		case *trace.SyntaxError:
			t.Fatalf("%v", rec)
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return out, r.Stats()
}

// Real memcached filled with 3,000 keys of known value sizes (every
// byte value the text protocol allows in a key appears in some key, so
// the URI encoding is exercised) dumps them with `lru_crawler metadump
// all`; the metadump reader, with the format named and detected, reads
// back exactly those keys, each with key + value + the item overhead as
// its size.
func TestMetadumpReadsBack(t *testing.T) {
	need(t, "memcached")
	mc := started(t, func() (*Process, error) { return StartMemcached(freePort(t), 64) })
	c, err := DialMemcache(mc.Addr, deadline)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	want := map[string]int{}
	var keys []string
	var sizes []int
	for i := range 3000 {
		k := fmt.Sprintf("k%d:%c%c/%%~.", i, 0x21+i%94, 0x80+i%128) // printable ASCII and high bytes
		keys, sizes = append(keys, k), append(sizes, (i*37)%5000)
		want[k] = sizes[i]
	}
	if err := c.SetSizes(keys, sizes); err != nil {
		t.Fatal(err)
	}
	dump, err := c.Metadump(64 << 20)
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{trace.Metadump, ""} {
		reqs, st := readTrace(t, dump, format)
		if st.Format != trace.Metadump || st.Unterminated {
			t.Fatalf("format %q: read as %s, unterminated %v", format, st.Format, st.Unterminated)
		}
		got := map[string]int{}
		for _, q := range reqs {
			got[string(q.Key)] = q.ValueSize
			if over := q.KeySize + q.ValueSize - len(q.Key) - want[string(q.Key)]; over != metadumpOverhead {
				t.Fatalf("key %q: size %d = key %d + value %d + %d, want overhead %d", q.Key, q.KeySize+q.ValueSize, len(q.Key), want[string(q.Key)], over, metadumpOverhead)
			}
		}
		if len(got) != len(want) {
			t.Fatalf("format %q: %d keys read back, %d stored", format, len(got), len(want))
		}
		for k := range want {
			if _, ok := got[k]; !ok {
				t.Fatalf("format %q: key %q stored, not in the metadump", format, k)
			}
		}
	}
	t.Logf("memcached metadump of %d items (%d bytes) read back: every key, size = key + value + %d", len(want), len(dump), metadumpOverhead)
}

// redisKeys are keys that exercise redis-cli's raw output and MONITOR's
// quoting: spaces, quotes, backslashes, control and high bytes, UTF-8.
func redisKeys(n int) []string {
	keys := []string{"plain", "with space", `quote"d`, `back\slash`, "tab\there", "cr\rhere", "bell\a", "\x01\x02", "high\xff\xfe", "ünïcødé", "nul\x00byte"}
	for i := len(keys); i < n; i++ {
		keys = append(keys, "user:"+strconv.Itoa(i*7919))
	}
	return keys
}

func startRedis(t *testing.T) (*Process, *Redis) {
	t.Helper()
	need(t, "redis-server", "redis-cli")
	srv := started(t, func() (*Process, error) { return StartRedis(t.TempDir(), freePort(t)) })
	return srv, dialRedis(t, srv.Addr)
}

// A real Redis filled with 5,000 keys lists them with `redis-cli --scan`
// (the real client, its output to a pipe, so raw); the redis-scan reader
// reads back exactly those keys, except that redis-cli itself cuts a key
// at a NUL byte (no key holds a newline, which this output cannot show
// either).
func TestRedisScanReadsBack(t *testing.T) {
	srv, rc := startRedis(t)
	keys := redisKeys(5000)
	var cmds [][]string
	for _, k := range keys {
		cmds = append(cmds, []string{"SET", k, "v"})
	}
	if _, err := rc.Pipeline(cmds); err != nil {
		t.Fatal(err)
	}
	_, port, _ := netSplit(srv.Addr)
	out, err := RunClient(context.Background(), "redis-cli", []string{"-h", Loopback, "-p", port, "--scan"}, 60*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	reqs, st := readTrace(t, out, trace.RedisScan)
	var got []string
	for _, q := range reqs {
		got = append(got, string(q.Key))
	}
	slices.Sort(got)
	// redis-cli prints raw keys with printf's %s (scanMode), which stops at
	// a NUL byte: a key holding one comes back cut there.
	var want []string
	for _, k := range keys {
		if i := strings.IndexByte(k, 0); i >= 0 {
			k = k[:i]
		}
		want = append(want, k)
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		for _, k := range want {
			if _, found := slices.BinarySearch(got, k); !found {
				t.Errorf("key %q was set but not read back", k)
			}
		}
		for _, k := range got {
			if _, found := slices.BinarySearch(want, k); !found {
				t.Errorf("key %q was read back but not set", k)
			}
		}
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Errorf("first difference at %d: %q vs %q", i, got[i], want[i])
				break
			}
		}
		t.Fatalf("redis-cli --scan listed %d keys (%d distinct), %d were set", len(got), st.DistinctKeys, len(want))
	}
	t.Logf("redis-cli --scan listed %d keys (%d bytes); the reader read back every one (the key with a NUL cut there, as redis-cli prints it)", len(got), len(out))
}

// A short MONITOR capture by the real redis-cli, of commands sent by this
// test, reads back as the requests those commands are: operation, key,
// value size and TTL, in order, from this test's client address.
func TestRedisMonitorReadsBack(t *testing.T) {
	srv, rc := startRedis(t)
	_, port, _ := netSplit(srv.Addr)
	mon, err := StartClient("redis-cli", []string{"-h", Loopback, "-p", port, "monitor"})
	if err != nil {
		t.Fatal(err)
	}
	defer mon.Stop()
	if !mon.WaitFor([]byte("OK\n"), 10*time.Second) {
		t.Fatalf("redis-cli monitor did not start: %q %s", mon.Output(), mon.Stderr())
	}
	keys := redisKeys(11)
	type want struct {
		op    trace.Op
		key   string
		value int
		ttl   time.Duration
	}
	var cmds [][]string
	var wants []want
	for i, k := range keys {
		v := string(bytes.Repeat([]byte{'x'}, 10+i))
		cmds = append(cmds, []string{"SET", k, v}, []string{"GET", k})
		wants = append(wants, want{trace.OpSet, k, len(v), 0}, want{trace.OpGet, k, 0, 0})
	}
	cmds = append(cmds, []string{"SET", "ttl-key", "abc", "EX", "100"}, []string{"SETEX", "setex-key", "30", "abcd"},
		[]string{"MGET", keys[0], keys[1]}, []string{"DEL", keys[2], keys[3]}, []string{"INCR", "counter"},
		[]string{"SET", "nx-key", "v", "NX"}, []string{"PING"}, []string{"GET", "sentinel"})
	wants = append(wants, want{trace.OpSet, "ttl-key", 3, 100 * time.Second}, want{trace.OpSet, "setex-key", 4, 30 * time.Second},
		want{trace.OpGet, keys[0], 0, 0}, want{trace.OpGet, keys[1], 0, 0}, want{trace.OpDelete, keys[2], 0, 0}, want{trace.OpDelete, keys[3], 0, 0},
		want{trace.OpIncr, "counter", 0, 0}, want{trace.OpAdd, "nx-key", 1, 0}, want{trace.OpGet, "sentinel", 0, 0})
	if _, err := rc.Pipeline(cmds); err != nil {
		t.Fatal(err)
	}
	if !mon.WaitFor([]byte(`"sentinel"`), 10*time.Second) {
		t.Fatalf("the capture never showed the last command:\n%s", mon.Output())
	}
	if err := mon.Stop(); err != nil {
		t.Fatal(err)
	}
	capture := mon.Output()
	reqs, st := readTrace(t, capture, trace.RedisMonitor)
	if len(reqs) != len(wants) {
		t.Fatalf("%d requests read from the capture, want %d:\n%s", len(reqs), len(wants), capture)
	}
	local := rc.conn.LocalAddr().String()
	for i, q := range reqs {
		w := wants[i]
		if q.Op != w.op || string(q.Key) != w.key || q.ValueSize != w.value || q.TTL != w.ttl || string(q.Client) != local {
			t.Errorf("request %d = %v %q value %d ttl %v from %s, want %v %q value %d ttl %v from %s",
				i, q.Op, q.Key, q.ValueSize, q.TTL, q.Client, w.op, w.key, w.value, w.ttl, local)
		}
	}
	if st.Skipped < 2 { // OK and PING
		t.Errorf("skipped %d lines, want OK and PING at least", st.Skipped)
	}
	t.Logf("a %d-byte redis-cli monitor capture read back as the %d requests sent", len(capture), len(reqs))
}

// The same small trace, replayed through real memcached servers and
// through the simulation, gives the same hits in every window. Memory is
// ample (64 MB per server for about 1 MB of items), so neither evicts and
// no TTL is set: a hit then depends only on which writes and fills
// reached the key's owner since its last delete, which both do by
// memcached's rules, so the tolerance is 0 hits. (With eviction they
// would differ by design: memcached 1.6's segmented LRU bumps an item at
// most once every 60 seconds, and a replay runs faster than that.)
func TestReplayMatchesSimulation(t *testing.T) {
	need(t, "memcached")
	cfg := workload.Config{Keys: 3000, Zipf: 0.9, Requests: 20000, Rate: 200, Seed: 4, Clients: 5,
		Values: workload.Sizes{Kind: workload.LogNormal, Median: 200, Sigma: 1, Min: 1, Max: 10000},
		Ops: []workload.OpShare{{Op: trace.OpGet, Share: 0.8}, {Op: trace.OpSet, Share: 0.08}, {Op: trace.OpAdd, Share: 0.03},
			{Op: trace.OpReplace, Share: 0.03}, {Op: trace.OpAppend, Share: 0.03}, {Op: trace.OpDelete, Share: 0.03}}}
	w, err := workload.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	tw, _ := trace.NewWriter(&buf, trace.Twitter)
	if err := trace.Copy(tw, w); err != nil {
		t.Fatal(err)
	}
	nodes, _ := algorithms.DefaultNodes(4)
	p, err := catalog.New("ketama", nodes, catalog.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	loc := algorithms.AsLocator(p, 32)
	events := []simulate.Event{{At: 50 * time.Second, Kind: simulate.Join, Node: algorithms.Node{ID: "node-4", Weight: 1}}}
	open := func() trace.Reader {
		r, err := trace.NewReader(bytes.NewReader(buf.Bytes()), trace.Options{Format: trace.Twitter})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	sim, err := simulate.Run(open(), []simulate.Placement{{Locator: loc}},
		simulate.Config{Nodes: nodes, Capacity: simulate.Capacity{PerWeight: 64 << 20}, Window: 10 * time.Second, Events: events})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	live, err := ReplayTrace(ctx, open(), ReplayConfig{Placement: loc, Events: events, Window: 10 * time.Second, MemMB: 64, Timeout: deadline})
	if err != nil {
		t.Fatal(err)
	}
	rows := sim.Results[0].Windows
	if sim.Results[0].Totals.Evictions != 0 || len(rows) != len(live) {
		t.Fatalf("simulation: %d evictions, %d windows; live %d windows", sim.Results[0].Totals.Evictions, len(rows), len(live))
	}
	for i, lw := range live {
		sw := rows[i]
		if sw.Start != lw.Start || sw.Gets != lw.Gets || sw.Hits != lw.Hits {
			t.Errorf("window %v..%v: simulation %d/%d hits, memcached %d/%d (from %v)", sw.Start, sw.End, sw.Hits, sw.Gets, lw.Hits, lw.Gets, lw.Start)
		}
		t.Logf("window %3v..%3v: hit ratio simulated %.4f, memcached %.4f (%d gets)", sw.Start, sw.End, sw.HitRatio, float64(lw.Hits)/float64(lw.Gets), lw.Gets)
	}
}

// netSplit returns the host and port of addr.
func netSplit(addr string) (string, string, error) {
	i := bytes.LastIndexByte([]byte(addr), ':')
	if i < 0 {
		return "", "", fmt.Errorf("address %q has no port", addr)
	}
	return addr[:i], addr[i+1:], nil
}
