package schema

import (
	"reflect"
	"strings"
)

// Config is the configuration a result was produced with. Every row type
// embeds it; CSV rows carry the fields their file has as columns of the
// same names, JSON rows as the object "config". The fields are
// documented in the package documentation (Run configuration).
type Config struct {
	Algo       string  `json:"algo"`
	Hash       string  `json:"hash"` // resolved name ("" becomes the default); slots ignore it (CRC-16)
	VNodes     int     `json:"vnodes"`
	Eps        float64 `json:"eps"`
	Partitions int     `json:"partitions"`
	TableSize  int     `json:"table_size"` // maglev: configured lookup table size M
	Probes     int     `json:"probes"`     // multiprobe: probes per key
	Capacity   int     `json:"capacity"`   // anchor, dx: buckets (0 = twice the initial nodes, at least 16)
	// Keys is the number of keys per set for generated keys; for a key file
	// it is the number of keys in the file (each set holds floor or ceil of
	// Keys/Sets).
	Keys    int    `json:"keys"`
	Sets    int    `json:"sets"`
	Seed    uint64 `json:"seed"`
	KeyFile string `json:"key_file,omitempty"`
	KeyKind string `json:"key_kind,omitempty"` // generated key shape (keyset.KeyKinds); "" for the default "random"
	// Placement is the placement mode: [PlacementPerSet] (each key set of
	// an algorithm with a random layout on its own layout, so means and
	// intervals cover layouts and keys) or [PlacementFixed] (one layout,
	// the given node IDs, for every set: this exact fleet).
	Placement string `json:"placement"`
	// Topology names the failure domains the result was measured in: the
	// -topology file ("file=NAME") or the counts of -racks and -zones
	// ("rack=6 zone=3"); "" for none. Domain is the failure-domain level
	// replicas were spread over (one replica per domain while domains
	// remain), "" for none.
	Topology  string `json:"topology,omitempty"`
	Domain    string `json:"domain,omitempty"`
	GoVersion string `json:"go_version"`
	Commit    string `json:"commit"`
}

// Run is how one row was produced, as its file records it: each field is
// the row's cell of that column as [WriteCSV] writes it, or "" when the
// row's file has no such column. Captions and the report's description of
// a run read it, so they show exactly what the file holds.
type Run struct {
	Algo, Hash, VNodes, Eps, TableSize, Probes, Capacity string
	Keys, Requests, Sets, Seed, KeyFile, KeyKind         string
	Placement, GoVersion, Commit                         string
}

// runColumns maps the fields of Run to their columns.
var runColumns = map[string]string{
	"Algo": "algo", "Hash": "hash", "VNodes": "vnodes", "Eps": "eps", "TableSize": "table_size", "Probes": "probes", "Capacity": "capacity",
	"Keys": "keys", "Requests": "requests", "Sets": "sets", "Seed": "seed", "KeyFile": "key_file", "KeyKind": "key_kind",
	"Placement": "placement", "GoVersion": "go_version", "Commit": "commit",
}

// RunOf returns the [Run] of row r.
func RunOf[R Row](r R) Run {
	l := layoutOf[R]()
	v := reflect.ValueOf(r)
	var run Run
	rv := reflect.ValueOf(&run).Elem()
	for i := range rv.NumField() {
		name := rv.Type().Field(i).Name
		if j, ok := l.byName[runColumns[name]]; ok {
			rv.Field(i).SetString(cell(v, l.cols[j]))
		}
	}
	return run
}

// Columns returns the CSV header of row type R, in order: for tests and
// tools that check a file's shape.
func Columns[R Row]() []string {
	var zero R
	out := make([]string, 0, len(zero.columns()))
	for _, c := range zero.columns() {
		out = append(out, strings.TrimPrefix(strings.TrimPrefix(c, "~"), "?"))
	}
	return out
}
