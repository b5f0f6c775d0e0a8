package dump

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/slots"
)

// DefaultMismatches is the number of mismatches a Comparison keeps when
// Options.Mismatches is 0.
const DefaultMismatches = 10

// chunk is the number of dump records located at a time.
const chunk = 4096

// Options bound what a comparison keeps.
type Options struct {
	// Mismatches is how many of the first mismatches to keep, >= 0 (0
	// means DefaultMismatches; set -1 to keep none).
	Mismatches int
	// Labels is the form (one of LabelForms) in which [Compare] turns the
	// dump's server names into the node IDs it compares with the
	// placement's owners: "" or "as given" compares them as they are,
	// "host:11211" compares "10.0.0.1" with a node "10.0.0.1:11211".
	// The matrix and the mismatches show the servers as the dump names
	// them. CompareDumps ignores it.
	Labels string
}

func (o Options) mismatches() int {
	switch {
	case o.Mismatches == 0:
		return DefaultMismatches
	case o.Mismatches < 0:
		return 0
	}
	return o.Mismatches
}

// Comparison is the agreement of a dump (A) with a placement or with
// another dump (B), key by key.
type Comparison struct {
	A, B string // what was compared: the dump's name, the placement's or other dump's name
	// Keys is the number of keys compared (for two dumps, the keys in
	// both); Agree how many have the same server in A and B.
	Keys, Agree int
	// Agreement is Agree/Keys, and [Lo, Hi] its 95% Clopper-Pearson
	// interval: the agreement rate of keys drawn like these.
	Agreement, Lo, Hi float64
	// OnlyA and OnlyB count the keys in one dump only (two sorted dumps).
	OnlyA, OnlyB int
	// Matrix is the from -> to table: for each server of A and server of
	// B, how many keys A places on the first and B on the second; sorted
	// by From, then To.
	Matrix []Cell
	// Mismatches are the first keys placed differently, in the order of A.
	Mismatches []Mismatch
}

// Cell is one entry of the from -> to matrix.
type Cell struct {
	From, To string
	Keys     int
}

// Mismatch is a key that A and B place on different servers, with the
// values of chbench's key hashes for it, to see which hash a system
// applies.
type Mismatch struct {
	Line   int    // the line of A
	Key    string // the key
	A, B   string // its server in A and in B
	Hashes []KeyHash
}

// KeyHash is a named hash of a key: every algorithms.HashNames() hash,
// and "slot", the Redis Cluster hash slot.
type KeyHash struct {
	Name  string
	Value uint64
}

// KeyHashes returns the hashes of key a Mismatch lists.
func KeyHashes(key string) []KeyHash {
	var out []KeyHash
	for _, name := range algorithms.HashNames() {
		out = append(out, KeyHash{Name: name, Value: algorithms.MustHash(name).Sum(key)})
	}
	return append(out, KeyHash{Name: "slot", Value: uint64(slots.KeySlot(key))})
}

// tally accumulates a comparison.
type tally struct {
	c      Comparison
	matrix map[[2]string]int
	keep   int
}

func newTally(a, b string, opt Options) *tally {
	return &tally{c: Comparison{A: a, B: b}, matrix: map[[2]string]int{}, keep: opt.mismatches()}
}

func (t *tally) add(rec Record, b string) { t.addLabelled(rec, b, rec.Server) }

// addLabelled counts rec, whose server is named a (its label) when
// compared with b.
func (t *tally) addLabelled(rec Record, b, a string) {
	t.c.Keys++
	t.matrix[[2]string{rec.Server, b}]++
	if a == b {
		t.c.Agree++
		return
	}
	if len(t.c.Mismatches) < t.keep {
		t.c.Mismatches = append(t.c.Mismatches, Mismatch{Line: rec.Line, Key: rec.Key, A: rec.Server, B: b, Hashes: KeyHashes(rec.Key)})
	}
}

func (t *tally) done() (*Comparison, error) {
	c := &t.c
	if c.Keys == 0 {
		return nil, fmt.Errorf("compare %s with %s: no key to compare", c.A, c.B)
	}
	c.Agreement = float64(c.Agree) / float64(c.Keys)
	c.Lo, c.Hi = ClopperPearson(c.Agree, c.Keys, 0.95)
	for k, n := range t.matrix {
		c.Matrix = append(c.Matrix, Cell{From: k[0], To: k[1], Keys: n})
	}
	slices.SortFunc(c.Matrix, func(x, y Cell) int { return cmp.Or(strings.Compare(x.From, y.From), strings.Compare(x.To, y.To)) })
	return c, nil
}

// ClopperPearson returns the exact (Clopper-Pearson) two-sided interval
// of confidence level conf (0 < conf < 1) for a binomial proportion with
// x successes in n > 0 trials: the conf/2 tails of Beta(x, n-x+1) and
// Beta(x+1, n-x), 0 and 1 at the ends.
func ClopperPearson(x, n int, conf float64) (lo, hi float64) {
	a := (1 - conf) / 2
	lo, hi = 0, 1
	if x > 0 {
		lo = distuv.Beta{Alpha: float64(x), Beta: float64(n - x + 1)}.Quantile(a)
	}
	if x < n {
		hi = distuv.Beta{Alpha: float64(x + 1), Beta: float64(n - x)}.Quantile(1 - a)
	}
	return lo, hi
}

// Compare reads the dump d to its end and compares each key's server with
// the owner loc gives it (by node ID), chunk by chunk: memory grows with
// the number of distinct (dump server, owner) pairs, not with the dump.
// A dump server that is not one of loc's node IDs (in the form
// opt.Labels) counts as a mismatch on every key. It returns the dump's
// syntax or read error, loc's error, or an error for an empty dump or an
// unknown label form.
func Compare(d *Reader, loc algorithms.Locator, opt Options) (*Comparison, error) {
	if opt.Labels != "" && !slices.Contains(LabelForms, opt.Labels) {
		return nil, fmt.Errorf("compare %s: label form %q: want one of %q", d.name, opt.Labels, LabelForms)
	}
	t := newTally(d.name, loc.Algorithm(), opt)
	recs := make([]Record, 0, chunk)
	keys := make([]string, 0, chunk)
	owners := make([]int, chunk)
	flush := func() error {
		keys = keys[:0]
		for _, r := range recs {
			keys = append(keys, r.Key)
		}
		if err := loc.LocateKeys(keys, owners); err != nil {
			return fmt.Errorf("compare %s with %s: %w", d.name, loc.Algorithm(), err)
		}
		for i, r := range recs {
			t.addLabelled(r, loc.Nodes()[owners[i]].ID, Label(r.Server, opt.Labels))
		}
		recs = recs[:0]
		return nil
	}
	for d.Scan() {
		if recs = append(recs, d.Record()); len(recs) == chunk {
			if err := flush(); err != nil {
				return nil, err
			}
		}
	}
	if err := d.Err(); err != nil {
		return nil, err
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return t.done()
}

// CompareDumps compares two dumps key by key, streaming both: they must
// list their keys in the same order, or both be sorted by key bytes
// (LC_ALL=C sort), in which case keys in one dump only are counted in
// OnlyA and OnlyB. It returns an error naming the dump and line where
// neither holds (the dumps part ways where one of them is not sorted) or
// a key repeats on consecutive lines, and the dumps' syntax or read
// errors.
func CompareDumps(a, b *Reader, opt Options) (*Comparison, error) {
	t := newTally(a.name, b.name, opt)
	sa, sb := &side{r: a, sorted: true}, &side{r: b, sorted: true}
	merging := false // the dumps have parted ways: both must be sorted from here on
	for _, s := range []*side{sa, sb} {
		if err := s.next(false); err != nil {
			return nil, err
		}
	}
	for sa.ok || sb.ok {
		if sa.ok && sb.ok && sa.cur.Key == sb.cur.Key {
			t.add(sa.cur, sb.cur.Server)
			if err := sa.next(merging); err != nil {
				return nil, err
			}
			if err := sb.next(merging); err != nil {
				return nil, err
			}
			continue
		}
		if !merging {
			merging = true
			for _, s := range []*side{sa, sb} {
				if !s.sorted {
					return nil, &SyntaxError{File: s.r.name, Line: s.unsorted,
						Msg: "keys out of sorted order, and the dumps do not list the same keys in the same order: sort both (LC_ALL=C sort)"}
				}
			}
		}
		s := sb
		if !sb.ok || (sa.ok && sa.cur.Key < sb.cur.Key) {
			s = sa
			t.c.OnlyA++
		} else {
			t.c.OnlyB++
		}
		if err := s.next(true); err != nil {
			return nil, err
		}
	}
	return t.done()
}

// side is one dump of CompareDumps.
type side struct {
	r        *Reader
	cur      Record
	ok       bool // cur holds a record
	sorted   bool // every key so far exceeds the one before
	unsorted int  // the first line out of order
}

// next reads the next record; in a merge (strict) a key out of order is an
// error.
func (s *side) next(strict bool) error {
	prev, had := s.cur, s.ok
	if s.ok = s.r.Scan(); !s.ok {
		return s.r.Err()
	}
	s.cur = s.r.Record()
	if !had {
		return nil
	}
	switch {
	case s.cur.Key == prev.Key:
		return &SyntaxError{File: s.r.name, Line: s.cur.Line, Msg: fmt.Sprintf("key %q repeats line %d", s.cur.Key, prev.Line)}
	case s.cur.Key < prev.Key && s.sorted:
		s.sorted, s.unsorted = false, s.cur.Line
		if strict {
			return &SyntaxError{File: s.r.name, Line: s.cur.Line, Msg: fmt.Sprintf("key %q comes after %q (line %d): the dumps do not list the same keys in the same order, so both must be sorted (LC_ALL=C sort)", s.cur.Key, prev.Key, prev.Line)}
		}
	}
	return nil
}

// WriteText writes the comparison for a reader: the agreement with its
// interval, the keys in one dump only, the from -> to matrix (the largest
// 20 cells) and the mismatches with their hashes.
func (c *Comparison) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "%s vs %s: %d of %d keys on the same server: agreement %.4f (95%% interval %.4f to %.4f)\n",
		c.A, c.B, c.Agree, c.Keys, c.Agreement, c.Lo, c.Hi)
	if c.OnlyA+c.OnlyB > 0 {
		fmt.Fprintf(w, "keys only in %s: %d; only in %s: %d\n", c.A, c.OnlyA, c.B, c.OnlyB)
	}
	cells := slices.Clone(c.Matrix)
	slices.SortStableFunc(cells, func(x, y Cell) int { return cmp.Compare(y.Keys, x.Keys) })
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "from (%s)\tto (%s)\tkeys\n", c.A, c.B)
	for _, cell := range cells[:min(len(cells), 20)] {
		fmt.Fprintf(tw, "%s\t%s\t%d\n", cell.From, cell.To, cell.Keys)
	}
	if len(cells) > 20 {
		fmt.Fprintf(tw, "(%d more)\t\t\n", len(cells)-20)
	}
	tw.Flush()
	for _, m := range c.Mismatches {
		var hs []string
		for _, h := range m.Hashes {
			hs = append(hs, fmt.Sprintf("%s=%#x", h.Name, h.Value))
		}
		fmt.Fprintf(w, "line %d: key %q on %q in %s, %q in %s; %s\n", m.Line, m.Key, m.A, c.A, m.B, c.B, strings.Join(hs, " "))
	}
	return nil
}
