package subscriptions

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/invoices"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// The state actions of a subscription (docs/billing.md, Subscriptions):
//
//	active, past_due, unpaid, paused, incomplete ── cancel ──► canceled
//	active ── pause ──► paused ── resume (or resume_at) ──► active
//
// Every other transition is 422 invalid_state.

// cancelable are the states a subscription can be canceled from.
var cancelable = []models.SubscriptionStatus{models.SubscriptionActive, models.SubscriptionPastDue,
	models.SubscriptionUnpaid, models.SubscriptionPaused, models.SubscriptionIncomplete, models.SubscriptionPending}

// transition runs one state action on a subscription under its lock.
func (ss *Subscriptions) transition(ctx context.Context, name, id string, params any, refused string,
	allowed []models.SubscriptionStatus, apply func(w *op.W, sub *models.Subscription) error) (*models.Subscription, error) {
	spec := op.Spec{Name: name, Allow: secretOnly, Params: params}
	return op.Write(ctx, ss.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.Subscription, error) {
		sub, before, err := lockSubscription(ctx, w, id, true)
		if err != nil {
			return nil, err
		}
		if !statusIn(sub.Status, allowed) {
			return nil, apierr.InvalidState(refused + " (the subscription is " + string(sub.Status) + ")")
		}
		if err := apply(w, sub); err != nil {
			return nil, err
		}
		return saveSubscription(ctx, w, sub, before)
	})
}

// Cancel ends the subscription at once (API-DECISIONS §4: no cancel at
// period end), with no credit: nothing more is billed or retried.
func (ss *Subscriptions) Cancel(ctx context.Context, id string) (*models.Subscription, error) {
	return ss.transition(ctx, "subscription.cancel", id, invoices.IDParams{ID: id}, "The subscription cannot be canceled", cancelable,
		func(w *op.W, sub *models.Subscription) error {
			cancelNow(sub, w)
			return nil
		})
}

// cancelNow marks sub canceled at the write's time.
func cancelNow(sub *models.Subscription, w *op.W) {
	now := models.At(w.Now())
	sub.Status, sub.CanceledAt, sub.NextPaymentAttempt, sub.ResumeAt = models.SubscriptionCanceled, &now, nil, nil
	sub.ScheduledChangeID, sub.ScheduledProductID, sub.ScheduledIntervalSwitch, sub.ScheduledChangeCreated = nil, nil, nil, nil
}

type pauseParams struct {
	ID    string                         `json:"id"`
	Input *models.PauseSubscriptionInput `json:"input"`
}

// Pause stops billing an active subscription: its periods roll on the
// calendar unbilled until it resumes, by hand or at resume_at (which must
// be later than now).
func (ss *Subscriptions) Pause(ctx context.Context, id string, in *models.PauseSubscriptionInput) (*models.Subscription, error) {
	if in == nil {
		in = &models.PauseSubscriptionInput{}
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	return ss.transition(ctx, "subscription.pause", id, pauseParams{ID: id, Input: in}, "Only an active subscription can be paused",
		[]models.SubscriptionStatus{models.SubscriptionActive},
		func(w *op.W, sub *models.Subscription) error {
			now := models.At(w.Now())
			if in.ResumeAt != nil && !in.ResumeAt.After(now.Time) {
				return apierr.FieldError("resume_at", "must be later than the subscription's current time")
			}
			sub.Status, sub.PausedAt, sub.ResumeAt = models.SubscriptionPaused, &now, in.ResumeAt
			return nil
		})
}

// Resume returns a paused subscription to active; it is billed again from
// its next renewal.
func (ss *Subscriptions) Resume(ctx context.Context, id string) (*models.Subscription, error) {
	return ss.transition(ctx, "subscription.resume", id, invoices.IDParams{ID: id}, "Only a paused subscription can be resumed",
		[]models.SubscriptionStatus{models.SubscriptionPaused},
		func(_ *op.W, sub *models.Subscription) error {
			sub.Status, sub.PausedAt, sub.ResumeAt = models.SubscriptionActive, nil, nil
			return nil
		})
}

// DeleteScheduledChange drops the change queued for the next renewal
// (422 invalid_state when there is none).
func (ss *Subscriptions) DeleteScheduledChange(ctx context.Context, id string) (*models.Subscription, error) {
	spec := op.Spec{Name: "subscription.delete_scheduled_change", Allow: secretOnly, Params: invoices.IDParams{ID: id}}
	return op.Write(ctx, ss.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.Subscription, error) {
		sub, before, err := lockSubscription(ctx, w, id, true)
		if err != nil {
			return nil, err
		}
		if sub.ScheduledChangeID == nil {
			return nil, apierr.InvalidState("The subscription has no scheduled change")
		}
		sub.ScheduledChangeID, sub.ScheduledProductID, sub.ScheduledIntervalSwitch, sub.ScheduledChangeCreated = nil, nil, nil, nil
		return saveSubscription(ctx, w, sub, before)
	})
}

// CancelOfCustomer cancels, at once and in the write w deleting the
// customer, every subscription of the customer still running (spec doc 2
// §3: a deleted customer's active subscriptions are cancelled at once),
// announcing each update.
func (ss *Subscriptions) CancelOfCustomer(ctx context.Context, w *op.W, customerID uuid.UUID) error {
	var running []*models.Subscription
	if err := w.Tx.Select(&running).Column("id").Where("sub.customer_id = ?", customerID).
		Where("sub.status IN (?)", bun.In(cancelable)).OrderExpr("sub.id").For("UPDATE").Scan(ctx); err != nil {
		return err
	}
	for _, r := range running {
		sub, before, err := lockSubscription(ctx, w, r.ID.String(), false)
		if err != nil {
			return err
		}
		cancelNow(sub, w)
		if _, err := saveSubscription(ctx, w, sub, before); err != nil {
			return err
		}
	}
	return nil
}

func statusIn(s models.SubscriptionStatus, list []models.SubscriptionStatus) bool {
	for _, v := range list {
		if s == v {
			return true
		}
	}
	return false
}
