package trace

import (
	"fmt"
	"io"
	"sync"

	"github.com/cespare/xxhash/v2"

	"github.com/chbench/chbench/keyset"
)

// KeySource is a keyset.Source of a trace's keys, so that every analysis
// that takes keys (movement, spread, replication) takes a trace: Open is
// called once per pass over the keys (an analysis may pass several
// times), and the i-th key goes to set i mod Sets, as keyset.File deals
// lines. With Distinct, each key counts once, at its first appearance
// (memory: 8 bytes per distinct key, at most MaxDistinct of them); else
// every request counts, Count times (a spread weighted by requests).
// Syntax errors are skipped: the reader's Stats count them, and the
// caller reports them from its own pass. A Reader that is an io.Closer
// (a *File) is closed when its pass ends.
type KeySource struct {
	Open        func() (Reader, error)
	SetCount    int // S >= 1
	Distinct    bool
	MaxDistinct int // 0 means DefaultMaxDistinct
}

// DefaultMaxDistinct bounds a distinct KeySource: 2^26 keys (512 MiB of
// hashes and more for the set's table), past which Each fails, naming
// the bound.
const DefaultMaxDistinct = 1 << 26

var _ keyset.Source = (*KeySource)(nil)

// Sets returns S.
func (k *KeySource) Sets() int { return k.SetCount }

type keyChunk struct {
	set   int
	arena []byte
	ends  []int
	keys  []string
}

// Each implements keyset.Source: one goroutine reads the trace and fills
// a chunk of up to keyset.ChunkKeys keys per set, full chunks go to the
// workers. It returns an error for SetCount outside 1..keyset.MaxSets,
// Open's error, the reader's error, or more distinct keys than
// MaxDistinct.
func (k *KeySource) Each(workers int, fn func(worker, set int, keys []string)) error {
	if k.SetCount < 1 || k.SetCount > keyset.MaxSets {
		return fmt.Errorf("trace keys: sets %d: need 1 to %d", k.SetCount, keyset.MaxSets)
	}
	maxDistinct := k.MaxDistinct
	if maxDistinct <= 0 {
		maxDistinct = DefaultMaxDistinct
	}
	r, err := k.Open()
	if err != nil {
		return err
	}
	if c, ok := r.(io.Closer); ok { // a trace.File: every pass opens the file anew
		defer c.Close()
	}
	workers = keyset.Workers(workers)
	work := make(chan *keyChunk, workers)
	free := make(chan *keyChunk, 2*workers+min(k.SetCount, 64))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range work {
				c.keys = keyset.SplitArena(c.keys, c.arena, c.ends)
				fn(w, c.set, c.keys)
				select {
				case free <- c:
				default:
				}
			}
		}()
	}
	pending := make([]*keyChunk, k.SetCount)
	var seen map[uint64]struct{}
	if k.Distinct {
		seen = map[uint64]struct{}{}
	}
	i := 0
	add := func(key []byte) {
		s := i % k.SetCount
		i++
		c := pending[s]
		if c == nil {
			select {
			case c = <-free:
				c.set, c.arena, c.ends = s, c.arena[:0], c.ends[:0]
			default:
				c = &keyChunk{set: s}
			}
			pending[s] = c
		}
		c.arena = append(c.arena, key...)
		c.ends = append(c.ends, len(c.arena))
		if len(c.ends) == keyset.ChunkKeys {
			work <- c
			pending[s] = nil
		}
	}
	for err == nil && r.Scan() {
		q, ok := r.Record().(*Request)
		if !ok {
			continue
		}
		if k.Distinct {
			h := xxhash.Sum64(q.Key)
			if _, dup := seen[h]; dup {
				continue
			}
			if len(seen) == maxDistinct {
				err = fmt.Errorf("trace keys: more than %d distinct keys", maxDistinct)
				break
			}
			seen[h] = struct{}{}
			add(q.Key)
			continue
		}
		for range q.Count {
			add(q.Key)
		}
	}
	if err == nil {
		err = r.Err()
	}
	for _, c := range pending {
		if c != nil && len(c.ends) > 0 {
			work <- c
		}
	}
	close(work)
	wg.Wait()
	return err
}
