package main

import (
	"context"
	"errors"
	"flag"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/flagenv"
	"github.com/frame-oss/payments-server/internal/platform/pgembed"
	"github.com/frame-oss/payments-server/internal/platform/store"
)

// replicaFlags are serve's read replica settings (docs/scaling.md): the
// replicas' URLs (DATABASE_REPLICA_URL, separated by spaces: a multi-host
// URL has commas of its own), or --replica for a local streaming standby
// of the embedded PostgreSQL, and the lag bound past which a replica stops
// serving.
type replicaFlags struct {
	local    bool
	maxLag   time.Duration
	interval time.Duration
	envErr   error
}

// replicaSubdir is where --replica keeps the standby, inside the data dir.
const replicaSubdir = "replica"

func (f *replicaFlags) register(fs *flag.FlagSet) {
	f.maxLag, f.interval = store.DefaultReplicaMaxLag, store.DefaultReplicaCheckInterval
	e := flagenv.New(fs, os.Getenv)
	e.Bool(&f.local, "replica", "DATABASE_REPLICA_LOCAL",
		"run a local streaming standby of the embedded PostgreSQL (in <data-dir>/replica) and read lists from it")
	e.Duration(&f.maxLag, "replica-max-lag", "DATABASE_REPLICA_MAX_LAG",
		"a replica further behind the primary than this serves no read until it catches up; default 5s")
	e.Duration(&f.interval, "replica-check-interval", "DATABASE_REPLICA_CHECK_INTERVAL",
		"how often the replicas' positions are checked; default 1s")
	f.envErr = e.Err()
}

// open connects the replicas to db and checks them every interval until
// ctx ends; closeFn stops the local standby (if --replica started one).
// Without replicas it does nothing.
func (f *replicaFlags) open(ctx context.Context, db *store.DB, primary *pgembed.Instance, dataDir string, logger *slog.Logger) (closeFn func(), err error) {
	if f.envErr != nil {
		return nil, f.envErr
	}
	if f.maxLag <= 0 || f.interval <= 0 {
		return nil, errors.New("serve: --replica-max-lag and --replica-check-interval must be positive")
	}
	urls := strings.Fields(os.Getenv("DATABASE_REPLICA_URL"))
	closeFn = func() {}
	if f.local {
		if primary == nil {
			return nil, errors.New("serve: --replica runs a standby of the embedded PostgreSQL; with DATABASE_URL, name replicas in DATABASE_REPLICA_URL")
		}
		standby, err := pgembed.StartStandby(ctx, primary, pgembed.StandbyOptions{
			DataDir: filepath.Join(dataDir, replicaSubdir), Logger: logger})
		if err != nil {
			return nil, err
		}
		closeFn = func() { _ = standby.Stop() }
		urls = append(urls, standby.URL(embeddedDatabase))
	}
	if len(urls) == 0 {
		return closeFn, nil
	}
	if err := db.OpenReplicas(ctx, store.ReplicaConfig{URLs: urls, MaxLag: f.maxLag, Clock: clock.Real{},
		Logger: logger}); err != nil {
		closeFn()
		return nil, err
	}
	for _, s := range db.Replicas().States() {
		logger.Info("read replica", "replica", s.Name, "serving", s.Serving, "lag", s.Lag.String())
	}
	go db.Replicas().Run(ctx, f.interval)
	return closeFn, nil
}
