package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/internal/numfmt"
)

// Progress display timing: nothing is drawn for runs shorter than
// progressDelay, and the line is redrawn at most every progressEvery.
const (
	progressDelay = 2 * time.Second
	progressEvery = 200 * time.Millisecond
)

// progressBar is a one-line progress indicator for stderr: keys processed
// (or, with bytes set, input bytes read) out of the total, percent and
// rate. Workers call add (an atomic add);
// tick draws, from one goroutine, and finish clears the line. The clock is
// injected so tests need no sleeps.
type progressBar struct {
	w     io.Writer
	total int64 // keys the whole run streams; <= 0: unknown (no percent)
	bytes bool  // the counts are input bytes (a trace read), not keys
	done  atomic.Int64
	now   func() time.Time
	start time.Time

	mu       sync.Mutex // guards the fields below (tick and finish)
	lastDraw time.Time
	drawn    bool // a line is on the terminal and must be cleared
	finished bool
}

func newProgressBar(w io.Writer, total int64, now func() time.Time) *progressBar {
	return &progressBar{w: w, total: total, now: now, start: now()}
}

// add records keys more processed keys. Safe for concurrent use.
func (b *progressBar) add(keys int64) { b.done.Add(keys) }

// tick redraws the line if the run has lasted progressDelay and the last
// draw is at least progressEvery old.
func (b *progressBar) tick() {
	b.mu.Lock()
	defer b.mu.Unlock()
	t := b.now()
	if b.finished || t.Sub(b.start) < progressDelay || (b.drawn && t.Sub(b.lastDraw) < progressEvery) {
		return
	}
	fmt.Fprint(b.w, "\r"+b.line(b.done.Load(), t.Sub(b.start))+"\x1b[K")
	b.drawn, b.lastDraw = true, t
}

// finish clears the line if one was drawn; later ticks draw nothing.
func (b *progressBar) finish() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.drawn {
		fmt.Fprint(b.w, "\r\x1b[K")
	}
	b.drawn, b.finished = false, true
}

// line renders "chbench: 1.20M / 5.00M keys  24.0%  600k keys/s", or for
// bytes "chbench: 120 MiB / 1.5 GiB read  7.8%  60 MiB/s".
func (b *progressBar) line(done int64, elapsed time.Duration) string {
	amount, unit, rate := humanCount, " keys", " keys/s"
	if b.bytes {
		amount = func(x float64) string { return catalog.HumanBytes(int64(x)) }
		unit, rate = " read", "/s"
	}
	var s strings.Builder
	s.WriteString("chbench: " + amount(float64(done)))
	if b.total > 0 {
		fmt.Fprintf(&s, " / %s%s  %5.1f%%", amount(float64(b.total)), unit, 100*float64(min(done, b.total))/float64(b.total))
	} else {
		s.WriteString(unit)
	}
	if sec := elapsed.Seconds(); sec > 0 {
		fmt.Fprintf(&s, "  %s%s", amount(float64(done)/sec), rate)
	}
	return s.String()
}

// humanCount formats x with a k, M or G suffix and 3 significant digits.
var humanCount = numfmt.Short

// isTerminal reports whether w is a character device (a terminal), the
// only place a progress line is drawn: never into files, pipes or buffers.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Progress is a running progress display; Stop clears it and may be
// called more than once.
type Progress struct {
	bar  *progressBar
	quit chan struct{}
	wg   sync.WaitGroup
	once sync.Once
}

// StartProgress starts redrawing a progress line on stderr, when it is a
// terminal, for a run streaming total keys (<= 0: unknown); the run
// reports its keys to [Progress.Hook]. On anything else (a file, a pipe, a
// buffer) it returns an inert display whose Hook is nil, so a run pays
// nothing. The line never touches stdout.
func StartProgress(stderr io.Writer, total int64) *Progress {
	return startProgress(stderr, total, false)
}

// StartByteProgress is [StartProgress] for a run reading totalBytes of
// input (a trace file; <= 0: unknown): the line counts bytes read, and
// the run reports them to [Progress.Hook] (trace.Options.Progress).
func StartByteProgress(stderr io.Writer, totalBytes int64) *Progress {
	return startProgress(stderr, totalBytes, true)
}

func startProgress(stderr io.Writer, total int64, bytes bool) *Progress {
	p := &Progress{}
	if !isTerminal(stderr) {
		return p
	}
	p.bar = newProgressBar(stderr, total, time.Now)
	p.bar.bytes = bytes
	p.quit = make(chan struct{})
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				p.bar.tick()
			case <-p.quit:
				return
			}
		}
	}()
	return p
}

// Hook returns the function a run calls with the keys it has just
// processed (safe for concurrent use; analysis.Options.Progress), or nil
// when nothing is drawn.
func (p *Progress) Hook() func(keys int64) {
	if p.bar == nil {
		return nil
	}
	return p.bar.add
}

// Stop ends the display and clears its line.
func (p *Progress) Stop() {
	p.once.Do(func() {
		if p.bar == nil {
			return
		}
		close(p.quit)
		p.wg.Wait()
		p.bar.finish()
	})
}
