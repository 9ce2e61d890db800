package usage

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// UsageInvoices bills a payer's usage of a window (docs/billing.md, "Usage
// invoices"): POST /v1/billing/billing_invoice.
type UsageInvoices struct {
	svc *Service
}

func newUsageInvoices(s *Service) *UsageInvoices { return &UsageInvoices{svc: s} }

// errPeriodInvoiced refuses a window that overlaps one already billed for
// the payer (and one of the event names asked).
var errPeriodInvoiced = apierr.Rule("usage_period_invoiced",
	"The usage period overlaps a period already invoiced for this payer and event name", "start_date", nil)

// errNoBillableUsage refuses a window with no priced usage to bill.
var errNoBillableUsage = apierr.Rule("no_billable_usage",
	"The payer has no unbilled usage of a priced meter in this period", "", nil)

// Create bills the payer's unbilled priced usage of [start_date,
// end_date): it takes the payer's usage lock exclusively (no event is
// reported or corrected meanwhile, and the payer's usage invoices run one
// at a time), refuses an end after the payer's time and a window
// overlapping one already billed, then bills one line per event name,
// credits applied first, records the windows and collects the invoice.
// The events are aggregated in the database and billed by the window
// recorded (billUsage), no event row written: the request's statements,
// memory and writes do not grow with them.
func (us *UsageInvoices) Create(ctx context.Context, in *models.CreateUsageInvoiceInput) (*models.Invoice, error) {
	spec := op.Spec{Name: "billing_invoice.create", Allow: secretOnly, Params: in, Check: in.Validate}
	return op.Write(ctx, us.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.Invoice, error) {
		payer, err := readPayer(ctx, w.Tx, in.Customer, in.Account, payerQuery{WithoutJIT: true})
		if err != nil {
			return nil, err
		}
		if err := w.Tx.Lock(ctx, usageLock(payer.ID())); err != nil {
			return nil, err
		}
		if payer.ClockTime != nil {
			if err := w.AtClockTime(*payer.ClockTime); err != nil {
				return nil, err
			}
		}
		start, end := in.StartDate.Time, in.EndDate.Time
		if end.After(w.Now()) {
			return nil, apierr.FieldError("end_date", "must not be after the payer's current time")
		}
		names := in.EventNames()
		q := payer.Where(w.Tx.Select((*usageWindow)(nil))).Where("uw.period_start < ?", end).Where("uw.period_end > ?", start)
		if len(names) > 0 {
			q = q.Where("uw.event_name IN (?)", bun.In(names))
		}
		overlaps, err := q.Exists(ctx)
		if err != nil {
			return nil, err
		}
		if overlaps {
			return nil, errPeriodInvoiced
		}
		// The invoice claims some of the payer's unbilled events: its
		// threshold's running totals are computed again by its next
		// ingest (the threshold's lock taken after the usage lock and
		// before the credits, as the lock order says).
		if err := staleTotals(ctx, w, payer); err != nil {
			return nil, err
		}
		b := usageBill{Source: usageSource{Payer: payer, Start: start, End: end, Names: names, NewWindow: true}, Windows: true, Method: in.Method(), Member: "end_date",
			Description: in.Description, Memo: in.Memo, Metadata: models.MergeMetadata(nil, in.Metadata)}
		if in.NetTerms != nil {
			b.NetTerms = *in.NetTerms
		}
		return us.svc.Invoices.billUsage(ctx, w, payer, b)
	})
}
