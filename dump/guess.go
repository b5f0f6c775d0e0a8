package dump

import (
	"cmp"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
)

// GuessOptions bound a guess.
type GuessOptions struct {
	// Keys is how many records of the dump (its first) the candidates are
	// tried on, 1 to 1,000,000 (0 means 20,000).
	Keys int
	// Top is how many candidates to return, best first (0 means 10).
	Top int
	// Config is the configuration of every candidate but its hash (virtual
	// nodes, table size, ...); nil means catalog.DefaultConfig().
	Config *catalog.Config
}

// MaxGuessServers bounds the distinct servers a guess accepts: every
// candidate is built on all of them.
const MaxGuessServers = 4096

// Candidate is one chbench placement tried on a dump: the algorithm, the
// key hash (when the algorithm reads one), the form of the labels it
// hashed in place of the dump's server names, and the order of the
// membership (for algorithms whose owners depend on it), with its
// agreement with the dump and the 95% interval.
type Candidate struct {
	Algorithm string
	Hash      string // "" when the algorithm does not read catalog.Config.Hash
	Labels    string // one of LabelForms
	Order     string // "as first seen" or "sorted"; "" for unordered algorithms
	Agree     int
	Agreement float64
	Lo, Hi    float64
}

// Guesses is the outcome of Guess.
type Guesses struct {
	Name    string      // the dump's name
	Keys    int         // the records tried
	Servers []string    // the distinct servers among them, in order of first appearance
	Best    []Candidate // the best candidates, by agreement, best first
}

// LabelForms are the ways Guess turns the dump's server names into the
// labels a placement hashes: as given; without a trailing ":port"; with
// memcached's default port ":11211" added where there is none (libketama
// and twemproxy hash "host:port"); with Redis's ":6379" added.
var LabelForms = []string{"as given", "host", "host:11211", "host:6379"}

var portSuffix = regexp.MustCompile(`:[0-9]{1,5}$`)

// Label returns the label of server in form, one of LabelForms (an
// unknown form leaves server as it is).
func Label(server, form string) string {
	switch form {
	case "host":
		return portSuffix.ReplaceAllString(server, "")
	case "host:11211", "host:6379":
		if portSuffix.MatchString(server) {
			return server
		}
		return server + strings.TrimPrefix(form, "host")
	}
	return server
}

// Guess reads the first opt.Keys records of the dump d and tries every
// algorithm of the catalog (built-in and registered) on them: each key
// hash for the algorithms that read one, each of LabelForms, and for
// ordered algorithms the servers as first seen and sorted. A candidate's
// membership is the servers seen, of weight 1, named by their labels; a
// key agrees when the candidate's owner is the label of its dump server.
// Candidates that cannot be built (a form that makes two servers one
// label, a placement that refuses the membership) are left out. It
// returns the best opt.Top (ties in catalog order, then the order of
// LabelForms and of algorithms.HashNames), and the dump's errors, or
// an error for an empty dump or more than MaxGuessServers servers.
func Guess(d *Reader, opt GuessOptions) (*Guesses, error) {
	keys := opt.Keys
	if keys == 0 {
		keys = 20000
	}
	if keys < 1 || keys > 1000000 {
		return nil, fmt.Errorf("guess: keys %d: need 1 to 1000000", keys)
	}
	top := opt.Top
	if top == 0 {
		top = 10
	}
	if top < 1 {
		return nil, fmt.Errorf("guess: top %d: need at least 1", top)
	}
	base := catalog.DefaultConfig()
	if opt.Config != nil {
		base = *opt.Config
	}
	g := &Guesses{Name: d.name}
	var recs []Record
	seen := map[string]bool{}
	for len(recs) < keys && d.Scan() {
		r := d.Record()
		recs = append(recs, r)
		if !seen[r.Server] {
			seen[r.Server] = true
			g.Servers = append(g.Servers, r.Server)
			if len(g.Servers) > MaxGuessServers {
				return nil, fmt.Errorf("guess %s: more than %d servers in the first %d lines", d.name, MaxGuessServers, r.Line)
			}
		}
	}
	if err := d.Err(); err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("guess %s: the dump is empty", d.name)
	}
	g.Keys = len(recs)
	sorted := slices.Clone(g.Servers)
	slices.Sort(sorted)
	keyList := make([]string, len(recs))
	for i, r := range recs {
		keyList[i] = r.Key
	}
	owners := make([]int, len(recs))
	var all []Candidate
	for _, name := range catalog.Names() {
		in, err := catalog.Describe(name)
		if err != nil {
			return nil, err
		}
		hashes := []string{""}
		if in.UsesHash {
			hashes = algorithms.HashNames()
		}
		orders := []string{""}
		if in.Ordered {
			orders = []string{"as first seen", "sorted"}
		}
		for _, form := range LabelForms {
			for _, order := range orders {
				servers := g.Servers
				if order == "sorted" {
					servers = sorted
				}
				nodes, want, ok := labelled(servers, recs, form)
				if !ok {
					continue
				}
				for _, h := range hashes {
					cfg := base
					if h != "" {
						cfg.Hash = h
					}
					p, err := catalog.New(name, nodes, cfg)
					if err != nil {
						continue
					}
					loc := algorithms.AsLocator(p, algorithms.MustHash(cfg.Hash).Bits())
					if err := loc.LocateKeys(keyList, owners); err != nil {
						continue
					}
					agree := 0
					for i, o := range owners {
						if o == want[i] {
							agree++
						}
					}
					lo, hi := ClopperPearson(agree, len(recs), 0.95)
					all = append(all, Candidate{Algorithm: name, Hash: h, Labels: form, Order: order, Agree: agree,
						Agreement: float64(agree) / float64(len(recs)), Lo: lo, Hi: hi})
				}
			}
		}
	}
	slices.SortStableFunc(all, func(a, b Candidate) int { return cmp.Compare(b.Agree, a.Agree) })
	g.Best = all[:min(top, len(all))]
	return g, nil
}

// labelled returns the membership of servers named in form, and for each
// record the index of its server's node; false when the form gives two
// servers the same label, or is the same as "as given" for every server
// (a duplicate candidate).
func labelled(servers []string, recs []Record, form string) ([]algorithms.Node, []int, bool) {
	nodes := make([]algorithms.Node, len(servers))
	index := make(map[string]int, len(servers))
	changed := form == "as given"
	for i, s := range servers {
		l := Label(s, form)
		if _, dup := index[l]; dup {
			return nil, nil, false
		}
		changed = changed || l != s
		index[l] = i
		nodes[i] = algorithms.Node{ID: l, Weight: 1}
	}
	if !changed || algorithms.ValidateNodes(nodes) != nil {
		return nil, nil, false
	}
	want := make([]int, len(recs))
	for i, r := range recs {
		want[i] = index[Label(r.Server, form)]
	}
	return nodes, want, true
}

// WriteText writes the candidates as a table, best first.
func (g *Guesses) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "closest chbench placements to %s (%d keys, %d servers):\n", g.Name, g.Keys, len(g.Servers))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "algorithm\thash\tlabels\torder\tagreement\t95% interval")
	for _, c := range g.Best {
		h, o := c.Hash, c.Order
		if h == "" {
			h = "(own)"
		}
		if o == "" {
			o = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.4f\t%.4f to %.4f\n", c.Algorithm, h, c.Labels, o, c.Agreement, c.Lo, c.Hi)
	}
	return tw.Flush()
}
