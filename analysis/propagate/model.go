package propagate

import (
	"container/heap"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/chbench/chbench/algorithms"
	"gonum.org/v1/gonum/stat/distuv"
)

// MaxClients bounds C, the number of clients a model spreads a change to
// (the replay keeps one learn delay per client and change).
const MaxClients = 1 << 20

// A Model is how one membership change reaches C clients: client i keeps
// routing with the view it had until its learn delay L_i (seconds after the
// change, >= 0; +Inf for a client the change never reaches) and with the
// new view from then on. The models are plain data (see [ParseModel] for
// their text form); each draws its delays from the caller's seeded
// generator and states its expected informed fraction F(tau), the share of
// the C clients that know the change tau seconds after it, as a [Curve].
//
// The analytic expectations of the replay assume that a client's delays
// for different changes are independent draws, which every model here
// satisfies (each change is drawn afresh; even the linear rollout visits
// the clients in a new random order for every change).
type Model interface {
	// Spec returns the model in the syntax [ParseModel] reads, e.g.
	// "linear:T=30s" (for [Empirical], which ParseModel cannot read, a
	// summary).
	Spec() string
	// Validate returns an error naming the first bad parameter.
	Validate() error
	// Draw writes into learn[i] the learn delay of client i, for C =
	// len(learn) >= 1 clients, drawing from r. The model must be valid.
	Draw(learn []float64, r *rand.Rand)
	// Curve returns the expected informed fraction F(tau) for C clients.
	// It returns an error for an invalid model or C outside 1..MaxClients.
	Curve(clients int) (Curve, error)
}

// Instant is the all-at-once model: every client switches at the moment of
// the change (L_i = 0), so no request is ever routed by a stale view.
type Instant struct{}

// Spec returns "instant".
func (Instant) Spec() string { return "instant" }

// Validate returns nil: Instant has no parameters.
func (Instant) Validate() error { return nil }

// Draw sets every delay to 0.
func (Instant) Draw(learn []float64, _ *rand.Rand) {
	for i := range learn {
		learn[i] = 0
	}
}

// Curve returns F(tau) = 1 for tau >= 0.
func (Instant) Curve(clients int) (Curve, error) {
	if err := checkClients(clients); err != nil {
		return Curve{}, err
	}
	return stepCurve([]float64{0}), nil
}

// Linear is a rollout over Duration seconds at a constant pace: the C
// clients switch one after another at the delays T(k+1/2)/C, k = 0..C-1,
// in an order drawn afresh for every change. Its stale share falls linearly
// from 1 to 0 over T, and the mean delay is exactly T/2.
type Linear struct {
	Duration float64 // T, seconds, finite and > 0
}

// Spec returns "linear:T=<T>s".
func (m Linear) Spec() string { return "linear:T=" + seconds(m.Duration) }

// Validate checks that T is finite and > 0.
func (m Linear) Validate() error {
	if !(m.Duration > 0) || math.IsInf(m.Duration, 0) {
		return fmt.Errorf("linear rollout: duration T %v s: need a finite number of seconds > 0", m.Duration)
	}
	return nil
}

// Draw assigns the C rollout delays to the clients in a random order.
func (m Linear) Draw(learn []float64, r *rand.Rand) {
	c := float64(len(learn))
	for k := range learn {
		learn[k] = m.Duration * (float64(k) + 0.5) / c
	}
	r.Shuffle(len(learn), func(i, j int) { learn[i], learn[j] = learn[j], learn[i] })
}

// Curve returns the step function F(tau) = #{k : T(k+1/2)/C <= tau} / C.
func (m Linear) Curve(clients int) (Curve, error) {
	if err := m.Validate(); err != nil {
		return Curve{}, err
	}
	if err := checkClients(clients); err != nil {
		return Curve{}, err
	}
	learn := make([]float64, clients)
	for k := range learn {
		learn[k] = m.Duration * (float64(k) + 0.5) / float64(clients)
	}
	return stepCurve(learn), nil
}

// Delay is a continuous distribution of per-client delays in seconds,
// supported on [0, +Inf): [Exponential], [UniformDelay], [LogNormal].
type Delay interface {
	// CDF returns P(L <= x).
	CDF(x float64) float64
	// Quantile returns the smallest x with CDF(x) >= p, for p in [0, 1].
	Quantile(p float64) float64
	// Spec returns the distribution as [ParseModel] reads it after
	// "push:", e.g. "dist=exp,mean=2s".
	Spec() string
	// Validate returns an error naming the first bad parameter.
	Validate() error
}

// Exponential is the exponential delay distribution with the given mean
// (seconds, > 0): a push that reaches each client after a memoryless wait,
// as a poll at a random phase with exponentially distributed gaps does.
type Exponential struct{ Mean float64 }

// CDF returns 1 - exp(-x/Mean) (distuv.Exponential).
func (d Exponential) CDF(x float64) float64 { return distuv.Exponential{Rate: 1 / d.Mean}.CDF(x) }

// Quantile returns -Mean ln(1-p) (distuv.Exponential).
func (d Exponential) Quantile(p float64) float64 {
	return distuv.Exponential{Rate: 1 / d.Mean}.Quantile(p)
}

// Spec returns "dist=exp,mean=<mean>s".
func (d Exponential) Spec() string { return "dist=exp,mean=" + seconds(d.Mean) }

// Validate checks that the mean is finite and > 0.
func (d Exponential) Validate() error {
	if !(d.Mean > 0) || math.IsInf(d.Mean, 0) {
		return fmt.Errorf("exponential delay: mean %v s: need a finite number of seconds > 0", d.Mean)
	}
	return nil
}

// UniformDelay is the uniform delay distribution on [Min, Max] seconds: a
// poll every Max-Min seconds at a random phase, after a fixed Min.
type UniformDelay struct{ Min, Max float64 }

// CDF returns (x-Min)/(Max-Min) clamped to [0, 1] (distuv.Uniform).
func (d UniformDelay) CDF(x float64) float64 { return distuv.Uniform{Min: d.Min, Max: d.Max}.CDF(x) }

// Quantile returns Min + p (Max-Min) (distuv.Uniform).
func (d UniformDelay) Quantile(p float64) float64 {
	return distuv.Uniform{Min: d.Min, Max: d.Max}.Quantile(p)
}

// Spec returns "dist=uniform,min=<min>s,max=<max>s".
func (d UniformDelay) Spec() string {
	return "dist=uniform,min=" + seconds(d.Min) + ",max=" + seconds(d.Max)
}

// Validate checks 0 <= Min < Max < +Inf.
func (d UniformDelay) Validate() error {
	if !(d.Min >= 0) || !(d.Max > d.Min) || math.IsInf(d.Max, 0) {
		return fmt.Errorf("uniform delay: min %v s, max %v s: need 0 <= min < max, finite", d.Min, d.Max)
	}
	return nil
}

// LogNormal is the log-normal delay distribution with the given median
// (seconds, > 0) and shape Sigma (the standard deviation of ln L, > 0): a
// push through a fan-out tree or a queue, whose delays have a long right
// tail.
type LogNormal struct{ Median, Sigma float64 }

func (d LogNormal) dist() distuv.LogNormal {
	return distuv.LogNormal{Mu: math.Log(d.Median), Sigma: d.Sigma}
}

// CDF returns Phi((ln x - ln Median)/Sigma) (distuv.LogNormal).
func (d LogNormal) CDF(x float64) float64 { return d.dist().CDF(x) }

// Quantile returns Median exp(Sigma Phi^-1(p)) (distuv.LogNormal).
func (d LogNormal) Quantile(p float64) float64 { return d.dist().Quantile(p) }

// Spec returns "dist=lognormal,median=<median>s,sigma=<sigma>".
func (d LogNormal) Spec() string {
	return "dist=lognormal,median=" + seconds(d.Median) + ",sigma=" + number(d.Sigma)
}

// Validate checks that the median and sigma are finite and > 0.
func (d LogNormal) Validate() error {
	if !(d.Median > 0) || math.IsInf(d.Median, 0) || !(d.Sigma > 0) || math.IsInf(d.Sigma, 0) {
		return fmt.Errorf("log-normal delay: median %v s, sigma %v: need finite numbers > 0", d.Median, d.Sigma)
	}
	return nil
}

// Push is a change pushed to every client, each receiving it after its
// own independent delay drawn from Delay (a configuration push, a poll at
// a random phase). F(tau) is Delay's CDF.
type Push struct {
	Delay Delay
}

// Spec returns "push:" and the delay's spec.
func (m Push) Spec() string {
	if m.Delay == nil {
		return "push"
	}
	return "push:" + m.Delay.Spec()
}

// Validate checks the delay distribution.
func (m Push) Validate() error {
	if m.Delay == nil {
		return errors.New("push: no delay distribution (dist=exp, uniform or lognormal)")
	}
	return m.Delay.Validate()
}

// Draw sets learn[i] = Delay.Quantile(u_i), u_i uniform in [0, 1) from r
// (inversion, so the draws depend only on r, not on a distribution's own
// source).
func (m Push) Draw(learn []float64, r *rand.Rand) {
	for i := range learn {
		learn[i] = m.Delay.Quantile(r.Float64())
	}
}

// Curve returns Delay's CDF, smooth between the ends of its support.
func (m Push) Curve(clients int) (Curve, error) {
	if err := m.Validate(); err != nil {
		return Curve{}, err
	}
	if err := checkClients(clients); err != nil {
		return Curve{}, err
	}
	var breaks []float64
	for _, p := range []float64{0, 1} {
		if q := m.Delay.Quantile(p); q > 0 && !math.IsInf(q, 0) {
			breaks = append(breaks, q)
		}
	}
	return Curve{cdf: m.Delay.CDF, breaks: breaks}, nil
}

// Gossip is push gossip among the C clients as SWIM-style membership
// protocols run it (Das, Gupta, Motivala, DSN 2002; hashicorp/memberlist's
// gossip loop, state.go gossip): each member gossips every Period seconds
// at its own phase, drawn uniformly in [0, Period); Seeds members (drawn
// at random) know the change at delay 0 (for a join through memberlist: the
// new member and the member it contacted), Fresh of them with a gossip
// ticker that starts at the change, so that their first tick comes one
// period later (a new member's, which starts gossiping when it starts, just
// before it joins); a member that knows the change
// sends it, at each of its gossip ticks after it learned it, to Fanout
// members drawn without replacement from the C-1 others, until it has sent
// Transmits messages (0: no limit; memberlist's limit is RetransmitMult *
// ceil(log10(C+1)) sends); a message arrives Latency seconds after it is
// sent. A member learns at the first arrival.
//
// Draw simulates that process event by event. [Gossip.Curve] pools the
// delays of GossipCurveDraws(C) simulated spreads (a fixed seed, so the
// curve is the same everywhere); [Gossip.MeanField] is the classic
// logistic approximation beside it.
type Gossip struct {
	Fanout    int     // k: members each gossip tick sends to, >= 1
	Period    float64 // p: seconds between a member's gossip ticks, finite and > 0
	Seeds     int     // members that know the change at delay 0, >= 1 (capped at C)
	Fresh     int     // of the seeds, those whose first tick is one period after the change, 0..Seeds
	Transmits int     // sends per member before it stops, >= 0 (0 = unlimited)
	Latency   float64 // seconds from a send to its arrival, finite and >= 0
}

// Spec returns "gossip:k=<k>,p=<p>s" followed by the seeds, transmits and
// latency when they differ from 1, 0 and 0.
func (m Gossip) Spec() string {
	s := fmt.Sprintf("gossip:k=%d,p=%s", m.Fanout, seconds(m.Period))
	if m.Seeds != 1 {
		s += fmt.Sprintf(",seeds=%d", m.Seeds)
	}
	if m.Fresh != 0 {
		s += fmt.Sprintf(",fresh=%d", m.Fresh)
	}
	if m.Transmits != 0 {
		s += fmt.Sprintf(",transmits=%d", m.Transmits)
	}
	if m.Latency != 0 {
		s += ",latency=" + seconds(m.Latency)
	}
	return s
}

// Validate checks every parameter.
func (m Gossip) Validate() error {
	switch {
	case m.Fanout < 1:
		return fmt.Errorf("gossip: fan-out k %d: need at least 1 member per tick", m.Fanout)
	case !(m.Period > 0) || math.IsInf(m.Period, 0):
		return fmt.Errorf("gossip: period p %v s: need a finite number of seconds > 0", m.Period)
	case m.Seeds < 1:
		return fmt.Errorf("gossip: seeds %d: need at least 1 member that knows the change at the start", m.Seeds)
	case m.Fresh < 0 || m.Fresh > m.Seeds:
		return fmt.Errorf("gossip: fresh %d: need 0 to seeds (%d)", m.Fresh, m.Seeds)
	case m.Transmits < 0:
		return fmt.Errorf("gossip: transmits %d: need >= 0 (0 = unlimited)", m.Transmits)
	case !(m.Latency >= 0) || math.IsInf(m.Latency, 0):
		return fmt.Errorf("gossip: latency %v s: need a finite number of seconds >= 0", m.Latency)
	}
	return nil
}

// gossipEvent is a tick of a member that knows the change (send) or the
// arrival of a message at a member (send false).
type gossipEvent struct {
	at     float64
	member int
	send   bool
}

type gossipQueue []gossipEvent

func (q gossipQueue) Len() int { return len(q) }
func (q gossipQueue) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	if q[i].send != q[j].send {
		return !q[i].send // an arrival before a tick at the same instant
	}
	return q[i].member < q[j].member
}
func (q gossipQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *gossipQueue) Push(x any)   { *q = append(*q, x.(gossipEvent)) }
func (q *gossipQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

// Draw simulates one spread. Member i's gossip phase and targets come from
// its own generator, seeded from r, so the delays do not depend on the
// order in which events are processed. Members the change never reaches
// (possible only with a Transmits limit) get +Inf.
func (m Gossip) Draw(learn []float64, r *rand.Rand) {
	c := len(learn)
	base := r.Uint64()
	phase := make([]float64, c)
	for i := range phase {
		phase[i] = m.Period * r.Float64()
		learn[i] = math.Inf(1)
	}
	// The seeds: a partial Fisher-Yates shuffle of the member numbers.
	order := make([]int, c)
	for i := range order {
		order[i] = i
	}
	seeds := min(m.Seeds, c)
	q := make(gossipQueue, 0, 4*c)
	for k := range seeds {
		j := k + r.IntN(c-k)
		order[k], order[j] = order[j], order[k]
		q = append(q, gossipEvent{at: 0, member: order[k]})
		if k < m.Fresh {
			phase[order[k]] = 0 // first tick strictly after 0: at Period
		}
	}
	heap.Init(&q)
	rngs := make([]*rand.Rand, c)
	sent := make([]int, c)
	informed := 0
	// A tick sends to at most the C-1 others, whatever the fan-out.
	targets := make([]int, 0, min(m.Fanout, c-1))
	var pick picker
	for q.Len() > 0 && informed < c {
		e := heap.Pop(&q).(gossipEvent)
		i := e.member
		if !e.send {
			if !math.IsInf(learn[i], 1) {
				continue
			}
			learn[i] = e.at
			informed++
			if c > 1 {
				// The first tick strictly after learning.
				n := math.Floor((e.at-phase[i])/m.Period) + 1
				heap.Push(&q, gossipEvent{at: phase[i] + max(n, 0)*m.Period, member: i, send: true})
			}
			continue
		}
		if rngs[i] == nil {
			rngs[i] = rand.New(rand.NewPCG(base, algorithms.Mix64(uint64(i))))
		}
		k := min(m.Fanout, c-1)
		if m.Transmits > 0 {
			k = min(k, m.Transmits-sent[i])
		}
		targets = pick.others(targets[:0], k, i, c, rngs[i])
		for _, t := range targets {
			if math.IsInf(learn[t], 1) {
				heap.Push(&q, gossipEvent{at: e.at + m.Latency, member: t})
			}
		}
		sent[i] += k
		if m.Transmits == 0 || sent[i] < m.Transmits {
			heap.Push(&q, gossipEvent{at: e.at + m.Period, member: i, send: true})
		}
	}
}

// smallFanout is the largest k that picker.others draws by rejecting
// repeats (k random numbers and a scan of the ones drawn: O(k^2), the
// fastest for small k); a larger k is a partial Fisher-Yates shuffle,
// O(k) whatever k and c.
const smallFanout = 16

// picker draws a member's gossip targets; its permutation of the members
// (other than the sender) is kept between draws, restored after each.
type picker struct {
	perm  []int32 // 0..c-2, the identity between draws
	swaps []int32 // the swaps of the current draw, undone in reverse
}

// others appends k distinct members of 0..c-1 other than self, drawn
// uniformly (k <= c-1).
func (p *picker) others(dst []int, k, self, c int, r *rand.Rand) []int {
	if k <= smallFanout {
		for len(dst) < k {
			t := r.IntN(c - 1)
			if t >= self {
				t++
			}
			if !slices.Contains(dst, t) {
				dst = append(dst, t)
			}
		}
		return dst
	}
	if len(p.perm) != c-1 {
		p.perm = make([]int32, c-1)
		for i := range p.perm {
			p.perm[i] = int32(i)
		}
	}
	p.swaps = p.swaps[:0]
	for j := range k {
		x := j + r.IntN(c-1-j)
		p.perm[j], p.perm[x] = p.perm[x], p.perm[j]
		p.swaps = append(p.swaps, int32(x))
		t := int(p.perm[j])
		if t >= self {
			t++
		}
		dst = append(dst, t)
	}
	for j := len(p.swaps) - 1; j >= 0; j-- {
		x := p.swaps[j]
		p.perm[j], p.perm[x] = p.perm[x], p.perm[j]
	}
	return dst
}

// CurveBytes returns about what [Gossip.Curve] holds for C clients: the
// pooled delays (8 B each of GossipCurveDraws(C) x C) and one simulated
// spread's state (a phase, an order, a sent count, a generator of about
// 48 B, four queued events of 24 B and two permutation entries per
// member).
func (m Gossip) CurveBytes(clients int) int64 {
	c := int64(max(clients, 0))
	return int64(GossipCurveDraws(clients))*c*8 + c*(8+8+8+8+48+4*24+2*4)
}

// GossipCurveDraws returns the number of simulated spreads [Gossip.Curve]
// pools for C clients: max(64, ceil(2^16/C)), so the curve rests on at
// least 65,536 delays and 64 independent spreads (a spread's delays are
// correlated: one slow start delays everybody).
func GossipCurveDraws(clients int) int { return max(64, (1<<16+clients-1)/clients) }

// gossipCurveSeed seeds the spreads behind every gossip curve.
const gossipCurveSeed = 0x676f73736970 // "gossip"

// Curve returns the pooled empirical distribution of the delays of
// GossipCurveDraws(C) spreads simulated from a fixed seed: the expected
// informed fraction up to Monte Carlo error (its standard error at any
// tau is below 0.5/sqrt(GossipCurveDraws(C)), at most 0.0625).
func (m Gossip) Curve(clients int) (Curve, error) {
	if err := m.Validate(); err != nil {
		return Curve{}, err
	}
	if err := checkClients(clients); err != nil {
		return Curve{}, err
	}
	draws := GossipCurveDraws(clients)
	all := make([]float64, draws*clients)
	r := rand.New(rand.NewPCG(algorithms.Mix64(gossipCurveSeed), algorithms.Mix64(uint64(clients))))
	for d := range draws {
		m.Draw(all[d*clients:(d+1)*clients], r)
	}
	return stepCurve(all), nil
}

// MeanField returns the mean-field (logistic) approximation of the
// informed fraction: with each informed member sending k messages per
// period p at rate k/p, and a message reaching an uninformed member with
// probability (C-I)/(C-1), the informed count I follows
//
//	dI/dt = (k/p) I (C-I)/(C-1),  I(0) = s,
//
// whose solution is I(t) = C / (1 + (C/s - 1) exp(-b t)), b = k C / (p (C-1)).
// It returns I(tau)/C; it ignores the wait for the next tick, the transmit
// limit and the latency, which the simulated [Gossip.Curve] includes.
func (m Gossip) MeanField(clients int, tau float64) float64 {
	c := float64(clients)
	s := math.Min(float64(m.Seeds), c)
	if tau < 0 {
		return 0
	}
	if clients <= 1 || s >= c {
		return 1
	}
	b := float64(m.Fanout) * c / (m.Period * (c - 1))
	return 1 / (1 + (c/s-1)*math.Exp(-b*tau))
}

// Empirical replays measured delays: each client's delay is one of Delays
// drawn uniformly with replacement (a bootstrap), so F(tau) is their
// empirical distribution. It turns a measurement (a real gossip spread, a
// deploy log) into a model.
type Empirical struct {
	Delays []float64 // seconds, each >= 0 (+Inf: a client that never learned); at least one
}

// Spec returns a summary "empirical:n=<n>,median=<m>s": the delays
// themselves are data, not a spec, and ParseModel does not read it.
func (m Empirical) Spec() string {
	if len(m.Delays) == 0 {
		return "empirical:n=0"
	}
	s := slices.Clone(m.Delays)
	slices.Sort(s)
	return fmt.Sprintf("empirical:n=%d,median=%s", len(s), seconds(s[(len(s)-1)/2]))
}

// Validate checks that there is at least one delay and each is >= 0 and
// not NaN.
func (m Empirical) Validate() error {
	if len(m.Delays) == 0 {
		return errors.New("empirical: no delays")
	}
	for i, d := range m.Delays {
		if !(d >= 0) {
			return fmt.Errorf("empirical: delay %d is %v s: need >= 0", i, d)
		}
	}
	return nil
}

// Draw gives each client one of the delays, drawn uniformly.
func (m Empirical) Draw(learn []float64, r *rand.Rand) {
	for i := range learn {
		learn[i] = m.Delays[r.IntN(len(m.Delays))]
	}
}

// Curve returns the empirical distribution of the delays.
func (m Empirical) Curve(clients int) (Curve, error) {
	if err := m.Validate(); err != nil {
		return Curve{}, err
	}
	if err := checkClients(clients); err != nil {
		return Curve{}, err
	}
	return stepCurve(slices.Clone(m.Delays)), nil
}

func checkClients(c int) error {
	if c < 1 || c > MaxClients {
		return fmt.Errorf("clients %d: need 1 to %d clients", c, MaxClients)
	}
	return nil
}

// Curve is the expected informed fraction F(tau) of a model: either a step
// function, the share of a pooled set of delays that are <= tau, or a
// smooth distribution function, continuous except at its breaks.
type Curve struct {
	steps  []float64 // sorted delays (a step function), or nil
	cdf    func(float64) float64
	breaks []float64 // points where a smooth cdf has a kink (support ends)
}

// stepCurve returns the step function of the delays (sorted in place).
func stepCurve(delays []float64) Curve {
	slices.Sort(delays)
	return Curve{steps: delays}
}

// Informed returns F(tau), the expected fraction (0..1) of clients that
// know the change tau seconds after it; 0 for tau < 0.
func (c Curve) Informed(tau float64) float64 {
	if tau < 0 {
		return 0
	}
	if c.steps == nil {
		return c.cdf(tau)
	}
	// The number of delays <= tau.
	n := sort.Search(len(c.steps), func(i int) bool { return c.steps[i] > tau })
	return float64(n) / float64(len(c.steps))
}

// Step reports whether F is a step function (constant between its breaks).
func (c Curve) Step() bool { return c.steps != nil }

// Breaks returns the delays at which F jumps (a step function) or has a
// kink (a smooth one), in increasing order, +Inf excluded. Callers must not
// modify it.
func (c Curve) Breaks() []float64 {
	if c.steps == nil {
		return c.breaks
	}
	n := sort.SearchFloat64s(c.steps, math.Inf(1))
	return c.steps[:n]
}

// MeanDelay returns the integral of 1 - F over [0, +Inf): the mean learn
// delay in seconds, which times the request rate is the expected number
// of requests a change's propagation routes by a stale view (+Inf when
// some clients never learn). For a smooth curve it integrates 1 - F up to
// the quantile at 1 - 1e-12 (the rest is below 1e-12 of a second for the
// delays here).
func (c Curve) MeanDelay() float64 {
	if c.steps != nil {
		var sum float64
		for _, d := range c.steps {
			sum += d
		}
		return sum / float64(len(c.steps))
	}
	hi := 0.0
	for _, b := range c.breaks {
		hi = max(hi, b)
	}
	// Grow hi until 1 - F(hi) is negligible.
	if hi == 0 {
		hi = 1
		for 1-c.cdf(hi) > 1e-12 && hi < 1e12 {
			hi *= 2
		}
	}
	return integrateStale(c, 0, hi)
}

// Quantile returns the smallest delay d with F(d) >= p (p in (0, 1]); +Inf
// when F never reaches p. For a smooth curve it bisects F.
func (c Curve) Quantile(p float64) float64 {
	if c.steps != nil {
		k := int(math.Ceil(p*float64(len(c.steps)))) - 1
		return c.steps[min(max(k, 0), len(c.steps)-1)]
	}
	lo, hi := 0.0, 1.0
	for c.cdf(hi) < p {
		if hi *= 2; hi > 1e12 {
			return math.Inf(1)
		}
	}
	for range 200 {
		mid := (lo + hi) / 2
		if c.cdf(mid) >= p {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}
