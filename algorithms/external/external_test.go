package external

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/keyset"
)

func start(t *testing.T, cfg Config) *Process {
	t.Helper()
	p, err := Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func newLocator(t *testing.T, p *Process, nodes []algorithms.Node) *Locator {
	t.Helper()
	l, err := p.New(nodes)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func keys(t testing.TB, n int, seed uint64) []string {
	t.Helper()
	k, err := keyset.Keys(n, seed)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func defaultNodes(t testing.TB, n int) []algorithms.Node {
	t.Helper()
	nodes, err := algorithms.DefaultNodes(n)
	if err != nil {
		t.Fatal(err)
	}
	return nodes
}

// oddKeys are keys with every kind of byte the framing must carry: empty,
// spaces, the escape character, line breaks, NUL, bytes >= 0x80, invalid
// UTF-8 and a long one.
var oddKeys = []string{"", " ", "%", "%25", "a b", "line\nbreak", "cr\r", "\x00", "\xff\xfe", "é", "tab\tkey",
	strings.Repeat("long-", 2000), "user:1000"}

// Keys and node IDs with any bytes survive the round trip: the helper
// decodes each key, places it by its FNV-1a hash, and names owners whose
// IDs hold spaces, '%' and non-ASCII bytes; every owner and replica must
// be what the same function gives here.
func TestRoundTrip(t *testing.T) {
	p := start(t, helper(t, "mod"))
	if p.Name() != "helper-mod" {
		t.Errorf("name %q, want helper-mod", p.Name())
	}
	if f := p.Facts(); !f.Weighted || f.Ordered || f.OnlyLastLeaves || f.Replicas != 8 || f.Stateful {
		t.Errorf("facts %+v, want weighted, unordered, any leaves, 8 replicas, stateless", f)
	}
	nodes := []algorithms.Node{{ID: "plain", Weight: 1}, {ID: "with space", Weight: 2}, {ID: "100%", Weight: 0.5},
		{ID: "café", Weight: 1e-3}, {ID: "a%20b", Weight: 1}}
	l := newLocator(t, p, nodes)
	ks := append(append([]string(nil), oddKeys...), keys(t, 500, 3)...)
	owners := make([]int, len(ks))
	if err := l.LocateKeys(ks, owners); err != nil {
		t.Fatal(err)
	}
	for i, k := range ks {
		if want := modOwner(k, len(nodes)); owners[i] != want {
			t.Fatalf("key %q: owner %d, want %d", k, owners[i], want)
		}
	}
	const r = 3
	reps := make([]int, r*len(ks))
	if err := l.ReplicateKeys(ks, r, reps); err != nil {
		t.Fatal(err)
	}
	for i, k := range ks {
		for j := range r {
			if want := (modOwner(k, len(nodes)) + j) % len(nodes); reps[i*r+j] != want {
				t.Fatalf("key %q replica %d: %d, want %d", k, j, reps[i*r+j], want)
			}
		}
	}
}

// gone asserts that the program and everything in its process group are
// dead and reaped: its exit was waited for (no zombie) and no process of
// the group remains.
func gone(t *testing.T, p *Process) {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		t.Fatalf("program %d still running 10 s after the failure", p.cmd.Process.Pid)
	}
	pgid := p.cmd.Process.Pid
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		alive := groupAlive(t, pgid)
		if alive == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d of the program's group %d still running 10 s after it was killed", alive, pgid)
		}
	}
}

// groupAlive returns a process of group pgid that is not a zombie, or 0.
// (Zombies of grandchildren belong to init, which reaps them in its own
// time.)
func groupAlive(t *testing.T, pgid int) int {
	t.Helper()
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...: comm may hold spaces, so split after ')'.
		i := strings.LastIndexByte(string(b), ')')
		fields := strings.Fields(string(b[i+1:]))
		if len(fields) < 3 || fields[0] == "Z" {
			continue
		}
		var pid, pgrp int
		fmt.Sscan(string(b), &pid)
		fmt.Sscan(fields[2], &pgrp)
		if pgrp == pgid {
			return pid
		}
	}
	return 0
}

// Every way a program can fail a locate request is an *Error that wraps
// its cause, names the batch (2 of 3: keys 10 to 19, 10 keys a request)
// and the key at fault, kills the program's group and reaps it, and comes
// back within the deadline plus a bound; a later request fails with the
// same cause, without writing to the dead program.
func TestLocateFailures(t *testing.T) {
	const fault = 15 // the helper's answer at which the fault appears
	for _, tc := range []struct {
		mode   string
		cause  error
		key    int    // the key the error names; -1 none
		detail string // in the message
	}{
		{"crash", ErrExited, fault, "exited (exit status 3) after 5 of 10 answers"},
		{"killed", ErrExited, fault, "exited (signal: killed) after 5 of 10 answers"},
		{"short", ErrTimeout, 19, "9 of 10 answers read"},
		{"extra", ErrCount, -1, "more lines than the reply holds"},
		{"stranger", ErrNotMember, fault, `node "ghost" is not a member of membership 1 (4 nodes`},
		{"garbage", ErrGarbage, fault, `node ID "node\x01zero"`},
		{"twoids", ErrCount, fault, "2 node IDs for R = 1"},
		{"hang", ErrTimeout, 10, "0 of 10 answers read"},
		{"huge", ErrLineTooLong, fault, "longer than 65536 bytes"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			cfg := helper(t, tc.mode, fmt.Sprint("CHBENCH_HELPER_AT=", fault))
			cfg.Batch, cfg.Timeout = 10, 500*time.Millisecond
			p := start(t, cfg)
			l := newLocator(t, p, defaultNodes(t, 4))
			ks := keys(t, 30, 1)
			begin := time.Now()
			err := l.LocateKeys(ks, make([]int, len(ks)))
			took := time.Since(begin)
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, tc.cause) {
				t.Fatalf("error %v, want an *Error wrapping %v", err, tc.cause)
			}
			if e.Request != "locate" || e.Batch != 1 || e.Batches != 3 || e.First != 10 || e.Last != 19 || e.Membership != 1 {
				t.Errorf("error locates the failure at %s batch %d of %d (keys %d-%d) membership %d, want locate batch 1 of 3 (keys 10-19) membership 1",
					e.Request, e.Batch, e.Batches, e.First, e.Last, e.Membership)
			}
			if e.Key != tc.key || (tc.key >= 0 && e.KeyText != ks[tc.key]) {
				t.Errorf("error names key %d %q, want %d", e.Key, e.KeyText, tc.key)
			}
			msg := err.Error()
			for _, want := range []string{"external helper-" + tc.mode, "locate batch 2 of 3 (keys 10 to 19)", tc.detail} {
				if !strings.Contains(msg, want) {
					t.Errorf("message %q lacks %q", msg, want)
				}
			}
			if tc.key >= 0 && !strings.Contains(msg, fmt.Sprintf("key %d %q", tc.key, ks[tc.key])) {
				t.Errorf("message %q does not name key %d %q", msg, tc.key, ks[tc.key])
			}
			if tc.mode == "crash" && !strings.Contains(msg, "crashing on purpose at answer 15") {
				t.Errorf("message %q lacks the program's stderr", msg)
			}
			// The deadline is 0.5 s; killing and reaping is bounded by exitWait.
			if took > cfg.Timeout+exitWait {
				t.Errorf("the failed call took %v", took)
			}
			gone(t, p)
			err2 := l.LocateKeys(ks[:1], make([]int, 1))
			if !errors.Is(err2, tc.cause) || !strings.Contains(err2.Error(), "stopped by an earlier failure") {
				t.Errorf("a later request: %v, want the earlier failure", err2)
			}
			if _, err3 := p.New(defaultNodes(t, 2)); !errors.Is(err3, tc.cause) {
				t.Errorf("a later membership: %v, want the earlier failure", err3)
			}
			if !errors.Is(p.Err(), tc.cause) {
				t.Errorf("Err() = %v", p.Err())
			}
		})
	}
}

// A program that replies error to a membership reports its message with
// the request, and stays usable: the next membership and lookups work.
func TestReplyErrorKeepsProgram(t *testing.T) {
	p := start(t, helper(t, "refuse"))
	_, err := p.New(defaultNodes(t, 4))
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrReply) || e.Request != "members" || e.Membership != 1 ||
		!strings.Contains(err.Error(), `"capacity 3 exceeded"`) {
		t.Fatalf("error %v, want an *Error wrapping ErrReply for members 1 with the program's message", err)
	}
	l := newLocator(t, p, defaultNodes(t, 3))
	if l.ID() != 2 {
		t.Errorf("membership ID %d, want 2 (IDs count every membership sent)", l.ID())
	}
	ks := keys(t, 50, 2)
	owners := make([]int, len(ks))
	if err := l.LocateKeys(ks, owners); err != nil {
		t.Fatal(err)
	}
	for i, k := range ks {
		if owners[i] != modOwner(k, 3) {
			t.Fatalf("key %q: owner %d, want %d", k, owners[i], modOwner(k, 3))
		}
	}
}

// The handshake is checked fact by fact: a wrong version, a missing,
// unknown, repeated or out-of-range fact, a bad name and garbage are each
// an error naming what is wrong, and the program is stopped; a complete
// handshake gives the name (decoded) and every fact.
func TestHandshake(t *testing.T) {
	for _, tc := range []struct{ reply, want string }{
		{"ok 2 x weighted=yes leave=any ordered=no", `handshake version "2": chbench speaks version 1`},
		{"ok 1", "want ok, the version 1, the placement's name and its facts"},
		{"ok 1 x weighted=yes leave=any", "lacks the fact ordered"},
		{"ok 1 x weighted=maybe leave=any ordered=no", `fact "weighted": value "maybe" is not one of yes, no`},
		{"ok 1 x wieghted=yes leave=any ordered=no", `unknown handshake fact "wieghted"`},
		{"ok 1 x weighted=yes weighted=no leave=any ordered=no", `fact "weighted=no": want NAME=VALUE, each name once`},
		{"ok 1 x replicas=9 weighted=yes leave=any ordered=no", `fact "replicas": value "9" is not one of 1 to 8`},
		{"ok 1 x leave=first weighted=yes ordered=no", `value "first" is not one of any, last`},
		{"ok 1 a%0Ab weighted=yes leave=any ordered=no", `placement name "a%0Ab"`},
		{"error I speak version 2 only", `the program replied error: "I speak version 2 only"`},
		{"hi there", `reply begins with "hi", want ok or error`},
	} {
		begin := time.Now()
		_, err := Start(context.Background(), helper(t, "hello", "CHBENCH_HELPER_HELLO="+tc.reply))
		var e *Error
		if !errors.As(err, &e) || e.Request != "hello" || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("handshake %q: error %v, want an *Error of hello containing %q", tc.reply, err, tc.want)
		}
		if took := time.Since(begin); took > closeGrace+exitWait {
			t.Errorf("handshake %q: Start took %v", tc.reply, took)
		}
	}
	p := start(t, helper(t, "hello", "CHBENCH_HELPER_HELLO=ok 1 my%20ring weighted=no leave=last ordered=yes replicas=3 stateful=yes"))
	want := algorithms.Facts{Weighted: false, OnlyLastLeaves: true, Ordered: true, Replicas: 3, Stateful: true}
	if p.Name() != "my ring" || p.Facts() != want {
		t.Errorf("name %q facts %+v, want \"my ring\" %+v", p.Name(), p.Facts(), want)
	}
}

// The bytes chbench writes are exactly the documented requests, with keys
// and IDs escaped, batches of the configured size, membership IDs counted
// from 1 and a Rebalance naming its parent; the same calls write the same
// bytes again.
func TestBytesSent(t *testing.T) {
	const want = "hello 1\n" +
		"members 1 0 2\na 1\nb%20c 0.5\n" +
		"locate 1 1 2\nk1\n\n" +
		"locate 1 1 1\nx%20y\n" +
		"members 2 1 3\na 1\nb%20c 0.5\nd 2.5e-05\n" +
		"locate 2 2 1\n%FF%00\n" +
		"drop 1\n"
	var got [2]string
	for run := range got {
		file := filepath.Join(t.TempDir(), "sent")
		cfg := helper(t, "record", "CHBENCH_HELPER_FILE="+file)
		cfg.Batch = 2
		p := start(t, cfg)
		l := newLocator(t, p, []algorithms.Node{{ID: "a", Weight: 1}, {ID: "b c", Weight: 0.5}})
		if err := l.LocateKeys([]string{"k1", "", "x y"}, make([]int, 3)); err != nil {
			t.Fatal(err)
		}
		next, err := l.Rebalance([]algorithms.Node{{ID: "a", Weight: 1}, {ID: "b c", Weight: 0.5}, {ID: "d", Weight: 2.5e-5}})
		if err != nil {
			t.Fatal(err)
		}
		if err := next.ReplicateKeys([]string{"\xff\x00"}, 2, make([]int, 2)); err != nil {
			t.Fatal(err)
		}
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		got[run] = string(b)
	}
	if got[0] != want {
		t.Errorf("bytes sent:\n%q\nwant\n%q", got[0], want)
	}
	if got[1] != got[0] {
		t.Errorf("a second run sent other bytes:\n%q\n%q", got[1], got[0])
	}
}

// A Rebalance leaves the old Locator answering for the old membership:
// the program holds both, and a movement compares them key by key.
func TestRebalanceKeepsOld(t *testing.T) {
	p := start(t, helper(t, "mod"))
	old := newLocator(t, p, defaultNodes(t, 3))
	next, err := old.Rebalance(defaultNodes(t, 4))
	if err != nil {
		t.Fatal(err)
	}
	ks := keys(t, 200, 4)
	a, b := make([]int, len(ks)), make([]int, len(ks))
	if err := old.LocateKeys(ks, a); err != nil {
		t.Fatal(err)
	}
	if err := next.LocateKeys(ks, b); err != nil {
		t.Fatal(err)
	}
	for i, k := range ks {
		if a[i] != modOwner(k, 3) || b[i] != modOwner(k, 4) {
			t.Fatalf("key %q: owners %d and %d, want %d under 3 nodes and %d under 4", k, a[i], b[i], modOwner(k, 3), modOwner(k, 4))
		}
	}
}

// procState returns the state letter of process pid from /proc ('Z' for a
// zombie), or 0 when there is no such process.
func procState(pid int) byte {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 || i+2 >= len(b) {
		return 0
	}
	return b[i+2]
}

// waitDead waits up to 10 s until process pid is gone or a zombie (a
// grandchild's zombie is reaped by init, not by chbench).
func waitDead(t *testing.T, pid int, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if s := procState(pid); s == 0 || s == 'Z' {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s (pid %d) still running 10 s later", what, pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Close kills everything the program forked: a grandchild started by the
// program dies with it.
func TestCloseKillsGrandchildren(t *testing.T) {
	file := filepath.Join(t.TempDir(), "pid")
	p := start(t, helper(t, "fork", "CHBENCH_HELPER_FILE="+file))
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	fmt.Sscan(string(b), &pid)
	if s := procState(pid); s == 0 || s == 'Z' {
		t.Fatalf("grandchild %d not running before Close", pid)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	gone(t, p)
	waitDead(t, pid, "the program's grandchild")
}

// A program that ignores the end of its input is killed one second after
// Close closes it; Close returns the same result when called again, and
// requests after it fail with ErrClosed.
func TestCloseKillsDeafProgram(t *testing.T) {
	p := start(t, helper(t, "deaf"))
	l := newLocator(t, p, defaultNodes(t, 2))
	begin := time.Now()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(begin); took < closeGrace || took > closeGrace+exitWait {
		t.Errorf("Close took %v, want the grace of %v and a kill", took, closeGrace)
	}
	gone(t, p)
	if err := p.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if err := l.LocateKeys([]string{"a"}, make([]int, 1)); !errors.Is(err, ErrClosed) {
		t.Errorf("locate after Close: %v, want ErrClosed", err)
	}
	if err := l.Close(); err != nil {
		t.Errorf("closing a membership of a closed program: %v, want nil", err)
	}
}

// Cancelling the context given to Start (the command line's interrupt)
// kills the program at once: a request waiting on it fails with
// ErrInterrupted long before its deadline.
func TestContextKills(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := helper(t, "hang", "CHBENCH_HELPER_AT=0")
	cfg.Timeout = time.Minute
	p, err := Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	l := newLocator(t, p, defaultNodes(t, 2))
	time.AfterFunc(200*time.Millisecond, cancel)
	begin := time.Now()
	err = l.LocateKeys([]string{"a", "b"}, make([]int, 2))
	if !errors.Is(err, ErrInterrupted) || !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want ErrInterrupted wrapping context.Canceled", err)
	}
	if took := time.Since(begin); took > 200*time.Millisecond+exitWait {
		t.Errorf("the interrupted request took %v", took)
	}
	gone(t, p)
}

// When chbench itself is interrupted (SIGINT cancels its context) the
// program is killed and reaped before chbench exits; when chbench is
// killed outright (SIGKILL, no cleanup runs) the kernel kills the program
// (Pdeathsig). A parent process stands for chbench.
func TestChbenchInterrupted(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "pid")
			parent := exec.Command(exe)
			parent.Env = append(os.Environ(), helperEnv+"=parent", "CHBENCH_HELPER_FILE="+file, "GORACE=atexit_sleep_ms=0")
			var out strings.Builder
			parent.Stdout = &out
			if err := parent.Start(); err != nil {
				t.Fatal(err)
			}
			defer parent.Process.Kill()
			var pid int
			for deadline := time.Now().Add(10 * time.Second); pid == 0; time.Sleep(10 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("the parent did not start its program within 10 s")
				}
				if b, err := os.ReadFile(file); err == nil && len(b) > 0 {
					fmt.Sscan(string(b), &pid)
				}
			}
			parent.Process.Signal(sig)
			waited := make(chan error, 1)
			go func() { waited <- parent.Wait() }()
			select {
			case err := <-waited:
				if sig == syscall.SIGINT && err != nil {
					t.Errorf("parent exited with %v, output %q", err, out.String())
				}
			case <-time.After(10 * time.Second):
				t.Fatal("parent still running 10 s after the signal")
			}
			if sig == syscall.SIGINT {
				if !strings.Contains(out.String(), "locate:") || !strings.Contains(out.String(), "interrupted") {
					t.Errorf("parent printed %q, want the interrupted locate", out.String())
				}
				if s := procState(pid); s != 0 {
					t.Errorf("program %d in state %c after its parent exited: not reaped", pid, s)
				}
				return
			}
			waitDead(t, pid, "the program of a killed parent")
		})
	}
}

// Lookups from several goroutines at once, on two memberships of one
// program, each get their own answers (run under -race).
func TestConcurrentLookups(t *testing.T) {
	cfg := helper(t, "mod")
	cfg.Batch = 7
	p := start(t, cfg)
	ls := []*Locator{newLocator(t, p, defaultNodes(t, 3)), newLocator(t, p, defaultNodes(t, 5))}
	ks := keys(t, 300, 5)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l := ls[g%2]
			owners := make([]int, len(ks))
			if err := l.LocateKeys(ks, owners); err != nil {
				errs <- err
				return
			}
			for i, k := range ks {
				if want := modOwner(k, len(l.Nodes())); owners[i] != want {
					errs <- fmt.Errorf("goroutine %d key %q: owner %d, want %d", g, k, owners[i], want)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// Requests chbench can refuse before sending are refused with an error
// naming the bad value: unequal weights for a program that declared
// weighted=no, R above the program's replicas fact or the membership size,
// a short owners slice, and a closed membership (also as a Rebalance
// parent). The program stays usable.
func TestRefusedBeforeSending(t *testing.T) {
	p := start(t, helper(t, "hello", "CHBENCH_HELPER_HELLO=ok 1 h weighted=no leave=any ordered=no replicas=2"))
	_, err := p.New([]algorithms.Node{{ID: "a", Weight: 1}, {ID: "b", Weight: 3}})
	if err == nil || !strings.Contains(err.Error(), `node "b" 3`) || !strings.Contains(err.Error(), "weighted=no") {
		t.Errorf("unequal weights: %v", err)
	}
	if _, err := p.New([]algorithms.Node{{ID: "a", Weight: 1}, {ID: "a", Weight: 1}}); err == nil || !strings.Contains(err.Error(), `duplicate node ID "a"`) {
		t.Errorf("duplicate IDs: %v", err)
	}
	l := newLocator(t, p, defaultNodes(t, 3))
	for r, want := range map[int]string{3: "serves at most 2", 0: "replicas 0", 4: "replicas 4"} {
		if err := l.ReplicateKeys([]string{"a"}, r, make([]int, 8)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("R = %d: %v, want %q", r, err, want)
		}
	}
	if err := l.LocateKeys([]string{"a", "b"}, make([]int, 1)); err == nil || !strings.Contains(err.Error(), "1 entries for 2 keys") {
		t.Errorf("short owners: %v", err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.LocateKeys([]string{"a"}, make([]int, 1)); err == nil || !strings.Contains(err.Error(), "membership 1 is closed") {
		t.Errorf("locate on a closed membership: %v", err)
	}
	if _, err := l.Rebalance(defaultNodes(t, 2)); err == nil || !strings.Contains(err.Error(), "membership 1 is closed") {
		t.Errorf("rebalance of a closed membership: %v", err)
	}
	if p.Err() != nil {
		t.Errorf("the program was stopped: %v", p.Err())
	}
}

// A bad configuration is an error naming the value; a program that cannot
// start, or exits before its handshake, is an error saying so.
func TestStartErrors(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{}, "no program"},
		{Config{Command: "x", Args: []string{"y"}}, `both a command "x" and arguments`},
		{Config{Args: []string{""}}, "empty program name"},
		{Config{Command: "x", Timeout: -time.Second}, "timeout -1s"},
		{Config{Command: "x", Batch: MaxBatch + 1}, "batch 65537"},
		{Config{Args: []string{"/nonexistent/placement"}}, `start "/nonexistent/placement"`},
		{Config{Command: "echo starting >&2; exit 7"}, "exit status 7"},
		{Config{Command: "echo starting >&2; exit 7"}, "its stderr ends: starting"},
	} {
		_, err := Start(context.Background(), tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Start(%+v): %v, want an error containing %q", tc.cfg, err, tc.want)
		}
	}
}

// A shell command (the form of -algo exec:CMD) runs through sh -c, with
// its quoting.
func TestShellCommand(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfg, ok := Parse("exec:GORACE=atexit_sleep_ms=0 " + helperEnv + "=mod '" + exe + "'")
	if !ok {
		t.Fatal("Parse refused an exec: name")
	}
	if _, ok := Parse("ring"); ok {
		t.Error("Parse took a catalog name for a command")
	}
	p := start(t, cfg)
	l := newLocator(t, p, defaultNodes(t, 3))
	owners := make([]int, 1)
	if err := l.LocateKeys([]string{"user:1"}, owners); err != nil || owners[0] != modOwner("user:1", 3) {
		t.Errorf("owner %d, %v; want %d", owners[0], err, modOwner("user:1", 3))
	}
}
