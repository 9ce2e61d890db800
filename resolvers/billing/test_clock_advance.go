package billing

import (
	"context"
	"errors"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

type advanceParams struct {
	ID    string                        `json:"id"`
	Input *models.AdvanceTestClockInput `json:"input"`
}

// errMoreDue ends the advance's last write when something fell due on the
// clock after its last step looked (an object created meanwhile with a
// past due date): the advance applies it before the clock passes it.
var errMoreDue = errors.New("billing: an effect fell due during the advance")

// Advance moves the clock forward to frozen_time, applying on the way
// every effect due on its objects, earliest first (Due.Before), each in
// its own write at the instant it fell due: what an effect stamps and
// emits is the same whatever the advance's step size. It answers once all
// of them are committed, with the receipt of what it applied.
//
// Each step locks the clock row (SELECT … FOR UPDATE), finds the earliest
// effect due by frozen_time across the registered sources, moves the clock
// to that instant (status advancing) and applies the effect, all in one
// transaction: two advances of one clock serialize step by step, an effect
// is applied once, and an advance stopped half way (a crash) leaves the
// clock at its last applied effect, still advancing, for a retry to
// continue. The last write sets frozen_time and status ready.
//
// A target before frozen_time is 422 (the clock never moves back); the
// same is a no-op.
func (tc *TestClocks) Advance(ctx context.Context, id string, in *models.AdvanceTestClockInput) (*models.TestClock, error) {
	if err := sandboxOnly(ctx); err != nil {
		return nil, err
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	target := time.Unix(*in.FrozenTime, 0).UTC()
	scope := auth.FromContext(ctx).Scope
	receipt := &models.TestClockReceipt{Effects: []*models.TestClockEffect{}}
	var last *Due
	behind := false
	for first := true; ; first = false {
		var effect *models.TestClockEffect
		err := op.Background(ctx, tc.svc.Kit, scope, func(ctx context.Context, w *op.W) error {
			clock, err := testClockTable.Lock(ctx, w, id, op.LockUpdate)
			if err != nil {
				return err
			}
			if first && target.Before(clock.FrozenTime.Time) {
				// Refused in finish, which first replays an advance
				// recorded under the request's Idempotency-Key: a retry
				// of an advance the clock has since passed answers as
				// the first time.
				behind = true
				return nil
			}
			due, src, err := tc.svc.nextDue(ctx, w.Tx, clock.ID, target)
			if err != nil || due == nil {
				return err
			}
			if err := stillDue(last, due); err != nil {
				return err
			}
			last = due
			if err := tc.moveTo(ctx, w, clock, due.At, models.TestClockAdvancing); err != nil {
				return err
			}
			effect, err = applyDue(ctx, w, src, *due)
			return err
		})
		if err != nil {
			return nil, err
		}
		if effect != nil {
			receipt.Effects = append(receipt.Effects, effect)
			continue
		}
		clock, err := tc.finish(ctx, id, in, target, receipt, behind)
		if !errors.Is(err, errMoreDue) {
			return clock, err
		}
	}
}

// finish sets the clock at target and ready, in the write that records
// the advance under its Idempotency-Key, unless something fell due since
// the last step looked (errMoreDue). behind: the target was before the
// clock's time when the advance began, refused unless replayed.
func (tc *TestClocks) finish(ctx context.Context, id string, in *models.AdvanceTestClockInput, target time.Time,
	receipt *models.TestClockReceipt, behind bool) (*models.TestClock, error) {
	spec := op.Spec{Name: "test_clock.advance", Allow: secretOnly, Params: advanceParams{ID: id, Input: in}}
	return op.Write(ctx, tc.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.TestClock, error) {
		clock, err := testClockTable.Lock(ctx, w, id, op.LockUpdate)
		if err != nil {
			return nil, err
		}
		if behind {
			return nil, backwards(clock)
		}
		due, _, err := tc.svc.nextDue(ctx, w.Tx, clock.ID, target)
		if err != nil {
			return nil, err
		}
		if due != nil {
			return nil, errMoreDue
		}
		if err := tc.moveTo(ctx, w, clock, target, models.TestClockReady); err != nil {
			return nil, err
		}
		clock.Receipt = receipt
		return clock, nil
	})
}

// moveTo sets the clock's frozen_time to at (never back: a racing advance
// may have moved it further) and its status, in w.
func (tc *TestClocks) moveTo(ctx context.Context, w *op.W, clock *models.TestClock, at time.Time, status models.TestClockStatus) error {
	if at.After(clock.FrozenTime.Time) {
		clock.FrozenTime = models.At(at)
	}
	clock.Status, clock.Updated = status, models.At(tc.svc.Clock.Now())
	_, err := w.Tx.Update(clock).Column("frozen_time", "status", "updated").WherePK().Exec(ctx)
	return err
}

// backwards refuses a target before the clock's time.
func backwards(clock *models.TestClock) error {
	return apierr.FieldError("frozen_time", "must not be before the clock's frozen_time ("+
		clock.FrozenTime.UTC().Format(time.RFC3339)+"): a test clock only moves forward")
}
