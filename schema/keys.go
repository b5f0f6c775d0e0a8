package schema

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/chbench/chbench/internal/numfmt"
)

// KeyCount is how many keys a run streamed, per key set and in all, from
// the keys and sets columns and key_file of its rows. The keys column
// means two things (see the package doc): for generated keys it is the
// keys of every set, so the run streamed keys x sets; for a key file it
// is the file's keys, dealt into the sets line by line (line i to set i
// mod sets), so a set holds floor or ceil of keys / sets.
type KeyCount struct {
	PerSetLo, PerSetHi int    // keys of the smallest and of the largest set
	Total              int    // keys over every set
	Sets               int    // key sets
	File               string // the key file, "" for generated keys
}

// KeyCountOf returns the key count of a row's configuration.
func KeyCountOf(c Config) KeyCount {
	k := KeyCount{Sets: c.Sets, File: c.KeyFile}
	if c.Sets < 1 {
		return k
	}
	if c.KeyFile == "" {
		k.PerSetLo, k.PerSetHi, k.Total = c.Keys, c.Keys, c.Keys*c.Sets
		return k
	}
	k.PerSetLo, k.Total = c.Keys/c.Sets, c.Keys
	k.PerSetHi = k.PerSetLo
	if c.Keys%c.Sets != 0 {
		k.PerSetHi++
	}
	return k
}

// KeyCountOfRun is KeyCountOf for a row's Run (its cells as written); it
// returns an error naming a keys or sets cell that is not a whole number.
func KeyCountOfRun(r Run) (KeyCount, error) {
	keys, err1 := strconv.Atoi(r.Keys)
	sets, err2 := strconv.Atoi(r.Sets)
	if err1 != nil || err2 != nil {
		return KeyCount{}, fmt.Errorf("keys %q, sets %q: want whole numbers", r.Keys, r.Sets)
	}
	return KeyCountOf(Config{Keys: keys, Sets: sets, KeyFile: r.KeyFile}), nil
}

// DescribeKeys says how many keys the rows of one file streamed, per set
// and in all, as a range where the rows differ:
//
//	100,000 keys per set x 5 sets
//	10,000..101,000 keys per set x 3 sets
//	3,000 keys of keys.txt in 3 sets of 1,000
//	3,001 keys of keys.txt in 3 sets of 1,000..1,001
//
// Generated keys keep the short form (the keys column is per set);
// a key file's keys are its total, so they are said as the total and
// the sets they were dealt into. An empty list gives "".
func DescribeKeys(counts []KeyCount) string {
	if len(counts) == 0 {
		return ""
	}
	span := func(get func(KeyCount) int) string {
		lo, hi := get(counts[0]), get(counts[0])
		for _, k := range counts {
			lo, hi = min(lo, get(k)), max(hi, get(k))
		}
		if lo == hi {
			return numfmt.Int(lo)
		}
		return numfmt.Int(lo) + ".." + numfmt.Int(hi)
	}
	var files []string
	for _, k := range counts {
		if k.File != "" && !slices.Contains(files, k.File) {
			files = append(files, k.File)
		}
	}
	sets := span(func(k KeyCount) int { return k.Sets })
	if len(files) == 0 {
		return span(func(k KeyCount) int { return k.PerSetLo }) + " keys per set x " + sets + " sets"
	}
	lo := span(func(k KeyCount) int { return k.PerSetLo })
	hi := span(func(k KeyCount) int { return k.PerSetHi })
	per := lo
	if hi != lo {
		per = numfmt.Int(minOf(counts, func(k KeyCount) int { return k.PerSetLo })) + ".." + numfmt.Int(maxOf(counts, func(k KeyCount) int { return k.PerSetHi }))
	}
	return fmt.Sprintf("%s keys of %s in %s sets of %s", span(func(k KeyCount) int { return k.Total }), strings.Join(files, ", "), sets, per)
}

func minOf(ks []KeyCount, get func(KeyCount) int) int {
	m := get(ks[0])
	for _, k := range ks {
		m = min(m, get(k))
	}
	return m
}

func maxOf(ks []KeyCount, get func(KeyCount) int) int {
	m := get(ks[0])
	for _, k := range ks {
		m = max(m, get(k))
	}
	return m
}
