package testclocks

import (
	"context"
	"errors"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/due"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// The steps of an advance, shared by the request that starts it
// (test_clock_advance.go) and the background continuation that finishes
// it (test_clock_continue.go): whoever runs them, the effects are applied
// one per write, in time order, each at its instant, so an advance gives
// the same invoices, amounts, periods and events whether it finished in
// its request or in the background, and whatever its step size.

// errMoreDue ends a write that would set an advancing clock at its target
// while something is still due before it (an object created meanwhile
// with a past due date): the advance applies it first.
var errMoreDue = errors.New("billing: an effect fell due during the advance")

// stepBatch is how many effects one write of an advance applies at most:
// the clock is locked once and the events inserted once for all of them,
// while each effect still runs at its own instant (op.W.At).
const stepBatch = 25

// steps applies, in one write, the earliest effects due on the advancing
// clock by its target, at most max of them, one after the other: for each
// it asks every source for its earliest effect (Due.Before), moves the
// clock to that instant and applies the effect there, as a write at that
// time. The clock is locked first (SELECT … FOR NO KEY UPDATE). It answers
// the effects applied, none when nothing is due (or the clock is no
// longer advancing: another runner finished it), and the last one. last
// is the effect the runner applied before, which a source answering again
// would loop on.
//
// Two runners of one clock serialize on its lock, so each effect is
// applied once; a runner stopped half way (a crash) leaves every committed
// effect whole and the clock advancing at the last one.
func (tc *TestClocks) steps(ctx context.Context, scope store.Scope, id string, last *due.Due, max int) (
	[]*models.TestClockEffect, *due.Due, error) {
	var applied []*models.TestClockEffect
	err := op.Background(ctx, tc.svc.Kit, scope, func(ctx context.Context, w *op.W) error {
		clock, err := testClockTable.Lock(ctx, w, id, op.LockUpdate)
		if err != nil || clock.Status != models.TestClockAdvancing {
			return err
		}
		for len(applied) < max {
			due, src, err := tc.svc.nextDue(ctx, w.Tx, clock.ID, clock.AdvancingTo.Time)
			if err != nil || due == nil {
				return err
			}
			if err := stillDue(last, due); err != nil {
				return err
			}
			if err := tc.moveTo(ctx, w, clock, due.At, models.TestClockAdvancing); err != nil {
				return err
			}
			effect, err := applyDue(ctx, w.At(due.At), src, *due)
			if err != nil {
				return err
			}
			last, applied = due, append(applied, effect)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return applied, last, nil
}

// settle sets the advancing clock, locked by w, at its target and ready
// when nothing is due before it, and answers whether the clock is ready
// (a clock not advancing is); errMoreDue when something is still due.
func (tc *TestClocks) settle(ctx context.Context, w *op.W, clock *models.TestClock) (bool, error) {
	if clock.Status != models.TestClockAdvancing {
		return true, nil
	}
	due, _, err := tc.svc.nextDue(ctx, w.Tx, clock.ID, clock.AdvancingTo.Time)
	if err != nil {
		return false, err
	}
	if due != nil {
		return false, errMoreDue
	}
	return true, tc.moveTo(ctx, w, clock, clock.AdvancingTo.Time, models.TestClockReady)
}

// moveTo sets the clock's time (advanced_to) to at and its status, in w;
// ready clears its target. updated is the server's time of the step, which
// orders the continuation's round between clocks.
func (tc *TestClocks) moveTo(ctx context.Context, w *op.W, clock *models.TestClock, at time.Time, status models.TestClockStatus) error {
	if at.After(clock.AdvancedTo.Time) {
		clock.AdvancedTo = models.At(at)
	}
	clock.Status, clock.Updated = status, models.At(tc.svc.Clock.Now())
	if status == models.TestClockReady {
		clock.AdvancingTo = nil
	}
	_, err := w.Tx.Update(clock).Column("frozen_time", "status", "advancing_to", "updated").WherePK().Exec(ctx)
	return err
}

// advanceBudget is the effects one request, or one slice of the
// continuation, applies at most.
func (s *Service) advanceBudget() int {
	if s.AdvanceBudget > 0 {
		return s.AdvanceBudget
	}
	return DefaultAdvanceBudget
}
