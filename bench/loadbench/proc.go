package main

import (
	"os/exec"
	"runtime"
	"syscall"
)

// proc is a child started from a dedicated, locked OS thread, with a
// parent-death signal where the OS has one (Linux). The kernel sends that
// signal when the forking *thread* exits, so the thread stays locked in
// cmd.Wait for the child's whole life (the same reasoning as pgembed's
// process.go): the server never outlives this program, even on SIGKILL.
type proc struct {
	cmd  *exec.Cmd
	done chan struct{} // closed once the child has exited
	err  error         // cmd.Wait's result, read after done
}

// startLocked starts cmd in its own process group (a Ctrl-C in the
// terminal reaches this program, which stops the child in order).
func startLocked(cmd *exec.Cmd) (*proc, error) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	setParentDeathSignal(cmd.SysProcAttr)
	p := &proc{cmd: cmd, done: make(chan struct{})}
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		p.err = cmd.Wait()
		close(p.done)
	}()
	if err := <-started; err != nil {
		return nil, err
	}
	return p, nil
}

// exited reports whether the child has exited.
func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}
