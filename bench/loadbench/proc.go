package main

import (
	"os/exec"
	"syscall"

	"github.com/frame-oss/payments-server/internal/platform/childproc"
)

// startLocked starts cmd in its own process group (a Ctrl-C in the
// terminal reaches this program, which stops the child in order), with a
// parent-death signal where the OS has one (Linux), from a locked thread
// (childproc): the server never outlives this program, even on SIGKILL.
func startLocked(cmd *exec.Cmd) (*childproc.Process, error) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	setParentDeathSignal(cmd.SysProcAttr)
	return childproc.Start(cmd)
}
