package schema

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// PlotIndex is the manifest of the plots of one `chbench plot` run, in
// PlotsDir: one figure name per line (without .png or .svg), sorted,
// after a comment line. chbench plot writes it after drawing, listing
// exactly the figures it drew; the report embeds a plot only when the
// index lists it, so a PNG left from an earlier run is never shown as
// current.
const PlotIndex = "index.txt"

// WritePlotIndex writes the manifest of figures (names without an
// extension) into dir/PlotsDir/PlotIndex, replacing the old one at once.
func WritePlotIndex(dir string, figures []string) error {
	names := slices.Sorted(slices.Values(figures))
	names = slices.Compact(names)
	return WriteFile(filepath.Join(dir, PlotsDir, PlotIndex), func(w io.Writer) error {
		if _, err := fmt.Fprintln(w, "# the figures chbench plot drew in its last run; the report embeds only these"); err != nil {
			return err
		}
		for _, n := range names {
			if _, err := fmt.Fprintln(w, n); err != nil {
				return err
			}
		}
		return nil
	})
}

// ReadPlotIndex returns the set of figures dir/PlotsDir/PlotIndex lists;
// none (and no error) when there is no index: no plot run, so no plot is
// current. A line that is not a plot name (IsLabel) is an error naming
// the file and line.
func ReadPlotIndex(dir string) (map[string]bool, error) {
	path := filepath.Join(dir, PlotsDir, PlotIndex)
	f, err := OpenInput(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]bool{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]bool{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		t := sc.Text()
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if !IsLabel(t) {
			return nil, fmt.Errorf("%s:%d: %q is not a plot name (%s)", path, line, t, LabelRule)
		}
		out[t] = true
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// StalePlots returns the figure files (.png, .svg) in dir/PlotsDir whose
// figure is not in drawn, sorted: the files of figures an earlier plot
// run drew and this one did not.
func StalePlots(dir string, drawn map[string]bool) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(dir, PlotsDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		ext := filepath.Ext(name)
		if !e.Type().IsRegular() || (ext != ".png" && ext != ".svg") {
			continue
		}
		if !drawn[strings.TrimSuffix(name, ext)] {
			out = append(out, filepath.Join(dir, PlotsDir, name))
		}
	}
	return out, nil
}
