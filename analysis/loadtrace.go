package analysis

import (
	"fmt"
	"io"
	"math"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/analysis/simulate"
	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/trace"
)

// RequestTrace is a trace as request streams (LoadOptions.RequestTrace).
type RequestTrace struct {
	// Open opens the trace (once per Load); a Reader that is an
	// io.Closer is closed after the pass.
	Open func() (trace.Reader, error)
	Path string // recorded as key_file
	Sets int    // streams, 1..keyset.MaxSets
	// ItemOverhead is added to every object's bytes, >= 0. When the
	// trace's format carries sizes (Format.HasSize) every request weighs
	// its object's bytes: the key size plus the last non-zero value size
	// the trace gave the key (a get that missed records none), plus
	// ItemOverhead.
	ItemOverhead int64
}

// traceKeyBytes is what a distinct key of a request trace costs beyond
// its text: the string header, its map entry and its object size.
const traceKeyBytes = 16 + 48 + 8

// readRequestTrace splits the requests of rt into its streams (request i
// to stream i mod rt.Sets, a record of Count requests counting Count
// times) and indexes each stream's distinct keys in order of first
// appearance, with each key's object bytes when the format carries sizes. Memory is one
// int32 per request plus the distinct keys; it returns an error as soon
// as that passes half of budget, a trace without requests, fewer
// requests than streams, or the reader's error. It returns the streams
// and the requests read.
func readRequestTrace(rt *RequestTrace, budget int64) ([]requestStream, int64, error) {
	if rt.Sets < 1 || rt.Sets > keyset.MaxSets {
		return nil, 0, fmt.Errorf("request trace %q: %d streams: need 1 to %d", rt.Path, rt.Sets, keyset.MaxSets)
	}
	if err := simulate.CheckItemOverhead(rt.ItemOverhead); err != nil {
		return nil, 0, fmt.Errorf("request trace %q: %w", rt.Path, err)
	}
	r, err := rt.Open()
	if err != nil {
		return nil, 0, err
	}
	if c, ok := r.(io.Closer); ok {
		defer c.Close()
	}
	sizes := r.Format().HasSize
	streams := make([]requestStream, rt.Sets)
	index := make([]map[string]int32, rt.Sets)
	for s := range index {
		index[s] = map[string]int32{}
	}
	var i, held int64
	for r.Scan() {
		q, ok := r.Record().(*trace.Request)
		if !ok {
			continue // the reader's Stats count it; the caller reports it
		}
		for range max(q.Count, 1) {
			st := &streams[i%int64(rt.Sets)]
			idx := index[i%int64(rt.Sets)]
			i++
			k, seen := idx[string(q.Key)]
			if !seen {
				if len(st.keys) == math.MaxInt32 {
					return nil, 0, fmt.Errorf("request trace %q: more than %d distinct keys in one stream", rt.Path, math.MaxInt32)
				}
				k = int32(len(st.keys))
				key := string(q.Key)
				st.keys = append(st.keys, key)
				idx[key] = k
				held += int64(len(key)) + traceKeyBytes
				if sizes {
					st.sizes = append(st.sizes, 0)
				}
			}
			if sizes && (q.ValueSize > 0 || st.sizes[k] == 0) {
				st.sizes[k] = q.Bytes() + rt.ItemOverhead
			}
			st.reqs = append(st.reqs, k)
			if held += requestBytes; held > budget/2 {
				return nil, 0, fmt.Errorf("request trace %q: %d requests and their keys need more than %s in memory, half the memory budget of %s",
					rt.Path, i, catalog.HumanBytes(held), catalog.HumanBytes(budget))
			}
		}
	}
	if err := r.Err(); err != nil {
		return nil, 0, err
	}
	if i < int64(rt.Sets) {
		return nil, 0, fmt.Errorf("request trace %q: %d requests, fewer than the %d streams (-sets)", rt.Path, i, rt.Sets)
	}
	for s := range streams {
		hottest(&streams[s])
	}
	return streams, i, nil
}

// hottest sets st's hottest key (the first of the most requested) and its
// share of the requests.
func hottest(st *requestStream) {
	counts := make([]int, len(st.keys))
	for _, k := range st.reqs {
		counts[k]++
	}
	st.hot = 0
	for k, c := range counts {
		if c > counts[st.hot] {
			st.hot = k
		}
	}
	st.hotShare = float64(counts[st.hot]) / float64(len(st.reqs))
}
