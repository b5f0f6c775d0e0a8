package live

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unsafe"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/analysis/simulate"
	"github.com/chbench/chbench/trace"
)

// ReplayConfig is a trace replayed through real memcached servers (see
// [ReplayTrace]), the live counterpart of a simulate.Config.
type ReplayConfig struct {
	Placement algorithms.Locator // routes keys; its membership is the fleet at the first request
	Events    []simulate.Event   // joins and leaves, in time order
	Window    time.Duration      // window length, > 0 (windows cut at events, as the simulation's)
	Rate      float64            // > 0: record i at i/Rate; 0: the trace's clock
	MemMB     int                // memcached item memory per server, megabytes, >= 1
	Timeout   time.Duration      // bound of every exchange, > 0
	Started   func(addr string)  // if not nil, told every server's address once it listens
}

// ReplayWindow counts one window of a live replay.
type ReplayWindow struct {
	Start, End time.Duration // since the first request
	Gets, Hits int64
}

// ReplayTrace replays every request of r, one at a time and in order,
// through memcached servers on 127.0.0.1 (one per node, started here, each
// with MemMB megabytes), as the simulation's look-aside client does: a get
// that misses is followed by a set of its value (the request's value size;
// a size of 0 takes the mean of the sizes seen so far, as the simulation
// does); set, add, replace, append, prepend and delete are sent as they
// are, with values of the request's size; a join starts an empty server
// and a leave stops routing to one (the placement is rebalanced as the
// simulation does). It returns the gets and hits per window.
//
// What memcached's real clock and counters would make differ from the
// trace's are refused: a write with a TTL (memcached expires in wall-clock
// seconds while the replay runs faster than the trace), cas, incr and
// decr (they need tokens and numbers the trace does not carry), and
// failures and reweights. Every server started is stopped before it
// returns, also on error and when ctx is cancelled.
func ReplayTrace(ctx context.Context, r trace.Reader, c ReplayConfig) (out []ReplayWindow, err error) {
	if c.Placement == nil || c.Window <= 0 || c.MemMB < 1 || c.Timeout <= 0 || c.Rate < 0 {
		return nil, fmt.Errorf("live replay: need a placement, a window > 0, memory >= 1 MB, a timeout > 0 and a rate >= 0")
	}
	for i, e := range c.Events {
		if e.Kind != simulate.Join && e.Kind != simulate.Leave {
			return nil, fmt.Errorf("live replay: event %d is a %s: only joins and leaves are replayed live", i, e.Kind)
		}
		if i > 0 && e.At < c.Events[i-1].At {
			return nil, fmt.Errorf("live replay: event %d comes before event %d", i, i-1)
		}
	}
	f := &fleet{timeout: c.Timeout, started: c.Started, conns: map[string]*Memcache{}}
	defer func() {
		if serr := f.stop(); serr != nil && err == nil {
			err = serr
		}
	}()
	loc := c.Placement
	members := slices.Clone(loc.Nodes())
	if err := f.start(ctx, members, c.MemMB); err != nil {
		return nil, err
	}
	var (
		t0, last, rowStart time.Duration
		rowEnd             = c.Window
		row                ReplayWindow
		next               int
		i                  int64
		sizeSum, sizeN     int64
		owner              = make([]int, 1)
		value              []byte
	)
	emit := func(end time.Duration) {
		row.Start, row.End = rowStart, end
		out = append(out, row)
		row = ReplayWindow{}
		rowStart = end
	}
	advance := func(t time.Duration) {
		for t >= rowEnd {
			emit(rowEnd)
			rowEnd += c.Window
		}
	}
	for r.Scan() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		q, ok := r.Record().(*trace.Request)
		if !ok {
			continue
		}
		var t time.Duration
		if c.Rate > 0 {
			t = time.Duration(float64(i) / c.Rate * float64(time.Second))
		} else {
			if i == 0 {
				t0 = q.Time
			}
			t = q.Time - t0
		}
		t = max(t, last)
		last = t
		i++
		for next < len(c.Events) && c.Events[next].At <= t {
			e := c.Events[next]
			next++
			advance(e.At)
			if e.At > rowStart {
				emit(e.At)
			}
			if e.Kind == simulate.Join {
				members = append(members, e.Node)
				if err := f.start(ctx, []algorithms.Node{e.Node}, c.MemMB); err != nil {
					return nil, err
				}
			} else {
				j := algorithms.IndexOf(members, e.Node.ID)
				if j < 0 {
					return nil, fmt.Errorf("live replay: leave of %q, not a member", e.Node.ID)
				}
				members = slices.Delete(members, j, j+1)
			}
			if loc, err = loc.Rebalance(slices.Clone(members)); err != nil {
				return nil, fmt.Errorf("live replay: event %v: %w", e, err)
			}
		}
		advance(t)
		if q.TTL > 0 {
			return nil, fmt.Errorf("live replay: line %d: a %v TTL: TTLs are not replayed live (memcached expires by the wall clock)", q.Line, q.TTL)
		}
		key := unsafe.String(unsafe.SliceData(q.Key), len(q.Key))
		if err := loc.LocateKeys([]string{key}, owner); err != nil {
			return nil, err
		}
		conn := f.conns[loc.Nodes()[owner[0]].ID]
		if q.ValueSize > 0 {
			sizeSum += int64(q.ValueSize) * max(q.Count, 1)
			sizeN += max(q.Count, 1)
		}
		size := int64(q.ValueSize)
		if size == 0 && sizeN > 0 {
			size = sizeSum / sizeN
		}
		value = value[:0]
		for range size {
			value = append(value, 'v')
		}
		for range max(q.Count, 1) {
			var cmd string
			switch q.Op {
			case trace.OpGet, trace.OpGets:
				reply, err := conn.Do("get", key, nil)
				if err != nil {
					return nil, err
				}
				row.Gets++
				if reply == "HIT" {
					row.Hits++
					continue
				}
				cmd = "set"
			case trace.OpSet, trace.OpAdd, trace.OpReplace, trace.OpAppend, trace.OpPrepend, trace.OpDelete:
				cmd = q.Op.String()
			default:
				return nil, fmt.Errorf("live replay: line %d: %s is not replayed live (it needs a CAS token or a number)", q.Line, q.Op)
			}
			data := value
			if cmd == "delete" {
				data = nil
			}
			reply, err := conn.Do(cmd, key, data)
			if err != nil {
				return nil, err
			}
			if !strings.HasPrefix(reply, "STORED") && !strings.HasPrefix(reply, "NOT_STORED") && reply != "DELETED" && reply != "NOT_FOUND" {
				return nil, fmt.Errorf("live replay: %s %q: %s", cmd, key, reply)
			}
		}
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	if row.Gets > 0 || len(out) == 0 {
		emit(rowEnd)
	}
	if len(out) == 0 {
		return nil, errors.New("live replay: the trace held no request")
	}
	return out, nil
}
