package schema

import (
	"strings"
	"testing"
)

// collateral_frac is one change's copies between surviving nodes in a
// DomainChange, a fraction of the replicas, so above 1 is refused; in a
// Move it sums a scenario's steps (900 steps can collateral-move each key
// many times), so the same column above 1 is a valid Move.
func TestCollateralDomainPerRowType(t *testing.T) {
	c := filled[DomainChange]()
	c.Scheme, c.Event, c.NodesLeft, c.NodesJoined = SchemeAware, EventLoss, 3, 0
	c.CollateralFrac, c.CollateralFracLo, c.CollateralFracHi = 1.5, new(1.4), new(1.6)
	if err := Check(c); err == nil || !strings.Contains(err.Error(), "collateral_frac") {
		t.Errorf("DomainChange with collateral 1.5: %v, want an error naming collateral_frac", err)
	}
	m := filled[Move]()
	m.CollateralFrac, m.CollateralFracLo, m.CollateralFracHi = 895.4, new(894.8), new(895.9)
	if err := Check(m); err != nil {
		t.Errorf("Move with collateral summed over steps: %v", err)
	}
}
