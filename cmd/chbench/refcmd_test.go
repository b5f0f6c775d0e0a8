package main

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
	rows := []reference.Row{{Quantity: "q, with comma", Published: "1", Ours: "2", Accept: "[1, 2]", Basis: "b", Pass: false}}
	var b bytes.Buffer
	if err := reference.WriteCSV(&b, rows); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil || len(recs) != 2 || recs[1][0] != "q, with comma" || recs[1][5] != "FAIL" {
		t.Errorf("csv %q: %v", recs, err)
	}
	b.Reset()
	if err := reference.WriteTable(&b, rows); err != nil || !strings.Contains(b.String(), "FAIL") {
		t.Errorf("table %q: %v", b.String(), err)
	}
}
