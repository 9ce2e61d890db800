package testclocks

import (
	"context"

	"github.com/riverqueue/river"

	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
)

// How the continuation's job ends without losing an advance handed off as
// it ends. The job is unique among the jobs not finished, so while it
// runs, a hand-off's enqueue joins it instead of making another; a job
// that found no clock advancing and then ended would leave such an
// advance waiting for the wall clock's run to notice it stalled. So the
// job ends in a transaction of its own: it takes the scope's hand-off
// lock (which every hand-off takes before its enqueue), looks again for a
// clock advancing, and marks itself completed in that transaction when
// there is none. A hand-off that committed before it took the lock is
// seen by that look (the job goes on); one that waits for the lock
// enqueues after the job has ended, which makes a new job.

// handOffLock names the advisory lock of a merchant and mode's hand-offs
// and of the end of its continuation (store.Tenant.Lock).
const handOffLock = "billing.advance_clocks"

// FinishStage is a point of the continuation's end (TestClocks.FinishHook).
type FinishStage int

const (
	// FinishFoundNone: a slice found no clock advancing; the job is about
	// to take the hand-off lock.
	FinishFoundNone FinishStage = iota
	// FinishLocked: the job holds the hand-off lock, found no clock
	// advancing again, and is about to end in that transaction.
	FinishLocked
)

// finish ends the continuation's job of scope when no clock of scope is
// advancing, under the hand-off lock; more reports one handed off
// meanwhile (the job then goes on, its transaction having changed
// nothing).
func (tc *TestClocks) finish(ctx context.Context, scope store.Scope, job *river.Job[AdvanceClocksArgs]) (more bool, err error) {
	tc.reach(FinishFoundNone)
	err = tc.svc.DB.Tx(ctx, scope, func(ctx context.Context, tx *store.Tenant) error {
		if err := tx.Lock(ctx, handOffLock); err != nil {
			return err
		}
		if more, err = tx.Select((*models.TestClock)(nil)).Where("tc.status = ?", models.TestClockAdvancing).
			Where("tc.deleted IS NULL").Exists(ctx); err != nil || more {
			return err
		}
		tc.reach(FinishLocked)
		return jobs.CompleteTx(ctx, tx, job)
	})
	return more, err
}

// reach calls the test hook, if any, at stage.
func (tc *TestClocks) reach(stage FinishStage) {
	if tc.FinishHook != nil {
		tc.FinishHook(stage)
	}
}
