package analysis

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/bounded"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/ring"
	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/memory"
	"github.com/chbench/chbench/schema"
)

// LoadOptions configures a request-load analysis. The embedded Options
// give the algorithm settings (Config), the seed of the request draws and
// the commit; their Keys is the *keyset.Generator or *keyset.File whose
// key sets are the request streams (Sets of them; each set's keys are the
// keys the popularity law spans, rank i = key i), or nil with a request
// log.
// Options' other fields are not used.
type LoadOptions struct {
	Options
	// Requests is the number of requests R per stream (>= 1), drawn from
	// the Zipf law; ignored with RequestLog.
	Requests int
	// Zipfs are the popularity exponents s >= 0 to run (0 = uniform); the
	// same keys and placements serve every exponent. Ignored with
	// RequestLog.
	Zipfs []float64
	// RequestLog, if not nil, is a file of one request per line (the line
	// is the key, blank lines skipped, as a key file); line i goes to
	// stream i mod its Sets(). It replaces the generated keys and the Zipf
	// draws.
	RequestLog *keyset.File
	// RequestTrace, if not nil, is a trace whose requests are the
	// streams: request i (a record standing for Count requests counts
	// Count times) goes to stream i mod RequestTrace.Sets. It replaces the
	// generated keys, the Zipf draws and RequestLog. When the trace carries
	// sizes, every request also weighs its object's bytes (see
	// [RequestTrace]) and the rows report the load by bytes.
	RequestTrace *RequestTrace
	// InFlight is K, the requests in flight of the request form's service
	// model ([bounded.RequestBalancer]); 0 means
	// bounded.DefaultInFlightPerNode per node.
	InFlight int
}

// placementLabel returns the name a load result carries for algorithm or
// variant name: the catalog's partition form of bounded loads (the one
// algorithm that reads eps and partitions) is labelled bounded-partition.
func placementLabel(name string) string {
	if in, err := catalog.Describe(name); err == nil && in.UsesEps && in.UsesPartitions {
		return schema.VariantPartition
	}
	return name
}

// requestStream is one stream: its distinct keys (rank order for a Zipf
// law, first appearance for a log), the key index of every request, the
// hottest key and its share of the requests.
type requestStream struct {
	keys     []string
	reqs     []int32
	hot      int
	hotShare float64
	sizes    []int64 // bytes of each key's object (a trace with sizes), else nil
}

// streamKeys returns the keys of set s of g, in generation order.
func streamKeys(g *keyset.Generator, s int) []string {
	return g.SetKeys(make([]string, 0, g.Keys()), s)
}

// zipfRequests draws r ranks of z with the generator of stream s.
func zipfRequests(z *Zipf, r int, seed uint64, s int) []int32 {
	rnd := RequestRand(seed, s)
	reqs := make([]int32, r)
	for i := range reqs {
		reqs[i] = int32(z.Sample(rnd))
	}
	return reqs
}

// requestLogNeed returns what reading the request log f holds: every
// request (its key rank), and every distinct key with its index entry: at
// most the file's bytes plus requestLogBytes per line, and what for the
// budget's message.
func requestLogNeed(f *keyset.File) (need int64, what string) {
	return f.Bytes() + int64(f.Keys())*requestLogBytes,
		fmt.Sprintf("request log %q: %d requests (%s of text, plus %d B each)", f.Path(), f.Keys(), memory.Human(f.Bytes()), requestLogBytes)
}

// readRequestLog splits the lines of f into its sets' streams (line i to
// stream i mod sets) and indexes each stream's distinct keys in order of
// first appearance. Memory is one int32 per request plus the distinct
// keys, reserved from mem (held for the run); it returns the budget's
// error, a read error of f, and an error when a stream would hold more
// than 2^31-1 distinct keys.
func readRequestLog(f *keyset.File, mem *memory.Budget) ([]requestStream, error) {
	sets, path := f.Sets(), f.Path()
	if need, what := requestLogNeed(f); true {
		if err := mem.Reserve(what, need); err != nil {
			return nil, err
		}
	}
	streams := make([]requestStream, sets)
	index := make([]map[string]int32, sets)
	for s := range index {
		index[s] = map[string]int32{}
	}
	i := 0
	err := f.Scan(func(key string) error {
		s := i % sets
		i++
		st := &streams[s]
		k, ok := index[s][key]
		if !ok {
			if len(st.keys) == math.MaxInt32 {
				return fmt.Errorf("request log %q: more than %d distinct keys in one stream", path, math.MaxInt32)
			}
			k = int32(len(st.keys))
			key = string([]byte(key)) // Scan's key is only valid during the call
			st.keys = append(st.keys, key)
			index[s][key] = k
		}
		st.reqs = append(st.reqs, k)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for s := range streams {
		hottest(&streams[s])
	}
	return streams, nil
}

// loadPlacement is one placement prepared for a stream: the owner and the
// first choice of every key (nil First: the owner is the only choice), or
// for bounded-request a balancer replaying the requests in order.
type loadPlacement struct {
	label     string
	nodes     []algorithms.Node // in the placer's index order
	owner     []int32
	first     []int32
	maxRatio  *float64
	balancer  func() (*bounded.RequestBalancer, error)
	keyPoints []int32 // bounded-request: every key's first ring point (ring.Search of its hash)
}

// preparePlacement builds placement name on nodes for the keys of one
// stream (catalog placements come prebuilt in locs).
func preparePlacement(name string, nodes []algorithms.Node, o LoadOptions, keys []string, locs map[string]algorithms.Locator) (*loadPlacement, error) {
	lp := &loadPlacement{label: placementLabel(name)}
	switch name {
	case schema.VariantKey, schema.VariantRequest:
		r, err := ring.New(nodes, o.Config.VNodes, algorithms.MustHash(o.Config.Hash))
		if err != nil {
			return nil, err
		}
		lp.nodes = r.Nodes()
		hashes := make([]uint64, len(keys))
		for k, key := range keys {
			hashes[k] = r.HashKey(key)
		}
		if name == schema.VariantKey {
			kp, err := bounded.PlaceKeys(r, hashes, o.Config.Eps)
			if err != nil {
				return nil, err
			}
			lp.owner, lp.first = kp.Owner, kp.First
			m := kp.MaxLoadOverCap()
			lp.maxRatio = &m
			return lp, nil
		}
		k := o.inFlightFor(len(nodes))
		lp.keyPoints = make([]int32, len(hashes))
		for i, x := range hashes {
			lp.keyPoints[i] = int32(r.Search(x))
		}
		lp.balancer = func() (*bounded.RequestBalancer, error) { return bounded.NewRequestBalancer(r, o.Config.Eps, k) }
		return lp, nil
	}
	l := locs[name]
	lp.nodes = l.Nodes()
	owners := make([]int, len(keys))
	if err := l.LocateKeys(keys, owners); err != nil {
		return nil, err
	}
	lp.owner = make([]int32, len(keys))
	for k, o := range owners {
		lp.owner[k] = int32(o)
	}
	// The partition form's first choice and bound are its internals: the
	// partition of a key's hash and the ring under the partitions.
	if p, ok := algorithms.PlacerOf(l); ok {
		if b, ok := p.(*bounded.Bounded); ok {
			r := b.Ring()
			firstOf := make([]int32, b.Partitions())
			for q := range firstOf {
				firstOf[q] = int32(r.At(r.Search(b.PartitionPos(q))).Owner)
			}
			lp.first = make([]int32, len(keys))
			for k, key := range keys {
				lp.first[k] = firstOf[b.Partition(p.HashKey(key))]
			}
			m := 0.0
			for i := range lp.nodes {
				m = max(m, float64(b.Load(i))/float64(b.Cap(i)))
			}
			lp.maxRatio = &m
		}
	}
	return lp, nil
}

// measure serves the requests of st with lp and returns the sample.
func (lp *loadPlacement) measure(st *requestStream) (schema.LoadSample, *float64, error) {
	n := len(lp.nodes)
	counts := make([]int64, n)
	hotCounts := make([]int64, n)
	var bytes []float64 // object bytes served per node, for a trace with sizes
	if st.sizes != nil {
		bytes = make([]float64, n)
	}
	away := 0
	var maxRatio *float64
	if lp.balancer != nil {
		b, err := lp.balancer()
		if err != nil {
			return schema.LoadSample{}, nil, err
		}
		for _, k := range st.reqs {
			o, f := b.ServeFrom(int(lp.keyPoints[k]))
			counts[o]++
			if bytes != nil {
				bytes[o] += float64(st.sizes[k])
			}
			if o != f {
				away++
			}
			if int(k) == st.hot {
				hotCounts[o]++
			}
		}
		m := b.MaxLoadOverCap()
		maxRatio = &m
	} else {
		for _, k := range st.reqs {
			o := lp.owner[k]
			counts[o]++
			if bytes != nil {
				bytes[o] += float64(st.sizes[k])
			}
			if lp.first != nil && lp.first[k] != o {
				away++
			}
		}
		hotCounts[lp.owner[st.hot]] = 1
		maxRatio = lp.maxRatio
	}
	total := float64(len(st.reqs))
	shares := make([]float64, n)
	for i, c := range counts {
		shares[i] = float64(c) / total
	}
	bal, err := BalanceOf(shares, lp.nodes)
	if err != nil {
		return schema.LoadSample{}, nil, err
	}
	hot := argmax(hotCounts)
	smp := schema.LoadSample{
		PeakToMean: bal.PeakToMean, CV: bal.CV, MaxShare: bal.MaxShare, HotShare: st.hotShare,
		Away: float64(away) / total, HotNode: lp.nodes[hot].ID, HotBusiest: hot == argmax(counts),
	}
	if bytes != nil {
		if err := lp.byteLoad(bytes, &smp); err != nil {
			return schema.LoadSample{}, nil, err
		}
	}
	return smp, maxRatio, nil
}

// byteLoad sets smp's load by bytes from bytes, the object bytes of the
// requests each node served (nothing when they sum to 0).
func (lp *loadPlacement) byteLoad(bytes []float64, smp *schema.LoadSample) error {
	total := 0.0
	for _, b := range bytes {
		total += b
	}
	if total <= 0 {
		return nil
	}
	shares := make([]float64, len(bytes))
	for i, b := range bytes {
		shares[i] = b / total
	}
	bal, err := BalanceOf(shares, lp.nodes)
	if err != nil {
		return err
	}
	smp.BytesPeakToMean, smp.BytesMaxShare = &bal.PeakToMean, &bal.MaxShare
	return nil
}

// argmax returns the first index of the largest value.
func argmax(xs []int64) int {
	best := 0
	for i, x := range xs {
		if x > xs[best] {
			best = i
		}
	}
	return best
}

// Bytes a load run holds per request and per key of a stream (see
// streamNeed and readRequestLog): the request's key rank (4 B), its hash
// and owner while it is placed; the key string, hash, ring point, owners
// and the Zipf law's CDF entry and guide (zipfLawBytes, once per
// exponent). A bounded-loads sweep holds per request its key rank and the
// serving node's ID (a string header) of up to three replays at once.
const (
	requestBytes        = 4 + 8 + 4 + 8
	zipfKeyBytes        = 16 + 24 + 8 + 4 + 4 + 4 + 24
	zipfLawBytes        = 8 + 4
	boundedRequestBytes = 4 + 3*16
	queueEntryBytes     = 4 // an in-flight request of a RequestBalancer
)

// streamNeed returns what the request streams of a run of o hold at once,
// perRequest bytes per request (requestBytes for Load,
// boundedRequestBytes for the bounded-loads sweep), and what for the
// budget's message: one stream's requests and keys, every exponent's Zipf
// law, and a request balancer's in-flight queue (at most min(K, R)
// entries, K = inFlight).
func (o LoadOptions) streamNeed(perRequest int64, inFlight int) (int64, string) {
	keys := int64(keysPerStream(o.Keys))
	laws := int64(len(o.Zipfs))
	queue := min(int64(inFlight), int64(o.Requests))
	need := memory.Mul(int64(o.Requests), perRequest)
	for _, x := range []int64{memory.Mul(keys, zipfKeyBytes), memory.Mul(keys, memory.Mul(laws, zipfLawBytes)), queue * queueEntryBytes} {
		if need < 0 || x < 0 || need > 1<<62-x {
			need = -1
			break
		}
		need += x
	}
	return need, fmt.Sprintf("%d requests x %d B, %d keys x %d B, %d Zipf laws x %d keys x %d B and an in-flight queue of %d requests x %d B",
		o.Requests, perRequest, keys, zipfKeyBytes, laws, keys, zipfLawBytes, queue, queueEntryBytes)
}

// keysPerStream returns the keys one request stream's Zipf law spans:
// every generated key of a set, or a key file's keys dealt into the sets
// (rounded up); 0 for another source, which validate refuses.
func keysPerStream(src keyset.Source) int {
	switch src := src.(type) {
	case *keyset.Generator:
		return src.Keys()
	case *keyset.File:
		return (src.Keys() + src.Sets() - 1) / src.Sets()
	}
	return 0
}

// requestLogBytes is what a request log line costs beyond its text: its
// key rank, and for a distinct key the string header and map entry.
const requestLogBytes = 4 + 16 + 48

// inFlightFor returns K for n nodes: o.InFlight, or
// bounded.DefaultInFlightPerNode per node.
func (o LoadOptions) inFlightFor(n int) int {
	if o.InFlight > 0 {
		return o.InFlight
	}
	return bounded.DefaultInFlightPerNode * n
}

// validate checks o and returns its run configuration: the streams' keys
// (for a request log, its lines) and sets.
func (o LoadOptions) validate() (schema.Config, error) {
	if err := o.Config.Validate(); err != nil {
		return schema.Config{}, err
	}
	if o.InFlight < 0 {
		return schema.Config{}, fmt.Errorf("in-flight requests %d: need >= 1, or 0 for %d per node", o.InFlight, bounded.DefaultInFlightPerNode)
	}
	h, _ := algorithms.LookupHash(o.Config.Hash)
	rc := schema.Config{Hash: h.Name(), VNodes: o.Config.VNodes, Eps: o.Config.Eps, Partitions: o.Config.Partitions,
		TableSize: o.Config.TableSize, Probes: o.Config.Probes, Capacity: o.Config.Capacity,
		Seed: o.Seed, GoVersion: runtime.Version(), Commit: o.Commit}
	if t := o.RequestTrace; t != nil { // Keys: the requests, once read
		rc.Sets, rc.KeyFile = t.Sets, t.Path
		return rc, nil
	}
	if f := o.RequestLog; f != nil {
		rc.Keys, rc.Sets, rc.KeyFile = f.Keys(), f.Sets(), f.Path()
		return rc, nil
	}
	// The keys each stream's law spans: a generated set's, or a key
	// file's set (its lines i with i mod sets = s, at most one more than
	// another set's).
	perStream := 0
	switch src := o.Keys.(type) {
	case *keyset.Generator:
		rc.Keys, rc.Sets = src.Keys(), src.Sets()
		if src.Kind() != keyset.KindRandom {
			rc.KeyKind = string(src.Kind())
		}
		perStream = keysPerStream(src)
	case *keyset.File:
		rc.Keys, rc.Sets, rc.KeyFile = src.Keys(), src.Sets(), src.Path()
		perStream = keysPerStream(src)
		if need := src.Bytes() + int64(src.Keys())*zipfKeyBytes; need > o.Config.Budget()/2 {
			return schema.Config{}, fmt.Errorf("key file %q: %d keys (%s) held for the request streams need about %s, over half the memory budget of %s",
				src.Path(), src.Keys(), catalog.HumanBytes(src.Bytes()), catalog.HumanBytes(need), catalog.HumanBytes(o.Config.Budget()))
		}
	default:
		return schema.Config{}, fmt.Errorf("key source %T: the request streams need generated keys, a key file or a request log", o.Keys)
	}
	if o.Requests < 1 {
		return schema.Config{}, fmt.Errorf("requests %d: need at least 1 request per stream", o.Requests)
	}
	if o.Requests > math.MaxInt32 {
		return schema.Config{}, fmt.Errorf("requests %d: at most %d per stream", o.Requests, math.MaxInt32)
	}
	if perStream > MaxZipfKeys {
		return schema.Config{}, fmt.Errorf("keys %d per stream: the Zipf law needs 1 to %d keys", perStream, MaxZipfKeys)
	}
	if len(o.Zipfs) == 0 {
		return schema.Config{}, fmt.Errorf("no Zipf exponent given")
	}
	for _, s := range o.Zipfs {
		if math.IsNaN(s) || math.IsInf(s, 0) || s < 0 {
			return schema.Config{}, fmt.Errorf("zipf exponent %v: must be a finite number >= 0 (0 = uniform)", s)
		}
	}
	return rc, nil
}

// Load measures the request load of every placement in names (catalog
// algorithms and dialects, [schema.VariantKey], [schema.VariantRequest]) on nodes, for
// every Zipf exponent of o (or the request log), over o's independent
// streams, and returns one row of request-load results ([schema.Load]) per
// exponent and placement, exponents outermost.
//
// Stream s uses key set s of the generator, or of a key file (its lines
// i with i mod sets = s, in file order; rank i is the set's key i, so
// ranks are unrelated to hashes), and R requests drawn from the exact
// Zipf law over that set's keys with
// [RequestRand](seed, s); every placement serves the same requests. A
// row's algo is the catalog name, except that the partition form of
// bounded loads is [schema.VariantPartition]. PeakToMean, CV and MaxShare
// are the per-stream request-load statistics ([Balance] of the per-node
// request counts) as means with 95% intervals; Floor is the hot-key floor
// ([HotKeyFloor]) of the mean hottest-key share; HotKeyNode is the node
// that served most of the hottest key's requests in stream 0 and
// HotIsBusiest the fraction of streams in which that node was the busiest.
// AwayFrac is the fraction of requests served away from their
// first-choice node (0 for placements without a bound, which have only one
// choice); MaxLoadOverCap (bounded forms only) the largest load / capacity
// seen, which must be <= 1: partitions for bounded-partition, keys for
// bounded-key, in-flight requests for bounded-request. Zipf is nil with a
// request log. It returns an error naming a bad value, an unknown name or
// a membership an algorithm rejects.
func Load(o LoadOptions, names []string, nodes []algorithms.Node) ([]schema.Load, error) {
	rc, err := o.validate()
	if err != nil {
		return nil, err
	}
	need, what, err := loadNeed(o, names, nodes)
	if err != nil {
		return nil, err
	}
	mem := o.memory()
	if err := mem.Reserve(what, need); err != nil {
		return nil, err
	}
	defer mem.Release(need)
	locs, err := loadLocators(o, names, nodes)
	if err != nil {
		return nil, err
	}
	defer releaseAll(locs, names)
	st, err := newStreams(o)
	if err != nil {
		return nil, err
	}
	if o.RequestTrace != nil {
		rc.Keys = int(min(st.requests, math.MaxInt))
	}
	samples := make([][][]schema.LoadSample, len(st.exps)) // [exp][name][stream]
	ratios := make([][]*float64, len(st.exps))             // [exp][name], max over streams
	for e := range samples {
		samples[e] = make([][]schema.LoadSample, len(names))
		ratios[e] = make([]*float64, len(names))
	}
	for s := range rc.Sets {
		keys := st.keys(s)
		lps := make([]*loadPlacement, len(names))
		for j, name := range names {
			if lps[j], err = preparePlacement(name, nodes, o, keys, locs); err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
		}
		for e := range st.exps {
			stream := st.stream(e, s, keys)
			for j, lp := range lps {
				smp, ratio, err := lp.measure(&stream)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", names[j], err)
				}
				samples[e][j] = append(samples[e][j], smp)
				if ratio != nil && (ratios[e][j] == nil || *ratio > *ratios[e][j]) {
					r := *ratio
					ratios[e][j] = &r
				}
			}
		}
	}
	var out []schema.Load
	for e, s := range st.exps {
		for j, name := range names {
			r, err := loadRow(o, rc, name, nodes, s, samples[e][j], ratios[e][j])
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// CheckLoad returns the error Load(o, names, nodes) would return before
// reading a request or building a placement: a bad option, membership or
// placement name, a placement the catalog refuses for nodes, or memory
// over the budget (the placements' cost estimates, the request streams
// and Zipf laws: [memory.Budget.Fits]; a request log is reserved as it is
// read). Commands call it before any work.
func CheckLoad(o LoadOptions, names []string, nodes []algorithms.Node) error {
	if _, err := o.validate(); err != nil {
		return err
	}
	need, what, err := loadNeed(o, names, nodes)
	if err != nil {
		return err
	}
	return o.memory().Fits(what, need)
}

// loadNeed checks the membership and placement names of a load run and
// returns the bytes it holds at once: every placement built (the
// catalog's cost estimates; a ring for each bounded form), and for
// generated streams their requests, keys and laws (streamNeed).
func loadNeed(o LoadOptions, names []string, nodes []algorithms.Node) (int64, string, error) {
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return 0, "", err
	}
	if len(names) == 0 {
		return 0, "", fmt.Errorf("no placements given")
	}
	var need int64
	k := 0
	for _, name := range names {
		if _, ok := o.Opened[name]; ok {
			continue // a placement in another process: its memory is not this run's
		}
		if !slices.Contains(schema.LoadPlacements(), name) && !catalog.IsDialect(name) {
			return 0, "", fmt.Errorf("unknown placement %q (known: %v, and the dialects)", name, schema.LoadPlacements())
		}
		algo := name
		if name == schema.VariantKey || name == schema.VariantRequest {
			algo = ring.Name
		}
		if name == schema.VariantRequest {
			k = o.inFlightFor(len(nodes))
		}
		if err := catalog.Check(algo, nodes, o.Config); err != nil {
			return 0, "", fmt.Errorf("%s: %w", name, err)
		}
		c, err := catalog.Estimate(algo, nodes, o.Config)
		if err != nil {
			return 0, "", fmt.Errorf("%s: %w", name, err)
		}
		need += c.Bytes
	}
	what := fmt.Sprintf("%d placements on %d nodes (%s)", len(names), len(nodes), memory.Human(need))
	if o.RequestLog == nil {
		s, sw := o.streamNeed(requestBytes, k)
		if s < 0 {
			return -1, what + " and " + sw, nil
		}
		need += s
		what += " and " + sw
	}
	return need, "a load run: " + what, nil
}

// loadLocators checks names and builds the catalog placements among them
// on nodes, by name, and those the caller opened (Options.Opened) with
// their Builders (the bounded-loads forms without a catalog entry are
// built per stream). On an error it closes what it built.
func loadLocators(o LoadOptions, names []string, nodes []algorithms.Node) (map[string]algorithms.Locator, error) {
	if len(names) == 0 {
		return nil, fmt.Errorf("no placements given")
	}
	locs := map[string]algorithms.Locator{}
	for _, name := range names {
		b, opened := o.Opened[name]
		if !opened && !slices.Contains(schema.LoadPlacements(), name) && !catalog.IsDialect(name) {
			releaseAll(locs, names)
			return nil, fmt.Errorf("unknown placement %q (known: %v, and the dialects)", name, schema.LoadPlacements())
		}
		if name == schema.VariantKey || name == schema.VariantRequest {
			continue
		}
		var l algorithms.Locator
		var err error
		if opened {
			l, err = b.New(nodes)
		} else {
			l, err = catalog.NewLocator(name, nodes, o.Config)
		}
		if err != nil {
			releaseAll(locs, names)
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		locs[name] = l
	}
	return locs, nil
}

// releaseAll closes the Locators of locs (see release) in the order of
// names, so that an external program sees the same requests in every run.
func releaseAll(locs map[string]algorithms.Locator, names []string) {
	for _, name := range names {
		if l, ok := locs[name]; ok {
			release(l)
		}
	}
}

// loadStreams holds what every placement of a load run serves: the
// generated key sets and the Zipf laws of the exponents, or the streams
// of a request log (exps is then one NaN).
type loadStreams struct {
	o    LoadOptions
	exps []float64
	laws []map[int]*Zipf // per exponent, the law over a stream of that many keys
	gen  *keyset.Generator
	file [][]string // a key file's sets, each a stream's keys (rank i = its i-th line)
	log  []requestStream
	// requests is how many requests a request trace held.
	requests int64
}

func newStreams(o LoadOptions) (*loadStreams, error) {
	st := &loadStreams{o: o, exps: o.Zipfs}
	if o.RequestTrace != nil {
		var err error
		if st.log, st.requests, err = readRequestTrace(o.RequestTrace, o.Config.Budget()); err != nil {
			return nil, err
		}
		st.exps = []float64{math.NaN()}
		return st, nil
	}
	if o.RequestLog != nil {
		var err error
		if st.log, err = readRequestLog(o.RequestLog, o.memory()); err != nil {
			return nil, err
		}
		st.exps = []float64{math.NaN()}
		return st, nil
	}
	sizes := []int{}
	switch src := o.Keys.(type) {
	case *keyset.Generator:
		st.gen = src
		sizes = append(sizes, src.Keys())
	case *keyset.File:
		var err error
		if st.file, err = fileSets(src); err != nil {
			return nil, err
		}
		for _, ks := range st.file {
			if len(ks) == 0 {
				return nil, fmt.Errorf("key file %q: %d keys for %d request streams: a stream would be empty", src.Path(), src.Keys(), src.Sets())
			}
			if !slices.Contains(sizes, len(ks)) {
				sizes = append(sizes, len(ks))
			}
		}
	}
	for _, s := range st.exps {
		laws := map[int]*Zipf{}
		for _, n := range sizes {
			z, err := NewZipf(n, s)
			if err != nil {
				return nil, err
			}
			laws[n] = z
		}
		st.laws = append(st.laws, laws)
	}
	return st, nil
}

// fileSets reads the key file f into its sets, line i to set i mod sets,
// in file order.
func fileSets(f *keyset.File) ([][]string, error) {
	sets := make([][]string, f.Sets())
	i := 0
	err := f.Scan(func(key string) error {
		sets[i%len(sets)] = append(sets[i%len(sets)], strings.Clone(key)) // Scan's key is only valid during the call
		i++
		return nil
	})
	return sets, err
}

// keys returns the distinct keys of stream s.
func (st *loadStreams) keys(s int) []string {
	switch {
	case st.gen != nil:
		return streamKeys(st.gen, s)
	case st.file != nil:
		return st.file[s]
	}
	return st.log[s].keys
}

// stream returns stream s (its keys given) under exponent e.
func (st *loadStreams) stream(e, s int, keys []string) requestStream {
	if st.gen == nil && st.file == nil {
		return st.log[s]
	}
	z := st.laws[e][len(keys)]
	return requestStream{keys: keys, reqs: zipfRequests(z, st.o.Requests, st.o.Seed, s), hot: 0, hotShare: z.HotShare()}
}

// loadRow summarises the samples of placement name under exponent s
// (NaN: a request log) into its row.
func loadRow(o LoadOptions, rc schema.Config, name string, nodes []algorithms.Node, s float64, ss []schema.LoadSample, ratio *float64) (schema.Load, error) {
	r := schema.Load{Config: rc, Nodes: len(nodes), Zipf: zipfOrLog(s),
		Requests: o.Requests, MaxLoadOverCap: ratio, Samples: ss, HotKeyNode: ss[0].HotNode}
	r.Algo = placementLabel(name)
	if o.RequestLog != nil || o.RequestTrace != nil {
		r.Requests = rc.Keys
	}
	if name == schema.VariantRequest {
		r.InFlight = o.inFlightFor(len(nodes))
	}
	var p2m, cv, maxs, hots, away []float64
	busiest := 0
	for _, x := range ss {
		p2m, cv, maxs, hots, away = append(p2m, x.PeakToMean), append(cv, x.CV), append(maxs, x.MaxShare), append(hots, x.HotShare), append(away, x.Away)
		if x.HotBusiest {
			busiest++
		}
	}
	var ci cis
	setEstimate(&r.PeakToMean, &r.PeakToMeanLo, &r.PeakToMeanHi, ci.peakToMean("peak-to-mean", p2m, maxPeakToMean(nodes)))
	setEstimate(&r.CV, &r.CVLo, &r.CVHi, ci.cv("cv", cv, r.Nodes))
	setEstimate(&r.MaxShare, &r.MaxShareLo, &r.MaxShareHi, ci.fraction("max share", maxs))
	setEstimate(&r.HotShare, &r.HotShareLo, &r.HotShareHi, ci.fraction("hot share", hots))
	setEstimate(&r.AwayFrac, &r.AwayFracLo, &r.AwayFracHi, ci.fraction("away fraction", away))
	if ci.err != nil {
		return r, ci.err
	}
	if err := byteEstimates(&r, ss, maxPeakToMean(nodes)); err != nil {
		return r, err
	}
	r.HotIsBusiest = float64(busiest) / float64(len(ss))
	var err error
	if r.Floor, err = hotKeyFloor(r.HotShare, nodes); err != nil {
		return r, err
	}
	wmin, whot := nodes[0].Weight, 0.0
	for _, n := range nodes {
		wmin = min(wmin, n.Weight)
		if n.ID == r.HotKeyNode {
			whot = n.Weight
		}
	}
	r.FloorMinNode = hotKeyFloorOn(r.HotShare, nodes, wmin)
	r.FloorHotNode = hotKeyFloorOn(r.HotShare, nodes, whot)
	return r, nil
}

// hotKeyFloorOn is the hot-key floor when the hottest key, hotShare of
// the requests, lands on a node of weight w of nodes: max(1, hotShare *
// W / w). It is [HotKeyFloor] for w = the largest weight.
func hotKeyFloorOn(hotShare float64, nodes []algorithms.Node, w float64) float64 {
	return max(1, hotShare*algorithms.TotalWeight(nodes)/w)
}

// byteEstimates sets r's load by bytes from its samples, when they have
// one; top is the largest peak-to-mean ratio the nodes allow.
func byteEstimates(r *schema.Load, ss []schema.LoadSample, top float64) error {
	var p2m, maxs []float64
	for _, x := range ss {
		if x.BytesPeakToMean == nil {
			return nil
		}
		p2m, maxs = append(p2m, *x.BytesPeakToMean), append(maxs, *x.BytesMaxShare)
	}
	var ci cis
	p, m := ci.peakToMean("peak-to-mean by bytes", p2m, top), ci.fraction("max share by bytes", maxs)
	if ci.err != nil {
		return ci.err
	}
	setOptional(&r.BytesPeakToMean, &r.BytesPeakToMeanLo, &r.BytesPeakToMeanHi, p)
	setOptional(&r.BytesMaxShare, &r.BytesMaxShareLo, &r.BytesMaxShareHi, m)
	return nil
}

// zipfOrLog returns the Zipf exponent s of a row, nil for a request log
// (s NaN).
func zipfOrLog(s float64) *float64 {
	if math.IsNaN(s) {
		return nil
	}
	return &s
}
