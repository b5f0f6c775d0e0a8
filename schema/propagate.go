package schema

// Propagate is one algorithm's requests in one time window while a
// membership change propagates to the clients (chbench propagate), or
// over the whole replay span (Window = -1): one row of propagate.csv, one
// object of the propagate JSON array. Counts are requests per replay,
// means over the replays with their 95% intervals (_lo, _hi); each
// *_expected column is the analytic expectation of the count beside it.
// The cache-aside counts are nil (empty cells) when the run had no
// cache-aside workload. The columns are documented in the package
// documentation (Propagation).
type Propagate struct {
	Op                string   `json:"op"`
	From              int      `json:"from"`
	To                int      `json:"to"`
	Changes           int      `json:"changes"`
	At                string   `json:"at_s"`
	Model             string   `json:"model"`
	Clients           int      `json:"clients"`
	Rate              float64  `json:"rate"`
	Zipf              float64  `json:"zipf"`
	Writes            float64  `json:"writes"`
	Replays           int      `json:"replays"`
	HandoffS          float64  `json:"handoff_s"`
	Window            int      `json:"window"`
	StartS            float64  `json:"start_s"`
	EndS              float64  `json:"end_s"`
	Requests          float64  `json:"requests"`
	Reads             float64  `json:"reads"`
	MovedFrac         float64  `json:"moved_frac"`
	Stale             float64  `json:"stale"`
	StaleLo           *float64 `json:"stale_lo"`
	StaleHi           *float64 `json:"stale_hi"`
	StaleExpected     float64  `json:"stale_expected"`
	Misrouted         float64  `json:"misrouted"`
	MisroutedLo       *float64 `json:"misrouted_lo"`
	MisroutedHi       *float64 `json:"misrouted_hi"`
	MisroutedExpected float64  `json:"misrouted_expected"`
	NotYet            float64  `json:"not_yet"`
	NotYetLo          *float64 `json:"not_yet_lo"`
	NotYetHi          *float64 `json:"not_yet_hi"`
	NotYetExpected    float64  `json:"not_yet_expected"`
	AnyMore           float64  `json:"any_more"`
	AnyMoreLo         *float64 `json:"any_more_lo"`
	AnyMoreHi         *float64 `json:"any_more_hi"`
	AnyMoreExpected   float64  `json:"any_more_expected"`
	Misses            *float64 `json:"misses"`
	MissesLo          *float64 `json:"misses_lo"`
	MissesHi          *float64 `json:"misses_hi"`
	SplitMisses       *float64 `json:"split_misses"`
	SplitMissesLo     *float64 `json:"split_misses_lo"`
	SplitMissesHi     *float64 `json:"split_misses_hi"`
	DoubleCached      *float64 `json:"double_cached"`
	DoubleCachedLo    *float64 `json:"double_cached_lo"`
	DoubleCachedHi    *float64 `json:"double_cached_hi"`
	StaleReads        *float64 `json:"stale_reads"`
	StaleReadsLo      *float64 `json:"stale_reads_lo"`
	StaleReadsHi      *float64 `json:"stale_reads_hi"`
	Label             string   `json:"label"`
	Config            `json:"config"`
}

func (Propagate) columns() []string {
	return []string{
		"algo", "hash", "vnodes", "op", "from", "to", "changes", "at_s", "model", "clients",
		"rate", "keys", "zipf", "writes", "replays", "seed", "handoff_s",
		"window", "start_s", "end_s", "requests", "reads", "moved_frac",
		"stale", "stale_lo", "stale_hi", "stale_expected",
		"misrouted", "misrouted_lo", "misrouted_hi", "misrouted_expected",
		"not_yet", "not_yet_lo", "not_yet_hi", "not_yet_expected",
		"any_more", "any_more_lo", "any_more_hi", "any_more_expected",
		"misses", "misses_lo", "misses_hi", "split_misses", "split_misses_lo", "split_misses_hi",
		"double_cached", "double_cached_lo", "double_cached_hi", "stale_reads", "stale_reads_lo", "stale_reads_hi",
		"label", "~eps", "~partitions", "~table_size", "~probes", "~capacity", "~go_version", "~commit", "~?key_file",
	}
}

// check: at least one change, client and replay; the window is -1 (the
// whole span) or a window number, inside a span that does not end before
// it starts; the moved fraction is a
// fraction; no count or expectation is negative; a replay routes no more
// requests astray than by a stale view, and reads no more than requests.
func (r Propagate) check() error {
	switch {
	case r.Changes < 1:
		return columnErr("changes", "%d: want at least 1 membership change", r.Changes)
	case r.Clients < 1:
		return columnErr("clients", "%d: want at least 1 client", r.Clients)
	case r.Replays < 1:
		return columnErr("replays", "%d: want at least 1 replay", r.Replays)
	case r.Window < -1:
		return columnErr("window", "%d: want -1 (the whole span) or a window number >= 0", r.Window)
	case !(r.StartS < r.EndS):
		return columnErr("end_s", "%v is not after start_s %v", r.EndS, r.StartS)
	case r.MovedFrac < 0 || r.MovedFrac > 1:
		return columnErr("moved_frac", "%v is not a fraction in 0..1", r.MovedFrac)
	case r.Rate <= 0:
		return columnErr("rate", "%v must be > 0", r.Rate)
	case r.Zipf < 0:
		return columnErr("zipf", "%v is negative", r.Zipf)
	case r.Writes < 0 || r.Writes > 1:
		return columnErr("writes", "%v is not a fraction in 0..1", r.Writes)
	case r.HandoffS < 0:
		return columnErr("handoff_s", "%v is negative", r.HandoffS)
	case r.Reads > r.Requests:
		return columnErr("reads", "%v exceeds requests %v", r.Reads, r.Requests)
	case r.Misrouted > r.Stale:
		return columnErr("misrouted", "%v exceeds stale %v: a misrouted request is a stale one", r.Misrouted, r.Stale)
	}
	for _, c := range []struct {
		col string
		v   *float64
	}{{"requests", &r.Requests}, {"reads", &r.Reads}, {"stale_lo", r.StaleLo}, {"stale_expected", &r.StaleExpected},
		{"misrouted_lo", r.MisroutedLo}, {"misrouted_expected", &r.MisroutedExpected}, {"not_yet_lo", r.NotYetLo},
		{"not_yet_expected", &r.NotYetExpected}, {"any_more_lo", r.AnyMoreLo}, {"any_more_expected", &r.AnyMoreExpected},
		{"misses_lo", r.MissesLo}, {"split_misses_lo", r.SplitMissesLo}, {"double_cached_lo", r.DoubleCachedLo},
		{"stale_reads_lo", r.StaleReadsLo}} {
		if c.v != nil && *c.v < 0 {
			return columnErr(c.col, "%v is negative", *c.v)
		}
	}
	// The cache-aside means come together; their intervals are missing
	// with one replay, and never without their means.
	cache := []*float64{r.Misses, r.SplitMisses, r.DoubleCached, r.StaleReads}
	for _, p := range cache[1:] {
		if (p == nil) != (cache[0] == nil) {
			return columnErr("misses", "the cache-aside columns are all present or all empty")
		}
	}
	if r.Misses == nil {
		for _, p := range []*float64{r.MissesLo, r.MissesHi, r.SplitMissesLo, r.SplitMissesHi, r.DoubleCachedLo, r.DoubleCachedHi, r.StaleReadsLo, r.StaleReadsHi} {
			if p != nil {
				return columnErr("misses", "cache-aside intervals without their values")
			}
		}
	}
	return nil
}

// Redirect is one window of a live Redis Cluster resharding (chbench
// propagate -live), or the whole run (Window = -1): the MOVED and ASK
// redirects a client that caches the slot map met, beside the redirect
// model of the same migration. One row of propagate-redis.csv, one object
// of its JSON array. The columns are documented in the package
// documentation (Redis resharding).
type Redirect struct {
	Slots           int     `json:"slots"`
	ControlSlots    int     `json:"control_slots"`
	KeysPerSlot     int     `json:"keys_per_slot"`
	Pipeline        int     `json:"pipeline"`
	Rate            float64 `json:"rate"`
	Writes          float64 `json:"writes"`
	RedisVersion    string  `json:"redis_version"`
	MigrationStartS float64 `json:"migration_start_s"`
	MigrationEndS   float64 `json:"migration_end_s"`
	RoundTripP50S   float64 `json:"round_trip_p50_s"`
	RoundTripP999S  float64 `json:"round_trip_p999_s"`
	SlackS          float64 `json:"slack_s"`
	Window          int     `json:"window"`
	StartS          float64 `json:"start_s"`
	EndS            float64 `json:"end_s"`
	Requests        int     `json:"requests"`
	Ask             int     `json:"ask"`
	AskModel        float64 `json:"ask_model"`
	AskModelLo      float64 `json:"ask_model_lo"`
	AskModelHi      float64 `json:"ask_model_hi"`
	AskSD           float64 `json:"ask_sd"`
	Moved           int     `json:"moved"`
	MovedModelLo    int     `json:"moved_model_lo"`
	MovedModelHi    int     `json:"moved_model_hi"`
	Config          `json:"config"`
}

func (Redirect) columns() []string {
	return []string{
		"slots", "control_slots", "keys_per_slot", "pipeline", "rate", "writes", "seed", "redis_version",
		"migration_start_s", "migration_end_s", "round_trip_p50_s", "round_trip_p999_s", "slack_s",
		"window", "start_s", "end_s", "requests",
		"ask", "ask_model", "ask_model_lo", "ask_model_hi", "ask_sd",
		"moved", "moved_model_lo", "moved_model_hi",
		"~go_version", "~commit",
	}
}

// check: a window inside a span, a migration that does not end before it
// starts, counts and bounds that are not negative, MOVED bounds in order.
func (r Redirect) check() error {
	switch {
	case r.Slots < 1:
		return columnErr("slots", "%d: want at least 1 migrated slot", r.Slots)
	case r.Window < -1:
		return columnErr("window", "%d: want -1 (the whole run) or a window number >= 0", r.Window)
	case !(r.StartS < r.EndS):
		return columnErr("end_s", "%v is not after start_s %v", r.EndS, r.StartS)
	case r.MigrationEndS < r.MigrationStartS:
		return columnErr("migration_end_s", "%v is before migration_start_s %v", r.MigrationEndS, r.MigrationStartS)
	case r.MovedModelLo > r.MovedModelHi:
		return columnErr("moved_model_lo", "%d exceeds moved_model_hi %d", r.MovedModelLo, r.MovedModelHi)
	case r.Writes < 0 || r.Writes > 1:
		return columnErr("writes", "%v is not a fraction in 0..1", r.Writes)
	}
	for _, c := range []struct {
		col string
		v   float64
	}{{"control_slots", float64(r.ControlSlots)}, {"requests", float64(r.Requests)}, {"ask", float64(r.Ask)},
		{"ask_model_lo", r.AskModelLo}, {"ask_sd", r.AskSD}, {"moved", float64(r.Moved)}, {"moved_model_lo", float64(r.MovedModelLo)},
		{"round_trip_p50_s", r.RoundTripP50S}, {"round_trip_p999_s", r.RoundTripP999S}, {"slack_s", r.SlackS}} {
		if c.v < 0 {
			return columnErr(c.col, "%v is negative", c.v)
		}
	}
	for _, c := range []struct {
		col string
		v   float64
	}{{"keys_per_slot", float64(r.KeysPerSlot)}, {"pipeline", float64(r.Pipeline)}, {"rate", r.Rate}} {
		if c.v <= 0 {
			return columnErr(c.col, "%v must be > 0", c.v)
		}
	}
	return nil
}
