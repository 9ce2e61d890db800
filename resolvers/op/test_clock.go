package op

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/schema"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
)

// AtTestClock binds the object a create makes (an account, a customer) to
// the test clock its param names, and makes the clock's frozen_time the
// write's time (API-DECISIONS §7): the object is created, and everything
// about it happens, at the clock's time. id nil: no clock, the write keeps
// the server's time and the answer is nil. A clock that is not one of the
// caller's merchant and mode (production has none) is 422 on param. Call
// it before the write's first Now.
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
	return &clock, w.AtClockTime(rows[0].AdvancedTo.Time)
}

// ClockTime reads a test clock's frozen_time in tx's merchant and mode.
func ClockTime(ctx context.Context, tx *store.Tenant, clock uuid.UUID) (time.Time, error) {
	c := new(models.TestClock)
	if err := tx.Select(c).Column("tc.frozen_time").Where("tc.id = ?", clock).Scan(ctx); err != nil {
		return time.Time{}, err
	}
	return c.AdvancedTo.Time, nil
}

// PayerClock reads the test clock a payer is bound to, its id and
// frozen_time, in one statement: table is the payer's ("accounts" or
// "customers"), id its row. nil when the payer is on no clock (or is not
// one of tx's merchant and mode).
func PayerClock(ctx context.Context, tx *store.Tenant, table string, id uuid.UUID) (*models.TestClock, error) {
	var rows []models.TestClock
	err := tx.Select(&rows).Column("tc.id", "tc.frozen_time").
		Where("tc.id = (SELECT p.test_clock_id FROM ? AS p WHERE p.merchant_id = tc.merchant_id AND p.livemode = tc.livemode AND p.id = ?)",
			bun.Ident(table), id).Scan(ctx)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	return &rows[0], nil
}

// AtBoundClock makes the frozen_time of clock, the test clock the object a
// write changes is bound to, the write's time (one statement), so what
// the write stamps (an expiry, created) and the events it emits carry the
// clock's time. clock nil: the write keeps the server's time, and no
// statement runs. Call it before the write's first Now.
func (w *W) AtBoundClock(ctx context.Context, clock *uuid.UUID) error {
	if clock == nil {
		return nil
	}
	at, err := ClockTime(ctx, w.Tx, *clock)
	if err != nil {
		return err
	}
	return w.AtClockTime(at)
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
