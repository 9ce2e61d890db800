// Package childproc starts child processes that are meant to die with this
// one: the embedded PostgreSQL (pgembed) and the servers the load bench
// drives.
//
// Why a locked thread: such a child is started with a parent-death signal
// (PR_SET_PDEATHSIG, set by the caller in cmd.SysProcAttr) so that it dies
// with us even when we are SIGKILLed or crash, never left orphaned holding
// a data directory or a port. But the kernel delivers that signal when the
// *thread* that forked the child exits, not the process. Go threads are
// shared by all goroutines and the runtime does terminate a thread when a
// goroutine exits while locked to it (runtime.LockOSThread without Unlock),
// which any unrelated code may do. If the child were forked from such a
// thread, it would be killed at a random moment. So the child is forked
// from a goroutine that locks its thread and stays in cmd.Wait until the
// child has exited: the thread cannot be reused or destroyed while the
// child lives.
package childproc

import (
	"context"
	"os/exec"
	"runtime"
)

// Process is a child started on a dedicated, locked OS thread.
type Process struct {
	Cmd  *exec.Cmd
	done chan struct{} // closed once the child has exited and been reaped
	err  error         // result of cmd.Wait; read only after done is closed
}

// Start starts cmd as described in the package comment and returns once
// it has been forked (or failed to).
func Start(cmd *exec.Cmd) (*Process, error) {
	p := &Process{Cmd: cmd, done: make(chan struct{})}
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		// Unlocking after Wait is safe: the child is gone, so nothing
		// depends on this thread anymore and it can return to the pool.
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

// Done is closed once the child has exited.
func (p *Process) Done() <-chan struct{} { return p.done }

// Exited reports whether the child has exited.
func (p *Process) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// Wait blocks until the child exits and returns its Wait error.
func (p *Process) Wait() error {
	<-p.done
	return p.err
}

// WaitOrKill waits for a child that is meant to finish on its own (a
// one-shot command); when ctx ends first, it kills the child, reaps it and
// returns ctx's error.
func (p *Process) WaitOrKill(ctx context.Context) error {
	select {
	case <-p.done:
		return p.err
	case <-ctx.Done():
		_ = p.Cmd.Process.Kill()
		_ = p.Wait()
		return ctx.Err()
	}
}
