package testenv

import (
	"context"

	"github.com/riverqueue/river"

	"github.com/frame-oss/payments-server/internal/testenv/testdb"
)

// RunJob enqueues args and waits until the started job engine (StartJobs)
// has finished that very job, failing the test unless it completed. A
// test asserts on what a job did, or did not do, once it has run, instead
// of sleeping through a window in which a loaded machine may not have run
// it: the wait has no deadline of its own (the test binary's timeout is
// its guard).
func (e *Env) RunJob(args river.JobArgs) {
	e.T.Helper()
	ctx := context.Background()
	finished, cancel := e.Jobs.Finished()
	defer cancel()
	tx, err := e.DB.Pool.Begin(ctx)
	if err != nil {
		e.T.Fatalf("testenv: run job %s: %v", args.Kind(), err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	res, err := e.Jobs.InsertTx(ctx, tx, args, nil)
	if err != nil {
		e.T.Fatalf("testenv: run job %s: %v", args.Kind(), err)
	}
	if err := tx.Commit(ctx); err != nil {
		e.T.Fatalf("testenv: run job %s: %v", args.Kind(), err)
	}
	for ev := range finished {
		if ev.Job.ID != res.Job.ID {
			continue
		}
		if ev.Kind != river.EventKindJobCompleted {
			e.T.Fatalf("testenv: job %s ended %s: %v", args.Kind(), ev.Kind, ev.Job.Errors)
		}
		return
	}
	e.T.Fatalf("testenv: the job engine stopped before job %s ran", args.Kind())
}

// AwaitWrites checks done now and again after each committed statement
// writing one of tables of the Env's database (testdb.AwaitWrites): how a
// test waits on what the job engine, the webhook dispatcher or another
// process has written.
func (e *Env) AwaitWrites(done func() bool, tables ...string) {
	e.T.Helper()
	testdb.AwaitWrites(e.T, e.URL, done, tables...)
}
