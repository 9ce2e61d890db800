package invoices

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/due"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// overdueKind names the overdue notice among due effects.
const overdueKind = "overdue"

// overdueSource is the due effect of an open invoice whose due date has
// passed: at the start (00:00 UTC) of the day after its due_date, on its
// payer's clock or the server's, it gets overdue_at and invoice.overdue is
// emitted, once. An invoice issued after that instant (a due date set in
// the past) is overdue from its issue: an effect never runs before the
// object exists.
type overdueSource struct{ svc *Service }

// overdueAtColumn is the instant an open invoice falls overdue.
const overdueAtColumn = `greatest((inv.due_date + 1)::timestamp AT TIME ZONE 'UTC', inv.issued_at)`

func (overdueSource) Kind() string { return overdueKind }

// Next finds the invoice of clock that falls overdue first by upTo, among
// the open ones not yet announced (the partial index
// invoices_overdue_due_idx holds exactly those, by clock and due date).
func (o overdueSource) Next(ctx context.Context, tx *store.Tenant, clock uuid.UUID, upTo time.Time) (*due.Due, error) {
	return due.Scan(ctx, o.DueQuery(tx, clock, upTo))
}

func (overdueSource) DueQuery(tx *store.Tenant, clock uuid.UUID, upTo time.Time) *bun.SelectQuery {
	q := tx.Select((*models.Invoice)(nil)).ColumnExpr(overdueAtColumn+" AS at").ColumnExpr("? AS kind", overdueKind).
		ColumnExpr("inv.id").Where("inv.status = ?", models.InvoiceOpen).Where("inv.overdue_at IS NULL").
		Where("inv.due_date < ?", upTo.UTC().Format(time.DateOnly)).Where(overdueAtColumn+" <= ?", upTo)
	if clock == uuid.Nil {
		q = q.Where("inv.test_clock_id IS NULL")
	} else {
		q = q.Where("inv.test_clock_id = ?", clock)
	}
	return q.OrderExpr("at, inv.id").Limit(1)
}

// Apply marks the invoice overdue and announces it, under the invoice's
// lock; an invoice paid, voided, written off or deleted since, or already
// announced, is left as it is.
func (overdueSource) Apply(ctx context.Context, w *op.W, due due.Due) error {
	inv, err := LockInvoice(ctx, w, due.ID.String())
	if e := apierr.As(err); e != nil && e.Code == apierr.CodeResourceMissing {
		return nil
	}
	if err != nil {
		return err
	}
	now := w.Now()
	if inv.Status != models.InvoiceOpen || inv.OverdueAt != nil || !inv.Overdue(now) {
		return nil
	}
	inv.Derive()
	before, err := events.Render(inv)
	if err != nil {
		return err
	}
	at := models.At(now)
	inv.OverdueAt, inv.Updated = &at, at
	after, prev, err := events.RenderChange(before, inv)
	if err != nil {
		return err
	}
	if _, err := w.Tx.Update(inv).Column("overdue_at", "updated").WherePK().Exec(ctx); err != nil {
		return err
	}
	w.Emit(EventInvoiceOverdue, inv.ID, after, prev)
	return nil
}

// DueScopes answers the merchants and modes with an invoice on no clock
// falling overdue by upTo: one statement across tenants, on the partial
// index of invoices not yet announced.
func (overdueSource) DueScopes(ctx context.Context, db *store.DB, upTo time.Time) ([]store.Scope, error) {
	var scopes []store.Scope
	err := db.Bun.NewSelect().TableExpr("invoices AS inv").ColumnExpr("DISTINCT inv.merchant_id, inv.livemode").
		Where("inv.status = ?", models.InvoiceOpen).Where("inv.overdue_at IS NULL").Where("inv.test_clock_id IS NULL").
		Where("inv.due_date < ?", upTo.UTC().Format(time.DateOnly)).Where(overdueAtColumn+" <= ?", upTo).
		OrderExpr("inv.merchant_id, inv.livemode").Scan(ctx, &scopes)
	return scopes, err
}
