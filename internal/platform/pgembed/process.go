package pgembed

import (
	"os/exec"
	"runtime"
	"syscall"
)

// process is a child started on a dedicated, locked OS thread.
//
// Why a locked thread: the server is started with a parent-death signal
// (PR_SET_PDEATHSIG, SIGKILL) so it dies with us even when we are SIGKILLed
// or crash, never leaving an orphaned postmaster holding the data directory.
// But the kernel delivers that signal when the *thread* that forked the child
// exits, not the process. Go threads are shared by all goroutines and the
// runtime does terminate a thread when a goroutine exits while locked to it
// (runtime.LockOSThread without Unlock), which any unrelated code may do. If
// the child were forked from such a thread, the database would be killed at a
// random moment. So the child is forked from a goroutine that locks its
// thread and stays in cmd.Wait until the child has exited: the thread cannot
// be reused or destroyed while the child lives.
type process struct {
	cmd  *exec.Cmd
	done chan struct{} // closed once the child has exited and been reaped
	err  error         // result of cmd.Wait; read only after done is closed
}

// startProcess starts cmd as described above and returns once it has been
// forked (or failed to).
func startProcess(cmd *exec.Cmd) (*process, error) {
	p := &process{cmd: cmd, done: make(chan struct{})}
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

// exited reports whether the child has exited.
func (p *process) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// wait blocks until the child exits and returns its Wait error.
func (p *process) wait() error {
	<-p.done
	return p.err
}

// childSysProcAttr is the SysProcAttr for initdb and postgres:
//   - Credential drops to the postgres user when we are root;
//   - Setpgid puts the child in its own process group, so a Ctrl-C in the
//     terminal reaches only us and we shut the server down in order (fast
//     shutdown via SIGINT in Stop) instead of it racing our own cleanup;
//   - the parent-death signal (Linux) kills it if we die (see process).
func childSysProcAttr(cred *syscall.Credential) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true, Credential: cred}
	setParentDeathSignal(a)
	return a
}
