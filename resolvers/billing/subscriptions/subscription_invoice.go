package subscriptions

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/invoices"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// billLine is one line a subscription bills: a period, a proration line
// or applied credit. Amount is per unit; Quantity 1 unless the period's.
type billLine struct {
	Kind        string
	ProductID   uuid.UUID
	Description string
	Quantity    int
	Amount      int64
	Start, End  *time.Time
	Proportion  *string
	pending     *models.SubscriptionPendingLine
}

func (l billLine) total() int64 { return l.Amount * int64(l.Quantity) }

// creditsWithin keeps the invoice from going below zero: each credit line
// is taken up to what the lines bill, and what a credit cannot take joins
// the subscription's credit balance. Then the credit balance is applied,
// as a balance line, up to the invoice's total.
//
// It also keeps the invoice and the credit balance within the bound on
// money (docs/billing.md, "The bound on money"): a pending line (a swap's
// line kept for this cycle) that would take the invoice's total, or the
// credit balance, beyond it is not billed now; it stays pending for the
// next invoice, whole. The period's own line is within the bound (its
// price is), so an invoice always has room for it.
func creditsWithin(sub *models.Subscription, lines []billLine) []billLine {
	billed := make([]bool, len(lines))
	var running int64
	for i, l := range lines {
		if l.total() >= 0 && (l.pending == nil || running+l.total() <= models.MaxAmount) {
			running += l.total()
			billed[i] = true
		}
	}
	for i := range lines {
		l := &lines[i]
		if l.total() >= 0 {
			continue
		}
		if excess := -l.Amount - running; excess > 0 {
			if l.pending != nil && sub.CreditBalance+excess > models.MaxAmount {
				continue
			}
			sub.CreditBalance += excess
			l.Amount = -running
		}
		running += l.Amount
		billed[i] = true
	}
	out := make([]billLine, 0, len(lines)+1)
	for i, l := range lines {
		if billed[i] {
			out = append(out, l)
		}
	}
	if sub.CreditBalance > 0 && running > 0 {
		take := min(sub.CreditBalance, running)
		sub.CreditBalance -= take
		out = append(out, billLine{Kind: models.LineBalance, ProductID: sub.ProductID, Description: "Credit balance applied",
			Quantity: 1, Amount: -take})
	}
	return out
}

// billSubscription makes, issues and collects an invoice of the
// subscription's lines (charged automatically, on the subscription's
// payment method or else the payer's default), applying credit first.
// Foreground (a request), a charge that cannot be made (no payment method)
// is the request's error; in the background (a renewal, a retry) it is a
// failed attempt recorded on the invoice, like a decline.
func (is *invoiceBiller) billSubscription(ctx context.Context, w *op.W, sub *models.Subscription, reason models.BillingReason,
	lines []billLine, background bool) (*models.Invoice, error) {
	lines = creditsWithin(sub, lines)
	now := w.Now()
	inv := &models.Invoice{ID: ids.New(now), Status: models.InvoiceDraft, CollectionMethod: models.ChargeAutomatically,
		Currency: sub.Currency, SubscriptionID: &sub.ID, BillingReason: &reason, CustomerID: sub.CustomerID,
		AccountID: sub.AccountID, Metadata: models.Metadata{}, Created: models.At(now), Updated: models.At(now)}
	items := make([]*models.InvoiceLineItem, 0, len(lines))
	var pending []uuid.UUID
	for _, l := range lines {
		li := &models.InvoiceLineItem{ID: ids.New(now), InvoiceID: inv.ID, ProductID: l.ProductID, Description: l.Description,
			Quantity: l.Quantity, UnitAmountCents: l.Amount, UnitAmountCurrency: sub.Currency, Kind: models.LineItemKind(l.Kind),
			Proportion: l.Proportion, Created: models.At(now), Updated: models.At(now)}
		if l.Start != nil {
			s, e := models.At(*l.Start), models.At(*l.End)
			li.PeriodStart, li.PeriodEnd = &s, &e
		}
		if err := invoices.BoundLine(li, "product"); err != nil {
			return nil, err
		}
		items = append(items, li)
		if l.pending != nil {
			pending = append(pending, l.pending.ID)
		}
	}
	total, err := invoices.BoundTotal(items, "product")
	if err != nil {
		return nil, err
	}
	inv.Total, inv.TestClockID = total, sub.TestClockID
	if err := invoices.InsertInvoice(ctx, w, inv, items); err != nil {
		return nil, err
	}
	if len(pending) > 0 {
		if _, err := w.Tx.Update((*models.SubscriptionPendingLine)(nil)).Set("invoice_id = ?", inv.ID).Where("pl.id IN (?)", bun.In(pending)).
			Exec(ctx); err != nil {
			return nil, err
		}
	}
	inv, err = invoices.OpenInvoice(ctx, w, inv.ID)
	if err != nil {
		return nil, err
	}
	return inv, is.Attempt(ctx, w, inv, sub.DefaultPaymentMethodID, background)
}
