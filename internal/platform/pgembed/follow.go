package pgembed

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/jackc/pgx/v5"
)

// ErrNotRunning is returned (wrapped) by Retarget when no ready PostgreSQL
// serves the cluster at the moment: stopped, starting, or shutting down.
var ErrNotRunning = errors.New("pgembed: PostgreSQL is not running on this data directory")

// Retarget points cc at wherever the cluster accepts connections now: the
// address and port in its postmaster.pid, and the password in the data
// dir's password file. It is meant for pgxpool.Config.BeforeConnect (see
// store.WithConnTarget), so that a pool opened by a process that attached to
// another process's server keeps working after that owner restarts
// PostgreSQL, which then listens on another port (and, for a cluster of an
// older version upgraded on that restart, requires a password). It reads
// two small files per new connection, not per query.
//
// When no ready server runs on the cluster it returns an error wrapping
// ErrNotRunning and leaves cc alone; the connection attempt fails and the
// next one looks again.
func (i *Instance) Retarget(_ context.Context, cc *pgx.ConnConfig) error {
	pf, err := readPIDFile(filepath.Join(i.dataDir, pidFileName))
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("%w (%s)", ErrNotRunning, i.dataDir)
	case err != nil:
		return fmt.Errorf("pgembed: %w", err)
	case pf.Status != "ready" || pf.Port <= 0 || pf.Port > 65535 || !postmasterAlive(pf.PID):
		return fmt.Errorf("%w (%s: postmaster %d is %q)", ErrNotRunning, i.dataDir, pf.PID, pf.Status)
	}
	password, err := readPassword(i.root)
	if err != nil {
		return err
	}
	if password == "" {
		password = i.password
	}
	cc.Host = hostFor(pf.ListenAddr)
	cc.Port = uint16(pf.Port)
	cc.Password = password
	// Alternative hosts parsed from the URL would still name the old port.
	cc.Fallbacks = nil
	return nil
}
