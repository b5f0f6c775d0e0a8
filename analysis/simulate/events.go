package simulate

// events reads each event's storm off a replay's rows (see EventResult).
func events(cfg *Config, label string, rows []Window) []EventResult {
	out := make([]EventResult, len(cfg.Events))
	for i, e := range cfg.Events {
		er := EventResult{Placement: label, Index: i, Event: e}
		// Rows are cut at every event, so one starts exactly at e.At when
		// the trace reached it.
		first := -1
		for j, w := range rows {
			if w.Start >= e.At {
				first = j
				break
			}
		}
		if first < 0 {
			out[i] = er // the trace ended before the event
			continue
		}
		er.Reached = true
		// The baseline: up to Baseline rows before the event, after the
		// previous event.
		lo := first - cfg.Baseline
		prev := i - 1 // the last event before this one's time (simultaneous events share a storm)
		for prev >= 0 && cfg.Events[prev].At >= e.At {
			prev--
		}
		if prev >= 0 {
			for lo < first && rows[max(lo, 0)].Start < cfg.Events[prev].At {
				lo++
			}
		}
		var gets, db int64
		var secs float64
		for j := max(lo, 0); j < first; j++ {
			gets += rows[j].Gets
			db += rows[j].DBReads
			secs += (rows[j].End - rows[j].Start).Seconds()
		}
		if gets > 0 && secs > 0 {
			er.BaselineKnown = true
			er.BaselineMissRatio = float64(db) / float64(gets)
			er.BaselineDBs = float64(db) / secs
		}
		end := len(rows)
		next := i + 1
		for next < len(cfg.Events) && cfg.Events[next].At <= e.At {
			next++
		}
		if next < len(cfg.Events) {
			for j := first; j < len(rows); j++ {
				if rows[j].Start >= cfg.Events[next].At {
					end = j
					break
				}
			}
		}
		er.MinHitRatio = 1
		er.PeakWindow = first
		for j := first; j < end; j++ {
			w := rows[j]
			if w.DBReadsPerSec > er.PeakDBReadsPerSec {
				er.PeakDBReadsPerSec, er.PeakWindow = w.DBReadsPerSec, j
			}
			if w.Gets > 0 {
				er.MinHitRatio = min(er.MinHitRatio, w.HitRatio)
			}
			if er.BaselineKnown {
				extra := float64(w.DBReads) - er.BaselineMissRatio*float64(w.Gets)
				er.ExtraDBReads += extra
				if !er.Refilled {
					er.ExtraToRefill += extra
				}
				if !er.Refilled && w.Gets > 0 && float64(w.DBReads) <= RefillFactor*er.BaselineMissRatio*float64(w.Gets) {
					er.Refilled, er.RefillTime, er.RefillWindow = true, w.End-e.At, j
				}
			}
		}
		if er.BaselineKnown && er.BaselineDBs > 0 {
			er.PeakMultiple = er.PeakDBReadsPerSec / er.BaselineDBs
		}
		out[i] = er
	}
	return out
}
