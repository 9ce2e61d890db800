package usage

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/domain/amount"
	"github.com/frame-oss/payments-server/internal/domain/usage"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/platform/wire"
	"github.com/frame-oss/payments-server/models"
)

// payerColumn is the payer's column as an identifier.
func payerColumn(p *usagePayer) bun.Ident { return bun.Ident(p.Column()) }

// payerThreshold reads the payer's threshold (nil when none), locked FOR
// UPDATE when lock is set: the lock serializes the payer's auto-charges.
func payerThreshold(ctx context.Context, tx *store.Tenant, payer *usagePayer, lock bool) (*models.UsageThreshold, error) {
	var rows []*models.UsageThreshold
	q := payer.Where(tx.Select(&rows))
	if lock {
		q = q.For("UPDATE")
	}
	if err := q.Scan(ctx); err != nil || len(rows) == 0 {
		return nil, err
	}
	return rows[0], nil
}

// cycleUsage is the payer's unbilled priced usage of the cycle containing
// now: its lines and its accumulated amount (before credits, which apply
// when it is invoiced).
type cycleUsage struct {
	Start, End  time.Time
	Lines       []*usageLine
	Accumulated int64
	// Beyond: the accumulation lies beyond the bound on money
	// (Accumulated then shows the bound).
	Beyond bool
	Oldest *time.Time
}

// source is the payer's unbilled usage of the cycle.
func (c *cycleUsage) source(payer *usagePayer) usageSource {
	return usageSource{Payer: payer, Start: c.Start, End: c.End}
}

// readCycle reads the payer's cycle usage, aggregated in the database
// (one statement, one row per event name).
func readCycle(ctx context.Context, tx *store.Tenant, payer *usagePayer, now time.Time) (*cycleUsage, error) {
	c := &cycleUsage{}
	c.Start, c.End = models.CycleOf(now)
	var err error
	if c.Lines, err = readUsage(ctx, tx, c.source(payer)); err != nil {
		return nil, err
	}
	for _, l := range c.Lines {
		gross, priced := l.grossAmount()
		sum, within := amount.Add(c.Accumulated, gross)
		c.Accumulated = sum
		if !priced || !within || c.Beyond {
			// Beyond the bound the amount is not shown exactly: the
			// accumulation is at least the bound, which any threshold
			// is reached by.
			c.Accumulated, c.Beyond = models.MaxAmount, true
		}
		if c.Oldest == nil || l.Earliest.Before(*c.Oldest) {
			at := l.Earliest
			c.Oldest = &at
		}
	}
	return c, nil
}

// thresholdProgress reads the payer's cycle and renders its progress
// against t (nil: no threshold).
func thresholdProgress(ctx context.Context, livemode bool, tx *store.Tenant, payer *usagePayer, t *models.UsageThreshold,
	now time.Time) (*models.ThresholdProgress, error) {
	c, err := readCycle(ctx, tx, payer, cycleNow(now))
	if err != nil {
		return nil, err
	}
	p := &models.ThresholdProgress{AccumulatedAmountCents: c.Accumulated, PeriodStart: wire.ISOTime{Time: c.Start},
		PeriodEnd: wire.ISOTime{Time: c.End}, BillingCycle: models.BillingCycleMonthly, Customer: payer.CustomerID,
		Account: payer.AccountID, AccountID: payer.AccountID, Livemode: livemode}
	if c.Oldest != nil {
		p.OldestPendingChargeAt = &wire.ISOTime{Time: c.Oldest.UTC()}
	}
	if t != nil {
		p.ThresholdAmountCents, p.BillingCycle = t.ThresholdAmountCents, t.BillingCycle
		p.ThresholdPercentage = usage.Percentage(c.Accumulated, t.ThresholdAmountCents)
	}
	return p, nil
}
