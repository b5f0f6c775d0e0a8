package command

import (
	"bytes"
	"encoding/csv"
	"errors"
	"flag"
	"strings"
	"testing"

	"github.com/chbench/chbench/analysis/reference"
)

// The CLI: table and CSV agree, bad flags name the bad value, -h helps.
// (The full-size run is `make reference`; here only the flag handling.)
func TestReferenceCLI(t *testing.T) {
	if _, _, err := runCLI(t, "reference", "-format", "json"); err == nil || !strings.Contains(err.Error(), `"json"`) {
		t.Errorf("-format json: %v", err)
	}
	if _, _, err := runCLI(t, "reference", "extra"); err == nil || !strings.Contains(err.Error(), `"extra"`) {
		t.Errorf("extra argument: %v", err)
	}
	if _, stderr, err := runCLI(t, "reference", "-h"); !errors.Is(err, flag.ErrHelp) || !strings.Contains(stderr, "usage: chbench reference") {
		t.Errorf("-h: %v %q", err, stderr)
	}
	rows := []reference.Row{
		{Quantity: "q, with comma", Kind: reference.KindFormula, Published: "1", Ours: "2", Accept: "[1, 2]", Basis: "b", Pass: false},
		{Quantity: "one ring", Kind: reference.KindPublished, Published: "3", Ours: "4", Accept: "[0, 9]", Basis: "range", Info: true},
	}
	var b bytes.Buffer
	if err := reference.WriteCSV(&b, rows); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil || len(recs) != 3 || recs[1][0] != "q, with comma" || recs[1][1] != "formula" || recs[1][6] != "FAIL" || recs[2][6] != "info" {
		t.Errorf("csv %q: %v", recs, err)
	}
	if err := reference.Verdict(rows[1:]); err != nil {
		t.Errorf("informational row failed the verdict: %v", err)
	}
	b.Reset()
	if err := reference.WriteTable(&b, rows); err != nil || !strings.Contains(b.String(), "FAIL") || !strings.Contains(b.String(), "Informational") {
		t.Errorf("table %q: %v", b.String(), err)
	}
}
