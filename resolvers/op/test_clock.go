package op

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/schema"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
)

// Everything about an object bound to a test clock happens at the clock's
// time (API-DECISIONS §7): a write about such an object takes its time
// from the clock's frozen_time before its first Now, so what it stamps
// (issued_at, due dates, expiries) and the events it emits carry the
// clock's time. Objects on no clock keep the server's. This file is the one
// place a write reads a clock's time: AtTestClock (a create binding its
// object), AtBoundClock (an object already bound) and AtPayerClock (an
// object whose payer is bound), all through atClock, which also keeps a
// due effect at the instant it fell due (AtDueInstant).

// AtTestClock binds the object a create makes (an account, a customer) to
// the test clock its param names, and makes the clock's frozen_time the
// write's time: the object is created, and everything about it happens, at
// the clock's time. id nil: no clock, the write keeps the server's time
// and the answer is nil. A clock that is not one of the caller's merchant
// and mode (production has none) is 422 on param. Call it before the
// write's first Now.
func (w *W) AtTestClock(ctx context.Context, param string, id *string) (*uuid.UUID, error) {
	if id == nil {
		return nil, nil
	}
	clock, ok := ids.Parse(*id)
	var rows []models.TestClock
	if ok {
		if err := w.Tx.Select(&rows).Column("tc.frozen_time").Where("tc.id = ?", clock).Where("tc.deleted IS NULL").Scan(ctx); err != nil {
			return nil, err
		}
	}
	if len(rows) == 0 {
		return nil, apierr.FieldError(param, "is not a test clock of this merchant and mode")
	}
	return &clock, w.atClock(rows[0].AdvancedTo.Time)
}

// AtBoundClock makes the frozen_time of clock, the test clock the object a
// write changes is bound to, the write's time (one statement). clock nil:
// the write keeps the server's time, and no statement runs. Call it before
// the write's first Now.
func (w *W) AtBoundClock(ctx context.Context, clock *uuid.UUID) error {
	if clock == nil {
		return nil
	}
	c := new(models.TestClock)
	if err := w.Tx.Select(c).Column("tc.frozen_time").Where("tc.id = ?", *clock).Scan(ctx); err != nil {
		return err
	}
	return w.atClock(c.AdvancedTo.Time)
}

// AtPayerClock makes the write's time the frozen_time of the test clock
// the payer (a customer or an account; the other nil) is bound to, and
// answers that clock's id, for the object the write makes to be bound to
// it too: nil when the payer is on none (or is not one of the caller's
// merchant and mode), and the write keeps the server's time. One
// statement; call it before the write's first Now.
func (w *W) AtPayerClock(ctx context.Context, customerID, accountID *uuid.UUID) (*uuid.UUID, error) {
	table, id := "customers", customerID
	if customerID == nil {
		table, id = "accounts", accountID
	}
	if id == nil {
		return nil, nil
	}
	var rows []models.TestClock
	err := w.Tx.Select(&rows).Column("tc.id", "tc.frozen_time").
		Where("tc.id = (SELECT p.test_clock_id FROM ? AS p WHERE p.merchant_id = tc.merchant_id AND p.livemode = tc.livemode AND p.id = ?)",
			bun.Ident(table), *id).Scan(ctx)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	return &rows[0].ID, w.atClock(rows[0].AdvancedTo.Time)
}

// AtDueInstant makes w the write of an effect that fell due at at (a
// renewal, a retry, an overdue notice), run by the wall clock's periodic
// run or by a test clock's advance: its time is at, and the clock reads
// above leave it there. The advance has moved the clock to at in the same
// transaction already, so the clock's time and the effect's agree.
func (w *W) AtDueInstant(at time.Time) error {
	if err := w.AtClockTime(at); err != nil {
		return err
	}
	w.dueEffect = true
	return nil
}

// atClock makes t, a clock's frozen_time, the write's time, unless the
// write is a due effect's (already at its instant).
func (w *W) atClock(t time.Time) error {
	if w.dueEffect {
		return nil
	}
	return w.AtClockTime(t)
}

// PayerNow is, in SQL, the time a read judges a payer's objects at (a
// session's expiry): the frozen_time of the test clock the payer is bound
// to, else now, the server's. table is the payer's ("accounts" or
// "customers") and column the query's own column naming it (e.g.
// "account_id"). A subquery of the read's statement: no statement of its
// own.
func PayerNow(table, column string, now time.Time) schema.QueryAppender {
	return bun.SafeQuery("COALESCE((SELECT tc.frozen_time FROM ? AS p JOIN test_clocks AS tc ON tc.id = p.test_clock_id "+
		"WHERE p.merchant_id = ?TableAlias.merchant_id AND p.livemode = ?TableAlias.livemode AND p.id = ?TableAlias.?), ?)",
		bun.Ident(table), bun.Ident(column), now)
}
