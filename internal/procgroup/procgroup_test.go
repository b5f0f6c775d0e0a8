package procgroup

import (
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Tail keeps exactly the last Max bytes across writes of any size, and
// reports a blank output as "(no output)".
func TestTail(t *testing.T) {
	tl := &Tail{Max: 8}
	if got := tl.String(); got != "(no output)" {
		t.Errorf("empty tail: %q", got)
	}
	tl.Write([]byte("0123"))
	tl.Write([]byte("456789ab"))
	if got := tl.String(); got != "456789ab" {
		t.Errorf("tail %q, want the last 8 bytes 456789ab", got)
	}
	tl.Write([]byte("cdefghijklmnop"))
	if got := tl.String(); got != "ijklmnop" {
		t.Errorf("tail %q, want ijklmnop", got)
	}
}

// Kill reaches a grandchild: a shell that forks a sleep in the background
// and then waits is killed with the sleep, so the pipe both hold open is
// closed and reading it ends within the bound.
func TestKillReachesGrandchildren(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh in PATH")
	}
	cmd := exec.Command(sh, "-c", "sleep 60 & echo started; wait")
	Set(cmd)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	n, _ := out.Read(buf)
	if !strings.Contains(string(buf[:n]), "started") {
		t.Fatalf("shell wrote %q", buf[:n])
	}
	Kill(cmd)
	done := make(chan []byte, 1)
	go func() {
		rest := make([]byte, 64)
		m, _ := out.Read(rest) // EOF once every holder of the pipe is dead
		done <- rest[:m]
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("pipe still open 10 s after killing the group: the background sleep survived")
	}
	cmd.Wait()
}
