package schema

import "fmt"

// The verdicts of a conformance check, as [Conformance.Verdict] holds them.
const (
	VerdictPass = "PASS"
	VerdictFail = "FAIL"
	VerdictNA   = "n/a" // the placement declares it does not make the promise
)

// Conformance is one check of the conformance suite (package conformance)
// on one placement: one row of the conformance CSV, one object of its JSON
// array. The columns are documented in the package documentation
// (Conformance).
type Conformance struct {
	Property  string   `json:"property"`  // determinism, order, balance, join, leave, weights, replicas, churn, reference
	Check     string   `json:"check"`     // what value measures, e.g. "collateral fraction"
	Value     *float64 `json:"value"`     // the number measured; nil when the check did not run
	Threshold *float64 `json:"threshold"` // the largest value that passes; nil with value
	Verdict   string   `json:"verdict"`   // VerdictPass, VerdictFail or VerdictNA
	Nodes     int      `json:"nodes"`     // the membership's nodes, each of weight 1
	Alpha     float64  `json:"alpha"`     // false-alarm rate of each statistical check
	CVTol     float64  `json:"cv_tolerance"`
	Facts     string   `json:"facts"`  // the placement's promises, e.g. "weighted, any node leaves, unordered, replicas 8"
	Detail    string   `json:"detail"` // how it was measured, the first counterexample, or why it did not run
	Config    `json:"config"`
}

func (Conformance) columns() []string {
	return []string{
		"algo", "property", "check", "value", "threshold", "verdict",
		"nodes", "keys", "seed", "alpha", "cv_tolerance", "facts", "detail",
		"~hash", "~vnodes", "~go_version", "~commit",
	}
}

// check: a verdict is one of the three; a check that ran has both its
// value and its threshold and passes exactly when the value is within the
// threshold; one that did not run (n/a, or a FAIL stopped by an error)
// has neither; the alpha is a probability and the tolerance a cv.
func (r Conformance) check() error {
	switch r.Verdict {
	case VerdictPass, VerdictFail, VerdictNA:
	default:
		return columnErr("verdict", "%q: want %s, %s or %s", r.Verdict, VerdictPass, VerdictFail, VerdictNA)
	}
	if (r.Value == nil) != (r.Threshold == nil) {
		return columnErr("threshold", "a value without a threshold, or a threshold without a value")
	}
	switch {
	case r.Value == nil && r.Verdict == VerdictPass:
		return columnErr("value", "empty for a PASS: a check that passes was measured")
	case r.Value != nil && r.Verdict == VerdictNA:
		return columnErr("value", "%v for n/a: a check that does not apply is not measured", *r.Value)
	case r.Value != nil && (*r.Value <= *r.Threshold) != (r.Verdict == VerdictPass):
		return columnErr("verdict", "%s with value %v and threshold %v: a check passes exactly when value <= threshold", r.Verdict, *r.Value, *r.Threshold)
	}
	if !(r.Alpha > 0 && r.Alpha < 0.5) {
		return columnErr("alpha", "%v: want 0 < alpha < 0.5", r.Alpha)
	}
	if !(r.CVTol > 0 && r.CVTol <= 1) {
		return columnErr("cv_tolerance", "%v: want 0 < cv <= 1", r.CVTol)
	}
	if r.Property == "" || r.Check == "" {
		return fmt.Errorf("conformance row with an empty property or check")
	}
	return nil
}
