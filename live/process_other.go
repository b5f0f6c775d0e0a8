//go:build !unix

package live

import "os/exec"

// setProcessGroup does nothing where process groups do not exist.
func setProcessGroup(cmd *exec.Cmd) {}

// killGroup kills the process itself.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}
