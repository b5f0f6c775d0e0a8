package live

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chbench/chbench/algorithms/slots"
)

// MaxRedirects bounds the redirects a [ClusterClient] follows for one
// command before it gives up (a cluster in the middle of a change answers
// at most MOVED then ASK; more means the cluster is inconsistent).
const MaxRedirects = 5

// ClusterClient is a Redis Cluster client that caches the slot map, as
// the cluster specification describes a smart client: it reads CLUSTER
// SLOTS once, sends each command to the master its map names for the
// key's hash slot (slots.KeySlot), and changes the map only on a MOVED
// redirect ("MOVED <slot> <host:port>": that slot now points at that
// node; the command is sent there). An ASK redirect ("ASK <slot>
// <host:port>", a slot in migration whose key has already moved) sends
// ASKING and the command once to the named node and leaves the map as it
// is. It connects to 127.0.0.1 only and is not safe for concurrent use.
type ClusterClient struct {
	timeout time.Duration
	conns   map[string]*Redis
	table   [slots.NumSlots]string // master address per slot
}

// Hops are the redirects one command met before its final reply.
type Hops struct {
	Moved, Asked int
}

// DialCluster connects to the cluster node at seed (127.0.0.1:port) and
// reads the slot map with CLUSTER SLOTS. Every network exchange must
// complete within timeout. It returns an error when a slot has no master
// (the cluster is not fully configured) or a master is not on 127.0.0.1.
func DialCluster(seed string, timeout time.Duration) (*ClusterClient, error) {
	c := &ClusterClient{timeout: timeout, conns: map[string]*Redis{}}
	conn, err := c.conn(seed)
	if err != nil {
		return nil, err
	}
	r, err := conn.Do("CLUSTER", "SLOTS")
	if err != nil {
		c.Close()
		return nil, err
	}
	if r.Kind != '*' {
		c.Close()
		return nil, fmt.Errorf("live: CLUSTER SLOTS on %s: %s", seed, r.Str)
	}
	for _, rng := range r.Array {
		if len(rng.Array) < 3 || len(rng.Array[2].Array) < 2 {
			c.Close()
			return nil, fmt.Errorf("live: CLUSTER SLOTS on %s: malformed range %+v", seed, rng)
		}
		lo, hi := rng.Array[0].Int, rng.Array[1].Int
		m := rng.Array[2].Array
		addr := m[0].Str + ":" + strconv.FormatInt(m[1].Int, 10)
		if err := checkLoopback(addr); err != nil {
			c.Close()
			return nil, err
		}
		for s := lo; s <= hi && s < slots.NumSlots; s++ {
			c.table[s] = addr
		}
	}
	for s, a := range c.table {
		if a == "" {
			c.Close()
			return nil, fmt.Errorf("live: CLUSTER SLOTS on %s: slot %d has no master", seed, s)
		}
	}
	return c, nil
}

// Master returns the address the slot map names for slot.
func (c *ClusterClient) Master(slot int) string { return c.table[slot] }

func (c *ClusterClient) conn(addr string) (*Redis, error) {
	if r, ok := c.conns[addr]; ok {
		return r, nil
	}
	r, err := DialRedis(addr, c.timeout)
	if err != nil {
		return nil, err
	}
	c.conns[addr] = r
	return r, nil
}

// Close closes every connection.
func (c *ClusterClient) Close() error {
	var errs []error
	for _, r := range c.conns {
		errs = append(errs, r.Close())
	}
	return errors.Join(errs...)
}

// Do sends the command args, whose key is key, to the master of key's
// slot, following MOVED and ASK redirects as the type describes, and
// returns the final reply (an error reply other than a redirect is a
// Reply, as in Redis.Do) and the redirects met. It returns an error after
// MaxRedirects redirects, for a malformed redirect, or on a transport
// failure.
func (c *ClusterClient) Do(key string, args ...string) (Reply, Hops, error) {
	var hops Hops
	addr := c.table[slots.KeySlot(key)]
	asking := false
	for range MaxRedirects + 1 {
		conn, err := c.conn(addr)
		if err != nil {
			return Reply{}, hops, err
		}
		var r Reply
		if asking {
			rs, err := conn.Pipeline([][]string{{"ASKING"}, args})
			if err != nil {
				return Reply{}, hops, err
			}
			if rs[0].Kind != '+' {
				return Reply{}, hops, fmt.Errorf("live: ASKING on %s: %s", addr, rs[0].Str)
			}
			r = rs[1]
		} else if r, err = conn.Do(args...); err != nil {
			return Reply{}, hops, err
		}
		kind, slot, to, err := redirect(r)
		if err != nil {
			return Reply{}, hops, err
		}
		if kind == "" {
			return r, hops, nil
		}
		if err := checkLoopback(to); err != nil {
			return Reply{}, hops, err
		}
		if want := slots.KeySlot(key); slot != want {
			return Reply{}, hops, fmt.Errorf("live: %s for key %q names slot %d, the key's slot is %d", r.Str, key, slot, want)
		}
		addr = to
		if asking = kind == "ASK"; asking {
			hops.Asked++
		} else {
			hops.Moved++
			c.table[slot] = to
		}
	}
	return Reply{}, hops, fmt.Errorf("live: key %q: more than %d redirects (%d MOVED, %d ASK)", key, MaxRedirects, hops.Moved, hops.Asked)
}

// redirect parses a MOVED or ASK error reply; kind is "" for any other
// reply, and err set for a MOVED or ASK reply that is malformed.
func redirect(r Reply) (kind string, slot int, to string, err error) {
	if r.Kind != '-' || !(strings.HasPrefix(r.Str, "MOVED ") || strings.HasPrefix(r.Str, "ASK ")) {
		return "", 0, "", nil
	}
	f := strings.Fields(r.Str)
	if len(f) != 3 {
		return "", 0, "", fmt.Errorf("live: malformed redirect %q", r.Str)
	}
	s, err := strconv.Atoi(f[1])
	if err != nil || s < 0 || s >= slots.NumSlots {
		return "", 0, "", fmt.Errorf("live: redirect %q: bad slot", r.Str)
	}
	return f[0], s, f[2], nil
}
