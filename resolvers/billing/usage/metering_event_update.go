package usage

import (
	"context"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// errEventBilled refuses a correction of usage an invoice already billed.
var errEventBilled = apierr.Rule("metering_event_invoiced",
	"The metering event is already invoiced and can no longer change", "", nil)

// Update corrects an event's value, timestamp or metadata while no invoice
// has billed it (docs/billing.md): a billed event is 422
// metering_event_invoiced, and a timestamp moved into a billed window, or
// more than an hour past the payer's time, is refused as on create. It
// takes the payer's usage lock shared, as ingest does, so it cannot
// interleave with a usage invoice of the payer.
func (es *MeteringEvents) Update(ctx context.Context, id string, in *models.UpdateMeteringEventInput) (*models.MeteringEvent, error) {
	spec := op.Spec{Name: "metering_event.update", Allow: secretOnly,
		Params: idInput[*models.UpdateMeteringEventInput]{ID: id, Input: in}, Check: in.Validate}
	return op.Write(ctx, es.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.MeteringEvent, error) {
		seen, err := meteringEventTable.Find(ctx, w, id)
		if err != nil {
			return nil, err
		}
		customer, account := idString(seen.CustomerID), idString(seen.AccountID)
		payer, err := readPayer(ctx, w.Tx, customer, account, payerQuery{Lock: true, LockThreshold: true})
		if err != nil {
			return nil, err
		}
		if payer.ClockTime != nil {
			if err := w.AtClockTime(*payer.ClockTime); err != nil {
				return nil, err
			}
		}
		ev, err := meteringEventTable.Lock(ctx, w, id, op.LockUpdate)
		if err != nil {
			return nil, err
		}
		if ev.InvoiceID != nil {
			return nil, errEventBilled
		}
		now := w.Now()
		if in.Timestamp != nil && !in.Timestamp.Time.Equal(ev.Timestamp.Time) {
			at := in.Timestamp.Time
			if at.After(now.Add(maxUsageAhead)) {
				return nil, apierr.FieldError("timestamp", "must not be more than an hour after the payer's current time")
			}
			billed, err := windowBilled(ctx, w, payer, ev.EventName, at)
			if err != nil {
				return nil, err
			}
			if billed {
				return nil, errWindowBilled
			}
			ev.Timestamp = models.ISOTime{Time: at}
		}
		if in.Value != nil {
			ev.Value = *in.Value
		}
		ev.Metadata = models.MergeMetadata(ev.Metadata, in.Metadata)
		ev.Updated = models.At(now)
		if _, err = w.Tx.Update(ev).Column("value", "timestamp", "metadata", "updated").WherePK().Exec(ctx); err != nil {
			return nil, err
		}
		// The payer's running totals are computed again from its events
		// by its next ingest.
		return ev, staleTotals(ctx, w, payer)
	})
}

// windowBilled reports whether a usage invoice billed the window holding
// at for the payer and event name.
func windowBilled(ctx context.Context, w *op.W, p *usagePayer, name string, at time.Time) (bool, error) {
	return w.Tx.Select((*usageWindow)(nil)).Apply(p.Where).Where("uw.event_name = ?", name).
		Where("uw.period_start <= ?", at).Where("uw.period_end > ?", at).Exists(ctx)
}

// idString is id as a string pointer (nil for nil).
func idString[T interface{ String() string }](id *T) *string {
	if id == nil {
		return nil
	}
	s := (*id).String()
	return &s
}
