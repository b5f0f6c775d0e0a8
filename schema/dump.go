package schema

import "fmt"

// The rows of chbench dump-diff (package dump): the agreement of a key
// dump with a placement or with another dump ([DumpDiff]), its from -> to
// matrix ([DumpCell]) and first mismatches ([DumpMismatch]), and the
// closest chbench placements to a dump ([DumpGuess]). Keys and server
// names are written as the dump writes them, in the external protocol's
// escaping (docs/protocol.md), so that every cell is printable. The
// columns are documented in the package documentation (Key dumps).

// DumpDiff is the agreement of a dump with a placement or another dump,
// key by key: one row per comparison.
type DumpDiff struct {
	Dump        string          `json:"dump"`    // the dump compared (A), as named on the command line
	Against     string          `json:"against"` // B: the placement's name, or the other dump
	Agree       int             `json:"agree"`   // keys on the same server in A and B
	Agreement   float64         `json:"agreement"`
	AgreementLo float64         `json:"agreement_lo"` // 95% Clopper-Pearson interval
	AgreementHi float64         `json:"agreement_hi"`
	OnlyA       int             `json:"only_a"` // keys in A only (two sorted dumps)
	OnlyB       int             `json:"only_b"`
	Labels      string          `json:"labels"` // the form the dump's servers were compared in (dump.LabelForms); "" for two dumps
	Config      `json:"config"` // algo: the placement (B), "" for two dumps; keys: the keys compared
}

func (DumpDiff) columns() []string {
	return []string{"dump", "against", "algo", "hash", "keys", "agree", "agreement", "agreement_lo", "agreement_hi",
		"only_a", "only_b", "labels", "~vnodes", "~go_version", "~commit"}
}

func (r DumpDiff) check() error {
	if r.Agree < 0 || r.Agree > r.Keys || r.OnlyA < 0 || r.OnlyB < 0 {
		return columnErr("agree", "%d of %d keys (only in one dump: %d, %d): want 0 <= agree <= keys", r.Agree, r.Keys, r.OnlyA, r.OnlyB)
	}
	return checkAgreement(r.Agreement, r.AgreementLo, r.AgreementHi)
}

// checkAgreement checks that an agreement and its interval are fractions.
func checkAgreement(x, lo, hi float64) error {
	for _, v := range []float64{x, lo, hi} {
		if v < 0 || v > 1 {
			return columnErr("agreement", "%v is not a fraction in 0..1", v)
		}
	}
	return nil
}

// DumpCell is one entry of a comparison's from -> to matrix: the keys A
// places on server From and B on To.
type DumpCell struct {
	Dump    string          `json:"dump"`
	Against string          `json:"against"`
	From    string          `json:"from_server"`
	To      string          `json:"to_server"`
	Count   int             `json:"cell_keys"` // the keys of this cell
	Config  `json:"config"` // keys: the keys compared
}

func (DumpCell) columns() []string {
	return []string{"dump", "against", "algo", "from_server", "to_server", "cell_keys", "keys", "~hash", "~vnodes", "~go_version", "~commit"}
}

func (r DumpCell) check() error {
	if r.Count < 1 || r.Count > r.Keys {
		return columnErr("cell_keys", "%d of %d keys: want 1 to the keys compared", r.Count, r.Keys)
	}
	return nil
}

// DumpMismatch is one of the first keys A and B place on different
// servers, with the values of chbench's key hashes for it.
type DumpMismatch struct {
	Dump    string `json:"dump"`
	Against string `json:"against"`
	Line    int    `json:"line"` // the line of A
	Key     string `json:"key"`  // escaped
	A       string `json:"server_a"`
	B       string `json:"server_b"`
	// Hashes lists "name=0x..." for every key hash (algorithms.HashNames)
	// and the Redis Cluster hash slot, separated by spaces.
	Hashes string `json:"hashes"`
	Config `json:"config"`
}

func (DumpMismatch) columns() []string {
	return []string{"dump", "against", "algo", "line", "key", "server_a", "server_b", "hashes", "~hash", "~vnodes", "~go_version", "~commit"}
}

func (r DumpMismatch) check() error {
	if r.Line < 1 {
		return columnErr("line", "%d: want a line number >= 1", r.Line)
	}
	return nil
}

// DumpGuess is one chbench placement tried on a dump, ranked by its
// agreement: the algorithm (Config.Algo) with its key hash (Config.Hash,
// "" when the algorithm reads none), the form its labels took and the
// order of its membership.
type DumpGuess struct {
	Dump        string          `json:"dump"`
	Rank        int             `json:"rank"` // 1 = closest
	Labels      string          `json:"labels"`
	Order       string          `json:"order"` // "as first seen" or "sorted"; "" when owners do not depend on it
	Servers     int             `json:"servers"`
	Agree       int             `json:"agree"`
	Agreement   float64         `json:"agreement"`
	AgreementLo float64         `json:"agreement_lo"`
	AgreementHi float64         `json:"agreement_hi"`
	Config      `json:"config"` // keys: the records tried
}

func (DumpGuess) columns() []string {
	return []string{"dump", "rank", "algo", "hash", "labels", "order", "servers", "keys", "agree",
		"agreement", "agreement_lo", "agreement_hi", "~vnodes", "~go_version", "~commit"}
}

func (r DumpGuess) check() error {
	if r.Rank < 1 || r.Agree < 0 || r.Agree > r.Keys {
		return fmt.Errorf("dump guess rank %d, %d of %d keys: want rank >= 1 and 0 <= agree <= keys", r.Rank, r.Agree, r.Keys)
	}
	return checkAgreement(r.Agreement, r.AgreementLo, r.AgreementHi)
}
