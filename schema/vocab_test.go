package schema

import "testing"

// IsOp accepts the ops chbench names itself (scenario ops, staged
// changes and their steps, the fleet flags' one-step changes as
// analysis names them) and refuses a label it never writes.
func TestIsOp(t *testing.T) {
	for _, op := range append(Ops(), "grow", "shrink", "grow-step", "add-step", "join", "leave", "reweight",
		"leave+reweight", "join+leave+reweight", "join-2", "join-2-step", "leave-5%", "leave-33.3333%",
		"reweight-5%-1-to-127", "reweight-50%-to-75", "reweight-5%-1-to-1e+07") {
		if !IsOp(op) {
			t.Errorf("IsOp(%q) = false, want true", op)
		}
	}
	for _, op := range []string{"bogus", "", "join-0", "leave+join", "reweight+join", "join+join", "leave-%", "reweight-5%", "add-step-step", "step", "Add"} {
		if IsOp(op) {
			t.Errorf("IsOp(%q) = true, want false", op)
		}
	}
}
