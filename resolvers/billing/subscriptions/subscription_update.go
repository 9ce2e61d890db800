package subscriptions

import (
	"context"

	"github.com/frame-oss/payments-server/internal/domain/amount"
	"github.com/frame-oss/payments-server/internal/domain/billing/calendar"
	"github.com/frame-oss/payments-server/internal/domain/billing/proration"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/invoices"
	"github.com/frame-oss/payments-server/resolvers/op"
)

type updateSubscriptionParams struct {
	ID    string                          `json:"id"`
	Input *models.UpdateSubscriptionInput `json:"input"`
}

// Update changes a subscription's product (a swap), payment method,
// description or metadata (spec doc 2 §4.4). A swap to a product of the
// same interval prorates at once by the subscription's
// proration_behavior; one to another interval is queued as the
// scheduled_change for the next renewal, with no credit. Only an active
// subscription swaps (rule 4: past_due and unpaid are undefined, so
// refused). Only a swap prorates or writes a change log (rule 3).
func (ss *Subscriptions) Update(ctx context.Context, id string, in *models.UpdateSubscriptionInput) (*models.Subscription, error) {
	spec := op.Spec{Name: "subscription.update", Allow: secretOnly, Params: updateSubscriptionParams{ID: id, Input: in},
		Check: in.Validate}
	return op.Write(ctx, ss.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.Subscription, error) {
		sub, before, err := lockSubscription(ctx, w, id, true)
		if err != nil {
			return nil, err
		}
		if sub.Status == models.SubscriptionCanceled || sub.Status == models.SubscriptionTerminated {
			return nil, apierr.InvalidState("The subscription is " + string(sub.Status) + " and can no longer change")
		}
		if in.DefaultPaymentMethod != nil {
			if sub.DefaultPaymentMethodID, err = payerMethod(ctx, w, sub, *in.DefaultPaymentMethod); err != nil {
				return nil, err
			}
		}
		if in.Description != nil {
			sub.Description = in.Description
		}
		if in.Metadata != nil {
			sub.Metadata = models.MergeMetadata(sub.Metadata, in.Metadata)
			var f apierr.Fields
			models.CheckMetadataSize(&f, "metadata", sub.Metadata)
			if err := f.Err(); err != nil {
				return nil, err
			}
		}
		if in.Product != nil {
			if err := ss.swap(ctx, w, sub, *in.Product); err != nil {
				return nil, err
			}
		}
		return saveSubscription(ctx, w, sub, before)
	})
}

// swap moves the subscription to the product named.
func (ss *Subscriptions) swap(ctx context.Context, w *op.W, sub *models.Subscription, productID string) error {
	if v, ok := ids.Parse(productID); ok && v == sub.ProductID {
		return nil
	}
	if sub.Status != models.SubscriptionActive {
		return apierr.InvalidState("Only an active subscription can swap its product (the subscription is " + string(sub.Status) +
			"); recover it to active first")
	}
	to, _, err := recurringProduct(ctx, w, productID)
	if err != nil {
		return err
	}
	from, err := invoices.ProductRow(ctx, w.Tx, sub.ProductID)
	if err != nil {
		return err
	}
	now := w.Now()
	if from.Recurring == nil || from.Recurring.Interval != to.Recurring.Interval {
		switchInterval, created := true, models.At(now)
		changeID := ids.New(now)
		sub.ScheduledChangeID, sub.ScheduledProductID = &changeID, &to.ID
		sub.ScheduledIntervalSwitch, sub.ScheduledChangeCreated = &switchInterval, &created
		return nil
	}
	newPrice, err := periodPrice(sub.Phases, inForce(sub.Phases, sub.PeriodNumber), to.DefaultPrice, sub.Quantity)
	if err != nil {
		return err
	}
	period := calendar.Period{Index: sub.PeriodNumber, Start: sub.CurrentPeriodStart.Time, End: sub.CurrentPeriodEnd.Time}
	if !period.Contains(now) {
		// The period is over and its renewal not yet applied (or applied
		// ahead of this write's time): nothing of it is left to prorate,
		// and the renewal bills the new product in full.
		if err := logSwap(ctx, w, sub, from, to); err != nil {
			return err
		}
		sub.ProductID = to.ID
		return nil
	}
	res, err := proration.Prorate(proration.Swap{Period: period, At: now, Charged: sub.PeriodAmountCharged,
		NewPrice: newPrice, Behavior: proration.Behavior(sub.ProrationBehavior)})
	if err != nil {
		return err
	}
	lines := prorationLines(sub, from, to, res)
	var ok bool
	switch sub.ProrationBehavior {
	case models.CreateProrations:
		if err := addPending(ctx, w, sub, lines); err != nil {
			return err
		}
		sub.PeriodAmountCharged = newPrice
	case models.AlwaysInvoice:
		if res.Total > 0 {
			inv, err := ss.svc.Invoices.billSubscription(ctx, w, sub, models.BillingSubscriptionUpdate, lines, false)
			if err != nil {
				return err
			}
			if inv.Status != models.InvoicePaid {
				startDunning(sub, now)
			}
		} else if sub.CreditBalance, ok = amount.Add(sub.CreditBalance, -res.Total); !ok {
			return apierr.FieldError("product", "would take the subscription's credit balance beyond "+invoices.MaxAmountText)
		}
		sub.PeriodAmountCharged = newPrice
	}
	if err := logSwap(ctx, w, sub, from, to); err != nil {
		return err
	}
	sub.ProductID = to.ID
	return nil
}

// prorationLines are the swap's lines as invoice lines: the credit for
// the old product, the charge for the new, each with its window and
// proportion.
func prorationLines(sub *models.Subscription, from, to *models.Product, res proration.Result) []billLine {
	out := make([]billLine, 0, len(res.Lines))
	for _, l := range res.Lines {
		start, end, prop := l.Start, l.End, l.Proportion.String()
		bl := billLine{Kind: models.LineProrationCharge, ProductID: to.ID, Description: "Remaining time on " + to.Name,
			Quantity: 1, Amount: l.Amount, Start: &start, End: &end, Proportion: &prop}
		if l.Kind == proration.Credit {
			bl.Kind, bl.ProductID, bl.Description = models.LineProrationCredit, from.ID, "Unused time on "+from.Name
		}
		out = append(out, bl)
	}
	return out
}

// addPending keeps a swap's lines for the next cycle's invoice
// (create_prorations).
func addPending(ctx context.Context, w *op.W, sub *models.Subscription, lines []billLine) error {
	if len(lines) == 0 {
		return nil
	}
	now := w.Now()
	rows := make([]*models.SubscriptionPendingLine, len(lines))
	for i, l := range lines {
		rows[i] = &models.SubscriptionPendingLine{ID: ids.New(now), SubscriptionID: sub.ID, Kind: l.Kind, ProductID: l.ProductID,
			Description: l.Description, Amount: l.Amount, PeriodStart: *l.Start, PeriodEnd: *l.End, Proportion: *l.Proportion,
			Created: now}
	}
	_, err := store.InsertModel(w.Tx, rows).Exec(ctx)
	return err
}
