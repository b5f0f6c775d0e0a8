//go:build unix && !linux

package procgroup

import (
	"os/exec"
	"syscall"
)

// Set makes cmd (not yet started) the leader of a new process group, so
// that [Kill] reaches every process it forks. It replaces
// cmd.SysProcAttr.
func Set(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// Kill sends SIGKILL to the process group of cmd, started after [Set]. It
// does nothing before cmd is started.
func Kill(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
