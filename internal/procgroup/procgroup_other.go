//go:build !unix

package procgroup

import "os/exec"

// Set does nothing where process groups do not exist.
func Set(cmd *exec.Cmd) {}

// Kill kills the process itself. It does nothing before cmd is started.
func Kill(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}
