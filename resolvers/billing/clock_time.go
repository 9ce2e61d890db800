package billing

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Everything about an object bound to a test clock happens at the
// clock's time (API-DECISIONS §7): a write about such an object takes its
// time from the clock's frozen_time (op.W.AtClockTime) before its first
// W.Now, so what it stamps (issued_at, due dates, expiries) and the events
// it emits carry the clock's time. Objects on no clock keep the server's.
//
// A due effect is already at its time (the instant it fell due, to which
// the advance moved the clock in the same transaction): inside one the
// helpers only answer the clock.

// AtPayerClock makes w's time the frozen_time of the test clock the payer
// (a customer or an account; the other nil) is bound to, and answers that
// clock's id: nil when the payer is on none, and w keeps the server's time.
// One statement; call it before w's first Now.
func AtPayerClock(ctx context.Context, w *op.W, customerID, accountID *uuid.UUID) (*uuid.UUID, error) {
	table, id := "customers", customerID
	if customerID == nil {
		table, id = "accounts", accountID
	}
	if id == nil {
		return nil, nil
	}
	c, err := op.PayerClock(ctx, w.Tx, table, *id)
	if err != nil || c == nil {
		return nil, err
	}
	return &c.ID, atTime(ctx, w, c.AdvancedTo.Time)
}

// atClock makes w's time the frozen_time of clock (nil: the server's
// time, no statement).
func atClock(ctx context.Context, w *op.W, clock *uuid.UUID) error {
	if clock == nil {
		return nil
	}
	at, err := frozenTime(ctx, w.Tx, *clock)
	if err != nil {
		return err
	}
	return atTime(ctx, w, at)
}

// frozenTime reads a clock's time.
func frozenTime(ctx context.Context, tx *store.Tenant, clock uuid.UUID) (time.Time, error) {
	return op.ClockTime(ctx, tx, clock)
}

// atTime sets w's time to a clock's, unless w runs a due effect (at the
// instant it fell due already).
func atTime(ctx context.Context, w *op.W, at time.Time) error {
	if ctx.Value(dueEffectKey{}) != nil {
		return nil
	}
	return w.AtClockTime(at)
}

// dueEffectKey marks the context of a due effect's Apply.
type dueEffectKey struct{}

// inDueEffect is the context of a due effect's Apply.
func inDueEffect(ctx context.Context) context.Context {
	return context.WithValue(ctx, dueEffectKey{}, true)
}
