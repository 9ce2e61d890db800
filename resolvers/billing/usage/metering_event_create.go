package usage

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// maxUsageAhead is how far past the payer's time an event's timestamp may
// be: a client's clock running ahead, not usage of the future.
const maxUsageAhead = time.Hour

// errWindowBilled refuses usage whose instant falls in a window already
// billed for its payer and name: it could never be billed.
var errWindowBilled = apierr.Rule("usage_period_invoiced",
	"The usage period containing timestamp is already invoiced for this payer and event name", "timestamp", nil)

// Create records one metering event for a payer. A reference already
// recorded for the event name in the merchant's mode is silently ignored:
// the answer is the original event, whoever asks and with whatever values,
// and nothing changes, for ever (the unique key of the table decides,
// so concurrent duplicates make one row). timestamp defaults to the
// payer's time (its test clock's). The event name's meter is made by its
// first event.
//
// A request without an Idempotency-Key is committed together with the
// requests arriving while others are written (metering_event_group.go);
// one with a key, or whose payer is on a test clock or has a threshold,
// is written alone. Statements, alone or in a group of one: the payer
// with its clock, meter and threshold, taking its usage lock shared
// (one), and the insert (one); the meter's insert on the first event of a
// name; the original's read for a repeated reference.
func (es *MeteringEvents) Create(ctx context.Context, in *models.CreateMeteringEventInput) (*models.MeteringEvent, error) {
	spec := op.Spec{Name: "metering_event.create", Allow: secretOnly, Params: in, Check: in.Validate}
	if !op.Keyed(ctx) {
		p, err := op.Admit(ctx, spec)
		if err != nil {
			return nil, err
		}
		if out := es.group.submit(ctx, p, in); !out.alone {
			return out.ev, out.err
		}
	}
	return op.Write(ctx, es.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.MeteringEvent, error) {
		return es.ingestOne(ctx, w, in)
	})
}

// ingestOne records one event in its own write, at its payer's time.
func (es *MeteringEvents) ingestOne(ctx context.Context, w *op.W, in *models.CreateMeteringEventInput) (*models.MeteringEvent, error) {
	payer, err := readPayer(ctx, w.Tx, in.Customer, in.Account,
		payerQuery{Lock: true, EventName: in.EventName, Threshold: es.afterIngest != nil, LockThreshold: es.afterIngest != nil})
	if err != nil {
		return nil, err
	}
	if payer.ClockTime != nil {
		if err := w.AtClockTime(*payer.ClockTime); err != nil {
			return nil, err
		}
	}
	now := w.Now()
	at, err := ingestTime(now, in.Timestamp)
	if err != nil {
		return nil, err
	}
	meter := payer.MeterID
	if meter == nil {
		if meter, err = meterID(ctx, w, *in.EventName); err != nil {
			return nil, err
		}
	}
	ev := newMeteringEvent(now, at, *meter, payer, in)
	inserted, err := insertEvents(ctx, w, []*models.MeteringEvent{ev})
	if err != nil {
		return nil, err
	}
	if !inserted[ev.ID] {
		return originalEvent(ctx, w, *in.EventName, *in.Reference)
	}
	if payer.ThresholdID != nil {
		if err := es.afterIngest(ctx, w, payer, ev); err != nil {
			return nil, err
		}
	}
	return ev, nil
}

// originalEvent answers a reference the insert did not record: the event
// recorded under it (read in a statement of its own, which sees a
// duplicate committed while the insert waited for it), or, when there is
// none, the insert's trigger skipped the row because its window is billed.
func originalEvent(ctx context.Context, w *op.W, name, reference string) (*models.MeteringEvent, error) {
	var rows []models.MeteringEvent
	err := meteringEventTable.Select(w.Tx, nil, &rows).Where("me.event_name = ?", name).Where("me.reference = ?", reference).Scan(ctx)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, errWindowBilled
	}
	settleInvoice(&rows[0])
	return &rows[0], nil
}

// meterID is the id of the meter of name, made (sum, not priced) when
// there is none.
func meterID(ctx context.Context, w *op.W, name string) (*uuid.UUID, error) {
	id, err := insertMeter(ctx, w, name)
	if err != nil || id != nil {
		return id, err
	}
	var m models.BillingMeter
	if err := w.Tx.Select(&m).Column("id").Where("bm.event_name = ?", name).Scan(ctx); err != nil {
		return nil, err
	}
	return &m.ID, nil
}
