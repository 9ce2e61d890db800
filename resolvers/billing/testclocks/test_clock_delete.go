package testclocks

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/invoices"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Delete deletes a clock and what is bound to it (API-DECISIONS §7), at
// the clock's time, under its lock (so never in the middle of an
// advance's step), keeping every journal on the ledger so the merchant's
// books stay balanced (docs/billing.md). It locks in the lock order
// (docs/billing.md, "Lock order"): the clock, its customers and accounts,
// its invoices, then its subscriptions.
//
//   - its subscriptions are canceled (no renewal, no retry);
//   - its open and uncollectible invoices are voided (nothing more is
//     owed or falls overdue), its drafts deleted with their lines; paid
//     invoices stay, with the charges and journals that paid them;
//   - its customers are deleted (retrievable as {id, deleted: true}) and
//     its accounts disabled, as their own deletion does;
//   - the clock is marked deleted: no longer read, advanced or bound to.
//
// Nothing is announced for the objects deleted with the clock.
func (tc *TestClocks) Delete(ctx context.Context, id string) (*models.Deleted, error) {
	if err := sandboxOnly(ctx); err != nil {
		return nil, err
	}
	spec := op.Spec{Name: "test_clock.delete", Allow: secretOnly, Params: invoices.IDParams{ID: id}}
	return op.Write(ctx, tc.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.Deleted, error) {
		clock, err := testClockTable.Lock(ctx, w, id, op.LockUpdate)
		if err != nil {
			return nil, err
		}
		if err := w.AtClockTime(clock.AdvancedTo.Time); err != nil {
			return nil, err
		}
		now, bound := w.Now(), clock.ID
		drafts := w.Tx.Select((*models.Invoice)(nil)).Column("inv.id").
			Where("inv.test_clock_id = ?", bound).Where("inv.status = ?", models.InvoiceDraft)
		steps := []func() error{
			func() error {
				_, err := w.Tx.Update((*models.Customer)(nil)).Set("deleted = ?", now).Set("updated = ?", now).
					Where("test_clock_id = ?", bound).Where("deleted IS NULL").Exec(ctx)
				return err
			},
			func() error {
				_, err := w.Tx.Update((*models.Account)(nil)).Set("status = ?", models.AccountStatusDisabled).
					Set("disabled = ?", now).Set("updated = ?", now).
					Where("test_clock_id = ?", bound).Where("status <> ?", models.AccountStatusDisabled).Exec(ctx)
				return err
			},
			func() error {
				_, err := w.Tx.Update((*models.Invoice)(nil)).Set("status = ?", models.InvoiceVoid).Set("voided_at = ?", now).
					Set("updated = ?", now).Where("test_clock_id = ?", bound).
					Where("status IN (?)", bun.In([]models.InvoiceStatus{models.InvoiceOpen, models.InvoiceUncollectible})).Exec(ctx)
				return err
			},
			func() error {
				_, err := w.Tx.Update((*models.SubscriptionPendingLine)(nil)).Set("invoice_id = NULL").Where("invoice_id IN (?)", drafts).Exec(ctx)
				return err
			},
			func() error {
				_, err := w.Tx.Delete((*models.InvoiceLineItem)(nil)).Where("invoice_id IN (?)", drafts).Exec(ctx)
				return err
			},
			func() error {
				_, err := w.Tx.Delete((*models.Invoice)(nil)).Where("test_clock_id = ?", bound).
					Where("status = ?", models.InvoiceDraft).Exec(ctx)
				return err
			},
			func() error {
				_, err := w.Tx.Update((*models.Subscription)(nil)).Set("status = 'canceled'").Set("canceled_at = ?", now).
					Set("next_payment_attempt = NULL").Set("updated = ?", now).
					Where("test_clock_id = ?", bound).Where("status NOT IN ('canceled', 'terminated')").Exec(ctx)
				return err
			},
			func() error {
				_, err := w.Tx.Update(clock).Set("deleted = ?", tc.svc.Clock.Now()).Set("updated = ?", tc.svc.Clock.Now()).
					WherePK().Exec(ctx)
				return err
			},
		}
		for _, step := range steps {
			if err := step(); err != nil {
				return nil, err
			}
		}
		return &models.Deleted{ID: clock.ID, Object: "test_clock", Deleted: true}, nil
	})
}
