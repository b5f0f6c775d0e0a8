package analysis

import "github.com/chbench/chbench/schema"

// MoveRows returns the results schema rows of rs, in order.
func MoveRows(rs []*MoveResult) []schema.Move {
	out := make([]schema.Move, 0, len(rs))
	for _, r := range rs {
		c := r.Config
		out = append(out, schema.Move{
			Algo: c.Algo, Hash: c.Hash, VNodes: c.VNodes, Op: r.Op, From: r.From, To: r.To,
			Keys: c.Keys, Sets: c.Sets, Seed: c.Seed,
			MovedFrac: r.Moved.Mean, MovedFracLo: r.Moved.Lo, MovedFracHi: r.Moved.Hi,
			IdealFrac: r.Ideal, MovedOverIdeal: r.MovedOverIdeal,
			CollateralFrac: r.Collateral.Mean, CollateralFracLo: r.Collateral.Lo, CollateralFracHi: r.Collateral.Hi,
			NetMovedFrac: r.Net.Mean, NetMovedFracLo: r.Net.Lo, NetMovedFracHi: r.Net.Hi,
			Steps: r.Steps, Placement: c.Placement, Label: r.Label, ExpectedMoves: r.ExpectedMoves, Config: c, Samples: r.Samples,
		})
	}
	return out
}

func exactField(r *SpreadResult, f func(Balance) float64) *float64 {
	if r.Exact == nil {
		return nil
	}
	x := f(*r.Exact)
	return &x
}

// SpreadRows returns the results schema rows of rs, in order; the exact_*
// fields are nil when the placer has no exact shares.
func SpreadRows(rs []*SpreadResult) []schema.Spread {
	out := make([]schema.Spread, 0, len(rs))
	for _, r := range rs {
		c := r.Config
		j := schema.Spread{
			Algo: c.Algo, Hash: c.Hash, VNodes: c.VNodes, Nodes: r.Nodes, Keys: c.Keys, Sets: c.Sets, Seed: c.Seed,
			MinShare: r.MinShare.Mean, MinShareLo: r.MinShare.Lo, MinShareHi: r.MinShare.Hi,
			MaxShare: r.MaxShare.Mean, MaxShareLo: r.MaxShare.Lo, MaxShareHi: r.MaxShare.Hi,
			PeakToMean: r.PeakToMean.Mean, PeakToMeanLo: r.PeakToMean.Lo, PeakToMeanHi: r.PeakToMean.Hi,
			CV: r.CV.Mean, CVLo: r.CV.Lo, CVHi: r.CV.Hi,
			NoisePeakToMean: r.NoisePeakToMean, NoiseCV: r.NoiseCV, NoiseMethod: r.NoiseMethod,
			ExactPeakToMean: exactField(r, func(b Balance) float64 { return b.PeakToMean }),
			ExactCV:         exactField(r, func(b Balance) float64 { return b.CV }),
			ExactMinShare:   exactField(r, func(b Balance) float64 { return b.MinShare }),
			ExactMaxShare:   exactField(r, func(b Balance) float64 { return b.MaxShare }),
			Placement:       c.Placement, Label: r.Label,
			TheoryPeakToMean: r.TheoryPeakToMean, TheoryCV: r.TheoryCV,
			Config: c,
		}
		if l := r.Layouts; l != nil {
			d := l.Draws
			j.Placements = &d
			j.PlacementsPeakToMean, j.PlacementsPeakToMeanP5, j.PlacementsPeakToMeanP95 = ptr(l.PeakToMean.Mean), ptr(l.PeakToMean.P5), ptr(l.PeakToMean.P95)
			j.PlacementsCV, j.PlacementsCVP5, j.PlacementsCVP95 = ptr(l.CV.Mean), ptr(l.CV.P5), ptr(l.CV.P95)
		}
		if b := r.Bound; b != nil {
			j.LoadFactor, j.PartitionLoadOverBound = ptr(b.LoadFactor), ptr(b.PartitionRatio)
			j.KeyLoadOverBound, j.KeyLoadOverBoundLo, j.KeyLoadOverBoundHi = ptr(b.KeyRatio.Mean), ptr(b.KeyRatio.Lo), ptr(b.KeyRatio.Hi)
		}
		for _, s := range r.Shares {
			j.Shares = append(j.Shares, schema.Share{ID: s.ID, Weight: s.Weight, WeightShare: s.WeightShare, Exact: s.Exact,
				Share: s.Share.Mean, ShareLo: s.Share.Lo, ShareHi: s.Share.Hi, Error: s.Share.Mean - s.WeightShare})
		}
		for _, b := range r.Samples {
			j.Samples = append(j.Samples, schema.SpreadSample(b))
		}
		out = append(out, j)
	}
	return out
}

func ptr(x float64) *float64 { return &x }
