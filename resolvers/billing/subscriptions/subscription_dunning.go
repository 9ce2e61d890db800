package subscriptions

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/invoices"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Dunning (docs/billing.md): a failed charge of a subscription's invoice
// leaves the invoice open and the subscription past_due, and the invoice
// is charged again 3, 5 and 7 days after each failed attempt, 4 attempts
// in all; when the 4th fails the subscription is unpaid, with no more
// attempts and no more renewals. Paying the open invoice, by a retry or
// by POST /v1/invoices/{id}/pay, returns it to active.

// retryDelays are the waits after the 1st, 2nd and 3rd failed attempt.
var retryDelays = []time.Duration{3 * 24 * time.Hour, 5 * 24 * time.Hour, 7 * 24 * time.Hour}

// startDunning makes a subscription whose invoice just failed past_due and
// schedules the first retry, unless dunning already runs for an earlier
// invoice.
func startDunning(sub *models.Subscription, at time.Time) {
	sub.Status = models.SubscriptionPastDue
	if sub.NextPaymentAttempt == nil {
		next := models.At(at.Add(retryDelays[0]))
		sub.NextPaymentAttempt = &next
	}
}

// afterFailedAttempt schedules the retry that follows the attempts of
// the invoice, or ends dunning with the subscription unpaid.
func afterFailedAttempt(sub *models.Subscription, inv *models.Invoice, at time.Time) {
	if inv.AttemptCount > len(retryDelays) {
		sub.Status, sub.NextPaymentAttempt = models.SubscriptionUnpaid, nil
		return
	}
	next := models.At(at.Add(retryDelays[max(inv.AttemptCount-1, 0)]))
	sub.Status, sub.NextPaymentAttempt = models.SubscriptionPastDue, &next
}

// openInvoices are the subscription's open invoices, oldest first.
func openInvoices(ctx context.Context, w *op.W, sub *models.Subscription) ([]*models.Invoice, error) {
	var list []*models.Invoice
	err := w.Tx.Select(&list).Column("id").Where("inv.subscription_id = ?", sub.ID).
		Where("inv.status = ?", models.InvoiceOpen).OrderExpr("inv.created, inv.id").Scan(ctx)
	return list, err
}

// lockedSubscription is a subscription locked by a write, with its
// rendering before the write changed it.
type lockedSubscription struct {
	*models.Subscription
	before json.RawMessage
}

// lockSubscriptionOf locks the subscription of an invoice the write has
// locked (the lock order: the invoice, then its subscription).
func lockSubscriptionOf(ctx context.Context, w *op.W, id uuid.UUID) (*lockedSubscription, error) {
	sub, before, err := lockSubscription(ctx, w, id.String(), false)
	if err != nil {
		return nil, err
	}
	return &lockedSubscription{Subscription: sub, before: before}, nil
}

// invoicePaid runs when a subscription's invoice is paid by POST
// /v1/invoices/{id}/pay, under the invoice's lock and the subscription's
// (locked before the charge): a subscription in dunning or incomplete
// whose last open invoice this was is active again, and a period's
// invoice paid sets what the period was charged (the base of a swap's
// credit).
func (ss *Subscriptions) invoicePaid(ctx context.Context, w *op.W, inv *models.Invoice, locked *lockedSubscription) error {
	sub, before := locked.Subscription, locked.before
	switch sub.Status {
	case models.SubscriptionPastDue, models.SubscriptionUnpaid, models.SubscriptionIncomplete:
	default:
		return nil
	}
	open, err := openInvoices(ctx, w, sub)
	if err != nil {
		return err
	}
	if len(open) > 0 {
		return nil
	}
	sub.Status, sub.NextPaymentAttempt = models.SubscriptionActive, nil
	if sub.LatestInvoiceID != nil && *sub.LatestInvoiceID == inv.ID {
		sub.PeriodAmountCharged = periodCharged(inv)
	}
	_, err = saveSubscription(ctx, w, sub, before)
	return err
}

// periodCharged is what an invoice charged for its period: its
// subscription line.
func periodCharged(inv *models.Invoice) int64 {
	var n int64
	for _, li := range inv.LineItems {
		if li.Kind == models.LineSubscription {
			n += li.Amount
		}
	}
	return n
}

// retry charges the oldest open invoice of a subscription in dunning once
// more, if the retry is still due at at. The invoice is locked before the
// subscription, the order paying an invoice takes, so a retry and a pay
// never wait on each other.
func (ss *Subscriptions) retry(ctx context.Context, w *op.W, id string, at time.Time) error {
	peek, err := subscriptionTable.Find(ctx, w, id)
	if err != nil {
		return err
	}
	open, err := openInvoices(ctx, w, peek)
	if err != nil {
		return err
	}
	var inv *models.Invoice
	if len(open) > 0 {
		if inv, err = invoices.LockInvoice(ctx, w, open[0].ID.String()); err != nil {
			return err
		}
	}
	sub, before, err := lockSubscription(ctx, w, id, false)
	if err != nil {
		return err
	}
	if sub.Status != models.SubscriptionPastDue || sub.NextPaymentAttempt == nil || sub.NextPaymentAttempt.After(at) {
		return nil
	}
	if inv == nil || inv.Status != models.InvoiceOpen {
		if open, err = openInvoices(ctx, w, sub); err != nil || len(open) > 0 {
			return err // another invoice is open: the next run retries it
		}
		sub.Status, sub.NextPaymentAttempt = models.SubscriptionActive, nil
		_, err := saveSubscription(ctx, w, sub, before)
		return err
	}
	if err := ss.svc.Invoices.Attempt(ctx, w, inv, sub.DefaultPaymentMethodID, true); err != nil {
		return err
	}
	if inv.Status != models.InvoicePaid {
		afterFailedAttempt(sub, inv, w.Now())
	} else if len(open) == 1 {
		sub.Status, sub.NextPaymentAttempt = models.SubscriptionActive, nil
		if sub.LatestInvoiceID != nil && *sub.LatestInvoiceID == inv.ID {
			sub.PeriodAmountCharged = periodCharged(inv)
		}
	} else {
		next := models.At(w.Now())
		sub.NextPaymentAttempt = &next
	}
	_, err = saveSubscription(ctx, w, sub, before)
	return err
}
