package usage

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
)

// errCustomerDeleted refuses a usage operation on a deleted customer.
var errCustomerDeleted = apierr.InvalidState("The customer is deleted and refuses further operations")

// usagePayer is the customer or the account usage is reported for, billed
// to and credited to (exactly one), with the test clock it is bound to.
type usagePayer struct {
	CustomerID *uuid.UUID `bun:"customer_id"`
	AccountID  *uuid.UUID `bun:"account_id"`
	Deleted    *time.Time `bun:"deleted"`
	// AccountStatus is the account payer's status ("" for a customer).
	AccountStatus models.AccountStatus `bun:"account_status"`
	ClockID       *uuid.UUID           `bun:"test_clock_id"`
	ClockTime     *time.Time           `bun:"frozen_time"`
	// MeterID is the meter of the event name asked (metering event
	// ingest), nil when the name has none yet.
	MeterID *uuid.UUID `bun:"meter_id"`
	// ThresholdID is the payer's auto-charge threshold, nil when none.
	ThresholdID *uuid.UUID `bun:"threshold_id"`
	// Locked receives the (void) result of taking the usage lock.
	Locked *string `bun:"locked"`
	// ThresholdLocked receives the result of locking the threshold row.
	ThresholdLocked *bool `bun:"threshold_locked"`
	// JIT receives the transaction's jit setting once WithoutJIT set it.
	JIT *string `bun:"jit"`
}

// ID is the payer's id.
func (p *usagePayer) ID() uuid.UUID {
	if p.CustomerID != nil {
		return *p.CustomerID
	}
	return *p.AccountID
}

// Column is the column naming the payer in usage tables ("customer_id"
// or "account_id").
func (p *usagePayer) Column() string {
	if p.CustomerID != nil {
		return "customer_id"
	}
	return "account_id"
}

// Where narrows q (whose table has customer_id and account_id columns) to
// the payer's rows.
func (p *usagePayer) Where(q *bun.SelectQuery) *bun.SelectQuery {
	return q.Where("?TableAlias.? = ?", bun.Ident(p.Column()), p.ID())
}

// Now is the payer's time: its test clock's frozen_time, else now.
func (p *usagePayer) Now(now time.Time) time.Time {
	if p.ClockTime != nil {
		return *p.ClockTime
	}
	return now
}

// usageLock names the lock that orders a payer's usage: ingest and
// corrections take it shared, usage invoices exclusively, so an invoice
// sees every event reported before it and none is reported into a window
// once it is billed.
func usageLock(payer uuid.UUID) string { return "usage:" + payer.String() }

// payerQuery says what readPayer reads beside the payer.
type payerQuery struct {
	// Lock takes the payer's usage lock shared, in the same statement.
	Lock bool
	// EventName, when set, reads the meter of that name.
	EventName *string
	// Threshold reads the payer's auto-charge threshold.
	Threshold bool
	// LockThreshold also locks the payer's threshold row (FOR UPDATE,
	// when it has one) right after the usage lock, before the write
	// touches any usage rollup: an auto-charge holds that row while its
	// claim subtracts from the payer's rollups, so a write that locked a
	// rollup first and the threshold second could deadlock with it.
	LockThreshold bool
	// WithoutJIT turns PostgreSQL's JIT compilation off for the rest of
	// the transaction, in the same statement. A usage invoice's aggregate
	// must plan the branch that reads a max meter's events, run or not
	// (whether a max meter is priced is only known in the statement, a
	// meter can change at any time), and that branch's estimate follows
	// the payer's events: past jit_above_cost (about 450,000 events)
	// PostgreSQL compiled the statement, 0.2–0.3 s, for the millisecond
	// the rollups take (docs/performance.md).
	WithoutJIT bool
}

// readPayer reads exactly one payer, customer or account (the params the
// errors name), of the caller's merchant and mode, in one statement: its
// test clock, and what q asks. An id that is not the tenant's is 422 on
// its param; a deleted customer or a disabled account is 422 invalid
// state: neither reports, is billed for or is credited usage any more.
func readPayer(ctx context.Context, tx *store.Tenant, customer, account *string, q payerQuery) (*usagePayer, error) {
	var model any = (*models.Customer)(nil)
	table, alias, param, raw := "customers", "cu", "customer", customer
	if customer == nil {
		model, table, alias, param, raw = (*models.Account)(nil), "accounts", "a", "account", account
	}
	missing := apierr.FieldError(param, "is not a "+param+" of this merchant and mode")
	id, ok := ids.Parse(*raw)
	if !ok {
		return nil, missing
	}
	var rows []usagePayer
	sel := tx.Select(model).ColumnExpr("tc.frozen_time").ColumnExpr("?.test_clock_id", bun.Ident(alias)).
		Join("LEFT JOIN test_clocks AS tc ON tc.merchant_id = ?0.merchant_id AND tc.id = ?0.test_clock_id", bun.Ident(alias)).
		Where("?.id = ?", bun.Ident(alias), id)
	if table == "customers" {
		sel = sel.ColumnExpr("cu.id AS customer_id, cu.deleted")
	} else {
		sel = sel.ColumnExpr("a.id AS account_id, a.status AS account_status")
	}
	if q.EventName != nil {
		sel = sel.ColumnExpr("bm.id AS meter_id").
			Join("LEFT JOIN billing_meters AS bm ON bm.merchant_id = ?0.merchant_id AND bm.livemode = ?0.livemode AND bm.event_name = ?1",
				bun.Ident(alias), *q.EventName)
	}
	if q.Threshold {
		sel = sel.ColumnExpr("ut.id AS threshold_id").
			Join("LEFT JOIN usage_thresholds AS ut ON ut.merchant_id = ?0.merchant_id AND ut.livemode = ?0.livemode AND ut.?1 = ?0.id",
				bun.Ident(alias), bun.Ident(param+"_id"))
	}
	if q.Lock {
		sel = sel.ColumnExpr("pg_advisory_xact_lock_shared(?) AS locked", tx.LockKey(usageLock(id)))
	}
	if q.LockThreshold {
		sel = sel.ColumnExpr("(SELECT true FROM usage_thresholds AS utl WHERE utl.merchant_id = ?0.merchant_id "+
			"AND utl.livemode = ?0.livemode AND utl.?1 = ?0.id LIMIT 1 FOR UPDATE) AS threshold_locked",
			bun.Ident(alias), bun.Ident(param+"_id"))
	}
	if q.WithoutJIT {
		sel = sel.ColumnExpr("set_config('jit', 'off', true) AS jit")
	}
	if err := sel.Scan(ctx, &rows); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, missing
	}
	switch {
	case rows[0].Deleted != nil:
		return nil, errCustomerDeleted
	case rows[0].AccountStatus == models.AccountStatusDisabled:
		return nil, apierr.InvalidState("The account is disabled and refuses further operations")
	}
	return &rows[0], nil
}
