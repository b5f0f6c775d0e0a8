// Package memory accounts for the memory one chbench run holds, against
// the run's budget (the -mem flag of every command that allocates by its
// input, default [DefaultLimit]). Every allocation whose size a user
// controls (request queues, timeline rows, request logs, copies of
// streamed key files on a memory file system, members files, Zipf tables,
// rows read from result files, plot points) is reserved from the run's
// [Budget] before it is made, so that an input too large for the budget
// is an error naming the bytes, what they are for and the budget, never
// an allocation the machine cannot hold. The placements themselves are
// checked by their cost estimates (algorithms/catalog.Estimate) against
// the same limit.
package memory

import (
	"fmt"
	"strconv"
	"sync"
)

// DefaultLimit is the budget of a run unless -mem says otherwise: 2 GiB.
const DefaultLimit int64 = 2 << 30

// Budget is the memory a run may hold. Reservations are counted, never
// allocated: a caller reserves the bytes it is about to allocate and
// releases them when it drops them. A Budget is safe for concurrent use.
type Budget struct {
	limit int64
	mu    sync.Mutex
	held  int64
	peak  int64
}

// New returns a budget of limit bytes; limit <= 0 means DefaultLimit.
func New(limit int64) *Budget {
	if limit <= 0 {
		limit = DefaultLimit
	}
	return &Budget{limit: limit}
}

// OrDefault returns b, or a new budget of DefaultLimit when b is nil: the
// budget of a library caller that gave none.
func OrDefault(b *Budget) *Budget {
	if b == nil {
		return New(DefaultLimit)
	}
	return b
}

// Limit returns the budget in bytes.
func (b *Budget) Limit() int64 { return b.limit }

// Held returns the bytes reserved and not released.
func (b *Budget) Held() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.held
}

// Peak returns the most bytes held at once since New.
func (b *Budget) Peak() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.peak
}

// Reserve records n more bytes held for what (a phrase: "the in-flight
// queue of 5000 requests x 4 B") when they fit in the budget beside what
// is held, and otherwise returns an *ExceededError naming what, n, the
// bytes held and the limit, and records nothing. n < 0 stands for a size
// too large to compute ([Mul]) and is refused.
func (b *Budget) Reserve(what string, n int64) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n < 0 || n > b.limit-b.held {
		return &ExceededError{What: what, Bytes: n, Held: b.held, Limit: b.limit}
	}
	b.held += n
	b.peak = max(b.peak, b.held)
	return nil
}

// Fits returns the error Reserve(what, n) would return, reserving nothing:
// a check before the work of what a later step will reserve.
func (b *Budget) Fits(what string, n int64) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n < 0 || n > b.limit-b.held {
		return &ExceededError{What: what, Bytes: n, Held: b.held, Limit: b.limit}
	}
	return nil
}

// Release returns n bytes reserved earlier.
func (b *Budget) Release(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.held = max(0, b.held-n)
}

// ExceededError is a reservation the budget cannot hold.
type ExceededError struct {
	What               string
	Bytes, Held, Limit int64
}

func (e *ExceededError) Error() string {
	held := ""
	if e.Held > 0 {
		held = " beside the " + Human(e.Held) + " this run already holds"
	}
	if e.Bytes < 0 { // Fits of a product that overflowed
		return fmt.Sprintf("%s needs more than %s, the memory budget: ask for less, or raise the budget (-mem)", e.What, Human(e.Limit))
	}
	return fmt.Sprintf("%s needs about %s%s, over the memory budget of %s: ask for less, or raise the budget (-mem)", e.What, Human(e.Bytes), held, Human(e.Limit))
}

// Mul returns a x b, or -1 when the product of two non-negative counts
// overflows an int64 (Reserve and Fits refuse it): the bytes of a count
// of items of a size, computed without wrapping around.
func Mul(a, b int64) int64 {
	if a < 0 || b < 0 {
		return -1
	}
	if a != 0 && b > (1<<63-1)/a {
		return -1
	}
	return a * b
}

// Human formats a byte count with a binary unit: "512 B", "1.5 KiB",
// "2 GiB", at most three significant digits.
func Human(b int64) string {
	if b < 1024 {
		return strconv.FormatInt(b, 10) + " B"
	}
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	x := float64(b) / 1024
	i := 0
	for x >= 1024 && i < len(units)-1 {
		x /= 1024
		i++
	}
	return strconv.FormatFloat(x, 'g', 3, 64) + " " + units[i]
}
