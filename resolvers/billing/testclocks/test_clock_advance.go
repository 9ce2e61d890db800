package testclocks

import (
	"context"
	"errors"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/due"
	"github.com/frame-oss/payments-server/resolvers/op"
)

type advanceParams struct {
	ID    string                        `json:"id"`
	Input *models.AdvanceTestClockInput `json:"input"`
}

// DefaultAdvanceBudget is how many due effects one advance request, or
// one slice of the background continuation, applies at most (Service.
// AdvanceBudget): a renewal is about 30 statements, so a request does a
// bounded, small amount of work however far the clock goes.
const DefaultAdvanceBudget = 50

// CodeClockAdvancing refuses an advance of a clock still advancing.
const CodeClockAdvancing = "clock_advancing"

// Advance moves the clock forward to frozen_time (API-DECISIONS §7),
// applying on the way every effect due on its objects, earliest first,
// each as a write at the instant it fell due (test_clock_step.go).
//
// It first claims the clock: status advancing, its target recorded. A
// clock already advancing is 409 clock_advancing; a target before the
// clock's time 422 (the clock never moves back); the same time a no-op.
// Then it applies at most the budget's effects. When nothing more is due
// by the target, the last write sets the clock there, ready, and the
// answer (200) lists every effect applied. When the budget runs out first,
// the last write hands the rest to the background continuation
// (test_clock_continue.go) and the answer (202) is the clock advancing,
// with how far it got (advanced_to) and the effects this request applied.
// Either last write records the answer under the Idempotency-Key; a retry
// of a request that answered replays its answer.
func (tc *TestClocks) Advance(ctx context.Context, id string, in *models.AdvanceTestClockInput) (*models.TestClock, error) {
	if err := sandboxOnly(ctx); err != nil {
		return nil, err
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	spec := op.Spec{Name: "test_clock.advance", Allow: secretOnly, Params: advanceParams{ID: id, Input: in}}
	if out, replayed, err := op.Replayed[*models.TestClock](ctx, tc.svc.Kit, spec); err != nil || replayed {
		return out, err
	}
	scope := auth.FromContext(ctx).Scope
	if err := tc.claim(ctx, scope, id, time.Unix(*in.FrozenTime, 0).UTC()); err != nil {
		return nil, err
	}
	receipt := &models.TestClockReceipt{Effects: []*models.TestClockEffect{}}
	budget := tc.svc.advanceBudget()
	var last *due.Due
	for {
		for len(receipt.Effects) < budget {
			batch := min(stepBatch, budget-len(receipt.Effects))
			effects, due, err := tc.steps(ctx, scope, id, last, batch)
			if err != nil {
				return nil, err
			}
			if len(effects) > 0 {
				last = due
			}
			receipt.Effects = append(receipt.Effects, effects...)
			if len(effects) < batch {
				break // nothing more was due
			}
		}
		clock, err := tc.answer(ctx, spec, id, receipt, len(receipt.Effects) >= budget)
		if !errors.Is(err, errMoreDue) {
			return clock, err
		}
	}
}

// claim marks the clock advancing toward target, in a write of its own:
// from then on no other advance of it starts, and its progress shows. A
// clock another write holds is read as last committed first: when that
// write is an advance (the clock advancing), the claim is refused at once
// rather than queued behind it, so the answer never depends on which of
// the two reaches the row first once it is free.
func (tc *TestClocks) claim(ctx context.Context, scope store.Scope, id string, target time.Time) error {
	return op.Background(ctx, tc.svc.Kit, scope, func(ctx context.Context, w *op.W) error {
		clock, locked, err := testClockTable.TryLock(ctx, w, id)
		if err == nil && !locked && clock.Status != models.TestClockAdvancing {
			clock, err = testClockTable.Lock(ctx, w, id, op.LockUpdate)
		}
		if err != nil {
			return err
		}
		switch {
		case clock.Status == models.TestClockAdvancing:
			return errClockAdvancing(clock)
		case target.Before(clock.AdvancedTo.Time):
			return backwards(clock)
		case target.Equal(clock.AdvancedTo.Time):
			return nil
		}
		to := models.At(target)
		clock.Status, clock.AdvancingTo, clock.Updated = models.TestClockAdvancing, &to, models.At(tc.svc.Clock.Now())
		_, err = w.Tx.Update(clock).Column("status", "advancing_to", "updated").WherePK().Exec(ctx)
		return err
	})
}

// answer is the advance's last write, which records its answer under the
// Idempotency-Key: the clock set at its target and ready when nothing more
// is due (errMoreDue when something fell due since the last step looked:
// the advance applies it first), or, when the budget ran out with effects
// still due, the clock handed to the background continuation, advancing.
func (tc *TestClocks) answer(ctx context.Context, spec op.Spec, id string, receipt *models.TestClockReceipt,
	spent bool) (*models.TestClock, error) {
	return op.Write(ctx, tc.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.TestClock, error) {
		clock, err := testClockTable.Lock(ctx, w, id, op.LockUpdate)
		if err != nil {
			return nil, err
		}
		done, err := tc.settle(ctx, w, clock)
		switch {
		case err != nil && !(spent && errors.Is(err, errMoreDue)):
			return nil, err
		case !done:
			if err := tc.handOff(ctx, w); err != nil {
				return nil, err
			}
		}
		clock.Derive()
		clock.Receipt = receipt
		return clock, nil
	})
}

// errClockAdvancing refuses a second advance of a clock still advancing.
func errClockAdvancing(clock *models.TestClock) error {
	clock.Derive()
	return apierr.Conflict(CodeClockAdvancing, "The test clock is still advancing (it has got to "+
		clock.AdvancedTo.UTC().Format(time.RFC3339)+" of "+clock.FrozenTime.UTC().Format(time.RFC3339)+
		"); advance it again once its status is ready", map[string]any{"advanced_to": clock.AdvancedTo.Unix(),
		"frozen_time": clock.FrozenTime.Unix()})
}

// backwards refuses a target before the clock's time.
func backwards(clock *models.TestClock) error {
	return apierr.FieldError("frozen_time", "must not be before the clock's frozen_time ("+
		clock.AdvancedTo.UTC().Format(time.RFC3339)+"): a test clock only moves forward")
}
