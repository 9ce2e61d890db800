package pgembed

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/clock"
)

// lockFile takes an exclusive flock(2) on path, waiting until ctx is done.
// It serializes the "is a server running? if not, start one" decision of
// concurrent launchers (e.g. `serve` and `migrate` started together) so only
// one postmaster is ever started for a data directory. flock locks belong to
// the open file description, so they also exclude goroutines of the same
// process, and the kernel releases them if we die.
func lockFile(ctx context.Context, path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("pgembed: open lock file: %w", err)
	}
	// Tighten a lock file an older version created 0644 (best effort: it
	// may belong to another user who shares the data dir with us).
	_ = f.Chmod(0o600)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() {
				_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
				_ = f.Close()
			}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			_ = f.Close()
			return nil, fmt.Errorf("pgembed: lock %s: %w", path, err)
		}
		if err := clock.Sleep(ctx, 20*time.Millisecond); err != nil {
			_ = f.Close()
			return nil, fmt.Errorf("pgembed: waiting for lock %s: %w", path, err)
		}
	}
}
