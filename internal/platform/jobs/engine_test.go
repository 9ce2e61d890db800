package jobs_test

import (
	"context"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv/testdb"
)

// newEngine migrates River's tables and builds an engine purging every second
// (the shortest interval River advises).
func newEngine(t *testing.T, db *store.DB, clk clock.Clock) *jobs.Engine {
	t.Helper()
	require.NoError(t, jobs.Migrate(context.Background(), db.Pool))
	e, err := jobs.New(db.Pool, jobs.Config{Clock: clk, MaxWorkers: 2, IdempotencyPurgeInterval: time.Second})
	require.NoError(t, err)
	return e
}

// stop stops e; a Stop that never returns is bounded by the test
// binary's timeout, not by a stretch of time asserted here.
func stop(t *testing.T, e *jobs.Engine) {
	t.Helper()
	require.NoError(t, e.Stop(context.Background()))
}

func TestEngineRunsThePurgePeriodically(t *testing.T) {
	db := openStore(t)
	clk := clock.NewManual(testdb.Start)
	now := clk.Now()
	m := insertMerchant(t, db, now)
	insertKeys(t, db, m, "before-start", 3, now.Add(-time.Hour))
	insertKeys(t, db, m, "live", 2, now.Add(time.Hour))

	e := newEngine(t, db, clk)
	require.NoError(t, e.Start(context.Background()))
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			stop(t, e)
		}
	})

	eventually(t, "the purge at start", func() bool { return countKeys(t, db, "before-start") == 0 })

	// Keys that expire later are purged by a later run.
	insertKeys(t, db, m, "later", 2, now.Add(30*time.Minute))
	clk.Advance(time.Hour)
	eventually(t, "a periodic purge", func() bool { return countKeys(t, db, "later") == 0 })
	require.Zero(t, countKeys(t, db, "live"), "the advanced clock expired these too")

	stop(t, e)
	stopped = true
}

func TestEngineKeepsUnexpiredKeys(t *testing.T) {
	db := openStore(t)
	clk := clock.NewManual(testdb.Start)
	now := clk.Now()
	m := insertMerchant(t, db, now)
	insertKeys(t, db, m, "old", 1, now.Add(-time.Second))
	insertKeys(t, db, m, "live", 2, now.Add(time.Second))

	e := newEngine(t, db, clk)
	require.NoError(t, e.Start(context.Background()))
	eventually(t, "the purge at start", func() bool { return countKeys(t, db, "old") == 0 })
	stop(t, e)
	require.Equal(t, 2, countKeys(t, db, "live"))
}

func TestEngineStopWithoutStart(t *testing.T) {
	db := openStore(t)
	e := newEngine(t, db, clock.NewManual(testdb.Start))
	stop(t, e)
}

func TestEngineInsertTxFollowsTheTransaction(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	e := newEngine(t, db, clock.NewManual(testdb.Start))
	countJobs := func() int {
		var n int
		require.NoError(t, db.Pool.QueryRow(ctx,
			`SELECT count(*) FROM river_job WHERE kind = $1`, jobs.PurgeIdempotencyKeysArgs{}.Kind()).Scan(&n))
		return n
	}

	tx, err := db.Pool.Begin(ctx)
	require.NoError(t, err)
	_, err = e.InsertTx(ctx, tx, jobs.PurgeIdempotencyKeysArgs{}, nil)
	require.NoError(t, err)
	require.NoError(t, tx.Rollback(ctx))
	require.Zero(t, countJobs(), "a rolled-back transaction leaves no job")

	tx, err = db.Pool.Begin(ctx)
	require.NoError(t, err)
	_, err = e.InsertTx(ctx, tx, jobs.PurgeIdempotencyKeysArgs{}, &river.InsertOpts{Queue: river.QueueDefault})
	require.NoError(t, err)
	require.NoError(t, tx.Commit(ctx))
	require.Equal(t, 1, countJobs(), "a committed transaction keeps its job")
}
