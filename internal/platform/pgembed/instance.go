package pgembed

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/childproc"
)

// stopTimeout is how long Stop waits for a fast shutdown before SIGKILL.
const stopTimeout = 10 * time.Second

// Instance is a running PostgreSQL server, either started by this process
// (Owned) or found already running on the same data directory (attached).
type Instance struct {
	host     string
	port     int
	password string // the superuser's; "" for a trusting server of an older version
	root     string // the data dir (holds the password file)
	dataDir  string // the cluster directory (DataDir/pg)
	owned    bool

	// Owned instances only.
	proc         *childproc.Process
	removeOnStop []string // temp dirs deleted once the server is down
	log          *slog.Logger
	bins         Binaries // pg_ctl for Promote
	ru           *runAs   // who runs the server programs

	stopOnce sync.Once
	stopErr  error
}

// URL returns a connection URL for the given database as the superuser
// "postgres" with its password over TCP on the loopback interface, e.g.
// postgres://postgres:PASSWORD@127.0.0.1:PORT/DATABASE?sslmode=disable.
// The URL holds the password: do not log it. The port is the one the
// server had when Start returned; a pool that must outlive a restart of the
// server by its owner also uses Retarget.
func (i *Instance) URL(database string) string {
	return buildURL(i.host, i.port, i.password, database)
}

// Port is the TCP port the server listens on.
func (i *Instance) Port() int { return i.port }

// DataDir is the cluster directory (Options.DataDir/pg, or inside the temp
// dir for StartTemp).
func (i *Instance) DataDir() string { return i.dataDir }

// Owned reports whether this process started the server. When false, the
// server belongs to another process (typically a running `serve`), which
// decides when it stops.
func (i *Instance) Owned() bool { return i.owned }

// Stop shuts the server down if this process owns it: SIGINT (PostgreSQL's
// "fast" shutdown: abort open transactions, disconnect clients, checkpoint),
// then SIGKILL to the whole process group if it is not gone after
// stopTimeout. Temporary directories of StartTemp are removed afterwards.
// For an attached instance it does nothing. Safe to call more than once and
// from several goroutines; later calls return the first call's result.
func (i *Instance) Stop() error {
	if i == nil || !i.owned {
		return nil
	}
	i.stopOnce.Do(func() { i.stopErr = i.stop() })
	return i.stopErr
}

func (i *Instance) stop() error {
	var errs []error
	pid := i.proc.Cmd.Process.Pid
	if !i.proc.Exited() {
		_ = i.proc.Cmd.Process.Signal(os.Interrupt)
		t := time.NewTimer(stopTimeout)
		select {
		case <-i.proc.Done():
			t.Stop()
		case <-t.C:
			// Negative PID: the process group made by Setpgid.
			_ = syscall.Kill(-pid, syscall.SIGKILL)
			_ = i.proc.Cmd.Process.Kill()
			<-i.proc.Done()
			errs = append(errs, fmt.Errorf("pgembed: PostgreSQL (pid %d) did not shut down within %s; killed it", pid, stopTimeout))
		}
	}
	for _, d := range i.removeOnStop {
		if err := os.RemoveAll(d); err != nil {
			errs = append(errs, fmt.Errorf("pgembed: remove %s: %w", d, err))
		}
	}
	i.log.Info("stopped PostgreSQL", "pid", pid, "port", i.port)
	return errors.Join(errs...)
}
