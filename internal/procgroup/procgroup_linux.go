package procgroup

import (
	"os/exec"
	"syscall"
)

// Set makes cmd (not yet started) the leader of a new process group, so
// that [Kill] reaches every process it forks, and has the kernel send it
// SIGKILL should the process that started it die without stopping it (a
// program killed by a signal runs no cleanup). It replaces
// cmd.SysProcAttr.
func Set(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// Kill sends SIGKILL to the process group of cmd, started after [Set]. It
// does nothing before cmd is started.
func Kill(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
