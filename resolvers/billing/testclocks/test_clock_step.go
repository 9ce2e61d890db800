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
			dues, srcs, err := tc.svc.nextDues(ctx, w.Tx, clock.ID, clock.AdvancingTo.Time, max-len(applied))
			if err != nil || len(dues) == 0 {
				return err
			}
			if err := stillDue(last, &dues[0]); err != nil {
				return err
			}
			effects, err := tc.applyNext(ctx, w, clock, dues, srcs)
			if err != nil {
				return err
			}
			last, applied = &dues[len(effects)-1], append(applied, effects...)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return applied, last, nil
}

// applyNext applies, in w, the earliest of dues (the effects next due on
// the clock, in time order, each from the source beside it): a run of
// them together when their source can (due.Runner), else the first
// alone. The clock is moved to the last effect applied; an effect applied
// alone runs with the clock at its instant, as every effect of a source
// that is not a Runner does. It answers the effects applied, at least
// one.
func (tc *TestClocks) applyNext(ctx context.Context, w *op.W, clock *models.TestClock, dues []due.Due,
	srcs []due.DueSource) ([]*models.TestClockEffect, error) {
	if runner, ok := srcs[0].(due.Runner); ok {
		effects, err := applyRun(ctx, w, runner, sameKind(dues))
		if err != nil || len(effects) > 0 {
			if err == nil {
				err = tc.moveTo(ctx, w, clock, effects[len(effects)-1].At.Time, models.TestClockAdvancing)
			}
			return effects, err
		}
	}
	if err := tc.moveTo(ctx, w, clock, dues[0].At, models.TestClockAdvancing); err != nil {
		return nil, err
	}
	effect, err := applyDue(ctx, w.At(dues[0].At), srcs[0], dues[0])
	if err != nil {
		return nil, err
	}
	return []*models.TestClockEffect{effect}, nil
}

// sameKind is the prefix of dues of the first one's kind, so of its
// source: a run with no other source's effect between its first and its
// last.
func sameKind(dues []due.Due) []due.Due {
	n := 1
	for n < len(dues) && dues[n].Kind == dues[0].Kind {
		n++
	}
	return dues[:n]
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
