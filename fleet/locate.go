package fleet

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"
)

// locator finds the line of a key in the profile's text, so that an error
// about a value names its line: the TOML decoder reports lines only for
// syntax errors. It reads the text as a TOML file is laid out: table
// headers [name] and [[name]] at the start of a line, each followed by its
// keys; a key inside an inline table or array is found by its text after
// its table's header.
type locator struct {
	path    string
	lines   []string
	headers []header
}

// header is a table header line: [name] (index 0) or the index-th [[name]].
type header struct {
	line  int // 1-based
	name  string
	index int
}

var headerLine = regexp.MustCompile(`^\s*\[\[?\s*([A-Za-z0-9_.-]+)\s*\]\]?`)

func newLocator(path, text string) *locator {
	l := &locator{path: path, lines: strings.Split(text, "\n")}
	seen := map[string]int{}
	for i, s := range l.lines {
		if m := headerLine.FindStringSubmatch(s); m != nil {
			l.headers = append(l.headers, header{line: i + 1, name: m[1], index: seen[m[1]]})
			seen[m[1]]++
		}
	}
	return l
}

// errAt returns an error "path:line: message".
func (l *locator) errAt(line int, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", l.path, line, fmt.Sprintf(format, args...))
}

// span returns the lines [from, to) of the index-th table called name
// (its header first), or of the top level for name "" (before the first
// header); ok is false when there is no such table.
func (l *locator) span(name string, index int) (from, to int, ok bool) {
	if name == "" {
		to = len(l.lines) + 1
		if len(l.headers) > 0 {
			to = l.headers[0].line
		}
		return 1, to, true
	}
	for i, h := range l.headers {
		if h.name == name && h.index == index {
			to = len(l.lines) + 1
			if i+1 < len(l.headers) {
				to = l.headers[i+1].line
			}
			return h.line, to, true
		}
	}
	return 0, 0, false
}

// find returns the first line in [from, to) that sets key (key = ...,
// also inside an inline table) and, when value is not "", holds it, or 0.
func (l *locator) find(from, to int, key, value string) int {
	k := regexp.MustCompile(`(^|[{,\s])"?` + regexp.QuoteMeta(key) + `"?\s*=`)
	for n := from; n < to && n <= len(l.lines); n++ {
		s := l.lines[n-1]
		if k.MatchString(s) && (value == "" || strings.Contains(s, value)) {
			return n
		}
	}
	if value != "" { // an entry of an inline array on its own line
		for n := from; n < to && n <= len(l.lines); n++ {
			if strings.Contains(l.lines[n-1], value) {
				return n
			}
		}
	}
	return 0
}

// top returns the line of a top-level key, or 1.
func (l *locator) top(key string) int {
	from, to, _ := l.span("", 0)
	if n := l.find(from, to, key, ""); n > 0 {
		return n
	}
	return 1
}

// section returns the header line of the index-th table name, or 1.
func (l *locator) section(name string, index int) int {
	if from, _, ok := l.span(name, index); ok {
		return from
	}
	return 1
}

// in returns the line of key (holding value, when not "") in the
// index-th table name, else the table's header line, else 1.
func (l *locator) in(name string, index int, key, value string) int {
	from, to, ok := l.span(name, index)
	if !ok {
		return 1
	}
	if n := l.find(from, to, key, value); n > 0 {
		return n
	}
	return from
}

// key returns the line of a decoded key the profile does not know: its
// last part set after the header of its table, or anywhere, or 1.
func (l *locator) key(k toml.Key) int {
	if len(k) == 0 {
		return 1
	}
	last := k[len(k)-1]
	if len(k) > 1 {
		for _, h := range l.headers {
			if h.name == k[0] {
				if n := l.find(h.line, len(l.lines)+1, last, ""); n > 0 {
					return n
				}
			}
		}
	}
	if n := l.find(1, len(l.lines)+1, last, ""); n > 0 {
		return n
	}
	if n := l.find(1, len(l.lines)+1, k[0], ""); n > 0 {
		return n
	}
	return 1
}

// entry returns the line of the index-th entry of an array of tables
// called name: its [[name]] header, or (for an inline array, one entry a
// line) the first line holding its id quoted, or 1.
func (l *locator) entry(name string, index int, id string) int {
	if from, _, ok := l.span(name, index); ok {
		return from
	}
	if id != "" {
		for n, s := range l.lines {
			if strings.Contains(s, `"`+id+`"`) {
				return n + 1
			}
		}
	}
	return 1
}
