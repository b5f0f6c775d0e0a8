package schema

import (
	"strings"
	"testing"
)

// conformanceRow returns a valid Conformance row: a measured FAIL whose
// detail holds a comma, quotes and a pipe, as the suite writes them.
func conformanceRow() Conformance {
	v, th := 0.066, 0.0
	return Conformance{Property: "join", Check: "fraction moved between other nodes", Value: &v, Threshold: &th,
		Verdict: VerdictFail, Nodes: 10, Alpha: 0.001, CVTol: 0.1, Facts: "weighted, any node leaves, unordered, replicas 8",
		Detail: `"node-10" joined 10 nodes; key "user:1" moved | from "node-3"`,
		Config: Config{Algo: "capped-ring", Hash: "xxhash", VNodes: 160, Keys: 5000, Sets: 1, Seed: 1, GoVersion: "go", Commit: "c"}}
}

// A conformance row writes and reads back every column, a check that did
// not run as empty value and threshold cells.
func TestConformanceRoundTrip(t *testing.T) {
	roundTrip(t, conformanceRow())
	na := conformanceRow()
	na.Value, na.Threshold, na.Verdict, na.Detail = nil, nil, VerdictNA, "declared unweighted"
	roundTrip(t, na)
}

// Check refuses the rows the suite cannot write: an unknown verdict, a
// PASS above its threshold or a FAIL within it, a value without a
// threshold, a measured n/a, an alpha or tolerance out of range.
func TestConformanceCheck(t *testing.T) {
	one, two := 1.0, 2.0
	for _, c := range []struct {
		edit func(*Conformance)
		want string
	}{
		{func(r *Conformance) { r.Verdict = "ok" }, `column verdict: "ok": want PASS, FAIL or n/a`},
		{func(r *Conformance) { r.Verdict, r.Value, r.Threshold = VerdictPass, &two, &one }, "PASS with value 2 and threshold 1"},
		{func(r *Conformance) { r.Value, r.Threshold = &one, &two }, "FAIL with value 1 and threshold 2"},
		{func(r *Conformance) { r.Threshold = nil }, "a value without a threshold"},
		{func(r *Conformance) { r.Verdict = VerdictNA }, "for n/a: a check that does not apply is not measured"},
		{func(r *Conformance) { r.Value, r.Threshold, r.Verdict = nil, nil, VerdictPass }, "empty for a PASS"},
		{func(r *Conformance) { r.Alpha = 0.5 }, "column alpha: 0.5"},
		{func(r *Conformance) { r.CVTol = 0 }, "column cv_tolerance: 0"},
		{func(r *Conformance) { r.Nodes = 0 }, `column nodes: "0" is not a whole number >= 1`},
	} {
		r := conformanceRow()
		c.edit(&r)
		if err := Check(r); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Check: %v, want an error saying %q", err, c.want)
		}
	}
}

// The rows of dump-diff write and read back every column, keys and
// servers in their escaped form; an agreement outside 0..1 or above its
// keys is refused.
func TestDumpRowsRoundTrip(t *testing.T) {
	cfg := Config{Algo: "ketama", Hash: "md5", Keys: 1000, Sets: 1, GoVersion: "go", Commit: "c"}
	roundTrip(t, DumpDiff{Dump: "a.tsv", Against: "ketama", Agree: 998, Agreement: 0.998, AgreementLo: 0.9928, AgreementHi: 0.9998, Labels: "host:11211", Config: cfg})
	roundTrip(t, DumpCell{Dump: "a.tsv", Against: "ketama", From: "10.0.0.1", To: "10.0.0.1:11211", Count: 500, Config: cfg})
	roundTrip(t, DumpMismatch{Dump: "a.tsv", Against: "ketama", Line: 7, Key: "a%20b%25", A: "x", B: "y", Hashes: "fnv1a32=0x1 slot=0x2", Config: cfg})
	roundTrip(t, DumpGuess{Dump: "a.tsv", Rank: 1, Labels: "as given", Servers: 3, Agree: 1000, Agreement: 1, AgreementLo: 0.996, AgreementHi: 1, Config: cfg})
	if err := Check(DumpDiff{Agree: 1001, Agreement: 1, Config: cfg}); err == nil {
		t.Error("more agreeing keys than keys passed Check")
	}
	if err := Check(DumpGuess{Rank: 1, Agree: 10, Agreement: 1.5, AgreementLo: 1, AgreementHi: 2, Config: cfg}); err == nil {
		t.Error("an agreement of 1.5 passed Check")
	}
}
