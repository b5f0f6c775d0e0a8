package trace

import (
	"bytes"
)

// parseKeys reads one line of a key list, as chbench's key files
// (keyset.File): a blank line (empty or only white space) is skipped, a
// trailing CR removed, and every other line is one key, inner and edge
// spaces included. A NUL byte makes the line a SyntaxError (binary data,
// not a key).
func parseKeys(r *reader, line []byte, n, off int64) bool {
	line = bytes.TrimSuffix(line, []byte{'\r'})
	if len(bytes.TrimSpace(line)) == 0 {
		r.stats.Skipped++
		return false
	}
	if bytes.IndexByte(line, 0) >= 0 {
		r.bad(n, off, "NUL byte in a key: binary data, not a key list")
		return true
	}
	q := r.request(n, off)
	q.Key, q.KeySize, q.Op = line, len(line), OpGet
	return true
}

// parseKeyCount reads one line key<TAB>count: count (a whole number >= 1)
// requests of key. The count follows the last tab, so a key may hold
// tabs. Blank lines are skipped and a trailing CR removed.
func parseKeyCount(r *reader, line []byte, n, off int64) bool {
	line = bytes.TrimSuffix(line, []byte{'\r'})
	if len(bytes.TrimSpace(line)) == 0 {
		r.stats.Skipped++
		return false
	}
	tab := bytes.LastIndexByte(line, '\t')
	if tab < 0 {
		r.bad(n, off, "no tab: want key<TAB>count, got %q", clip(line))
		return true
	}
	c, ok := parseUint(line[tab+1:])
	if !ok || c == 0 || c > 1<<40 {
		r.bad(n, off, "count %q is not a whole number >= 1", clip(line[tab+1:]))
		return true
	}
	if tab == 0 {
		r.bad(n, off, "empty key")
		return true
	}
	q := r.request(n, off)
	q.Key, q.KeySize, q.Op, q.Count = line[:tab], tab, OpGet, int64(c)
	return true
}

func sniffKeyCount(lines [][]byte) bool {
	for _, l := range lines {
		l = bytes.TrimSuffix(l, []byte{'\r'})
		tab := bytes.LastIndexByte(l, '\t')
		if tab < 1 || bytes.Count(l, []byte{'\t'}) != 1 {
			return false
		}
		if c, ok := parseUint(l[tab+1:]); !ok || c == 0 {
			return false
		}
	}
	return true
}
