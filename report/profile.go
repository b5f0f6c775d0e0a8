package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/internal/inputs"
	"github.com/chbench/chbench/internal/lines"
	"github.com/chbench/chbench/internal/text"
)

// Profile describes the reviewer's case: the report reads every result at
// the values closest to it and says which ones it used.
//
// A profile file has one "key = value" setting a line; blank lines and
// everything after a "#" are ignored; each key may appear once:
//
//	name      = payments cache          # shown in the report's title
//	nodes     = 100..10000              # working fleet size .. largest size (or one count: nodes = 100)
//	replicas  = 3                       # replication factor R (1..5)
//	zipf      = 0.99                    # Zipf exponent s of request popularity (>= 0)
//	keyfile   = /data/keys.txt          # the key file the results must have been made with
//
// Movement, spread, request load, replication and build memory are read at
// the working size (the first count); lookup time at both counts. keyfile
// does not re-run anything: the report checks it against the key_file
// column of the results and says so when they differ (run "make bench
// KEYFILE=..." to measure on those keys).
type Profile struct {
	Name     string  // "" = none
	Nodes    int     // working fleet size, >= 1
	MaxNodes int     // largest fleet size, >= Nodes
	Replicas int     // replication factor R, 1..5
	Zipf     float64 // Zipf exponent s, finite, >= 0
	KeyFile  string  // "" = any key source
	Source   string  // the profile file, or "defaults"
}

// DefaultProfile is the case the report answers without a profile: 100 to
// 10,000 nodes, 3 replicas, Zipf s = 0.99, any key source.
func DefaultProfile() Profile {
	return Profile{Nodes: 100, MaxNodes: 10000, Replicas: 3, Zipf: 0.99, Source: "defaults"}
}

// maxReplicas is the largest replication factor a profile may ask for
// (the replication analysis's limit).
const maxReplicas = 5

// ReadProfile parses the profile file at path, starting from
// DefaultProfile for the keys it does not set, and registers it as an
// input of the command (internal/inputs), so that no output replaces it.
func ReadProfile(path string) (Profile, error) {
	f, err := inputs.Open(path)
	if err != nil {
		return Profile{}, err
	}
	defer f.Close()
	return ParseProfile(f, path)
}

// Limits of a profile file: lines of at most maxProfileLine bytes, at
// most maxProfileLines lines (a profile is a handful; an endless stream
// of comments must not keep the reader going).
const (
	maxProfileLine  = 4096
	maxProfileLines = 10000
)

// ParseProfile parses a profile from r (see [Profile] for the format),
// naming file in errors. A line is as package internal/lines reads it (a
// "\r\n" end and a UTF-8 byte-order mark at the start are not part of it;
// at most 4,096 bytes; at most 10,000 lines). An unknown or repeated key,
// a line without "=", or a bad value (one that is not plain text by
// internal/text's rule: invalid UTF-8, control or invisible format
// characters) is an error naming the file, line and value.
func ParseProfile(r io.Reader, file string) (Profile, error) {
	p := DefaultProfile()
	p.Source = file
	seen := map[string]bool{}
	err := lines.Scan(r, file, "a profile", maxProfileLine, func(b []byte, line int) error {
		if line > maxProfileLines {
			return fmt.Errorf("%s:%d: more than %d lines; a profile sets at most five keys", file, line, maxProfileLines)
		}
		return p.parseLine(string(b), file, line, seen)
	})
	if err != nil {
		return Profile{}, err
	}
	return p, nil
}

// parseLine sets the key of one line of a profile file.
func (p *Profile) parseLine(s, file string, line int, seen map[string]bool) error {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	key, val, ok := strings.Cut(s, "=")
	if !ok {
		return fmt.Errorf("%s:%d: %q: want key = value", file, line, s)
	}
	key, val = strings.TrimSpace(key), strings.TrimSpace(val)
	if seen[key] {
		return fmt.Errorf("%s:%d: %s given twice", file, line, key)
	}
	seen[key] = true
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s = %q: %s", file, line, key, val, fmt.Sprintf(format, args...))
	}
	// Values go into the report as text (escaped there for
	// Markdown): plain text only.
	if err := text.Check(val); err != nil {
		return bad("%v", err)
	}
	switch key {
	case "name":
		p.Name = val
	case "nodes":
		lo, hi, isRange := strings.Cut(val, "..")
		a, err1 := strconv.Atoi(strings.TrimSpace(lo))
		b := a
		var err2 error
		if isRange {
			b, err2 = strconv.Atoi(strings.TrimSpace(hi))
		}
		if err1 != nil || err2 != nil || a < 1 || b < a {
			return bad("want a node count >= 1 or a range LO..HI with 1 <= LO <= HI")
		}
		p.Nodes, p.MaxNodes = a, b
	case "replicas":
		r, err := strconv.Atoi(val)
		if err != nil || r < 1 || r > maxReplicas {
			return bad("want a replication factor 1..%d", maxReplicas)
		}
		p.Replicas = r
	case "zipf":
		s, err := algorithms.ParseDecimal(val)
		if err != nil || s < 0 {
			return bad("want a finite Zipf exponent s >= 0")
		}
		p.Zipf = s
	case "keyfile":
		if val == "" {
			return bad("want a key file path")
		}
		p.KeyFile = val
	default:
		return fmt.Errorf("%s:%d: unknown key %q (want name, nodes, replicas, zipf or keyfile)", file, line, key)
	}
	return nil
}
