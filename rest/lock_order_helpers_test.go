package rest_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// The lock-order races force their interleaving instead of hoping for
// it: the test holds a row lock in a transaction of its own, starts the
// racing requests one after the other, waits until each is queued behind
// it (or behind the request before it) in PostgreSQL, and only then lets
// go. PostgreSQL grants a lock to its waiters in the order they queued,
// so every run plays the same interleaving: the one in which two writes
// taking locks in opposite orders would deadlock.

// rowHold is the test's transaction holding row locks.
type rowHold struct{ tx pgx.Tx }

// hold locks the rows query selects (a SELECT … FOR UPDATE) until
// release.
func (f *fixture) hold(t *testing.T, query string, args ...any) *rowHold {
	t.Helper()
	ctx := context.Background()
	tx, err := f.env.DB.Pool.Begin(ctx)
	require.NoError(t, err)
	t.Cleanup(func() { _ = tx.Rollback(ctx) })
	tag, err := tx.Exec(ctx, query, args...)
	require.NoError(t, err)
	require.NotZero(t, tag.RowsAffected(), "the hold locks a row: %s", query)
	return &rowHold{tx: tx}
}

// release ends the hold; the requests queued behind it go on.
func (h *rowHold) release(t *testing.T) {
	t.Helper()
	require.NoError(t, h.tx.Rollback(context.Background()))
}

// awaitLockWaits returns once n sessions of the test's database wait for
// a lock: the requests started so far are queued, in the order they
// reached it. It asks PostgreSQL again at once, without sleeping.
func (f *fixture) awaitLockWaits(t *testing.T, n int) {
	t.Helper()
	ctx := context.Background() // no deadline of its own: the test binary's timeout guards a broken test
	for {
		var waiting int
		err := f.env.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&waiting)
		require.NoError(t, err, "waiting for %d requests to queue for a lock", n)
		if waiting == n {
			return
		}
	}
}

// race is a request started in the background, answered on done.
type race struct {
	done chan *testenv.Response
}

// start sends a request in the background.
func start(send func() *testenv.Response) *race {
	r := &race{done: make(chan *testenv.Response, 1)}
	go func() { r.done <- send() }()
	return r
}

// answer waits for the request's answer. It has no deadline of its own:
// writes deadlocked outside PostgreSQL's detection would hang the test
// until the test binary's timeout, which names it.
func (r *race) answer(t *testing.T) *testenv.Response {
	t.Helper()
	return <-r.done
}
