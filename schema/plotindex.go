package schema

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
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
// PlotsDir: after a comment line, one figure name per line (without .png
// or .svg), sorted, then one line "< NAME SHA256" per result file of
// [PlotInputs] the run found in the directory, with the SHA-256 of its
// bytes (hex). chbench plot writes it after drawing, listing exactly the
// figures it drew; the report embeds a plot only when the index lists it
// and every input is as the index records ([ChangedPlotInputs]), so a PNG
// left from an earlier run, or drawn from result files since replaced, is
// never shown as current.
const PlotIndex = "index.txt"

// PlotInputs are the result files chbench plot draws from: a change to
// any of them since the last plot run makes every plot stale.
var PlotInputs = []string{
	LookupFile, MovementFile.Name, ScenariosFile.Name, SpreadFile.Name, VNodesFile.Name, HashesFile.Name,
	StormTimelineFile.Name, StormZipfTimelineFile.Name, ReweightFile.Name, ReplicationFile.Name, WeightsFile.Name,
	FleetSharesFile.Name, LoadFile.Name, BoundedFile.Name, HashesSequentialFile.Name,
	SimWindowFile.Name, SimNodeFile.Name, SimEventFile.Name, SimSummaryFile.Name, SimTraceFile.Name,
	SwitchingFile.Name, DomainsFile.Name, DomainRanksFile.Name, DomainChangesFile.Name,
	PropagateFile.Name, PropagateCacheFile.Name, PropagateRedisFile.Name,
}

// WritePlotIndex writes the manifest of figures (names without an
// extension) and the digests of the [PlotInputs] present in dir into
// dir/PlotsDir/PlotIndex, replacing the old one at once. It returns an
// error for an input that exists but cannot be read.
func WritePlotIndex(dir string, figures []string) error {
	names := slices.Sorted(slices.Values(figures))
	names = slices.Compact(names)
	digests, err := plotInputDigests(dir)
	if err != nil {
		return err
	}
	return WriteFile(filepath.Join(dir, PlotsDir, PlotIndex), func(w io.Writer) error {
		if _, err := fmt.Fprintln(w, "# the figures chbench plot drew in its last run, then (<) the result files it drew them from; the report embeds only these, and only while those files are unchanged"); err != nil {
			return err
		}
		for _, n := range names {
			if _, err := fmt.Fprintln(w, n); err != nil {
				return err
			}
		}
		for _, in := range PlotInputs {
			if d, ok := digests[in]; ok {
				if _, err := fmt.Fprintf(w, "< %s %s\n", in, d); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// plotInputDigests returns the SHA-256 (hex) of each of [PlotInputs]
// present in dir, by name.
func plotInputDigests(dir string) (map[string]string, error) {
	out := map[string]string{}
	for _, in := range PlotInputs {
		f, err := os.Open(filepath.Join(dir, in))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		h := sha256.New()
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(dir, in), err)
		}
		out[in] = hex.EncodeToString(h.Sum(nil))
	}
	return out, nil
}

// ChangedPlotInputs returns, sorted, what differs between the result
// files of dir and those the index of its plots records: "spread.csv
// changed", "load.csv is new", "storm-timeline.csv is gone"; every input
// present when the index records none (written by a chbench before the
// index held them). None, and no error, when there is no index (no plot
// is current then anyway).
func ChangedPlotInputs(dir string) ([]string, error) {
	path := filepath.Join(dir, PlotsDir, PlotIndex)
	f, err := OpenInput(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recorded := map[string]string{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		rest, ok := strings.CutPrefix(sc.Text(), "< ")
		if !ok {
			continue
		}
		name, digest, ok := strings.Cut(rest, " ")
		if !ok || !slices.Contains(PlotInputs, name) || len(digest) != 2*sha256.Size {
			return nil, fmt.Errorf("%s:%d: %q is not an input line (< NAME SHA256 of one of %s)", path, line, sc.Text(), strings.Join(PlotInputs, ", "))
		}
		recorded[name] = digest
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	now, err := plotInputDigests(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, in := range PlotInputs {
		was, had := recorded[in]
		is, has := now[in]
		switch {
		case had && !has:
			out = append(out, in+" is gone")
		case !had && has:
			out = append(out, in+" is new")
		case had && was != is:
			out = append(out, in+" changed")
		}
	}
	slices.Sort(out)
	return out, nil
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
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "< ") {
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
