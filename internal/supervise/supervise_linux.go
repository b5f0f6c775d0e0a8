package supervise

import (
	"os/exec"
	"syscall"
)

// setParentDeath has the kernel send the worker SIGTERM should the
// supervisor die first (killed by SIGKILL), so that the worker removes
// its temporary files and ends as on an interrupt.
func setParentDeath(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
