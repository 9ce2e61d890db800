package usage

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/invoices"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// usageBill is an invoice of a payer's priced usage: the usage it bills
// (Source: the payer's unbilled events of a window, claimed by their
// predicate), the window its lines name, and how it is collected.
type usageBill struct {
	Source usageSource
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

// billUsage makes, issues and collects the invoice of b: the invoice is
// inserted first so that an auto-charge's events can be claimed by their
// predicate in the statement that aggregates them (one usage line per
// event name; the statements are the same for ten events or ten million;
// a usage invoice's window bills its events by being recorded), then the
// payer's credit pools are applied (earliest expiry first), the lines and
// the total written, the windows recorded, and the invoice charged through
// the charge path when it is charged automatically. No usage to claim is
// errNoBillableUsage (the write rolls back).
func (is *invoiceBiller) billUsage(ctx context.Context, w *op.W, payer *usagePayer, b usageBill) (*models.Invoice, error) {
	now := w.Now()
	reason := models.BillingUsage
	inv := &models.Invoice{ID: ids.New(now), Status: models.InvoiceDraft, CollectionMethod: b.Method, Currency: "usd",
		BillingReason: &reason, CustomerID: payer.CustomerID, AccountID: payer.AccountID, NetTerms: b.NetTerms,
		Description: b.Description, Memo: b.Memo, Metadata: b.Metadata, TestClockID: payer.ClockID,
		Created: models.At(now), Updated: models.At(now)}
	if inv.Metadata == nil {
		inv.Metadata = models.Metadata{}
	}
	if err := invoices.InsertInvoice(ctx, w, inv, nil); err != nil {
		return nil, err
	}
	lines, err := b.bill(ctx, w, inv.ID, now)
	if err != nil {
		return nil, err
	}
	if len(lines) == 0 {
		return nil, errNoBillableUsage
	}
	credits, err := lockCredits(ctx, w, payer, productsOf(lines), now)
	if err != nil {
		return nil, err
	}
	start, end := models.At(b.Source.Start), models.At(b.Source.End)
	items := make([]*models.InvoiceLineItem, 0, len(lines))
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
	}
	if inv.Total, err = invoices.BoundTotal(items, b.Member); err != nil {
		return nil, usageBeyondBound(b.Member)
	}
	if err := writeUsageLines(ctx, w, inv, items); err != nil {
		return nil, err
	}
	if b.Windows {
		if err := recordWindows(ctx, w, payer, inv.ID, lines, b.Source.Start, b.Source.End); err != nil {
			return nil, err
		}
	}
	if err := credits.save(ctx, w, inv.ID); err != nil {
		return nil, err
	}
	if inv, err = invoices.OpenInvoice(ctx, w, inv.ID); err != nil {
		return nil, err
	}
	if inv.Total > 0 && inv.CollectionMethod == models.RequestPayment {
		return inv, nil
	}
	return inv, is.Attempt(ctx, w, inv, nil, b.Background)
}

// bill aggregates the usage b bills into one line per event name, in one
// statement whatever the events: a usage invoice reads its window (the
// window it records is what bills its events: no event row is written),
// an auto-charge claims its events by their predicate (it records no
// window).
func (b usageBill) bill(ctx context.Context, w *op.W, invoiceID uuid.UUID, now time.Time) ([]*usageLine, error) {
	if b.Windows {
		return readUsage(ctx, w.Tx, b.Source)
	}
	return claimUsage(ctx, w.Tx, b.Source, invoiceID, now)
}

// writeUsageLines inserts the invoice's lines and sets its total to their
// sum (the invoice was inserted before its usage was claimed): two
// statements.
func writeUsageLines(ctx context.Context, w *op.W, inv *models.Invoice, items []*models.InvoiceLineItem) error {
	if _, err := store.InsertModel(w.Tx, items).Exec(ctx); err != nil {
		return err
	}
	_, err := w.Tx.Update(inv).Column("total").WherePK().Exec(ctx)
	return err
}

// usageBeyondBound refuses a bill of usage beyond the bound on money, on
// member.
func usageBeyondBound(member string) error {
	if member == "value" {
		return apierr.FieldError(member, "triggers an auto-charge of the cycle's usage beyond "+invoices.MaxAmountText+
			"; invoice part of the cycle first (POST /v1/billing/billing_invoice)")
	}
	return apierr.FieldError(member, "closes a window whose usage is priced beyond "+invoices.MaxAmountText+"; bill a shorter window")
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
