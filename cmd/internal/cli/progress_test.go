package cli

import (
	"bytes"
	"os"
	"sync"
	"testing"
	"time"
)

// fakeClock is a clock tests advance by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

// The bar stays silent for the first two seconds, then draws keys, total,
// percent and rate, redraws at most every 200 ms, and finish clears the
// line (carriage return + erase to end of line) and silences later ticks.
func TestProgressBarRendering(t *testing.T) {
	var w bytes.Buffer
	clk := &fakeClock{t: time.Unix(1000, 0)}
	b := newProgressBar(&w, 5_000_000, clk.now)
	b.add(1_000_000)
	clk.advance(1900 * time.Millisecond)
	b.tick()
	if w.Len() != 0 {
		t.Fatalf("drew %q before 2 s", w.String())
	}
	clk.advance(100 * time.Millisecond) // 2.0 s, 1M keys: 500k keys/s
	b.tick()
	want := "\rchbench: 1.00M / 5.00M keys   20.0%  500k keys/s\x1b[K"
	if w.String() != want {
		t.Fatalf("first draw %q, want %q", w.String(), want)
	}
	w.Reset()
	b.add(250_000)
	clk.advance(199 * time.Millisecond)
	b.tick()
	if w.Len() != 0 {
		t.Fatalf("redrew after 199 ms: %q", w.String())
	}
	clk.advance(1 * time.Millisecond) // 2.2 s, 1.25M keys
	b.tick()
	if want := "\rchbench: 1.25M / 5.00M keys   25.0%  568k keys/s\x1b[K"; w.String() != want {
		t.Fatalf("redraw %q, want %q", w.String(), want)
	}
	w.Reset()
	b.finish()
	if w.String() != "\r\x1b[K" {
		t.Fatalf("finish wrote %q, want a cleared line", w.String())
	}
	w.Reset()
	clk.advance(time.Second)
	b.tick()
	b.finish()
	if w.Len() != 0 {
		t.Fatalf("wrote %q after finish", w.String())
	}
}

// A run that ends before the delay leaves no trace; an unknown total
// shows no percent; counts past the total are clamped to 100%.
func TestProgressBarEdges(t *testing.T) {
	var w bytes.Buffer
	clk := &fakeClock{t: time.Unix(0, 0)}
	b := newProgressBar(&w, 100, clk.now)
	b.add(100)
	clk.advance(time.Second)
	b.tick()
	b.finish()
	if w.Len() != 0 {
		t.Errorf("short run wrote %q", w.String())
	}
	if got := (&progressBar{total: 0}).line(1234, 2*time.Second); got != "chbench: 1.23k keys  617 keys/s" {
		t.Errorf("unknown total: %q", got)
	}
	if got := (&progressBar{total: 10}).line(12, 0); got != "chbench: 12 / 10 keys  100.0%" {
		t.Errorf("past total: %q", got)
	}
	// A trace's bar counts input bytes in binary units.
	if got := (&progressBar{total: 3 << 30, bytes: true}).line(768<<20, 4*time.Second); got != "chbench: 768 MiB / 3 GiB read   25.0%  192 MiB/s" {
		t.Errorf("bytes: %q", got)
	}
	for x, want := range map[float64]string{0: "0", 999: "999", 1000: "1.00k", 12345: "12.3k", 999_999: "1000k", 123_456_789: "123M", 4.5e9: "4.50G"} {
		if got := humanCount(x); got != want {
			t.Errorf("humanCount(%v) = %q, want %q", x, got, want)
		}
	}
}

// Workers add concurrently; the count is exact (run with -race).
func TestProgressBarConcurrentAdd(t *testing.T) {
	b := newProgressBar(&bytes.Buffer{}, 0, time.Now)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				b.add(3)
			}
		}()
	}
	wg.Wait()
	if got := b.done.Load(); got != 24000 {
		t.Errorf("done %d, want 24000", got)
	}
}

// Not a terminal (a buffer, a regular file): no hook installed, nothing
// written, and stop is safe to call twice.
func TestProgressOnlyOnTerminals(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, w := range []interface{ Write([]byte) (int, error) }{&bytes.Buffer{}, f} {
		if isTerminal(w) {
			t.Errorf("%T is not a terminal", w)
		}
		p := StartProgress(w, 100)
		if p.Hook() != nil {
			t.Errorf("%T: progress hook installed", w)
		}
		p.Stop()
		p.Stop()
	}
	if st, _ := f.Stat(); st.Size() != 0 {
		t.Errorf("wrote %d bytes to a file", st.Size())
	}
}
