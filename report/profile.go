package report

import (
	"github.com/chbench/chbench/fleet"
)

// Profile describes the reviewer's case: the report reads every result at
// the values closest to it and says which ones it used. It comes from a
// fleet profile (package fleet, docs/fleet-profile.md) through
// [FromFleet], or is [DefaultProfile].
//
// Movement, spread, request load, replication and build memory are read at
// the working size (today's members); lookup time at both counts. KeyFile
// does not re-run anything: the report checks it against the key_file
// column of the results and says so when they differ.
type Profile struct {
	Name     string  // "" = none
	Nodes    int     // working fleet size, >= 1
	MaxNodes int     // largest fleet size, >= Nodes
	Replicas int     // replication factor R, 1..5
	Zipf     float64 // Zipf exponent s, finite, >= 0
	KeyFile  string  // "" = any key source
	Source   string  // the profile file, or "defaults"
	// Fleet is the fleet profile this one was made from, nil for
	// DefaultProfile; with it the report answers for that fleet (its
	// members and weights, its client, its planned changes and their
	// cost to the database).
	Fleet *fleet.Profile
}

// DefaultProfile is the case the report answers without a profile: 100 to
// 10,000 nodes, 3 replicas, Zipf s = 0.99, any key source.
func DefaultProfile() Profile {
	return Profile{Nodes: 100, MaxNodes: 10000, Replicas: 3, Zipf: 0.99, Source: "defaults"}
}

// FromFleet returns the report's case for fleet profile fp: today's member
// count as the working size, the largest membership any planned change
// reaches as the largest, fp's replication factor, Zipf exponent and key
// file. fp must be a validated profile (fleet.Read).
func FromFleet(fp *fleet.Profile) Profile {
	return Profile{
		Name:     fp.Name,
		Nodes:    len(fp.Nodes),
		MaxNodes: fp.MaxNodes(),
		Replicas: fp.Replicas,
		Zipf:     fp.Traffic.Zipf,
		KeyFile:  fp.Traffic.KeyFile,
		Source:   fp.Path,
		Fleet:    fp,
	}
}

// ReadProfile reads the fleet profile at path (fleet.Read: errors name
// the file, line and value; the former "key = value" form is an error
// saying how to convert it) and returns its case.
func ReadProfile(path string) (Profile, error) {
	fp, err := fleet.Read(path)
	if err != nil {
		return Profile{}, err
	}
	return FromFleet(fp), nil
}
