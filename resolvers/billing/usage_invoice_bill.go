package billing

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// usageBill is an invoice of a payer's priced usage: the events it bills
// (unbilled, read under the payer's usage lock), the window its lines
// name, and how it is collected.
type usageBill struct {
	Events     []pricedEvent
	Start, End time.Time
	// Windows records the window per event name billed, so that no other
	// invoice bills it and no event is reported into it (usage invoices;
	// an auto-charge bills events, not a window).
	Windows bool
	Method  models.CollectionMethod
	// Background: a charge refused before the processor (no payment
	// method) is a failed attempt on the invoice, not the write's error.
	Background  bool
	NetTerms    int
	Description *string
	Memo        *string
	Metadata    models.Metadata
	// Member is what a bill beyond the bound on money is refused on: the
	// window's end_date (a usage invoice: bill a shorter window) or the
	// value reported (an auto-charge this event would take beyond it).
	Member string
}

// billUsage makes, issues and collects the invoice of b: one usage line
// per event name, the payer's credit pools applied first (earliest expiry
// first), the events claimed (their invoice set; an event already
// claimed is an error: the payer's usage lock rules it out), the windows
// recorded, and the invoice charged through the charge path when it is
// charged automatically. b.Events is not empty.
func (is *Invoices) billUsage(ctx context.Context, w *op.W, payer *usagePayer, b usageBill) (*models.Invoice, error) {
	lines := usageLines(b.Events)
	now := w.Now()
	credits, err := lockCredits(ctx, w, payer, productsOf(lines), now)
	if err != nil {
		return nil, err
	}
	reason := models.BillingUsage
	inv := &models.Invoice{ID: ids.New(now), Status: models.InvoiceDraft, CollectionMethod: b.Method, Currency: "usd",
		BillingReason: &reason, CustomerID: payer.CustomerID, AccountID: payer.AccountID, NetTerms: b.NetTerms,
		Description: b.Description, Memo: b.Memo, Metadata: b.Metadata, TestClockID: payer.ClockID,
		Created: models.At(now), Updated: models.At(now)}
	if inv.Metadata == nil {
		inv.Metadata = models.Metadata{}
	}
	start, end := models.At(b.Start), models.At(b.End)
	items := make([]*models.InvoiceLineItem, 0, len(lines))
	var claimed []uuid.UUID
	for _, l := range lines {
		applied, limited := credits.apply(l.ProductID, l.Totals.Usage)
		name, meter := l.EventName, l.MeterID
		u, c := models.UsageFromRat(l.Totals.Usage).String(), models.UsageFromRat(applied).String()
		cents, ok := l.amount(applied, limited)
		if !ok {
			return nil, usageBeyondBound(b.Member)
		}
		li := &models.InvoiceLineItem{ID: ids.New(now), InvoiceID: inv.ID, ProductID: l.ProductID,
			Description: l.ProductName + " (" + l.EventName + ")", Quantity: 1, UnitAmountCents: cents,
			UnitAmountCurrency: inv.Currency, Kind: models.LineUsage, PeriodStart: &start, PeriodEnd: &end,
			EventName: &name, Usage: &u, CreditsApplied: &c, MeterID: &meter, Created: models.At(now), Updated: models.At(now)}
		li.Derive()
		items = append(items, li)
		claimed = append(claimed, l.Events...)
	}
	if inv.Total, err = boundTotal(items, b.Member); err != nil {
		return nil, usageBeyondBound(b.Member)
	}
	if err := insertInvoice(ctx, w, inv, items); err != nil {
		return nil, err
	}
	if err := claimEvents(ctx, w, inv.ID, claimed); err != nil {
		return nil, err
	}
	if b.Windows {
		if err := recordWindows(ctx, w, payer, inv.ID, lines, b.Start, b.End); err != nil {
			return nil, err
		}
	}
	if err := credits.save(ctx, w, inv.ID); err != nil {
		return nil, err
	}
	if inv, err = openInvoice(ctx, w, inv.ID); err != nil {
		return nil, err
	}
	if inv.Total > 0 && inv.CollectionMethod == models.RequestPayment {
		return inv, nil
	}
	return inv, is.attempt(ctx, w, inv, nil, b.Background)
}

// usageBeyondBound refuses a bill of usage beyond the bound on money, on
// member.
func usageBeyondBound(member string) error {
	if member == "value" {
		return apierr.FieldError(member, "triggers an auto-charge of the cycle's usage beyond "+maxAmountText+
			"; invoice part of the cycle first (POST /v1/billing/billing_invoice)")
	}
	return apierr.FieldError(member, "closes a window whose usage is priced beyond "+maxAmountText+"; bill a shorter window")
}

// claimEvents makes invoiceID the invoice of the events, which must all
// be unbilled still (one statement).
func claimEvents(ctx context.Context, w *op.W, invoiceID uuid.UUID, events []uuid.UUID) error {
	res, err := w.Tx.Update((*models.MeteringEvent)(nil)).Set("invoice_id = ?", invoiceID).Set("updated = ?", w.Now()).
		Where("me.id IN (?)", bun.In(events)).Where("me.invoice_id IS NULL").Exec(ctx)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != int64(len(events)) {
		return fmt.Errorf("billing: claimed %d of %d usage events: another invoice billed some", n, len(events))
	}
	return nil
}

// recordWindows records [start, end) billed for each event name lines bill
// (one statement).
func recordWindows(ctx context.Context, w *op.W, payer *usagePayer, invoiceID uuid.UUID, lines []*usageLine, start, end time.Time) error {
	rows := make([]*usageWindow, 0, len(lines))
	for _, l := range lines {
		rows = append(rows, &usageWindow{InvoiceID: invoiceID, EventName: l.EventName, CustomerID: payer.CustomerID,
			AccountID: payer.AccountID, PeriodStart: start, PeriodEnd: end})
	}
	_, err := store.InsertModel(w.Tx, rows).Exec(ctx)
	return err
}
