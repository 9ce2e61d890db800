package subscriptions

import (
	"context"
	"time"

	"github.com/frame-oss/payments-server/internal/domain/billing/calendar"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/invoices"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// renew rolls a subscription whose period has ended by at into its next
// period (docs/billing.md, Renewal): a scheduled change takes effect
// first (an interval switch starts a new calendar at the renewal), the
// phase in force starts if it had not, and the period is billed unless
// the subscription is paused: the period's line, the pending proration
// lines and the credit balance on one invoice (subscription_cycle),
// issued and charged. A declined charge starts dunning.
func (ss *Subscriptions) renew(ctx context.Context, w *op.W, id string, at time.Time) error {
	sub, before, err := lockSubscription(ctx, w, id, false)
	if err != nil {
		return err
	}
	switch sub.Status {
	case models.SubscriptionActive, models.SubscriptionPastDue, models.SubscriptionPaused:
	default:
		return nil
	}
	if sub.CurrentPeriodEnd == nil || sub.CurrentPeriodEnd.After(at) {
		return nil
	}
	boundary := sub.CurrentPeriodEnd.Time
	pr, err := invoices.ProductRow(ctx, w.Tx, sub.ProductID)
	if err != nil {
		return err
	}
	if sub.ScheduledProductID != nil {
		to, err := invoices.ProductRow(ctx, w.Tx, *sub.ScheduledProductID)
		if err != nil {
			return err
		}
		if err := logSwap(ctx, w, sub, pr, to); err != nil {
			return err
		}
		if sub.ScheduledIntervalSwitch != nil && *sub.ScheduledIntervalSwitch {
			sub.Anchor = models.At(boundary)
		}
		sub.ProductID, pr = to.ID, to
		sub.ScheduledChangeID, sub.ScheduledProductID, sub.ScheduledIntervalSwitch, sub.ScheduledChangeCreated = nil, nil, nil, nil
	}
	period, err := rollPeriod(sub, pr, boundary)
	if err != nil {
		return err
	}
	phase := inForce(sub.Phases, sub.PeriodNumber)
	if phase >= 0 && !sub.Phases[phase].Started() {
		if _, err := w.Tx.Update((*models.SubscriptionPhase)(nil)).Set("started_at = ?", boundary).Set("updated = ?", w.Now()).
			Where("ph.id = ?", sub.Phases[phase].ID).Exec(ctx); err != nil {
			return err
		}
	}
	if sub.Status != models.SubscriptionPaused {
		if err := ss.billPeriod(ctx, w, sub, pr, phase, period); err != nil {
			return err
		}
	}
	out, err := saveSubscription(ctx, w, sub, before)
	if err != nil {
		return err
	}
	return emitSubscription(w, EventRenewalCompleted, out)
}

// rollPeriod moves the subscription into the period of its calendar (its
// anchor, pr's interval) that starts at boundary, where its current one
// ends: the next period, nothing charged for it yet.
func rollPeriod(sub *models.Subscription, pr *models.Product, boundary time.Time) (calendar.Period, error) {
	iv, err := calendar.OfRecurring(string(pr.Recurring.Interval))
	if err != nil {
		return calendar.Period{}, err
	}
	cal, err := calendar.New(sub.Anchor.Time, iv)
	if err != nil {
		return calendar.Period{}, err
	}
	period := cal.PeriodAt(boundary)
	start, end := models.At(period.Start), models.At(period.End)
	sub.PeriodNumber, sub.CurrentPeriodStart, sub.CurrentPeriodEnd = sub.PeriodNumber+1, &start, &end
	sub.PeriodAmountCharged = 0
	return period, nil
}

// billPeriod bills the subscription's new period with its pending
// proration lines.
func (ss *Subscriptions) billPeriod(ctx context.Context, w *op.W, sub *models.Subscription, pr *models.Product, phase int,
	period calendar.Period) error {
	price, err := periodPrice(sub.Phases, phase, pr.DefaultPrice, sub.Quantity)
	if err != nil {
		return err
	}
	lines := []billLine{periodLine(sub, pr, price, period.Start, period.End)}
	var pending []*models.SubscriptionPendingLine
	if err := w.Tx.Select(&pending).Where("pl.subscription_id = ?", sub.ID).Where("pl.invoice_id IS NULL").
		OrderExpr("pl.created, pl.id").Scan(ctx); err != nil {
		return err
	}
	for _, p := range pending {
		start, end, prop := p.PeriodStart, p.PeriodEnd, p.Proportion
		lines = append(lines, billLine{Kind: p.Kind, ProductID: p.ProductID, Description: p.Description, Quantity: 1,
			Amount: p.Amount, Start: &start, End: &end, Proportion: &prop, pending: p})
	}
	inv, err := ss.svc.Invoices.billSubscription(ctx, w, sub, models.BillingSubscriptionCycle, lines, true)
	if err != nil {
		return err
	}
	sub.LatestInvoiceID = &inv.ID
	if inv.Status == models.InvoicePaid {
		sub.PeriodAmountCharged = price
		return nil
	}
	startDunning(sub, w.Now())
	return nil
}
