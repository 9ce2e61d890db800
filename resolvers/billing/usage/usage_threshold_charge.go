package usage

import (
	"context"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// afterIngest runs in the write of an event newly recorded for a payer
// with a threshold (the payer's usage lock held shared): it locks the
// threshold (serializing the payer's auto-charges; the cycle is read
// after the lock, so it sees what the previous charge claimed), and when
// the cycle's unbilled priced usage reaches the threshold it invoices
// those events at once, charged automatically with credits applied (a
// refused charge is recorded on the invoice, never the ingest's error),
// and accumulation starts again. The event answered names that invoice. An event outside the current cycle
// changes nothing of it.
func (ts *UsageThresholds) afterIngest(ctx context.Context, w *op.W, p *usagePayer, ev *models.MeteringEvent) error {
	now := cycleNow(w.Now())
	start, end := models.CycleOf(now)
	if ev.Timestamp.Before(start) || !ev.Timestamp.Before(end) {
		return nil
	}
	t, err := payerThreshold(ctx, w.Tx, p, true)
	if err != nil || t == nil {
		return err
	}
	c, err := readCycle(ctx, w.Tx, p, now)
	if err != nil || len(c.Lines) == 0 || c.Accumulated < t.ThresholdAmountCents {
		return err
	}
	inv, err := ts.svc.Invoices.billUsage(ctx, w, p, usageBill{Source: c.source(p),
		Method: models.ChargeAutomatically, Background: true, Metadata: models.Metadata{}, Member: "value"})
	if err != nil {
		return err
	}
	// The answer is the event as stored: billed by the charge it caused.
	ev.InvoiceID, ev.Updated = &inv.ID, models.At(w.Now())
	return nil
}
