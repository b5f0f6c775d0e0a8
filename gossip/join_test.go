package gossip

import (
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"
)

// A join spreading through 32 real memberlist members with the LAN
// settings, 8 times, next to the gossip model with memberlist's fan-out,
// period, retransmit limit and fresh joiner. With push/pull off, a member
// that none of the informed members picks before each has sent its
// retransmit limit of messages is never told: the model leaves about
// 3e-4 of the members unreached (about e^-8 for 8 transmits), 0.08 of the
// ~280 measured, so the measurement may miss a few: as many as a Poisson
// count of the model's mean exceeds with probability below 1e-4 (2 here),
// each counted as unreached, not as a delay. Every other member must
// learn the join within 5 s; the measured mean delay must lie within 4 standard
// errors of the model's (the spread-to-spread variation over 8 joins:
// one slow start delays a whole spread) widened by 10% of it for what the
// model leaves out: probes, which carry gossip too (a probe per second
// beside 3 gossip messages per 200 ms: up to 1/15 more sends, so delays up
// to 7% shorter), and each hop's scheduling delay on a shared machine. The
// check is loose; the numbers it logs are the comparison. Memberlist runs
// on wall-clock timers, so on a machine too loaded to wake this process
// on time (a 10 ms sleep late by more than a tenth of the gossip period
// at the 90th percentile, where a machine with a core to spare shows a
// few ms) the delays measure the scheduler: the measurement is taken once
// more, and if the machine is still starved the test skips saying so
// (fails under CI).
func TestMeasureJoin(t *testing.T) {
	cfg := DefaultConfig()
	var m *Measurement
	for attempt := 1; ; attempt++ {
		lag := startLagProbe()
		var err error
		m, err = Measure(context.Background(), cfg)
		p50, p90 := lag.stop()
		t.Logf("measurement %d: a 10 ms sleep woke late by p50 %.1f ms, p90 %.1f ms", attempt, 1e3*p50, 1e3*p90)
		if limit := cfg.GossipInterval / 10; p90 > limit.Seconds() {
			why := fmt.Sprintf("the machine starved this process (timers late by %.1f ms at p90, more than a tenth of the %v gossip period): the delays measured the scheduler, not gossip", 1e3*p90, cfg.GossipInterval)
			if err != nil {
				why += fmt.Sprintf(" (and the measurement failed: %v)", err)
			}
			if attempt < 2 {
				t.Logf("%s; measuring again", why)
				continue
			}
			if os.Getenv("CI") != "" {
				t.Fatalf("CI: %s", why)
			}
			t.Skip(why)
		}
		if err != nil {
			t.Fatal(err)
		}
		break
	}
	c := Compare(m, 200)
	t.Logf("%d joins into %d..%d members; model %s", len(m.Joins), m.Joins[0].Members, m.Joins[len(m.Joins)-1].Members, c.Model.Spec())
	for _, r := range []struct {
		name string
		s    Summary
	}{{"measured", c.Measured}, {"simulated", c.Simulated}, {"mean-field", c.MeanField}} {
		t.Logf("%-10s delays %5d  mean %5.1f ms  p50 %5.1f  p90 %5.1f  p99 %5.1f  last member %5.1f", r.name, r.s.N,
			1e3*r.s.Mean, 1e3*r.s.P50, 1e3*r.s.P90, 1e3*r.s.P99, 1e3*r.s.Last)
	}
	atRisk := 0
	for _, j := range m.Joins {
		atRisk += j.Members - 1
	}
	mean := c.UnreachedRate * float64(atRisk)
	limit := 0
	for p := (distuv.Poisson{Lambda: mean}); 1-p.CDF(float64(limit)) >= 1e-4; limit++ {
	}
	t.Logf("unreached: %d of %d members, model rate %.2e (mean %.3f, at most %d)", c.Measured.Unreached, atRisk, c.UnreachedRate, mean, limit)
	if c.Measured.Unreached > limit {
		t.Errorf("%d members were not told of a join within %v: more than the %d the model allows (mean %.3f)", c.Measured.Unreached, m.Config.Wait, limit, mean)
	}
	se := c.SpreadSD / math.Sqrt(float64(len(m.Joins)))
	t.Logf("spread sd %.1f ms, se %.1f ms", 1e3*c.SpreadSD, 1e3*se)
	if d, tol := math.Abs(c.Measured.Mean-c.Simulated.Mean), 4*se+0.1*c.Simulated.Mean; d > tol {
		t.Errorf("measured mean delay %.1f ms, model %.1f ms: off by %.1f ms, more than %.1f ms (4 se %.1f + 10%%)",
			1e3*c.Measured.Mean, 1e3*c.Simulated.Mean, 1e3*d, 1e3*tol, 1e3*4*se)
	}
	e, err := m.Empirical()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(e.Delays), c.Measured.N+c.Measured.Unreached+len(m.Joins); got != want {
		t.Errorf("empirical model of %d delays, want %d (every member of every join, unreached ones included)", got, want)
	}
}

// lagProbe measures how late a 10 ms sleep in this process wakes.
type lagProbe struct {
	done chan struct{}
	lags chan []float64
}

func startLagProbe() *lagProbe {
	p := &lagProbe{done: make(chan struct{}), lags: make(chan []float64, 1)}
	go func() {
		var lags []float64
		for {
			select {
			case <-p.done:
				p.lags <- lags
				return
			default:
			}
			t0 := time.Now()
			time.Sleep(10 * time.Millisecond)
			lags = append(lags, (time.Since(t0) - 10*time.Millisecond).Seconds())
		}
	}()
	return p
}

// stop ends the probe and returns the median and 90th percentile of
// the lateness (seconds).
func (p *lagProbe) stop() (p50, p90 float64) {
	close(p.done)
	lags := <-p.lags
	if len(lags) == 0 {
		return 0, 0
	}
	slices.Sort(lags)
	return lags[len(lags)/2], lags[len(lags)*9/10]
}
