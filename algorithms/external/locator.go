package external

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/internal/escape"
)

// Locator is one membership held by an external program: the
// [algorithms.Locator] of the placement the program computes for it. Like
// every Locator it describes one membership and Rebalance leaves it as it
// is (the program holds each membership under its own ID). Its methods are
// safe for concurrent use; their requests reach the program one at a time.
//
// Close releases the membership in the program. A Locator that is not
// closed lives as long as its Process.
type Locator struct {
	p      *Process
	id     uint64
	nodes  []algorithms.Node
	index  map[string]int // node ID -> index into nodes
	maxTok int            // the longest escaped node ID, in bytes
	closed bool           // guarded by p.mu
}

var _ algorithms.Locator = (*Locator)(nil)

// New sends the membership nodes to the program, built from nothing (no
// parent), and returns its Locator. Nodes are validated as
// [algorithms.ValidateNodes] does, and must have equal weights when the
// program declared weighted=no. It returns an [*Error] wrapping ErrReply
// when the program refuses the membership (the program stays usable), or
// the failure that stopped it.
func (p *Process) New(nodes []algorithms.Node) (*Locator, error) { return p.members(nodes, nil) }

// Check returns the error [Process.New] returns for nodes before anything
// is sent to the program: a membership [algorithms.ValidateNodes] refuses,
// or unequal weights when the program declared weighted=no. Callers check
// every membership of a run with it before the first key; the program may
// still refuse a membership it cannot place (an [*Error] wrapping
// ErrReply).
func (p *Process) Check(nodes []algorithms.Node) error {
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return fmt.Errorf("external %s: %w", p.name, err)
	}
	if !p.facts.Weighted {
		if err := algorithms.CheckUniform("external "+p.name, nodes); err != nil {
			return fmt.Errorf("%w: the program declared weighted=no", err)
		}
	}
	return nil
}

// members sends a membership derived from parent (nil: none), which must
// not be closed.
func (p *Process) members(nodes []algorithms.Node, parent *Locator) (*Locator, error) {
	if err := p.Check(nodes); err != nil {
		return nil, err
	}
	l := &Locator{p: p, nodes: append([]algorithms.Node(nil), nodes...), index: make(map[string]int, len(nodes))}
	p.mu.Lock()
	defer p.mu.Unlock()
	l.id = p.nextID
	q := &req{name: "members", membership: l.id}
	if err := p.usable(q); err != nil {
		return nil, err
	}
	var parentID uint64
	if parent != nil {
		if parent.closed {
			return nil, fmt.Errorf("external %s: membership %d is closed", p.name, parent.id)
		}
		parentID = parent.id
	}
	p.nextID++
	b := append(p.wbuf[:0], "members "...)
	b = strconv.AppendUint(b, l.id, 10)
	b = append(b, ' ')
	b = strconv.AppendUint(b, parentID, 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(len(nodes)), 10)
	b = append(b, '\n')
	for i, n := range nodes {
		start := len(b)
		b = escape.Append(b, n.ID)
		l.maxTok = max(l.maxTok, len(b)-start)
		b = append(b, ' ')
		b = strconv.AppendFloat(b, n.Weight, 'g', -1, 64)
		b = append(b, '\n')
		l.index[n.ID] = i
	}
	p.wbuf = b
	if err := p.simple(q, b); err != nil {
		return nil, err
	}
	return l, nil
}

// Algorithm returns the placement's name from the program's handshake.
func (l *Locator) Algorithm() string { return l.p.name }

// Nodes returns the membership in the order it was given (the order the
// program received). Callers must not modify it.
func (l *Locator) Nodes() []algorithms.Node { return l.nodes }

// ID returns the membership's number in the protocol (1, 2, ... in the
// order memberships were sent).
func (l *Locator) ID() uint64 { return l.id }

// Process returns the program holding the membership.
func (l *Locator) Process() *Process { return l.p }

// LocateKeys writes into owners[i] the index into Nodes() of the owner of
// keys[i], asking the program in batches of Config.Batch keys. It returns
// an error when len(owners) < len(keys), when the membership was closed,
// or the [*Error] of a failed batch; owners is then unspecified.
func (l *Locator) LocateKeys(keys []string, owners []int) error {
	if len(owners) < len(keys) {
		return fmt.Errorf("owners holds %d entries for %d keys", len(owners), len(keys))
	}
	return l.locate(keys, 1, owners)
}

// ReplicateKeys writes into owners[i*r : (i+1)*r] the indexes into Nodes()
// of the r replicas of keys[i] the program names, in its preference
// order. r must be 1 to min(algorithms.MaxReplicas, len(Nodes())) and at
// most the replicas fact of the program's handshake. The indexes are
// those the program sent: whether they are distinct is for the caller to
// check (the conformance suite does). Errors are those of LocateKeys.
func (l *Locator) ReplicateKeys(keys []string, r int, owners []int) error {
	if err := algorithms.CheckReplicas(r, len(l.nodes)); err != nil {
		return err
	}
	if r > l.p.facts.Replicas {
		return fmt.Errorf("replicas %d: external %s serves at most %d (its handshake declared replicas=%d)", r, l.p.name, l.p.facts.Replicas, l.p.facts.Replicas)
	}
	if len(owners) < r*len(keys) {
		return fmt.Errorf("owners holds %d entries for %d keys x %d replicas", len(owners), len(keys), r)
	}
	return l.locate(keys, r, owners)
}

// Rebalance sends the membership nodes to the program as derived from this
// one (its parent, which a stateful program builds on) and returns its
// Locator; l is unchanged. Errors are those of [Process.New], or an error
// when l was closed.
func (l *Locator) Rebalance(nodes []algorithms.Node) (algorithms.Locator, error) {
	next, err := l.p.members(nodes, l)
	if err != nil {
		return nil, err
	}
	return next, nil
}

// Close asks the program to drop the membership. Closing twice, or after
// the program stopped, does nothing. It returns the [*Error] of a failed
// drop request.
func (l *Locator) Close() error {
	p := l.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	q := &req{name: "drop", membership: l.id}
	if p.usable(q) != nil {
		return nil
	}
	b := append(p.wbuf[:0], "drop "...)
	b = strconv.AppendUint(b, l.id, 10)
	b = append(b, '\n')
	p.wbuf = b
	return p.simple(q, b)
}

// lineLimit is the longest answer line accepted for R = r: r node IDs of
// the longest escaped length and the spaces between them, at least
// MinLineBytes.
func (l *Locator) lineLimit(r int) int { return max(MinLineBytes, r*(l.maxTok+1)) }

// locate asks the program for the r owners of every key, batch by batch.
func (l *Locator) locate(keys []string, r int, owners []int) error {
	p := l.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if l.closed {
		return fmt.Errorf("external %s: membership %d is closed", p.name, l.id)
	}
	size := p.cfg.Batch
	q := &req{name: "locate", membership: l.id, batches: (len(keys) + size - 1) / size, keys: keys}
	if err := p.usable(q); err != nil {
		return err
	}
	limit := l.lineLimit(r)
	for q.batch = 0; q.batch < q.batches; q.batch++ {
		q.first = q.batch * size
		end := min(q.first+size, len(keys))
		q.last = end - 1
		b := append(p.wbuf[:0], "locate "...)
		b = strconv.AppendUint(b, l.id, 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(r), 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(end-q.first), 10)
		b = append(b, '\n')
		for _, k := range keys[q.first:end] {
			b = escape.Append(b, k)
			b = append(b, '\n')
		}
		p.wbuf = b
		if !p.send(b) {
			return p.fail(q, q.first, nil, fmt.Errorf("%w (%s) before the request", ErrExited, p.exitStatus()))
		}
		fields, line, cause, fatal := p.status(end - q.first)
		if fatal {
			return p.fail(q, q.first, line, cause)
		}
		if cause != nil {
			if err := p.drainWrite(); err != nil {
				return p.fail(q, -1, nil, fmt.Errorf("%w: replied error without reading the whole request: %v", ErrGarbage, err))
			}
			return p.newError(q, -1, line, cause)
		}
		if fields != nil {
			return p.fail(q, q.first, line, fmt.Errorf("%w: locate replied %q, want ok alone", ErrGarbage, shown(line)))
		}
		for i := q.first; i < end; i++ {
			line, err := p.rd.next(limit)
			if err != nil {
				return p.fail(q, i, line, p.readFailure(err, i-q.first, end-q.first, limit))
			}
			if err := l.parseAnswer(line, r, owners[i*r:(i+1)*r]); err != nil {
				return p.fail(q, i, line, err)
			}
		}
		if err := p.drainWrite(); err != nil {
			return p.fail(q, -1, nil, fmt.Errorf("%w: writing the request: %v", ErrExited, err))
		}
		if line, err := p.extra(); err != nil {
			return p.fail(q, -1, line, err)
		}
	}
	return nil
}

// parseAnswer reads the r node IDs of one answer line into dst.
func (l *Locator) parseAnswer(line []byte, r int, dst []int) error {
	rest := line
	for i := range r {
		tok := rest
		if sp := bytes.IndexByte(rest, ' '); sp >= 0 {
			if i == r-1 {
				return fmt.Errorf("%w: %d node IDs for R = %d", ErrCount, bytes.Count(line, []byte{' '})+1, r)
			}
			tok, rest = rest[:sp], rest[sp+1:]
		} else if i < r-1 {
			return fmt.Errorf("%w: %d node IDs for R = %d", ErrCount, i+1, r)
		}
		idx, err := l.lookup(tok)
		if err != nil {
			return err
		}
		dst[i] = idx
	}
	return nil
}

// lookup returns the index of the node whose escaped ID is tok.
func (l *Locator) lookup(tok []byte) (int, error) {
	if len(tok) == 0 {
		return 0, fmt.Errorf("%w: an empty node ID (two spaces, or a space at an end of the line)", ErrGarbage)
	}
	plain := true
	for _, c := range tok {
		if !escape.Plain(c) {
			plain = false
			break
		}
	}
	id := tok
	if !plain {
		dec, err := escape.Decode(l.p.scratch[:0], tok)
		if err != nil {
			return 0, fmt.Errorf("%w: node ID %q: %v", ErrGarbage, shown(tok), err)
		}
		l.p.scratch, id = dec, dec
	}
	if i, ok := l.index[string(id)]; ok {
		return i, nil
	}
	return 0, fmt.Errorf("%w: node %q is not a member of membership %d (%d nodes: %s)", ErrNotMember, id, l.id, len(l.nodes), l.someIDs())
}

// someIDs lists the first node IDs of the membership, for messages.
func (l *Locator) someIDs() string {
	const show = 5
	var ids []string
	for _, n := range l.nodes[:min(len(l.nodes), show)] {
		ids = append(ids, strconv.Quote(n.ID))
	}
	if len(l.nodes) > show {
		ids = append(ids, "...")
	}
	return strings.Join(ids, ", ")
}
