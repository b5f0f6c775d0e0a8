package schema

import (
	"fmt"
	"math"

	"golang.org/x/perf/benchfmt"
)

// MoveSample holds the fractions (0..1) measured on one key set.
type MoveSample struct {
	Moved      float64 `json:"moved_frac"`
	Collateral float64 `json:"collateral_frac"`
	Net        float64 `json:"net_moved_frac"`
}

// Move is one movement result (one algorithm through one scenario): one
// row of movement.csv, scenarios.csv and reweight.csv, one object of the
// movement JSON array. The columns are documented in the package
// documentation (Movement).
type Move struct {
	Op               string   `json:"op"`
	From             int      `json:"from"`
	To               int      `json:"to"`
	MovedFrac        float64  `json:"moved_frac"`
	MovedFracLo      *float64 `json:"moved_frac_lo"`
	MovedFracHi      *float64 `json:"moved_frac_hi"`
	IdealFrac        float64  `json:"ideal_frac"`
	MovedOverIdeal   float64  `json:"moved_over_ideal"`
	CollateralFrac   float64  `json:"collateral_frac"`
	CollateralFracLo *float64 `json:"collateral_frac_lo"`
	CollateralFracHi *float64 `json:"collateral_frac_hi"`
	NetMovedFrac     float64  `json:"net_moved_frac"`
	NetMovedFracLo   *float64 `json:"net_moved_frac_lo"`
	NetMovedFracHi   *float64 `json:"net_moved_frac_hi"`
	Steps            int      `json:"steps"`
	Label            string   `json:"label"`          // the algorithm and its variant, e.g. "jump (swap-last)"
	ExpectedMoves    float64  `json:"expected_moves"` // ideal fraction x keys of one set
	Config           `json:"config"`
	Samples          []MoveSample `json:"samples"`
}

func (Move) columns() []string {
	return []string{
		"algo", "hash", "vnodes", "op", "from", "to", "keys", "sets", "seed",
		"moved_frac", "moved_frac_lo", "moved_frac_hi", "ideal_frac", "moved_over_ideal",
		"collateral_frac", "collateral_frac_lo", "collateral_frac_hi",
		"net_moved_frac", "net_moved_frac_lo", "net_moved_frac_hi",
		"steps", "~eps", "~partitions", "~key_file", "~go_version", "~commit",
		"~table_size", "~probes", "~capacity",
		"placement", "label", "expected_moves", "~?topology", "~?domain",
	}
}

// The benchmark format of a movement result, one line per key set so
// that benchstat sees S samples:
//
//	BenchmarkMove/algo=ring/op=add/from=10/to=11 1 0.091 moved-frac 0.91 moved/ideal 0 collateral-frac 0.091 net-moved-frac 0.0909 ideal-frac
//
// ideal-frac is declared exact ("Unit ideal-frac assume=exact"); the other
// metrics are sampled.
func (r Move) benchName() string {
	return fmt.Sprintf("Move/algo=%s/op=%s/from=%d/to=%d", r.Algo, r.Op, r.From, r.To)
}

func (r Move) benchLines() [][]benchfmt.Value {
	var out [][]benchfmt.Value
	for _, s := range r.Samples {
		out = append(out, []benchfmt.Value{
			{Value: s.Moved, Unit: "moved-frac"},
			{Value: s.Moved / r.IdealFrac, Unit: "moved/ideal"},
			{Value: s.Collateral, Unit: "collateral-frac"},
			{Value: s.Net, Unit: "net-moved-frac"},
			{Value: r.IdealFrac, Unit: "ideal-frac"},
		})
	}
	return out
}

func (Move) exactUnits() []string { return []string{"ideal-frac"} }

// MinExpectedMoves is the fewest moved keys per key set a movement row
// must expect (expected_moves) for its moved fraction to be drawn or
// quoted: below it the fraction is mostly counting noise (1,000 expected
// moves: a relative standard error of about 3%). Plots and the report
// both decide with [Move.EnoughMoves], so a point the plots leave out is
// not quoted either.
const MinExpectedMoves = 1000

// EnoughMoves reports whether r expects at least MinExpectedMoves moved
// keys per key set (with a relative slack of 1e-9 for the float sum of
// the steps' ideal fractions).
func (r Move) EnoughMoves() bool { return r.ExpectedMoves >= MinExpectedMoves*(1-1e-9) }

// RatioTolerance is the relative difference allowed between a written
// ratio and the quotient of the columns it is the ratio of: results are
// written with every digit ('g', -1), so the two agree to a few units in
// the last place; 1e-6 also admits files whose fractions were rounded to
// six or more significant digits, and nothing a misread column gives.
const RatioTolerance = 1e-6

// check: moved_over_ideal is moved_frac / ideal_frac within
// RatioTolerance (Check has already found both finite, ideal_frac > 0).
func (r Move) check() error {
	want := r.MovedFrac / r.IdealFrac
	if math.Abs(r.MovedOverIdeal-want) > RatioTolerance*math.Abs(want) {
		return columnErr("moved_over_ideal", "%v is not moved_frac / ideal_frac = %v / %v = %v", r.MovedOverIdeal, r.MovedFrac, r.IdealFrac, want)
	}
	return nil
}
