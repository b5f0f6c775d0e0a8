package live

import (
	"os/exec"
	"syscall"
)

// setProcessGroup makes the command the leader of a new process group, so
// killGroup reaches every process it forks, and has the kernel kill it
// should this process die without stopping it (a test binary killed by
// -timeout runs no cleanup).
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup sends SIGKILL to the command's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
