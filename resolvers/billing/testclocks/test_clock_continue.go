package testclocks

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/due"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// The background continuation of test clock advances (API-DECISIONS §7):
// an advance whose effects did not fit its request's budget goes on in a
// River job, one per merchant and mode with a clock advancing. Each run of
// the job is a slice: at most the budget's effects, on the clock of its
// merchant and mode stepped least recently, in time order (the steps of
// test_clock_step.go). With more to do it snoozes for no time, which puts
// it at the back of the queue, behind the other merchants' slices: no
// merchant's thousand years hold a worker while another's month waits.
// The job is a row of river_job, so the continuation survives a restart of
// the server; a clock deleted meanwhile is simply no longer found.

// AdvanceClocksArgs is the continuation of the advancing clocks of one
// merchant and mode.
type AdvanceClocksArgs struct {
	jobs.Tenant
}

// Kind names the job.
func (AdvanceClocksArgs) Kind() string { return "billing.advance_clocks" }

// InsertOpts make the job unique per merchant and mode among the jobs not
// finished: a second advance handed off while the merchant's job waits or
// runs joins it (the running job looks for more before it ends).
func (AdvanceClocksArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: []rivertype.JobState{
		rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning,
		rivertype.JobStateRetryable, rivertype.JobStateScheduled}}}
}

// advanceClocksWorker runs one slice, then snoozes to the back of the
// queue while the merchant and mode have a clock still advancing.
type advanceClocksWorker struct {
	river.WorkerDefaults[AdvanceClocksArgs]
	svc *Service
}

func (w *advanceClocksWorker) Work(ctx context.Context, job *river.Job[AdvanceClocksArgs]) error {
	scope := job.Args.Scope()
	more, err := w.svc.TestClocks.Continue(ctx, scope)
	if err == nil && !more {
		more, err = w.svc.TestClocks.finish(ctx, scope, job)
	}
	if err != nil {
		return err
	}
	if more {
		return river.JobSnooze(0)
	}
	return nil
}

// handOff gives the advance of the clock w locked to the background
// continuation of w's merchant and mode, in w: the job exists exactly
// when the hand-off commits. It takes the scope's hand-off lock first, so
// that it commits either before the scope's finishing job looks for a
// clock advancing (which then finds it) or after that job has ended
// (when the enqueue, unique among the jobs not finished, makes a new one):
// never in between, where the job still running would absorb the enqueue
// and then end (test_clock_finish.go).
func (tc *TestClocks) handOff(ctx context.Context, w *op.W) error {
	if err := w.Tx.Lock(ctx, handOffLock); err != nil {
		return err
	}
	sc := w.Tx.Scope()
	return w.Enqueue(ctx, AdvanceClocksArgs{Tenant: jobs.TenantOf(sc)})
}

// Slice is what one run of the continuation did: the effects it applied
// and whether the scope still has a clock advancing.
type Slice struct {
	Clock   uuid.UUID
	Effects []*models.TestClockEffect
	More    bool
}

// Continue runs one slice of the continuation of scope: the clock
// advancing there that was stepped least recently gets up to the budget's
// effects, then is set at its target once nothing more is due. It answers
// whether a clock of scope is still advancing.
func (tc *TestClocks) Continue(ctx context.Context, scope store.Scope) (bool, error) {
	s, err := tc.ContinueSlice(ctx, scope)
	return s.More, err
}

// ContinueSlice is Continue, answering what the slice did.
func (tc *TestClocks) ContinueSlice(ctx context.Context, scope store.Scope) (Slice, error) {
	var s Slice
	tx := tc.svc.DB.Tenant(scope)
	var next []models.TestClock
	if err := tx.Select(&next).Column("tc.id").Where("tc.status = ?", models.TestClockAdvancing).
		Where("tc.deleted IS NULL").OrderExpr("tc.updated, tc.id").Limit(1).Scan(ctx); err != nil || len(next) == 0 {
		return s, err
	}
	s.Clock = next[0].ID
	id, budget := s.Clock.String(), tc.svc.advanceBudget()
	var last *due.Due
	for len(s.Effects) < budget {
		batch := min(stepBatch, budget-len(s.Effects))
		effects, due, err := tc.steps(ctx, scope, id, last, batch)
		if isMissing(err) {
			break // the clock was deleted: its advance stops
		}
		if err != nil {
			return s, err
		}
		if len(effects) > 0 {
			last = due
		}
		s.Effects = append(s.Effects, effects...)
		if len(effects) == batch {
			continue
		}
		// Nothing more was due: the clock is set at its target, unless
		// something fell due meanwhile.
		err = op.Background(ctx, tc.svc.Kit, scope, func(ctx context.Context, w *op.W) error {
			clock, err := testClockTable.Lock(ctx, w, id, op.LockUpdate)
			if err != nil {
				return err
			}
			_, err = tc.settle(ctx, w, clock)
			return err
		})
		if errors.Is(err, errMoreDue) {
			continue
		}
		if err != nil && !isMissing(err) {
			return s, err
		}
		break
	}
	more, err := tx.Select((*models.TestClock)(nil)).Where("tc.status = ?", models.TestClockAdvancing).
		Where("tc.deleted IS NULL").Exists(ctx)
	s.More = more
	return s, err
}

// advanceLease is how long an advancing clock goes without a step before
// the wall clock's run gives it a continuation job: longer than any
// request's budget takes, so a request still stepping its clock is not
// raced by a job; short enough that an advance whose request or job was
// cut off by a crash goes on within a minute or two.
const advanceLease = time.Minute

// resumeStalled enqueues the continuation of every merchant and mode with
// a clock advancing that nothing has stepped for advanceLease: its request
// stopped before handing it off (a crash, a client gone), or its job was
// lost with the process running it. The job is unique per merchant and
// mode, so one already waiting is not doubled. One statement across
// tenants, then one write per such merchant and mode.
func (tc *TestClocks) resumeStalled(ctx context.Context, now time.Time) error {
	var scopes []store.Scope
	if err := tc.svc.DB.Bun.NewSelect().TableExpr("test_clocks AS tc").ColumnExpr("DISTINCT tc.merchant_id, tc.livemode").
		Where("tc.status = ?", models.TestClockAdvancing).Where("tc.deleted IS NULL").
		Where("tc.updated < ?", now.Add(-advanceLease)).OrderExpr("tc.merchant_id, tc.livemode").Scan(ctx, &scopes); err != nil {
		return err
	}
	for _, scope := range scopes {
		if err := op.Background(ctx, tc.svc.Kit, scope, func(ctx context.Context, w *op.W) error {
			return tc.handOff(ctx, w)
		}); err != nil {
			return err
		}
	}
	return nil
}

// isMissing reports whether err is the 404 of an object no longer there.
func isMissing(err error) bool {
	e := apierr.As(err)
	return e != nil && e.Code == apierr.CodeResourceMissing
}
