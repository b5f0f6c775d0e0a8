package analysis

import (
	"runtime"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/schema"
)

// LiveRun is what a live miss storm counted against real servers
// (live.RunStorm, which this package does not import): the working-set
// keys whose owner changed, the servers' item memory and value size, and
// the reads of the steady window before the change and of each window
// after it.
type LiveRun struct {
	Moved             int
	MemMB, ValueBytes int
	Steady            LiveWindow
	Windows           []LiveWindow
}

// LiveWindow counts the reads of one window of a live storm: reads
// [First, End) numbered from the change (negative before it), of which
// Hits the cache answered and Expired were emulated steady misses. Its
// fields are live.StormWindow's, so one converts to the other.
type LiveWindow struct {
	First, End int
	Reads      int
	Hits       int
	Expired    int
}

// StormLiveRows returns the rows of a live storm of sc (one membership
// change, placed by the algorithm of o) under model m: the steady window
// (window -1), then each window after the change, each beside the model's
// mean hit ratio and database reads over the same window.
func StormLiveRows(o Options, sc Scenario, m StormModel, run LiveRun) []schema.StormLive {
	f := float64(run.Moved) / float64(m.WorkingSet)
	hash := o.Config.Hash
	if h, err := algorithms.LookupHash(hash); err == nil {
		hash = h.Name()
	}
	base := schema.StormLive{
		Op: sc.Op, From: len(sc.Initial), To: len(sc.Initial) + len(sc.Steps[0].Join) - len(sc.Steps[0].Leave),
		Reads: m.Reads, HitRatio: m.HitRatio, WorkingSet: m.WorkingSet, Zipf: m.Zipf, MovedFrac: f,
		LiveMemMB: run.MemMB, ValueBytes: run.ValueBytes, DBSteady: m.SteadyDBReads(),
		Config: schema.Config{Algo: o.Algo, Hash: hash, VNodes: o.Config.VNodes, Keys: m.WorkingSet, Sets: 1, Seed: o.Seed, GoVersion: runtime.Version(), Commit: o.Commit},
	}
	row := func(i int, w LiveWindow, hitSim float64) schema.StormLive {
		r := base
		r.Window = i
		r.TimeS, r.TimeEndS = float64(w.First)/m.Reads, float64(w.End)/m.Reads
		r.WindowReads, r.ExpiredReads = w.Reads, w.Expired
		r.HitLive = float64(w.Hits) / float64(w.Reads)
		r.DBReadsLive = m.Reads * (1 - r.HitLive)
		r.HitSim = hitSim
		r.DBReadsSim = m.Reads * (1 - hitSim)
		return r
	}
	rows := []schema.StormLive{row(-1, run.Steady, m.HitRatio)}
	for i, w := range run.Windows {
		rows = append(rows, row(i, w, m.MeanHitBetween(f, float64(w.First)/m.Reads, float64(w.End)/m.Reads)))
	}
	return rows
}

// SweepStormLive runs a live storm of sc for every configuration of s:
// run measures it on the placements before and after the change (against
// real servers; its errors end the sweep, naming the configuration), and
// its counts become StormLiveRows under m.
func SweepStormLive(o Options, s Sweep, sc Scenario, m StormModel, run func(o Options, before, after algorithms.Locator) (LiveRun, error)) ([]schema.StormLive, error) {
	var rows []schema.StormLive
	err := s.EachConfig(o, func(c Options) error {
		chain, err := Placements(c, sc)
		if err != nil {
			return err
		}
		defer release(chain...)
		lr, err := run(c, chain[0], chain[len(chain)-1])
		if err != nil {
			return err
		}
		rows = append(rows, StormLiveRows(c, sc, m, lr)...)
		return nil
	})
	return rows, err
}
