package store_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv/testdb"
)

// A deadlock PostgreSQL breaks is answered as a retryable 409
// lock_conflict, never a 500: two transactions take two locks in opposite
// orders, which deadlocks whichever of them asks for its second lock
// first, so exactly one is given up on and the other commits.
func TestADeadlockIsARetryable409(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := store.Open(ctx, testdb.NewDatabaseURL(t), 4)
	require.NoError(t, err)
	t.Cleanup(db.Close)
	begin := func(first int64) pgx.Tx {
		tx, err := db.Pool.Begin(ctx)
		require.NoError(t, err)
		t.Cleanup(func() { _ = tx.Rollback(ctx) })
		_, err = tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", first)
		require.NoError(t, err)
		return tx
	}
	one, two := begin(1), begin(2)
	errs := make(chan error, 2)
	second := func(tx pgx.Tx, key int64) {
		_, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", key)
		if err == nil {
			err = tx.Commit(ctx)
		} else {
			_ = tx.Rollback(ctx)
		}
		errs <- err
	}
	go second(one, 2)
	go second(two, 1)
	var failed []error
	for range 2 {
		if err := <-errs; err != nil {
			failed = append(failed, err)
		}
	}
	require.Len(t, failed, 1, "one is given up on, the other commits")
	require.True(t, store.IsLockConflict(failed[0]), "%v", failed[0])
	e := apierr.From(failed[0])
	require.Equal(t, 409, e.Status)
	require.Equal(t, apierr.CodeLockConflict, e.Code)
	require.Equal(t, "1", e.Headers["Retry-After"])
	require.NotContains(t, e.Message, "deadlock", "the cause is logged, never echoed")
}
