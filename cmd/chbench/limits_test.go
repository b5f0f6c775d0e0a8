package main

import (
	"strings"
	"testing"
)

// wantCLIError runs chbench in-process and checks that it fails with an
// error containing every part, without writing results.
func wantCLIError(t *testing.T, args []string, parts ...string) {
	t.Helper()
	out, _, err := runCLI(t, args...)
	if err == nil {
		t.Errorf("chbench %s: no error, want one naming %q", strings.Join(args, " "), parts)
		return
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("chbench %s: error %q does not name %q", strings.Join(args, " "), err, p)
		}
	}
	if out != "" {
		t.Errorf("chbench %s: wrote %q before failing", strings.Join(args, " "), out)
	}
}

// Kind 1 of issue 9: weights whose total overflows or whose share
// underflows used to pass validation and panic in the analysis with a Go
// stack (modulo, jump, rendezvous); every algorithm now refuses them the
// same way, naming the weight.
func TestWeightsOutOfRangeRefused(t *testing.T) {
	for _, algo := range []string{"modulo", "jump", "rendezvous", "ring", "slots", "bounded"} {
		wantCLIError(t, []string{"spread", "-algo", algo, "-nodes", "2", "-weights", "1e308,1e308", "-keys", "10", "-sets", "1"},
			"weights sum to +Inf", "1e+308")
	}
	wantCLIError(t, []string{"spread", "-algo", "rendezvous", "-nodes", "3", "-weights", "5e-324,1,1", "-keys", "10", "-sets", "1"},
		"weight 5e-324", "2^-53")
	wantCLIError(t, []string{"locate", "-algo", "rendezvous", "-weights", "1e308,1e308", "-nodes", "2", "k"}, "1e+308")
}
