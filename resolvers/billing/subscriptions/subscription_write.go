package subscriptions

import (
	"context"
	"encoding/json"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// subscriptionColumns are the columns a change of a subscription writes.
var subscriptionColumns = []string{"status", "product_id", "default_payment_method_id", "description", "anchor",
	"period_number", "current_period_start", "current_period_end", "period_amount_charged", "credit_balance",
	"paused_at", "resume_at", "canceled_at", "scheduled_change_id", "scheduled_product_id",
	"scheduled_interval_switch", "scheduled_change_created", "next_payment_attempt", "latest_invoice_id",
	"metadata", "updated"}

// lockSubscription locks a subscription for a change, then reads it whole
// in its own statement (a statement that waited for the lock reads its
// plan and phases as they were when it started). A request's write then
// runs at the time of the payer's test clock; a due effect's already runs
// at its instant.
func lockSubscription(ctx context.Context, w *op.W, id string, request bool) (*models.Subscription, json.RawMessage, error) {
	if _, err := subscriptionTable.Lock(ctx, w, id, op.LockUpdate); err != nil {
		return nil, nil, err
	}
	sub, err := subscriptionTable.Find(ctx, w, id)
	if err != nil {
		return nil, nil, err
	}
	if request {
		if err := w.AtBoundClock(ctx, sub.TestClockID); err != nil {
			return nil, nil, err
		}
	}
	before, err := events.Render(sub)
	return sub, before, err
}

// saveSubscription writes the subscription's changing columns, reads it
// back whole (its plan follows a swap) and announces
// customer.subscription.updated with its previous attributes when it is
// customer-owned (account-owned subscriptions announce no update, spec
// doc 2 §6).
func saveSubscription(ctx context.Context, w *op.W, sub *models.Subscription, before json.RawMessage) (*models.Subscription, error) {
	sub.Updated = models.At(w.Now())
	if _, err := w.Tx.Update(sub).Column(subscriptionColumns...).WherePK().Exec(ctx); err != nil {
		return nil, err
	}
	fresh, err := subscriptionTable.Find(ctx, w, sub.ID.String())
	if err != nil {
		return nil, err
	}
	return fresh, announceUpdate(w, fresh, before)
}

// announceUpdate emits customer.subscription.updated for fresh, saved in
// w, with the attributes that changed since before, when it is
// customer-owned and something did change.
func announceUpdate(w *op.W, fresh *models.Subscription, before json.RawMessage) error {
	if !fresh.IsCustomerOwned() || before == nil {
		return nil
	}
	after, prev, err := events.RenderChange(before, fresh)
	if err != nil {
		return err
	}
	if prev != nil {
		w.Emit(EventSubscriptionUpdated, fresh.ID, after, prev)
	}
	return nil
}

// emitSubscription announces typ with the subscription as REST renders it.
func emitSubscription(w *op.W, typ events.Type, sub *models.Subscription) error {
	if err := w.EmitObject(typ, sub.ID, sub); err != nil {
		return err
	}
	return nil
}

// payerMethod checks that the payment method id names an active payment
// method of the subscription's payer.
func payerMethod(ctx context.Context, w *op.W, sub *models.Subscription, id string) (*uuid.UUID, error) {
	pm := new(models.PaymentMethod)
	v, ok := ids.Parse(id)
	if ok {
		q := w.Tx.Select(pm).Column("id", "status").Where("pm.id = ?", v)
		if sub.CustomerID != nil {
			q = q.Where("pm.customer_id = ?", *sub.CustomerID)
		} else {
			q = q.Where("pm.account_id = ?", *sub.AccountID)
		}
		if err := q.Scan(ctx); err != nil && !store.IsNoRows(err) {
			return nil, err
		}
	}
	if pm.ID == uuid.Nil || pm.Status != models.PaymentMethodActive {
		return nil, apierr.FieldError("default_payment_method", "is not an active payment method of the subscription's payer")
	}
	return &pm.ID, nil
}
